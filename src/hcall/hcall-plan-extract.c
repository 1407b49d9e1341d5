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

#include "util/hverr.h"
#include "util/xalloc.h"

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

/*
 * Check each element of result i (request rq) of buffer b: partition by
 * partition, then index by index, then thread group by thread group.
 */
static int
hcall_plan_match_elements(const struct hcall_plan *plan, size_t b,
    unsigned i, const struct hcall_request *rq,
    const struct hcall_resbuf *res, char **cause)
{
	const struct hcall_result	*r = &res->results[i];
	const struct hcall_element	*e;
	size_t				 ehdr;
	unsigned			 k, nel, per, lpar, index, tg;

	ehdr = hcall_element_header_size(res->version);
	nel = hcall_plan_req_nel(plan, rq);
	per = rq->max_ix * nel;
	for (k = 0; k < r->nelements; k++) {
		e = &res->elements[r->first + k];
		lpar = rq->lpar + k / per;
		index = rq->index + k % per / nel;
		tg = res->version == 2 && nel > 1 ? rq->tg + k % nel : e->tg;
		if (hcall_plan_req_lpars(rq) && e->lpar != lpar) {
			*cause = xasprintf("hcall %zu result %u element %u at "
			    "byte 0x%zx: lpar_ix %u domain_ix %u, expected "
			    "lpar_ix %u domain_ix %u", b, i, k,
			    (size_t)e->data - ehdr, e->lpar, e->index, lpar,
			    index);
			return (-HV_EFORMAT);
		}
		if (e->index != index || e->tg != tg) {
			*cause = xasprintf("hcall %zu result %u element %u at "
			    "byte 0x%zx: index %u thread group %u, expected "
			    "index %u thread group %u", b, i, k,
			    (size_t)e->data - ehdr, e->index, e->tg, index,
			    tg);
			return (-HV_EFORMAT);
		}
	}
	return (0);
}

/* Check every result of buffer b against its request; fill pos[]. */
static int
hcall_plan_match(const struct hcall_plan *plan, size_t b,
    const struct hcall_resbuf *res, int *pos, char **cause)
{
	const struct hcall_reqbuf	*rb = &plan->bufs[b];
	const struct hcall_request	*rq;
	const struct hcall_result	*r;
	unsigned			 i, want;
	int				 error;

	for (i = 0; i < HCALL_MAX_RESULTS; i++)
		pos[i] = -1;
	for (i = 0; i < res->nresults; i++) {
		r = &res->results[i];
		if (r->request >= rb->nrequests) {
			*cause = xasprintf("hcall %zu result %u at byte 0x%x: "
			    "result_ix %u, but %u requests were sent", b, i,
			    r->offset, r->request, rb->nrequests);
			return (-HV_EFORMAT);
		}
		if (pos[r->request] >= 0) {
			*cause = xasprintf("hcall %zu result %u at byte 0x%x: "
			    "a second result for request %u", b, i, r->offset,
			    r->request);
			return (-HV_EFORMAT);
		}
		pos[r->request] = (int)i;
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

/* Sum the word at loc over its elements; 0 if the result lacks them. */
static int
hcall_plan_get(const struct hcall_resbuf *res, const int *pos,
    const struct hcall_loc *loc, uint64_t *v)
{
	const struct hcall_result	*r;
	uint64_t			 sum = 0;
	unsigned			 k;

	if (pos[loc->request] < 0)
		return (0);
	r = &res->results[pos[loc->request]];
	if ((unsigned)loc->element + loc->nelements > r->nelements)
		return (0);
	for (k = 0; k < loc->nelements; k++)
		sum += hcall_load(res->buf +
		    res->elements[r->first + loc->element + k].data +
		    loc->offset, 8);
	*v = sum;
	return (1);
}

/* One timing field, if it lives in buffer b: set or clear its bit. */
static void
hcall_plan_field_get(const struct hcall_resbuf *res, const int *pos,
    size_t b, const struct hcall_loc *loc, unsigned role, uint64_t *v,
    unsigned *have)
{
	if (loc->buffer != b)
		return;
	if (hcall_plan_get(res, pos, loc, v))
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
	size_t	 i;

	for (i = plan->byval_first[b]; i < plan->byval_first[b + 1]; i++)
		valid[plan->byval[i]] = 0;
	for (i = plan->byrec_first[b];
	    recs != NULL && i < plan->byrec_first[b + 1]; i++)
		recs[plan->byrec[i]].have = 0;
}

/*
 * Take buffer b's values out of its decoded results.  See hcall.h.
 */
int
hcall_plan_extract(const struct hcall_plan *plan, size_t b,
    const struct hcall_resbuf *res, uint64_t *values, uint8_t *valid,
    struct hcall_record_sample *recs, char **cause)
{
	const struct hcall_value	*v;
	const struct hcall_record	*rec;
	struct hcall_record_sample	*rs;
	int				 pos[HCALL_MAX_RESULTS], error;
	size_t				 i, missing = 0, first = 0;
	uint32_t			 vi;

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
	if ((error = hcall_plan_match(plan, b, res, pos, cause)) != 0) {
		hcall_plan_extract_none(plan, b, valid, recs);
		return (error);
	}
	for (i = plan->byval_first[b]; i < plan->byval_first[b + 1]; i++) {
		vi = plan->byval[i];
		v = &plan->values[vi];
		valid[vi] = (uint8_t)hcall_plan_get(res, pos, &v->loc,
		    &values[vi]);
		if (!valid[vi] && missing++ == 0)
			first = vi;
	}
	for (i = plan->byrec_first[b];
	    recs != NULL && i < plan->byrec_first[b + 1]; i++) {
		rec = &plan->records[plan->byrec[i]];
		rs = &recs[plan->byrec[i]];
		hcall_plan_field_get(res, pos, b, &rec->timebase,
		    HCALL_REC_TIMEBASE, &rs->timebase, &rs->have);
		hcall_plan_field_get(res, pos, b, &rec->updates,
		    HCALL_REC_UPDATES, &rs->updates, &rs->have);
		hcall_plan_field_get(res, pos, b, &rec->period,
		    HCALL_REC_PERIOD, &rs->period, &rs->have);
	}
	if (missing != 0) {
		v = &plan->values[first];
		*cause = xasprintf("hcall %zu: %zu values missing, first value "
		    "%zu (item %u, %s %u, offset 0x%x): request %u %s", b,
		    missing, (size_t)first, v->item,
		    hcall_domain_term(v->domain), v->index, v->offset,
		    v->loc.request, pos[v->loc.request] < 0 ?
		    "has no result" : "returned too few elements");
		return (-HV_ENOVALUE);
	}
	return (0);
}
