/*
 * The plain-bit stream of a sample (docs/FORMAT-recording.md, 7.2): the
 * bits of each value below its symbol, after the range coder's bytes.
 * Writing a value's bits is inline in record-int.h; here are the ends of
 * the stream and the reader, which fails rather than read past its bytes
 * or accept padding that is not zero.
 */
#include "config.h"

#include "record/record-int.h"

#include <string.h>

#include "util/hverr.h"

void
record_bits_init(struct record_bits *w, struct record_buf *out)
{
	memset(w, 0, sizeof *w);
	w->out = out;
}

/* The last bits out, zeros up to a whole byte. */
void
record_bits_flush(struct record_bits *w)
{
	for (; w->nacc >= 8; w->nacc -= 8)
		record_buf_u8(w->out, (uint8_t)(w->acc >> (w->nacc - 8)));
	if (w->nacc > 0)
		record_buf_u8(w->out, (uint8_t)(w->acc << (8 - w->nacc)));
	w->nacc = 0;
}

void
record_bits_rd_init(struct record_bits_rd *r, const uint8_t *p, size_t len)
{
	memset(r, 0, sizeof *r);
	r->p = p;
	r->len = len;
}

uint64_t
record_bits_get(struct record_bits_rd *r, unsigned n)
{
	uint64_t	 v = 0;
	unsigned	 k;

	while (n > 0 && r->error == 0) {
		k = n > 32 ? 32 : n;
		n -= k;
		while (r->nacc < k) {
			if (r->off >= r->len) {
				r->error = -HV_ETRUNC;
				return (0);
			}
			r->acc = r->acc << 8 | r->p[r->off++];
			r->nacc += 8;
		}
		r->nacc -= k;
		v = v << k | ((r->acc >> r->nacc) & (((uint64_t)1 << k) - 1));
	}
	return (v);
}

/* The padding of the last byte must be zeros: anything else is damage. */
int
record_bits_end(struct record_bits_rd *r)
{
	if (r->error == 0 && (r->acc & (((uint64_t)1 << r->nacc) - 1)) != 0)
		r->error = -HV_EFORMAT;
	return (r->error);
}

/*
 * An Elias gamma code: z zeros, then z + 1 bits from a leading one.  In
 * format 3 the longest is 15 bits; a run of more than 7 zeros is damage,
 * and so is the end of the bytes.
 */
uint64_t
record_bits_gamma(struct record_bits_rd *r)
{
	uint64_t	 bits;
	unsigned	 z = 0, lead;

	while (r->error == 0) {
		if (r->nacc == 0) {
			if (r->off >= r->len) {
				r->error = -HV_ETRUNC;
				return (0);
			}
			r->acc = r->acc << 8 | r->p[r->off++];
			r->nacc = 8;
		}
		bits = r->acc & (((uint64_t)1 << r->nacc) - 1);
		lead = r->nacc - record_bitlen(bits);
		z += lead;
		r->nacc -= lead;
		if (z > 7) {
			r->error = -HV_EFORMAT;
			return (0);
		}
		if (bits != 0)
			return (record_bits_get(r, z + 1));
	}
	return (0);
}
