/*
 * Which hypervisor records moved in a sample, for counters read without
 * a record timebase (perf's hv_24x7 gives none).  Such a counter that
 * reads the same twice is either a record the hypervisor has not updated
 * since, or a real zero; the two tell apart only beside the counters
 * read from the same record: when one of them moved, the record was
 * updated, and the one that did not move counted nothing.
 *
 * A record is a (domain, index, partition).  A virtual processor's
 * records in domains 3-6 also vouch for each other's zeros: its time
 * away from home is counted in those records, so a placement that still
 * reads 0 while another placement of the same processor moves is one the
 * processor did not run in.  A placement that already counted something
 * only moves with its own record.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "engine/engine-int.h"
#include "model/hv-abi.h"
#include "model/selection.h"
#include "util/xalloc.h"

/* A counter's place in the order of records: physical records, then the
 * virtual processors', whose records sit side by side. */
struct engine_moved_key {
	uint32_t	 vcpu;
	int32_t		 domain;	/* 0 for a virtual processor's */
	uint32_t	 lpar;
	uint32_t	 index;
	int32_t		 place;		/* its domain */
	size_t		 k;
};

static int
engine_moved_vcpu(int domain)
{
	return (domain >= HV_DOMAIN_VCPU_HOME_CORE &&
	    domain <= HV_DOMAIN_VCPU_REMOTE_NODE);
}

static int
engine_moved_cmp(const void *a, const void *b)
{
	const struct engine_moved_key *x = a, *y = b;

	if (x->vcpu != y->vcpu)
		return (x->vcpu < y->vcpu ? -1 : 1);
	if (x->domain != y->domain)
		return (x->domain < y->domain ? -1 : 1);
	if (x->lpar != y->lpar)
		return (x->lpar < y->lpar ? -1 : 1);
	if (x->index != y->index)
		return (x->index < y->index ? -1 : 1);
	if (x->place != y->place)
		return (x->place < y->place ? -1 : 1);
	return (x->k < y->k ? -1 : x->k > y->k);
}

void
engine_moved_build(struct engine *e)
{
	const struct sel_counter *c;
	struct engine_moved_key	*o, *p;
	size_t			 n = e->sel->ncounters, i;

	e->rec = xcalloc(n > 0 ? n : 1, sizeof *e->rec);
	e->vrec = xcalloc(n > 0 ? n : 1, sizeof *e->vrec);
	e->moved = xcalloc(n > 0 ? n : 1, 1);
	if (n == 0)
		return;
	o = xcalloc(n, sizeof *o);
	for (i = 0; i < n; i++) {
		c = &e->sel->counters[i];
		o[i].vcpu = (uint32_t)engine_moved_vcpu(c->domain);
		o[i].domain = o[i].vcpu ? 0 : c->domain;
		o[i].lpar = c->lpar;
		o[i].index = c->index;
		o[i].place = c->domain;
		o[i].k = i;
	}
	qsort(o, n, sizeof *o, engine_moved_cmp);
	e->rec[o[0].k] = e->vrec[o[0].k] = o[0].k;
	for (i = 1; i < n; i++) {
		p = &o[i - 1];
		if (o[i].vcpu == p->vcpu && o[i].domain == p->domain &&
		    o[i].lpar == p->lpar && o[i].index == p->index) {
			/* The same processor; the same record if the same
			 * placement too. */
			e->vrec[o[i].k] = e->vrec[p->k];
			e->rec[o[i].k] = o[i].place == p->place ?
			    e->rec[p->k] : o[i].k;
		} else
			e->rec[o[i].k] = e->vrec[o[i].k] = o[i].k;
	}
	free(o);
}

void
engine_moved_free(struct engine *e)
{
	free(e->rec);
	free(e->vrec);
	free(e->moved);
}

/*
 * Mark the records of rs whose counters moved since their baselines;
 * only counters without a record timebase are looked at (a timebase
 * says by itself whether its record was updated).
 */
void
engine_moved_scan(struct engine *e, const struct raw_sample *rs)
{
	const struct raw_value	*rv;
	size_t			 n = e->sel->ncounters, k;

	if (e->tb_hz == 0 || n == 0)
		return;
	memset(e->moved, 0, n);
	for (k = 0; k < n && k < rs->nvalues; k++) {
		rv = &rs->values[k];
		if (rv->timebase != 0 || e->prev_tb[k] != 0 ||
		    !(e->state[k] & ENG_ST_BASE) ||
		    engine_raw_status(rv->status) != ENG_OK ||
		    rv->value == e->prev[k])
			continue;
		e->moved[e->rec[k]] |= ENG_MOVED_RECORD;
		e->moved[e->vrec[k]] |= ENG_MOVED_VCPU;
	}
}
