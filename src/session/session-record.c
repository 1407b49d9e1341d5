/*
 * The file behind hvtop -w.  Policy: the file is created, or replaced
 * (hvtop refuses first to write over an existing file without --force,
 * or ever over the recording being replayed), through the one writer of
 * sys/file-out.h.  A regular file is replaced by a new one under its
 * name (a link's target beside itself), never truncated in place: a
 * replay that has the old one mapped goes on reading it whole.  A device
 * or a FIFO is written where it is.
 * Samples are encoded as they come and handed to write(2) in batches of
 * at most SESSION_RECORD_BATCH samples or SESSION_RECORD_SPAN of
 * recorded time, whichever comes first, so a system call is not paid
 * every interval; a
 * hvtop that is killed outright loses at most that much, one that is
 * stopped by a signal or quits closes the file whole.  Selection changes
 * and catalog reloads are written at once.  The file is made durable
 * with fdatasync(2) after the preamble and on close; in between the
 * kernel writes it back on its own schedule (within about 30 seconds by
 * default), which bounds what a machine crash loses more tightly than a
 * sync at every heartbeat did, and such a sync cost more CPU than
 * encoding the 512 samples between heartbeats.  A write that fails stops
 * the recording; the next call reports the failure again rather than
 * write after a hole.
 * A ring (-w DIR --ring-size SIZE) writes the same records into segments
 * of the directory, each a whole recording with its own preamble; the
 * directory's bookkeeping is session-ring.c's.  A segment ends when the
 * next batch could take it past an eighth of the budget, or after an
 * hour; the oldest go first to keep the directory within the budget,
 * and when the disk is full.  A ring whose disk has nothing left to
 * give stops recording, and the run goes on without it.
 */
#include "config.h"

#include "session/session-record.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/raw.h"
#include "record/record.h"
#include "record/record-ring.h"
#include "session/session-int.h"
#include "session/session-ring.h"
#include "session/session.h"
#include "sys/clock.h"
#include "sys/file-out.h"
#include "sys/iowait.h"
#include "util/hverr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define SESSION_RECORD_BATCH	8		/* samples held at most */
#define SESSION_RECORD_SPAN	5000000000ULL	/* ns of samples held */

struct session_record {
	char		*path;
	struct file_out	 out;		/* the file, through sys/file-out.h */
	int		 fd;		/* out's */
	int		 error;		/* a write failed: -errno */
	struct record_writer *w;
	struct record_buf buf;
	uint64_t	 bytes;
	unsigned	 pending;	/* samples encoded, not written */
	uint64_t	 pending_since;	/* time of the first of them */
	size_t		 end[SESSION_RECORD_BATCH];	/* each one's end */
	uint64_t	 end_now[SESSION_RECORD_BATCH];	/* and its time */
	uint64_t	 whole;		/* samples written whole */
	uint64_t	 whole_now;	/* time of the last of them */
	/* The partitions the next selection is made from: a copy. */
	struct topology	 topo;
	struct topo_lpar *lpars;

	/* A ring: its directory, and what a segment's preamble takes. */
	struct session_ring *ring;
	struct record_meta m;
	struct record_selection rsel;
	void		*cat;
	size_t		 catlen;
	struct record_writer_opts wopts;
	int		 have_wopts;
	uint64_t	 seg_now;	/* when the segment began */
	uint64_t	 base;		/* samples of the segments closed */
	size_t		 batch;		/* the largest batch of samples */
};

/* The first len bytes of the buffer are in the file: count the samples
 * that ended there, which is where a failed write leaves the file. */
static void
session_record_whole(struct session_record *rf, size_t len)
{
	unsigned	 i;

	rf->whole = rf->base + record_write_samples(rf->w) - rf->pending;
	for (i = 0; i < rf->pending && rf->end[i] <= len; i++) {
		rf->whole++;
		rf->whole_now = rf->end_now[i];
	}
	rf->pending = 0;
}

