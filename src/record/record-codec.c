/*
 * The parts of the recording format both sides must compute identically:
 * the layout of a selection as the predictor sees it, and the predictor
 * itself (the checksums are in record-codec-crc.c).  Every prediction is
 * exact integer arithmetic, so a recording made on one machine decodes
 * bit for bit on any other.
 *
 * How a counter is predicted (docs/FORMAT-recording.md, "Values"): the
 * first sample after a heartbeat is stored whole, the second as a delta,
 * and from the third on each counter's delta is predicted by one of a
 * few candidates: the same delta as last time, the delta of the same
 * counter read by another pick, or the delta of an earlier column of the
 * same record scaled by last interval's ratio (counters of one group that
 * count the same activity move together), or that column's change
 * subtracted (idle and busy cycles add up to all cycles).  Which candidate
 * is used is chosen from what worked best on the previous sample, by the
 * writer and the reader alike, so the choice costs no bytes.
 */
#include "config.h"

#include "record/record-int.h"

#include <stdlib.h>
#include <string.h>

#include "util/htab.h"
#include "util/xalloc.h"

uint64_t
record_codec_muldiv_portable(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t	 al = a & 0xffffffffU, ah = a >> 32;
	uint64_t	 bl = b & 0xffffffffU, bh = b >> 32;
	uint64_t	 ll, lh, hl, hh, mid, lo, hi, q = 0, r = 0;
	int		 i, top;

	/* The 128-bit product hi:lo from four 32 x 32 products. */
	ll = al * bl;
	lh = al * bh;
	hl = ah * bl;
	hh = ah * bh;
	mid = (ll >> 32) + (lh & 0xffffffffU) + (hl & 0xffffffffU);
	lo = (ll & 0xffffffffU) | (mid << 32);
	hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
	/* Long division, one bit at a time; only the low 64 quotient bits
	 * are kept, as the 128-bit version keeps them. */
	for (i = 127; i >= 0; i--) {
		top = (r >> 63) != 0;
		r = (r << 1) | ((i >= 64 ? hi >> (i - 64) : lo >> i) & 1);
		q <<= 1;
		if (top || r >= c) {
			r -= c;
			q |= 1;
		}
	}
	return (q);
}

uint64_t
record_codec_muldiv(uint64_t a, uint64_t b, uint64_t c)
{
#ifdef __SIZEOF_INT128__
	/* Both factors below 2^32: the product fits 64 bits. */
	if ((a | b) >> 32 == 0)
		return (a * b / c);
	return ((uint64_t)((unsigned __int128)a * b / c));
#else
	return (record_codec_muldiv_portable(a, b, c));
#endif
}

/* ---- layout -------------------------------------------------------- */

static uint32_t
record_codec_hash(const char *name, int domain, unsigned index,
    unsigned lpar)
{
	uint32_t	 h;

	h = htab_hash_add_str(HTAB_HASH_INIT, name);
	h = htab_hash_add(h, &domain, sizeof domain);
	h = htab_hash_add(h, &index, sizeof index);
	h = htab_hash_add(h, &lpar, sizeof lpar);
	return (htab_hash_end(h));
}

struct record_codec_key {
	const char	*name;
	int		 domain;
	unsigned	 index;
	unsigned	 lpar;
};

/*
 * The first counter whose key is keys[k]'s: k itself when it is the
 * first, which t then holds.
 */
static size_t
record_codec_first(struct htab *t, const struct record_codec_key *keys,
    size_t k)
{
	const struct record_codec_key	*o, *key = &keys[k];
	const struct htab_slot		*s;
	struct htab_probe		 p;

	htab_probe(t, record_codec_hash(key->name, key->domain, key->index,
	    key->lpar), HTAB_ALL, &p);
	while ((s = htab_next(&p)) != NULL) {
		o = &keys[s->val];
		if (o->domain == key->domain && o->index == key->index &&
		    o->lpar == key->lpar && strcmp(o->name, key->name) == 0)
			return (s->val);
	}
	htab_put(t, &p, NULL, (uint32_t)k);
	return (k);
}

