/*
 * Unit tests for the simulated frame and hypervisor: the catalog page
 * rules, every return code and detailed_rc of H_GET_24X7_DATA, stepwise
 * monotonic accumulators with their timing fields, plausible magnitudes,
 * determinism, each injected fault, and the whole path (plan, encode,
 * simulate, decode, extract) for 4096 counters.
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
#include "harness.h"
#include "test-hcall-fixture.h"

#define TB		512000000ULL	/* default timebase: ticks a second */

static struct tfix	 fx;

static int
setup(void **state)
{
	(void)state;
	tfix_build(&fx, 8, 4, 1);
	return (0);
}

static int
teardown(void **state)
{
	(void)state;
	tfix_free(&fx);
	return (0);
}

static struct sim_hv *
new_hv(const char *spec)
{
	struct sim_config	 cfg;
	struct sim_hv		*hv;
	char			*cause = NULL;

	sim_config_defaults(&cfg);
	/* These tests give the frame's own timebase: no uptime before. */
	cfg.uptime_ms = 0;
	if (spec != NULL && sim_config_parse(&cfg, spec, &cause) != 0)
		fail_msg("%s: %s", spec, cause);
	if (sim_hv_new(&cfg, fx.cat, fx.image, fx.len, &hv, &cause) != 0)
		fail_msg("%s", cause);
	return (hv);
}

/* One call with one buffer of requests; the result is decoded. */
static long
call(struct sim_hv *hv, uint64_t tb, const struct hcall_reqbuf *rb,
    uint8_t *res, struct hcall_resbuf *out)
{
	uint8_t		 req[HCALL_BUF_SIZE];
	char		*cause = NULL;
	long		 rc;

	if (hcall_encode_request(rb, req, sizeof req, NULL, &cause) != 0)
		fail_msg("%s", cause);
	rc = sim_hv_data(hv, tb, req, sizeof req, res, HCALL_BUF_SIZE);
	if (hcall_decode_result(res, HCALL_BUF_SIZE, rb->version, out,
	    &cause) != 0)
		fail_msg("result: %s", cause);
	return (rc);
}

static struct hcall_request
req_core(unsigned core, uint32_t off, uint16_t size)
{
	struct hcall_request	 r;

	memset(&r, 0, sizeof r);
	r.domain = 2;
	r.data_offset = off;
	r.data_size = size;
	r.lpar = HCALL_LPAR_SELF;
	r.max_lpars = 1;
	r.index = (uint16_t)core;
	r.max_ix = 1;
	r.max_tg = HCALL_TG_ALL;
	return (r);
}

static void
test_sim_catalog_pages(void **state)
{
	struct sim_hv	*hv;
	struct sim_config cfg;
	uint8_t		 page[HCALL_PAGE_SIZE];
	uint64_t	 p;
	uint32_t	 npages;
	char		*cause = NULL;

	(void)state;
	hv = new_hv(NULL);
	/* Page 0 only with version 0; it tells the version. */
	assert_int_equal(sim_hv_catalog_page(hv, 0, 0, page, sizeof page),
	    H_SUCCESS);
	assert_memory_equal(page, fx.image, sizeof page);
	assert_int_equal(be64_get(page + 8), TFIX_VERSION);
	/* What a client reads of it, through the catalog module. */
	assert_int_equal(catalog_peek_pages(page, sizeof page, &npages), 0);
	assert_int_equal(npages, fx.len / HCALL_PAGE_SIZE);
	assert_int_equal(catalog_peek_pages(page, 7, &npages), -HV_ETRUNC);
	assert_int_equal(catalog_peek_version(page, sizeof page, &p), 0);
	assert_int_equal(p, TFIX_VERSION);
	assert_int_equal(sim_hv_catalog_page(hv, TFIX_VERSION, 0, page,
	    sizeof page), H_P2);
	/* Later pages only with the current version. */
	for (p = 1; p < fx.len / HCALL_PAGE_SIZE; p++) {
		assert_int_equal(sim_hv_catalog_page(hv, TFIX_VERSION, p, page,
		    sizeof page), H_SUCCESS);
		assert_memory_equal(page, fx.image + p * HCALL_PAGE_SIZE,
		    sizeof page);
		assert_int_equal(sim_hv_catalog_page(hv, 0, p, page,
		    sizeof page), H_P2);
		assert_int_equal(sim_hv_catalog_page(hv, TFIX_VERSION - 1, p,
		    page, sizeof page), H_P2);
	}
	assert_int_equal(sim_hv_catalog_page(hv, TFIX_VERSION,
	    fx.len / HCALL_PAGE_SIZE, page, sizeof page), H_P3);
	assert_int_equal(sim_hv_catalog_page(hv, TFIX_VERSION, 1, page, 100),
	    H_PARAMETER);
	/* Two page-0 calls, three per later page, two refused. */
	assert_int_equal(sim_hv_calls(hv), 2 + 3 * (fx.len / HCALL_PAGE_SIZE -
	    1) + 2);
	sim_hv_free(hv);

	/* No image: nothing to serve. */
	sim_config_defaults(&cfg);
	assert_int_equal(sim_hv_new(&cfg, fx.cat, NULL, 0, &hv, &cause), 0);
	assert_int_equal(sim_hv_catalog_page(hv, 0, 0, page, sizeof page),
	    H_NOT_AVAILABLE);
	sim_hv_free(hv);
}

/* One way to break a good request, and what the hypervisor answers. */
struct rc_row {
	int		 line;
	const char	*what;
	unsigned	 n;		/* requests, all req_core(1, rec 0) */
	int		 version;
	int		 field;		/* what to change in request ix */
	unsigned	 ix;
	uint32_t	 value;
	size_t		 poke;		/* byte to set to 1 (0: none) */
	size_t		 reqlen;	/* 0: 4096 */
	size_t		 reslen;	/* 0: 4096 */
	long		 rc;
	uint32_t	 drc;
	unsigned	 failing;
};

enum { F_NONE, F_DOMAIN, F_OFFSET, F_SIZE, F_INDEX, F_MAXIX, F_LPAR,
    F_MAXLPAR, F_TG, F_MAXTG };

