/*
 * The "replay" source: a recording (src/record) played back as if it were
 * the frame it was made on.  The file is mapped when it is opened, after
 * checking that it is a regular file that starts like a recording, so a
 * replay needs no memory of its own in proportion to the file (a
 * recording still being written is read as far as it went then).  It is
 * decoded once to count its samples and find any damage; playback then decodes
 * it again, one sample ahead, so that the catalog and selection the next
 * sample was recorded with are known before it is asked for.
 * A ring's window is played the same way, one segment's piece at a
 * time (source-replay-ring.h): the reader goes on to the next piece where
 * one ends, and a pass over the window (the count, a rewind, a seek)
 * reads the segments again rather than keep them.
 *
 * The source neither sleeps nor reads a clock: the samples carry their
 * recorded times, and the program's clock is set from the recording's
 * epoch, so batch output of a replay is the output of the recorded run.
 */
#include "config.h"

#include "source/source-replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "catalog/catalog.h"
#include "model/raw.h"
#include "model/selection.h"
#include "record/record.h"
#include "source/source-replay-ring.h"
#include "source/source.h"
#include "sys/file.h"
#include "util/hverr.h"
#include "sys/mapguard.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define SOURCE_REPLAY_MAX	((size_t)-1 / 2)	/* file size */

struct source_replay {
	char		*path;
	struct file_map	 map;
	struct replay_ring *rg;		/* a ring's window, or NULL */
	struct record_buf ring[2];	/* its pieces: read, and next */
	unsigned	 cur;		/* which one rd reads */
	unsigned	 base;		/* changes of the pieces before */
	char		*ring_err;	/* why a piece could not be read */
	int		 ring_rc;	/* ... and its error */
	struct record_reader *rd;
	const struct record_meta *meta;
	uint64_t	 total;		/* samples there are: as found when
					   opened, fewer once a cut is met */
	uint64_t	 opened;	/* samples found when opened */
	uint64_t	 start;		/* recorded time of the first */
	struct record_stats scan;
	char		**diags;
	size_t		 ndiags;
	int		 damaged;	/* more than a cut-short end */
	int		 cut_said;	/* truncated under us, and said */

	struct topo_lpar *lpars;	/* the topology's partitions */
	struct raw_sample next;	/* the next sample, a copy */
	int		 have_next;
	uint64_t	 index;		/* its number */
	uint64_t	 last_now;
	int		 have_last;
	unsigned	 sel_checked;	/* reader's changes when last found
					   equal, + 1; 0: not checked */
	uint64_t	 sel_hash;	/* ... of the selection found equal */

	double		 speed;
	int		 paused;
	unsigned	 steps;
};

/* A fingerprint of a selection: what the cache of comparisons keys on. */
static uint64_t
source_replay_hash(const struct selection *sel)
{
	const struct sel_pick	*pk;
	const char		*c;
	uint64_t		 h = 0xcbf29ce484222325ULL;
	size_t			 i, j;

	for (i = 0; i < sel->npicks; i++) {
		pk = &sel->picks[i];
		for (c = pk->spec; *c != '\0'; c++)
			h = (h ^ (unsigned char)*c) * 0x100000001b3ULL;
		h = (h ^ pk->nindices ^ (uint64_t)pk->nevents << 32 ^
		    (uint64_t)(unsigned)pk->kind << 60) * 0x100000001b3ULL;
		for (j = 0; j < pk->nindices; j++)
			h = (h ^ pk->indices[j]) * 0x100000001b3ULL;
	}
	return (h ^ sel->ncounters);
}

/* The changes of selection or catalog so far, over a ring's pieces. */
static unsigned
source_replay_changes(const struct source_replay *r)
{
	return (r->base + record_read_changes(r->rd));
}

/* Remember that sel is what the recording holds from here on. */
static void
source_replay_checked(struct source_replay *r, const struct selection *sel)
{
	r->sel_checked = source_replay_changes(r) + 1;
	r->sel_hash = source_replay_hash(sel);
}

/* The replay's state, or NULL for a source that is not a replay or
 * whose file could not be opened. */
