/*
 * The recording reader: bytes in, records out.  Every field is read
 * through a bounds-checked cursor; nothing is cast onto the buffer and no
 * string is trusted to end.  Damage is never fatal past the preamble: a
 * record that is cut short, fails its checksum or does not parse is
 * reported with its file offset, and reading goes on at the next
 * heartbeat (found by its sync marker and checked by its CRC-32), which
 * also says how many records and samples were lost.  A file that ends
 * inside a record (a writer killed mid-write) loses only that record.
 *
 * Pure: the caller hands over the bytes (a mapped file) and prints the
 * diagnostics.  This file reads the stream; record-read-open.c checks
 * the file header and reads the preamble, record-read-select.c the
 * picks of a SELECT record.
 */
#include "config.h"

#include "record/record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/selection.h"
#include "record/record-int.h"
#include "util/be.h"
#include "util/hverr.h"
#include "util/xalloc.h"

const char *
record_read_type_name(unsigned type)
{
	switch (type) {
	case RECORD_T_SAMPLE:
		return ("sample");
	case RECORD_T_HEARTBEAT:
		return ("heartbeat");
	case RECORD_T_META:
		return ("preamble");
	case RECORD_T_CATALOG:
		return ("catalog");
	case RECORD_T_SELECT:
		return ("selection");
	case RECORD_T_END:
		return ("end");
	case RECORD_T_FRAME:
		return ("frame");
	}
	return ("unknown");
}

/* Note a problem, once per pass over the file. */
static struct record_diag *
record_read_diag_add(struct record_reader *rd, int kind, uint64_t offset)
{
	struct record_diag	*d;

	if (offset < rd->hw && kind != RECORD_DIAG_UNCLOSED)
		return (NULL);
	if (rd->st.ndiags++ >= RECORD_DIAG_MAX)
		return (NULL);
	d = &rd->diags[rd->st.ndiags - 1];
	memset(d, 0, sizeof *d);
	d->kind = kind;
	d->offset = offset;
	return (d);
}

/* Whether a record at off is counted in the statistics (first pass). */
static int
record_read_fresh(const struct record_reader *rd, size_t off)
{
	return (off >= rd->hw);
}

static void
record_read_advance(struct record_reader *rd, size_t to)
{
	rd->off = to;
	if (to > rd->hw)
		rd->hw = to;
}

/*
 * Decode the header at off.  Returns 0, -HV_ETRUNC (the file ends in it)
 * or -HV_EFORMAT, with *why set to a static reason.
 */
int
record_read_header(const struct record_reader *rd, size_t off,
    struct record_hdr *h, const char **why)
{
	const uint8_t	*p = rd->buf + off;
	size_t		 left = rd->len - off, trailer;
	uint64_t	 t = 0, mask = 0;	/* for truncated kinds */
	uint32_t	 w;

	memset(h, 0, sizeof *h);
	*why = "the file ends inside a record header";
	if (left < RECORD_HDR_COMPACT)
		return (-HV_ETRUNC);
	if ((p[0] & 0x80) == 0) {
		w = be32_get(p);
		h->kind = RECORD_HDR_COMPACT;
		h->type = w >> 27;
		t = w & ((1U << 27) - 1);
		if (h->type == 0) {
			*why = "not a record header";
			return (-HV_EFORMAT);
		}
		if (t >> rd->cbits != 0) {
			*why = "timestamp bits set above the compact width";
			return (-HV_EFORMAT);
		}
		mask = ((uint64_t)1 << rd->cbits) - 1;
		h->pay = off + RECORD_HDR_COMPACT;
		h->paylen = rd->len - h->pay;
	} else if ((p[0] & 0xc0) == 0x80) {
		if (left < RECORD_HDR_NORMAL)
			return (-HV_ETRUNC);
		h->kind = RECORD_HDR_NORMAL;
		h->type = be16_get(p) & RECORD_TYPE_MAX;
		h->paylen = be16_get(p + 2);
		t = be32_get(p + 4);
		mask = ((uint64_t)1 << RECORD_NORMAL_BITS) - 1;
		h->pay = off + RECORD_HDR_NORMAL;
		h->sized = 1;
	} else {
		if (left < RECORD_HDR_FULL)
			return (-HV_ETRUNC);
		h->kind = RECORD_HDR_FULL;
		h->type = be16_get(p) & RECORD_TYPE_MAX;
		h->paylen = be16_get(p + 2);
		h->time = be64_get(p + 4);
		h->units = h->time >> rd->shift;
		h->pay = off + RECORD_HDR_FULL;
		if (h->paylen == RECORD_SIZE_EXT) {
			if (left < RECORD_HDR_FULL_EXT)
				return (-HV_ETRUNC);
			h->paylen = be32_get(p + 12);
			h->pay = off + RECORD_HDR_FULL_EXT;
			if (h->paylen < RECORD_SIZE_EXT ||
			    h->paylen > RECORD_PAYLOAD_MAX) {
				*why = "a record size out of range";
				return (-HV_EFORMAT);
			}
		}
		h->sized = 1;
	}
	if (h->kind != RECORD_HDR_FULL) {
		/* A truncated stamp continues the previous record's time:
		 * the smallest later time with these low bits. */
		if (!rd->have_last) {
			*why = "a truncated timestamp with no full one before";
			return (-HV_EFORMAT);
		}
		h->units = rd->last_units + ((t - rd->last_units) & mask);
		h->time = h->units << rd->shift;
	}
	if (h->sized) {
		trailer = h->kind == RECORD_HDR_FULL ? 4 : 2;
		if (!be_fits(rd->len, h->pay, h->paylen + trailer)) {
			*why = "the file ends inside a record";
			return (-HV_ETRUNC);
		}
	}
	return (0);
}

