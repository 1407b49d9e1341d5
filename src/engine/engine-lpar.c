/*
 * The partition views.  An @lpar pick's counters are read per virtual
 * processor of each partition in the four placements (domains 3 to 6),
 * which count disjoint parts of its work: the virtual processors' view
 * has a row per (partition, virtual processor) whose event cells sum
 * the placements read, and the partitions' view a row per partition
 * summing its virtual processors.  A placement that failed fails the
 * sum, as a row that failed fails a total: a smaller sum would be read
 * as less work.  Each placement keeps its own cell beside the sum, after
 * the view's cells in the snapshot, and what the view derives from them
 * after those (engine-derive.c).  Also here: which columns are the core
 * cycles and the instructions, and where a partition's rows are.
 */
#include "config.h"

#include "engine/engine.h"
#include "engine/engine-lpar.h"

#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "engine/engine-int.h"
#include "model/raw.h"
#include "model/selection.h"
#include "util/xalloc.h"

/* ---- views --------------------------------------------------------- */

/* The row of index in v's sorted rows, or ENG_NONE. */
static size_t
engine_lpar_find(const struct engine_view *v, unsigned index)
{
	size_t	 lo = engine_row_of(v, index);

	return (lo < v->nrows && v->indices[lo] == index ? lo : ENG_NONE);
}

/* The column of event ev in v, or ENG_NONE. */
static size_t
engine_lpar_col(const struct engine_view *v, const struct catalog_event *ev)
{
	size_t	 j;

	for (j = 0; j < v->nevents; j++)
		if (v->events[j] == ev)
			return (j);
	return (ENG_NONE);
}

static void
engine_lpar_init(struct engine_view *v, int domain, const char *term)
{
	memset(v, 0, sizeof *v);
	v->domain = domain;
	v->term = term;
	v->nplaces = SEL_NPLACES;
}

/* The events of the @lpar picks, each once, in pick order. */
static void
engine_lpar_events_of(const struct selection *sel, struct engine_view *v)
{
	const struct sel_pick	*pk;
	size_t			 i, j;

	for (i = 0; i < sel->npicks; i++) {
		pk = &sel->picks[i];
		if (pk->domain != SEL_DOMAIN_LPAR)
			continue;
		for (j = 0; j < pk->nevents; j++) {
			if (engine_lpar_col(v, pk->events[j]) != ENG_NONE)
				continue;
			v->events = xreallocarray(v->events, v->nevents + 1,
			    sizeof *v->events);
			v->pick_of = xreallocarray(v->pick_of, v->nevents + 1,
			    sizeof *v->pick_of);
			v->events[v->nevents] = pk->events[j];
			v->pick_of[v->nevents++] = i;
		}
	}
}

/* The counters of view v's cells: place_counter, and counter the first
 * placement's. */
static void
engine_lpar_counters(const struct selection *sel, struct engine_view *v,
    int vcpus)
{
	const struct sel_counter	*c;
	size_t				 k, n, row, col, at;
	unsigned			 p, index;

	n = v->nrows * v->nevents;
	v->counter = xreallocarray(NULL, n + 1, sizeof *v->counter);
	v->place_counter = xreallocarray(NULL, n * SEL_NPLACES + 1,
	    sizeof *v->place_counter);
	for (k = 0; k < n; k++)
		v->counter[k] = ENG_NONE;
	for (k = 0; k < n * SEL_NPLACES; k++)
		v->place_counter[k] = ENG_NONE;
	for (k = 0; k < sel->ncounters; k++) {
		c = &sel->counters[k];
		if (sel->picks[c->pick].domain != SEL_DOMAIN_LPAR ||
		    c->domain < 3 || c->domain > 6)
			continue;
		index = vcpus ? (unsigned)c->lpar << 16 | (c->index & 0xffff) :
		    c->lpar;
		row = engine_lpar_find(v, index);
		col = engine_lpar_col(v, c->event);
		p = (unsigned)(c->domain - 3);
		at = (row * v->nevents + col) * SEL_NPLACES + p;
		if (v->place_counter[at] == ENG_NONE)
			v->place_counter[at] = k;
		/* counter[]: some counter of the cell, for "not picked". */
		if (v->counter[row * v->nevents + col] == ENG_NONE ||
		    v->counter[row * v->nevents + col] > k)
			v->counter[row * v->nevents + col] = k;
		v->places |= 1U << p;
	}
}

