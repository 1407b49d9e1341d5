/*
 * The request planner: a selection of counters (catalog events, whole
 * catalog groups or raw domain offsets, each over a list of chips, cores
 * or vcpus) becomes the fewest H_GET_24X7_DATA request buffers the
 * transport's limits allow, together with the place in the results where
 * every counter, and the timing fields of its group record, will be found.
 * It works like libpfm's pfm_dispatch_events(): it never calls the
 * hypervisor, and when it cannot plan it says precisely why and for which
 * item.
 *
 * How calls are saved:
 *  - counters of one group record at one index are read by one request
 *    whose data covers them: a span that bridges gaps only where a gap
 *    costs fewer result bytes than a separate request would, or the whole
 *    record (timing fields included) where that costs no more;
 *  - identical reads over consecutive indexes become one request with
 *    max_ix > 1 when the transport allows it;
 *  - requests are packed into buffers up to the request limit (255 v1,
 *    127 v2) and the result buffer's size, counted exactly, so results
 *    always fit (169 single-counter results on v1, 72 with SMT8
 *    thread-group aggregation on v2).
 *
 * This file checks the selection and expands it into wanted counters,
 * sorts them and places every value; hcall-plan-spans.c turns the wants
 * of one record into reads, hcall-plan-pack.c packs the reads into
 * buffers, and hcall-plan-extract.c takes the values out of the results.
 *
 * Pure: no I/O; allocates only the plan and the cause.
 */
#include "config.h"

#include "hcall/hcall.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "hcall/hcall-plan-int.h"
#include "util/hverr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Elements per index in a result: thread groups on v2 core domains. */
unsigned
hcall_plan_nel(const struct hcall_plan_ctx *c, unsigned domain)
{
	if (c->version == 2 && domain >= HCALL_DOMAIN_CORE)
		return (c->ntg);
	return (1);
}

static uint8_t
hcall_plan_class(unsigned domain)
{
	return (domain == HCALL_DOMAIN_CHIP ? 1 : 2);
}

/* "item 3 (event HPM_CCYC)", for causes. */
static char *
hcall_plan_what(const struct hcall_plan_ctx *c, size_t i)
{
	const struct hcall_item	*it = &c->sel->items[i];

	switch (it->kind) {
	case HCALL_ITEM_EVENT:
		if (it->event != NULL && it->event->name != NULL)
			return (xasprintf("item %zu (event %s)", i,
			    it->event->name));
		return (xasprintf("item %zu (event)", i));
	case HCALL_ITEM_GROUP:
		if (it->group != NULL && it->group->name != NULL)
			return (xasprintf("item %zu (group %s)", i,
			    it->group->name));
		return (xasprintf("item %zu (group)", i));
	case HCALL_ITEM_RAW:
		return (xasprintf("item %zu (domain %u offset 0x%x)", i,
		    it->domain, it->offset));
	}
	return (xasprintf("item %zu", i));
}