/* Check a sized record's checksum. */
int
record_read_crc(const struct record_reader *rd, size_t off,
    const struct record_hdr *h)
{
	size_t	 end = h->pay + h->paylen;

	if (h->kind == RECORD_HDR_FULL)
		return (record_codec_crc32(0, rd->buf + off, end - off) ==
		    be32_get(rd->buf + end));
	return (record_codec_crc16(0xffff, rd->buf + off, end - off) ==
	    be16_get(rd->buf + end));
}

static size_t
record_read_trailer(const struct record_hdr *h)
{
	return (h->kind == RECORD_HDR_FULL ? 4 : 2);
}

size_t
record_read_end(const struct record_hdr *h)
{
	return (h->pay + h->paylen + record_read_trailer(h));
}

/* ---- payloads ------------------------------------------------------ */

struct record_hb {
	uint64_t	 records;
	uint64_t	 samples;
	uint32_t	 sel_gen;
	uint32_t	 cat_gen;
	uint64_t	 prev;
	uint64_t	 sel_off;
	uint64_t	 cat_off;
};

/* A whole, intact heartbeat at off?  Fills *hb and *h. */
static int
record_read_is_heartbeat(const struct record_reader *rd, size_t off,
    struct record_hdr *h, struct record_hb *hb)
{
	const uint8_t	*p;

	if (!be_fits(rd->len, off, RECORD_HDR_FULL + RECORD_HEARTBEAT_PAYLOAD +
	    4))
		return (0);
	p = rd->buf + off;
	if (be16_get(p) != (0xc000 | RECORD_T_HEARTBEAT) ||
	    be16_get(p + 2) != RECORD_HEARTBEAT_PAYLOAD ||
	    memcmp(p + RECORD_HDR_FULL, RECORD_SYNC, RECORD_SYNC_LEN) != 0)
		return (0);
	memset(h, 0, sizeof *h);
	h->type = RECORD_T_HEARTBEAT;
	h->kind = RECORD_HDR_FULL;
	h->time = be64_get(p + 4);
	h->units = h->time >> rd->shift;
	h->pay = off + RECORD_HDR_FULL;
	h->paylen = RECORD_HEARTBEAT_PAYLOAD;
	h->sized = 1;
	if (!record_read_crc(rd, off, h))
		return (0);
	p += RECORD_HDR_FULL;
	hb->records = be64_get(p + 8);
	hb->samples = be64_get(p + 16);
	hb->sel_gen = be32_get(p + 24);
	hb->cat_gen = be32_get(p + 28);
	hb->prev = be64_get(p + 32);
	hb->sel_off = be64_get(p + 40);
	hb->cat_off = be64_get(p + 48);
	return (1);
}

/*
 * A sample payload: one range-coded block, decoded with the predictor into
 * rd->sample and the predictor's cur and tbcur.  Returns the bytes it
 * took, or 0 with *error set; *now gets the sample's exact time.
 */
