/*
 * The terminal interface: the main loop and what each key does.  One loop
 * waits in poll() for a key or the next sample, whichever comes first, so
 * the frame keeps being sampled while the user types at a prompt.  Keys
 * change the model (struct ui); the model is rendered to a frame of text
 * (view*.c) and painted (crt.c).  Picks change the selection and rebuild
 * the engine between two samples; the sampler and the source stay open.
 *
 * With --sim clock=virtual the frame's clock advances by exactly one
 * interval per refresh, so the numbers are those a batch run prints; the
 * screen itself still refreshes in real time.
 */
#include "config.h"

#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "model/selection.h"
#include "engine/session.h"
#include "source/source.h"
#include "ui/crt.h"
#include "ui/prompt.h"
#include "ui/ui.h"
#include "ui/view.h"
#include "util/clock.h"
#include "util/filter.h"
#include "util/seekspec.h"
#include "util/settings.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define UI_MSG_SECONDS	6
#define UI_FIRST_NS	200000000ULL	/* first interval after a baseline */

/* What the loop needs besides the model. */
struct ui_run {
	struct ui	 ui;
	const struct ui_opts *opts;
	struct source	*src;		/* the session's */
	const struct source_control *ctl;	/* replay controls, or NULL */
	struct hv_clock	 rt;		/* real time, for pacing */
	uint64_t	 next;		/* real time of the next sample */
	uint64_t	 vnext;		/* virtual clock: next sample */
	uint64_t	 snap_rt;	/* real time of the last snapshot */
	uint64_t	 cpu_prev;
	uint64_t	 cpu_rt_prev;
	uint64_t	 msg_until;
	int		 quit;
	int		 status;
	int		 sample_now;
	char		*filter_before;	/* restored when a filter is cancelled */
	char		*pending;	/* entry waiting for its indices */
	int		 pending_event;
	struct settings	*settings;	/* as loaded; W keeps unknown keys */
	const char	**words;	/* Tab completion */
	size_t		 nwords;
	size_t		 npickwords;	/* names only, for picks */
	struct view_frame frame;
};

static void	ui_msg(struct ui_run *, int, const char *, ...)
		    __attribute__((format(printf, 3, 4)));

static void
ui_msg(struct ui_run *r, int role, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	vsnprintf(r->ui.msg, sizeof r->ui.msg, fmt, ap);
	va_end(ap);
	r->ui.msg_role = role;
	r->msg_until = clock_now(&r->rt) + UI_MSG_SECONDS * 1000000000ULL;
}

/* ---- picks --------------------------------------------------------- */

static void
ui_picks_free(struct ui_pick **v, size_t *n)
{
	size_t	 i;

	for (i = 0; i < *n; i++)
		free((*v)[i].spec);
	free(*v);
	*v = NULL;
	*n = 0;
}

static void
ui_picks_add(struct ui_pick **v, size_t *n, const char *spec, int event)
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

static void
ui_picks_copy_sel(const struct selection *sel, struct ui_pick **v,
    size_t *n)
{
	size_t	 i;

	for (i = 0; i < sel->npicks; i++)
		ui_picks_add(v, n, sel->picks[i].spec,
		    sel->picks[i].kind == SEL_EVENT);
}

/* The engine changed (picks or a catalog reload): start over. */
static void
ui_engine_changed(struct ui_run *r, int catalog)
{
	struct ui	*ui = &r->ui;

	engine_snapshot_free(ui->snap);
	ui->snap = NULL;
	live_reset(ui);
	if (catalog)
		items_build(ui);
	else {
		items_mark_picked(ui);
		items_layout(ui, UI_EVENTS);
		items_layout(ui, UI_GROUPS);
		items_layout(ui, UI_FORMULAS);
	}
}

/*
 * Select what the picks (or, without picks, the overview) say.  On
 * failure the previous selection stays and *cause says why.
 */
static int
ui_apply(struct ui_run *r, char **cause)
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
	r->sample_now = 1;
	return (0);
}

/* Replace (or add) a pick and apply; on failure the pick is dropped. */
static void
ui_pick(struct ui_run *r, const char *spec, int event)
{
	struct ui	*ui = &r->ui;
	struct ui_pick	*save = NULL;
	size_t		 nsave = 0, i, n;
	char		 key[256], k2[256], *cause = NULL;

	for (i = 0; i < ui->npicks; i++)
		ui_picks_add(&save, &nsave, ui->picks[i].spec,
		    ui->picks[i].event);
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
	ui_picks_add(&ui->picks, &ui->npicks, spec, event);
	if (ui_apply(r, &cause) != 0) {
		ui_msg(r, UI_R_ERROR, "cannot pick %s", cause);
		free(cause);
		ui_picks_free(&ui->picks, &ui->npicks);
		ui->picks = save;
		ui->npicks = nsave;
		return;
	}
	ui_picks_free(&save, &nsave);
	ui_msg(r, UI_R_GOOD, "picked %s%s: values after one interval",
	    event ? "event " : "", spec);
}

