/*
 * The live table's model: which columns of each engine view are shown
 * (filter, hidden columns), in which order the rows come (sort), which
 * groups feed each row, the lines the table is drawn from, and a short
 * history of every cell for the sparklines.  No curses: view-live.c draws
 * from this and the tests read it directly.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "model/selection.h"
#include "session/session.h"
#include "export/export.h"
#include "ui/ui-model.h"
#include "filter/filter.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static void
live_view_free(struct live_view *lv)
{
	size_t	 i;

	free(lv->cols);
	free(lv->keep);
	free(lv->order);
	/* NULL-terminated: a view reset before it was laid out has no
	 * nrows yet. */
	for (i = 0; lv->rowpicks != NULL && lv->rowpicks[i] != NULL; i++)
		free(lv->rowpicks[i]);
	free(lv->rowpicks);
	free(lv->title);
	free(lv->hist);
	free(lv->scale);
	free(lv->unit);
}

void
live_free(struct live *l)
{
	size_t	 i;

	for (i = 0; i < l->nv; i++)
		live_view_free(&l->v[i]);
	free(l->v);
	free(l->lines);
	l->v = NULL;
	l->lines = NULL;
	l->nv = l->nlines = 0;
	for (i = 0; i < LIVE_NDOMAINS; i++) {
		free(l->sortname[i]);
		l->sortname[i] = NULL;
	}
	if (l->scratch != NULL) {
		strbuf_free(l->scratch);
		free(l->scratch);
		l->scratch = NULL;
	}
}

static int
live_pick_has(const struct sel_pick *pk, unsigned index)
{
	size_t	 i;

	for (i = 0; i < pk->nindices; i++) {
		if (pk->indices[i] == index)
			return (1);
	}
	return (0);
}

static int
live_is_lpar(const struct engine_view *v)
{
	return (v->domain == ENG_VIEW_LPAR || v->domain == ENG_VIEW_LPAR_VCPU);
}

static unsigned
live_row_lpar(const struct engine_view *v, size_t r)
{
	return (v->domain == ENG_VIEW_LPAR ? v->indices[r] :
	    ENG_ROW_LPAR(v->indices[r]));
}

/*
 * Does pick pk feed row r of view v?  A partition pick lists its
 * partitions (NULL: every one) and the virtual processors of each (none
 * listed: all); its rows carry "lpar << 16 | vcpu", not an index.
 */
static int
live_pick_covers(const struct sel_pick *pk, const struct engine_view *v,
    size_t r)
{
	unsigned	 lpar;
	size_t		 i;

	if (!live_is_lpar(v))
		return (pk->domain == v->domain &&
		    live_pick_has(pk, v->indices[r]));
	if (pk->domain != SEL_DOMAIN_LPAR)
		return (0);
	lpar = live_row_lpar(v, r);
	for (i = 0; pk->lpars != NULL && i < pk->nlpars; i++) {
		if (pk->lpars[i] == lpar)
			break;
	}
	if (pk->lpars != NULL && i == pk->nlpars)
		return (0);
	return (v->domain == ENG_VIEW_LPAR || pk->nindices == 0 ||
	    live_pick_has(pk, ENG_ROW_VCPU(v->indices[r])));
}

const char *
live_term(const struct engine_view *v)
{
	if (v->domain == ENG_VIEW_LPAR)
		return ("lpar");
	if (v->domain == ENG_VIEW_LPAR_VCPU)
		return ("lpar vcpu");
	return (v->term);
}

void
live_terms(const struct engine_view *v, struct strbuf *sb)
{
	strbuf_addf(sb, "%ss", live_term(v));
}

/* A partition's id as the other outputs write it: "self" when unknown. */
static void
live_lpar_text(unsigned lpar, char *buf, size_t len)
{
	if (lpar == SEL_LPAR_SELF)
		snprintf(buf, len, "self");
	else
		snprintf(buf, len, "%u", lpar);
}

void
live_row_label(const struct engine_view *v, size_t r, char *buf, size_t len)
{
	char	 id[16];

	if (!live_is_lpar(v)) {
		snprintf(buf, len, "%u", v->indices[r]);
		return;
	}
	live_lpar_text(live_row_lpar(v, r), id, sizeof id);
	if (v->domain == ENG_VIEW_LPAR)
		snprintf(buf, len, "%s", id);
	else
		snprintf(buf, len, "%4s %4u", id,
		    (unsigned)ENG_ROW_VCPU(v->indices[r]));
}