static const struct rc_row rc_rows[] = {
	{ SRC_LINE, "good", 2, 2, F_NONE, 0, 0, 0, 0, 0, H_SUCCESS,
	  SIM_DRC_OK, 0 },
	{ SRC_LINE, "result buffer too short", 1, 2, F_NONE, 0, 0, 0, 0, 31,
	  H_P4, 0, 0 },
	{ SRC_LINE, "result buffer too long", 1, 2, F_NONE, 0, 0, 0, 0, 4097,
	  H_P4, 0, 0 },
	{ SRC_LINE, "request buffer too short", 1, 2, F_NONE, 0, 0, 0, 15, 0,
	  H_P2, SIM_DRC_REQ_BUF_LEN, 0xff },
	{ SRC_LINE, "interface v1 on a v2 frame", 1, 1, F_NONE, 0, 0, 0, 0, 0,
	  H_PARAMETER, SIM_DRC_VERSION, 0xff },
	{ SRC_LINE, "reserved header byte", 1, 2, F_NONE, 0, 0, 5, 0, 0,
	  H_PARAMETER, SIM_DRC_RESERVED, 0xff },
	{ SRC_LINE, "no requests", 0, 2, F_NONE, 0, 0, 0, 0, 0, H_PARAMETER,
	  SIM_DRC_NO_REQUESTS, 0xff },
	{ SRC_LINE, "buffer shorter than its requests", 2, 2, F_NONE, 0, 0, 0,
	  16 + 32 + 8, 0, H_P2, SIM_DRC_REQ_BUF_SHORT, 0xff },
	{ SRC_LINE, "reserved request byte", 2, 2, F_NONE, 0, 0,
	  16 + 32 + 0x01, 0, 0, H_PARAMETER, SIM_DRC_RESERVED, 1 },
	{ SRC_LINE, "reserved2 of a v2 request", 2, 2, F_NONE, 0, 0,
	  16 + 32 + 0x1f, 0, 0, H_PARAMETER, SIM_DRC_RESERVED, 1 },
	{ SRC_LINE, "domain 0", 2, 2, F_DOMAIN, 1, 0, 0, 0, 0, H_PARAMETER,
	  SIM_DRC_DOMAIN, 1 },
	{ SRC_LINE, "domain 7", 1, 2, F_DOMAIN, 0, 7, 0, 0, 0, H_PARAMETER,
	  SIM_DRC_DOMAIN, 0 },
	{ SRC_LINE, "offset not 8-byte aligned", 2, 2, F_OFFSET, 1,
	  TFIX_CORE_REC(0) + 4, 0, 0, 0, H_PARAMETER, SIM_DRC_OFFSET_ALIGN,
	  1 },
	{ SRC_LINE, "data_size 0", 1, 2, F_SIZE, 0, 0, 0, 0, 0, H_PARAMETER,
	  SIM_DRC_DATA_SIZE, 0 },
	{ SRC_LINE, "data_size 12", 1, 2, F_SIZE, 0, 12, 0, 0, 0, H_PARAMETER,
	  SIM_DRC_DATA_SIZE, 0 },
	{ SRC_LINE, "offset before the first core record", 1, 2, F_OFFSET, 0,
	  0x08, 0, 0, 0, H_PARAMETER, SIM_DRC_OFFSET_RANGE, 0 },
	{ SRC_LINE, "offset past the counter space", 1, 2, F_OFFSET, 0,
	  0x10000, 0, 0, 0, H_PARAMETER, SIM_DRC_OFFSET_RANGE, 0 },
	{ SRC_LINE, "data runs past the last core record", 1, 2, F_SIZE, 0,
	  4 * 64 + 8, 0, 0, 0, H_PARAMETER, SIM_DRC_DATA_RANGE, 0 },
	{ SRC_LINE, "core 24 of 24", 1, 2, F_INDEX, 0, 24, 0, 0, 0,
	  H_PARAMETER, SIM_DRC_INDEX, 0 },
	{ SRC_LINE, "max_ix 0", 1, 2, F_MAXIX, 0, 0, 0, 0, 0, H_PARAMETER,
	  SIM_DRC_INDEX_COUNT, 0 },
	{ SRC_LINE, "cores 0..24", 1, 2, F_MAXIX, 0, 25, 0, 0, 0, H_PARAMETER,
	  SIM_DRC_INDEX_COUNT, 0 },
	{ SRC_LINE, "thread group 2 of 2", 1, 2, F_TG, 0, 2, 0, 0, 0,
	  H_PARAMETER, SIM_DRC_TG, 0 },
	{ SRC_LINE, "max_num_thread_groups 0", 1, 2, F_MAXTG, 0, 0, 0, 0, 0,
	  H_PARAMETER, SIM_DRC_TG_COUNT, 0 },
	{ SRC_LINE, "thread groups 1..2", 1, 2, F_MAXTG, 0, 2, 0, 0, 0,
	  H_PARAMETER, SIM_DRC_TG_COUNT, 0 },
	{ SRC_LINE, "no partition 4 (vcpu domain)", 1, 2, F_LPAR, 0, 4, 0, 0,
	  0, H_PARAMETER, SIM_DRC_LPAR, 0 },
	{ SRC_LINE, "partition 0 from partition 1", 1, 2, F_LPAR, 0, 0, 0, 0,
	  0, H_PERMISSION, SIM_DRC_LPAR_ZERO, 0 },
	{ SRC_LINE, "partitions 2..4", 1, 2, F_MAXLPAR, 0, 3, 0, 0, 0,
	  H_PARAMETER, SIM_DRC_LPAR_COUNT, 0 },
	{ SRC_LINE, "max_num_lpars 0", 1, 2, F_MAXLPAR, 0, 0, 0, 0, 0,
	  H_PARAMETER, SIM_DRC_LPAR_COUNT, 0 },
	{ SRC_LINE, "127 whole core records: 24 results fit", 127, 2, F_NONE,
	  0, 0, 0, 0, 0, H_P4, SIM_DRC_RESULT_FULL, 24 },
	/* Several faults: the first in the order of sim.h's table wins. */
	{ SRC_LINE, "v1 with a reserved header byte", 1, 1, F_NONE, 0, 0, 5,
	  0, 0, H_PARAMETER, SIM_DRC_VERSION, 0xff },
	{ SRC_LINE, "no requests, reserved header byte", 0, 2, F_NONE, 0, 0,
	  5, 0, 0, H_PARAMETER, SIM_DRC_RESERVED, 0xff },
	{ SRC_LINE, "reserved byte in request 0 of a short buffer", 2, 2,
	  F_NONE, 0, 0, 16 + 0x01, 16 + 32 + 8, 0, H_P2,
	  SIM_DRC_REQ_BUF_SHORT, 0xff },
	{ SRC_LINE, "domain 0 in request 0, reserved byte in 1", 2, 2,
	  F_DOMAIN, 0, 0, 16 + 32 + 0x01, 0, 0, H_PARAMETER, SIM_DRC_DOMAIN,
	  0 },
	{ SRC_LINE, "reserved byte in request 1, domain 0 in 1", 2, 2,
	  F_DOMAIN, 1, 0, 16 + 32 + 0x01, 0, 0, H_PARAMETER,
	  SIM_DRC_RESERVED, 1 },
	{ SRC_LINE, "short request buffer, short result buffer", 1, 2, F_NONE,
	  0, 0, 0, 8, 16, H_P4, 0, 0 },
};

