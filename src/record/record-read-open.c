/*
 * Opening a recording: the file header (magic, version, the stamps'
 * geometry), then the preamble, whose META, CATALOG and SELECT records
 * must all be whole: without them nothing after can be decoded, so damage
 * there is fatal, unlike in the stream.  Pure: bytes in.
 */
#include "config.h"

#include "record/record.h"

#include <stdlib.h>
#include <string.h>

#include "record/record-int.h"
#include "util/be.h"
#include "util/hverr.h"
#include "util/xalloc.h"

/* One preamble record of the given type at rd->off. */
static int
record_read_open_preamble(struct record_reader *rd, unsigned type,
    struct record_event *ev, char **cause)
{
	struct record_hdr	 h;
	const char		*why;
	size_t			 off = rd->off;
	int			 error;

	error = record_read_header(rd, off, &h, &why);
	if (error == 0 && h.type != type) {
		why = "a record out of place";
		error = -HV_EFORMAT;
	}
	if (error == 0)
		error = record_read_one(rd, ev, &h, &why);
	if (error < 0) {
		*cause = xasprintf("offset %zu: the preamble's %s record: %s",
		    off, record_read_type_name(type), why);
		return (error);
	}
	return (0);
}

int
record_read_is(const void *buf, size_t len)
{
	return (len >= RECORD_MAGIC_LEN &&
	    memcmp(buf, RECORD_MAGIC, RECORD_MAGIC_LEN) == 0);
}

/* The file header: the magic, the format version, the stamps' geometry. */
static int
record_read_open_header(const uint8_t *p, size_t len, char **cause)
{
	if (len < RECORD_FILE_HEADER) {
		*cause = xasprintf("offset 0: %zu bytes are too few for a "
		    "recording", len);
		return (-HV_ETRUNC);
	}
	if (!record_read_is(p, len)) {
		*cause = xstrdup("offset 0: not an hvtop recording (bad "
		    "magic)");
		return (-HV_EFORMAT);
	}
	if (be16_get(p + 8) != RECORD_VERSION_2 &&
	    be16_get(p + 8) != RECORD_VERSION_3) {
		*cause = xasprintf("offset 8: recording format version %u; "
		    "this hvtop reads versions %d and %d", be16_get(p + 8),
		    RECORD_VERSION_2, RECORD_VERSION_3);
		return (-HV_EVERSION);
	}
	if (p[10] > 32 || p[11] < 1 || p[11] > RECORD_COMPACT_MAX ||
	    p[12] != 0 || p[13] != 0 || p[14] != 0 || p[15] != 0) {
		*cause = xstrdup("offset 10: bad timestamp geometry in the "
		    "file header");
		return (-HV_EFORMAT);
	}
	return (0);
}

/* The preamble's words: the writer, the topology, the constants. */
static int
record_read_open_words(struct record_cur *c, struct record_meta *m)
{
	struct record_topology	*t = &m->topo;
	const uint8_t		*d;
	uint64_t		 n, bits, v[8];
	size_t			 i;

	memset(m, 0, sizeof *m);
	m->label = record_cur_string(c, RECORD_STRING_MAX);
	m->writer = record_cur_string(c, RECORD_STRING_MAX);
	m->epoch_ns = record_cur_varint(c);
	m->interval_ns = record_cur_varint(c);
	for (i = 0; i < 8; i++)
		v[i] = record_cur_varint(c);
	if (c->error != 0)
		return (c->error);
	for (i = 0; i < 7; i++) {
		if (v[i] > 0xffffffffU)
			return (-HV_EFORMAT);
	}
	t->sockets = (unsigned)v[0];
	t->chips = (unsigned)v[1];
	t->cores = (unsigned)v[2];
	t->smt = (unsigned)v[3];
	t->vcpus = (unsigned)v[4];
	if (v[5] > 255 || v[6] > 1)
		return (-HV_EFORMAT);
	t->interface = (int)v[5];
	t->privileged = (int)v[6];
	t->timebase_hz = v[7];
	n = record_cur_varint(c);
	if (c->error != 0)
		return (c->error);
	if (n > RECORD_CONSTS_MAX || n > c->len - c->off)
		return (-HV_EFORMAT);
	m->consts = xcalloc((size_t)n + 1, sizeof *m->consts);
	for (i = 0; i < n; i++) {
		m->consts[i].name = record_cur_string(c, RECORD_STRING_MAX);
		if ((d = record_cur_bytes(c, 8)) == NULL)
			break;
		m->nconsts = i + 1;
		bits = be64_get(d);
		memcpy(&m->consts[i].value, &bits, sizeof bits);
	}
	if (c->error == 0 && (m->label == NULL || m->writer == NULL))
		return (-HV_EFORMAT);
	return (c->error);
}

/*
 * The first record, META: the writer's words.  Returns 0 with *h and
 * rd->meta set, or an error with *cause set.
 */
static int
record_read_open_meta(struct record_reader *rd, struct record_hdr *h,
    char **cause)
{
	struct record_cur	 c;
	const char		*why;
	int			 error;

	error = record_read_header(rd, rd->off, h, &why);
	if (error == 0 && h->type != RECORD_T_META) {
		why = "the first record is not the preamble";
		error = -HV_EFORMAT;
	}
	if (error == 0 && !h->sized)
		error = -HV_EFORMAT;
	if (error == 0 && !record_read_crc(rd, rd->off, h)) {
		why = "bad checksum";
		error = -HV_EFORMAT;
	}
	if (error == 0) {
		memset(&c, 0, sizeof c);
		c.p = rd->buf + h->pay;
		c.len = h->paylen;
		error = record_read_open_words(&c, &rd->meta);
		if (error == 0 && c.off != c.len)
			error = -HV_EFORMAT;
		why = "a malformed preamble record";
	}
	if (error != 0) {
		*cause = xasprintf("offset %zu: the preamble: %s",
		    (size_t)RECORD_FILE_HEADER, why);
		return (error);
	}
	return (0);
}

int
record_read_open(const void *buf, size_t len, struct record_reader **out,
    char **cause)
{
	struct record_reader	*rd;
	struct record_event	 ev;
	struct record_hdr	 h;
	const uint8_t		*p = buf;
	int			 error;

	*out = NULL;
	if ((error = record_read_open_header(p, len, cause)) != 0)
		return (error);
	rd = xcalloc(1, sizeof *rd);
	rd->buf = p;
	rd->len = len;
	rd->shift = p[10];
	rd->cbits = p[11];
	rd->format = be16_get(p + 8);
	rd->off = RECORD_FILE_HEADER;
	raw_sample_size(&rd->sample, 0);

	/* META: the writer's words, then the catalog and the selection. */
	if ((error = record_read_open_meta(rd, &h, cause)) != 0) {
		record_read_free(rd);
		return (error);
	}
	rd->have_last = 1;
	rd->last_units = h.units;
	rd->seen_records = 1;
	rd->st.records = 1;
	rd->off = record_read_end(&h);
	rd->hw = rd->off;
	if ((error = record_read_open_preamble(rd, RECORD_T_CATALOG, &ev,
	    cause)) != 0 || (error = record_read_open_preamble(rd,
	    RECORD_T_SELECT, &ev, cause)) != 0) {
		record_read_free(rd);
		return (error);
	}
	record_frame_open(rd);
	rd->body = rd->off;
	rd->hw = rd->off;
	rd->units0 = rd->last_units;
	record_selection_copy(&rd->sel0, &rd->sel);
	rd->cat0 = rd->cat;
	rd->catlen0 = rd->catlen;
	*out = rd;
	return (0);
}
