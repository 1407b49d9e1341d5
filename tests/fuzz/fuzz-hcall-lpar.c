/*
 * libFuzzer harness for the extraction of partitions' values: result
 * buffers decoded and taken apart against plans whose requests read
 * several consecutive partitions at once (max_num_lpars > 1), in the
 * four VCPU domains, split across buffers, with the caller's own
 * partition kept apart.  The first byte picks the plan (bits 0-1) and
 * the mode (bit 2); the second, the plan's buffer.  Mode 0: the rest is
 * the result buffer.  Mode 1: the simulated hypervisor's answer for that
 * buffer, cut to a length (third byte, 32-byte units; 0: whole) and
 * patched with (offset high, offset low, byte) triples, so that single
 * elements carry a wrong lpar_ix, domain_ix or thread group.  A failure
 * must give a cause; extraction may touch only its buffer's values, must
 * find all of them when it says success and none (nor their records'
 * timing fields) when a result contradicts its request, and the answer
 * unpatched must always extract.  The catalog is a small one built here.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "hcall/hcall.h"
#include "sim/sim.h"
#include "util/hverr.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define NPLANS		4
#define NEVENTS		8
#define MAXBUFS		64

static struct catalog_schema_field core_fields[] = {
	{ 48, 0, 8, 0 }, { 50, 8, 8, 0 }, { 51, 16, 8, 0 }, { 1, 24, 8, 0 },
	{ 2, 32, 8, 0 }, { 3, 40, 8, 0 }, { 4, 48, 8, 0 }, { 54, 56, 2, 0 },
	{ 49, 58, 6, 0 },
};
static struct catalog_schema schema;
static struct catalog_event events[NEVENTS];
static struct catalog_group groups[2];
static struct catalog cat;
static struct sim_hv *hv;
static struct hcall_topology topo;

static const char *const names[NEVENTS] = {
	"HPM_CCYC", "HPM_INST", "HPM_NON_IDLE_PCYC", "HPM_IDLE_PCYC",
	"HPM_CS_FROM_MEM", "HPM_CS_L1_MISS", "HPM_CS_PCYC", "HPM_CS_INST",
};

/* A plan and the simulated hypervisor's answer to each of its buffers. */
struct lplan {
	struct hcall_plan *plan;
	uint8_t		*answer[MAXBUFS];
	size_t		 len[MAXBUFS];
};

static struct lplan plans[NPLANS];

static void
fuzz_catalog(void)
{
	unsigned	 i, k;

	schema.nfields = sizeof core_fields / sizeof core_fields[0];
	schema.fields = core_fields;
	for (i = 0; i < NEVENTS; i++) {
		events[i].index = i;
		events[i].name = (char *)(uintptr_t)names[i];
		events[i].domain = 2;
		events[i].record_offset = (uint16_t)(0xc0 + 0x40 * (i / 4));
		events[i].record_length = 64;
		events[i].counter_offset = (uint16_t)(24 + 8 * (i % 4));
		events[i].offset = (uint32_t)events[i].record_offset +
		    events[i].counter_offset;
	}
	for (i = 0; i < 2; i++) {
		groups[i].index = i;
		groups[i].domain = 2;
		groups[i].record_offset = events[4 * i].record_offset;
		groups[i].record_length = 64;
		groups[i].event_count = 4;
		for (k = 0; k < CATALOG_GROUP_SLOTS; k++)
			groups[i].events[k] = k < 4 ? (uint16_t)(4 * i + k) :
			    CATALOG_SLOT_FREE;
	}
	cat.version = 7;
	cat.interface = 2;
	cat.schemas = &schema;
	cat.nschemas = 1;
	cat.events = events;
	cat.nevents = NEVENTS;
	cat.groups = groups;
	cat.ngroups = 2;
	catalog_reindex(&cat);
}

/*
 * Plan items, one per (partition, domain): an event (ev < NEVENTS) or
 * group 0, every vcpu.  Then ask the simulated hypervisor each buffer.
 */
