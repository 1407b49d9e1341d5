/*
 * The catalog as lists for the Events, Groups and Formulas screens: one
 * item per entry with lower-case copies of its texts (so the filter is a
 * plain substring search per keystroke), its flags, and the groups it
 * belongs to; filtering and sorting give the positions shown.  No curses.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "model/selection.h"
#include "session/session.h"
#include "ui/ui-model.h"
#include "filter/filter.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const char *const view_catalog_items_cols[UI_NSCREENS][6] = {
	[UI_EVENTS] = { "NAME", "DOMAIN", "FLAGS", "OFFSET", "GROUPS",
	    "DESCRIPTION" },
	[UI_GROUPS] = { "NAME", "DOMAIN", "EVENTS", "RECORD", "PICKED",
	    "DESCRIPTION" },
	[UI_FORMULAS] = { "NAME", "UNIT", "GROUP", "ORIGIN", "LIVE",
	    "FORMULA" },
};

int
view_catalog_items_ncols(enum ui_screen s)
{
	return (s == UI_EVENTS || s == UI_GROUPS || s == UI_FORMULAS ? 6 : 0);
}

const char *
view_catalog_items_col_name(enum ui_screen s, int i)
{
	if (i < 0 || i >= view_catalog_items_ncols(s))
		return ("");
	return (view_catalog_items_cols[s][i]);
}

/* The filter's word for a catalog domain. */
static const char *
view_catalog_items_domain_term(int domain)
{
	static const char *const t[] = { NULL, "chip", "core",
	    "vcpu_home_core", "vcpu_home_chip", "vcpu_home_node",
	    "vcpu_remote_node" };

	if (domain == CATALOG_DOMAIN_CPU)
		return ("cpu");
	return (domain > 0 && domain < CATALOG_DOMAIN_MAX ? t[domain] :
	    "unknown");
}

static char *
view_catalog_items_lower(const char *s)
{
	char	*l, *p;

	l = xstrdup(s != NULL ? s : "");
	for (p = l; *p != '\0'; p++) {
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	}
	return (l);
}

static unsigned
view_catalog_items_event_flags(const struct catalog_event *ev)
{
	unsigned	 f = 0;

	if (ev->flags & CATALOG_FLAG_VERIFIED)
		f |= FILTER_FLAG_VERIFIED;
	if (ev->flags & CATALOG_FLAG_UNVERIFIED)
		f |= FILTER_FLAG_UNVERIFIED;
	if (ev->flags & CATALOG_FLAG_CAVEAT)
		f |= FILTER_FLAG_CAVEAT;
	if (ev->flags & CATALOG_FLAG_BROKEN)
		f |= FILTER_FLAG_BROKEN;
	if (ev->skip != 0)
		f |= FILTER_FLAG_HIDDEN;
	return (f);
}

static void
view_catalog_items_alloc(struct ui_items *it, size_t n)
{
	it->n = n;
	it->v = n > 0 ? xcalloc(n, sizeof *it->v) : NULL;
	it->shown = n > 0 ? xcalloc(n, sizeof *it->shown) : NULL;
	it->nshown = 0;
}

/*
 * The Groups list.  Member names are searchable in the description:
 * "which group has X".
 */
static void
view_catalog_items_build_groups(struct ui *ui, struct strbuf *sb)
{
	const struct catalog		*cat = session_catalog(ui->ses);
	const struct catalog_event	*ev;
	const struct catalog_group	*g;
	struct ui_items			*grs = &ui->items[UI_GROUPS];
	struct ui_item			*it;
	size_t				 i, j;

	view_catalog_items_alloc(grs, cat->ngroups);
	for (i = 0; i < cat->ngroups; i++) {
		g = &cat->groups[i];
		it = &grs->v[i];
		it->index = i;
		it->name = g->name != NULL ? g->name : "";
		it->desc = g->desc;
		it->lname = view_catalog_items_lower(it->name);
		strbuf_reset(sb);
		strbuf_adds(sb, g->desc != NULL ? g->desc : "");
		for (j = 0; j < CATALOG_GROUP_SLOTS; j++) {
			if ((ev = catalog_group_event(cat, g, j)) != NULL)
				strbuf_addf(sb, " %s", ev->name);
		}
		it->ldesc = view_catalog_items_lower(sb->s);
		it->domain = view_catalog_items_domain_term(g->domain);
		it->flags = g->record_length == 0 ? FILTER_FLAG_HIDDEN : 0;
		it->lgroups = xcalloc(1, sizeof *it->lgroups);
		it->lgroups[0] = it->lname;
		it->ngroups = 1;
	}
}

