/*
 * The sampling engine.  Raw 64-bit accumulators become deltas here and
 * nowhere else; a read that failed, went backwards or was not updated never
 * becomes a number.  Metric totals sum their operands across the rows
 * first and evaluate once, so a ratio's total is the ratio of the sums.
 */
#include "config.h"

#include "engine/engine.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "model/selection.h"
#include "model/raw.h"
#include "util/arena.h"
#include "util/htab.h"
#include "util/hverr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct engine_const {
	char		*name;
	double		 value;
};

struct engine {
	const struct catalog	*cat;
	const struct selection	*sel;
	uint64_t		 tb_hz;

	struct engine_view	*views;
	size_t			 nviews;

	struct engine_const	*consts;
	size_t			 nconsts;
	size_t			 capconsts;
	double			*const_values;	/* formula env, by slot */
	struct htab		 constnames;	/* name -> slot */

	/* The metrics' names, units, texts and event columns. */
	struct arena		 mem;

	/* Per selection counter: the baseline. */
	uint64_t		*prev;
	uint64_t		*prev_tb;
	uint64_t		*prev_now;
	uint8_t			*have_prev;
	uint8_t			*seen;		/* read at all (even failed) */
	uint64_t		 last_now;
	uint64_t		 seq;

	/* Scratch for evaluation, sized for the widest view. */
	double			*scratch;
	double			*csecs;		/* each cell's seconds */
	double			*norm;		/* counts over the total's */
	double			*sums;
};

uint64_t
engine_delta(uint64_t prev, uint64_t cur, int *backwards)
{
	uint64_t	 d;

	d = cur - prev;		/* unsigned: modulo 2^64 */
	*backwards = d >= (UINT64_C(1) << 63);
	return (*backwards ? 0 : d);
}

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
	}
	return ("?");
}

/* ---- names ------------------------------------------------------- */

/*
 * Names to indexes, built once: a formula's names are looked up in the
 * view's columns, the definitions and the constants, and a file may hold
 * 200,000 of each.  The first index added for a name stays.
 */

/* The index of name, or ENG_NONE. */
static size_t
engine_names_get(const struct htab *t, const char *name)
{
	const struct htab_slot	*s;
	struct htab_probe	 p;

	htab_probe(t, htab_hash_str(name), HTAB_ALL, &p);
	while ((s = htab_next(&p)) != NULL)
		if (strcmp(s->key, name) == 0)
			return (s->val);
	return (ENG_NONE);
}

/* Adds name (which must outlive the table) unless it is there. */
static void
engine_names_add(struct htab *t, const char *name, size_t val)
{
	const struct htab_slot	*s;
	struct htab_probe	 p;

	htab_probe(t, htab_hash_str(name), HTAB_ALL, &p);
	while ((s = htab_next(&p)) != NULL)
		if (strcmp(s->key, name) == 0)
			return;
	htab_put(t, &p, name, (uint32_t)val);
}

/* ---- constants ----------------------------------------------------- */

static size_t
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

static int
engine_cmp_unsigned(const void *a, const void *b)
{
	unsigned	 x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x < y ? -1 : x > y);
}

static size_t
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
		v = engine_view_for(e, sel->counters[k].domain);
		row = engine_row_of(v, sel->counters[k].index);
		for (col = 0; col < v->nevents; col++) {
			if (v->events[col] == sel->counters[k].event)
				break;
		}
		if (v->counter[row * v->nevents + col] == ENG_NONE)
			v->counter[row * v->nevents + col] = k;
	}
}

/* ---- metrics ------------------------------------------------------- */

/*
 * What formulas are compiled against: per view, its event columns by name
 * and sysfs name; the definitions by name.  Built once for every metric.
 */
struct engine_resolve {
	struct engine			*e;
	const struct engine_view	*v;
	const struct htab		*columns;	/* of v */
	const struct engine_metric_def	*catdefs;	/* the catalog's */
	size_t				 ncatdefs;
	const struct engine_metric_def	*udefs;		/* then these */
	const struct htab		*defnames;
};

/* Definition i: the catalog's formulas first, then the caller's. */
static const struct engine_metric_def *
engine_def(const struct engine_resolve *r, size_t i)
{
	return (i < r->ncatdefs ? &r->catdefs[i] : &r->udefs[i -
	    r->ncatdefs]);
}

