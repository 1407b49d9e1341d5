/*
 * hvcat_load: find, read and parse the catalog a command names, printing
 * every parser diagnostic to stderr as "hvcat: FILE: offset 0x...: ...".
 * The commands decide what a catalog with errors means for their exit
 * status; this file only loads.
 */
#include "config.h"

#include "hvcat/hvcat.h"

#include <sys/stat.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "util/file.h"
#include "util/xalloc.h"

/* Catalogs have at most 4 sections of 65535 pages each. */
#define HVCAT_MAX_SIZE	((size_t)1 << 30)

static const char *const hvcat_shipped[] = { "power8", "power9", "power10" };
static const char *const hvcat_suffixes[] = { ".bin", ".catalog", "" };

static int
hvcat_is_file(const char *path)
{
	struct stat	 sb;

	return (stat(path, &sb) == 0 && S_ISREG(sb.st_mode));
}

/* The directory hvcat runs from, so a build tree finds its catalogs/. */
static char *
hvcat_exe_dir(void)
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

/*
 * A shipped catalog name (power8, power9, power10) resolves, in order, in
 * $HVTOP_CATALOG_DIR, the catalogs/ directory of the build hvcat runs
 * from, and the installed data directory.  Returns an allocated path or
 * NULL.
 */
static char *
hvcat_find_shipped(const char *name)
{
	const char	*env;
	char		*dirs[4], *exe, *path = NULL;
	size_t		 i, j, n = 0;

	if ((env = getenv("HVTOP_CATALOG_DIR")) != NULL && *env != '\0')
		dirs[n++] = xstrdup(env);
	if ((exe = hvcat_exe_dir()) != NULL) {
		dirs[n++] = xasprintf("%s/catalogs", exe);
		free(exe);
	}
	dirs[n++] = xstrdup(HV_DATADIR);
	dirs[n++] = xstrdup(HV_DATADIR "/catalogs");
	for (i = 0; i < n && path == NULL; i++) {
		for (j = 0; j < sizeof hvcat_suffixes / sizeof
		    hvcat_suffixes[0]; j++) {
			path = xasprintf("%s/%s%s", dirs[i], name,
			    hvcat_suffixes[j]);
			if (hvcat_is_file(path))
				break;
			free(path);
			path = NULL;
		}
	}
	for (i = 0; i < n; i++)
		free(dirs[i]);
	return (path);
}

static char *
hvcat_resolve(const char *arg)
{
	size_t	 i;

	if (strchr(arg, '/') == NULL && !hvcat_is_file(arg)) {
		for (i = 0; i < sizeof hvcat_shipped / sizeof hvcat_shipped[0];
		    i++) {
			if (strcmp(arg, hvcat_shipped[i]) == 0)
				return (hvcat_find_shipped(arg));
		}
	}
	return (xstrdup(arg));
}

/*
 * Load the catalog arg names (a path or a shipped name) for interface
 * iface (0 guesses).  Every diagnostic goes to stderr.  Returns 0 with
 * *out set (caller frees with catalog_free()) when the catalog could be
 * parsed at all, even with errors (see (*out)->nerrors), or 1 after a
 * message.
 */
int
hvcat_load(const char *arg, int iface, struct catalog **out)
{
	struct catalog	*cat;
	void		*buf;
	char		*path, *cause;
	size_t		 len, i;
	int		 error;

	*out = NULL;
	if ((path = hvcat_resolve(arg)) == NULL) {
		fprintf(stderr, "hvcat: %s: no such shipped catalog (looked in "
		    "$HVTOP_CATALOG_DIR, the build's catalogs/ and %s)\n", arg,
		    HV_DATADIR);
		return (1);
	}
	if ((error = file_read(path, HVCAT_MAX_SIZE, &buf, &len,
	    &cause)) != 0) {
		fprintf(stderr, "hvcat: %s\n", cause);
		free(cause);
		free(path);
		return (1);
	}
	error = catalog_parse(buf, len, iface, &cat, &cause);
	free(buf);
	if (error != 0) {
		fprintf(stderr, "hvcat: %s: %s\n", arg, cause);
		free(cause);
		free(path);
		return (1);
	}
	for (i = 0; i < cat->ndiags; i++)
		fprintf(stderr, "hvcat: %s: offset 0x%zx: %s: %s\n", arg,
		    cat->diags[i].offset,
		    cat->diags[i].severity == CATALOG_ERROR ? "error" :
		    "warning", cat->diags[i].msg);
	free(path);
	*out = cat;
	return (0);
}
