/*
 * Frames and the parts every screen shares: the header (host, source, the
 * SIMULATED tag, catalog, topology, interval, sample age, hcalls, own CPU,
 * permission, last error), the screen tabs, the status line and the key
 * bar or the open prompt.  Writes characters and roles into a canvas; never
 * calls curses, so a canvas can be compared as text.
 */
#include "config.h"

#include "ui/view.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "model/raw.h"
#include "session/session.h"
#include "ui/chart.h"
#include "ui/keys.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define VIEW_MIN_WIDTH	40
#define VIEW_MIN_HEIGHT	10

void
view_canvas_resize(struct view_canvas *f, int width, int height)
{
	size_t	 n;

	if (width < 1)
		width = 1;
	if (height < 1)
		height = 1;
	n = (size_t)width * (size_t)height;
	/* Against what was allocated: the caller may already have set
	 * width and height to the new size. */
	if (f->chars == NULL || f->roles == NULL || f->cap < n) {
		free(f->chars);
		free(f->roles);
		f->chars = xmalloc(n);
		f->roles = xmalloc(n);
		f->cap = n;
	}
	f->width = width;
	f->height = height;
	memset(f->chars, ' ', n);
	memset(f->roles, UI_R_NORMAL, n);
	f->cursor_y = f->cursor_x = -1;
}

void
view_canvas_free(struct view_canvas *f)
{
	free(f->chars);
	free(f->roles);
	memset(f, 0, sizeof *f);
}

int
view_put(struct view_canvas *f, int y, int x, const char *s, int max, int role)
{
	size_t	 off;
	int	 n = 0;

	if (y < 0 || y >= f->height || s == NULL)
		return (x);
	while (*s != '\0' && (max < 0 || n < max)) {
		if (x >= f->width)
			break;
		if (x >= 0) {
			off = (size_t)y * (size_t)f->width + (size_t)x;
			f->chars[off] = *s >= 0x20 && *s < 0x7f ? *s : '?';
			f->roles[off] = (uint8_t)role;
		}
		s++;
		x++;
		n++;
	}
	return (x);
}

/*
 * Put s from x to the canvas's right edge; text that does not fit ends in
 * '~' in the last column, so a cut line says it was cut.
 */
int
view_put_cut(struct view_canvas *f, int y, int x, const char *s, int role)
{
	int	 room = f->width - x;

	if (s == NULL || room <= 0)
		return (x);
	if ((int)strnlen(s, (size_t)room + 1) <= room)
		return (view_put(f, y, x, s, -1, role));
	x = view_put(f, y, x, s, room - 1, role);
	return (view_put(f, y, x, "~", 1, role));
}

int
view_putf(struct view_canvas *f, int y, int x, int role, const char *fmt, ...)
{
	va_list	 ap;
	char	 buf[1024];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return (view_put(f, y, x, buf, -1, role));
}

void
view_role(struct view_canvas *f, int y, int x, int n, int role)
{
	if (y < 0 || y >= f->height)
		return;
	if (x < 0)
		x = 0;
	if (n < 0 || x + n > f->width)
		n = f->width - x;
	if (n > 0)
		memset(f->roles + (size_t)y * (size_t)f->width + (size_t)x,
		    role, (size_t)n);
}

char
view_spark_ascii(char c)
{
	static const char ramp[] = "?_.:-=+*#";

	if (c < '1' || c > '8')
		return (' ');
	return (ramp[c - '0']);
}

/* A cell's character on a terminal without UTF-8, or in a text dump. */
static char
view_cell_ascii(int role, char c)
{
	if (role == UI_R_SPARK)
		return (view_spark_ascii(c));
	if (role == UI_R_BRAILLE)
		return (chart_cell_ascii(CHART_BRAILLE, (unsigned char)c));
	return (c);
}

