/*
 * The Partitions screen's model: which engine views hold the partitions
 * and their virtual processors, which event columns are the cycles and
 * the instructions, the rows the filter keeps in the order of the sort
 * column, and the cursor, which stays on its partition when the rows
 * move.  The values of a row are the engine's: its events summed over
 * the four placements, each placement's part of the cycles, and the
 * core frequency the session knows.  No curses: view-lpar.c draws from
 * this and the tests read it directly.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "engine/engine-lpar.h"
#include "model/raw.h"
#include "model/selection.h"
#include "session/session.h"
#include "filter/filter.h"
#include "ui/ui-model.h"
#include "util/xalloc.h"

struct lpar_key {
	double		 k;
	unsigned	 index;
	size_t		 row;
};

static const char *const lpar_names[LPAR_NCOLS] = {
	[LPAR_C_ID] = "LPAR",
	[LPAR_C_VCPUS] = "VCPUS",
	[LPAR_C_CYC] = "CYCLES/S",
	[LPAR_C_CORES] = "CORES",
	[LPAR_C_INST] = "INSTR/S",
	[LPAR_C_IPC] = "IPC",
	[LPAR_C_OFFCHIP] = "%OFFCHIP",
	[LPAR_C_REMOTE] = "%REMOTE",
};

/* The columns that are cells the engine derives (enum engine_derived),
 * and the factor they are shown with (shares in %); -1 for the others. */
static const struct {
	int	 what;
	double	 scale;
} lpar_derive[LPAR_NCOLS] = {
	[LPAR_C_ID] = { -1, 1 },
	[LPAR_C_VCPUS] = { -1, 1 },
	[LPAR_C_CYC] = { -1, 1 },
	[LPAR_C_CORES] = { ENG_DERIVE_CORES, 1 },
	[LPAR_C_INST] = { -1, 1 },
	[LPAR_C_IPC] = { ENG_DERIVE_IPC, 1 },
	[LPAR_C_OFFCHIP] = { ENG_DERIVE_OFF_CHIP, 100 },
	[LPAR_C_REMOTE] = { ENG_DERIVE_REMOTE, 100 },
};

static long
lpar_find_view(const struct engine *e, int domain)
{
	size_t	 i;

	if (e == NULL || (i = engine_view_find(e, domain)) == ENG_NONE)
		return (-1);
	return ((long)i);
}

int
lpar_read(const struct ui *ui)
{
	return (ui->ses != NULL && lpar_find_view(session_engine(ui->ses),
	    ENG_VIEW_LPAR) >= 0);
}

int
lpar_shown(const struct ui *ui)
{
	return (ui->screen == UI_LPAR || lpar_read(ui));
}

const char *
lpar_default_group(const struct ui *ui)
{
	const struct catalog		*cat;
	const struct catalog_group	*g;
	const char			*name;
	size_t				 i, k;
	int				 cyc, inst;

	if (ui->ses == NULL || (cat = session_catalog(ui->ses)) == NULL)
		return (NULL);
	for (i = 0; i < cat->ngroups; i++) {
		g = &cat->groups[i];
		if (g->domain != CATALOG_DOMAIN_CORE || g->name == NULL)
			continue;
		cyc = inst = 0;
		for (k = 0; k < CATALOG_GROUP_SLOTS; k++) {
			if (g->events[k] == CATALOG_SLOT_FREE ||
			    g->events[k] >= cat->nevents)
				continue;
			name = cat->events[g->events[k]].name;
			if (name == NULL)
				continue;
			cyc |= engine_lpar_is_cycles(name);
			inst |= engine_lpar_is_insts(name);
		}
		if (cyc && inst)
			return (g->name);
	}
	return (NULL);
}

/* The view the screen lists now: the vcpus of an open partition or the
 * partitions. */
static const struct engine_view *
lpar_list_view(const struct ui *ui, size_t *view)
{
	long	 v = ui->lp.opened ? ui->lp.vview : ui->lp.view;

	if (v < 0 || ui->ses == NULL)
		return (NULL);
	if (view != NULL)
		*view = (size_t)v;
	return (engine_view(session_engine(ui->ses), (size_t)v));
}

