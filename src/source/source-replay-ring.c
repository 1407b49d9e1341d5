/*
 * A ring's window spliced into pieces (source-replay-ring.h) of about
 * RING_PIECE bytes, each a whole recording: each segment is mapped in
 * turn, decoded and written again through the pure writer, so that the
 * replay source plays each piece as it plays a file, and no more than a
 * segment and a piece of the window are in memory at a time, whatever
 * the window's size.  Each piece starts with the first segment's
 * preamble (its epoch, label and constants) and the catalog and
 * selection then in force.  Times go onto the first segment's time line
 * through each segment's epoch (wall time = epoch + recorded time).  A later segment's catalog or selection
 * that differs from what is current is written as a reload or a new
 * selection, as a run that changed them would have written it.
 *
 * A gap (more than two intervals between samples, as across a restart)
 * is marked by a sample just before the first one after it whose every
 * counter reads 0 at record time 0, with an error that names the gap.
 * The engine takes such a read as starting over (a record not updated
 * yet, or a counter gone backwards), so no rate is computed across the
 * gap: the intervals around it show no values, not an average.
 */
#include "config.h"

#include "source/source-replay-ring.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/raw.h"
#include "record/record-ring.h"
#include "record/record.h"
#include "sys/file.h"
#include "sys/ring-dir.h"
#include "util/hverr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct replay_ring {
	char			*dir;
	uint64_t		 from, to;
	struct record_ring_seg	*v;
	size_t			 s0, s1;	/* the window's segments */
	int			 ended;		/* a whole pass made */

	/* The pass under way, from the window's start. */
	size_t			 seg;		/* the next segment */
	struct record_writer	*w;
	struct record_buf	*out;
	struct record_meta	 meta;		/* the first segment's */
	uint64_t		 epoch;		/* the output's */
	uint64_t		 last;		/* wall ns of the last sample */
	uint64_t		 interval;
	unsigned		 version;	/* the last sample's catalog */
	int			 begun;		/* a sample kept */
	int			 open;		/* a piece begun in out */
	unsigned		 gaps;
	struct record_selection	 sel;		/* current */
	void			*cat;
	size_t			 catlen;
	struct raw_sample	 mark;
	struct file_map		 map;		/* the segment being read */
	struct record_reader	*rd;		/* ... its reader, or NULL */
	uint64_t		 e;		/* ... its epoch */
};

/* A piece ends at the first sample past this many bytes. */
#define RING_PIECE	(1024 * 1024)

/* The catalog and selection rd has now become the output's. */
static int
splice_state(struct replay_ring *sp, const struct record_reader *rd,
    char **cause)
{
	const struct record_selection	*sel = record_read_selection(rd);
	const void			*cat;
	size_t				 len;
	int				 error = 0;

	cat = record_read_catalog(rd, &len);
	if (len != sp->catlen || memcmp(cat, sp->cat, len) != 0) {
		if (sp->open)
			error = record_write_catalog(sp->w, cat, len, sp->out,
			    cause);
		free(sp->cat);
		sp->cat = xmalloc(len + 1);
		memcpy(sp->cat, cat, len);
		sp->catlen = len;
	}
	if (error == 0 && record_selection_compare(sel, &sp->sel) != 0) {
		if (sp->open)
			error = record_write_select(sp->w, sel, sp->out,
			    cause);
		record_selection_free(&sp->sel);
		record_selection_copy(&sp->sel, sel);
	}
	return (error);
}

/* The gap's marker at now (output time), before a sample like s. */
static int
splice_gap(struct replay_ring *sp, const struct raw_sample *s, uint64_t wall,
    uint64_t now, char **cause)
{
	struct strbuf	 a = { 0 }, b = { 0 };
	size_t		 i;
	int		 error;

	raw_sample_size(&sp->mark, s->nvalues);
	for (i = 0; i < s->nvalues; i++)
		memset(&sp->mark.values[i], 0, sizeof sp->mark.values[i]);
	sp->mark.now = now;
	/* The catalog of the samples before: a reload is the next
	 * sample's, and would pass over the marker. */
	sp->mark.catalog_version = sp->version;
	strbuf_addtime(&a, sp->last, 0);
	strbuf_addtime(&b, wall, 0);
	snprintf(sp->mark.error, sizeof sp->mark.error, RAW_GAP_PREFIX
	    "nothing was recorded from %s to %s", a.s, b.s);
	strbuf_free(&a);
	strbuf_free(&b);
	error = record_write_sample(sp->w, &sp->mark, sp->out, cause);
	sp->gaps++;
	return (error);
}