static void
test_sim_return_codes(void **state)
{
	static struct hcall_reqbuf rb;
	static struct hcall_resbuf out;
	static uint8_t		 req[HCALL_BUF_SIZE], res[HCALL_BUF_SIZE];
	struct hcall_request	*r;
	struct sim_hv		*hv;
	size_t			 i, k, reqlen, reslen;
	char			*cause = NULL;
	long			 rc;

	(void)state;
	hv = new_hv(NULL);
	for (i = 0; i < sizeof rc_rows / sizeof rc_rows[0]; i++) {
		const struct rc_row *row = &rc_rows[i];

		memset(&rb, 0, sizeof rb);
		rb.version = 2;
		rb.nrequests = row->n;
		for (k = 0; k < row->n; k++)
			rb.req[k] = req_core(k % 24, TFIX_CORE_REC(0), 64);
		r = &rb.req[row->ix];
		switch (row->field) {
		case F_DOMAIN:
			r->domain = (uint8_t)row->value;
			break;
		case F_OFFSET:
			r->data_offset = row->value;
			break;
		case F_SIZE:
			r->data_size = (uint16_t)row->value;
			break;
		case F_INDEX:
			r->index = (uint16_t)row->value;
			break;
		case F_MAXIX:
			r->max_ix = (uint16_t)row->value;
			break;
		case F_LPAR:
		case F_MAXLPAR:
			r->domain = 3;
			r->lpar = row->field == F_LPAR ? (uint16_t)row->value :
			    2;
			r->max_lpars = row->field == F_MAXLPAR ?
			    (uint16_t)row->value : 1;
			break;
		case F_TG:
			r->tg = (uint8_t)row->value;
			r->max_tg = 1;
			break;
		case F_MAXTG:
			r->tg = row->value == 0 ? 0 : 1;
			r->max_tg = (uint8_t)row->value;
			break;
		}
		if (hcall_encode_request(&rb, req, sizeof req, NULL,
		    &cause) != 0)
			fail_msg("line %d: %s", row->line, cause);
		req[0] = (uint8_t)row->version;
		if (row->poke != 0)
			req[row->poke] = 1;
		reqlen = row->reqlen != 0 ? row->reqlen : sizeof req;
		reslen = row->reslen != 0 ? row->reslen : sizeof res;
		memset(res, 0xee, sizeof res);
		rc = sim_hv_data(hv, TB, req, reqlen, res,
		    reslen <= sizeof res ? reslen : sizeof res);
		if (reslen > sizeof res)
			rc = sim_hv_data(hv, TB, req, reqlen,
			    (uint8_t[8192]){ 0 }, reslen);
		if (rc != row->rc)
			fail_msg("line %d (%s): rc %s, expected %s", row->line,
			    row->what, hcall_rc_name(rc),
			    hcall_rc_name(row->rc));
		if (reslen < 32 || reslen > 4096) {
			/* Nothing can be written: nothing is. */
			if (reslen < 32)
				assert_int_equal(res[0], 0xee);
			continue;
		}
		if (hcall_decode_result(res, reslen, 2, &out, &cause) != 0)
			fail_msg("line %d: %s", row->line, cause);
		if (out.detailed_rc != row->drc || out.failing != row->failing)
			fail_msg("line %d (%s): detailed_rc 0x%x failing %u, "
			    "expected 0x%x %u", row->line, row->what,
			    out.detailed_rc, out.failing, row->drc,
			    row->failing);
		assert_int_equal(out.catalog_version, TFIX_VERSION);
		assert_int_equal(out.cec_cfg, 0x5eed0001);
		if (rc == H_SUCCESS)
			assert_int_equal(out.nresults, row->n);
		else if (row->drc == SIM_DRC_RESULT_FULL)
			assert_int_equal(out.nresults, row->failing);
		else
			assert_int_equal(out.nresults, 0);
	}
	sim_hv_free(hv);
}

/* Too many requests needs a v1 frame's 255 or a v2 frame's 127. */
static void
test_sim_too_many(void **state)
{
	static uint8_t		 req[HCALL_BUF_SIZE], res[HCALL_BUF_SIZE];
	static struct hcall_resbuf out;
	struct sim_hv		*hv;
	char			*cause = NULL;

	(void)state;
	hv = new_hv(NULL);
	memset(req, 0, sizeof req);
	req[0] = 2;
	req[1] = 128;
	assert_int_equal(sim_hv_data(hv, TB, req, sizeof req, res, sizeof res),
	    H_PARAMETER);
	assert_int_equal(hcall_decode_result(res, sizeof res, 2, &out, &cause),
	    0);
	assert_int_equal(out.detailed_rc, SIM_DRC_TOO_MANY);
	sim_hv_free(hv);
}

/* A catalog with no chip records: the chip domain is not available. */
static void
test_sim_domain_empty(void **state)
{
	static struct hcall_reqbuf rb;
	static struct hcall_resbuf out;
	static uint8_t		 res[HCALL_BUF_SIZE];
	struct tfix		 f2;
	struct sim_config	 cfg;
	struct sim_hv		*hv;
	char			*cause = NULL;

	(void)state;
	tfix_build(&f2, 0, 2, 0);
	sim_config_defaults(&cfg);
	assert_int_equal(sim_hv_new(&cfg, f2.cat, f2.image, f2.len, &hv,
	    &cause), 0);
	memset(&rb, 0, sizeof rb);
	rb.version = 2;
	rb.nrequests = 1;
	rb.req[0] = req_core(0, 0, 8);
	rb.req[0].domain = 1;
	rb.req[0].max_tg = 0;
	assert_int_equal(call(hv, TB, &rb, res, &out), H_NOT_AVAILABLE);
	assert_int_equal(out.detailed_rc, SIM_DRC_DOMAIN_EMPTY);
	sim_hv_free(hv);
	tfix_free(&f2);
}

/*
 * Accumulators: step only at update ticks, never go back, and the
 * record's timing words say when the step happened.
 */