static size_t
record_read_sample_payload(struct record_reader *rd, const uint8_t *buf,
    size_t len, uint64_t *now, int *error)
{
	struct raw_sample	*s = &rd->sample;
	struct record_pred	*p = &rd->pred;
	struct record_rc_dec	 d;
	struct record_bits_rd	 br;
	size_t			 n = rd->sel.ncounters, k, i;
	unsigned		 flags = 0, prev, st;
	uint64_t		 v;

	record_rc_dec_init(&d, buf, len);
	for (i = 0; i < RECORD_SF_COUNT; i++)
		flags |= (unsigned)record_rc_dec_bit(&d, &p->m.flags[i]) << i;
	*now = record_codec_pred_now(p) + (uint64_t)record_unzigzag(
	    record_rc_dec_number(&d, p->m.now));
	s->nvalues = n;
	s->now = *now;
	s->calls = p->calls;
	s->naive_calls = p->naive;
	s->catalog_version = p->version;
	memcpy(s->error, p->error, sizeof s->error);
	for (k = 0; k < n; k++)
		s->values[k].status = 0;
	if (flags & RECORD_SF_STATUS) {
		for (k = 0, prev = 0; k < n; k++, prev = st) {
			st = record_rc_dec_tree(&d, p->m.status[prev], 3);
			s->values[k].status = (uint8_t)st;
		}
	}
	if (flags & RECORD_SF_CALLS) {
		v = record_rc_dec_number(&d, p->m.calls);
		s->calls = (unsigned)v;
		if (v > UINT32_MAX)
			d.error = -HV_EFORMAT;
	}
	if (flags & RECORD_SF_NAIVE) {
		v = record_rc_dec_number(&d, p->m.naive);
		s->naive_calls = (unsigned)v;
		if (v > UINT32_MAX)
			d.error = -HV_EFORMAT;
	}
	if (flags & RECORD_SF_VERSION)
		s->catalog_version = record_rc_dec_number(&d, p->m.version);
	if (flags & RECORD_SF_ERROR) {
		v = record_rc_dec_number(&d, p->m.errlen);
		if (v >= sizeof s->error)
			d.error = -HV_EFORMAT;
		for (i = 0; i < v && d.error == 0; i++)
			s->error[i] = (char)record_rc_dec_direct(&d, 8);
		s->error[i] = '\0';
	}
	if (d.error == 0 && !record_codec_lp(p))
		record_codec_decode_symbols(p, &d);
	for (k = 0; k < n && d.error == 0; k++) {
		p->tbcur[k] = 0;
		if ((flags & RECORD_SF_TIMEBASE) == 0)
			continue;
		p->tbcur[k] = record_codec_pred_timebase(p, k);
		if ((flags & RECORD_SF_TBEXACT) == 0)
			p->tbcur[k] += (uint64_t)record_unzigzag(
			    record_rc_dec_number(&d,
			    p->m.tb[record_codec_pred_stage(p)]));
	}
	if (d.error != 0) {
		*error = d.error;
		return (0);
	}
	/* The plain bits follow the range coder's last byte. */
	record_bits_rd_init(&br, buf + d.off, len - d.off);
	if (record_codec_lp(p))
		record_codec_lp_decode(p, &br);
	else
		record_codec_decode_values(p, &br);
	if (record_bits_end(&br) != 0) {
		*error = br.error;
		return (0);
	}
	return (d.off + br.off);
}

/* ---- damage -------------------------------------------------------- */

/*
 * The record at off is bad (error, why): report it and go on at the next
 * intact heartbeat, or give up on the rest of the file.
 */
