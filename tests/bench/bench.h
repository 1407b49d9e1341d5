/*
 * Shared by the benchmark programs: a clock reading and the median of
 * many runs.  Header-only, so each benchmark stays one file and this.
 */
#ifndef HVTOP_BENCH_H
#define HVTOP_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

/* Nanoseconds on clock clk (CLOCK_MONOTONIC, a CPU-time clock ...). */
/*
 * A smoke run (HVTOP_BENCH_SMOKE set): the test suite runs every
 * benchmark once, to see it finish, with its figures left unread.
 */
static inline int
bench_smoke(void)
{
	const char	*s = getenv("HVTOP_BENCH_SMOKE");

	return (s != NULL && *s != '\0');
}

/* n repetitions, or at most 3 in a smoke run. */
static inline size_t
bench_iters(size_t n)
{
	return (bench_smoke() && n > 3 ? 3 : n);
}

/* Exit status of a benchmark that cannot run here (it says why). */
#define BENCH_SKIP	77

static inline uint64_t
bench_ns(clockid_t clk)
{
	struct timespec	 ts;

	clock_gettime(clk, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec);
}

static inline int
bench_cmp_double(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return (x < y ? -1 : x > y);
}

/* The median of n values (sorts v in place). */
static inline double
bench_median(double *v, size_t n)
{
	qsort(v, n, sizeof *v, bench_cmp_double);
	return (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2);
}

/*
 * What reading clk costs, as seen between two readings, over many
 * back-to-back pairs: the median (returned), for a step's median, and the
 * mean (in *mean), for a sum of steps, which carries every slow reading.
 * Reading a CPU-time clock is a system call on some machines (over a
 * microsecond under some hypervisors), which a benchmark timing
 * microsecond steps subtracts from each step.
 */
static inline double
bench_clock_cost(clockid_t clk, double *mean)
{
	double		 v[1001], sum = 0;
	uint64_t	 t0, t1;
	size_t		 i, n = sizeof v / sizeof v[0];

	for (i = 0; i < n; i++) {
		t0 = bench_ns(clk);
		t1 = bench_ns(clk);
		v[i] = (double)(t1 - t0);
		sum += v[i];
	}
	*mean = sum / (double)n;
	return (bench_median(v, n));
}

#endif /* HVTOP_BENCH_H */
