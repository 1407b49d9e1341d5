/*
 * Unit tests for the planner's partitions: items of consecutive
 * partitions merged into requests with max_num_lpars > 1, split where
 * the result buffer fills (v1, v2, SMT8), partitions that do not follow
 * one another and the caller's own kept apart, the extraction's checks
 * of lpar_ix and domain_ix, and a thousand partitions read from the
 * simulated hypervisor, every value the one it says it wrote.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "catalog/catalog.h"
#include "hcall/hcall.h"
#include "sim/sim.h"
#include "util/be.h"
#include "util/hverr.h"
#include "test-hcall-fixture.h"

#define VCPUS		16
#define MAXITEMS	12000

static struct tfix	 fx;
static struct hcall_item items[MAXITEMS];
static struct hcall_range vcpus = { 0, VCPUS };

static int
setup(void **state)
{
	(void)state;
	tfix_build(&fx, 8, 4, 0);
	return (0);
}

static int
teardown(void **state)
{
	(void)state;
	tfix_free(&fx);
	return (0);
}

static const struct catalog_event *
core_event(unsigned group, unsigned slot)
{
	return (&fx.cat->events[fx.chip_events + group * 4 + slot]);
}

/*
 * One item per (partition, domain, event): the first nev events of core
 * group 0, each partition's vcpus 0..15, domains from d0 to d1.
 */
static size_t
lpar_items(const unsigned *ids, size_t nids, unsigned d0, unsigned d1,
    unsigned nev)
{
	size_t		 n = 0, i;
	unsigned	 d, e;

	memset(items, 0, sizeof items);
	for (i = 0; i < nids; i++) {
		for (d = d0; d <= d1; d++) {
			for (e = 0; e < nev; e++) {
				assert_true(n < MAXITEMS);
				items[n].kind = HCALL_ITEM_EVENT;
				items[n].event = core_event(0, e);
				items[n].domain = (uint8_t)d;
				items[n].lpar = (uint16_t)ids[i];
				items[n].ranges = &vcpus;
				items[n].nranges = 1;
				n++;
			}
		}
	}
	return (n);
}

static struct hcall_plan *
plan_of(size_t nitems, int version, unsigned tg, int multi)
{
	struct hcall_selection	 sel = { NULL, items, 0 };
	struct hcall_caps	 caps;
	struct hcall_topology	 topo;
	struct hcall_plan	*plan;
	char			*cause = NULL;

	sel.cat = fx.cat;
	sel.nitems = nitems;
	memset(&caps, 0, sizeof caps);
	caps.version = version;
	caps.multi_index = multi;
	memset(&topo, 0, sizeof topo);
	topo.count[1] = 4;
	topo.count[2] = 24;
	topo.count[3] = topo.count[4] = topo.count[5] = topo.count[6] = VCPUS;
	topo.thread_groups = tg;
	if (hcall_plan(&sel, &caps, &topo, &plan, &cause) != 0)
		fail_msg("plan: %s", cause);
	return (plan);
}

/* Whether request r names partitions (and its lpar_ix is known). */
static int
names_lpars(const struct hcall_request *r)
{
	return (r->domain >= 3 && r->lpar != HCALL_LPAR_SELF);
}

static unsigned
req_ntg(const struct hcall_plan *plan, const struct hcall_request *r)
{
	if (plan->version != 2 || r->domain < 2)
		return (1);
	return (r->max_tg == HCALL_TG_ALL ? plan->thread_groups : r->max_tg);
}

/* Word k of (domain, lpar, index, thread group, offset), as answered. */
static uint64_t
word(unsigned d, unsigned lpar, unsigned x, unsigned t, uint32_t off)
{
	return ((uint64_t)d << 56 | (uint64_t)lpar << 40 |
	    (uint64_t)x << 24 | (uint64_t)t << 16 | off);
}

/*
 * Answer plan buffer b as a hypervisor would, partition by partition,
 * then index by index, then thread group by thread group; the caller's
 * own partition comes back as partition 7.  With cut, the last result
 * has only half its elements and results_complete 0.  Then decode.
 */
static void
answer(const struct hcall_plan *plan, size_t b, uint8_t *buf,
    struct hcall_resbuf *rb, int cut)
{
	const struct hcall_reqbuf	*rq = &plan->bufs[b];
	const struct hcall_request	*r;
	struct hcall_rwriter		 w;
	uint8_t				*d;
	unsigned			 i, l, nl, x, t, k, ntg, n, lpar;
	char				*cause = NULL;

