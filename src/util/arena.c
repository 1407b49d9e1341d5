/*
 * Arena allocation: blocks that double from 4 KiB up to 1 MiB, carved in
 * order; an allocation too large for that gets a block of its own.  Pure.
 */
#include "config.h"

#include "util/arena.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

#define ARENA_FIRST	4096
#define ARENA_MAX	(1024 * 1024)
/* Past this, blocks are 4 MiB in huge pages (xmalloc_huge()). */
#define ARENA_HUGE_FROM	(8 * 1024 * 1024)
#define ARENA_HUGE	(4 * 1024 * 1024)
#define ARENA_ALIGN	_Alignof(max_align_t)

#if defined(__SANITIZE_ADDRESS__)
#define ARENA_EACH	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_EACH	1
#endif
#endif

struct arena_block {
	struct arena_block *next;
	max_align_t	 data[];
};

/* A new block of room bytes; the current one stays current unless new. */
static char *
arena_block(struct arena *a, size_t room, int current)
{
	struct arena_block	*b;

	if (room > SIZE_MAX - sizeof *b)
		abort();
	b = xmalloc_huge(1, sizeof *b + room);
	a->total += room;
	if (current) {
		b->next = a->blocks;
		a->blocks = b;
		a->next = (char *)b->data;
		a->left = room;
	} else if (a->blocks == NULL) {
		/* All its room is handed out: none is left. */
		b->next = NULL;
		a->blocks = b;
		a->next = NULL;
		a->left = 0;
	} else {
		/* Behind the current block, whose free room stays in use. */
		b->next = a->blocks->next;
		a->blocks->next = b;
	}
	return ((char *)b->data);
}

static void *
arena_get(struct arena *a, size_t size, size_t align)
{
	size_t	 pad, room;
	char	*p;

	if (size == 0)
		abort();
#ifdef ARENA_EACH
	(void)align;
	(void)pad;
	(void)room;
	p = arena_block(a, size, 0);
	return (p);
#else
	pad = (size_t)-(uintptr_t)a->next & (align - 1);
	if (a->left >= size && a->left - size >= pad) {
		p = a->next + pad;
		a->next = p + size;
		a->left -= size + pad;
		return (p);
	}
	room = a->total < ARENA_FIRST ? ARENA_FIRST : a->total;
	if (room > ARENA_MAX)
		room = ARENA_MAX;
	/* A block and its header fill whole huge pages. */
	if (a->total >= ARENA_HUGE_FROM)
		room = ARENA_HUGE - sizeof (struct arena_block);
	if (size > room / 4)
		return (arena_block(a, size, 0));
	p = arena_block(a, room, 1);
	a->next = p + size;
	a->left = room - size;
	return (p);
#endif
}

void *
arena_alloc(struct arena *a, size_t size)
{
	return (arena_get(a, size, ARENA_ALIGN));
}

void *
arena_zalloc(struct arena *a, size_t size)
{
	return (memset(arena_get(a, size, ARENA_ALIGN), 0, size));
}

void *
arena_calloc(struct arena *a, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size)
		abort();
	return (arena_zalloc(a, n * size));
}

char *
arena_strndup(struct arena *a, const char *s, size_t len)
{
	size_t	 n = strnlen(s, len);
	char	*p;

	p = arena_get(a, n + 1, 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return (p);
}

char *
arena_strdup(struct arena *a, const char *s)
{
	size_t	 n = strlen(s);
	char	*p;

	p = arena_get(a, n + 1, 1);
	memcpy(p, s, n + 1);
	return (p);
}

void
arena_free(struct arena *a)
{
	struct arena_block	*b, *next;

	for (b = a->blocks; b != NULL; b = next) {
		next = b->next;
		free(b);
	}
	memset(a, 0, sizeof *a);
}
