/*
 * The planner's packing: sorted reads into requests and requests into
 * buffers, up to the request limit and the result buffer's size, counted
 * exactly so results always fit.  Identical reads over consecutive
 * indexes become one request with max_ix > 1, and the same run of
 * indexes of consecutive partitions one request with max_num_lpars > 1,
 * when the transport allows several indexes.  Pure: no I/O.
 */
#include "config.h"

#include "hcall/hcall.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hcall/hcall-plan-int.h"
#include "util/xalloc.h"

/* Reads of one (domain, lpar, offset, size) over consecutive indexes. */
struct hcall_plan_run {
	uint32_t	 first;		/* its first read */
	uint32_t	 count;		/* reads, one per index */
	int		 lpars;		/* names a partition: may merge */
	struct hcall_plan_read key;	/* a copy of its first read */
};

/* Where requests go: a plan's buffers, or only counted (plan NULL). */
struct hcall_plan_out {
	struct hcall_plan *plan;
	size_t		 cap;
	int		 open;		/* a buffer is open */
	unsigned	 nreq;		/* its requests */
	size_t		 used;		/* its result bytes */
	size_t		 nbufs;
	size_t		 nrequests;
};

static struct hcall_reqbuf *
hcall_plan_new_buf(struct hcall_plan *plan, size_t *cap)
{
	struct hcall_reqbuf	*rb;

	if (plan->nbufs == *cap) {
		*cap = *cap == 0 ? 4 : *cap * 2;
		plan->bufs = xreallocarray(plan->bufs, *cap,
		    sizeof *plan->bufs);
		plan->result_bytes = xreallocarray(plan->result_bytes, *cap,
		    sizeof *plan->result_bytes);
	}
	rb = &plan->bufs[plan->nbufs];
	memset(rb, 0, sizeof *rb);
	rb->version = plan->version;
	plan->result_bytes[plan->nbufs] = HCALL_RES_HDR_SIZE;
	plan->nbufs++;
	return (rb);
}

/*
 * Room in the open buffer for a request whose index units (elements of
 * one index of one partition) take per bytes each; opens a new buffer
 * when not one fits.  Returns how many units fit.
 */
static size_t
hcall_plan_room(const struct hcall_plan_ctx *c, struct hcall_plan_out *o,
    size_t per)
{
	if (!o->open || o->nreq >= c->max_requests ||
	    o->used + HCALL_RESULT_SIZE + per > c->result_size) {
		if (o->plan != NULL)
			hcall_plan_new_buf(o->plan, &o->cap);
		o->open = 1;
		o->nreq = 0;
		o->used = HCALL_RES_HDR_SIZE;
		o->nbufs++;
	}
	return ((c->result_size - o->used - HCALL_RESULT_SIZE) / per);
}

/*
 * One request for nl partitions of the block of runs rn[] from rn[l],
 * each over n indexes from its x-th read.  Elements come partition by
 * partition, then index by index, then thread group by thread group.
 */
static void
hcall_plan_emit(struct hcall_plan_ctx *c, struct hcall_plan_out *o,
    const struct hcall_plan_run *const *rn, size_t l, size_t nl, size_t x,
    size_t n, unsigned nel, size_t per)
{
	struct hcall_plan	*plan = o->plan;
	struct hcall_reqbuf	*rb;
	struct hcall_request	*rq;
	struct hcall_plan_read	*rd;
	size_t			 q, y;

	o->used += HCALL_RESULT_SIZE + nl * n * per;
	o->nreq++;
	o->nrequests++;
	if (plan == NULL)
		return;
	rb = &plan->bufs[plan->nbufs - 1];
	plan->result_bytes[plan->nbufs - 1] = o->used;
	rq = &rb->req[rb->nrequests];
	memset(rq, 0, sizeof *rq);
	rd = &c->reads[rn[l]->first + x];
	rq->domain = rd->domain;
	rq->data_size = (uint16_t)rd->size;
	rq->data_offset = rd->offset;
	rq->lpar = rd->lpar;
	rq->max_lpars = (uint16_t)nl;
	rq->index = rd->index;
	rq->max_ix = (uint16_t)n;
	if (c->version == 2 && rd->domain >= HCALL_DOMAIN_CORE) {
		rq->tg = 0;
		rq->max_tg = nel > 1 ? HCALL_TG_ALL : 1;
	}
	for (q = 0; q < nl; q++) {
		for (y = 0; y < n; y++) {
			rd = &c->reads[rn[l + q]->first + x + y];
			rd->buffer = (uint32_t)(plan->nbufs - 1);
			rd->request = (uint8_t)rb->nrequests;
			rd->element = (uint16_t)((q * n + y) * nel);
		}
	}
	rb->nrequests++;
	plan->nrequests++;
}