/* The Events list; an event's groups are the Groups list's lower names. */
static void
view_catalog_items_build_events(struct ui *ui)
{
	const struct catalog		*cat = session_catalog(ui->ses);
	const struct catalog_event	*ev;
	const struct ui_items		*grs = &ui->items[UI_GROUPS];
	struct ui_items			*evs = &ui->items[UI_EVENTS];
	struct ui_item			*it;
	size_t				 i, j;

	view_catalog_items_alloc(evs, cat->nevents);
	for (i = 0; i < cat->nevents; i++) {
		ev = &cat->events[i];
		it = &evs->v[i];
		it->index = i;
		it->name = ev->sysfs_name != NULL ? ev->sysfs_name : ev->name;
		it->desc = ev->desc;
		it->lname = view_catalog_items_lower(it->name);
		it->ldesc = view_catalog_items_lower(ev->desc);
		it->domain = view_catalog_items_domain_term(ev->domain);
		it->flags = view_catalog_items_event_flags(ev);
		if (ev->ngroups > 0)
			it->lgroups = xcalloc(ev->ngroups,
			    sizeof *it->lgroups);
		for (j = 0; j < ev->ngroups; j++) {
			if (ev->groups[j] < grs->n)
				it->lgroups[it->ngroups++] =
				    grs->v[ev->groups[j]].lname;
		}
	}
}

/* The Formulas list: the metric files' first, then the catalog's. */
static void
view_catalog_items_build_formulas(struct ui *ui, struct strbuf *sb)
{
	const struct catalog		*cat = session_catalog(ui->ses);
	const struct catalog_formula	*f;
	const struct engine_metric_def	*d;
	const struct ui_items		*grs = &ui->items[UI_GROUPS];
	struct ui_items			*fms = &ui->items[UI_FORMULAS];
	struct ui_item			*it;
	size_t				 i, ndefs = session_nmetrics(ui->ses);

	view_catalog_items_alloc(fms, ndefs + cat->nformulas);
	for (i = 0; i < ndefs + cat->nformulas; i++) {
		it = &fms->v[i];
		it->index = i;
		it->domain = "";
		strbuf_reset(sb);
		if (i < ndefs) {
			d = &session_metrics(ui->ses)[i];
			it->name = d->name != NULL ? d->name : "";
			it->desc = d->desc;
			strbuf_addf(sb, "%s %s", d->desc != NULL ? d->desc :
			    "", d->text != NULL ? d->text : "");
		} else {
			f = &cat->formulas[i - ndefs];
			it->name = f->name != NULL ? f->name : "";
			it->desc = f->desc;
			strbuf_addf(sb, "%s %s", f->desc != NULL ? f->desc :
			    "", f->formula != NULL ? f->formula : "");
			if (f->group < grs->n) {
				it->domain = view_catalog_items_domain_term(
				    cat->groups[f->group].domain);
				it->lgroups = xcalloc(1, sizeof *it->lgroups);
				it->lgroups[0] = grs->v[f->group].lname;
				it->ngroups = 1;
			}
		}
		it->lname = view_catalog_items_lower(it->name);
		it->ldesc = view_catalog_items_lower(sb->s);
	}
}