static int
hcall_plan_fail(const struct hcall_plan_ctx *c, size_t i, int error,
    char **cause, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int
hcall_plan_fail(const struct hcall_plan_ctx *c, size_t i, int error,
    char **cause, const char *fmt, ...)
{
	struct strbuf	 sb = { 0 };
	va_list		 ap;
	char		*what;

	what = hcall_plan_what(c, i);
	strbuf_adds(&sb, what);
	strbuf_adds(&sb, ": ");
	free(what);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	*cause = strbuf_detach(&sb);
	return (error);
}

static int
hcall_plan_rec_cmp(const void *a, const void *b)
{
	const struct hcall_plan_rec	*x = a, *y = b;

	if (x->class != y->class)
		return (x->class < y->class ? -1 : 1);
	if (x->offset != y->offset)
		return (x->offset < y->offset ? -1 : 1);
	if (x->length != y->length)
		return (x->length > y->length ? -1 : 1); /* longest first */
	if (x->schema != y->schema)
		return (x->schema > y->schema ? -1 : 1); /* known first */
	return (0);
}

static int
hcall_plan_schema_ok(const struct catalog *cat, unsigned schema)
{
	return (schema < cat->nschemas);
}

/*
 * The catalog's group records, sorted by class and offset, one per
 * (class, offset).  Records named only by events take the schema of a
 * group record at the same place, else of one of the same class and
 * length: catalogs give every record of a domain the same shape.
 */
static void
hcall_plan_records(struct hcall_plan_ctx *c)
{
	const struct catalog		*cat = c->cat;
	const struct catalog_group	*g;
	const struct catalog_event	*ev;
	struct hcall_plan_rec		*r;
	size_t				 i, j, n;

	if (cat == NULL)
		return;
	n = cat->ngroups + cat->nevents;
	if (n == 0)
		return;
	c->recs = xreallocarray(NULL, n, sizeof *c->recs);
	for (i = 0; i < cat->ngroups; i++) {
		g = &cat->groups[i];
		if (g->record_length == 0)
			continue;
		r = &c->recs[c->nrecs++];
		r->class = hcall_plan_class(g->domain);
		r->offset = g->record_offset;
		r->length = g->record_length;
		r->schema = hcall_plan_schema_ok(cat, g->schema) ?
		    g->schema : -1;
	}
	for (i = 0; i < cat->nevents; i++) {
		ev = &cat->events[i];
		if (ev->record_length == 0)
			continue;
		r = &c->recs[c->nrecs++];
		r->class = hcall_plan_class(ev->domain);
		r->offset = ev->record_offset;
		r->length = ev->record_length;
		r->schema = -1;
	}
	if (c->nrecs == 0)
		return;
	qsort(c->recs, c->nrecs, sizeof *c->recs, hcall_plan_rec_cmp);
	for (i = 0, j = 0; i < c->nrecs; i++) {
		if (j > 0 && c->recs[j - 1].class == c->recs[i].class &&
		    c->recs[j - 1].offset == c->recs[i].offset)
			continue;
		c->recs[j++] = c->recs[i];
	}
	c->nrecs = j;
	for (i = 0; i < c->nrecs; i++) {
		if (c->recs[i].schema >= 0)
			continue;
		for (j = 0; j < c->nrecs; j++) {
			if (c->recs[j].class == c->recs[i].class &&
			    c->recs[j].length == c->recs[i].length &&
			    c->recs[j].schema >= 0) {
				c->recs[i].schema = c->recs[j].schema;
				break;
			}
		}
	}
}

/* The known record of a class that holds [off, off + 8), or NULL. */
static const struct hcall_plan_rec *
hcall_plan_find_rec(const struct hcall_plan_ctx *c, uint8_t class,
    uint32_t off)
{
	const struct hcall_plan_rec	*r;
	size_t				 lo = 0, hi = c->nrecs, mid;

	/* Last record with (class, offset) <= (class, off). */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		r = &c->recs[mid];
		if (r->class < class || (r->class == class && r->offset <= off))
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo > 0) {
		r = &c->recs[--lo];
		if (r->class != class)
			return (NULL);
		if ((uint64_t)off + 8 <= (uint64_t)r->offset + r->length)
			return (r);
		/* An earlier, longer record may still cover it. */
		if (r->offset + 0x10000 < off)
			return (NULL);
	}
	return (NULL);
}

static int
hcall_plan_in(const void *p, const void *base, size_t n, size_t size)
{
	uintptr_t	 x = (uintptr_t)p, b = (uintptr_t)base;

	return (base != NULL && x >= b && x < b + n * size &&
	    (x - b) % size == 0);
}

/* Whether a catalog domain may be read through an hcall domain. */
static int
hcall_plan_domain_ok(unsigned catdom, unsigned domain)
{
	if (catdom == CATALOG_DOMAIN_CHIP)
		return (domain == HCALL_DOMAIN_CHIP);
	if (catdom == CATALOG_DOMAIN_CORE)
		return (domain >= HCALL_DOMAIN_CORE &&
		    domain < HCALL_DOMAIN_MAX);
	return (domain >= HCALL_DOMAIN_VCPU_HOME_CORE &&
	    domain < HCALL_DOMAIN_MAX);
}