static struct source_replay *
source_replay_data(const struct source *src)
{
	return (src != NULL && src->ops == &source_replay_ops ?
	    src->data : NULL);
}

/*
 * A ring's next piece, for rd to read (1), or none (0: the window's end;
 * negative: it could not be read, and r->ring_err says why).  The piece
 * rd read until now is freed: no more than two are held at a time.
 */
static int
source_replay_piece(struct source_replay *r)
{
	struct record_buf	*b = &r->ring[r->cur ^ 1];
	struct record_reader	*rd;
	char			*err = NULL;
	int			 rc;

	if ((rc = source_replay_ring_next(r->rg, b, &err)) == 1 &&
	    (rc = record_read_open(b->p, b->len, &rd, &err)) == 0) {
		r->base += record_read_changes(r->rd) + 1;
		record_read_free(r->rd);
		record_buf_free(&r->ring[r->cur]);
		r->rd = rd;
		r->cur ^= 1;
		r->map.p = b->p;
		r->map.len = b->len;
		r->meta = record_read_meta(rd);
		return (1);
	}
	if (rc != 0 && r->ring_err == NULL) {
		r->ring_err = err;
		r->ring_rc = rc;
	} else
		free(err);
	return (rc < 0 ? rc : 0);
}

/* The next event, across a ring's pieces. */
static int
source_replay_next(struct source_replay *r, struct record_event *ev)
{
	while (record_read_next(r->rd, ev) == RECORD_EV_EOF)
		if (r->rg == NULL || source_replay_piece(r) != 1)
			return (RECORD_EV_EOF);
	return (ev->kind);
}

/* Whether the replay was cut: the file truncated under us, or a ring's
 * segment gone since the window was opened. */
static int
source_replay_cut(const struct source_replay *r)
{
	return (r->ring_err != NULL || mapguard_hit(r->map.p));
}

/* Back to the first sample: a ring's first piece read again. */
static void
source_replay_rewind(struct source_replay *r)
{
	record_read_rewind(r->rd);
	if (r->rg == NULL)
		return;
	source_replay_ring_rewind(r->rg);
	(void)source_replay_piece(r);
}

/* Read ahead to the next sample, passing selection and catalog records. */
static void
source_replay_fetch(struct source_replay *r)
{
	struct record_event	 ev;
	const struct raw_sample *s;

	r->have_next = 0;
	while (source_replay_next(r, &ev) != RECORD_EV_EOF) {
		if (ev.kind != RECORD_EV_SAMPLE)
			continue;
		s = ev.sample;
		raw_sample_size(&r->next, s->nvalues);
		memcpy(r->next.values, s->values,
		    s->nvalues * sizeof *s->values);
		r->next.now = s->now;
		r->next.calls = s->calls;
		r->next.naive_calls = s->naive_calls;
		r->next.catalog_version = s->catalog_version;
		memcpy(r->next.error, s->error, sizeof r->next.error);
		r->have_next = 1;
		return;
	}
	/* Cut under us: the samples read are all there will be, and the
	 * position and the total say the same. */
	if (source_replay_cut(r) && r->index < r->total)
		r->total = r->index;
}

static int	source_replay_is_dir(const char *);
static int	source_replay_open_ring(struct source *, const char *,
		    const char *, char **);
static int	source_replay_begin(struct source *, struct source_replay *,
		    const char *, char **);

int
source_replay_open(struct source *src, const char *path, const char *args,
    char **cause)
{
	struct source_replay	*r;
	int			 error;

	if (source_replay_is_dir(path))
		return (source_replay_open_ring(src, path, args, cause));
	if (args != NULL && (strncmp(args, "from=", 5) == 0 ||
	    strncmp(args, "to=", 3) == 0)) {
		*cause = xasprintf("replay:%s: --from and --to take a ring's "
		    "directory (-w DIR --ring-size); this is one recording",
		    path);
		return (-HV_EUSAGE);
	}
	if (args != NULL && *args != '\0') {
		*cause = xasprintf("replay:%s: --sim, --catalog and --pmu do "
		    "not apply to a replay (the recording holds the frame and "
		    "its catalog)", path);
		return (-HV_EUSAGE);
	}
	if (*path == '\0') {
		*cause = xstrdup("--source replay:FILE needs a file name");
		return (-HV_EUSAGE);
	}
	r = xcalloc(1, sizeof *r);
	src->data = r;
	r->path = xstrdup(path);
	r->speed = 1;
	if ((error = file_map(path, RECORD_MAGIC, RECORD_MAGIC_LEN,
	    SOURCE_REPLAY_MAX, "an hvtop recording", &r->map, cause)) != 0)
		return (error);
	return (source_replay_begin(src, r, path, cause));
}