static int
engine_resolve(void *arg, const char *name, struct formula_ref *ref)
{
	struct engine_resolve		*r = arg;
	const struct catalog		*cat = r->e->cat;
	const struct catalog_formula	*cf;
	size_t				 i;

	/* The first column of that name or sysfs name. */
	if ((i = engine_names_get(r->columns, name)) != ENG_NONE) {
		ref->kind = FORMULA_EVENT;
		ref->slot = (unsigned)i;
		return (0);
	}
	if (catalog_find_event(cat, name, 0) != NULL ||
	    catalog_find_sysfs(cat, name) != NULL) {
		ref->kind = FORMULA_EVENT;
		ref->hint = xasprintf("it is not selected per %s",
		    r->v->term);
		return (-HV_ENOENT);
	}
	if ((cf = catalog_find_formula(cat, name)) != NULL &&
	    cf->formula != NULL) {
		ref->kind = FORMULA_FORMULA;
		ref->text = cf->formula;
		ref->notation = FORMULA_AUTO;
		return (0);
	}
	/* The first definition of that name. */
	if ((i = engine_names_get(r->defnames, name)) != ENG_NONE) {
		ref->kind = FORMULA_FORMULA;
		ref->text = engine_def(r, i)->text;
		ref->notation = FORMULA_AUTO;
		return (0);
	}
	if (formula_compile_special(name) >= 0)
		return (-HV_ENOENT);	/* compile maps the delta-* words */
	ref->kind = FORMULA_CONST;
	ref->slot = (unsigned)engine_const_slot(r->e, name);
	return (0);
}

/* "Hz", "kHz", "MHz", "GHz" (any case): a unit whose total is a mean. */
static int
engine_unit_is_frequency(const char *unit)
{
	size_t	 n = strlen(unit);

	return (n >= 2 && (unit[n - 2] == 'H' || unit[n - 2] == 'h') &&
	    (unit[n - 1] == 'z' || unit[n - 1] == 'Z') &&
	    (n == 2 || (n == 3 && strchr("kKmMgG", unit[0]) != NULL)));
}

/*
 * The engine's copy of a definition's string.  Definitions from one file
 * share their origin, and most share a unit: a string the same as the
 * last one copied (same pointer) is that copy again.
 */
struct engine_strcache {
	const char	*from;
	char		*copy;
};

static char *
engine_copy(struct engine *e, struct engine_strcache *c, const char *s)
{
	if (s == NULL)
		s = "";
	if (c != NULL && c->from == s)
		return (c->copy);
	if (c == NULL)
		return (arena_strdup(&e->mem, s));
	c->from = s;
	c->copy = arena_strdup(&e->mem, s);
	return (c->copy);
}

/* The caches of engine_copy() while metrics are added. */
struct engine_copies {
	struct engine_strcache	 unit;
	struct engine_strcache	 desc;
	struct engine_strcache	 origin;
	struct engine_strcache	 group;
};

/*
 * Try one definition on one view.  Returns 1 when it was added, 0 with
 * *why set (caller frees) when it cannot be computed there.
 */
static int
engine_add_metric(struct engine *e, struct engine_resolve *r,
    struct engine_copies *copies, const struct engine_metric_def *def,
    char **why)
{
	struct engine_view		*v = &e->views[r->v - e->views];
	struct engine_metric		*m;
	const struct formula_operand	*op;
	struct formula			*f;
	char				*cause = NULL;
	size_t				 i, j, nev = 0;

	/* perf's names are apart from its events': a perf metric may be
	 * called after the event it reads, and that is no loop.  200,000
	 * metrics: a block is much cheaper than 200,000 mallocs. */
	if (formula_compile_in(&e->mem, def->text, FORMULA_AUTO,
	    def->replaces ? NULL : def->name, engine_resolve, r, &f,
	    &cause) != 0) {
		*why = cause;
		return (0);
	}
	for (i = 0; i < formula_noperands(f); i++) {
		if (formula_operand(f, i)->kind == FORMULA_EVENT)
			nev++;
	}
	if (nev == 0) {
		*why = xstrdup("it reads no counter");
		return (0);
	}
	/* engine_build_metrics() made room for every definition. */
	m = &v->metrics[v->nmetrics++];
	memset(m, 0, sizeof *m);
	/* Strings and columns live in the engine's arena. */
	m->name = engine_copy(e, NULL, def->name);
	m->unit = engine_copy(e, &copies->unit, def->unit);
	m->desc = engine_copy(e, &copies->desc, def->desc);
	m->origin = engine_copy(e, &copies->origin, def->origin);
	if (def->group != NULL)
		m->group = engine_copy(e, &copies->group, def->group);
	m->formula = f;
	m->mean_total = engine_unit_is_frequency(m->unit);
	m->whole_counts = formula_integral(f);
	m->text = engine_copy(e, NULL, def->text);
	/* The event columns it reads, each once. */
	m->evslots = arena_calloc(&e->mem, formula_noperands(f),
	    sizeof *m->evslots);
	for (i = 0; i < formula_noperands(f); i++) {
		op = formula_operand(f, i);
		if (op->kind != FORMULA_EVENT)
			continue;
		for (j = 0; j < m->nevslots; j++) {
			if (m->evslots[j] == op->slot)
				break;
		}
		if (j == m->nevslots)
			m->evslots[m->nevslots++] = op->slot;
	}
	return (1);
}

