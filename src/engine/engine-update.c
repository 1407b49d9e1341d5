/*
 * Samples into snapshots: each counter's delta, modulo 2^64, and the
 * seconds it covers; rates, metric values and totals per view.  A read
 * that failed keeps its counter's baseline, one that went backwards drops
 * it.  Pure: the caller hands in the sample and its time.
 */
#include "config.h"

#include "engine/engine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine-int.h"
#include "model/raw.h"
#include "model/selection.h"
#include "util/xalloc.h"

/* The one place where a delta is taken (engine-int.h). */
uint64_t
engine_delta(uint64_t prev, uint64_t cur, int *backwards)
{
	return (engine_delta_of(prev, cur, backwards));
}

static void
engine_eval(struct engine *e, const struct engine_metric *m,
    const double *events, size_t nevents, double secs, double tb,
    struct engine_cell *cell)
{
	struct formula_env	 env;
	struct formula_value	 fv;
	double			 special[FORMULA_NSPECIAL];

	special[FORMULA_DELTA_TIMEBASE] = tb;
	special[FORMULA_DELTA_CYCLES] = FORMULA_NOVALUE;
	special[FORMULA_DELTA_INSTRUCTIONS] = FORMULA_NOVALUE;
	special[FORMULA_DELTA_SECONDS] = secs;
	memset(&env, 0, sizeof env);
	env.values[FORMULA_EVENT] = events;
	env.nvalues[FORMULA_EVENT] = nevents;
	env.values[FORMULA_CONST] = e->const_values;
	env.nvalues[FORMULA_CONST] = e->nconsts;
	env.values[FORMULA_SPECIAL] = special;
	env.nvalues[FORMULA_SPECIAL] = FORMULA_NSPECIAL;
	fv = formula_eval(m->formula, &env);
	cell->delta = 0;
	cell->reason = (uint8_t)fv.reason;
	cell->operand = (int16_t)fv.operand;
	if (fv.ok) {
		cell->value = fv.value;
		cell->status = ENG_OK;
	} else {
		cell->value = 0;
		cell->status = ENG_NOVALUE;
	}
}

/*
 * The status a metric takes from its event operands in a row, before
 * evaluation: ENG_OK when every one has a value.
 */
static uint8_t
engine_metric_inputs(const struct engine_metric *m,
    const struct engine_cell *row)
{
	size_t	 k;

	for (k = 0; k < m->nevslots; k++) {
		if (row[m->evslots[k]].status != ENG_OK)
			return (row[m->evslots[k]].status);
	}
	return (ENG_OK);
}

/*
 * Whether a metric's operands in a row (each with a value) cover one
 * span: the same samples, not merely as many seconds.  A count over
 * two intervals set against one over the last would be half a rate, or
 * twice one.  Returns the evslots[] entry that differs, or ENG_NONE.
 */
static size_t
engine_metric_split(const struct engine_metric *m,
    const struct engine_cell *row)
{
	uint16_t	 span = row[m->evslots[0]].span;
	size_t		 k;

	for (k = 0; k < m->nevslots; k++) {
		if (row[m->evslots[k]].span != span || span == 0)
			return (k);
	}
	return (ENG_NONE);
}

/*
 * Which rows of view i have event cells over more than one span (after
 * a failed read of some of their counters), into e->mixed: a refresh
 * asks every metric of every row, and in the others no metric can mix
 * spans.
 */
static void
engine_update_mixed(struct engine *e, const struct engine_snapshot *s,
    size_t i)
{
	const struct engine_view	*v = &e->views[i];
	const struct engine_cell	*row;
	size_t				 r, col;
	size_t				 ncol = v->nevents + v->nmetrics;
	uint16_t			 span;

	for (r = 0; r < v->nrows; r++) {
		row = &s->cells[i][r * ncol];
		span = 0;
		e->mixed[r] = 0;
		for (col = 0; col < v->nevents; col++) {
			if (row[col].status != ENG_OK)
				continue;
			if (row[col].span == 0 || (span != 0 &&
			    row[col].span != span)) {
				e->mixed[r] = 1;
				break;
			}
			span = row[col].span;
		}
	}
}

