/*
 * Lookups in the frame's shape (struct topology, model/raw.h): the
 * partitions a source lists are sorted by id.  Pure: no I/O.
 */
#include "config.h"

#include "model/raw.h"

#include <stddef.h>
#include <stdint.h>

const struct topo_lpar *
topo_lpar_find(const struct topo_lpar *l, size_t n, uint16_t id)
{
	size_t	 lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (l[mid].id == id)
			return (&l[mid]);
		if (l[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (NULL);
}