static const struct engine_cell *
lpar_cell(const struct ui *ui, size_t row, size_t col)
{
	size_t	 view;

	if (col == ENG_NONE || ui->snap == NULL ||
	    lpar_list_view(ui, &view) == NULL)
		return (NULL);
	return (engine_cell(session_engine(ui->ses), ui->snap, view, row,
	    col));
}

/* The column of a value the engine derives (what, of event column col
 * and placement p where they apply) in the listed view, or ENG_NONE. */
static size_t
lpar_derived_col(const struct ui *ui, int what, size_t col, size_t p)
{
	if (ui->snap == NULL)
		return (ENG_NONE);
	return (engine_derive_col(lpar_list_view(ui, NULL), what, col, p));
}

int
lpar_place(const struct ui *ui, size_t row, size_t p, double *v)
{
	const struct engine_cell	*c;

	if (ui->lp.cyc == ENG_NONE || (c = lpar_cell(ui, row,
	    lpar_derived_col(ui, ENG_DERIVE_PLACE, ui->lp.cyc, p))) == NULL ||
	    c->status != ENG_OK)
		return (-1);
	*v = c->value * 100.0;
	return (0);
}

/* Cycles or instructions of a row, or the mark of the cell. */
static int
lpar_event(const struct ui *ui, size_t row, size_t col, double *v,
    const char **mark)
{
	const struct engine_cell	*c;

	if ((c = lpar_cell(ui, row, col)) == NULL) {
		*mark = col == ENG_NONE ? "?" : "-";
		return (-1);
	}
	if (c->status != ENG_OK) {
		*mark = engine_cell_mark(c);
		return (-1);
	}
	*v = c->value;
	return (0);
}

int
lpar_value(const struct ui *ui, size_t row, int col, double *v,
    const char **mark)
{
	const struct engine_view	*ev;
	const struct engine_cell	*c;

	*mark = "-";
	if ((ev = lpar_list_view(ui, NULL)) == NULL || row >= ev->nrows + 1)
		return (-1);
	switch (col) {
	case LPAR_C_ID:
		if (row >= ev->nrows)
			return (-1);
		*v = ui->lp.opened ? ENG_ROW_VCPU(ev->indices[row]) :
		    ev->indices[row];
		return (0);
	case LPAR_C_VCPUS:
		/* Where a vcpu's home is, no source says. */
		if (ui->lp.opened || ev->vcpus == NULL)
			return (-1);
		*v = ev->vcpus[row];
		return (0);
	case LPAR_C_CYC:
		return (lpar_event(ui, row, ui->lp.cyc, v, mark));
	case LPAR_C_INST:
		return (lpar_event(ui, row, ui->lp.inst, v, mark));
	}
	if (col < 0 || col >= LPAR_NCOLS || lpar_derive[col].what < 0 ||
	    (c = lpar_cell(ui, row, lpar_derived_col(ui,
	    lpar_derive[col].what, 0, 0))) == NULL)
		return (-1);
	if (c->status != ENG_OK) {
		*mark = engine_cell_mark(c);
		return (-1);
	}
	*v = c->value * lpar_derive[col].scale;
	return (0);
}

char *
lpar_explain(const struct ui *ui, size_t row, int col)
{
	const struct engine_cell	*c;
	const char			*mark;
	size_t				 view, ecol;
	double				 v;

	if (lpar_list_view(ui, &view) == NULL ||
	    lpar_value(ui, row, col, &v, &mark) == 0)
		return (NULL);
	if (col == LPAR_C_VCPUS)
		return (xstrdup(ui->lp.opened ? "home core: not known (no "
		    "source says which core is a virtual processor's home)" :
		    "the source did not count the virtual processors"));
	if (ui->snap == NULL)
		return (xstrdup("waiting for the first interval"));
	if (col == LPAR_C_CYC || col == LPAR_C_INST) {
		ecol = col == LPAR_C_CYC ? ui->lp.cyc : ui->lp.inst;
		if (ecol == ENG_NONE)
			return (xasprintf("no %s event is read by partition "
			    "(pick a core group with one: g GROUP@lpar)",
			    col == LPAR_C_CYC ? "core cycles" :
			    "instructions"));
		c = engine_cell(session_engine(ui->ses), ui->snap, view, row,
		    ecol);
		return (c == NULL ? NULL : engine_explain(session_engine(
		    ui->ses), ui->snap, view, row, ecol));
	}
	if (col < 0 || col >= LPAR_NCOLS || (ecol = lpar_derived_col(ui,
	    lpar_derive[col].what, 0, 0)) == ENG_NONE)
		return (NULL);
	return (engine_explain(session_engine(ui->ses), ui->snap, view, row,
	    ecol));
}