char *
engine_metric_infix(const struct engine_metric *m)
{
	char	*infix, *cause = NULL;

	if (formula_print_convert(m->text, FORMULA_AUTO, FORMULA_INFIX,
	    &infix, &cause) != 0) {
		free(cause);
		return (xstrdup(m->text));
	}
	return (infix);
}

/* The catalog's formulas as definitions, in the catalog's order. */
static struct engine_metric_def *
engine_catalog_defs(const struct catalog *cat)
{
	struct engine_metric_def	*catdefs;
	size_t				 i;

	catdefs = xcalloc(cat->nformulas + 1, sizeof *catdefs);
	for (i = 0; i < cat->nformulas; i++) {
		catdefs[i].name = cat->formulas[i].name;
		catdefs[i].text = cat->formulas[i].formula;
		catdefs[i].unit = cat->formulas[i].unit;
		catdefs[i].desc = cat->formulas[i].desc;
		catdefs[i].origin = "catalog";
	}
	return (catdefs);
}

/*
 * A resolver per view, each with the view's columns by event name and
 * sysfs name in columns[j], and room in the view for every definition.
 * The caller frees the array.
 */
static struct engine_resolve *
engine_view_resolvers(struct engine *e, const struct engine_resolve *all,
    struct htab *defnames, struct htab *columns,
    size_t ndefs)
{
	struct engine_resolve		*r;
	const struct engine_view	*v;
	size_t				 i, j;

	r = xcalloc(e->nviews + 1, sizeof *r);
	for (j = 0; j < e->nviews; j++) {
		v = &e->views[j];
		for (i = 0; i < v->nevents; i++) {
			engine_names_add(&columns[j], v->events[i]->name, i);
			engine_names_add(&columns[j], v->events[i]->sysfs_name,
			    i);
		}
		r[j] = *all;
		r[j].e = e;
		r[j].v = v;
		r[j].columns = &columns[j];
		r[j].defnames = defnames;
		/* Room for every definition at once: the pages of what is
		 * not used are never touched. */
		e->views[j].metrics = xmalloc_huge(ndefs,
		    sizeof *e->views[j].metrics);
	}
	return (r);
}

/*
 * Add def to every view that can compute it.  When none can, the first
 * view's reason goes to *skipped, if the caller asked.
 */
static void
engine_add_def(struct engine *e, struct engine_resolve *r,
    struct engine_copies *copies, const struct engine_metric_def *def,
    char ***skipped, size_t *nskipped)
{
	size_t	 j;
	char	*why, *first = NULL;
	int	 added = 0;

	for (j = 0; j < e->nviews; j++) {
		why = NULL;
		if (engine_add_metric(e, &r[j], copies, def, &why)) {
			added = 1;
			continue;
		}
		if (first == NULL)
			first = why;
		else
			free(why);
	}
	if (!added && skipped != NULL) {
		/* Room doubles at each power of two. */
		if ((*nskipped & (*nskipped - 1)) == 0)
			*skipped = xreallocarray(*skipped,
			    *nskipped == 0 ? 1 : 2 * *nskipped,
			    sizeof **skipped);
		(*skipped)[(*nskipped)++] = xasprintf("%s (%s): %s",
		    def->name, def->origin, first != NULL ?
		    first : "nothing is selected");
	}
	free(first);
}

