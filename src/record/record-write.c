/*
 * The recording writer: records as bytes appended to a caller's buffer.
 * It decides, record by record, the smallest header that the time since
 * the previous record allows, when a heartbeat is due, and how each
 * counter is predicted.  It does no I/O; src/session/session-record.c
 * puts the bytes in a file.
 */
#include "config.h"

#include "record/record.h"

#include <stdlib.h>
#include <string.h>

#include "record/record-int.h"
#include "util/be.h"
#include "util/hverr.h"
#include "util/xalloc.h"

struct record_writer {
	struct record_writer_opts opts;
	struct record_selection sel;
	struct record_pred pred;
	struct record_buf pay;		/* a payload being built */
	struct record_buf bits;		/* ... its plain bits */
	int		 begun;
	int		 key_due;	/* a heartbeat before the next sample */
	int		 have_last;
	uint64_t	 last_time;	/* ns of the last stamped record */
	uint64_t	 offset;	/* of the next record in the file */
	uint64_t	 records;
	uint64_t	 samples;
	uint32_t	 sel_gen;
	uint32_t	 cat_gen;
	uint64_t	 prev_hb;	/* offset of the last heartbeat or 0 */
	uint64_t	 sel_off;	/* of the selection record in force */
	uint64_t	 cat_off;	/* of the catalog record in force */
	unsigned	 since_hb;	/* samples since it */
	uint64_t	 since_hb_bytes;
	uint64_t	 heartbeats;
};

void
record_write_defaults(struct record_writer_opts *o)
{
	o->tb_shift = RECORD_TB_SHIFT;
	o->compact_bits = RECORD_COMPACT_BITS;
	o->keyframe_samples = 512;
	o->keyframe_bytes = 1 << 20;
	o->format = RECORD_VERSION;
}

struct record_writer *
record_write_new(const struct record_writer_opts *opts)
{
	struct record_writer	*w;

	w = xcalloc(1, sizeof *w);
	record_write_defaults(&w->opts);
	if (opts != NULL)
		w->opts = *opts;
	if (w->opts.tb_shift > 32)
		w->opts.tb_shift = 32;
	if (w->opts.compact_bits < 1)
		w->opts.compact_bits = 1;
	if (w->opts.compact_bits > RECORD_COMPACT_MAX)
		w->opts.compact_bits = RECORD_COMPACT_MAX;
	if (w->opts.keyframe_samples < 1)
		w->opts.keyframe_samples = 1;
	if (w->opts.keyframe_bytes < 1)
		w->opts.keyframe_bytes = 1;
	if (w->opts.format != RECORD_VERSION_2)
		w->opts.format = RECORD_VERSION_3;
	return (w);
}

void
record_write_free(struct record_writer *w)
{
	if (w == NULL)
		return;
	record_selection_free(&w->sel);
	record_codec_pred_free(&w->pred);
	record_buf_free(&w->pay);
	record_buf_free(&w->bits);
	free(w);
}

uint64_t
record_write_records(const struct record_writer *w)
{
	return (w->records);
}

uint64_t
record_write_samples(const struct record_writer *w)
{
	return (w->samples);
}

/* Time units since the last stamped record, or UINT64_MAX if unknown. */
static uint64_t
record_write_gap(const struct record_writer *w, uint64_t t)
{
	uint64_t	 a = t >> w->opts.tb_shift;
	uint64_t	 b = w->last_time >> w->opts.tb_shift;

	if (!w->have_last || a < b)
		return (UINT64_MAX);
	return (a - b);
}

/*
 * Append one record: the smallest header that can carry the time and the
 * size, the payload, and its checksum.  compact: the payload delimits
 * itself, so a compact header may be used.
 */
