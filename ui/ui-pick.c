/*
 * The pick controller: what the user asked to watch (groups and events,
 * by name or from a catalog list, with their indices), applied to the
 * session between two samples.  A pick that the session cannot select is
 * dropped and the selection before it stays.  Without picks the Live
 * screen shows the session's overview.  What came of a change is said in
 * a note (struct ui_note) that the caller shows: nothing here writes the
 * status line.
 */
#include "config.h"

#include "ui/ui-run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "session/session.h"
#include "model/selection.h"
#include "ui/prompt.h"
#include "util/xalloc.h"

void
ui_pick_list_free(struct ui_pick **v, size_t *n)
{
	size_t	 i;

	for (i = 0; i < *n; i++)
		free((*v)[i].spec);
	free(*v);
	*v = NULL;
	*n = 0;
}

void
ui_pick_list_add(struct ui_pick **v, size_t *n, const char *spec, int event)
{
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	(*v)[*n].spec = xstrdup(spec);
	(*v)[*n].event = event;
	(*n)++;
}

/* A pick's identity: its name and domain suffix, not its indices. */
static void
ui_pick_key(const char *spec, char *buf, size_t len)
{
	size_t	 n;

	n = strcspn(spec, ":");
	if (n >= len)
		n = len - 1;
	memcpy(buf, spec, n);
	buf[n] = '\0';
}

void
ui_pick_list_copy(const struct selection *sel, struct ui_pick **v,
    size_t *n)
{
	size_t	 i;

	for (i = 0; i < sel->npicks; i++)
		ui_pick_list_add(v, n, sel->picks[i].spec,
		    sel->picks[i].kind == SEL_EVENT);
}

int
ui_pick_apply(struct ui_run *r, char **cause)
{
	struct ui		*ui = &r->ui;
	const struct ui_pick	*v;
	struct session_pick	*sp;
	size_t			 i, n;
	int			 error;

	v = ui->npicks > 0 ? ui->picks : ui->overview;
	n = ui->npicks > 0 ? ui->npicks : ui->noverview;
	sp = xcalloc(n + 1, sizeof *sp);
	for (i = 0; i < n; i++) {
		sp[i].spec = v[i].spec;
		sp[i].event = v[i].event;
	}
	error = session_select(ui->ses, sp, n, cause);
	free(sp);
	if (error != 0)
		return (error);
	ui_engine_changed(r, 0);
	return (0);
}

/* A copy of the picks, to put back when a change cannot be applied. */
static void
ui_pick_save(const struct ui *ui, struct ui_pick **save, size_t *nsave)
{
	size_t	 i;

	*save = NULL;
	*nsave = 0;
	for (i = 0; i < ui->npicks; i++)
		ui_pick_list_add(save, nsave, ui->picks[i].spec,
		    ui->picks[i].event);
}

/* Put the saved picks back (the session kept its selection). */
static void
ui_pick_restore(struct ui *ui, struct ui_pick *save, size_t nsave)
{
	ui_pick_list_free(&ui->picks, &ui->npicks);
	ui->picks = save;
	ui->npicks = nsave;
}

unsigned
ui_pick_set(struct ui_run *r, const char *spec, int event,
    struct ui_note *note)
{
	struct ui	*ui = &r->ui;
	struct ui_pick	*save;
	size_t		 nsave, i, n;
	char		 key[256], k2[256], *cause = NULL;

	ui_pick_save(ui, &save, &nsave);
	ui_pick_key(spec, key, sizeof key);
	for (i = n = 0; i < ui->npicks; i++) {
		ui_pick_key(ui->picks[i].spec, k2, sizeof k2);
		if (strcmp(key, k2) == 0 && ui->picks[i].event == event) {
			free(ui->picks[i].spec);
			continue;
		}
		ui->picks[n++] = ui->picks[i];
	}
	ui->npicks = n;
	ui_pick_list_add(&ui->picks, &ui->npicks, spec, event);
	if (ui_pick_apply(r, &cause) != 0) {
		ui_note_set(note, UI_R_ERROR, "cannot pick %s", cause);
		free(cause);
		ui_pick_restore(ui, save, nsave);
		return (UI_ACT_NONE);
	}
	ui_pick_list_free(&save, &nsave);
	ui_note_set(note, UI_R_GOOD, "picked %s%s: values after one "
	    "interval", event ? "event " : "", spec);
	return (UI_ACT_RESAMPLE);
}

/* Remove the picks named name (group or event); apply. */
unsigned
ui_pick_unset(struct ui_run *r, const char *name, int event,
    struct ui_note *note)
{
	struct ui	*ui = &r->ui;
	struct ui_pick	*save;
	size_t		 nsave, i, n, removed = 0, len = strlen(name);
	char		*cause = NULL;