static void
test_sim_accumulators(void **state)
{
	static struct hcall_reqbuf rb;
	static struct hcall_resbuf out;
	static uint8_t		 res[HCALL_BUF_SIZE];
	struct sim_hv		*hv;
	const struct sim_frame	*f;
	uint64_t		 tb, prev[2][8], cur[2][8], upd = 0, steps = 0;
	unsigned		 i, k, t, changed;

	(void)state;
	hv = new_hv(NULL);
	f = sim_hv_frame(hv);
	assert_int_equal(f->update_tb, TB / 100);
	memset(&rb, 0, sizeof rb);
	rb.version = 2;
	rb.nrequests = 1;
	rb.req[0] = req_core(5, TFIX_CORE_REC(0), 64);
	memset(prev, 0, sizeof prev);
	for (i = 0; i < 400; i++) {
		tb = TB + (uint64_t)i * f->update_tb / 4;
		assert_int_equal(call(hv, tb, &rb, res, &out), H_SUCCESS);
		assert_int_equal(out.nresults, 1);
		assert_int_equal(out.results[0].nelements, 2);
		for (t = 0; t < 2; t++) {
			assert_int_equal(out.elements[t].tg, t);
			assert_int_equal(out.elements[t].index, 5);
			for (k = 0; k < 8; k++)
				cur[t][k] = hcall_element_word(&out,
				    &out.elements[t], k);
		}
		/* Timing words: last update <= now, one period apart. */
		assert_true(cur[0][0] <= tb && tb - cur[0][0] < f->update_tb);
		assert_int_equal(cur[0][2], f->update_tb);
		assert_int_equal(cur[0][0], cur[1][0]);
		/* Status 0, fence = low 48 bits of the update timebase. */
		assert_int_equal(cur[0][7], cur[0][0] & 0xffffffffffffULL);
		changed = 0;
		for (t = 0; t < 2; t++)
			for (k = 3; k < 7; k++) {
				assert_true(cur[t][k] >= prev[t][k]);
				changed |= cur[t][k] != prev[t][k];
			}
		if (i > 0) {
			/* Counters move exactly when the update count does. */
			assert_int_equal(changed, cur[0][1] != upd);
			if (cur[0][1] != upd) {
				assert_int_equal(cur[0][1], upd + 1);
				steps++;
			}
		}
		upd = cur[0][1];
		memcpy(prev, cur, sizeof prev);
	}
	/* 99.75 update periods: 99 or 100 steps, by the chip's phase. */
	assert_true(steps == 99 || steps == 100);
	sim_hv_free(hv);
}

/* Read the 4 counters of core record g at core c, summed over groups. */
static void
core_counters(struct sim_hv *hv, uint64_t tb, unsigned g, unsigned c,
    uint64_t v[4])
{
	static struct hcall_reqbuf rb;
	static struct hcall_resbuf out;
	static uint8_t		 res[HCALL_BUF_SIZE];
	unsigned		 k;

	memset(&rb, 0, sizeof rb);
	rb.version = 2;
	rb.nrequests = 1;
	rb.req[0] = req_core(c, TFIX_CORE_REC(g) + 24, 32);
	assert_int_equal(call(hv, tb, &rb, res, &out), H_SUCCESS);
	for (k = 0; k < 4; k++)
		v[k] = hcall_element_word(&out, &out.elements[0], k) +
		    hcall_element_word(&out, &out.elements[1], k);
}

/* Magnitudes: cycles at the clock, IPC < 1, memory following load. */
static void
test_sim_magnitudes(void **state)
{
	static struct hcall_reqbuf rb;
	static struct hcall_resbuf out;
	static uint8_t		 res[HCALL_BUF_SIZE];
	struct sim_hv		*hv;
	uint64_t		 a[4], b[4], m0[8], m1[8];
	double			 secs, ccyc, inst, busy, idle, ipc[20], bw;
	double			 lo = 1e30, hi = 0;
	unsigned		 s, k;

	(void)state;
	hv = new_hv(NULL);
	for (s = 0; s < 20; s++) {
		core_counters(hv, (uint64_t)(s + 1) * TB, 0, 7, a);
		core_counters(hv, (uint64_t)(s + 2) * TB, 0, 7, b);
		secs = 1.0;
		/* HPM_CCYC HPM_INST HPM_NON_IDLE_PCYC HPM_IDLE_PCYC */
		ccyc = (double)(b[0] - a[0]) / secs;
		inst = (double)(b[1] - a[1]);
		busy = (double)(b[2] - a[2]);
		idle = (double)(b[3] - a[3]);
		assert_true(ccyc > 3.78e9 && ccyc < 3.82e9);
		assert_true(busy + idle > 0.99 * ccyc &&
		    busy + idle < 1.01 * ccyc);
		assert_true(inst < busy);
		assert_true(inst > 0);
		ipc[s] = inst / busy;
		lo = ipc[s] < lo ? ipc[s] : lo;
		hi = ipc[s] > hi ? ipc[s] : hi;
	}
	/* Phases change: IPC is not one number. */
	assert_true(hi - lo > 0.1);

	/* Chip 0's memory reads: 4 x 128-byte blocks, in GB/s.  The data
	 * block counters step once per 4096 blocks (perf's 0.524 MB). */
	memset(&rb, 0, sizeof rb);
	rb.version = 2;
	rb.nrequests = 1;
	rb.req[0].domain = 1;
	rb.req[0].data_offset = TFIX_CHIP_REC(1) + 24;
	rb.req[0].data_size = 64;
	rb.req[0].lpar = HCALL_LPAR_SELF;
	rb.req[0].max_lpars = 1;
	rb.req[0].max_ix = 1;
	lo = 1e30;
	hi = 0;
	for (s = 0; s < 20; s++) {
		assert_int_equal(call(hv, (uint64_t)(s + 1) * TB, &rb, res,
		    &out), H_SUCCESS);
		for (k = 0; k < 8; k++)
			m0[k] = hcall_element_word(&out, &out.elements[0], k);
		assert_int_equal(call(hv, (uint64_t)(s + 2) * TB, &rb, res,
		    &out), H_SUCCESS);
		for (k = 0; k < 8; k++)
			m1[k] = hcall_element_word(&out, &out.elements[0], k);
		bw = 0;
		for (k = 0; k < 4; k++)
			bw += (double)(m1[k] - m0[k]) * 128 * 4096;
		/* Word 4 is the record's last-update period, not a count. */
		assert_int_equal(m1[4], sim_hv_frame(hv)->update_tb);
		/* Writes (64-byte blocks) are fewer bytes than reads. */
		assert_true((double)(m1[5] - m0[5]) * 64 <
		    (double)(m1[0] - m0[0]) * 128);
		bw /= 1e9;
		assert_true(bw > 0.05 && bw < 200);
		lo = bw < lo ? bw : lo;
		hi = bw > hi ? bw : hi;
	}
	print_message("chip 0 memory read bandwidth %.1f to %.1f GB/s\n", lo,
	    hi);
	assert_true(hi > 1.5 * lo);
	sim_hv_free(hv);
}

