/*
 * libFuzzer harness for hvtoprc: parse arbitrary bytes; a model that
 * parses must print to a text that parses again into the same entries
 * (keys, values, order).  A failed parse must say why.  Any violation
 * aborts.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config/settings.h"
#include "util/strbuf.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct settings	*s, *t;
	struct strbuf	 sb = { 0 };
	char		*cause = NULL;
	size_t		 i;

	if (settings_parse((const char *)data, size, &s, &cause) != 0) {
		if (cause == NULL || strlen(cause) == 0)
			abort();
		free(cause);
		return (0);
	}
	settings_format(s, &sb);
	if (settings_parse(sb.s, sb.len, &t, &cause) != 0)
		abort();
	if (t->nentries != s->nentries)
		abort();
	for (i = 0; i < s->nentries; i++) {
		if (strcmp(s->entries[i].key, t->entries[i].key) != 0 ||
		    strcmp(s->entries[i].value, t->entries[i].value) != 0)
			abort();
		if (settings_get(s, s->entries[i].key) == NULL)
			abort();
	}
	settings_free(t);
	settings_free(s);
	strbuf_free(&sb);
	return (0);
}
