/*
 * Benchmark: one refresh of 4096 counters (16 chips x 64 chip counters,
 * 192 cores x 16 core counters, SMT8, interface v2) through the hcall
 * path: planned once, then per refresh every request buffer is encoded,
 * served by the simulated hypervisor, decoded and its values extracted.
 * Prints "NAME VALUE UNIT" lines, each the median of many refreshes, the
 * simulator's share of a refresh, and the hcalls a refresh needs as
 * planned and as the naive one-counter-per-request way.
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

#define REFRESHES	2000
#define PLANS		50

static double
now_us(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec * 1e6 + ts.tv_nsec / 1e3);
}

static struct hcall_plan *
plan_4096(const struct tfix *fx, const struct hcall_topology *topo,
    int version, unsigned fields)
{
	static struct hcall_item it[12];
	static struct hcall_range chips = { 0, 16 }, cores = { 0, 192 };
	struct hcall_selection	 sel = { fx->cat, it, 12 };
	struct hcall_caps	 caps;
	struct hcall_plan	*plan;
	char			*cause = NULL;
	unsigned		 i;

	memset(it, 0, sizeof it);
	for (i = 0; i < 12; i++) {
		it[i].kind = HCALL_ITEM_GROUP;
		it[i].group = &fx->cat->groups[i];
		it[i].ranges = i < 8 ? &chips : &cores;
		it[i].nranges = 1;
		it[i].lpar = HCALL_LPAR_SELF;
	}
	memset(&caps, 0, sizeof caps);
	caps.version = version;
	caps.multi_index = 1;
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
	static double		 plan_t[PLANS], total[REFRESHES];
	static double		 sim_t[REFRESHES], enc_t[REFRESHES];
	static double		 dec_t[REFRESHES];
	static uint8_t		 req[HCALL_BUF_SIZE], res[HCALL_BUF_SIZE];
	static struct hcall_resbuf out;
	struct tfix		 fx;
	struct sim_config	 cfg;
	struct sim_hv		*hv;
	struct hcall_topology	 topo;
	struct hcall_plan	*plan, *bare, *v1;
	struct hcall_record_sample *recs;
	uint64_t		*vals, tb;
	uint8_t			*ok;
	double			 t0, t1, t2, t3, sum;
	size_t			 b, i;
	char			*cause = NULL;
	int			 r;
	int			 plans = (int)bench_iters(PLANS);
	int			 refreshes = (int)bench_iters(REFRESHES);

	tfix_build(&fx, 8, 4, 0);
	sim_config_defaults(&cfg);
	if (sim_config_parse(&cfg, "chips=16,cores=12,smt=8", &cause) != 0 ||
	    sim_hv_new(&cfg, fx.cat, fx.image, fx.len, &hv, &cause) != 0) {
		fprintf(stderr, "sim: %s\n", cause);
		return (1);
	}
	sim_frame_topology(sim_hv_frame(hv), &topo);

	for (r = 0; r < plans; r++) {
		t0 = now_us();
		plan = plan_4096(&fx, &topo, 2, HCALL_REC_TIMEBASE);
		plan_t[r] = now_us() - t0;
		hcall_plan_free(plan);
	}
	plan = plan_4096(&fx, &topo, 2, HCALL_REC_TIMEBASE);
	bare = plan_4096(&fx, &topo, 2, 0);
	v1 = plan_4096(&fx, &topo, 1, HCALL_REC_TIMEBASE);

	vals = calloc(plan->nvalues, sizeof *vals);
	ok = calloc(plan->nvalues, 1);
	recs = calloc(plan->nrecords, sizeof *recs);
	for (r = 0; r < refreshes; r++) {
		/* A refresh a second: the workload moves to a new slot. */
		tb = (uint64_t)(r + 1) * cfg.tb_hz;
		enc_t[r] = sim_t[r] = dec_t[r] = 0;
		t0 = now_us();
		for (b = 0; b < plan->nbufs; b++) {
			t1 = now_us();
			if (hcall_encode_request(&plan->bufs[b], req,
			    sizeof req, NULL, &cause) != 0)
				goto fail;
			t2 = now_us();
			if (sim_hv_data(hv, tb, req, sizeof req, res,
			    sizeof res) != H_SUCCESS) {
				fprintf(stderr, "hcall %zu failed\n", b);
				return (1);
			}
			t3 = now_us();
			if (hcall_decode_result(res, sizeof res, 2, &out,
			    &cause) != 0 || hcall_plan_extract(plan, b, &out,
			    vals, ok, recs, &cause) != 0)
				goto fail;
			enc_t[r] += t2 - t1;
			sim_t[r] += t3 - t2;
			dec_t[r] += now_us() - t3;
		}
		total[r] = now_us() - t0;
	}
	for (i = 0, sum = 0; i < plan->nvalues; i++)
		sum += ok[i];
	if (sum != plan->nvalues) {
		fprintf(stderr, "values missing\n");
		return (1);
	}

	printf("hcall.plan.4096 %.3f ms\n",
	    bench_median(plan_t, (size_t)plans) / 1e3);
	t0 = bench_median(total, (size_t)refreshes);
	t1 = bench_median(sim_t, (size_t)refreshes);
	printf("hcall.refresh.4096 %.1f us\n", t0);
	printf("hcall.refresh.4096.encode %.1f us\n",
	    bench_median(enc_t, (size_t)refreshes));
	printf("hcall.refresh.4096.sim %.1f us\n", t1);
	printf("hcall.refresh.4096.decode %.1f us\n",
	    bench_median(dec_t, (size_t)refreshes));
	printf("hcall.refresh.4096.sim_share %.0f %%\n", 100 * t1 / t0);
	printf("hcall.calls.4096.planned %zu calls\n", plan->nbufs);
	printf("hcall.calls.4096.naive %zu calls\n", plan->naive_hcalls);
	printf("hcall.calls.4096.ratio %.2f x\n",
	    (double)plan->naive_hcalls / (double)plan->nbufs);
	printf("hcall.calls.4096.no_timebase %zu calls\n", bare->nbufs);
	printf("hcall.calls.4096.no_timebase.ratio %.2f x\n",
	    (double)bare->naive_hcalls / (double)bare->nbufs);
	printf("hcall.calls.4096.v1.planned %zu calls\n", v1->nbufs);
	printf("hcall.calls.4096.v1.naive %zu calls\n", v1->naive_hcalls);
	free(vals);
	free(ok);
	free(recs);
	hcall_plan_free(plan);
	hcall_plan_free(bare);
	hcall_plan_free(v1);
	sim_hv_free(hv);
	tfix_free(&fx);
	return (0);

fail:
	fprintf(stderr, "%s\n", cause);
	return (1);
}
