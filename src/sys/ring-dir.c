/*
 * The segments of a ring directory, listed for its readers.  The writer
 * (session-ring.c) lists them itself, as it also removes what a killed
 * run left under a temporary name.
 */
#include "config.h"

#include "sys/ring-dir.h"

#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>

#include "record/record-ring.h"
#include "util/xalloc.h"

size_t
ring_dir_list(const char *dir, struct record_ring_seg **out, char **cause)
{
	struct record_ring_seg	*v = NULL;
	struct dirent		*de;
	struct stat		 st;
	size_t			 n = 0, cap = 0, len;
	DIR			*d;

	*out = NULL;
	*cause = NULL;
	if ((d = opendir(dir)) == NULL) {
		*cause = xasprintf("%s: %s", dir, strerror(errno));
		return (0);
	}
	while ((de = readdir(d)) != NULL) {
		if (n == cap) {
			cap = cap == 0 ? 16 : cap * 2;
			v = xreallocarray(v, cap, sizeof *v);
		}
		memset(&v[n], 0, sizeof v[n]);
		len = strlen(de->d_name);
		if (len >= sizeof v[n].name ||
		    record_ring_parse(de->d_name, &v[n].wall_ns,
		    &v[n].seq) != 1 ||
		    fstatat(dirfd(d), de->d_name, &st,
		    AT_SYMLINK_NOFOLLOW) == -1 || !S_ISREG(st.st_mode))
			continue;
		memcpy(v[n].name, de->d_name, len + 1);
		v[n].bytes = (uint64_t)st.st_size;
		n++;
	}
	closedir(d);
	record_ring_sort(v, n);
	*out = v;
	return (n);
}
