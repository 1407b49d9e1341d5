/*
 * Unit tests for the request planner: record merging, index ranges,
 * splitting at the interface limits, the precise errors, and extraction
 * of values from results built to the plan (by hand here; the simulator
 * tests do it end to end).
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
#include "util/be.h"
#include "util/hverr.h"
#include "test-hcall-fixture.h"

static struct tfix	 fx;

static int
setup(void **state)
{
	(void)state;
	tfix_build(&fx, 8, 4, 2);
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
chip_event(unsigned group, unsigned slot)
{
	return (&fx.cat->events[group * 8 + slot]);
}

static const struct catalog_event *
core_event(unsigned group, unsigned slot)
{
	return (&fx.cat->events[fx.chip_events + group * 4 + slot]);
}

static const struct catalog_group *
chip_group(unsigned g)
{
	return (&fx.cat->groups[g]);
}

static const struct catalog_group *
core_group(unsigned g)
{
	return (&fx.cat->groups[fx.chip_groups + g]);
}

static void
topo_frame(struct hcall_topology *t, unsigned chips, unsigned cores,
    unsigned tg)
{
	memset(t, 0, sizeof *t);
	t->count[1] = chips;
	t->count[2] = cores;
	t->count[3] = t->count[4] = t->count[5] = t->count[6] = 16;
	t->thread_groups = tg;
}

/*
 * Fill a result buffer for plan buffer b as a hypervisor would, with
 * word k of (domain d, index x, tg t, lpar l) = d << 56 | x << 32 | t <<
 * 24 | byte offset.  Then decode it into rb.
 */
static void
answer(const struct hcall_plan *plan, size_t b, uint8_t *buf,
    struct hcall_resbuf *rb, unsigned drop_from)
{
	const struct hcall_reqbuf	*rq = &plan->bufs[b];
	const struct hcall_request	*r;
	struct hcall_rwriter		 w;
	uint8_t				*d;
	unsigned			 i, x, t, k, ntg;
	char				*cause = NULL;

	hcall_encode_result_begin(&w, buf, HCALL_BUF_SIZE, plan->version);
	for (i = 0; i < rq->nrequests && i < drop_from; i++) {
		r = &rq->req[i];
		ntg = plan->version == 2 && r->domain >= 2 ?
		    (r->max_tg == 0xff ? plan->thread_groups : r->max_tg) : 1;
		assert_int_equal(hcall_encode_result_open(&w, (uint8_t)i,
		    r->data_size), 0);
		for (x = 0; x < r->max_ix; x++) {
			for (t = 0; t < ntg; t++) {
				d = hcall_encode_result_element(&w, 0,
				    (uint16_t)(r->index + x), 0xffffffff,
				    (uint8_t)t);
				assert_non_null(d);
				for (k = 0; k < r->data_size / 8U; k++)
					be64_put(d + 8 * k,
					    (uint64_t)r->domain << 56 |
					    (uint64_t)(r->index + x) << 32 |
					    (uint64_t)t << 24 |
					    (r->data_offset + 8 * k));
			}
		}
		hcall_encode_result_close(&w, 1);
	}
	assert_true(hcall_encode_result_end(&w) <= plan->result_bytes[b] ||
	    drop_from < rq->nrequests);
	if (hcall_decode_result(buf, HCALL_BUF_SIZE, plan->version, rb,
	    &cause) != 0)
		fail_msg("decode: %s", cause);
}

static uint64_t
expect(const struct hcall_value *v, unsigned ntg)
{
	uint64_t	 sum = 0;
	unsigned	 t;

	for (t = 0; t < ntg; t++)
		sum += (uint64_t)v->domain << 56 | (uint64_t)v->index << 32 |
		    (uint64_t)t << 24 | v->offset;
	return (sum);
}

