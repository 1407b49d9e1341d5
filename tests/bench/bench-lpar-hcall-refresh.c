/*
 * Benchmark: the whole refresh of every partition of a large frame on the
 * hcall path, in process, as hvtop makes it: the simulated frame of 1000
 * partitions x 16 vcpus (SMT8, POWER9 catalog, hvtop in partition 0, the
 * only one allowed to read partition 0), the partitions found by the
 * source, the pick CPM_0THRD_NON_IDLE_CCYC@lpar (3 events x 4 placements,
 * 192,000 counters) resolved with selection_add against that topology,
 * then per refresh the hcall source's sample (encode, the simulated
 * hypervisor, decode, extract, fill) and engine_update_reuse (deltas,
 * rates, partition sums, metrics).  The transport is the simulator's,
 * wrapped to time its calls apart.  Prints "NAME VALUE UNIT" lines: the
 * CPU time of a refresh (median of refreshes), hvtop's part (the source
 * without the simulator, and the engine) and the simulator's, and the
 * hcalls of a refresh against one request per partition, placement and
 * span (max_num_lpars 1).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "hcall/hcall.h"
#include "model/raw.h"
#include "model/selection.h"
#include "source/source-hcall.h"
#include "source/source.h"
#include "source/transport.h"
#include "tests/bench/bench.h"
#include "util/xalloc.h"

#define PICK		"CPM_0THRD_NON_IDLE_CCYC@lpar"
#define FRAME		"clock=virtual,lpars=1000,lpar=0,vcpus=16"
#define REFRESHES	9

static const clockid_t	 clk = CLOCK_THREAD_CPUTIME_ID;

/* The simulated hypervisor, its data calls timed. */
struct timed {
	void		*sim;
	double		 ns;		/* in data calls since reset */
	size_t		 calls;
	double		 cost;		/* of one clock reading */
};

static struct timed	*timed_last;

static int
timed_open(const char *args, void **ctx, char **label, char **cause)
{
	struct timed	*t = xcalloc(1, sizeof *t);
	int		 error;

	if ((error = transport_sim_ops.open(args, &t->sim, label,
	    cause)) != 0) {
		free(t);
		return (error);
	}
	*ctx = timed_last = t;
	return (0);
}

static long
timed_page(void *ctx, uint64_t version, uint64_t page, uint8_t *buf,
    size_t len)
{
	struct timed	*t = ctx;

	return (transport_sim_ops.catalog_page(t->sim, version, page, buf,
	    len));
}

static long
timed_data(void *ctx, uint64_t tb, const uint8_t *req, size_t reqlen,
    uint8_t *res, size_t reslen)
{
	struct timed	*t = ctx;
	uint64_t	 t0, t1;
	long		 rc;

	t0 = bench_ns(clk);
	rc = transport_sim_ops.data(t->sim, tb, req, reqlen, res, reslen);
	t1 = bench_ns(clk);
	/* The step carries one clock reading. */
	t->ns += (double)(t1 - t0) - t->cost;
	t->calls++;
	return (rc);
}

static int
timed_topology(void *ctx, struct topology *topo, char **cause)
{
	struct timed	*t = ctx;

	return (transport_sim_ops.topology(t->sim, topo, cause));
}

static int
timed_constant(void *ctx, const char *name, double *v)
{
	struct timed	*t = ctx;

	return (transport_sim_ops.constant(t->sim, name, v));
}

static void
timed_close(void *ctx)
{
	struct timed	*t = ctx;

	transport_sim_ops.close(t->sim);
	free(t);
}

static const struct transport_ops timed_ops = {
	.name = "sim",
	.open = timed_open,
	.catalog_page = timed_page,
	.data = timed_data,
	.topology = timed_topology,
	.constant = timed_constant,
	.close = timed_close,
};

/*
 * The hcalls of the pick's partitions planned one request per partition,
 * placement and span: the plan's perlpar_hcalls, with the items the
 * source makes (one per partition and placement, every vcpu).
 */
