/*
 * The ring's arithmetic: names that sort by time and parse back, what
 * goes to stay within a budget, sizes and times as written, and the
 * segments a window needs.  Golden values are computed by hand.
 */
#include "config.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "record/record-ring.h"
#include "util/hverr.h"

#define NS	1000000000ULL
/* 2026-12-02T03:12:00Z */
#define T0	(1796181120ULL * NS)

static void
test_names(void **state)
{
	char		 buf[RECORD_RING_NAME_MAX];
	uint64_t	 t, seq;

	(void)state;
	record_ring_name(buf, sizeof buf, T0 + 123456789, 123);
	assert_string_equal(buf, "hvtop-20261202T031200Z-000123.hvrec");
	assert_int_equal(record_ring_parse(buf, &t, &seq), 1);
	assert_true(t == T0);
	assert_int_equal(seq, 123);
	record_ring_name(buf, sizeof buf, 0, 0);
	assert_string_equal(buf, "hvtop-19700101T000000Z-000000.hvrec");
	record_ring_name(buf, sizeof buf, 951782400ULL * NS, 7);
	assert_string_equal(buf, "hvtop-20000229T000000Z-000007.hvrec");
	assert_int_equal(record_ring_parse(
	    "hvtop-20261202T031200Z-000123.hvrec.Ab12xZ", &t, &seq), 2);
	assert_int_equal(record_ring_parse(
	    "hvtop-20261202T031200Z-000123.hvrec.Ab12x", &t, &seq), 0);
	assert_int_equal(record_ring_parse(
	    "hvtop-20261302T031200Z-000123.hvrec", &t, &seq), 0);
	assert_int_equal(record_ring_parse("hvtop-2026", &t, &seq), 0);
	assert_int_equal(record_ring_parse(
	    "hvtop-20260229T031200Z-000123.hvrec", &t, &seq), 0);
	assert_int_equal(record_ring_parse("notes.txt", &t, &seq), 0);
	assert_int_equal(record_ring_parse(
	    "hvtop-20261202T031200Z-000123.hvr", &t, &seq), 0);
}

static void
test_sort_excess(void **state)
{
	struct record_ring_seg	 v[4];

	(void)state;
	memset(v, 0, sizeof v);
	v[0].wall_ns = 30; v[0].bytes = 100;
	v[1].wall_ns = 10; v[1].seq = 2; v[1].bytes = 200;
	v[2].wall_ns = 10; v[2].seq = 1; v[2].bytes = 300;
	v[3].wall_ns = 20; v[3].bytes = 400;
	record_ring_sort(v, 4);
	assert_int_equal(v[0].bytes, 300);
	assert_int_equal(v[1].bytes, 200);
	assert_int_equal(v[2].bytes, 400);
	assert_int_equal(v[3].bytes, 100);
	assert_int_equal(record_ring_excess(v, 4, 1000, 0), 0);
	assert_int_equal(record_ring_excess(v, 4, 1000, 1), 1);
	assert_int_equal(record_ring_excess(v, 4, 1000, 301), 2);
	assert_int_equal(record_ring_excess(v, 4, 100, 0), 3);
	assert_int_equal(record_ring_excess(v, 4, 10, 0), 4);
	assert_int_equal(record_ring_excess(v, 0, 10, 100), 0);
	assert_int_equal(record_ring_segment_max(1 << 30), 128 << 20);
}

static void
test_sizes(void **state)
{
	static const struct { const char *s; uint64_t v; } good[] = {
		{ "0", 0 }, { "4096", 4096 }, { "64K", 65536 },
		{ "1M", 1048576 }, { "1G", 1073741824 },
		{ "2GiB", 2147483648ULL }, { "3gb", 3221225472ULL },
		{ "1T", 1099511627776ULL }, { "100B", 100 },
	};
	static const char *const bad[] = {
		"", "G", "1X", "1GG", "-1M", "1.5G", " 1G", "1Gx",
	};
	uint64_t	 v;
	char		*cause;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof good / sizeof good[0]; i++) {
		assert_int_equal(record_ring_size_parse(good[i].s, &v, &cause),
		    0);
		assert_true(v == good[i].v);
	}
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cause = NULL;
		assert_int_equal(record_ring_size_parse(bad[i], &v, &cause),
		    -HV_EFORMAT);
		assert_non_null(strstr(cause, "not a size"));
		free(cause);
	}
	assert_int_equal(record_ring_size_parse("99999999999T", &v, &cause),
	    -HV_ERANGE);
	free(cause);
}

static void
test_times(void **state)
{
	static const struct { const char *s; uint64_t v; } good[] = {
		{ "2026-12-02T03:12:00Z", T0 },
		{ "2026-12-02T03:12:00", T0 },
		{ "2026-12-02 03:12", T0 },
		{ "2026-12-02T03:12Z", T0 },
		{ "2026-12-02", T0 - (3 * 3600 + 12 * 60) * NS },
		{ "now", T0 + 3600 * NS },
		{ "-1h", T0 },
		{ "-30m", T0 + 1800 * NS },
		{ "-90s", T0 + 3510 * NS },
		{ "-1d", T0 + 3600 * NS - 86400 * NS },
	};
	static const char *const bad[] = {
		"", "yesterday", "2026-13-02", "2026-12-02T25:00",
		"2026-12-02T03", "-1", "-1w", "-h", "2026-12-02T03:12:00+01",
		"1969-12-31", "2026-02-29", "2026-12-02T03:12:60", "2501-01-01",
	};
	uint64_t	 v;
	char		*cause;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof good / sizeof good[0]; i++) {
		assert_int_equal(record_ring_time_parse(good[i].s,
		    T0 + 3600 * NS, &v, &cause), 0);
		assert_true(v == good[i].v);
	}
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cause = NULL;
		assert_int_equal(record_ring_time_parse(bad[i], T0, &v,
		    &cause), -HV_EFORMAT);
		assert_non_null(strstr(cause, "not a time"));
		free(cause);
	}
}

static void
test_window(void **state)
{
	struct record_ring_seg	 v[3];
	size_t			 a, b;

	(void)state;
	memset(v, 0, sizeof v);
	v[0].wall_ns = 100 * NS;
	v[1].wall_ns = 200 * NS;
	v[2].wall_ns = 300 * NS;
	assert_int_equal(record_ring_window(v, 3, 400 * NS, 0, 1000 * NS, &a,
	    &b), 3);
	assert_int_equal(a, 0);
	assert_int_equal(record_ring_window(v, 3, 400 * NS, 250 * NS,
	    260 * NS, &a, &b), 1);
	assert_int_equal(a, 1);
	assert_int_equal(b, 2);
	assert_int_equal(record_ring_window(v, 3, 400 * NS, 150 * NS,
	    350 * NS, &a, &b), 3);
	assert_int_equal(record_ring_window(v, 3, 400 * NS, 500 * NS,
	    600 * NS, &a, &b), 0);
	assert_int_equal(record_ring_window(v, 3, 400 * NS, 0, 50 * NS, &a,
	    &b), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_sort_excess),
		cmocka_unit_test(test_sizes),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_window),
	};

	return (cmocka_run_group_tests_name("record-ring", tests, NULL,
	    NULL));
}