	hcall_encode_result_begin(&w, buf, HCALL_BUF_SIZE, plan->version);
	for (i = 0; i < rq->nrequests; i++) {
		r = &rq->req[i];
		ntg = req_ntg(plan, r);
		nl = names_lpars(r) ? r->max_lpars : 1;
		assert_int_equal(hcall_encode_result_open(&w, (uint8_t)i,
		    r->data_size), 0);
		n = 0;
		for (l = 0; l < nl; l++) {
			for (x = 0; x < r->max_ix; x++) {
				for (t = 0; t < ntg; t++) {
					if (cut && i + 1 == rq->nrequests &&
					    n >= nl * r->max_ix * ntg / 2)
						continue;
					n++;
					lpar = names_lpars(r) ? r->lpar + l :
					    7;
					d = hcall_encode_result_element(&w,
					    (uint16_t)lpar,
					    (uint16_t)(r->index + x),
					    0x10000U + lpar, (uint8_t)t);
					assert_non_null(d);
					for (k = 0; k < r->data_size / 8U; k++)
						be64_put(d + 8 * k, word(
						    r->domain, lpar,
						    r->index + x, t,
						    r->data_offset + 8 * k));
				}
			}
		}
		hcall_encode_result_close(&w, !(cut && i + 1 ==
		    rq->nrequests));
	}
	assert_true(hcall_encode_result_end(&w) <= plan->result_bytes[b]);
	if (hcall_decode_result(buf, HCALL_BUF_SIZE, plan->version, rb,
	    &cause) != 0)
		fail_msg("decode: %s", cause);
}

static uint64_t
expect(const struct hcall_plan *plan, const struct hcall_value *v)
{
	uint64_t	 sum = 0;
	unsigned	 t, ntg, lpar;

	ntg = plan->version == 2 ? plan->thread_groups : 1;
	lpar = v->lpar == HCALL_LPAR_SELF ? 7 : v->lpar;
	for (t = 0; t < ntg; t++)
		sum += word(v->domain, lpar, v->index, t, v->offset);
	return (sum);
}

/*
 * Every buffer within its limits, every request of partitions a run of
 * them over whole vcpus or one partition, and every value back.
 */
static void
check_plan(const struct hcall_plan *plan)
{
	static uint8_t		 buf[HCALL_BUF_SIZE];
	static struct hcall_resbuf rb;
	const struct hcall_request *r;
	uint64_t		*vals;
	uint8_t			*valid;
	size_t			 b, i, bytes, nel = 0;
	char			*cause = NULL;

	for (b = 0; b < plan->nbufs; b++) {
		bytes = HCALL_RES_HDR_SIZE;
		assert_true(plan->bufs[b].nrequests <=
		    hcall_max_requests(plan->version));
		for (i = 0; i < plan->bufs[b].nrequests; i++) {
			r = &plan->bufs[b].req[i];
			assert_true(r->max_lpars >= 1);
			if (r->max_lpars > 1) {
				assert_true(names_lpars(r));
				assert_int_equal(r->index, 0);
				assert_int_equal(r->max_ix, VCPUS);
			}
			bytes += hcall_result_bytes(plan->version,
			    (size_t)r->max_lpars * r->max_ix *
			    req_ntg(plan, r), r->data_size);
			nel += (size_t)r->max_lpars * r->max_ix;
		}
		assert_int_equal(bytes, plan->result_bytes[b]);
		assert_true(bytes <= HCALL_BUF_SIZE);
	}
	vals = calloc(plan->nvalues + 1, sizeof *vals);
	valid = calloc(plan->nvalues + 1, 1);
	for (b = 0; b < plan->nbufs; b++) {
		answer(plan, b, buf, &rb, 0);
		if (hcall_plan_extract(plan, b, &rb, vals, valid, NULL,
		    &cause) != 0)
			fail_msg("extract %zu: %s", b, cause);
	}
	for (i = 0; i < plan->nvalues; i++) {
		assert_true(valid[i]);
		if (vals[i] != expect(plan, &plan->values[i]))
			fail_msg("value %zu (lpar %u index %u offset 0x%x): "
			    "%llx", i, plan->values[i].lpar,
			    plan->values[i].index, plan->values[i].offset,
			    (unsigned long long)vals[i]);
	}
	free(vals);
	free(valid);
}

