/*
 * Benchmark: parse PAPI's whole papi_events.csv (2812 lines, 1977 presets)
 * into the model of src/metrics/papi.h, expressions and indexes included,
 * and check availability for one PMU.  Prints "NAME VALUE UNIT" lines with
 * the median of many runs, in CPU time.  The file is the test data copy,
 * or argv[1].
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "metrics/papi.h"
#include "tests/bench/bench.h"

#define RUNS	200

/*
 * The thread's CPU time: on a shared machine, other programs' turns on the
 * processor would otherwise count as parsing time.
 */
static double
now_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (ts.tv_sec * 1e3 + ts.tv_nsec / 1e6);
}

/* Every name is known, so every base of every event is looked at. */
static int
known_all(const char *name, void *arg)
{
	(void)name;
	(void)arg;
	return (1);
}

int
main(int argc, char **argv)
{
	const char		*path = argc > 1 ? argv[1] : PAPI_BENCH_DATA;
	struct papi_model	*m;
	struct papi_avail	*av;
	static double		 parse[RUNS], check[RUNS];
	double			 t0;
	FILE			*f;
	char			*buf;
	long			 len;
	int			 i, runs = (int)bench_iters(RUNS);

	if ((f = fopen(path, "rb")) == NULL) {
		perror(path);
		return (1);
	}
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	if (len <= 0 || (buf = malloc((size_t)len)) == NULL ||
	    fread(buf, 1, (size_t)len, f) != (size_t)len) {
		fprintf(stderr, "%s: cannot read\n", path);
		return (1);
	}
	fclose(f);
	for (i = 0; i < runs; i++) {
		t0 = now_ms();
		if (papi_parse(buf, (size_t)len, &m, NULL) != 0) {
			fprintf(stderr, "%s: parse errors\n", path);
			return (1);
		}
		parse[i] = now_ms() - t0;
		t0 = now_ms();
		papi_check(m, "POWER8", known_all, NULL, &av);
		check[i] = now_ms() - t0;
		free(av);
		papi_model_free(m);
	}
	qsort(parse, (size_t)runs, sizeof parse[0], bench_cmp_double);
	qsort(check, (size_t)runs, sizeof check[0], bench_cmp_double);
	printf("papi.parse.papi_events %.3f ms\n", parse[runs / 2]);
	printf("papi.check.papi_events %.3f ms\n", check[runs / 2]);
	free(buf);
	return (0);
}
