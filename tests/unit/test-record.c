/*
 * Unit tests for src/record: numbers and checksums, the writer and the
 * reader in a round trip, timestamps unwrapped across forced wraps, a
 * file cut at every byte, and a byte damaged anywhere.  Pure: recordings
 * are built in memory.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "record/record-int.h"
#include "record/record.h"
#include "util/hverr.h"
#include "util/xalloc.h"

/* A deterministic generator for test data (splitmix64). */
static uint64_t
rnd(uint64_t *s)
{
	uint64_t	 z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (z ^ (z >> 31));
}

/* ---- numbers ------------------------------------------------------- */

static void
test_varints(void **state)
{
	static const uint64_t	 vals[] = { 0, 1, 63, 64, 127, 128, 8191,
				    8192, 0xffffffffULL, 1ULL << 56,
				    (1ULL << 63) - 1, 1ULL << 63,
				    UINT64_MAX - 1, UINT64_MAX };
	struct record_buf	 b = { 0 };
	struct record_cur	 c;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof vals / sizeof vals[0]; i++) {
		record_buf_varint(&b, vals[i]);
	}
	memset(&c, 0, sizeof c);
	c.p = b.p;
	c.len = b.len;
	for (i = 0; i < sizeof vals / sizeof vals[0]; i++) {
		assert_true(record_cur_varint(&c) == vals[i]);
	}
	assert_int_equal(c.error, 0);
	assert_int_equal(c.off, b.len);
	/* Cut short, and 11 bytes of continuation. */
	c.off = 0;
	c.len = 1;
	c.p = (const uint8_t *)"\x80";
	(void)record_cur_varint(&c);
	assert_int_equal(c.error, -HV_ETRUNC);
	memset(&c, 0, sizeof c);
	c.p = (const uint8_t *)"\xff\xff\xff\xff\xff\xff\xff\xff\xff\x7f";
	c.len = 10;
	(void)record_cur_varint(&c);
	assert_int_equal(c.error, -HV_EFORMAT);
	/* A padded number is not canonical. */
	memset(&c, 0, sizeof c);
	c.p = (const uint8_t *)"\x81\x00";
	c.len = 2;
	(void)record_cur_varint(&c);
	assert_int_equal(c.error, -HV_EFORMAT);
	assert_true(record_zigzag(-1) == 1);
	assert_true(record_zigzag(INT64_MIN) == UINT64_MAX);
	assert_true(record_unzigzag(UINT64_MAX) == INT64_MIN);
	assert_true(record_unzigzag(record_zigzag(123456789)) == 123456789);
	record_buf_free(&b);
}

static void
test_checksums(void **state)
{
	const uint8_t	*s = (const uint8_t *)"123456789";

	(void)state;
	assert_int_equal(record_codec_crc32(0, s, 9), 0xcbf43926);
	/* In two pieces gives the same. */
	assert_int_equal(record_codec_crc32(record_codec_crc32(0, s, 4),
	    s + 4, 5), 0xcbf43926);
	assert_int_equal(record_codec_crc16(0xffff, s, 9), 0x29b1);
}

/* CRC-16/CCITT a bit at a time: what the tables must agree with. */
static uint16_t
test_crc16_bitwise(uint16_t crc, const uint8_t *p, size_t n)
{
	int	 i;

	for (; n > 0; n--, p++) {
		crc ^= (uint16_t)(*p << 8);
		for (i = 0; i < 8; i++)
			crc = (uint16_t)(crc & 0x8000 ? crc << 1 ^ 0x1021 :
			    crc << 1);
	}
	return (crc);
}

/* Every length up to a few words and every start, so that each of the
 * table steps and the byte steps after them is checked. */
static void
test_crc16_lengths(void **state)
{
	uint8_t		 buf[80];
	size_t		 i, n, off;
	uint32_t	 seed = 1;

	(void)state;
	for (i = 0; i < sizeof buf; i++) {
		seed = seed * 1103515245 + 12345;
		buf[i] = (uint8_t)(seed >> 16);
	}
	for (off = 0; off < 8; off++) {
		for (n = 0; n + off <= sizeof buf; n++)
			assert_int_equal(record_codec_crc16(0xffff, buf + off,
			    n), test_crc16_bitwise(0xffff, buf + off, n));
	}
}

static void
test_muldiv(void **state)
{
	uint64_t	 seed = 7, a, b, c;
	int		 i;

	(void)state;
	assert_true(record_codec_muldiv(10, 20, 7) == 28);
	assert_true(record_codec_muldiv(UINT64_MAX, UINT64_MAX, UINT64_MAX)
	    == UINT64_MAX);
	/* (3 * (2^64 - 1)) / 2 = 2^64 + 2^63 - 2, kept modulo 2^64. */
	assert_true(record_codec_muldiv_portable(UINT64_MAX, 3, 2) ==
	    (1ULL << 63) - 2);
	for (i = 0; i < 20000; i++) {
		a = rnd(&seed) >> (rnd(&seed) % 64);
		b = rnd(&seed) >> (rnd(&seed) % 64);
		c = (rnd(&seed) >> (rnd(&seed) % 64)) | 1;
		assert_true(record_codec_muldiv(a, b, c) ==
		    record_codec_muldiv_portable(a, b, c));
	}
}