static void
record_write_record(struct record_writer *w, struct record_buf *out,
    unsigned type, uint64_t t, const uint8_t *pay, size_t len, int compact)
{
	uint64_t	 gap = record_write_gap(w, t), units;
	size_t		 start = out->len;
	uint8_t		 h[RECORD_HDR_FULL_EXT];
	uint32_t	 crc;
	int		 kind;

	units = t >> w->opts.tb_shift;
	if (compact && type < RECORD_COMPACT_TYPES &&
	    gap < ((uint64_t)1 << w->opts.compact_bits))
		kind = RECORD_HDR_COMPACT;
	else if (type != RECORD_T_HEARTBEAT && len < RECORD_SIZE_EXT &&
	    gap < ((uint64_t)1 << RECORD_NORMAL_BITS))
		kind = RECORD_HDR_NORMAL;
	else
		kind = RECORD_HDR_FULL;
	switch (kind) {
	case RECORD_HDR_COMPACT:
		be32_put(h, (uint32_t)type << 27 | (uint32_t)(units &
		    (((uint64_t)1 << w->opts.compact_bits) - 1)));
		record_buf_add(out, h, RECORD_HDR_COMPACT);
		break;
	case RECORD_HDR_NORMAL:
		be16_put(h, (uint16_t)(0x8000 | type));
		be16_put(h + 2, (uint16_t)len);
		be32_put(h + 4, (uint32_t)units);
		record_buf_add(out, h, RECORD_HDR_NORMAL);
		break;
	default:
		be16_put(h, (uint16_t)(0xc000 | type));
		be64_put(h + 4, t);
		if (len < RECORD_SIZE_EXT) {
			be16_put(h + 2, (uint16_t)len);
			record_buf_add(out, h, RECORD_HDR_FULL);
		} else {
			be16_put(h + 2, RECORD_SIZE_EXT);
			be32_put(h + 12, (uint32_t)len);
			record_buf_add(out, h, RECORD_HDR_FULL_EXT);
		}
		break;
	}
	record_buf_add(out, pay, len);
	if (kind == RECORD_HDR_FULL) {
		crc = record_codec_crc32(0, out->p + start, out->len - start);
		be32_put(h, crc);
		record_buf_add(out, h, 4);
	} else {
		be16_put(h, record_codec_crc16(0xffff, out->p + start,
		    out->len - start));
		record_buf_add(out, h, 2);
	}
	w->have_last = 1;
	w->last_time = t;
	w->records++;
	w->offset += out->len - start;
	w->since_hb_bytes += out->len - start;
}

/* A heartbeat at time t; the predictors start afresh after it. */
static void
record_write_heartbeat(struct record_writer *w, struct record_buf *out,
    uint64_t t)
{
	uint8_t		 p[RECORD_HEARTBEAT_PAYLOAD];
	uint64_t	 at = w->offset;

	memcpy(p, RECORD_SYNC, RECORD_SYNC_LEN);
	be64_put(p + 8, w->records);
	be64_put(p + 16, w->samples);
	be32_put(p + 24, w->sel_gen);
	be32_put(p + 28, w->cat_gen);
	be64_put(p + 32, w->prev_hb);
	be64_put(p + 40, w->sel_off);
	be64_put(p + 48, w->cat_off);
	record_write_record(w, out, RECORD_T_HEARTBEAT, t, p, sizeof p, 0);
	w->prev_hb = at;
	w->heartbeats++;
	w->since_hb = 0;
	w->since_hb_bytes = 0;
	w->key_due = 0;
	record_codec_pred_key(&w->pred, t);
}

static void
record_write_meta(struct record_writer *w, const struct record_meta *m,
    struct record_buf *b)
{
	const struct record_topology	*t = &m->topo;
	uint8_t				 d[8];
	size_t				 i;

	(void)w;
	record_buf_string(b, m->label);
	record_buf_string(b, m->writer);
	record_buf_varint(b, m->epoch_ns);
	record_buf_varint(b, m->interval_ns);
	record_buf_varint(b, t->sockets);
	record_buf_varint(b, t->chips);
	record_buf_varint(b, t->cores);
	record_buf_varint(b, t->smt);
	record_buf_varint(b, t->vcpus);
	record_buf_varint(b, (uint64_t)(unsigned)t->interface);
	record_buf_varint(b, (uint64_t)(unsigned)t->privileged);
	record_buf_varint(b, t->timebase_hz);
	record_buf_varint(b, m->nconsts);
	for (i = 0; i < m->nconsts; i++) {
		uint64_t bits;

		record_buf_string(b, m->consts[i].name);
		memcpy(&bits, &m->consts[i].value, sizeof bits);
		be64_put(d, bits);
		record_buf_add(b, d, sizeof d);
	}
}

