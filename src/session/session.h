/*
 * One monitoring session: a source, the catalog it serves, the metric
 * definitions, the selection, the engine and the clock, kept consistent
 * with each other.  The batch loop, the terminal interface and the tests
 * drive it through the functions below and learn what changed in the
 * model from what each call returns (SESSION_CHANGED_*), never by
 * polling.  It also owns the raw sample buffer, the recording (-w) and
 * the OpenMetrics endpoint (--serve), which see every sample, and it is
 * the only door to its source: a replay's position, pace, diagnostics
 * and end are asked of the session, never of the source.
 *
 * The session prints nothing: what the user should know while it starts
 * is kept as notices (session_notice()), failures come back with a cause.
 */
#ifndef HVTOP_SESSION_H
#define HVTOP_SESSION_H

#include <stddef.h>
#include <stdint.h>

struct catalog;
struct engine;
struct engine_metric_def;
struct engine_snapshot;
struct raw_sample;
struct selection;
struct source;
struct topology;

/*
 * What the command line says to a session.  The strings and arrays are
 * the caller's and must outlive the session.
 */
struct session_opts {
	struct source	 *src;		/* open; the session closes it */
	int		  virtual_clock; /* time moves only by sleeping */
	int		  batch;	/* a replay then plays at full speed */
	double		  delay;	/* seconds between samples */
	int		  delay_set;	/* -d was given */
	double		  replay_speed;	/* 0: not given */
	char *const	 *groups;	/* -g specs */
	size_t		  ngroups;
	char *const	 *events;	/* -e specs */
	size_t		  nevents;
	char *const	 *metric_files;	/* -m files */
	size_t		  nmetric_files;
	char *const	 *consts;	/* --const NAME=VALUE */
	size_t		  nconsts;
	const char	 *record;	/* -w FILE, or NULL */
	uint64_t	  ring;		/* -w DIR's budget in bytes, or 0 */
	const char	 *serve;	/* --serve ADDR:PORT, or NULL */
	const char	 *web_config;	/* --web-config FILE, or NULL */
	int		  serve_vcpus;	/* --serve-vcpus */
};

/* What a call changed in the model (bits). */
#define SESSION_CHANGED_CATALOG		0x1	/* the catalog was reloaded */
#define SESSION_CHANGED_SELECTION	0x2	/* the selection was rebuilt */
#define SESSION_CHANGED_SEEK		0x4	/* a replay jumped */
/* Either of the first two: a new engine (views, columns, counters). */
#define SESSION_CHANGED_ENGINE \
	(SESSION_CHANGED_CATALOG | SESSION_CHANGED_SELECTION)

/* A pick: GROUP or EVENT[@domain][:INDEXLIST]. */
struct session_pick {
	const char	*spec;
	int		 event;		/* -e rather than -g */
};

/* Where the value of a named constant comes from. */
enum session_const_origin {
	SESSION_CONST_NONE,		/* nowhere: formulas show '?' */
	SESSION_CONST_OPTION,		/* --const, which wins */
	SESSION_CONST_FRAME,		/* the source (PB_Freq ...) */
};

struct session;

/*
 * Start a session on opts->src: read its topology and catalog, load the
 * metric files (-m, then $XDG_CONFIG_HOME/hvtop/metrics.d) and check
 * which metrics can never be computed (session_problem()).  Nothing is
 * selected yet: that is enough for --list.  Returns 0, or a negative
 * code with *cause set (caller frees): -HV_EUSAGE when an option names
 * what cannot be used.  *out is set either way, so that the notices
 * gathered before a failure can be shown; close it with session_close().
 * The source is the session's either way.
 */
int	 session_open(struct session **out, const struct session_opts *,
	    char **cause);
/*
 * Select what -g/-e say, else the recorded selection of a replay, else
 * the overview; build the engine; open the recording and the endpoint.
 * 0 or a negative code with *cause (-HV_EUSAGE: a -g/-e is wrong).
 */
int	 session_start(struct session *, char **cause);
/* Close everything; 0, or the recording's failure to close (*cause). */
int	 session_close(struct session *, char **cause);