/* Remove the picks named name (group or event); apply. */
static void
ui_unpick(struct ui_run *r, const char *name, int event)
{
	struct ui	*ui = &r->ui;
	struct ui_pick	*save = NULL;
	size_t		 nsave = 0, i, n, removed = 0, len = strlen(name);
	char		*cause = NULL;

	for (i = 0; i < ui->npicks; i++)
		ui_picks_add(&save, &nsave, ui->picks[i].spec,
		    ui->picks[i].event);
	/* Unpicking from the overview makes the rest of it explicit. */
	if (ui->npicks == 0)
		ui_picks_copy_sel(session_selection(ui->ses), &ui->picks,
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
	if (removed == 0 || ui_apply(r, &cause) != 0) {
		if (removed == 0)
			ui_msg(r, UI_R_WARN, "%s is not picked", name);
		else {
			ui_msg(r, UI_R_ERROR, "%s", cause);
			free(cause);
		}
		ui_picks_free(&ui->picks, &ui->npicks);
		ui->picks = save;
		ui->npicks = nsave;
		return;
	}
	ui_picks_free(&save, &nsave);
	ui_msg(r, UI_R_NORMAL, "unpicked %s%s", name, ui->npicks == 0 ?
	    " (nothing picked: the overview is back)" : "");
}

/* ---- settings ------------------------------------------------------ */

static int
ui_domain_of(const char *term)
{
	int	 d;

	for (d = 1; d < LIVE_NDOMAINS; d++) {
		if (strcmp(selection_domain_term(live_slot_domain(d)), term) ==
		    0)
			return (d);
	}
	return (0);
}

static void
ui_settings_apply(struct ui_run *r)
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
	if (!r->opts->delay_set && !ui->replay) {
		if ((k = settings_interval(s, &d, &cause)) > 0) {
			session_set_delay(ui->ses, d);
			ui->delay = d;
		} else if (k < 0) {
			ui_msg(r, UI_R_ERROR, "%s", cause);
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
		    (dom = ui_domain_of(e->key + 5)) > 0) {
			free(ui->live.sortname[dom]);
			ui->live.sortname[dom] = strcmp(e->value, "index") ==
			    0 ? NULL : xstrdup(e->value);
		} else if (strncmp(e->key, "reverse.", 8) == 0 &&
		    (dom = ui_domain_of(e->key + 8)) > 0)
			ui->live.sortrev[dom] = strcmp(e->value, "1") == 0;
	}
	for (k = 1; k < 4; k++) {
		snprintf(key, sizeof key, "sort.%s", scr[k]);
		if ((v = settings_get(s, key)) != NULL) {
			for (i = 0; i < 6; i++) {
				if (strcmp(items_col_name(k, (int)i), v) == 0)
					ui->list[k].sort = (int)i;
			}
		}
		snprintf(key, sizeof key, "reverse.%s", scr[k]);
		if ((v = settings_get(s, key)) != NULL)
			ui->list[k].reverse = strcmp(v, "1") == 0;
	}
	/* Picks from the file, unless -g or -e said what to watch or a
	 * replay shows what was recorded. */
	if (r->opts->picked || ui->replay)
		return;
	for (i = 0; i < s->nentries; i++) {
		e = &s->entries[i];
		if (strcmp(e->key, "pick") != 0)
			continue;
		if (strncmp(e->value, "group:", 6) == 0)
			ui_picks_add(&ui->picks, &ui->npicks, e->value + 6, 0);
		else if (strncmp(e->value, "event:", 6) == 0)
			ui_picks_add(&ui->picks, &ui->npicks, e->value + 6, 1);
	}
	if (ui->npicks > 0 && ui_apply(r, &cause) != 0) {
		ui_msg(r, UI_R_ERROR, "settings: cannot pick %s; showing the "
		    "overview", cause);
		free(cause);
		ui_picks_free(&ui->picks, &ui->npicks);
		if (ui_apply(r, &cause) != 0)
			free(cause);
	}
}

static void
ui_settings_save(struct ui_run *r)
{
	static const char *const scr[] = { NULL, "events", "groups",
	    "formulas" };
	struct ui	*ui = &r->ui;
	struct settings	*s = r->settings;
	char		 buf[512], key[64], *path, *cause = NULL;
	const char	*term;
	size_t		 i;
	int		 d, k;

	if (s == NULL)
		s = r->settings = settings_new();
	if ((path = settings_file_path()) == NULL) {
		ui_msg(r, UI_R_ERROR, "nowhere to write settings: set HOME, "
		    "XDG_CONFIG_HOME or HVTOP_CONFIG");
		return;
	}
	snprintf(buf, sizeof buf, "%g", ui->delay);
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
	for (d = 1; d < LIVE_NDOMAINS; d++) {
		term = selection_domain_term(live_slot_domain(d));
		if (strcmp(term, "?") == 0)
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
			settings_add(s, key, items_col_name(k, ui->list[k].sort));
		snprintf(key, sizeof key, "reverse.%s", scr[k]);
		settings_remove(s, key);
		if (ui->list[k].reverse)
			settings_add(s, key, "1");
	}
	if (settings_file_save(path, s, &cause) != 0) {
		ui_msg(r, UI_R_ERROR, "cannot write settings: %s", cause);
		free(cause);
	} else
		ui_msg(r, UI_R_GOOD, "settings written to %s", path);
	free(path);
}

/* ---- filter -------------------------------------------------------- */

static void
ui_relayout(struct ui *ui)
{
	live_layout(ui);
	items_layout(ui, UI_EVENTS);
	items_layout(ui, UI_GROUPS);
	items_layout(ui, UI_FORMULAS);
}

/* Use text as the filter; a text that does not parse keeps the old one. */
static void
ui_set_filter(struct ui *ui, const char *text)
{
	struct filter	*f;
	char		*cause = NULL;

	free(ui->filter_error);
	ui->filter_error = NULL;
	if (filter_parse(text, &f, &cause) != 0) {
		ui->filter_error = cause;
		return;
	}
	filter_free(ui->filter);
	ui->filter = filter_empty(f) ? NULL : f;
	if (ui->filter == NULL)
		filter_free(f);
	free(ui->filter_text);
	ui->filter_text = xstrdup(text);
	ui_relayout(ui);
}

/* A replay shown every d seconds plays the recorded gaps scaled by the
 * ratio of d to the recorded interval: say at what speed. */
static void
ui_replay_speed(struct ui_run *r, double d)
{
	r->ui.replay_speed = r->ctl->speed(r->src);
	ui_msg(r, UI_R_NORMAL, "replaying at %.3gx the recorded speed "
	    "(interval %.2fs)", r->ui.replay_speed, d);
}

