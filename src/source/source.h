/*
 * Where counters come from.  Every source (the simulated frame, the perf
 * hv_24x7 PMU, a recording) sits behind one ops table; the engine and the
 * interface never know which one they talk to beyond its name.
 *
 * A source hands out the catalog bytes and the frame topology, accepts a
 * selection (the counters to read), and fills one raw sample per call.
 * Raw values are the hypervisor's 64-bit accumulators; the engine turns
 * them into deltas and rates.
 */
#ifndef HVTOP_SOURCE_H
#define HVTOP_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "model/raw.h"

struct catalog;
struct selection;

struct source;
struct source_control;

/*
 * Where playback stands (a source_control's state op), asked once after
 * each sample, jump or new selection.
 */
struct source_state {
	uint64_t	 position;	/* the number of the next sample,
					   0-based */
	uint64_t	 total;		/* how many there are */
	/* Host ns to wait before the next sample: 0 for the first or while
	 * steps are pending, UINT64_MAX while paused or at the end. */
	uint64_t	 wait;
	int		 done;		/* every sample has been handed out
					   (sample() then fails) */
	int		 follow;	/* the next sample was recorded with
					   a selection other than the one
					   given: the caller must follow it
					   (the selection op) */
};

struct source_ops {
	const char	*name;
	/* Open with a "key=value,..." argument string (may be NULL). */
	int		(*open)(struct source *, const char *args, char **cause);
	/* The catalog image; the source keeps ownership. */
	int		(*catalog)(struct source *, const void **, size_t *,
			    char **cause);
	int		(*topology)(struct source *, struct topology *,
			    char **cause);
	/* Use this selection from now on (the source keeps a pointer). */
	int		(*select)(struct source *, const struct selection *,
			    char **cause);
	/*
	 * Read every selected counter at time now (ns).  A source whose
	 * partitions changed (one stopped answering and they were looked
	 * for again) says so on the sample it read, raw->lpars_changed;
	 * its next topology call lists them.
	 */
	int		(*sample)(struct source *, uint64_t now,
			    struct raw_sample *, char **cause);
	/*
	 * Optional: a catalog model the source built itself, for when it
	 * has no catalog image (the catalog op fails).  The source keeps
	 * ownership.
	 */
	int		(*model)(struct source *, const struct catalog **);
	/*
	 * Optional: find the frame's partitions (topology lpars) now.  A
	 * source looks for them only when asked, as it costs reads nothing
	 * else makes; from then on it looks again by itself when they may
	 * have changed.  The next topology call lists them; a change found
	 * while sampling is said by the sample (raw->lpars_changed), and
	 * the caller then resolves its picks again.
	 */
	int		(*partitions)(struct source *, char **cause);
	/* A named constant of the frame (e.g. PB_Freq), 0 if unknown. */
	int		(*constant)(struct source *, const char *, double *);
	/*
	 * Optional: where the frame's value of a constant comes from (a
	 * file the partition reads), owned by the source; NULL when the op
	 * is absent or does not say.
	 */
	const char	*(*constant_origin)(struct source *, const char *);
	/* Optional: playback controls (a recording has them), or NULL. */
	const struct source_control *(*control)(struct source *);
	void		(*close)(struct source *);
};

/*
 * Playback controls: what a source that plays something back (a
 * recording) offers beyond reading samples.  A source that offers the
 * table fills every op; each takes the source that handed it out.
 * Pacing is the caller's: a source never sleeps; it says how long to
 * wait.
 */
struct source_control {
	/* Wall-clock time (ns since 1970) of recorded time 0, and the
	 * sampling interval it was made with (ns). */
	uint64_t	(*epoch)(const struct source *);
	uint64_t	(*interval)(const struct source *);
	/* The recorded time (ns) of the first sample. */
	uint64_t	(*start)(const struct source *);
	/*
	 * Jump so that the next sample is number index (past the end: the
	 * end).  The interval across a jump means nothing: the caller
	 * restarts its baselines.  0 or a negative code with *cause set.
	 */
	int		(*seek)(struct source *, uint64_t index, char **cause);
	/* The number of the first sample recorded at or after t (ns of
	 * recorded time), or the total; the position does not move. */
	uint64_t	(*find)(struct source *, uint64_t t);
	/* Playback speed: 1 is as recorded, 2 twice as fast; > 0. */
	void		(*set_speed)(struct source *, double);
	double		(*speed)(const struct source *);
	/* Pause (nonzero) or resume; step: n more samples while paused. */
	void		(*pause)(struct source *, int);
	int		(*paused)(const struct source *);
	void		(*step)(struct source *, unsigned n);
	/* Where playback stands now, and whether the next sample has a
	 * selection other than sel (NULL: not asked). */
	void		(*state)(struct source *, const struct selection *sel,
			    struct source_state *);
	/* Whether the recording is damaged, not only cut short. */
	int		(*damaged)(const struct source *);
	/* What is wrong with it, one line each ("" past the last). */
	size_t		(*ndiags)(const struct source *);
	const char	*(*diag)(const struct source *, size_t);
	/* "N samples, M dropped ..." (caller frees). */
	char		*(*summary)(const struct source *);
	/*
	 * Following: the selection the next sample was recorded with,
	 * resolved against cat and topo into *out (empty; caller clears),
	 * 0 or a negative code with *cause.
	 */
	int		(*selection)(struct source *, const struct catalog *,
			    const struct topology *, struct selection *out,
			    char **cause);
};

struct source {
	const struct source_ops *ops;
	void		*data;		/* the source's own state */
	char		*label;		/* for the header: "SIMULATED ..." */
	const char	*calls;		/* what its reads are: "hcalls" (the
					   default), "group reads" (perf) */
};

/*
 * Open the source named by spec ("auto", "sim", "perf", "replay:FILE").
 * auto picks perf when the hv_24x7 PMU exists under sysfs_root, else sim.
 * Returns 0 with *out set (caller closes with source_close()), or a
 * negative code with *cause set.
 */
int	 source_open(const char *spec, const char *args, const char *sysfs_root,
	    struct source **out, char **cause);
void	 source_close(struct source *);
/* The source's playback controls, or NULL when it has none. */
const struct source_control *source_control(struct source *);

extern const struct source_ops source_sim_ops;

#endif /* HVTOP_SOURCE_H */
