/*
 * Unit tests for src/util/htab.c: hashing, values under one hash met in
 * the order they were added, growth, many keys, empty keys, tags.
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

#include "util/htab.h"
#include "util/xalloc.h"

/* The value of key in keys[] through t, or HTAB_NONE. */
static uint32_t
find(const struct htab *t, char *const *keys, const char *key)
{
	const struct htab_slot	*s;
	struct htab_probe	 p;

	htab_probe(t, htab_hash_str(key), HTAB_ALL, &p);
	while ((s = htab_next(&p)) != NULL) {
		assert_ptr_equal(s->key, keys[s->val]);
		if (strcmp(keys[s->val], key) == 0)
			return (s->val);
	}
	return (HTAB_NONE);
}

/* Add keys[i] as value i unless the key is there; returns the value. */
static uint32_t
add(struct htab *t, char *const *keys, uint32_t i)
{
	const struct htab_slot	*s;
	struct htab_probe	 p;

	htab_probe(t, htab_hash_str(keys[i]), HTAB_ALL, &p);
	while ((s = htab_next(&p)) != NULL)
		if (strcmp(s->key, keys[i]) == 0)
			return (s->val);
	htab_put(t, &p, keys[i], i);
	return (i);
}

/* The next value of probe p, or HTAB_NONE. */
static uint32_t
next(struct htab_probe *p)
{
	const struct htab_slot	*s;

	return ((s = htab_next(p)) != NULL ? s->val : HTAB_NONE);
}

static void
test_hash(void **state)
{
	(void)state;
	assert_int_equal(htab_hash_str("abc"), htab_hash("abc", 3));
	assert_int_equal(htab_hash_str(""), htab_hash("", 0));
	assert_int_equal(htab_hash_str(""), htab_hash_end(HTAB_HASH_INIT));
	assert_int_equal(htab_hash_add_str(htab_hash_add_str(HTAB_HASH_INIT,
	    "ab"), "c"), htab_hash_add(HTAB_HASH_INIT, "abc", 3));
	assert_int_not_equal(htab_hash_str("a"), htab_hash_str("b"));
	assert_int_not_equal(htab_hash_str(""), htab_hash_str("a"));
	/* Bytes past len do not count; NUL bytes within it do. */
	assert_int_equal(htab_hash("abX", 2), htab_hash("abY", 2));
	assert_int_not_equal(htab_hash("a\0", 2), htab_hash("a", 1));
}

static void
test_empty(void **state)
{
	struct htab		 t = { 0 };
	struct htab_probe	 p;
	char			 e[] = "", x[] = "x";
	char			*keys[] = { e, x };

	(void)state;
	htab_probe(&t, htab_hash_str("x"), HTAB_ALL, &p);
	assert_int_equal(next(&p), HTAB_NONE);
	assert_int_equal(find(&t, keys, ""), HTAB_NONE);
	/* The empty key is a key like any other. */
	assert_int_equal(add(&t, keys, 0), 0);
	assert_int_equal(add(&t, keys, 1), 1);
	assert_int_equal(add(&t, keys, 0), 0);
	assert_int_equal(find(&t, keys, ""), 0);
	assert_int_equal(find(&t, keys, "x"), 1);
	assert_int_equal(t.n, 2);
	htab_free(&t);
	assert_null(t.slot);
	htab_free(&t);
	htab_free(NULL);
}

/*
 * Every value under one hash: all are candidates, in the order they were
 * added, before and after the table grows.
 */
static void
test_collisions(void **state)
{
	struct htab		 t = { 0 };
	struct htab_probe	 p;
	uint32_t		 i, v, n = 100;

	(void)state;
	for (i = 0; i < n; i++) {
		htab_add(&t, 0x12345078U, NULL, i);
		/* Others around them, some starting in the same slot. */
		htab_add(&t, 0x12345000U | (i & 0xff), NULL, 1000 + i);
		htab_add(&t, i * 0x9e3779b9U, NULL, 2000 + i);
	}
	assert_int_equal(t.n, 3 * n);
	assert_true(t.mask + 1 >= 2 * t.n);
	htab_probe(&t, 0x12345078U, HTAB_ALL, &p);
	for (i = 0; i < n; i++)
		assert_int_equal(next(&p), i);
	assert_int_equal(next(&p), HTAB_NONE);
	/* With the tag masked out: the others of that start too, in order. */
	htab_probe(&t, 0x12345000U, ~HTAB_TAG, &p);
	i = 0;
	while ((v = next(&p)) != HTAB_NONE) {
		if (v < 1000) {
			assert_int_equal(v, i / 2);
		} else
			assert_int_equal(v, 1000 + i / 2);
		i++;
	}
	assert_int_equal(i, 2 * n);
	htab_free(&t);
}