static void
record_read_resync(struct record_reader *rd, size_t off, unsigned type,
    int error, const char *why)
{
	struct record_diag	*d;
	struct record_hdr	 h;
	struct record_hb	 hb;
	const uint8_t		*m;
	size_t			 at = off + 1, hbat = 0;
	uint64_t		 lr = 0, ls = 0;
	int			 found = 0;

	while (at + RECORD_SYNC_LEN <= rd->len) {
		m = memchr(rd->buf + at, RECORD_SYNC[0], rd->len - at -
		    RECORD_SYNC_LEN + 1);
		if (m == NULL)
			break;
		at = (size_t)(m - rd->buf);
		if (at >= off + 1 + RECORD_HDR_FULL &&
		    memcmp(m, RECORD_SYNC, RECORD_SYNC_LEN) == 0 &&
		    record_read_is_heartbeat(rd, at - RECORD_HDR_FULL, &h,
		    &hb)) {
			hbat = at - RECORD_HDR_FULL;
			found = 1;
			break;
		}
		at++;
	}
	if (found) {
		if (hb.records > rd->seen_records)
			lr = hb.records - rd->seen_records;
		if (hb.samples > rd->seen_samples)
			ls = hb.samples - rd->seen_samples;
		if ((d = record_read_diag_add(rd, RECORD_DIAG_CORRUPT,
		    off)) != NULL) {
			d->length = hbat - off;
			d->records = lr;
			d->samples = ls;
			snprintf(d->text, sizeof d->text, "offset %zu: %s "
			    "(%s record); skipped %zu bytes to the heartbeat "
			    "at offset %zu: %llu records, %llu samples lost",
			    off, why, record_read_type_name(type), hbat - off,
			    hbat, (unsigned long long)lr,
			    (unsigned long long)ls);
		}
		if (record_read_fresh(rd, off)) {
			rd->st.skipped_bytes += hbat - off;
			rd->st.dropped_records += lr;
			rd->st.dropped_samples += ls;
		}
		/* The heartbeat's counts are the truth from here on. */
		rd->seen_records = hb.records;
		rd->seen_samples = hb.samples;
		record_read_advance(rd, hbat);
		return;
	}
	d = record_read_diag_add(rd, error == -HV_ETRUNC ? RECORD_DIAG_TORN :
	    RECORD_DIAG_GARBAGE, off);
	if (d != NULL) {
		d->length = rd->len - off;
		d->records = 1;
		if (error == -HV_ETRUNC)
			snprintf(d->text, sizeof d->text, "offset %zu: the "
			    "recording ends inside a %s record (%zu bytes): "
			    "dropped 1 incomplete record", off,
			    record_read_type_name(type), rd->len - off);
		else
			snprintf(d->text, sizeof d->text, "offset %zu: %s "
			    "(%s record) and no heartbeat after it: dropped "
			    "the last %zu bytes", off, why,
			    record_read_type_name(type), rd->len - off);
	}
	if (record_read_fresh(rd, off)) {
		rd->st.skipped_bytes += rd->len - off;
		rd->st.dropped_records++;
	}
	record_read_advance(rd, rd->len);
}

/* ---- records ------------------------------------------------------- */

static void
record_read_set_selection(struct record_reader *rd,
    struct record_selection *sel)
{
	uint64_t	 interval = rd->meta.interval_ns;

	record_selection_free(&rd->sel);
	rd->sel = *sel;
	memset(sel, 0, sizeof *sel);
	record_codec_pred_free(&rd->pred);
	record_codec_pred_init(&rd->pred, &rd->sel, interval,
	    rd->format);
	raw_sample_size(&rd->sample, rd->sel.ncounters);
	rd->keyed = 0;
}

/*
 * A catalog or selection record's payload (in c): take it as the state
 * from now on.  Returns 0, or -HV_EFORMAT with *why set.
 */
static int
record_read_apply(struct record_reader *rd, unsigned type,
    struct record_cur *c, uint32_t *gen, const char **why)
{
	struct record_selection	 sel;
	uint64_t		 v;
	int			 error;

	if (type == RECORD_T_CATALOG) {
		v = record_cur_varint(c);
		if (c->error != 0 || v > UINT32_MAX) {
			*why = "a malformed catalog record";
			return (-HV_EFORMAT);
		}
		rd->cat = c->p + c->off;
		rd->catlen = c->len - c->off;
		rd->cat_gen = (uint32_t)v;
		rd->cat_lost = 0;
		*gen = (uint32_t)v;
		rd->changes++;
		return (0);
	}
	error = record_read_select_payload(c, gen, &sel);
	if (error != 0 || c->off != c->len) {
		record_selection_free(&sel);
		*why = "a malformed selection record";
		return (-HV_EFORMAT);
	}
	record_read_set_selection(rd, &sel);
	rd->sel_gen = *gen;
	rd->sel_lost = 0;
	rd->changes++;
	return (0);
}

