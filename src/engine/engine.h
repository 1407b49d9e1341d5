/*
 * The sampling engine: successive raw samples in, snapshots out.  It
 * computes every delta (in one place, modulo 2^64), rates over the
 * interval, and metric values per index and in total.  It owns no clock
 * and draws nothing: the caller hands it samples stamped with the time
 * they were taken and renders the snapshots it returns.
 *
 * A snapshot is organised in views, one per domain in the selection
 * (chips, cores, virtual processors).  A view's rows are the indices any
 * pick of that domain covers, plus a total; its columns are the events of
 * those picks, then the metrics that can be computed from them.  A cell
 * whose index the column's pick does not cover is absent.
 *
 * A metric is computed over operands of one span: in a row, every event
 * it reads must cover the same samples (a read that failed leaves its
 * counter's next delta over more of them), and delta-seconds is theirs;
 * a row whose operands cover different spans has no value (ENG_SPLIT).
 *
 * The total row covers the mean of its rows' intervals.  An event's total
 * is the sum of the rows' rates, and its count that rate over the total's
 * interval; rows whose intervals differ (chips updated at different times)
 * add up as rates, never as counts over one row's interval.  A metric's
 * total sums those counts over the rows first and evaluates once, so a
 * ratio's total is the ratio of the sums; a metric whose unit is a
 * frequency (Hz ... GHz) shows the mean of its rows' values instead, since
 * frequencies do not add up.  A formula that takes a remainder or an
 * integer quotient (mod, rem, % and //) has one rule, whatever its unit:
 * it is evaluated as over one interval of the total's seconds, every
 * operand a whole number (those sums and delta-timebase rounded to the
 * nearest), so that it agrees with the summed rates over those seconds.
 */
#ifndef HVTOP_ENGINE_H
#define HVTOP_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "formula/formula.h"
#include "model/selection.h"

struct catalog;
struct catalog_event;
struct raw_sample;
struct selection;

/* Why a cell has no number. */
enum engine_status {
	ENG_OK = 0,
	ENG_ABSENT,		/* not selected for this index */
	ENG_NOBASE,		/* first sample: no delta yet */
	ENG_FAILED,		/* the read failed */
	ENG_DENIED,		/* no permission */
	ENG_BUSY,		/* the hypervisor was busy */
	ENG_MISSING,		/* the result did not carry it */
	ENG_BACKWARDS,		/* the counter went backwards */
	ENG_STALE,		/* no accumulator update since last sample */
	ENG_NOVALUE,		/* a metric cannot be computed: see reason */
	ENG_NOTYET,		/* the record was not updated yet: a rate
				   needs two distinct updates */
	ENG_RESTART,		/* no good read before (all failed, or
				   went backwards): a new baseline */
	ENG_SPLIT,		/* a metric whose operands cover
				   different intervals (a read of one
				   failed in between): operand is the
				   evslots[] entry that differs */
};

struct engine_cell {
	double		 value;		/* rate per second, or metric value */
	double		 delta;		/* events in the interval */
	uint8_t		 status;	/* enum engine_status */
	uint8_t		 reason;	/* ENG_NOVALUE: enum formula_reason,
					   or a derived cell's reason
					   (engine_derive_reason()) */
	int16_t		 operand;	/* ... and the operand without value */
	uint8_t		 estimated;	/* ENG_OK, but the value rests on a
					   read perf multiplexed (RAW_SCALED):
					   an estimate */
	uint8_t		 counted;	/* ... the least percent of its
					   interval such a read counted, 0
					   when not known */
	uint16_t	 span;		/* ENG_OK event cell: the samples
					   its delta covers (1: the last
					   interval; more after failed
					   reads); 0 for a sum of parts
					   over different ones */
};

/* A metric definition offered to the engine (from -m files or settings). */
struct engine_metric_def {
	const char	*name;
	const char	*text;		/* RPN or infix */
	const char	*unit;
	const char	*desc;
	const char	*origin;	/* "catalog", a file name ... */
	const char	*group;		/* perf's MetricGroup, or NULL */
	int		 replaces;	/* used instead of the catalog's
					   formula of the same name */
};

