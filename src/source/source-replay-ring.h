/*
 * A window of a ring recording (hvtop -r DIR --from T --to T) as a run
 * of pieces, each a whole recording of about 1 MiB, played one after the
 * other: the segments' records from the first sample at or after the
 * start to the last at or before the end, on one time line, with the
 * selection and catalog changes between segments written as changes.
 * One segment is read at a time, so the memory a window takes is about
 * a segment's, whatever its length.  Where the recorder was not running (a restart,
 * a stretch lost to a kill) a gap is marked (see source-replay-ring.c),
 * never bridged.
 */
#ifndef HVTOP_SOURCE_REPLAY_RING_H
#define HVTOP_SOURCE_REPLAY_RING_H

#include <stdint.h>

struct record_buf;
struct replay_ring;

/*
 * The window of dir that args give: "from=T,to=T" (either, or empty:
 * the whole ring), T as record_ring_time_parse() takes it, relative
 * times counted back from the ring's last sample.  The segments are
 * listed now; none is read yet.  Returns 0 with *out (caller frees with
 * source_replay_ring_free()), or -errno / -HV_E* with *cause set
 * (caller frees).
 */
int	 source_replay_ring_open(const char *dir, const char *args,
	    struct replay_ring **out, char **cause);
void	 source_replay_ring_free(struct replay_ring *);
/* A window of its own over the same segments, at their start. */
struct replay_ring *source_replay_ring_dup(const struct replay_ring *);
/* Back to the window's start. */
void	 source_replay_ring_rewind(struct replay_ring *);

/*
 * The next piece into out (emptied first, only when there is one): a
 * whole recording of the window's next samples, about 1 MiB of them
 * (from one segment or more).  Returns 1; 0 at the window's end (after
 * which a pass plays no sample later than this one's last, so that a
 * segment still being written plays as it did); -HV_ENOENT when the window holds no sample, or -errno /
 * -HV_E* when a segment cannot be read, with *cause set (caller frees).
 */
int	 source_replay_ring_next(struct replay_ring *, struct record_buf *out,
	    char **cause);
/* The gaps marked so far in this pass. */
unsigned source_replay_ring_gaps(const struct replay_ring *);
/* How many samples of the window (at most max) come before output time
 * t, counted by a pass of its own. */
uint64_t source_replay_ring_find(const struct replay_ring *, uint64_t t,
	    uint64_t max);

#endif /* HVTOP_SOURCE_REPLAY_RING_H */