/* Plain bits of every width read back, and bad padding is damage. */
static void
test_bits(void **state)
{
	struct record_buf	 b = { 0 };
	struct record_bits	 w;
	struct record_bits_rd	 r;
	uint64_t		 seed = 11, v[2000], mask;
	unsigned		 n[2000];
	size_t			 i;

	(void)state;
	record_bits_init(&w, &b);
	for (i = 0; i < 2000; i++) {
		n[i] = (unsigned)(i % 65);
		mask = n[i] == 64 ? UINT64_MAX : ((uint64_t)1 << n[i]) - 1;
		v[i] = rnd(&seed) & mask;
		/* Bits above n must not leak in. */
		record_bits_put(&w, v[i] | ~mask, n[i]);
	}
	record_bits_flush(&w);
	record_bits_rd_init(&r, b.p, b.len);
	for (i = 0; i < 2000; i++)
		assert_true(record_bits_get(&r, n[i]) == v[i]);
	assert_int_equal(record_bits_end(&r), 0);
	assert_int_equal(r.off, b.len);
	/* One bit short: truncated. */
	record_bits_rd_init(&r, b.p, b.len - 1);
	for (i = 0; i < 2000 && r.error == 0; i++)
		(void)record_bits_get(&r, n[i]);
	assert_int_equal(r.error, -HV_ETRUNC);
	/* A padding bit set: damage. */
	record_buf_reset(&b);
	record_bits_init(&w, &b);
	record_bits_put(&w, 5, 3);
	record_bits_flush(&w);
	assert_int_equal(b.len, 1);
	b.p[0] |= 1;
	record_bits_rd_init(&r, b.p, b.len);
	assert_true(record_bits_get(&r, 3) == 5);
	assert_int_equal(record_bits_end(&r), -HV_EFORMAT);
	record_buf_free(&b);
}

/* A table's frequencies always fill 2^15, none below 1, cum in step. */
static void
check_sym(const struct record_sym *m)
{
	unsigned	 s, cum = 0;

	for (s = 0; s < RECORD_SYM_N; s++) {
		assert_int_equal(m->tab[s].cum, cum);
		assert_true(m->tab[s].freq >= 1);
		cum += m->tab[s].freq;
	}
	assert_int_equal(cum, 1U << RECORD_SYM_SHIFT);
}

/*
 * LZMA's range encoder as published, with its one-byte cache, written out
 * here to check that hvtop's (which carries into the bytes already out)
 * writes the same bytes, and to count the carries.
 */
struct ref_enc {
	uint8_t		 out[1 << 16];
	size_t		 len;
	uint64_t	 low;
	uint32_t	 range;
	uint8_t		 cache;
	uint64_t	 cache_size;
	size_t		 carries;
};

static void
ref_shift(struct ref_enc *r)
{
	if ((uint32_t)r->low < 0xff000000U || (r->low >> 32) != 0) {
		uint8_t	 carry = (uint8_t)(r->low >> 32), c = r->cache;

		r->carries += carry;
		do {
			r->out[r->len++] = (uint8_t)(c + carry);
			c = 0xff;
		} while (--r->cache_size != 0);
		r->cache = (uint8_t)(r->low >> 24);
	}
	r->cache_size++;
	r->low = (r->low & 0x00ffffffU) << 8;
}

static void
ref_norm(struct ref_enc *r)
{
	while (r->range < (1U << 24)) {
		r->range <<= 8;
		ref_shift(r);
	}
}

static void
ref_sym(struct ref_enc *r, const struct record_sym *m, unsigned s)
{
	uint32_t	 q = r->range >> RECORD_SYM_SHIFT;

	r->low += (uint64_t)q * m->tab[s].cum;
	r->range = q * m->tab[s].freq;
	ref_norm(r);
}

static void
ref_plain(struct ref_enc *r, uint64_t v, unsigned n)
{
	unsigned	 k;

	while (n > 0) {
		k = n > 16 ? 16 : n;
		n -= k;
		r->range >>= k;
		r->low += ((v >> n) & ((1U << k) - 1)) * (uint64_t)r->range;
		ref_norm(r);
	}
}

/*
 * Symbols through the range coder with one model: one symbol only (the
 * table at its most skewed, which keeps low against the top so carries
 * run through bytes of 0xff), random ones, and a few mixed; plain bits
 * after each.  The bytes must be LZMA's and decode back.
 */