/*
 * An @lpar pick's records: the placements, then each (partition, vcpu)
 * unit as steps from the one before (most are the same partition and
 * the next vcpu: two zero bytes).
 */
static void
record_write_units(const struct record_pick *pk, struct record_buf *b)
{
	size_t	 np = record_places(pk->places), r;
	int64_t	 lp = 0, prev = -1;

	record_buf_varint(b, pk->places);
	record_buf_varint(b, pk->nindices / np);
	for (r = 0; r < pk->nindices; r += np) {
		if (pk->lpars[r] != lp)
			prev = -1;
		record_buf_varint(b, record_zigzag((int64_t)pk->lpars[r] -
		    lp));
		record_buf_varint(b, record_zigzag((int64_t)pk->indices[r] -
		    prev - 1));
		lp = pk->lpars[r];
		prev = pk->indices[r];
	}
}

/* The partitions the @lpar picks were made from. */
static void
record_write_lpars(const struct record_selection *s, struct record_buf *b)
{
	size_t	 i;
	int64_t	 prev = -1;

	record_buf_varint(b, s->lpar_self);
	record_buf_varint(b, (uint64_t)(s->lpars_denied != 0));
	record_buf_varint(b, s->nlpars);
	for (i = 0; i < s->nlpars; i++) {
		record_buf_varint(b, record_zigzag((int64_t)s->lpars[i].id -
		    prev - 1));
		record_buf_varint(b, s->lpars[i].vcpus);
		record_buf_varint(b, s->lpars[i].cfg);
		prev = s->lpars[i].id;
	}
}

static void
record_write_picks(struct record_writer *w, const struct record_selection *s,
    struct record_buf *b)
{
	const struct record_pick	*pk;
	size_t				 i, j;
	int64_t				 prev;

	record_buf_varint(b, w->sel_gen);
	record_buf_varint(b, s->npicks);
	for (i = 0; i < s->npicks; i++) {
		pk = &s->picks[i];
		record_buf_u8(b, (uint8_t)(pk->kind | (pk->lpars != NULL ?
		    RECORD_PICK_LPAR : 0)));
		record_buf_string(b, pk->spec);
		record_buf_varint(b, (uint64_t)(unsigned)pk->domain);
		record_buf_varint(b, pk->lpar);
		if (pk->lpars != NULL)
			record_write_units(pk, b);
		else {
			record_buf_varint(b, pk->nindices);
			/* Indices as steps from the previous one (most are
			 * +1). */
			prev = -1;
			for (j = 0; j < pk->nindices; j++) {
				record_buf_varint(b, record_zigzag((int64_t)
				    pk->indices[j] - prev - 1));
				prev = pk->indices[j];
			}
		}
		record_buf_varint(b, pk->nevents);
		for (j = 0; j < pk->nevents; j++)
			record_buf_string(b, pk->events[j]);
	}
	if (record_selection_has_lpar(s))
		record_write_lpars(s, b);
}

/*
 * Whether an @lpar pick's records come in units: each (partition, vcpu)
 * once, in as many records as it has placements, domains ascending as in
 * places.  That is how a selection makes them, and how they are written.
 */
static int
record_write_units_ok(const struct record_pick *pk)
{
	unsigned	 np = record_places(pk->places), q, bit;
	size_t		 r, u;

	if (pk->places == 0 || pk->places > 0xf || pk->nindices % np != 0)
		return (0);
	for (u = 0; u < pk->nindices; u += np) {
		for (q = 0, bit = 0; q < np; q++, bit++) {
			while (!(pk->places & 1U << bit))
				bit++;
			r = u + q;
			if (pk->domains[r] != 3 + bit ||
			    pk->lpars[r] != pk->lpars[u] ||
			    pk->indices[r] != pk->indices[u])
				return (0);
		}
	}
	return (1);
}

