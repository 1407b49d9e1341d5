/*
 * The hash index of htab.h: hashing bytes, storing and growing.  Probing
 * and hashing strings are inline in the header, where the callers' loops
 * over a big table need them.  Pure: no I/O.
 */
#include "config.h"

#include "util/htab.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

#define HTAB_MIN	16		/* slots of a new table */

uint32_t
htab_hash_add(uint32_t h, const void *p, size_t len)
{
	const unsigned char	*b = p;
	size_t			 i;

	for (i = 0; i < len; i++) {
		h ^= b[i];
		h *= 16777619U;
	}
	return (h);
}

uint32_t
htab_hash(const void *p, size_t len)
{
	return (htab_hash_end(htab_hash_add(HTAB_HASH_INIT, p, len)));
}

/* The slots for n values: a power of two, at most half full. */
static size_t
htab_cap(size_t n)
{
	size_t	 cap = HTAB_MIN;

	while (cap / 2 < n)
		cap *= 2;
	return (cap);
}

/* A table of cap slots (a power of two), all empty. */
static void
htab_alloc(struct htab *t, size_t cap)
{
	t->slot = xmalloc_huge(cap, sizeof *t->slot);
	memset(t->slot, 0xff, cap * sizeof *t->slot);	/* HTAB_NONE */
	t->mask = cap - 1;
	t->n = 0;
}

void
htab_init(struct htab *t, size_t n)
{
	htab_free(t);
	htab_alloc(t, htab_cap(n));
}

void
htab_free(struct htab *t)
{
	if (t == NULL)
		return;
	free(t->slot);
	memset(t, 0, sizeof *t);
}

/* Store without looking for the key, in room that is there. */
static void
htab_store(struct htab *t, uint32_t h, const void *key, uint32_t val)
{
	size_t	 i;

	for (i = htab_start(t, h); t->slot[i].val != HTAB_NONE;
	    i = (i + 1) & t->mask)
		continue;
	t->slot[i].key = key;
	t->slot[i].hash = h;
	t->slot[i].val = val;
	t->n++;
}

/*
 * Move the values to a table of cap slots.  Moving them in slot order
 * keeps the order of those of one hash.
 */
static void
htab_resize(struct htab *t, size_t cap)
{
	const struct htab_slot	*s;
	struct htab_slot	*old;
	size_t			 i, k, ocap;

	old = t->slot;
	ocap = old != NULL ? t->mask + 1 : 0;
	htab_alloc(t, cap);
	/*
	 * A run of full slots can wrap past the end: start the copy at an
	 * empty slot, so that each value is met after those it follows.
	 */
	for (i = 0; i < ocap && old[i].val != HTAB_NONE; i++)
		continue;
	for (k = 0; k < ocap; k++) {
		s = &old[(i + k) & (ocap - 1)];
		if (s->val != HTAB_NONE)
			htab_store(t, s->hash, s->key, s->val);
	}
	free(old);
}

/* Make room for one more value. */
static void
htab_room(struct htab *t)
{
	if (t->slot == NULL || (t->n + 1) * 2 > t->mask + 1)
		htab_resize(t, htab_cap(t->n + 1));
}

void
htab_reserve(struct htab *t, size_t n)
{
	if (t->slot == NULL || (t->n + n) * 2 > t->mask + 1)
		htab_resize(t, htab_cap(t->n + n));
}

void
htab_put_grow(struct htab *t, const struct htab_probe *p, const void *key,
    uint32_t val)
{
	htab_room(t);
	htab_store(t, p->hash, key, val);
}

void
htab_add(struct htab *t, uint32_t h, const void *key, uint32_t val)
{
	htab_room(t);
	htab_store(t, h, key, val);
}