void
record_codec_layout(struct record_layout *lay,
    const struct record_selection *sel)
{
	const struct record_pick	*pk;
	struct record_codec_key		*keys;
	struct htab			 slots = { 0 };
	size_t				 k, p, i, c, first;
	size_t				 cls = 0;

	memset(lay, 0, sizeof *lay);
	lay->n = sel->ncounters;
	lay->block = xcalloc(lay->n + 1, sizeof *lay->block);
	lay->ncol = xcalloc(lay->n + 1, sizeof *lay->ncol);
	lay->col = xcalloc(lay->n + 1, sizeof *lay->col);
	lay->cls = xcalloc(lay->n + 1, sizeof *lay->cls);
	lay->dup = xcalloc(lay->n + 1, sizeof *lay->dup);
	keys = xcalloc(lay->n + 1, sizeof *keys);
	htab_init(&slots, lay->n);
	k = 0;
	for (p = 0; p < sel->npicks; p++) {
		pk = &sel->picks[p];
		for (i = 0; i < pk->nindices; i++) {
			for (c = 0; c < pk->nevents && k < lay->n; c++, k++) {
				lay->block[k] = k - c;
				lay->ncol[k] = (uint8_t)pk->nevents;
				lay->col[k] = (uint8_t)c;
				lay->cls[k] = (uint16_t)(cls + c <
				    RECORD_CLASSES_MAX ? cls + c :
				    RECORD_CLASSES_MAX - 1);
				lay->dup[k] = RECORD_NONE;
				keys[k].name = pk->events[c];
				keys[k].domain = pk->domains != NULL ?
				    pk->domains[i] : pk->domain;
				keys[k].index = pk->indices[i];
				keys[k].lpar = pk->lpars != NULL ?
				    pk->lpars[i] : pk->lpar;
				/* The first counter with this key wins. */
				first = record_codec_first(&slots, keys, k);
				if (first < lay->block[k])
					lay->dup[k] = first;
			}
		}
		cls += pk->nevents;
	}
	/* A selection whose counts disagree: the rest stand alone. */
	for (; k < lay->n; k++) {
		lay->block[k] = k;
		lay->ncol[k] = 1;
		lay->dup[k] = RECORD_NONE;
	}
	lay->nclasses = cls < RECORD_CLASSES_MAX ? cls + 1 :
	    RECORD_CLASSES_MAX;
	htab_free(&slots);
	free(keys);
}

void
record_codec_layout_free(struct record_layout *lay)
{
	free(lay->block);
	free(lay->ncol);
	free(lay->col);
	free(lay->cls);
	free(lay->dup);
	memset(lay, 0, sizeof *lay);
}

/* ---- the predictor ------------------------------------------------- */

void
record_codec_pred_init(struct record_pred *p,
    const struct record_selection *sel, uint64_t interval, unsigned format)
{
	size_t	 n;

	memset(p, 0, sizeof *p);
	record_codec_layout(&p->lay, sel);
	n = p->lay.n + 1;
	p->v1 = xcalloc(n, sizeof *p->v1);
	p->d1 = xcalloc(n, sizeof *p->d1);
	p->d2 = xcalloc(n, sizeof *p->d2);
	p->d0 = xcalloc(n, sizeof *p->d0);
	p->tb1 = xcalloc(n, sizeof *p->tb1);
	p->cur = xcalloc(n, sizeof *p->cur);
	p->tbcur = xcalloc(n, sizeof *p->tbcur);
	p->best = xcalloc(n, sizeof *p->best);
	p->order = xcalloc(n, sizeof *p->order);
	p->score = xcalloc(n * RECORD_P_NCAND, sizeof *p->score);
	p->bscore = xcalloc(n, sizeof *p->bscore);
	p->lastn = xcalloc(n, sizeof *p->lastn);
	p->review = xcalloc(2 * n, sizeof *p->review);
	/* Format 3 codes no value with the range coder. */
	if (format < 3)
		p->m.val = xcalloc(p->lay.nclasses * RECORD_VCTX,
		    sizeof *p->m.val);
	p->kind = xcalloc(n, sizeof *p->kind);
	p->refj = xcalloc(n, sizeof *p->refj);
	p->seq = xcalloc(n, sizeof *p->seq);
	p->zpos = xcalloc(n, sizeof *p->zpos);
	p->chunk = xcalloc(n / RECORD_LP_CHUNK + 1, sizeof *p->chunk);
	p->rest = xcalloc(n, sizeof *p->rest);
	p->zz = xcalloc(n, sizeof *p->zz);
	p->bykind = xcalloc(n, sizeof *p->bykind);
	p->nz = xcalloc(n, sizeof *p->nz);
	p->carry = xcalloc(2 * n, sizeof *p->carry);
	p->format = format;
	p->interval = interval;
	record_codec_pred_key(p, 0);
}

