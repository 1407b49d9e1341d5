/*
 * Finding and reading catalog files: a path, or the name of a catalog
 * hvtop ships (power8, power9, power10).
 */
#include "config.h"

#include "source/source-catalog.h"

#include <sys/stat.h>

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/file.h"
#include "util/hverr.h"
#include "util/xalloc.h"

static const char *const source_catalog_names[] = {
	"power8", "power9", "power10", NULL
};

static int
source_catalog_is_file(const char *path)
{
	struct stat	 sb;

	return (stat(path, &sb) == 0 && S_ISREG(sb.st_mode));
}

/* The directory of the running program, so a build tree finds catalogs/. */
static char *
source_catalog_exe_dir(void)
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
source_catalog_shipped(const char *name)
{
	const char *const	*p;

	for (p = source_catalog_names; *p != NULL; p++) {
		if (strcmp(*p, name) == 0)
			return (1);
	}
	return (0);
}

char *
source_catalog_find(const char *name)
{
	const char	*env;
	char		*dirs[4], *exe, *path = NULL;
	size_t		 i, n = 0;

	if (!source_catalog_shipped(name))
		return (source_catalog_is_file(name) ? xstrdup(name) : NULL);
	if ((env = getenv("HVTOP_CATALOG_DIR")) != NULL && *env != '\0')
		dirs[n++] = xstrdup(env);
	if ((exe = source_catalog_exe_dir()) != NULL) {
		dirs[n++] = xasprintf("%s/catalogs", exe);
		free(exe);
	}
	dirs[n++] = xstrdup(HV_DATADIR "/catalogs");
	for (i = 0; i < n && path == NULL; i++) {
		path = xasprintf("%s/%s.bin", dirs[i], name);
		if (!source_catalog_is_file(path)) {
			free(path);
			path = NULL;
		}
	}
	for (i = 0; i < n; i++)
		free(dirs[i]);
	return (path);
}

int
source_catalog_read(const char *name, void **buf, size_t *len, char **cause)
{
	char	*path;
	int	 error;

	if ((path = source_catalog_find(name)) == NULL) {
		if (source_catalog_shipped(name))
			*cause = xasprintf("catalog %s is not installed "
			    "(looked in $HVTOP_CATALOG_DIR, catalogs/ beside "
			    "the program and %s/catalogs)", name, HV_DATADIR);
		else
			*cause = xasprintf("%s: no such catalog file (or one "
			    "of power8, power9, power10)", name);
		return (-HV_ENOENT);
	}
	error = file_read(path, SOURCE_CATALOG_MAX, buf, len, cause);
	free(path);
	return (error);
}