/* Whether path is a directory: a ring (hvtop -w DIR --ring-size). */
static int
source_replay_is_dir(const char *path)
{
	struct stat	 st;

	return (stat(path, &st) == 0 && S_ISDIR(st.st_mode));
}

/* A ring's window (args: from=, to=), played a segment at a time. */
static int
source_replay_open_ring(struct source *src, const char *path,
    const char *args, char **cause)
{
	struct source_replay	*r;
	int			 error;

	r = xcalloc(1, sizeof *r);
	src->data = r;
	r->path = xstrdup(path);
	r->speed = 1;
	if ((error = source_replay_ring_open(path, args, &r->rg,
	    cause)) != 0 || (error = source_replay_ring_next(r->rg,
	    &r->ring[0], cause)) < 0)
		return (error);
	r->map.p = r->ring[0].p;
	r->map.len = r->ring[0].len;
	return (source_replay_begin(src, r, path, cause));
}

/* Read the recording mapped at r->map once, and stand before its first
 * sample. */
static int
source_replay_begin(struct source *src, struct source_replay *r,
    const char *path, char **cause)
{
	const struct record_diag	*d;
	struct record_event		 ev;
	char				*err = NULL;
	size_t				 i;
	int				 error;

	if ((error = record_read_open(r->map.p, r->map.len, &r->rd,
	    &err)) != 0) {
		*cause = xasprintf("%s: %s", path, err);
		free(err);
		return (error);
	}
	r->meta = record_read_meta(r->rd);

	/* Read it all once: how many samples, and what is damaged. */
	while (source_replay_next(r, &ev) != RECORD_EV_EOF)
		r->total += ev.kind == RECORD_EV_SAMPLE;
	if (r->ring_err != NULL) {
		*cause = r->ring_err;
		r->ring_err = NULL;
		return (r->ring_rc);
	}
	r->opened = r->total;
	record_read_stats(r->rd, &r->scan);
	r->diags = xcalloc(r->scan.ndiags + 2, sizeof *r->diags);
	for (i = 0; (d = record_read_diag(r->rd, i)) != NULL; i++) {
		r->diags[r->ndiags++] = xasprintf("%s: %s", path, d->text);
		/* A recording cut short is still whole up to the cut. */
		if (d->kind != RECORD_DIAG_UNCLOSED &&
		    d->kind != RECORD_DIAG_TORN)
			r->damaged = 1;
	}
	if (r->scan.ndiags > i) {
		r->damaged = 1;
		r->diags[r->ndiags] = xasprintf("%s: %zu more problems",
		    path, r->scan.ndiags - i);
		r->ndiags++;
	}
	source_replay_rewind(r);

	src->label = xstrdup(r->meta->label);
	/* The recording keeps the recorded source's label, which hvtop
	 * writes as "perf ..." for the perf source: its reads are group
	 * reads, and a replay prints what the recorded run printed. */
	src->calls = strncmp(src->label, "perf ", 5) == 0 ? "group reads" :
	    "hcalls";
	source_replay_fetch(r);
	r->start = r->have_next ? r->next.now : 0;
	return (0);
}

static int
source_replay_catalog(struct source *src, const void **buf, size_t *len,
    char **cause)
{
	struct source_replay	*r = src->data;

	*buf = record_read_catalog(r->rd, len);
	if (*len == 0) {
		*cause = xasprintf("%s: the recording holds an empty catalog",
		    r->path);
		return (-HV_EFORMAT);
	}
	return (0);
}

