/*
 * A window of a ring recording (hvtop -r DIR --from T --to T) as one
 * recording: the segments' records from the first sample at or after
 * the start to the last at or before the end, on one time line, with the
 * selection and catalog changes between segments written as changes.
 * Where the recorder was not running (a restart, a stretch lost to a
 * kill) a gap is marked (see source-replay-ring.c), never bridged.
 */
#ifndef HVTOP_SOURCE_REPLAY_RING_H
#define HVTOP_SOURCE_REPLAY_RING_H

#include <stdint.h>

struct record_buf;

/*
 * args: "from=T,to=T" (either, or empty: the whole ring), T as
 * record_ring_time_parse() takes it, relative times counted back from
 * the ring's last sample.  The recording into *out (caller frees with
 * record_buf_free()); *gaps the gaps marked.  Returns 0, or -errno /
 * -HV_E* with *cause set (caller frees).
 */
int	 source_replay_ring(const char *dir, const char *args,
	    struct record_buf *out, unsigned *gaps, char **cause);

#endif /* HVTOP_SOURCE_REPLAY_RING_H */