/* The first segment's preamble, kept as every piece's. */
static void
splice_meta(struct replay_ring *sp, const struct record_meta *m)
{
	size_t	 i;

	record_meta_free(&sp->meta);
	sp->meta = *m;
	sp->meta.label = m->label != NULL ? xstrdup(m->label) : NULL;
	sp->meta.writer = m->writer != NULL ? xstrdup(m->writer) : NULL;
	sp->meta.consts = xcalloc(m->nconsts + 1, sizeof *sp->meta.consts);
	for (i = 0; i < m->nconsts; i++) {
		sp->meta.consts[i].name = xstrdup(m->consts[i].name);
		sp->meta.consts[i].value = m->consts[i].value;
	}
}

/* A piece begun in sp->out, its first record at output time now. */
static int
splice_open(struct replay_ring *sp, uint64_t now, char **cause)
{
	record_write_free(sp->w);
	sp->w = record_write_new(NULL);
	record_buf_reset(sp->out);
	sp->open = 1;
	return (record_write_begin(sp->w, &sp->meta, sp->cat, sp->catlen,
	    &sp->sel, now, sp->out, cause));
}

/* One sample of a segment of epoch e: kept when in the window. */
static int
splice_sample(struct replay_ring *sp, const struct record_reader *rd,
    const struct raw_sample *s, uint64_t e, char **cause)
{
	const struct record_meta	*m = record_read_meta(rd);
	struct raw_sample		 c;
	uint64_t			 wall = e + s->now, step;
	int				 error, gap;

	if (wall < sp->from || wall > sp->to)
		return (0);
	sp->interval = m->interval_ns;
	if (!sp->begun) {
		sp->epoch = e;
		splice_meta(sp, m);
		sp->begun = 1;
	} else if (wall <= sp->last)
		return (0);
	step = sp->interval > 0 ? sp->interval : 1000000000ULL;
	gap = sp->last != 0 && wall > sp->last + 2 * step && wall - step >
	    sp->epoch;
	if (!sp->open && (error = splice_open(sp, (gap ? wall - step :
	    wall) - sp->epoch, cause)) != 0)
		return (error);
	if (gap && (error = splice_gap(sp, s, wall, wall - step - sp->epoch,
	    cause)) != 0)
		return (error);
	c = *s;
	c.now = wall - sp->epoch;
	sp->last = wall;
	sp->version = s->catalog_version;
	return (record_write_sample(sp->w, &c, sp->out, cause));
}

/* The next segment of the window opened, its catalog and selection
 * now current. */
static int
splice_seg_open(struct replay_ring *sp, char **cause)
{
	const char	*name = sp->v[sp->seg++].name;
	char		*path, *err = NULL;
	int		 error;

	path = xasprintf("%s/%s", sp->dir, name);
	/* A segment removed since the window was opened is said so. */
	error = file_map(path, RECORD_MAGIC, RECORD_MAGIC_LEN, (size_t)-1 / 2,
	    "an hvtop recording", &sp->map, cause);
	free(path);
	if (error != 0)
		return (error);
	if ((error = record_read_open(sp->map.p, sp->map.len, &sp->rd,
	    &err)) != 0) {
		*cause = xasprintf("%s/%s: %s", sp->dir, name, err);
		free(err);
		file_unmap(&sp->map);
		sp->rd = NULL;
		return (error);
	}
	sp->e = record_read_meta(sp->rd)->epoch_ns;
	return (splice_state(sp, sp->rd, cause));
}