/* Five partitions in a row, one request; four domains, four. */
static void
test_lpar_merge(void **state)
{
	static const unsigned	 ids[] = { 1, 2, 3, 4, 5 };
	struct hcall_plan	*plan;
	const struct hcall_request *r;

	(void)state;
	plan = plan_of(lpar_items(ids, 5, 3, 3, 1), 2, 1, 1);
	assert_int_equal(plan->nbufs, 1);
	assert_int_equal(plan->nrequests, 1);
	r = &plan->bufs[0].req[0];
	assert_int_equal(r->domain, 3);
	assert_int_equal(r->lpar, 1);
	assert_int_equal(r->max_lpars, 5);
	assert_int_equal(r->index, 0);
	assert_int_equal(r->max_ix, VCPUS);
	assert_int_equal(plan->perlpar_requests, 5);
	assert_int_equal(plan->perlpar_hcalls, 1);
	assert_int_equal(plan->naive_requests, 5 * VCPUS);
	check_plan(plan);
	hcall_plan_free(plan);

	/* Three events of a record, one 24-byte span: 640 bytes a
	 * partition, 5 in a request, 6 of them to a buffer. */
	plan = plan_of(lpar_items(ids, 5, 3, 6, 3), 2, 1, 1);
	assert_int_equal(plan->nvalues, 5 * 4 * 3 * VCPUS);
	assert_int_equal(plan->nrequests, 13);
	assert_int_equal(plan->nbufs, 4);
	assert_int_equal(plan->perlpar_requests, 23);
	assert_int_equal(plan->perlpar_hcalls, 4);
	check_plan(plan);
	hcall_plan_free(plan);
}

/*
 * The split where the result buffer fills: as many whole partitions as
 * fit, then the next partition's vcpus as far as they fit, the rest in
 * the next buffer.  A partition of one 8-byte counter over 16 vcpus
 * takes 16 x 16 bytes on v1 (15 fit in 4064 bytes), 16 x 24 on v2 (10)
 * and 16 x 48 with SMT8's two thread groups (5).
 */
static void
test_lpar_split(void **state)
{
	static const struct {
		int		 version;
		unsigned	 tg;
		unsigned	 first;		/* partitions in request 0 */
		unsigned	 rest;		/* and vcpus of the next */
	} cases[] = {
		{ 1, 1, 15, 13 },
		{ 2, 1, 10, 8 },
		{ 2, 2, 5, 4 },
	};
	unsigned		 ids[40];
	struct hcall_plan	*plan;
	const struct hcall_reqbuf *rb;
	size_t			 i, k;

	(void)state;
	for (k = 0; k < 40; k++)
		ids[k] = (unsigned)k + 1;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		plan = plan_of(lpar_items(ids, 40, 3, 3, 1), cases[i].version,
		    cases[i].tg, 1);
		rb = &plan->bufs[0];
		assert_int_equal(rb->req[0].lpar, 1);
		assert_int_equal(rb->req[0].max_lpars, cases[i].first);
		assert_int_equal(rb->nrequests, 2);
		assert_int_equal(rb->req[1].lpar, cases[i].first + 1);
		assert_int_equal(rb->req[1].max_lpars, 1);
		assert_int_equal(rb->req[1].index, 0);
		assert_int_equal(rb->req[1].max_ix, cases[i].rest);
		/* The rest of that partition opens the next buffer. */
		rb = &plan->bufs[1];
		assert_int_equal(rb->req[0].lpar, cases[i].first + 1);
		assert_int_equal(rb->req[0].index, cases[i].rest);
		assert_int_equal(rb->req[0].max_ix, VCPUS - cases[i].rest);
		assert_int_equal(rb->req[1].lpar, cases[i].first + 2);
		assert_true(rb->req[1].max_lpars > 1);
		/* Never more calls than one request per partition takes. */
		assert_true(plan->nbufs <= plan->perlpar_hcalls);
		assert_true(plan->nrequests < plan->perlpar_requests);
		check_plan(plan);
		hcall_plan_free(plan);
	}
}

