/*
 * A ring's window spliced into one recording (source-replay-ring.h),
 * decoded segment by segment and written again through the pure writer,
 * so that the replay source plays it as it plays a file.  Times go onto
 * the first segment's time line through each segment's epoch (wall
 * time = epoch + recorded time).  A later segment's catalog or selection
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

struct splice {
	const char		*dir;
	uint64_t		 from, to;
	struct record_writer	*w;
	struct record_buf	*out;
	uint64_t		 epoch;		/* the output's */
	uint64_t		 last;		/* wall ns of the last sample */
	uint64_t		 interval;
	unsigned		 version;	/* the last sample's catalog */
	int			 begun;
	unsigned		 gaps;
	struct record_selection	 sel;		/* current */
	void			*cat;
	size_t			 catlen;
	struct raw_sample	 mark;
};

/* The catalog and selection rd has now become the output's. */
static int
splice_state(struct splice *sp, const struct record_reader *rd,
    char **cause)
{
	const struct record_selection	*sel = record_read_selection(rd);
	const void			*cat;
	size_t				 len;
	int				 error = 0;

	cat = record_read_catalog(rd, &len);
	if (len != sp->catlen || memcmp(cat, sp->cat, len) != 0) {
		if (sp->begun)
			error = record_write_catalog(sp->w, cat, len, sp->out,
			    cause);
		free(sp->cat);
		sp->cat = xmalloc(len + 1);
		memcpy(sp->cat, cat, len);
		sp->catlen = len;
	}
	if (error == 0 && record_selection_compare(sel, &sp->sel) != 0) {
		if (sp->begun)
			error = record_write_select(sp->w, sel, sp->out,
			    cause);
		record_selection_free(&sp->sel);
		record_selection_copy(&sp->sel, sel);
	}
	return (error);
}

/* The gap's marker at now (output time), before a sample like s. */
static int
splice_gap(struct splice *sp, const struct raw_sample *s, uint64_t wall,
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
	snprintf(sp->mark.error, sizeof sp->mark.error, "gap: nothing was "
	    "recorded from %s to %s", a.s, b.s);
	strbuf_free(&a);
	strbuf_free(&b);
	error = record_write_sample(sp->w, &sp->mark, sp->out, cause);
	sp->gaps++;
	return (error);
}

/* One sample of a segment of epoch e: kept when in the window. */
static int
splice_sample(struct splice *sp, const struct record_reader *rd,
    const struct raw_sample *s, uint64_t e, char **cause)
{
	const struct record_meta	*m = record_read_meta(rd);
	struct raw_sample		 c;
	uint64_t			 wall = e + s->now, step;
	int				 error;

	if (wall < sp->from || wall > sp->to)
		return (0);
	sp->interval = m->interval_ns;
	if (!sp->begun) {
		sp->epoch = e;
		if ((error = record_write_begin(sp->w, m, sp->cat,
		    sp->catlen, &sp->sel, s->now, sp->out, cause)) != 0)
			return (error);
		sp->begun = 1;
	} else if (wall <= sp->last)
		return (0);
	step = sp->interval > 0 ? sp->interval : 1000000000ULL;
	if (sp->last != 0 && wall > sp->last + 2 * step && wall - step >
	    sp->epoch && (error = splice_gap(sp, s, wall, wall - step -
	    sp->epoch, cause)) != 0)
		return (error);
	c = *s;
	c.now = wall - sp->epoch;
	sp->last = wall;
	sp->version = s->catalog_version;
	return (record_write_sample(sp->w, &c, sp->out, cause));
}

/* Every record of one segment. */
static int
splice_segment(struct splice *sp, const char *name, char **cause)
{
	struct record_reader	*rd;
	struct record_event	 ev;
	struct file_map		 map;
	char			*path, *err = NULL;
	uint64_t		 e;
	int			 error;

	path = xasprintf("%s/%s", sp->dir, name);
	error = file_map(path, RECORD_MAGIC, RECORD_MAGIC_LEN, (size_t)-1 / 2,
	    "an hvtop recording", &map, cause);
	free(path);
	if (error != 0)
		return (error);
	if ((error = record_read_open(map.p, map.len, &rd, &err)) != 0) {
		*cause = xasprintf("%s/%s: %s", sp->dir, name, err);
		free(err);
		file_unmap(&map);
		return (error);
	}
	e = record_read_meta(rd)->epoch_ns;
	error = splice_state(sp, rd, cause);
	while (error == 0 && record_read_next(rd, &ev) != RECORD_EV_EOF) {
		if (ev.kind == RECORD_EV_SAMPLE)
			error = splice_sample(sp, rd, ev.sample, e, cause);
		else if (ev.kind == RECORD_EV_SELECT ||
		    ev.kind == RECORD_EV_CATALOG)
			error = splice_state(sp, rd, cause);
	}
	record_read_free(rd);
	file_unmap(&map);
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
splice_args(struct splice *sp, const char *args, uint64_t end, char **cause)
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
source_replay_ring(const char *dir, const char *args, struct record_buf *out,
    unsigned *gaps, char **cause)
{
	struct record_ring_seg	*v;
	struct splice		 sp;
	size_t			 n, i, first, last;
	int			 error;

	*gaps = 0;
	memset(&sp, 0, sizeof sp);
	sp.dir = dir;
	sp.out = out;
	*cause = NULL;
	if ((n = ring_dir_list(dir, &v, cause)) == 0) {
		free(v);
		if (*cause == NULL)
			*cause = xasprintf("%s: no segments of a ring (%s*%s)",
			    dir, RECORD_RING_PREFIX, RECORD_RING_SUFFIX);
		return (-HV_ENOENT);
	}
	if ((error = splice_args(&sp, args, splice_end(dir, v[n - 1].name),
	    cause)) != 0) {
		free(v);
		return (error);
	}
	(void)record_ring_window(v, n, UINT64_MAX - 1000000000ULL, sp.from,
	    sp.to, &first, &last);
	sp.w = record_write_new(NULL);
	for (i = first; error == 0 && i < last; i++)
		error = splice_segment(&sp, v[i].name, cause);
	if (error == 0 && !sp.begun) {
		*cause = xasprintf("%s: no samples in the window", dir);
		error = -HV_ENOENT;
	}
	if (error == 0)
		record_write_end(sp.w, out);
	*gaps = sp.gaps;
	record_write_free(sp.w);
	record_selection_free(&sp.sel);
	raw_sample_free(&sp.mark);
	free(sp.cat);
	free(v);
	return (error);
}
