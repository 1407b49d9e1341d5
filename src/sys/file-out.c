/*
 * The writer of every output file (see file-out.h for the rules).  It
 * must never replace what is not a regular file: hvtop runs as root, and
 * a rename over /dev/null or a FIFO destroys it.  Errors are -errno (or
 * -HV_EUSAGE for a name hvtop refuses) with a cause that names the file
 * as the user gave it.  A signal that interrupts a blocking open or
 * write (a FIFO nobody reads) ends it with -EINTR: the wait is not
 * restarted here.
 */
#include "config.h"

#include "sys/file-out.h"

#include <sys/random.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/iowait.h"
#include "util/hverr.h"
#include "util/xalloc.h"

#define FILE_OUT_HOPS	40	/* links followed at most, as the kernel */
#define FILE_OUT_TRIES	100	/* temporary names tried */

/* The text of the symbolic link at path (caller frees), or NULL. */
static char *
file_out_readlink(const char *path)
{
	char	*buf = NULL;
	size_t	 cap = 256;
	ssize_t	 n;

	for (;;) {
		buf = xreallocarray(buf, cap, 1);
		if ((n = readlink(path, buf, cap)) == -1) {
			free(buf);
			return (NULL);
		}
		if ((size_t)n < cap)
			break;
		cap *= 2;
	}
	buf[n] = '\0';
	return (buf);
}

/*
 * Follow the links that path's last part is, one at a time, to a name
 * that is no link (or names nothing yet: a dangling link creates its
 * target).  A relative link is read from the folder of the link.
 * Returns 0 with *out set (caller frees), or -errno with *cause.
 */
static int
file_out_follow(const char *path, char **out, char **cause)
{
	struct stat	 st;
	char		*cur, *link, *next, *slash;
	int		 hops, error, found;

	cur = xstrdup(path);
	for (hops = 0; hops <= FILE_OUT_HOPS; hops++) {
		if (!(found = lstat(cur, &st) == 0) && errno != ENOENT)
			goto fail;
		if (!found || !S_ISLNK(st.st_mode)) {
			*out = cur;
			return (0);
		}
		if ((link = file_out_readlink(cur)) == NULL)
			goto fail;
		if (link[0] == '/' || (slash = strrchr(cur, '/')) == NULL)
			next = link;
		else {
			next = xasprintf("%.*s/%s", (int)(slash - cur), cur,
			    link);
			free(link);
		}
		free(cur);
		cur = next;
	}
	errno = ELOOP;
fail:
	error = errno;
	*cause = xasprintf("%s: %s", path, strerror(error));
	free(cur);
	return (-error);
}

/* Create a new file beside out->target: 0666 less the umask, applied
 * by the kernel as for any new file.  Sets out->tmp and out->fd. */
static int
file_out_temp(struct file_out *out, char **cause)
{
	static const char	 set[] = "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char		 r[6];
	char			*tmp;
	size_t			 i, len;
	int			 try, fd, error;

	tmp = xasprintf("%s.XXXXXX", out->target);
	len = strlen(tmp);
	for (try = 0; try < FILE_OUT_TRIES; try++) {
		if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r)
			for (i = 0; i < sizeof r; i++)
				r[i] = (unsigned char)(getpid() + try * 7 + i);
		for (i = 0; i < sizeof r; i++)
			tmp[len - sizeof r + i] = set[r[i] % (sizeof set - 1)];
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC, 0666);
		if (fd != -1) {
			out->tmp = tmp;
			out->fd = fd;
			return (0);
		}
		if (errno != EEXIST)
			break;
	}
	error = errno;
	/* The name the user gave, not the temporary one, and what it
	 * links to. */
	if (strcmp(out->path, out->target) != 0)
		*cause = xasprintf("%s (a link to %s): %s", out->path,
		    out->target, strerror(error));
	else
		*cause = xasprintf("%s: %s", out->path, strerror(error));
	free(tmp);
	return (-error);
}

/*
 * A regular file, or none: follow the links and replace what they name.
 * old is what stat(2) found at the name, NULL when it found nothing; the
 * name followed must still be that file, or a link of /proc named a file
 * that has no name to be replaced under.
 */