static void	ui_replay_seek(struct ui_run *, uint64_t, int);

/*
 * Go where the user said: a sample number as the header counts them, or
 * a time, which shows the interval ending with the first sample recorded
 * at or after it.
 */
static void
ui_replay_goto(struct ui_run *r, const char *line)
{
	struct ui	*ui = &r->ui;
	struct seekspec	 w;
	uint64_t	 first, pos = ui->replay_pos, n, i;
	char		*cause = NULL;

	first = session_wall(ui->ses, r->ctl->start(r->src));
	if (seekspec_parse(line, first, &w, &cause) != 0) {
		ui_msg(r, UI_R_ERROR, "go to %s: %s", line, cause);
		free(cause);
		return;
	}
	if (w.kind == SEEKSPEC_SAMPLE) {
		n = w.value;
		if (n < 2 || n > ui->replay_total) {
			ui_msg(r, UI_R_ERROR, "go to %s: samples 2 to %llu "
			    "have an interval to show", line,
			    (unsigned long long)ui->replay_total);
			return;
		}
	} else {
		if (w.value < first) {
			ui_msg(r, UI_R_ERROR, "go to %s: before the first "
			    "sample", line);
			return;
		}
		/* Recorded time: wall time less the recording's epoch. */
		i = r->ctl->find(r->src, r->ctl->start(r->src) +
		    (w.value - first));
		if (i >= ui->replay_total) {
			/* Finding moved the replay: back to where it was. */
			ui_replay_seek(r, pos >= 2 ? pos - 2 : 0, 0);
			ui_msg(r, UI_R_ERROR, "go to %s: after the last "
			    "sample", line);
			return;
		}
		n = i + 1 > 2 ? i + 1 : 2;
	}
	ui_replay_seek(r, n - 2, n < pos);
}

/* The interval prompt's answer: seconds, "s" allowed after them. */
static void
ui_interval(struct ui_run *r, const char *line)
{
	struct ui	*ui = &r->ui;
	char		*end;
	double		 d;

	errno = 0;
	d = strtod(line, &end);
	while (*end == ' ' || *end == 's')
		end++;
	if (errno != 0 || *end != '\0' || !(d >= 0.01) || d > 86400) {
		ui_msg(r, UI_R_ERROR, "interval %s: give seconds from 0.01 to "
		    "86400", line);
		return;
	}
	session_set_delay(ui->ses, d);
	ui->delay = d;
	r->next = clock_now(&r->rt) + (uint64_t)llround(d * 1e9);
	if (ui->replay) {
		/* The recorded gaps, scaled to the asked interval. */
		ui_replay_speed(r, d);
		return;
	}
	ui_msg(r, UI_R_NORMAL, "interval %.2fs", d);
}

/* ---- prompts ------------------------------------------------------- */

static void
ui_prompt_done(void *arg, int kind, const char *line)
{
	struct ui_run			*r = arg;
	struct ui			*ui = &r->ui;
	const struct catalog		*cat = session_catalog(ui->ses);
	char				*spec, name[256];
	int				 event;

	crt_keypad(1);
	ui->prompt = 0;
	switch (kind) {
	case PROMPT_FILTER:
		if (line == NULL)
			ui_set_filter(ui, r->filter_before != NULL ?
			    r->filter_before : "");
		else
			ui_set_filter(ui, line);
		free(r->filter_before);
		r->filter_before = NULL;
		return;
	case PROMPT_INTERVAL:
		if (line != NULL && *line != '\0')
			ui_interval(r, line);
		return;
	case PROMPT_PICK:
		if (line == NULL)
			return;
		while (*line == ' ')
			line++;
		spec = xstrndup(line, strcspn(line, " "));
		if (*spec == '\0') {
			free(spec);
			return;
		}
		ui_pick_key(spec, name, sizeof name);
		name[strcspn(name, "@")] = '\0';
		if (catalog_find_group(cat, name) != NULL)
			event = 0;
		else if (catalog_find_event(cat, name, 0) != NULL ||
		    catalog_find_sysfs(cat, name) != NULL)
			event = 1;
		else {
			ui_msg(r, UI_R_ERROR, "%s: no such group or event in "
			    "the catalog", name);
			free(spec);
			return;
		}
		ui_pick(r, spec, event);
		free(spec);
		return;
	case PROMPT_GOTO:
		if (line != NULL && *line != '\0')
			ui_replay_goto(r, line);
		return;
	case PROMPT_INDICES:
		if (line == NULL || r->pending == NULL)
			break;
		while (*line == ' ')
			line++;
		if (*line == '\0')
			spec = xstrdup(r->pending);
		else if (*line == '@' || *line == ':')
			spec = xasprintf("%s%s", r->pending, line);
		else
			spec = xasprintf("%s:%s", r->pending, line);
		ui_pick(r, spec, r->pending_event);
		free(spec);
		break;
	}
	free(r->pending);
	r->pending = NULL;
}

static void
ui_prompt(struct ui_run *r, int kind, const char *label, const char *init,
    int names_only)
{
	struct ui	*ui = &r->ui;

	crt_keypad(0);
	ui->prompt = 1;
	prompt_open(kind, label, init, kind == PROMPT_INTERVAL ||
	    kind == PROMPT_INDICES || kind == PROMPT_GOTO ? NULL : r->words,
	    names_only ? r->npickwords : r->nwords, ui_prompt_done, r);
}

static int
ui_cmp_word(const void *a, const void *b)
{
	return (strcmp(*(const char *const *)a, *(const char *const *)b));
}