void
live_row_name(const struct engine_view *v, size_t r, char *buf, size_t len)
{
	char	 id[16];

	if (!live_is_lpar(v)) {
		snprintf(buf, len, "%s %u", v->term, v->indices[r]);
		return;
	}
	live_lpar_text(live_row_lpar(v, r), id, sizeof id);
	if (v->domain == ENG_VIEW_LPAR)
		snprintf(buf, len, "lpar %s", id);
	else
		snprintf(buf, len, "lpar %s vcpu %u", id,
		    (unsigned)ENG_ROW_VCPU(v->indices[r]));
}

/*
 * Where a pick of a partition view reads: "lpars 1-2", with the count of
 * virtual processors on the vcpu view, from the rows it feeds.
 */
static void
live_title_lpars(const struct sel_pick *pk, const struct engine_view *v,
    struct strbuf *title)
{
	unsigned	*ids, lpar;
	size_t		 r, n = 0, rows = 0;
	char		*idx;

	ids = xcalloc(v->nrows + 1, sizeof *ids);
	for (r = 0; r < v->nrows; r++) {
		if (!live_pick_covers(pk, v, r))
			continue;
		rows++;
		lpar = live_row_lpar(v, r);
		if (n == 0 || ids[n - 1] != lpar)
			ids[n++] = lpar;
	}
	if (n == 1 && ids[0] == SEL_LPAR_SELF)
		strbuf_adds(title, "this lpar");
	else {
		idx = view_catalog_items_indices(ids, n);
		strbuf_addf(title, "lpar%s %s", n == 1 ? "" : "s", idx);
		free(idx);
	}
	if (v->domain == ENG_VIEW_LPAR_VCPU)
		strbuf_addf(title, " (%zu vcpu%s)", rows, rows == 1 ? "" : "s");
	free(ids);
}

/* Per row: the names of the picks that cover it, joined with '+'. */
static void
live_rowpicks(struct ui *ui, const struct engine_view *v, struct live_view *lv)
{
	const struct selection	*sel = session_selection(ui->ses);
	const struct sel_pick	*pk;
	struct strbuf		 sb = { 0 }, title = { 0 };
	size_t			 r, i;
	char			*idx;

	lv->rowpicks = xcalloc(v->nrows + 1, sizeof *lv->rowpicks);
	for (r = 0; r < v->nrows; r++) {
		strbuf_reset(&sb);
		for (i = 0; i < sel->npicks; i++) {
			pk = &sel->picks[i];
			if (!live_pick_covers(pk, v, r))
				continue;
			if (sb.len > 0)
				strbuf_addc(&sb, '+');
			strbuf_adds(&sb, pk->name);
		}
		lv->rowpicks[r] = xstrdup(sb.s != NULL ? sb.s : "");
		if (r > 0 && strcmp(lv->rowpicks[r], lv->rowpicks[0]) != 0)
			lv->groupcol = 1;
	}
	live_terms(v, &title);
	strbuf_addc(&title, ':');
	for (i = 0; i < sel->npicks; i++) {
		pk = &sel->picks[i];
		if (live_is_lpar(v) ? pk->domain != SEL_DOMAIN_LPAR :
		    pk->domain != v->domain)
			continue;
		lv->npicks++;
		strbuf_addf(&title, "%s %s%s on ", lv->npicks > 1 ? ";" : "",
		    pk->kind == SEL_EVENT ? "event " : "", pk->name);
		if (live_is_lpar(v))
			live_title_lpars(pk, v, &title);
		else {
			idx = view_catalog_items_indices(pk->indices,
			    pk->nindices);
			strbuf_adds(&title, idx);
			free(idx);
		}
	}
	/* Rows that read different groups: a column's total is of some. */
	if (lv->groupcol) {
		strbuf_adds(&title, " (totals: only the ");
		live_terms(v, &title);
		strbuf_adds(&title, " a column is picked on)");
	}
	lv->title = strbuf_detach(&title);
	strbuf_free(&sb);
}

/* A view domain's slot in the per-domain sort settings: hcall domains
 * 1..6 as they are, then perf's CPU and the two partition views, anything
 * else 0. */