void
view_canvas_ascii(struct view_canvas *f)
{
	size_t	 i, n = (size_t)f->width * (size_t)f->height;

	for (i = 0; i < n; i++)
		f->chars[i] = view_cell_ascii(f->roles[i], f->chars[i]);
}

char *
view_canvas_text(const struct view_canvas *f)
{
	char	*out, *p;
	size_t	 off;
	int	 y, x, end;

	out = xmalloc((size_t)(f->width + 1) * (size_t)f->height + 1);
	p = out;
	for (y = 0; y < f->height; y++) {
		off = (size_t)y * (size_t)f->width;
		for (end = f->width; end > 0 && f->chars[off + end - 1] == ' ' &&
		    f->roles[off + end - 1] != UI_R_BRAILLE; end--)
			;
		for (x = 0; x < end; x++)
			*p++ = view_cell_ascii(f->roles[off + x],
			    f->chars[off + x]);
		*p++ = '\n';
	}
	*p = '\0';
	return (out);
}

void
view_elide(const char *name, int width, char *buf, size_t len)
{
	size_t	 n = strlen(name), head, tail;

	if (width < 1 || len < 2) {
		if (len > 0)
			buf[0] = '\0';
		return;
	}
	if ((size_t)width > len - 1)
		width = (int)(len - 1);
	if (n <= (size_t)width) {
		memcpy(buf, name, n + 1);
		return;
	}
	if (width < 4) {
		memcpy(buf, name, (size_t)width);
		buf[width] = '\0';
		return;
	}
	/* Keep more of the end: catalog names differ there. */
	tail = (size_t)(width - 1) / 2 + (size_t)(width - 1) % 2;
	head = (size_t)width - 1 - tail;
	memcpy(buf, name, head);
	buf[head] = '~';
	memcpy(buf + head + 1, name + n - tail, tail);
	buf[width] = '\0';
}

void
view_spark(struct view_canvas *f, int y, int x, int width, const double *v,
    size_t n)
{
	double	 lo = INFINITY, hi = -INFINITY;
	size_t	 i, start;
	char	 buf[2] = { 0, 0 };
	int	 lvl;

	start = n > (size_t)width ? n - (size_t)width : 0;
	for (i = start; i < n; i++) {
		if (isnan(v[i]))
			continue;
		if (v[i] < lo)
			lo = v[i];
		if (v[i] > hi)
			hi = v[i];
	}
	for (i = start; i < n; i++) {
		if (isnan(v[i])) {
			x = view_put(f, y, x, " ", 1, UI_R_SPARK);
			continue;
		}
		lvl = !chart_flat(lo, hi) ? 1 + (int)((v[i] - lo) /
		    (hi - lo) * 7.0 + 0.5) : 4;
		if (lvl < 1)
			lvl = 1;
		if (lvl > 8)
			lvl = 8;
		buf[0] = (char)('0' + lvl);
		x = view_put(f, y, x, buf, 1, UI_R_SPARK);
	}
}

/* ---- header -------------------------------------------------------- */

/* The screens, in the order of their tabs (enum ui_screen). */
static const struct view_screen *const view_screens[UI_NSCREENS] = {
	[UI_LIVE] = &view_live_screen,
	[UI_LPAR] = &view_lpar_screen,
	[UI_FRAME] = &view_frame_screen,
	[UI_EVENTS] = &view_events_screen,
	[UI_GROUPS] = &view_groups_screen,
	[UI_FORMULAS] = &view_formulas_screen,
	[UI_HELP] = &view_help_screen,
};

/*
 * "  2026-01-01T10:32:05Z": when the sample shown was recorded, to the
 * millisecond when samples were taken less than a second apart.
 */
static int
view_wall(const struct ui *ui, struct view_canvas *f, int y, int x,
    uint64_t ns)
{
	struct strbuf	 sb = { 0 };

	strbuf_adds(&sb, "  ");
	strbuf_addtime(&sb, ns, ui->snap != NULL && ui->snap->elapsed > 0 &&
	    ui->snap->elapsed < 1.0);
	x = view_put(f, y, x, sb.s, -1, UI_R_NORMAL);
	strbuf_free(&sb);
	return (x);
}