/* Check one event of item i; its counter offset goes to *off. */
static int
hcall_plan_check_event(const struct hcall_plan_ctx *c, size_t i,
    const struct catalog_event *ev, unsigned domain, char **cause)
{
	const char	*name = ev->name != NULL ? ev->name : "?";
	unsigned	 maxdom = c->version == 1 ? 2 : 6;

	if (ev->domain < 1 || ev->domain > maxdom)
		return (hcall_plan_fail(c, i, -HV_EUSAGE, cause, "event %s "
		    "has catalog domain %u, not valid on interface v%d "
		    "(1-%u)", name, ev->domain, c->version, maxdom));
	if (!hcall_plan_domain_ok(ev->domain, domain))
		return (hcall_plan_fail(c, i, -HV_EUSAGE, cause, "event %s "
		    "(catalog domain %u, %s) cannot be read in domain %u "
		    "(%s)", name, ev->domain, hcall_domain_name(ev->domain),
		    domain, hcall_domain_name((int)domain)));
	if (ev->record_length == 0)
		return (hcall_plan_fail(c, i, -HV_ENOENT, cause, "event %s "
		    "has no group record (length 0): the hypervisor does not "
		    "count it", name));
	if (((uint32_t)ev->record_offset + ev->counter_offset) % 8 != 0 ||
	    (uint32_t)ev->counter_offset + 8 > ev->record_length)
		return (hcall_plan_fail(c, i, -HV_EFORMAT, cause, "event %s: "
		    "counter at 0x%x is not an aligned 8-byte word of its "
		    "record (0x%x, %u bytes)", name,
		    (unsigned)ev->record_offset + ev->counter_offset,
		    ev->record_offset, ev->record_length));
	return (0);
}

static int
hcall_plan_check_ranges(const struct hcall_plan_ctx *c, size_t i,
    unsigned domain, size_t *nidx, char **cause)
{
	const struct hcall_item	*it = &c->sel->items[i];
	const struct hcall_range *rg;
	uint32_t		 lim;
	size_t			 k;

	if (it->nranges == 0 || it->ranges == NULL)
		return (hcall_plan_fail(c, i, -HV_EUSAGE, cause, "no %s "
		    "index given", hcall_domain_term((int)domain)));
	lim = c->topo != NULL ? c->topo->count[domain] : 0;
	*nidx = 0;
	for (k = 0; k < it->nranges; k++) {
		rg = &it->ranges[k];
		if (rg->count == 0)
			return (hcall_plan_fail(c, i, -HV_EUSAGE, cause,
			    "index range %zu is empty", k));
		if ((uint32_t)rg->first + rg->count > 0x10000)
			return (hcall_plan_fail(c, i, -HV_ERANGE, cause,
			    "%s %u+%u runs past index 65535",
			    hcall_domain_term((int)domain), rg->first,
			    rg->count));
		if (lim != 0 && (uint32_t)rg->first + rg->count > lim) {
			if (rg->first >= lim)
				return (hcall_plan_fail(c, i, -HV_ERANGE,
				    cause, "%s %u out of range 0..%u",
				    hcall_domain_term((int)domain), rg->first,
				    lim - 1));
			return (hcall_plan_fail(c, i, -HV_ERANGE, cause,
			    "%s %u out of range 0..%u",
			    hcall_domain_term((int)domain), lim, lim - 1));
		}
		*nidx += rg->count;
	}
	return (0);
}

/* Append the wants of one counter of item i over all its indexes. */
static void
hcall_plan_add(struct hcall_plan_ctx *c, size_t i, unsigned domain,
    uint32_t off, const struct catalog_event *ev, struct hcall_value *vals,
    size_t *nvals, size_t counter, size_t ncounters, size_t base)
{
	const struct hcall_item		*it = &c->sel->items[i];
	const struct hcall_plan_rec	*r;
	struct hcall_plan_want		*w;
	struct hcall_value		*v;
	size_t				 k, j, pos;
	uint32_t			 rec_off = HCALL_PLAN_NOREC;
	uint32_t			 rec_len = 0;
	int				 schema = -1;

	r = hcall_plan_find_rec(c, hcall_plan_class(domain), off);
	if (ev != NULL && ev->record_length != 0) {
		rec_off = ev->record_offset;
		rec_len = ev->record_length;
		if (r != NULL && r->offset == rec_off)
			schema = r->schema;
		else if ((r = hcall_plan_find_rec(c, hcall_plan_class(domain),
		    rec_off)) != NULL && r->offset == rec_off)
			schema = r->schema;
	} else if (r != NULL) {
		rec_off = r->offset;
		rec_len = r->length;
		schema = r->schema;
	}

	/* Values are item by item, index by index, counter by counter. */
	pos = 0;
	for (k = 0; k < it->nranges; k++) {
		for (j = 0; j < it->ranges[k].count; j++, pos++) {
			v = &vals[base + pos * ncounters + counter];
			v->item = (uint32_t)i;
			v->event = ev;
			v->domain = (uint8_t)domain;
			v->lpar = it->lpar;
			v->index = (uint16_t)(it->ranges[k].first + j);
			v->offset = off;
			v->record = HCALL_NONE;
			v->loc.buffer = HCALL_NONE;
			w = &c->wants[c->nwants++];
			w->domain = (uint8_t)domain;
			w->lpar = it->lpar;
			w->index = v->index;
			w->offset = off;
			w->rec_offset = rec_off;
			w->rec_length = rec_len;
			w->schema = schema;
			w->value = (uint32_t)(base + pos * ncounters + counter);
			(*nvals)++;
		}
	}
}