static void
engine_build_metrics(struct engine *e, const struct engine_metric_def *udefs,
    size_t nudefs, char ***skipped, size_t *nskipped)
{
	const struct catalog		*cat = e->cat;
	const struct catalog_formula	*cf;
	const struct engine_metric_def	*def;
	struct engine_metric_def	*catdefs;
	struct htab			 defnames = { 0 }, *columns;
	struct engine_resolve		*r, all;
	struct engine_copies		 copies;
	size_t				 ndefs, i, j;

	ndefs = cat->nformulas + nudefs;
	if (ndefs == 0)
		return;
	/* The catalog's formulas as definitions; the caller's are used in
	 * place (a large -m file is not copied). */
	catdefs = engine_catalog_defs(cat);
	memset(&all, 0, sizeof all);
	all.catdefs = catdefs;
	all.ncatdefs = cat->nformulas;
	all.udefs = udefs;

	/* A definition that replaces a catalog formula hides it. */
	for (i = 0; i < nudefs; i++) {
		if (udefs[i].replaces && udefs[i].name != NULL &&
		    (cf = catalog_find_formula(cat, udefs[i].name)) != NULL &&
		    cf >= cat->formulas && cf < cat->formulas + cat->nformulas)
			catdefs[cf - cat->formulas].name = NULL;
	}

	/* What names mean, once: columns per view, definitions by name. */
	htab_init(&defnames, ndefs);
	for (i = 0; i < ndefs; i++) {
		if ((def = engine_def(&all, i))->name != NULL)
			engine_names_add(&defnames, def->name, i);
	}
	columns = xcalloc(e->nviews + 1, sizeof *columns);
	r = engine_view_resolvers(e, &all, &defnames, columns, ndefs);
	memset(&copies, 0, sizeof copies);

	for (i = 0; i < ndefs; i++) {
		def = engine_def(&all, i);
		if (def->name != NULL && def->text != NULL)
			engine_add_def(e, r, &copies, def, skipped, nskipped);
	}
	for (j = 0; j < e->nviews; j++)
		htab_free(&columns[j]);
	free(columns);
	free(r);
	htab_free(&defnames);
	free(catdefs);
}

struct engine *
engine_new(const struct catalog *cat, const struct selection *sel,
    uint64_t timebase_hz, const struct engine_metric_def *defs, size_t ndefs,
    char ***skipped, size_t *nskipped)
{
	struct engine	*e;
	size_t		 i, width = 1, cells = 1;

	e = xcalloc(1, sizeof *e);
	e->cat = cat;
	e->sel = sel;
	e->tb_hz = timebase_hz;
	if (skipped != NULL) {
		*skipped = NULL;
		*nskipped = 0;
	}
	engine_build_views(e);
	engine_build_metrics(e, defs, ndefs, skipped, nskipped);
	for (i = 0; i < e->nviews; i++) {
		if (e->views[i].nevents > width)
			width = e->views[i].nevents;
		if (e->views[i].nevents * e->views[i].nrows > cells)
			cells = e->views[i].nevents * e->views[i].nrows;
	}
	e->scratch = xcalloc(cells, sizeof *e->scratch);
	e->csecs = xcalloc(cells, sizeof *e->csecs);
	e->norm = xcalloc(cells, sizeof *e->norm);
	e->sums = xcalloc(width, sizeof *e->sums);
	i = sel->ncounters > 0 ? sel->ncounters : 1;
	e->prev = xcalloc(i, sizeof *e->prev);
	e->prev_tb = xcalloc(i, sizeof *e->prev_tb);
	e->prev_now = xcalloc(i, sizeof *e->prev_now);
	e->have_prev = xcalloc(i, sizeof *e->have_prev);
	e->seen = xcalloc(i, sizeof *e->seen);
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
	}
	free(e->views);
	for (i = 0; i < e->nconsts; i++)
		free(e->consts[i].name);
	free(e->consts);
	free(e->const_values);
	htab_free(&e->constnames);
	arena_free(&e->mem);
	free(e->prev);
	free(e->prev_tb);
	free(e->prev_now);
	free(e->have_prev);
	free(e->seen);
	free(e->scratch);
	free(e->csecs);
	free(e->norm);
	free(e->sums);
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
engine_rebase(struct engine *e)
{
	if (e->sel->ncounters > 0) {
		memset(e->have_prev, 0, e->sel->ncounters);
		memset(e->seen, 0, e->sel->ncounters);
	}
}

