/*
 * Format 3's steady samples (docs/FORMAT-recording.md, 7.3): the same
 * candidates as format 2 predict each counter's delta, but the choice is
 * reviewed only every RECORD_LP_EVERY samples instead of after each one,
 * and each residual goes out as plain bits with no range coder.  Both
 * changes take the learning and the modelling out of the value loop,
 * which is what a sample costs to append.
 *
 * The "LP" code of a residual: its zigzag form z has n bits; the change
 * of n from the counter's last residual, zigzagged and plus one, as an
 * Elias gamma code, then z's n - 1 bits below its leading one.  Residuals
 * come in bursts, so the length changes little from one sample to the
 * next, and a counter predicted right again costs one bit.
 *
 * The zero group: the counters whose residual was 0 on every sample
 * since the last review.  A sample starts with one bit: 0 when every one
 * of them is right again, as most samples find them, and then they take
 * no bits; 1 when one is not, and then every counter is coded.  The
 * writer works out the residuals in one pass and codes them in a
 * second, which passes over the group.
 */
#include "config.h"

#include "record/record-int.h"

#include <string.h>

#include "util/hverr.h"

/* What record_codec_lp_prep() makes of a candidate. */
#define RECORD_LP_REPEAT	0
#define RECORD_LP_MEAN		1
#define RECORD_LP_DUP		2
#define RECORD_LP_RATIO		3
#define RECORD_LP_SUB		4
#define RECORD_LP_KINDS		5

/* Counter k's kind of guess and the counter it reads. */
static void
record_codec_lp_kind(struct record_pred *p, size_t b, size_t k)
{
	const struct record_layout *lay = &p->lay;
	unsigned	 c = p->best[k];

	p->refj[k] = (uint32_t)k;
	if (c == RECORD_P_REPEAT || c == RECORD_P_MEAN) {
		p->kind[k] = (uint8_t)c;
	} else if (c == RECORD_P_DUP) {
		p->kind[k] = lay->dup[k] == RECORD_NONE ? RECORD_LP_REPEAT :
		    RECORD_LP_DUP;
		if (lay->dup[k] != RECORD_NONE)
			p->refj[k] = (uint32_t)lay->dup[k];
	} else {
		p->refj[k] = (uint32_t)(b + (size_t)record_codec_ref(c,
		    lay->col[k]));
		p->kind[k] = (c - RECORD_P_SELF) % RECORD_P_KINDS == 0 ?
		    RECORD_LP_RATIO : RECORD_LP_SUB;
	}
}

void
record_codec_lp_prep(struct record_pred *p)
{
	const struct record_layout *lay = &p->lay;
	size_t		 n = lay->n, b, i, k, at[RECORD_LP_KINDS];
	unsigned	 nc, c;

	p->nrest = p->nzero = 0;
	for (b = 0; b < n; b += nc) {
		nc = lay->ncol[b];
		for (i = 0; i < nc; i++)
			record_codec_lp_kind(p, b, b + i);
		for (i = b; i < b + nc; i++) {
			k = b + p->order[i];
			p->seq[i] = (uint32_t)k;
			p->lastn[i] = p->carry[k];
			p->nz[i] = p->carry[n + k];
			if (p->nz[i])
				p->rest[p->nrest++] = (uint32_t)i;
			else
				p->zpos[p->nzero++] = (uint32_t)i;
		}
	}
	/* The writer's first pass goes kind by kind, without a branch on
	 * the kind of each counter. */
	memset(p->kstart, 0, sizeof p->kstart);
	for (i = 0; i < n; i++)
		p->kstart[p->kind[p->seq[i]] + 1]++;
	for (c = 0; c < RECORD_LP_KINDS; c++)
		p->kstart[c + 1] += p->kstart[c];
	for (i = 0; i < RECORD_LP_KINDS; i++)
		at[i] = p->kstart[i];
	for (i = 0; i < n; i++)
		p->bykind[at[p->kind[p->seq[i]]]++] = (uint32_t)i;
}

/* Counter k's guess, as record_codec_guess() makes it of best[k]. */
static inline uint64_t
record_codec_lp_guess(const struct record_pred *p, size_t k, size_t j,
    int mean)
{
	switch (p->kind[k]) {
	case RECORD_LP_REPEAT:
		return (p->d1[k]);
	case RECORD_LP_MEAN:
		if (!mean)
			return (p->d1[k]);
		return (p->d1[k] + (uint64_t)((int64_t)(p->d2[k] - p->d1[k]) /
		    2));
	case RECORD_LP_DUP:
		return (p->d0[j]);
	case RECORD_LP_RATIO:
		return (record_codec_ratio(p->d0[j], p->d1[k], p->d1[j]));
	}
	return (p->d1[k] + p->d1[j] - p->d0[j]);
}