/*
 * The partitions the recorded @lpar picks were made from, as of the next
 * sample: the selection record in force holds them.
 */
static void
source_replay_lpars(const struct source_replay *r, struct topology *t)
{
	const struct record_selection	*rec = record_read_selection(r->rd);

	t->lpars = NULL;
	t->nlpars = 0;
	t->lpar_self = SEL_LPAR_SELF;
	t->lpars_denied = 0;
	if (rec == NULL || rec->lpars == NULL)
		return;
	t->lpars = rec->nlpars > 0 ? rec->lpars : NULL;
	t->nlpars = rec->nlpars;
	t->lpar_self = rec->lpar_self;
	t->lpars_denied = rec->lpars_denied;
}

static int
source_replay_topology(struct source *src, struct topology *t,
    char **cause)
{
	struct source_replay		*r = src->data;
	const struct record_topology	*rt = &r->meta->topo;

	(void)cause;
	memset(t, 0, sizeof *t);
	/* A copy: the reader's changes with the selection in force. */
	source_replay_lpars(r, t);
	free(r->lpars);
	r->lpars = xcalloc(t->nlpars + 1, sizeof *r->lpars);
	if (t->nlpars > 0)
		memcpy(r->lpars, t->lpars, t->nlpars * sizeof *r->lpars);
	t->lpars = t->nlpars > 0 ? r->lpars : NULL;
	t->sockets = rt->sockets;
	t->chips = rt->chips;
	t->cores = rt->cores;
	t->smt = rt->smt;
	t->vcpus = rt->vcpus;
	t->interface = rt->interface;
	t->privileged = rt->privileged;
	t->timebase_hz = rt->timebase_hz;
	/* The recorded frame; a file without one leaves it unknown. */
	if (r->meta->frame.from != FRAME_FROM_NONE)
		t->ident = r->meta->frame;
	return (0);
}

/* "-g A, -e B" for messages (caller frees). */
static char *
source_replay_picks_text(const struct record_selection *sel)
{
	struct strbuf	 sb = { 0 };
	size_t		 i;

	for (i = 0; i < sel->npicks; i++)
		strbuf_addf(&sb, "%s-%c %s", i > 0 ? ", " : "",
		    sel->picks[i].kind ? 'e' : 'g', sel->picks[i].spec);
	if (sb.s == NULL)
		strbuf_adds(&sb, "no counters");
	return (strbuf_detach(&sb));
}

static int
source_replay_select(struct source *src, const struct selection *sel,
    char **cause)
{
	struct source_replay		*r = src->data;
	const struct record_selection	*rec = record_read_selection(r->rd);
	struct record_selection		 want;
	char				*a, *b;
	size_t				 at;

	record_selection_from(&want, sel);
	at = record_selection_compare(&want, rec);
	if (at != 0) {
		a = source_replay_picks_text(rec);
		b = source_replay_picks_text(&want);
		*cause = xasprintf("%s: the recording was made with %s; a "
		    "replay can only show that selection, not %s (leave out "
		    "-g and -e to use the recorded one)", r->path, a, b);
		free(a);
		free(b);
	} else
		source_replay_checked(r, sel);
	record_selection_free(&want);
	return (at != 0 ? -HV_EUSAGE : 0);
}

