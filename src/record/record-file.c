/*
 * The file behind hvtop -w.  Policy: the file is created, or replaced
 * (hvtop refuses first to write over an existing file without --force,
 * or ever over the recording being replayed).  A regular file is
 * replaced by a new one under its name, never truncated in place: a
 * replay that has the old one mapped goes on reading it whole.
 * Samples are encoded as they come and handed to write(2) in batches of
 * at most RECORD_FILE_BATCH samples or RECORD_FILE_SPAN of recorded time,
 * whichever comes first, so a system call is not paid every interval; a
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
 */
#include "config.h"

#include "record/record-file.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "model/selection.h"
#include "record/record.h"
#include "source/source.h"
#include "util/hverr.h"
#include "util/xalloc.h"

#define RECORD_FILE_BATCH	8		/* samples held at most */
#define RECORD_FILE_SPAN	5000000000ULL	/* ns of samples held at most */

/*
 * Named constants a source may know (the frame's clocks).  The replay
 * source answers from what is recorded here, so this must name every
 * constant a source knows (source-sim.c: source_sim_constant()).
 */
static const char *const record_file_constants[] = {
	"PB_Freq", "PB_FREQ", "MEM_Freq", "CPU_Freq", "cpu_hz", "XBUS_Freq",
	"ABUS_Freq", "PHB_Freq", NULL
};

struct record_file {
	char		*path;
	int		 fd;
	int		 error;		/* a write failed: -errno */
	struct record_writer *w;
	struct record_buf buf;
	uint64_t	 bytes;
	unsigned	 pending;	/* samples encoded, not written */
	uint64_t	 pending_since;	/* time of the first of them */
	size_t		 end[RECORD_FILE_BATCH];	/* each one's end in buf */
	uint64_t	 end_now[RECORD_FILE_BATCH];	/* and its time */
	uint64_t	 whole;		/* samples written whole */
	uint64_t	 whole_now;	/* time of the last of them */
};

/* The first len bytes of the buffer are in the file: count the samples
 * that ended there, which is where a failed write leaves the file. */
static void
record_file_whole(struct record_file *rf, size_t len)
{
	unsigned	 i;

	rf->whole = record_write_samples(rf->w) - rf->pending;
	for (i = 0; i < rf->pending && rf->end[i] <= len; i++) {
		rf->whole++;
		rf->whole_now = rf->end_now[i];
	}
	rf->pending = 0;
}

/* Write out what the writer appended. */
static int
record_file_flush(struct record_file *rf, char **cause)
{
	const uint8_t	*p = rf->buf.p;
	size_t		 left = rf->buf.len;
	ssize_t		 n;

	if (rf->error != 0) {
		*cause = xasprintf("%s: the recording stopped after an "
		    "earlier error: %s", rf->path, strerror(-rf->error));
		rf->pending = 0;
		record_buf_reset(&rf->buf);
		return (rf->error);
	}
	while (left > 0) {
		n = write(rf->fd, p, left);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			rf->error = -errno;
			*cause = xasprintf("%s: writing the recording: %s",
			    rf->path, strerror(errno));
			record_file_whole(rf, (size_t)(p - rf->buf.p));
			record_buf_reset(&rf->buf);
			return (rf->error);
		}
		p += n;
		left -= (size_t)n;
		rf->bytes += (uint64_t)n;
	}
	record_file_whole(rf, rf->buf.len);
	record_buf_reset(&rf->buf);
	return (0);
}

/* Set name to v in m's constants, replacing a value it has. */
static void
record_file_constant(struct record_meta *m, const char *name, size_t len,
    double v)
{
	size_t	 i;

	for (i = 0; i < m->nconsts; i++) {
		if (strlen(m->consts[i].name) == len &&
		    strncmp(m->consts[i].name, name, len) == 0) {
			m->consts[i].value = v;
			return;
		}
	}
	m->consts[m->nconsts].name = xstrndup(name, len);
	m->consts[m->nconsts++].value = v;
}

/* A new file at path: an old regular file is unlinked, not truncated. */
static int
record_file_create(const char *path)
{
	struct stat	 st;

	if (lstat(path, &st) == 0 && S_ISREG(st.st_mode)) {
		if (unlink(path) == -1)
			return (-1);
		return (open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND |
		    O_CLOEXEC, 0666));
	}
	/* Devices, pipes and symbolic links are written through. */
	return (open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND |
	    O_CLOEXEC, 0666));
}

