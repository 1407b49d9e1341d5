/*
 * The planner's packing: sorted reads into requests (identical reads over
 * consecutive indexes become one request with max_ix > 1 when allowed)
 * and requests into buffers, up to the request limit and the result
 * buffer's size, counted exactly so results always fit.  Pure: no I/O.
 */
#include "config.h"

#include "hcall/hcall.h"

#include <stdint.h>
#include <string.h>

#include "hcall/hcall-plan-int.h"
#include "util/xalloc.h"

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
 * Pack the sorted reads into requests and buffers.  A run of reads that
 * differ only in consecutive indexes becomes one request (max_ix) when
 * allowed, split where a buffer fills.
 */
void
hcall_plan_pack(struct hcall_plan_ctx *c, struct hcall_plan *plan)
{
	struct hcall_reqbuf	*rb = NULL;
	struct hcall_request	*rq;
	struct hcall_plan_read	*rd, *r0;
	size_t			 cap = 0, i, j, run, k, per, room, *used;
	unsigned		 nel;

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
		nel = hcall_plan_nel(c, r0->domain);
		per = nel * (c->ehdr + r0->size);
		for (k = i; k < j; k += run) {
			used = rb != NULL ?
			    &plan->result_bytes[plan->nbufs - 1] : NULL;
			if (rb == NULL || rb->nrequests >= c->max_requests ||
			    *used + HCALL_RESULT_SIZE + per > c->result_size) {
				rb = hcall_plan_new_buf(plan, &cap);
				used = &plan->result_bytes[plan->nbufs - 1];
			}
			room = (c->result_size - *used - HCALL_RESULT_SIZE) /
			    per;
			run = j - k;
			if (run > room)
				run = room;
			if (run > UINT16_MAX)
				run = UINT16_MAX;
			rq = &rb->req[rb->nrequests];
			memset(rq, 0, sizeof *rq);
			rd = &c->reads[k];
			rq->domain = rd->domain;
			rq->data_size = (uint16_t)rd->size;
			rq->data_offset = rd->offset;
			rq->lpar = rd->lpar;
			rq->max_lpars = 1;
			rq->index = rd->index;
			rq->max_ix = (uint16_t)run;
			if (c->version == 2 &&
			    rd->domain >= HCALL_DOMAIN_CORE) {
				rq->tg = 0;
				rq->max_tg = nel > 1 ? HCALL_TG_ALL : 1;
			}
			*used += HCALL_RESULT_SIZE + run * per;
			for (size_t q = 0; q < run; q++) {
				rd = &c->reads[k + q];
				rd->buffer = (uint32_t)(plan->nbufs - 1);
				rd->request = (uint8_t)rb->nrequests;
				rd->element = (uint16_t)(q * nel);
			}
			rb->nrequests++;
			plan->nrequests++;
		}
	}
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
