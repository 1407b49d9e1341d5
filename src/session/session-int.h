/*
 * The session's state, shared by session.c (start, sampling, reloads),
 * session-metrics.c (metric files and what they cannot compute),
 * session-overview.c (what is shown without picks) and session-replay.c
 * (what only a recording can do).  Nothing outside these files looks
 * inside.
 */
#ifndef HVTOP_SESSION_INT_H
#define HVTOP_SESSION_INT_H

#include <stddef.h>
#include <stdint.h>

#include "session/session.h"
#include "source/source.h"
#include "sys/clock.h"

struct catalog_event;
struct formula_ref;
struct papi_model;
struct perfjson_model;
struct serve;
struct session_record;

/* A place in a metric file. */
struct session_pos {
	unsigned long	 line;
	unsigned long	 column;
};

/* A --const, parsed once. */
struct session_const {
	char		*name;
	double		 value;
	const char	*text;		/* the value as written */
};

struct session {
	struct session_opts opts;
	struct hv_clock	 clock;
	double		 interval;		/* seconds */
	struct source	*src;
	const struct source_control *ctl;	/* NULL: a live source */
	int		 follow;	/* the next recorded sample has another
					   selection: follow it first */
	struct topology	 topo;
	int		 lpars_asked;	/* the source was asked for the
					   frame's partitions */
	struct catalog	*cat;		/* parsed here, or NULL */
	const struct catalog *catp;	/* cat, or one the source owns */
	char		*catalog_label;

	/* Metric files: the models, their definitions and paths. */
	struct papi_model **papi;
	size_t		 npapi;
	struct perfjson_model **perfjson;	/* perf's metric JSON files */
	size_t		 nperfjson;
	char		**paths;	/* what the definitions' origin is */
	size_t		 npaths;
	struct engine_metric_def *defs;
	size_t		 ndefs;
	struct session_pos *defpos;	/* per def: where its file says it */
	char		**problems;
	size_t		 nproblems;
	struct session_const *consts;
	size_t		 nconsts;

	struct selection *sel;		/* engine and source point at it */
	struct engine	*engine;
	struct raw_sample rs;		/* sized for sel */
	struct engine_snapshot *spare;	/* memory for the next snapshot */
	unsigned	 generation;	/* engines so far, for the endpoint */
	char		 note[256];	/* for the next snapshot shown */

	char		**notices;
	size_t		 nnotices;
	struct session_record *rec;	/* -w, or NULL */
	int			 rec_lost;	/* -w DIR could not be opened */
	struct serve	*serve;		/* --serve, or NULL */
};

/* Keep a notice for the caller (takes text). */
void	 session_notify(struct session *, char *text);
/*
 * The catalog changed to version: parse it again and resolve the picks
 * anew; a cause says what set it off.
 */
int	 session_reload(struct session *, uint64_t version, char **cause);

/* ---- session-replay.c ---------------------------------------------- */

/* A recording drives the clock: its epoch, its pace, its diagnostics. */
void	 session_replay_start(struct session *);
/* The interval the recording was made with, in seconds (1 if none). */
double	 session_replay_interval(const struct session *);
/*
 * After a sample, a jump or a new selection: where a replay stands and
 * when the next sample is due, into res (may be NULL), and whether the
 * recording changes its selection before the next sample (follow).
 */
void	 session_state(struct session *, struct session_result *res);

/* ---- session-metrics.c --------------------------------------------- */

/*
 * Load -m files (a file that cannot be read: -HV_EUSAGE) and then every
 * file of the metrics.d directory, in name order.
 */
int	 session_metrics_load(struct session *, char **cause);
/* Collect in s->problems the metrics no selection can compute. */
void	 session_metrics_check(struct session *);
void	 session_metrics_free(struct session *);

/*
 * The one resolver of names in formulas outside the engine: catalog
 * events (by name or sysfs name) are events, collected in order;
 * catalog formulas, then the given metric definitions, are formulas;
 * the interval's specials are refused; anything else is a constant.
 */
struct session_resolver {
	const struct catalog		 *cat;
	const struct engine_metric_def	**byname;	/* sorted, or NULL */
	size_t				  nbyname;
	const struct catalog_event	**events;	/* what was read */
	size_t				  nevents;
	size_t				  cap;
};
int	 session_resolve(void *resolver, const char *name,
	    struct formula_ref *);

#endif /* HVTOP_SESSION_INT_H */
