/*
 * Catalog benchmarks.  Each figure is this run's median over many
 * iterations, printed as "NAME VALUE UNIT":
 *
 *   catalog.parse.p8          parse + validate + index the real POWER8
 *                             catalog (tests/data/catalog)
 *   catalog.parse.16m         the same for a generated 16 MiB catalog with
 *                             the most events a catalog can hold (65535:
 *                             the count is a be16)
 *   catalog.checksum.16m      a plain checksum pass over those bytes:
 *                             Adler-32, one byte at a time
 *   catalog.parse.16m.ratio   parse / checksum
 *   catalog.sum64.16m         the cheapest possible pass: a sum of 64-bit
 *                             words (memory bandwidth)
 *   catalog.parse.16m.ratio_sum64  parse / sum64
 *   catalog.lookup.100k       catalog_find_event() by name in a model of
 *                             100,000 events, in a scattered order
 *   catalog.lookup_sysfs.100k catalog_find_sysfs() in the same model
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "catalog/catalog.h"
#include "tests/bench/bench.h"
#include "tests/unit/catalog-gen.h"
#include "util/xalloc.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

#define BIG_EVENTS	65535
#define LOOKUP_EVENTS	100000

static double
now_ns(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec * 1e9 + (double)ts.tv_nsec);
}

static uint8_t *
read_p8(size_t *len)
{
	const char	*top;
	char		*path;
	uint8_t		*buf;
	FILE		*f;
	long		 n;

	if ((top = getenv("top_srcdir")) == NULL)
		top = TOP_SRCDIR;
	path = xasprintf("%s/tests/data/catalog/p8-catalog-v3.bin", top);
	if ((f = fopen(path, "rb")) == NULL) {
		perror(path);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = xmalloc((size_t)n);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
		perror(path);
		exit(1);
	}
	fclose(f);
	free(path);
	*len = (size_t)n;
	return (buf);
}

/* Median milliseconds of iters parses of buf. */
static double
bench_parse(const uint8_t *buf, size_t len, size_t iters)
{
	struct catalog	*cat;
	double		*t, t0, m;
	char		*cause;
	size_t		 i;

	t = xcalloc(iters, sizeof *t);
	for (i = 0; i < iters; i++) {
		t0 = now_ns();
		if (catalog_parse(buf, len, 0, &cat, &cause) != 0) {
			fprintf(stderr, "bench-catalog: %s\n", cause);
			exit(1);
		}
		t[i] = (now_ns() - t0) / 1e6;
		if (cat->nerrors != 0) {
			fprintf(stderr, "bench-catalog: %s\n",
			    cat->diags[0].msg);
			exit(1);
		}
		catalog_free(cat);
	}
	m = bench_median(t, iters);
	free(t);
	return (m);
}

/*
 * 65535 core events of 256 bytes each (16 MiB), in 4096 groups of 16, as
 * a POWER9-sized catalog would lay them out.
 */
static uint8_t *
gen_big(size_t *len)
{
	struct cgen_buf	 ev = { 0 }, gr = { 0 };
	struct cgen_buf	*const secs[4] = { NULL, &ev, &gr, NULL };
	struct cgen_event e;
	struct cgen_group g;
	char		 name[64], desc[256], gname[64];
	uint8_t		*img;
	size_t		 i, j;

	/* 0x14 + name 2+30 + description 2+197+1 + long description 2+2 */
	memset(desc, 'd', 197);
	desc[197] = '\0';
	for (i = 0; i < BIG_EVENTS; i++) {
		memset(&e, 0, sizeof e);
		snprintf(name, sizeof name, "PM_GENERATED_EVENT_%05zu_CYC", i);
		e.domain = 2;
		e.record_offset = (uint16_t)((i / 16) * 64 % 0x10000);
		e.record_length = 64 + 8 * 16;
		e.counter_offset = (uint16_t)(24 + 8 * (i % 16));
		e.name = name;
		e.desc = desc;
		e.long_desc = "";
		e.length = 256;
		cgen_event(&ev, &e);
	}
	for (i = 0; i < (BIG_EVENTS + 15) / 16; i++) {
		memset(&g, 0, sizeof g);
		snprintf(gname, sizeof gname, "GROUP_%04zu", i);
		g.domain = 2;
		g.record_offset = (uint16_t)(i * 64 % 0x10000);
		g.record_length = 64 + 8 * 16;
		g.event_count = 16;
		for (j = 0; j < 16; j++)
			g.slots[j] = i * 16 + j < BIG_EVENTS ?
			    (uint16_t)(i * 16 + j) : 0xffff;
		g.name = gname;
		g.desc = "";
		cgen_group(&gr, &g);
	}
	img = cgen_catalog(secs, len);
	cgen_buf_free(&ev);
	cgen_buf_free(&gr);
	return (img);
}

static volatile uint64_t bench_sink;