/* Write out what the writer appended. */
static int
session_record_flush(struct session_record *rf, char **cause)
{
	const uint8_t	*p = rf->buf.p;
	size_t		 left = rf->buf.len, done, off;
	int		 error;

	if (rf->error != 0) {
		*cause = xasprintf("%s: the recording stopped after an "
		    "earlier error: %s", rf->path, strerror(-rf->error));
		rf->pending = 0;
		record_buf_reset(&rf->buf);
		return (rf->error);
	}
	/* A FIFO nobody reads waits in a way a signal ends.  A full disk
	 * under a ring takes its oldest segments, one by one. */
	for (off = 0;; off += done) {
		/* A file of our own making is a regular file: no fstat(2)
		 * a batch. */
		error = rf->out.kind == FILE_OUT_NEW ?
		    iowait_write_kind(rf->fd, 1, p + off, left - off, &done) :
		    iowait_write(rf->fd, p + off, left - off, &done);
		if (error != -ENOSPC || rf->ring == NULL ||
		    session_ring_drop(rf->ring) != 0) {
			off += done;
			break;
		}
	}
	rf->bytes += (uint64_t)off;
	if (error != 0) {
		rf->error = error;
		*cause = xasprintf("%s: writing the recording: %s",
		    rf->path, strerror(-error));
		session_record_whole(rf, off);
		record_buf_reset(&rf->buf);
		return (rf->error);
	}
	session_record_whole(rf, rf->buf.len);
	record_buf_reset(&rf->buf);
	if (rf->ring != NULL)
		session_ring_trim(rf->ring, rf->bytes, 0);
	return (0);
}

static void
session_record_free(struct session_record *rf)
{
	record_write_free(rf->w);
	record_buf_free(&rf->buf);
	record_meta_free(&rf->m);
	record_selection_free(&rf->rsel);
	session_ring_free(rf->ring);
	free(rf->cat);
	free(rf->lpars);
	free(rf->path);
	free(rf);
}

/* Set name to v in m's constants, replacing a value it has. */
static void
session_record_constant(struct record_meta *m, const char *name, double v)
{
	size_t	 i;

	for (i = 0; i < m->nconsts; i++) {
		if (strcmp(m->consts[i].name, name) == 0) {
			m->consts[i].value = v;
			return;
		}
	}
	m->consts[m->nconsts].name = xstrdup(name);
	m->consts[m->nconsts++].value = v;
}

/* The meta record of a run: what each of its files starts with. */
static void
session_record_meta(struct record_meta *m,
    const struct session_record_params *p)
{
	const struct topology	*topo = p->topo;
	size_t			 i;

	memset(m, 0, sizeof *m);
	m->label = xstrdup(p->label);
	m->writer = xstrdup(PACKAGE_NAME " " PACKAGE_VERSION);
	m->epoch_ns = p->epoch_ns;
	m->interval_ns = p->interval_ns;
	m->topo.sockets = topo->sockets;
	m->topo.chips = topo->chips;
	m->topo.cores = topo->cores;
	m->topo.smt = topo->smt;
	m->topo.vcpus = topo->vcpus;
	m->topo.interface = topo->interface;
	m->topo.privileged = topo->privileged;
	m->topo.timebase_hz = topo->timebase_hz;
	/* The source's identity, a FRAME record when it knew any. */
	m->frame = topo->ident;
	m->consts = xcalloc(p->nconsts + 1, sizeof *m->consts);
	for (i = 0; i < p->nconsts; i++)
		session_record_constant(m, p->consts[i].name,
		    p->consts[i].value);
}

/*
 * Open path with a new writer and write the preamble of what rf keeps.
 * A new file takes the name once its preamble is on the disk: the name
 * never holds a recording without one.
 */
static int
session_record_begin(struct session_record *rf, const char *path,
    uint64_t now, char **cause)
{
	int	 error;

	record_write_free(rf->w);
	rf->w = record_write_new(rf->have_wopts ? &rf->wopts : NULL);
	rf->bytes = 0;
	rf->seg_now = now;
	if ((error = file_out_open(path, 0, &rf->out, cause)) != 0)
		return (error);
	rf->fd = rf->out.fd;
	error = record_write_begin(rf->w, &rf->m, rf->cat, rf->catlen,
	    &rf->rsel, now, &rf->buf, cause);
	if (error == 0)
		error = session_record_flush(rf, cause);
	if (error == 0 && fdatasync(rf->fd) == -1 && errno != EINVAL &&
	    errno != EROFS) {
		error = -errno;
		*cause = xasprintf("%s: %s", path, strerror(errno));
	}
	if (error == 0)
		error = file_out_place(&rf->out, cause);
	if (error != 0) {
		file_out_abort(&rf->out);
		rf->fd = -1;
	}
	return (error);
}

