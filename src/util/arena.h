/*
 * An arena: many small allocations that live and die together (the
 * strings of a parsed file, the names of an engine's metrics), carved
 * from a few large blocks and freed at once.  A model of 200,000 metrics
 * then costs a few dozen malloc() calls instead of millions, and no
 * per-string header.  Pure; allocation cannot fail (xalloc.h).
 *
 * Zero-initialise a struct arena, allocate, then arena_free() it.  What an
 * arena hands out is never freed on its own; keep what is repeated or
 * large elsewhere.  In an AddressSanitizer build every allocation is a
 * malloc() of its own, so that reading past one is still caught.
 */
#ifndef HVTOP_ARENA_H
#define HVTOP_ARENA_H

#include <stddef.h>

struct arena_block;

struct arena {
	struct arena_block *blocks;	/* newest first */
	char		*next;		/* free room in the newest block */
	size_t		 left;
	size_t		 total;		/* bytes of blocks, for growth */
};

/* size bytes, aligned for any type, uninitialised; size 0 is a bug. */
void	*arena_alloc(struct arena *, size_t size);
/* The same, zeroed. */
void	*arena_zalloc(struct arena *, size_t size);
/* n elements of size bytes, zeroed; aborts when n * size overflows. */
void	*arena_calloc(struct arena *, size_t n, size_t size);
/* A copy of s (at most len bytes, stopping at a NUL), NUL-terminated. */
char	*arena_strndup(struct arena *, const char *s, size_t len);
char	*arena_strdup(struct arena *, const char *s);
/* Frees everything the arena handed out; the arena can be used again. */
void	 arena_free(struct arena *);

#endif /* HVTOP_ARENA_H */
