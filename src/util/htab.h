/*
 * A hash index: 32-bit hashes to the caller's values, which are positions
 * in the caller's own arrays.  The caller alone knows what a key is (a
 * name, a name and a unit, a name in any case), so it hashes the key and
 * compares the candidates a probe returns.  Each slot keeps a pointer the
 * caller gives with the value, its key or part of it, so that comparing
 * reads the slot and the key and nothing else: in a big table each of
 * those is a cache miss.  Open addressing with linear probing, at most
 * half full, no deletions: the values stored under one hash are met in
 * the order they were added.  Pure: no I/O.
 *
 * Zero-initialise a struct htab (or htab_init() it for n values), then:
 *
 *	htab_probe(t, h, HTAB_ALL, &p);
 *	while ((s = htab_next(&p)) != NULL)
 *		if (strcmp(s->key, name) == 0)
 *			break;
 *	if (s == NULL)
 *		htab_put(t, &p, name, my_value);
 *
 * Where a probe starts comes from the bits above a hash's low
 * HTAB_TAG_BITS, so a caller may give those bits a meaning of its own (a
 * domain), store it, and probe with them masked out to find a key
 * whatever that meaning.  (A table of more than 2^(32 - HTAB_TAG_BITS)
 * slots still works, with longer probes.)
 */
#ifndef HVTOP_HTAB_H
#define HVTOP_HTAB_H

#include <stddef.h>
#include <stdint.h>

#define HTAB_NONE	UINT32_MAX	/* no value; not storable */
#define HTAB_ALL	UINT32_MAX	/* a probe's mask: the whole hash */
#define HTAB_TAG_BITS	9		/* a catalog domain, 0 to 0x100 */
#define HTAB_TAG	((1U << HTAB_TAG_BITS) - 1)
#define HTAB_HASH_INIT	2166136261U	/* htab_hash_add()'s first h */

struct htab_slot {
	const void	*key;		/* the caller's */
	uint32_t	 hash;
	uint32_t	 val;		/* HTAB_NONE: empty */
};

struct htab {
	struct htab_slot *slot;		/* NULL while nothing is stored */
	size_t		 mask;		/* slots - 1 */
	size_t		 n;		/* values stored */
};

/* Where a probe is; good until the next value is stored. */
struct htab_probe {
	const struct htab_slot *slot;
	size_t		 mask;
	size_t		 i;
	uint32_t	 hash;
	uint32_t	 match;		/* the bits of hash that must agree */
};

/*
 * Hashing: FNV-1a over the bytes, then a final mix that carries the low
 * bits' changes into the high ones, where a probe starts.  A key of
 * several parts adds each in turn (htab_hash_add(), htab_hash_add_str())
 * and ends with htab_hash_end(); add a separator between strings.
 */
uint32_t	htab_hash(const void *, size_t);
uint32_t	htab_hash_add(uint32_t, const void *, size_t);

/* One byte more; for keys hashed after a change such as case folding. */
static inline uint32_t
htab_hash_add_byte(uint32_t h, unsigned char c)
{
	return ((h ^ c) * 16777619U);
}

static inline uint32_t
htab_hash_add_str(uint32_t h, const char *s)
{
	const unsigned char	*b;

	for (b = (const unsigned char *)s; *b != '\0'; b++)
		h = htab_hash_add_byte(h, *b);
	return (h);
}

static inline uint32_t
htab_hash_end(uint32_t h)
{
	h ^= h >> 16;
	h *= 0x85ebca6bU;
	h ^= h >> 13;
	return (h);
}

static inline uint32_t
htab_hash_str(const char *s)
{
	return (htab_hash_end(htab_hash_add_str(HTAB_HASH_INIT, s)));
}

/* Room for n values without growing; the old contents are dropped. */
void		htab_init(struct htab *, size_t n);
/*
 * Room for n values more without growing: a caller that knows how many
 * it will add saves the growing, and the old table beside the new.
 */
void		htab_reserve(struct htab *, size_t n);
/* Free the slots (not the struct); t is then empty.  NULL is fine. */
void		htab_free(struct htab *);
/* htab_put() when the table must grow first. */
void		htab_put_grow(struct htab *, const struct htab_probe *,
		    const void *key, uint32_t val);
/* Store key and val under h whatever is there: met after the others. */
void		htab_add(struct htab *, uint32_t, const void *key,
		    uint32_t val);

static inline size_t
htab_start(const struct htab *t, uint32_t h)
{
	return ((size_t)(h >> HTAB_TAG_BITS) & t->mask);
}

/*
 * Start a probe for the values stored under a hash whose bits in match
 * equal h's: HTAB_ALL for h exactly.
 */
static inline void
htab_probe(const struct htab *t, uint32_t h, uint32_t match,
    struct htab_probe *p)
{
	p->slot = t->slot;
	p->mask = t->mask;
	p->i = t->slot != NULL ? htab_start(t, h) : 0;
	p->hash = h;
	p->match = match;
}

/*
 * The next candidate's slot (its key and value), or NULL when there is
 * none left.  The slot is good until the next value is stored.
 */
static inline const struct htab_slot *
htab_next(struct htab_probe *p)
{
	const struct htab_slot	*s;

	if (p->slot == NULL)
		return (NULL);
	for (;; p->i = (p->i + 1) & p->mask) {
		s = &p->slot[p->i];
		if (s->val == HTAB_NONE)
			return (NULL);
		if (((s->hash ^ p->hash) & p->match) == 0) {
			p->i = (p->i + 1) & p->mask;
			return (s);
		}
	}
}

/*
 * Store key and val under the hash of probe p, which htab_next() has run
 * to its end (NULL).  val must be below HTAB_NONE; key is the caller's
 * and may be NULL.
 */
static inline void
htab_put(struct htab *t, const struct htab_probe *p, const void *key,
    uint32_t val)
{
	struct htab_slot	*s;

	/* At most half full. */
	if (p->slot != t->slot || t->slot == NULL ||
	    (t->n + 1) * 2 > t->mask + 1) {
		htab_put_grow(t, p, key, val);
		return;
	}
	s = &t->slot[p->i];
	s->key = key;
	s->hash = p->hash;
	s->val = val;
	t->n++;
}

/*
 * Start fetching the slot where a probe for h begins: a caller that
 * knows its next hashes ahead overlaps the cache misses of a big table.
 */
static inline void
htab_prefetch(const struct htab *t, uint32_t h)
{
	if (t->slot != NULL)
		__builtin_prefetch(&t->slot[htab_start(t, h)]);
}

#endif /* HVTOP_HTAB_H */