/*
 * What one call that moves the session (session_sample(), session_seek())
 * gives back: all a caller needs until the next such call, so that it
 * asks the session nothing more.  Set even when the call failed.
 */
struct session_result {
	struct engine_snapshot *snap;	/* session_sample(): the snapshot
					   (caller frees it or hands it back
					   with session_recycle()); NULL on
					   failure and for a jump */
	unsigned	 changed;	/* SESSION_CHANGED_*: what changed in
					   the model during the call */
	/* Where a replay stands now; zero for a live source. */
	uint64_t	 position;	/* the number of the next sample */
	uint64_t	 total;		/* the samples it holds */
	int		 done;		/* every sample handed out: the next
					   sample fails, and that is the end
					   of the run, not an error */
	/* Host ns until the next sample is due: the interval for a live
	 * source; for a replay the recorded gap over the speed (0 while
	 * there is something to catch up), UINT64_MAX when none is. */
	uint64_t	 wait;
};

/*
 * One sample now, into *res.  res->changed says what changed in the
 * model during the call, even when it then failed: the recording may
 * have changed its selection, the catalog its version or the source its
 * partitions (then the engine's baselines restart).  Returns 0 with
 * res->snap set, or a negative code with *cause set (res->done says
 * whether that is the end of a replay).
 */
int	 session_sample(struct session *, struct session_result *res,
	    char **cause);
void	 session_recycle(struct session *, struct engine_snapshot *);
/*
 * Select exactly these picks (n == 0: nothing) and build a new engine.
 * All or nothing: 0 when the selection and the engine are new (as
 * SESSION_CHANGED_SELECTION says), or a negative code with *cause
 * ("SPEC: why") and the session as it was.
 */
int	 session_select(struct session *, const struct session_pick *,
	    size_t n, char **cause);
/*
 * The overview: the chip groups that hold the operands of the catalog's
 * formulas, on every chip, and a core group with cycles and instructions
 * on every core, resolved into *out (empty; caller clears).  0 or a
 * negative code with *cause.
 */
int	 session_overview(const struct session *, struct selection *out,
	    char **cause);
/*
 * Replay: jump so that the next sample is number index, with the catalog
 * the recording holds there (a jump back across a reload reloads the
 * older one) and the engine's baselines restarted.  *res as for
 * session_sample(), without a snapshot.  0 or a negative code with
 * *cause set.
 */
int	 session_seek(struct session *, uint64_t index,
	    struct session_result *res, char **cause);
/*
 * Replay: the number of the first sample recorded at or after t
 * (wall-clock ns since 1970), or the total: the replay does not move.
 * 0 with *index, or -HV_EUSAGE with *cause for a live source.
 */
int	 session_find(const struct session *, uint64_t t, uint64_t *index,
	    char **cause);
/* The interval between samples; a replay plays the recorded gaps
 * scaled to it. */
void	 session_set_delay(struct session *, double seconds);
double	 session_delay(const struct session *);

/* ---- pacing and the end of a run ---------------------------------- */

/*
 * Whether the run is over because a replay has handed out every sample:
 * session_sample() then fails, and every caller takes that failure as
 * the end of the run, not as an error.  0 for a live source.
 */
int	 session_done(const struct session *);
/*
 * When the next sample is due, on the caller's clock, whose time is now
 * just after a sample: now plus the interval for a live source; for a
 * replay, the recorded gap to the next sample over the speed (now while
 * there is something to catch up), or UINT64_MAX when no sample is due
 * (the end).
 */
uint64_t session_deadline(const struct session *, uint64_t now);

/* Where a replay stands (session_replay()). */
struct session_replay {
	uint64_t	 position;	/* the number of the next sample */
	uint64_t	 total;		/* the samples it holds */
	uint64_t	 first;		/* wall-clock ns of the first one */
	double		 speed;		/* 1 as recorded, 2 twice as fast */
	int		 damaged;	/* more than cut short: a failed run */
	size_t		 ndiags;	/* lines of session_replay_diag() */
};