const char *
lpar_sort_name(int col)
{
	return (col >= 0 && col < LPAR_NCOLS ? lpar_names[col] : "");
}

const char *
lpar_col_name(const struct ui *ui, int col)
{
	if (col < 0 || col >= LPAR_NCOLS)
		return ("");
	if (ui->lp.opened && col == LPAR_C_ID)
		return ("VCPU");
	if (ui->lp.opened && col == LPAR_C_VCPUS)
		return ("HOME");
	/* What the IPC divides by: non-idle cycles when they are read. */
	if (col == LPAR_C_IPC && lpar_list_view(ui, NULL) != NULL)
		return (engine_derive_ipc_label(lpar_list_view(ui, NULL)));
	return (lpar_names[col]);
}

/* Whether a row passes the filter: its words are "lpar N" and more. */
static int
lpar_match(const struct ui *ui, const struct engine_view *ev, size_t row)
{
	const struct topology	*t = session_topology(ui->ses);
	struct filter_item	 it;
	char			 name[32], desc[96];
	unsigned		 idx = ev->indices[row], id;

	if (ui->filter == NULL)
		return (1);
	id = ui->lp.opened ? ENG_ROW_LPAR(idx) : idx;
	if (ui->lp.opened)
		snprintf(name, sizeof name, "vcpu %u", ENG_ROW_VCPU(idx));
	else if (id == SEL_LPAR_SELF)
		snprintf(name, sizeof name, "lpar self");
	else
		snprintf(name, sizeof name, "lpar %u", id);
	snprintf(desc, sizeof desc, "lpar=%u partition %u%s", id, id,
	    t != NULL && (id == SEL_LPAR_SELF || id == t->lpar_self) ?
	    " self" : "");
	memset(&it, 0, sizeof it);
	it.name = name;
	it.desc = desc;
	it.domain = "lpar";
	return (filter_match(ui->filter, &it));
}

static int
lpar_key_cmp(const void *a, const void *b)
{
	const struct lpar_key	*x = a, *y = b;

	if (x->k != y->k)
		return (x->k < y->k ? -1 : 1);
	return (x->index < y->index ? -1 : x->index > y->index);
}

void
lpar_fit(struct ui *ui, int rows)
{
	struct ui_lpar			*lp = &ui->lp;
	const struct engine		*e = session_engine(ui->ses);
	const struct engine_view	*lv;
	struct engine_lpar_cols		 cols;
	const char			*mark;
	double				 v;
	size_t				 i, n = 0, view, first, count;
	int				 desc;

	lp->view = lpar_find_view(e, ENG_VIEW_LPAR);
	lp->vview = lpar_find_view(e, ENG_VIEW_LPAR_VCPU);
	lp->cyc = lp->inst = ENG_NONE;
	if (lp->opened && lp->vview < 0)
		lp->opened = 0;
	lp->nrows = 0;
	if ((lv = lpar_list_view(ui, &view)) == NULL)
		return;
	engine_lpar_cols(lv, &cols);
	lp->cyc = cols.cycles;
	lp->inst = cols.insts;
	if (lv->nrows > lp->cap) {
		lp->cap = lv->nrows;
		lp->order = xreallocarray(lp->order, lp->cap,
		    sizeof *lp->order);
		lp->keys = xreallocarray(lp->keys, lp->cap, sizeof *lp->keys);
	}
	/* Largest first but for the id; rows without a value last. */
	desc = lp->sort != LPAR_C_ID;
	if (lp->reverse)
		desc = !desc;
	first = 0;
	count = lv->nrows;
	if (lp->opened)
		engine_lpar_vcpu_rows(lv, lp->open, &first, &count);
	for (i = first; i < first + count; i++) {
		if (!lpar_match(ui, lv, i))
			continue;
		lp->keys[n].index = lv->indices[i];
		lp->keys[n].row = i;
		if (lp->sort == LPAR_C_ID)
			v = lv->indices[i];
		else if (lpar_value(ui, i, lp->sort, &v, &mark) != 0)
			v = desc ? -INFINITY : INFINITY;
		lp->keys[n].k = desc ? -v : v;
		n++;
	}
	qsort(lp->keys, n, sizeof *lp->keys, lpar_key_cmp);
	for (i = 0; i < n; i++)
		lp->order[i] = lp->keys[i].row;
	lp->nrows = n;
	/* The cursor stays on its row. */
	if (lp->cur_set) {
		for (i = 0; i < n; i++) {
			if (lv->indices[lp->order[i]] == lp->cur_index) {
				lp->cursor = i;
				break;
			}
		}
	}
	if (lp->cursor >= n)
		lp->cursor = n > 0 ? n - 1 : 0;
	if (n > 0) {
		lp->cur_index = lv->indices[lp->order[lp->cursor]];
		lp->cur_set = 1;
	}
	if (rows < 1)
		rows = 1;
	if (lp->top > lp->cursor)
		lp->top = lp->cursor;
	if (lp->cursor >= lp->top + (size_t)rows)
		lp->top = lp->cursor - (size_t)rows + 1;
	if (n <= (size_t)rows)
		lp->top = 0;
	else if (lp->top > n - (size_t)rows)
		lp->top = n - (size_t)rows;
}

