/*
 * Unit tests for src/util/numfmt-si.c, the one spelling of a number on
 * the screens and in text output: the spellings at the edges of each
 * rule (a prefix's limit, the decimals, whole numbers, small values, the
 * exponent past the last prefix), a column's prefix with and without
 * its letter, NaN and infinities, and in widths 4 to 8 a number that is
 * always the value rounded, never cut, or the marker.
 */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/numfmt-si.h"

/* numfmt_si() of v must be want, and its length the string's. */
static void
si_is(double v, int scale, int flags, int width, const char *want)
{
	char	 buf[NUMFMT_SI_MAX];
	size_t	 n;

	memset(buf, 'x', sizeof buf);
	n = numfmt_si(buf, v, scale, flags, width);
	if (strcmp(buf, want) != 0)
		fail_msg("%.17g in scale %d width %d: \"%s\", not \"%s\"", v,
		    scale, width, buf, want);
	assert_int_equal(n, strlen(want));
}

static void
test_own_prefix(void **state)
{
	(void)state;
	si_is(0, -1, 0, 0, "0");
	si_is(42, -1, 0, 0, "42");
	si_is(42.5, -1, 0, 0, "42.5");
	si_is(9.876, -1, 0, 0, "9.88");
	si_is(123.4, -1, 0, 0, "123");
	si_is(2703.168, -1, 0, 0, "2703");
	si_is(9999, -1, 0, 0, "9999");
	/* The limit: 9999.4 keeps its digits, 9999.5 takes the prefix. */
	si_is(9999.4, -1, 0, 0, "9999");
	si_is(9999.5, -1, 0, 0, "10.00k");
	si_is(12345, -1, 0, 0, "12.3k");
	si_is(1815.3e6, -1, 0, 0, "1815M");
	si_is(2.9e9, -1, 0, 0, "2900M");
	si_is(-1234567, -1, 0, 0, "-1235k");
	si_is(-1.5, -1, 0, 0, "-1.50");
	si_is(0.5, -1, 0, 0, "0.50");
	/* Small: the exponent, not "0.00". */
	si_is(0.005, -1, 0, 0, "5.00e-03");
	si_is(-0.0001234, -1, 0, 0, "-1.23e-04");
	/* Huge: E, then past it the exponent. */
	si_is(1.5e19, -1, 0, 0, "15.0E");
	si_is(9.9e21, -1, 0, 0, "9900E");
	si_is(1e300, -1, 0, 0, "1.00e+300");
	si_is(-2.5e22, -1, 0, 0, "-2.50e+22");
}

static void
test_column_prefix(void **state)
{
	(void)state;
	si_is(1815.3e6, 3, 0, 0, "1.82G");
	si_is(1815.3e6, 3, NUMFMT_SI_BARE, 0, "1.82");
	si_is(1815.3e6, 2, 0, 0, "1815M");
	si_is(1e9, 2, 0, 0, "1000M");
	si_is(975.17e6, 3, 0, 0, "0.98G");
	si_is(0, 3, 0, 0, "0.00G");
	si_is(-4.2e3, 1, 0, 0, "-4.20k");
	/* No prefix: whole numbers bare, small ones as an exponent. */
	si_is(42, 0, 0, 0, "42");
	si_is(42.25, 0, 0, 0, "42.2");
	si_is(0.5, 0, NUMFMT_SI_BARE, 0, "0.50");
	si_is(0.001, 0, 0, 0, "1.00e-03");
	/* Past the last prefix the last one. */
	si_is(2e21, 9, 0, 0, "2000E");
	/* More digits than a buffer holds: the exponent in the prefix. */
	si_is(1e40, 1, NUMFMT_SI_BARE, 0, "1.00e+37");
	si_is(1e40, 1, 0, 0, "1.00e+40");
	si_is(1e40, 1, 0, 8, "+");
}

