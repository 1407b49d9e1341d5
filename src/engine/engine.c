/*
 * The sampling engine.  Raw 64-bit accumulators become deltas here and
 * nowhere else; a read that failed, went backwards or was not updated never
 * becomes a number.  Metric totals sum their operands across the rows
 * first and evaluate once, so a ratio's total is the ratio of the sums.
 * This file builds an engine's views and answers questions about it;
 * engine-metric.c compiles its metrics, engine-update.c turns samples
 * into snapshots.
 */
#include "config.h"

#include "engine/engine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "engine/engine-int.h"
#include "model/selection.h"
#include "util/arena.h"
#include "util/htab.h"
#include "util/xalloc.h"

const char *
engine_status_name(int status)
{
	switch (status) {
	case ENG_OK:
		return ("ok");
	case ENG_ABSENT:
		return ("not selected for this index");
	case ENG_NOBASE:
		return ("first sample: no interval yet");
	case ENG_FAILED:
		return ("the read failed");
	case ENG_DENIED:
		return ("permission denied");
	case ENG_BUSY:
		return ("the hypervisor was busy");
	case ENG_MISSING:
		return ("the result did not carry this counter");
	case ENG_BACKWARDS:
		return ("the counter went backwards: read discarded");
	case ENG_STALE:
		return ("no accumulator update since the last sample");
	case ENG_NOVALUE:
		return ("cannot be computed");
	case ENG_NOTYET:
		return ("not updated yet");
	case ENG_RESTART:
		return ("no good read before this one: its interval starts "
		    "here");
	case ENG_SPLIT:
		return ("its operands cover different intervals (a read "
		    "failed in between)");
	}
	return ("?");
}

/* ---- constants ----------------------------------------------------- */

size_t
engine_const_slot(struct engine *e, const char *name)
{
	size_t	 slot;

	if ((slot = engine_names_get(&e->constnames, name)) != ENG_NONE)
		return (slot);
	if (e->nconsts == e->capconsts) {
		e->capconsts = e->capconsts != 0 ? 2 * e->capconsts : 8;
		e->consts = xreallocarray(e->consts, e->capconsts,
		    sizeof *e->consts);
		e->const_values = xreallocarray(e->const_values,
		    e->capconsts, sizeof *e->const_values);
	}
	slot = e->nconsts++;
	e->consts[slot].name = xstrdup(name);
	e->consts[slot].value = FORMULA_NOVALUE;
	e->const_values[slot] = FORMULA_NOVALUE;
	engine_names_add(&e->constnames, e->consts[slot].name, slot);
	return (slot);
}

void
engine_set_constant(struct engine *e, const char *name, double value)
{
	size_t	 slot;

	slot = engine_const_slot(e, name);
	e->consts[slot].value = value;
	e->const_values[slot] = value;
}

const char *
engine_constant_name(const struct engine *e, size_t i)
{
	return (i < e->nconsts ? e->consts[i].name : NULL);
}

/* ---- views --------------------------------------------------------- */

static struct engine_view *
engine_view_for(struct engine *e, int domain)
{
	struct engine_view	*v;
	size_t			 i;

	for (i = 0; i < e->nviews; i++) {
		if (e->views[i].domain == domain)
			return (&e->views[i]);
	}
	e->views = xreallocarray(e->views, e->nviews + 1, sizeof *e->views);
	v = &e->views[e->nviews++];
	memset(v, 0, sizeof *v);
	v->domain = domain;
	v->term = selection_domain_term(domain);
	return (v);
}

int
engine_cmp_unsigned(const void *a, const void *b)
{
	unsigned	 x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x < y ? -1 : x > y);
}

size_t
engine_row_of(const struct engine_view *v, unsigned index)
{
	size_t	 lo = 0, hi = v->nrows, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (v->indices[mid] < index)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (lo);
}