/* Check a selection the reader would accept. */
static int
record_write_check(const struct record_selection *s, char **cause)
{
	const struct record_pick	*pk;
	size_t				 i, j, n = 0;

	if (s->npicks > RECORD_PICKS_MAX) {
		*cause = xasprintf("a recording holds at most %d picks",
		    RECORD_PICKS_MAX);
		return (-HV_ELIMIT);
	}
	for (i = 0; i < s->npicks; i++) {
		pk = &s->picks[i];
		if (pk->nevents == 0 || pk->nevents > RECORD_EVENTS_MAX ||
		    pk->spec == NULL || pk->domain < 0 || pk->domain > 255 ||
		    (pk->kind != 0 && pk->kind != 1) || (pk->spec != NULL &&
		    strlen(pk->spec) > RECORD_STRING_MAX) ||
		    (pk->lpars != NULL && !record_write_units_ok(pk))) {
			*cause = xasprintf("pick %zu cannot be recorded", i);
			return (-HV_ELIMIT);
		}
		for (j = 0; j < pk->nevents; j++) {
			if (strlen(pk->events[j]) > RECORD_STRING_MAX) {
				*cause = xasprintf("pick %zu: event name too "
				    "long to record", i);
				return (-HV_ELIMIT);
			}
		}
		if (pk->nindices > RECORD_COUNTERS_MAX / pk->nevents) {
			*cause = xasprintf("pick %zu has too many counters "
			    "to record", i);
			return (-HV_ELIMIT);
		}
		n += pk->nindices * pk->nevents;
		if (n > RECORD_COUNTERS_MAX) {
			*cause = xasprintf("a recording holds at most %zu "
			    "counters", RECORD_COUNTERS_MAX);
			return (-HV_ELIMIT);
		}
	}
	if (n != s->ncounters) {
		*cause = xasprintf("the selection claims %zu counters but its "
		    "picks hold %zu", s->ncounters, n);
		return (-HV_EUSAGE);
	}
	return (0);
}

int
record_write_select(struct record_writer *w,
    const struct record_selection *s, struct record_buf *out, char **cause)
{
	uint64_t	 interval = w->pred.interval;
	int		 error;

	if ((error = record_write_check(s, cause)) != 0)
		return (error);
	record_selection_free(&w->sel);
	record_selection_copy(&w->sel, s);
	record_codec_pred_free(&w->pred);
	record_codec_pred_init(&w->pred, &w->sel, interval, w->opts.format);
	w->sel_gen++;
	record_buf_reset(&w->pay);
	record_write_picks(w, s, &w->pay);
	w->sel_off = w->offset;
	record_write_record(w, out, RECORD_T_SELECT, w->last_time, w->pay.p,
	    w->pay.len, 0);
	w->key_due = 1;
	return (0);
}

int
record_write_catalog(struct record_writer *w, const void *img, size_t len,
    struct record_buf *out, char **cause)
{
	if (len > RECORD_PAYLOAD_MAX - 16) {
		*cause = xasprintf("a catalog of %zu bytes is too large to "
		    "record", len);
		return (-HV_ELIMIT);
	}
	w->cat_gen++;
	record_buf_reset(&w->pay);
	record_buf_varint(&w->pay, w->cat_gen);
	record_buf_add(&w->pay, img, len);
	w->cat_off = w->offset;
	record_write_record(w, out, RECORD_T_CATALOG, w->last_time, w->pay.p,
	    w->pay.len, 0);
	w->key_due = 1;
	return (0);
}

