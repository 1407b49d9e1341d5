/*
 * The replay source (--source replay:FILE, hvtop -r FILE): a recording
 * played back through the same ops table as a live source.  It serves the
 * recorded catalog, topology, label and constants, accepts only the
 * recorded selection, and hands out the recorded samples with their
 * recorded times, so that the clock, the engine and every output follow
 * the recording.
 *
 * Pacing is the caller's: the source never sleeps.  The functions below
 * give a terminal interface what it needs to play at the recorded speed,
 * faster or slower, to pause, to step and to jump.
 */
#ifndef HVTOP_SOURCE_REPLAY_H
#define HVTOP_SOURCE_REPLAY_H

#include <stddef.h>
#include <stdint.h>

struct catalog;
struct selection;
struct source;
struct topology;

extern const struct source_ops source_replay_ops;

/*
 * Open path into src (source_open() does this for "replay:FILE").  args
 * must be empty: the recording holds the frame and the catalog.  Reads the
 * whole file once to check it; what is damaged is reported through
 * source_replay_diag().  Returns 0 or a negative code with *cause set.
 */
int	 source_replay_open(struct source *, const char *path,
	    const char *args, char **cause);

/* Whether src is a replay (every function below wants one). */
int	 source_replay_is(const struct source *);

/* Wall-clock time (ns since 1970) of the recording's time 0, and the
 * sampling interval it was made with (ns). */
uint64_t source_replay_epoch(const struct source *);
uint64_t source_replay_interval(const struct source *);

/*
 * The recorded selection that applies to the next sample, resolved
 * against cat and topo into *out (which must be empty; caller clears it
 * with selection_clear()).  Returns 0 or a negative code with *cause set.
 */
int	 source_replay_selection(struct source *, const struct catalog *,
	    const struct topology *, struct selection *out, char **cause);
/* Whether the next sample was recorded with a selection other than sel
 * (the recording changed it: rebuild with source_replay_selection()). */
int	 source_replay_selection_changed(struct source *,
	    const struct selection *);

/* Whether every sample has been handed out (sample() then fails). */
int	 source_replay_done(const struct source *);

/* Playback speed: 1 is as recorded, 2 twice as fast; > 0. */
void	 source_replay_set_speed(struct source *, double);
double	 source_replay_speed(const struct source *);

/*
 * Host nanoseconds to wait, at the current speed, before taking the next
 * sample: the recorded gap between the last sample and the next divided
 * by the speed; 0 for the first sample or while steps are pending;
 * UINT64_MAX while paused or at the end.
 */
uint64_t source_replay_wait(const struct source *);

/* Pause (nonzero) or resume; step: let n more samples through while
 * paused. */
void	 source_replay_pause(struct source *, int);
int	 source_replay_paused(const struct source *);
void	 source_replay_step(struct source *, unsigned n);

/*
 * Position: the number of the next sample (0-based) and, in *total, how
 * many samples the recording holds.
 */
uint64_t source_replay_position(const struct source *, uint64_t *total);

/*
 * Jump so that the next sample is number index (past the end: the end).
 * The interval across a jump means nothing: the caller restarts the
 * engine's baselines (engine_rebase()) and, if the recorded selection
 * differs there, follows it.  Returns 0 or a negative code with *cause.
 */
int	 source_replay_seek(struct source *, uint64_t index, char **cause);

/*
 * The number of the first sample recorded at or after t (ns of recorded
 * time, as in the samples' now), or the total when none is.  Reads the
 * recording from the start: the position is left there, so a caller
 * seeks afterwards.
 */
uint64_t source_replay_find(struct source *, uint64_t t);
/* The recorded time (ns) of the first sample. */
uint64_t source_replay_start(const struct source *);

/* What is wrong with the file, one line each ("" past the last). */
size_t	 source_replay_ndiags(const struct source *);
/* Whether the recording is damaged, not only cut short (hvcat info
 * exits 1 for the same files). */
int	 source_replay_damaged(const struct source *);
const char *source_replay_diag(const struct source *, size_t);

/* "N samples, M dropped ..." (caller frees). */
char	*source_replay_summary(const struct source *);

#endif /* HVTOP_SOURCE_REPLAY_H */