/*
 * The writer's end of the bit stream while a sample is coded: the same
 * bytes as record_bits_put32() makes, but up to 56 bits in one step,
 * held at the top of a 64-bit word with fewer than 8 bits pending, and
 * the position held here rather than in the buffer, where every byte
 * stored to lastn would make the compiler read it again.  Each step
 * stores 8 bytes, of which the buffer has room for 8 past the end.
 */
struct record_lp_out {
	uint8_t		*p;
	uint64_t	 acc;
	unsigned	 nacc;		/* < 8 */
};

/* The n <= 56 low bits of v, v < 2^n. */
static inline void
record_codec_lp_emit(struct record_lp_out *o, uint64_t v, unsigned n)
{
	uint64_t	 be;

	o->acc |= v << (64 - n - o->nacc);
	o->nacc += n;
	be = __builtin_bswap64(o->acc);
	memcpy(o->p, &be, 8);
	o->p += o->nacc >> 3;
	o->acc <<= o->nacc & ~7U;
	o->nacc &= 7;
}

/*
 * x = zigzag(n - m) + 1 for n - m = d - 64, and the length of its gamma
 * code, 2 * bitlen(x) - 1: a load in place of the arithmetic.
 */
#define RECORD_LP_X(d)	((d) >= 64 ? 2 * ((d) - 64) + 1 : 2 * (64 - (d)))
#define RECORD_LP_G(x)	((x) >= 128 ? 15 : (x) >= 64 ? 13 : (x) >= 32 ? \
	11 : (x) >= 16 ? 9 : (x) >= 8 ? 7 : (x) >= 4 ? 5 : (x) >= 2 ? 3 : 1)
#define RECORD_LP_E(d)	{ RECORD_LP_X(d), RECORD_LP_G(RECORD_LP_X(d)) }
#define RECORD_LP_E4(d)	RECORD_LP_E(d), RECORD_LP_E(d + 1), \
	RECORD_LP_E(d + 2), RECORD_LP_E(d + 3)
#define RECORD_LP_E16(d) RECORD_LP_E4(d), RECORD_LP_E4(d + 4), \
	RECORD_LP_E4(d + 8), RECORD_LP_E4(d + 12)

static const struct {
	uint8_t		 x;
	uint8_t		 len;
} record_lp_gamma[129] = {
	RECORD_LP_E16(0), RECORD_LP_E16(16), RECORD_LP_E16(32),
	RECORD_LP_E16(48), RECORD_LP_E16(64), RECORD_LP_E16(80),
	RECORD_LP_E16(96), RECORD_LP_E16(112), RECORD_LP_E(128)
};

/*
 * Residual z in the LP code, for a counter whose last residual had m
 * bits; its bit length.  The gamma code of x and z's bits below its
 * leading one are one word: x << (n - 1) plus z less its leading one.
 */
static inline unsigned
record_codec_lp_put(struct record_lp_out *o, unsigned m, uint64_t z)
{
	unsigned	 one, mb, d, g;
	uint64_t	 x;

	/* The bits below z's leading one (63 - clz, as one instruction),
	 * and z's length mb + one. */
	mb = 63 ^ (unsigned)__builtin_clzll(z | 1);
	one = z != 0;
	d = mb + one + 64 - m;
	x = record_lp_gamma[d].x;
	g = record_lp_gamma[d].len;
	if (__builtin_expect(g + mb <= 56, 1)) {
		record_codec_lp_emit(o, ((x - one) << mb) + z, g + mb);
	} else {
		/* Only a residual of 42 bits or more (one is 1): the same
		 * word in two steps, its low 32 bits last. */
		record_codec_lp_emit(o, ((x - 1) << (mb - 32)) + (z >> 32),
		    g + mb - 32);
		record_codec_lp_emit(o, z & 0xffffffffU, 32);
	}
	return (mb + one);
}

/* The residuals at places i of seq, in that order. */
static void
record_codec_lp_code(struct record_pred *p, struct record_lp_out *o0,
    const uint32_t *places, size_t n)
{
	struct record_lp_out o = *o0;
	const uint64_t	*zz = p->zz;
	uint8_t		*lastn = p->lastn, *nz = p->nz;
	size_t		 x, i;
	uint64_t	 z;

	if (places == NULL) {
		for (i = 0; i < n; i++) {
			z = zz[i];
			lastn[i] = (uint8_t)record_codec_lp_put(&o, lastn[i], z);
			nz[i] |= z != 0;
		}
	}
	/* Unrolled twice: the loop's own steps are shared. */
#pragma GCC unroll 2
	for (x = 0; x < n && places != NULL; x++) {
		i = places[x];
		z = zz[i];
		lastn[i] = (uint8_t)record_codec_lp_put(&o, lastn[i], z);
		nz[i] |= z != 0;
	}
	*o0 = o;
}