/* ---- sampling ------------------------------------------------------ */

/* A raw status as a cell's: raw_reason() decides, this renames. */
static uint8_t
engine_raw_status(uint8_t raw)
{
	static const uint8_t	 eng[RAW_NSTATUS] = {
		[RAW_OK] = ENG_OK,
		[RAW_FAILED] = ENG_FAILED,
		[RAW_DENIED] = ENG_DENIED,
		[RAW_MISSING] = ENG_MISSING,
		[RAW_BUSY] = ENG_BUSY,
		[RAW_SCALED] = ENG_OK,
	};

	return (eng[raw_reason(raw)]);
}

/*
 * One counter: its delta, the seconds it covers, and its status.  A read
 * that failed (the hypervisor busy, the result short) has no value for
 * its interval but keeps the baseline: the accumulator went on counting,
 * so the next good read's delta covers both intervals, measured from the
 * last good read.  A backwards read drops the baseline, so the next good
 * read only starts a new one (ENG_RESTART: said as such, not as a first
 * sample).  A counter whose record was not updated keeps its baseline
 * too.  With record timebases, a rate is only ever computed between two
 * distinct updates of the record; never over the host clock.
 */
static uint8_t
engine_counter(struct engine *e, size_t k, const struct raw_value *rv,
    uint64_t now, double *delta, double *secs)
{
	uint64_t	 d;
	int		 back;
	uint8_t		 st, seen;

	*delta = *secs = 0;
	seen = e->seen[k];
	e->seen[k] = 1;
	if ((st = engine_raw_status(rv->status)) != ENG_OK)
		return (st);
	if (!e->have_prev[k]) {
		e->prev[k] = rv->value;
		e->prev_tb[k] = rv->timebase;
		e->prev_now[k] = now;
		e->have_prev[k] = 1;
		return (seen ? ENG_RESTART : ENG_NOBASE);
	}
	if (e->tb_hz != 0 && rv->timebase != 0 && e->prev_tb[k] != 0) {
		if (rv->timebase == e->prev_tb[k])
			return (ENG_STALE);
		if (rv->timebase < e->prev_tb[k]) {
			e->have_prev[k] = 0;
			return (ENG_BACKWARDS);
		}
		*secs = (double)(rv->timebase - e->prev_tb[k]) /
		    (double)e->tb_hz;
	} else if (e->tb_hz != 0 && (rv->timebase != 0 ||
	    e->prev_tb[k] != 0 || rv->value == e->prev[k])) {
		/*
		 * A record timebase of 0 is a record the hypervisor has not
		 * updated yet.  Its first update (or a record that started
		 * over) only sets the baseline: what it counted before is
		 * over no known time.  A rate needs two distinct updates.
		 */
		if (rv->timebase != 0 || e->prev_tb[k] != 0) {
			e->prev[k] = rv->value;
			e->prev_tb[k] = rv->timebase;
			e->prev_now[k] = now;
		}
		return (ENG_NOTYET);
	} else
		/* Counts that move with no timebase: the record has none,
		 * and the host clock is all there is. */
		*secs = (double)(now - e->prev_now[k]) / 1e9;
	d = engine_delta(e->prev[k], rv->value, &back);
	if (back) {
		e->have_prev[k] = 0;
		return (ENG_BACKWARDS);
	}
	e->prev[k] = rv->value;
	e->prev_tb[k] = rv->timebase;
	e->prev_now[k] = now;
	if (*secs <= 0)
		return (ENG_STALE);
	*delta = (double)d;
	return (ENG_OK);
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
		if (s->ncells[i] != (v->nrows + 1) * (v->nevents + v->nmetrics))
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
		s->ncells[i] = (v->nrows + 1) * (v->nevents + v->nmetrics);
		s->cells[i] = xmalloc_huge(s->ncells[i] + 1,
		    sizeof **s->cells);
		memset(s->cells[i], 0, (s->ncells[i] + 1) *
		    sizeof **s->cells);
		s->row_interval[i] = xcalloc(v->nrows + 1, sizeof (double));
	}
	return (s);
}

