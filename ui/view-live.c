/*
 * The Live screen as text: per engine view a title (which groups run on
 * which indices), column names and units, one row per chip or core, the
 * total; the cursor row and cell; horizontal scrolling over columns and a
 * sticky column header when the rows scroll; and the detail pane that
 * lists every column of the cursor row with its history and, where there
 * is no value, the reason.  No curses.
 */
#include "config.h"

#include "ui/view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "model/selection.h"
#include "session/session.h"
#include "export/export.h"
#include "ui/chart.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define LIVE_COL_MIN	7
#define LIVE_COL_MAX	14	/* names wrap over two lines down to this */
#define LIVE_COL_WIDE	28	/* ... and are kept whole up to this */
#define LIVE_GROUP_MAX	18
#define LIVE_SPARKW	10	/* the sparkline column */
#define LIVE_CHART_MAX	16	/* the detail pane's chart, lines */

struct view_live_geom {
	int		 iw;		/* index column */
	int		 gw;		/* group column, 0 when not shown */
	int		 x0;		/* first value column */
};

/*
 * view_elide(), but a name whose part from keep on would be cut away
 * keeps that part: its end when it fits, else a window that opens at
 * keep ("~MC0_CHAN~"), so that names differing there stay apart.
 */
static void
view_live_elide(const char *name, size_t keep, int w, char *buf,
    size_t len)
{
	size_t	 n = strlen(name), tail, head;

	if ((int)n <= w || w < 4 || (size_t)w >= len) {
		view_elide(name, w, buf, len);
		return;
	}
	tail = (size_t)(w - 1) / 2 + (size_t)(w - 1) % 2;
	head = (size_t)w - 1 - tail;
	if (keep < head || keep >= n - tail) {
		view_elide(name, w, buf, len);
		return;
	}
	if (n - keep <= (size_t)w - 1) {
		tail = n - keep;
		head = (size_t)w - 1 - tail;
		snprintf(buf, len, "%.*s~%s", (int)head, name, name + keep);
	} else
		snprintf(buf, len, "~%.*s~", w - 2, name + keep);
}

/*
 * Split a column name over two header lines of width w, only after a '_':
 * where it balances the halves best; else after the last '_' that leaves
 * a first line of at most w, the rest losing its middle to '~'; else the
 * name loses its middle on one line.  A name is never cut inside a token,
 * and what is cut away never includes keep, where the name starts to
 * differ from its neighbours'.
 */
static void
view_live_split(const char *name, size_t keep, int w, char *l1, char *l2,
    size_t len)
{
	size_t	 n, i, best = 0, bw = (size_t)-1, last = 0, a, b;

	l2[0] = '\0';
	n = strlen(name);
	if ((int)n <= w) {
		snprintf(l1, len, "%s", name);
		return;
	}
	for (i = 1; i + 1 < n; i++) {
		if (name[i - 1] != '_')
			continue;
		a = i;
		b = n - i;
		if ((int)a <= w)
			last = i;
		if ((int)a <= w && (int)b <= w && (a > b ? a : b) < bw) {
			bw = a > b ? a : b;
			best = i;
		}
	}
	if (best != 0) {
		snprintf(l1, len, "%.*s", (int)best, name);
		snprintf(l2, len, "%s", name + best);
	} else if (last != 0 && keep >= last) {
		snprintf(l1, len, "%.*s", (int)last, name);
		view_live_elide(name + last, keep - last, w, l2, len);
	} else if (last != 0) {
		snprintf(l1, len, "%.*s", (int)last, name);
		view_elide(name + last, w, l2, len);
	} else
		view_live_elide(name, keep, w, l1, len);
}

/* Width of a column whose name may take up to cap per line. */
static int
view_live_namew(const char *name, int cap)
{
	size_t	 n = strlen(name), i, a, b, m = (size_t)-1;

	if ((int)n <= cap)
		return ((int)n < LIVE_COL_MIN ? LIVE_COL_MIN : (int)n);
	for (i = 1; i + 1 < n; i++) {
		if (name[i - 1] != '_')
			continue;
		a = i;
		b = n - i;
		if ((a > b ? a : b) < m)
			m = a > b ? a : b;
	}
	if (m > (size_t)cap)
		return (cap);
	return ((int)m < LIVE_COL_MIN ? LIVE_COL_MIN : (int)m);
}