void
record_codec_pred_free(struct record_pred *p)
{
	record_codec_layout_free(&p->lay);
	free(p->v1);
	free(p->d1);
	free(p->d2);
	free(p->d0);
	free(p->tb1);
	free(p->cur);
	free(p->tbcur);
	free(p->best);
	free(p->order);
	free(p->score);
	free(p->bscore);
	free(p->lastn);
	free(p->review);
	free(p->m.val);
	free(p->kind);
	free(p->refj);
	free(p->seq);
	free(p->zpos);
	free(p->chunk);
	free(p->rest);
	free(p->zz);
	free(p->bykind);
	free(p->nz);
	free(p->carry);
	memset(p, 0, sizeof *p);
}

void
record_codec_pred_key(struct record_pred *p, uint64_t t)
{
	struct record_models	*m = &p->m;
	size_t			 k;

	p->hist = 0;
	p->nsamp = 0;
	p->key_time = t;
	p->calls = 0;
	p->naive = 0;
	p->version = 0;
	p->error[0] = '\0';
	for (k = 0; k < p->lay.n; k++) {
		p->best[k] = p->lay.dup[k] != RECORD_NONE ? RECORD_P_DUP :
		    RECORD_P_REPEAT;
		p->order[k] = p->lay.col[k];
	}
	memset(p->score, 0, p->lay.n * RECORD_P_NCAND * sizeof *p->score);
	memset(p->bscore, 0, p->lay.n * sizeof *p->bscore);
	memset(p->lastn, 0, p->lay.n * sizeof *p->lastn);
	memset(p->review, 0, 2 * p->lay.n * sizeof *p->review);
	record_rc_model_init(m->flags, sizeof m->flags / sizeof m->flags[0]);
	record_rc_model_init(m->now, RECORD_RC_TREE);
	record_rc_model_init(&m->status[0][0], 8 * 8);
	record_rc_model_init(m->calls, RECORD_RC_TREE);
	record_rc_model_init(m->naive, RECORD_RC_TREE);
	record_rc_model_init(m->version, RECORD_RC_TREE);
	record_rc_model_init(m->errlen, RECORD_RC_TREE);
	record_rc_model_init(&m->tb[0][0], RECORD_STAGES * RECORD_RC_TREE);
	if (m->val != NULL)
		record_rc_sym_init(m->val, p->lay.nclasses * RECORD_VCTX);
	if (p->format >= 3) {
		memset(p->carry, 0, p->lay.n);
		memset(p->carry + p->lay.n, 3, p->lay.n);
		record_codec_lp_prep(p);
	}
}

/*
 * Candidate c's guess at counter k's delta this sample; history >= 2,
 * and the column c refers to is already decoded.
 */
static inline uint64_t
record_codec_guess(const struct record_pred *p, size_t k, unsigned c)
{
	size_t		 j;

	switch (c) {
	case RECORD_P_REPEAT:
		return (p->d1[k]);
	case RECORD_P_MEAN:
		if (p->hist < 3)
			return (p->d1[k]);
		return (p->d1[k] + (uint64_t)((int64_t)(p->d2[k] - p->d1[k]) /
		    2));
	case RECORD_P_DUP:
		j = p->lay.dup[k];
		return (j == RECORD_NONE ? p->d1[k] : p->d0[j]);
	}
	j = p->lay.block[k] + (size_t)record_codec_ref(c, p->lay.col[k]);
	if ((c - RECORD_P_SELF) % RECORD_P_KINDS == 0)
		return (record_codec_ratio(p->d0[j], p->d1[k], p->d1[j]));
	return (p->d1[k] + p->d1[j] - p->d0[j]);
}

static inline uint64_t
record_codec_pred_value(struct record_pred *p, size_t k)
{
	size_t	 j = p->lay.dup[k];

	switch (p->hist) {
	case 0:
		return (j != RECORD_NONE ? p->cur[j] : 0);
	case 1:
		if (j != RECORD_NONE)
			return (p->v1[k] + (p->cur[j] - p->v1[j]));
		/* Totals since the counters started: their ratio is the
		 * long-run ratio of the rates.  Columns go in order here. */
		if (p->lay.col[k] > 0 && p->v1[k - 1] != 0)
			return (p->v1[k] + record_codec_muldiv(p->cur[k - 1] -
			    p->v1[k - 1], p->v1[k], p->v1[k - 1]));
		return (p->v1[k]);
	}
	return (p->v1[k] + record_codec_guess(p, k, p->best[k]));
}