/* The segment open, closed. */
static void
splice_seg_close(struct replay_ring *sp)
{
	if (sp->rd == NULL)
		return;
	record_read_free(sp->rd);
	file_unmap(&sp->map);
	sp->rd = NULL;
}

/*
 * Records of the segments from where the last piece stopped, until a
 * piece is RING_PIECE bytes long or the window ends.
 */
static int
splice_records(struct replay_ring *sp, char **cause)
{
	struct record_event	 ev;
	int			 error = 0;

	while (error == 0 && (!sp->open || sp->out->len < RING_PIECE)) {
		if (sp->rd == NULL) {
			if (sp->seg >= sp->s1)
				break;
			error = splice_seg_open(sp, cause);
			continue;
		}
		if (record_read_next(sp->rd, &ev) == RECORD_EV_EOF)
			splice_seg_close(sp);
		else if (ev.kind == RECORD_EV_SAMPLE)
			error = splice_sample(sp, sp->rd, ev.sample, sp->e,
			    cause);
		else if (ev.kind == RECORD_EV_SELECT ||
		    ev.kind == RECORD_EV_CATALOG)
			error = splice_state(sp, sp->rd, cause);
	}
	return (error);
}

/* The wall time of the last sample of a segment (0: none). */
static uint64_t
splice_end(const char *dir, const char *name)
{
	struct record_reader	*rd;
	struct record_event	 ev;
	struct file_map		 map;
	char			*path, *err = NULL;
	uint64_t		 t = 0;
	int			 any = 0;

	path = xasprintf("%s/%s", dir, name);
	if (file_map(path, RECORD_MAGIC, RECORD_MAGIC_LEN, (size_t)-1 / 2,
	    "an hvtop recording", &map, &err) != 0) {
		free(err);
		free(path);
		return (0);
	}
	free(path);
	if (record_read_open(map.p, map.len, &rd, &err) == 0) {
		while (record_read_next(rd, &ev) != RECORD_EV_EOF) {
			if (ev.kind == RECORD_EV_SAMPLE) {
				t = ev.time;
				any = 1;
			}
		}
		if (any)
			t += record_read_meta(rd)->epoch_ns;
		record_read_free(rd);
	} else
		free(err);
	file_unmap(&map);
	return (t);
}

/* from= and to= of args into sp, relative ones counted back from end. */
static int
splice_args(struct replay_ring *sp, const char *args, uint64_t end, char **cause)
{
	char	*copy, *p, *tok, *err = NULL;
	int	 error = 0;

	sp->from = 0;
	sp->to = UINT64_MAX;
	if (args == NULL)
		return (0);
	copy = xstrdup(args);
	for (p = copy; error == 0 && (tok = strsep(&p, ",")) != NULL;) {
		if (*tok == '\0')
			continue;
		if (strncmp(tok, "from=", 5) == 0)
			error = record_ring_time_parse(tok + 5, end, &sp->from,
			    &err);
		else if (strncmp(tok, "to=", 3) == 0)
			error = record_ring_time_parse(tok + 3, end, &sp->to,
			    &err);
		else {
			*cause = xasprintf("replay:%s: \"%s\": a ring takes "
			    "from= and to= (--from, --to) alone", sp->dir, tok);
			error = -HV_EUSAGE;
		}
		if (err != NULL) {
			*cause = xasprintf("replay:%s: %s", sp->dir, err);
			free(err);
			err = NULL;
		}
	}
	free(copy);
	if (error == 0 && sp->from > sp->to) {
		*cause = xasprintf("replay:%s: the window ends before it "
		    "starts", sp->dir);
		error = -HV_EUSAGE;
	}
	return (error);
}

int
source_replay_ring_open(const char *dir, const char *args,
    struct replay_ring **out, char **cause)
{
	struct replay_ring	*sp;
	size_t			 n;
	int			 error;

