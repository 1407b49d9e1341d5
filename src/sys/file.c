/*
 * File helpers for the core layer.  Errors come back as -errno with a cause
 * naming the file.
 */
#include "config.h"

#include "sys/file.h"

#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/hverr.h"
#include "sys/file-out.h"
#include "sys/iowait.h"
#include "sys/mapguard.h"
#include "util/xalloc.h"

/*
 * Read all of path, refusing more than max bytes.  On success *out (caller
 * frees; NUL-terminated one past *len for text parsers) and *len are set.
 * Returns 0, -errno or -HV_ELIMIT with *cause set (caller frees).
 */
int
file_read(const char *path, size_t max, void **out, size_t *len, char **cause)
{
	struct stat	 st;
	char		*buf = NULL;
	size_t		 cap = 0, n = 0;
	ssize_t		 r;
	int		 fd, error;

	/* O_NONBLOCK: opening a FIFO with no writer must not hang (it
	 * reads as empty); reads block again once it is open. */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) == -1) {
		error = errno;
		*cause = xasprintf("%s: %s", path, strerror(error));
		return (-error);
	}
	if ((r = fcntl(fd, F_GETFL)) != -1)
		(void)fcntl(fd, F_SETFL, (int)r & ~O_NONBLOCK);
	/* A file that says it is too large is refused before reading it,
	 * and so is a device: /dev/zero would fill max bytes of memory. */
	if (fstat(fd, &st) == 0 && (S_ISCHR(st.st_mode) ||
	    S_ISBLK(st.st_mode))) {
		*cause = xasprintf("%s: a device, not a file", path);
		error = ENODEV;
		goto fail;
	}
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uintmax_t)st.st_size > max) {
		*cause = xasprintf("%s: larger than %zu bytes", path, max);
		error = HV_ELIMIT;
		goto fail;
	}
	/* A regular file is read into one buffer of its size (and a page
	 * to see the end): growing by doubling would copy it. */
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		cap = (size_t)st.st_size + 4096;
		buf = xmalloc_huge(cap + 1, 1);
	}
	for (;;) {
		if (cap - n < 4096) {
			cap = cap == 0 ? 65536 : cap * 2;
			buf = xreallocarray(buf, cap + 1, 1);
		}
		/* A FIFO whose writer never writes waits in a way a
		 * signal ends. */
		if ((r = iowait_read(fd, buf + n, cap - n)) < 0) {
			error = (int)-r;
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
 * Map path read-only, after checking that it is a regular file of at most
 * max bytes that starts with the magic_len bytes of magic; what names what
 * the file should be, for the message when it is not.  Nothing is read
 * beyond the first bytes, so a device, a pipe, a directory or a large
 * file of something else is refused at once and costs no memory, and a
 * large file that is one is paged in as it is used.  Returns 0 with *out
 * set (release with file_unmap()), or -errno / -HV_EFORMAT / -HV_ELIMIT
 * with *cause set (caller frees).
 */
int
file_map(const char *path, const void *magic, size_t magic_len, size_t max,
    const char *what, struct file_map *out, char **cause)
{
	struct stat	 st;
	unsigned char	 head[64];
	ssize_t		 r;
	void		*p;
	int		 fd, error;

	memset(out, 0, sizeof *out);
	/* O_NONBLOCK: opening a FIFO must not wait for a writer. */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) == -1) {
		error = errno;
		*cause = xasprintf("%s: %s", path, strerror(error));
		return (-error);
	}
	if (fstat(fd, &st) == -1) {
		error = -errno;
		*cause = xasprintf("%s: %s", path, strerror(errno));
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		error = -EISDIR;
		*cause = xasprintf("%s: a directory, not %s", path, what);
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		error = -HV_EFORMAT;
		*cause = xasprintf("%s: not a regular file, so not %s", path,
		    what);
		goto fail;
	}
	if (magic_len > sizeof head)
		magic_len = sizeof head;
	do
		r = pread(fd, head, magic_len, 0);
	while (r == -1 && errno == EINTR);
	if (r == -1) {
		error = -errno;
		*cause = xasprintf("%s: %s", path, strerror(errno));
		goto fail;
	}
	if ((size_t)r < magic_len || memcmp(head, magic, magic_len) != 0) {
		error = -HV_EFORMAT;
		*cause = xasprintf("%s: not %s (%s)", path, what,
		    (size_t)r < magic_len ? "too short" :
		    "it does not start with the right bytes");
		goto fail;
	}
	if ((uintmax_t)st.st_size > max) {
		error = -HV_ELIMIT;
		*cause = xasprintf("%s: larger than %zu bytes", path, max);
		goto fail;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED) {
		error = -errno;
		*cause = xasprintf("%s: %s", path, strerror(errno));
		goto fail;
	}
	close(fd);
	out->p = p;
	out->len = (size_t)st.st_size;
	/* Cut short under us, the file reads as zeros there, not SIGBUS. */
	(void)mapguard_add(p, out->len);
	return (0);
fail:
	close(fd);
	return (error);
}

void
file_unmap(struct file_map *m)
{
	if (m->p != NULL) {
		mapguard_remove(m->p);
		munmap(m->p, m->len);
	}
	m->p = NULL;
	m->len = 0;
}

/*
 * Write len bytes of data to path as the one writer does (file-out.h):
 * a regular file is replaced whole or left as it was, a device or FIFO is
 * written where it is.  flags are FILE_OUT_*.  Returns 0 or a negative
 * code with *cause set (caller frees).
 */
int
file_write(const char *path, const void *data, size_t len, int flags,
    char **cause)
{
	struct file_out	 out;
	int		 error;

	if ((error = file_out_open(path, flags, &out, cause)) != 0)
		return (error);
	if ((error = file_out_write(&out, data, len, cause)) != 0) {
		file_out_abort(&out);
		return (error);
	}
	return (file_out_commit(&out, cause));
}
