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

#include "config/serve-tlscfg.h"
#include "config/serve-webcfg.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/*
 * What is read of TLS holds together: versions in order, suites of the
 * table each once, a CA only with a client_auth_type that asks for a
 * certificate, and a priority string GnuTLS's grammar starts with.
 */
static void
check_tls(const struct serve_webcfg *c)
{
	char	*p;
	size_t	 i, j;

	if ((c->min_version != 0 && (c->min_version < 0x0301 ||
	    c->min_version > 0x0304)) || (c->max_version != 0 &&
	    (c->max_version < 0x0301 || c->max_version > 0x0304)) ||
	    (c->min_version != 0 && c->max_version != 0 &&
	    c->min_version > c->max_version))
		abort();
	if (c->nciphers > SERVE_TLS_NCIPHERS ||
	    c->client_auth < SERVE_TLS_NOCLIENTCERT ||
	    c->client_auth > SERVE_TLS_REQUIREANDVERIFYCLIENTCERT ||
	    (c->client_ca_file != NULL &&
	    c->client_auth == SERVE_TLS_NOCLIENTCERT))
		abort();
	for (i = 0; i < c->nciphers; i++) {
		if (c->ciphers[i] >= SERVE_TLS_NCIPHERS)
			abort();
		for (j = 0; j < i; j++) {
			if (c->ciphers[i] == c->ciphers[j])
				abort();
		}
	}
	for (i = 0; i < c->nheaders; i++) {
		if (strpbrk(c->headers[i].value, "\r\n") != NULL)
			abort();
	}
	p = serve_tlscfg_priorities(c);
	if (strncmp(p, "NORMAL:-VERS-ALL:+VERS-TLS1.", 28) != 0)
		abort();
	free(p);
}

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
	check_tls(c);
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