static void
engine_build_views(struct engine *e)
{
	const struct selection	*sel = e->sel;
	const struct sel_pick	*pk;
	struct engine_view	*v;
	size_t			 i, j, k, n, row, col;

	for (i = 0; i < sel->npicks; i++) {
		pk = &sel->picks[i];
		/* Partition views: engine_lpar_build(). */
		if (pk->domain == SEL_DOMAIN_LPAR)
			continue;
		v = engine_view_for(e, pk->domain);
		for (j = 0; j < pk->nevents; j++) {
			for (k = 0; k < v->nevents; k++) {
				if (v->events[k] == pk->events[j])
					break;
			}
			if (k < v->nevents)
				continue;
			v->events = xreallocarray(v->events, v->nevents + 1,
			    sizeof *v->events);
			v->pick_of = xreallocarray(v->pick_of, v->nevents + 1,
			    sizeof *v->pick_of);
			v->events[v->nevents] = pk->events[j];
			v->pick_of[v->nevents++] = i;
		}
		v->indices = xreallocarray(v->indices,
		    v->nrows + pk->nindices, sizeof *v->indices);
		memcpy(v->indices + v->nrows, pk->indices,
		    pk->nindices * sizeof *v->indices);
		v->nrows += pk->nindices;
	}
	for (i = 0; i < e->nviews; i++) {
		v = &e->views[i];
		qsort(v->indices, v->nrows, sizeof *v->indices,
		    engine_cmp_unsigned);
		for (j = n = 0; j < v->nrows; j++) {
			if (n == 0 || v->indices[n - 1] != v->indices[j])
				v->indices[n++] = v->indices[j];
		}
		v->nrows = n;
		v->counter = xreallocarray(NULL, n * v->nevents,
		    sizeof *v->counter);
		for (j = 0; j < n * v->nevents; j++)
			v->counter[j] = ENG_NONE;
	}
	for (k = 0; k < sel->ncounters; k++) {
		if (sel->picks[sel->counters[k].pick].domain ==
		    SEL_DOMAIN_LPAR)
			continue;
		v = engine_view_for(e, sel->counters[k].domain);
		row = engine_row_of(v, sel->counters[k].index);
		for (col = 0; col < v->nevents; col++) {
			if (v->events[col] == sel->counters[k].event)
				break;
		}
		if (v->counter[row * v->nevents + col] == ENG_NONE)
			v->counter[row * v->nevents + col] = k;
	}
	engine_lpar_build(e);
}

struct engine *
engine_new(const struct catalog *cat, const struct selection *sel,
    uint64_t timebase_hz, const struct engine_metric_def *defs, size_t ndefs,
    char ***skipped, size_t *nskipped)
{
	struct engine	*e;
	size_t		 i, width = 1, cells = 1, rows = 1;

	e = xcalloc(1, sizeof *e);
	e->cat = cat;
	e->sel = sel;
	e->tb_hz = timebase_hz;
	if (skipped != NULL) {
		*skipped = NULL;
		*nskipped = 0;
	}
	engine_build_views(e);
	engine_metric_build(e, defs, ndefs, skipped, nskipped);
	for (i = 0; i < e->nviews; i++) {
		if (e->views[i].nevents > width)
			width = e->views[i].nevents;
		if (e->views[i].nevents * e->views[i].nrows > cells)
			cells = e->views[i].nevents * e->views[i].nrows;
		if (e->views[i].nrows > rows)
			rows = e->views[i].nrows;
	}
	e->mixed = xcalloc(rows, 1);
	e->scratch = xcalloc(cells, sizeof *e->scratch);
	e->csecs = xcalloc(cells, sizeof *e->csecs);
	e->norm = xcalloc(cells, sizeof *e->norm);
	e->sums = xcalloc(width, sizeof *e->sums);
	i = sel->ncounters > 0 ? sel->ncounters : 1;
	e->prev = xcalloc(i, sizeof *e->prev);
	e->prev_tb = xcalloc(i, sizeof *e->prev_tb);
	e->prev_now = xcalloc(i, sizeof *e->prev_now);
	e->state = xcalloc(i, sizeof *e->state);
	engine_moved_build(e);
	return (e);
}

void
engine_free(struct engine *e)
{
	struct engine_view	*v;
	size_t			 i;

	if (e == NULL)
		return;
	for (i = 0; i < e->nviews; i++) {
		v = &e->views[i];
		/* Their formulas, strings and columns are in the arena. */
		free(v->metrics);
		free(v->indices);
		free(v->events);
		free(v->pick_of);
		free(v->counter);
		free(v->place_counter);
		free(v->vcpus);
	}
	free(e->views);
	free(e->vcpu_csecs);
	engine_derive_free(e);
	for (i = 0; i < e->nconsts; i++)
		free(e->consts[i].name);
	free(e->consts);
	free(e->const_values);
	htab_free(&e->constnames);
	arena_free(&e->mem);
	free(e->prev);
	free(e->prev_tb);
	free(e->prev_now);
	engine_moved_free(e);
	free(e->state);
	free(e->scratch);
	free(e->csecs);
	free(e->norm);
	free(e->sums);
	free(e->mixed);
	free(e);
}

size_t
engine_nviews(const struct engine *e)
{
	return (e->nviews);
}

const struct engine_view *
engine_view(const struct engine *e, size_t i)
{
	return (i < e->nviews ? &e->views[i] : NULL);
}

