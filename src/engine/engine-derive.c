/*
 * What a partition view derives from its sums (engine-lpar.h): IPC,
 * cycles in cores, the shares of a column counted off the home chip, on
 * a remote node and in each placement.  Each is a cell of the view's
 * rows, computed once per sample after the sums and their totals, with
 * a status and a reason as every other cell; the outputs and the
 * Partitions screen only read them.  A new derived value is an entry of
 * engine_derive_defs[] and a value of enum engine_derived.  Pure.
 */
#include "config.h"

#include "engine/engine-lpar.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "engine/engine-int.h"
#include "model/selection.h"
#include "util/xalloc.h"

#define ENG_NP	SEL_NPLACES

/* One row's cells, as a derived value reads them. */
struct engine_derive_row {
	const struct engine_derive_view	*dv;
	const struct engine_cell	*ev;	/* the row's event cells */
	const struct engine_cell	*pc;	/* its placements':
						   [col * ENG_NP + p] */
	const struct engine_derive_sum	*sums;	/* per event column */
	double				 hz;	/* ENG_LPAR_FREQ or NaN */
	int				 total;
};

/* Whose a derived value is: a row's, each event column's, or each event
 * column's per placement. */
#define ENG_DERIVE_PER_ROW	0
#define ENG_DERIVE_PER_EVENT	1
#define ENG_DERIVE_PER_PLACE	2

/* Fills the value's cell (nplaces cells for ENG_DERIVE_PER_PLACE) of
 * event column col (ENG_NONE for a row's). */
typedef void	engine_derive_fn(const struct engine_derive_row *,
		    size_t col, struct engine_cell *);

struct engine_derive_def {
	const char		*name;
	int			 per;
	engine_derive_fn	*fn;
};

static const struct {
	const char	*text;
	const char	*mark;
} engine_derive_why[ENG_DR_END - ENG_DR_FIRST] = {
	[ENG_DR_NOCYCLES - ENG_DR_FIRST] = {
		"no core cycles event is read", "?" },
	[ENG_DR_NOINSTS - ENG_DR_FIRST] = {
		"no instructions event is read", "?" },
	[ENG_DR_NOFREQ - ENG_DR_FIRST] = {
		"the core frequency is not known: set it with --const "
		ENG_LPAR_FREQ "=VALUE", "?" },
	[ENG_DR_UNEVEN_IPC - ENG_DR_FIRST] = {
		"the rows do not all read both cycles and instructions",
		"-" },
	[ENG_DR_UNEVEN_PLACES - ENG_DR_FIRST] = {
		"the rows do not all read the four placements", "-" },
	[ENG_DR_PLACES - ENG_DR_FIRST] = {
		"needs all four placements (domains 3 to 6): not all are "
		"read", "-" },
	[ENG_DR_NOTHING - ENG_DR_FIRST] = {
		"nothing counted in the interval", "-" },
	[ENG_DR_UNREAD - ENG_DR_FIRST] = {
		"this placement is not read", "-" },
	[ENG_DR_NOTFINITE - ENG_DR_FIRST] = {
		"not a finite number", "-" },
};

/* ---- the values ---------------------------------------------------- */

static inline void
engine_derive_none(struct engine_cell *out, uint8_t status, uint8_t reason)
{
	*out = (struct engine_cell){ .status = status, .reason = reason };
}

static inline void
engine_derive_some(struct engine_cell *out, double value)
{
	if (!isfinite(value))
		engine_derive_none(out, ENG_NOVALUE, ENG_DR_NOTFINITE);
	else
		*out = (struct engine_cell){ .value = value,
		    .status = ENG_OK };
}

/* Whether operand c has a value; if not, out says why. */
static inline int
engine_derive_operand(const struct engine_cell *c, struct engine_cell *out)
{
	if (c->status != ENG_OK) {
		engine_derive_none(out, c->status, 0);
		return (0);
	}
	if (!isfinite(c->value)) {
		engine_derive_none(out, ENG_NOVALUE, ENG_DR_NOTFINITE);
		return (0);
	}
	return (1);
}

static void
engine_derive_ipc(const struct engine_derive_row *r, size_t col,
    struct engine_cell *out)
{
	const struct engine_cell	*cyc, *ins;