/* Whether the source plays a recording: 1 with *out filled (out may be
 * NULL), or 0 with *out zeroed. */
int	 session_replay(const struct session *, struct session_replay *out);
/* What is wrong with the recording, one line each ("" past the last). */
const char *session_replay_diag(const struct session *, size_t);
/* "FILE: N samples; ... dropped ..." ("" for a live source); caller
 * frees. */
char	*session_replay_summary(const struct session *);

/* ---- the model, read-only; valid until a call above changes it ---- */

const struct catalog	*session_catalog(const struct session *);
/* "catalog v3 (20140120)", or "events from sysfs". */
const char		*session_catalog_label(const struct session *);
const struct topology	*session_topology(const struct session *);
const struct selection	*session_selection(const struct session *);
const struct engine	*session_engine(const struct session *);
/* A new engine like session_engine()'s, with no baselines: the same
 * catalog, selection, metrics and constants.  Caller frees. */
struct engine		*session_engine_new(const struct session *);
/*
 * hvtop's own per-core metrics, offered where the catalog has no formula
 * of the name: the share of a core's cycles it was not idle, and its
 * instructions per non-idle cycle.  The Frame map shows the first.
 */
#define SESSION_METRIC_BUSY	"hvtop_busy"
#define SESSION_METRIC_IPC	"hvtop_ipc"
#define SESSION_METRIC_ORIGIN	"hvtop"

/* The metric definitions: the metric files', in file order, then
 * hvtop's own that this catalog can compute (origin "hvtop"). */
const struct engine_metric_def *session_metrics(const struct session *);
size_t			 session_nmetrics(const struct session *);
/* "FILE:LINE:COLUMN: metric NAME: why no selection can compute it". */
const char		*session_problem(const struct session *, size_t);
size_t			 session_nproblems(const struct session *);
/* Notices gathered while starting ("" past the last). */
const char		*session_notice(const struct session *, size_t);
size_t			 session_nnotices(const struct session *);
/* The last raw sample read. */
const struct raw_sample	*session_raw(const struct session *);
/* The source's name ("sim", "perf", "replay") and label, for headers. */
const char		*session_kind(const struct session *);
const char		*session_label(const struct session *);
/* What the source's reads are: "hcalls", or "group reads" (perf). */
const char		*session_calls_word(const struct session *);
/* Whether -w is recording. */
int			 session_recording(const struct session *);
/* Whether a write of the recording failed: it takes no more samples. */
int			 session_record_failed(const struct session *);
/*
 * After a write of the recording failed: where the file now ends, as a
 * sentence ("the recording FILE is incomplete: ..."); NULL while the
 * recording is whole or there is none.  Caller frees.
 */
char			*session_record_failure(struct session *);
/*
 * The value of a named constant and where it comes from; *text (may be
 * NULL) is the value as --const wrote it, NULL otherwise.
 */
enum session_const_origin session_constant(const struct session *,
	    const char *name, double *value, const char **text);
/*
 * Where the frame's value of a constant (SESSION_CONST_FRAME) comes from:
 * a file the partition read ("/proc/device-tree/cpus/.../clock-frequency")
 * or "the frame".  Owned by the session's source.
 */
const char	*session_constant_origin(const struct session *,
	    const char *name);

/* ---- time --------------------------------------------------------- */

/* Whether the clock is virtual (moves only by sleeping). */
int	 session_clock_virtual(const struct session *);
/* Now, ns since the session's clock started. */
uint64_t session_now(struct session *);
/* A time of the clock as wall-clock ns since 1970. */
uint64_t session_wall(struct session *, uint64_t t);
/* Read --web-config's file again and use its users; 0, or a negative
 * code with *cause (the endpoint keeps the configuration it had). */
int	 session_web_reload(struct session *, char **cause);
/* Sleep until t, or until fd (>= 0) is readable: 1 then, else 0. */
int	 session_sleep_until(struct session *, uint64_t t, int fd);

#endif /* HVTOP_SESSION_H */