/*
 * Pack a block of nl runs of m indexes each, of consecutive partitions
 * (nl is 1 for any other run).  Whole partitions go together as far as
 * the open buffer has room for them; a partition that does not fit in
 * what is left is split by indexes, as a single run is.
 */
static void
hcall_plan_block(struct hcall_plan_ctx *c, struct hcall_plan_out *o,
    const struct hcall_plan_run *const *rn, size_t nl)
{
	const struct hcall_plan_read *r0 = &c->reads[rn[0]->first];
	size_t			 m = rn[0]->count, l = 0, x = 0, k, room, per;
	unsigned		 nel;

	nel = hcall_plan_nel(c, r0->domain);
	per = nel * (c->ehdr + r0->size);
	while (l < nl) {
		room = hcall_plan_room(c, o, per);
		if (x == 0 && room >= m) {
			k = room / m;
			if (k > nl - l)
				k = nl - l;
			if (k > HCALL_LPARS_ALL - 1)
				k = HCALL_LPARS_ALL - 1;
			hcall_plan_emit(c, o, rn, l, k, 0, m, nel, per);
			l += k;
			continue;
		}
		k = m - x;
		if (k > room)
			k = room;
		if (k > UINT16_MAX)
			k = UINT16_MAX;
		hcall_plan_emit(c, o, rn, l, 1, x, k, nel, per);
		if ((x += k) == m) {
			l++;
			x = 0;
		}
	}
}

/*
 * Runs in packing order.  Within a domain, runs that name partitions
 * come first (as their numbers sort before HCALL_LPAR_SELF), grouped by
 * what they read and then by partition, so that consecutive partitions
 * reading the same meet; all others keep the order of their reads.
 */
static int
hcall_plan_run_cmp(const void *a, const void *b)
{
	const struct hcall_plan_run	*x = *(const struct hcall_plan_run
					    *const *)a;
	const struct hcall_plan_run	*y = *(const struct hcall_plan_run
					    *const *)b;
	const struct hcall_plan_read	*p = &x->key, *q = &y->key;

	if (p->domain != q->domain)
		return (p->domain < q->domain ? -1 : 1);
	if (x->lpars != y->lpars)
		return (x->lpars ? -1 : 1);
	if (x->lpars) {
		if (p->offset != q->offset)
			return (p->offset < q->offset ? -1 : 1);
		if (p->size != q->size)
			return (p->size < q->size ? -1 : 1);
		if (p->index != q->index)
			return (p->index < q->index ? -1 : 1);
		if (x->count != y->count)
			return (x->count < y->count ? -1 : 1);
		if (p->lpar != q->lpar)
			return (p->lpar < q->lpar ? -1 : 1);
	}
	if (x->first != y->first)
		return (x->first < y->first ? -1 : 1);
	return (0);
}

/* Whether run b continues the block of run a (one partition on). */
static int
hcall_plan_run_next(const struct hcall_plan_run *a,
    const struct hcall_plan_run *b)
{
	const struct hcall_plan_read *p = &a->key, *q = &b->key;

	return (a->lpars && b->lpars && p->domain == q->domain &&
	    p->offset == q->offset && p->size == q->size &&
	    p->index == q->index && a->count == b->count &&
	    (uint32_t)p->lpar + 1 == q->lpar);
}