	(void)col;
	if (r->dv->ipc_cycles == ENG_NONE) {
		engine_derive_none(out, ENG_NOVALUE, ENG_DR_NOCYCLES);
		return;
	}
	cyc = &r->ev[r->dv->ipc_cycles];
	if (!engine_derive_operand(cyc, out))
		return;
	if (r->dv->cols.insts == ENG_NONE) {
		engine_derive_none(out, ENG_NOVALUE, ENG_DR_NOINSTS);
		return;
	}
	ins = &r->ev[r->dv->cols.insts];
	if (!engine_derive_operand(ins, out))
		return;
	if (r->total && r->dv->ipc_uneven)
		engine_derive_none(out, ENG_NOVALUE, ENG_DR_UNEVEN_IPC);
	else if (cyc->value <= 0)
		engine_derive_none(out, ENG_NOVALUE, FORMULA_DIVZERO);
	else
		engine_derive_some(out, ins->value / cyc->value);
}

static void
engine_derive_cores(const struct engine_derive_row *r, size_t col,
    struct engine_cell *out)
{
	const struct engine_cell	*cyc;

	(void)col;
	if (r->dv->cols.cycles == ENG_NONE) {
		engine_derive_none(out, ENG_NOVALUE, ENG_DR_NOCYCLES);
		return;
	}
	cyc = &r->ev[r->dv->cols.cycles];
	if (!engine_derive_operand(cyc, out))
		return;
	if (!isfinite(r->hz) || r->hz <= 0)
		engine_derive_none(out, ENG_NOVALUE, ENG_DR_NOFREQ);
	else
		engine_derive_some(out, cyc->value / r->hz);
}

/*
 * A column's placements as the shares read them, made once per row:
 * their sum, and the status of the first without a value (ENG_ABSENT
 * for one not read), else ENG_OK.
 */
static inline void
engine_derive_sum(const struct engine_cell *pc, struct engine_derive_sum *sm)
{
	size_t	 p;

	sm->all = 0;
	sm->status = ENG_OK;
	for (p = 0; p < ENG_NP; p++) {
		if (pc[p].status != ENG_OK) {
			sm->status = pc[p].status;
			return;
		}
		sm->all += pc[p].value;
	}
}

/* Part (of placements' values, added in their order) of column col's
 * sum. */
static inline void
engine_derive_share(const struct engine_derive_row *r, size_t col,
    double part, struct engine_cell *out)
{
	const struct engine_derive_sum	*sm = &r->sums[col];

	if (r->total && r->dv->uneven[col])
		engine_derive_none(out, ENG_NOVALUE, ENG_DR_UNEVEN_PLACES);
	else if (sm->status == ENG_ABSENT)
		engine_derive_none(out, ENG_NOVALUE, ENG_DR_PLACES);
	else if (sm->status != ENG_OK)
		engine_derive_none(out, sm->status, 0);
	else if (sm->all <= 0)
		engine_derive_none(out, ENG_NOVALUE, ENG_DR_NOTHING);
	else
		engine_derive_some(out, part / sm->all);
}

/* Of column col's placements: those off the home chip, on a remote
 * node. */
static inline double
engine_derive_off(const struct engine_derive_row *r, size_t col)
{
	const struct engine_cell	*pc = &r->pc[col * ENG_NP];
	double				 part = 0;

	part += pc[ENG_PLACE_HOME_NODE].value;
	part += pc[ENG_PLACE_REMOTE_NODE].value;
	return (part);
}

static inline double
engine_derive_far(const struct engine_derive_row *r, size_t col)
{
	return (r->pc[col * ENG_NP + ENG_PLACE_REMOTE_NODE].value);
}

static void
engine_derive_ev_off_chip(const struct engine_derive_row *r, size_t col,
    struct engine_cell *out)
{
	engine_derive_share(r, col, engine_derive_off(r, col), out);
}

static void
engine_derive_ev_remote(const struct engine_derive_row *r, size_t col,
    struct engine_cell *out)
{
	engine_derive_share(r, col, engine_derive_far(r, col), out);
}

/* The core cycles' shares: a row's, "?" when no such column is read;
 * else the cycles column's own. */
static void
engine_derive_cycles(const struct engine_derive_row *r,
    engine_derive_fn *of_column, struct engine_cell *out)
{
	if (r->dv->cols.cycles == ENG_NONE)
		engine_derive_none(out, ENG_NOVALUE, ENG_DR_NOCYCLES);
	else
		of_column(r, r->dv->cols.cycles, out);
}

