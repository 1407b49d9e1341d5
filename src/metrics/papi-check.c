/*
 * Which events of a PAPI event-definition model can be computed where a
 * given set of native events is known.  Pure: what is known is asked of a
 * callback, and the answer is a table; nothing is printed or evaluated.
 */
#include "config.h"

#include "metrics/papi.h"

#include <stdlib.h>

#include "util/xalloc.h"

/*
 * One pass in file order.  latest[name_id] is the last event of that name
 * seen so far in a section that applies, which is what a base event of
 * that name refers to (papi_model_resolve(), in constant time); because
 * only earlier events count, definitions cannot form a loop.
 */
int
papi_check(const struct papi_model *m, const char *pmu, papi_known_fn known,
    void *arg, struct papi_avail **out)
{
	const struct papi_event	*ev;
	const struct papi_base	*b;
	struct papi_avail	*av, *a;
	size_t			*latest = NULL, i, j, r;
	unsigned char		*here;

	*out = NULL;
	if (m->nevents == 0)
		return (0);
	av = xcalloc(m->nevents, sizeof *av);
	if (m->nnames != 0) {
		latest = xcalloc(m->nnames, sizeof *latest);
		for (i = 0; i < m->nnames; i++)
			latest[i] = PAPI_NONE;
	}
	here = xcalloc(m->nsections != 0 ? m->nsections : 1, 1);
	for (i = 0; i < m->nsections; i++)
		here[i] = papi_model_matches(&m->sections[i], pmu) != 0;
	for (i = 0; i < m->nevents; i++) {
		ev = &m->events[i];
		a = &av[i];
		a->base = PAPI_NONE;
		if (!here[ev->section]) {
			a->status = PAPI_NOT_HERE;
			continue;
		}
		a->status = PAPI_AVAILABLE;
		/* hvtop times rates itself: the cycle counter is not used. */
		for (j = ev->clock ? 1 : 0; j < ev->nbases; j++) {
			b = &ev->bases[j];
			r = b->name_id != PAPI_NONE ? latest[b->name_id] :
			    PAPI_NONE;
			if (r != PAPI_NONE) {
				if (av[r].status == PAPI_AVAILABLE)
					continue;
				a->missing = av[r].missing;
			} else if (known(b->name, arg))
				continue;
			else
				a->missing = b->name;
			a->status = PAPI_MISSING;
			a->base = j;
			break;
		}
		latest[ev->name_id] = i;
	}
	free(here);
	free(latest);
	*out = av;
	return (0);
}