static void
test_not_numbers(void **state)
{
	(void)state;
	si_is(NAN, -1, 0, 0, "nan");
	si_is(INFINITY, -1, 0, 0, "inf");
	si_is(-INFINITY, -1, 0, 0, "-inf");
	si_is(NAN, 3, 0, 0, "nan");
	si_is(INFINITY, 2, 0, 0, "inf");
	si_is(-INFINITY, 0, NUMFMT_SI_BARE, 0, "-inf");
	/* Where they do not fit: the marker, not a part of the word. */
	si_is(NAN, -1, 0, 2, NUMFMT_SI_WIDE);
	si_is(-INFINITY, 3, 0, 3, NUMFMT_SI_WIDE);
	si_is(NAN, -1, 0, 3, "nan");
}

static void
test_width(void **state)
{
	(void)state;
	/* What fits is as without a width. */
	si_is(1815.3e6, -1, 0, 5, "1815M");
	si_is(1815.3e6, -1, 0, 8, "1815M");
	/* Fewer decimals first, then the next prefix, rounded. */
	si_is(1815.3e6, -1, 0, 4, "1.8G");
	si_is(93.456, -1, 0, 4, "93.5");
	si_is(93.456, -1, 0, 3, "93");
	si_is(12345, -1, 0, 4, "12k");
	si_is(2.9e9, -1, 0, 3, "3G");
	si_is(-1.5, -1, 0, 4, "-1.5");
	si_is(9999, -1, 0, 3, "10k");
	si_is(0, -1, 0, 1, "0");
	/* The exponent with fewer decimals, then the marker. */
	si_is(1e30, -1, 0, 8, "1.00e+30");
	si_is(1e30, -1, 0, 7, "1.0e+30");
	si_is(1e30, -1, 0, 5, "1e+30");
	si_is(1e30, -1, 0, 4, NUMFMT_SI_WIDE);
	si_is(0.005, -1, 0, 5, "5e-03");
	si_is(0.005, -1, 0, 4, NUMFMT_SI_WIDE);
	/* A column's prefix is kept: the marker when it does not fit. */
	si_is(123456e6, 2, 0, 7, "123456M");
	si_is(123456e6, 2, 0, 6, NUMFMT_SI_WIDE);
	si_is(9.876e9, 3, 0, 4, "9.9G");
	si_is(9.876e9, 3, 0, 3, "10G");
	si_is(9.876e9, 3, 0, 2, NUMFMT_SI_WIDE);
	si_is(9.876e9, 3, NUMFMT_SI_BARE, 2, "10");
	/* Unless it may grow: a larger prefix where the value reads 1 or
	 * more, else the marker. */
	si_is(123456e6, 2, NUMFMT_SI_GROW, 6, "123G");
	si_is(123456e6, 2, NUMFMT_SI_GROW, 3, NUMFMT_SI_WIDE);
	si_is(177.3e6, 2, NUMFMT_SI_GROW, 3, NUMFMT_SI_WIDE);
	si_is(999, -1, 0, 2, NUMFMT_SI_WIDE);
	/* Without its letter a larger prefix would read as the column's. */
	si_is(123456e6, 2, NUMFMT_SI_GROW | NUMFMT_SI_BARE, 5,
	    NUMFMT_SI_WIDE);
}

/*
 * The number buf spells, and half a unit of its last digit: false for
 * the marker.  "1.8G" is 1.8e9 give or take 0.05e9.
 */
static int
spelled(const char *buf, double *v, double *half)
{
	static const char	 pre[] = "kMGTPE";
	const char		*dot, *e, *p;
	char			*end;
	double			 unit = 1, scaled = 1;
	int			 dec = 0;

	if (strcmp(buf, NUMFMT_SI_WIDE) == 0)
		return (0);
	*v = strtod(buf, &end);
	assert_true(end != buf);
	if ((dot = strchr(buf, '.')) != NULL)
		for (p = dot + 1; *p >= '0' && *p <= '9'; p++)
			dec++;
	if ((e = strchr(buf, 'e')) != NULL)
		unit = pow(10, atoi(e + 1));
	else if (*end != '\0') {
		p = strchr(pre, *end);
		assert_non_null(p);
		assert_true(end[1] == '\0');
		unit = scaled = pow(1000, (double)(p - pre + 1));
	}
	*v *= scaled;
	*half = 0.5 * pow(10, -dec) * unit;
	return (1);
}

