/*
 * Unit tests for src/util: big-endian access, strings, error names.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/be.h"
#include "util/hverr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static void
test_be_roundtrip(void **state)
{
	uint8_t	 b[8];

	(void)state;
	be16_put(b, 0x1234);
	assert_int_equal(b[0], 0x12);
	assert_int_equal(b[1], 0x34);
	assert_int_equal(be16_get(b), 0x1234);
	be32_put(b, 0x32347837);
	assert_memory_equal(b, "24x7", 4);
	assert_int_equal(be32_get(b), 0x32347837);
	be64_put(b, 0x0000009800010002ULL);
	assert_int_equal(b[3], 0x98);
	assert_int_equal(b[7], 0x02);
	assert_true(be64_get(b) == 0x0000009800010002ULL);
}

static void
test_be_fits(void **state)
{
	(void)state;
	assert_true(be_fits(16, 0, 16));
	assert_true(be_fits(16, 16, 0));
	assert_false(be_fits(16, 15, 2));
	assert_false(be_fits(16, 17, 0));
	/* No wrap-around on huge lengths. */
	assert_false(be_fits(16, 8, SIZE_MAX));
}

static void
test_strbuf(void **state)
{
	struct strbuf	 sb = { 0 };
	char		*s;

	(void)state;
	strbuf_adds(&sb, "offset ");
	strbuf_addf(&sb, "0x%x", 0x2000);
	strbuf_addc(&sb, '!');
	assert_string_equal(sb.s, "offset 0x2000!");
	assert_int_equal(sb.len, 14);
	strbuf_reset(&sb);
	assert_string_equal(sb.s, "");
	for (int i = 0; i < 1000; i++)
		strbuf_addc(&sb, 'x');
	assert_int_equal(strlen(sb.s), 1000);
	s = strbuf_detach(&sb);
	assert_null(sb.s);
	free(s);
	s = strbuf_detach(&sb);
	assert_string_equal(s, "");
	free(s);
	/* 2024-02-29T23:59:59.999Z, with and without milliseconds. */
	strbuf_addtime(&sb, 1709251199999000000ULL, 1);
	strbuf_adds(&sb, " ");
	strbuf_addtime(&sb, 1709251199999000000ULL, 0);
	assert_string_equal(sb.s, "2024-02-29T23:59:59.999Z "
	    "2024-02-29T23:59:59Z");
	strbuf_free(&sb);
}

static void
test_xstrndup(void **state)
{
	char	*s;

	(void)state;
	s = xstrndup("abc\0def", 7);
	assert_string_equal(s, "abc");
	free(s);
	s = xstrndup("abcdef", 2);
	assert_string_equal(s, "ab");
	free(s);
	s = xasprintf("%s=%d", "chip", 3);
	assert_string_equal(s, "chip=3");
	free(s);
}

static void
test_hv_strerror(void **state)
{
	(void)state;
	assert_string_equal(hv_strerror(-HV_ETRUNC), "truncated input");
	assert_string_equal(hv_strerror(HV_EFORMAT), "malformed input");
	assert_null(hv_strerror(-2));
	for (int e = HV_EBASE + 1; e <= HV_ELAST; e++)
		assert_non_null(hv_strerror(-e));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_be_roundtrip),
		cmocka_unit_test(test_be_fits),
		cmocka_unit_test(test_strbuf),
		cmocka_unit_test(test_xstrndup),
		cmocka_unit_test(test_hv_strerror),
	};

	return (cmocka_run_group_tests_name("util", tests, NULL, NULL));
}
