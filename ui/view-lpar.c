/*
 * The Partitions screen drawn: a row per partition (id, virtual
 * processors seen, cycles, cores, instructions, IPC, the shares of the
 * cycles off the home chip and on a remote node) and a bar of where its
 * cycles ran, or, with a partition open, the same per virtual processor.
 * The rows and their order are the model's (lpar.c); this only reads it.
 * The header lines stay in place whatever the rows scroll to.  No curses.
 */
#include "config.h"

#include "ui/view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "model/frame-map.h"
#include "model/raw.h"
#include "model/selection.h"
#include "session/session.h"
#include "util/numfmt-si.h"
#include "util/xalloc.h"

#define LPAR_BAR_MIN	8	/* narrower, no placement bar */
#define LPAR_BAR_MAX	40

static const int view_lpar_w[LPAR_NCOLS] = {
	[LPAR_C_ID] = 6,
	[LPAR_C_VCPUS] = 6,
	[LPAR_C_CYC] = 10,
	[LPAR_C_CORES] = 7,
	[LPAR_C_INST] = 10,
	[LPAR_C_IPC] = 7,	/* "IPC-NI" and a blank */
	[LPAR_C_OFFCHIP] = 9,
	[LPAR_C_REMOTE] = 9,
};

/* The placements' marks in the bar, home core first. */
static const char view_lpar_marks[SEL_NPLACES] = { '=', '+', 'o', '#' };
static const char *const view_lpar_places[SEL_NPLACES] = {
	"home core", "home chip", "home node", "remote"
};

static const char view_lpar_denied[] = "other partitions are not visible: "
    "allow performance information collection for this partition on the "
    "HMC";

/* Lines above the rows: the title, the HMC's line, the column names. */
static int
view_lpar_head_lines(const struct ui *ui)
{
	const struct topology	*t = session_topology(ui->ses);

	return (t != NULL && t->lpars_denied ? 3 : 2);
}

static void
view_lpar_fit(struct ui *ui, int width, int y0, int y1)
{
	(void)width;
	lpar_fit(ui, y1 - y0 - view_lpar_head_lines(ui));
}

/*
 * The prefix of a rate column, one for all its rows so that they line
 * up (not 975.17M above 1.44G): the power of 1000 that leaves its
 * largest value three digits before the point, as Live takes a prefix.
 */
static int
view_lpar_scale(const struct ui *ui, int col)
{
	const char	*mark;
	double		 v, max = 0;
	size_t		 pos;

	for (pos = 0; pos < ui->lp.nrows; pos++) {
		if (lpar_value(ui, ui->lp.order[pos], col, &v, &mark) == 0 &&
		    isfinite(v) && fabs(v) > max)
			max = fabs(v);
	}
	return (numfmt_si_scale(max, NUMFMT_SI_ROOM, NUMFMT_SI_TOP));
}

/* The text of a cell in w characters; its role. */
static void
view_lpar_text(const struct ui *ui, size_t row, int col, int w,
    const int *scale, char *buf, size_t len, int *role)
{
	const struct topology	*t = session_topology(ui->ses);
	const char		*mark;
	char			 num[NUMFMT_SI_MAX];
	double			 v;

	*role = UI_R_NORMAL;
	if (lpar_value(ui, row, col, &v, &mark) != 0) {
		snprintf(buf, len, "%*s", w, mark);
		*role = UI_R_INVALID;
		return;
	}
	switch (col) {
	case LPAR_C_ID:
		if (!ui->lp.opened && (unsigned)v == SEL_LPAR_SELF)
			snprintf(num, sizeof num, "self");
		else
			snprintf(num, sizeof num, "%s%u", !ui->lp.opened &&
			    t != NULL && (unsigned)v == t->lpar_self ? "*" :
			    "", (unsigned)v);
		break;
	case LPAR_C_VCPUS:
		snprintf(num, sizeof num, "%u", (unsigned)v);
		break;
	case LPAR_C_CORES:
	case LPAR_C_IPC:
		snprintf(num, sizeof num, v < 100 ? "%.2f" : "%.0f", v);
		break;
	case LPAR_C_OFFCHIP:
	case LPAR_C_REMOTE:
		snprintf(num, sizeof num, "%.1f", v);
		break;
	default:
		/* In its column's prefix, as Live spells it. */
		numfmt_si(num, v, scale[col], 0, w);
		break;
	}
	snprintf(buf, len, "%*s", w, num);
}