/* Every value of a plan comes back from answers built to the plan. */
static void
check_roundtrip(const struct hcall_plan *plan)
{
	static uint8_t		 buf[HCALL_BUF_SIZE];
	static struct hcall_resbuf rb;
	uint64_t		*vals;
	uint8_t			*valid;
	struct hcall_record_sample *recs;
	size_t			 b, i;
	unsigned		 ntg;
	char			*cause = NULL;

	vals = calloc(plan->nvalues + 1, sizeof *vals);
	valid = calloc(plan->nvalues + 1, 1);
	recs = calloc(plan->nrecords + 1, sizeof *recs);
	for (b = 0; b < plan->nbufs; b++) {
		answer(plan, b, buf, &rb, 255);
		if (hcall_plan_extract(plan, b, &rb, vals, valid, recs,
		    &cause) != 0)
			fail_msg("extract %zu: %s", b, cause);
	}
	for (i = 0; i < plan->nvalues; i++) {
		const struct hcall_value *v = &plan->values[i];

		ntg = plan->version == 2 && v->domain >= 2 ?
		    plan->thread_groups : 1;
		assert_true(valid[i]);
		if (vals[i] != expect(v, ntg))
			fail_msg("value %zu (index %u offset 0x%x): %llx", i,
			    v->index, v->offset, (unsigned long long)vals[i]);
	}
	for (i = 0; i < plan->nrecords; i++) {
		const struct hcall_record *r = &plan->records[i];

		assert_int_equal(recs[i].have, r->have);
		if (r->have & HCALL_REC_TIMEBASE)
			assert_true((recs[i].timebase & 0xffffff) >=
			    r->offset && (recs[i].timebase & 0xffffff) <
			    r->offset + r->length);
		if (r->have & HCALL_REC_TIMEBASE)
			assert_int_equal(recs[i].timebase >> 32 & 0xffff,
			    r->index);
	}
	free(vals);
	free(valid);
	free(recs);
}

/* Every request respects the limits it was planned for. */
static void
check_limits(const struct hcall_plan *plan, unsigned maxreq, size_t rsize)
{
	size_t		 b, i, total = 0;

	for (b = 0; b < plan->nbufs; b++) {
		assert_true(plan->bufs[b].nrequests >= 1);
		assert_true(plan->bufs[b].nrequests <= maxreq);
		assert_true(plan->result_bytes[b] <= rsize);
		for (i = 0; i < plan->bufs[b].nrequests; i++) {
			assert_int_equal(plan->bufs[b].req[i].data_size % 8, 0);
			assert_int_equal(plan->bufs[b].req[i].data_offset % 8,
			    0);
		}
		total += plan->bufs[b].nrequests;
	}
	assert_int_equal(total, plan->nrequests);
}

