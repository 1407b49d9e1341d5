/*
 * Benchmark: the per-interval cost of a derived metric.  Compiles
 * "sqrt((A + B) * C / D * 100)" (10 RPN steps: A B + C * D / 100 * sqr)
 * and IBM's TOTAL_INT_PB_BW, then evaluates them many times with changing
 * inputs.  Prints "NAME VALUE UNIT" lines, each the median of many runs.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "formula/formula.h"
#include "tests/bench/bench.h"
#include "util/hverr.h"

#define RUNS		51
#define EVALS		200000
#define COMPILES	2000

/*
 * The thread's CPU time: on a shared machine, other programs' turns on
 * the CPU do not count against the formula.
 */
static double
now_ns(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (ts.tv_sec * 1e9 + ts.tv_nsec);
}

/* Names A..E are events 0..4; PB_Freq is constant 0. */
static int
resolve(void *arg, const char *name, struct formula_ref *ref)
{
	(void)arg;
	if (strcmp(name, "PB_Freq") == 0) {
		ref->kind = FORMULA_CONST;
		ref->slot = 0;
		return (0);
	}
	if (strcmp(name, "PM_PB_INT_DATA_XFER") == 0) {
		ref->slot = 0;
		return (0);
	}
	if (strcmp(name, "PM_PB_CYC") == 0) {
		ref->slot = 1;
		return (0);
	}
	if (name[0] >= 'A' && name[0] <= 'E' && name[1] == '\0') {
		ref->slot = (unsigned)(name[0] - 'A');
		return (0);
	}
	return (-HV_ENOENT);
}

static double
bench_eval(const struct formula *f, double *ev, const double *cv)
{
	static double		 t[RUNS];
	struct formula_env	 env;
	struct formula_value	 v;
	volatile double		 sink = 0;
	double			 t0, sum;
	int			 r, i, runs = (int)bench_iters(RUNS);

	memset(&env, 0, sizeof env);
	env.values[FORMULA_EVENT] = ev;
	env.nvalues[FORMULA_EVENT] = 5;
	env.values[FORMULA_CONST] = cv;
	env.nvalues[FORMULA_CONST] = 1;
	for (r = 0; r < runs; r++) {
		sum = 0;
		t0 = now_ns();
		for (i = 0; i < EVALS; i++) {
			ev[0] = (double)(i + 1);	/* inputs change */
			v = formula_eval(f, &env);
			sum += v.value;
		}
		t[r] = (now_ns() - t0) / EVALS;
		sink += sum;
	}
	(void)sink;
	return (bench_median(t, (size_t)runs));
}

int
main(void)
{
	static const char	*ten = "sqrt((A + B) * C / D * 100)";
	static const char	*ibm =
	    "((PM_PB_INT_DATA_XFER * 512) / PM_PB_CYC) * PB_Freq";
	static double		 tc[RUNS];
	struct formula		*f;
	double			 ev[5] = { 1, 2, 3, 4, 5 }, cv[1] = { 2.4e9 };
	double			 t0, ns;
	char			*cause;
	int			 r, i, runs = (int)bench_iters(RUNS);

	for (r = 0; r < runs; r++) {
		t0 = now_ns();
		for (i = 0; i < COMPILES; i++) {
			if (formula_compile(ten, FORMULA_AUTO, NULL, resolve,
			    NULL, &f, &cause) != 0) {
				fprintf(stderr, "bench-formula: %s\n", cause);
				return (1);
			}
			formula_free(f);
		}
		tc[r] = (now_ns() - t0) / COMPILES / 1e3;
	}
	printf("formula.compile.10steps %.3f us\n",
	    bench_median(tc, (size_t)runs));

	if (formula_compile(ten, FORMULA_AUTO, NULL, resolve, NULL, &f,
	    &cause) != 0 || formula_ncode(f) != 10) {
		fprintf(stderr, "bench-formula: not 10 steps\n");
		return (1);
	}
	ns = bench_eval(f, ev, cv);
	printf("formula.eval.10steps %.2f ns\n", ns);
	printf("formula.eval.10steps.rate %.1f M/s\n", 1e3 / ns);
	formula_free(f);

	if (formula_compile(ibm, FORMULA_AUTO, NULL, resolve, NULL, &f,
	    &cause) != 0) {
		fprintf(stderr, "bench-formula: %s\n", cause);
		return (1);
	}
	printf("formula.eval.ibm_pb_bw %.2f ns\n", bench_eval(f, ev, cv));
	formula_free(f);
	return (0);
}
