/*
 * An engine's metrics: the catalog's formulas and the caller's definitions
 * compiled against each view's event columns, a view getting every metric
 * it can compute.  Pure: the engine's strings live in its arena.
 */
#include "config.h"

#include "engine/engine.h"

#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "engine/engine-int.h"
#include "util/arena.h"
#include "util/htab.h"
#include "util/hverr.h"
#include "util/xalloc.h"

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

void
engine_metric_build(struct engine *e, const struct engine_metric_def *udefs,
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