void
view_catalog_items_build(struct ui *ui)
{
	struct ui_item	*it;
	struct strbuf	 sb = { 0 };
	size_t		 i, j;

	view_catalog_items_free(ui);
	/* Groups first: events and formulas point at their lower names. */
	view_catalog_items_build_groups(ui, &sb);
	view_catalog_items_build_events(ui);
	view_catalog_items_build_formulas(ui, &sb);
	strbuf_free(&sb);
	for (i = 0; i < UI_NSCREENS; i++) {
		for (j = 0; j < ui->items[i].n; j++) {
			it = &ui->items[i].v[j];
			filter_sig_add(it->name_sig, it->lname);
			filter_sig_add(it->desc_sig, it->ldesc);
		}
	}
	view_catalog_items_mark_picked(ui);
	view_catalog_items_layout(ui, UI_EVENTS);
	view_catalog_items_layout(ui, UI_GROUPS);
	view_catalog_items_layout(ui, UI_FORMULAS);
}

void
view_catalog_items_free(struct ui *ui)
{
	struct ui_items	*it;
	size_t		 s, i;

	for (s = 0; s < UI_NSCREENS; s++) {
		it = &ui->items[s];
		for (i = 0; i < it->n; i++) {
			free(it->v[i].lname);
			free(it->v[i].ldesc);
			free(it->v[i].lgroups);
		}
		free(it->v);
		free(it->shown);
		memset(it, 0, sizeof *it);
	}
}

void
view_catalog_items_mark_picked(struct ui *ui)
{
	const struct catalog		*cat = session_catalog(ui->ses);
	const struct selection		*sel = session_selection(ui->ses);
	const struct engine		*e = session_engine(ui->ses);
	const struct sel_pick		*pk;
	const struct engine_view	*v;
	struct ui_items			*evs = &ui->items[UI_EVENTS];
	struct ui_items			*grs = &ui->items[UI_GROUPS];
	struct ui_items			*fms = &ui->items[UI_FORMULAS];
	size_t				 i, j, k;

	for (i = 0; i < evs->n; i++)
		evs->v[i].flags &= ~FILTER_FLAG_PICKED;
	for (i = 0; i < grs->n; i++)
		grs->v[i].flags &= ~FILTER_FLAG_PICKED;
	for (i = 0; i < fms->n; i++)
		fms->v[i].flags &= ~FILTER_FLAG_PICKED;
	for (i = 0; i < sel->npicks; i++) {
		pk = &sel->picks[i];
		if (pk->group != NULL && pk->group >= cat->groups &&
		    pk->group < cat->groups + cat->ngroups)
			grs->v[pk->group - cat->groups].flags |=
			    FILTER_FLAG_PICKED;
		for (j = 0; j < pk->nevents; j++) {
			k = (size_t)(pk->events[j] - cat->events);
			if (k < evs->n)
				evs->v[k].flags |= FILTER_FLAG_PICKED;
		}
	}
	/* A formula is "picked" when a live table computes it. */
	for (i = 0; e != NULL && i < engine_nviews(e); i++) {
		v = engine_view(e, i);
		for (j = 0; j < v->nmetrics; j++) {
			for (k = 0; k < fms->n; k++) {
				if (strcmp(fms->v[k].name,
				    v->metrics[j].name) == 0)
					fms->v[k].flags |= FILTER_FLAG_PICKED;
			}
		}
	}
}

/* ---- sorting ------------------------------------------------------- */

struct view_catalog_items_sort {
	const struct ui		*ui;
	enum ui_screen		 screen;
	int			 col;
};

static int
view_catalog_items_strcmp(const char *a, const char *b)
{
	return (strcmp(a != NULL ? a : "", b != NULL ? b : ""));
}

static int
view_catalog_items_numcmp(unsigned long a, unsigned long b)
{
	return (a < b ? -1 : a > b);
}