static int
source_replay_sample(struct source *src, uint64_t now, struct raw_sample *rs,
    char **cause)
{
	struct source_replay	*r = src->data;
	const struct raw_sample *s = &r->next;
	size_t			 k;

	(void)now;
	if (!r->have_next && r->ring_err != NULL) {
		/* A segment went (the writer's budget) while replayed. */
		r->damaged = 1;
		r->cut_said = 1;
		*cause = xasprintf("%s: the window ends after sample %llu, of "
		    "%llu when opened: %s", r->path,
		    (unsigned long long)r->index,
		    (unsigned long long)r->opened, r->ring_err);
		return (-HV_EFORMAT);
	}
	if (!r->have_next && mapguard_hit(r->map.p)) {
		/* Another program truncated the file while it was read. */
		r->damaged = 1;
		r->cut_said = 1;
		*cause = xasprintf("%s: the file was cut short while it was "
		    "replayed: it ends after sample %llu, of %llu when opened",
		    r->path, (unsigned long long)r->index,
		    (unsigned long long)r->opened);
		return (-HV_EFORMAT);
	}
	if (!r->have_next) {
		*cause = xasprintf("%s: the recording ends after %llu samples",
		    r->path, (unsigned long long)r->index);
		return (-HV_ERANGE);
	}
	if (rs->nvalues != s->nvalues) {
		*cause = xasprintf("%s: sample %llu holds %zu counters, not "
		    "%zu: the recording changes the selection here", r->path,
		    (unsigned long long)r->index, s->nvalues, rs->nvalues);
		return (-HV_EUSAGE);
	}
	rs->now = s->now;
	for (k = 0; k < s->nvalues; k++) {
		rs->values[k].value = s->values[k].value;
		rs->values[k].timebase = s->values[k].timebase;
		rs->values[k].status = s->values[k].status;
	}
	rs->calls = s->calls;
	rs->naive_calls = s->naive_calls;
	rs->catalog_version = s->catalog_version;
	_Static_assert(sizeof rs->error == sizeof s->error,
	    "error texts of one size");
	memcpy(rs->error, s->error, sizeof rs->error);
	r->last_now = s->now;
	r->have_last = 1;
	r->index++;
	if (r->steps > 0)
		r->steps--;
	source_replay_fetch(r);
	return (0);
}

static int
source_replay_constant(struct source *src, const char *name, double *v)
{
	struct source_replay	*r = src->data;
	size_t			 i;

	for (i = 0; i < r->meta->nconsts; i++) {
		if (strcmp(r->meta->consts[i].name, name) == 0) {
			*v = r->meta->consts[i].value;
			return (0);
		}
	}
	return (-HV_ENOENT);
}

static void
source_replay_close(struct source *src)
{
	struct source_replay	*r = src->data;
	size_t			 i;

	if (r == NULL)
		return;
	record_read_free(r->rd);
	for (i = 0; i < r->ndiags; i++)
		free(r->diags[i]);
	free(r->diags);
	raw_sample_free(&r->next);
	free(r->lpars);
	if (r->rg != NULL) {
		source_replay_ring_free(r->rg);
		record_buf_free(&r->ring[0]);
		record_buf_free(&r->ring[1]);
		free(r->ring_err);
	} else
		file_unmap(&r->map);
	free(r->path);
	free(r);
	src->data = NULL;
}

/* ---- the playback controls ----------------------------------------- */

static int
source_replay_damaged(const struct source *src)
{
	struct source_replay	*r = source_replay_data(src);

	return (r != NULL && r->damaged);
}

static uint64_t
source_replay_epoch(const struct source *src)
{
	struct source_replay	*r = source_replay_data(src);

	return (r != NULL ? r->meta->epoch_ns : 0);
}

static uint64_t
source_replay_interval(const struct source *src)
{
	struct source_replay	*r = source_replay_data(src);

	return (r != NULL ? r->meta->interval_ns : 0);
}

static int
source_replay_selection(struct source *src, const struct catalog *cat,
    const struct topology *topo, struct selection *out, char **cause)
{
	struct source_replay		*r = source_replay_data(src);
	const struct record_selection	*rec;
	const struct record_pick	*pk;
	struct record_selection		 got;
	struct topology			 t;
	char				*err = NULL;
	size_t				 i;
	int				 error;

	if (r == NULL) {
		*cause = xstrdup("not a replay");
		return (-HV_EUSAGE);
	}
	rec = record_read_selection(r->rd);
	/* @lpar picks are made from the partitions recorded with them,
	 * which may have changed since the topology was asked for. */
	t = *topo;
	if (record_selection_has_lpar(rec))
		source_replay_lpars(r, &t);
	for (i = 0; i < rec->npicks; i++) {
		pk = &rec->picks[i];
		error = selection_add(out, cat, &t, pk->spec, pk->kind,
		    &err);
		if (error != 0) {
			*cause = xasprintf("%s: the recorded -%c %s: %s",
			    r->path, pk->kind ? 'e' : 'g', pk->spec, err);
			free(err);
			return (error);
		}
	}
	/* The picks must come out as the counters that were recorded. */
	record_selection_from(&got, out);
	i = record_selection_compare(&got, rec);
	record_selection_free(&got);
	if (i != 0 && i <= rec->npicks) {
		pk = &rec->picks[i - 1];
		*cause = xasprintf("%s: the recorded -%c %s does not give the "
		    "recorded counters with the recorded catalog", r->path,
		    pk->kind ? 'e' : 'g', pk->spec);
		return (-HV_EFORMAT);
	}
	source_replay_checked(r, out);
	return (0);
}