/* The placement bar of a row: each placement's share of the cycles. */
static void
view_lpar_bar(const struct ui *ui, struct view_canvas *f, int y, int x,
    int w, size_t row)
{
	static const int	 roles[SEL_NPLACES] = { UI_R_GOOD,
	    UI_R_NORMAL, UI_R_WARN, UI_R_ERROR };
	char			 mk[2] = { 0, 0 };
	double			 share[SEL_NPLACES], acc = 0;
	size_t			 p;
	int			 i, from = 0, to;

	for (p = 0; p < SEL_NPLACES; p++) {
		if (lpar_place(ui, row, p, &share[p]) != 0) {
			view_put(f, y, x, "-", 1, UI_R_INVALID);
			return;
		}
	}
	/* Cumulative ends, so the parts fill the bar exactly. */
	for (p = 0; p < SEL_NPLACES; p++) {
		acc += share[p];
		to = (int)lround(acc / 100.0 * w);
		if (to > w)
			to = w;
		mk[0] = view_lpar_marks[p];
		for (i = from; i < to; i++)
			view_put(f, y, x + i, mk, 1, roles[p]);
		if (to > from)
			from = to;
	}
}

static void
view_lpar_row(const struct ui *ui, struct view_canvas *f, int y, size_t pos,
    int barw, const int *scale)
{
	size_t	 row = ui->lp.order[pos];
	char	 buf[32];
	int	 x = 0, col, role, cur = pos == ui->lp.cursor;

	/* The cursor row keeps the marks of the cells without a value. */
	for (col = 0; col < LPAR_NCOLS; col++) {
		view_lpar_text(ui, row, col, view_lpar_w[col], scale, buf,
		    sizeof buf, &role);
		x = view_put(f, y, x, buf, -1, cur && role == UI_R_NORMAL ?
		    UI_R_CURSOR : role);
	}
	if (barw >= LPAR_BAR_MIN)
		view_lpar_bar(ui, f, y, x + 2, barw, row);
}

static void
view_lpar_title(const struct ui *ui, struct view_canvas *f, int y)
{
	const struct ui_lpar		*lp = &ui->lp;
	const struct engine_view	*ev;
	int				 x;

	if (lp->opened) {
		if (lp->open == SEL_LPAR_SELF)
			x = view_put(f, y, 0, "this partition", -1,
			    UI_R_TITLE);
		else
			x = view_putf(f, y, 0, UI_R_TITLE, "partition %u",
			    lp->open);
		x = view_putf(f, y, x, UI_R_NORMAL, ": %zu virtual "
		    "processor%s", lp->nrows, lp->nrows == 1 ? "" : "s");
	} else {
		ev = engine_view(session_engine(ui->ses), (size_t)lp->view);
		x = view_putf(f, y, 0, UI_R_TITLE, "%zu partition%s",
		    lp->nrows, lp->nrows == 1 ? "" : "s");
		if (lp->nrows != ev->nrows)
			x = view_putf(f, y, x, UI_R_NORMAL, " of %zu",
			    ev->nrows);
	}
	x = view_putf(f, y, x, UI_R_NORMAL, ", by %s%s", lpar_col_name(ui,
	    lp->sort), lp->reverse ? " reversed" : "");
	if (ui->snap == NULL)
		x = view_put(f, y, x, ", waiting for the first interval", -1,
		    UI_R_DIM);
	view_put(f, y, x + 2, lp->opened ? "Esc: partitions" :
	    "Enter: its vcpus", -1, UI_R_DIM);
}

static void
view_lpar_heads(const struct ui *ui, struct view_canvas *f, int y, int barw)
{
	char	 buf[32];
	int	 x = 0, col, p;

	view_role(f, y, 0, -1, UI_R_COLHEAD);
	for (col = 0; col < LPAR_NCOLS; col++) {
		snprintf(buf, sizeof buf, "%*s", view_lpar_w[col],
		    lpar_col_name(ui, col));
		x = view_put(f, y, x, buf, -1, col == ui->lp.sort ?
		    UI_R_SORTHEAD : UI_R_COLHEAD);
	}
	if (barw < LPAR_BAR_MIN)
		return;
	x += 2;
	if (barw < 34) {
		view_put(f, y, x, "PLACEMENT", barw, UI_R_COLHEAD);
		return;
	}
	/* The key to the bar's marks where it has room. */
	for (p = 0; p < SEL_NPLACES; p++)
		x = view_putf(f, y, x, UI_R_COLHEAD, "%c%s ",
		    view_lpar_marks[p], p == 0 ? "core" : p == 1 ? "chip" :
		    p == 2 ? "node" : "remote");
}