/* Names for Tab: groups, events, formulas, then the filter's keys. */
static void
ui_words(struct ui_run *r)
{
	static const char *const keys[] = { "re:", "name:", "domain:chip",
	    "domain:core", "domain:vcpu", "flag:verified", "flag:unverified",
	    "flag:caveat", "flag:broken", "flag:hidden", "flag:picked",
	    "group:" };
	const struct catalog	*cat = session_catalog(r->ui.ses);
	const struct engine_metric_def *defs = session_metrics(r->ui.ses);
	size_t			 i, n = 0, cap, ndefs;

	ndefs = session_nmetrics(r->ui.ses);
	free(r->words);
	cap = cat->ngroups + cat->nevents + cat->nformulas + ndefs +
	    sizeof keys / sizeof keys[0] + 1;
	r->words = xcalloc(cap, sizeof *r->words);
	for (i = 0; i < cat->ngroups; i++)
		if (cat->groups[i].name != NULL)
			r->words[n++] = cat->groups[i].name;
	for (i = 0; i < cat->nevents; i++)
		if (cat->events[i].skip == 0)
			r->words[n++] = cat->events[i].sysfs_name;
	qsort(r->words, n, sizeof *r->words, ui_cmp_word);
	r->npickwords = n;
	for (i = 0; i < cat->nformulas; i++)
		if (cat->formulas[i].name != NULL)
			r->words[n++] = cat->formulas[i].name;
	for (i = 0; i < ndefs; i++)
		r->words[n++] = defs[i].name;
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		r->words[n++] = keys[i];
	r->nwords = n;
}

/* ---- sampling ------------------------------------------------------ */

/* ---- replay -------------------------------------------------------- */

/* Where the replay stands; at its end it pauses and says so once. */
static void
ui_replay_status(struct ui_run *r)
{
	struct ui	*ui = &r->ui;
	char		*sum;

	ui->replay_pos = r->ctl->position(r->src, &ui->replay_total);
	ui->replay_speed = r->ctl->speed(r->src);
	if (ui->snap != NULL)
		ui->replay_wall = session_wall(ui->ses, ui->snap->now);
	if (!r->ctl->done(r->src) || ui->replay_end)
		return;
	ui->replay_end = 1;
	ui->paused = 1;
	sum = r->ctl->summary(r->src);
	ui_msg(r, UI_R_NORMAL, "end of the recording (%s); [ and { go back, "
	    "q quits", sum);
	free(sum);
}

/*
 * After a sample or a jump: a new engine (the catalog or the selection
 * changed under it, as the session said) rebuilds what the screens
 * derive from it.  This frees the snapshot shown, so it comes before a
 * new one is put up.
 */
static void
ui_follow_engine(struct ui_run *r, unsigned changed)
{
	if (changed & SESSION_CHANGED_ENGINE) {
		ui_engine_changed(r, 1);
		ui_words(r);
	}
}

/* Put snap on screen (it replaces the one shown) and into the history. */
static void
ui_show(struct ui_run *r, struct engine_snapshot *snap, uint64_t now)
{
	struct ui	*ui = &r->ui;

	engine_snapshot_free(ui->snap);
	ui->snap = snap;
	r->snap_rt = now;
	live_push(ui, snap);
	live_layout(ui);
	if (ui->replay)
		ui_replay_status(r);
}

/*
 * Show the interval that ends with sample index + 1: jump to index, take
 * it as the new baseline, and show the next.  A sample that brings a new
 * engine (the recording changed its selection or catalog there) is a
 * baseline too, so near a change the interval shown moves forward; going
 * back, the jump starts a sample earlier instead, up to three times.
 */
static void
ui_replay_seek(struct ui_run *r, uint64_t index, int back)
{
	struct ui		*ui = &r->ui;
	struct engine_snapshot	*snap;
	char			*cause = NULL;
	unsigned		 changed, renewed;
	int			 i, tries, base, error;

	ui->replay_end = 0;
	for (tries = 0; tries < 3; tries++) {
		/* The interval across the jump means nothing. */
		error = session_seek(ui->ses, index, &changed, &cause);
		ui_follow_engine(r, changed);
		if (error != 0)
			break;
		renewed = 0;
		for (i = 0, base = 1; i < 4; i++) {
			error = session_sample(ui->ses, &changed, &snap,
			    &cause);
			ui_follow_engine(r, changed);
			renewed |= changed;
			if (error != 0)
				goto fail;
			if (base || snap->seq == 0) {
				base = 0;
				session_recycle(ui->ses, snap);
				continue;
			}
			break;
		}
		if (i == 4) {
			/* Every sample brought a new engine: nothing whole. */
			cause = xstrdup("no interval to show here");
			break;
		}
		if (back && (renewed & SESSION_CHANGED_ENGINE) && index > 0 &&
		    tries < 2) {
			session_recycle(ui->ses, snap);
			index--;
			continue;
		}
		ui_show(r, snap, clock_now(&r->rt));
		ui_msg(r, UI_R_NORMAL, "sample %llu of %llu",
		    (unsigned long long)ui->replay_pos,
		    (unsigned long long)ui->replay_total);
		return;
	}
fail:
	if (cause != NULL) {
		ui_msg(r, UI_R_ERROR, "replay: %s", cause);
		free(cause);
	}
	ui_replay_status(r);
}

/*
 * Replay keys: step one sample forward or back, jump a tenth of the
 * recording.  The interval shown ends with the last sample played, so
 * going back n intervals restarts n + 2 samples before the next one.
 * Returns 1 when k was one of them.
 */