int
record_write_begin(struct record_writer *w, const struct record_meta *m,
    const void *catalog, size_t catalog_len,
    const struct record_selection *sel, uint64_t now, struct record_buf *out,
    char **cause)
{
	uint8_t	 h[RECORD_FILE_HEADER];
	size_t	 start = out->len;
	int	 error;

	if (w->begun) {
		*cause = xstrdup("the recording has already begun");
		return (-HV_EUSAGE);
	}
	if ((error = record_write_check(sel, cause)) != 0)
		return (error);
	if (m->nconsts > RECORD_CONSTS_MAX) {
		*cause = xasprintf("at most %d constants can be recorded",
		    RECORD_CONSTS_MAX);
		return (-HV_ELIMIT);
	}
	memset(h, 0, sizeof h);
	memcpy(h, RECORD_MAGIC, RECORD_MAGIC_LEN);
	be16_put(h + 8, (uint16_t)w->opts.format);
	h[10] = (uint8_t)w->opts.tb_shift;
	h[11] = (uint8_t)w->opts.compact_bits;
	record_buf_add(out, h, sizeof h);
	w->offset = RECORD_FILE_HEADER;
	w->pred.interval = m->interval_ns;

	record_buf_reset(&w->pay);
	record_write_meta(w, m, &w->pay);
	record_write_record(w, out, RECORD_T_META, now, w->pay.p, w->pay.len,
	    0);
	if ((error = record_write_catalog(w, catalog, catalog_len, out,
	    cause)) != 0 || (error = record_write_select(w, sel, out,
	    cause)) != 0) {
		out->len = start;
		return (error);
	}
	/* Who the frame is, where the preamble ends: a reader that does not
	 * know the record passes over it. */
	if (record_frame_want(&m->frame)) {
		record_buf_reset(&w->pay);
		record_frame_payload(&m->frame, &w->pay);
		record_write_record(w, out, RECORD_T_FRAME, w->last_time,
		    w->pay.p, w->pay.len, 0);
	}
	w->begun = 1;
	return (0);
}

/* The error for a status >= 8 somewhere in s. */
static int
record_write_bad_status(const struct raw_sample *s, char **cause)
{
	size_t	 k;

	for (k = 0; s->values[k].status < 8; k++)
		;
	*cause = xasprintf("counter %zu: status %u cannot be recorded", k,
	    s->values[k].status);
	return (-HV_EUSAGE);
}

/*
 * Whether s can be written: after the preamble, one value per counter,
 * statuses < 8 (unless anyst is NULL: the caller checks them).  Returns
 * 0 with the statuses or'ed in *anyst, or -HV_EUSAGE with *cause set.
 */
static int
record_write_sample_check(const struct record_writer *w,
    const struct raw_sample *s, uint8_t *anyst, char **cause)
{
	size_t	 k, n = s->nvalues;
	uint8_t	 st;

	if (!w->begun) {
		*cause = xstrdup("a sample before the preamble");
		return (-HV_EUSAGE);
	}
	if (n != w->sel.ncounters) {
		*cause = xasprintf("a sample of %zu values for a selection of "
		    "%zu counters", n, w->sel.ncounters);
		return (-HV_EUSAGE);
	}
	if (anyst == NULL)
		return (0);
	for (k = 0, st = 0; k < n; k++)
		st |= s->values[k].status;
	*anyst = st;
	if (st >= 8)
		return (record_write_bad_status(s, cause));
	return (0);
}

/*
 * The RECORD_SF_* flags of s: what differs from the last sample (elen is
 * the length of its error text), and whether it carries timebases, which
 * go into the predictor's tbcur.
 */
static uint8_t
record_write_sample_flags(struct record_writer *w, const struct raw_sample *s,
    size_t elen, uint8_t *anyst)
{
	struct record_pred	*p = &w->pred;
	uint8_t			 flags = 0;
	int			 exact;

	if (s->nvalues > 0 && record_codec_tb_fill(p, s->values, &exact,
	    anyst)) {
		flags |= RECORD_SF_TIMEBASE;
		if (exact)
			flags |= RECORD_SF_TBEXACT;
	}
	if (*anyst != 0)
		flags |= RECORD_SF_STATUS;
	if (s->calls != p->calls)
		flags |= RECORD_SF_CALLS;
	if (s->naive_calls != p->naive)
		flags |= RECORD_SF_NAIVE;
	if (s->catalog_version != p->version)
		flags |= RECORD_SF_VERSION;
	if (strlen(p->error) != elen || memcmp(p->error, s->error, elen) != 0)
		flags |= RECORD_SF_ERROR;
	return (flags);
}