int
lpar_cursor(const struct ui *ui, size_t *row)
{
	if (ui->lp.nrows == 0 || ui->lp.cursor >= ui->lp.nrows)
		return (-1);
	*row = ui->lp.order[ui->lp.cursor];
	return (0);
}

/* Set the cursor to a position and remember its row. */
static void
lpar_set_cursor(struct ui *ui, size_t pos)
{
	struct ui_lpar			*lp = &ui->lp;
	const struct engine_view	*lv;

	lp->cursor = pos;
	if ((lv = lpar_list_view(ui, NULL)) != NULL && pos < lp->nrows) {
		lp->cur_index = lv->indices[lp->order[pos]];
		lp->cur_set = 1;
	}
}

void
lpar_move(struct ui *ui, long n)
{
	struct ui_lpar	*lp = &ui->lp;

	if (lp->nrows == 0)
		return;
	if (n < 0 && (size_t)-n > lp->cursor)
		lpar_set_cursor(ui, 0);
	else if (n > 0 && lp->cursor + (size_t)n >= lp->nrows)
		lpar_set_cursor(ui, lp->nrows - 1);
	else
		lpar_set_cursor(ui, (size_t)((long)lp->cursor + n));
}

void
lpar_sort_step(struct ui *ui, int dir)
{
	struct ui_lpar	*lp = &ui->lp;

	lp->sort += dir;
	if (lp->sort < 0)
		lp->sort = LPAR_NCOLS - 1;
	if (lp->sort >= LPAR_NCOLS)
		lp->sort = 0;
	lp->reverse = 0;
}

void
lpar_reverse(struct ui *ui)
{
	ui->lp.reverse = !ui->lp.reverse;
}

int
lpar_open(struct ui *ui)
{
	struct ui_lpar			*lp = &ui->lp;
	const struct engine_view	*lv;
	size_t				 row;

	if (lp->opened || lp->vview < 0 || lpar_cursor(ui, &row) != 0 ||
	    (lv = lpar_list_view(ui, NULL)) == NULL)
		return (-1);
	lp->open = lv->indices[row];
	lp->opened = 1;
	lp->list_cursor = lp->cursor;
	lp->list_top = lp->top;
	lp->cursor = lp->top = 0;
	lp->cur_set = 0;
	return (0);
}

int
lpar_close(struct ui *ui)
{
	struct ui_lpar	*lp = &ui->lp;

	if (!lp->opened)
		return (-1);
	lp->opened = 0;
	lp->cursor = lp->list_cursor;
	lp->top = lp->list_top;
	lp->cur_index = lp->open;
	lp->cur_set = 1;
	return (0);
}

void
lpar_reset(struct ui *ui)
{
	ui->lp.view = ui->lp.vview = -1;
	ui->lp.nrows = 0;
}

void
lpar_free(struct ui_lpar *lp)
{
	free(lp->order);
	free(lp->keys);
	lp->order = NULL;
	lp->keys = NULL;
	lp->cap = lp->nrows = 0;
}
