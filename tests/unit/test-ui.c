/*
 * Unit tests for the curses-free part of the terminal interface: canvases
 * rendered as text from a hand-made source (a golden canvas), the live
 * table's columns, sorting, history and explanations, the catalog lists
 * and their filter, and every screen of the simulated frame at 80x24 and
 * 200x60.  No terminal is needed.
 *
 * HVTOP_UPDATE_GOLDEN=1 rewrites the golden canvas instead of comparing.
 */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "model/selection.h"
#include "session/session.h"
#include "source/source.h"
#include "ui/ui-model.h"
#include "ui/view.h"
#include "sys/file.h"
#include "filter/filter.h"
#include "util/xalloc.h"

#include "fixture.h"
#include "fixture-ui.h"

#define GOLDEN	"tests/data/ui/live-100x30.txt"

/* ---- a hand-made frame --------------------------------------------- */

/*
 * Counter k reads 1000 (k + 1) + n^2 (k + 1) 1e6 (1 + k % 3) at the n-th
 * sample; the sixth sample fails counter 1.
 */
static void
fake_fill(struct raw_sample *rs, unsigned n)
{
	uint64_t	 sq = (uint64_t)n * n;
	size_t		 k;

	for (k = 0; k < rs->nvalues; k++) {
		rs->values[k].value = 1000 * (k + 1) + sq * (k + 1) *
		    1000000 * (1 + k % 3);
		rs->values[k].status = n == 5 && k == 1 ? RAW_FAILED :
		    RAW_OK;
	}
	rs->calls = 1;
	rs->naive_calls = 9;
}

struct fixture {
	struct session		*ses;
	struct ui		 ui;
};

/* Sample and show what the interface would. */
static void
fixture_sample(struct session *ses, struct ui *ui)
{
	struct session_result	 res;
	struct engine_snapshot	*s;
	char			*cause = NULL;

	assert_int_equal(session_sample(ses, &res, &cause), 0);
	assert_int_equal(res.changed, 0);
	s = res.snap;
	if (s->seq == 0) {
		engine_snapshot_free(s);
		return;
	}
	engine_snapshot_free(ui->snap);
	ui->snap = s;
	live_push(ui, s);
	live_layout(ui);
}

static int
fixture_setup(void **state)
{
	static char		 g0[] = "HPM_0THRD_NON_IDLE_CCYC:0-1";
	static char		 g1[] = "HPM_32MHZ_CYC:2";
	static char		*groups[] = { g0, g1 };
	struct session_opts	 so;
	struct fixture		*fx;
	struct source		*src;
	size_t			 i;
	char			*cause = NULL, *path;
	unsigned		 step;

	/* No metric file of the user's. */
	setenv("XDG_CONFIG_HOME", "/nonexistent", 1);
	fx = xcalloc(1, sizeof *fx);
	path = fixture_path(FIXTURE_P8);
	src = fake_source_new(path, "test frame: 1 chip x 4 cores", fake_fill);
	free(path);
	memset(&so, 0, sizeof so);
	so.src = src;
	so.interval = 1;
	so.groups = groups;
	so.ngroups = 2;
	assert_int_equal(session_open(&fx->ses, &so, &cause), 0);
	assert_int_equal(session_start(fx->ses, &cause), 0);

	fx->ui.ses = fx->ses;
	fx->ui.interval = 1;
	fx->ui.cpu_pct = 0.5;
	fx->ui.age = 0.2;
	fx->ui.simulated = 1;
	snprintf(fx->ui.host, sizeof fx->ui.host, "testhost");
	for (i = 0; i < UI_NSCREENS; i++)
		fx->ui.list[i].sort = -1;
	live_reset(&fx->ui);
	view_catalog_items_build(&fx->ui);
	for (step = 0; step < 6; step++)
		fixture_sample(fx->ses, &fx->ui);
	*state = fx;
	return (0);
}

