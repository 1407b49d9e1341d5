/*
 * libFuzzer harness for the hcall path.  The first byte picks what the
 * rest of the input is:
 *   0: a result buffer for the decoder, then extraction against a plan;
 *   1: a request buffer for the decoder; what decodes must re-encode to
 *      the same bytes, and decode the same header and requests in two
 *      steps;
 *   2: a request buffer for the simulated hypervisor, whose answer must
 *      always decode, with one result per request when it says success,
 *      and which must refuse whatever the decoder refuses;
 *   3: a selection for the planner; whatever it plans, the simulated
 *      hypervisor must serve and the values must all come back;
 *   4: a fault list and a sim config string.
 * The catalog is a small model built here (the harness links the pure
 * sources only).
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "hcall/hcall.h"
#include "sim/sim.h"
#include "util/be.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static struct catalog_schema_field core_fields[] = {
	{ 48, 0, 8, 0 }, { 50, 8, 8, 0 }, { 51, 16, 8, 0 }, { 1, 24, 8, 0 },
	{ 2, 32, 8, 0 }, { 3, 40, 8, 0 }, { 4, 48, 8, 0 }, { 54, 56, 2, 0 },
	{ 49, 58, 6, 0 },
};
static struct catalog_schema_field chip_fields[] = {
	{ 55, 0, 8, 0 }, { 50, 8, 8, 0 }, { 51, 16, 8, 0 }, { 1, 24, 8, 0 },
	{ 2, 32, 8, 0 }, { 3, 40, 8, 0 }, { 4, 48, 8, 0 }, { 53, 56, 8, 0 },
	{ 5, 64, 8, 0 }, { 6, 72, 8, 0 }, { 7, 80, 8, 0 }, { 8, 88, 8, 0 },
	{ 56, 96, 8, 0 },
};
static struct catalog_schema schemas[2];
static struct catalog_event events[24];
static struct catalog_group groups[4];
static struct catalog cat;
static struct sim_hv *hv2, *hv1;
static struct hcall_plan *plan;
static struct hcall_topology topo;

static const char *const names[24] = {
	"PM_PB_CYC", "PM_PB_INT_DATA_XFER", "PM_PB_EXT_DATA_XFER", "PM_PB_RTY",
	"PM_MCS_128B_RD_DATA_BLOCKS_MC0", "PM_MCS_128B_RD_DATA_BLOCKS_MC1",
	"PM_MCS_64B_WR_DATA_BLOCKS_MC0", "PM_MCS_64B_WR_DATA_BLOCKS_MC1",
	"PM_XLINK0_OUT_ODD_DATA", "PM_XLINK0_OUT_EVEN_DATA", "PM_PAU_CYC",
	"PM_NX_CYC", "PM_PCI0_32B_INOUT", "PM_EVT_13", "PM_EVT_14",
	"PM_EVT_15", "HPM_CCYC", "HPM_INST", "HPM_NON_IDLE_PCYC",
	"HPM_IDLE_PCYC", "HPM_CS_FROM_MEM", "HPM_CS_L1_MISS", "HPM_CS_PCYC",
	"HPM_CS_INST",
};

static void
fuzz_init(void)
{
	static const uint16_t chip_off[8] = { 24, 32, 40, 48, 64, 72, 80,
	    88 };
	struct sim_config	 cfg;
	struct hcall_caps	 caps;
	struct hcall_item	 it;
	struct hcall_range	 rg = { 0, 2 };
	struct hcall_selection	 sel = { &cat, &it, 1 };
	char			*cause = NULL;
	unsigned		 i;

	schemas[0].nfields = 9;
	schemas[0].fields = core_fields;
	schemas[1].index = 1;
	schemas[1].nfields = 13;
	schemas[1].fields = chip_fields;
	for (i = 0; i < 24; i++) {
		struct catalog_event *e = &events[i];

		e->index = i;
		e->name = (char *)(uintptr_t)names[i];
		if (i < 16) {
			e->domain = 1;
			e->record_offset = (uint16_t)(0x80 * (i / 8));
			e->record_length = 104;
			e->counter_offset = chip_off[i % 8];
		} else {
			e->domain = 2;
			e->record_offset = (uint16_t)(0xc0 + 0x40 *
			    ((i - 16) / 4));
			e->record_length = 64;
			e->counter_offset = (uint16_t)(24 + 8 * (i % 4));
		}
		e->offset = (uint32_t)e->record_offset + e->counter_offset;
	}
	for (i = 0; i < 4; i++) {
		struct catalog_group *g = &groups[i];
		unsigned k, n = i < 2 ? 8 : 4, first = i < 2 ? 8 * i :
		    16 + 4 * (i - 2);

		g->index = i;
		g->domain = i < 2 ? 1 : 2;
		g->record_offset = events[first].record_offset;
		g->record_length = events[first].record_length;
		g->schema = i < 2 ? 1 : 0;
		g->event_count = (uint8_t)n;
		for (k = 0; k < CATALOG_GROUP_SLOTS; k++)
			g->events[k] = k < n ? (uint16_t)(first + k) :
			    CATALOG_SLOT_FREE;
	}
	cat.version = 5;
	cat.interface = 2;
	cat.schemas = schemas;
	cat.nschemas = 2;
	cat.events = events;
	cat.nevents = 24;
	cat.groups = groups;
	cat.ngroups = 4;
	/* Lookups (group slots to events) need the indexes. */
	catalog_reindex(&cat);

	sim_config_defaults(&cfg);
	cfg.sockets = 2;
	cfg.cores_per_chip = 3;
	if (sim_hv_new(&cfg, &cat, NULL, 0, &hv2, &cause) != 0)
		abort();
	cfg.interface = 1;
	if (sim_hv_new(&cfg, &cat, NULL, 0, &hv1, &cause) != 0)
		abort();
	sim_frame_topology(sim_hv_frame(hv2), &topo);

	/* A fixed plan for the extraction mode: a chip group, chips 0-1. */
	memset(&it, 0, sizeof it);
	it.kind = HCALL_ITEM_GROUP;
	it.group = &groups[0];
	it.ranges = &rg;
	it.nranges = 1;
	memset(&caps, 0, sizeof caps);
	caps.version = 2;
	caps.multi_index = 1;
	caps.fields = HCALL_REC_TIMEBASE;
	if (hcall_plan(&sel, &caps, &topo, &plan, &cause) != 0)
		abort();
}