/* The payload of s with flags into w->pay: one range-coded block. */
static void
record_write_sample_payload(struct record_writer *w,
    const struct raw_sample *s, uint8_t flags, size_t elen)
{
	struct record_pred	*p = &w->pred;
	struct record_rc_enc	 e;
	struct record_bits	 bw;
	size_t			 k, i, n = s->nvalues;
	unsigned		 st, prev;

	record_buf_reset(&w->pay);
	record_rc_enc_init(&e, &w->pay);
	for (i = 0; i < RECORD_SF_COUNT; i++)
		record_rc_enc_bit(&e, &p->m.flags[i], (flags >> i) & 1);
	record_rc_enc_number(&e, p->m.now, record_zigzag((int64_t)(s->now -
	    record_codec_pred_now(p))));
	if (flags & RECORD_SF_STATUS) {
		for (k = 0, prev = 0; k < n; k++, prev = st) {
			st = s->values[k].status;
			record_rc_enc_tree(&e, p->m.status[prev], 3, st);
		}
	}
	if (flags & RECORD_SF_CALLS)
		record_rc_enc_number(&e, p->m.calls, s->calls);
	if (flags & RECORD_SF_NAIVE)
		record_rc_enc_number(&e, p->m.naive, s->naive_calls);
	if (flags & RECORD_SF_VERSION)
		record_rc_enc_number(&e, p->m.version, s->catalog_version);
	if (flags & RECORD_SF_ERROR) {
		record_rc_enc_number(&e, p->m.errlen, elen);
		for (i = 0; i < elen; i++)
			record_rc_enc_direct(&e, (uint8_t)s->error[i], 8);
	}
	record_buf_reset(&w->bits);
	record_bits_init(&bw, &w->bits);
	if (record_codec_lp(p))
		record_codec_lp_encode(p, &bw, s->values);
	else
		record_codec_encode_values(p, &e, &bw, s->values);
	if ((flags & RECORD_SF_TIMEBASE) && !(flags & RECORD_SF_TBEXACT)) {
		for (k = 0; k < n; k++)
			record_rc_enc_number(&e,
			    p->m.tb[record_codec_pred_stage(p)],
			    record_zigzag((int64_t)(p->tbcur[k] -
			    record_codec_pred_timebase(p, k))));
	}
	record_rc_enc_flush(&e);
	record_bits_flush(&bw);
	record_buf_add(&w->pay, w->bits.p, w->bits.len);
}

int
record_write_sample(struct record_writer *w, const struct raw_sample *s,
    struct record_buf *out, char **cause)
{
	struct record_pred	*p = &w->pred;
	size_t			 elen;
	uint8_t			 flags, anyst;
	int			 error, due, fused;

	due = w->key_due || w->since_hb >= w->opts.keyframe_samples ||
	    w->since_hb_bytes >= w->opts.keyframe_bytes ||
	    (w->begun && record_write_gap(w, s->now) >=
	    ((uint64_t)1 << w->opts.compact_bits));
	/* Without a heartbeat, format 3 reads the statuses in the pass
	 * that takes the timebases and values: nothing is written before
	 * they are checked either way. */
	fused = !due && record_codec_tb_fused(p) && s->nvalues > 0;
	anyst = 0;
	if ((error = record_write_sample_check(w, s, fused ? NULL : &anyst,
	    cause)) != 0)
		return (error);
	if (due)
		record_write_heartbeat(w, out, s->now);

	elen = strnlen(s->error, sizeof s->error - 1);
	flags = record_write_sample_flags(w, s, elen, &anyst);
	if (anyst >= 8)
		return (record_write_bad_status(s, cause));
	record_write_sample_payload(w, s, flags, elen);
	record_codec_pred_update(p, s->now);
	p->calls = s->calls;
	p->naive = s->naive_calls;
	p->version = s->catalog_version;
	memcpy(p->error, s->error, elen);
	p->error[elen] = '\0';

	record_write_record(w, out, RECORD_T_SAMPLE, s->now, w->pay.p,
	    w->pay.len, 1);
	w->samples++;
	w->since_hb++;
	return (0);
}

void
record_write_end(struct record_writer *w, struct record_buf *out)
{
	record_buf_reset(&w->pay);
	record_buf_varint(&w->pay, w->records);
	record_buf_varint(&w->pay, w->samples);
	record_write_record(w, out, RECORD_T_END, w->last_time, w->pay.p,
	    w->pay.len, 0);
}
