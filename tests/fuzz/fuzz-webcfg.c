/*
 * libFuzzer harness for --web-config's parser: any input is read or
 * refused with a cause that names a line and a column (or the size
 * limit); what is read holds both TLS files or neither, and users with
 * distinct non-empty names, each with a well-formed bcrypt hash.  Any
 * violation aborts.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config/serve-webcfg.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct serve_webcfg	*c;
	char			*cause = NULL;
	size_t			 i, j;

	if (serve_webcfg_parse((const char *)data, size, &c, &cause) != 0) {
		if (c != NULL || cause == NULL || (strncmp(cause, "line ", 5)
		    != 0 && size <= SERVE_WEBCFG_MAXLEN))
			abort();
		free(cause);
		return (0);
	}
	if (c == NULL || (c->cert_file == NULL) != (c->key_file == NULL))
		abort();
	if (c->cert_file != NULL && (c->cert_file[0] == '\0' ||
	    c->key_file[0] == '\0'))
		abort();
	for (i = 0; i < c->nusers; i++) {
		if (c->users[i].name[0] == '\0' ||
		    strchr(c->users[i].name, ':') != NULL ||
		    strlen(c->users[i].hash) != 60 ||
		    strncmp(c->users[i].hash, "$2", 2) != 0)
			abort();
		for (j = 0; j < i; j++) {
			if (strcmp(c->users[i].name, c->users[j].name) == 0)
				abort();
		}
	}
	serve_webcfg_free(c);
	return (0);
}