static void
fuzz_results(const uint8_t *d, size_t n)
{
	static struct hcall_resbuf rb;
	uint64_t		 vals[64];
	uint8_t			 ok[64];
	struct hcall_record_sample recs[64];
	char			*cause = NULL;

	if (n < 1)
		return;
	if (hcall_decode_result(d + 1, n - 1, d[0] % 3, &rb, &cause) != 0) {
		if (cause == NULL)
			abort();
		free(cause);
		return;
	}
	if (plan->nvalues > 64 || plan->nrecords > 64)
		abort();
	memset(recs, 0, sizeof recs);
	if (hcall_plan_extract(plan, 0, &rb, vals, ok, recs, &cause) != 0)
		free(cause);
}

static void
fuzz_requests(const uint8_t *d, size_t n)
{
	static struct hcall_reqbuf rb;
	static uint8_t		 buf[HCALL_BUF_SIZE];
	struct hcall_request	 r;
	size_t			 used;
	unsigned		 nr, i;
	char			*cause = NULL;
	int			 version, herr;

	/* The header alone is judged the same as in the whole decode. */
	herr = hcall_decode_request_header(d, n, &version, &nr, &cause);
	free(cause);
	cause = NULL;
	if (n >= HCALL_REQ_HDR_SIZE && n <= HCALL_BUF_SIZE && version != d[0])
		abort();
	if (hcall_decode_request(d, n, &rb, &cause) != 0) {
		if (cause == NULL)
			abort();
		free(cause);
		return;
	}
	if (herr != 0 || nr != rb.nrequests || version != rb.version)
		abort();
	for (i = 0; i < nr; i++) {
		if (hcall_decode_request_at(d, n, version, i, &r, &cause) != 0 ||
		    memcmp(&r, &rb.req[i], sizeof r) != 0)
			abort();
	}
	if (hcall_encode_request(&rb, buf, sizeof buf, &used, &cause) != 0)
		abort();
	if (used > n || memcmp(buf, d, used) != 0)
		abort();
}

static void
fuzz_sim(const uint8_t *d, size_t n)
{
	static struct hcall_resbuf rb;
	static struct hcall_reqbuf rq;
	static uint8_t		 res[HCALL_BUF_SIZE];
	struct sim_hv		*hv;
	uint64_t		 tb;
	size_t			 reslen;
	char			*cause = NULL;
	long			 rc;

	if (n < 4)
		return;
	hv = d[0] & 1 ? hv1 : hv2;
	tb = (uint64_t)d[1] << 24 | (uint64_t)d[2] << 12;
	reslen = d[3] & 0x80 ? (size_t)d[3] * 32 : HCALL_BUF_SIZE;
	if (reslen > HCALL_BUF_SIZE)
		reslen = HCALL_BUF_SIZE;
	d += 4;
	n -= 4;
	rc = sim_hv_data(hv, tb, d, n, res, reslen);
	/* What the hcall decoder refuses, the hypervisor refuses. */
	if (hcall_decode_request(d, n, &rq, &cause) != 0) {
		free(cause);
		cause = NULL;
		if (rc == H_SUCCESS)
			abort();
	}
	if (reslen < HCALL_RES_HDR_SIZE)
		return;
	if (hcall_decode_result(res, reslen, 0, &rb, &cause) != 0) {
		/* A short result buffer may fail to hold its results. */
		if (rc == H_SUCCESS)
			abort();
		free(cause);
		return;
	}
	if (rc == H_SUCCESS && (n < 2 || rb.nresults != d[1]))
		abort();
}