/*
 * Take the selection or catalog record a heartbeat points to (at off,
 * before the heartbeat at limit) if it is intact and of generation gen.
 */
static int
record_read_refetch(struct record_reader *rd, uint64_t off, size_t limit,
    unsigned type, uint32_t want)
{
	struct record_hdr	 h;
	struct record_cur	 c;
	const char		*why;
	uint32_t		 gen;

	if (off < RECORD_FILE_HEADER || off >= limit ||
	    record_read_header(rd, (size_t)off, &h, &why) != 0 ||
	    h.type != type || !h.sized || record_read_end(&h) > limit ||
	    !record_read_crc(rd, (size_t)off, &h))
		return (0);
	memset(&c, 0, sizeof c);
	c.p = rd->buf + h.pay;
	c.len = h.paylen;
	/* Check the generation before replacing anything. */
	if (record_cur_varint(&c) != want || c.error != 0)
		return (0);
	c.off = 0;
	return (record_read_apply(rd, type, &c, &gen, &why) == 0);
}

/*
 * A heartbeat: the predictors start afresh.  Its generations say whether
 * a selection or catalog record was lost in damage before it; if so the
 * records it points to are read again.  Returns 1 when the state could
 * not be recovered (the samples that follow cannot be decoded).
 */
/*
 * The catalog or selection (what) a heartbeat at off says is in force,
 * generation gen in the record at at: fetched again when the reader has
 * another.  Returns 1 when it cannot be had (said once until found).
 */
static int
record_read_in_force(struct record_reader *rd, size_t off, uint64_t at,
    unsigned type, uint32_t gen, uint32_t have, int *lost,
    const char *what)
{
	struct record_diag	*d;

	if (gen == have || record_read_refetch(rd, at, off, type, gen))
		return (0);
	if (!*lost && (d = record_read_diag_add(rd, RECORD_DIAG_LOST,
	    off)) != NULL)
		snprintf(d->text, sizeof d->text, "offset %zu: the %s in "
		    "force here (record at offset %llu) is damaged; samples "
		    "are skipped until another %s record", off, what,
		    (unsigned long long)at, what);
	*lost = 1;
	return (1);
}

static int
record_read_heartbeat(struct record_reader *rd, size_t off,
    const struct record_hdr *h, const struct record_hb *hb)
{
	int	 lost;

	if (record_read_fresh(rd, off))
		rd->st.heartbeats++;
	lost = record_read_in_force(rd, off, hb->cat_off, RECORD_T_CATALOG,
	    hb->cat_gen, rd->cat_gen, &rd->cat_lost, "catalog");
	lost |= record_read_in_force(rd, off, hb->sel_off, RECORD_T_SELECT,
	    hb->sel_gen, rd->sel_gen, &rd->sel_lost, "selection");
	record_codec_pred_key(&rd->pred, h->time);
	rd->keyed = 1;
	return (lost || rd->sel_lost || rd->cat_lost);
}

/*
 * After a heartbeat whose state is lost: samples cannot even be walked
 * over (their length depends on the selection), so go to the next
 * heartbeat, counting what is passed over.
 */
static void
record_read_skip(struct record_reader *rd, size_t from,
    const struct record_hb *hb)
{
	struct record_hdr	 h;
	struct record_hb	 next;
	const uint8_t		*m;
	size_t			 at = from;
	int			 fresh = record_read_fresh(rd, from);

	while (at + RECORD_SYNC_LEN <= rd->len) {
		m = memchr(rd->buf + at, RECORD_SYNC[0], rd->len - at -
		    RECORD_SYNC_LEN + 1);
		if (m == NULL)
			break;
		at = (size_t)(m - rd->buf);
		if (at >= from + RECORD_HDR_FULL &&
		    record_read_is_heartbeat(rd, at - RECORD_HDR_FULL, &h,
		    &next)) {
			if (fresh) {
				rd->st.skipped_bytes += at - RECORD_HDR_FULL -
				    from;
				if (next.samples > hb->samples)
					rd->st.dropped_samples +=
					    next.samples - hb->samples;
				if (next.records > hb->records + 1)
					rd->st.dropped_records +=
					    next.records - hb->records - 1;
			}
			rd->seen_records = next.records;
			rd->seen_samples = next.samples;
			record_read_advance(rd, at - RECORD_HDR_FULL);
			return;
		}
		at++;
	}
	if (fresh)
		rd->st.skipped_bytes += rd->len - from;
	record_read_advance(rd, rd->len);
}