int
live_slot(int domain)
{
	switch (domain) {
	case CATALOG_DOMAIN_CPU:
		return (7);
	case ENG_VIEW_LPAR:
		return (8);
	case ENG_VIEW_LPAR_VCPU:
		return (9);
	}
	return (domain > 0 && domain < 7 ? domain : 0);
}

/* The domain of slot s, 1 .. LIVE_NDOMAINS - 1. */
int
live_slot_domain(int s)
{
	switch (s) {
	case 7:
		return (CATALOG_DOMAIN_CPU);
	case 8:
		return (ENG_VIEW_LPAR);
	case 9:
		return (ENG_VIEW_LPAR_VCPU);
	}
	return (s);
}

const char *
live_slot_name(int s)
{
	if (s == 9)
		return ("lpar_vcpu");
	return (selection_domain_term(live_slot_domain(s)));
}

/*
 * One prefix per column, from the largest value among its rows and total
 * in snapshot s (NULL: none), shared by the columns of a unit family,
 * and held while the values stay in its band.
 * Taken when the snapshot shown changes, not on every layout.
 */
static void
live_scales(struct ui *ui, const struct engine_snapshot *s)
{
	const struct engine	*e = session_engine(ui->ses);
	struct live_view	*lv;
	struct export_units	*u;
	const char		**units;
	size_t			 i, j;

	for (i = 0; i < ui->live.nv; i++) {
		lv = &ui->live.v[i];
		if (lv->scale == NULL) {
			lv->scale = xcalloc(lv->hcols + 1, sizeof *lv->scale);
			lv->unit = xcalloc(lv->hcols + 1, sizeof *lv->unit);
			for (j = 0; j <= lv->hcols; j++)
				lv->scale[j] = -1;
		}
		units = xcalloc(lv->hcols + 1, sizeof *units);
		for (j = 0; j < lv->hcols; j++)
			units[j] = live_col_unit(ui, i, j);
		u = export_units_new(lv->hcols, units);
		/* Held from the last snapshot: no prefix flips on a
		 * small change. */
		export_view_scales_held(e, s, i, u, lv->scale, lv->scale,
		    lv->unit);
		export_units_free(u);
		free(units);
	}
}

void
live_reset(struct ui *ui)
{
	const struct engine	*e = session_engine(ui->ses);
	const struct engine_view *v;
	struct live		*l = &ui->live;
	struct live_view	*lv;
	size_t			 i, n, k, cells;

	for (i = 0; i < l->nv; i++)
		live_view_free(&l->v[i]);
	free(l->v);
	l->v = NULL;
	l->nlines = 0;
	l->nv = engine_nviews(e);
	if (l->nv > 0)
		l->v = xcalloc(l->nv, sizeof *l->v);
	/* Every cell's history, as deep as the budget allows. */
	for (i = 0, cells = 0; i < l->nv; i++) {
		v = engine_view(e, i);
		cells += (v->nrows + 1) * (v->nevents + v->nmetrics > 0 ?
		    v->nevents + v->nmetrics : 1);
	}
	l->hdepth = LIVE_HIST;
	if (cells > 0 && cells * LIVE_HIST > LIVE_HIST_BUDGET)
		l->hdepth = LIVE_HIST_BUDGET / cells < LIVE_SPARK ?
		    LIVE_SPARK : LIVE_HIST_BUDGET / cells;
	for (i = 0; i < l->nv; i++) {
		v = engine_view(e, i);
		lv = &l->v[i];
		lv->sort = -1;
		lv->hcols = v->nevents + v->nmetrics;
		n = (v->nrows + 1) * (lv->hcols > 0 ? lv->hcols : 1) *
		    l->hdepth;
		lv->hist = xcalloc(n, sizeof *lv->hist);
		for (k = 0; k < n; k++)
			lv->hist[k] = NAN;
		live_rowpicks(ui, v, lv);
	}
	l->hhead = l->hcount = 0;
	if (l->scratch == NULL)
		l->scratch = xcalloc(1, sizeof *l->scratch);
	live_scales(ui, ui->snap);
	l->stale = 1;
}