/* Wants in read-key order: domain, lpar, record, index, offset. */
/*
 * qsort() has no context argument, and the pure layer keeps no mutable
 * globals, so sort with a small merge sort that takes one.
 */
static void
hcall_plan_msort(uint32_t *a, uint32_t *tmp, size_t n,
    const struct hcall_plan_want *base,
    int (*cmp)(const struct hcall_plan_want *, const uint32_t *,
    const uint32_t *))
{
	size_t	 h, i, j, k;

	if (n < 2)
		return;
	h = n / 2;
	hcall_plan_msort(a, tmp, h, base, cmp);
	hcall_plan_msort(a + h, tmp, n - h, base, cmp);
	for (i = 0, j = h, k = 0; i < h && j < n; )
		tmp[k++] = cmp(base, &a[j], &a[i]) < 0 ? a[j++] : a[i++];
	while (i < h)
		tmp[k++] = a[i++];
	while (j < n)
		tmp[k++] = a[j++];
	memcpy(a, tmp, n * sizeof *a);
}

static int
hcall_plan_want_cmp_ctx(const struct hcall_plan_want *base, const uint32_t *a,
    const uint32_t *b)
{
	const struct hcall_plan_want *x = &base[*a], *y = &base[*b];

	if (x->domain != y->domain)
		return (x->domain < y->domain ? -1 : 1);
	if (x->lpar != y->lpar)
		return (x->lpar < y->lpar ? -1 : 1);
	if (x->rec_offset != y->rec_offset)
		return (x->rec_offset < y->rec_offset ? -1 : 1);
	if (x->index != y->index)
		return (x->index < y->index ? -1 : 1);
	if (x->offset != y->offset)
		return (x->offset < y->offset ? -1 : 1);
	return (0);
}

/* The schema field at a role, as a record-relative offset, or -1. */
long
hcall_plan_field(const struct catalog *cat, int schema, unsigned role,
    uint32_t rec_len)
{
	static const uint16_t	 tb[] = { CATALOG_FIELD_TIMEBASE_UPDATE,
				    56, 55 };	/* then the Time-Of-Day words */
	const struct catalog_schema *s;
	const struct catalog_schema_field *f;
	const uint16_t		*want;
	size_t			 nwant, k, i;
	uint16_t		 one;

	if (cat == NULL || schema < 0 || (size_t)schema >= cat->nschemas)
		return (-1);
	s = &cat->schemas[schema];
	switch (role) {
	case HCALL_REC_TIMEBASE:
		want = tb;
		nwant = sizeof tb / sizeof tb[0];
		break;
	case HCALL_REC_UPDATES:
		one = CATALOG_FIELD_UPDATE_COUNT;
		want = &one;
		nwant = 1;
		break;
	case HCALL_REC_PERIOD:
		one = CATALOG_FIELD_MEASUREMENT_PERIOD;
		want = &one;
		nwant = 1;
		break;
	default:
		return (-1);
	}
	for (k = 0; k < nwant; k++) {
		for (i = 0; i < s->nfields; i++) {
			f = &s->fields[i];
			if (f->field != want[k])
				continue;
			/* Only whole aligned words are offered. */
			if (f->length == 8 && f->offset % 8 == 0 &&
			    (uint32_t)f->offset + 8 <= rec_len)
				return (f->offset);
		}
	}
	return (-1);
}

/* Reads in request order: domain, lpar, offset, size, index. */
static int
hcall_plan_read_cmp(const void *a, const void *b)
{
	const struct hcall_plan_read *x = a, *y = b;

	if (x->domain != y->domain)
		return (x->domain < y->domain ? -1 : 1);
	if (x->lpar != y->lpar)
		return (x->lpar < y->lpar ? -1 : 1);
	if (x->offset != y->offset)
		return (x->offset < y->offset ? -1 : 1);
	if (x->size != y->size)
		return (x->size < y->size ? -1 : 1);
	if (x->index != y->index)
		return (x->index < y->index ? -1 : 1);
	return (0);
}

