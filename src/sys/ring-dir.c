/*
 * The segments of a ring directory, listed for the writer
 * (session-ring.c) and for the readers (hvcat info DIR, the replay of a
 * window) by one loop, so that they agree on what is a segment: a
 * regular file under a segment's name, never what a symbolic link
 * points to.
 */
#include "config.h"

#include "sys/ring-dir.h"

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "record/record-ring.h"
#include "util/xalloc.h"

/* One entry: 1 when it is a segment (into *s), 0 when not. */
static int
ring_dir_entry(int dfd, const char *name, int flags,
    struct record_ring_seg *s)
{
	struct stat	 st;
	size_t		 len = strlen(name);
	int		 kind;

	memset(s, 0, sizeof *s);
	if (len >= sizeof s->name ||
	    (kind = record_ring_parse(name, &s->wall_ns, &s->seq)) == 0 ||
	    fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == -1 ||
	    !S_ISREG(st.st_mode))
		return (0);
	if (kind == 2) {
		/* What a writer killed outright left half made. */
		if (flags & RING_DIR_TIDY)
			(void)unlinkat(dfd, name, 0);
		return (0);
	}
	memcpy(s->name, name, len + 1);
	s->bytes = (uint64_t)st.st_size;
	return (1);
}

int
ring_dir_scan(const char *dir, int flags, struct record_ring_seg **out,
    size_t *count, char **cause)
{
	struct record_ring_seg	*v = NULL;
	struct dirent		*de;
	size_t			 n = 0, cap = 0;
	DIR			*d;
	int			 error;

	*out = NULL;
	*count = 0;
	if ((d = opendir(dir)) == NULL) {
		error = -errno;
		*cause = xasprintf("%s: %s", dir, strerror(errno));
		return (error);
	}
	while ((de = readdir(d)) != NULL) {
		if (n == cap) {
			cap = cap == 0 ? 16 : cap * 2;
			v = xreallocarray(v, cap, sizeof *v);
		}
		n += ring_dir_entry(dirfd(d), de->d_name, flags, &v[n]);
	}
	closedir(d);
	record_ring_sort(v, n);
	*out = v;
	*count = n;
	return (0);
}

size_t
ring_dir_list(const char *dir, struct record_ring_seg **out, char **cause)
{
	size_t	 n;

	*cause = NULL;
	(void)ring_dir_scan(dir, 0, out, &n, cause);
	return (n);
}