static int
view_live_colw(const struct ui *ui, size_t view, size_t col)
{
	int	 cap = ui->live.v[view].colmax;

	if (cap < LIVE_COL_MAX)
		cap = LIVE_COL_MAX;
	return (view_live_namew(live_col_name(ui, view, col), cap));
}

/*
 * The engine column whose history the sparkline column shows: the sort
 * column, or the cursor's when the rows are in index order; -1 if none.
 */
static int
view_live_sparkcol(const struct ui *ui, size_t view)
{
	const struct live_view	*lv = &ui->live.v[view];

	if (!ui->sparkcol || lv->ncols == 0)
		return (-1);
	return (lv->sort >= 0 ? lv->sort : (int)lv->cols[lv->col]);
}

/* A column's width with the sparkline column drawn after it. */
static int
view_live_fullw(const struct ui *ui, size_t view, size_t col)
{
	return (view_live_colw(ui, view, col) +
	    ((int)col == view_live_sparkcol(ui, view) ? 1 + LIVE_SPARKW : 0));
}

/* The widest names that still let every column fit. */
static void
view_live_colmax(struct ui *ui, size_t view, int avail)
{
	struct live_view	*lv = &ui->live.v[view];
	size_t			 k;
	int			 w;

	for (lv->colmax = LIVE_COL_WIDE; lv->colmax > LIVE_COL_MAX;
	    lv->colmax--) {
		w = 0;
		for (k = 0; k < lv->ncols; k++)
			w += 1 + view_live_fullw(ui, view, lv->cols[k]);
		if (w <= avail)
			break;
	}
}

static void
view_live_geom(const struct ui *ui, size_t view, struct view_live_geom *g)
{
	const struct engine_view	*v;
	const struct live_view		*lv = &ui->live.v[view];
	size_t				 r;
	int				 n;
	char				 buf[16];

	v = engine_view(session_engine(ui->ses), view);
	g->iw = (int)strlen(live_term(v));
	if (g->iw < 5)
		g->iw = 5;
	if (v->nrows > 0) {
		live_row_label(v, v->nrows - 1, buf, sizeof buf);
		n = (int)strlen(buf);
		if (n > g->iw)
			g->iw = n;
	}
	g->gw = 0;
	if (lv->groupcol) {
		g->gw = 5;
		for (r = 0; r < lv->nrows; r++) {
			n = (int)strlen(lv->rowpicks[r]);
			if (n > g->gw)
				g->gw = n;
		}
		if (g->gw > LIVE_GROUP_MAX)
			g->gw = LIVE_GROUP_MAX;
	}
	g->x0 = g->iw + (g->gw > 0 ? g->gw + 1 : 0);
}

/*
 * Scroll columns so the cursor column is in [left, ...) within width,
 * with a cell to spare for the '>' that says more columns follow.
 */
static void
view_live_hscroll(struct ui *ui, size_t view, int avail)
{
	struct live_view	*lv = &ui->live.v[view];
	size_t			 k;
	int			 w;

	if (lv->ncols == 0)
		return;
	if (lv->col >= lv->ncols)
		lv->col = lv->ncols - 1;
	if (lv->left > lv->col)
		lv->left = lv->col;
	for (;;) {
		w = lv->col + 1 < lv->ncols ? 1 : 0;
		for (k = lv->left; k <= lv->col; k++)
			w += 1 + view_live_fullw(ui, view, lv->cols[k]);
		if (w <= avail || lv->left == lv->col)
			break;
		lv->left++;
	}
	/* A wider screen brings back hidden columns rather than show
	 * blanks after the last one. */
	for (w = 0, k = lv->left; k < lv->ncols; k++)
		w += 1 + view_live_fullw(ui, view, lv->cols[k]);
	while (lv->left > 0 && w + 1 + view_live_fullw(ui, view,
	    lv->cols[lv->left - 1]) <= avail) {
		lv->left--;
		w += 1 + view_live_fullw(ui, view, lv->cols[lv->left]);
	}
}