struct engine_metric {
	char		*name;
	char		*unit;
	char		*desc;
	char		*origin;
	char		*group;		/* NULL when the definition has none */
	char		*text;		/* as defined: RPN or infix */
	struct formula	*formula;
	size_t		*evslots;	/* the view columns it reads, once */
	size_t		 nevslots;
	int		 mean_total;	/* a frequency: total is the mean */
	int		 whole_counts;	/* mod or rem: the total's counts,
					   scaled to its interval, and its
					   ticks are rounded to whole ones,
					   never a mean of rows */
};

#define ENG_NONE	((size_t)-1)

/*
 * The two partition views, made from the selection's SEL_DOMAIN_LPAR
 * picks.  ENG_VIEW_LPAR has a row per partition (index: its id, 0xffff
 * for "this partition" when its id is not known) summing its virtual
 * processors; ENG_VIEW_LPAR_VCPU a row per virtual processor (index:
 * lpar << 16 | vcpu).  An event cell of either is the sum of the
 * placements read; engine_place_cell() gives each placement.
 */
#define ENG_VIEW_LPAR		SEL_DOMAIN_LPAR
#define ENG_VIEW_LPAR_VCPU	8
#define ENG_ROW_LPAR(index)	((uint16_t)((index) >> 16))
#define ENG_ROW_VCPU(index)	((uint16_t)((index) & 0xffff))

struct engine_view {
	int		 domain;	/* 1..6, CPU, or ENG_VIEW_LPAR* */
	const char	*term;		/* "chip", "core", "vcpu", "lpar" */
	unsigned	*indices;	/* the rows, ascending; then total */
	size_t		 nrows;		/* without the total row */
	const struct catalog_event **events;	/* event columns */
	size_t		 nevents;
	size_t		*pick_of;	/* per event column: its pick */
	size_t		*counter;	/* [row * nevents + col] or ENG_NONE */
	struct engine_metric *metrics;
	size_t		 nmetrics;
	/* Partition views only (else 0 and NULL): */
	size_t		 nplaces;	/* SEL_NPLACES */
	unsigned	 places;	/* bit p: some counter of place p */
	size_t		*place_counter;	/* [(row * nevents + col) * nplaces
					   + p] or ENG_NONE */
	unsigned	*vcpus;		/* ENG_VIEW_LPAR: per row, the
					   virtual processors it sums */
	size_t		 nderived;	/* the columns it derives, after
					   the metrics (engine-lpar.h) */
};

struct engine_snapshot {
	uint64_t	 seq;		/* 0 for the first sample */
	uint64_t	 now;		/* host time of the sample, ns */
	double		 elapsed;	/* seconds since the previous sample */
	unsigned	 calls;
	unsigned	 naive_calls;
	uint64_t	 catalog_version;
	char		 error[256];
	size_t		 nviews;
	/* Per view: (nrows + 1) x (nevents + nmetrics) cells, row-major;
	 * row nrows is the total; a partition view's placements' cells
	 * follow (engine_place_cell()), then its derived cells, row by
	 * row, and ncells counts them too.  Per
	 * row: its interval in seconds (the total's: the mean over the rows
	 * that have one). */
	struct engine_cell **cells;
	double		**row_interval;
	size_t		*ncells;	/* per view, for reuse */
	uint64_t	*raw;		/* per selection counter */
	size_t		 nraw;
};

struct engine;

/*
 * Create an engine for a selection (kept by pointer, as is the catalog);
 * timebase_hz converts record timebases to seconds (0: host time only).
 * Catalog formulas and the defs are compiled for every view whose events
 * hold their operands; *skipped (may be NULL) receives one allocated line
 * per formula that could not be used, with the reason (caller frees the
 * array and the lines).
 */
