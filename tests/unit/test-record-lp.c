/*
 * Unit tests for format 3's value coding (record-codec-lp.c): the same
 * samples written as format 2 and as format 3 read back the same; the LP
 * code at its limits (residuals of 64 bits, lengths that jump from 0 to
 * 64 and back); the zero group when one of it moves; reviews and
 * heartbeats over thousands of samples; and damage in the plain bits.
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
#include "util/be.h"
#include "util/hverr.h"
#include "util/xalloc.h"

#define NCOL		6
#define NREC		4
#define NCTR		(NCOL * NREC)

static uint64_t
rnd(uint64_t *s)
{
	uint64_t	 z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (z ^ (z >> 31));
}

/* One group of NCOL events on NREC chips. */
static void
lp_selection(struct record_selection *sel)
{
	struct record_pick	*pk;
	size_t			 i;
	char			 name[16];

	memset(sel, 0, sizeof *sel);
	sel->npicks = 1;
	sel->picks = xcalloc(1, sizeof *sel->picks);
	pk = &sel->picks[0];
	pk->spec = xstrdup("GRP@chip:0-3");
	pk->domain = 1;
	pk->lpar = 0xffff;
	pk->nindices = NREC;
	pk->indices = xcalloc(NREC, sizeof *pk->indices);
	for (i = 0; i < NREC; i++)
		pk->indices[i] = (unsigned)i;
	pk->nevents = NCOL;
	pk->events = xcalloc(NCOL, sizeof *pk->events);
	for (i = 0; i < NCOL; i++) {
		snprintf(name, sizeof name, "EV%zu", i);
		pk->events[i] = xstrdup(name);
	}
	sel->ncounters = NCTR;
}

static void
lp_meta(struct record_meta *m)
{
	memset(m, 0, sizeof *m);
	m->label = xstrdup("SIMULATED test frame");
	m->writer = xstrdup("hvtop test");
	m->epoch_ns = 1767225600ULL * 1000000000ULL;
	m->interval_ns = 1000000000ULL;
	m->topo.chips = NREC;
	m->topo.timebase_hz = 512000000;
}

/*
 * The values of sample i under a pattern: 0 counters that move at
 * steady rates, some in proportion, with one that bursts now and then;
 * 1 the LP code's limits: 64-bit jumps, lengths from 0 to 64 and back.
 */
static void
lp_values(int pattern, size_t i, uint64_t *seed, uint64_t *acc,
    struct raw_value *v)
{
	uint64_t	 rate;
	size_t		 k;

	for (k = 0; k < NCTR; k++) {
		switch (pattern * 8 + k % NCOL) {
		case 0:
			rate = 4000000000ULL;
			break;
		case 1:
			rate = 1000000;
			break;
		case 2:		/* moves with column 0 at a third */
			rate = (i / 300 % 2 ? 3000000000ULL : 4000000000ULL) /
			    3;
			break;
		case 3:		/* bursts */
			rate = i % 97 < 3 ? rnd(seed) % 1000000000ULL : 5;
			break;
		case 4:
			rate = 0;
			break;
		case 5:
			rate = 1000 + rnd(seed) % 100;
			break;
		default:	/* limits */
			rate = (i + k) % 5 == 0 ? rnd(seed) :
			    (i + k) % 5 == 1 ? (uint64_t)1 << 63 : 17;
			break;
		}
		acc[k] += rate;
		v[k].value = acc[k];
		v[k].timebase = 0;
		v[k].status = 0;
	}
}

struct lp_rec {
	struct record_buf	 buf;
	uint64_t		*vals;		/* [i * NCTR + k] */
	size_t			 n;
};