/* A line's place in its table: what it is drawn as. */
struct view_live_at {
	const struct live_line	*ln;
	size_t			 row;		/* engine row, nrows: total */
	int			 y;
	int			 base;		/* role of the line */
	int			 cursor_view;	/* the cursor is in its table */
	int			 is_cursor;	/* it is the cursor row */
};

/*
 * The start of a line: a title (the whole line), the index column and
 * the group column.  Returns 1 when value columns follow.
 */
static int
view_live_lead(const struct ui *ui, struct view_canvas *f,
    const struct view_live_at *at, const struct view_live_geom *g)
{
	const struct engine_view	*v;
	const struct live_view		*lv = &ui->live.v[at->ln->view];
	char				 buf[64];
	int				 x, d, y = at->y;

	v = engine_view(session_engine(ui->ses), at->ln->view);
	switch (at->ln->kind) {
	case LIVE_TITLE:
		x = view_put(f, y, 0, lv->title, -1, UI_R_TITLE);
		d = live_slot(v->domain);
		if (lv->sort >= 0)
			view_putf(f, y, x + 2, UI_R_DIM, "sorted by %s%s",
			    live_col_name(ui, at->ln->view, (size_t)lv->sort),
			    lv->reverse ? " (ascending)" : "");
		else if (ui->live.sortrev[d])
			view_put(f, y, x + 2, "sorted by index, descending",
			    -1, UI_R_DIM);
		return (0);
	case LIVE_BLANK:
		return (0);
	case LIVE_HEAD:
		view_putf(f, y, 0, lv->sort < 0 ? UI_R_SORTHEAD : at->base,
		    "%-*s", g->iw, live_term(v));
		if (g->gw > 0)
			view_putf(f, y, g->iw + 1, at->base, "%-*s", g->gw,
			    "group");
		break;
	case LIVE_ROW:
		live_row_label(v, at->row, buf, sizeof buf);
		view_putf(f, y, 0, at->base, "%*s", g->iw, buf);
		if (g->gw > 0) {
			view_elide(lv->rowpicks[at->row], g->gw, buf,
			    sizeof buf);
			view_putf(f, y, g->iw + 1, at->is_cursor ? at->base :
			    UI_R_DIM, "%-*s", g->gw, buf);
		}
		break;
	case LIVE_TOTAL:
		view_putf(f, y, 0, at->base, "%-*s", g->iw, "total");
		break;
	}
	return (1);
}

/* The k-th shown column of a line at x, w wide. */
static void
view_live_cell(const struct ui *ui, struct view_canvas *f,
    const struct view_live_at *at, size_t k, int x, int w)
{
	const struct live_view	*lv = &ui->live.v[at->ln->view];
	size_t			 col = lv->cols[k];
	char			 buf[64], name[LIVE_COL_WIDE + 1];
	char			 name2[LIVE_COL_WIDE + 1];
	int			 role = at->base;

	switch (at->ln->kind) {
	case LIVE_HEAD:
	case LIVE_HEAD2:
		view_live_split(live_col_name(ui, at->ln->view, col),
		    lv->keep[k], w, name, name2, sizeof name);
		if (at->ln->kind == LIVE_HEAD2)
			memcpy(name, name2, sizeof name);
		if ((int)col == lv->sort)
			role = UI_R_SORTHEAD;
		else if (at->cursor_view && k == lv->col)
			role = UI_R_CELL;
		view_putf(f, at->y, x, role, "%*s", w, name);
		break;
	case LIVE_UNIT:
		view_elide(live_col_shown_unit(ui, at->ln->view, col), w, name,
		    sizeof name);
		view_putf(f, at->y, x, at->base, "%*s", w, name);
		break;
	default:
		live_format(ui, at->ln->view, at->row, col, w, buf, sizeof buf,
		    &role);
		if (at->is_cursor && k == lv->col)
			role = UI_R_CELL;
		else if (at->is_cursor && role != UI_R_INVALID)
			role = UI_R_CURSOR;
		view_role(f, at->y, x, w, role);
		view_put(f, at->y, x, buf, w, role);
		break;
	}
}