/* Adler-32 (RFC 1950), the modulo deferred over 5552-byte blocks. */
static uint64_t
adler32(const uint8_t *buf, size_t len)
{
	uint32_t	 a = 1, b = 0;
	size_t		 n;

	while (len > 0) {
		n = len < 5552 ? len : 5552;
		len -= n;
		while (n-- > 0) {
			a += *buf++;
			b += a;
		}
		a %= 65521;
		b %= 65521;
	}
	return ((uint64_t)b << 16 | a);
}

static uint64_t
sum64(const uint8_t *buf, size_t len)
{
	uint64_t	 sum = 0, w;
	size_t		 k;

	for (k = 0; k + 8 <= len; k += 8) {
		memcpy(&w, buf + k, 8);
		sum += w;
	}
	for (; k < len; k++)
		sum += buf[k];
	return (sum);
}

/* Median milliseconds of iters passes of fn over buf. */
static double
bench_checksum(uint64_t (*fn)(const uint8_t *, size_t), const uint8_t *buf,
    size_t len, size_t iters)
{
	double		*t, t0, m;
	size_t		 i;

	t = xcalloc(iters, sizeof *t);
	for (i = 0; i < iters; i++) {
		t0 = now_ns();
		bench_sink = fn(buf, len);
		t[i] = (now_ns() - t0) / 1e6;
	}
	m = bench_median(t, iters);
	free(t);
	return (m);
}

/* A model of n events built by hand, then indexed. */
static struct catalog *
gen_model(size_t n)
{
	struct catalog	*cat;
	size_t		 i;

	cat = xcalloc(1, sizeof *cat);
	cat->interface = 2;
	cat->nevents = n;
	cat->events = xcalloc(n, sizeof *cat->events);
	for (i = 0; i < n; i++) {
		cat->events[i].index = (uint32_t)i;
		cat->events[i].domain = (uint8_t)(1 + i % 6);
		cat->events[i].record_length = 64;
		cat->events[i].name = xasprintf("PM_BENCH_EVENT_%06zu_%s", i,
		    i % 2 ? "CYC" : "INST");
	}
	catalog_reindex(cat);
	return (cat);
}

/* Median nanoseconds per lookup over rounds of n lookups. */
static double
bench_lookup(const struct catalog *cat, int sysfs, size_t rounds)
{
	const char	**names;
	double		*t, t0, m;
	size_t		 n = cat->nevents, i, r, miss = 0;
	uint64_t	 x = 88172645463325252ULL;

	/* A scattered order, so that the cache does not help. */
	names = xcalloc(n, sizeof *names);
	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		names[i] = sysfs ? cat->events[x % n].sysfs_name :
		    cat->events[x % n].name;
	}
	t = xcalloc(rounds, sizeof *t);
	for (r = 0; r < rounds; r++) {
		t0 = now_ns();
		for (i = 0; i < n; i++) {
			if ((sysfs ? catalog_find_sysfs(cat, names[i]) :
			    catalog_find_event(cat, names[i], 0)) == NULL)
				miss++;
		}
		t[r] = (now_ns() - t0) / (double)n;
	}
	if (miss != 0) {
		fprintf(stderr, "bench-catalog: %zu lookups failed\n", miss);
		exit(1);
	}
	m = bench_median(t, rounds);
	free(t);
	free(names);
	return (m);
}

/* With an argument, only the figures whose name contains it are run. */
static int
want(int argc, char **argv, const char *name)
{
	return (argc < 2 || strstr(name, argv[1]) != NULL);
}

int
main(int argc, char **argv)
{
	struct catalog	*cat;
	uint8_t		*buf;
	size_t		 len;
	double		 parse, sum, words;

	if (want(argc, argv, "catalog.parse.p8")) {
		buf = read_p8(&len);
		printf("catalog.parse.p8 %.4f ms\n", bench_parse(buf, len,
		    bench_iters(301)));
		free(buf);
	}
	if (want(argc, argv, "catalog.parse.16m")) {
		buf = gen_big(&len);
		parse = bench_parse(buf, len, bench_iters(15));
		sum = bench_checksum(adler32, buf, len, bench_iters(15));
		words = bench_checksum(sum64, buf, len, bench_iters(15));
		printf("catalog.parse.16m %.3f ms\n", parse);
		printf("catalog.checksum.16m %.3f ms\n", sum);
		printf("catalog.parse.16m.ratio %.2f x\n", parse / sum);
		printf("catalog.sum64.16m %.3f ms\n", words);
		printf("catalog.parse.16m.ratio_sum64 %.2f x\n",
		    parse / words);
		free(buf);
	}
	if (want(argc, argv, "catalog.lookup")) {
		cat = gen_model(LOOKUP_EVENTS);
		printf("catalog.lookup.100k %.1f ns\n",
		    bench_lookup(cat, 0, bench_iters(21)));
		printf("catalog.lookup_sysfs.100k %.1f ns\n",
		    bench_lookup(cat, 1, bench_iters(21)));
		catalog_free(cat);
	}
	return (0);
}