/* The same seed and calls give the same bytes; another seed does not. */
static void
test_sim_determinism(void **state)
{
	static struct hcall_reqbuf rb;
	static struct hcall_resbuf out;
	static uint8_t		 r1[HCALL_BUF_SIZE], r2[HCALL_BUF_SIZE];
	static uint8_t		 r3[HCALL_BUF_SIZE];
	struct sim_hv		*a, *b, *c;
	unsigned		 i, differ = 0;
	uint64_t		 tb;

	(void)state;
	a = new_hv("seed=42,faults=busy:0.3+short-results:0.3");
	b = new_hv("seed=42,faults=busy:0.3+short-results:0.3");
	c = new_hv("seed=43,faults=busy:0.3+short-results:0.3");
	memset(&rb, 0, sizeof rb);
	rb.version = 2;
	rb.nrequests = 3;
	rb.req[0] = req_core(3, TFIX_CORE_REC(1), 64);
	rb.req[1] = req_core(4, TFIX_CORE_REC(2), 64);
	rb.req[1].max_ix = 5;
	rb.req[2] = req_core(0, TFIX_CHIP_REC(0), 104);
	rb.req[2].domain = 1;
	rb.req[2].max_tg = 0;
	rb.req[2].max_ix = 2;
	for (i = 0; i < 50; i++) {
		tb = TB * 3 + (uint64_t)i * 77777777;
		call(a, tb, &rb, r1, &out);
		call(b, tb, &rb, r2, &out);
		call(c, tb, &rb, r3, &out);
		assert_memory_equal(r1, r2, sizeof r1);
		differ += memcmp(r1, r3, sizeof r1) != 0;
	}
	/* Both busy at once gives equal headers; otherwise they differ. */
	assert_true(differ >= 35);
	sim_hv_free(a);
	sim_hv_free(b);
	sim_hv_free(c);

	/* Counters are a function of time alone: going back repeats. */
	a = new_hv(NULL);
	call(a, 9 * TB, &rb, r1, &out);
	call(a, 20 * TB, &rb, r2, &out);
	call(a, 9 * TB, &rb, r3, &out);
	assert_memory_equal(r1, r3, sizeof r1);
	sim_hv_free(a);
}

/* Interface v1 (POWER8-like): one element per core, the groups' sum. */
static void
test_sim_v1(void **state)
{
	static struct hcall_reqbuf rb;
	static struct hcall_resbuf out;
	static uint8_t		 res[HCALL_BUF_SIZE];
	struct sim_hv		*hv;
	uint64_t		 v2[4];
	unsigned		 k;

	(void)state;
	hv = new_hv("interface=1");
	memset(&rb, 0, sizeof rb);
	rb.version = 1;
	rb.nrequests = 1;
	rb.req[0] = req_core(7, TFIX_CORE_REC(0) + 24, 32);
	rb.req[0].max_tg = 0;
	assert_int_equal(call(hv, 5 * TB, &rb, res, &out), H_SUCCESS);
	assert_int_equal(out.results[0].nelements, 1);
	assert_int_equal(res[0x28 + 3], 7);	/* v1 element: domain_ix */
	sim_hv_free(hv);
	hv = new_hv(NULL);
	core_counters(hv, 5 * TB, 0, 7, v2);
	for (k = 0; k < 4; k++)
		assert_int_equal(hcall_element_word(&out, &out.elements[0], k),
		    v2[k]);
	sim_hv_free(hv);
}

static void
test_sim_faults(void **state)
{
	static struct hcall_reqbuf rb;
	static struct hcall_resbuf out;
	static uint8_t		 res[HCALL_BUF_SIZE];
	uint8_t			 page[HCALL_PAGE_SIZE];
	struct sim_hv		*hv;
	unsigned		 i, busy = 0;

	(void)state;
	memset(&rb, 0, sizeof rb);
	rb.version = 2;
	rb.nrequests = 4;
	for (i = 0; i < 4; i++)
		rb.req[i] = req_core(i, TFIX_CORE_REC(0), 64);
	rb.req[3].max_ix = 3;

	/* busy:1 always, busy:0.5 about half the time. */
	hv = new_hv("faults=busy:1");
	assert_int_equal(call(hv, TB, &rb, res, &out), H_BUSY);
	assert_int_equal(out.detailed_rc, SIM_DRC_BUSY);
	assert_int_equal(sim_hv_catalog_page(hv, 0, 0, page, sizeof page),
	    H_BUSY);
	sim_hv_free(hv);
	hv = new_hv("faults=busy:50%");
	for (i = 0; i < 200; i++)
		busy += call(hv, TB, &rb, res, &out) == H_BUSY;
	assert_true(busy > 70 && busy < 130);
	sim_hv_free(hv);

	/* denied: physical domains and explicit partitions refused. */
	hv = new_hv("faults=denied");
	assert_false(sim_hv_privileged(hv));
	assert_int_equal(call(hv, TB, &rb, res, &out), H_AUTHORITY);
	assert_int_equal(out.detailed_rc, SIM_DRC_NOT_PRIVILEGED);
	assert_int_equal(out.failing, 0);
	for (i = 0; i < 4; i++)
		rb.req[i].domain = 3;
	assert_int_equal(call(hv, TB, &rb, res, &out), H_SUCCESS);
	assert_int_equal(out.elements[0].lpar, 1);	/* own partition */
	rb.req[2].lpar = 1;
	assert_int_equal(call(hv, TB, &rb, res, &out), H_AUTHORITY);
	assert_int_equal(out.failing, 2);
	rb.req[2].lpar = HCALL_LPAR_SELF;
	for (i = 0; i < 4; i++)
		rb.req[i].domain = 2;
	sim_hv_free(hv);

	/* version-change@3: the third data call sees version 8. */
	hv = new_hv("faults=version-change@3");
	assert_int_equal(call(hv, TB, &rb, res, &out), H_SUCCESS);
	assert_int_equal(out.catalog_version, 7);
	assert_int_equal(call(hv, TB, &rb, res, &out), H_SUCCESS);
	assert_int_equal(out.catalog_version, 7);
	assert_int_equal(sim_hv_catalog_page(hv, 7, 1, page, sizeof page),
	    H_SUCCESS);
	assert_int_equal(call(hv, TB, &rb, res, &out), H_SUCCESS);
	assert_int_equal(out.catalog_version, 8);
	assert_int_equal(sim_hv_catalog_version(hv), 8);
	assert_int_equal(sim_hv_catalog_page(hv, 0, 0, page, sizeof page),
	    H_SUCCESS);
	assert_int_equal(be64_get(page + 8), 8);
	assert_int_equal(sim_hv_catalog_page(hv, 7, 1, page, sizeof page),
	    H_P2);
	assert_int_equal(sim_hv_catalog_page(hv, 8, 1, page, sizeof page),
	    H_SUCCESS);
	sim_hv_free(hv);

	/* short-results: 2 of 4 results, the third cut and incomplete. */
	hv = new_hv("faults=short-results");
	assert_int_equal(call(hv, TB, &rb, res, &out), H_SUCCESS);
	assert_int_equal(out.detailed_rc, SIM_DRC_SHORT);
	assert_int_equal(out.failing, 2);
	assert_int_equal(out.nresults, 3);
	assert_int_equal(out.results[2].complete, 0);
	assert_int_equal(out.results[2].nelements, 1);	/* of 2 groups */
	rb.req[2].max_ix = 4;
	assert_int_equal(call(hv, TB, &rb, res, &out), H_SUCCESS);
	assert_int_equal(out.nresults, 3);
	assert_int_equal(out.results[1].complete, 1);
	assert_int_equal(out.results[2].complete, 0);
	assert_int_equal(out.results[2].nelements, 4);	/* of 8 */
	sim_hv_free(hv);
}

