/*
 * Unit tests for the FRAME record (src/record/record-frame.c): the
 * frame's identity written after the preamble reads back as it was; a
 * file without one reads as an unknown frame; a damaged, cut or
 * malformed one is reported with its offset and passed over, every
 * sample still read; bytes a later writer adds after the fields are
 * passed over.  Pure: recordings are built in memory.
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

#define NSAMPLES	12
#define START		5000000000ULL

/* A recording of NSAMPLES samples of a 1-pick, 2-column selection. */
struct rec {
	struct record_buf buf;
	size_t		 pre;		/* end of the preamble */
	size_t		 body;		/* ... and of the FRAME record */
};

static void
make_ident(struct frame_ident *fi)
{
	frame_ident_init(fi);
	snprintf(fi->model, sizeof fi->model, "9080-M9S");
	snprintf(fi->serial, sizeof fi->serial, "21A1B2C");
	snprintf(fi->name, sizeof fi->name, "prod-frame \"east\"");
	snprintf(fi->lpar_name, sizeof fi->lpar_name, "db, the 2nd");
	fi->lpar_id = 17;
	fi->mode = FRAME_MODE_SHARED;
	fi->entitled = 250;
	fi->from = FRAME_FROM_LPARCFG;
}

static void
make_recording(struct rec *r, const struct frame_ident *fi)
{
	struct record_writer	*w;
	struct record_selection	 sel;
	struct record_pick	 pk;
	struct record_meta	 m;
	struct raw_sample	 s;
	struct raw_value	 v[2];
	static char		 spec[] = "GRP@chip:0", e0[] = "A", e1[] = "B";
	char			*names[2] = { e0, e1 }, *cause = NULL;
	unsigned		 idx = 0;
	size_t			 i;

	memset(r, 0, sizeof *r);
	memset(&pk, 0, sizeof pk);
	pk.spec = spec;
	pk.domain = 1;
	pk.lpar = 0xffff;
	pk.indices = &idx;
	pk.nindices = 1;
	pk.events = names;
	pk.nevents = 2;
	memset(&sel, 0, sizeof sel);
	sel.picks = &pk;
	sel.npicks = 1;
	sel.ncounters = 2;
	memset(&m, 0, sizeof m);
	m.label = spec;
	m.writer = spec;
	m.interval_ns = 1000000000ULL;
	if (fi != NULL)
		m.frame = *fi;
	w = record_write_new(NULL);
	assert_int_equal(record_write_begin(w, &m, "CAT", 3, &sel, START,
	    &r->buf, &cause), 0);
	r->body = r->buf.len;
	memset(&s, 0, sizeof s);
	memset(v, 0, sizeof v);
	s.values = v;
	s.nvalues = 2;
	for (i = 0; i < NSAMPLES; i++) {
		s.now = START + (i + 1) * 1000000000ULL;
		v[0].value += 1000 + i * 7;
		v[1].value += 3 * i;
		assert_int_equal(record_write_sample(w, &s, &r->buf, &cause),
		    0);
	}
	record_write_end(w, &r->buf);
	record_write_free(w);
	/* The preamble is the same bytes with a frame or without. */
	r->pre = r->body;
	if (fi != NULL && fi->from != FRAME_FROM_NONE) {
		r->pre = RECORD_FILE_HEADER;
		while (r->pre < r->body && be16_get(r->buf.p + r->pre) !=
		    (0x8000 | RECORD_T_FRAME))
			r->pre++;
	}
}

/* Read it all: the samples, the stats; the reader for the caller, or
 * freed when rdp is NULL. */
static size_t
read_all(const uint8_t *p, size_t len, struct record_stats *st,
    struct frame_ident *fi, struct record_reader **rdp)
{
	struct record_reader	*rd;
	struct record_event	 ev;
	char			*cause = NULL;
	size_t			 n = 0;

	if (record_read_open(p, len, &rd, &cause) != 0)
		fail_msg("open: %s", cause);
	*fi = record_read_meta(rd)->frame;
	while (record_read_next(rd, &ev) != RECORD_EV_EOF)
		n += ev.kind == RECORD_EV_SAMPLE;
	record_read_stats(rd, st);
	if (rdp != NULL)
		*rdp = rd;
	else
		record_read_free(rd);
	return (n);
}

static void
assert_unknown(const struct frame_ident *fi)
{
	assert_int_equal(fi->from, FRAME_FROM_NONE);
	assert_false(frame_ident_known(fi));
	assert_int_equal(fi->lpar_id, -1);
	assert_int_equal(fi->entitled, -1);
}