static int
fixture_teardown(void **state)
{
	struct fixture	*fx = *state;
	size_t		 i;
	char		*cause = NULL;

	engine_snapshot_free(fx->ui.snap);
	live_free(&fx->ui.live);
	frame_free(&fx->ui.fr);
	view_catalog_items_free(&fx->ui);
	filter_free(fx->ui.filter);
	for (i = 0; i < fx->ui.nhidden; i++)
		free(fx->ui.hidden[i]);
	free(fx->ui.hidden);
	assert_int_equal(session_close(fx->ses, &cause), 0);
	free(fx);
	return (0);
}

static void
set_filter(struct ui *ui, const char *text)
{
	char	*cause = NULL;

	filter_free(ui->filter);
	ui->filter = NULL;
	assert_int_equal(filter_parse(text, &ui->filter, &cause), 0);
	live_layout(ui);
	view_catalog_items_layout(ui, UI_EVENTS);
	view_catalog_items_layout(ui, UI_GROUPS);
	view_catalog_items_layout(ui, UI_FORMULAS);
}

static void
test_golden(void **state)
{
	struct fixture	*fx = *state;
	char		*text, *path, *cause = NULL;
	void		*want;
	size_t		 len;

	/* The cursor on the first event column, past hvtop's metrics
	 * (hvtop_busy, hvtop_ipc), so that the chart has a line to draw. */
	fx->ui.live.v[0].col = 2;
	fx->ui.detail = 1;
	text = fixture_ui_render(&fx->ui, 100, 30);
	fx->ui.detail = 0;
	fx->ui.live.v[0].col = 0;
	path = fixture_path(GOLDEN);
	if (getenv("HVTOP_UPDATE_GOLDEN") != NULL)
		assert_int_equal(file_write(path, text, strlen(text), 0,
		    &cause), 0);
	assert_int_equal(file_read(path, 1 << 20, &want, &len, &cause), 0);
	if (strcmp(text, want) != 0)
		print_message("got:\n%s\nwant:\n%s\n", text, (char *)want);
	assert_string_equal(text, want);
	free(want);
	free(path);
	free(text);
}

static void
test_live_table(void **state)
{
	struct fixture		*fx = *state;
	const struct engine_view *v = engine_view(session_engine(fx->ses), 0);
	struct ui		*ui = &fx->ui;
	double			 hist[LIVE_HIST];
	size_t			 view, row, n;
	char			*text, *s;

	assert_int_equal(ui->live.nv, 1);
	assert_int_equal(ui->live.v[0].nrows, 3);
	/* Two picks share the core table: each row names its group. */
	assert_int_equal(ui->live.v[0].npicks, 2);
	assert_string_equal(ui->live.v[0].rowpicks[0],
	    "HPM_0THRD_NON_IDLE_CCYC");
	assert_string_equal(ui->live.v[0].rowpicks[2], "HPM_32MHZ_CYC");
	text = fixture_ui_render(ui, 80, 24);
	assert_non_null(strstr(text, " SIMULATED "));
	assert_non_null(strstr(text, "cores: HPM_0THRD_NON_IDLE_CCYC on 0-1; "
	    "HPM_32MHZ_CYC on 2"));
	assert_non_null(strstr(text, "total"));
	free(text);

	/* History: five intervals, the last failed for counter 1. */
	assert_int_equal(live_cursor(ui, &view, &row), 0);
	assert_int_equal(row, 0);
	n = live_history(ui, 0, 0, 1, hist, LIVE_HIST);
	assert_int_equal(n, 5);
	assert_true(isnan(hist[4]));
	assert_false(isnan(hist[3]));

	/* The status line explains the cursor cell. */
	ui->live.v[0].col = 1;
	s = view_live_status(ui);
	assert_non_null(strstr(s, "core 0 (HPM_0THRD_NON_IDLE_CCYC)"));
	assert_non_null(strstr(s, "failed"));
	free(s);
	/* A cell no pick covers says so. */
	live_move(ui, 2);
	assert_int_equal(live_cursor(ui, &view, &row), 0);
	assert_int_equal(v->indices[row], 2);
	ui->live.v[0].col = 0;
	s = view_live_status(ui);
	assert_non_null(strstr(s, "not picked on core 2"));
	free(s);
	live_move(ui, -5);
	ui->live.v[0].col = 0;
}