	ui_pick_save(ui, &save, &nsave);
	/* Unpicking from the overview makes the rest of it explicit. */
	if (ui->npicks == 0)
		ui_pick_list_copy(session_selection(ui->ses), &ui->picks,
		    &ui->npicks);
	for (i = n = 0; i < ui->npicks; i++) {
		/* The name alone, or followed by its domain or indices
		 * (strchr() also finds the terminating NUL). */
		if (ui->picks[i].event == event &&
		    strncmp(ui->picks[i].spec, name, len) == 0 &&
		    strchr("@:", ui->picks[i].spec[len]) != NULL) {
			free(ui->picks[i].spec);
			removed++;
			continue;
		}
		ui->picks[n++] = ui->picks[i];
	}
	ui->npicks = n;
	if (removed == 0 || ui_pick_apply(r, &cause) != 0) {
		if (removed == 0)
			ui_note_set(note, UI_R_WARN, "%s is not picked", name);
		else {
			ui_note_set(note, UI_R_ERROR, "%s", cause);
			free(cause);
		}
		ui_pick_restore(ui, save, nsave);
		return (UI_ACT_NONE);
	}
	ui_pick_list_free(&save, &nsave);
	ui_note_set(note, UI_R_NORMAL, "unpicked %s%s", name,
	    ui->npicks == 0 ? " (nothing picked: the overview is back)" :
	    "");
	return (UI_ACT_RESAMPLE);
}

unsigned
ui_pick_clear(struct ui_run *r, struct ui_note *note)
{
	struct ui	*ui = &r->ui;
	char		*cause = NULL;

	ui_pick_list_free(&ui->picks, &ui->npicks);
	if (ui_pick_apply(r, &cause) != 0) {
		ui_note_set(note, UI_R_ERROR, "%s", cause);
		free(cause);
		return (UI_ACT_NONE);
	}
	ui_note_set(note, UI_R_NORMAL, "picks cleared: the overview");
	return (UI_ACT_RESAMPLE);
}

void
ui_pick_setup(struct ui_run *r)
{
	struct ui		*ui = &r->ui;
	struct selection	 sel;
	char			*cause = NULL;

	if (!r->picked) {
		ui_pick_list_copy(session_selection(ui->ses), &ui->overview,
		    &ui->noverview);
		return;
	}
	ui_pick_list_copy(session_selection(ui->ses), &ui->picks,
	    &ui->npicks);
	memset(&sel, 0, sizeof sel);
	if (session_overview(ui->ses, &sel, &cause) == 0)
		ui_pick_list_copy(&sel, &ui->overview, &ui->noverview);
	free(cause);
	selection_clear(&sel);
}

/* The group a formula of the catalog list reads, or NULL and a message. */
static const struct catalog_group *
ui_pick_formula_group(struct ui_run *r, const struct ui_item *it,
    struct ui_note *note)
{
	const struct catalog		*cat = session_catalog(r->ui.ses);
	size_t				 ndefs = session_nmetrics(r->ui.ses);
	const struct catalog_formula	*f;

	if (it->index < ndefs) {
		ui_note_set(note, UI_R_WARN, "%s comes from a metric file: "
		    "pick the groups of its events", it->name);
		return (NULL);
	}
	f = &cat->formulas[it->index - ndefs];
	if (f->group >= cat->ngroups) {
		ui_note_set(note, UI_R_WARN, "%s names no group: pick the "
		    "groups of its events", it->name);
		return (NULL);
	}
	return (&cat->groups[f->group]);
}

unsigned
ui_pick_entry(struct ui_run *r, struct ui_note *note)
{
	struct ui			*ui = &r->ui;
	const struct catalog		*cat = session_catalog(ui->ses);
	const struct catalog_group	*g;
	const struct ui_item		*it;
	int				 domain;

	if ((it = view_catalog_items_cursor(ui, ui->screen)) == NULL)
		return (UI_ACT_NONE);
	free(r->pending);
	r->pending = NULL;
	switch (ui->screen) {
	case UI_EVENTS:
		r->pending = xstrdup(it->name);
		r->pending_event = 1;
		domain = cat->events[it->index].domain;
		break;
	case UI_GROUPS:
		r->pending = xstrdup(it->name);
		r->pending_event = 0;
		domain = cat->groups[it->index].domain;
		break;
	case UI_FORMULAS:
		if ((g = ui_pick_formula_group(r, it, note)) == NULL)
			return (UI_ACT_NONE);
		r->pending = xstrdup(g->name);
		r->pending_event = 0;
		domain = g->domain;
		break;
	default:
		return (UI_ACT_NONE);
	}
	ui->ask = PROMPT_INDICES;
	snprintf(ui->ask_label, sizeof ui->ask_label, "pick %s on %ss "
	    "(Enter: all; or 0,3,8-11): ", r->pending,
	    selection_domain_term(selection_pick_domain(domain)));
	free(ui->ask_init);
	ui->ask_init = NULL;
	ui->ask_names = 0;
	return (UI_ACT_PROMPT);
}