void
engine_count_whole(struct engine *e, int on)
{
	e->counting = on != 0;
}

void
engine_rebase(struct engine *e)
{
	if (e->sel->ncounters > 0) {
		memset(e->state, 0, e->sel->ncounters * sizeof *e->state);
	}
}

void
engine_snapshot_free(struct engine_snapshot *s)
{
	size_t	 i;

	if (s == NULL)
		return;
	for (i = 0; i < s->nviews; i++) {
		free(s->cells[i]);
		free(s->row_interval[i]);
	}
	free(s->cells);
	free(s->row_interval);
	free(s->ncells);
	free(s->raw);
	free(s);
}

const struct engine_cell *
engine_cell(const struct engine *e, const struct engine_snapshot *s,
    size_t view, size_t row, size_t col)
{
	const struct engine_view	*v;
	size_t				 ncol;

	if (view >= s->nviews || view >= e->nviews)
		return (NULL);
	v = &e->views[view];
	ncol = v->nevents + v->nmetrics;
	if (row > v->nrows || col >= ncol + v->nderived)
		return (NULL);
	if (col >= ncol)
		return (&s->cells[view][engine_derive_first(v) +
		    row * v->nderived + (col - ncol)]);
	return (&s->cells[view][row * ncol + col]);
}

/*
 * A metric of operands over different spans: which two, and how many
 * intervals each covers, where the row says (a total only says why).
 */
static char *
engine_explain_split(const struct engine *e, const struct engine_snapshot *s,
    size_t view, size_t row, size_t col)
{
	const struct engine_view	*v = &e->views[view];
	const struct engine_metric	*m = &v->metrics[col - v->nevents];
	const struct engine_cell	*c, *a, *b;
	size_t				 k;

	c = engine_cell(e, s, view, row, col);
	k = c->operand >= 0 ? (size_t)c->operand : 0;
	if (row == v->nrows || k >= m->nevslots)
		return (xstrdup(engine_status_name(c->status)));
	a = engine_cell(e, s, view, row, m->evslots[0]);
	b = engine_cell(e, s, view, row, m->evslots[k]);
	/* The first that differs from the first, or a mixed first. */
	if (b->span == 0)
		return (xasprintf("%s sums reads over different intervals (a "
		    "read failed in between): no value over one span",
		    v->events[m->evslots[k]]->name));
	return (xasprintf("%s covers %u intervals, %s %u (a read failed in "
	    "between): no value over one span",
	    v->events[m->evslots[0]]->name, (unsigned)a->span,
	    v->events[m->evslots[k]]->name, (unsigned)b->span));
}

char *
engine_explain(const struct engine *e, const struct engine_snapshot *s,
    size_t view, size_t row, size_t col)
{
	const struct engine_view	*v;
	const struct engine_cell	*c;
	const struct engine_metric	*m;
	struct formula_value		 fv;
	const struct formula_operand	*op;

	if ((c = engine_cell(e, s, view, row, col)) == NULL)
		return (xstrdup("no such cell"));
	if (c->status == ENG_OK && c->estimated && c->counted != 0)
		return (xasprintf("estimated: counted %u %% of the interval",
		    c->counted));
	if (c->status == ENG_OK && c->estimated)
		return (xstrdup("estimated: counted part of the interval"));
	v = &e->views[view];
	if (col >= v->nevents + v->nmetrics)
		return (xstrdup(c->status == ENG_OK ? "ok" :
		    engine_derive_reason(c)));
	if (c->status == ENG_SPLIT && col >= v->nevents)
		return (engine_explain_split(e, s, view, row, col));
	if (c->status != ENG_NOVALUE || col < v->nevents)
		return (xstrdup(engine_status_name(c->status)));
	m = &v->metrics[col - v->nevents];
	fv.value = 0;
	fv.ok = 0;
	fv.reason = (enum formula_reason)c->reason;
	fv.operand = c->operand;
	if (fv.reason == FORMULA_MISSING && fv.operand >= 0) {
		op = formula_operand(m->formula, (size_t)fv.operand);
		if (op->kind == FORMULA_CONST)
			return (xasprintf("unknown constant %s: set it with "
			    "--const %s=VALUE", op->name, op->name));
	}
	return (formula_eval_explain(m->formula, &fv));
}

const char *
engine_cell_mark(const struct engine_cell *c)
{
	if (c->status == ENG_OK && isfinite(c->value))
		return (NULL);
	if (c->status == ENG_NOVALUE && c->reason >= ENG_DR_FIRST)
		return (engine_derive_mark(c->reason));
	if (c->status == ENG_NOVALUE && c->reason != FORMULA_DIVZERO)
		return ("?");
	return ("-");
}