/* Plan 4096 counters, then simulate and extract them twice. */
static void
test_sim_4096(void **state)
{
	static uint8_t		 req[HCALL_BUF_SIZE], res[HCALL_BUF_SIZE];
	static struct hcall_resbuf out;
	struct hcall_item	 it[12];
	struct hcall_range	 chips = { 0, 16 }, cores = { 0, 192 };
	struct hcall_selection	 sel = { fx.cat, it, 12 };
	struct hcall_caps	 caps;
	struct hcall_topology	 topo;
	struct hcall_plan	*plan;
	struct hcall_record_sample *recs;
	struct sim_hv		*hv;
	uint64_t		*v0, *v1;
	uint8_t			*ok;
	size_t			 b, i, r;
	char			*cause = NULL;
	int			 round;

	(void)state;
	hv = new_hv("chips=16,cores=12,smt=8,faults=short-results:0.2");
	sim_frame_topology(sim_hv_frame(hv), &topo);
	memset(it, 0, sizeof it);
	for (i = 0; i < 12; i++) {
		it[i].kind = HCALL_ITEM_GROUP;
		it[i].group = &fx.cat->groups[i];
		it[i].ranges = i < 8 ? &chips : &cores;
		it[i].nranges = 1;
		it[i].lpar = HCALL_LPAR_SELF;
	}
	memset(&caps, 0, sizeof caps);
	caps.version = 2;
	caps.multi_index = 1;
	caps.fields = HCALL_REC_TIMEBASE;
	if (hcall_plan(&sel, &caps, &topo, &plan, &cause) != 0)
		fail_msg("%s", cause);
	v0 = calloc(plan->nvalues, sizeof *v0);
	v1 = calloc(plan->nvalues, sizeof *v1);
	ok = calloc(plan->nvalues, 1);
	recs = calloc(plan->nrecords, sizeof *recs);
	for (round = 0; round < 2; round++) {
		for (b = 0; b < plan->nbufs; b++) {
			/* A short answer is asked again, as a reader would. */
			for (r = 0; r < 20; r++) {
				assert_int_equal(hcall_encode_request(
				    &plan->bufs[b], req, sizeof req, NULL,
				    &cause), 0);
				assert_int_equal(sim_hv_data(hv,
				    (uint64_t)(round + 1) * 2 * TB, req,
				    sizeof req, res, sizeof res), H_SUCCESS);
				assert_int_equal(hcall_decode_result(res,
				    sizeof res, 2, &out, &cause), 0);
				if (hcall_plan_extract(plan, b, &out,
				    round == 0 ? v0 : v1, ok, recs,
				    &cause) == 0)
					break;
				assert_int_equal(out.detailed_rc,
				    SIM_DRC_SHORT);
				free(cause);
				cause = NULL;
			}
			assert_true(r < 20);
		}
		for (i = 0; i < plan->nvalues; i++)
			assert_true(ok[i]);
		for (i = 0; i < plan->nrecords; i++) {
			assert_true(recs[i].have & HCALL_REC_TIMEBASE);
			assert_true(recs[i].timebase <=
			    (uint64_t)(round + 1) * 2 * TB);
		}
	}
	for (i = 0; i < plan->nvalues; i++)
		assert_true(v1[i] > v0[i]);
	free(v0);
	free(v1);
	free(ok);
	free(recs);
	hcall_plan_free(plan);
	sim_hv_free(hv);
}

static void
test_sim_config(void **state)
{
	static const struct {
		int		 line;
		const char	*spec;
		int		 error;
		const char	*says;
	} bad[] = {
		{ SRC_LINE, "chips=x", -HV_EFORMAT,
		  "sim chips=x: not a number" },
		{ SRC_LINE, "cores=0", -HV_ERANGE, "must be 1 to 64" },
		{ SRC_LINE, "colour=blue", -HV_ENOENT, "colour: unknown key" },
		{ SRC_LINE, "smt", -HV_EFORMAT, "expected KEY=VALUE" },
		{ SRC_LINE, "faults=busy", -HV_EFORMAT, "column 1" },
		{ SRC_LINE, "faults=denied+busy:2", -HV_EFORMAT,
		  "\"busy:2\" at column 8" },
		{ SRC_LINE, "faults=version-change@0", -HV_EFORMAT,
		  "version-change@N (N >= 1)" },
		{ SRC_LINE, "faults=denied+", -HV_EFORMAT, "column 8" },
	};
	struct sim_config	 cfg;
	struct sim_frame	 f;
	struct hcall_topology	 t;
	char			*cause;
	size_t			 i;

	(void)state;
	sim_config_defaults(&cfg);
	cause = NULL;
	assert_int_equal(sim_config_parse(&cfg, "chips=16,cores=12,smt=8,"
	    "seed=0x2a,update_ms=1,faults=busy:0.1+denied,"
	    "faults=version-change@9+short-results:25%", &cause), 0);
	assert_int_equal(cfg.sockets, 16);
	assert_int_equal(cfg.seed, 42);
	assert_int_equal(cfg.update_us, 1000);
	assert_true(cfg.faults.busy > 0.0999 && cfg.faults.busy < 0.1001);
	assert_true(cfg.faults.denied);
	assert_int_equal(cfg.faults.version_change_at, 9);
	assert_true(cfg.faults.short_results == 0.25);
	assert_int_equal(sim_frame_init(&f, &cfg, &cause), 0);
	assert_int_equal(f.nchips, 16);
	assert_int_equal(f.ncores, 192);
	assert_int_equal(f.thread_groups, 2);
	assert_int_equal(f.update_tb, 512000);
	sim_frame_topology(&f, &t);
	assert_int_equal(t.count[1], 16);
	assert_int_equal(t.count[2], 192);
	assert_int_equal(t.count[6], 16);
	assert_int_equal(sim_frame_core_chip(&f, 191), 15);
	assert_true(sim_frame_vcpu_core(&f, 3, 15) < 192);

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		sim_config_defaults(&cfg);
		cause = NULL;
		if (sim_config_parse(&cfg, bad[i].spec, &cause) !=
		    bad[i].error || cause == NULL ||
		    strstr(cause, bad[i].says) == NULL)
			fail_msg("line %d: %s: \"%s\"", bad[i].line,
			    bad[i].spec, cause != NULL ? cause : "");
		free(cause);
	}
	sim_config_defaults(&cfg);
	assert_int_equal(sim_config_parse(&cfg, "smt=3", &cause), 0);
	assert_int_equal(sim_frame_init(&f, &cfg, &cause), -HV_ERANGE);
	assert_non_null(strstr(cause, "smt=3"));
	free(cause);
	sim_config_defaults(&cfg);
	assert_int_equal(sim_config_parse(&cfg, "lpars=2,lpar=2", &cause), 0);
	assert_int_equal(sim_frame_init(&f, &cfg, &cause), -HV_ERANGE);
	free(cause);
}