/*
 * The sample record at off with header h: decoded, checked against its
 * header and checksum, and made the reader's sample.  Returns 1 with *ev
 * set, or a negative code with *why set.
 */
static int
record_read_one_sample(struct record_reader *rd, size_t off,
    struct record_hdr *h, struct record_event *ev, const char **why)
{
	struct record_pred	*p = &rd->pred;
	size_t			 used, k;
	uint64_t		 now = 0;
	int			 error = 0, fresh;

	if (!rd->keyed) {
		*why = "a sample with no heartbeat before it";
		return (-HV_EFORMAT);
	}
	used = record_read_sample_payload(rd, rd->buf + h->pay, h->paylen,
	    &now, &error);
	if (error != 0) {
		*why = error == -HV_ETRUNC ? "the file ends inside a sample" :
		    "a sample that does not decode";
		return (error);
	}
	if (h->sized && used != h->paylen) {
		*why = "a sample shorter than its record";
		return (-HV_EFORMAT);
	}
	if (!h->sized) {
		if (!be_fits(rd->len, h->pay, used + 2)) {
			*why = "the file ends inside a sample";
			return (-HV_ETRUNC);
		}
		h->paylen = used;
	}
	if (!record_read_crc(rd, off, h)) {
		*why = "bad checksum";
		return (-HV_EFORMAT);
	}
	if ((now >> rd->shift) != h->units) {
		*why = "the header's time disagrees with the sample's";
		return (-HV_EFORMAT);
	}
	rd->have_last = 1;
	rd->last_units = h->units;
	fresh = record_read_fresh(rd, off);
	record_read_advance(rd, record_read_end(h));
	rd->seen_records++;
	rd->seen_samples++;
	if (fresh) {
		rd->st.records++;
		rd->st.samples++;
	}
	/* Before the update, which moves cur into the history. */
	for (k = 0; k < rd->sample.nvalues; k++) {
		rd->sample.values[k].value = p->cur[k];
		rd->sample.values[k].timebase = p->tbcur[k];
	}
	record_codec_pred_update(p, now);
	p->calls = rd->sample.calls;
	p->naive = rd->sample.naive_calls;
	p->version = rd->sample.catalog_version;
	memcpy(p->error, rd->sample.error, sizeof p->error);
	ev->kind = RECORD_EV_SAMPLE;
	ev->time = now;
	ev->sample = &rd->sample;
	return (1);
}

/*
 * Read the record at rd->off.  Returns 1 with *ev set for a record the
 * caller sees, 0 for one it does not (a heartbeat), or a negative code
 * with *why set when the record is bad.
 */
int
record_read_one(struct record_reader *rd, struct record_event *ev,
    struct record_hdr *h, const char **why)
{
	struct record_cur	 c;
	struct record_hb	 hb;
	size_t			 off = rd->off;
	uint32_t		 gen;
	int			 error, fresh;

	if ((error = record_read_header(rd, off, h, why)) != 0)
		return (error);
	if (h->type == RECORD_T_SAMPLE)
		return (record_read_one_sample(rd, off, h, ev, why));