static void
engine_derive_off_chip(const struct engine_derive_row *r, size_t col,
    struct engine_cell *out)
{
	(void)col;
	engine_derive_cycles(r, engine_derive_ev_off_chip, out);
}

static void
engine_derive_remote(const struct engine_derive_row *r, size_t col,
    struct engine_cell *out)
{
	(void)col;
	engine_derive_cycles(r, engine_derive_ev_remote, out);
}

/* Each placement's share of column col's sum: nplaces cells. */
static void
engine_derive_place(const struct engine_derive_row *r, size_t col,
    struct engine_cell *out)
{
	const struct engine_cell	*c = &r->ev[col];
	const struct engine_cell	*pc = &r->pc[col * ENG_NP];
	size_t				 p;

	for (p = 0; p < ENG_NP; p++) {
		if (pc[p].status == ENG_ABSENT)
			engine_derive_none(&out[p], ENG_NOVALUE,
			    ENG_DR_UNREAD);
		else if (c->status != ENG_OK)
			engine_derive_none(&out[p], c->status, 0);
		else if (!(c->value > 0))
			engine_derive_none(&out[p], ENG_NOVALUE,
			    ENG_DR_NOTHING);
		else
			engine_derive_some(&out[p], pc[p].value / c->value);
	}
}

/* In the order of enum engine_derived, which is the cells' order. */
static const struct engine_derive_def engine_derive_defs[ENG_NDERIVED] = {
	[ENG_DERIVE_IPC] = { "ipc", ENG_DERIVE_PER_ROW, engine_derive_ipc },
	[ENG_DERIVE_CORES] = { "cores", ENG_DERIVE_PER_ROW,
	    engine_derive_cores },
	[ENG_DERIVE_OFF_CHIP] = { "off_home_chip", ENG_DERIVE_PER_ROW,
	    engine_derive_off_chip },
	[ENG_DERIVE_REMOTE] = { "remote_node", ENG_DERIVE_PER_ROW,
	    engine_derive_remote },
	[ENG_DERIVE_EV_OFF_CHIP] = { "off_home_chip", ENG_DERIVE_PER_EVENT,
	    engine_derive_ev_off_chip },
	[ENG_DERIVE_EV_REMOTE] = { "remote_node", ENG_DERIVE_PER_EVENT,
	    engine_derive_ev_remote },
	[ENG_DERIVE_PLACE] = { "share", ENG_DERIVE_PER_PLACE,
	    engine_derive_place },
};

/* ---- where they are ------------------------------------------------ */

/* The cells value k takes in a row of v. */
static size_t
engine_derive_width(const struct engine_view *v, size_t k)
{
	switch (engine_derive_defs[k].per) {
	case ENG_DERIVE_PER_ROW:
		return (1);
	case ENG_DERIVE_PER_EVENT:
		return (v->nevents);
	}
	return (v->nevents * v->nplaces);
}

const char *
engine_derive_name(int what)
{
	if (what < 0 || what >= ENG_NDERIVED)
		return (NULL);
	return (engine_derive_defs[what].name);
}

size_t
engine_derive_col(const struct engine_view *v, int what, size_t col,
    size_t p)
{
	size_t	 at, k;

	if (v == NULL || v->nderived == 0 || what < 0 || what >= ENG_NDERIVED)
		return (ENG_NONE);
	at = v->nevents + v->nmetrics;
	for (k = 0; k < (size_t)what; k++)
		at += engine_derive_width(v, k);
	switch (engine_derive_defs[what].per) {
	case ENG_DERIVE_PER_ROW:
		return (at);
	case ENG_DERIVE_PER_EVENT:
		return (col < v->nevents ? at + col : ENG_NONE);
	}
	return (col < v->nevents && p < v->nplaces ? at + col * v->nplaces +
	    p : ENG_NONE);
}

const char *
engine_derive_ipc_label(const struct engine_view *v)
{
	struct engine_lpar_cols	 c;

	engine_lpar_cols(v, &c);
	return (c.nonidle != ENG_NONE ? "IPC-NI" : "IPC");
}

const char *
engine_derive_reason(const struct engine_cell *c)
{
	if (c == NULL)
		return ("no such cell");
	if (c->status == ENG_OK)
		return (isfinite(c->value) ? NULL : "not a finite number");
	if (c->status == ENG_NOVALUE && c->reason >= ENG_DR_FIRST &&
	    c->reason < ENG_DR_END)
		return (engine_derive_why[c->reason - ENG_DR_FIRST].text);
	if (c->status == ENG_NOVALUE && c->reason != FORMULA_OK)
		return (formula_eval_reason(c->reason));
	return (engine_status_name(c->status));
}