struct engine	*engine_new(const struct catalog *, const struct selection *,
		    uint64_t timebase_hz, const struct engine_metric_def *,
		    size_t ndefs, char ***skipped, size_t *nskipped);
void		 engine_free(struct engine *);

/* Named constants (PB_Freq ...) used by formulas; later calls win. */
void		 engine_set_constant(struct engine *, const char *, double);
/* The name of the i-th constant the formulas use, or NULL past the end. */
const char	*engine_constant_name(const struct engine *, size_t);

/* The views, valid for the engine's life. */
size_t		 engine_nviews(const struct engine *);
const struct engine_view *engine_view(const struct engine *, size_t);

/*
 * Take one raw sample (sample->values in selection order).  Returns a new
 * snapshot (caller frees with engine_snapshot_free()).
 */
struct engine_snapshot *engine_update(struct engine *,
		    const struct raw_sample *);
/*
 * The same, taking ownership of old (a snapshot the caller no longer
 * needs, or NULL) and reusing its memory when it has the right shape: a
 * refresh then allocates nothing.
 */
struct engine_snapshot *engine_update_reuse(struct engine *,
		    const struct raw_sample *, struct engine_snapshot *old);
void		 engine_snapshot_free(struct engine_snapshot *);

/*
 * Totals of a whole run (counting over a command, as perf stat does): a
 * total's count is the sum of its rows' counts as counted, and so is a
 * partition's or a virtual processor's sum of its parts, never a rate
 * over a mean of seconds; such a cell's rate is that count over its
 * seconds.  So every view that reads a counter counts the same events.
 */
void		 engine_count_whole(struct engine *, int on);

/* Forget the baselines (a catalog reload): the next sample has no delta. */
void		 engine_rebase(struct engine *);

/*
 * Cell of a view: row nrows is the total; col >= nevents is a metric,
 * col >= nevents + nmetrics a partition view's derived cell (IPC, cores,
 * shares: engine_derive_col()).
 */
const struct engine_cell *engine_cell(const struct engine *,
		    const struct engine_snapshot *, size_t view, size_t row,
		    size_t col);
/*
 * The cell of placement p (0..3: domain 3..6) of an event column (col <
 * nevents) of a partition view; row nrows is the total.  Its value is
 * the placement's rate, so the four add up to engine_cell()'s.  NULL
 * for other views and metric columns.
 */
const struct engine_cell *engine_place_cell(const struct engine *,
		    const struct engine_snapshot *, size_t view, size_t row,
		    size_t col, size_t p);
/*
 * m's formula in infix notation for display (caller frees): converted
 * when shown, not for every metric at start-up.
 */
char		*engine_metric_infix(const struct engine_metric *m);

/*
 * Why a cell has no number, for a user; allocated (caller frees).  Every
 * cell without a value has one: the read's status ("not updated yet",
 * "the read failed" ...) or the metric's reason ("division by zero",
 * "unknown constant PB_Freq: set it with --const PB_Freq=VALUE", "X has
 * no value" ...).  A cell whose value is an estimate says so ("estimated:
 * counted 62 % of the interval"); any other cell that has a value says
 * "ok".
 */
char		*engine_explain(const struct engine *,
		    const struct engine_snapshot *, size_t view, size_t row,
		    size_t col);
/*
 * How text shows a cell without a value: "?" for a metric that cannot be
 * computed (an unknown constant, a square root of a negative number ...),
 * "-" for everything else, a division by zero included; NULL for a cell
 * that has a value.
 */
const char	*engine_cell_mark(const struct engine_cell *);
const char	*engine_status_name(int);

/*
 * The only subtraction of counter values in hvtop: cur - prev modulo
 * 2^64.  A difference of 2^63 or more means the counter went backwards
 * (the kernel's failure path does this); *backwards is set and 0 returned.
 */
uint64_t	 engine_delta(uint64_t prev, uint64_t cur, int *backwards);

#endif /* HVTOP_ENGINE_H */