static void
view_lpar_render(const struct ui *ui, struct view_canvas *f, int y0, int y1)
{
	const struct ui_lpar	*lp = &ui->lp;
	const struct topology	*t = session_topology(ui->ses);
	const char		*g;
	size_t			 pos;
	int			 y = y0, barw, col, scale[LPAR_NCOLS];

	if (lp->view < 0) {
		view_put(f, y0, 0, "No partition is read: the Partitions "
		    "screen needs a core group read by partition.", -1,
		    UI_R_WARN);
		g = lpar_default_group(ui);
		if (g != NULL)
			view_putf(f, y0 + 1, 0, UI_R_NORMAL, "Pick one: g "
			    "%s@lpar (or hvtop -g %s@lpar).", g, g);
		else
			view_put(f, y0 + 1, 0, "Pick one: g GROUP@lpar (or "
			    "hvtop -g GROUP@lpar).", -1, UI_R_NORMAL);
		if (lp->why[0] != '\0')
			view_put_cut(f, y0 + 2, 0, lp->why, UI_R_ERROR);
		return;
	}
	view_lpar_title(ui, f, y++);
	if (t != NULL && t->lpars_denied)
		view_put_cut(f, y++, 0, view_lpar_denied, UI_R_WARN);
	barw = f->width - 63 - 2;
	if (barw > LPAR_BAR_MAX)
		barw = LPAR_BAR_MAX;
	view_lpar_heads(ui, f, y++, barw);
	if (lp->nrows == 0) {
		view_put(f, y, 0, ui->filter != NULL ? "nothing matches the "
		    "filter (= clears it)" : "no partition answered yet", -1,
		    UI_R_DIM);
		return;
	}
	for (col = 0; col < LPAR_NCOLS; col++)
		scale[col] = col == LPAR_C_CYC || col == LPAR_C_INST ?
		    view_lpar_scale(ui, col) : 0;
	for (pos = lp->top; pos < lp->nrows && y < y1; pos++)
		view_lpar_row(ui, f, y++, pos, barw, scale);
}

static char *
view_lpar_status(const struct ui *ui)
{
	const struct ui_lpar	*lp = &ui->lp;
	const struct engine_view *ev;
	char			 who[48], *why, *s;
	double			 share[SEL_NPLACES] = { NAN, NAN, NAN, NAN };
	size_t			 row, p;
	int			 col;

	if (lp->view < 0 || lpar_cursor(ui, &row) != 0)
		return (NULL);
	ev = engine_view(session_engine(ui->ses), (size_t)(lp->opened ?
	    lp->vview : lp->view));
	if (lp->opened)
		snprintf(who, sizeof who, "vcpu %u", ENG_ROW_VCPU(
		    ev->indices[row]));
	else if (ev->indices[row] == SEL_LPAR_SELF)
		snprintf(who, sizeof who, "this partition");
	else
		snprintf(who, sizeof who, "lpar %u", ev->indices[row]);
	/* Why the sort column, else the first column, has no value. */
	col = lp->sort;
	if ((why = lpar_explain(ui, row, col)) == NULL) {
		for (col = LPAR_C_CYC; col < LPAR_NCOLS; col++) {
			if ((why = lpar_explain(ui, row, col)) != NULL)
				break;
		}
	}
	if (why != NULL) {
		s = xasprintf("%s: %s: %s", who, lpar_col_name(ui, col), why);
		free(why);
		return (s);
	}
	for (p = 0; p < SEL_NPLACES; p++)
		(void)lpar_place(ui, row, p, &share[p]);
	return (xasprintf("%s: cycles %.1f%% %s, %.1f%% %s, %.1f%% %s, "
	    "%.1f%% %s%s", who, share[0], view_lpar_places[0], share[1],
	    view_lpar_places[1], share[2], view_lpar_places[2], share[3],
	    view_lpar_places[3], lp->opened ? "" : "; Enter: its vcpus"));
}

const struct view_screen view_lpar_screen = {
	.name = "Partitions",
	.fit = view_lpar_fit,
	.render = view_lpar_render,
	.status = view_lpar_status,
};
