/*
 * File helpers for the core layer.  Errors come back as -errno with a cause
 * naming the file.
 */
#include "config.h"

#include "util/file.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/hverr.h"
#include "util/xalloc.h"

/*
 * Read all of path, refusing more than max bytes.  On success *out (caller
 * frees; NUL-terminated one past *len for text parsers) and *len are set.
 * Returns 0, -errno or -HV_ELIMIT with *cause set (caller frees).
 */
int
file_read(const char *path, size_t max, void **out, size_t *len, char **cause)
{
	char	*buf = NULL;
	size_t	 cap = 0, n = 0;
	ssize_t	 r;
	int	 fd, error;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1) {
		error = errno;
		*cause = xasprintf("%s: %s", path, strerror(error));
		return (-error);
	}
	for (;;) {
		if (cap - n < 4096) {
			cap = cap == 0 ? 65536 : cap * 2;
			buf = xreallocarray(buf, cap + 1, 1);
		}
		r = read(fd, buf + n, cap - n);
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1) {
			error = errno;
			*cause = xasprintf("%s: %s", path, strerror(error));
			goto fail;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > max) {
			*cause = xasprintf("%s: larger than %zu bytes", path,
			    max);
			error = HV_ELIMIT;
			goto fail;
		}
	}
	close(fd);
	if (buf == NULL)
		buf = xmalloc(1);
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return (0);
fail:
	close(fd);
	free(buf);
	return (-error);
}

/*
 * Replace path with len bytes of data: write a temporary file beside it,
 * flush it, then rename, so readers see the old or the new file whole.
 * The file gets mode 0600.  Returns 0 or -errno with *cause set.
 */
int
file_write_atomic(const char *path, const void *data, size_t len,
    char **cause)
{
	const char	*p = data;
	char		*tmp;
	ssize_t		 w;
	int		 fd, error;

	tmp = xasprintf("%s.XXXXXX", path);
	if ((fd = mkstemp(tmp)) == -1) {
		error = errno;
		*cause = xasprintf("%s: %s", tmp, strerror(error));
		free(tmp);
		return (-error);
	}
	while (len > 0) {
		w = write(fd, p, len);
		if (w == -1 && errno == EINTR)
			continue;
		if (w == -1)
			goto fail;
		p += w;
		len -= (size_t)w;
	}
	if (fchmod(fd, 0600) == -1 || fsync(fd) == -1)
		goto fail;
	if (close(fd) == -1) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) == -1)
		goto fail;
	free(tmp);
	return (0);
fail:
	error = errno;
	*cause = xasprintf("%s: %s", path, strerror(error));
	if (fd != -1)
		close(fd);
	unlink(tmp);
	free(tmp);
	return (-error);
}
