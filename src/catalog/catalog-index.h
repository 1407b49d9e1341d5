/*
 * Private to src/catalog: what the parser needs from the index module.
 */
#ifndef HVTOP_CATALOG_INDEX_H
#define HVTOP_CATALOG_INDEX_H

struct catalog;

/* Free the lookup tables of cat (catalog_free() calls this). */
void	catalog_index_release(struct catalog *);
/*
 * catalog_reindex(), told whether a string of the model may need
 * escaping: the parser, which has seen every byte as it copied the
 * strings, passes 0 when all were printable ASCII.
 */
void	catalog_reindex_escape(struct catalog *, int escape);
/*
 * The k-th listed event (by position, in catalog order) whose sysfs name
 * an earlier listed event has, that one's position in *first; SIZE_MAX
 * past the last.  The index finds them as it is built.
 */
size_t	catalog_index_clash(const struct catalog *, size_t k,
	    size_t *first);

#endif /* HVTOP_CATALOG_INDEX_H */