	*out = NULL;
	*cause = NULL;
	sp = xcalloc(1, sizeof *sp);
	sp->dir = xstrdup(dir);
	if ((n = ring_dir_list(dir, &sp->v, cause)) == 0) {
		if (*cause == NULL)
			*cause = xasprintf("%s: no segments of a ring (%s*%s)",
			    dir, RECORD_RING_PREFIX, RECORD_RING_SUFFIX);
		source_replay_ring_free(sp);
		return (-HV_ENOENT);
	}
	if ((error = splice_args(sp, args, splice_end(dir, sp->v[n - 1].name),
	    cause)) != 0) {
		source_replay_ring_free(sp);
		return (error);
	}
	(void)record_ring_window(sp->v, n, UINT64_MAX - 1000000000ULL,
	    sp->from, sp->to, &sp->s0, &sp->s1);
	sp->seg = sp->s0;
	*out = sp;
	return (0);
}

struct replay_ring *
source_replay_ring_dup(const struct replay_ring *r)
{
	struct replay_ring	*sp;
	size_t			 n = r->s1;

	sp = xcalloc(1, sizeof *sp);
	sp->dir = xstrdup(r->dir);
	sp->from = r->from;
	sp->to = r->to;
	sp->v = xcalloc(n + 1, sizeof *sp->v);
	memcpy(sp->v, r->v, n * sizeof *sp->v);
	sp->s0 = sp->seg = r->s0;
	sp->s1 = r->s1;
	sp->ended = r->ended;
	return (sp);
}

void
source_replay_ring_rewind(struct replay_ring *sp)
{
	splice_seg_close(sp);
	record_write_free(sp->w);
	sp->w = NULL;
	record_meta_free(&sp->meta);
	record_selection_free(&sp->sel);
	free(sp->cat);
	sp->cat = NULL;
	sp->catlen = 0;
	sp->seg = sp->s0;
	sp->out = NULL;
	sp->epoch = sp->last = sp->interval = 0;
	sp->version = 0;
	sp->begun = sp->open = 0;
	sp->gaps = 0;
}

int
source_replay_ring_next(struct replay_ring *sp, struct record_buf *out,
    char **cause)
{
	int	 error = 0;

	*cause = NULL;
	sp->out = out;
	if ((error = splice_records(sp, cause)) != 0) {
		splice_seg_close(sp);
		sp->seg = sp->s1;
		sp->open = 0;
		return (error);
	}
	if (sp->open) {
		record_write_end(sp->w, out);
		sp->open = 0;
		return (1);
	}
	if (!sp->begun) {
		*cause = xasprintf("%s: no samples in the window", sp->dir);
		return (-HV_ENOENT);
	}
	/* What a later pass plays: no more than this one found. */
	if (!sp->ended && sp->last < sp->to)
		sp->to = sp->last;
	sp->ended = 1;
	return (0);
}

unsigned
source_replay_ring_gaps(const struct replay_ring *sp)
{
	return (sp->gaps);
}

void
source_replay_ring_free(struct replay_ring *sp)
{
	if (sp == NULL)
		return;
	source_replay_ring_rewind(sp);
	raw_sample_free(&sp->mark);
	free(sp->v);
	free(sp->dir);
	free(sp);
}

uint64_t
source_replay_ring_find(const struct replay_ring *r, uint64_t t,
    uint64_t max)
{
	struct replay_ring	*sp = source_replay_ring_dup(r);
	struct record_buf	 buf = { 0 };
	struct record_reader	*rd;
	struct record_event	 ev;
	char			*err = NULL;
	uint64_t		 n = 0;
	int			 more = 1;

	while (more && n < max && source_replay_ring_next(sp, &buf,
	    &err) == 1) {
		if (record_read_open(buf.p, buf.len, &rd, &err) != 0)
			break;
		while (n < max && record_read_next(rd, &ev) != RECORD_EV_EOF) {
			if (ev.kind != RECORD_EV_SAMPLE)
				continue;
			if (ev.sample->now >= t) {
				more = 0;
				break;
			}
			n++;
		}
		record_read_free(rd);
	}
	free(err);
	record_buf_free(&buf);
	source_replay_ring_free(sp);
	return (n);
}