static const char *
view_catalog_items_formula_unit(const struct ui *ui, size_t i)
{
	size_t	 ndefs = session_nmetrics(ui->ses);

	if (i < ndefs)
		return (session_metrics(ui->ses)[i].unit);
	return (session_catalog(ui->ses)->formulas[i - ndefs].unit);
}

static const char *
view_catalog_items_formula_origin(const struct ui *ui, size_t i)
{
	if (i < session_nmetrics(ui->ses))
		return (session_metrics(ui->ses)[i].origin);
	return ("catalog");
}

static int
view_catalog_items_cmp_event(const struct catalog *cat,
    const struct ui_item *a, const struct ui_item *b, int col)
{
	const struct catalog_event	*ea = &cat->events[a->index];
	const struct catalog_event	*eb = &cat->events[b->index];

	switch (col) {
	case 0:
		return (view_catalog_items_strcmp(a->name, b->name));
	case 1:
		return (view_catalog_items_numcmp(ea->domain, eb->domain));
	case 2:
		return (view_catalog_items_numcmp(a->flags, b->flags));
	case 3:
		return (view_catalog_items_numcmp(ea->offset, eb->offset));
	case 4:
		return (view_catalog_items_numcmp(ea->ngroups, eb->ngroups));
	case 5:
		return (view_catalog_items_strcmp(a->desc, b->desc));
	}
	return (0);
}

static int
view_catalog_items_cmp_group(const struct catalog *cat,
    const struct ui_item *a, const struct ui_item *b, int col)
{
	const struct catalog_group	*ga = &cat->groups[a->index];
	const struct catalog_group	*gb = &cat->groups[b->index];

	switch (col) {
	case 0:
		return (view_catalog_items_strcmp(a->name, b->name));
	case 1:
		return (view_catalog_items_numcmp(ga->domain, gb->domain));
	case 2:
		return (view_catalog_items_numcmp(
		    catalog_group_nevents(cat, ga),
		    catalog_group_nevents(cat, gb)));
	case 3:
		return (view_catalog_items_numcmp(ga->record_offset,
		    gb->record_offset));
	case 4:
		return (-view_catalog_items_numcmp(
		    a->flags & FILTER_FLAG_PICKED,
		    b->flags & FILTER_FLAG_PICKED));
	case 5:
		return (view_catalog_items_strcmp(a->desc, b->desc));
	}
	return (0);
}

static int
view_catalog_items_cmp_formula(const struct ui *ui, const struct ui_item *a,
    const struct ui_item *b, int col)
{
	switch (col) {
	case 0:
		return (view_catalog_items_strcmp(a->name, b->name));
	case 1:
		return (view_catalog_items_strcmp(
		    view_catalog_items_formula_unit(ui, a->index),
		    view_catalog_items_formula_unit(ui, b->index)));
	case 2:
		return (view_catalog_items_strcmp(
		    a->ngroups ? a->lgroups[0] : "",
		    b->ngroups ? b->lgroups[0] : ""));
	case 3:
		return (view_catalog_items_strcmp(
		    view_catalog_items_formula_origin(ui, a->index),
		    view_catalog_items_formula_origin(ui, b->index)));
	case 4:
		return (-view_catalog_items_numcmp(
		    a->flags & FILTER_FLAG_PICKED,
		    b->flags & FILTER_FLAG_PICKED));
	case 5:
		return (view_catalog_items_strcmp(a->ldesc, b->ldesc));
	}
	return (0);
}

static int
view_catalog_items_cmp(const void *pa, const void *pb, void *arg)
{
	const struct view_catalog_items_sort	*s = arg;
	const struct catalog	*cat = session_catalog(s->ui->ses);
	const struct ui_items	*it = &s->ui->items[s->screen];
	const struct ui_item	*a = &it->v[*(const size_t *)pa];
	const struct ui_item	*b = &it->v[*(const size_t *)pb];
	int			 r = 0;

	switch (s->screen) {
	case UI_EVENTS:
		r = view_catalog_items_cmp_event(cat, a, b, s->col);
		break;
	case UI_GROUPS:
		r = view_catalog_items_cmp_group(cat, a, b, s->col);
		break;
	case UI_FORMULAS:
		r = view_catalog_items_cmp_formula(s->ui, a, b, s->col);
		break;
	default:
		break;
	}
	if (r == 0)
		r = view_catalog_items_numcmp(a->index, b->index);
	else if (s->ui->list[s->screen].reverse)
		r = -r;
	return (r);
}