/* A hash whose run of slots wraps past the end, then growth. */
static void
test_wrap(void **state)
{
	struct htab		 t = { 0 };
	struct htab_probe	 p;
	uint32_t		 h, i;

	(void)state;
	htab_init(&t, 8);
	assert_int_equal(t.mask + 1, 16);
	h = 15U << HTAB_TAG_BITS;		/* the last slot */
	for (i = 0; i < 8; i++)
		htab_add(&t, h, NULL, i);
	assert_int_equal(t.mask + 1, 16);
	for (i = 8; i < 40; i++)
		htab_add(&t, h, NULL, i);
	assert_true(t.mask + 1 > 16);
	htab_probe(&t, h, HTAB_ALL, &p);
	for (i = 0; i < 40; i++)
		assert_int_equal(next(&p), i);
	assert_int_equal(next(&p), HTAB_NONE);
	htab_free(&t);
}

/* Many keys, found after the table grew many times; absent ones not. */
static void
test_many(void **state)
{
	struct htab	 t = { 0 };
	char		**keys, buf[32];
	size_t		 cap;
	uint32_t	 i, n = 100000;

	(void)state;
	keys = xcalloc(n, sizeof *keys);
	for (i = 0; i < n; i++)
		keys[i] = xasprintf("event_%u", i);
	for (i = 0; i < n; i++)
		assert_int_equal(add(&t, keys, i), i);
	assert_int_equal(t.n, n);
	assert_true(t.mask + 1 >= 2 * t.n);
	for (i = 0; i < n; i++) {
		/* A second add finds the first. */
		assert_int_equal(add(&t, keys, i), i);
		assert_int_equal(find(&t, keys, keys[i]), i);
		snprintf(buf, sizeof buf, "event_%u", n + i);
		assert_int_equal(find(&t, keys, buf), HTAB_NONE);
	}
	assert_int_equal(t.n, n);
	/* Sized ahead: no growth. */
	htab_init(&t, n);
	cap = t.mask + 1;
	assert_int_equal(t.n, 0);
	assert_int_equal(find(&t, keys, keys[0]), HTAB_NONE);
	for (i = 0; i < n; i++)
		add(&t, keys, i);
	assert_int_equal(find(&t, keys, keys[n - 1]), n - 1);
	assert_int_equal(t.mask + 1, cap);
	htab_free(&t);
	for (i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
}

/* htab_init() and htab_reserve() for n: n values fit without growing. */
static void
test_init(void **state)
{
	struct htab	 t = { 0 };
	size_t		 cap, n;
	uint32_t	 i;

	(void)state;
	for (n = 0; n < 300; n += 7) {
		htab_init(&t, n);
		cap = t.mask + 1;
		for (i = 0; i < n; i++)
			htab_add(&t, i * 0x9e3779b9U, NULL, i);
		assert_int_equal(t.mask + 1, cap);
		/* Room for n more: no growth, and what is there stays. */
		htab_reserve(&t, n);
		cap = t.mask + 1;
		for (i = 0; i < n; i++)
			htab_add(&t, i * 0x9e3779b9U, NULL, n + i);
		assert_int_equal(t.mask + 1, cap);
		assert_int_equal(t.n, 2 * n);
	}
	htab_free(&t);
	/* From nothing. */
	htab_reserve(&t, 100);
	cap = t.mask + 1;
	assert_true(cap >= 200);
	for (i = 0; i < 100; i++)
		htab_add(&t, i, NULL, i);
	assert_int_equal(t.mask + 1, cap);
	htab_free(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hash),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_collisions),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_many),
		cmocka_unit_test(test_init),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