uint64_t
record_codec_pred_start(struct record_pred *p, size_t k)
{
	return (record_codec_pred_value(p, k));
}

/*
 * Counter k of the record at b was coded with a residual of e bits.
 * Reviewing every candidate is most of the cost of learning, so a
 * column's candidates are all scored only every RECORD_P_EVERY samples
 * (records take turns: all) or when its guess was notably worse than
 * usual; otherwise only the chosen candidate's score moves, here, while
 * the numbers are at hand.
 */
static inline void
record_codec_coded(struct record_pred *p, size_t b, size_t k, unsigned e,
    int all)
{
	p->lastn[k] = (uint8_t)e;
	if (p->hist < 2)
		return;
	if (!all && e <= (unsigned)(p->bscore[k] >> 3) + RECORD_P_MISS) {
		p->bscore[k] = (uint16_t)(p->bscore[k] - (p->bscore[k] >> 3) +
		    e);
		return;
	}
	p->review[k] = 1;
	p->review[p->lay.n + b] = 1;
}

/* Whether the record at b reviews all its columns this sample. */
static inline int
record_codec_all(const struct record_pred *p, size_t b)
{
	return (((p->nsamp + b) % RECORD_P_EVERY) == 0);
}

/*
 * A steady sample's values (history 2 and more, most samples): the steps
 * of record_codec_encode_values() without the history's tests, and with
 * the arrays in locals.  The context and the learning go through the
 * helpers the decoder uses, so that the two cannot drift apart.
 */
static void
record_codec_encode_steady(struct record_pred *p, struct record_rc_enc *e0,
    struct record_bits *bw0, const struct raw_value *v)
{
	struct record_rc_enc e1 = *e0, *e = &e1;
	struct record_bits bw1 = *bw0, *bw = &bw1;
	const uint8_t	*ncol = p->lay.ncol, *order = p->order;
	const uint8_t	*best = p->best;
	const uint16_t	*cls = p->lay.cls;
	struct record_sym *val = p->m.val;
	uint64_t	*cur = p->cur, *d0 = p->d0;
	const uint64_t	*v1 = p->v1;
	size_t		 n = p->lay.n, b, i, k, nc;
	uint64_t	 zz, x;
	unsigned	 nb, ctx;
	int		 all;

	/* Room for every value's bytes: no test for it per value. */
	record_rc_enc_room(e, n);
	record_bits_room(bw, n);
	for (b = 0; b < n; b += nc) {
		all = record_codec_all(p, b);
		nc = ncol[b];
		for (i = 0; i < nc; i++) {
			k = b + order[b + i];
			x = v[k].value;
			zz = record_zigzag((int64_t)(x - (v1[k] +
			    record_codec_guess(p, k, best[k]))));
			ctx = record_codec_pred_ctx(p, k);
			nb = record_rc_enc_sym_in(e, &val[(size_t)cls[k] *
			    RECORD_VCTX + ctx], zz, 1);
			record_bits_put_in(bw, zz, nb > 2 ? nb - 2 : 0, 1);
			record_codec_coded(p, b, k, nb, all);
			cur[k] = x;
			d0[k] = x - v1[k];
		}
	}
	*e0 = e1;
	*bw0 = bw1;
}

/* This sample's values, record by record in coding order. */
void
record_codec_encode_values(struct record_pred *p, struct record_rc_enc *e,
    struct record_bits *bw, const struct raw_value *v)
{
	size_t		 n = p->lay.n, b, i, k;
	uint64_t	 zz;
	unsigned	 nb;
	int		 all;

	if (p->hist >= 2) {
		record_codec_encode_steady(p, e, bw, v);
		return;
	}
	for (b = 0; b < n; b += p->lay.ncol[b]) {
		all = record_codec_all(p, b);
		for (i = 0; i < p->lay.ncol[b]; i++) {
			k = b + p->order[b + i];
			zz = record_zigzag((int64_t)(v[k].value -
			    record_codec_pred_value(p, k)));
			nb = record_rc_enc_sym(e, record_codec_pred_model(p, k),
			    zz);
			record_bits_put(bw, zz, nb > 2 ? nb - 2 : 0);
			record_codec_coded(p, b, k, nb, all);
			p->cur[k] = v[k].value;
			p->d0[k] = p->cur[k] - p->v1[k];
		}
	}
}

/* The first pass: each value's symbol, that is its leading bits, into
 * cur, which record_codec_decode_values() completes. */