static int
ui_replay_key(struct ui_run *r, int k)
{
	struct ui	*ui = &r->ui;
	uint64_t	 pos = ui->replay_pos, total = ui->replay_total;
	uint64_t	 jump = total / 10 > 0 ? total / 10 : 1, back;

	switch (k) {
	case ' ':
	case ']':
		if (ui->replay_end)
			ui_msg(r, UI_R_NORMAL, "end of the recording");
		else
			r->sample_now = 1;
		return (1);
	case '[':
	case '{':
		back = (k == '[' ? 1 : jump) + 2;
		if (pos < 3) {
			ui_msg(r, UI_R_NORMAL, "at the start of the recording");
			return (1);
		}
		ui_replay_seek(r, pos > back ? pos - back : 0, 1);
		return (1);
	case 'G':
		ui_prompt(r, PROMPT_GOTO, "go to sample N, +SECONDS, HH:MM[:SS] "
		    "or YYYY-MM-DDTHH:MM[:SS] (UTC): ", NULL, 0);
		return (1);
	case '}':
		if (total < 2 || pos + jump >= total) {
			ui_msg(r, UI_R_NORMAL, "less than a tenth is left: "
			    "Space steps");
			return (1);
		}
		ui_replay_seek(r, pos + jump - 2, 0);
		return (1);
	}
	return (0);
}

/* Take one sample; returns 1 when it only set the baselines. */
static int
ui_sample(struct ui_run *r)
{
	struct ui		*ui = &r->ui;
	struct engine_snapshot	*snap;
	uint64_t		 now, cpu;
	char			*cause = NULL;
	unsigned		 changed;
	int			 error;

	if (session_clock_virtual(ui->ses)) {
		session_sleep_until(ui->ses, r->vnext, -1);
		r->vnext += (uint64_t)llround(ui->delay * 1e9);
	}
	if (ui->replay && r->ctl->done(r->src)) {
		ui_replay_status(r);
		return (0);
	}
	error = session_sample(ui->ses, &changed, &snap, &cause);
	ui_follow_engine(r, changed);
	if (error != 0) {
		ui_msg(r, UI_R_ERROR, "sampling failed: %s", cause);
		free(cause);
		return (0);
	}
	now = clock_now(&r->rt);
	cpu = clock_cpu_ns();
	if (now > r->cpu_rt_prev && r->cpu_rt_prev != 0)
		ui->cpu_pct = 100.0 * (double)(cpu - r->cpu_prev) /
		    (double)(now - r->cpu_rt_prev);
	r->cpu_prev = cpu;
	r->cpu_rt_prev = now;
	if (snap->seq == 0) {
		engine_snapshot_free(snap);
		if (ui->replay)
			ui_replay_status(r);
		return (1);
	}
	ui_show(r, snap, now);
	return (0);
}

/* ---- keys ---------------------------------------------------------- */

static void
ui_move(struct ui_run *r, long n)
{
	struct ui	*ui = &r->ui;
	struct ui_list	*l = &ui->list[ui->screen];
	size_t		 max;

	if (ui->screen == UI_LIVE) {
		live_move(ui, n);
		return;
	}
	if (ui->screen == UI_HELP) {
		if (n < 0 && (size_t)-n > l->top)
			l->top = 0;
		else
			l->top = (size_t)((long)l->top + n);
		return;
	}
	max = ui->items[ui->screen].nshown;
	if (max == 0)
		return;
	if (n < 0 && (size_t)-n > l->cursor)
		l->cursor = 0;
	else if (n > 0 && l->cursor + (size_t)n >= max)
		l->cursor = max - 1;
	else
		l->cursor = (size_t)((long)l->cursor + n);
}

static int
ui_page(struct ui_run *r)
{
	int	 w, h;

	(void)r;
	crt_size(&w, &h);
	return (h > 12 ? h - 10 : 2);
}

static void
ui_sort(struct ui_run *r, int dir)
{
	struct ui	*ui = &r->ui;
	struct ui_list	*l = &ui->list[ui->screen];
	int		 n;

	if (ui->screen == UI_LIVE) {
		live_sort_step(ui, dir);
		return;
	}
	if ((n = items_ncols(ui->screen)) == 0)
		return;
	l->sort += dir;
	if (l->sort < -1)
		l->sort = n - 1;
	if (l->sort >= n)
		l->sort = -1;
	items_layout(ui, ui->screen);
	ui_msg(r, UI_R_NORMAL, "sorted by %s", l->sort < 0 ? "catalog order" :
	    items_col_name(ui->screen, l->sort));
}

static void
ui_reverse(struct ui_run *r)
{
	struct ui			*ui = &r->ui;
	const struct engine_view	*v;
	size_t				 view, row;

	if (ui->screen == UI_LIVE) {
		if (live_cursor(ui, &view, &row) != 0)
			return;
		v = engine_view(session_engine(ui->ses), view);
		if (live_slot(v->domain) > 0)
			ui->live.sortrev[live_slot(v->domain)] =
			    !ui->live.sortrev[live_slot(v->domain)];
		live_layout(ui);
		return;
	}
	if (items_ncols(ui->screen) == 0)
		return;
	ui->list[ui->screen].reverse = !ui->list[ui->screen].reverse;
	items_layout(ui, ui->screen);
}

static void
ui_enter(struct ui_run *r)
{
	struct ui			*ui = &r->ui;
	const struct catalog		*cat = session_catalog(ui->ses);
	size_t				 ndefs = session_nmetrics(ui->ses);
	const struct ui_item		*it;
	const struct catalog_formula	*f;
	char				 label[256];
	const char			*term;

	if (ui->screen == UI_LIVE) {
		ui->detail = !ui->detail;
		return;
	}
	if ((it = items_cursor(ui, ui->screen)) == NULL)
		return;
	free(r->pending);
	r->pending = NULL;
	switch (ui->screen) {
	case UI_EVENTS:
		r->pending = xstrdup(it->name);
		r->pending_event = 1;
		term = selection_domain_term(
		    selection_pick_domain(cat->events[it->index].domain));
		break;
	case UI_GROUPS:
		r->pending = xstrdup(it->name);
		r->pending_event = 0;
		term = selection_domain_term(
		    selection_pick_domain(cat->groups[it->index].domain));
		break;
	case UI_FORMULAS:
		if (it->index < ndefs) {
			ui_msg(r, UI_R_WARN, "%s comes from a metric file: "
			    "pick the groups of its events", it->name);
			return;
		}
		f = &cat->formulas[it->index - ndefs];
		if (f->group >= cat->ngroups) {
			ui_msg(r, UI_R_WARN, "%s names no group: pick the "
			    "groups of its events", it->name);
			return;
		}
		r->pending = xstrdup(cat->groups[f->group].name);
		r->pending_event = 0;
		term = selection_domain_term(
		    selection_pick_domain(cat->groups[f->group].domain));
		break;
	default:
		return;
	}
	snprintf(label, sizeof label, "pick %s on %ss (Enter: all; or "
	    "0,3,8-11): ", r->pending, term);
	ui_prompt(r, PROMPT_INDICES, label, NULL, 0);
}