void
engine_lpar_build(struct engine *e)
{
	const struct selection	*sel = e->sel;
	struct engine_view	*lv, *vv;
	unsigned		*rows;
	size_t			 k, n, nl, r;

	e->lpar_view = e->vcpu_view = ENG_NONE;
	rows = xcalloc(sel->ncounters + 1, sizeof *rows);
	for (k = n = 0; k < sel->ncounters; k++) {
		if (sel->picks[sel->counters[k].pick].domain !=
		    SEL_DOMAIN_LPAR || sel->counters[k].domain < 3 ||
		    sel->counters[k].domain > 6)
			continue;
		rows[n++] = (unsigned)sel->counters[k].lpar << 16 |
		    (sel->counters[k].index & 0xffff);
	}
	if (n == 0) {
		free(rows);
		return;
	}
	qsort(rows, n, sizeof *rows, engine_cmp_unsigned);
	for (k = nl = 0; k < n; k++)
		if (nl == 0 || rows[nl - 1] != rows[k])
			rows[nl++] = rows[k];
	n = nl;

	/* The partitions first: that is what a reader looks for. */
	e->views = xreallocarray(e->views, e->nviews + 2, sizeof *e->views);
	e->lpar_view = e->nviews;
	e->vcpu_view = e->nviews + 1;
	lv = &e->views[e->nviews++];
	vv = &e->views[e->nviews++];
	engine_lpar_init(lv, ENG_VIEW_LPAR, "lpar");
	engine_lpar_init(vv, ENG_VIEW_LPAR_VCPU, "lpar_vcpu");
	engine_lpar_events_of(sel, lv);
	engine_lpar_events_of(sel, vv);

	vv->indices = rows;
	vv->nrows = n;
	lv->indices = xcalloc(n + 1, sizeof *lv->indices);
	lv->vcpus = xcalloc(n + 1, sizeof *lv->vcpus);
	for (r = 0; r < n; r++) {
		if (lv->nrows == 0 || lv->indices[lv->nrows - 1] !=
		    ENG_ROW_LPAR(rows[r]))
			lv->indices[lv->nrows++] = ENG_ROW_LPAR(rows[r]);
		lv->vcpus[lv->nrows - 1]++;
	}
	engine_lpar_counters(sel, lv, 0);
	engine_lpar_counters(sel, vv, 1);
	e->vcpu_csecs = xcalloc(vv->nrows * vv->nevents + 1,
	    sizeof *e->vcpu_csecs);
	/* The core frequency "cores" divides by: the session sets it. */
	(void)engine_const_slot(e, ENG_LPAR_FREQ);
	engine_derive_build(e);
}

size_t
engine_lpar_ncells(const struct engine_view *v)
{
	size_t	 n;

	n = (v->nrows + 1) * (v->nevents + v->nmetrics);
	if (v->place_counter != NULL)
		n += (v->nrows + 1) * (v->nevents * v->nplaces + v->nderived);
	return (n);
}

/* The placements' cells of (row, col) in view i of s. */
static struct engine_cell *
engine_lpar_places(const struct engine *e, const struct engine_snapshot *s,
    size_t i, size_t row, size_t col)
{
	const struct engine_view	*v = &e->views[i];

	return (&s->cells[i][(v->nrows + 1) * (v->nevents + v->nmetrics) +
	    (row * v->nevents + col) * v->nplaces]);
}