/* The sparkline column after column col: its name, or a row's history. */
static void
view_live_sparks(const struct ui *ui, struct view_canvas *f,
    const struct view_live_at *at, size_t col, int x)
{
	double	 hist[LIVE_SPARKW];
	size_t	 n;

	switch (at->ln->kind) {
	case LIVE_HEAD:
		view_putf(f, at->y, x, UI_R_COLHEAD, "%-*s", LIVE_SPARKW,
		    "history");
		break;
	case LIVE_ROW:
	case LIVE_TOTAL:
		n = live_history(ui, at->ln->view, at->row, col, hist,
		    LIVE_SPARKW);
		view_role(f, at->y, x, LIVE_SPARKW, UI_R_NORMAL);
		view_spark(f, at->y, x + LIVE_SPARKW - (int)n, (int)n, hist,
		    n);
		break;
	default:
		break;
	}
}

static void
view_live_line(const struct ui *ui, struct view_canvas *f, int y,
    const struct live_line *ln, int cursor_view, int is_cursor)
{
	const struct live_view	*lv = &ui->live.v[ln->view];
	struct view_live_geom	 g;
	struct view_live_at	 at = { ln, 0, y, UI_R_NORMAL, cursor_view,
				    is_cursor };
	size_t			 k;
	int			 x, w;

	view_live_geom(ui, ln->view, &g);
	at.row = ln->kind == LIVE_TOTAL ? lv->nrows :
	    ln->kind == LIVE_ROW ? lv->order[ln->row] : 0;
	if (ln->kind == LIVE_TOTAL)
		at.base = UI_R_TOTAL;
	if (is_cursor)
		at.base = UI_R_CURSOR;
	if (ln->kind == LIVE_HEAD || ln->kind == LIVE_HEAD2 ||
	    ln->kind == LIVE_UNIT)
		at.base = UI_R_COLHEAD;
	view_role(f, y, 0, -1, at.base);
	if (!view_live_lead(ui, f, &at, &g))
		return;
	/* The scroll markers take the blank before a column, never a
	 * cell: a column that does not fit whole is not drawn. */
	if (lv->left > 0)
		view_put(f, y, g.x0, "<", 1, UI_R_DIM);
	x = g.x0;
	for (k = lv->left; k < lv->ncols; k++) {
		w = view_live_fullw(ui, ln->view, lv->cols[k]);
		if (k > lv->left && x + 1 + w + (k + 1 < lv->ncols ? 1 : 0) >
		    f->width) {
			view_put(f, y, x, ">", 1, UI_R_DIM);
			break;
		}
		view_live_cell(ui, f, &at, k, x + 1,
		    view_live_colw(ui, ln->view, lv->cols[k]));
		if (w != view_live_colw(ui, ln->view, lv->cols[k]))
			view_live_sparks(ui, f, &at, lv->cols[k],
			    x + 1 + w - LIVE_SPARKW);
		x += 1 + w;
	}
}

/* Whether each table needs two lines for its names at this width. */
static void
view_live_fit_names(struct ui *ui, int width)
{
	struct live		*l = &ui->live;
	struct view_live_geom	 g;
	size_t			 i, k;
	int			 two, relayout = 0;

	for (i = 0; i < l->nv; i++) {
		view_live_geom(ui, i, &g);
		view_live_colmax(ui, i, width - g.x0);
		two = 0;
		for (k = 0; k < l->v[i].ncols; k++) {
			if ((size_t)view_live_colw(ui, i, l->v[i].cols[k]) <
			    strlen(live_col_name(ui, i, l->v[i].cols[k])))
				two = 1;
		}
		if (two != l->v[i].twoline) {
			l->v[i].twoline = two;
			relayout = 1;
		}
	}
	/* Two header lines make the lines of the table: lay it out again. */
	if (relayout)
		live_layout(ui);
	for (i = 0; i < l->nv; i++) {
		view_live_geom(ui, i, &g);
		view_live_colmax(ui, i, width - g.x0);
		view_live_hscroll(ui, i, width - g.x0);
	}
}