/* Cell c rests on cell from: an estimate makes c one too. */
static void
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
    const struct raw_sample *rs)
{
	const struct engine_view	*v;
	const struct raw_value		*rv;
	struct engine_cell		*row, *tot;
	size_t				 i, r, col, k, ncol;

	/* Most sources never estimate: then there is nothing to mark. */
	for (k = 0; k < rs->nvalues; k++)
		if (rs->values[k].status == RAW_SCALED)
			break;
	if (k == rs->nvalues)
		return;
	for (i = 0; i < e->nviews; i++) {
		v = &e->views[i];
		ncol = v->nevents + v->nmetrics;
		tot = &s->cells[i][v->nrows * ncol];
		for (r = 0; r < v->nrows; r++) {
			row = &s->cells[i][r * ncol];
			for (col = 0; col < v->nevents; col++) {
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

/* A snapshot to fill for rs: old when it fits, and rs's own fields. */
static struct engine_snapshot *
engine_update_begin(struct engine *e, const struct raw_sample *rs,
    struct engine_snapshot *old)
{
	struct engine_snapshot	*s;
	size_t			 k;

	if (old != NULL && engine_snapshot_fits(e, old))
		s = old;
	else {
		engine_snapshot_free(old);
		s = engine_snapshot_new(e);
	}
	s->seq = e->seq++;
	s->now = rs->now;
	s->interval = e->seq > 1 ? (double)(rs->now - e->last_now) / 1e9 : 0;
	e->last_now = rs->now;
	s->calls = rs->calls;
	s->naive_calls = rs->naive_calls;
	s->catalog_version = rs->catalog_version;
	memcpy(s->error, rs->error, sizeof s->error);
	s->error[sizeof s->error - 1] = '\0';
	for (k = 0; k < s->nraw; k++)
		s->raw[k] = k < rs->nvalues ? rs->values[k].value : 0;
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
			    rs->now, &c->delta, &d);
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
 * the same counts scaled to the total's interval tsecs into e->norm.
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
			e->norm[k] = e->csecs[k] == tsecs ? row[col].delta :
			    row[col].value * tsecs;
		}
	}
}

/* View i's event totals: a failed row fails the total. */
static void
engine_update_event_totals(const struct engine *e, struct engine_snapshot *s,
    size_t i)
{
	const struct engine_view	*v = &e->views[i];
	const struct engine_cell	*row;
	struct engine_cell		*c;
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
	size_t				 r, k;
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
		secs = s->row_interval[i][r];
		engine_eval(e, m, &e->scratch[r * v->nevents], v->nevents,
		    secs, secs * (double)e->tb_hz, c);
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
	/*
	 * Rows over other intervals add counts scaled to the total's, which
	 * are not whole: a remainder (x % 2) or an integer quotient of
	 * 12345.9999999 means nothing.  Such a formula gets the nearest
	 * whole counts, as it would from one interval.
	 */
	if (m->whole_counts) {
		for (k = 0; k < m->nevslots; k++)
			e->sums[m->evslots[k]] =
			    floor(e->sums[m->evslots[k]] + 0.5);
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

	s = engine_update_begin(e, rs, old);
	for (i = 0; i < e->nviews; i++) {
		v = &e->views[i];
		/* Every cell is written below; start them clean. */
		memset(s->cells[i], 0, s->ncells[i] * sizeof **s->cells);
		memset(s->row_interval[i], 0,
		    (v->nrows + 1) * sizeof **s->row_interval);
		tsecs = engine_update_events(e, s, i, rs);
		s->row_interval[i][v->nrows] = tsecs;
		engine_update_norm(e, s, i, tsecs);
		engine_update_event_totals(e, s, i);
		for (j = 0; j < v->nmetrics; j++)
			engine_update_metric(e, s, i, j, tsecs);
	}
	engine_estimates(e, s, rs);
	return (s);
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

	if (view >= s->nviews || view >= e->nviews)
		return (NULL);
	v = &e->views[view];
	if (row > v->nrows || col >= v->nevents + v->nmetrics)
		return (NULL);
	return (&s->cells[view][row * (v->nevents + v->nmetrics) + col]);
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
	if (c->status == ENG_NOVALUE && c->reason != FORMULA_DIVZERO)
		return ("?");
	return ("-");
}