static void
fuzz_plan(const uint8_t *d, size_t n)
{
	static struct hcall_item it[16];
	static struct hcall_range rg[16][2];
	static uint8_t		 req[HCALL_BUF_SIZE], res[HCALL_BUF_SIZE];
	static struct hcall_resbuf rb;
	struct hcall_selection	 sel = { &cat, it, 0 };
	struct hcall_caps	 caps;
	struct hcall_plan	*p;
	struct sim_hv		*hv;
	uint64_t		*vals;
	uint8_t			*ok;
	size_t			 i, k;
	char			*cause = NULL;
	unsigned		 dom, lim;

	if (n < 3)
		return;
	memset(&caps, 0, sizeof caps);
	caps.version = d[0] & 1 ? 1 : 2;
	caps.multi_index = d[0] & 2;
	caps.whole_records = d[0] & 4;
	caps.fields = d[0] >> 3 & 7;
	caps.max_data_size = (uint16_t)(d[1] & 0x1f) * 8;
	caps.result_size = d[2] < 16 ? 0 : (size_t)d[2] * 16;
	hv = caps.version == 1 ? hv1 : hv2;
	d += 3;
	n -= 3;
	memset(it, 0, sizeof it);
	for (i = 0; i < 16 && n >= 4; i++, d += 4, n -= 4) {
		if (d[0] & 0x80) {
			it[i].kind = HCALL_ITEM_GROUP;
			it[i].group = &groups[d[0] % 4];
			dom = groups[d[0] % 4].domain;
		} else {
			it[i].kind = HCALL_ITEM_EVENT;
			it[i].event = &events[d[0] % 24];
			dom = events[d[0] % 24].domain;
		}
		/* Core events may be read through the vcpu domains too. */
		it[i].domain = dom == 2 && (d[1] & 7) < 5 ?
		    (uint8_t)(2 + (d[1] & 7)) : 0;
		if (caps.version == 1 && it[i].domain > 2)
			it[i].domain = 2;
		it[i].lpar = HCALL_LPAR_SELF;
		lim = topo.count[it[i].domain != 0 ? it[i].domain : dom];
		for (k = 0; k < 2; k++) {
			rg[i][k].first = (uint16_t)((d[2 + k] >> 4) % lim);
			rg[i][k].count = (uint16_t)(1 + (d[2 + k] & 15) %
			    (lim - rg[i][k].first));
		}
		it[i].ranges = rg[i];
		it[i].nranges = 1 + (d[1] >> 7);
		sel.nitems++;
	}
	if (hcall_plan(&sel, &caps, &topo, &p, &cause) != 0) {
		if (cause == NULL)
			abort();
		free(cause);
		return;
	}
	vals = calloc(p->nvalues + 1, sizeof *vals);
	ok = calloc(p->nvalues + 1, 1);
	for (i = 0; i < p->nbufs; i++) {
		if (hcall_encode_request(&p->bufs[i], req, sizeof req, NULL,
		    &cause) != 0)
			abort();
		/* What the planner asks, the strict hypervisor serves. */
		if (sim_hv_data(hv, 1000000, req, sizeof req, res,
		    caps.result_size != 0 ? caps.result_size : sizeof res) !=
		    H_SUCCESS)
			abort();
		if (hcall_decode_result(res, caps.result_size != 0 ?
		    caps.result_size : sizeof res, caps.version, &rb,
		    &cause) != 0)
			abort();
		if (hcall_plan_extract(p, i, &rb, vals, ok, NULL, &cause) != 0)
			abort();
	}
	for (i = 0; i < p->nvalues; i++)
		if (!ok[i])
			abort();
	free(vals);
	free(ok);
	hcall_plan_free(p);
}

static void
fuzz_config(const uint8_t *d, size_t n)
{
	struct sim_config	 cfg;
	struct sim_frame	 f;
	char			*s, *cause = NULL;

	s = malloc(n + 1);
	memcpy(s, d, n);
	s[n] = '\0';
	sim_config_defaults(&cfg);
	if (sim_fault_parse(&cfg.faults, s, &cause) != 0)
		free(cause);
	cause = NULL;
	if (sim_config_parse(&cfg, s, &cause) != 0)
		free(cause);
	else if (sim_frame_init(&f, &cfg, &cause) != 0)
		free(cause);
	free(s);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (plan == NULL)
		fuzz_init();
	if (size < 1)
		return (0);
	switch (data[0] % 5) {
	case 0:
		fuzz_results(data + 1, size - 1);
		break;
	case 1:
		fuzz_requests(data + 1, size - 1);
		break;
	case 2:
		fuzz_sim(data + 1, size - 1);
		break;
	case 3:
		fuzz_plan(data + 1, size - 1);
		break;
	case 4:
		fuzz_config(data + 1, size - 1);
		break;
	}
	return (0);
}