static int
file_out_new(struct file_out *out, const struct stat *old, char **cause)
{
	struct stat	 st;
	int		 error, found;

	if ((error = file_out_follow(out->path, &out->target, cause)) != 0)
		return (error);
	found = lstat(out->target, &st) == 0;
	if (found != (old != NULL) || (found && (!S_ISREG(st.st_mode) ||
	    st.st_dev != old->st_dev || st.st_ino != old->st_ino))) {
		*cause = xasprintf("%s: changed while it was opened, or a "
		    "link to a file with no name to replace; not written",
		    out->path);
		return (-EAGAIN);
	}
	if ((error = file_out_temp(out, cause)) != 0)
		return (error);
	out->kind = FILE_OUT_NEW;
	if (!found)
		return (0);
	/* The owner first: a change of owner clears set-id bits.  Only
	 * root may give a file away, so a failure leaves the file ours. */
	(void)fchown(out->fd, st.st_uid, st.st_gid);
	if (fchmod(out->fd, st.st_mode & 07777) == -1) {
		error = errno;
		*cause = xasprintf("%s: %s", out->path, strerror(error));
		return (-error);
	}
	return (0);
}

/* What is not a regular file: written where it is, or refused. */
static int
file_out_special(struct file_out *out, const struct stat *st, int flags,
    char **cause)
{
	struct stat	 now;
	const char	*what = NULL;
	int		 fd;

	if (S_ISDIR(st->st_mode))
		what = "a directory";
	else if (S_ISSOCK(st->st_mode))
		what = "a socket, which hvtop does not write to";
	else if (S_ISBLK(st->st_mode))
		what = "a block device, which hvtop does not write over";
	else if (flags & FILE_OUT_REGULAR)
		what = S_ISFIFO(st->st_mode) ? "a FIFO, not a regular file" :
		    "a device, not a regular file";
	else if (!S_ISCHR(st->st_mode) && !S_ISFIFO(st->st_mode))
		what = "not a regular file, a device or a FIFO";
	if (what != NULL) {
		*cause = xasprintf("%s: %s; left as it is", out->path, what);
		return (S_ISDIR(st->st_mode) ? -EISDIR : -HV_EUSAGE);
	}
	/* No O_CREAT, no O_TRUNC: the node is written, never made anew.
	 * A FIFO's reader is waited for in a way a signal ends. */
	if ((fd = iowait_open(out->path, O_WRONLY | O_NOCTTY, 0)) < 0) {
		*cause = xasprintf("%s: %s", out->path, strerror(-fd));
		return (fd);
	}
	out->fd = fd;
	out->kind = FILE_OUT_INPLACE;
	if (fstat(fd, &now) == -1 || now.st_dev != st->st_dev ||
	    now.st_ino != st->st_ino) {
		*cause = xasprintf("%s: changed while it was opened; not "
		    "written", out->path);
		return (-EAGAIN);
	}
	return (0);
}

/* The descriptor path names (/dev/stdout, /dev/fd/N, /proc/self/fd/N),
 * or -1 for a name of the file system. */
static int
file_out_fdname(const char *path)
{
	static const char *const prefix[] = { "/dev/fd/", "/proc/self/fd/" };
	const char	*p;
	char		*end;
	long		 n;
	size_t		 i;

	if (strcmp(path, "/dev/stdout") == 0)
		return (STDOUT_FILENO);
	if (strcmp(path, "/dev/stderr") == 0)
		return (STDERR_FILENO);
	for (i = 0; i < sizeof prefix / sizeof prefix[0]; i++) {
		if (strncmp(path, prefix[i], strlen(prefix[i])) != 0)
			continue;
		p = path + strlen(prefix[i]);
		errno = 0;
		n = strtol(p, &end, 10);
		if (end != p && *end == '\0' && *p >= '0' && *p <= '9' &&
		    errno == 0 && n <= INT_MAX)
			return ((int)n);
	}
	return (-1);
}

/*
 * A descriptor hvtop was given (-o /dev/stdout >>log): written as it is,
 * at its own offset and with its own O_APPEND, as a shell's redirection
 * would be; the file behind it is not replaced.
 */
static int
file_out_fd(struct file_out *out, int n, char **cause)
{
	int	 error;

	(void)fflush(NULL);
	if ((out->fd = fcntl(n, F_DUPFD_CLOEXEC, 3)) == -1) {
		error = errno;
		*cause = xasprintf("%s: %s", out->path, strerror(error));
		return (-error);
	}
	out->kind = FILE_OUT_INPLACE;
	return (0);
}

/*
 * Open path for writing as file-out.h says; flags are FILE_OUT_*.
 * Returns 0 with *out open (end it with file_out_commit() or
 * file_out_abort()), or a negative code with *cause set (caller frees)
 * and *out holding nothing.  A new or replaced file is put in place by
 * file_out_place() or file_out_commit(), not before.
 */