static size_t
perlpar_hcalls(const struct catalog *cat, const struct topology *topo,
    size_t *planned)
{
	struct hcall_selection	 hs;
	struct hcall_topology	 ht;
	struct hcall_caps	 caps;
	struct hcall_plan	*plan;
	struct hcall_item	*items;
	struct hcall_range	*ranges;
	const struct catalog_group *g;
	char			*cause = NULL, name[64];
	size_t			 i, n = 0, r;
	unsigned		 d;

	snprintf(name, sizeof name, "%s", PICK);
	*strchr(name, '@') = '\0';
	if ((g = catalog_find_group(cat, name)) == NULL) {
		fprintf(stderr, "%s: not in the catalog\n", name);
		exit(1);
	}
	items = xcalloc(topo->nlpars * 4 + 1, sizeof *items);
	ranges = xcalloc(topo->nlpars + 1, sizeof *ranges);
	memset(&ht, 0, sizeof ht);
	ht.count[HCALL_DOMAIN_CHIP] = topo->chips;
	ht.count[HCALL_DOMAIN_CORE] = topo->cores;
	for (i = 0; i < topo->nlpars; i++) {
		ranges[i].first = 0;
		ranges[i].count = (uint16_t)topo->lpars[i].vcpus;
		for (d = HCALL_DOMAIN_VCPU_HOME_CORE;
		    d <= HCALL_DOMAIN_VCPU_REMOTE_NODE; d++, n++) {
			if (topo->lpars[i].vcpus > ht.count[d])
				ht.count[d] = topo->lpars[i].vcpus;
			items[n].kind = HCALL_ITEM_GROUP;
			items[n].group = g;
			items[n].domain = (uint8_t)d;
			items[n].lpar = topo->lpars[i].id;
			items[n].ranges = &ranges[i];
			items[n].nranges = 1;
		}
	}
	ht.thread_groups = topo->smt == 8 ? 2 : 1;
	hs.cat = cat;
	hs.items = items;
	hs.nitems = n;
	memset(&caps, 0, sizeof caps);
	caps.version = topo->interface;
	caps.multi_index = 1;
	caps.whole_records = 1;
	caps.fields = HCALL_REC_TIMEBASE;
	if (hcall_plan(&hs, &caps, &ht, &plan, &cause) != 0) {
		fprintf(stderr, "plan: %s\n", cause);
		exit(1);
	}
	r = plan->perlpar_hcalls;
	*planned = plan->nbufs;
	hcall_plan_free(plan);
	free(items);
	free(ranges);
	return (r);
}