static int
hcall_plan_caps(struct hcall_plan_ctx *c, const struct hcall_caps *caps,
    char **cause)
{
	size_t		 per, room;
	unsigned	 d, nel, lim;

	c->version = caps->version;
	c->ehdr = hcall_element_header_size(caps->version);
	if (c->ehdr == 0) {
		*cause = xasprintf("interface version %d is neither 1 nor 2",
		    caps->version);
		return (-HV_EUSAGE);
	}
	if (caps->max_data_size % 8 != 0) {
		*cause = xasprintf("transport data_size limit %u is not a "
		    "multiple of 8", caps->max_data_size);
		return (-HV_EUSAGE);
	}
	lim = hcall_max_requests(caps->version);
	c->max_requests = caps->max_requests == 0 ? lim : caps->max_requests;
	if (c->max_requests > lim) {
		*cause = xasprintf("transport allows %u requests per call, "
		    "interface v%d only %u", caps->max_requests,
		    caps->version, lim);
		return (-HV_EUSAGE);
	}
	c->result_size = caps->result_size == 0 ? HCALL_BUF_SIZE :
	    caps->result_size;
	if (c->result_size > HCALL_BUF_SIZE ||
	    c->result_size < HCALL_RES_HDR_SIZE) {
		*cause = xasprintf("result buffer of %zu bytes: it must hold "
		    "the %d-byte header and cannot exceed %d bytes",
		    c->result_size, HCALL_RES_HDR_SIZE, HCALL_BUF_SIZE);
		return (-HV_EUSAGE);
	}
	c->multi_index = caps->multi_index;
	c->fields = caps->fields;
	c->whole = caps->whole_records;
	c->ntg = c->topo != NULL && c->topo->thread_groups > 1 ?
	    c->topo->thread_groups : 1;
	if (c->ntg > 255) {
		*cause = xasprintf("%u thread groups per core: at most 255",
		    c->ntg);
		return (-HV_EUSAGE);
	}
	/* The longest span one request for one index may read. */
	for (d = 1; d < HCALL_DOMAIN_MAX; d++) {
		nel = hcall_plan_nel(c, d);
		room = c->result_size - HCALL_RES_HDR_SIZE;
		per = room >= HCALL_RESULT_SIZE ?
		    (room - HCALL_RESULT_SIZE) / nel : 0;
		per = per > c->ehdr ? per - c->ehdr : 0;
		per -= per % 8;
		if (caps->max_data_size != 0 && per > caps->max_data_size)
			per = caps->max_data_size;
		if (per > 0xfff8)
			per = 0xfff8;
		c->max_span[d] = (uint32_t)per;
	}
	return (0);
}

static void
hcall_plan_ctx_free(struct hcall_plan_ctx *c)
{
	free(c->recs);
	free(c->wants);
	free(c->order);
	free(c->reads);
	free(c->recread);
}

/* The distinct buffers holding a record's fields; returns how many. */
static size_t
hcall_plan_rec_bufs(const struct hcall_record *rec, uint32_t out[3])
{
	const struct hcall_loc	*locs[3] = { &rec->timebase, &rec->updates,
				    &rec->period };
	size_t			 n = 0, k, j;

	for (k = 0; k < 3; k++) {
		if (locs[k]->buffer == HCALL_NONE)
			continue;
		for (j = 0; j < n; j++)
			if (out[j] == locs[k]->buffer)
				break;
		if (j == n)
			out[n++] = locs[k]->buffer;
	}
	return (n);
}