/* Partitions that do not follow one another are not merged. */
static void
test_lpar_gaps(void **state)
{
	static const unsigned	 ids[] = { 9, 1, 2, 4, 5, 6 };
	static struct hcall_range eight = { 0, 8 };
	struct hcall_plan	*plan;
	const struct hcall_reqbuf *rb;
	size_t			 i;

	(void)state;
	plan = plan_of(lpar_items(ids, 6, 4, 4, 1), 2, 1, 1);
	rb = &plan->bufs[0];
	assert_int_equal(plan->nrequests, 3);
	assert_int_equal(rb->req[0].lpar, 1);
	assert_int_equal(rb->req[0].max_lpars, 2);
	assert_int_equal(rb->req[1].lpar, 4);
	assert_int_equal(rb->req[1].max_lpars, 3);
	assert_int_equal(rb->req[2].lpar, 9);
	assert_int_equal(rb->req[2].max_lpars, 1);
	check_plan(plan);
	hcall_plan_free(plan);

	/* Nor are partitions of different vcpu counts: 5 has 8. */
	assert_int_equal(lpar_items(ids + 3, 3, 4, 4, 1), 3);
	items[1].ranges = &eight;
	plan = plan_of(3, 2, 1, 1);
	assert_int_equal(plan->nrequests, 3);
	assert_int_equal(plan->nvalues, 2 * VCPUS + 8);
	for (i = 0; i < 3; i++)
		assert_int_equal(plan->bufs[0].req[i].max_lpars, 1);
	check_plan(plan);
	hcall_plan_free(plan);

	/* Without several indexes per request, one per vcpu as before. */
	plan = plan_of(lpar_items(ids, 6, 4, 4, 1), 2, 1, 0);
	assert_int_equal(plan->nrequests, 6 * VCPUS);
	check_plan(plan);
	hcall_plan_free(plan);
}

/*
 * The caller's own partition (0xffff) is never merged, not even with
 * 0xfffe; nor are physical domains, whose lpar means nothing.
 */
static void
test_lpar_self(void **state)
{
	static const unsigned	 ids[] = { 0xfffd, 0xfffe, HCALL_LPAR_SELF };
	struct hcall_plan	*plan;
	const struct hcall_reqbuf *rb;
	size_t			 n;

	(void)state;
	plan = plan_of(lpar_items(ids, 3, 3, 3, 1), 2, 1, 1);
	rb = &plan->bufs[0];
	assert_int_equal(plan->nrequests, 2);
	assert_int_equal(rb->req[0].lpar, 0xfffd);
	assert_int_equal(rb->req[0].max_lpars, 2);
	assert_int_equal(rb->req[1].lpar, HCALL_LPAR_SELF);
	assert_int_equal(rb->req[1].max_lpars, 1);
	check_plan(plan);
	hcall_plan_free(plan);

	n = lpar_items(ids, 2, 2, 2, 1);
	assert_int_equal(n, 2);
	plan = plan_of(n, 2, 1, 1);
	assert_int_equal(plan->nrequests, 2);
	assert_int_equal(plan->bufs[0].req[0].max_lpars, 1);
	assert_int_equal(plan->bufs[0].req[1].max_lpars, 1);
	hcall_plan_free(plan);
}

/*
 * Extraction checks each element's lpar_ix and domain_ix where the plan
 * put it, and marks what a short result lacks.  Three partitions of 16
 * vcpus of 2 thread groups: 32 elements each, of 24 bytes from 0x28.
 */