/* The real POWER8 catalog: core records only; chip domain unavailable. */
static void
test_sim_p8(void **state)
{
	static struct hcall_reqbuf rb;
	static struct hcall_resbuf out;
	static uint8_t		 res[HCALL_BUF_SIZE];
	struct catalog		*cat = NULL;
	struct sim_config	 cfg;
	struct sim_hv		*hv;
	uint8_t			*img, page[HCALL_PAGE_SIZE];
	size_t			 len;
	char			*cause = NULL;

	(void)state;
	img = tfix_read("tests/data/catalog/p8-catalog-v3.bin", &len);
	if (img == NULL)
		skip();
	assert_int_equal(catalog_parse(img, len, 1, &cat, &cause), 0);
	sim_config_defaults(&cfg);
	assert_int_equal(sim_config_parse(&cfg, "interface=1,sockets=2,"
	    "cores=10,uptime_ms=0", &cause), 0);
	assert_int_equal(sim_hv_new(&cfg, cat, img, len, &hv, &cause), 0);
	assert_int_equal(sim_hv_catalog_page(hv, 0, 0, page, sizeof page),
	    H_SUCCESS);
	assert_int_equal(be64_get(page + 8), 3);
	assert_int_equal(sim_hv_catalog_page(hv, 3, 0x3f, page, sizeof page),
	    H_SUCCESS);
	assert_int_equal(sim_hv_catalog_page(hv, 3, 0x40, page, sizeof page),
	    H_P3);
	memset(&rb, 0, sizeof rb);
	rb.version = 1;
	rb.nrequests = 2;
	/* HPM_CCYC at 0x98 (abi section 5), cores 0..19. */
	rb.req[0] = req_core(0, 0x98, 8);
	rb.req[0].max_tg = 0;
	rb.req[0].max_ix = 20;
	/* A _USER copy, a record no group names. */
	rb.req[1] = req_core(3, 0x8c0, 64);
	rb.req[1].max_tg = 0;
	assert_int_equal(call(hv, 2 * TB, &rb, res, &out), H_SUCCESS);
	assert_int_equal(out.nresults, 2);
	assert_int_equal(out.results[0].nelements, 20);
	assert_true(hcall_element_word(&out, &out.elements[0], 0) > 0);
	/* Its timebase word, shaped by the core schema all the same. */
	assert_true(hcall_element_word(&out, &out.elements[20], 0) <= 2 * TB);
	assert_int_equal(hcall_element_word(&out, &out.elements[20], 2),
	    sim_hv_frame(hv)->update_tb);
	rb.nrequests = 1;
	rb.req[0].domain = 1;
	rb.req[0].data_offset = 0x80;
	rb.req[0].max_ix = 1;
	assert_int_equal(call(hv, 2 * TB, &rb, res, &out), H_NOT_AVAILABLE);
	sim_hv_free(hv);
	catalog_free(cat);
	free(img);
}

/* What the observer hears for each call. */
static struct hvsim_obs	 heard[16];
static unsigned		 nheard;

static void
hear(void *arg, const struct hvsim_obs *o)
{
	(void)arg;
	if (nheard < 16)
		heard[nheard] = *o;
	nheard++;
}

