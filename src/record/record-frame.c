/*
 * The FRAME record (docs/FORMAT-recording.md §5.4): which frame and
 * which partition the recorded run read, as the source knew them.  A
 * writer puts it right after the preamble when the source knows
 * anything of the identity; a file without one recorded an unknown
 * frame.  It is not part of the preamble: a reader that does not know
 * the type passes over it, and one that finds it damaged reports it
 * as any damaged record and reads on with the frame unknown.  Pure:
 * bytes in, bytes out.
 */
#include "config.h"

#include "record/record.h"

#include <stdlib.h>
#include <string.h>

#include "model/frame-ident.h"
#include "record/record-int.h"
#include "util/hverr.h"
#include "util/xalloc.h"

int
record_frame_want(const struct frame_ident *fi)
{
	return (fi->from != FRAME_FROM_NONE);
}

void
record_frame_payload(const struct frame_ident *fi, struct record_buf *b)
{
	record_buf_varint(b, (uint64_t)(unsigned)fi->from);
	record_buf_string(b, fi->model);
	record_buf_string(b, fi->serial);
	record_buf_string(b, fi->name);
	record_buf_string(b, fi->lpar_name);
	/* Unknowns (-1) as 0, the others one up. */
	record_buf_varint(b, fi->lpar_id >= 0 ? (uint64_t)fi->lpar_id + 1 : 0);
	record_buf_varint(b, (uint64_t)(unsigned)fi->mode);
	record_buf_varint(b, fi->entitled >= 0 ?
	    (uint64_t)fi->entitled + 1 : 0);
}

/*
 * A string of the record into dst (size bytes with the NUL): at most
 * size - 1 bytes; a model or serial (word 1 or 2) empty or of the
 * characters frame_ident_check() takes, a name without control
 * characters.  0, or -1 with *why set.
 */
static int
record_frame_string(struct record_cur *c, char *dst, size_t size, int word,
    const char **why)
{
	char	*s, *cause = NULL;
	size_t	 i, n;
	int	 bad = 0;

	if ((s = record_cur_string(c, size - 1)) == NULL) {
		*why = c->error == -HV_ETRUNC ? "the frame record ends inside "
		    "a string" : "a string of the frame record too long or "
		    "with a NUL";
		return (-1);
	}
	n = strlen(s);
	if (word != 0 && n > 0 && frame_ident_check("x", s, word == 1,
	    &cause) != 0)
		bad = 1;
	for (i = 0; word == 0 && i < n; i++) {
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			bad = 1;
	}
	free(cause);
	if (bad) {
		*why = word != 0 ? "a frame record's model or serial of "
		    "characters they do not take" : "a frame record's name "
		    "with a control character";
		free(s);
		return (-1);
	}
	memcpy(dst, s, n + 1);
	free(s);
	return (0);
}

int
record_frame_parse(struct record_cur *c, struct frame_ident *fi,
    const char **why)
{
	uint64_t	 from, id, mode, ent;

	frame_ident_init(fi);
	from = record_cur_varint(c);
	if (c->error == 0 && from > FRAME_FROM_SIM) {
		*why = "a frame record from a source this hvtop does not know";
		return (-HV_EFORMAT);
	}
	if (record_frame_string(c, fi->model, sizeof fi->model, 1, why) != 0 ||
	    record_frame_string(c, fi->serial, sizeof fi->serial, 2,
	    why) != 0 || record_frame_string(c, fi->name, sizeof fi->name, 0,
	    why) != 0 || record_frame_string(c, fi->lpar_name,
	    sizeof fi->lpar_name, 0, why) != 0)
		goto fail;
	id = record_cur_varint(c);
	mode = record_cur_varint(c);
	ent = record_cur_varint(c);
	if (c->error != 0) {
		*why = c->error == -HV_ETRUNC ? "the frame record ends inside "
		    "a number" : "a frame record's number that is not a "
		    "canonical varint";
		goto fail;
	}
	if (id > 65535 || mode > FRAME_MODE_DEDICATED || ent > 1000000001) {
		*why = "a frame record's partition id, mode or entitlement "
		    "out of range";
		goto fail;
	}
	/* Bytes after these are a later writer's fields: passed over. */
	fi->from = (int)from;
	fi->lpar_id = (int)id - 1;
	fi->mode = (int)mode;
	fi->entitled = (long)ent - 1;
	return (0);
fail:
	frame_ident_init(fi);
	return (c->error == -HV_ETRUNC ? -HV_ETRUNC : -HV_EFORMAT);
}

int
record_frame_check(unsigned type, struct record_cur *c, const char **why)
{
	struct frame_ident	 fi;

	if (type != RECORD_T_FRAME)
		return (0);
	return (record_frame_parse(c, &fi, why) != 0 ? -HV_EFORMAT : 0);
}

void
record_frame_open(struct record_reader *rd)
{
	struct record_hdr	 h;
	struct record_cur	 c;
	struct frame_ident	 fi;
	const char		*why;

	frame_ident_init(&rd->meta.frame);
	if (record_read_header(rd, rd->off, &h, &why) != 0 ||
	    h.type != RECORD_T_FRAME || !h.sized ||
	    !record_read_crc(rd, rd->off, &h))
		return;
	memset(&c, 0, sizeof c);
	c.p = rd->buf + h.pay;
	c.len = h.paylen;
	/* A damaged one is the stream's to report, at its offset. */
	if (record_frame_parse(&c, &fi, &why) == 0)
		rd->meta.frame = fi;
}