/* Per buffer, the values and records located in it. */
static void
hcall_plan_index(struct hcall_plan *plan)
{
	size_t		 b, i, k, n, nref, *pos;
	uint32_t	 buf, bufs[3];

	plan->byval_first = xcalloc(plan->nbufs + 1, sizeof(size_t));
	plan->byrec_first = xcalloc(plan->nbufs + 1, sizeof(size_t));
	for (i = 0; i < plan->nvalues; i++)
		plan->byval_first[plan->values[i].loc.buffer + 1]++;
	nref = 0;
	for (i = 0; i < plan->nrecords; i++) {
		n = hcall_plan_rec_bufs(&plan->records[i], bufs);
		for (k = 0; k < n; k++)
			plan->byrec_first[bufs[k] + 1]++;
		nref += n;
	}
	for (b = 0; b < plan->nbufs; b++) {
		plan->byval_first[b + 1] += plan->byval_first[b];
		plan->byrec_first[b + 1] += plan->byrec_first[b];
	}
	plan->byval = xcalloc(plan->nvalues + 1, sizeof(uint32_t));
	plan->byrec = xcalloc(nref + 1, sizeof(uint32_t));
	pos = xcalloc(plan->nbufs + 1, sizeof(size_t));
	for (i = 0; i < plan->nvalues; i++) {
		buf = plan->values[i].loc.buffer;
		plan->byval[plan->byval_first[buf] + pos[buf]++] = (uint32_t)i;
	}
	memset(pos, 0, (plan->nbufs + 1) * sizeof(size_t));
	for (i = 0; i < plan->nrecords; i++) {
		n = hcall_plan_rec_bufs(&plan->records[i], bufs);
		for (k = 0; k < n; k++)
			plan->byrec[plan->byrec_first[bufs[k]] +
			    pos[bufs[k]]++] = (uint32_t)i;
	}
	free(pos);
}

static void
hcall_plan_setloc(struct hcall_loc *loc, const struct hcall_plan_read *rd,
    uint32_t off, unsigned nel)
{
	loc->buffer = rd->buffer;
	loc->request = rd->request;
	loc->element = rd->element;
	loc->nelements = (uint16_t)nel;
	loc->offset = (uint16_t)(off - rd->offset);
}

/*
 * Check item i; give its hcall domain and how many counters it reads at
 * each index.
 */
static int
hcall_plan_check_item(const struct hcall_plan_ctx *c, size_t i,
    unsigned *domainp, size_t *ncnt, char **cause)
{
	const struct hcall_item		*it = &c->sel->items[i];
	const struct catalog		*cat = c->cat;
	const struct catalog_group	*g;
	const struct catalog_event	*ev;
	unsigned			 domain = it->domain;
	size_t				 k;
	int				 error;

	*ncnt = 0;
	switch (it->kind) {
	case HCALL_ITEM_EVENT:
		ev = it->event;
		if (ev == NULL || cat == NULL || !hcall_plan_in(ev,
		    cat->events, cat->nevents, sizeof *ev))
			return (hcall_plan_fail(c, i, -HV_ENOENT, cause,
			    "unknown event: not in the catalog"));
		if (domain == 0)
			domain = ev->domain;
		if ((error = hcall_plan_check_event(c, i, ev, domain,
		    cause)) != 0)
			return (error);
		*ncnt = 1;
		break;
	case HCALL_ITEM_GROUP:
		g = it->group;
		if (g == NULL || cat == NULL || !hcall_plan_in(g,
		    cat->groups, cat->ngroups, sizeof *g))
			return (hcall_plan_fail(c, i, -HV_ENOENT, cause,
			    "unknown group: not in the catalog"));
		if (domain == 0)
			domain = g->domain;
		/* Slots past event_count are not slots (real catalogs
		 * leave them 0, which is not event 0). */
		for (k = 0; k < CATALOG_GROUP_SLOTS && k < g->event_count;
		    k++) {
			if (g->events[k] == CATALOG_SLOT_FREE)
				continue;
			/* Slots hold section indexes: look them up. */
			if ((ev = catalog_group_event(cat, g, k)) == NULL)
				return (hcall_plan_fail(c, i, -HV_ENOENT,
				    cause, "slot %zu names event %u, which "
				    "the catalog does not have", k,
				    g->events[k]));
			if ((error = hcall_plan_check_event(c, i, ev, domain,
			    cause)) != 0)
				return (error);
			(*ncnt)++;
		}
		if (*ncnt == 0)
			return (hcall_plan_fail(c, i, -HV_ENOENT, cause,
			    "the group has no events"));
		break;
	case HCALL_ITEM_RAW:
		if (it->offset % 8 != 0 && domain >= 1 &&
		    domain < HCALL_DOMAIN_MAX)
			return (hcall_plan_fail(c, i, -HV_EFORMAT, cause,
			    "offset 0x%x is not 8-byte aligned", it->offset));
		*ncnt = 1;
		break;
	default:
		return (hcall_plan_fail(c, i, -HV_EUSAGE, cause,
		    "unknown item kind %d", (int)it->kind));
	}
	if (domain < 1 || domain >= HCALL_DOMAIN_MAX)
		return (hcall_plan_fail(c, i, -HV_EUSAGE, cause,
		    "domain %u is not 1-6", domain));
	if (c->max_span[domain] < 8)
		return (hcall_plan_fail(c, i, -HV_ELIMIT, cause,
		    "one counter at one %s needs %zu result bytes, the "
		    "%zu-byte result buffer has room for %zu",
		    hcall_domain_term((int)domain),
		    (size_t)HCALL_RESULT_SIZE +
		    hcall_plan_nel(c, domain) * (c->ehdr + 8),
		    c->result_size, c->result_size - HCALL_RES_HDR_SIZE));
	*domainp = domain;
	return (0);
}

