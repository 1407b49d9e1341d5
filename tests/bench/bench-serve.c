/*
 * The metrics endpoint under a big selection: 4,096 counters (16 chips x
 * 64 chip counters and 192 cores x 16 core counters) and 1,612 metric
 * values (4 formulas per chip row, 8 per core row, totals included).
 * Prints the median time to render a frame in each format, to publish a
 * sample (what the sampler pays), and to scrape over loopback with a
 * client on this machine: a fresh frame and the same frame again, each
 * on a connection of its own; the same with gzip (compressed, then sent
 * from the compressed text); and ten scrapes sent at once on one kept
 * connection (per scrape).  Then the resident memory growth over 1,000
 * scrapes in a row, each of a newly published frame, then 1,000 more
 * with gzip.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/socket.h>

#include <netinet/in.h>

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "export/om.h"
#include "model/selection.h"
#include "serve/serve.h"
#include "source/source.h"
#include "test-hcall-fixture.h"
#include "tests/bench/bench.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define RUNS		200
#define SCRAPES		1000
#define KEEP		10	/* scrapes on one kept connection */
#define CHIP_FORMULAS	4
#define CORE_FORMULAS	8
#define TB_HZ		512000000ULL

static uint64_t
now_ns(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t	 x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y ? -1 : x > y);
}

static double
median_ms(uint64_t *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_u64);
	return ((double)v[n / 2] / 1e6);
}

static long
rss_kib(void)
{
	FILE	*fp;
	char	 line[256];
	long	 kib = -1;

	if ((fp = fopen("/proc/self/status", "r")) == NULL)
		return (-1);
	while (fgets(line, sizeof line, fp) != NULL) {
		if (strncmp(line, "VmRSS:", 6) == 0)
			kib = strtol(line + 6, NULL, 10);
	}
	fclose(fp);
	return (kib);
}

/* n definitions over the events of one domain, with a unit each. */
static void
make_defs(const struct catalog *cat, int domain, struct engine_metric_def *d,
    char **texts, char **names, size_t n, const char *prefix)
{
	const char	*ev[64];
	size_t		 i, m = 0;

	for (i = 0; i < cat->nevents && m < 64; i++) {
		if (cat->events[i].domain == domain &&
		    cat->events[i].skip == 0)
			ev[m++] = cat->events[i].name;
	}
	for (i = 0; i < n; i++) {
		texts[i] = xasprintf("(%s + %s) * 128 / (%s + 1) / "
		    "delta-seconds", ev[i % m], ev[(i * 7 + 3) % m],
		    ev[(i * 13 + 5) % m]);
		names[i] = xasprintf("%s_BW_%zu", prefix, i);
		/* Every field set: those not named here are zero. */
		d[i] = (struct engine_metric_def){
			.name = names[i],
			.text = texts[i],
			.unit = "MB/s",
			.desc = "Bandwidth of a made-up kind",
			.origin = "bench",
		};
	}
}

#define OM_ACCEPT	"Accept: application/openmetrics-text; version=1.0.0\r\n"

/* req sent on one connection over loopback; the bytes until the server
 * closes it, or 0 on failure. */
static size_t
scrape_req(unsigned port, const char *req)
{
	struct sockaddr_in	 sin;
	char			 buf[65536];
	size_t			 total = 0;
	ssize_t			 n;
	int			 fd;

	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		return (0);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&sin, sizeof sin) != 0 ||
	    write(fd, req, strlen(req)) != (ssize_t)strlen(req)) {
		close(fd);
		return (0);
	}
	while ((n = read(fd, buf, sizeof buf)) > 0)
		total += (size_t)n;
	close(fd);
	return (total);
}

/* One scrape, as Prometheus asks (gzip: with Accept-Encoding: gzip). */
static size_t
scrape(unsigned port, int gzip)
{
	return (scrape_req(port, gzip ? "GET /metrics HTTP/1.0\r\n" OM_ACCEPT
	    "Accept-Encoding: gzip\r\n\r\n" : "GET /metrics HTTP/1.0\r\n"
	    OM_ACCEPT "\r\n"));
}

/* Move every counter on and stamp the sample one second later. */
static void
step(struct raw_sample *rs, uint64_t *now)
{
	size_t	 k;

	*now += 1000000000ULL;
	rs->now = *now;
	rs->calls = 28;
	rs->naive_calls = 4096;
	for (k = 0; k < rs->nvalues; k++) {
		rs->values[k].value += 1000 + k;
		rs->values[k].timebase = *now / 1000 * 512;
		rs->values[k].status = RAW_OK;
	}
}