/* Whether old has the shape of e's snapshots. */
static int
engine_snapshot_fits(const struct engine *e, const struct engine_snapshot *s)
{
	const struct engine_view	*v;
	size_t				 i;

	if (s->nviews != e->nviews || s->nraw != e->sel->ncounters)
		return (0);
	for (i = 0; i < e->nviews; i++) {
		v = &e->views[i];
		if (s->ncells[i] != engine_lpar_ncells(v))
			return (0);
	}
	return (1);
}

static struct engine_snapshot *
engine_snapshot_new(const struct engine *e)
{
	const struct engine_view	*v;
	struct engine_snapshot		*s;
	size_t				 i;

	s = xcalloc(1, sizeof *s);
	s->nviews = e->nviews;
	s->nraw = e->sel->ncounters;
	s->raw = xcalloc(s->nraw + 1, sizeof *s->raw);
	s->cells = xcalloc(e->nviews + 1, sizeof *s->cells);
	s->row_interval = xcalloc(e->nviews + 1, sizeof *s->row_interval);
	s->ncells = xcalloc(e->nviews + 1, sizeof *s->ncells);
	for (i = 0; i < e->nviews; i++) {
		v = &e->views[i];
		s->ncells[i] = engine_lpar_ncells(v);
		s->cells[i] = xmalloc_huge(s->ncells[i] + 1,
		    sizeof **s->cells);
		memset(s->cells[i], 0, (s->ncells[i] + 1) *
		    sizeof **s->cells);
		s->row_interval[i] = xcalloc(v->nrows + 1, sizeof (double));
	}
	return (s);
}

void
engine_estimate_from(struct engine_cell *c, const struct engine_cell *from)
{
	if (c->status != ENG_OK || !from->estimated)
		return;
	c->counted = c->estimated && c->counted < from->counted ?
	    c->counted : from->counted;
	c->estimated = 1;
}

/* The metric cells of a row (or the total) whose operands are estimates. */
static void
engine_estimate_metrics(const struct engine_view *v, struct engine_cell *row)
{
	const struct engine_metric	*m;
	size_t				 j, k;

	for (j = 0; j < v->nmetrics; j++) {
		m = &v->metrics[j];
		for (k = 0; k < m->nevslots; k++)
			engine_estimate_from(&row[v->nevents + j],
			    &row[m->evslots[k]]);
	}
}

/*
 * Mark the cells whose values rest on reads perf multiplexed: an event
 * cell read as RAW_SCALED, a total over such cells, a metric with such
 * an operand.  Each keeps the least share of its interval counted.
 */
static void
engine_estimates(const struct engine *e, struct engine_snapshot *s,
    const struct raw_sample *rs, int scaled)
{
	const struct engine_view	*v;
	const struct raw_value		*rv;
	struct engine_cell		*row, *tot;
	size_t				 i, r, col, k, ncol;

	/* Most sources never estimate: then there is nothing to mark. */
	if (!scaled)
		return;
	for (i = 0; i < e->nviews; i++) {
		v = &e->views[i];
		ncol = v->nevents + v->nmetrics;
		tot = &s->cells[i][v->nrows * ncol];
		for (r = 0; r < v->nrows; r++) {
			row = &s->cells[i][r * ncol];
			/* A partition view's cells were marked as they were
			 * summed: only its total and metrics are left. */
			for (col = 0; v->place_counter != NULL &&
			    col < v->nevents; col++)
				engine_estimate_from(&tot[col], &row[col]);
			for (col = 0; v->place_counter == NULL &&
			    col < v->nevents; col++) {
				k = v->counter[r * v->nevents + col];
				if (row[col].status != ENG_OK ||
				    k >= rs->nvalues)
					continue;
				rv = &rs->values[k];
				if (rv->status != RAW_SCALED)
					continue;
				row[col].estimated = 1;
				row[col].counted = rv->counted < 100 ?
				    rv->counted : 0;
				engine_estimate_from(&tot[col], &row[col]);
			}
			engine_estimate_metrics(v, row);
		}
		engine_estimate_metrics(v, tot);
	}
}

