/*
 * Taking a plan's values out of one decoded result buffer: every result
 * checked against the request it answers, then each value and record
 * timing field read where the plan placed it.  Pure: no I/O; allocates
 * only the cause.
 */
#include "config.h"

#include "hcall/hcall.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/be.h"
#include "util/hverr.h"
#include "util/xalloc.h"

#define HCALL_PLAN_AHEAD	16	/* values and records fetched ahead */

/*
 * Whether request rq names partitions: a VCPU domain and a partition
 * other than the caller's, whose lpar_ix is then known.  (The caller's
 * own comes back under its number, which the plan does not know.)
 */
static int
hcall_plan_req_lpars(const struct hcall_request *rq)
{
	return (rq->domain >= HCALL_DOMAIN_VCPU_HOME_CORE &&
	    rq->lpar != HCALL_LPAR_SELF);
}

/* Elements per index that request rq asks for. */
static unsigned
hcall_plan_req_nel(const struct hcall_plan *plan,
    const struct hcall_request *rq)
{
	if (plan->version != 2 || rq->domain < HCALL_DOMAIN_CORE)
		return (1);
	if (rq->max_tg == HCALL_TG_ALL)
		return (plan->thread_groups);
	return (rq->max_tg);
}

/* Partitions that request rq asks for: 1 unless it names some. */
static unsigned
hcall_plan_req_nlpars(const struct hcall_request *rq)
{
	if (!hcall_plan_req_lpars(rq) || rq->max_lpars == 0)
		return (1);
	return (rq->max_lpars);
}

/* Why element k of result i is not the one expected. */
static int
hcall_plan_mismatch(size_t b, unsigned i, unsigned k,
    const struct hcall_element *e, int version, int lpars, unsigned lpar,
    unsigned index, unsigned tg, char **cause)
{
	size_t	 at = (size_t)e->data - hcall_element_header_size(version);

	if (lpars && e->lpar != lpar)
		*cause = xasprintf("hcall %zu result %u element %u at byte "
		    "0x%zx: lpar_ix %u domain_ix %u, expected lpar_ix %u "
		    "domain_ix %u", b, i, k, at, e->lpar, e->index, lpar,
		    index);
	else
		*cause = xasprintf("hcall %zu result %u element %u at byte "
		    "0x%zx: index %u thread group %u, expected index %u "
		    "thread group %u", b, i, k, at, e->index, e->tg, index,
		    tg);
	return (-HV_EFORMAT);
}

/*
 * Check each element of result i (request rq) of buffer b: partition by
 * partition, then index by index, then thread group by thread group.  The
 * expected ones are running counters: two divisions per element cost more
 * than the checks themselves.
 */
static int
hcall_plan_match_elements(const struct hcall_plan *plan, size_t b,
    unsigned i, const struct hcall_request *rq,
    const struct hcall_resbuf *res, char **cause)
{
	const struct hcall_result	*r = &res->results[i];
	const struct hcall_element	*el = &res->elements[r->first];
	const struct hcall_element	*e;
	unsigned			 k, nel, n, lpar, index, tg, ti, xi;
	int				 lpars, split;

	nel = hcall_plan_req_nel(plan, rq);
	n = r->nelements;
	lpars = hcall_plan_req_lpars(rq);
	/* One thread group per index: the element's own is taken as is. */
	split = res->version == 2 && nel > 1;
	lpar = rq->lpar;
	index = rq->index;
	tg = rq->tg;
	ti = xi = 0;
	for (k = 0; k < n; k++) {
		e = &el[k];
		if ((lpars && e->lpar != lpar) || e->index != index ||
		    (split && e->tg != tg))
			return (hcall_plan_mismatch(b, i, k, e, res->version,
			    lpars, lpar, index, split ? tg : e->tg, cause));
		if (++ti < nel) {
			tg++;
			continue;
		}
		ti = 0;
		tg = rq->tg;
		index++;
		if (++xi == rq->max_ix) {
			xi = 0;
			index = rq->index;
			lpar++;
		}
	}
	return (0);
}

/* One request's elements in a decoded buffer; el NULL: no result. */
struct hcall_plan_got {
	const struct hcall_element *el;
	unsigned	 n;
};