unsigned
ui_pick_unpick_entry(struct ui_run *r, struct ui_note *note)
{
	struct ui		*ui = &r->ui;
	const struct ui_item	*it;
	char			*name;
	unsigned		 act;

	if (ui->screen != UI_EVENTS && ui->screen != UI_GROUPS)
		return (UI_ACT_NONE);
	if ((it = view_catalog_items_cursor(ui, ui->screen)) == NULL)
		return (UI_ACT_NONE);
	/* Unpicking rebuilds the lists the item lives in. */
	name = xstrdup(it->name);
	act = ui_pick_unset(r, name, ui->screen == UI_EVENTS, note);
	free(name);
	return (act);
}

unsigned
ui_pick_unpick_column(struct ui_run *r, struct ui_note *note)
{
	struct ui			*ui = &r->ui;
	const struct engine_view	*v;
	const struct live_view		*lv;
	const struct sel_pick		*pk;
	size_t				 view, row, col;
	char				*name;
	unsigned			 act;

	if (live_cursor(ui, &view, &row) != 0)
		return (UI_ACT_NONE);
	v = engine_view(session_engine(ui->ses), view);
	lv = &ui->live.v[view];
	if (lv->ncols == 0)
		return (UI_ACT_NONE);
	col = lv->cols[lv->col];
	if (col >= v->nevents) {
		ui_note_set(note, UI_R_WARN, "a metric column: x on one of "
		    "its event columns unpicks their group");
		return (UI_ACT_NONE);
	}
	pk = &session_selection(ui->ses)->picks[v->pick_of[col]];
	name = xstrdup(pk->name);
	act = ui_pick_unset(r, name, pk->kind == SEL_EVENT, note);
	free(name);
	return (act);
}

/* The g prompt's answer: a group or an event of the catalog, by name. */
/*
 * The catalog's name for a group (*event 0) or event typed as -g and -e
 * take it (case, then "did you mean"), by asking the selection as they
 * do, a group first; allocated, or NULL with *cause.
 */
static char *
ui_pick_spelling(struct ui_run *r, const char *name, int *event,
    char **cause)
{
	const struct catalog	*cat = session_catalog(r->ui.ses);
	const struct topology	*topo = session_topology(r->ui.ses);
	struct selection	 sel;
	const struct sel_pick	*pk;
	char			*why[2] = { NULL, NULL }, *out = NULL;
	int			 k;

	for (k = 0; k < 2 && out == NULL; k++) {
		memset(&sel, 0, sizeof sel);
		if (selection_add(&sel, cat, topo, name, k, &why[k]) == 0 &&
		    sel.npicks == 1) {
			pk = &sel.picks[0];
			if (k == 0 && pk->group != NULL)
				out = xstrdup(pk->group->name);
			else if (k == 1 && pk->nevents > 0)
				out = xstrdup(pk->events[0]->name);
			*event = k;
		}
		selection_clear(&sel);
	}
	if (out != NULL) {
		free(why[0]);
		free(why[1]);
		return (out);
	}
	/* A group that exists but cannot be read says why; a name that
	 * is no group takes the event's suggestions when it has some. */
	k = why[0] != NULL && strncmp(why[0], "unknown group", 13) == 0 &&
	    strstr(why[0], "did you mean") == NULL && why[1] != NULL &&
	    strstr(why[1], "did you mean") != NULL;
	*cause = why[k] != NULL ? why[k] : xasprintf("%s: no such group or "
	    "event", name);
	free(why[!k]);
	return (NULL);
}

unsigned
ui_pick_by_name(struct ui_run *r, const char *line, struct ui_note *note)
{
	char			*spec, name[256], *canon, *full, *cause = NULL;
	int			 event;
	unsigned		 act;

	while (*line == ' ')
		line++;
	spec = xstrndup(line, strcspn(line, " "));
	if (*spec == '\0') {
		free(spec);
		return (UI_ACT_NONE);
	}
	ui_pick_key(spec, name, sizeof name);
	name[strcspn(name, "@")] = '\0';
	/* The name as -g and -e match it: case, "did you mean". */
	if ((canon = ui_pick_spelling(r, name, &event, &cause)) == NULL) {
		ui_note_set(note, UI_R_ERROR, "%s", cause);
		free(cause);
		free(spec);
		return (UI_ACT_NONE);
	}
	full = xasprintf("%s%s", canon, spec + strlen(name));
	act = ui_pick_set(r, full, event, note);
	free(full);
	free(canon);
	free(spec);
	return (act);
}

/* The indices asked after Enter on a list: empty means all of them. */
unsigned
ui_pick_indices(struct ui_run *r, const char *line, struct ui_note *note)
{
	char		*spec;
	unsigned	 act = UI_ACT_NONE;

	if (line != NULL && r->pending != NULL) {
		while (*line == ' ')
			line++;
		if (*line == '\0')
			spec = xstrdup(r->pending);
		else if (*line == '@' || *line == ':')
			spec = xasprintf("%s%s", r->pending, line);
		else
			spec = xasprintf("%s:%s", r->pending, line);
		act = ui_pick_set(r, spec, r->pending_event, note);
		free(spec);
	}
	free(r->pending);
	r->pending = NULL;
	return (act);
}
