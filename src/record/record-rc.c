/*
 * The range coder of sample payloads, in the manner of LZMA's: a 32-bit
 * range, bytes out with carry propagation.  It codes binary decisions
 * with 11-bit probabilities that move 1/32 of the way towards each bit
 * seen (the sample's flags and small numbers: a zero flag, the bit length
 * through a 6-level bit tree, the bit below the leading one, the rest
 * plain), and symbols of adaptive frequency tables (the counter values:
 * one symbol a value, its plain bits in record-bits.c).  A prediction
 * that is usually right thus costs a fraction of a bit, and a miss costs
 * little more than its size.
 *
 * The encoder's steps for a value are inline in record-int.h.  The coder
 * is fed and drained through a record_buf (encoder) or a bounds-checked
 * span (decoder); a decoder that runs past its bytes, or whose state
 * becomes impossible, fails instead of guessing.
 */
#include "config.h"

#include "record/record-int.h"

#include <string.h>

#include "util/hverr.h"

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

/* ---- value models -------------------------------------------------- */

void
record_rc_sym_init(struct record_sym *m, size_t n)
{
	size_t		 i;
	unsigned	 s;

	for (i = 0; i < n; i++) {
		memset(&m[i], 0, sizeof m[i]);
		for (s = 0; s < RECORD_SYM_N; s++) {
			m[i].tab[s].cum = (uint16_t)(s << (RECORD_SYM_SHIFT -
			    7));
			m[i].tab[s].freq = 1U << (RECORD_SYM_SHIFT - 7);
		}
		m[i].left = m[i].due = RECORD_SYM_FIRST;
	}
}

/*
 * The table from the counts, each plus one so that every symbol stays
 * codable: frequencies in proportion out of 2^15, at least 1 each as the
 * total stays below 2^15 - RECORD_SYM_N.  What rounding leaves over goes
 * to the last symbol (a 64-bit number: rare), so that one pass builds the
 * table; that wastes at most RECORD_SYM_N / 2^15 of the range, well under
 * a hundredth of a bit a symbol.
 */
void
record_rc_sym_rebuild(struct record_sym *m)
{
	uint64_t	 recip;
	unsigned	 s, f, cum = 0, total = 0, halve;

	_Static_assert(RECORD_SYM_HALVE + 2 * RECORD_SYM_LIMIT *
	    RECORD_SYM_STEP + RECORD_SYM_N <= 1U << RECORD_SYM_SHIFT,
	    "every symbol keeps a frequency of at least 1");
	recip = ((uint64_t)1 << (RECORD_SYM_SHIFT + 32)) /
	    (m->total + RECORD_SYM_N);
	halve = m->total > RECORD_SYM_HALVE;
	for (s = 0; s < RECORD_SYM_N; s++) {
		f = (unsigned)(((uint64_t)m->count[s] + 1) * recip >> 32);
		m->tab[s].cum = (uint16_t)cum;
		m->tab[s].freq = (uint16_t)f;
		cum += f;
		m->count[s] = (uint16_t)(m->count[s] >> halve);
		total += m->count[s];
	}
	m->tab[RECORD_SYM_N - 1].freq = (uint16_t)(m->tab[RECORD_SYM_N -
	    1].freq + ((1U << RECORD_SYM_SHIFT) - cum));
	m->total = (uint16_t)total;
	m->due = (uint16_t)(m->due < RECORD_SYM_LIMIT / 2 ? m->due * 2 :
	    RECORD_SYM_LIMIT);
	m->left = m->due;
}

/* ---- encoder ------------------------------------------------------- */

void
record_rc_enc_init(struct record_rc_enc *e, struct record_buf *out)
{
	memset(e, 0, sizeof *e);
	e->out = out;
	e->start = out->len;
	e->range = 0xffffffffU;
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
	record_rc_enc_norm(e);
}

void
record_rc_enc_bit(struct record_rc_enc *e, uint16_t *p, int bit)
{
	record_rc_bit(e, p, bit);
}

void
record_rc_enc_direct(struct record_rc_enc *e, uint64_t v, unsigned n)
{
	record_rc_enc_plain(e, v, n);
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
	/* All of low, so that the decoder's last reads find bytes. */
	record_rc_carry(e);
	record_buf_reserve(e->out, 4);
	be32_put(e->out->p + e->out->len, (uint32_t)e->low);
	e->out->len += 4;
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

/* A value's symbol: the value without its plain bits (record_bits). */
uint64_t
record_rc_dec_sym(struct record_rc_dec *d, struct record_sym *m)
{
	uint32_t	 r, v;
	unsigned	 lo = 0, hi = RECORD_SYM_N, mid, s, n;

	if (d->error != 0)
		return (0);
	r = d->range >> RECORD_SYM_SHIFT;
	v = d->code / r;
	if (v >> RECORD_SYM_SHIFT) {
		d->error = -HV_EFORMAT;
		return (0);
	}
	/* The last symbol whose table starts at or below v. */
	while (hi - lo > 1) {
		mid = (lo + hi) / 2;
		if (m->tab[mid].cum <= v)
			lo = mid;
		else
			hi = mid;
	}
	s = lo;
	d->code -= r * m->tab[s].cum;
	d->range = r * m->tab[s].freq;
	record_rc_norm(d);
	record_rc_sym_count(m, s);
	if (s < 2)
		return (s);
	n = s / 2 + 1;
	return ((uint64_t)1 << (n - 1) | (uint64_t)(s & 1) << (n - 2));
}
