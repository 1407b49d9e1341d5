/*
 * Benchmark: the terminal interface's per-refresh and per-keystroke work,
 * without a terminal.  Prints "NAME VALUE UNIT" lines, each the median of
 * many runs:
 *
 *	ui.render.live.200x60	render a full 200x60 Live screen (the
 *				power9 overview on a 16-chip, 192-core
 *				simulated frame, after 40 refreshes, sorted,
 *				with the detail pane) into a canvas of text
 *	ui.render.live.200x60.chart
 *				the same after a full history (LIVE_HIST
 *				refreshes), the detail pane's chart in
 *				braille, the sparkline column (S) shown
 *	ui.render.events.200x60	the same for the Events screen
 *	ui.render.frame.200x60	the same for the Frame screen: 16 chip boxes
 *				with bars and history, 192 core cells
 *	ui.render.frame.80x24	... at 80x24 (the layout without bars)
 *	ui.render.lpar.200x60	the same for the Partitions screen of a
 *				simulated frame of 1,000 partitions (999
 *				rows: partition 0 answers itself alone), of
 *				2 virtual processors each read in the four
 *				placements, sorted by % remote
 *	ui.filter.100k		filter 100,000 catalog entries with a
 *				three-term filter (substring, negated domain,
 *				regex), as on every keystroke in the filter bar
 *	ui.filter.100k.words	... with two words ("memory bandwidth")
 *	ui.filter.100k.regex	... with a simple regex (the fast path)
 *	ui.filter.100k.group	... with a regex that needs regexec()
 *	ui.filter.parse		compile the three-term filter text
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/engine.h"
#include "session/session.h"
#include "source/source.h"
#include "tests/bench/bench.h"
#include "ui/chart.h"
#include "ui/ui-model.h"
#include "ui/view.h"
#include "filter/filter.h"
#include "util/xalloc.h"

#define RUNS		200
#define NITEMS		100000

static double
now_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (ts.tv_sec * 1e3 + ts.tv_nsec / 1e6);
}

static double
bench_render_size(struct ui *ui, enum ui_screen screen, int w, int h)
{
	static double		 t[RUNS];
	struct view_canvas	 f;
	double			 t0;
	int			 i, runs = (int)bench_iters(RUNS);

	memset(&f, 0, sizeof f);
	ui->screen = screen;
	for (i = 0; i < runs; i++) {
		f.width = w;
		f.height = h;
		t0 = now_ms();
		view_fit(ui, f.width, f.height);
		view_render(ui, &f);
		t[i] = now_ms() - t0;
	}
	view_canvas_free(&f);
	ui->screen = UI_LIVE;
	return (bench_median(t, (size_t)runs));
}

static double
bench_render(struct ui *ui, enum ui_screen screen)
{
	return (bench_render_size(ui, screen, 200, 60));
}

/* Refreshes from the n-th to the m-th interval into the model. */
static int
bench_sample(struct session *ses, struct ui *ui, size_t n, size_t m)
{
	struct session_result	 res;
	struct engine_snapshot	*s;
	char			*cause = NULL;

	for (; n < m; n++) {
		session_sleep_until(ses, n * 1000000000ULL, -1);
		if (session_sample(ses, &res, &cause) != 0) {
			fprintf(stderr, "bench-ui: %s\n", cause);
			return (-1);
		}
		s = res.snap;
		if (s->seq == 0) {
			engine_snapshot_free(s);
			continue;
		}
		engine_snapshot_free(ui->snap);
		ui->snap = s;
		live_push(ui, s);
		live_layout(ui);
	}
	return (0);
}

/* One filter text over the entries: the median time of a layout. */
static double
bench_filter(struct ui *ui, const char *text)
{
	static double	 t[RUNS];
	struct filter	*flt;
	char		*cause = NULL;
	double		 t0;
	int		 i, runs = (int)bench_iters(RUNS);

	for (i = 0; i < runs; i++) {
		if (filter_parse(text, &flt, &cause) != 0)
			exit(1);
		ui->filter = flt;
		t0 = now_ms();
		view_catalog_items_layout(ui, UI_EVENTS);
		t[i] = now_ms() - t0;
		ui->filter = NULL;
		filter_free(flt);
	}
	return (bench_median(t, (size_t)runs));
}