static void
fuzz_plan(struct lplan *lp, const unsigned *ids, size_t nids, unsigned d0,
    unsigned d1, unsigned ev, const struct hcall_caps *caps)
{
	static struct hcall_item items[64];
	static struct hcall_range all;
	static uint8_t		 req[HCALL_BUF_SIZE];
	struct hcall_selection	 sel = { &cat, items, 0 };
	size_t			 i, b;
	unsigned		 d;
	char			*cause = NULL;

	all.first = 0;
	all.count = (uint16_t)topo.count[3];
	memset(items, 0, sizeof items);
	for (i = 0; i < nids; i++) {
		for (d = d0; d <= d1; d++) {
			if (sel.nitems == 64)
				abort();
			items[sel.nitems].kind = ev < NEVENTS ?
			    HCALL_ITEM_EVENT : HCALL_ITEM_GROUP;
			items[sel.nitems].event = ev < NEVENTS ? &events[ev] :
			    NULL;
			items[sel.nitems].group = ev < NEVENTS ? NULL :
			    &groups[0];
			items[sel.nitems].domain = (uint8_t)d;
			items[sel.nitems].lpar = (uint16_t)ids[i];
			items[sel.nitems].ranges = &all;
			items[sel.nitems].nranges = 1;
			sel.nitems++;
		}
	}
	if (hcall_plan(&sel, caps, &topo, &lp->plan, &cause) != 0 ||
	    lp->plan->nbufs > MAXBUFS)
		abort();
	for (b = 0; b < lp->plan->nbufs; b++) {
		if (hcall_encode_request(&lp->plan->bufs[b], req, sizeof req,
		    NULL, &cause) != 0)
			abort();
		lp->len[b] = lp->plan->result_bytes[b];
		lp->answer[b] = calloc(1, HCALL_BUF_SIZE);
		if (sim_hv_data(hv, 1000000000, req, sizeof req, lp->answer[b],
		    HCALL_BUF_SIZE) != H_SUCCESS)
			abort();
	}
}

static void
fuzz_init(void)
{
	static const unsigned	 run[] = { 1, 2, 3, 4, 5 };
	static const unsigned	 gaps[] = { 1, 2, 4, 5, 6 };
	static const unsigned	 self[] = { 2, 3, HCALL_LPAR_SELF };
	struct sim_config	 cfg;
	struct hcall_caps	 caps;
	char			*cause = NULL;

	fuzz_catalog();
	sim_config_defaults(&cfg);
	if (sim_config_parse(&cfg, "sockets=1,cores=4,smt=8,lpars=8,vcpus=4",
	    &cause) != 0 || sim_hv_new(&cfg, &cat, NULL, 0, &hv, &cause) != 0)
		abort();
	sim_frame_topology(sim_hv_frame(hv), &topo);

	memset(&caps, 0, sizeof caps);
	caps.version = 2;
	caps.multi_index = 1;
	/* Five partitions in a row, two domains, one request each. */
	caps.fields = HCALL_REC_TIMEBASE;
	fuzz_plan(&plans[0], run, 5, 3, 4, 0, &caps);
	/* A whole group with gaps, split where a small buffer fills. */
	caps.fields = 0;
	caps.result_size = 1024;
	fuzz_plan(&plans[1], gaps, 5, 5, 6, NEVENTS, &caps);
	/* The caller's own beside others, all four domains. */
	caps.result_size = 0;
	caps.fields = HCALL_REC_TIMEBASE | HCALL_REC_UPDATES |
	    HCALL_REC_PERIOD;
	caps.whole_records = 1;
	fuzz_plan(&plans[2], self, 3, 3, 6, 1, &caps);
	/* One request per vcpu, as without several indexes. */
	caps.multi_index = 0;
	caps.whole_records = 0;
	caps.fields = 0;
	fuzz_plan(&plans[3], run, 3, 6, 6, 2, &caps);
}