static void
test_lpar_extract(void **state)
{
	static const unsigned	 ids[] = { 1, 2, 3 };
	static uint8_t		 buf[HCALL_BUF_SIZE];
	static struct hcall_resbuf rb;
	struct hcall_plan	*plan;
	uint64_t		 vals[3 * VCPUS];
	uint8_t			 valid[3 * VCPUS];
	char			*cause = NULL;
	size_t			 i;

	(void)state;
	plan = plan_of(lpar_items(ids, 3, 4, 4, 1), 2, 2, 1);
	assert_int_equal(plan->nbufs, 1);
	assert_int_equal(plan->nrequests, 1);
	assert_int_equal(plan->bufs[0].req[0].max_lpars, 3);

	/* Element 32, partition 2's first, says partition 5. */
	answer(plan, 0, buf, &rb, 0);
	be16_put(buf + 0x28 + 32 * 24, 5);
	assert_int_equal(hcall_decode_result(buf, sizeof buf, 2, &rb, &cause),
	    0);
	assert_int_equal(hcall_plan_extract(plan, 0, &rb, vals, valid, NULL,
	    &cause), -HV_EFORMAT);
	assert_non_null(strstr(cause, "hcall 0 result 0 element 32 at byte "
	    "0x328: lpar_ix 5 domain_ix 0, expected lpar_ix 2 domain_ix 0"));
	free(cause);
	cause = NULL;

	/* Element 34, partition 2's vcpu 1, says vcpu 9. */
	answer(plan, 0, buf, &rb, 0);
	be16_put(buf + 0x28 + 34 * 24 + 2, 9);
	assert_int_equal(hcall_decode_result(buf, sizeof buf, 2, &rb, &cause),
	    0);
	assert_int_equal(hcall_plan_extract(plan, 0, &rb, vals, valid, NULL,
	    &cause), -HV_EFORMAT);
	assert_non_null(strstr(cause, "hcall 0 result 0 element 34 at byte "
	    "0x358: index 9 thread group 0, expected index 1 thread "
	    "group 0"));
	free(cause);
	cause = NULL;

	/* Half the elements, results_complete 0: partition 1 and half of
	 * partition 2 found, the rest missing. */
	answer(plan, 0, buf, &rb, 1);
	assert_int_equal(rb.results[0].nelements, 48);
	memset(valid, 0xaa, sizeof valid);
	assert_int_equal(hcall_plan_extract(plan, 0, &rb, vals, valid, NULL,
	    &cause), -HV_ENOVALUE);
	assert_non_null(strstr(cause, "24 values missing"));
	assert_non_null(strstr(cause, "returned too few elements"));
	free(cause);
	for (i = 0; i < plan->nvalues; i++) {
		assert_int_equal(valid[i], plan->values[i].lpar == 1 ||
		    (plan->values[i].lpar == 2 && plan->values[i].index < 8));
		if (valid[i])
			assert_true(vals[i] == expect(plan,
			    &plan->values[i]));
	}
	hcall_plan_free(plan);
}

/*
 * A result that contradicts its request leaves none of the buffer's
 * values valid: the arrays hold the last refresh's, which would
 * otherwise pass for this one's.  Records' timing fields likewise.
 */
static void
test_lpar_extract_stale(void **state)
{
	static const unsigned	 ids[] = { 1, 2, 3 };
	static uint8_t		 buf[HCALL_BUF_SIZE];
	static struct hcall_resbuf rb;
	struct hcall_plan	*plan;
	uint64_t		 vals[3 * VCPUS];
	uint8_t			 valid[3 * VCPUS];
	char			*cause = NULL;
	size_t			 i;

	(void)state;
	plan = plan_of(lpar_items(ids, 3, 4, 4, 1), 2, 2, 1);
	answer(plan, 0, buf, &rb, 0);
	assert_int_equal(hcall_plan_extract(plan, 0, &rb, vals, valid, NULL,
	    &cause), 0);
	for (i = 0; i < plan->nvalues; i++)
		assert_int_equal(valid[i], 1);

	/* Element 32, partition 2's first, says partition 5. */
	be16_put(buf + 0x28 + 32 * 24, 5);
	assert_int_equal(hcall_decode_result(buf, sizeof buf, 2, &rb, &cause),
	    0);
	assert_int_equal(hcall_plan_extract(plan, 0, &rb, vals, valid, NULL,
	    &cause), -HV_EFORMAT);
	free(cause);
	for (i = 0; i < plan->nvalues; i++)
		assert_int_equal(valid[i], 0);
	hcall_plan_free(plan);
}

/* What the simulated hypervisor says it wrote, thread groups summed. */
struct truth {
	uint64_t	*v;		/* [lpar][domain 3-6][vcpu][word] */
	size_t		 n;
	size_t		 nobs;
};

#define T_WORDS	(TFIX_CORE_RECLEN / 8)
#define T_AT(lpar, d, x, off) \
	((((size_t)(lpar) * 4 + (d) - 3) * VCPUS + (x)) * T_WORDS + \
	((off) - TFIX_CORE_REC(0)) / 8)

static void
observe(void *arg, const struct hvsim_obs *o)
{
	struct truth	*t = arg;
	size_t		 at;

	if (o->kind != HVSIM_OBS_VALUE)
		return;
	assert_true(o->domain >= 3 && o->domain <= 6);
	assert_true(o->offset >= TFIX_CORE_REC(0) &&
	    o->offset < TFIX_CORE_REC(0) + TFIX_CORE_RECLEN);
	at = T_AT(o->lpar, o->domain, o->index, o->offset);
	assert_true(at < t->n);
	t->v[at] += o->value;
	t->nobs++;
}