int
file_out_open(const char *path, int flags, struct file_out *out,
    char **cause)
{
	struct stat	 st;
	int		 n, error;

	memset(out, 0, sizeof *out);
	out->fd = -1;
	if ((flags & FILE_OUT_DASH) && strcmp(path, "-") == 0) {
		/* What stdio holds goes first. */
		(void)fflush(stdout);
		out->path = xstrdup("standard output");
		out->fd = STDOUT_FILENO;
		out->kind = FILE_OUT_STDOUT;
		return (0);
	}
	out->path = xstrdup(path);
	if (*path == '\0') {
		*cause = xstrdup("an empty file name");
		error = -ENOENT;
	} else if (!(flags & FILE_OUT_REGULAR) &&
	    (n = file_out_fdname(path)) != -1)
		error = file_out_fd(out, n, cause);
	else if (stat(path, &st) == 0)
		error = S_ISREG(st.st_mode) ? file_out_new(out, &st, cause) :
		    file_out_special(out, &st, flags, cause);
	else if (errno == ENOENT)
		error = file_out_new(out, NULL, cause);
	else {
		error = -errno;
		*cause = xasprintf("%s: %s", path, strerror(errno));
	}
	if (error != 0)
		file_out_abort(out);
	return (error);
}

/* Write all of data; returns 0 or -errno with *cause set. */
int
file_out_write(struct file_out *out, const void *data, size_t len,
    char **cause)
{
	int	 error;

	/* A FIFO nobody reads waits in a way a signal ends. */
	if ((error = iowait_write(out->fd, data, len, NULL)) != 0) {
		*cause = xasprintf("%s: %s", out->path, strerror(-error));
		return (error);
	}
	return (0);
}

/* A stdio stream on the output, owned by out (file_out_commit() closes
 * it), or NULL with *cause set. */
FILE *
file_out_fp(struct file_out *out, char **cause)
{
	if (out->kind == FILE_OUT_STDOUT)
		return (stdout);
	if (out->fp == NULL && (out->fp = fdopen(out->fd, "w")) == NULL)
		*cause = xasprintf("%s: %s", out->path, strerror(errno));
	return (out->fp);
}

/*
 * Put a new file in place now, for an output written as it goes (-o of a
 * batch run, -w): the name holds the new file from here on, and the
 * rename is done while hvtop still has the rights it started with.
 */
int
file_out_place(struct file_out *out, char **cause)
{
	int	 error;

	if (out->tmp == NULL)
		return (0);
	if (rename(out->tmp, out->target) == -1) {
		error = errno;
		*cause = xasprintf("%s: %s", out->path, strerror(error));
		return (-error);
	}
	free(out->tmp);
	out->tmp = NULL;
	return (0);
}

/*
 * End the output well: flush it to the disk and put a new file in place,
 * or leave the name as it was and say why (a short write to a full disk
 * or to /dev/full is an error here, never a success).  *out holds nothing
 * afterwards.  Returns 0 or -errno with *cause set.
 */
int
file_out_commit(struct file_out *out, char **cause)
{
	int	 error = 0;

	if (out->kind == FILE_OUT_STDOUT) {
		if (fflush(stdout) != 0)
			error = errno;
	} else if (out->kind != FILE_OUT_NONE) {
		if (out->fp != NULL && fflush(out->fp) != 0)
			error = errno;
		/* A regular file is on the disk before its name is. */
		if (error == 0 && out->kind == FILE_OUT_NEW &&
		    fsync(out->fd) == -1)
			error = errno;
		if ((out->fp != NULL ? fclose(out->fp) : close(out->fd)) != 0 &&
		    error == 0)
			error = errno;
		out->fp = NULL;
		out->fd = -1;
	}
	if (error != 0)
		*cause = xasprintf("%s: %s", out->path, strerror(error));
	else
		error = -file_out_place(out, cause);
	file_out_abort(out);
	return (-error);
}

/* Give up: close, remove a temporary file not yet in place, free. */
void
file_out_abort(struct file_out *out)
{
	if (out->fp != NULL)
		(void)fclose(out->fp);
	else if (out->fd != -1 && (out->kind == FILE_OUT_NEW ||
	    out->kind == FILE_OUT_INPLACE))
		(void)close(out->fd);
	if (out->tmp != NULL)
		(void)unlink(out->tmp);
	free(out->tmp);
	free(out->target);
	free(out->path);
	memset(out, 0, sizeof *out);
	out->fd = -1;
}
