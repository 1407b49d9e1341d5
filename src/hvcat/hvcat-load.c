/*
 * hvcat_load: find, read and parse the catalog a command names, printing
 * every parser diagnostic to stderr as "hvcat: FILE: offset 0x...: ...".
 * The commands decide what a catalog with errors means for their exit
 * status; this file only loads.
 */
#include "config.h"

#include "hvcat/hvcat.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "record/record.h"
#include "sys/catalog-file.h"
#include "util/xalloc.h"

int
hvcat_interface(const char *arg)
{
	if (strcmp(arg, "0") != 0 && strcmp(arg, "1") != 0 &&
	    strcmp(arg, "2") != 0) {
		fprintf(stderr, "hvcat: interface must be 0 (guess), 1 or 2, "
		    "not '%s'\n", arg);
		return (-1);
	}
	return (arg[0] - '0');
}

/*
 * A shipped catalog name (power8, power9, power10) that is not a file in
 * the current directory is looked up where hvtop looks for it (see
 * sys/catalog-file.h); anything else is a path.  NULL when a shipped
 * catalog is not installed.
 */
static char *
hvcat_resolve(const char *arg)
{
	struct stat	 sb;

	if (catalog_file_shipped(arg) &&
	    !(stat(arg, &sb) == 0 && S_ISREG(sb.st_mode)))
		return (catalog_file_find(arg));
	return (xstrdup(arg));
}

/* Read exactly len bytes at the current offset; 0 or an errno. */
static int
hvcat_read_all(int fd, void *buf, size_t len)
{
	char	*p = buf;
	ssize_t	 r;

	while (len > 0) {
		r = read(fd, p, len);
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1)
			return (errno);
		if (r == 0)
			return (EIO);	/* the file shrank under us */
		p += r;
		len -= (size_t)r;
	}
	return (0);
}

/*
 * Read the file path names, after checking what it is: a regular file
 * (not a device, a FIFO or a directory, which could be endless or block),
 * of a size known before a byte is read.  A recording (hvtop -w, told by
 * its magic) may be up to HVCAT_RECORD_MAX bytes, anything else is taken
 * for a catalog of at most CATALOG_FILE_MAX.  Returns 0 with *out
 * (caller frees), *len and *is_record set, or 1 after a message.
 */
int
hvcat_read(const char *path, void **out, size_t *len, int *is_record)
{
	struct stat	 sb;
	uint8_t		 head[RECORD_MAGIC_LEN];
	size_t		 n, max;
	void		*buf;
	int		 fd, error;

	*out = NULL;
	*len = 0;
	*is_record = 0;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) == -1) {
		fprintf(stderr, "hvcat: %s: %s\n", path, strerror(errno));
		return (1);
	}
	if (fstat(fd, &sb) == -1) {
		fprintf(stderr, "hvcat: %s: %s\n", path, strerror(errno));
		close(fd);
		return (1);
	}
	if (!S_ISREG(sb.st_mode)) {
		fprintf(stderr, "hvcat: %s: not a regular file (%s); a catalog "
		    "or a recording is one\n", path, S_ISDIR(sb.st_mode) ?
		    "a directory" : S_ISCHR(sb.st_mode) || S_ISBLK(sb.st_mode) ?
		    "a device" : S_ISFIFO(sb.st_mode) ? "a FIFO" :
		    S_ISSOCK(sb.st_mode) ? "a socket" : "special");
		close(fd);
		return (1);
	}
	n = sb.st_size < (off_t)sizeof head ? (size_t)sb.st_size : sizeof head;
	if ((error = hvcat_read_all(fd, head, n)) != 0) {
		fprintf(stderr, "hvcat: %s: %s\n", path, strerror(error));
		close(fd);
		return (1);
	}
	*is_record = record_read_is(head, n);
	max = *is_record ? HVCAT_RECORD_MAX : CATALOG_FILE_MAX;
	if ((uintmax_t)sb.st_size > max) {
		fprintf(stderr, "hvcat: %s: %jd bytes, more than a %s may have "
		    "(%zu); nothing read\n", path, (intmax_t)sb.st_size,
		    *is_record ? "recording" : "catalog", max);
		close(fd);
		return (1);
	}
	buf = xmalloc((size_t)sb.st_size + 1);
	memcpy(buf, head, n);
	if ((error = hvcat_read_all(fd, (char *)buf + n,
	    (size_t)sb.st_size - n)) != 0) {
		fprintf(stderr, "hvcat: %s: %s\n", path, strerror(error));
		free(buf);
		close(fd);
		return (1);
	}
	close(fd);
	((char *)buf)[sb.st_size] = '\0';
	*out = buf;
	*len = (size_t)sb.st_size;
	return (0);
}

/*
 * Load the catalog arg names (a path or a shipped name) for interface
 * iface (0 guesses).  Every diagnostic goes to stderr.  Returns 0 with
 * *out set (caller frees with catalog_free()) when the catalog could be
 * parsed at all, even with errors (see (*out)->nerrors), or 1 after a
 * message.  With rec non-NULL, a recording is not parsed as a catalog:
 * *rec gets its bytes (caller frees), *reclen their length, and *out
 * stays NULL.
 */
int
hvcat_load_any(const char *arg, int iface, struct catalog **out,
    void **rec, size_t *reclen)
{
	struct catalog	*cat;
	void		*buf;
	char		*path, *cause;
	size_t		 len, i;
	int		 error, is_record;

	*out = NULL;
	if ((path = hvcat_resolve(arg)) == NULL) {
		fprintf(stderr, "hvcat: %s: no such shipped catalog (looked in "
		    "$HVTOP_CATALOG_DIR, the build's catalogs/ and "
		    "%s/catalogs)\n", arg, HV_DATADIR);
		return (1);
	}
	error = hvcat_read(path, &buf, &len, &is_record);
	free(path);
	if (error != 0)
		return (1);
	if (is_record) {
		if (rec != NULL) {
			*rec = buf;
			*reclen = len;
			return (0);
		}
		fprintf(stderr, "hvcat: %s: a recording (hvtop -w), not a "
		    "catalog; hvcat info and hvcat check read it\n", arg);
		free(buf);
		return (1);
	}
	error = catalog_parse(buf, len, iface, &cat, &cause);
	free(buf);
	if (error != 0) {
		fprintf(stderr, "hvcat: %s: %s\n", arg, cause);
		free(cause);
		return (1);
	}
	for (i = 0; i < cat->ndiags; i++)
		fprintf(stderr, "hvcat: %s: offset 0x%zx: %s: %s\n", arg,
		    cat->diags[i].offset,
		    cat->diags[i].severity == CATALOG_ERROR ? "error" :
		    "warning", cat->diags[i].msg);
	*out = cat;
	return (0);
}

int
hvcat_load(const char *arg, int iface, struct catalog **out)
{
	return (hvcat_load_any(arg, iface, out, NULL, NULL));
}
