/*
 * The report of a run (hvtop report): time series kept per chart and
 * line, then one HTML page with the data as JSON and the charting library
 * inlined (report-html.c).  No I/O here: the caller reads the library and
 * writes the page.
 */
#include "config.h"

#include "export/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "engine/engine-lpar.h"
#include "export/export.h"
#include "export/report-int.h"
#include "model/raw.h"
#include "model/selection.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static char *
report_strdup(const char *s)
{
	return (xstrdup(s != NULL ? s : ""));
}

struct report *
report_new(const struct report_info *info)
{
	struct report	*r;

	r = xcalloc(1, sizeof *r);
	r->recording = report_strdup(info->recording);
	r->source = report_strdup(info->source);
	r->frame = report_strdup(info->frame);
	r->catalog = report_strdup(info->catalog);
	r->version = report_strdup(info->version);
	r->lview = REPORT_NONE;
	return (r);
}

static void
report_unbind(struct report *r)
{
	size_t	 i;

	for (i = 0; i < r->nviews; i++) {
		free(r->chart_of[i]);
		free(r->line_of[i]);
	}
	free(r->chart_of);
	free(r->line_of);
	free(r->lline);
	r->chart_of = r->line_of = NULL;
	r->lline = NULL;
	r->lview = REPORT_NONE;
	r->nviews = 0;
	r->e = NULL;
}

void
report_free(struct report *r)
{
	struct report_chart	*c;
	size_t			 i, j;

	if (r == NULL)
		return;
	report_unbind(r);
	for (i = 0; i < r->ncharts; i++) {
		c = &r->charts[i];
		for (j = 0; j < c->nlines; j++) {
			free(c->lines[j].label);
			free(c->lines[j].v);
		}
		free(c->lines);
		free(c->term);
		free(c->group);
		free(c->name);
		free(c->unit);
	}
	free(r->charts);
	for (i = 0; i < r->nproblems; i++)
		free(r->problems[i]);
	free(r->problems);
	for (i = 0; i < r->ngaps; i++)
		free(r->gap_text[i]);
	free(r->gap_text);
	free(r->gap_at);
	free(r->t);
	free(r->recording);
	free(r->source);
	free(r->frame);
	free(r->catalog);
	free(r->version);
	free(r);
}

/* The chart of (term, group, name, unit, metric), made when new. */
static size_t
report_chart(struct report *r, const char *term, const char *group,
    const char *name, const char *unit, int metric, size_t pick,
    size_t breadth)
{
	struct report_chart	*c;
	size_t			 i;

	for (i = 0; i < r->ncharts; i++) {
		c = &r->charts[i];
		if (strcmp(c->term, term) == 0 && strcmp(c->group, group) == 0 &&
		    strcmp(c->name, name) == 0 && strcmp(c->unit, unit) == 0 &&
		    c->metric == metric)
			return (i);
	}
	r->charts = xreallocarray(r->charts, r->ncharts + 1,
	    sizeof *r->charts);
	c = &r->charts[r->ncharts];
	memset(c, 0, sizeof *c);
	c->term = xstrdup(term);
	c->group = xstrdup(group);
	c->name = xstrdup(name);
	c->unit = xstrdup(unit);
	c->metric = metric;
	c->pick = pick;
	c->breadth = breadth;
	return (r->ncharts++);
}

/* The line labelled so in chart c, made when new. */
static size_t
report_line(struct report *r, size_t c, const char *label, int total)
{
	struct report_chart	*ch = &r->charts[c];
	size_t			 i;

	for (i = 0; i < ch->nlines; i++)
		if (strcmp(ch->lines[i].label, label) == 0)
			return (i);
	ch->lines = xreallocarray(ch->lines, ch->nlines + 1,
	    sizeof *ch->lines);
	memset(&ch->lines[ch->nlines], 0, sizeof ch->lines[ch->nlines]);
	ch->lines[ch->nlines].label = xstrdup(label);
	ch->lines[ch->nlines].total = total;
	return (ch->nlines++);
}

/* The pick a column belongs to: an event's own, a metric's first
 * event's; REPORT_NONE when there is none. */
static size_t
report_pick(const struct engine_view *v, size_t j)
{
	const struct engine_metric	*m;

	if (j < v->nevents)
		return (v->pick_of[j]);
	m = &v->metrics[j - v->nevents];
	if (m->nevslots > 0 && m->evslots[0] < v->nevents)
		return (v->pick_of[m->evslots[0]]);
	return (REPORT_NONE);
}

/* A row's line: "chip 3", "lpar 2" ("lpar self" for this partition when
 * its number is not known), or the total. */
static char *
report_row_label(const struct engine_view *v, size_t row)
{
	if (row == v->nrows)
		return (xstrdup("total"));
	if (v->domain == ENG_VIEW_LPAR && v->indices[row] == SEL_LPAR_SELF)
		return (xstrdup("lpar self"));
	return (xasprintf("%s %u", v->term, v->indices[row]));
}

