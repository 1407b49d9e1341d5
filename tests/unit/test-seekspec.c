/*
 * Unit tests for the replay's "go to" text (src/util/seekspec.c): sample
 * numbers, offsets, times of day, dates, and errors with their columns.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/hverr.h"
#include "util/seekspec.h"

#define NS	1000000000ULL
/* 2026-01-01T10:00:00.250Z, as ns since 1970. */
#define FIRST	((1767225600ULL + 10 * 3600) * NS + 250000000ULL)

static uint64_t
ok(const char *s, int kind)
{
	struct seekspec	 w;
	char		*cause = NULL;

	assert_int_equal(seekspec_parse(s, FIRST, &w, &cause), 0);
	assert_null(cause);
	assert_int_equal(w.kind, kind);
	return (w.value);
}

static void
bad(const char *s, const char *column)
{
	struct seekspec	 w;
	char		*cause = NULL;

	assert_int_equal(seekspec_parse(s, FIRST, &w, &cause), -HV_EFORMAT);
	assert_non_null(cause);
	if (strncmp(cause, column, strlen(column)) != 0)
		fail_msg("'%s': got '%s', expected it to start '%s'", s, cause,
		    column);
	free(cause);
}

static void
test_samples_offsets(void **state)
{
	(void)state;
	assert_int_equal(ok("120", SEEKSPEC_SAMPLE), 120);
	assert_int_equal(ok("  7 ", SEEKSPEC_SAMPLE), 7);
	assert_int_equal(ok("0", SEEKSPEC_SAMPLE), 0);
	assert_int_equal(ok("+90", SEEKSPEC_WALL), FIRST + 90 * NS);
	assert_int_equal(ok("+1.5", SEEKSPEC_WALL), FIRST + 1500000000ULL);
	assert_int_equal(ok("+0.0000000019", SEEKSPEC_WALL), FIRST + 1);
}

static void
test_times(void **state)
{
	uint64_t	 day = 1767225600ULL * NS;

	(void)state;
	assert_int_equal(ok("10:32", SEEKSPEC_WALL),
	    day + (10 * 3600 + 32 * 60) * NS);
	assert_int_equal(ok("00:00:05", SEEKSPEC_WALL), day + 5 * NS);
	assert_int_equal(ok("2026-01-01T00:00:30Z", SEEKSPEC_WALL),
	    day + 30 * NS);
	assert_int_equal(ok("2024-02-29 23:59:59", SEEKSPEC_WALL),
	    (1709251199ULL) * NS);
	assert_int_equal(ok("1970-01-01T00:00", SEEKSPEC_WALL), 0);
}

static void
test_errors(void **state)
{
	(void)state;
	bad("", "column 1:");
	bad("abc", "column 1:");
	bad("+", "column 2:");
	bad("+x", "column 2:");
	bad("24:00", "column 1:");
	bad("10:60", "column 4:");
	bad("10:32x", "column 6:");
	bad("10:32:61", "column 7:");
	bad("2026-13-01T00:00", "column 6:");
	bad("2026-02-30T00:00", "column 9:");
	bad("2026-02-29T00:00", "column 9:");
	bad("2026-01-01X00:00", "column 11:");
	bad("2026-01-01T0:00", "column 12:");
	bad("1969-12-31T00:00", "column 1:");
	bad("12 3", "column 4:");
	bad("1234567890123456789", "column 1:");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_samples_offsets),
		cmocka_unit_test(test_times),
		cmocka_unit_test(test_errors),
	};

	return (cmocka_run_group_tests_name("seekspec", tests, NULL, NULL));
}
