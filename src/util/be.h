/*
 * Big-endian loads and stores.  The catalog, hcall buffers and recordings
 * are big-endian on every host.  These helpers do no bounds checking: the
 * caller proves the bytes are there first (see be_fits()).
 */
#ifndef HVTOP_BE_H
#define HVTOP_BE_H

#include <stddef.h>
#include <stdint.h>

/* True when len bytes starting at off lie inside a buffer of size size. */
static inline int
be_fits(size_t size, size_t off, size_t len)
{
	return (off <= size && len <= size - off);
}

static inline uint16_t
be16_get(const uint8_t *p)
{
	return ((uint16_t)((p[0] << 8) | p[1]));
}

static inline uint32_t
be32_get(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | (uint32_t)p[3]);
}

static inline uint64_t
be64_get(const uint8_t *p)
{
	return ((uint64_t)be32_get(p) << 32 | be32_get(p + 4));
}

static inline void
be16_put(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void
be32_put(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static inline void
be64_put(uint8_t *p, uint64_t v)
{
	be32_put(p, (uint32_t)(v >> 32));
	be32_put(p + 4, (uint32_t)v);
}

#endif /* HVTOP_BE_H */