/*
 * The partition charts of view i: a line per partition and the frame's
 * total.  Without a cycles column there is nothing to show.
 */
static void
report_bind_lpar(struct report *r, const struct selection *sel, size_t i)
{
	static const struct {
		const char	*name;
		const char	*unit;
	} m[REPORT_NLPAR] = {
		{ "cycles of the partition", "/s" },
		{ "instructions per cycle", "" },
		{ "cycles off the home chip", "%" },
		{ "cycles on a remote node", "%" },
	};
	const struct engine_view	*v = engine_view(r->e, i);
	struct engine_lpar_cols		 cols;
	const char			*group;
	size_t				 k, row, pick;
	char				*label;

	engine_lpar_cols(v, &cols);
	if (cols.cycles == ENG_NONE)
		return;
	r->lcyc = cols.cycles;
	r->lview = i;
	pick = v->pick_of[r->lcyc];
	group = sel != NULL && pick < sel->npicks ? sel->picks[pick].name :
	    "partitions";
	r->lline = xcalloc((v->nrows + 1) * REPORT_NLPAR + 1,
	    sizeof *r->lline);
	for (k = 0; k < REPORT_NLPAR; k++) {
		/* In the pick's metrics, the cycles first. */
		r->lchart[k] = report_chart(r, v->term, group, m[k].name,
		    m[k].unit, 1, pick, (size_t)-1 - k);
		for (row = 0; row <= v->nrows; row++) {
			label = report_row_label(v, row);
			r->lline[row * REPORT_NLPAR + k] = report_line(r,
			    r->lchart[k], label, row == v->nrows);
			free(label);
		}
	}
}

void
report_bind(struct report *r, const struct engine *e,
    const struct selection *sel)
{
	const struct engine_view	*v;
	const char			*group, *name, *unit;
	size_t				 i, j, row, ncol, c, pick;
	char				*label;

	report_unbind(r);
	r->e = e;
	r->nviews = engine_nviews(e);
	r->chart_of = xcalloc(r->nviews + 1, sizeof *r->chart_of);
	r->line_of = xcalloc(r->nviews + 1, sizeof *r->line_of);
	for (i = 0; i < r->nviews; i++) {
		v = engine_view(e, i);
		ncol = v->nevents + v->nmetrics;
		r->chart_of[i] = xcalloc((v->nrows + 1) * ncol + 1,
		    sizeof **r->chart_of);
		r->line_of[i] = xcalloc((v->nrows + 1) * ncol + 1,
		    sizeof **r->line_of);
		/*
		 * A partition's virtual processors are too many to draw
		 * (sixteen thousand lines on a large frame): the charts are
		 * the partitions'.
		 */
		if (v->domain == ENG_VIEW_LPAR_VCPU) {
			for (j = 0; j < (v->nrows + 1) * ncol; j++)
				r->chart_of[i][j] = REPORT_NONE;
			continue;
		}
		if (v->domain == ENG_VIEW_LPAR && r->lview == REPORT_NONE)
			report_bind_lpar(r, sel, i);
		for (j = 0; j < ncol; j++) {
			pick = report_pick(v, j);
			group = sel != NULL && pick < sel->npicks ?
			    sel->picks[pick].name : j < v->nevents ? "events" :
			    "metrics";
			if (j < v->nevents) {
				name = v->events[j]->name;
				unit = "/s";
			} else {
				name = v->metrics[j - v->nevents].name;
				unit = v->metrics[j - v->nevents].unit;
			}
			c = report_chart(r, v->term, group, name, unit,
			    j >= v->nevents, pick, j < v->nevents ? 1 :
			    v->metrics[j - v->nevents].nevslots);
			for (row = 0; row <= v->nrows; row++) {
				label = report_row_label(v, row);
				r->chart_of[i][row * ncol + j] = c;
				r->line_of[i][row * ncol + j] =
				    report_line(r, c, label, row == v->nrows);
				free(label);
			}
		}
	}
}

/* Value k of a line, NaN for the samples before it. */
static void
report_put(struct report_line *l, size_t k, double v)
{
	if (k >= l->cap) {
		l->cap = l->cap == 0 ? 64 : l->cap;
		while (l->cap <= k)
			l->cap *= 2;
		l->v = xreallocarray(l->v, l->cap, sizeof *l->v);
	}
	while (l->n < k)
		l->v[l->n++] = NAN;
	l->v[k] = v;
	l->n = k + 1;
}

/*
 * The partition charts' values of a row: cycles/s, instructions per
 * cycle, and the shares of the cycles counted off the home chip and on a
 * remote node, in %, as the Partitions screen has them.
 */