static void
test_live_sort_hide_filter(void **state)
{
	struct fixture		*fx = *state;
	struct ui		*ui = &fx->ui;
	struct live_view	*lv = &ui->live.v[0];
	const struct engine_view *v = engine_view(session_engine(fx->ses), 0);
	size_t			 ncols = lv->ncols;

	/* Sort by the first event column: rows with a value first.  A
	 * step asks for a layout, which the fit step makes. */
	live_sort_step(ui, 1);
	assert_true(ui->live.stale);
	live_layout(ui);
	assert_false(ui->live.stale);
	assert_int_equal(lv->sort, (int)lv->cols[0]);
	assert_int_equal(v->indices[lv->order[2]], 2);
	live_sort_step(ui, -1);
	live_layout(ui);
	assert_int_equal(lv->sort, -1);
	assert_int_equal(lv->order[0], 0);
	ui->live.sortrev[v->domain] = 1;
	live_layout(ui);
	assert_int_equal(v->indices[lv->order[0]], 2);
	ui->live.sortrev[v->domain] = 0;
	live_layout(ui);

	/* Hidden columns and the filter take columns away. */
	ui->hidden = xcalloc(1, sizeof *ui->hidden);
	ui->hidden[0] = xstrdup(live_col_name(ui, 0, 0));
	ui->nhidden = 1;
	live_layout(ui);
	assert_int_equal(lv->ncols, ncols - 1);
	set_filter(ui, "32mhz");
	assert_int_equal(lv->ncols, 1);
	set_filter(ui, "group:hpm_32mhz !32mhz");
	assert_int_equal(lv->ncols, 1);
	set_filter(ui, "nosuchthing");
	assert_int_equal(ui->live.nlines, 0);
	set_filter(ui, "");
	free(ui->hidden[0]);
	ui->nhidden = 0;
	live_layout(ui);
	assert_int_equal(lv->ncols, ncols);
}

static void
test_items(void **state)
{
	struct fixture	*fx = *state;
	struct ui	*ui = &fx->ui;
	size_t		 all = ui->items[UI_EVENTS].nshown, hidden = 0, i;
	char		*text;

	for (i = 0; i < ui->items[UI_EVENTS].n; i++)
		if (ui->items[UI_EVENTS].v[i].flags & FILTER_FLAG_HIDDEN)
			hidden++;
	/* Entries the kernel would not list stay out until asked for. */
	assert_int_equal(all + hidden, ui->items[UI_EVENTS].n);
	set_filter(ui, "flag:picked");
	assert_int_equal(ui->items[UI_GROUPS].nshown, 2);
	assert_true(ui->items[UI_EVENTS].nshown >= 4);
	set_filter(ui, "re:^hpm_[0-3]thrd_non_idle_ccyc$");
	assert_int_equal(ui->items[UI_EVENTS].nshown, 4);
	set_filter(ui, "re:^hpm_[0-3]thrd_non_idle_ccyc$ !name:0thrd");
	assert_int_equal(ui->items[UI_EVENTS].nshown, 3);
	set_filter(ui, "");

	/* Sort by name, reversed. */
	ui->list[UI_GROUPS].sort = 0;
	ui->list[UI_GROUPS].reverse = 1;
	view_catalog_items_layout(ui, UI_GROUPS);
	assert_true(strcmp(ui->items[UI_GROUPS].v[ui->items[UI_GROUPS]
	    .shown[0]].name, ui->items[UI_GROUPS].v[ui->items[UI_GROUPS]
	    .shown[1]].name) > 0);
	ui->screen = UI_GROUPS;
	ui->detail = 1;
	text = fixture_ui_render(ui, 80, 24);
	assert_non_null(strstr(text, "NAME"));
	assert_non_null(strstr(text, "details"));
	free(text);
	ui->list[UI_GROUPS].sort = -1;
	ui->list[UI_GROUPS].reverse = 0;
	view_catalog_items_layout(ui, UI_GROUPS);
	ui->detail = 0;
	ui->screen = UI_LIVE;
}