const struct engine_cell *
engine_place_cell(const struct engine *e, const struct engine_snapshot *s,
    size_t view, size_t row, size_t col, size_t p)
{
	const struct engine_view	*v;

	if (view >= s->nviews || view >= e->nviews)
		return (NULL);
	v = &e->views[view];
	if (v->place_counter == NULL || row > v->nrows ||
	    col >= v->nevents || p >= v->nplaces)
		return (NULL);
	return (&engine_lpar_places(e, s, view, row, col)[p]);
}

/* ---- sums ---------------------------------------------------------- */

/*
 * Add cell c of n seconds to sum *to (of *secs seconds so far, 0 for
 * none): the first cell without a value gives the sum its status.
 * *same stays set while every cell covers *secs; the sum's span is its
 * parts' while they share one, else 0.
 */
static inline void
engine_lpar_add(struct engine_cell *to, const struct engine_cell *c,
    double secs, double *tosecs, int *same)
{
	if (c->status == ENG_ABSENT)
		return;
	if (c->status != ENG_OK) {
		if (to->status == ENG_ABSENT || to->status == ENG_OK)
			to->status = c->status;
		return;
	}
	if (to->status == ENG_ABSENT) {
		to->status = ENG_OK;
		to->span = c->span;
	} else if (to->span != c->span)
		to->span = 0;
	to->value += c->value;
	to->delta += c->delta;
	if (*tosecs == 0)
		*tosecs = secs;
	else if (secs != *tosecs)
		*same = 0;
	if (c->estimated)
		engine_estimate_from(to, c);
}

/*
 * A sum's end: no number unless every part had one; counts over one
 * interval when the parts' differ (their rates add up, their counts do
 * not).  Counting a whole run, the counts are what was counted and the
 * rate is their sum over those seconds instead.
 */
static void
engine_lpar_end(const struct engine *e, struct engine_cell *c, double secs,
    int same)
{
	if (c->status != ENG_OK) {
		c->value = c->delta = 0;
		c->estimated = c->counted = 0;
		return;
	}
	if (same)
		return;
	if (!e->counting)
		c->delta = c->value * secs;
	else if (secs > 0)
		c->value = c->delta / secs;
}

void
engine_lpar_vcpu_events(struct engine *e, struct engine_snapshot *s,
    const struct raw_sample *rs)
{
	size_t				 i = e->vcpu_view;
	const struct engine_view	*v = &e->views[i];
	const struct raw_value		*rv;
	struct engine_cell		*row, *c, *pc;
	double				 d, secs, rsecs, tsecs = 0;
	size_t				 r, col, p, k, nsecs = 0;
	size_t				 ncol = v->nevents + v->nmetrics;
	int				 same;

	for (r = 0; r < v->nrows; r++) {
		row = &s->cells[i][r * ncol];
		rsecs = 0;
		for (col = 0; col < v->nevents; col++) {
			c = &row[col];
			c->status = ENG_ABSENT;
			pc = engine_lpar_places(e, s, i, r, col);
			secs = 0;
			same = 1;
			for (p = 0; p < v->nplaces; p++) {
				k = v->place_counter[(r * v->nevents + col) *
				    v->nplaces + p];
				pc[p] = (struct engine_cell){
					.status = ENG_ABSENT,
				};
				if (k == ENG_NONE || k >= rs->nvalues) {
					if (k != ENG_NONE)
						pc[p].status = ENG_MISSING;
					engine_lpar_add(c, &pc[p], 0, &secs,
					    &same);
					continue;
				}
				rv = &rs->values[k];
				pc[p].status = engine_counter(e, k, rv,
				    rs->now, &pc[p].delta, &d, &pc[p].span);
				if (pc[p].status == ENG_OK) {
					pc[p].value = pc[p].delta / d;
					if (rv->status == RAW_SCALED) {
						pc[p].estimated = 1;
						pc[p].counted =
						    rv->counted < 100 ?
						    rv->counted : 0;
					}
				}
				engine_lpar_add(c, &pc[p], d, &secs, &same);
			}
			engine_lpar_end(e, c, secs, same);
			e->vcpu_csecs[r * v->nevents + col] =
			    c->status == ENG_OK ? secs : 0;
			if (c->status == ENG_OK && rsecs == 0)
				rsecs = secs;
		}
		/* While the row's cells are at hand. */
		engine_derive_row(e, s, i, r);
		s->row_interval[i][r] = rsecs;
		if (rsecs > 0) {
			tsecs += rsecs;
			nsecs++;
		}
	}
	e->vcpu_tsecs = nsecs > 0 ? tsecs / (double)nsecs : 0;
}

