/*
 * The settings controller: what the settings file says (interval, picks,
 * sort columns, hidden columns) applied to the interface at start, and
 * the interface's state written back on W, never silently.  The file's
 * text is read and written by config/settings.c.  What comes of it is
 * said in a note (struct ui_note) that the loop shows: nothing here
 * writes the status line.
 */
#include "config.h"

#include "ui/ui-run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "session/session.h"
#include "model/selection.h"
#include "sys/settings-file.h"
#include "util/xalloc.h"

static int
ui_settings_domain(const char *term)
{
	int	 d;

	for (d = 1; d < LIVE_NDOMAINS; d++) {
		if (strcmp(live_slot_name(d), term) == 0)
			return (d);
	}
	return (0);
}

/* The Partitions screen's sort column, by the name its head shows. */
static void
ui_settings_lpar(struct ui *ui, const struct settings *s)
{
	const char	*v;
	int		 c;

	if ((v = settings_get(s, "sort.partitions")) != NULL) {
		for (c = 0; c < LPAR_NCOLS; c++) {
			if (strcmp(lpar_sort_name(c), v) == 0)
				ui->lp.sort = c;
		}
	}
	if ((v = settings_get(s, "reverse.partitions")) != NULL)
		ui->lp.reverse = strcmp(v, "1") == 0;
}

static void
ui_settings_apply(struct ui_run *r, struct ui_note *n)
{
	static const char *const scr[] = { NULL, "events", "groups",
	    "formulas" };
	struct ui		*ui = &r->ui;
	const struct settings	*s = r->settings;
	const struct settings_entry *e;
	const char		*v;
	char			*cause = NULL, key[64];
	double			 d;
	size_t			 i;
	int			 k, dom;

	if (s == NULL)
		return;
	if (!r->interval_set && !ui->replay) {
		if ((k = settings_interval(s, &d, &cause)) > 0) {
			session_set_interval(ui->ses, d);
			ui->interval = d;
		} else if (k < 0) {
			ui_note_set(n, UI_R_ERROR, "%s", cause);
			free(cause);
			cause = NULL;
		}
	}
	for (i = 0; i < s->nentries; i++) {
		e = &s->entries[i];
		if (strcmp(e->key, "hidden") == 0) {
			ui->hidden = xreallocarray(ui->hidden, ui->nhidden + 1,
			    sizeof *ui->hidden);
			ui->hidden[ui->nhidden++] = xstrdup(e->value);
		} else if (strncmp(e->key, "sort.", 5) == 0 &&
		    (dom = ui_settings_domain(e->key + 5)) > 0) {
			free(ui->live.sortname[dom]);
			ui->live.sortname[dom] = strcmp(e->value, "index") ==
			    0 ? NULL : xstrdup(e->value);
		} else if (strncmp(e->key, "reverse.", 8) == 0 &&
		    (dom = ui_settings_domain(e->key + 8)) > 0)
			ui->live.sortrev[dom] = strcmp(e->value, "1") == 0;
	}
	for (k = 1; k < 4; k++) {
		snprintf(key, sizeof key, "sort.%s", scr[k]);
		if ((v = settings_get(s, key)) != NULL) {
			for (i = 0; i < 6; i++) {
				if (strcmp(view_catalog_items_col_name(k,
				    (int)i), v) == 0)
					ui->list[k].sort = (int)i;
			}
		}
		snprintf(key, sizeof key, "reverse.%s", scr[k]);
		if ((v = settings_get(s, key)) != NULL)
			ui->list[k].reverse = strcmp(v, "1") == 0;
	}
	ui_settings_lpar(ui, s);
	/* Picks from the file, unless -g or -e said what to watch or a
	 * replay shows what was recorded. */
	if (r->picked || ui->replay)
		return;
	for (i = 0; i < s->nentries; i++) {
		e = &s->entries[i];
		if (strcmp(e->key, "pick") != 0)
			continue;
		if (strncmp(e->value, "group:", 6) == 0)
			ui_pick_list_add(&ui->picks, &ui->npicks,
			    e->value + 6, 0);
		else if (strncmp(e->value, "event:", 6) == 0)
			ui_pick_list_add(&ui->picks, &ui->npicks,
			    e->value + 6, 1);
	}
	if (ui->npicks > 0 && ui_pick_apply(r, &cause) != 0) {
		ui_note_set(n, UI_R_ERROR, "settings: cannot pick %s; "
		    "showing the overview", cause);
		free(cause);
		ui_pick_list_free(&ui->picks, &ui->npicks);
		if (ui_pick_apply(r, &cause) != 0)
			free(cause);
	}
}