/* Lines a table's head takes: its title, one or two of names, units. */
static size_t
view_live_nhead(const struct live *l, size_t view)
{
	return (3 + (size_t)l->v[view].twoline);
}

/*
 * The head drawn above line top when it is a row (or the total) of a
 * table scrolled into, as line kinds, in h lines that keep one for a row:
 * the title, the names and the units; where there is no room the title
 * goes first, then the units, never the names.  Returns how many.
 */
static int
view_live_sticky(const struct live *l, size_t top, int h, uint8_t *kinds)
{
	const struct live_line	*ln = &l->lines[top];
	int			 n = 0, need, title = 1, unit = 1;

	if (ln->kind != LIVE_ROW && ln->kind != LIVE_TOTAL)
		return (0);
	need = (int)view_live_nhead(l, ln->view);
	if (need > h - 1) {
		title = 0;
		need--;
	}
	if (need > h - 1) {
		unit = 0;
		need--;
	}
	if (title)
		kinds[n++] = LIVE_TITLE;
	kinds[n++] = LIVE_HEAD;
	if (l->v[ln->view].twoline && n < h - 1)
		kinds[n++] = LIVE_HEAD2;
	if (unit)
		kinds[n++] = LIVE_UNIT;
	return (n);
}

/*
 * A first line that never leaves a table's rows without its head: a
 * title, names or units line moves on to the table's first row, over
 * which the head is drawn again.
 */
static size_t
view_live_settle(const struct live *l, size_t top)
{
	while (top + 1 < l->nlines && (l->lines[top].kind == LIVE_HEAD ||
	    l->lines[top].kind == LIVE_HEAD2 ||
	    l->lines[top].kind == LIVE_UNIT))
		top++;
	return (top);
}

/* The first line shown, so that the cursor row is on the screen. */
static size_t
view_live_top(const struct ui *ui, int h)
{
	const struct live	*l = &ui->live;
	const struct ui_list	*lst = &ui->list[UI_LIVE];
	uint8_t			 kinds[4];
	size_t			 top, cur = lst->cursor, nh;
	int			 i, nst;

	top = lst->top < l->nlines ? lst->top : 0;
	if (cur >= l->nlines)
		return (view_live_settle(l, top));
	if (cur < top)
		top = cur;
	top = view_live_settle(l, top);
	for (i = 0; i < 4 && top <= cur; i++) {
		nst = view_live_sticky(l, top, h, kinds);
		if (cur - top + (size_t)nst < (size_t)h)
			break;
		top = view_live_settle(l, cur + 1 - (size_t)(h - nst));
	}
	if (top > cur || i == 4)
		top = cur;
	/* A table's first row is shown from its title where it fits. */
	nh = view_live_nhead(l, l->lines[top].view);
	if (l->lines[top].kind == LIVE_ROW && top >= nh &&
	    l->lines[top - nh].kind == LIVE_TITLE &&
	    cur - (top - nh) < (size_t)h)
		top -= nh;
	return (top);
}

/*
 * Fit the Live screen's model to the rows y0..y1 of a width: the names'
 * widths and lines, the columns scrolled to the cursor, the rows scrolled
 * to the cursor.  The controller's step before drawing.
 */
static void
view_live_fit(struct ui *ui, int width, int y0, int y1)
{
	if (ui->live.nlines == 0)
		return;
	view_live_fit_names(ui, width);
	ui->list[UI_LIVE].top = view_live_top(ui, y1 - y0 -
	    view_detail_height(ui, y1 - y0));
}