const char *
engine_derive_mark(unsigned reason)
{
	if (reason >= ENG_DR_FIRST && reason < ENG_DR_END)
		return (engine_derive_why[reason - ENG_DR_FIRST].mark);
	return (NULL);
}

/* ---- built once, computed each sample ------------------------------ */

/*
 * Which rows read what, for the totals: a total that sets parts of rows
 * that read different things against each other has no value.  What a
 * row reads is what was picked: its cell or placement has a counter
 * (a cell without one is ENG_ABSENT in every sample, one with one never
 * is).
 */
static void
engine_derive_build_view(struct engine *e, size_t i,
    struct engine_derive_view *dv)
{
	struct engine_view	*v = &e->views[i];
	const size_t		*pcnt;
	size_t			 r, j, p, n, a, b;

	engine_lpar_cols(v, &dv->cols);
	/* Instructions per non-idle cycle where they are read: the core
	 * cycles count idle time too, which no instruction runs in. */
	dv->ipc_cycles = dv->cols.nonidle != ENG_NONE ? dv->cols.nonidle :
	    dv->cols.cycles;
	dv->uneven = xcalloc(v->nevents + 1, sizeof *dv->uneven);
	a = dv->ipc_cycles;
	b = dv->cols.insts;
	for (r = 0; r < v->nrows; r++) {
		if (a != ENG_NONE && b != ENG_NONE &&
		    (v->counter[r * v->nevents + a] == ENG_NONE) !=
		    (v->counter[r * v->nevents + b] == ENG_NONE))
			dv->ipc_uneven = 1;
		for (j = 0; j < v->nevents; j++) {
			pcnt = &v->place_counter[(r * v->nevents + j) *
			    v->nplaces];
			for (n = 0, p = 0; p < v->nplaces; p++)
				n += pcnt[p] == ENG_NONE;
			if (n != 0 && n != v->nplaces)
				dv->uneven[j] = 1;
		}
	}
	v->nderived = 0;
	for (j = 0; j < ENG_NDERIVED; j++)
		v->nderived += engine_derive_width(v, j);
}

void
engine_derive_build(struct engine *e)
{
	if (e->lpar_view == ENG_NONE)
		return;
	engine_derive_build_view(e, e->lpar_view, &e->derive[0]);
	engine_derive_build_view(e, e->vcpu_view, &e->derive[1]);
	e->derive_sums = xcalloc(e->views[e->lpar_view].nevents + 1,
	    sizeof *e->derive_sums);
	e->derive_hz = engine_const_slot(e, ENG_LPAR_FREQ);
}

void
engine_derive_free(struct engine *e)
{
	free(e->derive[0].uneven);
	free(e->derive[1].uneven);
	free(e->derive_sums);
}

void
engine_derive_row(struct engine *e, struct engine_snapshot *s, size_t i,
    size_t r)
{
	const struct engine_view	*v = &e->views[i];
	const struct engine_derive_def	*d;
	struct engine_derive_row	 row;
	struct engine_cell		*cells = s->cells[i], *out;
	size_t				 k, j, w;
	size_t				 ncol = v->nevents + v->nmetrics;

	row.dv = &e->derive[i == e->lpar_view ? 0 : 1];
	row.sums = e->derive_sums;
	row.hz = e->const_values[e->derive_hz];
	row.ev = &cells[r * ncol];
	row.pc = &cells[(v->nrows + 1) * ncol + r * v->nevents * ENG_NP];
	row.total = r == v->nrows;
	for (j = 0; j < v->nevents; j++)
		engine_derive_sum(&row.pc[j * ENG_NP], &e->derive_sums[j]);
	out = &cells[engine_derive_first(v) + r * v->nderived];
	for (k = 0; k < ENG_NDERIVED; k++) {
		d = &engine_derive_defs[k];
		if (d->per == ENG_DERIVE_PER_ROW) {
			d->fn(&row, ENG_NONE, out++);
			continue;
		}
		w = d->per == ENG_DERIVE_PER_PLACE ? ENG_NP : 1;
		for (j = 0; j < v->nevents; j++, out += w)
			d->fn(&row, j, out);
	}
}
