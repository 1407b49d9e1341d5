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

struct catalog;
struct selection;

/* The frame as a source sees it. */
struct topology {
	unsigned	 sockets;
	unsigned	 chips;		/* in the frame */
	unsigned	 cores;		/* in the frame */
	unsigned	 smt;		/* threads per core */
	unsigned	 vcpus;		/* virtual processors of this partition */
	int		 interface;	/* hcall interface version, 1 or 2;
					   0: a PMU other than hv_24x7 */
	int		 privileged;	/* physical domains may be read */
	uint64_t	 timebase_hz;	/* timebase frequency */
};

/*
 * Whether a raw value may be used, and if not why.  RAW_OK and RAW_SCALED
 * carry a value; the others do not.  RAW_SCALED is an estimate: perf
 * multiplexed the counter (its group ran for only part of the interval,
 * time_running < time_enabled), so the source scaled the interval's count
 * up to the whole interval, and value moved by that estimate; counted
 * says how much of the interval was counted.  A group that did not run in
 * the interval has no value at all (RAW_MISSING).
 */
enum raw_status {
	RAW_OK = 0,
	RAW_FAILED,		/* the read failed (see the sample's error) */
	RAW_DENIED,		/* no permission for this domain */
	RAW_MISSING,		/* the result did not carry this counter */
	RAW_BUSY,		/* the hypervisor was busy; try again */
	RAW_SCALED,		/* a value, estimated from part of the
				   interval */
	RAW_NSTATUS
};

struct raw_value {
	uint64_t	 value;		/* 64-bit accumulator */
	uint64_t	 timebase;	/* record timebase, 0 when none */
	uint8_t		 status;	/* enum raw_status */
	uint8_t		 counted;	/* RAW_SCALED: percent of the interval
					   counted, 1-99; 0 when not known (a
					   recording keeps only the status) */
};

/*
 * The one rule for reading a status byte, for every user of raw values
 * (the engine, the OpenMetrics endpoint): RAW_OK when the value may be
 * used (RAW_OK, RAW_SCALED), else why not: RAW_FAILED, RAW_DENIED,
 * RAW_MISSING or RAW_BUSY.  A byte no source writes is RAW_FAILED.
 */
enum raw_status source_raw_reason(uint8_t status);

/* One read of every selected counter, in selection order. */
struct raw_sample {
	uint64_t	 now;		/* host time of the read, ns */
	struct raw_value *values;	/* selection->ncounters entries */
	size_t		 nvalues;
	unsigned	 calls;		/* hcalls or group reads made */
	unsigned	 naive_calls;	/* one per counter and index */
	uint64_t	 catalog_version;	/* as reported, 0 when unknown */
	char		 error[256];	/* last problem, "" when none */
};

struct source;
struct source_control;

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
	/* Read every selected counter at time now (ns). */
	int		(*sample)(struct source *, uint64_t now,
			    struct raw_sample *, char **cause);
	/*
	 * Optional: a catalog model the source built itself, for when it
	 * has no catalog image (the catalog op fails).  The source keeps
	 * ownership.
	 */
	int		(*model)(struct source *, const struct catalog **);
	/* A named constant of the frame (e.g. PB_Freq), 0 if unknown. */
	int		(*constant)(struct source *, const char *, double *);
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
	/* The number of the next sample (0-based); *total: how many. */
	uint64_t	(*position)(const struct source *, uint64_t *total);
	/*
	 * Jump so that the next sample is number index (past the end: the
	 * end).  The interval across a jump means nothing: the caller
	 * restarts its baselines.  0 or a negative code with *cause set.
	 */
	int		(*seek)(struct source *, uint64_t index, char **cause);
	/* The number of the first sample recorded at or after t (ns of
	 * recorded time), or the total; the position is left anywhere. */
	uint64_t	(*find)(struct source *, uint64_t t);
	/* Playback speed: 1 is as recorded, 2 twice as fast; > 0. */
	void		(*set_speed)(struct source *, double);
	double		(*speed)(const struct source *);
	/* Host ns to wait before the next sample: 0 for the first or while
	 * steps are pending, UINT64_MAX while paused or at the end. */
	uint64_t	(*wait)(const struct source *);
	/* Pause (nonzero) or resume; step: n more samples while paused. */
	void		(*pause)(struct source *, int);
	int		(*paused)(const struct source *);
	void		(*step)(struct source *, unsigned n);
	/* Whether every sample has been handed out (sample() then fails). */
	int		(*done)(const struct source *);
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
	 * 0 or a negative code with *cause; and whether it differs from
	 * sel, so that the caller must follow it.
	 */
	int		(*selection)(struct source *, const struct catalog *,
			    const struct topology *, struct selection *out,
			    char **cause);
	int		(*selection_changed)(struct source *,
			    const struct selection *);
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