void
record_codec_decode_symbols(struct record_pred *p, struct record_rc_dec *d)
{
	size_t		 n = p->lay.n, b, i, k;
	int		 all;

	for (b = 0; b < n && d->error == 0; b += p->lay.ncol[b]) {
		all = record_codec_all(p, b);
		for (i = 0; i < p->lay.ncol[b]; i++) {
			k = b + p->order[b + i];
			p->cur[k] = record_rc_dec_sym(d,
			    record_codec_pred_model(p, k));
			record_codec_coded(p, b, k, record_bitlen(p->cur[k]),
			    all);
		}
	}
}

void
record_codec_decode_values(struct record_pred *p, struct record_bits_rd *br)
{
	size_t		 n = p->lay.n, b, i, k;
	uint64_t	 zz;

	for (b = 0; b < n && br->error == 0; b += p->lay.ncol[b]) {
		for (i = 0; i < p->lay.ncol[b]; i++) {
			k = b + p->order[b + i];
			zz = p->cur[k];
			if (p->lastn[k] >= 3)
				zz |= record_bits_get(br, p->lastn[k] - 2);
			p->cur[k] = record_codec_pred_value(p, k) +
			    (uint64_t)record_unzigzag(zz);
			p->d0[k] = p->cur[k] - p->v1[k];
		}
	}
}

uint64_t
record_codec_pred_now(const struct record_pred *p)
{
	switch (p->hist) {
	case 0:
		return (p->key_time);
	case 1:
		return (p->now1 + p->interval);
	}
	return (p->now1 + p->gap1);
}

/* Bits a residual costs, roughly: the score of a guess. */
static unsigned
record_codec_cost(uint64_t d, uint64_t guess)
{
	return (record_bitlen(record_zigzag((int64_t)(d - guess))));
}

/* The best candidate among those that need no other column. */
static unsigned
record_codec_self(const struct record_pred *p, size_t k)
{
	const uint16_t	*sc = &p->score[k * RECORD_P_NCAND];
	unsigned	 c, best = RECORD_P_REPEAT;

	for (c = 1; c < RECORD_P_SELF; c++) {
		if (c == RECORD_P_DUP && p->lay.dup[k] == RECORD_NONE)
			continue;
		if (sc[c] < sc[best])
			best = c;
	}
	return (best);
}

/* A candidate's guess cost bits: decay its score, keep the lowest (bs,
 * in a local, is the lowest score's, as stored). */
static inline void
record_codec_score(uint16_t *sc, unsigned c, unsigned bits, unsigned *best,
    unsigned *bs)
{
	uint16_t	 s = (uint16_t)(sc[c] - (sc[c] >> 3) + bits);

	sc[c] = s;
	if (s < *bs) {
		*bs = s;
		*best = c;
	}
}

/* Both guesses from column j, the candidates from c. */
static inline void
record_codec_score_ref(const struct record_pred *p, uint16_t *sc, unsigned c,
    size_t k, size_t j, unsigned *best, unsigned *bs)
{
	uint64_t	 d = p->d0[k], d1 = p->d1[k], dj = p->d0[j];

	record_codec_score(sc, c, record_codec_cost(d,
	    record_codec_ratio(dj, d1, p->d1[j])), best, bs);
	record_codec_score(sc, c + 1, record_codec_cost(d,
	    d1 + p->d1[j] - dj), best, bs);
}

/* Score every candidate of column i of the record at b; the best. */
static unsigned
record_codec_review(struct record_pred *p, size_t b, unsigned i)
{
	size_t		 k = b + i;
	uint64_t	 d = p->d0[k];
	uint16_t	*sc = &p->score[k * RECORD_P_NCAND];
	unsigned	 c, off, bestc = RECORD_P_REPEAT, bs;
	unsigned	 ncol = p->lay.ncol[b];

	sc[p->best[k]] = p->bscore[k];
	/* The first candidate is the best so far. */
	bs = UINT16_MAX + 1U;
	for (c = 0; c < RECORD_P_SELF; c++) {
		if (c == RECORD_P_DUP && p->lay.dup[k] == RECORD_NONE)
			continue;
		record_codec_score(sc, c, record_codec_cost(d,
		    record_codec_guess(p, k, c)), &bestc, &bs);
	}
	/* Only the columns the record has (most records are narrow), in
	 * candidate order: left then right at each distance. */
	for (off = 1; off <= RECORD_P_REFS && (off <= i || i + off < ncol);
	    off++) {
		c = RECORD_P_SELF + 2 * (off - 1) * RECORD_P_KINDS;
		if (off <= i)
			record_codec_score_ref(p, sc, c, k, k - off, &bestc,
			    &bs);
		if (i + off < ncol)
			record_codec_score_ref(p, sc, c + RECORD_P_KINDS, k,
			    k + off, &bestc, &bs);
	}
	return (bestc);
}