static void
view_live(const struct ui *ui, struct view_canvas *f, int y0, int y1)
{
	const struct live	*l = &ui->live;
	const struct ui_list	*lst = &ui->list[UI_LIVE];
	struct live_line	 sticky;
	uint8_t			 kinds[4];
	size_t			 cview = 0, crow = 0, top, i;
	int			 h, dh, y, have, nst, k;

	dh = view_detail_height(ui, y1 - y0);
	h = y1 - y0 - dh;
	if (l->nlines == 0) {
		if (session_selection(ui->ses)->npicks == 0)
			view_put(f, y0, 0, "nothing selected: pick a group "
			    "on the Groups screen (Tab)", -1, UI_R_DIM);
		else
			view_put(f, y0, 0, "no column matches the filter "
			    "(Esc or = clears it)", -1, UI_R_DIM);
		return;
	}
	have = live_cursor(ui, &cview, &crow) == 0;
	top = lst->top < l->nlines ? lst->top : 0;
	y = y0;
	/* The head of a table scrolled into, drawn again above its rows. */
	nst = view_live_sticky(l, top, h, kinds);
	for (k = 0; k < nst; k++, y++) {
		sticky = l->lines[top];
		sticky.kind = kinds[k];
		view_live_line(ui, f, y, &sticky, have && cview == sticky.view &&
		    kinds[k] != LIVE_UNIT, 0);
	}
	for (i = top; i < l->nlines && y < y0 + h; i++, y++)
		view_live_line(ui, f, y, &l->lines[i],
		    have && cview == l->lines[i].view, i == lst->cursor);
	if (dh > 0)
		view_live_detail(ui, f, y1 - dh, y1);
}

/* A cell's value with its unit, or the reason it has none. */
static char *
view_live_cell_text(const struct ui *ui, size_t view, size_t row,
    size_t col)
{
	const struct engine		*e = session_engine(ui->ses);
	const struct engine_cell	*c;
	struct strbuf			 sb = { 0 };
	char				*why, *note;

	if (ui->snap == NULL)
		return (xstrdup("no interval yet"));
	c = engine_cell(e, ui->snap, view, row, col);
	if (c == NULL)
		return (xstrdup("no such cell"));
	note = export_cover_note(e, ui->snap, view, row, col);
	if (c->status == ENG_ABSENT)
		return (note != NULL ? note : xstrdup("not picked here"));
	if (c->status != ENG_OK) {
		why = engine_explain(e, ui->snap, view, row, col);
		strbuf_adds(&sb, why);
	} else {
		export_cell_scaled(c, live_col_scale(ui, view, col), 0, &sb);
		strbuf_addf(&sb, " %s", live_col_shown_unit(ui, view, col));
		why = c->estimated ? engine_explain(e, ui->snap, view, row,
		    col) : NULL;
		if (why != NULL)
			strbuf_addf(&sb, " (%s)", why);
	}
	/* A total of some rows says which. */
	if (note != NULL)
		strbuf_addf(&sb, " (%s)", note);
	free(why);
	free(note);
	return (strbuf_detach(&sb));
}

char *
view_live_status(const struct ui *ui)
{
	const struct engine_view	*v;
	const struct live_view		*lv;
	size_t				 view, row, col;
	char				*val, *pre, *s, *infix, who[48];

	if (live_cursor(ui, &view, &row) != 0)
		return (NULL);
	v = engine_view(session_engine(ui->ses), view);
	lv = &ui->live.v[view];
	if (lv->ncols == 0)
		return (NULL);
	col = lv->cols[lv->col];
	val = view_live_cell_text(ui, view, row, col);
	if (row == v->nrows)
		pre = xasprintf("total of %ss", live_term(v));
	else {
		live_row_name(v, row, who, sizeof who);
		pre = lv->groupcol ? xasprintf("%s (%s)", who,
		    lv->rowpicks[row]) : xstrdup(who);
	}
	if (col >= v->nevents) {
		infix = engine_metric_infix(&v->metrics[col - v->nevents]);
		s = xasprintf("%s: %s = %s  [%s]", pre,
		    live_col_name(ui, view, col), val, infix);
		free(infix);
	} else
		s = xasprintf("%s: %s = %s", pre,
		    live_col_name(ui, view, col), val);
	free(pre);
	free(val);
	return (s);
}

