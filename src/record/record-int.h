/*
 * What the recording writer and reader share: checksums, variable-length
 * integers, record headers and the counter predictor.  Both sides run the
 * same predictor on the same history, so a prediction costs no bytes; the
 * stream carries only what the prediction got wrong.  Internal to
 * src/record.
 */
#ifndef HVTOP_RECORD_INT_H
#define HVTOP_RECORD_INT_H

#include <stddef.h>
#include <stdint.h>

#include "record/record.h"
#include "util/be.h"

#define RECORD_NONE		((size_t)-1)

/* Header kinds, told apart by the top bits of the first byte. */
#define RECORD_HDR_COMPACT	4	/* 0ttttTTT ...: type < 16 */
#define RECORD_HDR_NORMAL	8	/* 10 + 14-bit type, size, 32-bit T */
#define RECORD_HDR_FULL		12	/* 11 + 14-bit type, size, 64-bit T */
#define RECORD_HDR_FULL_EXT	16	/* size 0xffff: a 32-bit size follows */
#define RECORD_SIZE_EXT		0xffff
#define RECORD_COMPACT_TYPES	16
#define RECORD_TYPE_MAX		0x3fff

/* Payloads the reader refuses to believe (memory is allocated by them). */
#define RECORD_PAYLOAD_MAX	((uint32_t)1 << 30)
#define RECORD_STRING_MAX	4096
#define RECORD_PICKS_MAX	4096
#define RECORD_COUNTERS_MAX	((size_t)1 << 20)
#define RECORD_EVENTS_MAX	64	/* columns of one pick */
#define RECORD_CONSTS_MAX	256
#define RECORD_LPARS_MAX	65536	/* partitions of a SELECT record */
/* A pick's kind byte: bit 0 the kind, this bit an @lpar pick. */
#define RECORD_PICK_LPAR	2

/* How many placements a mask of them names. */
static inline unsigned
record_places(unsigned places)
{
	unsigned	 n;

	for (n = 0; places != 0; places &= places - 1)
		n++;
	return (n);
}

/* Sample flags: the first six decisions of a sample payload. */
#define RECORD_SF_STATUS	0x01	/* status runs follow */
#define RECORD_SF_CALLS		0x02	/* calls changed */
#define RECORD_SF_NAIVE		0x04	/* naive_calls changed */
#define RECORD_SF_VERSION	0x08	/* catalog_version changed */
#define RECORD_SF_ERROR		0x10	/* error text changed */
#define RECORD_SF_TIMEBASE	0x20	/* a timebase stream follows */
#define RECORD_SF_TBEXACT	0x40	/* ... all as predicted: omitted */
#define RECORD_SF_MASK		0x7f
#define RECORD_SF_COUNT		7

/*
 * Checksums: CRC-16 (CCITT, poly 0x1021, init 0xffff) for records with a
 * compact or normal header, CRC-32 (IEEE 802.3) for full headers.
 */
uint16_t record_codec_crc16(uint16_t, const uint8_t *, size_t);
uint32_t record_codec_crc32(uint32_t, const uint8_t *, size_t);

/* floor(a * b / c) modulo 2^64, exactly; c != 0. */
uint64_t record_codec_muldiv(uint64_t a, uint64_t b, uint64_t c);
/* The same, inline where both factors fit 32 bits (most deltas). */
static inline uint64_t
record_codec_muldiv_in(uint64_t a, uint64_t b, uint64_t c)
{
	if ((a | b) >> 32 == 0)
		return (a * b / c);
	return (record_codec_muldiv(a, b, c));
}
/* The same computed without 128-bit arithmetic (for the tests). */
uint64_t record_codec_muldiv_portable(uint64_t a, uint64_t b, uint64_t c);

/* Bits in v: 0 for 0, 64 for 2^63 and above. */
static inline unsigned
record_bitlen(uint64_t v)
{
	return (v == 0 ? 0 : 64 - (unsigned)__builtin_clzll(v));
}

