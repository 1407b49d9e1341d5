/*
 * Benchmark: one refresh of every partition of a large frame on the
 * hcall path, in process: 1000 partitions x 16 vcpus x 4 placements
 * (VCPU domains 3-6) x 3 events of a core group, 192,000 counters, SMT8,
 * interface v2, each record's timebase read as hvtop's source reads it.
 * Planned once; then per refresh every request buffer is encoded, served
 * by the simulated hypervisor, decoded and its values extracted.  Prints
 * "NAME VALUE UNIT" lines: the hcalls and requests of a refresh as
 * planned and as one request per partition, placement and span would
 * take (max_num_lpars 1), and the CPU time of a refresh (median of
 * refreshes), hvtop's part (encode, decode, extract) apart from the
 * simulator's.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "catalog/catalog.h"
#include "hcall/hcall.h"
#include "sim/sim.h"
#include "../unit/test-hcall-fixture.h"
#include "tests/bench/bench.h"

#define LPARS		1000
#define VCPUS		16
#define EVENTS		3
#define PLACES		4
#define NITEMS		(LPARS * PLACES * EVENTS)
#define REFRESHES	7
#define PLANS		5

static struct hcall_item items[NITEMS];
static struct hcall_range vcpus = { 0, VCPUS };

/*
 * One item per (partition, placement, event), as a source makes them.
 * The simulator's frame has at most 1000 partitions, 0 to 999, and only
 * partition 0 may read partition 0: hvtop runs in it here.
 */
static struct hcall_plan *
plan_lpars(const struct tfix *fx, const struct hcall_topology *topo,
    unsigned fields, uint16_t nvcpus)
{
	struct hcall_selection	 sel = { fx->cat, items, NITEMS };
	struct hcall_caps	 caps;
	struct hcall_plan	*plan;
	char			*cause = NULL;
	size_t			 n = 0;
	unsigned		 l, d, e;

	memset(items, 0, sizeof items);
	vcpus.count = nvcpus;
	for (l = 0; l < LPARS; l++) {
		for (d = HCALL_DOMAIN_VCPU_HOME_CORE;
		    d <= HCALL_DOMAIN_VCPU_REMOTE_NODE; d++) {
			for (e = 0; e < EVENTS; e++, n++) {
				items[n].kind = HCALL_ITEM_EVENT;
				items[n].event =
				    &fx->cat->events[fx->chip_events + e];
				items[n].domain = (uint8_t)d;
				items[n].lpar = (uint16_t)l;
				items[n].ranges = &vcpus;
				items[n].nranges = 1;
			}
		}
	}
	memset(&caps, 0, sizeof caps);
	caps.version = 2;
	caps.multi_index = 1;
	caps.whole_records = 1;
	caps.fields = fields;
	if (hcall_plan(&sel, &caps, topo, &plan, &cause) != 0) {
		fprintf(stderr, "plan: %s\n", cause);
		exit(1);
	}
	return (plan);
}

