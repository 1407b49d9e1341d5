/*
 * hvcat_load: find, read and parse the catalog a command names, printing
 * every parser diagnostic to stderr as "hvcat: FILE: offset 0x...: ...".
 * The commands decide what a catalog with errors means for their exit
 * status; this file only loads.
 */
#include "config.h"

#include "hvcat/hvcat.h"

#include <sys/stat.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "source/source-catalog.h"
#include "util/file.h"
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
 * source-catalog.h); anything else is a path.  NULL when a shipped
 * catalog is not installed.
 */
static char *
hvcat_resolve(const char *arg)
{
	struct stat	 sb;

	if (source_catalog_shipped(arg) &&
	    !(stat(arg, &sb) == 0 && S_ISREG(sb.st_mode)))
		return (source_catalog_find(arg));
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
		    "$HVTOP_CATALOG_DIR, the build's catalogs/ and "
		    "%s/catalogs)\n", arg, HV_DATADIR);
		return (1);
	}
	if ((error = file_read(path, SOURCE_CATALOG_MAX, &buf, &len,
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