static void
lp_record(struct lp_rec *r, unsigned format, int pattern, size_t n)
{
	struct record_writer_opts o;
	struct record_writer	*w;
	struct record_selection	 sel;
	struct record_meta	 m;
	struct raw_sample	 s;
	uint64_t		 seed = 7, acc[NCTR] = { 0 };
	char			*cause = NULL;
	size_t			 i, k;

	memset(r, 0, sizeof *r);
	record_write_defaults(&o);
	o.format = format;
	lp_selection(&sel);
	lp_meta(&m);
	w = record_write_new(&o);
	assert_int_equal(record_write_begin(w, &m, "CATALOG", 7, &sel, 0,
	    &r->buf, &cause), 0);
	memset(&s, 0, sizeof s);
	s.values = xcalloc(NCTR, sizeof *s.values);
	s.nvalues = NCTR;
	r->vals = xcalloc(n * NCTR, sizeof *r->vals);
	for (i = 0; i < n; i++) {
		lp_values(pattern, i, &seed, acc, s.values);
		s.now = (i + 1) * 1000000000ULL;
		assert_int_equal(record_write_sample(w, &s, &r->buf, &cause),
		    0);
		for (k = 0; k < NCTR; k++)
			r->vals[i * NCTR + k] = s.values[k].value;
	}
	r->n = n;
	record_write_end(w, &r->buf);
	record_write_free(w);
	free(s.values);
	record_selection_free(&sel);
	record_meta_free(&m);
}

/* Read buf back: the samples must be r's, all of them; 0 or an error. */
static int
lp_check(const struct lp_rec *r, const uint8_t *buf, size_t len,
    size_t *got)
{
	struct record_reader	*rd;
	struct record_event	 ev;
	struct record_stats	 st;
	char			*cause = NULL;
	size_t			 i = 0, k;

	if (record_read_open(buf, len, &rd, &cause) != 0) {
		free(cause);
		return (-1);
	}
	while (record_read_next(rd, &ev) != RECORD_EV_EOF) {
		if (ev.kind != RECORD_EV_SAMPLE)
			continue;
		assert_true(i < r->n);
		while (i < r->n && ev.sample->now != (i + 1) * 1000000000ULL)
			i++;
		assert_true(i < r->n);
		for (k = 0; k < NCTR; k++)
			assert_true(ev.sample->values[k].value ==
			    r->vals[i * NCTR + k]);
		i++;
		(*got)++;
	}
	record_read_stats(rd, &st);
	record_read_free(rd);
	return (st.ndiags == 0 ? 0 : -2);
}

static void
lp_free(struct lp_rec *r)
{
	record_buf_free(&r->buf);
	free(r->vals);
}

static void
test_both_formats(void **state)
{
	struct lp_rec	 r2, r3;
	size_t		 got;
	int		 pattern;

	(void)state;
	for (pattern = 0; pattern < 2; pattern++) {
		lp_record(&r2, RECORD_VERSION_2, pattern, 1500);
		lp_record(&r3, RECORD_VERSION_3, pattern, 1500);
		assert_int_equal(be16_get(r2.buf.p + 8), 2);
		assert_int_equal(be16_get(r3.buf.p + 8), 3);
		got = 0;
		assert_int_equal(lp_check(&r2, r2.buf.p, r2.buf.len, &got), 0);
		assert_int_equal(got, 1500);
		got = 0;
		assert_int_equal(lp_check(&r3, r3.buf.p, r3.buf.len, &got), 0);
		assert_int_equal(got, 1500);
		/* The same values, so the same samples in both. */
		assert_memory_equal(r2.vals, r3.vals, 1500 * NCTR * 8);
		lp_free(&r2);
		lp_free(&r3);
	}
}

/* The steady pattern codes smaller than plain 64-bit deltas would by
 * far: the zero group and the references work. */
static void
test_small(void **state)
{
	struct lp_rec	 r;

	(void)state;
	lp_record(&r, RECORD_VERSION_3, 0, 3000);
	assert_true(r.buf.len < 3000 * NCTR);
	lp_free(&r);
}

/* A cut anywhere in the samples loses only what follows the cut; a
 * byte damaged anywhere is found, and never crashes the reader. */
static void
test_damage(void **state)
{
	struct lp_rec	 r;
	uint8_t		*copy;
	size_t		 off, got, start;
	uint64_t	 seed = 3;
	int		 error;

	(void)state;
	lp_record(&r, RECORD_VERSION_3, 1, 200);
	copy = xmalloc(r.buf.len);
	/* Past the preamble: the samples' records. */
	start = r.buf.len / 3;
	for (off = start; off < r.buf.len; off += 1 + off % 7) {
		got = 0;
		error = lp_check(&r, r.buf.p, off, &got);
		assert_true(error == 0 || error == -2);
		assert_true(got <= 200);
	}
	for (off = start; off < r.buf.len; off += 1 + rnd(&seed) % 13) {
		memcpy(copy, r.buf.p, r.buf.len);
		copy[off] ^= (uint8_t)(1 + rnd(&seed) % 255);
		got = 0;
		error = lp_check(&r, copy, r.buf.len, &got);
		/* A checksum or the code itself finds it. */
		assert_true(error == -2 || error == -1);
	}
	free(copy);
	lp_free(&r);
}