static void
test_symbols(void **state)
{
	static struct ref_enc	 ref;
	struct record_sym	*me, *md, *mr;
	struct record_buf	 b = { 0 };
	struct record_rc_enc	 e;
	struct record_rc_dec	 d;
	uint64_t		 seed = 5, v[6000], x;
	size_t			 i;
	unsigned		 n, sym;

	(void)state;
	me = xcalloc(1, sizeof *me);
	md = xcalloc(1, sizeof *md);
	mr = xcalloc(1, sizeof *mr);
	record_rc_sym_init(me, 1);
	record_rc_sym_init(md, 1);
	record_rc_sym_init(mr, 1);
	check_sym(me);
	for (i = 0; i < 6000; i++) {
		if (i < 2000)
			v[i] = (uint64_t)1 << 62 | 1;	/* symbol 124 */
		else if (i < 4000)
			v[i] = rnd(&seed) >> (rnd(&seed) % 64);
		else
			v[i] = i % 7 == 0 ? UINT64_MAX : i % 3;
	}
	record_rc_enc_init(&e, &b);
	memset(&ref, 0, sizeof ref);
	ref.range = 0xffffffffU;
	ref.cache_size = 1;
	for (i = 0; i < 6000; i++) {
		n = record_rc_enc_sym(&e, me, v[i]);
		if (n >= 3)
			record_rc_enc_direct(&e, v[i], n - 2);
		n = record_bitlen(v[i]);
		sym = n < 2 ? n : 2 * n - 2 + (unsigned)((v[i] >> (n - 2)) & 1);
		ref_sym(&ref, mr, sym);
		if (n >= 3)
			ref_plain(&ref, v[i], n - 2);
		/* The reference's table follows the same counts. */
		mr->count[sym] = (uint16_t)(mr->count[sym] + RECORD_SYM_STEP);
		mr->total = (uint16_t)(mr->total + RECORD_SYM_STEP);
		if (--mr->left == 0)
			record_rc_sym_rebuild(mr);
		if (i % 500 == 499)
			check_sym(me);
	}
	record_rc_enc_flush(&e);
	for (i = 0; i < 5; i++)
		ref_shift(&ref);
	/* LZMA's first byte is always 0 and hvtop does not store it. */
	assert_true(ref.carries > 0);
	assert_int_equal(ref.out[0], 0);
	assert_int_equal(b.len, ref.len - 1);
	assert_memory_equal(b.p, ref.out + 1, b.len);
	record_rc_dec_init(&d, b.p, b.len);
	for (i = 0; i < 6000; i++) {
		x = record_rc_dec_sym(&d, md);
		n = record_bitlen(x);
		if (n >= 3)
			x |= record_rc_dec_direct(&d, n - 2);
		assert_true(x == v[i]);
	}
	assert_int_equal(d.error, 0);
	assert_int_equal(d.off, b.len);
	assert_memory_equal(md, me, sizeof *me);
	free(me);
	free(md);
	free(mr);
	record_buf_free(&b);
}

/* ---- a recording in memory ----------------------------------------- */

static const char *const ev_names[] = { "CYC", "INST", "IDLE", "MEM_RD",
	"MEM_WR", "PB_CYC" };

/* Two picks: a 3-column group on chips 0-1 and one event on cores 0-3,
 * the event repeating the group's first column for a duplicate. */
static void
make_selection(struct record_selection *sel, int variant)
{
	struct record_pick	*pk;
	size_t			 i;

	memset(sel, 0, sizeof *sel);
	sel->npicks = variant ? 1 : 2;
	sel->picks = xcalloc(2, sizeof *sel->picks);
	pk = &sel->picks[0];
	pk->kind = 0;
	pk->spec = xstrdup(variant ? "GRP@chip:1" : "GRP@chip:0-1");
	pk->domain = 1;
	pk->lpar = 0xffff;
	pk->nindices = variant ? 1 : 2;
	pk->indices = xcalloc(2, sizeof *pk->indices);
	pk->indices[0] = variant ? 1 : 0;
	pk->indices[1] = 1;
	pk->nevents = 3;
	pk->events = xcalloc(3, sizeof *pk->events);
	for (i = 0; i < 3; i++)
		pk->events[i] = xstrdup(ev_names[i]);
	sel->ncounters = pk->nindices * 3;
	if (variant)
		return;
	pk = &sel->picks[1];
	pk->kind = 1;
	pk->spec = xstrdup("CYC@chip:1,0");
	pk->domain = 1;
	pk->lpar = 0xffff;
	pk->nindices = 2;
	pk->indices = xcalloc(2, sizeof *pk->indices);
	pk->indices[0] = 1;
	pk->indices[1] = 0;
	pk->nevents = 1;
	pk->events = xcalloc(1, sizeof *pk->events);
	pk->events[0] = xstrdup("CYC");
	sel->ncounters += 2;
}

static void
make_meta(struct record_meta *m)
{
	memset(m, 0, sizeof *m);
	m->label = xstrdup("SIMULATED test frame");
	m->writer = xstrdup("hvtop test");
	m->epoch_ns = 1767225600ULL * 1000000000ULL;
	m->interval_ns = 1000000000ULL;
	m->topo.sockets = 2;
	m->topo.chips = 2;
	m->topo.cores = 24;
	m->topo.smt = 8;
	m->topo.vcpus = 16;
	m->topo.interface = 2;
	m->topo.privileged = 1;
	m->topo.timebase_hz = 512000000;
	m->nconsts = 1;
	m->consts = xcalloc(1, sizeof *m->consts);
	m->consts[0].name = xstrdup("PB_Freq");
	m->consts[0].value = 2e9;
}

/* Synthetic samples: accumulators at varying rates, some related. */
struct gen {
	uint64_t	 seed;
	uint64_t	 now;
	uint64_t	 step;
	uint64_t	 acc[16];
	uint64_t	 tb;
	unsigned	 n;
};

