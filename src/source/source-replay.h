/*
 * The replay source (--source replay:FILE, hvtop -r FILE): a recording
 * played back through the same ops table as a live source.  It serves the
 * recorded catalog, topology, label and constants, accepts only the
 * recorded selection, and hands out the recorded samples with their
 * recorded times, so that the clock, the engine and every output follow
 * the recording.
 *
 * What a live source lacks (the recording's epoch and interval, position,
 * seek, speed, pause and step, the end, what is damaged, the selection to
 * follow) is offered through the ops table's control op (struct
 * source_control in source.h), which only the session uses; nothing
 * outside src/source calls into this file by name.  Pacing is the
 * session's: the source never sleeps.
 */
#ifndef HVTOP_SOURCE_REPLAY_H
#define HVTOP_SOURCE_REPLAY_H

struct source;

extern const struct source_ops source_replay_ops;

/*
 * Open path into src (source_open() does this for "replay:FILE").  args
 * must be empty: the recording holds the frame and the catalog.  Reads the
 * whole file once to check it; what is damaged is reported through the
 * control table's diag().  Returns 0 or a negative code with *cause set.
 */
int	 source_replay_open(struct source *, const char *path,
	    const char *args, char **cause);

#endif /* HVTOP_SOURCE_REPLAY_H */