void
live_push(struct ui *ui, const struct engine_snapshot *s)
{
	const struct engine	*e = session_engine(ui->ses);
	const struct engine_view *v;
	const struct engine_cell *c;
	struct live		*l = &ui->live;
	struct live_view	*lv;
	size_t			 i, r, col;

	if (l->hdepth == 0)
		return;		/* no live_reset() yet */
	/* A replay that jumped back starts the history afresh: its ages
	 * must grow from the newest sample to the oldest. */
	if (l->hcount > 0 && (double)s->now / 1e9 <
	    l->htime[(l->hhead + l->hdepth - 1) % l->hdepth])
		l->hcount = 0;
	for (i = 0; i < l->nv && i < s->nviews; i++) {
		v = engine_view(e, i);
		lv = &l->v[i];
		for (r = 0; r <= v->nrows; r++) {
			for (col = 0; col < lv->hcols; col++) {
				c = engine_cell(e, s, i, r, col);
				lv->hist[(r * lv->hcols + col) * l->hdepth +
				    l->hhead] = c != NULL &&
				    c->status == ENG_OK ? c->value : NAN;
			}
		}
	}
	l->htime[l->hhead] = (double)s->now / 1e9;
	l->hhead = (l->hhead + 1) % l->hdepth;
	if (l->hcount < l->hdepth)
		l->hcount++;
	live_scales(ui, s);
}

size_t
live_history(const struct ui *ui, size_t view, size_t row, size_t col,
    double *out, size_t max)
{
	const struct live	*l = &ui->live;
	const struct live_view	*lv;
	const double		*h;
	size_t			 n, i, start;

	if (view >= l->nv || col >= l->v[view].hcols)
		return (0);
	lv = &l->v[view];
	h = &lv->hist[(row * lv->hcols + col) * l->hdepth];
	n = l->hcount < max ? l->hcount : max;
	start = (l->hhead + l->hdepth - n) % l->hdepth;
	for (i = 0; i < n; i++)
		out[i] = h[(start + i) % l->hdepth];
	return (n);
}

size_t
live_ages(const struct ui *ui, double *out, size_t max)
{
	const struct live	*l = &ui->live;
	size_t			 n, i, start;
	double			 last;

	if (l->hdepth == 0)
		return (0);	/* no live_reset() yet */
	n = l->hcount < max ? l->hcount : max;
	start = (l->hhead + l->hdepth - n) % l->hdepth;
	last = l->htime[(l->hhead + l->hdepth - 1) % l->hdepth];
	for (i = 0; i < n; i++)
		out[i] = last - l->htime[(start + i) % l->hdepth];
	return (n);
}

const char *
live_col_name(const struct ui *ui, size_t view, size_t col)
{
	const struct engine_view *v;

	if ((v = engine_view(session_engine(ui->ses), view)) == NULL)
		return ("");
	if (col < v->nevents)
		return (v->events[col]->name);
	if (col - v->nevents < v->nmetrics)
		return (v->metrics[col - v->nevents].name);
	return ("");
}

const char *
live_col_unit(const struct ui *ui, size_t view, size_t col)
{
	const struct engine_view *v;

	if ((v = engine_view(session_engine(ui->ses), view)) == NULL)
		return ("");
	if (col < v->nevents)
		return ("/s");
	if (col - v->nevents < v->nmetrics)
		return (v->metrics[col - v->nevents].unit);
	return ("");
}

const char *
live_col_shown_unit(const struct ui *ui, size_t view, size_t col)
{
	const struct live_view	*lv;

	if (view >= ui->live.nv)
		return ("");
	lv = &ui->live.v[view];
	if (lv->unit == NULL || col >= lv->hcols)
		return (live_col_unit(ui, view, col));
	return (lv->unit[col]);
}

int
live_col_scale(const struct ui *ui, size_t view, size_t col)
{
	const struct live_view	*lv;

	if (view >= ui->live.nv)
		return (-1);
	lv = &ui->live.v[view];
	if (lv->scale == NULL || col >= lv->hcols)
		return (-1);
	return (lv->scale[col]);
}

static char *
live_lower(const char *s, char *buf, size_t len)
{
	size_t	 i;

	if (s == NULL)
		return (NULL);
	for (i = 0; s[i] != '\0' && i + 1 < len; i++)
		buf[i] = s[i] >= 'A' && s[i] <= 'Z' ? (char)(s[i] + 32) : s[i];
	buf[i] = '\0';
	return (buf);
}