/* Written and read back, field by field, and the stream passes over it. */
static void
test_frame_roundtrip(void **state)
{
	struct frame_ident	 fi, got;
	struct record_stats	 st;
	struct rec		 r;

	(void)state;
	make_ident(&fi);
	make_recording(&r, &fi);
	assert_true(r.pre < r.body);
	assert_int_equal(read_all(r.buf.p, r.buf.len, &st, &got, NULL),
	    NSAMPLES);
	assert_int_equal(st.ndiags, 0);
	assert_true(st.clean_end);
	assert_string_equal(got.model, fi.model);
	assert_string_equal(got.serial, fi.serial);
	assert_string_equal(got.name, fi.name);
	assert_string_equal(got.lpar_name, fi.lpar_name);
	assert_int_equal(got.lpar_id, 17);
	assert_int_equal(got.mode, FRAME_MODE_SHARED);
	assert_int_equal(got.entitled, 250);
	assert_int_equal(got.from, FRAME_FROM_LPARCFG);
	record_buf_free(&r.buf);

	/* Little known: unknowns stay unknown. */
	frame_ident_init(&fi);
	snprintf(fi.serial, sizeof fi.serial, "X1");
	fi.from = FRAME_FROM_DTREE;
	make_recording(&r, &fi);
	assert_int_equal(read_all(r.buf.p, r.buf.len, &st, &got, NULL),
	    NSAMPLES);
	assert_int_equal(st.ndiags, 0);
	assert_string_equal(got.serial, "X1");
	assert_string_equal(got.model, "");
	assert_int_equal(got.lpar_id, -1);
	assert_int_equal(got.entitled, -1);
	assert_int_equal(got.mode, FRAME_MODE_UNKNOWN);
	assert_int_equal(got.from, FRAME_FROM_DTREE);
	record_buf_free(&r.buf);
}

/* Nothing known, nothing written: the file of a meta without a frame. */
static void
test_frame_absent(void **state)
{
	struct frame_ident	 fi, got;
	struct record_stats	 st;
	struct rec		 r, r0;

	(void)state;
	make_recording(&r0, NULL);
	frame_ident_init(&fi);
	make_recording(&r, &fi);
	assert_int_equal(r.buf.len, r0.buf.len);
	assert_memory_equal(r.buf.p, r0.buf.p, r.buf.len);
	/* After the preamble, the heartbeat. */
	assert_int_equal(be16_get(r.buf.p + r.body), 0xc000 |
	    RECORD_T_HEARTBEAT);
	assert_int_equal(read_all(r.buf.p, r.buf.len, &st, &got, NULL),
	    NSAMPLES);
	assert_int_equal(st.ndiags, 0);
	assert_unknown(&got);
	record_buf_free(&r.buf);
	record_buf_free(&r0.buf);
}

/* Any byte of the record damaged: reported at its offset, passed over,
 * the frame unknown, every sample read. */
static void
test_frame_damaged(void **state)
{
	struct frame_ident	 fi, got;
	struct record_stats	 st;
	struct record_reader	*rd;
	const struct record_diag *d;
	struct rec		 r;
	uint8_t			*copy;
	char			 want[32];
	size_t			 i;

	(void)state;
	make_ident(&fi);
	make_recording(&r, &fi);
	copy = xmalloc(r.buf.len);
	snprintf(want, sizeof want, "offset %zu: ", r.pre);
	for (i = r.pre; i < r.body; i++) {
		memcpy(copy, r.buf.p, r.buf.len);
		copy[i] ^= 0x21;
		assert_int_equal(read_all(copy, r.buf.len, &st, &got, &rd),
		    NSAMPLES);
		assert_unknown(&got);
		assert_int_equal(st.ndiags, 1);
		d = record_read_diag(rd, 0);
		assert_int_equal(d->kind, RECORD_DIAG_CORRUPT);
		assert_int_equal(d->offset, r.pre);
		assert_int_equal(d->length, r.body - r.pre);
		assert_int_equal(st.dropped_samples, 0);
		if (strncmp(d->text, want, strlen(want)) != 0)
			fail_msg("byte %zu: %s", i, d->text);
		record_read_free(rd);
	}
	free(copy);
	record_buf_free(&r.buf);
}