struct engine_snapshot *
engine_update(struct engine *e, const struct raw_sample *rs)
{
	return (engine_update_reuse(e, rs, NULL));
}

/*
 * A snapshot to fill for rs: old when it fits, and rs's own fields.
 * *scaled: whether some value of rs is an estimate (RAW_SCALED), seen
 * in the same pass over them.
 */
static struct engine_snapshot *
engine_update_begin(struct engine *e, const struct raw_sample *rs,
    struct engine_snapshot *old, int *scaled)
{
	struct engine_snapshot	*s;
	size_t			 k, n;
	int			 sc = 0;

	if (old != NULL && engine_snapshot_fits(e, old))
		s = old;
	else {
		engine_snapshot_free(old);
		s = engine_snapshot_new(e);
	}
	s->seq = e->seq++;
	s->now = rs->now;
	s->elapsed = e->seq > 1 ? (double)(rs->now - e->last_now) / 1e9 : 0;
	e->last_now = rs->now;
	s->calls = rs->calls;
	s->naive_calls = rs->naive_calls;
	s->catalog_version = rs->catalog_version;
	memcpy(s->error, rs->error, sizeof s->error);
	s->error[sizeof s->error - 1] = '\0';
	n = rs->nvalues < s->nraw ? rs->nvalues : s->nraw;
	for (k = 0; k < n; k++) {
		s->raw[k] = rs->values[k].value;
		sc |= rs->values[k].status == RAW_SCALED;
	}
	for (; k < s->nraw; k++)
		s->raw[k] = 0;
	for (; k < rs->nvalues; k++)
		sc |= rs->values[k].status == RAW_SCALED;
	*scaled = sc;
	return (s);
}

/*
 * View i's event cells, row by row, and each row's interval.  Returns the
 * total's interval: the mean of its rows' intervals, so that its counts
 * (each row's rate over that interval) give rates that are the sums of
 * the rows' rates however much the rows' intervals differ.
 */
static double
engine_update_events(struct engine *e, struct engine_snapshot *s, size_t i,
    const struct raw_sample *rs)
{
	const struct engine_view	*v = &e->views[i];
	struct engine_cell		*row, *c;
	double				 secs, d, tsecs = 0;
	size_t				 r, col, k, nsecs = 0;
	size_t				 ncol = v->nevents + v->nmetrics;

	for (r = 0; r < v->nrows; r++) {
		row = &s->cells[i][r * ncol];
		secs = 0;
		for (col = 0; col < v->nevents; col++) {
			c = &row[col];
			e->csecs[r * v->nevents + col] = 0;
			k = v->counter[r * v->nevents + col];
			if (k == ENG_NONE || k >= rs->nvalues) {
				c->status = k == ENG_NONE ? ENG_ABSENT :
				    ENG_MISSING;
				continue;
			}
			c->status = engine_counter(e, k, &rs->values[k],
			    rs->now, &c->delta, &d, &c->span);
			if (c->status == ENG_OK) {
				c->value = c->delta / d;
				e->csecs[r * v->nevents + col] = d;
				if (secs == 0)
					secs = d;
			}
		}
		s->row_interval[i][r] = secs;
		if (secs > 0) {
			tsecs += secs;
			nsecs++;
		}
	}
	return (nsecs > 0 ? tsecs / (double)nsecs : 0);
}

/*
 * Each row's deltas once, NaN where there is none, into e->scratch; then
 * the same counts scaled to the total's interval tsecs into e->norm (as
 * counted, for a whole run's totals).
 */
