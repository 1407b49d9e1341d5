/*
 * Unit tests for src/util/numfmt.c: numfmt_g() must print exactly what
 * the C library's "%.*g" prints.  The reference is snprintf() itself, on
 * values chosen where a conversion goes wrong: exact ties at the last
 * digit, powers of ten and their neighbours, carries that add a digit,
 * the switch between fixed and exponent forms, the edges of the range the
 * fast path takes, and a few hundred thousand random bit patterns and values.
 */
#include "config.h"

#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "util/numfmt.h"

static const int precs[] = { 1, 2, 6, 9, 12, 15, 16, 17 };
#define NPRECS	(sizeof precs / sizeof precs[0])

static unsigned long	 mismatches;

/* Compare one value at one precision; print the first few differences. */
static void
check_one(double v, int prec)
{
	char	want[NUMFMT_G_MAX + 8], got[NUMFMT_G_MAX];
	size_t	n;

	snprintf(want, sizeof want, "%.*g", prec, v);
	memset(got, 'x', sizeof got);
	n = numfmt_g(got, v, prec);
	if (n != strlen(want) || strcmp(got, want) != 0) {
		if (mismatches++ < 10)
			print_error("%%.%dg of %a: want \"%s\", got \"%s\"\n",
			    prec, v, want, got);
	}
}

static void
check_all(double v)
{
	size_t	i;

	for (i = 0; i < NPRECS; i++) {
		check_one(v, precs[i]);
		check_one(-v, precs[i]);
	}
}

static uint64_t
next_random(uint64_t *s)
{
	/* xorshift64*: fixed seed, so a failure repeats. */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return (*s * 2685821657736338717ULL);
}

static double
from_bits(uint64_t bits)
{
	double	v;

	memcpy(&v, &bits, sizeof v);
	return (v);
}

static void
test_specials(void **state)
{
	(void)state;
	mismatches = 0;
	check_all(0.0);
	check_all(INFINITY);
	check_all(NAN);
	check_all(DBL_MIN);
	check_all(DBL_MAX);
	check_all(DBL_TRUE_MIN);
	check_all(from_bits(0x000fffffffffffffULL));	/* largest subnormal */
	check_all(1.0);
	check_all(0.1);
	check_all(2.0 / 3.0);
	check_all(1e-5);
	check_all(1e-4);
	check_all(0.0001);
	check_all(99999.5);
	check_all(9.5);
	check_all(0.5);
	check_all(1.5);
	check_all(2.5);
	assert_int_equal(mismatches, 0);
}

/* k + 1/2 at the last kept digit: exact ties, and their neighbours. */
static void
test_ties(void **state)
{
	uint64_t	seed = 0x9e3779b97f4a7c15ULL;
	double		v, scale;
	int		i, e;

	(void)state;
	mismatches = 0;
	for (i = 0; i < 20000; i++) {
		/* An integer below 2^52 plus one half, over a power of two. */
		v = (double)(next_random(&seed) >> 13) + 0.5;
		e = (int)(next_random(&seed) % 40);
		scale = ldexp(1.0, -e);
		check_all(v * scale);
		check_all(nextafter(v * scale, 0));
		check_all(nextafter(v * scale, INFINITY));
		/* Ties at 12 digits: 12- and 13-digit integers + 0.5. */
		v = (double)(100000000000ULL +
		    next_random(&seed) % 9900000000000ULL) + 0.5;
		check_all(v);
		check_all(v / 10);
	}
	assert_int_equal(mismatches, 0);
}

/* 10^k, 999..9 and 5 * 10^k, each with its neighbours. */
static void
test_powers(void **state)
{
	double	v, w;
	int	k, j;

	(void)state;
	mismatches = 0;
	for (k = -40; k <= 40; k++) {
		v = pow(10.0, k);
		for (j = 0; j < 3; j++) {
			w = j == 0 ? v : j == 1 ? v * 5 : v * 0.999999999999;
			check_all(w);
			check_all(nextafter(w, 0));
			check_all(nextafter(w, INFINITY));
			check_all(w * (1 - 5e-13));
			check_all(w * (1 + 5e-13));
		}
	}
	assert_int_equal(mismatches, 0);
}

/* Whole numbers, where "%.*g" prints the digits or goes to exponents. */
static void
test_whole_numbers(void **state)
{
	uint64_t	 seed = 0x2545f4914f6cdd1dULL, u, t;
	int		 k, d;

	(void)state;
	mismatches = 0;
	for (u = 0; u < 200000; u++)
		check_all((double)u);
	for (t = 1, k = 0; k <= 18; k++, t *= 10) {
		for (d = -3; d <= 3; d++)
			check_all((double)(t + (uint64_t)(int64_t)d));
		check_all((double)t * 2);
		check_all((double)t * 7 + 5);
	}
	for (k = 0; k < 200000; k++) {
		u = next_random(&seed) >> (11 + k % 50);
		check_all((double)u);
		check_all((double)u * 0.5);
	}
	assert_int_equal(mismatches, 0);
}

static void
test_random_bits(void **state)
{
	uint64_t	seed = 0x243f6a8885a308d3ULL;
	int		i;

	(void)state;
	mismatches = 0;
	for (i = 0; i < 30000; i++)
		check_all(from_bits(next_random(&seed)));
	assert_int_equal(mismatches, 0);
}

/* What hvtop prints most: rates and ratios between 1e-9 and 1e15. */
static void
test_random_values(void **state)
{
	uint64_t	seed = 0x13198a2e03707344ULL;
	double		v;
	int		i;

	(void)state;
	mismatches = 0;
	for (i = 0; i < 50000; i++) {
		v = (double)(next_random(&seed) >> 11) / 9007199254740992.0;
		v *= pow(10.0, (double)(next_random(&seed) % 25) - 9);
		check_all(v);
		/* Counts: integers, and integers over a whole interval. */
		v = (double)(next_random(&seed) >> (next_random(&seed) % 64));
		check_all(v);
		check_all(v / 1.000000001);
	}
	assert_int_equal(mismatches, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_specials),
		cmocka_unit_test(test_ties),
		cmocka_unit_test(test_powers),
		cmocka_unit_test(test_whole_numbers),
		cmocka_unit_test(test_random_bits),
		cmocka_unit_test(test_random_values),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
