/*
 * Catalog files: a path, or one of the catalogs hvtop ships, looked up in
 * $HVTOP_CATALOG_DIR, then catalogs/ beside the program (a build tree),
 * then the installed data directory.
 */
#ifndef HVTOP_SOURCE_CATALOG_H
#define HVTOP_SOURCE_CATALOG_H

#include <stddef.h>

/* Catalogs have at most 4 sections of 65535 pages each. */
#define SOURCE_CATALOG_MAX	((size_t)1 << 30)

/* Whether name is one of the shipped catalogs. */
int	 source_catalog_shipped(const char *name);
/* The file for a name or path; allocated (caller frees) or NULL. */
char	*source_catalog_find(const char *name);
/* Read it whole: 0 with *buf (caller frees) and *len, or -errno /
 * -HV_ENOENT with *cause set (caller frees). */
int	 source_catalog_read(const char *name, void **buf, size_t *len,
	    char **cause);

#endif /* HVTOP_SOURCE_CATALOG_H */