static void
test_elide_spark(void **state)
{
	struct view_canvas	 f;
	const double		 v[] = { 1, 2, NAN, 4, 8 };
	char			 buf[32], *text;

	(void)state;
	view_elide("PM_MCS01_128B_RD_DISP_PORT23", 12, buf, sizeof buf);
	assert_string_equal(buf, "PM_MC~PORT23");
	view_elide("SHORT", 12, buf, sizeof buf);
	assert_string_equal(buf, "SHORT");
	view_elide("ABCDEFG", 3, buf, sizeof buf);
	assert_string_equal(buf, "ABC");
	memset(&f, 0, sizeof f);
	view_canvas_resize(&f, 10, 1);
	view_spark(&f, 0, 0, 8, v, 5);
	text = view_canvas_text(&f);
	assert_string_equal(text, "_. -#\n");
	free(text);
	/* Non-printable bytes never reach the terminal. */
	view_put(&f, 0, 0, "a\tb\x80", -1, UI_R_NORMAL);
	text = view_canvas_text(&f);
	assert_string_equal(text, "a?b?#\n");
	free(text);
	view_canvas_free(&f);
}

/* ---- the simulated frame ------------------------------------------- */

static void
test_sim_screens(void **state)
{
	static const int sizes[][2] = { { 80, 24 }, { 200, 60 }, { 30, 8 } };
	struct session_opts	 so;
	struct session		*ses;
	struct ui		 ui;
	char			*cat, *args, *text, *cause = NULL, *line, *nl;
	size_t			 i, j, k;
	int			 sc;

	(void)state;
	cat = fixture_path(FIXTURE_P8);
	args = xasprintf("clock=virtual,interface=1,seed=3,catalog=%s", cat);
	memset(&so, 0, sizeof so);
	assert_int_equal(source_open("sim", args, "/nonexistent", &so.src,
	    &cause), 0);
	so.virtual_clock = 1;
	so.interval = 1;
	assert_int_equal(session_open(&ses, &so, &cause), 0);
	assert_int_equal(session_start(ses, &cause), 0);
	memset(&ui, 0, sizeof ui);
	ui.ses = ses;
	ui.interval = 1;
	ui.simulated = 1;
	for (i = 0; i < UI_NSCREENS; i++)
		ui.list[i].sort = -1;
	live_reset(&ui);
	view_catalog_items_build(&ui);
	for (i = 0; i < 3; i++) {
		session_sleep_until(ses, i * 1000000000ULL, -1);
		fixture_sample(ses, &ui);
	}
	for (sc = 0; sc < UI_NSCREENS; sc++) {
		ui.screen = sc;
		ui.back = UI_LIVE;
		for (j = 0; j < sizeof sizes / sizeof sizes[0]; j++) {
			text = fixture_ui_render(&ui, sizes[j][0], sizes[j][1]);
			/* The simulated frame is named on every screen. */
			assert_non_null(strstr(text, "SIMULATED"));
			k = 0;
			for (line = text; *line != '\0'; line = nl + 1) {
				nl = strchr(line, '\n');
				assert_true(nl - line <= sizes[j][0]);
				k++;
			}
			assert_int_equal(k, sizes[j][1]);
			if (sizes[j][0] >= 200 && sc == UI_LIVE)
				assert_non_null(strstr(text, "total"));
			if (sizes[j][0] >= 80 && sc == UI_HELP)
				assert_non_null(strstr(text, "Live columns"));
			if (sizes[j][0] >= 80)
				assert_non_null(strstr(text, "catalog v3"));
			free(text);
		}
	}
	engine_snapshot_free(ui.snap);
	live_free(&ui.live);
	frame_free(&ui.fr);
	view_catalog_items_free(&ui);
	assert_int_equal(session_close(ses, &cause), 0);
	free(args);
	free(cat);
}

/*
 * The Frame screen on the hand-made frame (1 chip, 4 cores; cores 0-2
 * read, core 3 not): the chip, its four cells, the legend; shading
 * without colours; the cursor walks chip and cores and Enter's row is
 * the core's row of the Live table; m takes names read, and only those.
 */
