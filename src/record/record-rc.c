/*
 * A binary adaptive range coder for sample payloads, in the manner of
 * LZMA's: 32-bit range, 11-bit probabilities that move 1/32 of the way
 * towards each bit seen, bytes out with carry propagation.  Numbers are
 * coded as a zero flag, their bit length (a 6-level bit tree) and the
 * bit below the leading one, all adaptive, then the remaining bits plain.
 * A prediction that is usually right thus costs a fraction of a bit, and
 * a miss costs little more than its size.
 *
 * The coder is fed and drained through a record_buf (encoder) or a
 * bounds-checked span (decoder); a decoder that runs past its bytes, or
 * whose state becomes impossible, fails instead of guessing.
 */
#include "config.h"

#include "record/record-int.h"

#include <string.h>

#include "util/hverr.h"

#define RECORD_RC_TOP		(1U << 24)
#define RECORD_RC_BITS		11
#define RECORD_RC_ONE		(1U << RECORD_RC_BITS)
#define RECORD_RC_MOVE		5

void
record_rc_model_init(uint16_t *m, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		m[i] = RECORD_RC_ONE / 2;
}

/* ---- encoder ------------------------------------------------------- */

void
record_rc_enc_init(struct record_rc_enc *e, struct record_buf *out)
{
	memset(e, 0, sizeof *e);
	e->out = out;
	e->range = 0xffffffffU;
	e->cache_size = 1;
	e->first = 1;
}

static void
record_rc_shift(struct record_rc_enc *e)
{
	uint8_t	 carry;
	uint8_t	 b;

	if ((uint32_t)e->low < 0xff000000U || (e->low >> 32) != 0) {
		carry = (uint8_t)(e->low >> 32);
		b = e->cache;
		do {
			/* The very first byte is always 0: not stored. */
			if (!e->first) {
				if (e->out->len == e->out->cap)
					record_buf_reserve(e->out, 1);
				e->out->p[e->out->len++] = (uint8_t)(b + carry);
			}
			e->first = 0;
			b = 0xff;
		} while (--e->cache_size != 0);
		e->cache = (uint8_t)(e->low >> 24);
	}
	e->cache_size++;
	e->low = (e->low & 0x00ffffffU) << 8;
}

static inline void
record_rc_bit(struct record_rc_enc *e, uint16_t *p, int bit)
{
	uint32_t	 bound = (e->range >> RECORD_RC_BITS) * *p;
	uint32_t	 mask = 0U - (uint32_t)(bit != 0);

	/* Without branches: the bits coded are what cannot be predicted. */
	e->low += bound & mask;
	e->range = (bound & ~mask) | ((e->range - bound) & mask);
	*p = (uint16_t)(((*p + ((RECORD_RC_ONE - *p) >> RECORD_RC_MOVE)) &
	    ~mask) | ((*p - (*p >> RECORD_RC_MOVE)) & mask));
	while (e->range < RECORD_RC_TOP) {
		e->range <<= 8;
		record_rc_shift(e);
	}
}

void
record_rc_enc_bit(struct record_rc_enc *e, uint16_t *p, int bit)
{
	record_rc_bit(e, p, bit);
}

/*
 * n plain bits of v, high bit first (n <= 64), up to 16 at a time: the
 * range is split into 2^k equal parts (the remainder of the division is
 * wasted, at most 1/256 of a bit).
 */
void
record_rc_enc_direct(struct record_rc_enc *e, uint64_t v, unsigned n)
{
	unsigned	 k;

	while (n > 0) {
		k = n > 16 ? 16 : n;
		n -= k;
		e->range >>= k;
		e->low += ((v >> n) & ((1U << k) - 1)) * (uint64_t)e->range;
		while (e->range < RECORD_RC_TOP) {
			e->range <<= 8;
			record_rc_shift(e);
		}
	}
}

/* A value of nbits bits through a bit tree of 2^nbits probabilities. */
void
record_rc_enc_tree(struct record_rc_enc *e, uint16_t *tree, unsigned nbits,
    unsigned v)
{
	unsigned	 m = 1, bit;

	while (nbits-- > 0) {
		bit = (v >> nbits) & 1;
		record_rc_bit(e, &tree[m], (int)bit);
		m = m << 1 | bit;
	}
}