static void
ui_unpick_cursor(struct ui_run *r)
{
	struct ui			*ui = &r->ui;
	const struct engine_view	*v;
	const struct live_view		*lv;
	const struct sel_pick		*pk;
	const struct ui_item		*it;
	size_t				 view, row, col;
	char				*name;

	if (ui->screen == UI_LIVE) {
		if (live_cursor(ui, &view, &row) != 0)
			return;
		v = engine_view(session_engine(ui->ses), view);
		lv = &ui->live.v[view];
		if (lv->ncols == 0)
			return;
		col = lv->cols[lv->col];
		if (col >= v->nevents) {
			ui_msg(r, UI_R_WARN, "a metric column: x on one of "
			    "its event columns unpicks their group");
			return;
		}
		pk = &session_selection(ui->ses)->picks[v->pick_of[col]];
		name = xstrdup(pk->name);
		ui_unpick(r, name, pk->kind == SEL_EVENT);
		free(name);
		return;
	}
	if (ui->screen != UI_EVENTS && ui->screen != UI_GROUPS)
		return;
	if ((it = items_cursor(ui, ui->screen)) == NULL)
		return;
	name = xstrdup(it->name);
	ui_unpick(r, name, ui->screen == UI_EVENTS);
	free(name);
}

static void
ui_hide_column(struct ui_run *r)
{
	struct ui		*ui = &r->ui;
	const struct live_view	*lv;
	size_t			 view, row;
	const char		*name;

	if (live_cursor(ui, &view, &row) != 0)
		return;
	lv = &ui->live.v[view];
	if (lv->ncols == 0)
		return;
	name = live_col_name(ui, view, lv->cols[lv->col]);
	ui->hidden = xreallocarray(ui->hidden, ui->nhidden + 1,
	    sizeof *ui->hidden);
	ui->hidden[ui->nhidden++] = xstrdup(name);
	ui_msg(r, UI_R_NORMAL, "%s hidden (+ shows all columns)", name);
	live_layout(ui);
}

static void
ui_key(struct ui_run *r, int k)
{
	struct ui		*ui = &r->ui;
	struct live_view	*lv;
	size_t			 view, row, i, cur;
	char			*cause = NULL, *init, label[64];
	enum ui_screen		 scr = ui->screen;

	cur = ui->list[scr].cursor;
	if (r->msg_until != 0 && k != CRT_KEY_RESIZE) {
		ui->msg[0] = '\0';
		r->msg_until = 0;
	}
	if (ui->replay && ui_replay_key(r, k))
		return;
	switch (k) {
	case 'q':
	case CRT_KEY_F10:
		r->quit = 1;
		break;
	case '\t':
		ui->screen = ui->screen >= UI_FORMULAS ? UI_LIVE :
		    ui->screen + 1;
		break;
	case CRT_KEY_BTAB:
		ui->screen = ui->screen == UI_LIVE ||
		    ui->screen == UI_HELP ? UI_FORMULAS : ui->screen - 1;
		break;
	case 'h':
	case '?':
	case CRT_KEY_F1:
		if (ui->screen == UI_HELP)
			ui->screen = ui->back;
		else {
			ui->back = ui->screen;
			ui->screen = UI_HELP;
			ui->list[UI_HELP].top = 0;
		}
		break;
	case 27:
		if (ui->screen == UI_HELP)
			ui->screen = ui->back;
		else if (ui->filter_text != NULL && ui->filter_text[0] != '\0')
			ui_set_filter(ui, "");
		else
			ui->detail = 0;
		break;
	case '/':
	case '\\':
	case CRT_KEY_F3:
	case CRT_KEY_F4:
		free(r->filter_before);
		r->filter_before = xstrdup(ui->filter_text != NULL ?
		    ui->filter_text : "");
		if (ui->screen == UI_HELP)
			ui->screen = ui->back;
		/* The filter and a space: what is typed narrows it, Ctrl-U
		 * starts afresh (the filter is in the history too). */
		init = ui->filter_text != NULL && ui->filter_text[0] != '\0' ?
		    xasprintf("%s ", ui->filter_text) : NULL;
		ui_prompt(r, PROMPT_FILTER, "filter: ", init, 0);
		free(init);
		break;
	case '=':
		ui_set_filter(ui, "");
		break;
	case CRT_KEY_UP:
	case 'k':
		ui_move(r, -1);
		break;
	case CRT_KEY_DOWN:
	case 'j':
		ui_move(r, 1);
		break;
	case CRT_KEY_PPAGE:
		ui_move(r, -ui_page(r));
		break;
	case CRT_KEY_NPAGE:
		ui_move(r, ui_page(r));
		break;
	case CRT_KEY_HOME:
		ui_move(r, -1000000);
		break;
	case CRT_KEY_END:
		ui_move(r, 1000000);
		break;
	case CRT_KEY_LEFT:
	case CRT_KEY_RIGHT:
		if (ui->screen != UI_LIVE || live_cursor(ui, &view, &row) != 0)
			break;
		lv = &ui->live.v[view];
		if (k == CRT_KEY_LEFT && lv->col > 0)
			lv->col--;
		else if (k == CRT_KEY_RIGHT && lv->col + 1 < lv->ncols)
			lv->col++;
		break;
	case '<':
	case ',':
		ui_sort(r, -1);
		break;
	case '>':
	case '.':
		ui_sort(r, 1);
		break;
	case 'R':
	case 'I':
		ui_reverse(r);
		break;
	case 'd':
	case 's':
		snprintf(label, sizeof label, "interval in seconds (now %g): ",
		    ui->delay);
		ui_prompt(r, PROMPT_INTERVAL, label, NULL, 0);
		break;
	case 'p':
	case 'Z':
		if (ui->replay_end) {
			ui_msg(r, UI_R_NORMAL, "end of the recording; [ and { "
			    "go back");
			break;
		}
		ui->paused = !ui->paused;
		if (!ui->paused)
			r->sample_now = 1;
		ui_msg(r, UI_R_NORMAL, ui->paused ? "paused (p resumes)" :
		    "sampling");
		break;
	case ' ':
		r->sample_now = 1;
		break;
	case 'W':
		ui_settings_save(r);
		break;
	case 'g':
		ui_prompt(r, PROMPT_PICK, "pick GROUP or EVENT[@chip|@core|"
		    "@vcpu][:LIST]: ", NULL, 1);
		break;
	case 'C':
		ui_picks_free(&ui->picks, &ui->npicks);
		if (ui_apply(r, &cause) != 0) {
			ui_msg(r, UI_R_ERROR, "%s", cause);
			free(cause);
		} else
			ui_msg(r, UI_R_NORMAL, "picks cleared: the overview");
		break;
	case 'v':
		ui->detail = !ui->detail;
		break;
	case 'J':
		/* The detail pane's lines (the renderer clamps). */
		ui->detail_top++;
		break;
	case 'K':
		if (ui->detail_top > 0)
			ui->detail_top--;
		break;
	case '\r':
	case '\n':
	case CRT_KEY_ENTER:
		ui_enter(r);
		break;
	case 'x':
	case CRT_KEY_DC:
		ui_unpick_cursor(r);
		break;
	case '-':
		if (ui->screen == UI_LIVE)
			ui_hide_column(r);
		break;
	case '+':
		if (ui->screen != UI_LIVE)
			break;
		for (i = 0; i < ui->nhidden; i++)
			free(ui->hidden[i]);
		free(ui->hidden);
		ui->hidden = NULL;
		ui->nhidden = 0;
		live_layout(ui);
		break;
	case 12:	/* Ctrl-L */
		crt_redraw();
		break;
	default:
		break;
	}
	/* Another entry's details start at their top. */
	if (ui->screen != scr || ui->list[ui->screen].cursor != cur)
		ui->detail_top = 0;
}