/* Does the filter keep column col of a view? */
static int
live_col_match(const struct ui *ui, const struct engine_view *v, size_t col)
{
	const struct catalog_event	*ev;
	const struct selection		*sel;
	const struct sel_pick		*pk;
	struct filter_item		 it;
	const char			*groups[1];
	char				 name[256], desc[1024], grp[256];

	if (filter_empty(ui->filter))
		return (1);
	memset(&it, 0, sizeof it);
	it.domain = v->term;
	if (col < v->nevents) {
		ev = v->events[col];
		it.name = live_lower(ev->name, name, sizeof name);
		it.desc = live_lower(ev->desc, desc, sizeof desc);
		it.flags = FILTER_FLAG_PICKED;
		if (ev->flags & CATALOG_FLAG_VERIFIED)
			it.flags |= FILTER_FLAG_VERIFIED;
		if (ev->flags & CATALOG_FLAG_UNVERIFIED)
			it.flags |= FILTER_FLAG_UNVERIFIED;
		if (ev->flags & CATALOG_FLAG_CAVEAT)
			it.flags |= FILTER_FLAG_CAVEAT;
		if (ev->flags & CATALOG_FLAG_BROKEN)
			it.flags |= FILTER_FLAG_BROKEN;
		sel = session_selection(ui->ses);
		if (v->pick_of[col] < sel->npicks) {
			pk = &sel->picks[v->pick_of[col]];
			groups[0] = live_lower(pk->name, grp, sizeof grp);
			it.groups = groups;
			it.ngroups = 1;
		}
	} else {
		it.name = live_lower(v->metrics[col - v->nevents].name, name,
		    sizeof name);
		it.desc = live_lower(v->metrics[col - v->nevents].desc, desc,
		    sizeof desc);
		it.flags = FILTER_FLAG_PICKED;
	}
	return (filter_match(ui->filter, &it));
}

static int
live_hidden(const struct ui *ui, const char *name)
{
	size_t	 i;

	for (i = 0; i < ui->nhidden; i++) {
		if (strcmp(ui->hidden[i], name) == 0)
			return (1);
	}
	return (0);
}

struct live_sort {
	const struct ui		*ui;
	size_t			 view;
	int			 col;
	int			 reverse;
};

static int
live_cmp(const void *a, const void *b, void *arg)
{
	const struct live_sort		*ls = arg;
	const struct engine		*e = session_engine(ls->ui->ses);
	const struct engine_view	*v = engine_view(e, ls->view);
	const struct engine_cell	*ca, *cb;
	size_t				 ra = *(const size_t *)a;
	size_t				 rb = *(const size_t *)b;
	int				 oka, okb, r;

	if (ls->col >= 0 && ls->ui->snap != NULL) {
		ca = engine_cell(e, ls->ui->snap, ls->view, ra,
		    (size_t)ls->col);
		cb = engine_cell(e, ls->ui->snap, ls->view, rb,
		    (size_t)ls->col);
		oka = ca != NULL && ca->status == ENG_OK;
		okb = cb != NULL && cb->status == ENG_OK;
		/* Rows without a value go last whichever the direction. */
		if (oka != okb)
			return (oka ? -1 : 1);
		if (oka && ca->value != cb->value) {
			r = ca->value > cb->value ? -1 : 1;
			return (ls->reverse ? -r : r);
		}
	}
	r = v->indices[ra] < v->indices[rb] ? -1 :
	    v->indices[ra] > v->indices[rb];
	return (ls->col < 0 && ls->reverse ? -r : r);
}

static void
live_add_line(struct live *l, size_t *cap, int kind, size_t view, size_t row)
{
	if (l->nlines == *cap) {
		*cap = *cap == 0 ? 64 : *cap * 2;
		l->lines = xreallocarray(l->lines, *cap, sizeof *l->lines);
	}
	l->lines[l->nlines].kind = (uint8_t)kind;
	l->lines[l->nlines].view = (uint32_t)view;
	l->lines[l->nlines].row = (uint32_t)row;
	l->nlines++;
}

/*
 * Where a column's name starts to differ from the most alike name of the
 * other shown columns of its table, back to the start of that token
 * (after a '_'): the part a cut must keep.
 */
static size_t
live_differs(const struct ui *ui, size_t view, size_t col)
{
	const struct live_view	*lv = &ui->live.v[view];
	const char		*name = live_col_name(ui, view, col), *o;
	size_t			 k, i, at = 0;

	for (k = 0; k < lv->ncols; k++) {
		if (lv->cols[k] == col)
			continue;
		o = live_col_name(ui, view, lv->cols[k]);
		for (i = 0; name[i] != '\0' && name[i] == o[i]; i++)
			;
		if (i > at)
			at = i;
	}
	while (at > 0 && name[at - 1] != '_')
		at--;
	return (at);
}

