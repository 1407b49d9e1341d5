/*
 * The overview: what a session shows when nobody picked anything.  The
 * chip groups that hold the operands of the catalog's formulas (the
 * formula's own group when it holds them all), on every chip; and on
 * every core the core groups that hold the operands of hvtop's own
 * metrics (busy share, IPC), else one with cycles and instructions.
 * Policy only: the groups are resolved into a selection the caller
 * applies.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "model/selection.h"
#include "session/session.h"
#include "session/session-int.h"
#include "formula/formula.h"
#include "util/hverr.h"
#include "util/xalloc.h"

#define SESSION_OVERVIEW_GROUPS	16	/* chip groups the overview takes */

/* Groups in the order taken, each once. */
struct session_taken {
	const struct catalog_group **v;
	size_t			 n;
};

static void
session_take(struct session_taken *t, const struct catalog_group *g)
{
	size_t	 i;

	for (i = 0; i < t->n; i++) {
		if (t->v[i] == g)
			return;
	}
	t->v = xreallocarray(t->v, t->n + 1, sizeof *t->v);
	t->v[t->n++] = g;
}

static int
session_group_has(const struct catalog *cat, const struct catalog_group *g,
    const struct catalog_event *ev)
{
	size_t	 i;

	for (i = 0; i < CATALOG_GROUP_SLOTS; i++) {
		if (catalog_group_event(cat, g, i) == ev)
			return (1);
	}
	return (0);
}

/* The chip groups formula f reads: its own when it holds every operand,
 * else each operand's first group. */
static void
session_take_formula(const struct catalog *cat,
    const struct catalog_formula *f, struct session_resolver *r,
    struct session_taken *t)
{
	const struct catalog_group	*g;
	const struct catalog_event	*ev;
	struct formula			*fc;
	char				*err = NULL;
	size_t				 j;
	int				 all;

	r->nevents = 0;
	if (f->formula == NULL || formula_compile(f->formula, FORMULA_AUTO,
	    f->name, session_resolve, r, &fc, &err) != 0) {
		free(err);
		return;
	}
	g = f->group < cat->ngroups ? &cat->groups[f->group] : NULL;
	all = g != NULL && g->domain == CATALOG_DOMAIN_CHIP;
	for (j = 0; all && j < r->nevents; j++)
		all = session_group_has(cat, g, r->events[j]);
	if (all && r->nevents > 0)
		session_take(t, g);
	else {
		for (j = 0; j < r->nevents; j++) {
			ev = r->events[j];
			if (ev->ngroups > 0 &&
			    ev->domain == CATALOG_DOMAIN_CHIP)
				session_take(t, &cat->groups[ev->groups[0]]);
		}
	}
	formula_free(fc);
}

/*
 * The core groups that hold the operands of hvtop's own metrics (busy
 * share and IPC, which the Frame map shows): for each operand no group
 * taken holds, its first group.  Returns how many were taken.
 */
static size_t
session_take_own(const struct session *s, struct session_taken *t,
    size_t from)
{
	const struct catalog		*cat = s->catp;
	const struct catalog_event	*ev;
	struct session_resolver		 r;
	struct formula			*f;
	char				*err = NULL;
	size_t				 i, j, n0 = t->n;
	int				 held;

	memset(&r, 0, sizeof r);
	r.cat = cat;
	/* Every operand of every one of them, in r.events. */
	for (i = 0; i < s->ndefs; i++) {
		if (strcmp(s->defs[i].origin, SESSION_METRIC_ORIGIN) != 0)
			continue;
		if (formula_compile(s->defs[i].text, FORMULA_AUTO, NULL,
		    session_resolve, &r, &f, &err) != 0) {
			free(err);
			err = NULL;
			continue;
		}
		formula_free(f);
	}
	for (i = 0; i < r.nevents; i++) {
		ev = r.events[i];
		for (j = from, held = 0; !held && j < t->n; j++)
			held = session_group_has(cat, t->v[j], ev);
		if (!held && ev->ngroups > 0 && ev->domain !=
		    CATALOG_DOMAIN_CHIP && cat->groups[ev->groups[0]].
		    record_length != 0)
			session_take(t, &cat->groups[ev->groups[0]]);
	}
	free(r.events);
	return (t->n - n0);
}

/* A core group with cycles and instructions, or the first usable one. */
static const struct catalog_group *
session_core_group(const struct catalog *cat)
{
	const struct catalog_group	*g, *first = NULL;
	const struct catalog_event	*ev;
	size_t				 i, j;
	int				 cyc, inst;

	for (i = 0; i < cat->ngroups; i++) {
		g = &cat->groups[i];
		if (g->domain == CATALOG_DOMAIN_CHIP || g->record_length == 0)
			continue;
		if (first == NULL)
			first = g;
		cyc = inst = 0;
		for (j = 0; j < CATALOG_GROUP_SLOTS; j++) {
			if ((ev = catalog_group_event(cat, g, j)) == NULL)
				continue;
			cyc |= strstr(ev->name, "CYC") != NULL;
			inst |= strstr(ev->name, "INST") != NULL;
		}
		if (cyc && inst)
			return (g);
	}
	return (first);
}

/* The groups of the overview; *nchip: how many are chip groups. */
static void
session_overview_groups(const struct session *s, struct session_taken *t,
    size_t *nchip)
{
	const struct catalog	*cat = s->catp;
	struct session_resolver	 r;
	const struct catalog_group *g;
	size_t			 i;

	memset(&r, 0, sizeof r);
	r.cat = cat;
	for (i = 0; i < cat->nformulas && t->n < SESSION_OVERVIEW_GROUPS; i++)
		session_take_formula(cat, &cat->formulas[i], &r, t);
	free(r.events);
	*nchip = t->n;
	if (session_take_own(s, t, *nchip) == 0 &&
	    (g = session_core_group(cat)) != NULL)
		session_take(t, g);
	if (t->n > 0)
		return;
	/* A catalog without formulas: its first chip group. */
	for (i = 0; i < cat->ngroups; i++) {
		if (cat->groups[i].domain == CATALOG_DOMAIN_CHIP &&
		    cat->groups[i].record_length != 0) {
			session_take(t, &cat->groups[i]);
			return;
		}
	}
}

int
session_overview(const struct session *s, struct selection *out,
    char **cause)
{
	struct session_taken	 t = { NULL, 0 };
	size_t			 i, nchip;
	int			 error = 0;

	session_overview_groups(s, &t, &nchip);
	for (i = 0; i < t.n && error == 0; i++) {
		error = selection_add(out, s->catp, &s->topo, t.v[i]->name, 0,
		    cause);
		/* Core domains need permission a partition may lack. */
		if (error != 0 && i >= nchip) {
			free(*cause);
			*cause = NULL;
			error = 0;
		}
	}
	free(t.v);
	if (error == 0 && out->ncounters == 0) {
		*cause = xstrdup("the catalog has no group to show: pick "
		    "events with -e");
		error = -HV_ENOENT;
	}
	return (error);
}
