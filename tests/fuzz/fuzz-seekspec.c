/*
 * libFuzzer harness for the replay's "go to" text: parse arbitrary bytes
 * (up to the first NUL).  A failure must name a column within the text;
 * a success must be a sample number or a time, and an offset can only
 * move forward from the first sample.  Any violation aborts.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/seekspec.h"
#include "util/xalloc.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define FIRST	1767225600000000000ULL	/* 2026-01-01T00:00:00Z */

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct seekspec	 w;
	char		*s, *cause = NULL, *end;
	unsigned long	 col;

	s = xstrndup((const char *)data, size);
	if (seekspec_parse(s, FIRST, &w, &cause) != 0) {
		if (cause == NULL || strncmp(cause, "column ", 7) != 0)
			abort();
		col = strtoul(cause + 7, &end, 10);
		if (*end != ':' || col < 1 || col > strlen(s) + 1)
			abort();
		free(cause);
	} else {
		if (cause != NULL)
			abort();
		if (w.kind != SEEKSPEC_SAMPLE && w.kind != SEEKSPEC_WALL)
			abort();
		if (strchr(s, '+') != NULL && w.value < FIRST)
			abort();
	}
	free(s);
	return (0);
}
