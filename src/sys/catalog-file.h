/*
 * Catalog files: a path, or one of the catalogs hvtop ships, looked up in
 * $HVTOP_CATALOG_DIR, then catalogs/ beside the program (a build tree),
 * then the installed data directory.  A helper of its own so that the
 * simulated transport, which serves a catalog file, and hvcat find the
 * same file without one calling into the other.
 */
#ifndef HVTOP_CATALOG_FILE_H
#define HVTOP_CATALOG_FILE_H

#include <stddef.h>

/* Catalogs have at most 4 sections of 65535 pages each. */
#define CATALOG_FILE_MAX	((size_t)1 << 30)

/* Whether name is one of the shipped catalogs. */
int	 catalog_file_shipped(const char *name);
/* The file for a name or path; allocated (caller frees) or NULL. */
char	*catalog_file_find(const char *name);
/* Read it whole: 0 with *buf (caller frees) and *len, or -errno /
 * -HV_ENOENT with *cause set (caller frees). */
int	 catalog_file_read(const char *name, void **buf, size_t *len,
	    char **cause);

#endif /* HVTOP_CATALOG_FILE_H */