/*
 * The first line: the state that changes what the numbers mean comes
 * first and is never cut (SIMULATED or REPLAY, PAUSED or END, REC while
 * recording or REC FAILED once a write of it failed), then who and where; what does not fit is shortened from the
 * least telling part: "hvtop VERSION on", then the host, then whole parts
 * from the middle of the source's label, whose "(no hv_24x7 PMU here)"
 * stays whole.
 */
/*
 * Fit a label into w cells at its boundaries: whole ", "-separated parts
 * drop from its middle, the first and the last kept longest, marked
 * " ~ "; else it is cut after a whole word.  Never inside a name.
 */
static void
view_header_cut(const char *s, int w, char *buf, size_t len)
{
	const char	*p[16], *q;
	size_t		 n = 0, k, i, head, tail;

	for (q = s; n < 16; q += 2) {
		p[n++] = q;
		if ((q = strstr(q, ", ")) == NULL)
			break;
	}
	p[n] = s + strlen(s);
	/* Drop k parts, from part i on; keep part 0 and the last. */
	for (k = 1; n < 16 && k + 1 < n; k++) {
		for (i = 1; i + k < n; i++) {
			head = (size_t)(p[i] - s) - 2;
			tail = strlen(p[i + k]);
			if (head + 3 + tail > (size_t)w)
				continue;
			snprintf(buf, len, "%.*s ~ %s", (int)head, s, p[i + k]);
			return;
		}
	}
	for (i = (size_t)w - 1; i > 0 && s[i] != ' '; i--)
		;
	while (i > 0 && (s[i - 1] == ',' || s[i - 1] == ' '))
		i--;
	if (i == 0)
		i = w > 1 ? (size_t)w - 1 : 0;
	snprintf(buf, len, "%.*s~", (int)i, s);
}

static void
view_header_state(const struct ui *ui, struct view_canvas *f)
{
	static const char	 nopmu[] = " (no hv_24x7 PMU here)";
	const char		*label = session_label(ui->ses);
	char			 who[160], body[512], cut[512];
	size_t			 n, tail = 0;
	int			 x = 0, room;

	view_role(f, 0, 0, -1, UI_R_HEADER);
	if (ui->replay)
		x = view_put(f, 0, x, " REPLAY ", -1, UI_R_SIM) + 1;
	else if (ui->simulated)
		x = view_put(f, 0, x, " SIMULATED ", -1, UI_R_SIM) + 1;
	if (ui->replay_end)
		x = view_put(f, 0, x, " END ", -1, UI_R_SIM) + 1;
	else if (ui->paused)
		x = view_put(f, 0, x, " PAUSED ", -1, UI_R_SIM) + 1;
	if (session_record_failed(ui->ses))
		x = view_put(f, 0, x, " REC FAILED ", -1, UI_R_ERROR) + 1;
	else if (session_recording(ui->ses))
		x = view_put(f, 0, x, " REC ", -1, UI_R_ERROR) + 1;
	if (label == NULL)
		label = "";
	/* The badge says it: the label need not say it again. */
	if (ui->simulated && !ui->replay &&
	    strncmp(label, "SIMULATED ", 10) == 0)
		label += 10;
	room = f->width - x;
	n = strlen(label);
	if (n >= sizeof nopmu - 1 &&
	    strcmp(label + n - (sizeof nopmu - 1), nopmu) == 0)
		tail = sizeof nopmu - 1;
	snprintf(who, sizeof who, "hvtop %s on %s  ", PACKAGE_VERSION,
	    ui->host);
	if ((int)(strlen(who) + n) > room)
		snprintf(who, sizeof who, "%s  ", ui->host);
	if ((int)(strlen(who) + n) > room)
		who[0] = '\0';
	x = view_put(f, 0, x, who, -1, UI_R_HEADER);
	room = f->width - x;
	if ((int)n <= room || room <= (int)tail + 4) {
		view_put(f, 0, x, label, -1, UI_R_HEADER);
		return;
	}
	snprintf(body, sizeof body, "%.*s", (int)(n - tail), label);
	view_header_cut(body, room - (int)tail, cut, sizeof cut);
	x = view_put(f, 0, x, cut, -1, UI_R_HEADER);
	view_put(f, 0, x, label + n - tail, -1, UI_R_HEADER);
}