/*
 * A number: is it zero (one decision: predictions are often exact), its
 * bit length n through a 6-level tree, the bit below the leading one
 * (modelled by n: residuals cluster near powers of two), then the rest
 * plain.
 */
void
record_rc_enc_number(struct record_rc_enc *e, uint16_t *model, uint64_t v)
{
	unsigned	 n = record_bitlen(v);

	record_rc_bit(e, &model[0], v != 0);
	if (v == 0)
		return;
	record_rc_enc_tree(e, model, RECORD_RC_NBITS, n - 1);
	if (n < 2)
		return;
	record_rc_bit(e, &model[RECORD_RC_TOPBIT + n],
	    (int)((v >> (n - 2)) & 1));
	if (n >= 3)
		record_rc_enc_direct(e, v, n - 2);
}

void
record_rc_enc_flush(struct record_rc_enc *e)
{
	int	 i;

	for (i = 0; i < 5; i++)
		record_rc_shift(e);
}

/* ---- decoder ------------------------------------------------------- */

static uint8_t
record_rc_byte(struct record_rc_dec *d)
{
	if (d->off >= d->len) {
		d->error = -HV_ETRUNC;
		return (0);
	}
	return (d->p[d->off++]);
}

void
record_rc_dec_init(struct record_rc_dec *d, const uint8_t *p, size_t len)
{
	int	 i;

	memset(d, 0, sizeof *d);
	d->p = p;
	d->len = len;
	d->range = 0xffffffffU;
	/* The encoder's first byte (always 0) is not stored. */
	for (i = 0; i < 4; i++)
		d->code = d->code << 8 | record_rc_byte(d);
}

static void
record_rc_norm(struct record_rc_dec *d)
{
	while (d->range < RECORD_RC_TOP && d->error == 0) {
		d->range <<= 8;
		d->code = d->code << 8 | record_rc_byte(d);
	}
	/* A state no encoder can produce: damaged bytes. */
	if (d->code >= d->range && d->error == 0)
		d->error = -HV_EFORMAT;
}

int
record_rc_dec_bit(struct record_rc_dec *d, uint16_t *p)
{
	uint32_t	 bound = (d->range >> RECORD_RC_BITS) * *p;
	int		 bit;

	if (d->error != 0)
		return (0);
	if (d->code < bound) {
		d->range = bound;
		*p = (uint16_t)(*p + ((RECORD_RC_ONE - *p) >> RECORD_RC_MOVE));
		bit = 0;
	} else {
		d->code -= bound;
		d->range -= bound;
		*p = (uint16_t)(*p - (*p >> RECORD_RC_MOVE));
		bit = 1;
	}
	record_rc_norm(d);
	return (bit);
}

uint64_t
record_rc_dec_direct(struct record_rc_dec *d, unsigned n)
{
	uint64_t	 v = 0;
	uint32_t	 q;
	unsigned	 k;

	while (n > 0 && d->error == 0) {
		k = n > 16 ? 16 : n;
		n -= k;
		d->range >>= k;
		q = d->code / d->range;
		if (q >> k) {
			d->error = -HV_EFORMAT;
			return (0);
		}
		d->code -= q * d->range;
		v = v << k | q;
		record_rc_norm(d);
	}
	return (v);
}

unsigned
record_rc_dec_tree(struct record_rc_dec *d, uint16_t *tree, unsigned nbits)
{
	unsigned	 m = 1, i;

	for (i = 0; i < nbits; i++)
		m = m << 1 | (unsigned)record_rc_dec_bit(d, &tree[m]);
	return (m - (1U << nbits));
}

uint64_t
record_rc_dec_number(struct record_rc_dec *d, uint16_t *model)
{
	unsigned	 n;
	uint64_t	 v;

	if (record_rc_dec_bit(d, &model[0]) == 0)
		return (0);
	n = record_rc_dec_tree(d, model, RECORD_RC_NBITS) + 1;
	if (n < 2)
		return (1);
	v = (uint64_t)1 << (n - 1) | (uint64_t)record_rc_dec_bit(d,
	    &model[RECORD_RC_TOPBIT + n]) << (n - 2);
	if (n >= 3)
		v |= record_rc_dec_direct(d, n - 2);
	return (v);
}
