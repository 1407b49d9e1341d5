/*
 * What each key does, as one table (keys_table) and the small functions
 * it names.  A key is looked up by the screen shown and whether a
 * recording is replayed; no key is claimed twice for the same screen and
 * mode (a unit test checks), so the order of the table is the order of
 * the help screen only.  The help screen, the function bar and the
 * manual page's key sections are all drawn from or checked against this
 * table: a key added here is documented everywhere or a test fails.
 *
 * A key's function changes the model, or calls down to the pick and
 * replay controllers (the pick controller calls the session); what the
 * loop must do after it (sample, jump in a replay, lay out, open a
 * prompt, repaint, quit) it returns as UI_ACT_* bits and never does
 * itself; what it has to say it puts in the note it is handed, which the
 * loop shows.  Nothing here writes the status line.
 */
#include "config.h"

#include "ui/keys.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine/engine.h"
#include "session/session.h"
#include "ui/crt.h"
#include "ui/prompt.h"
#include "ui/ui-run.h"
#include "util/xalloc.h"

/* Ask the loop for a prompt of a kind; init is copied. */
static unsigned
keys_ask(struct ui *ui, int kind, const char *init, int names_only,
    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static unsigned
keys_ask(struct ui *ui, int kind, const char *init, int names_only,
    const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	vsnprintf(ui->ask_label, sizeof ui->ask_label, fmt, ap);
	va_end(ap);
	ui->ask = kind;
	free(ui->ask_init);
	ui->ask_init = init != NULL ? xstrdup(init) : NULL;
	ui->ask_names = names_only;
	return (UI_ACT_PROMPT);
}

static unsigned	keys_lpar_back(struct ui_run *, int, struct ui_note *);

/* ---- moving -------------------------------------------------------- */

static unsigned
keys_screen(struct ui_run *r, int k, struct ui_note *note)
{
	struct ui	*ui = &r->ui;
	enum ui_screen	 from;

	(void)note;
	/* Help, last in the tabs, between Formulas and Live. */
	if (ui->screen == UI_HELP && ui->help_tabbed) {
		ui->screen = k == '\t' ? UI_LIVE : UI_FORMULAS;
		return (UI_ACT_NONE);
	}
	if (ui->screen != UI_HELP && ui->screen == (k == '\t' ?
	    UI_FORMULAS : UI_LIVE)) {
		ui->back = ui->screen;
		ui->screen = UI_HELP;
		ui->help_tabbed = 1;
		ui->list[UI_HELP].top = 0;
		return (UI_ACT_NONE);
	}
	/* From help opened with h: the screens beside the one it was
	 * opened on. */
	from = ui->screen == UI_HELP ? ui->back : ui->screen;
	if (k == '\t')
		ui->screen = from >= UI_FORMULAS ? UI_LIVE : from + 1;
	else
		ui->screen = from == UI_LIVE ? UI_FORMULAS : from - 1;
	/* Partitions has a tab only while partitions are read. */
	if (ui->screen == UI_LPAR && !lpar_read(ui))
		ui->screen = k == '\t' ? UI_FRAME : UI_LIVE;
	return (UI_ACT_NONE);
}

static unsigned
keys_help(struct ui_run *r, int k, struct ui_note *note)
{
	struct ui	*ui = &r->ui;

	(void)k;
	(void)note;
	if (ui->screen == UI_HELP)
		ui->screen = ui->back;
	else {
		ui->back = ui->screen;
		ui->screen = UI_HELP;
		ui->help_tabbed = 0;
		ui->list[UI_HELP].top = 0;
	}
	return (UI_ACT_NONE);
}

/* Esc steps back one level: out of help, the filter, the detail pane. */
static unsigned
keys_escape(struct ui_run *r, int k, struct ui_note *note)
{
	struct ui	*ui = &r->ui;

	(void)k;
	(void)note;
	if (ui->screen == UI_HELP)
		ui->screen = ui->back;
	else if (ui->screen == UI_LPAR && lpar_close(ui) == 0)
		return (UI_ACT_NONE);
	else if (ui->filter_text != NULL && ui->filter_text[0] != '\0')
		return (ui_set_filter(ui, ""));
	else
		ui->detail = 0;
	return (UI_ACT_NONE);
}

/* Move the cursor (help: the text) by n rows, clamped to the list. */
static void
keys_move_by(struct ui *ui, long n)
{
	struct ui_list	*l = &ui->list[ui->screen];
	size_t		 max;

	if (ui->screen == UI_LIVE) {
		live_move(ui, n);
		return;
	}
	if (ui->screen == UI_LPAR) {
		lpar_move(ui, n);
		return;
	}
	if (ui->screen == UI_FRAME) {
		frame_move(ui, 0, n < -1000 ? -1000 : n > 1000 ? 1000 :
		    (int)n);
		return;
	}
	if (ui->screen == UI_HELP) {
		/* The other end is clamped before drawing. */
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

static unsigned
keys_move(struct ui_run *r, int k, struct ui_note *note)
{
	int	 page;

	(void)note;
	page = r->rows > 12 ? r->rows - 10 : 2;
	switch (k) {
	case CRT_KEY_UP:
	case 'k':
		keys_move_by(&r->ui, -1);
		break;
	case CRT_KEY_DOWN:
	case 'j':
		keys_move_by(&r->ui, 1);
		break;
	case CRT_KEY_PPAGE:
		keys_move_by(&r->ui, -page);
		break;
	case CRT_KEY_NPAGE:
		keys_move_by(&r->ui, page);
		break;
	case CRT_KEY_HOME:
		keys_move_by(&r->ui, -1000000);
		/* The top of the screen, the first table's title with it. */
		if (r->ui.screen == UI_LIVE)
			r->ui.list[UI_LIVE].top = 0;
		break;
	case CRT_KEY_END:
		keys_move_by(&r->ui, 1000000);
		break;
	}
	return (UI_ACT_NONE);
}

static unsigned
keys_column(struct ui_run *r, int k, struct ui_note *note)
{
	struct ui		*ui = &r->ui;
	struct live_view	*lv;
	size_t			 view, row;

	(void)note;
	if (live_cursor(ui, &view, &row) != 0)
		return (UI_ACT_NONE);
	lv = &ui->live.v[view];
	if (k == CRT_KEY_LEFT && lv->col > 0)
		lv->col--;
	else if (k == CRT_KEY_RIGHT && lv->col + 1 < lv->ncols)
		lv->col++;
	return (UI_ACT_NONE);
}

/* ---- the Frame screen ---------------------------------------------- */

static unsigned
keys_frame_move(struct ui_run *r, int k, struct ui_note *note)
{
	(void)note;
	frame_move(&r->ui, k == CRT_KEY_LEFT ? -1 : 1, 0);
	return (UI_ACT_NONE);
}

/* Enter: the cursor's core or chip, on its row of the Live table. */
static unsigned
keys_frame_live(struct ui_run *r, int k, struct ui_note *note)
{
	struct ui	*ui = &r->ui;
	size_t		 view, row;
	char		 why[160];

	(void)k;
	if (frame_live_row(ui, &view, &row, why, sizeof why) != 0) {
		ui_note_set(note, UI_R_ERROR, "%s", why);
		return (UI_ACT_NONE);
	}
	if (live_goto(ui, view, row) != 0) {
		ui_note_set(note, UI_R_ERROR, "that row is filtered out (= "
		    "clears the filter)");
		return (UI_ACT_NONE);
	}
	ui->screen = UI_LIVE;
	return (UI_ACT_NONE);
}

static unsigned
keys_frame_metric(struct ui_run *r, int k, struct ui_note *note)
{
	(void)k;
	(void)note;
	return (keys_ask(&r->ui, PROMPT_METRIC, NULL, 0, "metric (Tab "
	    "completes, empty: the default): "));
}

/* ---- the Partitions screen ----------------------------------------- */

/*
 * P: the Partitions screen.  Without a partition read, the default core
 * group is picked by partition, as g GROUP@lpar would.
 */
static unsigned
keys_lpar(struct ui_run *r, int k, struct ui_note *note)
{
	struct ui	*ui = &r->ui;
	const char	*g;
	char		 spec[256];
	unsigned	 act;

	(void)k;
	ui->screen = UI_LPAR;
	ui->lp.why[0] = '\0';
	if (lpar_read(ui))
		return (UI_ACT_NONE);
	if ((g = lpar_default_group(ui)) == NULL) {
		snprintf(ui->lp.why, sizeof ui->lp.why, "the catalog has no "
		    "core group with cycles and instructions");
		return (UI_ACT_NONE);
	}
	snprintf(spec, sizeof spec, "%s@lpar", g);
	act = ui_pick_set(r, spec, 0, note);
	if (act == UI_ACT_NONE)
		snprintf(ui->lp.why, sizeof ui->lp.why, "%.*s",
		    (int)sizeof ui->lp.why - 1, note->text);
	return (act);
}

/* Enter, Right: the cursor's partition by virtual processor. */
static unsigned
keys_lpar_open(struct ui_run *r, int k, struct ui_note *note)
{
	struct ui	*ui = &r->ui;

	if (k == CRT_KEY_LEFT)
		return (keys_lpar_back(r, k, note));
	if (ui->lp.opened)
		return (UI_ACT_NONE);
	if (lpar_open(ui) != 0)
		ui_note_set(note, UI_R_ERROR, ui->lp.vview < 0 ? "no virtual "
		    "processor is read by partition" : "no partition under "
		    "the cursor");
	return (UI_ACT_NONE);
}

/* Backspace, Left: back to the partitions, the cursor where it was. */
static unsigned
keys_lpar_back(struct ui_run *r, int k, struct ui_note *note)
{
	(void)k;
	(void)note;
	(void)lpar_close(&r->ui);
	return (UI_ACT_NONE);
}

/* ---- filter and sort ----------------------------------------------- */

static unsigned
keys_filter(struct ui_run *r, int k, struct ui_note *note)
{
	struct ui	*ui = &r->ui;
	char		*init;
	unsigned	 act;

	(void)k;
	(void)note;
	free(r->filter_before);
	r->filter_before = xstrdup(ui->filter_text != NULL ?
	    ui->filter_text : "");
	if (ui->screen == UI_HELP)
		ui->screen = ui->back;
	/* The filter and a space: what is typed narrows it, Ctrl-U starts
	 * afresh (the filter is in the history too). */
	init = ui->filter_text != NULL && ui->filter_text[0] != '\0' ?
	    xasprintf("%s ", ui->filter_text) : NULL;
	act = keys_ask(ui, PROMPT_FILTER, init, 0, "filter: ");
	free(init);
	return (act);
}

static unsigned
keys_filter_clear(struct ui_run *r, int k, struct ui_note *note)
{
	(void)k;
	(void)note;
	return (ui_set_filter(&r->ui, ""));
}

static unsigned
keys_sort(struct ui_run *r, int k, struct ui_note *note)
{
	struct ui	*ui = &r->ui;
	struct ui_list	*l = &ui->list[ui->screen];
	int		 n, dir = k == '<' || k == ',' ? -1 : 1;

	if (ui->screen == UI_LIVE) {
		live_sort_step(ui, dir);
		return (UI_ACT_NONE);
	}
	if (ui->screen == UI_LPAR) {
		lpar_sort_step(ui, dir);
		ui_note_set(note, UI_R_NORMAL, "sorted by %s", lpar_col_name(ui,
		    ui->lp.sort));
		return (UI_ACT_NONE);
	}
	if ((n = view_catalog_items_ncols(ui->screen)) == 0)
		return (UI_ACT_NONE);
	l->sort += dir;
	if (l->sort < -1)
		l->sort = n - 1;
	if (l->sort >= n)
		l->sort = -1;
	view_catalog_items_layout(ui, ui->screen);
	ui_note_set(note, UI_R_NORMAL, "sorted by %s", l->sort < 0 ?
	    "catalog order" : view_catalog_items_col_name(ui->screen,
	    l->sort));
	return (UI_ACT_NONE);
}

static unsigned
keys_reverse(struct ui_run *r, int k, struct ui_note *note)
{
	struct ui			*ui = &r->ui;
	const struct engine_view	*v;
	size_t				 view, row;
	int				 slot;

	(void)k;
	(void)note;
	if (ui->screen == UI_LPAR) {
		lpar_reverse(ui);
		return (UI_ACT_NONE);
	}
	if (ui->screen == UI_LIVE) {
		if (live_cursor(ui, &view, &row) != 0)
			return (UI_ACT_NONE);
		v = engine_view(session_engine(ui->ses), view);
		if ((slot = live_slot(v->domain)) > 0)
			ui->live.sortrev[slot] = !ui->live.sortrev[slot];
		ui->live.stale = 1;
		return (UI_ACT_NONE);
	}
	if (view_catalog_items_ncols(ui->screen) == 0)
		return (UI_ACT_NONE);
	ui->list[ui->screen].reverse = !ui->list[ui->screen].reverse;
	view_catalog_items_layout(ui, ui->screen);
	return (UI_ACT_NONE);
}

/* ---- sampling ------------------------------------------------------ */

static unsigned
keys_interval(struct ui_run *r, int k, struct ui_note *note)
{
	(void)k;
	(void)note;
	return (keys_ask(&r->ui, PROMPT_INTERVAL, NULL, 0, "interval in "
	    "seconds (now %g): ", r->ui.interval));
}

static unsigned
keys_pause(struct ui_run *r, int k, struct ui_note *note)
{
	struct ui	*ui = &r->ui;

	(void)k;
	if (ui->replay_end) {
		ui_note_set(note, UI_R_NORMAL, "end of the recording; [ and "
		    "{ go back");
		return (UI_ACT_NONE);
	}
	ui->paused = !ui->paused;
	ui_note_set(note, UI_R_NORMAL, ui->paused ? "paused (p resumes)" :
	    "sampling");
	return (ui->paused ? UI_ACT_NONE : UI_ACT_RESAMPLE);
}

static unsigned
keys_sample(struct ui_run *r, int k, struct ui_note *note)
{
	(void)r;
	(void)k;
	(void)note;
	return (UI_ACT_RESAMPLE);
}

static unsigned
keys_save(struct ui_run *r, int k, struct ui_note *note)
{
	unsigned	 act;

	(void)k;
	act = ui_settings_save(r, note);
	return (act);
}

static unsigned
keys_redraw(struct ui_run *r, int k, struct ui_note *note)
{
	(void)r;
	(void)k;
	(void)note;
	return (UI_ACT_REDRAW);
}

static unsigned
keys_quit(struct ui_run *r, int k, struct ui_note *note)
{
	(void)r;
	(void)k;
	(void)note;
	return (UI_ACT_QUIT);
}

/* ---- picks and columns --------------------------------------------- */

static unsigned
keys_pick_name(struct ui_run *r, int k, struct ui_note *note)
{
	(void)k;
	(void)note;
	return (keys_ask(&r->ui, PROMPT_PICK, NULL, 1, "pick GROUP or "
	    "EVENT[@chip|@core|@vcpu|@lpar][:LIST]: "));
}

static unsigned
keys_pick_clear(struct ui_run *r, int k, struct ui_note *note)
{
	unsigned	 act;

	(void)k;
	act = ui_pick_clear(r, note);
	return (act);
}

static unsigned
keys_pick_entry(struct ui_run *r, int k, struct ui_note *note)
{
	unsigned	 act;

	(void)k;
	act = ui_pick_entry(r, note);
	return (act);
}

static unsigned
keys_unpick_entry(struct ui_run *r, int k, struct ui_note *note)
{
	unsigned	 act;

	(void)k;
	act = ui_pick_unpick_entry(r, note);
	return (act);
}

static unsigned
keys_unpick_column(struct ui_run *r, int k, struct ui_note *note)
{
	unsigned	 act;

	(void)k;
	act = ui_pick_unpick_column(r, note);
	return (act);
}

static unsigned
keys_detail(struct ui_run *r, int k, struct ui_note *note)
{
	(void)k;
	(void)note;
	r->ui.detail = !r->ui.detail;
	return (UI_ACT_NONE);
}

static unsigned
keys_sparkcol(struct ui_run *r, int k, struct ui_note *note)
{
	(void)k;
	(void)note;
	r->ui.sparkcol = !r->ui.sparkcol;
	return (UI_ACT_NONE);
}

/* The detail pane's lines; the end is clamped before drawing. */
static unsigned
keys_detail_scroll(struct ui_run *r, int k, struct ui_note *note)
{
	(void)note;
	if (k == 'J')
		r->ui.detail_top++;
	else if (r->ui.detail_top > 0)
		r->ui.detail_top--;
	return (UI_ACT_NONE);
}

/* - hides the cursor column, + shows every column again. */
static unsigned
keys_columns(struct ui_run *r, int k, struct ui_note *note)
{
	struct ui		*ui = &r->ui;
	const struct live_view	*lv;
	size_t			 view, row, i;
	const char		*name;

	if (k == '+') {
		for (i = 0; i < ui->nhidden; i++)
			free(ui->hidden[i]);
		free(ui->hidden);
		ui->hidden = NULL;
		ui->nhidden = 0;
		ui->live.stale = 1;
		return (UI_ACT_NONE);
	}
	if (live_cursor(ui, &view, &row) != 0)
		return (UI_ACT_NONE);
	lv = &ui->live.v[view];
	if (lv->ncols == 0)
		return (UI_ACT_NONE);
	name = live_col_name(ui, view, lv->cols[lv->col]);
	ui->hidden = xreallocarray(ui->hidden, ui->nhidden + 1,
	    sizeof *ui->hidden);
	ui->hidden[ui->nhidden++] = xstrdup(name);
	ui_note_set(note, UI_R_NORMAL, "%s hidden (+ shows all columns)", name);
	ui->live.stale = 1;
	return (UI_ACT_NONE);
}

/* ---- replay -------------------------------------------------------- */

static unsigned
keys_replay_step(struct ui_run *r, int k, struct ui_note *note)
{
	(void)k;
	if (r->ui.replay_end) {
		ui_note_set(note, UI_R_NORMAL, "end of the recording");
		return (UI_ACT_NONE);
	}
	return (UI_ACT_RESAMPLE);
}

static unsigned
keys_replay_back(struct ui_run *r, int k, struct ui_note *note)
{
	unsigned	 act;

	(void)k;
	act = ui_replay_back(r, 0, note);
	return (act);
}

static unsigned
keys_replay_jump(struct ui_run *r, int k, struct ui_note *note)
{
	unsigned	 act;

	if (k == '{')
		act = ui_replay_back(r, 1, note);
	else
		act = ui_replay_jump(r, note);
	return (act);
}

static unsigned
keys_replay_goto(struct ui_run *r, int k, struct ui_note *note)
{
	(void)k;
	(void)note;
	return (keys_ask(&r->ui, PROMPT_GOTO, NULL, 0, "go to sample N, "
	    "+SECONDS, HH:MM[:SS] or YYYY-MM-DDTHH:MM[:SS] (UTC): "));
}

/* ---- the table ----------------------------------------------------- */

/*
 * The function bar takes the entries whose bar_where covers the screen
 * and mode, ordered by bar: Live shows F1 / Tab <> Enter d p W q (a
 * replay: p [ ] { } after Enter), the lists Enter v x W, help Esc Up/Dn.
 */
const struct keys_entry keys_table[] = {
	/* Keys on every screen. */
	{ .key = { '\t', CRT_KEY_BTAB }, .where = KEYS_ANY,
	  .fn = keys_screen, .section = KEYS_S_ALL,
	  .names = "Tab, Shift-Tab",
	  .help = "next, previous screen: Live, Partitions (while "
	    "partitions are read), Frame, Events, Groups, Formulas, Help",
	  .bar = 5, .bar_where = KEYS_ANY,
	  .bar_key = "Tab", .bar_label = "Screen" },
	{ .key = { 'h', '?', CRT_KEY_F1 }, .where = KEYS_ANY,
	  .fn = keys_help, .section = KEYS_S_ALL,
	  .names = "h, ?, F1",
	  .help = "this help (Esc or h goes back)",
	  .bar = 3, .bar_where = KEYS_LIVE | KEYS_LPAR | KEYS_FRAME |
	    KEYS_LISTS | KEYS_MODES,
	  .bar_key = "F1", .bar_label = "Help" },
	{ .key = { 27 }, .where = KEYS_ANY,
	  .fn = keys_escape, .section = KEYS_S_ALL,
	  .names = "Esc",
	  .help = "leave the help; elsewhere clear the filter, or without "
	    "one hide the detail pane",
	  .bar = 1, .bar_where = KEYS_HELP | KEYS_MODES,
	  .bar_key = "Esc", .bar_label = "Back" },
	{ .key = { '/', '\\', CRT_KEY_F3, CRT_KEY_F4 }, .where = KEYS_ANY,
	  .fn = keys_filter, .section = KEYS_S_ALL,
	  .names = "/, \\, F3, F4",
	  .help = "filter bar (readline: Ctrl-A/E, Alt-B/F, Ctrl-R history, "
	    "Tab completes names; Enter applies, Esc cancels)",
	  .bar = 4, .bar_where = KEYS_LIVE | KEYS_LPAR | KEYS_LISTS |
	    KEYS_MODES,
	  .bar_key = "/", .bar_label = "Filter" },
	{ .key = { '=' }, .where = KEYS_ANY,
	  .fn = keys_filter_clear, .section = KEYS_S_ALL,
	  .names = "=",
	  .help = "clear the filter" },
	{ .key = { CRT_KEY_UP, CRT_KEY_DOWN, CRT_KEY_PPAGE, CRT_KEY_NPAGE,
	    CRT_KEY_HOME, CRT_KEY_END, 'j', 'k' }, .where = KEYS_ANY,
	  .fn = keys_move, .section = KEYS_S_ALL,
	  .names = "Up, Down, PgUp, PgDn, Home, End, j, k",
	  .help = "move the cursor",
	  .bar = 2, .bar_where = KEYS_HELP | KEYS_MODES,
	  .bar_key = "Up/Dn", .bar_label = "Scroll" },
	{ .key = { '<', '>', ',', '.' }, .where = KEYS_ANY,
	  .fn = keys_sort, .section = KEYS_S_ALL,
	  .names = "<, >",
	  .help = "move the sort column",
	  .bar = 6, .bar_where = KEYS_LIVE | KEYS_LPAR | KEYS_LISTS |
	    KEYS_MODES,
	  .bar_key = "<>", .bar_label = "Sort" },
	{ .key = { 'R', 'I' }, .where = KEYS_ANY,
	  .fn = keys_reverse, .section = KEYS_S_ALL,
	  .names = "R, I",
	  .help = "reverse the sort" },
	{ .key = { 'd', 's' }, .where = KEYS_SCREENS | KEYS_MONITOR,
	  .fn = keys_interval, .section = KEYS_S_ALL,
	  .names = "d, s",
	  .help = "set the interval (seconds, fractions allowed)",
	  .bar = 8, .bar_where = KEYS_LIVE | KEYS_MONITOR,
	  .bar_key = "d", .bar_label = "Interval" },
	{ .key = { 'p', 'Z' }, .where = KEYS_SCREENS | KEYS_MONITOR,
	  .fn = keys_pause, .section = KEYS_S_ALL,
	  .names = "p, Z",
	  .help = "pause or resume sampling",
	  .bar = 9, .bar_where = KEYS_LIVE | KEYS_LPAR | KEYS_FRAME |
	    KEYS_MONITOR,
	  .bar_key = "p", .bar_label = "Pause" },
	{ .key = { ' ' }, .where = KEYS_SCREENS | KEYS_MONITOR,
	  .fn = keys_sample, .section = KEYS_S_ALL,
	  .names = "Space",
	  .help = "sample now" },
	{ .key = { 'g' }, .where = KEYS_ANY,
	  .fn = keys_pick_name, .section = KEYS_S_ALL,
	  .names = "g",
	  .help = "pick by name: GROUP or EVENT[@chip|@core|@vcpu|"
	    "@lpar][:0,3,8-11]" },
	{ .key = { 'P' }, .where = KEYS_ANY,
	  .fn = keys_lpar, .section = KEYS_S_ALL,
	  .names = "P",
	  .help = "the Partitions screen (without a partition read, picks "
	    "the first core group with cycles and instructions @lpar)" },
	{ .key = { 'C' }, .where = KEYS_ANY,
	  .fn = keys_pick_clear, .section = KEYS_S_ALL,
	  .names = "C",
	  .help = "clear every pick (back to the overview)" },
	{ .key = { 'v' }, .where = KEYS_ANY,
	  .fn = keys_detail, .section = KEYS_S_ALL,
	  .names = "v",
	  .help = "show or hide the detail pane",
	  .bar = 8, .bar_where = KEYS_LISTS | KEYS_MODES,
	  .bar_key = "v", .bar_label = "Detail" },
	{ .key = { 'J', 'K' }, .where = KEYS_ANY,
	  .fn = keys_detail_scroll, .section = KEYS_S_ALL,
	  .names = "J, K",
	  .help = "scroll the detail pane down, up" },
	{ .key = { 'W' }, .where = KEYS_ANY,
	  .fn = keys_save, .section = KEYS_S_ALL,
	  .names = "W",
	  .help = "write the settings (picks, interval, sort, hidden "
	    "columns)",
	  .bar = 10, .bar_where = KEYS_LIVE | KEYS_LISTS | KEYS_MONITOR,
	  .bar_also = KEYS_LISTS | KEYS_REPLAY,
	  .bar_key = "W", .bar_label = "Save" },
	{ .key = { 12 }, .where = KEYS_ANY,
	  .fn = keys_redraw, .section = KEYS_S_ALL,
	  .names = "Ctrl-L",
	  .help = "redraw" },
	/* Ctrl-C is a signal: the loop quits on it. */
	{ .key = { 'q', CRT_KEY_F10 }, .where = KEYS_ANY,
	  .fn = keys_quit, .section = KEYS_S_ALL,
	  .names = "q, F10, Ctrl-C",
	  .help = "quit",
	  .bar = 12, .bar_where = KEYS_ANY,
	  .bar_key = "q", .bar_label = "Quit" },

	/* Live. */
	{ .key = { CRT_KEY_LEFT, CRT_KEY_RIGHT }, .where = KEYS_LIVE |
	    KEYS_MODES,
	  .fn = keys_column, .section = KEYS_S_LIVE,
	  .names = "Left, Right",
	  .help = "move the cursor column (the table scrolls)" },
	{ .key = { '\r', '\n', CRT_KEY_ENTER }, .where = KEYS_LIVE |
	    KEYS_MODES,
	  .fn = keys_detail, .section = KEYS_S_LIVE,
	  .names = "Enter",
	  .help = "details of the cursor row: every column, its history, "
	    "why a value is missing",
	  .bar = 7, .bar_where = KEYS_LIVE | KEYS_MODES,
	  .bar_key = "Enter", .bar_label = "Detail" },
	{ .key = { '-', '+' }, .where = KEYS_LIVE | KEYS_MODES,
	  .fn = keys_columns, .section = KEYS_S_LIVE,
	  .names = "-, +",
	  .help = "hide the cursor column, show all columns again" },
	{ .key = { 'x', CRT_KEY_DC }, .where = KEYS_LIVE | KEYS_MODES,
	  .fn = keys_unpick_column, .section = KEYS_S_LIVE,
	  .names = "x, Delete",
	  .help = "unpick the group that feeds the cursor column" },
	{ .key = { 'S' }, .where = KEYS_LIVE | KEYS_MODES,
	  .fn = keys_sparkcol, .section = KEYS_S_LIVE,
	  .names = "S",
	  .help = "show or hide each row's recent history beside the sort "
	    "column (the cursor column when sorted by index)" },

	/* Frame. */
	{ .key = { CRT_KEY_LEFT, CRT_KEY_RIGHT }, .where = KEYS_FRAME |
	    KEYS_MODES,
	  .fn = keys_frame_move, .section = KEYS_S_FRAME,
	  .names = "Left, Right",
	  .help = "move the cursor along a chip and its cores (Up, Down: "
	    "from chip to chip)" },
	{ .key = { '\r', '\n', CRT_KEY_ENTER }, .where = KEYS_FRAME |
	    KEYS_MODES,
	  .fn = keys_frame_live, .section = KEYS_S_FRAME,
	  .names = "Enter",
	  .help = "the cursor's core or chip on its row of the Live table",
	  .bar = 7, .bar_where = KEYS_FRAME | KEYS_MODES,
	  .bar_key = "Enter", .bar_label = "Live" },
	{ .key = { 'm' }, .where = KEYS_FRAME | KEYS_MODES,
	  .fn = keys_frame_metric, .section = KEYS_S_FRAME,
	  .names = "m",
	  .help = "the metric shown as heat: any chip or core metric or "
	    "event read (Tab completes; empty: the default)",
	  .bar = 8, .bar_where = KEYS_FRAME | KEYS_MODES,
	  .bar_key = "m", .bar_label = "Metric" },

	/* Partitions. */
	{ .key = { '\r', '\n', CRT_KEY_ENTER }, .where = KEYS_LPAR |
	    KEYS_MODES,
	  .fn = keys_lpar_open, .section = KEYS_S_LPAR,
	  .names = "Enter",
	  .help = "open the cursor's partition: a row per virtual processor",
	  .bar = 7, .bar_where = KEYS_LPAR | KEYS_MODES,
	  .bar_key = "Enter", .bar_label = "Vcpus" },
	{ .key = { CRT_KEY_LEFT, CRT_KEY_RIGHT }, .where = KEYS_LPAR |
	    KEYS_MODES,
	  .fn = keys_lpar_open, .section = KEYS_S_LPAR,
	  .names = "Left, Right",
	  .help = "back to the partitions (the cursor where it was); open "
	    "the cursor's partition" },
	{ .key = { CRT_KEY_BACKSPACE, 127, 8 }, .where = KEYS_LPAR |
	    KEYS_MODES,
	  .fn = keys_lpar_back, .section = KEYS_S_LPAR,
	  .names = "Backspace",
	  .help = "back to the partitions (so does Esc)" },

	/* Replay: these take the place of the sampling keys. */
	{ .key = { 'p', 'Z' }, .where = KEYS_SCREENS | KEYS_REPLAY,
	  .fn = keys_pause, .section = KEYS_S_REPLAY,
	  .names = "p, Z",
	  .help = "pause or resume; the replay pauses at its end",
	  .bar = 9, .bar_where = KEYS_LIVE | KEYS_REPLAY,
	  .bar_key = "p", .bar_label = "Pause" },
	{ .key = { ' ', ']' }, .where = KEYS_SCREENS | KEYS_REPLAY,
	  .fn = keys_replay_step, .section = KEYS_S_REPLAY,
	  .names = "Space, ]",
	  .help = "step one sample forward",
	  .bar = 10, .bar_where = KEYS_LIVE | KEYS_REPLAY,
	  .bar_key = "[ ]", .bar_label = "Step" },
	{ .key = { '[' }, .where = KEYS_SCREENS | KEYS_REPLAY,
	  .fn = keys_replay_back, .section = KEYS_S_REPLAY,
	  .names = "[",
	  .help = "step one sample back" },
	{ .key = { '{', '}' }, .where = KEYS_SCREENS | KEYS_REPLAY,
	  .fn = keys_replay_jump, .section = KEYS_S_REPLAY,
	  .names = "{, }",
	  .help = "jump a tenth of the recording back, forward",
	  .bar = 11, .bar_where = KEYS_LIVE | KEYS_REPLAY,
	  .bar_key = "{ }", .bar_label = "Jump" },
	{ .key = { 'G' }, .where = KEYS_SCREENS | KEYS_REPLAY,
	  .fn = keys_replay_goto, .section = KEYS_S_REPLAY,
	  .names = "G",
	  .help = "go to a sample number, +SECONDS from the start, "
	    "HH:MM[:SS] or a date and time (UTC)" },
	{ .key = { 'd', 's' }, .where = KEYS_SCREENS | KEYS_REPLAY,
	  .fn = keys_interval, .section = KEYS_S_REPLAY,
	  .names = "d, s",
	  .help = "the interval between samples shown: the recorded gaps "
	    "are scaled to it" },

	/* Events, Groups, Formulas. */
	{ .key = { '\r', '\n', CRT_KEY_ENTER }, .where = KEYS_LISTS |
	    KEYS_MODES,
	  .fn = keys_pick_entry, .section = KEYS_S_LISTS,
	  .names = "Enter",
	  .help = "pick the entry: a prompt asks for the indices (empty: "
	    "all of its domain)",
	  .bar = 7, .bar_where = KEYS_LISTS | KEYS_MODES,
	  .bar_key = "Enter", .bar_label = "Pick" },
	{ .key = { 'x', CRT_KEY_DC }, .where = KEYS_LISTS | KEYS_MODES,
	  .fn = keys_unpick_entry, .section = KEYS_S_LISTS,
	  .names = "x, Delete",
	  .help = "unpick it",
	  .bar = 9, .bar_where = KEYS_LISTS | KEYS_MODES,
	  .bar_key = "x", .bar_label = "Unpick" },
};

const size_t	keys_count = sizeof keys_table / sizeof keys_table[0];

const char *
keys_section_title(enum keys_section s)
{
	static const char *const t[KEYS_NSECTIONS] = {
		[KEYS_S_ALL] = "Keys on every screen",
		[KEYS_S_LIVE] = "Live",
		[KEYS_S_FRAME] = "Frame",
		[KEYS_S_LPAR] = "Partitions",
		[KEYS_S_REPLAY] = "Replay (hvtop -r FILE)",
		[KEYS_S_LISTS] = "Events, Groups, Formulas",
	};

	return ((unsigned)s < KEYS_NSECTIONS ? t[s] : "");
}

unsigned
keys_where(const struct ui *ui)
{
	return ((1U << ui->screen) | (ui->replay ? KEYS_REPLAY :
	    KEYS_MONITOR));
}

int
keys_applies(unsigned mask, unsigned where)
{
	return ((mask & where & KEYS_SCREENS) != 0 &&
	    (mask & where & KEYS_MODES) != 0);
}

const struct keys_entry *
keys_find(int k, unsigned where)
{
	const struct keys_entry	*e;
	size_t			 i, j;

	for (i = 0; i < keys_count; i++) {
		e = &keys_table[i];
		if (!keys_applies(e->where, where))
			continue;
		for (j = 0; j < KEYS_MAX && e->key[j] != 0; j++) {
			if (e->key[j] == k)
				return (e);
		}
	}
	return (NULL);
}

/* A key without an entry here says so, rather than do nothing. */
static void
keys_unknown(int k, struct ui_note *note)
{
	char	 name[16];

	if (k == CRT_KEY_RESIZE || k == CRT_KEY_NONE)
		return;
	if (k > ' ' && k < 127)
		snprintf(name, sizeof name, "'%c'", k);
	else if (k == ' ')
		snprintf(name, sizeof name, "Space");
	else if (k > 0 && k < ' ')
		snprintf(name, sizeof name, "^%c", k + '@');
	else
		snprintf(name, sizeof name, "that key");
	if (keys_find(k, KEYS_ANY) != NULL)
		ui_note_set(note, UI_R_WARN, "%s does nothing on this screen "
		    "(h lists the keys)", name);
	else
		ui_note_set(note, UI_R_WARN, "%s is not a key of hvtop (h "
		    "lists the keys)", name);
}

unsigned
keys_dispatch(struct ui_run *r, int k, struct ui_note *note)
{
	const struct keys_entry	*e;

	if ((e = keys_find(k, keys_where(&r->ui))) == NULL) {
		keys_unknown(k, note);
		return (UI_ACT_NONE);
	}
	return (e->fn(r, k, note));
}