/*
 * Check every result of buffer b against its request; fill got[], whose
 * first nreq entries cover every request a result can name.
 */
static int
hcall_plan_match(const struct hcall_plan *plan, size_t b,
    const struct hcall_resbuf *res, struct hcall_plan_got *got,
    unsigned nreq, char **cause)
{
	const struct hcall_reqbuf	*rb = &plan->bufs[b];
	const struct hcall_request	*rq;
	const struct hcall_result	*r;
	unsigned			 i, want;
	int				 error;

	for (i = 0; i < nreq; i++)
		got[i].el = NULL;
	for (i = 0; i < res->nresults; i++) {
		r = &res->results[i];
		if (r->request >= rb->nrequests) {
			*cause = xasprintf("hcall %zu result %u at byte 0x%x: "
			    "result_ix %u, but %u requests were sent", b, i,
			    r->offset, r->request, rb->nrequests);
			return (-HV_EFORMAT);
		}
		if (got[r->request].el != NULL) {
			*cause = xasprintf("hcall %zu result %u at byte 0x%x: "
			    "a second result for request %u", b, i, r->offset,
			    r->request);
			return (-HV_EFORMAT);
		}
		got[r->request].el = &res->elements[r->first];
		got[r->request].n = r->nelements;
		rq = &rb->req[r->request];
		want = hcall_plan_req_nlpars(rq) * rq->max_ix *
		    hcall_plan_req_nel(plan, rq);
		if (r->nelements > want ||
		    (r->complete && r->nelements != want)) {
			*cause = xasprintf("hcall %zu result %u at byte 0x%x: "
			    "%u elements, request %u asked for %u", b, i,
			    r->offset, r->nelements, r->request, want);
			return (-HV_EFORMAT);
		}
		if (r->nelements > 0 && r->data_size != rq->data_size) {
			*cause = xasprintf("hcall %zu result %u at byte 0x%x: "
			    "element data size %u, request %u asked for %u", b,
			    i, r->offset, r->data_size, r->request,
			    rq->data_size);
			return (-HV_EFORMAT);
		}
		if ((error = hcall_plan_match_elements(plan, b, i, rq, res,
		    cause)) != 0)
			return (error);
	}
	return (0);
}

/*
 * Sum the word at loc over its elements; 0 if the result lacks them (or
 * names a request the buffer did not send: got[] covers nreq).
 */
static inline int
hcall_plan_get(const uint8_t *buf, const struct hcall_plan_got *got,
    unsigned nreq, const struct hcall_loc *loc, uint64_t *v)
{
	const struct hcall_element	*e;
	uint64_t			 sum = 0;
	unsigned			 k;

	if (loc->request >= nreq || got[loc->request].el == NULL ||
	    (unsigned)loc->element + loc->nelements > got[loc->request].n)
		return (0);
	e = got[loc->request].el + loc->element;
	for (k = 0; k < loc->nelements; k++)
		sum += be64_get(buf + e[k].data + loc->offset);
	*v = sum;
	return (1);
}

/* One timing field, if it lives in buffer b: set or clear its bit. */
static inline void
hcall_plan_field_get(const uint8_t *buf, const struct hcall_plan_got *got,
    unsigned nreq, size_t b, const struct hcall_loc *loc, unsigned role,
    uint64_t *v, unsigned *have)
{
	if (loc->buffer != b)
		return;
	if (hcall_plan_get(buf, got, nreq, loc, v))
		*have |= role;
	else
		*have &= ~role;
}

/*
 * None of buffer b's values or timing fields: a result that contradicts
 * its request says nothing about the others, and the caller's arrays
 * still hold the last refresh's.
 */
static void
hcall_plan_extract_none(const struct hcall_plan *plan, size_t b,
    uint8_t *valid, struct hcall_record_sample *recs)
{
	const struct hcall_record	*rec;
	unsigned			*have;
	size_t				 i;

	for (i = plan->byval_first[b]; i < plan->byval_first[b + 1]; i++)
		valid[plan->byval[i]] = 0;
	for (i = plan->byrec_first[b];
	    recs != NULL && i < plan->byrec_first[b + 1]; i++) {
		/* A record's fields may lie in other buffers too. */
		rec = &plan->records[plan->byrec[i]];
		have = &recs[plan->byrec[i]].have;
		if (rec->timebase.buffer == b)
			*have &= ~(unsigned)HCALL_REC_TIMEBASE;
		if (rec->updates.buffer == b)
			*have &= ~(unsigned)HCALL_REC_UPDATES;
		if (rec->period.buffer == b)
			*have &= ~(unsigned)HCALL_REC_PERIOD;
	}
}