/* A key while a prompt is open: bytes go to readline. */
static void
ui_prompt_key(struct ui_run *r, int k)
{
	int	 k2;

	if (k == CRT_KEY_RESIZE || k < 0 || k > 255)
		return;
	if (k == 27) {
		/* A lone Esc cancels; Esc and more is a key sequence. */
		if ((k2 = crt_key_wait(25)) < 0 || k2 > 255) {
			prompt_cancel();
			return;
		}
		prompt_feed(27);
		if (prompt_is_open())
			prompt_feed(k2);
	} else
		prompt_feed(k);
	/* The filter applies as it is typed. */
	if (prompt_is_open() && prompt_kind() == PROMPT_FILTER)
		ui_set_filter(&r->ui, prompt_text());
}

/* ---- the loop ------------------------------------------------------ */

static void
ui_draw(struct ui_run *r)
{
	struct ui	*ui = &r->ui;
	uint64_t	 now = clock_now(&r->rt);
	int		 w, h;

	if (r->msg_until != 0 && now > r->msg_until) {
		ui->msg[0] = '\0';
		r->msg_until = 0;
	}
	ui->age = ui->snap != NULL ? (double)(now - r->snap_rt) / 1e9 : 0;
	ui->prompt = prompt_is_open();
	ui->prompt_label = prompt_label();
	ui->prompt_text = prompt_text();
	ui->prompt_point = prompt_point();
	/* A completion's hint lasts while its prompt is open. */
	snprintf(ui->prompt_hint, sizeof ui->prompt_hint, "%s",
	    ui->prompt ? prompt_hint() : "");
	crt_size(&w, &h);
	r->frame.width = w;
	r->frame.height = h;
	view_render(ui, &r->frame);
	crt_draw(&r->frame, ui->utf8);
}