static int
source_replay_selection_changed(struct source *src,
    const struct selection *sel)
{
	struct source_replay	*r = source_replay_data(src);
	struct record_selection	 cur;
	size_t			 at;

	if (r == NULL)
		return (0);
	if (r->sel_checked == source_replay_changes(r) + 1 &&
	    r->sel_hash == source_replay_hash(sel))
		return (0);
	record_selection_from(&cur, sel);
	at = record_selection_compare(&cur, record_read_selection(r->rd));
	record_selection_free(&cur);
	if (at == 0)
		source_replay_checked(r, sel);
	return (at != 0);
}

static int
source_replay_done(const struct source *src)
{
	struct source_replay	*r = source_replay_data(src);

	/* A file cut under us is never done: sample() says why it ends. */
	return (r != NULL && !r->have_next && !source_replay_cut(r));
}

static void
source_replay_set_speed(struct source *src, double speed)
{
	struct source_replay	*r = source_replay_data(src);

	if (r != NULL && speed > 0)
		r->speed = speed;
}

static double
source_replay_speed(const struct source *src)
{
	struct source_replay	*r = source_replay_data(src);

	return (r != NULL ? r->speed : 1);
}

static uint64_t
source_replay_wait(const struct source *src)
{
	struct source_replay	*r = source_replay_data(src);
	double			 w;

	/* Cut under us: one more sample() says so, then nothing. */
	if (r != NULL && !r->have_next && source_replay_cut(r))
		return (r->cut_said ? UINT64_MAX : 0);
	if (r == NULL || !r->have_next)
		return (UINT64_MAX);
	if (r->steps > 0)
		return (0);
	if (r->paused)
		return (UINT64_MAX);
	if (!r->have_last || r->next.now <= r->last_now)
		return (0);
	w = (double)(r->next.now - r->last_now) / r->speed;
	return (w >= 1.8e19 ? UINT64_MAX - 1 : (uint64_t)w);
}

static void
source_replay_pause(struct source *src, int paused)
{
	struct source_replay	*r = source_replay_data(src);

	if (r != NULL) {
		r->paused = paused != 0;
		if (!r->paused)
			r->steps = 0;
	}
}

static int
source_replay_paused(const struct source *src)
{
	struct source_replay	*r = source_replay_data(src);

	return (r != NULL && r->paused);
}

static void
source_replay_step(struct source *src, unsigned n)
{
	struct source_replay	*r = source_replay_data(src);

	if (r != NULL)
		r->steps += n;
}

static uint64_t
source_replay_position(const struct source *src, uint64_t *total)
{
	struct source_replay	*r = source_replay_data(src);

	if (total != NULL)
		*total = r != NULL ? r->total : 0;
	return (r != NULL ? r->index : 0);
}

static int
source_replay_seek(struct source *src, uint64_t index, char **cause)
{
	struct source_replay	*r = source_replay_data(src);

	if (r == NULL) {
		*cause = xstrdup("not a replay");
		return (-HV_EUSAGE);
	}
	/* Predictions chain from the last heartbeat, so decode from the
	 * start: a replay decodes millions of counters a second. */
	source_replay_rewind(r);
	r->sel_checked = 0;
	r->index = 0;
	r->have_last = 0;
	source_replay_fetch(r);
	while (r->have_next && r->index < index) {
		r->last_now = r->next.now;
		r->index++;
		source_replay_fetch(r);
	}
	r->have_last = 0;
	return (0);
}