static inline uint64_t
record_zigzag(int64_t v)
{
	return (((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

static inline int64_t
record_unzigzag(uint64_t v)
{
	return ((int64_t)(v >> 1) ^ -(int64_t)(v & 1));
}

/* Appending to a buffer. */
void	 record_buf_reserve(struct record_buf *, size_t);
void	 record_buf_add(struct record_buf *, const void *, size_t);
void	 record_buf_u8(struct record_buf *, uint8_t);
void	 record_buf_varint(struct record_buf *, uint64_t);
void	 record_buf_string(struct record_buf *, const char *);

/* Reading from bytes: a cursor that fails once and stays failed. */
struct record_cur {
	const uint8_t	*p;
	size_t		 len;
	size_t		 off;
	int		 error;		/* 0, -HV_ETRUNC or -HV_EFORMAT */
};

uint8_t	 record_cur_u8(struct record_cur *);
uint64_t record_cur_varint(struct record_cur *);
/* A string of at most max bytes without NULs (caller frees). */
char	*record_cur_string(struct record_cur *, size_t max);
const uint8_t *record_cur_bytes(struct record_cur *, size_t);

/* A SELECT record's payload (record-read-select.c). */
int	 record_read_select_payload(struct record_cur *, uint32_t *,
	    struct record_selection *);

/* The FRAME record (record-frame.c). */
/* Whether an identity is worth a record: its source knew something. */
int	 record_frame_want(const struct frame_ident *);
void	 record_frame_payload(const struct frame_ident *, struct record_buf *);
/* A FRAME payload into *fi: 0, or -HV_ETRUNC / -HV_EFORMAT with *why
 * set and *fi unknown.  Bytes after the fields are passed over. */
int	 record_frame_parse(struct record_cur *, struct frame_ident *,
	    const char **why);
/* A record of the stream: 0, or for a FRAME record that does not
 * parse -HV_EFORMAT with *why set (record_frame_open() took the one
 * that names the frame; the stream only checks it). */
int	 record_frame_check(unsigned type, struct record_cur *,
	    const char **why);

/* ---- range coder (record-rc.c) ------------------------------------ */

/* A number model: [0] zero flag, [1..63] the tree of bit lengths 1..64,
 * [RECORD_RC_TOPBIT + n] the bit below the leading one of n bits. */
#define RECORD_RC_TOP		(1U << 24)	/* range never below, between steps */
#define RECORD_RC_NBITS		6
#define RECORD_RC_TOPBIT	63
#define RECORD_RC_TREE		(RECORD_RC_TOPBIT + 65)

struct record_rc_enc {
	struct record_buf *out;
	size_t		 start;		/* where this block's bytes begin */
	uint64_t	 low;		/* bit 32: a carry not yet added */
	uint32_t	 range;
};

struct record_rc_dec {
	const uint8_t	*p;
	size_t		 len;
	size_t		 off;		/* bytes consumed */
	uint32_t	 range;
	uint32_t	 code;
	int		 error;
};

/*
 * A value model: an adaptive frequency table over the 128 symbols of a
 * 64-bit number (0, 1, then 2n - 2 + b for a number of n >= 2 bits whose
 * bit below the leading one is b), coded in one step of the range coder
 * with the table's frequencies out of 2^15.  Symbols are counted as they
 * are coded and the table is rebuilt from the counts when RECORD_SYM_FIRST
 * symbols have been coded, then after twice as many each time, at most
 * RECORD_SYM_LIMIT: a rebuild costs a pass over the table, so it cannot
 * follow every symbol as a binary model's update does.
 */
#define RECORD_SYM_N		128
#define RECORD_SYM_SHIFT	15
#define RECORD_SYM_FIRST	4
#define RECORD_SYM_LIMIT	512
#define RECORD_SYM_STEP		16	/* a count's step per symbol */
#define RECORD_SYM_HALVE	4096	/* counts halve above this total */

struct record_sym {
	struct {
		uint16_t cum;		/* frequencies of the symbols below */
		uint16_t freq;
	}		 tab[RECORD_SYM_N];
	uint16_t	 count[RECORD_SYM_N];
	uint16_t	 total;		/* of count[] */
	uint16_t	 left;		/* symbols to code before a rebuild */
	uint16_t	 due;		/* ... as it was set at the last one */
};

void	 record_rc_model_init(uint16_t *, size_t);
void	 record_rc_sym_init(struct record_sym *, size_t);
void	 record_rc_sym_rebuild(struct record_sym *);
void	 record_rc_enc_init(struct record_rc_enc *, struct record_buf *);
void	 record_rc_enc_bit(struct record_rc_enc *, uint16_t *, int);
void	 record_rc_enc_direct(struct record_rc_enc *, uint64_t, unsigned);
void	 record_rc_enc_tree(struct record_rc_enc *, uint16_t *, unsigned,
	    unsigned);
void	 record_rc_enc_number(struct record_rc_enc *, uint16_t *, uint64_t);
void	 record_rc_enc_flush(struct record_rc_enc *);
void	 record_rc_dec_init(struct record_rc_dec *, const uint8_t *, size_t);
int	 record_rc_dec_bit(struct record_rc_dec *, uint16_t *);
uint64_t record_rc_dec_direct(struct record_rc_dec *, unsigned);
unsigned record_rc_dec_tree(struct record_rc_dec *, uint16_t *, unsigned);
uint64_t record_rc_dec_number(struct record_rc_dec *, uint16_t *);
uint64_t record_rc_dec_sym(struct record_rc_dec *, struct record_sym *);

/*
 * Plain bits: the bits of each value below its symbol go in a stream of
 * their own after the range-coded bytes, high bit first, the last byte
 * padded with zeros.  A bit there costs a shift and an or instead of a
 * step of the range coder.
 */
struct record_bits {
	struct record_buf *out;
	uint64_t	 acc;
	unsigned	 nacc;		/* bits of acc not yet out, < 32 */
};

struct record_bits_rd {
	const uint8_t	*p;
	size_t		 len;
	size_t		 off;
	uint64_t	 acc;
	unsigned	 nacc;
	int		 error;
};

void	 record_bits_init(struct record_bits *, struct record_buf *);
void	 record_bits_flush(struct record_bits *);
void	 record_bits_rd_init(struct record_bits_rd *, const uint8_t *,
	    size_t);
/* n <= 64 bits, high bit first; 0 and an error past the end. */
uint64_t record_bits_get(struct record_bits_rd *, unsigned n);
int	 record_bits_end(struct record_bits_rd *);

/*
 * The encoder's steps for each value follow, inline: the value loop runs
 * them a hundred times a sample.
 *
 * A carry out of low is added to the bytes already out (0xff bytes become
 * 0 and pass it on): the same bytes as LZMA's one-byte cache, without
 * holding one back.  The interval never leaves [0, 1), so a carry always
 * stops within this block, and the byte LZMA writes first, always 0, is
 * simply never written.
 */
static inline void
record_rc_carry(struct record_rc_enc *e)
{
	struct record_buf	*b = e->out;
	size_t			 i;

	if ((e->low >> 32) == 0)
		return;
	for (i = b->len; i > e->start && b->p[i - 1] == 0xff; i--)
		b->p[i - 1] = 0;
	if (i > e->start)
		b->p[i - 1]++;
	e->low &= 0xffffffffU;
}

/*
 * Top bytes of low out until range is 2^24 or more again, in one step and
 * without a branch on whether any are due (which is as good as random):
 * with none due, nb is 0 and the steps change nothing.
 */
static inline void
record_rc_enc_norm_in(struct record_rc_enc *e, int room)
{
	struct record_buf	*b = e->out;
	unsigned		 nb = (unsigned)__builtin_clz(e->range) / 8;

	record_rc_carry(e);
	if (!room && b->cap - b->len < 4)
		record_buf_reserve(b, 4);
	be32_put(b->p + b->len, (uint32_t)e->low);
	b->len += nb;
	e->low = (e->low << (8 * nb)) & 0xffffffffU;
	e->range <<= 8 * nb;
}

static inline void
record_rc_enc_norm(struct record_rc_enc *e)
{
	record_rc_enc_norm_in(e, 0);
}

/* Room for the bytes of n steps of record_rc_enc_norm_in(e, 1). */
static inline void
record_rc_enc_room(struct record_rc_enc *e, size_t n)
{
	record_buf_reserve(e->out, 3 * n + 4);
}

/*
 * n plain bits of v, high bit first (n <= 64), up to 16 at a time: the
 * range is split into 2^k equal parts (the remainder of the division is
 * wasted, at most 1/256 of a bit).
 */
static inline void
record_rc_enc_plain(struct record_rc_enc *e, uint64_t v, unsigned n)
{
	unsigned	 k;

	while (n > 0) {
		k = n > 16 ? 16 : n;
		n -= k;
		e->range >>= k;
		e->low += ((v >> n) & ((1U << k) - 1)) * (uint64_t)e->range;
		record_rc_enc_norm(e);
	}
}

/* Count symbol s as coded; both sides rebuild at the same symbol. */
static inline void
record_rc_sym_count(struct record_sym *m, unsigned s)
{
	m->count[s] = (uint16_t)(m->count[s] + RECORD_SYM_STEP);
	m->total = (uint16_t)(m->total + RECORD_SYM_STEP);
	if (--m->left == 0)
		record_rc_sym_rebuild(m);
}

/* The symbol of v, and its bit length in *n (without branches: small
 * and large residuals alternate). */
static inline unsigned
record_rc_sym_of(uint64_t v, unsigned *n)
{
	unsigned	 sh;

	*n = record_bitlen(v);
	sh = *n >= 2 ? *n - 2 : 0;
	return (*n < 2 ? *n : 2 * *n - 2 + (unsigned)((v >> sh) & 1));
}

/* The symbol of v under model m; v's bits below it are the caller's.
 * room: the caller made room for the bytes with record_rc_enc_room(). */
static inline unsigned
record_rc_enc_sym_in(struct record_rc_enc *e, struct record_sym *m,
    uint64_t v, int room)
{
	unsigned	 n, s = record_rc_sym_of(v, &n);
	uint32_t	 r = e->range >> RECORD_SYM_SHIFT;

	e->low += (uint64_t)r * m->tab[s].cum;
	e->range = r * m->tab[s].freq;
	record_rc_enc_norm_in(e, room);
	record_rc_sym_count(m, s);
	return (n);
}

static inline unsigned
record_rc_enc_sym(struct record_rc_enc *e, struct record_sym *m, uint64_t v)
{
	return (record_rc_enc_sym_in(e, m, v, 0));
}

/* The low n <= 32 bits of v, high bit first, without a branch on whether
 * a word is full.  room: the caller made room with record_bits_room(). */
static inline void
record_bits_put32(struct record_bits *w, uint64_t v, unsigned n, int room)
{
	struct record_buf	*b = w->out;
	unsigned		 full;

	w->acc = w->acc << n | (v & (((uint64_t)1 << n) - 1));
	w->nacc += n;
	full = w->nacc >= 32;
	if (!room && b->cap - b->len < 4)
		record_buf_reserve(b, 4);
	/* With a word full, nacc is 32..63 and nacc & 31 = nacc - 32. */
	be32_put(b->p + b->len, (uint32_t)(w->acc >> (w->nacc & 31)));
	b->len += 4 * full;
	w->nacc -= 32 * full;
}

/* The low n bits of v (n <= 64), high bit first. */
static inline void
record_bits_put_in(struct record_bits *w, uint64_t v, unsigned n, int room)
{
	if (n > 32) {
		record_bits_put32(w, v >> 32, n - 32, room);
		n = 32;
	}
	record_bits_put32(w, v, n, room);
}

static inline void
record_bits_put(struct record_bits *w, uint64_t v, unsigned n)
{
	record_bits_put_in(w, v, n, 0);
}

/* Room for n calls of record_bits_put_in(w, ..., 1). */
static inline void
record_bits_room(struct record_bits *w, size_t n)
{
	record_buf_reserve(w->out, 8 * n + 4);
}

/* ---- the predictor (record-codec.c) -------------------------------- */

/*
 * Candidate predictions of a counter's delta.  Three need no other
 * column: the last delta, the mean of the last two, the same counter read
 * by an earlier pick.  Then, for each column up to RECORD_P_REFS away in
 * the same record (nearest first, left before right), three: its delta
 * scaled by last interval's ratio, its change subtracted (the two add up
 * to a constant), its change scaled by the ratio of the last changes.
 */
#define RECORD_P_REPEAT		0
#define RECORD_P_MEAN		1
#define RECORD_P_DUP		2
#define RECORD_P_SELF		3
#define RECORD_P_REFS		7
#define RECORD_P_KINDS		2
#define RECORD_P_NCAND		(RECORD_P_SELF + RECORD_P_KINDS * 2 * \
				    RECORD_P_REFS)
#define RECORD_P_EVERY		32	/* samples between full reviews */
#define RECORD_P_MISS		12	/* bits worse than usual: review */
#define RECORD_CLASSES_MAX	256	/* model sets: one per pick column */
#define RECORD_STAGES		3	/* keyframe, first delta, steady */
/*
 * Value models per class: one for the keyframe, one for the first delta,
 * and for steady samples one per (predicted from another column or not)
 * x (bit length of the counter's last residual, in six bands): a counter
 * that just missed tends to miss again, and one predicted from another
 * column is either right or far off.
 */
#define RECORD_BANDS		6
#define RECORD_VCTX		(2 + 2 * RECORD_BANDS)

/* The shape of a selection the predictor needs. */
struct record_layout {
	size_t		 n;
	size_t		*block;		/* first counter of k's record */
	uint8_t		*ncol;		/* columns of that record */
	uint8_t		*col;		/* k's column in it */
	uint16_t	*cls;		/* k's probability model */
	size_t		*dup;		/* k read by an earlier record */
	size_t		 nclasses;
};

void	 record_codec_layout(struct record_layout *,
	    const struct record_selection *);
void	 record_codec_layout_free(struct record_layout *);

/* Models of a sample payload; all start afresh at a heartbeat. */
struct record_models {
	uint16_t	 flags[8];
	uint16_t	 now[RECORD_RC_TREE];
	uint16_t	 status[8][8];	/* by the previous counter's status */
	uint16_t	 calls[RECORD_RC_TREE];
	uint16_t	 naive[RECORD_RC_TREE];
	uint16_t	 version[RECORD_RC_TREE];
	uint16_t	 errlen[RECORD_RC_TREE];
	uint16_t	 tb[RECORD_STAGES][RECORD_RC_TREE];
	struct record_sym *val;		/* [class][context] */
};

/* Predictor state; the writer and the reader each keep one. */
struct record_pred {
	struct record_layout lay;
	uint64_t	*v1;		/* previous value */
	uint64_t	*d1;		/* previous delta */
	uint64_t	*d2;		/* the one before */
	uint64_t	*d0;		/* this sample's, of the counters coded */
	uint64_t	*tb1;		/* previous timebase */
	uint64_t	*cur;		/* this sample's values so far */
	uint64_t	*tbcur;
	uint8_t		*best;		/* candidate for the next sample */
	uint64_t	*guess;		/* its guess at this delta */
	uint8_t		*order;		/* [block + i]: the i-th column coded */
	uint16_t	*score;		/* [k][candidate]: decayed bits */
	uint16_t	*bscore;	/* [k]: the chosen candidate's score,
					   which score[k][best] lags */
	uint8_t		*lastn;		/* bit length of k's last residual;
					   format 3: [i], of place i's */
	uint8_t		*review;	/* [k]: k's candidates to be scored;
					   [b]: some column of record b's */
	struct record_models m;
	unsigned	 format;	/* RECORD_VERSION_2 or _3 */
	uint8_t		*kind;		/* format 3: k's guess, RECORD_LP_* */
	uint32_t	*refj;		/* ... the counter it is taken from */
	uint32_t	*seq;		/* ... the coding order */
	uint32_t	*zpos;		/* ... the zero group's places in seq */
	size_t		 nzero;
	uint32_t	*rest;		/* ... the others' */
	size_t		 nrest;
	uint8_t		*chunk;		/* ... [c]: a member of chunk c moved */
	uint64_t	*zz;		/* [i]: residuals, while coding */
	uint32_t	*bykind;	/* places in seq by kind of guess */
	size_t		 kstart[6];	/* ... where each kind starts */
	uint8_t		*nz;		/* [i]: the counter at place i of seq
					   missed since the last review (bit
					   0), or in the period before (1) */
	uint8_t		*carry;		/* [k], [n + k]: lastn and nz by
					   counter while seq changes */
	unsigned	 hist;		/* samples since the keyframe, <= 3 */
	uint64_t	 nsamp;		/* samples since the keyframe */
	uint64_t	 tbd0;		/* counter 0's last timebase step */
	uint64_t	 key_time;	/* the heartbeat's time */
	uint64_t	 interval;	/* the interval asked for, ns */
	uint64_t	 now1;
	uint64_t	 gap1;
	unsigned	 calls;
	unsigned	 naive;
	uint64_t	 version;
	char		 error[RECORD_ERROR_MAX];
};

/* The column candidate c (>= RECORD_P_SELF) refers to, from column i. */
static inline int
record_codec_ref(unsigned c, int i)
{
	unsigned	 r = (c - RECORD_P_SELF) / RECORD_P_KINDS;
	int		 off = (int)(r / 2) + 1;

	return (r % 2 == 0 ? i - off : i + off);
}

/* The ratio guess: k's last delta scaled as j's changed (dj). */
static inline uint64_t
record_codec_ratio(uint64_t dj, uint64_t d1k, uint64_t d1j)
{
	return (d1j == 0 ? d1k : record_codec_muldiv_in(dj, d1k, d1j));
}

void	 record_codec_pred_init(struct record_pred *,
	    const struct record_selection *, uint64_t interval,
	    unsigned format);
void	 record_codec_pred_free(struct record_pred *);
/* A heartbeat at time t: forget the history, reset every model. */
void	 record_codec_pred_key(struct record_pred *, uint64_t t);
/* This sample's values into cur, coded or decoded in coding order. */
void	 record_codec_encode_values(struct record_pred *,
	    struct record_rc_enc *, struct record_bits *,
	    const struct raw_value *);
/* Decoding takes two passes: the symbols from the range coder, then,
 * when it is done, the plain bits that complete the values. */
void	 record_codec_decode_symbols(struct record_pred *,
	    struct record_rc_dec *);
void	 record_codec_decode_values(struct record_pred *,
	    struct record_bits_rd *);
/* The predicted timebase of counter k; every counter before k is set. */
uint64_t record_codec_pred_now(const struct record_pred *);
/* After the sample (cur, tbcur complete): learn and shift history. */
void	 record_codec_pred_update(struct record_pred *, uint64_t now);
/* Learn from this sample for the record starting at b (reviewed
 * columns only). */
void	 record_codec_learn(struct record_pred *, size_t b);

/*
 * Format 3's steady samples (record-codec-lp.c): every value in plain
 * bits, no range coder, and no learning but every RECORD_LP_EVERY
 * samples, when record_codec_lp_learn() reviews every column.
 */
#define RECORD_LP_EVERY		64	/* samples between reviews */
#define RECORD_LP_FIRST		4	/* steady samples reviewed each */
#define RECORD_LP_CHUNK		32	/* members under one bit */

/* Whether this sample's values are in the LP code: all of format 3's. */
static inline int
record_codec_lp(const struct record_pred *p)
{
	return (p->format >= 3);
}

/* The prediction of counter k in the first two samples after a
 * heartbeat (hist 0 and 1), every counter before it in coding order
 * known. */
uint64_t record_codec_pred_start(struct record_pred *, size_t k);

/* The kinds, references and order from best and order; lastn and nz
 * from carry, by counter, into the new order. */
void	 record_codec_lp_prep(struct record_pred *);
void	 record_codec_lp_encode(struct record_pred *, struct record_bits *,
	    const struct raw_value *);
void	 record_codec_lp_decode(struct record_pred *, struct record_bits_rd *);
/* After a sample: review every column when one is due. */
void	 record_codec_lp_learn(struct record_pred *);
/* A gamma code's value (1 and more), or 0 with r->error set. */
uint64_t record_bits_gamma(struct record_bits_rd *);

/* Called for every counter of every sample, hence inline. */
static inline uint64_t
record_codec_pred_timebase(const struct record_pred *p, size_t k)
{
	if (p->hist == 0)
		return (k > 0 ? p->tbcur[k - 1] : 0);
	if (k > 0)
		return (p->tb1[k] + (p->tbcur[k - 1] - p->tb1[k - 1]));
	return (p->tb1[0] + (p->hist >= 2 ? p->tbd0 : 0));
}

/*
 * Format 3 after a heartbeat's first sample: record_codec_tb_fill() with
 * the values and deltas into cur and d0 in the same pass, which
 * record_codec_lp_encode() then takes as they are.
 */
static inline uint64_t
record_codec_tb_fill_values(struct record_pred *p, const struct raw_value *v,
    uint64_t *diff, uint8_t *anyst)
{
	uint64_t	*tc = p->tbcur, *cur = p->cur, *d0 = p->d0;
	const uint64_t	*t1 = p->tb1, *v1 = p->v1;
	size_t		 k, n = p->lay.n;
	uint64_t	 any = 0, t, s0, x, dif = 0;
	uint8_t		 st = 0;

	/* Every step is counter 0's when each counter moved as far as
	 * counter 0 since the last sample: one difference, no chain. */
	s0 = v[0].timebase - t1[0];
	/* Unrolled, the eight arrays' pointers step once for four
	 * counters. */
#pragma GCC unroll 4
	for (k = 0; k < n; k++) {
		t = v[k].timebase;
		x = v[k].value;
		tc[k] = t;
		cur[k] = x;
		d0[k] = x - v1[k];
		st |= v[k].status;
		any |= t;
		dif |= (t - t1[k]) ^ s0;
	}
	*diff |= dif;
	*anyst = st;
	return (any);
}

/* Whether record_codec_tb_fill() takes the values, and the statuses, in
 * its pass. */
static inline int
record_codec_tb_fused(const struct record_pred *p)
{
	return (p->format >= 3 && p->hist > 0);
}

/*
 * The timebases of v into tbcur; whether every one is as predicted in
 * *exact (n > 0), and whether any is set.  One pass, without a branch
 * per counter: the differences that must match are or'ed together and
 * compare as they do modulo 2^64.  When record_codec_tb_fused(), the
 * statuses or'ed together into *anyst too.
 */
static inline int
record_codec_tb_fill(struct record_pred *p, const struct raw_value *v,
    int *exact, uint8_t *anyst)
{
	uint64_t	*tc = p->tbcur;
	const uint64_t	*t1 = p->tb1;
	size_t		 k, n = p->lay.n;
	uint64_t	 any, diff = 0, t, s0;

	if (record_codec_tb_fused(p)) {
		any = record_codec_tb_fill_values(p, v, &diff, anyst);
		*exact = diff == 0 && tc[0] == record_codec_pred_timebase(p, 0);
		return (any != 0);
	}
	/* Counter 0's timebase, or its step, is kept in a local: a store
	 * to tc could be a store to v for all the compiler knows. */
	tc[0] = any = s0 = v[0].timebase;
	if (p->hist == 0) {
		/* After a heartbeat all must be equal. */
		for (k = 1; k < n; k++) {
			t = v[k].timebase;
			tc[k] = t;
			any |= t;
			diff |= t ^ s0;
		}
	} else {
		/* Each must have moved as far as counter 0. */
		s0 -= t1[0];
		for (k = 1; k < n; k++) {
			t = v[k].timebase;
			tc[k] = t;
			any |= t;
			diff |= (t - t1[k]) ^ s0;
		}
	}
	*exact = diff == 0 && tc[0] == record_codec_pred_timebase(p, 0);
	return (any != 0);
}

/* The model stage and the value model of counter k. */
static inline unsigned
record_codec_pred_stage(const struct record_pred *p)
{
	return (p->hist < RECORD_STAGES ? p->hist : RECORD_STAGES - 1);
}

/* min(5, bit length / 6), for bit lengths 0..64. */
static const uint8_t record_codec_band[65] = {
	0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2,
	3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5,
	5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5,
	5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5
};
_Static_assert(RECORD_BANDS == 6, "the band table has six bands");

/* The value model context of counter k in a steady sample. */
static inline unsigned
record_codec_pred_ctx(const struct record_pred *p, size_t k)
{
	return (2 + (p->best[k] >= RECORD_P_SELF ? RECORD_BANDS : 0) +
	    record_codec_band[p->lastn[k]]);
}

static inline struct record_sym *
record_codec_pred_model(struct record_pred *p, size_t k)
{
	unsigned	 ctx;

	ctx = p->hist < 2 ? p->hist : record_codec_pred_ctx(p, k);
	return (&p->m.val[(size_t)p->lay.cls[k] * RECORD_VCTX + ctx]);
}

/* ---- the reader (record-read.c, record-read-open.c) ----------------- */

/* A record's header, decoded and unwrapped. */
struct record_hdr {
	unsigned	 type;
	int		 kind;		/* RECORD_HDR_* (header bytes) */
	uint64_t	 units;		/* time >> tb_shift, unwrapped */
	uint64_t	 time;		/* ns: exact for full headers */
	size_t		 pay;		/* payload offset */
	size_t		 paylen;	/* sized: payload bytes */
	int		 sized;		/* 0: compact, self-delimited */
};

struct record_reader {
	const uint8_t	*buf;
	size_t		 len;
	unsigned	 shift;		/* tb_shift */
	unsigned	 cbits;		/* compact_bits */
	unsigned	 format;	/* the file header's version */
	size_t		 body;		/* first record after the preamble */
	size_t		 off;		/* next record */
	size_t		 hw;		/* bytes already accounted for */
	int		 eof;
	int		 unclosed;	/* reported already */

	struct record_meta meta;
	struct record_selection sel;
	const uint8_t	*cat;
	size_t		 catlen;
	uint32_t	 sel_gen;
	uint32_t	 cat_gen;
	int		 sel_lost;
	int		 cat_lost;
	int		 keyed;		/* a heartbeat since the selection */
	unsigned	 changes;	/* selection and catalog changes */
	int		 have_last;
	uint64_t	 last_units;
	uint64_t	 seen_records;	/* whole records, this pass */
	uint64_t	 seen_samples;

	/* The preamble's selection and catalog, for rewinding. */
	struct record_selection sel0;
	const uint8_t	*cat0;
	size_t		 catlen0;
	uint64_t	 units0;

	struct record_pred pred;
	struct raw_sample sample;

	struct record_stats st;
	struct record_diag diags[RECORD_DIAG_MAX];
};

const char	*record_read_type_name(unsigned);
/*
 * Decode the header at off.  Returns 0, -HV_ETRUNC (the file ends in it)
 * or -HV_EFORMAT, with *why set to a static reason.
 */
int		 record_read_header(const struct record_reader *, size_t off,
		    struct record_hdr *, const char **why);
/* Whether the sized record at off, whose header is h, passes its CRC. */
int		 record_read_crc(const struct record_reader *, size_t off,
		    const struct record_hdr *);
/* The offset just past the record. */
size_t		 record_read_end(const struct record_hdr *);
/*
 * Read the record at rd->off, whose header is h: 1 with *ev set, 0 for
 * one the caller does not see (a heartbeat), or a negative code with *why
 * set.
 */
int		 record_read_one(struct record_reader *, struct record_event *,
		    struct record_hdr *, const char **why);
/*
 * The frame of the recording into rd->meta.frame: the FRAME record at
 * rd->off (just after the preamble) when it is whole and intact, else
 * unknown.  rd->off does not move: the stream reads the record again,
 * and reports it there if it is damaged.
 */
void		 record_frame_open(struct record_reader *);

#endif /* HVTOP_RECORD_INT_H */