/*
 * A status that cannot be recorded is refused, whether the sample is
 * steady or starts after a heartbeat, before anything is written; the
 * recording goes on as if the sample had not come.
 */
static void
test_bad_status(void **state)
{
	struct record_writer_opts o;
	struct record_writer	*w;
	struct record_selection	 sel;
	struct record_meta	 m;
	struct raw_sample	 s;
	struct record_buf	 buf = { 0 };
	struct lp_rec		 r;
	uint64_t		 seed = 7, acc[NCTR] = { 0 };
	char			*cause = NULL;
	size_t			 i, k, len, got = 0;

	(void)state;
	record_write_defaults(&o);
	o.keyframe_samples = 50;
	lp_selection(&sel);
	lp_meta(&m);
	w = record_write_new(&o);
	assert_int_equal(record_write_begin(w, &m, "CATALOG", 7, &sel, 0, &buf,
	    &cause), 0);
	memset(&s, 0, sizeof s);
	s.values = xcalloc(NCTR, sizeof *s.values);
	s.nvalues = NCTR;
	memset(&r, 0, sizeof r);
	r.vals = xcalloc(200 * NCTR, sizeof *r.vals);
	for (i = 0; i < 200; i++) {
		lp_values(0, i, &seed, acc, s.values);
		s.now = (i + 1) * 1000000000ULL;
		if (i == 0 || i == 100 || i == 125) {
			/* 100 is a heartbeat's sample, 125 a steady one. */
			s.values[NCTR - 3].status = 9;
			len = buf.len;
			assert_int_equal(record_write_sample(w, &s, &buf,
			    &cause), -HV_EUSAGE);
			assert_non_null(strstr(cause, "status 9"));
			free(cause);
			cause = NULL;
			assert_int_equal(buf.len, len);
			s.values[NCTR - 3].status = 0;
		}
		assert_int_equal(record_write_sample(w, &s, &buf, &cause), 0);
		for (k = 0; k < NCTR; k++)
			r.vals[i * NCTR + k] = s.values[k].value;
	}
	r.n = 200;
	record_write_end(w, &buf);
	assert_int_equal(lp_check(&r, buf.p, buf.len, &got), 0);
	assert_int_equal(got, 200);
	record_write_free(w);
	free(s.values);
	free(r.vals);
	record_buf_free(&buf);
	record_selection_free(&sel);
	record_meta_free(&m);
}

/* The gamma reader refuses more than 7 zeros and the end of the bytes. */
static void
test_gamma(void **state)
{
	static const uint8_t	 ok[] = { 0x01, 0x00 };	/* 7 zeros, then 1 */
	static const uint8_t	 bad[] = { 0x00, 0x80 };
	static const uint8_t	 one[] = { 0x80 };
	struct record_bits_rd	 br;

	(void)state;
	record_bits_rd_init(&br, ok, sizeof ok);
	assert_int_equal(record_bits_gamma(&br), 128);
	assert_int_equal(br.error, 0);
	record_bits_rd_init(&br, bad, sizeof bad);
	assert_int_equal(record_bits_gamma(&br), 0);
	assert_int_equal(br.error, -HV_EFORMAT);
	record_bits_rd_init(&br, one, sizeof one);
	assert_int_equal(record_bits_gamma(&br), 1);
	assert_int_equal(record_bits_gamma(&br), 0);
	assert_int_equal(br.error, -HV_ETRUNC);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_both_formats),
		cmocka_unit_test(test_small),
		cmocka_unit_test(test_damage),
		cmocka_unit_test(test_bad_status),
		cmocka_unit_test(test_gamma),
	};

	cmocka_set_message_output(CM_OUTPUT_TAP);
	return (cmocka_run_group_tests_name("record-lp", tests, NULL, NULL));
}