/*
 * The second line: catalog and topology, the hcall interface last and
 * whole: at 80 columns the words "frame" and "hcall" go first.
 */
static void
view_header_frame(const struct ui *ui, struct view_canvas *f)
{
	const struct topology	*t = session_topology(ui->ses);
	const char		*label = session_catalog_label(ui->ses);
	char			 topo[160];
	int			 wide;

	if (t->interface == 0) {
		/* Another PMU: CPUs, no frame or hypervisor behind them. */
		view_putf(f, 1, 0, UI_R_NORMAL, "%s  %u cpu%s counted",
		    label, t->vcpus, t->vcpus == 1 ? "" : "s");
		return;
	}
	snprintf(topo, sizeof topo, "%u socket%s, %u chip%s, %u core%s, "
	    "SMT%u", t->sockets, t->sockets == 1 ? "" : "s", t->chips,
	    t->chips == 1 ? "" : "s", t->cores, t->cores == 1 ? "" : "s",
	    t->smt);
	wide = (int)(strlen(label) + strlen(topo) +
	    sizeof "  frame   hcall interface 99") <= f->width;
	view_putf(f, 1, 0, UI_R_NORMAL, "%s  %s%s  %s %d", label,
	    wide ? "frame " : "", topo, wide ? "hcall interface" :
	    "interface", t->interface);
}

/* The third line: the interval, the sample's age and what it cost. */
static void
view_header_interval(const struct ui *ui, struct view_canvas *f, int y)
{
	const struct topology	*t = session_topology(ui->ses);
	int			 x, wide;

	/* 80 columns take the short labels; wider screens spell out. */
	wide = f->width >= 100;
	x = view_putf(f, y, 0, UI_R_NORMAL, "interval %.2fs", ui->interval);
	if (ui->replay) {
		x = view_putf(f, y, x, UI_R_NORMAL, "  sample %llu/%llu "
		    "at %.3gx", (unsigned long long)ui->replay_pos,
		    (unsigned long long)ui->replay_total, ui->replay_speed);
		if (ui->snap != NULL)
			x = view_wall(ui, f, y, x, ui->replay_wall);
	}
	if (ui->snap != NULL)
		x = view_putf(f, y, x, UI_R_NORMAL, "  age %.1fs  %s "
		    "%u%s (naive %u)", ui->age, session_calls_word(ui->ses),
		    ui->snap->calls, wide ? "/refresh" : "",
		    ui->snap->naive_calls);
	else
		x = view_put(f, y, x, wide ? "  waiting for the first "
		    "interval" : "  waiting", -1, UI_R_DIM);
	x = view_putf(f, y, x, UI_R_NORMAL, "  %s %.1f%%", wide ?
	    "hvtop CPU" : "CPU", ui->cpu_pct);
	if (t->interface != 0) {
		x = view_put(f, y, x, wide ? "  physical domains: " :
		    "  phys: ", -1, UI_R_NORMAL);
		x = view_put(f, y, x, t->privileged ? "allowed" : "DENIED",
		    -1, t->privileged ? UI_R_GOOD : UI_R_ERROR);
	}
	/* Beside a replay's position too, where the screen is wide enough. */
	if (ui->replay && ui->replay_end)
		view_put(f, y, x + 2, " END ", -1, UI_R_SIM);
	else if (ui->replay && ui->paused)
		view_put(f, y, x + 2, " PAUSED ", -1, UI_R_SIM);
}