/* The sorted reads as runs of consecutive indexes, in packing order. */
static struct hcall_plan_run *
hcall_plan_runs(const struct hcall_plan_ctx *c, size_t *nrunsp,
    struct hcall_plan_run ***orderp)
{
	struct hcall_plan_run	*runs, **order;
	struct hcall_plan_read	*rd, *r0;
	size_t			 i, j, n = 0;

	runs = xcalloc(c->nreads + 1, sizeof *runs);
	for (i = 0; i < c->nreads; i = j) {
		r0 = &c->reads[i];
		for (j = i + 1; j < c->nreads; j++) {
			rd = &c->reads[j];
			if (!c->multi_index || rd->domain != r0->domain ||
			    rd->lpar != r0->lpar || rd->offset != r0->offset ||
			    rd->size != r0->size ||
			    rd->index != r0->index + (j - i))
				break;
		}
		runs[n].key = *r0;
		runs[n].first = (uint32_t)i;
		runs[n].count = (uint32_t)(j - i);
		runs[n].lpars = c->multi_index &&
		    r0->domain >= HCALL_DOMAIN_VCPU_HOME_CORE &&
		    r0->lpar != HCALL_LPAR_SELF;
		n++;
	}
	order = xcalloc(n + 1, sizeof *order);
	for (i = 0; i < n; i++)
		order[i] = &runs[i];
	qsort(order, n, sizeof *order, hcall_plan_run_cmp);
	*nrunsp = n;
	*orderp = order;
	return (runs);
}

/*
 * Pack the runs into o: blocks of consecutive partitions when merge,
 * else run by run.
 */
static void
hcall_plan_pack_runs(struct hcall_plan_ctx *c, struct hcall_plan_out *o,
    struct hcall_plan_run *const *order, size_t n, int merge)
{
	size_t	 i, j;

	for (i = 0; i < n; i = j) {
		for (j = i + 1; merge && j < n &&
		    hcall_plan_run_next(order[j - 1], order[j]); j++)
			;
		if (!merge)
			j = i + 1;
		hcall_plan_block(c, o, (const struct hcall_plan_run *const *)
		    order + i, j - i);
	}
}

/*
 * Pack the sorted reads into requests and buffers; count too what one
 * request per partition (max_num_lpars 1) would take.
 */
void
hcall_plan_pack(struct hcall_plan_ctx *c, struct hcall_plan *plan)
{
	struct hcall_plan_run	*runs, **order;
	struct hcall_plan_out	 o;
	size_t			 n;

	runs = hcall_plan_runs(c, &n, &order);
	memset(&o, 0, sizeof o);
	hcall_plan_pack_runs(c, &o, order, n, 0);
	plan->perlpar_requests = o.nrequests;
	plan->perlpar_hcalls = o.nbufs;
	memset(&o, 0, sizeof o);
	o.plan = plan;
	hcall_plan_pack_runs(c, &o, order, n, 1);
	free(order);
	free(runs);
}
/* The naive plan's hcall count: one 8-byte request per distinct value. */
void
hcall_plan_pack_naive(struct hcall_plan_ctx *c, struct hcall_plan *plan)
{
	const struct hcall_plan_want	*w, *p = NULL;
	size_t				 i, used = 0, nreq = 0, per;

	plan->naive_requests = 0;
	plan->naive_hcalls = 0;
	for (i = 0; i < c->nwants; i++) {
		w = &c->wants[c->order[i]];
		if (p != NULL && p->domain == w->domain &&
		    p->lpar == w->lpar && p->index == w->index &&
		    p->offset == w->offset)
			continue;
		p = w;
		plan->naive_requests++;
		per = HCALL_RESULT_SIZE +
		    hcall_plan_nel(c, w->domain) * (c->ehdr + 8);
		if (plan->naive_hcalls == 0 || nreq >= c->max_requests ||
		    used + per > c->result_size) {
			plan->naive_hcalls++;
			used = HCALL_RES_HDR_SIZE;
			nreq = 0;
		}
		used += per;
		nreq++;
	}
}