static void
gen_sample(struct gen *g, struct raw_sample *s, unsigned n, int faults)
{
	uint64_t	 busy, r;
	unsigned	 k;

	memset(s, 0, sizeof *s);
	s->values = xcalloc(n + 1, sizeof *s->values);
	s->nvalues = n;
	s->now = g->now;
	g->now += g->step + (rnd(&g->seed) % 3 == 0 ? rnd(&g->seed) % 1000 :
	    0);
	g->tb += 512000000 / 4 + rnd(&g->seed) % 2;
	busy = 1000000000ULL + rnd(&g->seed) % 100000000;
	for (k = 0; k < n && k < 16; k++) {
		switch (k % 4) {
		case 0:
			g->acc[k] += busy;
			break;
		case 1:
			g->acc[k] += busy / 3;
			break;
		case 2:
			g->acc[k] += 3800000000ULL - busy;
			break;
		default:
			g->acc[k] += rnd(&g->seed) % 100000;
			break;
		}
		s->values[k].value = g->acc[k];
		s->values[k].timebase = k < 4 ? g->tb : g->tb + 7;
		if (faults && (r = rnd(&g->seed) % 10) < 2)
			s->values[k].status = (uint8_t)(1 + r);
	}
	/* A counter that goes backwards now and then. */
	if (n > 4 && rnd(&g->seed) % 17 == 0)
		s->values[4].value -= 5;
	s->calls = 1 + (unsigned)(rnd(&g->seed) % 2);
	s->naive_calls = 5;
	s->catalog_version = 3;
	if (faults && rnd(&g->seed) % 4 == 0)
		snprintf(s->error, sizeof s->error, "H_GET_24X7_DATA: "
		    "H_BUSY (%u)", (unsigned)(rnd(&g->seed) % 3));
}

struct rec {
	struct record_buf	 buf;
	struct raw_sample	*samples;
	size_t			 nsamples;
	size_t			 cut;		/* where samples start */
};

static void
rec_free(struct rec *r)
{
	size_t	 i;

	for (i = 0; i < r->nsamples; i++)
		free(r->samples[i].values);
	free(r->samples);
	record_buf_free(&r->buf);
}

/*
 * Record nsamples samples; with changes, the selection changes at a third
 * and the catalog at two thirds.
 */
static void
make_recording(struct rec *r, const struct record_writer_opts *o,
    size_t nsamples, uint64_t start, uint64_t step, int faults, int changes)
{
	struct record_writer	*w;
	struct record_selection	 sel, sel2;
	struct record_meta	 m;
	struct gen		 g;
	char			*cause = NULL;
	size_t			 i;
	int			 variant = 0;

	memset(r, 0, sizeof *r);
	memset(&g, 0, sizeof g);
	g.seed = 42;
	g.now = start;
	g.step = step;
	make_selection(&sel, 0);
	make_selection(&sel2, 1);
	make_meta(&m);
	w = record_write_new(o);
	assert_int_equal(record_write_begin(w, &m, "CATALOG-1", 9, &sel,
	    start, &r->buf, &cause), 0);
	r->cut = r->buf.len;
	r->samples = xcalloc(nsamples + 1, sizeof *r->samples);
	for (i = 0; i < nsamples; i++) {
		if (changes && i == nsamples / 3) {
			assert_int_equal(record_write_select(w, &sel2,
			    &r->buf, &cause), 0);
			variant = 1;
		}
		if (changes && i == 2 * nsamples / 3)
			assert_int_equal(record_write_catalog(w,
			    "CATALOG-2!", 10, &r->buf, &cause), 0);
		gen_sample(&g, &r->samples[i], variant ? 3 : 8, faults);
		assert_int_equal(record_write_sample(w, &r->samples[i],
		    &r->buf, &cause), 0);
		r->nsamples++;
	}
	record_write_end(w, &r->buf);
	record_write_free(w);
	record_selection_free(&sel);
	record_selection_free(&sel2);
	record_meta_free(&m);
}

static void
assert_same_sample(const struct raw_sample *a,
    const struct raw_sample *b)
{
	size_t	 k;

	assert_true(a->now == b->now);
	assert_int_equal(a->nvalues, b->nvalues);
	assert_int_equal(a->calls, b->calls);
	assert_int_equal(a->naive_calls, b->naive_calls);
	assert_true(a->catalog_version == b->catalog_version);
	assert_string_equal(a->error, b->error);
	for (k = 0; k < a->nvalues; k++) {
		assert_true(a->values[k].value == b->values[k].value);
		assert_true(a->values[k].timebase == b->values[k].timebase);
		assert_int_equal(a->values[k].status, b->values[k].status);
	}
}

/*
 * Read a recording; every sample delivered must be one that was written
 * (matched by time), in order.  Returns how many were delivered.
 */
static size_t
read_all(const struct rec *r, const uint8_t *buf, size_t len,
    struct record_stats *st, int expect_open)
{
	struct record_reader	*rd;
	struct record_event	 ev;
	char			*cause = NULL;
	size_t			 got = 0, j = 0;
	int			 error;

	error = record_read_open(buf, len, &rd, &cause);
	if (!expect_open) {
		if (error == 0)
			record_read_free(rd);
		free(cause);
		return (0);
	}
	if (error != 0)
		fail_msg("open: %s", cause);
	while (record_read_next(rd, &ev) != RECORD_EV_EOF) {
		if (ev.kind != RECORD_EV_SAMPLE)
			continue;
		while (j < r->nsamples && r->samples[j].now != ev.sample->now)
			j++;
		if (j == r->nsamples)
			fail_msg("sample at %llu was never written",
			    (unsigned long long)ev.sample->now);
		assert_same_sample(ev.sample, &r->samples[j]);
		j++;
		got++;
	}
	if (st != NULL)
		record_read_stats(rd, st);
	record_read_free(rd);
	return (got);
}