/* Cut inside it: the torn tail of §9, the frame unknown. */
static void
test_frame_torn(void **state)
{
	struct frame_ident	 fi, got;
	struct record_stats	 st;
	struct record_reader	*rd;
	const struct record_diag *d;
	struct rec		 r;
	size_t			 len;

	(void)state;
	make_ident(&fi);
	make_recording(&r, &fi);
	for (len = r.pre + 1; len < r.body; len++) {
		assert_int_equal(read_all(r.buf.p, len, &st, &got, &rd), 0);
		assert_unknown(&got);
		d = record_read_diag(rd, 0);
		assert_non_null(d);
		assert_int_equal(d->kind, RECORD_DIAG_TORN);
		assert_int_equal(d->offset, r.pre);
		if (len >= r.pre + RECORD_HDR_NORMAL)
			assert_non_null(strstr(d->text, "inside a frame "
			    "record"));
		record_read_free(rd);
	}
	record_buf_free(&r.buf);
}

/*
 * A FRAME record made by hand with a good checksum: payload bytes put
 * in place of the written one's, at r->pre.  Returns the new file.
 */
static uint8_t *
splice_frame(const struct rec *r, const uint8_t *pay, size_t paylen,
    size_t *len)
{
	uint8_t		*f;
	size_t		 n = r->pre, rest = r->buf.len - r->body;

	*len = r->pre + RECORD_HDR_NORMAL + paylen + 2 + rest;
	f = xmalloc(*len);
	memcpy(f, r->buf.p, r->pre);
	be16_put(f + n, 0x8000 | RECORD_T_FRAME);
	be16_put(f + n + 2, (uint16_t)paylen);
	be32_put(f + n + 4, (uint32_t)(START >> RECORD_TB_SHIFT));
	memcpy(f + n + RECORD_HDR_NORMAL, pay, paylen);
	n += RECORD_HDR_NORMAL + paylen;
	be16_put(f + n, record_codec_crc16(0xffff, f + r->pre, n - r->pre));
	memcpy(f + n + 2, r->buf.p + r->body, rest);
	return (f);
}

/* Well checksummed but not what the fields take: reported, passed over;
 * fields added after the known ones: read. */
static void
test_frame_malformed(void **state)
{
	static const struct {
		const char	*pay;
		size_t		 len;
		const char	*why;	/* NULL: read */
	} cases[] = {
		{ "\x09\x01M\x01S\x00\x00\x00\x00\x00", 10, "source" },
		{ "\x03\x01*\x01S\x00\x00\x00\x00\x00", 10, "characters" },
		{ "\x03\x01M\x01S\x01\x07\x00\x00\x00\x00", 11, "control" },
		{ "\x03\x01M\x01S\x00\x00\x80\x80\x04\x00\x00", 12, "range" },
		{ "\x03\x01M\x01S\x00\x00\x00\x03\x00", 10, "range" },
		{ "\x03\x01M\x01S\x00\x00\x00\x00", 8, "ends inside" },
		{ "\x03\x05M", 3, "ends inside a string" },
		{ "\x03\x28", 2, "too long" },
		{ "\x03\x01M\x01S\x00\x00\x05\x02\x00", 10, NULL },
		{ "\x03\x01M\x01S\x00\x00\x05\x02\x00NEW", 13, NULL },
	};
	struct frame_ident	 fi, got;
	struct record_stats	 st;
	struct record_reader	*rd;
	const struct record_diag *d;
	struct rec		 r;
	uint8_t			*f;
	size_t			 i, len;

	(void)state;
	make_ident(&fi);
	make_recording(&r, &fi);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		f = splice_frame(&r, (const uint8_t *)cases[i].pay,
		    cases[i].len, &len);
		assert_int_equal(read_all(f, len, &st, &got, &rd), NSAMPLES);
		if (cases[i].why == NULL) {
			assert_int_equal(st.ndiags, 0);
			assert_string_equal(got.model, "M");
			assert_string_equal(got.serial, "S");
			assert_int_equal(got.lpar_id, 4);
			assert_int_equal(got.mode, FRAME_MODE_DEDICATED);
			assert_int_equal(got.entitled, -1);
			assert_int_equal(got.from, FRAME_FROM_SIM);
		} else {
			assert_unknown(&got);
			assert_int_equal(st.ndiags, 1);
			d = record_read_diag(rd, 0);
			assert_int_equal(d->offset, r.pre);
			if (strstr(d->text, cases[i].why) == NULL ||
			    strstr(d->text, "(frame record)") == NULL)
				fail_msg("case %zu: %s", i, d->text);
		}
		record_read_free(rd);
		free(f);
	}
	record_buf_free(&r.buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frame_roundtrip),
		cmocka_unit_test(test_frame_absent),
		cmocka_unit_test(test_frame_damaged),
		cmocka_unit_test(test_frame_torn),
		cmocka_unit_test(test_frame_malformed),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