int
main(void)
{
	static double		 tot[REFRESHES], srcns[REFRESHES];
	static double		 simns[REFRESHES], eng[REFRESHES];
	static double		 hv[REFRESHES];
	const char		*top = getenv("HVTOP_BUILD");
	struct source		*src;
	struct topology		 topo, now_topo;
	struct catalog		*cat;
	struct selection	 sel;
	struct engine		*e;
	struct engine_snapshot	*snap = NULL;
	struct raw_sample	 rs;
	const void		*img;
	const char		*name;
	double			 cost, mean, v, discover, resolve;
	uint64_t		 t0, t1, t2, now = 0;
	size_t			 i, k, len, bad, per, planned;
	size_t			 n = bench_iters(REFRESHES);
	char			*args, *cause = NULL, *path;

	path = xasprintf("%s/catalogs/power9.bin", top != NULL ? top :
	    "build");
	if (access(path, R_OK) != 0) {
		fprintf(stderr, "%s: no POWER9 catalog (set HVTOP_BUILD to "
		    "the build directory)\n", path);
		return (BENCH_SKIP);
	}
	args = xasprintf("%s,catalog=%s", FRAME, path);
	(void)bench_clock_cost(clk, &mean);
	cost = mean;

	src = xcalloc(1, sizeof *src);
	src->ops = &source_hcall_ops;
	if (source_hcall_open(src, &timed_ops, args, &cause) != 0)
		goto fail;
	timed_last->cost = cost;
	t0 = bench_ns(clk);
	if (src->ops->partitions(src, &cause) != 0 ||
	    src->ops->topology(src, &topo, &cause) != 0)
		goto fail;
	discover = (double)(bench_ns(clk) - t0);
	if (src->ops->catalog(src, &img, &len, &cause) != 0 ||
	    catalog_parse(img, len, topo.interface, &cat, &cause) != 0)
		goto fail;

	t0 = bench_ns(clk);
	memset(&sel, 0, sizeof sel);
	if (selection_add(&sel, cat, &topo, PICK, 0, &cause) != 0)
		goto fail;
	e = engine_new(cat, &sel, topo.timebase_hz, NULL, 0, NULL, NULL);
	for (i = 0; (name = engine_constant_name(e, i)) != NULL; i++) {
		if (src->ops->constant(src, name, &v) == 0)
			engine_set_constant(e, name, v);
	}
	if (src->ops->select(src, &sel, &cause) != 0)
		goto fail;
	resolve = (double)(bench_ns(clk) - t0);

	memset(&rs, 0, sizeof rs);
	raw_sample_size(&rs, sel.ncounters);
	/* Two refreshes first: the baselines, and warm caches. */
	for (i = 0; i < n + 2; i++) {
		now += 1000000000ULL;
		timed_last->ns = 0;
		timed_last->calls = 0;
		rs.error[0] = '\0';
		t0 = bench_ns(clk);
		if (src->ops->sample(src, now, &rs, &cause) != 0 ||
		    src->ops->topology(src, &now_topo, &cause) != 0)
			goto fail;
		t1 = bench_ns(clk);
		snap = engine_update_reuse(e, &rs, snap);
		t2 = bench_ns(clk);
		if (now_topo.lpars != topo.lpars) {
			fprintf(stderr, "the partitions changed\n");
			return (1);
		}
		if (i < 2)
			continue;
		/* Each timed data call took two clock readings. */
		simns[i - 2] = timed_last->ns;
		srcns[i - 2] = (double)(t1 - t0) - cost - timed_last->ns -
		    (double)timed_last->calls * 2 * cost;
		eng[i - 2] = (double)(t2 - t1) - cost;
		hv[i - 2] = srcns[i - 2] + eng[i - 2];
		tot[i - 2] = hv[i - 2] + simns[i - 2];
	}
	for (k = 0, bad = 0; k < rs.nvalues; k++)
		bad += rs.values[k].status != RAW_OK;
	if (bad != 0 || rs.error[0] != '\0') {
		fprintf(stderr, "%zu values missing: %s\n", bad, rs.error);
		return (1);
	}
	per = perlpar_hcalls(cat, &topo, &planned);

	printf("lpar-hcall-refresh.counters %zu counters\n", sel.ncounters);
	printf("lpar-hcall-refresh.partitions %zu partitions\n", topo.nlpars);
	printf("lpar-hcall-refresh.discover %.1f ms\n", discover / 1e6);
	printf("lpar-hcall-refresh.resolve %.1f ms\n", resolve / 1e6);
	v = bench_median(hv, n) / 1e6;
	printf("lpar-hcall-refresh.hvtop %.2f ms\n", v);
	printf("lpar-hcall-refresh.hvtop_goal_ratio %.2f x\n", v / 20);
	printf("lpar-hcall-refresh.source %.2f ms\n",
	    bench_median(srcns, n) / 1e6);
	printf("lpar-hcall-refresh.engine %.2f ms\n",
	    bench_median(eng, n) / 1e6);
	printf("lpar-hcall-refresh.sim %.2f ms\n",
	    bench_median(simns, n) / 1e6);
	printf("lpar-hcall-refresh.total %.2f ms\n",
	    bench_median(tot, n) / 1e6);
	printf("lpar-hcall-refresh.calls %u calls\n", rs.calls);
	printf("lpar-hcall-refresh.calls.per_lpar %zu calls\n", per);
	printf("lpar-hcall-refresh.calls.ratio %.2f x\n",
	    rs.calls ? (double)per / rs.calls : 0);
	printf("lpar-hcall-refresh.calls.naive %u calls\n", rs.naive_calls);
	if (planned != rs.calls)
		printf("lpar-hcall-refresh.failed 1 run\n");

	engine_snapshot_free(snap);
	raw_sample_free(&rs);
	engine_free(e);
	selection_clear(&sel);
	catalog_free(cat);
	source_close(src);
	free(args);
	free(path);
	return (0);

fail:
	fprintf(stderr, "bench-lpar-hcall-refresh: %s\n", cause);
	return (1);
}