static void
test_frame_screen(void **state)
{
	struct fixture		*fx = *state;
	struct ui		*ui = &fx->ui;
	const struct engine_view *v;
	size_t			 view, row, n, i;
	char			*text, **names, why[160];
	int			 found = 0;

	ui->screen = UI_FRAME;
	ui->fr.core = -1;
	ui->fr.colors = 0;
	text = fixture_ui_render(ui, 80, 24);
	assert_non_null(strstr(text, " Frame "));
	assert_non_null(strstr(text, "chip 0"));
	/* No core reads both of hvtop_busy's groups: the first core column
	 * Live shows that a core reads, per core, and the scale. */
	assert_non_null(strstr(text, "hvtop_ipc per core"));
	assert_non_null(strstr(text, "cold 0 .,:-=+*#%@ "));
	assert_non_null(strstr(text, "chip 0: 4 cores"));
	free(text);

	/* Right: core 0, read; Enter's row is core 0's. */
	frame_move(ui, 1, 0);
	assert_int_equal(ui->fr.core, 0);
	assert_int_equal(frame_live_row(ui, &view, &row, why, sizeof why), 0);
	assert_int_equal(live_goto(ui, view, row), 0);
	assert_int_equal(live_cursor(ui, &view, &row), 0);
	v = engine_view(session_engine(fx->ses), view);
	assert_int_equal(v->indices[row], 0);
	text = fixture_ui_render(ui, 80, 24);
	assert_non_null(strstr(text, "core 0 (chip 0): hvtop_ipc = "));
	free(text);
	/* Core 2 is read by the other group; core 3 by none. */
	frame_move(ui, 1, 0);
	frame_move(ui, 1, 0);
	assert_int_equal(frame_live_row(ui, &view, &row, why, sizeof why), 0);
	assert_int_equal(v->indices[row], 2);
	frame_move(ui, 1, 0);
	assert_int_equal(ui->fr.core, 3);
	assert_int_equal(frame_live_row(ui, &view, &row, why, sizeof why),
	    -1);
	assert_non_null(strstr(why, "core 3 is not read"));
	/* The end of the frame holds; Left goes back to the chip. */
	frame_move(ui, 1, 0);
	assert_int_equal(ui->fr.core, 3);
	for (i = 0; i < 6; i++)
		frame_move(ui, -1, 0);
	assert_int_equal(ui->fr.core, -1);
	frame_move(ui, 0, 5);
	assert_int_equal(ui->fr.chip, 0);

	/* m: the names read, any case; nothing else. */
	names = frame_metric_names(ui, &n);
	for (i = 0; i < n; i++) {
		if (strcmp(names[i], "HPM_32MHZ_CYC") == 0)
			found = 1;
		free(names[i]);
	}
	free(names);
	assert_true(found);
	assert_int_equal(frame_set_metric(ui, "hpm_32mhz_cyc"), 0);
	text = fixture_ui_render(ui, 80, 24);
	assert_non_null(strstr(text, "HPM_32MHZ_CYC /s per core"));
	free(text);
	assert_int_equal(frame_set_metric(ui, "PM_NOT_READ"), -1);
	assert_int_equal(frame_set_metric(ui, ""), 0);
	assert_null(ui->fr.metric);

	/* Tiny and odd sizes draw without writing outside the canvas. */
	free(fixture_ui_render(ui, 20, 5));
	free(fixture_ui_render(ui, 40, 10));
	free(fixture_ui_render(ui, 41, 11));
	free(fixture_ui_render(ui, 300, 100));
	ui->screen = UI_LIVE;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_golden),
		cmocka_unit_test(test_live_table),
		cmocka_unit_test(test_live_sort_hide_filter),
		cmocka_unit_test(test_items),
		cmocka_unit_test(test_elide_spark),
		cmocka_unit_test(test_frame_screen),
		cmocka_unit_test(test_sim_screens),
	};

	return (cmocka_run_group_tests_name("ui", tests, fixture_setup,
	    fixture_teardown));
}