unsigned
ui_settings_save(struct ui_run *r, struct ui_note *n)
{
	static const char *const scr[] = { NULL, "events", "groups",
	    "formulas" };
	struct ui	*ui = &r->ui;
	struct settings	*s = r->settings;
	char		 buf[512], key[64], *path, *cause = NULL;
	const char	*term;
	size_t		 i;
	int		 d, k;

	/* What could not be read would be lost by writing over it. */
	if (r->settings_unread != NULL) {
		ui_note_set(n, UI_R_ERROR, "settings not written: the "
		    "file could not be read (%s)", r->settings_unread);
		return (UI_ACT_NONE);
	}
	if (s == NULL)
		s = r->settings = settings_new();
	if ((path = settings_file_path()) == NULL) {
		ui_note_set(n, UI_R_ERROR, "nowhere to write settings: "
		    "set HOME, XDG_CONFIG_HOME or HVTOP_CONFIG");
		return (UI_ACT_NONE);
	}
	snprintf(buf, sizeof buf, "%g", ui->interval);
	settings_set(s, "interval", buf);
	settings_remove(s, "pick");
	for (i = 0; i < ui->npicks; i++) {
		snprintf(buf, sizeof buf, "%s:%s", ui->picks[i].event ?
		    "event" : "group", ui->picks[i].spec);
		settings_add(s, "pick", buf);
	}
	settings_remove(s, "hidden");
	for (i = 0; i < ui->nhidden; i++)
		settings_add(s, "hidden", ui->hidden[i]);
	settings_remove(s, "frame.metric");
	if (ui->fr.metric != NULL)
		settings_add(s, "frame.metric", ui->fr.metric);
	for (d = 1; d < LIVE_NDOMAINS; d++) {
		/* Domains 3 to 6 share "vcpu": the first of them is read. */
		term = live_slot_name(d);
		if (ui_settings_domain(term) != d)
			continue;
		snprintf(key, sizeof key, "sort.%s", term);
		settings_remove(s, key);
		if (ui->live.sortname[d] != NULL)
			settings_add(s, key, ui->live.sortname[d]);
		snprintf(key, sizeof key, "reverse.%s", term);
		settings_remove(s, key);
		if (ui->live.sortrev[d])
			settings_add(s, key, "1");
	}
	for (k = 1; k < 4; k++) {
		snprintf(key, sizeof key, "sort.%s", scr[k]);
		settings_remove(s, key);
		if (ui->list[k].sort >= 0)
			settings_add(s, key, view_catalog_items_col_name(k,
			    ui->list[k].sort));
		snprintf(key, sizeof key, "reverse.%s", scr[k]);
		settings_remove(s, key);
		if (ui->list[k].reverse)
			settings_add(s, key, "1");
	}
	settings_remove(s, "sort.partitions");
	settings_add(s, "sort.partitions", lpar_sort_name(ui->lp.sort));
	settings_remove(s, "reverse.partitions");
	if (ui->lp.reverse)
		settings_add(s, "reverse.partitions", "1");
	if (settings_file_save(path, s, &cause) != 0) {
		ui_note_set(n, UI_R_ERROR, "cannot write settings: %s",
		    cause);
		free(cause);
	} else
		ui_note_set(n, UI_R_GOOD, "settings written to %s", path);
	free(path);
	return (UI_ACT_NONE);
}

void
ui_settings_load(struct ui_run *r, struct ui_note *n)
{
	const char	*v;
	char		*path, *cause = NULL, more[64];

	if ((path = settings_file_path()) != NULL &&
	    settings_file_load(path, &r->settings, &cause) != 0) {
		ui_note_set(n, UI_R_ERROR, "settings not used: %s",
		    cause);
		r->settings_unread = cause;
	} else if (r->settings != NULL && r->settings->nnotes > 0) {
		/* The rest applies; the lines stay in the file. */
		more[0] = '\0';
		if (r->settings->nnotes > 1)
			snprintf(more, sizeof more, " (%zu lines)",
			    r->settings->nnotes);
		ui_note_set(n, UI_R_ERROR, "settings: kept as written, "
		    "not used%s: %s:%s", more, path, r->settings->notes[0]);
	}
	free(path);
	ui_settings_apply(r, n);
	/* After the picks: the metric must be one they read. */
	if (r->settings != NULL &&
	    (v = settings_get(r->settings, "frame.metric")) != NULL &&
	    frame_set_metric(&r->ui, v) != 0)
		ui_note_set(n, UI_R_NORMAL, "settings: frame.metric=%s "
		    "is not read on chips or cores; the Frame screen shows "
		    "the default", v);
}