/* A ring's first segment, in a directory listed first. */
static int
session_record_ring_open(struct session_record *rf, uint64_t budget,
    uint64_t now, char **cause)
{
	char	*path;
	int	 error;

	if ((error = session_ring_open(rf->path, budget, &rf->ring,
	    cause)) != 0)
		return (error);
	session_ring_trim(rf->ring, 0, session_ring_segment_max(rf->ring));
	path = session_ring_next(rf->ring, rf->m.epoch_ns + now);
	error = session_record_begin(rf, path, now, cause);
	/* Every segment repeats the preamble: it must leave room. */
	if (error == 0 && rf->bytes * 2 > session_ring_segment_max(rf->ring)) {
		*cause = xasprintf("%s: --ring-size %llu is too small for "
		    "this recording, whose preamble takes %llu bytes (at "
		    "least %lluK)", rf->path, (unsigned long long)budget,
		    (unsigned long long)rf->bytes, (unsigned long long)
		    (rf->bytes * 2 * RECORD_RING_PARTS + 1023) / 1024);
		error = -HV_ERANGE;
		file_out_abort(&rf->out);
		(void)unlink(path);
	}
	free(path);
	return (error);
}

int
session_record_open(const struct session_record_params *p,
    struct session_record **out, char **cause)
{
	struct session_record	*rf;
	int			 error;

	*out = NULL;
	rf = xcalloc(1, sizeof *rf);
	session_record_meta(&rf->m, p);
	session_record_topology(rf, p->topo);
	record_selection_from(&rf->rsel, p->sel);
	record_selection_topology(&rf->rsel, &rf->topo);
	rf->cat = xmalloc(p->catalog_len + 1);
	memcpy(rf->cat, p->catalog, p->catalog_len);
	rf->catlen = p->catalog_len;
	if (p->opts != NULL) {
		rf->wopts = *p->opts;
		rf->have_wopts = 1;
	}
	rf->path = xstrdup(p->path);
	rf->fd = -1;
	if (p->ring != 0)
		error = session_record_ring_open(rf, p->ring, p->now, cause);
	else
		error = session_record_begin(rf, p->path, p->now, cause);
	if (error != 0) {
		file_out_abort(&rf->out);
		session_record_free(rf);
		return (error);
	}
	*out = rf;
	return (0);
}

void
session_record_topology(struct session_record *rf,
    const struct topology *topo)
{
	free(rf->lpars);
	rf->topo = *topo;
	rf->lpars = NULL;
	if (topo->lpars != NULL && topo->nlpars > 0) {
		rf->lpars = xcalloc(topo->nlpars, sizeof *rf->lpars);
		memcpy(rf->lpars, topo->lpars, topo->nlpars *
		    sizeof *rf->lpars);
	} else
		rf->topo.nlpars = 0;
	rf->topo.lpars = rf->lpars;
}

/*
 * End the ring's segment and start the next at now: the oldest go
 * first so that the closed ones and a whole new one fit the budget.
 */
static int
session_record_rotate(struct session_record *rf, uint64_t now,
    char **cause)
{
	char	*path;
	int	 error;

	record_write_end(rf->w, &rf->buf);
	if ((error = session_record_flush(rf, cause)) != 0)
		return (error);
	if ((error = file_out_commit(&rf->out, cause)) != 0) {
		rf->fd = -1;
		rf->error = error;
		return (error);
	}
	rf->fd = -1;
	rf->base += record_write_samples(rf->w);
	session_ring_add(rf->ring, rf->bytes);
	session_ring_trim(rf->ring, 0, session_ring_segment_max(rf->ring));
	path = session_ring_next(rf->ring, rf->m.epoch_ns + now);
	error = session_record_begin(rf, path, now, cause);
	free(path);
	if (error != 0 && rf->error == 0)
		rf->error = error;
	return (error);
}