/* One event over chips 0..3: one request reading its record for all. */
static void
test_plan_one_event(void **state)
{
	struct hcall_item	 it;
	struct hcall_range	 rg = { 0, 4 };
	struct hcall_selection	 sel = { fx.cat, &it, 1 };
	struct hcall_caps	 caps;
	struct hcall_topology	 topo;
	struct hcall_plan	*plan;
	char			*cause = NULL;
	size_t			 i;

	(void)state;
	memset(&it, 0, sizeof it);
	it.kind = HCALL_ITEM_EVENT;
	it.event = chip_event(1, 2);
	it.lpar = HCALL_LPAR_SELF;
	it.ranges = &rg;
	it.nranges = 1;
	memset(&caps, 0, sizeof caps);
	caps.version = 2;
	caps.multi_index = 1;
	caps.whole_records = 1;
	topo_frame(&topo, 16, 192, 2);
	if (hcall_plan(&sel, &caps, &topo, &plan, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(plan->nbufs, 1);
	assert_int_equal(plan->nrequests, 1);
	/* The whole record would cost 96 bytes more a chip: one word. */
	assert_int_equal(plan->bufs[0].req[0].domain, 1);
	assert_int_equal(plan->bufs[0].req[0].data_offset,
	    TFIX_CHIP_REC(1) + 40);
	assert_int_equal(plan->bufs[0].req[0].data_size, 8);
	assert_int_equal(plan->bufs[0].req[0].max_ix, 4);
	assert_int_equal(plan->bufs[0].req[0].max_tg, 0);
	assert_int_equal(plan->nvalues, 4);
	for (i = 0; i < 4; i++) {
		assert_int_equal(plan->values[i].index, i);
		assert_int_equal(plan->values[i].loc.element, i);
		assert_int_equal(plan->values[i].loc.nelements, 1);
		assert_int_equal(plan->values[i].loc.offset, 0);
		assert_ptr_equal(plan->values[i].event, chip_event(1, 2));
	}
	assert_int_equal(plan->naive_requests, 4);
	assert_int_equal(plan->naive_hcalls, 1);
	assert_int_equal(plan->nrecords, 4);
	assert_int_equal(plan->records[0].have, 0);
	check_roundtrip(plan);
	hcall_plan_free(plan);

	/* The whole group with its timing: one span over the record. */
	it.kind = HCALL_ITEM_GROUP;
	it.group = chip_group(1);
	caps.fields = HCALL_REC_TIMEBASE | HCALL_REC_UPDATES |
	    HCALL_REC_PERIOD;
	if (hcall_plan(&sel, &caps, &topo, &plan, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(plan->nrequests, 1);
	assert_int_equal(plan->nvalues, 32);
	assert_int_equal(plan->bufs[0].req[0].data_offset,
	    TFIX_CHIP_REC(1) + 8);
	assert_int_equal(plan->bufs[0].req[0].data_size, 96);
	assert_int_equal(plan->records[0].have, HCALL_REC_TIMEBASE |
	    HCALL_REC_UPDATES | HCALL_REC_PERIOD);
	/* The chip schema's closing Time-Of-Day word is its timebase. */
	assert_int_equal(plan->records[0].timebase.offset, 96 - 8);
	assert_int_equal(plan->records[0].updates.offset, 0);
	assert_int_equal(plan->records[0].period.offset, 8);
	assert_int_equal(plan->values[8].record, plan->values[15].record);
	assert_int_equal(plan->values[8].index, 1);
	check_roundtrip(plan);
	hcall_plan_free(plan);
	it.kind = HCALL_ITEM_EVENT;
	caps.fields = 0;

	/* Without multi-index: one request per chip. */
	caps.multi_index = 0;
	if (hcall_plan(&sel, &caps, &topo, &plan, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(plan->nrequests, 4);
	for (i = 0; i < 4; i++) {
		assert_int_equal(plan->values[i].loc.request, i);
		assert_int_equal(plan->values[i].loc.element, 0);
	}
	check_roundtrip(plan);
	hcall_plan_free(plan);
}

/* Counters of one record merge; spans bridge gaps only when cheaper. */
static void
test_plan_merge(void **state)
{
	struct hcall_item	 it[3];
	struct hcall_range	 rg = { 5, 2 };
	struct hcall_selection	 sel = { fx.cat, it, 3 };
	struct hcall_caps	 caps;
	struct hcall_topology	 topo;
	struct hcall_plan	*plan;
	char			*cause = NULL;

	(void)state;
	memset(it, 0, sizeof it);
	it[0].kind = it[1].kind = it[2].kind = HCALL_ITEM_EVENT;
	it[0].event = core_event(2, 0);		/* record 0x140, +24 */
	it[1].event = core_event(2, 3);		/* +48 */
	it[2].event = core_event(2, 0);		/* twice: one location */
	it[0].ranges = it[1].ranges = it[2].ranges = &rg;
	it[0].nranges = it[1].nranges = it[2].nranges = 1;
	it[0].lpar = it[1].lpar = it[2].lpar = HCALL_LPAR_SELF;
	memset(&caps, 0, sizeof caps);
	caps.version = 2;
	caps.multi_index = 1;
	topo_frame(&topo, 16, 192, 2);
	if (hcall_plan(&sel, &caps, &topo, &plan, &cause) != 0)
		fail_msg("%s", cause);
	/* 24..55: the 16-byte gap is cheaper than a second request. */
	assert_int_equal(plan->nrequests, 1);
	assert_int_equal(plan->bufs[0].req[0].data_offset,
	    TFIX_CORE_REC(2) + 24);
	assert_int_equal(plan->bufs[0].req[0].data_size, 32);
	assert_int_equal(plan->bufs[0].req[0].index, 5);
	assert_int_equal(plan->bufs[0].req[0].max_ix, 2);
	assert_int_equal(plan->bufs[0].req[0].tg, 0);
	assert_int_equal(plan->bufs[0].req[0].max_tg, 0xff);
	assert_int_equal(plan->nvalues, 6);
	assert_int_equal(plan->values[0].loc.offset, 0);
	assert_int_equal(plan->values[2].loc.offset, 24);
	assert_int_equal(plan->values[1].loc.element, 2);	/* core 6 */
	assert_int_equal(plan->values[1].loc.nelements, 2);
	assert_int_equal(plan->values[4].loc.offset,
	    plan->values[0].loc.offset);
	/* No timing field is covered, none was asked for. */
	assert_int_equal(plan->records[0].have, 0);
	assert_int_equal(plan->naive_requests, 4);
	check_roundtrip(plan);
	hcall_plan_free(plan);

	/* Asking for the timebase stretches the span down to 0. */
	caps.fields = HCALL_REC_TIMEBASE;
	if (hcall_plan(&sel, &caps, &topo, &plan, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(plan->nrequests, 1);
	assert_int_equal(plan->bufs[0].req[0].data_offset, TFIX_CORE_REC(2));
	assert_int_equal(plan->bufs[0].req[0].data_size, 56);
	assert_int_equal(plan->records[0].have, HCALL_REC_TIMEBASE |
	    HCALL_REC_UPDATES | HCALL_REC_PERIOD);
	check_roundtrip(plan);
	hcall_plan_free(plan);

	/* On v1 one element per core and an 8-byte header. */
	caps.version = 1;
	caps.fields = 0;
	if (hcall_plan(&sel, &caps, &topo, &plan, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(plan->bufs[0].req[0].max_tg, 0);
	assert_int_equal(plan->values[1].loc.element, 1);
	assert_int_equal(plan->values[1].loc.nelements, 1);
	check_roundtrip(plan);
	hcall_plan_free(plan);

	/* Far apart counters of one record stay apart when cheaper. */
	caps.version = 2;
	caps.max_data_size = 8;
	if (hcall_plan(&sel, &caps, &topo, &plan, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(plan->nrequests, 2);
	check_roundtrip(plan);
	hcall_plan_free(plan);
}

/* 300 single counters: split at 169 results (v1), 127 and 72 (v2). */
static void
test_plan_limits(void **state)
{
	static const struct {
		int		 version;
		unsigned	 domain;
		unsigned	 tg;
		unsigned	 per_call;
	} rows[] = {
		{ 1, 1, 1, 169 },	/* 24-byte results */
		{ 2, 1, 1, 127 },	/* the request limit */
		{ 2, 2, 2, 72 },	/* 56-byte SMT8 results */
		{ 2, 2, 1, 127 },
	};
	struct hcall_item	 it[300];
	struct hcall_range	 rg = { 0, 1 };
	struct hcall_selection	 sel = { fx.cat, it, 300 };
	struct hcall_caps	 caps;
	struct hcall_topology	 topo;
	struct hcall_plan	*plan;
	char			*cause = NULL;
	size_t			 i, r;

	(void)state;
	for (r = 0; r < sizeof rows / sizeof rows[0]; r++) {
		memset(it, 0, sizeof it);
		for (i = 0; i < 300; i++) {
			it[i].kind = HCALL_ITEM_RAW;
			it[i].domain = (uint8_t)rows[r].domain;
			/* Every other word: never merged. */
			it[i].offset = (uint32_t)(0x4000 + 32 * i);
			it[i].lpar = HCALL_LPAR_SELF;
			it[i].ranges = &rg;
			it[i].nranges = 1;
		}
		memset(&caps, 0, sizeof caps);
		caps.version = rows[r].version;
		caps.multi_index = 1;
		topo_frame(&topo, 16, 192, rows[r].tg);
		if (hcall_plan(&sel, &caps, &topo, &plan, &cause) != 0)
			fail_msg("%s", cause);
		assert_int_equal(plan->nrequests, 300);
		assert_int_equal(plan->bufs[0].nrequests, rows[r].per_call);
		assert_int_equal(plan->nbufs,
		    (300 + rows[r].per_call - 1) / rows[r].per_call);
		assert_int_equal(plan->naive_hcalls, plan->nbufs);
		check_limits(plan, hcall_max_requests(rows[r].version),
		    HCALL_BUF_SIZE);
		check_roundtrip(plan);
		hcall_plan_free(plan);
	}

	/* A transport limit of 10 requests per call. */
	caps.max_requests = 10;
	if (hcall_plan(&sel, &caps, &topo, &plan, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(plan->nbufs, 30);
	check_limits(plan, 10, HCALL_BUF_SIZE);
	hcall_plan_free(plan);
	/* A 512-byte result buffer. */
	caps.max_requests = 0;
	caps.result_size = 512;
	if (hcall_plan(&sel, &caps, &topo, &plan, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(plan->bufs[0].nrequests, (512 - 32) / 32);
	check_limits(plan, 127, 512);
	check_roundtrip(plan);
	hcall_plan_free(plan);
}

/*
 * The benchmark's selection: 16 chips x 64 chip counters and 192 cores x
 * 16 core counters, 4096 counters on an SMT8 POWER9-like frame.
 */
static void
test_plan_4096(void **state)
{
	struct hcall_item	 it[12];
	struct hcall_range	 chips = { 0, 16 }, cores = { 0, 192 };
	struct hcall_selection	 sel = { fx.cat, it, 12 };
	struct hcall_caps	 caps;
	struct hcall_topology	 topo;
	struct hcall_plan	*plan;
	char			*cause = NULL;
	unsigned		 i, v;

	(void)state;
	memset(it, 0, sizeof it);
	for (i = 0; i < 12; i++) {
		it[i].kind = HCALL_ITEM_GROUP;
		it[i].group = i < 8 ? chip_group(i) : core_group(i - 8);
		it[i].ranges = i < 8 ? &chips : &cores;
		it[i].nranges = 1;
		it[i].lpar = HCALL_LPAR_SELF;
	}
	topo_frame(&topo, 16, 192, 2);
	for (v = 1; v <= 2; v++) {
		memset(&caps, 0, sizeof caps);
		caps.version = (int)v;
		caps.multi_index = 1;
		caps.fields = HCALL_REC_TIMEBASE;
		if (hcall_plan(&sel, &caps, &topo, &plan, &cause) != 0)
			fail_msg("%s", cause);
		assert_int_equal(plan->nvalues, 4096);
		assert_int_equal(plan->naive_requests, 4096);
		print_message("v%u: 4096 counters, %zu hcalls (%zu requests) "
		    "planned, %zu naive: %.1fx fewer\n", v, plan->nbufs,
		    plan->nrequests, plan->naive_hcalls,
		    (double)plan->naive_hcalls / (double)plan->nbufs);
		/*
		 * Naive v2: 1024 chip requests at 127 a call (9 calls, the
		 * last holding 8) then 3072 SMT8 core requests at 72 a call
		 * (68 fit after the chips), 51 calls; v1: 4096 / 169.
		 */
		assert_int_equal(plan->naive_hcalls, v == 2 ? 51 : 25);
		assert_true(plan->nbufs * 3 <= plan->naive_hcalls * 2);
		check_limits(plan, hcall_max_requests((int)v), HCALL_BUF_SIZE);
		check_roundtrip(plan);
		for (i = 0; i < plan->nrecords; i++)
			assert_true(plan->records[i].have &
			    HCALL_REC_TIMEBASE);
		hcall_plan_free(plan);
	}
}

/* Precise errors naming the item, like pfm_dispatch_events(). */
static void
test_plan_errors(void **state)
{
	struct catalog_event	 stray;
	struct hcall_item	 it[2];
	struct hcall_range	 rg = { 0, 4 }, bad = { 15, 2 };
	struct hcall_range	 empty = { 3, 0 };
	struct hcall_selection	 sel = { fx.cat, it, 2 };
	struct hcall_caps	 caps;
	struct hcall_topology	 topo;
	struct hcall_plan	*plan = NULL;
	char			*cause;

	(void)state;
	memset(it, 0, sizeof it);
	memset(&caps, 0, sizeof caps);
	caps.version = 2;
	topo_frame(&topo, 16, 192, 2);
	it[0].kind = HCALL_ITEM_EVENT;
	it[0].event = chip_event(0, 0);
	it[0].ranges = &rg;
	it[0].nranges = 1;
	it[1] = it[0];

#define EXPECT(err, text) do { \
	cause = NULL; \
	assert_int_equal(hcall_plan(&sel, &caps, &topo, &plan, &cause), \
	    (err)); \
	assert_null(plan); \
	if (cause == NULL || strstr(cause, (text)) == NULL) \
		fail_msg("cause \"%s\" lacks \"%s\"", cause, (text)); \
	free(cause); \
} while (0)

	/* An event that is not the catalog's. */
	stray = *chip_event(0, 0);
	it[1].event = &stray;
	EXPECT(-HV_ENOENT, "item 1 (event PM_PB_CYC): unknown event");
	it[1].event = NULL;
	EXPECT(-HV_ENOENT, "item 1 (event): unknown event");
	it[1].kind = HCALL_ITEM_GROUP;
	it[1].group = NULL;
	EXPECT(-HV_ENOENT, "item 1 (group): unknown group");
	it[1] = it[0];

	/* Index out of range given the topology. */
	it[1].ranges = &bad;
	EXPECT(-HV_ERANGE, "item 1 (event PM_PB_CYC): chip 16 out of range "
	    "0..15");
	it[1].ranges = &empty;
	EXPECT(-HV_EUSAGE, "index range 0 is empty");
	it[1].nranges = 0;
	EXPECT(-HV_EUSAGE, "no chip index given");
	it[1] = it[0];

	/* A domain the event or the interface does not allow. */
	it[1].domain = 2;
	EXPECT(-HV_EUSAGE, "item 1 (event PM_PB_CYC): event PM_PB_CYC "
	    "(catalog domain 1, Physical Chip) cannot be read in domain 2");
	it[1].event = core_event(0, 1);
	it[1].domain = 1;
	EXPECT(-HV_EUSAGE, "cannot be read in domain 1");
	it[1].domain = 3;
	it[1].lpar = HCALL_LPAR_SELF;
	assert_int_equal(hcall_plan(&sel, &caps, &topo, &plan, &cause), 0);
	assert_int_equal(plan->bufs[0].req[plan->values[4].loc.request].domain,
	    3);
	hcall_plan_free(plan);
	plan = NULL;
	it[1].kind = HCALL_ITEM_RAW;
	it[1].domain = 7;
	EXPECT(-HV_EUSAGE, "item 1 (domain 7 offset 0x0): domain 7 is not "
	    "1-6");
	it[1].domain = 2;
	it[1].offset = 0x9c;
	EXPECT(-HV_EFORMAT, "offset 0x9c is not 8-byte aligned");
	it[1] = it[0];

	/* Transport limits that make no sense. */
	caps.max_data_size = 12;
	EXPECT(-HV_EUSAGE, "data_size limit 12 is not a multiple of 8");
	caps.max_data_size = 0;
	caps.max_requests = 200;
	EXPECT(-HV_EUSAGE, "interface v2 only 127");
	caps.max_requests = 0;
	caps.version = 3;
	EXPECT(-HV_EUSAGE, "interface version 3");
	caps.version = 2;

	/* A request too large for the result buffer. */
	caps.result_size = 64;
	it[1].event = core_event(0, 0);
	EXPECT(-HV_ELIMIT, "item 1 (event HPM_CCYC): one counter at one "
	    "core needs 56 result bytes, the 64-byte result buffer has room "
	    "for 32");
	caps.result_size = 0;

	sel.nitems = 0;
	EXPECT(-HV_EUSAGE, "nothing selected");
#undef EXPECT
}

/* Extraction checks results against requests and marks what is missing. */
static void
test_plan_extract(void **state)
{
	static uint8_t		 buf[HCALL_BUF_SIZE];
	static struct hcall_resbuf rb;
	struct hcall_item	 it[2];
	struct hcall_range	 rg = { 0, 3 };
	struct hcall_selection	 sel = { fx.cat, it, 2 };
	struct hcall_caps	 caps;
	struct hcall_topology	 topo;
	struct hcall_plan	*plan;
	uint64_t		 vals[16];
	uint8_t			 valid[16];
	char			*cause = NULL;
	size_t			 i;

	(void)state;
	memset(it, 0, sizeof it);
	it[0].kind = HCALL_ITEM_EVENT;
	it[0].event = chip_event(0, 0);
	it[1].kind = HCALL_ITEM_EVENT;
	it[1].event = chip_event(3, 0);
	it[0].ranges = it[1].ranges = &rg;
	it[0].nranges = it[1].nranges = 1;
	memset(&caps, 0, sizeof caps);
	caps.version = 2;
	caps.multi_index = 1;
	topo_frame(&topo, 16, 192, 2);
	if (hcall_plan(&sel, &caps, &topo, &plan, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(plan->nbufs, 1);
	assert_int_equal(plan->nrequests, 2);

	/* Only the first request answered: the second's values missing. */
	answer(plan, 0, buf, &rb, 1);
	memset(valid, 0xaa, sizeof valid);
	assert_int_equal(hcall_plan_extract(plan, 0, &rb, vals, valid, NULL,
	    &cause), -HV_ENOVALUE);
	assert_non_null(strstr(cause, "3 values missing"));
	assert_non_null(strstr(cause, "has no result"));
	free(cause);
	for (i = 0; i < 6; i++)
		assert_int_equal(valid[i], plan->values[i].item == 0);

	/* A domain_ix that is not the one asked for. */
	answer(plan, 0, buf, &rb, 255);
	be16_put(buf + rb.elements[1].data - 16 + 2, 9);
	assert_int_equal(hcall_decode_result(buf, sizeof buf, 2, &rb, &cause),
	    0);
	cause = NULL;
	assert_int_equal(hcall_plan_extract(plan, 0, &rb, vals, valid, NULL,
	    &cause), -HV_EFORMAT);
	assert_non_null(strstr(cause, "result 0 element 1 at byte 0x40: "
	    "index 9 thread group 0, expected index 1"));
	free(cause);

	/* A data size that is not the request's. */
	answer(plan, 0, buf, &rb, 255);
	rb.results[1].data_size = 16;
	cause = NULL;
	assert_int_equal(hcall_plan_extract(plan, 0, &rb, vals, valid, NULL,
	    &cause), -HV_EFORMAT);
	assert_non_null(strstr(cause, "element data size 16, request 1 "
	    "asked for 8"));
	free(cause);

	/* A result for a request that was never sent. */
	answer(plan, 0, buf, &rb, 255);
	rb.results[1].request = 5;
	cause = NULL;
	assert_int_equal(hcall_plan_extract(plan, 0, &rb, vals, valid, NULL,
	    &cause), -HV_EFORMAT);
	assert_non_null(strstr(cause, "result_ix 5, but 2 requests"));
	free(cause);
	hcall_plan_free(plan);
}

/* A real catalog: POWER8 v3 (core records only; chip events unread). */
static void
test_plan_p8(void **state)
{
	struct catalog		*cat = NULL;
	const struct catalog_event *ev, *chip = NULL;
	struct hcall_item	 it[300];
	struct hcall_range	 rg = { 0, 4 };
	struct hcall_selection	 sel;
	struct hcall_caps	 caps;
	struct hcall_topology	 topo;
	struct hcall_plan	*plan;
	uint8_t			*img;
	size_t			 len, i, n = 0;
	char			*cause = NULL;

	(void)state;
	img = tfix_read("tests/data/catalog/p8-catalog-v3.bin", &len);
	if (img == NULL)
		skip();
	if (catalog_parse(img, len, 1, &cat, &cause) != 0)
		fail_msg("%s", cause);
	memset(it, 0, sizeof it);
	for (i = 0; i < cat->nevents && n < 300; i++) {
		ev = &cat->events[i];
		if (ev->record_length == 0) {
			if (chip == NULL && ev->domain == 1)
				chip = ev;
			continue;
		}
		it[n].kind = HCALL_ITEM_EVENT;
		it[n].event = ev;
		it[n].domain = 2;
		it[n].ranges = &rg;
		it[n].nranges = 1;
		n++;
	}
	sel.cat = cat;
	sel.items = it;
	sel.nitems = n;
	memset(&caps, 0, sizeof caps);
	caps.version = 1;
	caps.multi_index = 1;
	caps.whole_records = 1;
	topo_frame(&topo, 2, 20, 1);
	if (hcall_plan(&sel, &caps, &topo, &plan, &cause) != 0)
		fail_msg("%s", cause);
	print_message("POWER8 v3: %zu core counters x 4 cores: %zu hcalls "
	    "(%zu requests), %zu naive\n", n, plan->nbufs, plan->nrequests,
	    plan->naive_hcalls);
	assert_int_equal(plan->nvalues, 4 * n);
	assert_true(plan->nbufs < plan->naive_hcalls);
	check_limits(plan, 255, HCALL_BUF_SIZE);
	check_roundtrip(plan);
	hcall_plan_free(plan);
	/* Records with no group (the _USER/_KERNEL copies) get schema 0. */
	caps.fields = HCALL_REC_TIMEBASE;
	if (hcall_plan(&sel, &caps, &topo, &plan, &cause) != 0)
		fail_msg("%s", cause);
	print_message("POWER8 v3, with timebases: %zu hcalls\n", plan->nbufs);
	for (i = 0; i < plan->nrecords; i++) {
		assert_int_equal(plan->records[i].schema, 0);
		assert_true(plan->records[i].have & HCALL_REC_TIMEBASE);
		assert_int_equal(plan->records[i].timebase.offset, 0);
	}
	check_limits(plan, 255, HCALL_BUF_SIZE);
	check_roundtrip(plan);
	hcall_plan_free(plan);
	/* The kernel skips chip events with no record; so does the plan. */
	assert_non_null(chip);
	it[0].event = chip;
	it[0].domain = 0;
	sel.nitems = 1;
	cause = NULL;
	assert_int_equal(hcall_plan(&sel, &caps, &topo, &plan, &cause),
	    -HV_ENOENT);
	assert_non_null(strstr(cause, "has no group record"));
	free(cause);
	catalog_free(cat);
	free(img);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plan_one_event),
		cmocka_unit_test(test_plan_merge),
		cmocka_unit_test(test_plan_limits),
		cmocka_unit_test(test_plan_4096),
		cmocka_unit_test(test_plan_errors),
		cmocka_unit_test(test_plan_extract),
		cmocka_unit_test(test_plan_p8),
	};

	return (cmocka_run_group_tests_name("hcall-plan", tests, setup,
	    teardown));
}