/*
 * Count the samples recorded before t with a reader of its own over the
 * same bytes, so that playback stays where it is.
 */
static uint64_t
source_replay_find(struct source *src, uint64_t t)
{
	struct source_replay	*r = source_replay_data(src);
	struct record_reader	*rd;
	struct record_event	 ev;
	uint64_t		 n = 0;
	char			*err = NULL;

	if (r == NULL)
		return (0);
	if (r->rg != NULL)
		return (source_replay_ring_find(r->rg, t, r->total));
	if (record_read_open(r->map.p, r->map.len, &rd, &err) != 0) {
		free(err);
		return (r->total);
	}
	while (n < r->total && record_read_next(rd, &ev) != RECORD_EV_EOF) {
		if (ev.kind != RECORD_EV_SAMPLE)
			continue;
		if (ev.sample->now >= t)
			break;
		n++;
	}
	record_read_free(rd);
	return (n);
}

static uint64_t
source_replay_start(const struct source *src)
{
	struct source_replay	*r = source_replay_data(src);

	return (r != NULL ? r->start : 0);
}

static size_t
source_replay_ndiags(const struct source *src)
{
	struct source_replay	*r = source_replay_data(src);

	return (r != NULL ? r->ndiags : 0);
}

static const char *
source_replay_diag(const struct source *src, size_t i)
{
	struct source_replay	*r = source_replay_data(src);

	return (r != NULL && i < r->ndiags ? r->diags[i] : "");
}

static char *
source_replay_summary(const struct source *src)
{
	struct source_replay	*r = source_replay_data(src);
	struct strbuf		 sb = { 0 };

	if (r == NULL)
		return (xstrdup(""));
	strbuf_addf(&sb, "%s: %llu samples", r->path,
	    (unsigned long long)r->total);
	if (r->scan.dropped_records > 0 || r->scan.dropped_samples > 0 ||
	    r->scan.skipped_bytes > 0)
		strbuf_addf(&sb, "; %llu records (%llu samples) dropped, "
		    "%llu bytes skipped",
		    (unsigned long long)r->scan.dropped_records,
		    (unsigned long long)r->scan.dropped_samples,
		    (unsigned long long)r->scan.skipped_bytes);
	if (r->cut_said)
		strbuf_addf(&sb, "; cut short while replayed, after sample "
		    "%llu", (unsigned long long)r->index);
	else if (!r->scan.clean_end)
		strbuf_adds(&sb, "; not closed by its writer");
	return (strbuf_detach(&sb));
}

static void
source_replay_state(struct source *src, const struct selection *sel,
    struct source_state *st)
{
	st->position = source_replay_position(src, &st->total);
	st->wait = source_replay_wait(src);
	st->done = source_replay_done(src);
	st->follow = sel != NULL && source_replay_selection_changed(src, sel);
}

static const struct source_control source_replay_control_table = {
	.epoch = source_replay_epoch,
	.interval = source_replay_interval,
	.start = source_replay_start,
	.seek = source_replay_seek,
	.find = source_replay_find,
	.set_speed = source_replay_set_speed,
	.speed = source_replay_speed,
	.pause = source_replay_pause,
	.paused = source_replay_paused,
	.step = source_replay_step,
	.state = source_replay_state,
	.damaged = source_replay_damaged,
	.ndiags = source_replay_ndiags,
	.diag = source_replay_diag,
	.summary = source_replay_summary,
	.selection = source_replay_selection,
};

static const struct source_control *
source_replay_control(struct source *src)
{
	(void)src;
	return (&source_replay_control_table);
}

const struct source_ops source_replay_ops = {
	.name = "replay",
	.catalog = source_replay_catalog,
	.topology = source_replay_topology,
	.select = source_replay_select,
	.sample = source_replay_sample,
	.constant = source_replay_constant,
	.control = source_replay_control,
	.close = source_replay_close,
};
