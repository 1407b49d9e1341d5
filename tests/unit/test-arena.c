/*
 * Unit tests for src/util/arena.c: alignment, strings, allocations too
 * large for a block, many small ones, and reuse after arena_free().
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

#include "util/arena.h"

static void
test_alloc(void **state)
{
	struct arena	 a = { 0 };
	char		*p, *s;
	double		*d;
	size_t		 i;

	(void)state;
	/* A string first, so that the next allocation needs padding. */
	s = arena_strdup(&a, "abc");
	assert_string_equal(s, "abc");
	for (i = 1; i < 100; i++) {
		p = arena_alloc(&a, i);
		assert_int_equal((uintptr_t)p % _Alignof(max_align_t), 0);
		memset(p, 0xa5, i);
	}
	d = arena_calloc(&a, 10, sizeof *d);
	for (i = 0; i < 10; i++)
		assert_true(d[i] == 0);
	assert_string_equal(arena_strndup(&a, "abcdef", 3), "abc");
	assert_string_equal(arena_strndup(&a, "ab", 10), "ab");
	assert_string_equal(s, "abc");
	arena_free(&a);
	assert_null(a.blocks);
	arena_free(&a);		/* twice is fine */
}

/* Larger than a block, and many blocks' worth of small ones. */
static void
test_sizes(void **state)
{
	struct arena	 a = { 0 };
	char		*big, *small[20000];
	size_t		 i;

	(void)state;
	big = arena_alloc(&a, 3 << 20);
	memset(big, 1, 3 << 20);
	for (i = 0; i < 20000; i++) {
		small[i] = arena_alloc(&a, 200);
		memset(small[i], (int)(i & 0xff), 200);
	}
	/* Nothing overlaps: every allocation kept its bytes. */
	for (i = 0; i < 20000; i++) {
		assert_int_equal((unsigned char)small[i][0], i & 0xff);
		assert_int_equal((unsigned char)small[i][199], i & 0xff);
	}
	assert_int_equal(big[0], 1);
	assert_int_equal(big[(3 << 20) - 1], 1);
	arena_free(&a);

	/* A large first allocation leaves no room behind it. */
	big = arena_zalloc(&a, 1 << 20);
	assert_int_equal(big[(1 << 20) - 1], 0);
	small[0] = arena_strdup(&a, "after");
	assert_true(small[0] < big || small[0] >= big + (1 << 20));
	assert_string_equal(small[0], "after");
	arena_free(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_alloc),
		cmocka_unit_test(test_sizes),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
