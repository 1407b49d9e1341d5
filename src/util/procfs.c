/*
 * Numbers of the kernel's process files, taken within the bytes given:
 * every step checks the length, and a number is read digit by digit with
 * its overflow checked rather than with strtoull(), which would read past
 * the end of a buffer without a NUL.
 */
#include "config.h"

#include "util/procfs.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

#define PROCFS_STAT_START	22	/* starttime, counted from 1 */
#define PROCFS_STAT_STATE	3	/* the first field after ") " */

/* The decimal number at buf[off..len); -1 when there is none there. */
static int
procfs_number(const char *buf, size_t len, size_t off, uint64_t *v)
{
	uint64_t	 x = 0;
	size_t		 i;
	unsigned	 d;

	for (i = off; i < len && buf[i] >= '0' && buf[i] <= '9'; i++) {
		d = (unsigned)(buf[i] - '0');
		if (x > (UINT64_MAX - d) / 10)
			return (-1);
		x = x * 10 + d;
	}
	if (i == off || (i < len && buf[i] != ' ' && buf[i] != '\n'))
		return (-1);
	*v = x;
	return (0);
}

int
procfs_field(const char *buf, size_t len, unsigned n, uint64_t *v,
    char **cause)
{
	const char	*sp;
	size_t		 off = 0;
	unsigned	 k;

	for (k = 0; k < n; k++) {
		sp = off < len ? memchr(buf + off, ' ', len - off) : NULL;
		if (sp == NULL || memchr(buf + off, '\n',
		    (size_t)(sp - (buf + off))) != NULL) {
			*cause = xasprintf("%u fields, not %u", k + 1, n + 1);
			return (-1);
		}
		off = (size_t)(sp - buf) + 1;
	}
	if (procfs_number(buf, len, off, v) != 0) {
		*cause = xasprintf("field %u at byte %zu is not a number",
		    n + 1, off);
		return (-1);
	}
	return (0);
}

int
procfs_stat_start(const char *buf, size_t len, uint64_t *ticks,
    char **cause)
{
	char	*why = NULL;
	size_t	 i;

	for (i = len; i > 0 && buf[i - 1] != ')'; i--)
		continue;
	if (i == 0 || i >= len || buf[i] != ' ') {
		*cause = xstrdup("/proc/self/stat: no \"(name) \" before the "
		    "fields");
		return (-1);
	}
	if (procfs_field(buf + i + 1, len - i - 1, PROCFS_STAT_START -
	    PROCFS_STAT_STATE, ticks, &why) != 0) {
		*cause = xasprintf("/proc/self/stat: starttime, counted from "
		    "byte %zu: %s", i + 1, why);
		free(why);
		return (-1);
	}
	return (0);
}

int
procfs_btime(const char *buf, size_t len, uint64_t *btime, char **cause)
{
	static const char	 key[] = "btime ";
	const char		*nl;
	size_t			 off = 0, n;

	while (off < len) {
		nl = memchr(buf + off, '\n', len - off);
		n = (size_t)((nl != NULL ? nl : buf + len) - (buf + off));
		if (n >= sizeof key - 1 && memcmp(buf + off, key,
		    sizeof key - 1) == 0) {
			if (procfs_number(buf, off + n, off + sizeof key - 1,
			    btime) == 0)
				return (0);
			*cause = xasprintf("/proc/stat: the btime line at byte "
			    "%zu holds no number", off);
			return (-1);
		}
		off += n + 1;
	}
	*cause = xstrdup("/proc/stat: no btime line");
	return (-1);
}

int
procfs_statm_resident(const char *buf, size_t len, uint64_t *pages,
    char **cause)
{
	char	*why = NULL;

	if (procfs_field(buf, len, 1, pages, &why) == 0)
		return (0);
	*cause = xasprintf("/proc/self/statm: resident pages: %s", why);
	free(why);
	return (-1);
}
