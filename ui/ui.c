/*
 * The terminal interface's main loop.  One loop waits in poll() for a key
 * or the next sample, whichever comes first, so the frame keeps being
 * sampled while the user types at a prompt.  Keys change the model
 * (struct ui) and return what the loop does next (UI_ACT_*: sample, lay
 * out, prompt, repaint, quit), which ui_act() does; the model is
 * rendered to a canvas of text (view*.c) and painted (crt.c).  Picks
 * (ui-pick.c) change the selection and rebuild the engine between two
 * samples; the sampler and the source stay open.
 *
 * With --sim clock=virtual the frame's clock advances by exactly one
 * interval per refresh, so the numbers are those a batch run prints; the
 * screen itself still refreshes in real time.
 */
#include "config.h"

#include "ui/ui-run.h"

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
#include <strings.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "session/session.h"
#include "ui/chart.h"
#include "ui/crt.h"
#include "ui/keys.h"
#include "ui/prompt.h"
#include "ui/ui.h"
#include "ui/view.h"
#include "sys/clock.h"
#include "filter/filter.h"
#include "sys/settings-file.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define UI_MSG_SECONDS	6
#define UI_FIRST_NS	200000000ULL	/* first interval after a baseline */

void
ui_msg(struct ui_run *r, int role, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	vsnprintf(r->ui.msg, sizeof r->ui.msg, fmt, ap);
	va_end(ap);
	r->ui.msg_role = role;
	r->msg_until = clock_now(&r->rt) + UI_MSG_SECONDS * 1000000000ULL;
}

void
ui_engine_changed(struct ui_run *r, int catalog)
{
	struct ui	*ui = &r->ui;

	engine_snapshot_free(ui->snap);
	ui->snap = NULL;
	live_reset(ui);
	lpar_reset(ui);
	memset(ui->fr.bar_max, 0, sizeof ui->fr.bar_max);
	ui->fr.bar_seq = 0;
	if (catalog)
		view_catalog_items_build(ui);
	else {
		view_catalog_items_mark_picked(ui);
		view_catalog_items_layout(ui, UI_EVENTS);
		view_catalog_items_layout(ui, UI_GROUPS);
		view_catalog_items_layout(ui, UI_FORMULAS);
	}
}

/* ---- filter -------------------------------------------------------- */

/* Lay the catalog lists out again (filter, hidden), and the live table
 * at the next fit. */
static void
ui_relayout(struct ui *ui)
{
	ui->live.stale = 1;
	view_catalog_items_layout(ui, UI_EVENTS);
	view_catalog_items_layout(ui, UI_GROUPS);
	view_catalog_items_layout(ui, UI_FORMULAS);
}

unsigned
ui_set_filter(struct ui *ui, const char *text)
{
	struct filter	*f;
	char		*cause = NULL;

	free(ui->filter_error);
	ui->filter_error = NULL;
	if (filter_parse(text, &f, &cause) != 0) {
		ui->filter_error = cause;
		return (UI_ACT_NONE);
	}
	filter_free(ui->filter);
	ui->filter = filter_empty(f) ? NULL : f;
	if (ui->filter == NULL)
		filter_free(f);
	free(ui->filter_text);
	ui->filter_text = xstrdup(text);
	return (UI_ACT_RELAYOUT);
}

/* The interval prompt's answer: seconds, "s" allowed after them. */
static void
ui_interval(struct ui_run *r, const char *line)
{
	struct ui	*ui = &r->ui;
	struct ui_note	 note = { 0 };
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
	session_set_interval(ui->ses, d);
	ui->interval = d;
	r->next = clock_now(&r->rt) + (uint64_t)llround(d * 1e9);
	if (ui->replay) {
		/* The recorded gaps, scaled to the asked interval. */
		ui_replay_speed(r, d, &note);
		ui_say(r, &note);
		return;
	}
	ui_msg(r, UI_R_NORMAL, "interval %.2fs", d);
}

/* ---- prompts ------------------------------------------------------- */

static void	ui_act(struct ui_run *, unsigned);

/*
 * The metric prompt's answer (m on the Frame screen).  A name that is no
 * metric of the chips or cores gets the names it may have meant: those
 * that start with it, whatever the case; else, when the catalog knows it,
 * that it must be picked first.
 */