double
engine_lpar_events(struct engine *e, struct engine_snapshot *s, size_t i)
{
	const struct engine_view	*v = &e->views[i];
	const struct engine_view	*vv = &e->views[e->vcpu_view];
	const struct engine_cell	*vc, *vpc;
	struct engine_cell		*row, *pc;
	double				 secs, vsecs, rsecs;
	double				 psecs[SEL_NPLACES], tsecs = 0;
	size_t				 r, vr, q, col, p, nsecs = 0;
	size_t				 ncol = v->nevents + v->nmetrics;
	size_t				 vncol = vv->nevents + vv->nmetrics;
	int				 same, psame[SEL_NPLACES];

	if (i == e->vcpu_view) {
		memcpy(e->csecs, e->vcpu_csecs,
		    v->nrows * v->nevents * sizeof *e->csecs);
		return (e->vcpu_tsecs);
	}
	/* A partition's virtual processors are contiguous rows there. */
	for (r = vr = 0; r < v->nrows; vr += v->vcpus[r], r++) {
		row = &s->cells[i][r * ncol];
		rsecs = 0;
		for (col = 0; col < v->nevents; col++) {
			row[col].status = ENG_ABSENT;
			secs = 0;
			same = 1;
			pc = engine_lpar_places(e, s, i, r, col);
			for (p = 0; p < v->nplaces; p++) {
				pc[p] = (struct engine_cell){
					.status = ENG_ABSENT,
				};
				psecs[p] = 0;
				psame[p] = 1;
			}
			for (q = vr; q < vr + v->vcpus[r]; q++) {
				vc = &s->cells[e->vcpu_view][q * vncol + col];
				vsecs = e->vcpu_csecs[q * vv->nevents + col];
				engine_lpar_add(&row[col], vc, vsecs, &secs,
				    &same);
				vpc = engine_lpar_places(e, s, e->vcpu_view, q,
				    col);
				for (p = 0; p < v->nplaces; p++)
					engine_lpar_add(&pc[p], &vpc[p], vsecs,
					    &psecs[p], &psame[p]);
			}
			engine_lpar_end(e, &row[col], secs, same);
			for (p = 0; p < v->nplaces; p++)
				engine_lpar_end(e, &pc[p], psecs[p],
				    psame[p]);
			e->csecs[r * v->nevents + col] =
			    row[col].status == ENG_OK ? secs : 0;
			if (row[col].status == ENG_OK && rsecs == 0)
				rsecs = secs;
		}
		engine_derive_row(e, s, i, r);
		s->row_interval[i][r] = rsecs;
		if (rsecs > 0) {
			tsecs += rsecs;
			nsecs++;
		}
	}
	return (nsecs > 0 ? tsecs / (double)nsecs : 0);
}