/*
 * A thousand partitions of 16 vcpus (999 readable: 0 is not), three
 * events of a core group in the four VCPU domains: every value found,
 * and the one the simulator says it wrote.  (With SMT8 and the record's
 * timebase a partition takes half a result buffer: no request holds
 * two, and none more than one request per partition would.)
 */
static void
test_lpar_sim(void **state)
{
	static uint8_t		 req[HCALL_BUF_SIZE], res[HCALL_BUF_SIZE];
	static struct hcall_resbuf out;
	static unsigned		 ids[999];
	struct hcall_selection	 sel = { NULL, items, 0 };
	struct sim_config	 cfg;
	struct sim_hv		*hv;
	struct hcall_topology	 topo;
	struct hcall_caps	 caps;
	struct hcall_plan	*plan;
	struct truth		 t;
	const struct hcall_value *v;
	uint64_t		*vals, tb;
	uint8_t			*valid;
	size_t			 b, i;
	char			*cause = NULL;

	(void)state;
	sim_config_defaults(&cfg);
	if (sim_config_parse(&cfg, "lpars=1000,vcpus=16", &cause) != 0 ||
	    sim_hv_new(&cfg, fx.cat, fx.image, fx.len, &hv, &cause) != 0)
		fail_msg("sim: %s", cause);
	sim_frame_topology(sim_hv_frame(hv), &topo);
	assert_int_equal(topo.thread_groups, 2);
	for (i = 0; i < 999; i++)
		ids[i] = (unsigned)i + 1;
	sel.cat = fx.cat;
	sel.nitems = lpar_items(ids, 999, 3, 6, 3);
	memset(&caps, 0, sizeof caps);
	caps.version = 2;
	caps.multi_index = 1;
	caps.whole_records = 1;
	caps.fields = HCALL_REC_TIMEBASE;
	if (hcall_plan(&sel, &caps, &topo, &plan, &cause) != 0)
		fail_msg("plan: %s", cause);
	assert_int_equal(plan->nvalues, 999 * 4 * 3 * VCPUS);
	assert_true(plan->nrequests <= plan->perlpar_requests);
	assert_true(plan->nbufs <= plan->perlpar_hcalls);

	t.n = (size_t)1000 * 4 * VCPUS * T_WORDS;
	t.v = calloc(t.n, sizeof *t.v);
	t.nobs = 0;
	sim_hv_observe(hv, observe, &t);
	vals = calloc(plan->nvalues, sizeof *vals);
	valid = calloc(plan->nvalues, 1);
	tb = 5 * cfg.tb_hz;
	for (b = 0; b < plan->nbufs; b++) {
		if (hcall_encode_request(&plan->bufs[b], req, sizeof req,
		    NULL, &cause) != 0)
			fail_msg("encode %zu: %s", b, cause);
		assert_int_equal(sim_hv_data(hv, tb, req, sizeof req, res,
		    sizeof res), H_SUCCESS);
		if (hcall_decode_result(res, sizeof res, 2, &out,
		    &cause) != 0 ||
		    hcall_plan_extract(plan, b, &out, vals, valid, NULL,
		    &cause) != 0)
			fail_msg("hcall %zu: %s", b, cause);
	}
	assert_true(t.nobs >= plan->nvalues * 2);
	for (i = 0; i < plan->nvalues; i++) {
		v = &plan->values[i];
		assert_true(valid[i]);
		if (vals[i] != t.v[T_AT(v->lpar, v->domain, v->index,
		    v->offset)])
			fail_msg("value %zu (lpar %u domain %u vcpu %u "
			    "offset 0x%x): %llu, the simulator wrote %llu", i,
			    v->lpar, v->domain, v->index, v->offset,
			    (unsigned long long)vals[i], (unsigned long long)
			    t.v[T_AT(v->lpar, v->domain, v->index,
			    v->offset)]);
	}
	free(vals);
	free(valid);
	free(t.v);
	hcall_plan_free(plan);
	sim_hv_free(hv);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lpar_merge),
		cmocka_unit_test(test_lpar_split),
		cmocka_unit_test(test_lpar_gaps),
		cmocka_unit_test(test_lpar_self),
		cmocka_unit_test(test_lpar_extract),
		cmocka_unit_test(test_lpar_extract_stale),
		cmocka_unit_test(test_lpar_sim),
	};

	return (cmocka_run_group_tests_name("hcall-plan-lpar", tests, setup,
	    teardown));
}