static void
ui_frame_metric(struct ui_run *r, const char *line)
{
	struct strbuf	 sb = { 0 };
	const char	*one = NULL;
	size_t		 i, n = 0, len;

	while (*line == ' ')
		line++;
	if (frame_set_metric(&r->ui, line) == 0) {
		if (*line == '\0')
			ui_msg(r, UI_R_NORMAL, "the default metric");
		return;
	}
	len = strlen(line);
	for (i = 0; i < r->nframe_words; i++) {
		if (strncasecmp(r->frame_words[i], line, len) != 0)
			continue;
		one = r->frame_words[i];
		strbuf_addf(&sb, "%s%s", n++ > 0 ? " " : "", one);
	}
	if (n == 1)
		ui_msg(r, UI_R_ERROR, "no metric %s: did you mean %s?", line,
		    one);
	else if (n > 1)
		ui_msg(r, UI_R_ERROR, "no metric %s; %zu start with it: %s",
		    line, n, sb.s);
	else {
		for (i = 0; i < r->nwords; i++) {
			if (strcmp(r->words[i], line) == 0)
				break;
		}
		if (i < r->nwords)
			ui_msg(r, UI_R_ERROR, "%s is not read on chips or "
			    "cores: pick it first (g)", line);
		else
			ui_msg(r, UI_R_ERROR, "no metric, event or group %s "
			    "(Tab completes the metrics read)", line);
	}
	strbuf_free(&sb);
}

/*
 * The filter prompt's answer (NULL: cancelled).  One that does not parse
 * (a regex that does not compile) is not taken: the filter from before
 * the prompt stays in force, and the tab line says why and which.
 */
static unsigned
ui_filter_done(struct ui_run *r, const char *line)
{
	struct ui	*ui = &r->ui;
	const char	*before = r->filter_before != NULL ?
			    r->filter_before : "";
	unsigned	 act;
	char		*why;

	act = ui_set_filter(ui, line != NULL ? line : before);
	if (line != NULL && ui->filter_error != NULL) {
		why = ui->filter_error;
		ui->filter_error = NULL;
		act = ui_set_filter(ui, before) | UI_ACT_RELAYOUT;
		free(ui->filter_error);
		ui->filter_error = why;
		ui_msg(r, UI_R_ERROR, "filter not changed, still %s: %s",
		    before[0] != '\0' ? before : "none", why);
	}
	free(r->filter_before);
	r->filter_before = NULL;
	return (act);
}

/* A prompt's answer (line NULL: cancelled), called as it closes. */
static void
ui_prompt_done(void *arg, int kind, const char *line)
{
	struct ui_run	*r = arg;
	struct ui	*ui = &r->ui;
	struct ui_note	 note = { 0 };
	unsigned	 act = UI_ACT_NONE;

	crt_keypad(1);
	ui->prompt = 0;
	switch (kind) {
	case PROMPT_FILTER:
		act = ui_filter_done(r, line);
		break;
	case PROMPT_INTERVAL:
		if (line != NULL && *line != '\0')
			ui_interval(r, line);
		break;
	case PROMPT_PICK:
		if (line != NULL)
			act = ui_pick_by_name(r, line, &note);
		break;
	case PROMPT_GOTO:
		if (line != NULL && *line != '\0')
			act = ui_replay_goto(r, line, &note);
		break;
	case PROMPT_INDICES:
		act = ui_pick_indices(r, line, &note);
		break;
	case PROMPT_METRIC:
		if (line != NULL)
			ui_frame_metric(r, line);
		break;
	}
	ui_say(r, &note);
	ui_act(r, act);
}

/*
 * Open the prompt a key asked for (ui.ask).  Tab completes the names of
 * the catalog and the filter's keys; for the metric, the chip and core
 * columns the engine reads now.
 */