void
engine_lpar_place_totals(const struct engine *e, struct engine_snapshot *s,
    size_t i)
{
	const struct engine_view	*v = &e->views[i];
	struct engine_cell		*tot, *pc;
	double				 tsecs = s->row_interval[i][v->nrows];
	double				 secs = 0;
	size_t				 r, k, n = v->nevents * v->nplaces;
	int				 same = 1;

	/* Row by row, as they lie in memory; every row over the total's
	 * seconds or not. */
	tot = engine_lpar_places(e, s, i, v->nrows, 0);
	for (k = 0; k < n; k++)
		tot[k] = (struct engine_cell){ .status = ENG_ABSENT };
	for (r = 0; r < v->nrows; r++) {
		pc = engine_lpar_places(e, s, i, r, 0);
		for (k = 0; k < n; k++)
			engine_lpar_add(&tot[k], &pc[k],
			    s->row_interval[i][r] > 0 ?
			    s->row_interval[i][r] : tsecs, &secs, &same);
	}
	/* As the event totals: counts over the total's interval. */
	for (k = 0; k < n; k++)
		engine_lpar_end(e, &tot[k], tsecs, same && secs == tsecs);
}

/* ---- columns and rows ---------------------------------------------- */

const char *
engine_place_name(size_t p)
{
	static const char *const	 names[SEL_NPLACES] = {
		"home_core", "home_chip", "home_node", "remote_node"
	};

	return (p < SEL_NPLACES ? names[p] : NULL);
}

/* Whether name is one of names. */
static int
engine_lpar_named(const char *name, const char *const *names)
{
	for (; *names != NULL; names++)
		if (strcmp(name, *names) == 0)
			return (1);
	return (0);
}

int
engine_lpar_is_cycles(const char *name)
{
	static const char *const	 names[] = {
		"CPM_CCYC", "PM_CYC", "PM_RUN_CYC", "HPM_CCYC", "CPM_RUN_CYC",
		"HPM_RUN_CYC", "PM_CCYC", NULL
	};

	return (name != NULL && engine_lpar_named(name, names));
}

int
engine_lpar_is_insts(const char *name)
{
	static const char *const	 names[] = {
		"CPM_NON_IDLE_INST", "PM_INST_CMPL", "PM_RUN_INST_CMPL",
		"HPM_INST", "HPM_INST_CMPL", "HPM_RUN_INST_CMPL",
		"CPM_INST", "CPM_INST_CMPL", "HPM_NON_IDLE_INST", NULL
	};

	return (name != NULL && engine_lpar_named(name, names));
}

int
engine_lpar_is_nonidle(const char *name)
{
	static const char *const	 names[] = {
		"CPM_NON_IDLE_PCYC", "HPM_NON_IDLE_PCYC", NULL
	};

	return (name != NULL && engine_lpar_named(name, names));
}

void
engine_lpar_cols(const struct engine_view *v, struct engine_lpar_cols *c)
{
	size_t	 j;

	c->cycles = c->insts = c->nonidle = ENG_NONE;
	for (j = 0; j < v->nevents; j++) {
		if (c->nonidle == ENG_NONE &&
		    engine_lpar_is_nonidle(v->events[j]->name))
			c->nonidle = j;
		if (c->cycles == ENG_NONE &&
		    engine_lpar_is_cycles(v->events[j]->name))
			c->cycles = j;
		if (c->insts == ENG_NONE &&
		    engine_lpar_is_insts(v->events[j]->name))
			c->insts = j;
	}
}

size_t
engine_view_find(const struct engine *e, int domain)
{
	size_t	 i;

	for (i = 0; i < e->nviews; i++)
		if (e->views[i].domain == domain)
			return (i);
	return (ENG_NONE);
}

size_t
engine_lpar_row(const struct engine_view *v, unsigned lpar)
{
	if (v->domain != ENG_VIEW_LPAR)
		return (ENG_NONE);
	return (engine_lpar_find(v, lpar));
}

void
engine_lpar_vcpu_rows(const struct engine_view *v, unsigned lpar,
    size_t *first, size_t *n)
{
	size_t	 lo = 0, hi = v->nrows, mid;

	*first = *n = 0;
	if (v->domain != ENG_VIEW_LPAR_VCPU)
		return;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (ENG_ROW_LPAR(v->indices[mid]) < lpar)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = lo;
	while (lo < v->nrows && ENG_ROW_LPAR(v->indices[lo]) == lpar)
		lo++;
	*n = lo - *first;
}