int
record_file_open(const char *path, struct source *src,
    const struct topology *topo, const struct selection *sel,
    const struct record_constant *consts, size_t nconsts, uint64_t epoch_ns,
    uint64_t interval_ns, uint64_t now,
    const struct record_writer_opts *opts, struct record_file **out,
    char **cause)
{
	struct record_file	*rf;
	struct record_selection	 rsel;
	struct record_meta	 m;
	const char *const	*name;
	const void		*img;
	size_t			 len, i;
	double			 v;
	char			*c;
	int			 error;

	*out = NULL;
	if ((error = src->ops->catalog(src, &img, &len, &c)) != 0) {
		/* A recording holds the catalog; the source's reason why
		 * there is none, with what it stops. */
		*cause = xasprintf("%s: cannot record: %s", path, c);
		free(c);
		return (error);
	}
	memset(&m, 0, sizeof m);
	m.label = xstrdup(src->label != NULL ? src->label : src->ops->name);
	m.writer = xstrdup(PACKAGE_NAME " " PACKAGE_VERSION);
	m.epoch_ns = epoch_ns;
	m.interval_ns = interval_ns;
	m.topo.sockets = topo->sockets;
	m.topo.chips = topo->chips;
	m.topo.cores = topo->cores;
	m.topo.smt = topo->smt;
	m.topo.vcpus = topo->vcpus;
	m.topo.interface = topo->interface;
	m.topo.privileged = topo->privileged;
	m.topo.timebase_hz = topo->timebase_hz;
	m.consts = xcalloc(sizeof record_file_constants /
	    sizeof record_file_constants[0] + nconsts, sizeof *m.consts);
	for (name = record_file_constants; *name != NULL; name++) {
		if (src->ops->constant == NULL ||
		    src->ops->constant(src, *name, &v) != 0)
			continue;
		record_file_constant(&m, *name, strlen(*name), v);
	}
	for (i = 0; i < nconsts; i++)
		record_file_constant(&m, consts[i].name,
		    strlen(consts[i].name), consts[i].value);
	record_selection_from(&rsel, sel);

	rf = xcalloc(1, sizeof *rf);
	rf->path = xstrdup(path);
	rf->w = record_write_new(opts);
	rf->fd = record_file_create(path);
	if (rf->fd == -1) {
		error = -errno;
		*cause = xasprintf("%s: %s", path, strerror(errno));
		goto fail;
	}
	error = record_write_begin(rf->w, &m, img, len, &rsel, now,
	    &rf->buf, cause);
	if (error == 0)
		error = record_file_flush(rf, cause);
	if (error == 0 && fdatasync(rf->fd) == -1 && errno != EINVAL &&
	    errno != EROFS) {
		error = -errno;
		*cause = xasprintf("%s: %s", path, strerror(errno));
	}
	if (error != 0)
		goto fail;
	record_meta_free(&m);
	record_selection_free(&rsel);
	*out = rf;
	return (0);
fail:
	record_meta_free(&m);
	record_selection_free(&rsel);
	if (rf->fd != -1)
		close(rf->fd);
	rf->fd = -1;
	record_write_free(rf->w);
	record_buf_free(&rf->buf);
	free(rf->path);
	free(rf);
	return (error);
}

int
record_file_sample(struct record_file *rf, const struct raw_sample *rs,
    char **cause)
{
	int	 error;

	if ((error = record_write_sample(rf->w, rs, &rf->buf, cause)) != 0)
		return (error);
	if (rf->pending == 0)
		rf->pending_since = rs->now;
	rf->end[rf->pending] = rf->buf.len;
	rf->end_now[rf->pending++] = rs->now;
	if (rf->pending < RECORD_FILE_BATCH &&
	    rs->now - rf->pending_since < RECORD_FILE_SPAN && rf->error == 0)
		return (0);
	return (record_file_flush(rf, cause));
}

int
record_file_select(struct record_file *rf, const struct selection *sel,
    char **cause)
{
	struct record_selection	 rsel;
	int			 error;

	record_selection_from(&rsel, sel);
	error = record_write_select(rf->w, &rsel, &rf->buf, cause);
	record_selection_free(&rsel);
	if (error != 0)
		return (error);
	return (record_file_flush(rf, cause));
}

int
record_file_catalog(struct record_file *rf, const void *img, size_t len,
    char **cause)
{
	int	 error;

	if ((error = record_write_catalog(rf->w, img, len, &rf->buf,
	    cause)) != 0)
		return (error);
	return (record_file_flush(rf, cause));
}

int
record_file_failed(const struct record_file *rf, uint64_t *samples,
    uint64_t *now)
{
	*samples = rf->whole;
	*now = rf->whole_now;
	return (rf->error);
}

uint64_t
record_file_bytes(const struct record_file *rf)
{
	return (rf->bytes + rf->buf.len);
}

int
record_file_close(struct record_file *rf, char **cause)
{
	int	 error = 0;

	if (rf == NULL)
		return (0);
	if (rf->error == 0) {
		record_write_end(rf->w, &rf->buf);
		error = record_file_flush(rf, cause);
		if (error == 0 && fdatasync(rf->fd) == -1 && errno != EINVAL &&
		    errno != EROFS) {
			error = -errno;
			*cause = xasprintf("%s: %s", rf->path,
			    strerror(errno));
		}
	}
	if (close(rf->fd) == -1 && error == 0) {
		error = -errno;
		*cause = xasprintf("%s: %s", rf->path, strerror(errno));
	}
	record_write_free(rf->w);
	record_buf_free(&rf->buf);
	free(rf->path);
	free(rf);
	return (error);
}
