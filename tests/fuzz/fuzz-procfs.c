/*
 * libFuzzer harness for the process files' parsers (src/util/procfs.c).
 * Two modes, chosen by the first byte:
 *   even: the rest as /proc/self/stat, /proc/stat and /proc/self/statm
 *         and as a line of fields.  A refusal must say why; nothing may
 *         read past the bytes given (the sanitizers see a copy of
 *         exactly that length).
 *   odd:  the rest makes a /proc/self/stat line, its command's name of
 *         any bytes but NUL (spaces and parentheses too), its starttime
 *         and a /proc/stat and statm around chosen numbers; each must
 *         parse back to what was put in.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/procfs.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

typedef int (*procfs_parse)(const char *, size_t, uint64_t *, char **);

/* A refusal says why; an answer leaves no cause. */
static void
fuzz_procfs_one(procfs_parse parse, const char *p, size_t n)
{
	char		*cause = NULL;
	uint64_t	 v;

	if (parse(p, n, &v, &cause) != 0) {
		if (cause == NULL || cause[0] == '\0')
			abort();
		free(cause);
	} else if (cause != NULL)
		abort();
}

static void
fuzz_procfs_raw(const uint8_t *data, size_t size)
{
	char		*p, *cause = NULL;
	uint64_t	 v;
	unsigned	 k;

	/* A copy of exactly size bytes: one past them is out of bounds. */
	p = malloc(size + 1);
	memcpy(p, data, size);
	fuzz_procfs_one(procfs_stat_start, p, size);
	fuzz_procfs_one(procfs_btime, p, size);
	fuzz_procfs_one(procfs_statm_resident, p, size);
	for (k = 0; k < 24; k += 7) {
		if (procfs_field(p, size, k, &v, &cause) != 0) {
			if (cause == NULL)
				abort();
			free(cause);
			cause = NULL;
		}
	}
	free(p);
}

static uint64_t
fuzz_procfs_take(const uint8_t **d, size_t *n, unsigned bytes)
{
	uint64_t	 v = 0;

	while (bytes-- > 0) {
		v = v << 8 | (*n > 0 ? **d : 0);
		if (*n > 0) {
			(*d)++;
			(*n)--;
		}
	}
	return (v);
}

/* Made from the input, parsed back. */
static void
fuzz_procfs_made(const uint8_t *d, size_t n)
{
	char		 stat[512], name[17], *cause = NULL;
	uint64_t	 start, boot, res, v;
	size_t		 i, len;
	int		 k;

	start = fuzz_procfs_take(&d, &n, 8);
	boot = fuzz_procfs_take(&d, &n, 8);
	res = fuzz_procfs_take(&d, &n, 8);
	for (i = 0; i < 16 && n > 0; i++) {
		name[i] = (char)fuzz_procfs_take(&d, &n, 1);
		if (name[i] == '\0')
			name[i] = ')';
	}
	name[i] = '\0';
	k = snprintf(stat, sizeof stat, "4242 (%s) S 1 1 1 0 -1 4194560 "
	    "9 0 0 0 3 1 0 0 20 0 1 0 %llu 3133440 366 18446744073709551615"
	    " 1 2 3 0 0\n", name, (unsigned long long)start);
	len = (size_t)k;
	if (procfs_stat_start(stat, len, &v, &cause) != 0 || v != start)
		abort();
	k = snprintf(stat, sizeof stat, "cpu  1 2 3\nintr 5 6\nbtime %llu\n"
	    "processes 77\n", (unsigned long long)boot);
	if (procfs_btime(stat, (size_t)k, &v, &cause) != 0 || v != boot)
		abort();
	k = snprintf(stat, sizeof stat, "765 %llu 382 5 0 123 0\n",
	    (unsigned long long)res);
	if (procfs_statm_resident(stat, (size_t)k, &v, &cause) != 0 ||
	    v != res)
		abort();
	/* Cut anywhere before the number's end: refused, never a number
	 * read past the cut. */
	if (n > 0) {
		len = (size_t)fuzz_procfs_take(&d, &n, 1) % (size_t)k;
		fuzz_procfs_one(procfs_statm_resident, stat, len);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return (0);
	if ((data[0] & 1) == 0)
		fuzz_procfs_raw(data + 1, size - 1);
	else
		fuzz_procfs_made(data + 1, size - 1);
	return (0);
}
