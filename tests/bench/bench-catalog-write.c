/*
 * Benchmarks of writing catalogs and of their JSON form, on the real
 * POWER8 catalog (tests/data/catalog).  Each figure is this run's median
 * over many iterations, printed as "NAME VALUE UNIT":
 *
 *   catalog.write.p8       catalog_write() of the parsed model
 *   catalog.json.to.p8     catalog_to_json() and json_dumps(), as hvcat
 *                          dump --json does
 *   catalog.json.from.p8   json_loads() and catalog_from_json(), as hvcat
 *                          build does before writing
 *   catalog.build.p8       the whole of hvcat build without the file I/O:
 *                          JSON text -> model -> image -> parse to check
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "catalog/catalog-json.h"
#include "catalog/catalog.h"
#include "tests/bench/bench.h"
#include "util/xalloc.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

#define ITERS	200

static double
now_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6);
}

static void
die(const char *what, const char *cause)
{
	fprintf(stderr, "bench-catalog-write: %s: %s\n", what, cause);
	exit(1);
}

static uint8_t *
read_p8(size_t *len)
{
	const char	*top;
	char		*path;
	uint8_t		*buf;
	FILE		*f;

	if ((top = getenv("top_srcdir")) == NULL)
		top = TOP_SRCDIR;
	path = xasprintf("%s/tests/data/catalog/p8-catalog-v3.bin", top);
	if ((f = fopen(path, "rb")) == NULL)
		die(path, "cannot open");
	buf = xmalloc(1 << 20);
	*len = fread(buf, 1, 1 << 20, f);
	fclose(f);
	free(path);
	return (buf);
}

int
main(void)
{
	struct catalog	*cat, *back, *check;
	json_t		*j;
	double		 t[ITERS], t0;
	uint8_t		*orig;
	void		*img;
	char		*text, *cause;
	size_t		 olen, len, i, n = bench_iters(ITERS);

	orig = read_p8(&olen);
	if (catalog_parse(orig, olen, 1, &cat, &cause) != 0)
		die("parse", cause);

	for (i = 0; i < n; i++) {
		t0 = now_ms();
		if (catalog_write(cat, &img, &len, &cause) != 0)
			die("write", cause);
		t[i] = now_ms() - t0;
		if (len != olen || memcmp(img, orig, len) != 0)
			die("write", "not the catalog parsed");
		free(img);
	}
	printf("catalog.write.p8 %.3f ms\n", bench_median(t, n));

	for (i = 0; i < n; i++) {
		t0 = now_ms();
		j = catalog_to_json(cat);
		text = json_dumps(j, JSON_INDENT(1));
		t[i] = now_ms() - t0;
		json_decref(j);
		free(text);
	}
	printf("catalog.json.to.p8 %.3f ms\n", bench_median(t, n));

	j = catalog_to_json(cat);
	text = json_dumps(j, JSON_INDENT(1));
	json_decref(j);
	for (i = 0; i < n; i++) {
		t0 = now_ms();
		j = json_loads(text, JSON_REJECT_DUPLICATES, NULL);
		if (j == NULL)
			die("json_loads", "failed");
		if (catalog_from_json(j, &back, &cause) != 0)
			die("from_json", cause);
		t[i] = now_ms() - t0;
		json_decref(j);
		catalog_free(back);
	}
	printf("catalog.json.from.p8 %.3f ms\n", bench_median(t, n));

	for (i = 0; i < n; i++) {
		t0 = now_ms();
		j = json_loads(text, JSON_REJECT_DUPLICATES, NULL);
		if (j == NULL)
			die("json_loads", "failed");
		if (catalog_from_json(j, &back, &cause) != 0)
			die("from_json", cause);
		if (catalog_write(back, &img, &len, &cause) != 0)
			die("write", cause);
		if (catalog_parse(img, len, 0, &check, &cause) != 0)
			die("parse", cause);
		t[i] = now_ms() - t0;
		if (len != olen || memcmp(img, orig, len) != 0)
			die("build", "not the catalog dumped");
		catalog_free(check);
		free(img);
		json_decref(j);
		catalog_free(back);
	}
	printf("catalog.build.p8 %.3f ms\n", bench_median(t, n));

	free(text);
	catalog_free(cat);
	free(orig);
	return (0);
}