/* Every counter word a call writes is reported, then the call itself. */
static void
test_sim_observe(void **state)
{
	static struct hcall_reqbuf rb;
	static struct hcall_resbuf out;
	static uint8_t		 res[HCALL_BUF_SIZE];
	struct sim_hv		*hv;
	unsigned		 k;

	(void)state;
	hv = new_hv("smt=4");
	sim_hv_observe(hv, hear, NULL);
	memset(&rb, 0, sizeof rb);
	rb.version = 2;
	rb.nrequests = 1;
	rb.req[0] = req_core(5, TFIX_CORE_REC(0) + 24, 32);
	nheard = 0;
	assert_int_equal(call(hv, 3 * TB, &rb, res, &out), H_SUCCESS);
	assert_int_equal(nheard, 5);
	for (k = 0; k < 4; k++) {
		assert_int_equal(heard[k].kind, HVSIM_OBS_VALUE);
		assert_int_equal(heard[k].call, 1);
		assert_int_equal(heard[k].tb, 3 * TB);
		assert_int_equal(heard[k].domain, 2);
		assert_int_equal(heard[k].index, 5);
		assert_int_equal(heard[k].offset, TFIX_CORE_REC(0) + 24 + 8 * k);
		assert_int_equal(heard[k].value,
		    hcall_element_word(&out, &out.elements[0], k));
		assert_true(heard[k].updates > 0);
		assert_true(heard[k].update_tb <= 3 * TB);
		assert_true(heard[k].update_tb + sim_hv_frame(hv)->update_tb >
		    3 * TB);
	}
	assert_int_equal(heard[4].kind, HVSIM_OBS_CALL);
	assert_int_equal(heard[4].call, 1);
	assert_int_equal(heard[4].rc, H_SUCCESS);
	assert_int_equal(heard[4].nvalues, 4);
	/* A refused call reports itself alone, with its detailed_rc. */
	rb.req[0].index = 999;
	nheard = 0;
	assert_int_equal(call(hv, 4 * TB, &rb, res, &out), H_PARAMETER);
	assert_int_equal(nheard, 1);
	assert_int_equal(heard[0].kind, HVSIM_OBS_CALL);
	assert_int_equal(heard[0].call, 2);
	assert_int_equal(heard[0].drc, SIM_DRC_INDEX);
	assert_int_equal(heard[0].nvalues, 0);
	/* Stopped: nothing more. */
	sim_hv_observe(hv, NULL, NULL);
	nheard = 0;
	rb.req[0].index = 5;
	assert_int_equal(call(hv, 5 * TB, &rb, res, &out), H_SUCCESS);
	assert_int_equal(nheard, 0);
	sim_hv_free(hv);

	/* H_BUSY: a call with no values. */
	hv = new_hv("smt=4,faults=busy:1");
	sim_hv_observe(hv, hear, NULL);
	nheard = 0;
	assert_int_equal(call(hv, 3 * TB, &rb, res, &out), H_BUSY);
	assert_int_equal(nheard, 1);
	assert_int_equal(heard[0].rc, H_BUSY);
	assert_int_equal(heard[0].drc, SIM_DRC_BUSY);
	sim_hv_free(hv);

	/* from@3: the first two calls are spared. */
	hv = new_hv("smt=4,faults=busy:1+from@3");
	assert_int_equal(call(hv, 3 * TB, &rb, res, &out), H_SUCCESS);
	assert_int_equal(call(hv, 4 * TB, &rb, res, &out), H_SUCCESS);
	assert_int_equal(call(hv, 5 * TB, &rb, res, &out), H_BUSY);
	sim_hv_free(hv);
}

/* The 4 counters of core record 0 at core c, one thread group. */
static void
core_counters1(struct sim_hv *hv, uint64_t tb, unsigned c, uint64_t v[4])
{
	static struct hcall_reqbuf rb;
	static struct hcall_resbuf out;
	static uint8_t		 res[HCALL_BUF_SIZE];
	unsigned		 k;

	memset(&rb, 0, sizeof rb);
	rb.version = 2;
	rb.nrequests = 1;
	rb.req[0] = req_core(c, TFIX_CORE_REC(0) + 24, 32);
	assert_int_equal(call(hv, tb, &rb, res, &out), H_SUCCESS);
	assert_int_equal(out.results[0].nelements, 1);
	for (k = 0; k < 4; k++)
		v[k] = hcall_element_word(&out, &out.elements[0], k);
}

/* start=: counters read it at the first call, then count as before. */
static void
test_sim_start(void **state)
{
	struct sim_config	 cfg;
	struct sim_hv		*hv, *ref;
	uint64_t		 a[4], b[4], ra[4], rb[4];
	const uint64_t		 start = UINT64_MAX - 999999999;  /* -1e9 */
	char			*cause = NULL;
	unsigned		 k, s;

	(void)state;
	hv = new_hv("smt=4,start=-1000000000");
	ref = new_hv("smt=4");
	core_counters1(hv, 2 * TB, 3, a);
	core_counters1(ref, 2 * TB, 3, ra);
	for (k = 0; k < 4; k++)
		assert_int_equal(a[k], start);
	for (s = 3; s < 6; s++) {
		core_counters1(hv, s * TB, 3, b);
		core_counters1(ref, s * TB, 3, rb);
		for (k = 0; k < 4; k++)
			assert_int_equal(b[k] - a[k], rb[k] - ra[k]);
		memcpy(a, b, sizeof a);
		memcpy(ra, rb, sizeof ra);
	}
	/* Cycles at 3.8 GHz went past 2^64 within the first second. */
	assert_true(a[0] < start);
	sim_hv_free(hv);
	sim_hv_free(ref);

	sim_config_defaults(&cfg);
	assert_int_equal(sim_config_parse(&cfg, "start=42", &cause), 0);
	assert_true(cfg.start_set);
	assert_int_equal(cfg.start, 42);
	assert_int_equal(sim_config_parse(&cfg, "start=-1", &cause), 0);
	assert_int_equal(cfg.start, UINT64_MAX);
	assert_int_equal(sim_config_parse(&cfg, "start=x", &cause),
	    -HV_EFORMAT);
	free(cause);
}

/* steady=1: every second counts what the first did; the default varies. */
static void
test_sim_steady(void **state)
{
	struct sim_hv		*st, *var;
	uint64_t		 a[4], b[4], va[4], vb[4], d0[4];
	unsigned		 k, s, varied = 0;
	int64_t			 diff;

	(void)state;
	st = new_hv("smt=4,steady=1");
	var = new_hv("smt=4");
	core_counters1(st, 2 * TB, 3, a);
	core_counters1(var, 2 * TB, 3, va);
	for (s = 3; s < 12; s++) {
		core_counters1(st, s * TB, 3, b);
		core_counters1(var, s * TB, 3, vb);
		for (k = 0; k < 4; k++) {
			if (s == 3)
				d0[k] = b[k] - a[k];
			/* Integer counts of a double integral: off by one. */
			diff = (int64_t)(b[k] - a[k] - d0[k]);
			assert_true(diff >= -1 && diff <= 1);
			if (vb[k] - va[k] > (b[k] - a[k]) / 100 * 101 ||
			    vb[k] - va[k] < (b[k] - a[k]) / 100 * 99)
				varied++;
		}
		memcpy(a, b, sizeof a);
		memcpy(va, vb, sizeof va);
	}
	assert_true(d0[1] > 0);
	assert_true(varied > 0);
	sim_hv_free(st);
	sim_hv_free(var);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sim_catalog_pages),
		cmocka_unit_test(test_sim_return_codes),
		cmocka_unit_test(test_sim_too_many),
		cmocka_unit_test(test_sim_domain_empty),
		cmocka_unit_test(test_sim_accumulators),
		cmocka_unit_test(test_sim_magnitudes),
		cmocka_unit_test(test_sim_determinism),
		cmocka_unit_test(test_sim_v1),
		cmocka_unit_test(test_sim_faults),
		cmocka_unit_test(test_sim_4096),
		cmocka_unit_test(test_sim_config),
		cmocka_unit_test(test_sim_p8),
		cmocka_unit_test(test_sim_observe),
		cmocka_unit_test(test_sim_start),
		cmocka_unit_test(test_sim_steady),
	};

	return (cmocka_run_group_tests_name("sim", tests, setup, teardown));
}