static void
test_roundtrip(void **state)
{
	struct record_reader		*rd;
	struct record_event		 ev;
	struct record_stats		 st;
	struct rec			 r;
	const struct record_meta	*m;
	const struct record_selection	*sel;
	const void			*cat;
	char				*cause = NULL;
	size_t				 catlen, n = 0, nsel = 0, ncat = 0;

	(void)state;
	make_recording(&r, NULL, 400, 5000, 1000000000ULL, 1, 1);
	assert_int_equal(record_read_open(r.buf.p, r.buf.len, &rd, &cause),
	    0);
	m = record_read_meta(rd);
	assert_string_equal(m->label, "SIMULATED test frame");
	assert_true(m->epoch_ns == 1767225600ULL * 1000000000ULL);
	assert_int_equal(m->topo.cores, 24);
	assert_int_equal(m->nconsts, 1);
	assert_true(m->consts[0].value == 2e9);
	sel = record_read_selection(rd);
	assert_int_equal(sel->npicks, 2);
	assert_string_equal(sel->picks[1].spec, "CYC@chip:1,0");
	assert_int_equal(sel->picks[1].indices[0], 1);
	assert_int_equal(sel->picks[1].indices[1], 0);
	assert_int_equal(sel->ncounters, 8);
	cat = record_read_catalog(rd, &catlen);
	assert_int_equal(catlen, 9);
	assert_memory_equal(cat, "CATALOG-1", 9);
	while (record_read_next(rd, &ev) != RECORD_EV_EOF) {
		if (ev.kind == RECORD_EV_SELECT) {
			nsel++;
			assert_int_equal(n, 400 / 3);
			assert_int_equal(record_read_selection(rd)->ncounters,
			    3);
		} else if (ev.kind == RECORD_EV_CATALOG) {
			ncat++;
			cat = record_read_catalog(rd, &catlen);
			assert_memory_equal(cat, "CATALOG-2!", 10);
		} else if (ev.kind == RECORD_EV_SAMPLE)
			assert_same_sample(ev.sample, &r.samples[n++]);
	}
	assert_int_equal(n, 400);
	assert_int_equal(nsel, 1);
	assert_int_equal(ncat, 1);
	record_read_stats(rd, &st);
	assert_int_equal(st.samples, 400);
	assert_int_equal(st.dropped_records, 0);
	assert_int_equal(st.ndiags, 0);
	assert_true(st.clean_end);
	assert_true(st.heartbeats >= 3);

	/* A second pass gives the same and reports nothing twice. */
	record_read_rewind(rd);
	n = 0;
	while (record_read_next(rd, &ev) != RECORD_EV_EOF) {
		if (ev.kind == RECORD_EV_SAMPLE)
			assert_same_sample(ev.sample, &r.samples[n++]);
	}
	assert_int_equal(n, 400);
	record_read_stats(rd, &st);
	assert_int_equal(st.samples, 400);
	assert_int_equal(st.ndiags, 0);
	record_read_free(rd);
	rec_free(&r);
}

/*
 * An @lpar pick: records of (partition, vcpu, domain) for the places of
 * the mask, units in the order a selection makes them.
 */
static void
make_lpar_pick(struct record_pick *pk, const uint16_t *lpars,
    const uint16_t *vcpus, size_t nl, unsigned places)
{
	size_t	 i, n = 0, np = 0;
	unsigned v, p;

	for (p = 0; p < 4; p++)
		np += (places >> p) & 1;
	for (i = 0; i < nl; i++)
		n += vcpus[i] * np;
	memset(pk, 0, sizeof *pk);
	pk->kind = 0;
	pk->spec = xstrdup("GRP@lpar");
	pk->domain = 7;
	pk->lpar = 0xffff;
	pk->places = places;
	pk->indices = xcalloc(n + 1, sizeof *pk->indices);
	pk->lpars = xcalloc(n + 1, sizeof *pk->lpars);
	pk->domains = xcalloc(n + 1, sizeof *pk->domains);
	for (i = 0; i < nl; i++) {
		for (v = 0; v < vcpus[i]; v++) {
			for (p = 0; p < 4; p++) {
				if (!(places >> p & 1))
					continue;
				pk->indices[pk->nindices] = v;
				pk->lpars[pk->nindices] = lpars[i];
				pk->domains[pk->nindices++] = (uint8_t)(3 + p);
			}
		}
	}
	pk->nevents = 2;
	pk->events = xcalloc(3, sizeof *pk->events);
	pk->events[0] = xstrdup("CYC");
	pk->events[1] = xstrdup("INST");
}