static void
ui_prompt_open(struct ui_run *r)
{
	struct ui		*ui = &r->ui;
	const char *const	*words = r->words;
	size_t			 nwords, i;

	nwords = ui->ask_names ? r->npickwords : r->nwords;
	switch (ui->ask) {
	case PROMPT_INTERVAL:
	case PROMPT_INDICES:
	case PROMPT_GOTO:
		words = NULL;
		break;
	case PROMPT_METRIC:
		for (i = 0; i < r->nframe_words; i++)
			free(r->frame_words[i]);
		free(r->frame_words);
		r->frame_words = frame_metric_names(ui, &r->nframe_words);
		words = (const char *const *)r->frame_words;
		nwords = r->nframe_words;
		break;
	}
	crt_keypad(0);
	ui->prompt = 1;
	prompt_open(ui->ask, ui->ask_label, ui->ask_init, words, nwords,
	    ui_prompt_done, r);
	free(ui->ask_init);
	ui->ask_init = NULL;
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

/*
 * After a sample or a jump: where a replay stands and when the next
 * sample is due, kept for the loop; a new engine (the catalog or the
 * selection changed under it, as the session said) rebuilds what the
 * screens derive from it.  This frees the snapshot shown, so it comes
 * before a new one is put up.
 */
void
ui_take(struct ui_run *r, const struct session_result *res)
{
	r->state = *res;
	r->state.snap = NULL;
	if (res->changed & SESSION_CHANGED_ENGINE) {
		ui_engine_changed(r, 1);
		ui_words(r);
	}
}

/* Put snap on screen (it replaces the one shown) and into the history. */
void
ui_show(struct ui_run *r, struct engine_snapshot *snap, uint64_t now,
    struct ui_note *note)
{
	struct ui	*ui = &r->ui;

	engine_snapshot_free(ui->snap);
	ui->snap = snap;
	r->snap_rt = now;
	live_push(ui, snap);
	ui->live.stale = 1;
	if (ui->replay)
		ui_replay_status(r, note);
}

/* The sample could not be taken: say why. */
static void
ui_sample_failed(struct ui_run *r, char *cause)
{
	struct ui	*ui = &r->ui;
	struct ui_note	 note = { 0 };

	if (session_record_failed(ui->ses)) {
		/* Said until something else is, and again on exit. */
		ui_msg(r, UI_R_ERROR, "sampling stopped: %s", cause);
		r->msg_until = 0;
		free(r->rec_error);
		r->rec_error = cause;
		return;
	}
	if (ui->replay) {
		/* The file failed under the replay: the header's total
		 * follows what is left. */
		ui_replay_failed(r, cause, &note);
		free(cause);
		ui_replay_status(r, &note);
		ui_say(r, &note);
		return;
	}
	ui_msg(r, UI_R_ERROR, "sampling failed: %s", cause);
	free(cause);
}

/* Take one sample; returns 1 when it only set the baselines. */
static int
ui_sample(struct ui_run *r)
{
	struct ui		*ui = &r->ui;
	struct session_result	 res;
	struct ui_note		 note = { 0 };
	uint64_t		 now, cpu;
	char			*cause = NULL;
	int			 error;

	if (session_clock_virtual(ui->ses)) {
		session_sleep_until(ui->ses, r->vnext, -1);
		r->vnext += (uint64_t)llround(ui->interval * 1e9);
	}
	if (r->state.done) {
		ui_replay_status(r, &note);
		ui_say(r, &note);
		return (0);
	}
	/* A sample that cannot be recorded is not taken. */
	if (session_record_failed(ui->ses))
		return (0);
	error = session_sample(ui->ses, &res, &cause);
	ui_take(r, &res);
	if (error != 0) {
		ui_sample_failed(r, cause);
		return (0);
	}
	now = clock_now(&r->rt);
	cpu = clock_cpu_ns();
	if (now > r->cpu_rt_prev && r->cpu_rt_prev != 0)
		ui->cpu_pct = 100.0 * (double)(cpu - r->cpu_prev) /
		    (double)(now - r->cpu_rt_prev);
	r->cpu_prev = cpu;
	r->cpu_rt_prev = now;
	if (res.snap->seq == 0) {
		engine_snapshot_free(res.snap);
		if (ui->replay)
			ui_replay_status(r, &note);
		ui_say(r, &note);
		return (1);
	}
	ui_show(r, res.snap, now, &note);
	ui_say(r, &note);
	return (0);
}

/*
 * One call of the replay's jump under way (UI_ACT_SEEK): the jump
 * (session_seek(): the interval across it means nothing), then samples
 * until the replay controller has one to show.
 */
static void
ui_seek_step(struct ui_run *r)
{
	struct ui		*ui = &r->ui;
	struct session_result	 res;
	struct ui_note		 note = { 0 };
	char			*cause = NULL;
	int			 error;

	if (!r->seek.jumped)
		error = session_seek(ui->ses, r->seek.index, &res, &cause);
	else
		error = session_sample(ui->ses, &res, &cause);
	ui_take(r, &res);
	if (ui_replay_took(r, error, cause, &res, &note)) {
		ui_show(r, res.snap, clock_now(&r->rt), &note);
		ui_replay_shown(r, &note);
	} else if (error == 0 && res.snap != NULL)
		session_recycle(ui->ses, res.snap);
	ui_say(r, &note);
}

/* When the next sample is due after one taken at now, as it said. */
static uint64_t
ui_deadline(const struct ui_run *r, uint64_t now)
{
	uint64_t	 wait = r->state.wait;

	if (wait == UINT64_MAX)
		return (UINT64_MAX);
	return (wait < UINT64_MAX - now ? now + wait : UINT64_MAX);
}

/* A key while a prompt is open: bytes go to readline. */
static unsigned
ui_prompt_key(struct ui_run *r, int k)
{
	int	 k2;

	if (k == CRT_KEY_RESIZE || k < 0 || k > 255)
		return (UI_ACT_NONE);
	if (k == 27) {
		/* A lone Esc cancels; Esc and more is a key sequence. */
		if ((k2 = crt_key_wait(25)) < 0 || k2 > 255) {
			prompt_cancel();
			return (UI_ACT_NONE);
		}
		prompt_feed(27);
		if (prompt_is_open())
			prompt_feed(k2);
	} else
		prompt_feed(k);
	/* The filter applies as it is typed. */
	if (prompt_is_open() && prompt_kind() == PROMPT_FILTER)
		return (ui_set_filter(&r->ui, prompt_text()));
	return (UI_ACT_NONE);
}

void
ui_say(struct ui_run *r, const struct ui_note *n)
{
	if (n->text[0] != '\0')
		ui_msg(r, n->role, "%s", n->text);
}

/* ---- the loop ------------------------------------------------------ */

/* Do what a key or a prompt's answer asks for (UI_ACT_*). */
static void
ui_act(struct ui_run *r, unsigned act)
{
	if (act & UI_ACT_RELAYOUT)
		ui_relayout(&r->ui);
	if (act & UI_ACT_RESAMPLE)
		r->sample_now = 1;
	if (act & UI_ACT_SEEK)
		r->seek.on = 1;
	if (act & UI_ACT_PROMPT)
		ui_prompt_open(r);
	if (act & UI_ACT_REDRAW)
		crt_redraw();
	if (act & UI_ACT_QUIT)
		r->quit = 1;
}

/* A key outside a prompt: its entry in keys_table[], then its action. */
static void
ui_key(struct ui_run *r, int k)
{
	struct ui	*ui = &r->ui;
	struct ui_note	 note = { 0 };
	enum ui_screen	 scr = ui->screen;
	size_t		 cur = ui->list[scr].cursor;
	unsigned	 act;
	int		 w;

	/* The keys read the size from here, never from the terminal. */
	crt_size(&w, &r->rows);
	/* A key answers the message; a resize is no answer. */
	if (r->msg_until != 0 && k != CRT_KEY_RESIZE) {
		ui->msg[0] = '\0';
		r->msg_until = 0;
	}
	act = keys_dispatch(r, k, &note);
	ui_say(r, &note);
	ui_act(r, act);
	/* Another entry's details start at their top. */
	if (ui->screen != scr || ui->list[ui->screen].cursor != cur)
		ui->detail_top = 0;
}

/*
 * The one step that lays the model out for the terminal's size (the
 * screen's fit): before it is drawn, and before a key reads a layout
 * that a sample or the last key made stale.
 */
static void
ui_fit(struct ui_run *r)
{
	int	 w, h;

	crt_size(&w, &h);
	r->canvas.width = w;
	r->canvas.height = h;
	view_fit(&r->ui, w, h);
}

static void
ui_draw(struct ui_run *r)
{
	struct ui	*ui = &r->ui;
	uint64_t	 now = clock_now(&r->rt);

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
	ui_fit(r);
	view_render(ui, &r->canvas);
	/* The terminal paints what it is given: without UTF-8 the levels
	 * and dots are ASCII already. */
	if (!ui->utf8)
		view_canvas_ascii(&r->canvas);
	crt_draw(&r->canvas, ui->utf8);
}

static void
ui_loop(struct ui_run *r)
{
	struct ui	*ui = &r->ui;
	struct pollfd	 pfd;
	uint64_t	 now, step, last_draw = 0;
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
		step = (uint64_t)llround(ui->interval * 1e9);
		if (r->seek.on) {
			/* A jump: its calls one a pass, drawn when done. */
			ui_seek_step(r);
			dirty = 1;
			if (r->seek.on)
				continue;
		} else if ((!ui->paused && now >= r->next) || r->sample_now) {
			r->sample_now = 0;
			if (ui_sample(r)) {
				/* Show numbers soon after a (re)start. */
				r->next = now + (step < UI_FIRST_NS ? step :
				    UI_FIRST_NS);
				if (ui->replay)
					r->next = now;
			} else if (ui->replay) {
				/* The recorded gap to the next sample. */
				r->next = ui_deadline(r, now);
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
			if (ui->live.stale)
				ui_fit(r);
			if (prompt_is_open())
				ui_act(r, ui_prompt_key(r, k));
			else
				ui_key(r, k);
			/* Keys after a jump are for where it lands. */
			if (r->quit || r->seek.on)
				break;
		}
	}
}

static void
ui_setup(struct ui_run *r, struct session *ses, const struct ui_opts *opts)
{
	struct ui		*ui = &r->ui;
	struct session_replay	 rp;
	struct ui_note		 note = { 0 };
	const char		*cs, *term;
	size_t			 i;

	ui->ses = ses;
	r->interval_set = opts->interval_set;
	r->picked = opts->picked;
	ui->interval = session_interval(ses);
	for (i = 0; i < UI_NSCREENS; i++)
		ui->list[i].sort = -1;
	if (gethostname(ui->host, sizeof ui->host) != 0)
		snprintf(ui->host, sizeof ui->host, "localhost");
	ui->host[sizeof ui->host - 1] = '\0';
	ui->simulated = strcmp(session_kind(ses), "sim") == 0;
	ui->replay = session_replay(ses, &rp);
	ui->replay_pos = r->state.position = rp.position;
	ui->replay_total = r->state.total = rp.total;
	ui->replay_speed = rp.speed;
	r->state.done = session_done(ses);
	cs = nl_langinfo(CODESET);
	ui->utf8 = cs != NULL && strcmp(cs, "UTF-8") == 0;
	/* The console's fonts have blocks but no braille. */
	term = getenv("TERM");
	if (!ui->utf8 || term == NULL || strcmp(term, "dumb") == 0)
		ui->chart = CHART_ASCII;
	else if (strcmp(term, "linux") == 0)
		ui->chart = CHART_BLOCK;
	else
		ui->chart = CHART_BRAILLE;
	clock_init(&r->rt, 0, 0);
	ui->fr.core = -1;

	ui_pick_setup(r);
	live_reset(ui);
	view_catalog_items_build(ui);
	ui_words(r);

	ui_settings_load(r, &note);
	ui_say(r, &note);
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
	view_catalog_items_free(ui);
	filter_free(ui->filter);
	free(ui->filter_text);
	free(ui->filter_error);
	ui_pick_list_free(&ui->picks, &ui->npicks);
	ui_pick_list_free(&ui->overview, &ui->noverview);
	for (i = 0; i < ui->nhidden; i++)
		free(ui->hidden[i]);
	free(ui->hidden);
	free(r->filter_before);
	free(ui->ask_init);
	free(r->pending);
	free(r->seek.failed);
	free(r->words);
	for (i = 0; i < r->nframe_words; i++)
		free(r->frame_words[i]);
	free(r->frame_words);
	frame_free(&ui->fr);
	lpar_free(&ui->lp);
	settings_free(r->settings);
	free(r->settings_unread);
	view_canvas_free(&r->canvas);
}

int
ui_capable(char **cause)
{
	return (crt_capable(cause));
}

int
ui_main(struct session *ses, const struct ui_opts *opts)
{
	struct ui_run	 r;
	const char	*nc;
	char		*cause = NULL, *hist, *fail;
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
	r.ui.fr.colors = crt_colors();
	ui_loop(&r);
	crt_done();
	if (prompt_save_history(&cause) != 0) {
		fprintf(stderr, "hvtop: filter history not saved: %s\n",
		    cause);
		free(cause);
	}
	prompt_exit();
	/* A recording cut short by a failed write fails the run. */
	if ((fail = session_record_failure(ses)) != NULL) {
		if (r.rec_error != NULL)
			fprintf(stderr, "hvtop: %s\n", r.rec_error);
		fprintf(stderr, "hvtop: %s\n", fail);
		free(fail);
		r.status = 1;
	}
	free(r.rec_error);
	/* A replay whose file failed under it did not show it all. */
	if (r.replay_error != NULL) {
		fprintf(stderr, "hvtop: %s\n", r.replay_error);
		r.status = 1;
	}
	free(r.replay_error);
	ui_teardown(&r);
	return (r.status);
}