/*
 * The residuals into zz[], kind by kind: every delta is known to the
 * writer, so the order does not matter here.
 */
static void
record_codec_lp_residuals(struct record_pred *p)
{
	const uint32_t	*seq = p->seq, *refj = p->refj, *bk = p->bykind;
	const uint64_t	*d0 = p->d0, *d1 = p->d1, *d2 = p->d2;
	uint64_t	*zz = p->zz;
	size_t		 i, k, j, x, ks[RECORD_LP_KINDS + 1];

	/* In locals: a store to zz could change p->kstart for all the
	 * compiler knows. */
	memcpy(ks, p->kstart, sizeof ks);
	/* The most common kind, unrolled. */
#pragma GCC unroll 4
	for (x = ks[RECORD_LP_REPEAT]; x < ks[RECORD_LP_REPEAT + 1]; x++) {
		i = bk[x];
		k = seq[i];
		zz[i] = record_zigzag((int64_t)(d0[k] - d1[k]));
	}
	for (x = ks[RECORD_LP_MEAN]; x < ks[RECORD_LP_MEAN + 1]; x++) {
		i = bk[x];
		k = seq[i];
		zz[i] = record_zigzag((int64_t)(d0[k] - (p->hist < 3 ? d1[k] :
		    d1[k] + (uint64_t)((int64_t)(d2[k] - d1[k]) / 2))));
	}
	for (x = ks[RECORD_LP_DUP]; x < ks[RECORD_LP_DUP + 1]; x++) {
		i = bk[x];
		k = seq[i];
		zz[i] = record_zigzag((int64_t)(d0[k] - d0[refj[k]]));
	}
	for (x = ks[RECORD_LP_RATIO]; x < ks[RECORD_LP_RATIO + 1]; x++) {
		i = bk[x];
		k = seq[i];
		j = refj[k];
		zz[i] = record_zigzag((int64_t)(d0[k] - record_codec_ratio(d0[j],
		    d1[k], d1[j])));
	}
	for (x = ks[RECORD_LP_SUB]; x < ks[RECORD_LP_SUB + 1]; x++) {
		i = bk[x];
		k = seq[i];
		j = refj[k];
		zz[i] = record_zigzag((int64_t)(d0[k] - (d1[k] + d1[j] -
		    d0[j])));
	}
}

/*
 * The residuals of the first two samples after a heartbeat, in coding
 * order: their predictions read the values before them.  The zero group
 * is empty then.
 */
static void
record_codec_lp_start(struct record_pred *p)
{
	size_t		 i, k, n = p->lay.n;

	for (i = 0; i < n; i++) {
		k = p->seq[i];
		p->zz[i] = record_zigzag((int64_t)(p->cur[k] -
		    record_codec_pred_start(p, k)));
	}
}

/* The residuals of a steady sample: the chunks' bits, the counters
 * outside the group, then the members of each chunk that missed. */
static void
record_codec_lp_steady(struct record_pred *p, struct record_lp_out *o)
{
	const uint32_t	*zpos = p->zpos;
	const uint64_t	*zz = p->zz;
	size_t		 c, i, end, nch;
	uint64_t	 miss;

	nch = (p->nzero + RECORD_LP_CHUNK - 1) / RECORD_LP_CHUNK;
	for (c = 0; c < nch; c++) {
		end = (c + 1) * RECORD_LP_CHUNK;
		if (end > p->nzero)
			end = p->nzero;
		for (i = c * RECORD_LP_CHUNK, miss = 0; i < end; i++)
			miss |= zz[zpos[i]];
		p->chunk[c] = miss != 0;
		record_codec_lp_emit(o, miss != 0, 1);
	}
	record_codec_lp_code(p, o, p->rest, p->nrest);
	for (c = 0; c < nch; c++) {
		if (!p->chunk[c])
			continue;
		end = (c + 1) * RECORD_LP_CHUNK;
		record_codec_lp_code(p, o, zpos + c * RECORD_LP_CHUNK,
		    (end > p->nzero ? p->nzero : end) - c * RECORD_LP_CHUNK);
	}
}