/* A plain pick and an @lpar pick over the partitions given. */
static void
make_lpar_selection(struct record_selection *sel, const uint16_t *lpars,
    const uint16_t *vcpus, size_t nl, unsigned places)
{
	size_t	 i;

	make_selection(sel, 1);
	sel->picks = xreallocarray(sel->picks, 2, sizeof *sel->picks);
	make_lpar_pick(&sel->picks[1], lpars, vcpus, nl, places);
	sel->npicks = 2;
	sel->ncounters += sel->picks[1].nindices * 2;
	sel->nlpars = nl;
	sel->lpars = xcalloc(nl + 1, sizeof *sel->lpars);
	for (i = 0; i < nl; i++) {
		sel->lpars[i].id = lpars[i];
		sel->lpars[i].vcpus = vcpus[i];
		sel->lpars[i].cfg = 0x10000u * lpars[i] + 7;
	}
	sel->lpar_self = 1;
}

static void
assert_same_lpar_pick(const struct record_pick *a,
    const struct record_pick *b)
{
	assert_int_equal(a->kind, b->kind);
	assert_int_equal(a->domain, b->domain);
	assert_int_equal(a->places, b->places);
	assert_int_equal(a->nindices, b->nindices);
	assert_non_null(a->lpars);
	assert_memory_equal(a->indices, b->indices,
	    a->nindices * sizeof *a->indices);
	assert_memory_equal(a->lpars, b->lpars,
	    a->nindices * sizeof *a->lpars);
	assert_memory_equal(a->domains, b->domains, a->nindices);
}

/*
 * Partitions: an @lpar pick and its partitions survive the round trip,
 * a rediscovery is a new selection record, a pick whose records are not
 * in units is refused, and a selection without one writes no partitions.
 */
static void
test_lpar(void **state)
{
	static const uint16_t	 l1[] = { 1, 3 }, v1[] = { 2, 1 };
	static const uint16_t	 l2[] = { 1, 2, 300 }, v2[] = { 2, 1, 1 };
	struct record_writer	*w;
	struct record_reader	*rd;
	struct record_event	 ev;
	struct record_selection	 sel, sel2, bad;
	const struct record_selection *got;
	struct record_meta	 m;
	struct record_buf	 buf = { 0 };
	struct raw_sample	 s[20];
	struct gen		 g;
	char			*cause = NULL;
	size_t			 i, n = 0, nsel = 0;

	(void)state;
	memset(&g, 0, sizeof g);
	g.seed = 7;
	g.now = 1000;
	g.step = 1000000000ULL;
	make_lpar_selection(&sel, l1, v1, 2, 0xf);
	make_lpar_selection(&sel2, l2, v2, 3, 0x5);
	sel2.lpars_denied = 0;
	assert_int_equal(sel.ncounters, 3 + 3 * 4 * 2);
	assert_int_equal(sel2.ncounters, 3 + 4 * 2 * 2);
	make_meta(&m);
	w = record_write_new(NULL);
	assert_int_equal(record_write_begin(w, &m, "CATALOG-1", 9, &sel,
	    1000, &buf, &cause), 0);
	for (i = 0; i < 20; i++) {
		if (i == 10)
			assert_int_equal(record_write_select(w, &sel2, &buf,
			    &cause), 0);
		gen_sample(&g, &s[i], (unsigned)(i < 10 ? sel.ncounters :
		    sel2.ncounters), 0);
		assert_int_equal(record_write_sample(w, &s[i], &buf, &cause),
		    0);
	}
	record_write_end(w, &buf);
	record_write_free(w);

	assert_int_equal(record_read_open(buf.p, buf.len, &rd, &cause), 0);
	got = record_read_selection(rd);
	assert_int_equal(got->ncounters, sel.ncounters);
	assert_null(got->picks[0].lpars);
	assert_same_lpar_pick(&got->picks[1], &sel.picks[1]);
	assert_int_equal(record_selection_compare(got, &sel), 0);
	assert_int_equal(got->nlpars, 2);
	assert_int_equal(got->lpar_self, 1);
	assert_int_equal(got->lpars[1].id, 3);
	assert_int_equal(got->lpars[1].vcpus, 1);
	assert_int_equal(got->lpars[1].cfg, 0x30007);
	while (record_read_next(rd, &ev) != RECORD_EV_EOF) {
		if (ev.kind == RECORD_EV_SELECT) {
			nsel++;
			got = record_read_selection(rd);
			assert_int_equal(n, 10);
			assert_same_lpar_pick(&got->picks[1], &sel2.picks[1]);
			assert_int_equal(got->nlpars, 3);
			assert_int_equal(got->lpars[2].id, 300);
			assert_int_equal(record_selection_compare(got, &sel2),
			    0);
			assert_int_equal(record_selection_compare(got, &sel),
			    2);
		} else if (ev.kind == RECORD_EV_SAMPLE)
			assert_same_sample(ev.sample, &s[n++]);
	}
	assert_int_equal(n, 20);
	assert_int_equal(nsel, 1);
	record_read_free(rd);
	for (i = 0; i < 20; i++)
		free(s[i].values);

	/* Records out of units cannot be written. */
	record_selection_copy(&bad, &sel);
	bad.picks[1].domains[1] = 3;
	w = record_write_new(NULL);
	record_buf_reset(&buf);
	assert_int_equal(record_write_begin(w, &m, "C", 1, &bad, 0, &buf,
	    &cause), -HV_ELIMIT);
	free(cause);
	cause = NULL;
	record_write_free(w);
	record_selection_free(&bad);

	/* Without an @lpar pick the partitions are not kept. */
	make_selection(&bad, 0);
	record_selection_topology(&bad, NULL);
	assert_false(record_selection_has_lpar(&bad));
	assert_null(bad.lpars);
	record_selection_free(&bad);

	record_buf_free(&buf);
	record_selection_free(&sel);
	record_selection_free(&sel2);
	record_meta_free(&m);
}