/*
 * The Partitions screen of a frame of 1,000 partitions: its own session,
 * which reads a core group by partition.  Prints the figure; -1 when
 * the session cannot be had.
 */
static int
bench_lpar(void)
{
	static char		 args[] = "clock=virtual,lpars=1000,vcpus=2,"
	    "seed=9,catalog=" UI_BENCH_CATALOG;
	static char		 pick[] = "CPM_32MHZ_CYC@lpar";
	static char *const	 groups[] = { pick };
	struct session_opts	 so;
	struct session		*ses;
	struct ui		 ui;
	char			*cause = NULL;
	size_t			 i;

	memset(&so, 0, sizeof so);
	so.virtual_clock = 1;
	so.interval = 1;
	so.groups = groups;
	so.ngroups = 1;
	if (source_open("sim", args, "/nonexistent", &so.src, &cause) != 0 ||
	    session_open(&ses, &so, &cause) != 0 ||
	    session_start(ses, &cause) != 0) {
		fprintf(stderr, "bench-ui: %s\n", cause);
		free(cause);
		return (-1);
	}
	memset(&ui, 0, sizeof ui);
	ui.ses = ses;
	ui.interval = 1;
	ui.simulated = 1;
	snprintf(ui.host, sizeof ui.host, "bench");
	for (i = 0; i < UI_NSCREENS; i++)
		ui.list[i].sort = -1;
	live_reset(&ui);
	if (bench_sample(ses, &ui, 0, 3) != 0)
		return (-1);
	ui.lp.sort = LPAR_C_REMOTE;
	printf("ui.render.lpar.200x60 %.3f ms\n", bench_render(&ui,
	    UI_LPAR));
	fprintf(stderr, "bench-ui: the Partitions screen lists %zu "
	    "partitions\n", ui.lp.nrows);
	engine_snapshot_free(ui.snap);
	live_free(&ui.live);
	lpar_free(&ui.lp);
	session_close(ses, &cause);
	free(cause);
	return (0);
}

/* 100,000 synthetic entries shaped like catalog events. */
static void
bench_items(struct ui *ui, struct ui_items *save)
{
	static const char *const words[] = { "cyc", "inst", "l2_miss",
	    "mem_rd", "mem_wr", "pb_int", "disp", "cmpl", "l3_hit", "xlink" };
	static const char *const doms[] = { "chip", "core", "vcpu_home_core" };
	struct ui_items	*it = &ui->items[UI_EVENTS];
	size_t		 i;

	*save = *it;
	it->n = NITEMS;
	it->v = xcalloc(NITEMS, sizeof *it->v);
	it->shown = xcalloc(NITEMS, sizeof *it->shown);
	for (i = 0; i < NITEMS; i++) {
		it->v[i].index = i;
		it->v[i].lname = xasprintf("pm_%s_%s_%05zu", words[i % 10],
		    words[(i / 10) % 10], i);
		it->v[i].name = it->v[i].lname;
		it->v[i].ldesc = xasprintf("count of %s events on the %s "
		    "while %s is set, for bandwidth and latency studies",
		    words[(i / 7) % 10], doms[i % 3], words[(i / 3) % 10]);
		it->v[i].domain = doms[i % 3];
		filter_sig_add(it->v[i].name_sig, it->v[i].lname);
		filter_sig_add(it->v[i].desc_sig, it->v[i].ldesc);
	}
}

static void
bench_items_free(struct ui *ui, struct ui_items *save)
{
	struct ui_items	*it = &ui->items[UI_EVENTS];
	size_t		 i;

	for (i = 0; i < it->n; i++) {
		free(it->v[i].lname);
		free(it->v[i].ldesc);
	}
	free(it->v);
	free(it->shown);
	*it = *save;
}