int
main(void)
{
	struct tfix			 fx;
	struct topology			 topo;
	struct selection		 sel;
	struct engine			*e;
	struct engine_snapshot		*snap = NULL;
	struct raw_sample		 rs;
	struct engine_metric_def	 defs[CHIP_FORMULAS + CORE_FORMULAS];
	char				*texts[CHIP_FORMULAS + CORE_FORMULAS];
	char				*names[CHIP_FORMULAS + CORE_FORMULAS];
	struct serve_info		 info;
	struct om_info			 oi;
	struct serve_addr		 addr;
	struct om			*om;
	struct om_snapshot			*fr;
	struct om_sample		 smp;
	struct serve			*srv;
	struct strbuf			 sb = { 0 };
	uint64_t			 om_ns[RUNS], txt_ns[RUNS];
	uint64_t			 pub_ns[RUNS];
	uint64_t			 fresh_ns[RUNS], cached_ns[RUNS];
	uint64_t			 gzf_ns[RUNS], gzc_ns[RUNS];
	uint64_t			 keep_ns[RUNS];
	struct strbuf			 keep = { 0 };
	size_t				 gzbytes = 0;
	uint64_t			 t0, now = 0;
	size_t				 i, nval = 0, bytes = 0, nbytes;
	unsigned			 port;
	long				 r0, r1, r2;
	char				*cause = NULL, spec[64];
	size_t				 runs = bench_iters(RUNS);
	size_t				 scrapes = bench_iters(SCRAPES);

	tfix_build(&fx, 8, 4, 0);
	memset(&topo, 0, sizeof topo);
	topo.sockets = 16;
	topo.chips = 16;
	topo.cores = 192;
	topo.smt = 4;
	topo.vcpus = 8;
	topo.interface = 2;
	topo.privileged = 1;
	topo.timebase_hz = TB_HZ;
	memset(&sel, 0, sizeof sel);
	for (i = 0; i < fx.chip_groups + fx.core_groups; i++) {
		snprintf(spec, sizeof spec, "%s", fx.cat->groups[i].name);
		if (selection_add(&sel, fx.cat, &topo, spec, 0, &cause) != 0) {
			fprintf(stderr, "bench-serve: %s\n", cause);
			return (1);
		}
	}
	make_defs(fx.cat, CATALOG_DOMAIN_CHIP, defs, texts, names,
	    CHIP_FORMULAS, "CHIP");
	make_defs(fx.cat, CATALOG_DOMAIN_CORE, defs + CHIP_FORMULAS,
	    texts + CHIP_FORMULAS, names + CHIP_FORMULAS, CORE_FORMULAS,
	    "CORE");
	e = engine_new(fx.cat, &sel, TB_HZ, defs, CHIP_FORMULAS +
	    CORE_FORMULAS, NULL, NULL);
	for (i = 0; i < engine_nviews(e); i++)
		nval += (engine_view(e, i)->nrows + 1) *
		    engine_view(e, i)->nmetrics;
	memset(&rs, 0, sizeof rs);
	rs.values = xcalloc(sel.ncounters, sizeof *rs.values);
	rs.nvalues = sel.ncounters;
	rs.catalog_version = fx.cat->version;
	memset(&info, 0, sizeof info);
	info.lpar_self = 0xffff;
	info.source = "sim";
	info.source_label = "bench";
	info.timebase_hz = TB_HZ;

	/* The renderer alone, on one frame. */
	memset(&oi, 0, sizeof oi);
	oi.lpar_self = 0xffff;
	oi.source = info.source;
	oi.source_label = info.source_label;
	oi.timebase_hz = info.timebase_hz;
	om = om_new(&oi);
	memset(&smp, 0, sizeof smp);
	smp.engine = e;
	smp.sel = &sel;
	smp.rs = &rs;
	smp.catalog_version = fx.cat->version;
	for (i = 0; i < 2; i++) {
		step(&rs, &now);
		snap = engine_update_reuse(e, &rs, snap);
	}
	smp.snap = snap;
	for (i = 0; i < runs; i++) {
		t0 = now_ns();
		fr = om_snapshot(om, &smp);
		pub_ns[i] = now_ns() - t0;
		strbuf_reset(&sb);
		t0 = now_ns();
		om_render(fr, OM_FMT_OPENMETRICS, &sb);
		om_ns[i] = now_ns() - t0;
		bytes = sb.len;
		strbuf_reset(&sb);
		t0 = now_ns();
		om_render(fr, OM_FMT_PROMETHEUS, &sb);
		txt_ns[i] = now_ns() - t0;
		om_snapshot_free(fr);
	}
	om_free(om);

	/* The server: scrapes over loopback. */
	if (serve_addr_parse("127.0.0.1:0", &addr, &cause) != 0 ||
	    serve_start(&addr, &info, &srv, &cause) != 0) {
		fprintf(stderr, "bench-serve: %s\n", cause);
		return (1);
	}
	if (sscanf(serve_url(srv), "http://127.0.0.1:%u", &port) != 1)
		return (1);
	for (i = 0; i < KEEP; i++)
		strbuf_addf(&keep, "GET /metrics HTTP/1.1\r\nHost: bench\r\n"
		    OM_ACCEPT "%s\r\n", i + 1 == KEEP ? "Connection: close\r\n" :
		    "");
	for (i = 0; i < runs; i++) {
		step(&rs, &now);
		snap = engine_update_reuse(e, &rs, snap);
		serve_sample_begin(srv);
		serve_publish(srv, e, &sel, 0, fx.cat->version, &rs, snap,
		    now, NULL);
		t0 = now_ns();
		nbytes = scrape(port, 0);
		fresh_ns[i] = now_ns() - t0;
		t0 = now_ns();
		if (scrape(port, 0) != nbytes || nbytes < bytes) {
			fprintf(stderr, "bench-serve: a scrape failed\n");
			return (1);
		}
		cached_ns[i] = now_ns() - t0;
		/* The same sample with gzip: compressed, then from the
		 * compressed text. */
		t0 = now_ns();
		gzbytes = scrape(port, 1);
		gzf_ns[i] = now_ns() - t0;
		t0 = now_ns();
		if (scrape(port, 1) != gzbytes || gzbytes == 0) {
			fprintf(stderr, "bench-serve: a gzip scrape failed\n");
			return (1);
		}
		gzc_ns[i] = now_ns() - t0;
		/* KEEP scrapes on one kept connection, sent at once. */
		t0 = now_ns();
		if (scrape_req(port, keep.s) < KEEP * bytes) {
			fprintf(stderr, "bench-serve: a kept connection "
			    "failed\n");
			return (1);
		}
		keep_ns[i] = (now_ns() - t0) / KEEP;
	}
	/* A thousand scrapes in a row, a new frame before each. */
	r0 = rss_kib();
	for (i = 0; i < scrapes; i++) {
		step(&rs, &now);
		snap = engine_update_reuse(e, &rs, snap);
		serve_sample_begin(srv);
		serve_publish(srv, e, &sel, 0, fx.cat->version, &rs, snap,
		    now, NULL);
		if (scrape(port, 0) < bytes) {
			fprintf(stderr, "bench-serve: a scrape failed\n");
			return (1);
		}
	}
	r1 = rss_kib();
	/* The same with gzip: each frame compressed once. */
	for (i = 0; i < scrapes; i++) {
		step(&rs, &now);
		snap = engine_update_reuse(e, &rs, snap);
		serve_sample_begin(srv);
		serve_publish(srv, e, &sel, 0, fx.cat->version, &rs, snap,
		    now, NULL);
		if (scrape(port, 1) < gzbytes / 2) {
			fprintf(stderr, "bench-serve: a scrape failed\n");
			return (1);
		}
	}
	r2 = rss_kib();
	serve_stop(srv);

	printf("serve.counters %zu count\n", sel.ncounters);
	printf("serve.metric_values %zu count\n", nval);
	printf("serve.bytes.openmetrics %zu bytes\n", bytes);
	printf("serve.publish %.3f ms\n", median_ms(pub_ns, runs));
	printf("serve.render.openmetrics %.3f ms\n", median_ms(om_ns, runs));
	printf("serve.render.text %.3f ms\n", median_ms(txt_ns, runs));
	printf("serve.scrape.fresh %.3f ms\n", median_ms(fresh_ns, runs));
	printf("serve.scrape.cached %.3f ms\n", median_ms(cached_ns, runs));
	printf("serve.bytes.gzip %zu bytes\n", gzbytes);
	printf("serve.scrape.gzip.fresh %.3f ms\n", median_ms(gzf_ns, runs));
	printf("serve.scrape.gzip.cached %.3f ms\n", median_ms(gzc_ns, runs));
	printf("serve.scrape.keepalive %.3f ms\n", median_ms(keep_ns, runs));
	printf("serve.rss_growth.1000_scrapes %ld KiB\n", r1 - r0);
	printf("serve.rss_growth.1000_gzip_scrapes %ld KiB\n", r2 - r1);

	engine_snapshot_free(snap);
	free(rs.values);
	engine_free(e);
	selection_clear(&sel);
	for (i = 0; i < CHIP_FORMULAS + CORE_FORMULAS; i++) {
		free(texts[i]);
		free(names[i]);
	}
	strbuf_free(&sb);
	strbuf_free(&keep);
	tfix_free(&fx);
	return (0);
}
