/*
 * libFuzzer harness for the ring's parsers: arbitrary bytes (up to the
 * first NUL) as a segment's name, a size and a time.  A name that parses
 * must print back to itself; a size or a time that fails must say "not
 * a" (or "too large"), one that parses must say nothing; a relative time
 * is never after now.  Any violation aborts.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "record/record-ring.h"
#include "util/xalloc.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define NOW	1796181120000000000ULL	/* 2026-12-02T03:12:00Z */

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char		 name[RECORD_RING_NAME_MAX];
	char		*s, *cause = NULL;
	uint64_t	 t, seq, v;
	int		 k;

	s = xstrndup((const char *)data, size);
	if ((k = record_ring_parse(s, &t, &seq)) == 1) {
		record_ring_name(name, sizeof name, t, seq);
		if (strcmp(name, s) != 0)
			abort();
	} else if (k != 0 && k != 2)
		abort();
	if (record_ring_size_parse(s, &v, &cause) != 0) {
		if (cause == NULL || (strstr(cause, "not a size") == NULL &&
		    strstr(cause, "too large") == NULL))
			abort();
		free(cause);
		cause = NULL;
	} else if (cause != NULL)
		abort();
	if (record_ring_time_parse(s, NOW, &v, &cause) != 0) {
		if (cause == NULL || strstr(cause, "not a time") == NULL)
			abort();
		free(cause);
	} else if (cause != NULL || (s[0] == '-' && v > NOW))
		abort();
	free(s);
	return (0);
}