/* A view's columns (filter, hidden) and its rows in sort order. */
static void
live_layout_view(struct ui *ui, size_t i)
{
	const struct engine_view *v = engine_view(session_engine(ui->ses), i);
	struct live		*l = &ui->live;
	struct live_view	*lv = &l->v[i];
	struct live_sort	 ls;
	size_t			 j, k, r;
	int			 d;

	free(lv->cols);
	free(lv->keep);
	lv->cols = NULL;
	lv->keep = NULL;
	lv->ncols = 0;
	if (lv->hcols > 0) {
		lv->cols = xcalloc(lv->hcols, sizeof *lv->cols);
		lv->keep = xcalloc(lv->hcols, sizeof *lv->keep);
	}
	/* Metrics first: they are what the tables are read for. */
	for (k = 0; k < lv->hcols; k++) {
		j = (k + v->nevents) % lv->hcols;
		if (live_hidden(ui, live_col_name(ui, i, j)) ||
		    !live_col_match(ui, v, j))
			continue;
		lv->cols[lv->ncols++] = j;
	}
	for (k = 0; k < lv->ncols; k++)
		lv->keep[k] = live_differs(ui, i, lv->cols[k]);
	if (lv->col >= lv->ncols)
		lv->col = lv->ncols > 0 ? lv->ncols - 1 : 0;
	/* The sort column by name, kept per domain. */
	d = live_slot(v->domain);
	lv->sort = -1;
	lv->reverse = l->sortrev[d];
	for (j = 0; l->sortname[d] != NULL && j < lv->hcols; j++) {
		if (strcmp(live_col_name(ui, i, j), l->sortname[d]) == 0) {
			lv->sort = (int)j;
			break;
		}
	}
	free(lv->order);
	lv->nrows = v->nrows;
	lv->order = xcalloc(v->nrows + 1, sizeof *lv->order);
	for (r = 0; r < v->nrows; r++)
		lv->order[r] = r;
	ls.ui = ui;
	ls.view = i;
	ls.col = lv->sort;
	ls.reverse = lv->reverse;
	if (v->nrows > 1)
		qsort_r(lv->order, v->nrows, sizeof *lv->order, live_cmp, &ls);
}

/* Put the cursor back on the same row of the same view, or the first. */
static void
live_layout_cursor(struct ui *ui, int have, size_t cview, size_t crow)
{
	const struct live	*l = &ui->live;
	size_t			 i, r;

	ui->list[UI_LIVE].cursor = 0;
	for (i = 0; i < l->nlines; i++) {
		if (l->lines[i].kind != LIVE_ROW &&
		    l->lines[i].kind != LIVE_TOTAL)
			continue;
		if (ui->list[UI_LIVE].cursor == 0)
			ui->list[UI_LIVE].cursor = i;
		if (!have || l->lines[i].view != cview)
			continue;
		r = l->lines[i].kind == LIVE_TOTAL ? l->v[cview].nrows :
		    l->v[cview].order[l->lines[i].row];
		if (r == crow) {
			ui->list[UI_LIVE].cursor = i;
			break;
		}
	}
	if (ui->list[UI_LIVE].top >= l->nlines)
		ui->list[UI_LIVE].top = 0;
}

void
live_layout(struct ui *ui)
{
	const struct engine	*e = session_engine(ui->ses);
	const struct engine_view *v;
	struct live		*l = &ui->live;
	size_t			 i, r, cap = 0, cview = 0, crow = 0;
	int			 have;

	have = live_cursor(ui, &cview, &crow) == 0;
	l->stale = 0;
	l->nlines = 0;
	for (i = 0; i < l->nv; i++) {
		v = engine_view(e, i);
		live_layout_view(ui, i);
		if (l->v[i].ncols == 0 && !filter_empty(ui->filter))
			continue;
		live_add_line(l, &cap, LIVE_TITLE, i, 0);
		live_add_line(l, &cap, LIVE_HEAD, i, 0);
		if (l->v[i].twoline)
			live_add_line(l, &cap, LIVE_HEAD2, i, 0);
		live_add_line(l, &cap, LIVE_UNIT, i, 0);
		for (r = 0; r < v->nrows; r++)
			live_add_line(l, &cap, LIVE_ROW, i, r);
		live_add_line(l, &cap, LIVE_TOTAL, i, v->nrows);
		live_add_line(l, &cap, LIVE_BLANK, i, 0);
	}
	live_layout_cursor(ui, have, cview, crow);
}