/* Whether field loc (bit role) of buffer b was left wrong. */
static int
fuzz_field(const struct hcall_loc *loc, size_t b, unsigned role,
    unsigned have, int rc)
{
	if (loc->buffer != b)
		return (!(have & role));
	return (rc == -HV_EFORMAT && (have & role));
}

static void
fuzz_extract(const struct lplan *lp, size_t b, const uint8_t *buf,
    size_t len, int must)
{
	static struct hcall_resbuf rb;
	const struct hcall_plan	*p = lp->plan;
	struct hcall_record_sample *recs;
	uint64_t		*vals;
	uint8_t			*ok;
	size_t			 i, k;
	char			*cause = NULL;
	int			 rc;

	if (hcall_decode_result(buf, len, p->version, &rb, &cause) != 0) {
		if (cause == NULL || must)
			abort();
		free(cause);
		return;
	}
	vals = calloc(p->nvalues + 1, sizeof *vals);
	ok = malloc(p->nvalues + 1);
	memset(ok, 0xaa, p->nvalues + 1);
	recs = calloc(p->nrecords + 1, sizeof *recs);
	for (k = 0; k <= p->nrecords; k++)
		recs[k].have = HCALL_REC_TIMEBASE | HCALL_REC_UPDATES |
		    HCALL_REC_PERIOD;
	rc = hcall_plan_extract(p, b, &rb, vals, ok, recs, &cause);
	if ((rc != 0) != (cause != NULL) || (must && rc != 0))
		abort();
	if (rc != 0 && rc != -HV_ENOVALUE && rc != -HV_EFORMAT)
		abort();
	free(cause);
	/* Only this buffer's values, each found or not; all on success. */
	for (i = p->byval_first[b]; i < p->byval_first[b + 1]; i++) {
		k = p->byval[i];
		if (k >= p->nvalues || (ok[k] != 0 && ok[k] != 1) ||
		    (rc == 0 && ok[k] != 1) || (rc == -HV_EFORMAT &&
		    ok[k] != 0))
			abort();
		ok[k] = 0xaa;
	}
	for (k = 0; k <= p->nvalues; k++)
		if (ok[k] != 0xaa)
			abort();
	/* Timing fields: another buffer's kept, this one's all gone when
	 * a result contradicts its request. */
	for (k = 0; k < p->nrecords; k++) {
		if (fuzz_field(&p->records[k].timebase, b, HCALL_REC_TIMEBASE,
		    recs[k].have, rc) || fuzz_field(&p->records[k].updates, b,
		    HCALL_REC_UPDATES, recs[k].have, rc) ||
		    fuzz_field(&p->records[k].period, b, HCALL_REC_PERIOD,
		    recs[k].have, rc))
			abort();
	}
	if (recs[p->nrecords].have != (HCALL_REC_TIMEBASE |
	    HCALL_REC_UPDATES | HCALL_REC_PERIOD))
		abort();
	free(vals);
	free(ok);
	free(recs);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t		 buf[HCALL_BUF_SIZE];
	const struct lplan	*lp;
	size_t			 b, len, off;

	if (plans[0].plan == NULL)
		fuzz_init();
	if (size < 2)
		return (0);
	lp = &plans[data[0] % NPLANS];
	b = data[1] % lp->plan->nbufs;
	if (!(data[0] & 4)) {
		fuzz_extract(lp, b, data + 2, size - 2, 0);
		return (0);
	}
	memcpy(buf, lp->answer[b], HCALL_BUF_SIZE);
	len = lp->len[b];
	if (size < 3) {
		fuzz_extract(lp, b, buf, len, 1);
		return (0);
	}
	if (data[2] != 0 && (size_t)data[2] * 32 < len)
		len = (size_t)data[2] * 32;
	for (data += 3, size -= 3; size >= 3; data += 3, size -= 3) {
		off = ((size_t)data[0] << 8 | data[1]) % len;
		buf[off] = data[2];
	}
	fuzz_extract(lp, b, buf, len, 0);
	return (0);
}