int
view_header_lines(int height)
{
	return (height < VIEW_COMPACT_HEIGHT ? 3 : VIEW_HEADER_LINES);
}

/*
 * The header and the tabs.  A short terminal keeps the rows for the
 * tables: the first line, the interval's (or the last error in its
 * place) and the tabs.
 */
int
view_header(const struct ui *ui, struct view_canvas *f)
{
	int			 x, y, i, compact;
	size_t			 shown = 0, total = 0;

	compact = f->height < VIEW_COMPACT_HEIGHT;
	view_header_state(ui, f);
	if (!compact) {
		view_header_frame(ui, f);
		view_header_interval(ui, f, 2);
	}
	if (ui->snap != NULL && ui->snap->error[0] != '\0') {
		y = compact ? 1 : 3;
		x = view_put(f, y, 0, "last error: ", -1, UI_R_ERROR);
		view_put(f, y, x, ui->snap->error, -1, UI_R_ERROR);
	} else if (compact)
		view_header_interval(ui, f, 1);
	y = view_header_lines(f->height) - 1;

	/* Tabs, then where the filter stands. */
	view_role(f, y, 0, -1, UI_R_TAB);
	x = 0;
	for (i = 0; i < UI_NSCREENS; i++) {
		/* Partitions has a tab while partitions are read. */
		if (i == UI_LPAR && !lpar_shown(ui))
			continue;
		x = view_putf(f, y, x, ui->screen == (enum ui_screen)i ?
		    UI_R_TAB_ON : UI_R_TAB, " %s ", view_screens[i]->name);
		x = view_put(f, y, x, " ", 1, UI_R_TAB);
	}
	if (ui->filter_error != NULL) {
		/* What is wrong, then the filter that stays in force. */
		x = view_put(f, y, x + 1, "filter: ", -1, UI_R_TAB);
		x = view_put(f, y, x, ui->filter_error, -1, UI_R_ERROR);
		x = view_put(f, y, x, "  kept: ", -1, UI_R_TAB);
		view_put_cut(f, y, x, ui->filter_text != NULL &&
		    ui->filter_text[0] != '\0' ? ui->filter_text : "none",
		    UI_R_TAB_ON);
	} else if (ui->filter_text != NULL && ui->filter_text[0] != '\0') {
		if (ui->screen >= UI_EVENTS && ui->screen <= UI_FORMULAS) {
			shown = ui->items[ui->screen].nshown;
			total = ui->items[ui->screen].n;
			x = view_putf(f, y, x + 1, UI_R_TAB, "(%zu/%zu) ",
			    shown, total);
		}
		x = view_put(f, y, x + 1, "filter: ", -1, UI_R_TAB);
		view_put(f, y, x, ui->filter_text, -1, UI_R_TAB_ON);
	}
	return (y + 1);
}

/* ---- bottom lines -------------------------------------------------- */

/* The function bar: the key table's entries for this screen and mode. */
static void
view_keys(const struct ui *ui, struct view_canvas *f, int y)
{
	const struct keys_entry	*bar[32], *e;
	unsigned		 where = keys_where(ui);
	size_t			 n = 0, i, j;
	int			 x = 0;

	for (i = 0; i < keys_count && n < sizeof bar / sizeof bar[0]; i++) {
		e = &keys_table[i];
		if (e->bar == 0 || (!keys_applies(e->bar_where, where) &&
		    !keys_applies(e->bar_also, where)))
			continue;
		for (j = n++; j > 0 && bar[j - 1]->bar > e->bar; j--)
			bar[j] = bar[j - 1];
		bar[j] = e;
	}
	view_role(f, y, 0, -1, UI_R_BAR);
	for (i = 0; i < n; i++) {
		x = view_put(f, y, x, bar[i]->bar_key, -1, UI_R_KEY);
		x = view_put(f, y, x, bar[i]->bar_label, -1, UI_R_BAR);
		/* Room for every item at 80 columns, air when wider. */
		x += f->width >= 100 ? 2 : 1;
	}
}