static void
test_width_never_wrong(void **state)
{
	static const double	 base[] = { 0, 1, 9.87654, 99.95, 999.5,
	    1000, 9999.5, 12345.678, 1815.3e6, 2.9e9, 987654321, 5.5e17,
	    1.23e21, 7.5e25, 0.0123, 0.00456 };
	char			 buf[NUMFMT_SI_MAX];
	double			 v, got, half;
	size_t			 i, n;
	int			 w, sign, scale, shown;

	(void)state;
	for (i = 0; i < sizeof base / sizeof base[0]; i++)
		for (sign = 1; sign >= -1; sign -= 2)
			for (w = 4; w <= 8; w++) {
				v = sign * base[i];
				scale = -1;
				n = numfmt_si(buf, v, scale, 0, w);
				assert_true(n <= (size_t)w);
				assert_int_equal(n, strlen(buf));
				shown = spelled(buf, &got, &half);
				if (!shown)
					continue;
				if (fabs(got - v) > half * (1 + 1e-9))
					fail_msg("%.17g in %d: \"%s\"", v, w,
					    buf);
			}
	/* In the own prefix from width 6 on nothing is the marker below
	 * the exponent's range. */
	for (i = 0; i < sizeof base / sizeof base[0]; i++) {
		if (base[i] >= 1e22 || (base[i] != 0 && base[i] < 0.01))
			continue;
		numfmt_si(buf, -base[i], -1, 0, 6);
		assert_string_not_equal(buf, NUMFMT_SI_WIDE);
	}
}

static void
test_scale(void **state)
{
	(void)state;
	/* A fresh prefix leaves room: 999.5 is already "1.00k". */
	assert_int_equal(numfmt_si_scale(999.4, NUMFMT_SI_ROOM,
	    NUMFMT_SI_TOP), 0);
	assert_int_equal(numfmt_si_scale(999.5, NUMFMT_SI_ROOM,
	    NUMFMT_SI_TOP), 1);
	assert_int_equal(numfmt_si_scale(-999.5, NUMFMT_SI_ROOM,
	    NUMFMT_SI_TOP), 1);
	assert_int_equal(numfmt_si_scale(9999.4, NUMFMT_SI_LIMIT,
	    NUMFMT_SI_TOP), 0);
	assert_int_equal(numfmt_si_scale(9999.5, NUMFMT_SI_LIMIT,
	    NUMFMT_SI_TOP), 1);
	assert_int_equal(numfmt_si_scale(1815.3e6, NUMFMT_SI_ROOM,
	    NUMFMT_SI_TOP), 3);
	assert_int_equal(numfmt_si_scale(1815.3e6, NUMFMT_SI_LIMIT,
	    NUMFMT_SI_TOP), 2);
	/* Capped: at the last prefix, or at a unit's own. */
	assert_int_equal(numfmt_si_scale(1e300, NUMFMT_SI_LIMIT,
	    NUMFMT_SI_TOP), NUMFMT_SI_TOP);
	assert_int_equal(numfmt_si_scale(1e12, NUMFMT_SI_LIMIT, 2), 2);
	assert_int_equal(numfmt_si_scale(1e12, NUMFMT_SI_LIMIT, 0), 0);
	/* Nothing to scale. */
	assert_int_equal(numfmt_si_scale(0, NUMFMT_SI_ROOM, NUMFMT_SI_TOP),
	    0);
	assert_int_equal(numfmt_si_scale(NAN, NUMFMT_SI_ROOM,
	    NUMFMT_SI_TOP), 0);
	assert_int_equal(numfmt_si_scale(INFINITY, NUMFMT_SI_ROOM,
	    NUMFMT_SI_TOP), 0);
	/* The prefix it gives reads the largest value in at most five
	 * characters and its letter. */
	si_is(999.5, numfmt_si_scale(999.5, NUMFMT_SI_ROOM, NUMFMT_SI_TOP),
	    0, 0, "1.00k");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_own_prefix),
		cmocka_unit_test(test_column_prefix),
		cmocka_unit_test(test_not_numbers),
		cmocka_unit_test(test_width),
		cmocka_unit_test(test_width_never_wrong),
		cmocka_unit_test(test_scale),
	};

	return (cmocka_run_group_tests_name("numfmt-si", tests, NULL, NULL));
}