static void
report_add_lpar(struct report *r, const struct engine_snapshot *s,
    size_t row, size_t k)
{
	static const int		 what[REPORT_NLPAR] = {
		-1, ENG_DERIVE_IPC, ENG_DERIVE_EV_OFF_CHIP,
		ENG_DERIVE_EV_REMOTE
	};
	const struct engine_view	*v = engine_view(r->e, r->lview);
	const struct engine_cell	*cell;
	double				 val[REPORT_NLPAR];
	size_t				 m;

	/* The cycles, then what the engine derives of the row and of the
	 * cycles' column: shares in %. */
	for (m = 0; m < REPORT_NLPAR; m++) {
		cell = engine_cell(r->e, s, r->lview, row, m == 0 ? r->lcyc :
		    engine_derive_col(v, what[m], r->lcyc, 0));
		val[m] = cell != NULL && cell->status == ENG_OK ?
		    cell->value * (m >= 2 ? 100 : 1) : NAN;
	}
	for (m = 0; m < REPORT_NLPAR; m++)
		report_put(&r->charts[r->lchart[m]].lines[r->lline[row *
		    REPORT_NLPAR + m]], k, isfinite(val[m]) ? val[m] : NAN);
}

/* The interval k marks a gap (a ring's restart) in text's words. */
static void
report_gap(struct report *r, size_t k, const char *text)
{
	r->gap_at = xreallocarray(r->gap_at, r->ngaps + 1,
	    sizeof *r->gap_at);
	r->gap_text = xreallocarray(r->gap_text, r->ngaps + 1,
	    sizeof *r->gap_text);
	r->gap_at[r->ngaps] = k;
	r->gap_text[r->ngaps++] = xstrdup(text);
}

void
report_add(struct report *r, const struct engine_snapshot *s,
    uint64_t wall_ns)
{
	const struct engine_view	*v;
	const struct engine_cell	*cell;
	size_t				 i, j, row, ncol, k, at;
	double				 val;

	if (s->seq == 0 || r->e == NULL)
		return;
	if (r->nt == r->capt) {
		r->capt = r->capt == 0 ? 64 : r->capt * 2;
		r->t = xreallocarray(r->t, r->capt, sizeof *r->t);
	}
	k = r->nt++;
	r->t[k] = wall_ns;
	if (strncmp(s->error, RAW_GAP_PREFIX, strlen(RAW_GAP_PREFIX)) == 0)
		report_gap(r, k, s->error);
	for (i = 0; i < r->nviews && i < s->nviews; i++) {
		v = engine_view(r->e, i);
		ncol = v->nevents + v->nmetrics;
		for (row = 0; row <= v->nrows; row++) {
			for (j = 0; j < ncol; j++) {
				at = row * ncol + j;
				if (r->chart_of[i][at] == REPORT_NONE)
					continue;
				cell = engine_cell(r->e, s, i, row, j);
				if (cell == NULL || cell->status == ENG_ABSENT)
					continue;
				/* No value is no value, never a number. */
				val = cell->status == ENG_OK &&
				    isfinite(cell->value) ? cell->value : NAN;
				report_put(&r->charts[r->chart_of[i][at]].
				    lines[r->line_of[i][at]], k, val);
			}
			if (i == r->lview)
				report_add_lpar(r, s, row, k);
		}
	}
}

void
report_incomplete(struct report *r, int damaged, const char *line)
{
	r->problems = xreallocarray(r->problems, r->nproblems + 1,
	    sizeof *r->problems);
	r->problems[r->nproblems++] = report_strdup(line);
	r->damaged |= damaged != 0;
}

size_t
report_nsamples(const struct report *r)
{
	return (r->nt);
}

size_t
report_ncharts(const struct report *r)
{
	return (r->ncharts);
}

const char *
report_chart_name(const struct report *r, size_t c)
{
	return (r->charts[c].name);
}

const char *
report_chart_unit(const struct report *r, size_t c)
{
	return (r->charts[c].unit);
}

size_t
report_nlines(const struct report *r, size_t c)
{
	return (r->charts[c].nlines);
}

const char *
report_line_label(const struct report *r, size_t c, size_t line)
{
	return (r->charts[c].lines[line].label);
}

static int
report_cmp(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return (x < y ? -1 : x > y);
}

void
report_stats(const struct report *r, size_t c, size_t line,
    struct report_stats *st)
{
	const struct report_line	*l = &r->charts[c].lines[line];
	double				*sorted, sum = 0;
	size_t				 i, n = 0, rank;

	memset(st, 0, sizeof *st);
	st->min = st->mean = st->p95 = st->max = NAN;
	sorted = xcalloc(l->n + 1, sizeof *sorted);
	for (i = 0; i < l->n; i++) {
		if (isnan(l->v[i]))
			continue;
		sorted[n++] = l->v[i];
		sum += l->v[i];
	}
	st->n = n;
	st->missing = r->nt - n;
	if (n > 0) {
		qsort(sorted, n, sizeof *sorted, report_cmp);
		st->min = sorted[0];
		st->max = sorted[n - 1];
		st->mean = sum / (double)n;
		/* Nearest rank: the smallest value with 95 % at or below. */
		rank = (size_t)ceil(0.95 * (double)n);
		st->p95 = sorted[rank > 0 ? rank - 1 : 0];
	}
	free(sorted);
}