/*
 * Take buffer b's values out of its decoded results.  See hcall.h.
 */
int
hcall_plan_extract(const struct hcall_plan *plan, size_t b,
    const struct hcall_resbuf *res, uint64_t *values, uint8_t *valid,
    struct hcall_record_sample *recs, char **cause)
{
	struct hcall_plan_got		 got[UINT8_MAX + 1]; /* result_ix */
	const struct hcall_value	*v;
	const struct hcall_record	*rec;
	struct hcall_record_sample	*rs;
	const uint8_t			*buf = res->buf;
	size_t				 i, end, k, missing = 0, first = 0;
	unsigned			 nreq;
	uint32_t			 vi;
	int				 error;

	if (b >= plan->nbufs) {
		*cause = xasprintf("hcall %zu: the plan has %zu", b,
		    plan->nbufs);
		return (-HV_EUSAGE);
	}
	if (res->version != plan->version) {
		*cause = xasprintf("hcall %zu: result interface version %d, "
		    "the request used %d", b, res->version, plan->version);
		hcall_plan_extract_none(plan, b, valid, recs);
		return (-HV_EVERSION);
	}
	nreq = plan->bufs[b].nrequests;
	if (nreq > UINT8_MAX + 1)
		nreq = UINT8_MAX + 1;
	if ((error = hcall_plan_match(plan, b, res, got, nreq, cause)) != 0) {
		hcall_plan_extract_none(plan, b, valid, recs);
		return (error);
	}
	/*
	 * A buffer's values and records lie far apart in the plan, and the
	 * hypervisor's call has evicted them: fetch each one HCALL_PLAN_AHEAD
	 * on, so that the misses overlap instead of one after the other.
	 */
	end = plan->byval_first[b + 1];
	for (i = plan->byval_first[b]; i < end; i++) {
		if (i + HCALL_PLAN_AHEAD < end)
			__builtin_prefetch(&plan->values[
			    plan->byval[i + HCALL_PLAN_AHEAD]].loc);
		vi = plan->byval[i];
		v = &plan->values[vi];
		valid[vi] = (uint8_t)hcall_plan_get(buf, got, nreq, &v->loc,
		    &values[vi]);
		if (!valid[vi] && missing++ == 0)
			first = vi;
	}
	end = plan->byrec_first[b + 1];
	for (i = plan->byrec_first[b]; recs != NULL && i < end; i++) {
		if (i + HCALL_PLAN_AHEAD < end) {
			k = plan->byrec[i + HCALL_PLAN_AHEAD];
			__builtin_prefetch(&plan->records[k].timebase);
			__builtin_prefetch(&plan->records[k].period);
			__builtin_prefetch(&recs[k], 1);
		}
		rec = &plan->records[plan->byrec[i]];
		rs = &recs[plan->byrec[i]];
		hcall_plan_field_get(buf, got, nreq, b, &rec->timebase,
		    HCALL_REC_TIMEBASE, &rs->timebase, &rs->have);
		hcall_plan_field_get(buf, got, nreq, b, &rec->updates,
		    HCALL_REC_UPDATES, &rs->updates, &rs->have);
		hcall_plan_field_get(buf, got, nreq, b, &rec->period,
		    HCALL_REC_PERIOD, &rs->period, &rs->have);
	}
	if (missing != 0) {
		v = &plan->values[first];
		*cause = xasprintf("hcall %zu: %zu values missing, first value "
		    "%zu (item %u, %s %u, offset 0x%x): request %u %s", b,
		    missing, (size_t)first, v->item,
		    hcall_domain_term(v->domain), v->index, v->offset,
		    v->loc.request, v->loc.request >= nreq ||
		    got[v->loc.request].el == NULL ?
		    "has no result" : "returned too few elements");
		return (-HV_ENOVALUE);
	}
	return (0);
}