static void
engine_update_norm(struct engine *e, const struct engine_snapshot *s,
    size_t i, double tsecs)
{
	const struct engine_view	*v = &e->views[i];
	const struct engine_cell	*row;
	double				*vals = e->scratch;
	size_t				 r, col, k;
	size_t				 ncol = v->nevents + v->nmetrics;

	for (r = 0; r < v->nrows; r++) {
		row = &s->cells[i][r * ncol];
		for (col = 0; col < v->nevents; col++) {
			k = r * v->nevents + col;
			if (row[col].status != ENG_OK) {
				vals[k] = e->norm[k] = FORMULA_NOVALUE;
				continue;
			}
			vals[k] = row[col].delta;
			e->norm[k] = e->csecs[k] == tsecs || e->counting ?
			    row[col].delta : row[col].value * tsecs;
		}
	}
}

/*
 * View i's event totals: a failed row fails the total.  A whole run's
 * rate is its count over the total's seconds, so that rate and seconds
 * give back what was counted.
 */
static void
engine_update_event_totals(const struct engine *e, struct engine_snapshot *s,
    size_t i)
{
	const struct engine_view	*v = &e->views[i];
	const struct engine_cell	*row;
	struct engine_cell		*c;
	double				 tsecs = s->row_interval[i][v->nrows];
	size_t				 r, col;
	size_t				 ncol = v->nevents + v->nmetrics;
	uint8_t				 st;

	for (col = 0; col < v->nevents; col++) {
		c = &s->cells[i][v->nrows * ncol + col];
		c->status = ENG_ABSENT;
		for (r = 0; r < v->nrows; r++) {
			row = &s->cells[i][r * ncol];
			st = row[col].status;
			if (st == ENG_ABSENT)
				continue;
			if (st != ENG_OK) {
				c->status = st;
				break;
			}
			c->status = ENG_OK;
			c->delta += e->norm[r * v->nevents + col];
			c->value += row[col].value;
		}
		if (c->status != ENG_OK)
			c->delta = c->value = 0;
		else if (e->counting && tsecs > 0)
			c->value = c->delta / tsecs;
	}
}

/*
 * Metric j of view i in every row, summing its operands' counts in
 * e->sums; returns the total's status so far (ENG_OK when every row that
 * has the metric has a value), the rows with a value in *nrowok, the sum
 * of their values in *mean and the first cell that failed to evaluate in
 * *bad.
 */
static uint8_t
engine_update_metric_rows(struct engine *e, struct engine_snapshot *s,
    size_t i, size_t j, size_t *nrowok, double *mean,
    const struct engine_cell **bad)
{
	const struct engine_view	*v = &e->views[i];
	const struct engine_metric	*m = &v->metrics[j];
	struct engine_cell		*row, *c;
	double				 secs;
	size_t				 r, k, split;
	size_t				 ncol = v->nevents + v->nmetrics;
	uint8_t				 st = ENG_ABSENT;

	for (k = 0; k < m->nevslots; k++)
		e->sums[m->evslots[k]] = 0;
	for (r = 0; r < v->nrows; r++) {
		row = &s->cells[i][r * ncol];
		c = &row[v->nevents + j];
		c->status = engine_metric_inputs(m, row);
		if (c->status == ENG_ABSENT)
			continue;
		if (c->status != ENG_OK) {
			/* A row without a value fails the total: a partial
			 * sum is wrong. */
			if (st == ENG_ABSENT || st == ENG_OK)
				st = c->status;
			continue;
		}
		/* The seconds its operands cover: the row's, unless its
		 * columns cover several spans. */
		secs = s->row_interval[i][r];
		split = ENG_NONE;
		if (e->mixed[r]) {
			split = engine_metric_split(m, row);
			secs = e->csecs[r * v->nevents + m->evslots[0]];
		}
		if (split != ENG_NONE) {
			/* No value, but its rates add to the total. */
			c->status = ENG_SPLIT;
			c->operand = (int16_t)split;
		} else
			engine_eval(e, m, &e->scratch[r * v->nevents],
			    v->nevents, secs, secs * (double)e->tb_hz, c);
		for (k = 0; k < m->nevslots; k++)
			e->sums[m->evslots[k]] += e->norm[r * v->nevents +
			    m->evslots[k]];
		if (c->status == ENG_OK)
			*mean += c->value;
		else if (*bad == NULL)
			*bad = c;
		(*nrowok)++;
		if (st == ENG_ABSENT)
			st = ENG_OK;
	}
	return (st);
}