/*
 * Timestamps near the wrap of every field: tiny compact widths, so that
 * compact stamps wrap every few samples, and starts just below 2^32 and
 * 2^64 units.  Gaps longer than a wrap must bring a heartbeat.
 */
static void
test_unwrap(void **state)
{
	static const struct {
		unsigned	 shift, bits;
		uint64_t	 start, step;
	} cases[] = {
		{ 20, 8, 0, 100000000 },		/* wraps every 2.7 */
		{ 20, 8, 0, 300000000 },		/* longer than a wrap */
		{ 0, 1, 12345, 1 },			/* 1 ns, 1 bit */
		{ 0, 4, 0xfffffff0ULL, 3 },		/* across 2^32 units */
		{ 10, 27, (0xffffffffULL << 10) - 50000, 1000 },
		{ 20, 27, UINT64_MAX - 200ULL * 1000000000ULL, 1000000000 },
		{ 32, 1, 0, 1ULL << 31 },
	};
	struct record_writer_opts	 o;
	struct record_stats		 st;
	struct rec			 r;
	size_t				 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		record_write_defaults(&o);
		o.tb_shift = cases[i].shift;
		o.compact_bits = cases[i].bits;
		make_recording(&r, &o, 150, cases[i].start, cases[i].step, 0,
		    0);
		assert_int_equal(read_all(&r, r.buf.p, r.buf.len, &st, 1),
		    150);
		assert_int_equal(st.ndiags, 0);
		/* A gap beyond the compact range forces a heartbeat. */
		if ((cases[i].step >> cases[i].shift) >=
		    (1ULL << cases[i].bits))
			assert_true(st.heartbeats >= 150);
		rec_free(&r);
	}
}

/* Cut the file at every byte past the preamble: never a wrong sample,
 * every whole sample before the cut is kept, the cut is reported. */
static void
test_torn(void **state)
{
	struct record_stats	 st;
	struct rec		 r;
	size_t			 len, got, prev = 0;

	(void)state;
	make_recording(&r, NULL, 60, 0, 1000000000ULL, 1, 1);
	/* The preamble must be whole. */
	assert_int_equal(read_all(&r, r.buf.p, r.cut - 1, NULL, 0), 0);
	for (len = r.cut; len <= r.buf.len; len++) {
		got = read_all(&r, r.buf.p, len, &st, 1);
		assert_true(got >= prev);
		prev = got;
		assert_true(st.dropped_records <= 1);
		if (len < r.buf.len)
			assert_false(st.clean_end);
	}
	assert_int_equal(prev, 60);
	rec_free(&r);
}

/*
 * Damage one byte anywhere past the preamble: the reader must notice,
 * deliver only true samples, and lose at most what lies between the
 * damage and the next heartbeat.
 */
static void
test_corrupt(void **state)
{
	struct record_writer_opts	 o;
	struct record_stats		 st;
	struct rec			 r;
	uint8_t				*copy;
	size_t				 i, got;
	uint8_t				 flip;

	(void)state;
	record_write_defaults(&o);
	o.keyframe_samples = 8;
	make_recording(&r, &o, 90, 0, 1000000000ULL, 1, 1);
	copy = xmalloc(r.buf.len);
	for (i = r.cut; i < r.buf.len; i++) {
		for (flip = 1; flip != 0; flip <<= 3) {
			memcpy(copy, r.buf.p, r.buf.len);
			copy[i] ^= flip;
			got = read_all(&r, copy, r.buf.len, &st, 1);
			assert_true(st.ndiags >= 1);
			/* At most two keyframe periods (a lost selection or
			 * catalog costs until the next one is written). */
			if (got + 2 * 8 + 1 < 90 && st.dropped_samples == 0)
				fail_msg("byte %zu: %zu samples, none "
				    "reported lost", i, got);
		}
	}
	free(copy);
	rec_free(&r);
}

/* A damaged record reported with its offset and the resync point. */
static void
test_corrupt_message(void **state)
{
	struct record_writer_opts	 o;
	struct record_reader		*rd;
	struct record_event		 ev;
	struct record_stats		 st;
	const struct record_diag	*d;
	struct rec			 r;
	char				*cause = NULL, want[64];
	size_t				 at, n = 0;

	(void)state;
	record_write_defaults(&o);
	o.keyframe_samples = 10;
	make_recording(&r, &o, 50, 0, 1000000000ULL, 0, 0);
	at = r.cut + (r.buf.len - r.cut) / 2;
	r.buf.p[at] ^= 0x40;
	assert_int_equal(record_read_open(r.buf.p, r.buf.len, &rd, &cause),
	    0);
	while (record_read_next(rd, &ev) != RECORD_EV_EOF)
		n += ev.kind == RECORD_EV_SAMPLE;
	record_read_stats(rd, &st);
	assert_int_equal(st.ndiags, 1);
	d = record_read_diag(rd, 0);
	assert_int_equal(d->kind, RECORD_DIAG_CORRUPT);
	assert_true(d->offset <= at && d->offset + d->length > at);
	snprintf(want, sizeof want, "offset %llu:",
	    (unsigned long long)d->offset);
	assert_true(strncmp(d->text, want, strlen(want)) == 0);
	assert_non_null(strstr(d->text, "heartbeat at offset"));
	assert_true(st.dropped_samples >= 1 && st.dropped_samples <= 10);
	assert_int_equal(n + st.dropped_samples, 50);
	assert_true(st.clean_end);
	record_read_free(rd);
	rec_free(&r);
}