/*
 * Lines of the detail pane's chart for a width and the rows under the
 * pane's title: three rows of columns stay below it; 0 when it does not
 * fit (the sparklines of the rows remain).
 */
static int
view_live_chart_rows(int width, int rows)
{
	int	 h = rows - 3;

	if (width < 60 || h < 6)
		return (0);
	return (h > LIVE_CHART_MAX ? LIVE_CHART_MAX : h);
}

/* Copy a chart's cells into the canvas at (y, x), plot cells by mode. */
static void
view_live_chart_put(struct view_canvas *f, int y, int x,
    const struct chart *c)
{
	size_t		 off, fo;
	unsigned char	 ch;
	int		 cy, cx, role;

	for (cy = 0; cy < c->height && y + cy < f->height; cy++) {
		for (cx = 0; cx < c->width && x + cx < f->width; cx++) {
			off = (size_t)cy * (size_t)c->width + (size_t)cx;
			ch = c->cells[off];
			role = c->kinds[off] == CHART_K_AXIS ? UI_R_DIM :
			    UI_R_NORMAL;
			if (c->kinds[off] == CHART_K_PLOT) {
				if (c->mode == CHART_BRAILLE && ch != 0)
					role = UI_R_BRAILLE;
				else if (c->mode == CHART_BLOCK && ch > '0')
					role = UI_R_SPARK;
				else if (c->mode == CHART_ASCII && ch != ' ')
					role = UI_R_PLOT;
				else
					ch = ' ';
			}
			fo = (size_t)(y + cy) * (size_t)f->width +
			    (size_t)(x + cx);
			f->chars[fo] = (char)ch;
			f->roles[fo] = (uint8_t)role;
		}
	}
}

/* The history of the cursor cell as a chart of h lines at y. */
static void
view_live_chart(const struct ui *ui, struct view_canvas *f, int y, int h,
    size_t view, size_t row, size_t col)
{
	struct chart		 c = { 0 };
	struct chart_series	 s;
	double			 v[LIVE_HIST], age[LIVE_HIST];
	size_t			 i;
	int			 k;

	s.n = live_history(ui, view, row, col, v, LIVE_HIST);
	if (live_ages(ui, age, LIVE_HIST) != s.n)
		return;
	/* In the column's prefix, as its cells are. */
	for (i = 0; i < s.n; i++)
		for (k = 0; k < live_col_scale(ui, view, col); k++)
			v[i] /= 1000;
	s.v = v;
	s.age = age;
	s.unit = live_col_shown_unit(ui, view, col);
	if (chart_render(&s, f->width - 2, h, (enum chart_mode)ui->chart,
	    &c) == 0)
		view_live_chart_put(f, y, 1, &c);
	chart_free(&c);
}

/*
 * One column's line of the detail pane: its name, value, unit and
 * history, then a warning, what the cell covers, or the formula.
 */
static void
view_live_detail_col(const struct ui *ui, struct view_canvas *f, int y,
    size_t view, size_t row, size_t col, int role, int sw,
    struct strbuf *sb)
{
	const struct engine		*e = session_engine(ui->ses);
	const struct engine_view	*v = engine_view(e, view);
	const struct engine_cell	*c;
	double				 hist[LIVE_SPARK];
	size_t				 n;
	char				 name[32], *why, *note;
	int				 x;