/* Expand item i (checked) into its values and wants from value base. */
static size_t
hcall_plan_expand_item(struct hcall_plan_ctx *c, size_t i, unsigned domain,
    struct hcall_plan *plan, size_t base)
{
	const struct hcall_item		*it = &c->sel->items[i];
	const struct catalog_event	*ev;
	size_t				 k, j, nidx = 0, ncnt = 0;

	for (k = 0; k < it->nranges; k++)
		nidx += it->ranges[k].count;
	switch (it->kind) {
	case HCALL_ITEM_EVENT:
		ev = it->event;
		hcall_plan_add(c, i, domain, (uint32_t)ev->record_offset +
		    ev->counter_offset, ev, plan->values, &plan->nvalues, 0, 1,
		    base);
		ncnt = 1;
		break;
	case HCALL_ITEM_GROUP:
		for (k = 0; k < CATALOG_GROUP_SLOTS; k++)
			if (catalog_group_event(c->cat, it->group, k) != NULL)
				ncnt++;
		for (k = 0, j = 0; k < CATALOG_GROUP_SLOTS; k++) {
			if ((ev = catalog_group_event(c->cat, it->group,
			    k)) == NULL)
				continue;
			hcall_plan_add(c, i, domain,
			    (uint32_t)ev->record_offset + ev->counter_offset,
			    ev, plan->values, &plan->nvalues, j++, ncnt, base);
		}
		break;
	case HCALL_ITEM_RAW:
		hcall_plan_add(c, i, domain, it->offset, NULL, plan->values,
		    &plan->nvalues, 0, 1, base);
		ncnt = 1;
		break;
	}
	return (base + ncnt * nidx);
}

/*
 * Group the wants by (domain, lpar, record, index) into reads; note each
 * want's record entry in recof[].
 */
static void
hcall_plan_group(struct hcall_plan_ctx *c, struct hcall_plan *plan,
    uint32_t *recof)
{
	const struct hcall_plan_want	*a, *b;
	uint32_t			*tmp, rn;
	size_t				 i, j, k;

	c->order = xcalloc(c->nwants, sizeof *c->order);
	tmp = xcalloc(c->nwants, sizeof *tmp);
	for (i = 0; i < c->nwants; i++)
		c->order[i] = (uint32_t)i;
	hcall_plan_msort(c->order, tmp, c->nwants, c->wants,
	    hcall_plan_want_cmp_ctx);
	free(tmp);
	for (i = 0; i < c->nwants; i = j) {
		a = &c->wants[c->order[i]];
		for (j = i + 1; j < c->nwants; j++) {
			b = &c->wants[c->order[j]];
			if (b->domain != a->domain || b->lpar != a->lpar ||
			    b->rec_offset != a->rec_offset ||
			    b->index != a->index)
				break;
		}
		hcall_plan_spans(c, c->order + i, j - i, plan, &rn);
		for (k = i; k < j; k++)
			recof[c->order[k]] = rn;
	}
}

/*
 * Sort the reads into request order; perm[] maps a read's old number to
 * its new one, so wants and records can still find theirs.
 */
static void
hcall_plan_sort_reads(struct hcall_plan_ctx *c, uint32_t *perm)
{
	struct hcall_plan_read	*sorted;
	size_t			 i;

	sorted = xcalloc(c->nreads + 1, sizeof *sorted);
	for (i = 0; i < c->nreads; i++) {
		sorted[i] = c->reads[i];
		/* The old number rides in buffer until packing. */
		sorted[i].buffer = (uint32_t)i;
	}
	qsort(sorted, c->nreads, sizeof *sorted, hcall_plan_read_cmp);
	for (i = 0; i < c->nreads; i++)
		perm[sorted[i].buffer] = (uint32_t)i;
	free(c->reads);
	c->reads = sorted;
}

