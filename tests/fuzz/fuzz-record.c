/*
 * libFuzzer harness for the recording reader (src/record).  Two modes,
 * chosen by the first byte:
 *   even: the rest is a recording; open it and read every record, as a
 *         replay would, rewind and read it again.  Nothing may crash,
 *         leak or read out of bounds, and a second pass must deliver the
 *         same samples.
 *   odd:  the rest drives the writer (selection shape, values, statuses,
 *         timestamps, header geometry); what it writes must read back
 *         exactly, and again after the file is cut short.  With bit 1
 *         of the first byte set the run has a frame's identity (a FRAME
 *         record after the preamble), which must read back too; with
 *         bit 2 set it writes format 2, else format 3, and format 3
 *         runs up to 200 samples between heartbeats, so that its
 *         reviews and its zero group are reached.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/record.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* The bytes as a source of small numbers; zeros when used up. */
struct fuzz_in {
	const uint8_t	*p;
	size_t		 n;
};

static uint64_t
fuzz_take(struct fuzz_in *in, unsigned bytes)
{
	uint64_t	 v = 0;

	while (bytes-- > 0) {
		v = v << 8 | (in->n > 0 ? *in->p : 0);
		if (in->n > 0) {
			in->p++;
			in->n--;
		}
	}
	return (v);
}

static uint64_t
fuzz_read(const uint8_t *buf, size_t len, uint64_t *sum)
{
	struct record_reader	*rd;
	struct record_event	 ev;
	struct record_stats	 st;
	const struct record_diag *d;
	size_t			 k, i, catlen;
	char			*cause = NULL;
	uint64_t		 n = 0;

	*sum = 0;
	if (record_read_open(buf, len, &rd, &cause) != 0) {
		free(cause);
		return (UINT64_MAX);
	}
	(void)record_read_meta(rd);
	while (record_read_next(rd, &ev) != RECORD_EV_EOF) {
		(void)record_read_catalog(rd, &catlen);
		(void)record_read_selection(rd);
		if (ev.kind != RECORD_EV_SAMPLE)
			continue;
		n++;
		*sum = *sum * 31 + ev.sample->now;
		for (k = 0; k < ev.sample->nvalues; k++)
			*sum = *sum * 31 + ev.sample->values[k].value +
			    ev.sample->values[k].timebase +
			    ev.sample->values[k].status;
	}
	record_read_stats(rd, &st);
	for (i = 0; (d = record_read_diag(rd, i)) != NULL; i++)
		if (strlen(d->text) >= sizeof d->text)
			abort();
	record_read_free(rd);
	return (n);
}

static void
fuzz_reader(const uint8_t *data, size_t size)
{
	struct record_reader	*rd;
	struct record_event	 ev;
	char			*cause = NULL;
	uint64_t		 n1 = 0, n2 = 0, s1 = 0, s2 = 0;
	size_t			 k;

	if (record_read_open(data, size, &rd, &cause) != 0) {
		free(cause);
		return;
	}
	while (record_read_next(rd, &ev) != RECORD_EV_EOF) {
		if (ev.kind != RECORD_EV_SAMPLE)
			continue;
		n1++;
		for (k = 0; k < ev.sample->nvalues; k++)
			s1 = s1 * 31 + ev.sample->values[k].value;
	}
	record_read_rewind(rd);
	while (record_read_next(rd, &ev) != RECORD_EV_EOF) {
		if (ev.kind != RECORD_EV_SAMPLE)
			continue;
		n2++;
		for (k = 0; k < ev.sample->nvalues; k++)
			s2 = s2 * 31 + ev.sample->values[k].value;
	}
	record_read_free(rd);
	if (n1 != n2 || s1 != s2)
		abort();
}

/* An identity from the input: some fields known, some not. */
static void
fuzz_frame(struct fuzz_in *in, struct frame_ident *fi)
{
	static const char *const models[] = { "", "9080-M9S", "X",
		"IBM9009" };
	static const char *const serials[] = { "", "21A1B2C", "X",
		"0123456789012345678901234567890" };
	static const char *const names[] = { "", "prod, \"east\"", "lpar1",
		"\xc3\xa9t\xc3\xa9" };
	uint64_t	 v = fuzz_take(in, 4);

	frame_ident_init(fi);
	fi->from = 1 + (int)(v % 3);
	snprintf(fi->model, sizeof fi->model, "%s", models[v >> 2 & 3]);
	snprintf(fi->serial, sizeof fi->serial, "%s", serials[v >> 4 & 3]);
	snprintf(fi->name, sizeof fi->name, "%s", names[v >> 6 & 3]);
	snprintf(fi->lpar_name, sizeof fi->lpar_name, "%s", names[v >> 8 & 3]);
	fi->lpar_id = (int)(v >> 10 & 0xffff) - 1;
	fi->mode = (int)(v >> 26 & 1) * 2;
	fi->entitled = (long)(v >> 27 & 0x1f) - 1;
}

