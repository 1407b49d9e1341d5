/*
 * Unit tests for src/util/procfs.c: the process files' numbers as the
 * kernel writes them, a command name with spaces and parentheses, and
 * every refusal with its reason, none read past the length given.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/procfs.h"

static const char stat_line[] = "18814 (cat) R 18790 18790 31469 0 -1 "
    "4194304 101 0 0 0 0 0 0 0 20 0 1 0 4045351 3133440 366 "
    "18446744073709551615 94824374554624 0 0\n";

static void
test_stat_start(void **state)
{
	static const char odd[] = "7 (a) (b c)) S 1 1 1 0 -1 0 0 0 0 0 0 0 "
	    "0 0 20 0 1 0 18446744073709551615 0\n";
	uint64_t	 v = 0;
	char		*cause = NULL;

	(void)state;
	assert_int_equal(procfs_stat_start(stat_line, strlen(stat_line), &v,
	    &cause), 0);
	assert_int_equal(v, 4045351);
	assert_null(cause);
	/* The last ')' ends the name; the largest number fits. */
	assert_int_equal(procfs_stat_start(odd, strlen(odd), &v, &cause), 0);
	assert_true(v == UINT64_MAX);
}

/* Refusals: what and where, and the length is the end. */
static void
test_refused(void **state)
{
	static const struct {
		const char	*text;
		const char	*why;
	} bad[] = {
		{ "1 cat R 1", "no \"(name) \"" },
		{ "1 (cat)R 1", "no \"(name) \"" },
		{ "1 (cat) R 1 2 3\n", "4 fields, not 20" },
		{ "1 (x) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 "
		  "18446744073709551616 0", "field 20 at byte" },
		{ "1 (x) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 12x 0",
		  "is not a number" },
		{ "1 (x) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0\n42 0",
		  "fields, not 20" },
	};
	char		*cause;
	uint64_t	 v;
	size_t		 i, n;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cause = NULL;
		assert_int_equal(procfs_stat_start(bad[i].text,
		    strlen(bad[i].text), &v, &cause), -1);
		assert_non_null(cause);
		if (strstr(cause, bad[i].why) == NULL)
			fail_msg("case %zu: %s", i, cause);
		free(cause);
	}
	/* Cut inside starttime: "40453" is not read as the number. */
	n = (size_t)(strstr(stat_line, "4045351") - stat_line) + 5;
	cause = NULL;
	assert_int_equal(procfs_stat_start(stat_line, n, &v, &cause), 0);
	assert_int_equal(v, 40453);
	free(cause);
	cause = NULL;
	assert_int_equal(procfs_stat_start(stat_line, n - 5, &v, &cause), -1);
	free(cause);
}

static void
test_btime_statm(void **state)
{
	static const char st[] = "cpu  1 2 3\nxbtime 5\nbtime 1796237491\n"
	    "processes 9\n";
	static const char statm[] = "765 409 382 5 0 123 0\n";
	uint64_t	 v = 0;
	char		*cause = NULL;

	(void)state;
	assert_int_equal(procfs_btime(st, strlen(st), &v, &cause), 0);
	assert_int_equal(v, 1796237491);
	assert_int_equal(procfs_btime(st, 16, &v, &cause), -1);
	assert_non_null(strstr(cause, "no btime line"));
	free(cause);
	cause = NULL;
	assert_int_equal(procfs_btime("btime x\n", 8, &v, &cause), -1);
	assert_non_null(strstr(cause, "byte 0 holds no number"));
	free(cause);
	cause = NULL;
	assert_int_equal(procfs_statm_resident(statm, strlen(statm), &v,
	    &cause), 0);
	assert_int_equal(v, 409);
	assert_int_equal(procfs_statm_resident(statm, 4, &v, &cause), -1);
	assert_non_null(strstr(cause, "resident pages"));
	free(cause);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stat_start),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_btime_statm),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