/* Whether the ring's segment ends before the next batch. */
static int
session_record_due(const struct session_record *rf, uint64_t now)
{
	return (rf->ring != NULL && rf->error == 0 &&
	    (rf->bytes + rf->batch > session_ring_segment_max(rf->ring) ||
	    now - rf->seg_now >= RECORD_RING_SPAN_NS));
}

int
session_record_sample(struct session_record *rf,
    const struct raw_sample *rs, char **cause)
{
	int	 error;

	/* A ring that stopped said so once; the run goes on without it. */
	if (rf->ring != NULL && rf->error != 0)
		return (0);
	if ((error = record_write_sample(rf->w, rs, &rf->buf, cause)) != 0)
		return (error);
	if (rf->pending == 0)
		rf->pending_since = rs->now;
	rf->end[rf->pending] = rf->buf.len;
	rf->end_now[rf->pending++] = rs->now;
	if (rf->pending < SESSION_RECORD_BATCH &&
	    rs->now - rf->pending_since < SESSION_RECORD_SPAN && rf->error == 0)
		return (0);
	if (rf->buf.len > rf->batch)
		rf->batch = rf->buf.len;
	if ((error = session_record_flush(rf, cause)) != 0)
		return (error);
	if (session_record_due(rf, rs->now))
		return (session_record_rotate(rf, rs->now, cause));
	return (0);
}

int
session_record_select(struct session_record *rf,
    const struct selection *sel, char **cause)
{
	struct record_selection	 rsel;
	int			 error;

	if (rf->ring != NULL && rf->error != 0)
		return (0);
	record_selection_from(&rsel, sel);
	record_selection_topology(&rsel, &rf->topo);
	error = record_write_select(rf->w, &rsel, &rf->buf, cause);
	/* The next segment starts with it. */
	record_selection_free(&rf->rsel);
	rf->rsel = rsel;
	if (error != 0)
		return (error);
	return (session_record_flush(rf, cause));
}

int
session_record_catalog(struct session_record *rf, const void *img,
    size_t len, char **cause)
{
	int	 error;

	if (rf->ring != NULL && rf->error != 0)
		return (0);
	if ((error = record_write_catalog(rf->w, img, len, &rf->buf,
	    cause)) != 0)
		return (error);
	free(rf->cat);
	rf->cat = xmalloc(len + 1);
	memcpy(rf->cat, img, len);
	rf->catlen = len;
	return (session_record_flush(rf, cause));
}

int
session_record_error(const struct session_record *rf, uint64_t *samples,
    uint64_t *now)
{
	*samples = rf->whole;
	*now = rf->whole_now;
	return (rf->error);
}

int
session_record_ring(const struct session_record *rf)
{
	return (rf->ring != NULL);
}

uint64_t
session_record_bytes(const struct session_record *rf)
{
	return (rf->bytes + rf->buf.len);
}

int
session_record_close(struct session_record *rf, char **cause)
{
	int	 error = 0;

	if (rf == NULL)
		return (0);
	if (rf->error == 0) {
		record_write_end(rf->w, &rf->buf);
		error = session_record_flush(rf, cause);
	}
	/* The commit flushes a file to the disk and closes it. */
	if (error == 0)
		error = file_out_commit(&rf->out, cause);
	else
		file_out_abort(&rf->out);
	session_record_free(rf);
	return (error);
}

/* What the session says of its recording at the end of a run. */
int
session_record_failed(const struct session *s)
{
	uint64_t	 n, now;

	return (s->rec_lost ||
	    (s->rec != NULL && session_record_error(s->rec, &n, &now) != 0));
}

char *
session_record_failure(struct session *s)
{
	struct strbuf	 sb;
	uint64_t	 n, now;

	if (s->rec_lost)
		return (xasprintf("nothing was recorded in %s", s->opts.record));
	if (s->rec == NULL || session_record_error(s->rec, &n, &now) == 0)
		return (NULL);
	memset(&sb, 0, sizeof sb);
	strbuf_addf(&sb, "the recording %s is incomplete: ", s->opts.record);
	if (n == 0)
		strbuf_adds(&sb, "it holds no sample");
	else {
		strbuf_addf(&sb, "it ends after sample %llu, at ",
		    (unsigned long long)n);
		strbuf_addtime(&sb, clock_wall(&s->clock, now), 1);
	}
	return (strbuf_detach(&sb));
}
