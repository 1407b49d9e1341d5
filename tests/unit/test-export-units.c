/*
 * Unit tests for the units of src/export's text: the columns of one unit
 * family in a table share one prefix (6020 MB/s beside 9.29 GB/s reads
 * 6.02 GB/s), a column that would read below 1 under it keeps its own,
 * and one value is written with its unit ("6.02 GB/s").
 */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "export/export.h"
#include "util/strbuf.h"

#define NCOL	7

static void
test_family(void **state)
{
	static const char *const unit[NCOL] = { "MB/s", "MB/s", "MB/s", "/s",
	    "/s", "%", "GHz" };
	/* RD, WR, total bandwidth; two event rates; a share; a clock. */
	static const double max[NCOL] = { 8961, 4475, 13436, 94300, 15.6e6,
	    120000, 1.95 };
	static const char *const want[NCOL] = { "GB/s", "GB/s", "GB/s",
	    "k/s", "M/s", "%", "GHz" };
	static const int want_scale[NCOL] = { 1, 1, 1, 1, 2, -1, 0 };
	char	 out[NCOL][EXPORT_UNIT_MAX];
	int	 scale[NCOL], i;

	(void)state;
	export_unit_scales(NCOL, unit, max, scale, out);
	for (i = 0; i < NCOL; i++) {
		assert_string_equal(out[i], want[i]);
		assert_int_equal(scale[i], want_scale[i]);
	}
}

static void
test_family_mixed(void **state)
{
	/* GB/s and B/s are one family; an empty column joins it. */
	static const char *const unit[4] = { "B/s", "GB/s", "MB/s", "MB/s" };
	static const double max[4] = { 2.5e9, 1.5, 0, 12 };
	char	 out[4][EXPORT_UNIT_MAX];
	int	 scale[4];

	(void)state;
	export_unit_scales(4, unit, max, scale, out);
	assert_string_equal(out[0], "GB/s");
	assert_int_equal(scale[0], 3);
	assert_string_equal(out[1], "GB/s");
	assert_int_equal(scale[1], 0);
	assert_string_equal(out[2], "GB/s");
	assert_int_equal(scale[2], 1);
	/* 12 MB/s would read 0.01 GB/s: its own prefix. */
	assert_string_equal(out[3], "MB/s");
	assert_int_equal(scale[3], 0);
}

/*
 * Units parsed once serve interval after interval: the family's prefix
 * follows its largest column each time, and two families of one table
 * (B/s and Hz) apart, whatever columns lie between them.
 */
static void
test_units_reused(void **state)
{
	static const char *const unit[5] = { "MB/s", "MHz", "cycles",
	    "GB/s", "GHz" };
	static const double max[2][5] = {
		{ 8961, 1950, 12345, 1.5, 0 },
		{ 12, 800, 0, 0.0004, 2.1 },
	};
	static const char *const want[2][5] = {
		{ "GB/s", "GHz", "cycles", "GB/s", "GHz" },
		{ "MB/s", "MHz", "cycles", "GB/s", "GHz" },
	};
	static const int want_scale[2][5] = {
		{ 1, 1, -1, 0, 0 },
		{ 0, 0, -1, 0, 0 },
	};
	struct export_units	*u;
	char			 out[5][EXPORT_UNIT_MAX];
	char			 one[5][EXPORT_UNIT_MAX];
	int			 scale[5], sone[5], i, k;

	(void)state;
	u = export_units_new(5, unit);
	for (k = 0; k < 2; k++) {
		export_units_scale(u, max[k], scale, out);
		export_unit_scales(5, unit, max[k], sone, one);
		for (i = 0; i < 5; i++) {
			assert_string_equal(out[i], want[k][i]);
			assert_int_equal(scale[i], want_scale[k][i]);
			assert_string_equal(one[i], out[i]);
			assert_int_equal(sone[i], scale[i]);
		}
	}
	export_units_free(u);
	export_units_free(NULL);
}

static void
value_is(double v, const char *unit, const char *want)
{
	struct strbuf	 sb = { 0 };

	export_value_unit(v, unit, " ", &sb);
	assert_string_equal(sb.s, want);
	strbuf_free(&sb);
}

static void
test_value_unit(void **state)
{
	(void)state;
	value_is(6020, "MB/s", "6.02 GB/s");
	value_is(13436.5, "MB/s", "13.4 GB/s");
	value_is(452, "MB/s", "452 MB/s");
	value_is(7812500, "/s", "7.81 M/s");
	value_is(1.95, "GHz", "1.95 GHz");
	value_is(45.25, "%", "45.2 %");
	value_is(12345, "cycles", "12.3k cycles");
	value_is(3, "", "3");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_family),
		cmocka_unit_test(test_family_mixed),
		cmocka_unit_test(test_units_reused),
		cmocka_unit_test(test_value_unit),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