int
live_goto(struct ui *ui, size_t view, size_t row)
{
	const struct live	*l = &ui->live;
	const struct live_line	*ln;
	size_t			 i, r;

	for (i = 0; i < l->nlines; i++) {
		ln = &l->lines[i];
		if (ln->view != view || (ln->kind != LIVE_ROW &&
		    ln->kind != LIVE_TOTAL))
			continue;
		r = ln->kind == LIVE_TOTAL ? l->v[view].nrows :
		    l->v[view].order[ln->row];
		if (r == row) {
			ui->list[UI_LIVE].cursor = i;
			return (0);
		}
	}
	return (-1);
}

int
live_cursor(const struct ui *ui, size_t *view, size_t *row)
{
	const struct live	*l = &ui->live;
	const struct live_line	*ln;
	size_t			 c = ui->list[UI_LIVE].cursor;

	if (c >= l->nlines)
		return (-1);
	ln = &l->lines[c];
	if (ln->kind != LIVE_ROW && ln->kind != LIVE_TOTAL)
		return (-1);
	if (ln->view >= l->nv || l->v[ln->view].order == NULL)
		return (-1);
	*view = ln->view;
	*row = ln->kind == LIVE_TOTAL ? l->v[ln->view].nrows :
	    l->v[ln->view].order[ln->row];
	return (0);
}

void
live_move(struct ui *ui, long n)
{
	const struct live	*l = &ui->live;
	size_t			 c = ui->list[UI_LIVE].cursor, last = c;
	int			 kind;

	while (n != 0) {
		if (n > 0 && c + 1 >= l->nlines)
			break;
		if (n < 0 && c == 0)
			break;
		c = n > 0 ? c + 1 : c - 1;
		kind = l->lines[c].kind;
		if (kind == LIVE_ROW || kind == LIVE_TOTAL) {
			last = c;
			n += n > 0 ? -1 : 1;
		}
	}
	ui->list[UI_LIVE].cursor = last;
}

void
live_sort_step(struct ui *ui, int dir)
{
	struct live		*l = &ui->live;
	struct live_view	*lv;
	const struct engine_view *v;
	size_t			 view, row, k;
	long			 pos;
	int			 d;

	if (live_cursor(ui, &view, &row) != 0)
		return;
	lv = &l->v[view];
	v = engine_view(session_engine(ui->ses), view);
	/* Positions: -1 is the index column, then the shown columns. */
	pos = -1;
	for (k = 0; k < lv->ncols; k++) {
		if ((int)lv->cols[k] == lv->sort)
			pos = (long)k;
	}
	pos += dir;
	if (pos < -1)
		pos = (long)lv->ncols - 1;
	if (pos >= (long)lv->ncols)
		pos = -1;
	d = live_slot(v->domain);
	free(l->sortname[d]);
	l->sortname[d] = pos < 0 ? NULL :
	    xstrdup(live_col_name(ui, view, lv->cols[pos]));
	if (pos >= 0)
		lv->col = (size_t)pos;
	l->stale = 1;
}

void
live_format(const struct ui *ui, size_t view, size_t row, size_t col,
    int width, char *buf, size_t len, int *role)
{
	const struct engine		*e = session_engine(ui->ses);
	const struct engine_view	*v = engine_view(e, view);
	const struct engine_cell	*c;
	struct strbuf			*sb = ui->live.scratch;

	*role = row == v->nrows ? UI_R_TOTAL : UI_R_NORMAL;
	buf[0] = '\0';
	if (ui->snap == NULL ||
	    (c = engine_cell(e, ui->snap, view, row, col)) == NULL)
		return;
	switch (c->status) {
	case ENG_OK:
		strbuf_reset(sb);
		export_cell_scaled(c, live_col_scale(ui, view, col), width,
		    sb);
		snprintf(buf, len, "%s", sb->s);
		return;
	case ENG_ABSENT:
		return;
	default:
		break;
	}
	*role = UI_R_INVALID;
	if (col >= v->nevents && c->status == ENG_NOVALUE) {
		snprintf(buf, len, "%*s", width,
		    c->reason == FORMULA_DIVZERO ? "-" : "?");
		return;
	}
	snprintf(buf, len, "%*s", width, "-");
}