/* Metric j of view i in every row, then over the rows that have it. */
static void
engine_update_metric(struct engine *e, struct engine_snapshot *s, size_t i,
    size_t j, double tsecs)
{
	const struct engine_view	*v = &e->views[i];
	const struct engine_metric	*m = &v->metrics[j];
	const struct engine_cell	*bad = NULL;
	struct engine_cell		*c;
	double				 mean = 0;
	size_t				 nrowok = 0, k;
	size_t				 ncol = v->nevents + v->nmetrics;
	uint8_t				 st;

	st = engine_update_metric_rows(e, s, i, j, &nrowok, &mean, &bad);
	c = &s->cells[i][v->nrows * ncol + v->nevents + j];
	if (st != ENG_OK || nrowok == 0) {
		c->status = st == ENG_OK ? ENG_ABSENT : st;
		return;
	}
	/*
	 * Rows over other intervals add counts scaled to the total's, which
	 * are not whole: a remainder (x % 2) or an integer quotient of
	 * 12345.9999999 means nothing.  Such a formula is evaluated as over
	 * one interval of the total's seconds: every count, the timebase
	 * ticks too, the nearest whole one, whatever its unit (the mean of
	 * remainders is no remainder).
	 */
	if (m->whole_counts) {
		for (k = 0; k < m->nevslots; k++)
			e->sums[m->evslots[k]] =
			    floor(e->sums[m->evslots[k]] + 0.5);
		engine_eval(e, m, e->sums, v->nevents, tsecs,
		    floor(tsecs * (double)e->tb_hz + 0.5), c);
		return;
	}
	/* Frequencies do not add up: their total is the mean of the rows'
	 * values. */
	if (m->mean_total) {
		if (bad != NULL) {
			*c = *bad;
			return;
		}
		c->value = mean / (double)nrowok;
		c->delta = 0;
		c->status = ENG_OK;
		return;
	}
	engine_eval(e, m, e->sums, v->nevents, tsecs, tsecs * (double)e->tb_hz,
	    c);
}

struct engine_snapshot *
engine_update_reuse(struct engine *e, const struct raw_sample *rs,
    struct engine_snapshot *old)
{
	struct engine_snapshot	*s;
	const struct engine_view *v;
	double			 tsecs;
	size_t			 i, j;
	int			 scaled;

	s = engine_update_begin(e, rs, old, &scaled);
	engine_moved_scan(e, rs);
	for (i = 0; i < e->nviews; i++) {
		v = &e->views[i];
		/* Every cell is written below; start them clean.  The
		 * placements' cells, most of a partition view's, are each
		 * written whole where they are summed. */
		memset(s->cells[i], 0, (v->place_counter != NULL &&
		    e->vcpu_view != ENG_NONE ? (v->nrows + 1) *
		    (v->nevents + v->nmetrics) : s->ncells[i]) *
		    sizeof **s->cells);
		memset(s->row_interval[i], 0,
		    (v->nrows + 1) * sizeof **s->row_interval);
	}
	/* The partitions' rows sum their virtual processors' cells. */
	if (e->vcpu_view != ENG_NONE)
		engine_lpar_vcpu_events(e, s, rs);
	for (i = 0; i < e->nviews; i++) {
		v = &e->views[i];
		if (v->place_counter != NULL)
			tsecs = engine_lpar_events(e, s, i);
		else
			tsecs = engine_update_events(e, s, i, rs);
		s->row_interval[i][v->nrows] = tsecs;
		engine_update_norm(e, s, i, tsecs);
		engine_update_event_totals(e, s, i);
		if (v->place_counter != NULL) {
			engine_lpar_place_totals(e, s, i);
			engine_derive_row(e, s, i, v->nrows);
		}
		if (v->nmetrics > 0)
			engine_update_mixed(e, s, i);
		for (j = 0; j < v->nmetrics; j++)
			engine_update_metric(e, s, i, j, tsecs);
	}
	engine_estimates(e, s, rs, scaled);
	return (s);
}