int
main(void)
{
	static double		 plan_t[PLANS], hv_t[REFRESHES];
	static double		 sim_t[REFRESHES];
	static uint8_t		 req[HCALL_BUF_SIZE], res[HCALL_BUF_SIZE];
	static struct hcall_resbuf out;
	const clockid_t		 clk = CLOCK_THREAD_CPUTIME_ID;
	struct tfix		 fx;
	struct sim_config	 cfg;
	struct sim_hv		*hv;
	struct hcall_topology	 topo;
	struct hcall_plan	*plan, *bare, *one;
	struct hcall_record_sample *recs;
	uint64_t		*vals, tb, t0, t1, t2, t3;
	uint8_t			*ok;
	double			 cost, mean, hvt, simt;
	size_t			 b, i, sum;
	char			*cause = NULL;
	int			 r;
	int			 plans = (int)bench_iters(PLANS);
	int			 refreshes = (int)bench_iters(REFRESHES);

	tfix_build(&fx, 8, 4, 0);
	sim_config_defaults(&cfg);
	if (sim_config_parse(&cfg, "lpars=1000,lpar=0,vcpus=16", &cause) != 0 ||
	    sim_hv_new(&cfg, fx.cat, fx.image, fx.len, &hv, &cause) != 0) {
		fprintf(stderr, "sim: %s\n", cause);
		return (1);
	}
	sim_frame_topology(sim_hv_frame(hv), &topo);
	(void)bench_clock_cost(clk, &mean);
	cost = mean;

	for (r = 0; r < plans; r++) {
		t0 = bench_ns(clk);
		plan = plan_lpars(&fx, &topo, HCALL_REC_TIMEBASE, VCPUS);
		plan_t[r] = (double)(bench_ns(clk) - t0);
		hcall_plan_free(plan);
	}
	bare = plan_lpars(&fx, &topo, 0, VCPUS);
	one = plan_lpars(&fx, &topo, HCALL_REC_TIMEBASE, 1);
	plan = plan_lpars(&fx, &topo, HCALL_REC_TIMEBASE, VCPUS);
	vals = calloc(plan->nvalues, sizeof *vals);
	ok = calloc(plan->nvalues, 1);
	recs = calloc(plan->nrecords + 1, sizeof *recs);
	/* Refresh 0 warms the simulator (its vcpus' state from the frame's
	 * start); then one a second. */
	for (r = -1; r < refreshes; r++) {
		tb = (uint64_t)(r + 2) * cfg.tb_hz;
		hvt = simt = 0;
		memset(ok, 0, plan->nvalues);
		for (b = 0; b < plan->nbufs; b++) {
			t0 = bench_ns(clk);
			if (hcall_encode_request(&plan->bufs[b], req,
			    sizeof req, NULL, &cause) != 0)
				goto fail;
			t1 = bench_ns(clk);
			if (sim_hv_data(hv, tb, req, sizeof req, res,
			    sizeof res) != H_SUCCESS) {
				fprintf(stderr, "hcall %zu failed\n", b);
				return (1);
			}
			t2 = bench_ns(clk);
			if (hcall_decode_result(res, sizeof res, 2, &out,
			    &cause) != 0 || hcall_plan_extract(plan, b, &out,
			    vals, ok, recs, &cause) != 0)
				goto fail;
			t3 = bench_ns(clk);
			/* Each step carries one clock reading: take it off. */
			hvt += (double)(t1 - t0) + (double)(t3 - t2) -
			    2 * cost;
			simt += (double)(t2 - t1) - cost;
		}
		if (r >= 0) {
			hv_t[r] = hvt;
			sim_t[r] = simt;
		}
	}
	for (i = 0, sum = 0; i < plan->nvalues; i++)
		sum += ok[i];
	if (sum != plan->nvalues) {
		fprintf(stderr, "values missing\n");
		return (1);
	}

	printf("lpar-hcall.counters %zu counters\n", plan->nvalues);
	printf("lpar-hcall.plan %.1f ms\n",
	    bench_median(plan_t, (size_t)plans) / 1e6);
	hvt = bench_median(hv_t, (size_t)refreshes) / 1e6;
	simt = bench_median(sim_t, (size_t)refreshes) / 1e6;
	printf("lpar-hcall.refresh.hvtop %.2f ms\n", hvt);
	printf("lpar-hcall.refresh.sim %.2f ms\n", simt);
	printf("lpar-hcall.refresh.hvtop_per_call %.2f us\n",
	    hvt * 1e3 / (double)plan->nbufs);
	printf("lpar-hcall.calls.planned %zu calls\n", plan->nbufs);
	printf("lpar-hcall.calls.per_lpar %zu calls\n", plan->perlpar_hcalls);
	printf("lpar-hcall.calls.ratio %.2f x\n",
	    (double)plan->perlpar_hcalls / (double)plan->nbufs);
	printf("lpar-hcall.calls.naive %zu calls\n", plan->naive_hcalls);
	printf("lpar-hcall.requests.planned %zu requests\n", plan->nrequests);
	printf("lpar-hcall.requests.per_lpar %zu requests\n",
	    plan->perlpar_requests);
	/* Without the records' timebase, and partitions of one vcpu:
	 * where the result header a partition saves weighs more. */
	printf("lpar-hcall.no_timebase.calls.planned %zu calls\n",
	    bare->nbufs);
	printf("lpar-hcall.no_timebase.calls.per_lpar %zu calls\n",
	    bare->perlpar_hcalls);
	printf("lpar-hcall.no_timebase.requests.planned %zu requests\n",
	    bare->nrequests);
	printf("lpar-hcall.no_timebase.requests.per_lpar %zu requests\n",
	    bare->perlpar_requests);
	printf("lpar-hcall.vcpu1.calls.planned %zu calls\n", one->nbufs);
	printf("lpar-hcall.vcpu1.calls.per_lpar %zu calls\n",
	    one->perlpar_hcalls);
	printf("lpar-hcall.vcpu1.requests.planned %zu requests\n",
	    one->nrequests);
	printf("lpar-hcall.vcpu1.requests.per_lpar %zu requests\n",
	    one->perlpar_requests);
	hcall_plan_free(bare);
	hcall_plan_free(one);
	free(vals);
	free(ok);
	free(recs);
	hcall_plan_free(plan);
	sim_hv_free(hv);
	tfix_free(&fx);
	return (0);

fail:
	fprintf(stderr, "%s\n", cause);
	return (1);
}
