/*
 * What starts every CSV row is laid out without printf: the time by
 * strbuf_addtime(), the sequence and the index by numfmt_u64(), which
 * strbuf_addu64() also uses for the served counters.  Each must print
 * byte for byte what the printf formats they replace print.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "util/numfmt.h"
#include "util/strbuf.h"

static uint64_t
next(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return (*x);
}

/* The time as the printf formats print it. */
static void
reference(char *buf, size_t len, uint64_t ns, int ms)
{
	time_t		 t = (time_t)(ns / 1000000000ULL);
	struct tm	 tm;
	int		 n;

	assert_non_null(gmtime_r(&t, &tm));
	n = snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d",
	    tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
	    tm.tm_min, tm.tm_sec);
	if (ms)
		n += snprintf(buf + n, len - (size_t)n, ".%03u",
		    (unsigned)(ns % 1000000000ULL / 1000000ULL));
	snprintf(buf + n, len - (size_t)n, "Z");
}

static void
test_addtime(void **state)
{
	static const uint64_t	 fixed[] = { 0, 999999999, 1000000000,
	    951782400ULL * 1000000000ULL + 123456789,	/* 2000-02-29 */
	    4102444799ULL * 1000000000ULL + 999000000,	/* 2099-12-31 */
	    UINT64_MAX,					/* 2554-07-21 */
	};
	struct strbuf	 sb = { 0 };
	char		 want[64];
	uint64_t	 x = 88172645463325252ULL, ns;
	size_t		 i;
	int		 ms;

	(void)state;
	for (i = 0; i < 20000 + sizeof fixed / sizeof fixed[0]; i++) {
		if (i < sizeof fixed / sizeof fixed[0])
			ns = fixed[i];
		else	/* Up to the year 2500 or so. */
			ns = next(&x) % (16725225600ULL * 1000000000ULL);
		for (ms = 0; ms < 2; ms++) {
			strbuf_reset(&sb);
			strbuf_adds(&sb, "<");
			strbuf_addtime(&sb, ns, ms);
			reference(want, sizeof want, ns, ms);
			assert_int_equal(sb.s[0], '<');
			assert_string_equal(sb.s + 1, want);
			assert_int_equal(sb.len, strlen(sb.s));
		}
	}
	/* The last time a uint64_t holds, as Python's datetime has it. */
	strbuf_reset(&sb);
	strbuf_addtime(&sb, UINT64_MAX, 0);
	assert_string_equal(sb.s, "2554-07-21T23:34:33Z");
	strbuf_reset(&sb);
	strbuf_addtime(&sb, UINT64_MAX, 1);
	assert_string_equal(sb.s, "2554-07-21T23:34:33.709Z");
	strbuf_free(&sb);
}

static void
test_u64(void **state)
{
	struct strbuf	 sb = { 0 };
	char		 got[NUMFMT_G_MAX], want[32];
	uint64_t	 x = 0x9e3779b97f4a7c15ULL, v;
	size_t		 i;

	(void)state;
	for (i = 0; i < 100000; i++) {
		v = next(&x) >> (i % 64);
		if (i < 12)
			v = i < 11 ? i : UINT64_MAX;
		snprintf(want, sizeof want, "%llu", (unsigned long long)v);
		assert_int_equal(numfmt_u64(got, v), strlen(want));
		assert_string_equal(got, want);
		strbuf_reset(&sb);
		strbuf_adds(&sb, "<");
		strbuf_addu64(&sb, v);
		assert_string_equal(sb.s + 1, want);
		assert_int_equal(sb.len, strlen(want) + 1);
	}
	strbuf_free(&sb);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_addtime),
		cmocka_unit_test(test_u64),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