/*
 * A damaged selection or catalog record: the heartbeat after it cannot
 * fetch what is in force, says so once naming the record's offset, and
 * samples are skipped until a new one is written.
 */
static void
test_lost(void **state)
{
	static const struct {
		int		 kind;
		const char	*what;
	} cases[] = {
		{ RECORD_EV_SELECT, "selection" },
		{ RECORD_EV_CATALOG, "catalog" },
	};
	struct record_writer_opts	 o;
	struct record_reader		*rd;
	struct record_event		 ev;
	struct record_stats		 st;
	const struct record_diag	*d;
	struct rec			 r;
	char				*cause = NULL, want[128];
	uint64_t			 at = 0;
	size_t				 c, i, lost;

	(void)state;
	record_write_defaults(&o);
	o.keyframe_samples = 8;
	for (c = 0; c < 2; c++) {
		make_recording(&r, &o, 60, 0, 1000000000ULL, 0, 1);
		assert_int_equal(record_read_open(r.buf.p, r.buf.len, &rd,
		    &cause), 0);
		while (record_read_next(rd, &ev) != RECORD_EV_EOF)
			if (ev.kind == cases[c].kind)
				at = ev.offset;
		record_read_free(rd);
		assert_true(at > r.cut);
		r.buf.p[at + 6] ^= 0x10;
		assert_int_equal(record_read_open(r.buf.p, r.buf.len, &rd,
		    &cause), 0);
		while (record_read_next(rd, &ev) != RECORD_EV_EOF)
			;
		record_read_stats(rd, &st);
		snprintf(want, sizeof want, "the %s in force here (record at "
		    "offset %llu) is damaged", cases[c].what,
		    (unsigned long long)at);
		for (i = 0, lost = 0; i < st.ndiags; i++) {
			d = record_read_diag(rd, i);
			if (d->kind != RECORD_DIAG_LOST)
				continue;
			lost++;
			assert_non_null(strstr(d->text, want));
		}
		assert_int_equal(lost, 1);
		assert_true(st.dropped_samples >= 1);
		record_read_free(rd);
		rec_free(&r);
	}
}

/* Bytes per counter on the synthetic workload stay small. */
static void
test_compact(void **state)
{
	struct rec	 r;
	double		 per;

	(void)state;
	make_recording(&r, NULL, 1000, 0, 1000000000ULL, 0, 0);
	per = (double)(r.buf.len - r.cut) / (1000.0 * 8);
	/* Half the counters are noise of ~27 bits; the rest predict. */
	print_message("%.3f bytes per counter\n", per);
	assert_true(per < 4.0);
	rec_free(&r);
}

static void
test_bad_files(void **state)
{
	struct record_reader	*rd;
	struct rec		 r;
	char			*cause = NULL;
	uint8_t			*copy;

	(void)state;
	make_recording(&r, NULL, 3, 0, 1000000000ULL, 0, 0);
	copy = xmalloc(r.buf.len);
	memcpy(copy, r.buf.p, r.buf.len);
	copy[0] = 'X';
	assert_int_equal(record_read_open(copy, r.buf.len, &rd, &cause),
	    -HV_EFORMAT);
	assert_non_null(strstr(cause, "offset 0"));
	free(cause);
	/* Another version, older or newer, is refused by name. */
	memcpy(copy, r.buf.p, r.buf.len);
	copy[9] = RECORD_VERSION_2 - 1;
	assert_int_equal(record_read_open(copy, r.buf.len, &rd, &cause),
	    -HV_EVERSION);
	assert_non_null(strstr(cause, "version 1"));
	free(cause);
	copy[9] = RECORD_VERSION + 1;
	assert_int_equal(record_read_open(copy, r.buf.len, &rd, &cause),
	    -HV_EVERSION);
	free(cause);
	/* Damage in the catalog: the preamble must be intact. */
	memcpy(copy, r.buf.p, r.buf.len);
	copy[r.cut - 40] ^= 1;
	assert_true(record_read_open(copy, r.buf.len, &rd, &cause) < 0);
	assert_non_null(strstr(cause, "preamble"));
	free(cause);
	assert_int_equal(record_read_open(copy, 10, &rd, &cause),
	    -HV_ETRUNC);
	free(cause);
	free(copy);
	rec_free(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_varints),
		cmocka_unit_test(test_checksums),
		cmocka_unit_test(test_crc16_lengths),
		cmocka_unit_test(test_muldiv),
		cmocka_unit_test(test_bits),
		cmocka_unit_test(test_symbols),
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_unwrap),
		cmocka_unit_test(test_torn),
		cmocka_unit_test(test_corrupt),
		cmocka_unit_test(test_corrupt_message),
		cmocka_unit_test(test_lost),
		cmocka_unit_test(test_compact),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_lpar),
	};

	return (cmocka_run_group_tests_name("record", tests, NULL, NULL));
}