/* Where every value and every record's timing field will be found. */
static void
hcall_plan_locate(struct hcall_plan_ctx *c, struct hcall_plan *plan,
    const uint32_t *perm, const uint32_t *recof)
{
	static const unsigned		 roles[3] = { HCALL_REC_TIMEBASE,
					    HCALL_REC_UPDATES,
					    HCALL_REC_PERIOD };
	const struct hcall_plan_want	*w;
	struct hcall_value		*v;
	struct hcall_record		*rec;
	struct hcall_loc		*locs[3];
	size_t				 i, k;
	uint32_t			 r;
	long				 fo;

	for (i = 0; i < c->nwants; i++) {
		w = &c->wants[i];
		v = &plan->values[w->value];
		hcall_plan_setloc(&v->loc, &c->reads[perm[w->read]], w->offset,
		    hcall_plan_nel(c, w->domain));
		v->record = recof[i];
	}
	for (i = 0; i < plan->nrecords; i++) {
		rec = &plan->records[i];
		locs[0] = &rec->timebase;
		locs[1] = &rec->updates;
		locs[2] = &rec->period;
		for (k = 0; k < 3; k++) {
			if ((r = c->recread[i][k]) == HCALL_NONE)
				continue;
			fo = hcall_plan_field(c->cat, rec->schema, roles[k],
			    rec->length);
			hcall_plan_setloc(locs[k], &c->reads[perm[r]],
			    rec->offset + (uint32_t)fo, 1);
			rec->have |= roles[k];
		}
	}
}

/*
 * Plan a selection.  See hcall.h.
 */
int
hcall_plan(const struct hcall_selection *sel, const struct hcall_caps *caps,
    const struct hcall_topology *topo, struct hcall_plan **out, char **cause)
{
	struct hcall_plan_ctx	 c;
	struct hcall_plan	*plan;
	uint32_t		*perm, *recof;
	unsigned		*domains;
	size_t			 i, nidx, ncnt, total, base;
	int			 error;

	memset(&c, 0, sizeof c);
	c.sel = sel;
	c.cat = sel->cat;
	c.topo = topo;
	*out = NULL;
	if ((error = hcall_plan_caps(&c, caps, cause)) != 0)
		return (error);
	if (sel->nitems == 0) {
		*cause = xstrdup("nothing selected");
		return (-HV_EUSAGE);
	}

	/* Check every item and count its values. */
	domains = xcalloc(sel->nitems, sizeof *domains);
	total = 0;
	nidx = ncnt = 0;
	for (i = 0; i < sel->nitems; i++) {
		if ((error = hcall_plan_check_item(&c, i, &domains[i], &ncnt,
		    cause)) != 0 ||
		    (error = hcall_plan_check_ranges(&c, i, domains[i], &nidx,
		    cause)) != 0) {
			free(domains);
			return (error);
		}
		total += ncnt * nidx;
	}
	if (total > UINT32_MAX / 2) {
		free(domains);
		*cause = xasprintf("%zu counters selected: too many", total);
		return (-HV_ELIMIT);
	}

	plan = xcalloc(1, sizeof *plan);
	plan->version = c.version;
	plan->thread_groups = c.ntg;
	plan->values = xcalloc(total, sizeof *plan->values);
	plan->records = xcalloc(total, sizeof *plan->records);
	c.wants = xcalloc(total, sizeof *c.wants);
	c.recread = xcalloc(total, sizeof *c.recread);
	hcall_plan_records(&c);
	for (i = 0, base = 0; i < sel->nitems; i++)
		base = hcall_plan_expand_item(&c, i, domains[i], plan, base);
	free(domains);

	recof = xcalloc(c.nwants + 1, sizeof *recof);
	hcall_plan_group(&c, plan, recof);
	hcall_plan_pack_naive(&c, plan);
	perm = xcalloc(c.nreads + 1, sizeof *perm);
	hcall_plan_sort_reads(&c, perm);
	hcall_plan_pack(&c, plan);
	hcall_plan_locate(&c, plan, perm, recof);
	free(recof);
	free(perm);
	hcall_plan_index(plan);
	hcall_plan_ctx_free(&c);
	*out = plan;
	return (0);
}

void
hcall_plan_free(struct hcall_plan *plan)
{
	if (plan == NULL)
		return;
	free(plan->bufs);
	free(plan->result_bytes);
	free(plan->values);
	free(plan->records);
	free(plan->byval);
	free(plan->byval_first);
	free(plan->byrec);
	free(plan->byrec_first);
	free(plan);
}