static void
ui_loop(struct ui_run *r)
{
	struct ui	*ui = &r->ui;
	struct pollfd	 pfd;
	uint64_t	 now, step, wait, last_draw = 0;
	int		 k, sig, timeout, dirty = 1, n;

	r->next = clock_now(&r->rt);
	while (!r->quit) {
		if ((sig = crt_signal()) != 0) {
			if (sig == SIGINT && prompt_is_open())
				prompt_cancel();
			else {
				r->quit = 1;
				break;
			}
		}
		now = clock_now(&r->rt);
		step = (uint64_t)llround(ui->delay * 1e9);
		if ((!ui->paused && now >= r->next) || r->sample_now) {
			r->sample_now = 0;
			if (ui_sample(r)) {
				/* Show numbers soon after a (re)start. */
				r->next = now + (step < UI_FIRST_NS ? step :
				    UI_FIRST_NS);
				if (ui->replay)
					r->next = now;
			} else if (ui->replay) {
				/* The recorded gap to the next sample. */
				wait = r->ctl->wait(r->src);
				r->next = wait == UINT64_MAX ? UINT64_MAX :
				    now + wait;
			} else {
				r->next += step;
				if (r->next <= now)
					r->next = now + step;
			}
			dirty = 1;
		}
		if (dirty || now - last_draw >= 1000000000ULL) {
			ui_draw(r);
			last_draw = clock_now(&r->rt);
			dirty = 0;
		}
		now = clock_now(&r->rt);
		timeout = 1000;
		if (!ui->paused && r->next > now &&
		    (r->next - now) / 1000000 < 1000)
			timeout = (int)((r->next - now) / 1000000) + 1;
		else if (!ui->paused && r->next <= now)
			timeout = 0;
		pfd.fd = crt_fd();
		pfd.events = POLLIN;
		pfd.revents = 0;
		n = poll(&pfd, 1, timeout);
		if (n > 0 && (pfd.revents & (POLLHUP | POLLERR | POLLNVAL))) {
			r->quit = 1;
			break;
		}
		/* Keys curses already buffered count even without POLLIN. */
		while ((k = crt_key()) != CRT_KEY_NONE) {
			dirty = 1;
			if (prompt_is_open())
				ui_prompt_key(r, k);
			else
				ui_key(r, k);
			if (r->quit)
				break;
		}
	}
}

/* What the screen shows without picks: the session's overview. */
static void
ui_setup_overview(struct ui_run *r)
{
	struct ui		*ui = &r->ui;
	struct selection	 sel;
	char			*cause = NULL;

	if (!r->opts->picked) {
		ui_picks_copy_sel(session_selection(ui->ses), &ui->overview,
		    &ui->noverview);
		return;
	}
	ui_picks_copy_sel(session_selection(ui->ses), &ui->picks,
	    &ui->npicks);
	memset(&sel, 0, sizeof sel);
	if (session_overview(ui->ses, &sel, &cause) == 0)
		ui_picks_copy_sel(&sel, &ui->overview, &ui->noverview);
	free(cause);
	selection_clear(&sel);
}

static void
ui_setup(struct ui_run *r, struct session *ses, const struct ui_opts *opts)
{
	struct ui	*ui = &r->ui;
	char		*cause = NULL, *path;
	const char	*cs;
	size_t		 i;

	ui->ses = ses;
	r->opts = opts;
	r->src = session_source(ses);
	r->ctl = session_control(ses);
	ui->delay = session_delay(ses);
	for (i = 0; i < UI_NSCREENS; i++)
		ui->list[i].sort = -1;
	if (gethostname(ui->host, sizeof ui->host) != 0)
		snprintf(ui->host, sizeof ui->host, "localhost");
	ui->host[sizeof ui->host - 1] = '\0';
	ui->simulated = strcmp(r->src->ops->name, "sim") == 0;
	ui->replay = r->ctl != NULL;
	if (ui->replay) {
		ui->replay_pos = r->ctl->position(r->src, &ui->replay_total);
		ui->replay_speed = r->ctl->speed(r->src);
	}
	cs = nl_langinfo(CODESET);
	ui->utf8 = cs != NULL && strcmp(cs, "UTF-8") == 0;
	clock_init(&r->rt, 0, 0);

	ui_setup_overview(r);
	live_reset(ui);
	items_build(ui);
	ui_words(r);

	if ((path = settings_file_path()) != NULL &&
	    settings_file_load(path, &r->settings, &cause) != 0) {
		ui_msg(r, UI_R_ERROR, "settings not used: %s", cause);
		free(cause);
	}
	free(path);
	ui_settings_apply(r);
	if (session_nproblems(ses) > 0 && ui->msg[0] == '\0')
		ui_msg(r, UI_R_ERROR, "%zu metric%s cannot be computed (hvtop "
		    "--list formulas says why): %s", session_nproblems(ses),
		    session_nproblems(ses) == 1 ? "" : "s",
		    session_problem(ses, 0));
	ui_relayout(ui);
}

static void
ui_teardown(struct ui_run *r)
{
	struct ui	*ui = &r->ui;
	size_t		 i;

	engine_snapshot_free(ui->snap);
	live_free(&ui->live);
	items_free(ui);
	filter_free(ui->filter);
	free(ui->filter_text);
	free(ui->filter_error);
	ui_picks_free(&ui->picks, &ui->npicks);
	ui_picks_free(&ui->overview, &ui->noverview);
	for (i = 0; i < ui->nhidden; i++)
		free(ui->hidden[i]);
	free(ui->hidden);
	free(r->filter_before);
	free(r->pending);
	free(r->words);
	settings_free(r->settings);
	view_frame_free(&r->frame);
}

int
hvtop_interactive(struct session *ses, const struct ui_opts *opts)
{
	struct ui_run	 r;
	const char	*nc;
	char		*cause = NULL, *hist;
	int		 color;

	/* Keys come from the terminal; without one poll() would spin. */
	if (!isatty(STDIN_FILENO)) {
		fprintf(stderr, "hvtop: standard input is not a terminal (use "
		    "-b for batch output)\n");
		return (1);
	}
	memset(&r, 0, sizeof r);
	setlocale(LC_CTYPE, "");
	ui_setup(&r, ses, opts);
	hist = settings_file_history_path();
	prompt_init(hist);
	free(hist);
	nc = getenv("NO_COLOR");
	color = !opts->no_color && (nc == NULL || *nc == '\0');
	crt_signals();
	if (crt_init(color, &cause) != 0) {
		fprintf(stderr, "hvtop: %s\n", cause);
		free(cause);
		prompt_exit();
		ui_teardown(&r);
		return (1);
	}
	ui_loop(&r);
	crt_done();
	if (prompt_save_history(&cause) != 0) {
		fprintf(stderr, "hvtop: filter history not saved: %s\n",
		    cause);
		free(cause);
	}
	prompt_exit();
	ui_teardown(&r);
	return (r.status);
}