void
record_codec_lp_encode(struct record_pred *p, struct record_bits *bw,
    const struct raw_value *v)
{
	struct record_lp_out o;
	const uint64_t	*v1 = p->v1;
	uint64_t	*cur = p->cur, *d0 = p->d0;
	size_t		 k, n = p->lay.n;

	/* After a heartbeat's first sample record_codec_tb_fill() set
	 * them, in its pass over the sample. */
	for (k = 0; k < n && p->hist == 0; k++) {
		cur[k] = v[k].value;
		d0[k] = v[k].value - v1[k];
	}
	if (p->hist < 2)
		record_codec_lp_start(p);
	else
		record_codec_lp_residuals(p);
	/* A value takes at most 15 + 63 bits, and a step stores 8 bytes. */
	record_buf_reserve(bw->out, 10 * n + n / 8 + 16);
	o.p = bw->out->p + bw->out->len;
	o.acc = 0;
	o.nacc = 0;
	if (bw->nacc > 0)
		record_codec_lp_emit(&o, bw->acc & (((uint64_t)1 << bw->nacc) -
		    1), bw->nacc);
	/* After a heartbeat the group is empty: every counter is coded. */
	if (p->hist < 2)
		record_codec_lp_code(p, &o, NULL, n);
	else
		record_codec_lp_steady(p, &o);
	bw->out->len = (size_t)(o.p - bw->out->p);
	bw->acc = o.nacc > 0 ? o.acc >> (64 - o.nacc) : 0;
	bw->nacc = o.nacc;
}

/* The residual at place i in the LP code, or 0 with br->error set. */
static inline uint64_t
record_codec_lp_get(struct record_pred *p, struct record_bits_rd *br,
    size_t i)
{
	uint64_t	 dz, z;
	int64_t		 nb;

	if ((dz = record_bits_gamma(br)) == 0)
		return (0);
	nb = (int64_t)p->lastn[i] + record_unzigzag(dz - 1);
	if (nb < 0 || nb > 64) {
		br->error = -HV_EFORMAT;
		return (0);
	}
	z = (uint64_t)(nb > 0);
	if (nb > 1)
		z = z << (nb - 1) | record_bits_get(br, (unsigned)nb - 1);
	p->lastn[i] = (uint8_t)nb;
	p->nz[i] |= nb != 0;
	return (z);
}

void
record_codec_lp_decode(struct record_pred *p, struct record_bits_rd *br)
{
	size_t		 i, k, c, nch, n = p->lay.n;
	uint64_t	 d, z;
	int		 mean = p->hist >= 3;

	if (p->hist < 2) {
		for (i = 0; i < n && br->error == 0; i++) {
			k = p->seq[i];
			z = record_codec_lp_get(p, br, i);
			p->cur[k] = record_codec_pred_start(p, k) +
			    (uint64_t)record_unzigzag(z);
			p->d0[k] = p->cur[k] - p->v1[k];
		}
		return;
	}
	nch = (p->nzero + RECORD_LP_CHUNK - 1) / RECORD_LP_CHUNK;
	for (c = 0; c < nch; c++)
		p->chunk[c] = (uint8_t)record_bits_get(br, 1);
	for (i = 0; i < p->nzero; i++)
		p->zz[p->zpos[i]] = 0;
	for (i = 0; i < p->nrest; i++)
		p->zz[p->rest[i]] = record_codec_lp_get(p, br, p->rest[i]);
	for (i = 0; i < p->nzero; i++) {
		if (p->chunk[i / RECORD_LP_CHUNK])
			p->zz[p->zpos[i]] = record_codec_lp_get(p, br,
			    p->zpos[i]);
	}
	if (br->error != 0)
		return;
	for (i = 0; i < n; i++) {
		k = p->seq[i];
		d = record_codec_lp_guess(p, k, p->refj[k], mean) +
		    (uint64_t)record_unzigzag(p->zz[i]);
		p->cur[k] = p->v1[k] + d;
		p->d0[k] = d;
	}
}

void
record_codec_lp_learn(struct record_pred *p)
{
	size_t		 i, k, n = p->lay.n;
	uint64_t	 s;

	if (p->hist < 2)
		return;
	/* Review the first steady samples after a heartbeat each, since
	 * the choice starts from nothing there. */
	s = p->nsamp - 2;
	if (s >= RECORD_LP_FIRST && s % RECORD_LP_EVERY != 0)
		return;
	/* A counter exact for two periods, or right this time, has nothing
	 * to learn. */
	for (i = 0; i < n; i++) {
		k = p->seq[i];
		p->review[k] = p->nz[i] != 0 && p->lastn[i] != 0;
		p->carry[k] = p->lastn[i];
		p->carry[n + k] = p->nz[i];
	}
	for (k = 0; k < n; k += p->lay.ncol[k])
		record_codec_learn(p, k);
	record_codec_lp_prep(p);
	for (i = 0; i < n; i++)
		p->nz[i] = (uint8_t)((p->nz[i] & 1) << 1);
}