void
view_catalog_items_layout(struct ui *ui, enum ui_screen screen)
{
	struct ui_items		*it = &ui->items[screen];
	struct ui_list		*l = &ui->list[screen];
	struct filter_item	 fi;
	struct view_catalog_items_sort s;
	size_t			 i, keep = (size_t)-1;
	unsigned		 want;

	if (l->cursor < it->nshown)
		keep = it->shown[l->cursor];
	want = filter_flags_wanted(ui->filter);
	it->nshown = 0;
	for (i = 0; i < it->n; i++) {
		fi.name = it->v[i].lname;
		fi.desc = it->v[i].ldesc;
		fi.domain = it->v[i].domain;
		fi.flags = it->v[i].flags;
		fi.groups = (const char *const *)it->v[i].lgroups;
		fi.ngroups = it->v[i].ngroups;
		fi.name_sig = it->v[i].name_sig;
		fi.desc_sig = it->v[i].desc_sig;
		/* Entries the kernel would not list stay out unless asked. */
		if ((fi.flags & FILTER_FLAG_HIDDEN) &&
		    !(want & FILTER_FLAG_HIDDEN))
			continue;
		if (ui->filter != NULL && !filter_match(ui->filter, &fi))
			continue;
		it->shown[it->nshown++] = i;
	}
	if (l->sort >= 0 || l->reverse) {
		s.ui = ui;
		s.screen = screen;
		s.col = l->sort;
		if (it->nshown > 1)
			qsort_r(it->shown, it->nshown, sizeof *it->shown,
			    view_catalog_items_cmp, &s);
	}
	l->cursor = 0;
	for (i = 0; keep != (size_t)-1 && i < it->nshown; i++) {
		if (it->shown[i] == keep) {
			l->cursor = i;
			break;
		}
	}
}

const struct ui_item *
view_catalog_items_cursor(const struct ui *ui, enum ui_screen screen)
{
	const struct ui_items	*it = &ui->items[screen];
	size_t			 c = ui->list[screen].cursor;

	if (c >= it->nshown)
		return (NULL);
	return (&it->v[it->shown[c]]);
}

char *
view_catalog_items_indices(const unsigned *v, size_t n)
{
	struct strbuf	 sb = { 0 };
	size_t		 i, j;

	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && v[j] == v[j - 1] + 1; j++)
			;
		if (sb.len > 0)
			strbuf_addc(&sb, ',');
		if (j - i == 1)
			strbuf_addf(&sb, "%u", v[i]);
		else
			strbuf_addf(&sb, "%u-%u", v[i], v[j - 1]);
	}
	if (sb.s == NULL)
		return (xstrdup("none"));
	return (strbuf_detach(&sb));
}

char *
view_catalog_items_picked_where(const struct ui *ui, const char *name,
    int event)
{
	const struct selection	*sel = session_selection(ui->ses);
	const struct sel_pick	*pk;
	struct strbuf		 sb = { 0 };
	size_t			 i;
	char			*idx;

	for (i = 0; i < sel->npicks; i++) {
		pk = &sel->picks[i];
		if ((pk->kind == SEL_EVENT) != (event != 0) ||
		    strcmp(pk->name, name) != 0)
			continue;
		idx = view_catalog_items_indices(pk->indices, pk->nindices);
		strbuf_addf(&sb, "%s%s %s", sb.len > 0 ? "; " : "",
		    selection_domain_term(pk->domain), idx);
		free(idx);
	}
	return (sb.s != NULL ? strbuf_detach(&sb) : NULL);
}
