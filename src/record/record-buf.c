/*
 * Bytes in and out for the recording format: a growable output buffer
 * and a bounds-checked input cursor, with LEB128 varints (7 bits a byte,
 * low bits first) and strings.  A cursor that runs out or meets a
 * malformed number records the failure once and then returns zeros, so
 * a decoder checks once at the end of a record instead of after every
 * field.
 */
#include "config.h"

#include "record/record-int.h"

#include <stdlib.h>
#include <string.h>

#include "util/hverr.h"
#include "util/xalloc.h"

void
record_buf_reserve(struct record_buf *b, size_t n)
{
	size_t	 cap;

	if (b->cap - b->len >= n)
		return;
	cap = b->cap == 0 ? 256 : b->cap;
	while (cap - b->len < n)
		cap *= 2;
	b->p = xreallocarray(b->p, cap, 1);
	b->cap = cap;
}

void
record_buf_add(struct record_buf *b, const void *p, size_t n)
{
	if (n == 0)
		return;
	record_buf_reserve(b, n);
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

void
record_buf_u8(struct record_buf *b, uint8_t v)
{
	record_buf_reserve(b, 1);
	b->p[b->len++] = v;
}

void
record_buf_varint(struct record_buf *b, uint64_t v)
{
	record_buf_reserve(b, 10);
	while (v >= 0x80) {
		b->p[b->len++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	b->p[b->len++] = (uint8_t)v;
}

void
record_buf_string(struct record_buf *b, const char *s)
{
	size_t	 n = s != NULL ? strlen(s) : 0;

	record_buf_varint(b, n);
	record_buf_add(b, s, n);
}

void
record_buf_reset(struct record_buf *b)
{
	b->len = 0;
}

void
record_buf_free(struct record_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof *b);
}

/* ---- cursor -------------------------------------------------------- */

static void
record_cur_fail(struct record_cur *c, int error)
{
	if (c->error == 0)
		c->error = error;
	c->off = c->len;
}

uint8_t
record_cur_u8(struct record_cur *c)
{
	if (c->error != 0 || c->off >= c->len) {
		record_cur_fail(c, -HV_ETRUNC);
		return (0);
	}
	return (c->p[c->off++]);
}

/* The rest of a varint whose first shift bits are v. */
static uint64_t
record_cur_more(struct record_cur *c, uint64_t v, unsigned shift)
{
	uint8_t	 b;

	for (;;) {
		if (c->error != 0 || c->off >= c->len) {
			record_cur_fail(c, -HV_ETRUNC);
			return (0);
		}
		b = c->p[c->off++];
		/* Bits past 64, or a padded last byte, are malformed. */
		if (shift >= 64 || (shift > 57 && (b & 0x7f) >> (64 - shift))
		    != 0 || (b == 0 && shift > 0)) {
			record_cur_fail(c, -HV_EFORMAT);
			return (0);
		}
		v |= (uint64_t)(b & 0x7f) << shift;
		if ((b & 0x80) == 0)
			return (v);
		shift += 7;
	}
}

uint64_t
record_cur_varint(struct record_cur *c)
{
	uint8_t	 b;

	if (c->error != 0 || c->off >= c->len) {
		record_cur_fail(c, -HV_ETRUNC);
		return (0);
	}
	b = c->p[c->off++];
	if ((b & 0x80) == 0)
		return (b);
	return (record_cur_more(c, b & 0x7f, 7));
}

const uint8_t *
record_cur_bytes(struct record_cur *c, size_t n)
{
	const uint8_t	*p;

	if (c->error != 0 || c->len - c->off < n) {
		record_cur_fail(c, -HV_ETRUNC);
		return (NULL);
	}
	p = c->p + c->off;
	c->off += n;
	return (p);
}

char *
record_cur_string(struct record_cur *c, size_t max)
{
	const uint8_t	*p;
	uint64_t	 n;

	n = record_cur_varint(c);
	if (c->error != 0)
		return (NULL);
	if (n > max) {
		record_cur_fail(c, -HV_EFORMAT);
		return (NULL);
	}
	if ((p = record_cur_bytes(c, (size_t)n)) == NULL)
		return (NULL);
	if (memchr(p, '\0', (size_t)n) != NULL) {
		record_cur_fail(c, -HV_EFORMAT);
		return (NULL);
	}
	return (xstrndup((const char *)p, (size_t)n));
}
