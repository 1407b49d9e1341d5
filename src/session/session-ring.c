/*
 * A ring recording's directory (session-ring.h).  The segments closed
 * so far are kept in a list, oldest first, with their sizes, so that
 * staying within the budget costs no system call until one must go.
 * What a writer killed outright leaves is safe to read: a segment takes
 * its name only once its preamble is on the disk (sys/file-out.h), and a
 * reader stops at the last whole record of a torn tail; a temporary file
 * it left is removed when the next recording opens the directory (the
 * one lister of sys/ring-dir.h, which readers use too).
 */
#include "config.h"

#include "session/session-ring.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/record-ring.h"
#include "sys/ring-dir.h"
#include "util/hverr.h"
#include "util/xalloc.h"

struct session_ring {
	char		*dir;
	uint64_t	 budget;
	struct record_ring_seg *segs;	/* closed, oldest first */
	size_t		 nsegs;
	size_t		 cap;
	uint64_t	 seq;		/* the next segment's number */
	struct record_ring_seg cur;	/* the one being written */
};

static void
session_ring_push(struct session_ring *r, const struct record_ring_seg *s)
{
	if (r->nsegs == r->cap) {
		r->cap = r->cap == 0 ? 16 : r->cap * 2;
		r->segs = xreallocarray(r->segs, r->cap, sizeof *r->segs);
	}
	r->segs[r->nsegs++] = *s;
}

/* Make a removal or a new name durable: fsync(2) the directory. */
static void
session_ring_sync(const struct session_ring *r)
{
	int	 fd;

	if ((fd = open(r->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1)
		return;
	(void)fsync(fd);
	close(fd);
}

/* The segments the directory holds, a half-made one removed. */
static int
session_ring_list(struct session_ring *r, char **cause)
{
	size_t	 i;
	int	 error;

	if ((error = ring_dir_scan(r->dir, RING_DIR_TIDY, &r->segs,
	    &r->nsegs, cause)) != 0)
		return (error);
	r->cap = r->nsegs;
	for (i = 0; i < r->nsegs; i++)
		if (r->segs[i].seq >= r->seq)
			r->seq = r->segs[i].seq + 1;
	return (0);
}

int
session_ring_open(const char *dir, uint64_t budget,
    struct session_ring **out, char **cause)
{
	struct session_ring	*r;
	int			 error;

	*out = NULL;
	if (budget < RECORD_RING_MIN) {
		*cause = xasprintf("%s: a ring of %llu bytes is too small "
		    "(at least %u)", dir, (unsigned long long)budget,
		    RECORD_RING_MIN);
		return (-HV_ERANGE);
	}
	if (mkdir(dir, 0750) == -1 && errno != EEXIST) {
		*cause = xasprintf("%s: %s", dir, strerror(errno));
		return (-errno);
	}
	r = xcalloc(1, sizeof *r);
	r->dir = xstrdup(dir);
	r->budget = budget;
	if ((error = session_ring_list(r, cause)) != 0) {
		session_ring_free(r);
		return (error);
	}
	*out = r;
	return (0);
}

void
session_ring_free(struct session_ring *r)
{
	if (r == NULL)
		return;
	free(r->segs);
	free(r->dir);
	free(r);
}

char *
session_ring_next(struct session_ring *r, uint64_t wall_ns)
{
	memset(&r->cur, 0, sizeof r->cur);
	r->cur.wall_ns = wall_ns - wall_ns % 1000000000ULL;
	r->cur.seq = r->seq++;
	record_ring_name(r->cur.name, sizeof r->cur.name, wall_ns,
	    r->cur.seq);
	return (xasprintf("%s/%s", r->dir, r->cur.name));
}

void
session_ring_add(struct session_ring *r, uint64_t bytes)
{
	r->cur.bytes = bytes;
	session_ring_push(r, &r->cur);
}

int
session_ring_drop(struct session_ring *r)
{
	char	*path;

	if (r->nsegs == 0)
		return (-ENOENT);
	path = xasprintf("%s/%s", r->dir, r->segs[0].name);
	(void)unlink(path);
	free(path);
	memmove(r->segs, r->segs + 1, (r->nsegs - 1) * sizeof *r->segs);
	r->nsegs--;
	return (0);
}

size_t
session_ring_trim(struct session_ring *r, uint64_t current,
    uint64_t reserve)
{
	size_t	 k, i;

	k = record_ring_excess(r->segs, r->nsegs, r->budget,
	    current + reserve);
	for (i = 0; i < k; i++)
		(void)session_ring_drop(r);
	if (k > 0)
		session_ring_sync(r);
	return (k);
}

uint64_t
session_ring_budget(const struct session_ring *r)
{
	return (r->budget);
}

uint64_t
session_ring_segment_max(const struct session_ring *r)
{
	return (record_ring_segment_max(r->budget));
}
