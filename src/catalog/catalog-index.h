/*
 * Private to src/catalog: what the parser needs from the index module.
 */
#ifndef HVTOP_CATALOG_INDEX_H
#define HVTOP_CATALOG_INDEX_H

struct catalog;

/* Free the lookup tables of cat (catalog_free() calls this). */
void	catalog_index_release(struct catalog *);

#endif /* HVTOP_CATALOG_INDEX_H */