int
main(void)
{
	static char		 sim_args[] =
	    "clock=virtual,sockets=4,chips_per_socket=4,cores=12,seed=9,"
	    "catalog=" UI_BENCH_CATALOG;
	static const char	 text[] = "mem !domain:core re:_0[0-4]";
	static double		 t[RUNS], p[RUNS];
	struct session_opts	 so;
	struct session		*ses;
	struct ui		 ui;
	struct ui_items		 save;
	struct filter		*flt;
	char			*cause = NULL;
	double			 t0;
	size_t			 i, runs = bench_iters(RUNS);

	memset(&so, 0, sizeof so);
	so.virtual_clock = 1;
	so.interval = 1;
	if (source_open("sim", sim_args, "/nonexistent", &so.src,
	    &cause) != 0 || session_open(&ses, &so, &cause) != 0 ||
	    session_start(ses, &cause) != 0) {
		fprintf(stderr, "bench-ui: %s\n", cause);
		return (1);
	}
	memset(&ui, 0, sizeof ui);
	ui.ses = ses;
	ui.interval = 1;
	ui.simulated = 1;
	snprintf(ui.host, sizeof ui.host, "bench");
	for (i = 0; i < UI_NSCREENS; i++)
		ui.list[i].sort = -1;
	live_reset(&ui);
	view_catalog_items_build(&ui);
	if (bench_sample(ses, &ui, 0, 40) != 0)
		return (1);
	/* Sorted by a value column, with the detail pane, as in use. */
	live_sort_step(&ui, 1);
	ui.detail = 1;
	printf("ui.render.live.200x60 %.3f ms\n", bench_render(&ui, UI_LIVE));
	if (bench_sample(ses, &ui, 40, 40 + LIVE_HIST) != 0)
		return (1);
	ui.chart = CHART_BRAILLE;
	ui.sparkcol = 1;
	printf("ui.render.live.200x60.chart %.3f ms\n",
	    bench_render(&ui, UI_LIVE));
	ui.sparkcol = 0;
	ui.detail = 0;
	printf("ui.render.events.200x60 %.3f ms\n",
	    bench_render(&ui, UI_EVENTS));
	ui.fr.core = 40;
	printf("ui.render.frame.200x60 %.3f ms\n",
	    bench_render(&ui, UI_FRAME));
	printf("ui.render.frame.80x24 %.3f ms\n",
	    bench_render_size(&ui, UI_FRAME, 80, 24));
	if (bench_lpar() != 0)
		return (1);

	bench_items(&ui, &save);
	for (i = 0; i < runs; i++) {
		t0 = now_ms();
		if (filter_parse(text, &flt, &cause) != 0)
			return (1);
		p[i] = now_ms() - t0;
		ui.filter = flt;
		t0 = now_ms();
		view_catalog_items_layout(&ui, UI_EVENTS);
		t[i] = now_ms() - t0;
		ui.filter = NULL;
		filter_free(flt);
	}
	printf("ui.filter.100k %.3f ms\n", bench_median(t, runs));
	printf("ui.filter.100k.words %.3f ms\n", bench_filter(&ui,
	    "memory bandwidth"));
	printf("ui.filter.100k.regex %.3f ms\n", bench_filter(&ui,
	    "re:^pm_mem_.*_0[0-4]"));
	printf("ui.filter.100k.group %.3f ms\n", bench_filter(&ui,
	    "re:^pm_mem_(rd|wr)_cyc"));
	printf("ui.filter.parse %.4f ms\n", bench_median(p, runs));
	fprintf(stderr, "bench-ui: %zu of %d entries match \"%s\"\n",
	    ui.items[UI_EVENTS].nshown, NITEMS, text);
	bench_items_free(&ui, &save);

	engine_snapshot_free(ui.snap);
	live_free(&ui.live);
	frame_free(&ui.fr);
	view_catalog_items_free(&ui);
	session_close(ses, &cause);
	return (0);
}