/* What the reader makes of the FRAME record is what was written. */
static void
fuzz_frame_check(const uint8_t *buf, size_t len, const struct frame_ident *fi)
{
	struct record_reader	*rd;
	const struct frame_ident *got;
	char			*cause = NULL;

	if (record_read_open(buf, len, &rd, &cause) != 0)
		abort();
	got = &record_read_meta(rd)->frame;
	if (got->from != fi->from || strcmp(got->model, fi->model) != 0 ||
	    strcmp(got->serial, fi->serial) != 0 ||
	    strcmp(got->name, fi->name) != 0 ||
	    strcmp(got->lpar_name, fi->lpar_name) != 0 ||
	    got->lpar_id != fi->lpar_id || got->mode != fi->mode ||
	    got->entitled != fi->entitled)
		abort();
	record_read_free(rd);
}

static void
fuzz_writer(const uint8_t *data, size_t size, int frame, int v2)
{
	struct fuzz_in			 in = { data, size };
	struct record_writer_opts	 o;
	struct record_writer		*w;
	struct record_selection		 sel;
	struct record_meta		 m;
	struct record_pick		 pk[2];
	struct raw_sample		 s;
	struct record_buf		 b = { 0 };
	static char			 a[] = "A", bb[] = "B", c[] = "C";
	static char			 d[] = "D", g[] = "G", lbl[] = "fuzz";
	char				*names[4];
	unsigned			 idx[3] = { 0, 1, 5 };
	uint64_t			 want = 0, got, sum, n = 0, now;
	uint64_t			 acc[32];
	size_t				 k, i, nsamples, cut;
	char				*cause = NULL;

	names[0] = a;
	names[1] = bb;
	names[2] = c;
	names[3] = d;
	record_write_defaults(&o);
	o.tb_shift = (unsigned)fuzz_take(&in, 1) % 33;
	o.compact_bits = 1 + (unsigned)fuzz_take(&in, 1) % 27;
	o.format = v2 ? RECORD_VERSION_2 : RECORD_VERSION_3;
	o.keyframe_samples = 1 + (unsigned)fuzz_take(&in, 1) % (v2 ? 8 : 200);
	memset(pk, 0, sizeof pk);
	memset(&sel, 0, sizeof sel);
	pk[0].spec = g;
	pk[0].domain = 1;
	pk[0].indices = idx;
	pk[0].nindices = 1 + fuzz_take(&in, 1) % 3;
	pk[0].events = names;
	pk[0].nevents = 1 + fuzz_take(&in, 1) % 4;
	pk[1].kind = 1;
	pk[1].spec = a;
	pk[1].domain = 1;
	pk[1].indices = idx;
	pk[1].nindices = 1;
	pk[1].events = names;
	pk[1].nevents = 1;
	sel.picks = pk;
	sel.npicks = 2;
	sel.ncounters = pk[0].nindices * pk[0].nevents + 1;
	memset(&m, 0, sizeof m);
	m.label = lbl;
	m.writer = lbl;
	m.interval_ns = fuzz_take(&in, 4);
	now = fuzz_take(&in, 8);
	if (frame)
		fuzz_frame(&in, &m.frame);
	w = record_write_new(&o);
	if (record_write_begin(w, &m, "CAT", 3, &sel, now, &b, &cause) != 0)
		abort();
	memset(acc, 0, sizeof acc);
	memset(&s, 0, sizeof s);
	s.values = calloc(sel.ncounters, sizeof *s.values);
	s.nvalues = sel.ncounters;
	nsamples = fuzz_take(&in, 1) % (v2 ? 40 : 250);
	for (i = 0; i < nsamples; i++) {
		now += fuzz_take(&in, 1 + (unsigned)fuzz_take(&in, 1) % 8);
		s.now = now;
		s.calls = (unsigned)fuzz_take(&in, 1) % 3;
		s.naive_calls = 4;
		s.catalog_version = fuzz_take(&in, 1) % 2;
		s.error[0] = fuzz_take(&in, 1) % 4 == 0 ? 'e' : '\0';
		s.error[1] = '\0';
		for (k = 0; k < sel.ncounters; k++) {
			acc[k] += fuzz_take(&in, 1 + (unsigned)(k % 4)) <<
			    (fuzz_take(&in, 1) % 40);
			s.values[k].value = acc[k];
			s.values[k].timebase = fuzz_take(&in, 1) % 4 == 0 ?
			    0 : now / 3;
			s.values[k].status = (uint8_t)(fuzz_take(&in, 1) % 8);
		}
		if (record_write_sample(w, &s, &b, &cause) != 0)
			abort();
		want = want * 31 + s.now;
		for (k = 0; k < sel.ncounters; k++)
			want = want * 31 + s.values[k].value +
			    s.values[k].timebase + s.values[k].status;
		n++;
	}
	record_write_end(w, &b);
	record_write_free(w);
	free(s.values);
	if (fuzz_read(b.p, b.len, &sum) != n || sum != want)
		abort();
	if (!frame)
		frame_ident_init(&m.frame);
	fuzz_frame_check(b.p, b.len, &m.frame);
	/* Cut anywhere: it reads, and never more samples than written. */
	cut = b.len > 0 ? (size_t)(fuzz_take(&in, 4) % b.len) : 0;
	got = fuzz_read(b.p, cut, &sum);
	if (got != UINT64_MAX && got > n)
		abort();
	record_buf_free(&b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return (0);
	if ((data[0] & 1) == 0)
		fuzz_reader(data + 1, size - 1);
	else
		fuzz_writer(data + 1, size - 1, (data[0] & 2) != 0,
		    (data[0] & 4) != 0);
	return (0);
}
