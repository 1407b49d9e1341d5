/*
 * Catalog images for tests and benchmarks; see catalog-gen.h.  Writes the
 * big-endian layout of the shared ABI reference, section 1, by hand.
 */
#include "config.h"

#include "catalog-gen.h"

#include <stdlib.h>
#include <string.h>

#include "util/be.h"
#include "util/xalloc.h"

#define CGEN_PAGE	4096

static uint8_t *
cgen_grow(struct cgen_buf *b, size_t n)
{
	uint8_t	*p;

	if (b->cap - b->len < n) {
		while (b->cap - b->len < n)
			b->cap = b->cap == 0 ? 4096 : b->cap * 2;
		b->p = xreallocarray(b->p, b->cap, 1);
	}
	p = b->p + b->len;
	memset(p, 0, n);
	b->len += n;
	return (p);
}

/* Bytes a string takes: length field, text, NUL, padded to even. */
static size_t
cgen_strsize(const char *s, int no_nul)
{
	size_t	 n;

	n = strlen(s != NULL ? s : "") + (no_nul ? 0 : 1);
	return (2 + n + (n & 1));
}

/* Write a string at p; the stored length is override or the real one. */
static size_t
cgen_str(uint8_t *p, const char *s, uint16_t override, int no_nul)
{
	size_t	 size;

	s = s != NULL ? s : "";
	size = cgen_strsize(s, no_nul);
	be16_put(p, override != 0 ? override : (uint16_t)size);
	memcpy(p + 2, s, strlen(s));
	return (size);
}

static size_t
cgen_pad16(size_t n)
{
	return ((n + 15) & ~(size_t)15);
}

size_t
cgen_event(struct cgen_buf *b, const struct cgen_event *ev)
{
	size_t	 need, len, off = b->len, pos;
	uint8_t	*p;

	need = 0x14 + cgen_strsize(ev->name, ev->no_nul) +
	    cgen_strsize(ev->desc, ev->no_nul) +
	    cgen_strsize(ev->long_desc, ev->no_nul);
	len = ev->length != 0 ? ev->length : cgen_pad16(need);
	p = cgen_grow(b, len > need ? len : need);
	b->len = off + len;
	be16_put(p, (uint16_t)len);
	be16_put(p + 0x02, ev->formula_raw);
	p[0x04] = ev->domain;
	be16_put(p + 0x06, ev->record_offset);
	be16_put(p + 0x08, ev->record_length);
	be16_put(p + 0x0a, ev->counter_offset);
	be32_put(p + 0x0c, ev->flags);
	be16_put(p + 0x10, ev->primary_group);
	be16_put(p + 0x12, ev->group_count);
	pos = 0x14;
	pos += cgen_str(p + pos, ev->name, ev->name_len, ev->no_nul);
	pos += cgen_str(p + pos, ev->desc, ev->desc_len, ev->no_nul);
	cgen_str(p + pos, ev->long_desc, ev->long_desc_len, ev->no_nul);
	b->count++;
	return (off);
}

size_t
cgen_group(struct cgen_buf *b, const struct cgen_group *g)
{
	size_t	 need, len, off = b->len, pos, i;
	uint8_t	*p;

	need = 0x30 + cgen_strsize(g->name, 0) + cgen_strsize(g->desc, 0);
	len = g->length != 0 ? g->length : cgen_pad16(need);
	p = cgen_grow(b, len > need ? len : need);
	b->len = off + len;
	be16_put(p, (uint16_t)len);
	be32_put(p + 0x04, g->flags);
	p[0x08] = g->domain;
	be16_put(p + 0x0a, g->record_offset);
	be16_put(p + 0x0c, g->record_length);
	p[0x0e] = g->schema;
	p[0x0f] = g->event_count;
	for (i = 0; i < 16; i++)
		be16_put(p + 0x10 + 2 * i, g->slots[i]);
	pos = 0x30;
	pos += cgen_str(p + pos, g->name, 0, 0);
	cgen_str(p + pos, g->desc, 0, 0);
	b->count++;
	return (off);
}

size_t
cgen_formula(struct cgen_buf *b, const struct cgen_formula *f)
{
	size_t	 need, len, off = b->len, pos;
	uint8_t	*p;

	need = 0x10 + cgen_strsize(f->name, 0) + cgen_strsize(f->desc, 0) +
	    cgen_strsize(f->formula, 0) + cgen_strsize(f->unit, 0);
	len = f->length != 0 ? f->length : cgen_pad16(need);
	p = cgen_grow(b, len > need ? len : need);
	b->len = off + len;
	be16_put(p, (uint16_t)len);
	be32_put(p + 0x04, f->flags);
	be16_put(p + 0x08, f->group);
	pos = 0x10;
	pos += cgen_str(p + pos, f->name, 0, 0);
	pos += cgen_str(p + pos, f->desc, 0, 0);
	pos += cgen_str(p + pos, f->formula, 0, 0);
	cgen_str(p + pos, f->unit, 0, 0);
	b->count++;
	return (off);
}

size_t
cgen_schema(struct cgen_buf *b, uint16_t descriptor, uint16_t version,
    unsigned n, const uint16_t (*fields)[4])
{
	size_t	 len, off = b->len, i, j;
	uint8_t	*p;

	len = cgen_pad16(0x10 + 8 * (size_t)n);
	p = cgen_grow(b, len);
	be16_put(p, (uint16_t)len);
	be16_put(p + 0x04, descriptor);
	be16_put(p + 0x06, version);
	be16_put(p + 0x0e, (uint16_t)n);
	for (i = 0; i < n; i++)
		for (j = 0; j < 4; j++)
			be16_put(p + 0x10 + 8 * i + 2 * j, fields[i][j]);
	b->count++;
	return (off);
}

size_t
cgen_raw(struct cgen_buf *b, const void *data, size_t n, int count)
{
	size_t	 off = b->len;

	memcpy(cgen_grow(b, n), data, n);
	if (count)
		b->count++;
	return (off);
}

uint8_t *
cgen_catalog(struct cgen_buf *const sections[4], size_t *len)
{
	uint8_t		*img;
	size_t		 page[4], pages[4], next = 1, i, total;

	for (i = 0; i < 4; i++) {
		page[i] = pages[i] = 0;
		if (sections[i] == NULL || sections[i]->len == 0)
			continue;
		page[i] = next;
		pages[i] = (sections[i]->len + CGEN_PAGE - 1) / CGEN_PAGE;
		next += pages[i];
	}
	total = next * CGEN_PAGE;
	img = xcalloc(total, 1);
	be32_put(img, 0x32347837);
	be32_put(img + CGEN_P0_LENGTH, (uint32_t)next);
	be64_put(img + 0x08, 7);
	memcpy(img + 0x10, "20150427114319", 14);
	for (i = 0; i < 4; i++) {
		if (sections[i] == NULL)
			continue;
		be16_put(img + CGEN_P0_SECTION(i), (uint16_t)page[i]);
		be16_put(img + CGEN_P0_SECTION(i) + 2, (uint16_t)pages[i]);
		be16_put(img + CGEN_P0_SECTION(i) + 4,
		    (uint16_t)sections[i]->count);
		if (sections[i]->len > 0)
			memcpy(img + page[i] * CGEN_PAGE, sections[i]->p,
			    sections[i]->len);
	}
	*len = total;
	return (img);
}

void
cgen_buf_free(struct cgen_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof *b);
}
