/*
 * The hvtop program: options and the pieces main() wires together.  Shared
 * by the batch loop (hvtop.c), the setup (hvtop-setup.c) and the terminal
 * interface (ui/), which drives the same source and engine.
 */
#ifndef HVTOP_HVTOP_H
#define HVTOP_HVTOP_H

#include <stdio.h>

#include "engine/engine.h"
#include "engine/selection.h"
#include "source/source.h"
#include "util/clock.h"

struct catalog;
struct papi_model;
struct record_file;
struct serve;

struct hvtop_opts {
	int		 batch;
	double		 delay;		/* seconds */
	int		 delay_set;	/* -d was given */
	long		 count;		/* -1: forever */
	const char	*output;
	int		 format;	/* enum export_format */
	const char	*source;
	char		*source_args;	/* -O and --sim, joined by commas */
	const char	*catalog;
	const char	*list;
	const char	*pattern;
	const char	*pmu;
	const char	*sysfs_root;
	int		 no_color;
	char		**groups;
	size_t		 ngroups;
	char		**events;
	size_t		 nevents;
	char		**metric_files;
	size_t		 nmetric_files;
	char		**consts;	/* NAME=VALUE */
	size_t		 nconsts;
	const char	*record;	/* -w FILE */
	int		 force;		/* --force: -w may write over a file */
	double		 replay_speed;	/* --replay-speed, 0: not given */
	char		*replay_spec;	/* "replay:FILE" for -r FILE */
	const char	*serve;		/* --serve ADDR:PORT */
};

/* A place in a metric file. */
struct hvtop_pos {
	unsigned long	 line;
	unsigned long	 column;
};

struct hvtop {
	struct hvtop_opts opts;
	struct hv_clock	 clock;
	struct source	*src;
	struct catalog	*cat;
	const struct catalog *catp;	/* cat, or one the source owns */
	struct topology	 topo;
	char		*catalog_label;
	struct selection sel;
	struct engine	*engine;
	struct papi_model **papi;
	size_t		 npapi;
	struct engine_metric_def *defs;
	size_t		 ndefs;
	struct hvtop_pos *defpos;	/* per def: where its file says it */
	char		**problems;	/* metrics no selection can compute:
					   "FILE:LINE:COLUMN: metric ..." */
	size_t		 nproblems;
	char		**skipped;	/* formulas the engine could not use */
	size_t		 nskipped;
	unsigned	 generation;	/* bumped when the engine is rebuilt */
	struct engine_snapshot *spare;	/* memory for the next snapshot */
	char		 note[256];	/* for the next snapshot shown */
	struct record_file *rec;	/* -w: the recording, or NULL */
	struct serve	*serve;		/* --serve: the endpoint, or NULL */
};

/* Open the source, read the catalog, build selection and engine.  0 or
 * an exit status, with the message printed. */
int	 hvtop_setup(struct hvtop *);
void	 hvtop_teardown(struct hvtop *);
/* Rebuild the engine after the selection changed. */
int	 hvtop_reselect(struct hvtop *, char **cause);
/*
 * One sample now: 0 with *snap set (caller frees, or hands it back with
 * hvtop_recycle() so the next sample reuses its memory), or a negative
 * code with *cause set.
 */
int	 hvtop_sample(struct hvtop *, struct raw_sample *,
	    struct engine_snapshot **snap, char **cause);
void	 hvtop_recycle(struct hvtop *, struct engine_snapshot *);
/*
 * Replay: jump so that the next sample is number index, with the catalog
 * the recording holds there (a jump back across a reload reloads the
 * older one) and the engine's baselines restarted.  0 or a negative code
 * with *cause set.
 */
int	 hvtop_replay_seek(struct hvtop *, uint64_t index, char **cause);
/* What the source counts a refresh's reads in: "hcalls", or "group
 * reads" for perf's file descriptors. */
const char *hvtop_calls_word(const struct hvtop *);
/*
 * Compile every metric (the catalog's and the metric files') against the
 * whole catalog, whatever is selected, and collect in h->problems one line
 * for each that can never be computed: a cycle, nesting too deep, a name
 * that a catalog event or formula already has.  Returns the count.
 */
size_t	 hvtop_check_metrics(struct hvtop *);
/* Add the overview selection (no -g/-e) to h->sel. */
int	 hvtop_overview(struct hvtop *, char **cause);
/* --list events|groups|formulas [PATTERN] */
int	 hvtop_list(struct hvtop *, FILE *);
/* The terminal interface (ui/); returns the exit status. */
int	 hvtop_interactive(struct hvtop *);

#endif /* HVTOP_HVTOP_H */