	view_elide(live_col_name(ui, view, col), 28, name,
	    sizeof name);
	view_putf(f, y, 1, role, "%-28s", name);
	c = ui->snap != NULL ? engine_cell(e, ui->snap, view, row,
	    col) : NULL;
	strbuf_reset(sb);
	if (c != NULL && c->status == ENG_OK)
		export_cell_scaled(c,
		    live_col_scale(ui, view, col), 8, sb);
	else
		strbuf_addf(sb, "%8s", c == NULL ||
		    c->status == ENG_ABSENT ? "" :
		    col >= v->nevents ? "?" : "-");
	x = view_put(f, y, 30, sb->s, -1, c != NULL &&
	    c->status != ENG_OK ? UI_R_INVALID : role);
	view_elide(live_col_shown_unit(ui, view, col), 6, name,
	    sizeof name);
	x = view_putf(f, y, x + 1, role, "%-6s", name);
	n = live_history(ui, view, row, col, hist, LIVE_SPARK);
	view_spark(f, y, x + 1, sw, hist, n);
	x += 2 + sw;
	/* A warning first; else not picked here, or a total of
	 * some rows: say so; else the formula. */
	note = NULL;
	if (c != NULL && c->status != ENG_ABSENT &&
	    (c->status != ENG_OK || c->estimated)) {
		why = engine_explain(e, ui->snap, view, row, col);
		view_put_cut(f, y, x, why, UI_R_WARN);
		free(why);
	} else if (c != NULL && (note = export_cover_note(e,
	    ui->snap, view, row, col)) != NULL)
		view_put_cut(f, y, x, note, UI_R_DIM);
	else if (col >= v->nevents) {
		why = engine_metric_infix(&v->metrics[col -
		    v->nevents]);
		view_put_cut(f, y, x, why, UI_R_DIM);
		free(why);
	}
	free(note);
}

int
view_live_detail(const struct ui *ui, struct view_canvas *f, int y0, int y1)
{
	const struct engine		*e = session_engine(ui->ses);
	const struct engine_view	*v;
	const struct live_view		*lv;
	struct strbuf			 sb = { 0 };
	size_t				 view, row, k, first, col;
	char				 name[32];
	int				 y = y0, x, rows, role, sw, ch;

	/* Narrow screens keep room for the reasons. */
	sw = f->width >= 110 ? LIVE_SPARK : LIVE_SPARK / 2;
	view_role(f, y, 0, -1, UI_R_TITLE);
	if (live_cursor(ui, &view, &row) != 0) {
		view_put(f, y, 0, "no row under the cursor", -1, UI_R_TITLE);
		return (1);
	}
	v = engine_view(e, view);
	lv = &ui->live.v[view];
	if (row == v->nrows)
		x = view_putf(f, y, 0, UI_R_TITLE, "total of %zu %ss", v->nrows,
		    live_term(v));
	else {
		live_row_name(v, row, name, sizeof name);
		x = view_putf(f, y, 0, UI_R_TITLE, "%s  groups: %s", name,
		    lv->rowpicks[row]);
	}
	if (ui->snap != NULL && row < v->nrows)
		x = view_putf(f, y, x, UI_R_TITLE, "  interval %.3fs",
		    ui->snap->row_interval[view][row]);
	y++;
	rows = y1 - y;
	if (rows <= 0 || lv->ncols == 0)
		return (y - y0);
	if ((ch = view_live_chart_rows(f->width, rows)) > 0) {
		view_putf(f, y - 1, x, UI_R_TITLE, "  chart: %s",
		    live_col_name(ui, view, lv->cols[lv->col]));
		view_live_chart(ui, f, y, ch, view, row, lv->cols[lv->col]);
		y += ch;
		rows -= ch;
	}
	first = lv->col >= (size_t)rows ? lv->col - (size_t)rows + 1 : 0;
	for (k = first; k < lv->ncols && y < y1; k++, y++) {
		col = lv->cols[k];
		role = k == lv->col ? UI_R_CURSOR : UI_R_NORMAL;
		view_role(f, y, 0, -1, role);
		view_live_detail_col(ui, f, y, view, row, col, role, sw, &sb);
	}
	strbuf_free(&sb);
	return (y - y0);
}

const struct view_screen view_live_screen = {
	.name = "Live",
	.fit = view_live_fit,
	.render = view_live,
	.status = view_live_status,
};
