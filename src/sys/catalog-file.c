/*
 * Finding and reading catalog files: a path, or the name of a catalog
 * hvtop ships (power8, power9, power10).
 */
#include "config.h"

#include "sys/catalog-file.h"

#include <sys/stat.h>

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "model/hv-abi.h"
#include "sys/file.h"
#include "util/hverr.h"
#include "util/xalloc.h"

static const char *const catalog_file_names[] = {
	"power8", "power9", "power10", NULL
};

static int
catalog_file_is_file(const char *path)
{
	struct stat	 sb;

	return (stat(path, &sb) == 0 && S_ISREG(sb.st_mode));
}

/* The directory of the running program, so a build tree finds catalogs/. */
static char *
catalog_file_exe_dir(void)
{
	char	 buf[PATH_MAX], *slash;
	ssize_t	 n;

	if ((n = readlink("/proc/self/exe", buf, sizeof buf - 1)) <= 0)
		return (NULL);
	buf[n] = '\0';
	if ((slash = strrchr(buf, '/')) == NULL)
		return (NULL);
	*slash = '\0';
	return (xstrdup(buf));
}

int
catalog_file_shipped(const char *name)
{
	const char *const	*p;

	for (p = catalog_file_names; *p != NULL; p++) {
		if (strcmp(*p, name) == 0)
			return (1);
	}
	return (0);
}

char *
catalog_file_find(const char *name)
{
	const char	*env;
	char		*dirs[4], *exe, *path = NULL;
	size_t		 i, n = 0;

	if (!catalog_file_shipped(name))
		return (catalog_file_is_file(name) ? xstrdup(name) : NULL);
	if ((env = getenv("HVTOP_CATALOG_DIR")) != NULL && *env != '\0')
		dirs[n++] = xstrdup(env);
	if ((exe = catalog_file_exe_dir()) != NULL) {
		dirs[n++] = xasprintf("%s/catalogs", exe);
		free(exe);
	}
	dirs[n++] = xstrdup(HV_DATADIR "/catalogs");
	for (i = 0; i < n && path == NULL; i++) {
		path = xasprintf("%s/%s.bin", dirs[i], name);
		if (!catalog_file_is_file(path)) {
			free(path);
			path = NULL;
		}
	}
	for (i = 0; i < n; i++)
		free(dirs[i]);
	return (path);
}

/* Why name, which is no shipped catalog, cannot be read as a file. */
static int
catalog_file_not_file(const char *name, char **cause)
{
	struct stat	 sb;

	if (stat(name, &sb) == -1) {
		if (errno == ENOENT)
			*cause = xasprintf("%s: no such catalog file (or one "
			    "of power8, power9, power10)", name);
		else
			*cause = xasprintf("%s: %s", name, strerror(errno));
		return (errno == ENOENT ? -HV_ENOENT : -errno);
	}
	if (S_ISDIR(sb.st_mode))
		*cause = xasprintf("%s: is a directory, not a catalog file",
		    name);
	else
		*cause = xasprintf("%s: not a regular file (a %s); a catalog "
		    "is a file of %d-byte pages", name,
		    S_ISCHR(sb.st_mode) ? "character device" :
		    S_ISBLK(sb.st_mode) ? "block device" :
		    S_ISFIFO(sb.st_mode) ? "pipe" :
		    S_ISSOCK(sb.st_mode) ? "socket" : "special file",
		    HV_PAGE_SIZE);
	return (-HV_EFORMAT);
}

int
catalog_file_read(const char *name, void **buf, size_t *len, char **cause)
{
	uint32_t	 npages;
	char		*path;
	int		 error;

	if ((path = catalog_file_find(name)) == NULL) {
		if (!catalog_file_shipped(name))
			return (catalog_file_not_file(name, cause));
		*cause = xasprintf("catalog %s is not installed (looked in "
		    "$HVTOP_CATALOG_DIR, catalogs/ beside the program and "
		    "%s/catalogs)", name, HV_DATADIR);
		return (-HV_ENOENT);
	}
	error = file_read(path, CATALOG_FILE_MAX, buf, len, cause);
	if (error != 0) {
		free(path);
		return (error);
	}
	/* Page 0 says how long the catalog is: a file that says nonsense
	 * there is no catalog, and the message names it. */
	if (catalog_peek_pages(*buf, *len, &npages) != 0) {
		*cause = xasprintf("%s: not a 24x7 catalog: %zu bytes, "
		    "shorter than a page header", path, *len);
	} else if (npages == 0 ||
	    npages > CATALOG_FILE_MAX / HV_PAGE_SIZE) {
		*cause = xasprintf("%s: not a 24x7 catalog: page 0 claims "
		    "%llu pages (1 to %zu can be read)", path,
		    (unsigned long long)npages,
		    CATALOG_FILE_MAX / HV_PAGE_SIZE);
	} else {
		free(path);
		return (0);
	}
	free(*buf);
	*buf = NULL;
	free(path);
	return (-HV_EFORMAT);
}