/*
 * Learn from this sample for the record starting at b: score the
 * candidates of the columns marked for review, let each take its best,
 * and order the columns so that each comes after the one it is predicted
 * from; where columns would wait for each other, the one that does best
 * on its own goes first.
 */
void
record_codec_learn(struct record_pred *p, size_t b)
{
	unsigned	 ncol = p->lay.ncol[b], i, c, bestc, x, steps, m;
	int		 parent[256], cyc, changed = 0;
	uint8_t		 done[256], stack[256];
	size_t		 k, nout, top;

	for (i = 0; i < ncol; i++) {
		k = b + i;
		if (!p->review[k])
			continue;
		p->review[k] = 0;
		bestc = record_codec_review(p, b, i);
		if (bestc != p->best[k])
			changed = 1;
		p->best[k] = (uint8_t)bestc;
		p->bscore[k] = p->score[k * RECORD_P_NCAND + bestc];
	}
	if (!changed)
		return;
	for (i = 0; i < ncol; i++) {
		c = p->best[b + i];
		parent[i] = c >= RECORD_P_SELF ? record_codec_ref(c, (int)i) :
		    -1;
	}
	/* Break every cycle at its member that does best alone. */
	do {
		cyc = 0;
		for (i = 0; i < ncol && !cyc; i++) {
			x = i;
			for (steps = 0; parent[x] >= 0 && steps <= ncol;
			    steps++)
				x = (unsigned)parent[x];
			if (parent[x] < 0)
				continue;
			cyc = 1;
			m = x;
			for (c = (unsigned)parent[x]; c != x;
			    c = (unsigned)parent[c]) {
				if (p->score[(b + c) * RECORD_P_NCAND +
				    record_codec_self(p, b + c)] <
				    p->score[(b + m) * RECORD_P_NCAND +
				    record_codec_self(p, b + m)] ||
				    (p->score[(b + c) * RECORD_P_NCAND +
				    record_codec_self(p, b + c)] ==
				    p->score[(b + m) * RECORD_P_NCAND +
				    record_codec_self(p, b + m)] && c < m))
					m = c;
			}
			p->score[(b + m) * RECORD_P_NCAND + p->best[b + m]] =
			    p->bscore[b + m];
			p->best[b + m] = (uint8_t)record_codec_self(p, b + m);
			p->bscore[b + m] = p->score[(b + m) * RECORD_P_NCAND +
			    p->best[b + m]];
			parent[m] = -1;
		}
	} while (cyc);
	/* Sources first. */
	memset(done, 0, ncol);
	nout = 0;
	for (i = 0; i < ncol; i++) {
		top = 0;
		for (x = i; !done[x]; x = (unsigned)parent[x]) {
			stack[top++] = (uint8_t)x;
			done[x] = 1;
			if (parent[x] < 0)
				break;
		}
		while (top > 0)
			p->order[b + nout++] = stack[--top];
	}
}

static void
record_codec_swap(uint64_t **a, uint64_t **b)
{
	uint64_t	*t = *a;

	*a = *b;
	*b = t;
}

void
record_codec_pred_update(struct record_pred *p, uint64_t now)
{
	size_t	 k, n = p->lay.n;

	if (p->format >= 3)
		record_codec_lp_learn(p);
	/* Only records with a column to review: record_codec_coded(). */
	for (k = 0; k < n && p->format < 3; k += p->lay.ncol[k]) {
		if (p->review[n + k]) {
			p->review[n + k] = 0;
			record_codec_learn(p, k);
		}
	}
	p->nsamp++;
	/* History moves by rotating arrays: every sample sets all of cur,
	 * d0 and tbcur before reading them. */
	if (p->hist >= 1) {
		record_codec_swap(&p->d2, &p->d0);
		record_codec_swap(&p->d1, &p->d2);
		if (n > 0)
			p->tbd0 = p->tbcur[0] - p->tb1[0];
		p->gap1 = now - p->now1;
	}
	record_codec_swap(&p->v1, &p->cur);
	record_codec_swap(&p->tb1, &p->tbcur);
	p->now1 = now;
	if (p->hist < 3)
		p->hist++;
}