	memset(&c, 0, sizeof c);
	c.p = rd->buf + h->pay;
	c.len = h->paylen;
	if (!h->sized) {
		*why = "a compact header on a record that needs a size";
		return (-HV_EFORMAT);
	}
	if (!record_read_crc(rd, off, h)) {
		*why = "bad checksum";
		return (-HV_EFORMAT);
	}
	error = 0;
	switch (h->type) {
	case RECORD_T_HEARTBEAT:
		if (!record_read_is_heartbeat(rd, off, h, &hb)) {
			*why = "a malformed heartbeat";
			return (-HV_EFORMAT);
		}
		if (record_read_heartbeat(rd, off, h, &hb)) {
			fresh = record_read_fresh(rd, off);
			rd->have_last = 1;
			rd->last_units = h->units;
			record_read_advance(rd, record_read_end(h));
			if (fresh)
				rd->st.records++;
			record_read_skip(rd, rd->off, &hb);
			return (0);
		}
		break;
	case RECORD_T_CATALOG:
	case RECORD_T_SELECT:
		if (record_read_apply(rd, h->type, &c, &gen, why) != 0)
			return (-HV_EFORMAT);
		ev->kind = h->type == RECORD_T_CATALOG ? RECORD_EV_CATALOG :
		    RECORD_EV_SELECT;
		error = 1;
		break;
	case RECORD_T_END:
		(void)record_cur_varint(&c);
		(void)record_cur_varint(&c);
		if (c.error != 0 || c.off != c.len) {
			*why = "a malformed end record";
			return (-HV_EFORMAT);
		}
		if (record_read_fresh(rd, off))
			rd->st.clean_end = 1;
		ev->kind = RECORD_EV_END;
		error = 1;
		break;
	default:
		/* Passed over: sized records of types it does not know (a
		 * later version may add some), a stray preamble, a FRAME. */
		if (record_frame_check(h->type, &c, why) != 0)
			return (-HV_EFORMAT);
		break;
	}
	rd->have_last = 1;
	rd->last_units = h->units;
	fresh = record_read_fresh(rd, off);
	record_read_advance(rd, record_read_end(h));
	rd->seen_records++;
	if (fresh)
		rd->st.records++;
	ev->time = h->time;
	return (error);
}

int
record_read_next(struct record_reader *rd, struct record_event *ev)
{
	struct record_diag	*d;
	struct record_hdr	 h;
	const char		*why;
	size_t			 off;
	int			 error;

	memset(ev, 0, sizeof *ev);
	while (rd->off < rd->len) {
		off = rd->off;
		ev->offset = off;
		error = record_read_one(rd, ev, &h, &why);
		if (error > 0)
			return (ev->kind);
		if (error < 0)
			record_read_resync(rd, off, h.type, error, why);
	}
	if (!rd->eof) {
		rd->eof = 1;
		if (!rd->st.clean_end && !rd->unclosed &&
		    (d = record_read_diag_add(rd,
		    RECORD_DIAG_UNCLOSED, rd->len)) != NULL)
			snprintf(d->text, sizeof d->text, "no end record: the "
			    "writer did not close the recording (killed or "
			    "crashed); everything before offset %zu is kept",
			    rd->len - (size_t)rd->st.skipped_bytes);
		rd->unclosed = 1;
	}
	ev->kind = RECORD_EV_EOF;
	ev->offset = rd->len;
	return (RECORD_EV_EOF);
}

void
record_read_rewind(struct record_reader *rd)
{
	struct record_selection	 sel;

	record_selection_copy(&sel, &rd->sel0);
	record_read_set_selection(rd, &sel);
	rd->cat = rd->cat0;
	rd->catlen = rd->catlen0;
	rd->sel_gen = 1;
	rd->cat_gen = 1;
	rd->sel_lost = 0;
	rd->cat_lost = 0;
	rd->have_last = 1;
	rd->last_units = rd->units0;
	rd->seen_records = 3;
	rd->seen_samples = 0;
	rd->off = rd->body;
	rd->eof = 0;
	rd->changes++;
}

void
record_read_free(struct record_reader *rd)
{
	if (rd == NULL)
		return;
	record_meta_free(&rd->meta);
	record_selection_free(&rd->sel);
	record_selection_free(&rd->sel0);
	record_codec_pred_free(&rd->pred);
	raw_sample_free(&rd->sample);
	free(rd);
}

const struct record_meta *
record_read_meta(const struct record_reader *rd)
{
	return (&rd->meta);
}

const struct record_selection *
record_read_selection(const struct record_reader *rd)
{
	return (&rd->sel);
}

const void *
record_read_catalog(const struct record_reader *rd, size_t *len)
{
	*len = rd->catlen;
	return (rd->cat);
}

unsigned
record_read_changes(const struct record_reader *rd)
{
	return (rd->changes);
}

unsigned
record_read_tb_shift(const struct record_reader *rd)
{
	return (rd->shift);
}

unsigned
record_read_compact_bits(const struct record_reader *rd)
{
	return (rd->cbits);
}

void
record_read_stats(const struct record_reader *rd, struct record_stats *st)
{
	*st = rd->st;
}

const struct record_diag *
record_read_diag(const struct record_reader *rd, size_t i)
{
	if (i >= rd->st.ndiags || i >= RECORD_DIAG_MAX)
		return (NULL);
	return (&rd->diags[i]);
}
