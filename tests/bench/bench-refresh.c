/*
 * One refresh of 4,096 counters end to end: 16 chips x 64 chip counters
 * and 192 cores x 16 core counters, with 100 formulas per row of each
 * domain.  A refresh is what hvtop does every interval: the sim source
 * encodes the planned request buffers, the simulated hypervisor answers,
 * the results are decoded, and the engine computes deltas, rates and every
 * metric.  Prints per-refresh CPU time (median of many), the engine's and
 * the source's parts, and hcalls per refresh against the naive count.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "model/selection.h"
#include "source/source.h"
#include "test-hcall-fixture.h"
#include "tests/bench/bench.h"
#include "sys/file.h"
#include "util/xalloc.h"

#define REFRESHES	300
#define FORMULAS	100

/* FORMULAS definitions over the events of one domain of the catalog. */
static void
make_defs(const struct catalog *cat, int domain, struct engine_metric_def *d,
    char **texts, char **names, const char *prefix)
{
	const char	*ev[64];
	size_t		 i, n = 0;

	for (i = 0; i < cat->nevents && n < 64; i++) {
		if (cat->events[i].domain == domain &&
		    cat->events[i].skip == 0)
			ev[n++] = cat->events[i].name;
	}
	for (i = 0; i < FORMULAS; i++) {
		/* About ten tokens each, like the catalog's own. */
		texts[i] = xasprintf("(%s + %s) * 128 / (%s + 1) / "
		    "delta-seconds", ev[i % n], ev[(i * 7 + 3) % n],
		    ev[(i * 13 + 5) % n]);
		names[i] = xasprintf("%s_%zu", prefix, i);
		/* Every field set: those not named here are zero. */
		d[i] = (struct engine_metric_def){
			.name = names[i],
			.text = texts[i],
			.unit = "B/s",
			.desc = "",
			.origin = "bench",
		};
	}
}

int
main(void)
{
	struct tfix			 fx;
	struct source			*src;
	struct topology			 topo;
	struct selection		 sel;
	struct engine			*e;
	struct engine_snapshot		*snap = NULL;
	struct raw_sample		 rs;
	struct engine_metric_def	 defs[2 * FORMULAS];
	char				*texts[2 * FORMULAS], *names[2 * FORMULAS];
	char				 path[] = "/tmp/hvtop-bench-XXXXXX";
	char				*args, *cause = NULL, spec[64];
	double				 tot[REFRESHES], srcns[REFRESHES];
	double				 eng[REFRESHES];
	uint64_t			 t0, t1, t2, now = 0;
	size_t				 i, n = bench_iters(REFRESHES);
	int				 fd;

	tfix_build(&fx, 8, 4, 0);
	if ((fd = mkstemp(path)) == -1 ||
	    write(fd, fx.image, fx.len) != (ssize_t)fx.len) {
		perror("bench-refresh: temporary catalog");
		return (1);
	}
	close(fd);
	args = xasprintf("catalog=%s,sockets=16,chips_per_socket=1,cores=12,"
	    "smt=4,seed=1", path);
	if (source_open("sim", args, "/sys", &src, &cause) != 0 ||
	    src->ops->topology(src, &topo, &cause) != 0) {
		fprintf(stderr, "bench-refresh: %s\n", cause);
		return (1);
	}
	memset(&sel, 0, sizeof sel);
	for (i = 0; i < fx.chip_groups + fx.core_groups; i++) {
		snprintf(spec, sizeof spec, "%s", fx.cat->groups[i].name);
		if (selection_add(&sel, fx.cat, &topo, spec, 0, &cause) != 0) {
			fprintf(stderr, "bench-refresh: %s\n", cause);
			return (1);
		}
	}
	make_defs(fx.cat, CATALOG_DOMAIN_CHIP, defs, texts, names, "CHIP");
	make_defs(fx.cat, CATALOG_DOMAIN_CORE, defs + FORMULAS,
	    texts + FORMULAS, names + FORMULAS, "CORE");
	e = engine_new(fx.cat, &sel, topo.timebase_hz, defs, 2 * FORMULAS,
	    NULL, NULL);
	if (src->ops->select(src, &sel, &cause) != 0) {
		fprintf(stderr, "bench-refresh: %s\n", cause);
		return (1);
	}
	memset(&rs, 0, sizeof rs);
	rs.values = xcalloc(sel.ncounters, sizeof *rs.values);
	rs.nvalues = sel.ncounters;
	for (i = 0; i < n + 2; i++) {
		now += 1000000000ULL;
		t0 = bench_ns(CLOCK_PROCESS_CPUTIME_ID);
		src->ops->sample(src, now, &rs, &cause);
		t1 = bench_ns(CLOCK_PROCESS_CPUTIME_ID);
		snap = engine_update_reuse(e, &rs, snap);
		t2 = bench_ns(CLOCK_PROCESS_CPUTIME_ID);
		if (i < 2)
			continue;	/* baselines and warm caches */
		srcns[i - 2] = (double)(t1 - t0) / 1e3;
		eng[i - 2] = (double)(t2 - t1) / 1e3;
		tot[i - 2] = (double)(t2 - t0) / 1e3;
	}
	printf("refresh.4096.counters %zu count\n", sel.ncounters);
	printf("refresh.4096.metrics %zu count\n",
	    (size_t)FORMULAS * (16 + 1 + 192 + 1));
	printf("refresh.4096.total %.1f us\n", bench_median(tot, n));
	printf("refresh.4096.source %.1f us\n", bench_median(srcns, n));
	printf("refresh.4096.engine %.1f us\n", bench_median(eng, n));
	printf("refresh.4096.hcalls %u count\n", rs.calls);
	printf("refresh.4096.naive_hcalls %u count\n", rs.naive_calls);
	printf("refresh.4096.hcall_saving %.1f ratio\n",
	    rs.calls ? (double)rs.naive_calls / rs.calls : 0);

	unlink(path);
	engine_snapshot_free(snap);
	free(rs.values);
	engine_free(e);
	selection_clear(&sel);
	source_close(src);
	for (i = 0; i < 2 * FORMULAS; i++) {
		free(texts[i]);
		free(names[i]);
	}
	free(args);
	tfix_free(&fx);
	return (0);
}