static void
view_prompt(const struct ui *ui, struct view_canvas *f, int y)
{
	const char	*text = ui->prompt_text != NULL ? ui->prompt_text : "";
	int		 x, avail, skip = 0;

	view_role(f, y, 0, -1, UI_R_PROMPT);
	x = view_put(f, y, 0, ui->prompt_label, -1, UI_R_PROMPT);
	avail = f->width - x - 1;
	if (avail < 1)
		avail = 1;
	/* Scroll the line so the cursor stays visible. */
	if (ui->prompt_point > avail)
		skip = ui->prompt_point - avail;
	if ((size_t)skip > strlen(text))
		skip = (int)strlen(text);
	view_put(f, y, x, text + skip, avail, UI_R_PROMPT);
	f->cursor_y = y;
	f->cursor_x = x + ui->prompt_point - skip;
	if (f->cursor_x >= f->width)
		f->cursor_x = f->width - 1;
}

int
view_detail_height(const struct ui *ui, int rows)
{
	int	 n;

	if (!ui->detail)
		return (0);
	/* The catalog's details are the point of those screens: on a
	 * small terminal the list keeps only a few rows around the cursor. */
	/* Live's pane holds a chart and a few columns where there is room. */
	if (ui->screen == UI_LIVE)
		n = rows >= 16 ? rows / 2 + 2 : rows * 2 / 5;
	else
		n = rows < 30 ? rows - 5 : rows / 2;
	if (n < 5)
		n = rows > 8 ? 5 : 0;
	return (n);
}

void
view_fit(struct ui *ui, int width, int height)
{
	const struct view_screen	*scr = view_screens[ui->screen];

	/* The Live table, which the Frame screen's cursor also goes to. */
	if (ui->live.stale)
		live_layout(ui);
	if (width < VIEW_MIN_WIDTH || height < VIEW_MIN_HEIGHT)
		return;
	if (scr->fit != NULL)
		scr->fit(ui, width, view_header_lines(height), height - 2);
}

void
view_render(const struct ui *ui, struct view_canvas *f)
{
	const struct view_screen	*scr = view_screens[ui->screen];
	char				*status = NULL;
	int				 y0, y1;

	view_canvas_resize(f, f->width, f->height);
	if (f->width < VIEW_MIN_WIDTH || f->height < VIEW_MIN_HEIGHT) {
		/* Short lines: they must fit the smallest terminal. */
		view_put(f, 0, 0, "terminal too small", -1, UI_R_ERROR);
		view_putf(f, 1, 0, UI_R_NORMAL, "%dx%d, needs %dx%d",
		    f->width, f->height, VIEW_MIN_WIDTH, VIEW_MIN_HEIGHT);
		view_put(f, 2, 0, "q quits", -1, UI_R_NORMAL);
		if (ui->simulated)
			view_put(f, 3, 0, " SIMULATED ", -1, UI_R_SIM);
		return;
	}
	y0 = view_header(ui, f);
	y1 = f->height - 2;
	scr->render(ui, f, y0, y1);
	if (scr->status != NULL)
		status = scr->status(ui);
	if (ui->prompt && ui->prompt_hint[0] != '\0')
		view_put_cut(f, y1, 0, ui->prompt_hint, UI_R_DIM);
	else if (ui->msg[0] != '\0')
		view_put_cut(f, y1, 0, ui->msg, ui->msg_role);
	else if (status != NULL)
		view_put_cut(f, y1, 0, status, UI_R_DIM);
	free(status);
	if (ui->prompt)
		view_prompt(ui, f, f->height - 1);
	else
		view_keys(ui, f, f->height - 1);
}
