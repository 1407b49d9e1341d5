/*
 * Unit tests for src/export/report.c: the series a report keeps (gaps
 * where a value is missing, charts that go on across a new engine), the
 * summary's min, mean, p95 and max, and a page in which hostile names
 * stay text: escaped for HTML and for the JSON inside a <script>.
 * Engines are made on the fixture catalog with samples made by hand.
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
#include "export/report.h"
#include "model/raw.h"
#include "model/selection.h"
#include "fixture.h"
#include "test-hcall-fixture.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define TB_HZ	FIXTURE_TB_HZ

static const struct engine_metric_def defs[] = {
	{ .name = "PB_CYC_RATE", .text = "PM_PB_CYC / delta-seconds",
	    .unit = "/s", .desc = "", .origin = "test" },
};

struct fixture {
	struct tfix		 fx;
	struct topology		 topo;
	struct selection	 sel[2];
	struct engine		*e[2];
	struct raw_sample	 rs;
	uint64_t		 now;
	uint64_t		 count[2];	/* even and odd counters */
};

static int
setup(void **state)
{
	struct fixture	*f;
	char		*cause = NULL;

	f = xcalloc(1, sizeof *f);
	tfix_build(&f->fx, 1, 1, 0);
	fixture_topology(&f->topo, 2);
	f->topo.privileged = 1;
	/* The second selection adds a core group to the first. */
	if (selection_add(&f->sel[0], f->fx.cat, &f->topo, "CHIP_GROUP_0", 0,
	    &cause) != 0 || selection_add(&f->sel[1], f->fx.cat, &f->topo,
	    "CHIP_GROUP_0", 0, &cause) != 0 || selection_add(&f->sel[1],
	    f->fx.cat, &f->topo, "CORE_GROUP_0:1", 0, &cause) != 0)
		fail_msg("%s", cause);
	f->e[0] = engine_new(f->fx.cat, &f->sel[0], TB_HZ, defs,
	    sizeof defs / sizeof defs[0], NULL, NULL);
	f->e[1] = engine_new(f->fx.cat, &f->sel[1], TB_HZ, defs,
	    sizeof defs / sizeof defs[0], NULL, NULL);
	*state = f;
	return (0);
}

static int
teardown(void **state)
{
	struct fixture	*f = *state;

	engine_free(f->e[0]);
	engine_free(f->e[1]);
	selection_clear(&f->sel[0]);
	selection_clear(&f->sel[1]);
	free(f->rs.values);
	tfix_free(&f->fx);
	free(f);
	return (0);
}

/*
 * One sample of engine i, 1 s after the last: even counters grew by b0,
 * odd ones by b1 (their rates).  failed: counter 0 failed to read.
 */
static struct engine_snapshot *
sample(struct fixture *f, size_t i, uint64_t b0, uint64_t b1, int failed)
{
	size_t	 k;

	f->count[0] += b0;
	f->count[1] += b1;
	f->now += 1000000000ULL;
	free(f->rs.values);
	f->rs.nvalues = f->sel[i].ncounters;
	f->rs.values = xcalloc(f->rs.nvalues + 1, sizeof *f->rs.values);
	f->rs.now = f->now;
	f->rs.catalog_version = f->fx.cat->version;
	for (k = 0; k < f->rs.nvalues; k++) {
		f->rs.values[k].value = f->count[k % 2];
		f->rs.values[k].timebase = f->now / 1000 * 512;
		f->rs.values[k].status = k == 0 && failed ? RAW_FAILED :
		    RAW_OK;
	}
	return (engine_update(f->e[i], &f->rs));
}

static void
add(struct fixture *f, struct report *r, size_t i, uint64_t b0, uint64_t b1,
    int failed)
{
	struct engine_snapshot	*s = sample(f, i, b0, b1, failed);

	report_add(r, s, f->now + 1700000000000000000ULL);
	engine_snapshot_free(s);
}

static size_t
chart_named(const struct report *r, const char *name)
{
	size_t	 c;

	for (c = 0; c < report_ncharts(r); c++)
		if (strcmp(report_chart_name(r, c), name) == 0)
			return (c);
	fail_msg("no chart %s", name);
	return (0);
}

static size_t
line_labelled(const struct report *r, size_t c, const char *label)
{
	size_t	 l;

	for (l = 0; l < report_nlines(r, c); l++)
		if (strcmp(report_line_label(r, c, l), label) == 0)
			return (l);
	fail_msg("no line %s", label);
	return (0);
}

static const struct report_info info = {
	"run.hvr", "SIMULATED", "2 chips", "fixture v7", "0.0"
};

/* Rates per chip, a gap where a read failed, the summary over them. */
static void
test_series(void **state)
{
	struct fixture		*f = *state;
	struct report		*r;
	struct report_stats	 st;
	size_t			 c, l;
	uint64_t		 b;

	r = report_new(&info);
	report_bind(r, f->e[0], &f->sel[0]);
	add(f, r, 0, 100, 7, 0);	/* the baseline: nothing */
	assert_int_equal(report_nsamples(r), 0);
	/* Rates 100 .. 4200 on even counters; the third read fails. */
	for (b = 1; b <= 42; b++)
		add(f, r, 0, 100 * b, 7, b == 3);
	assert_int_equal(report_nsamples(r), 42);
	/* Counter 0 is chip 0's first event: an event rate chart. */
	c = chart_named(r, "PM_PB_CYC");
	assert_string_equal(report_chart_unit(r, c), "/s");
	assert_int_equal(report_nlines(r, c), 3);
	l = line_labelled(r, c, "chip 0");
	report_stats(r, c, l, &st);
	/* The failed read; the next covers both seconds from the last
	 * good read: (300 + 400) / 2. */
	assert_int_equal(st.missing, 1);
	assert_int_equal(st.n, 41);
	assert_true(st.min == 100);
	assert_true(st.max == 4200);
	assert_true(fabs(st.mean - (90300.0 - 700 + 350) / 41) < 1e-9);
	/* Rank ceil(0.95 * 41) = 39 of 100, 200, 350, 500 ... 4200. */
	assert_true(st.p95 == 4000);
	l = line_labelled(r, c, "total");
	report_stats(r, c, l, &st);
	assert_true(st.n > 0);
	report_free(r);
}

/* A new engine: its columns join the charts they share, in place. */
static void
test_rebind(void **state)
{
	struct fixture		*f = *state;
	struct report		*r;
	struct report_stats	 st;
	size_t			 c, before;

	r = report_new(&info);
	report_bind(r, f->e[0], &f->sel[0]);
	add(f, r, 0, 10, 10, 0);
	add(f, r, 0, 10, 10, 0);
	add(f, r, 0, 10, 10, 0);
	before = report_ncharts(r);
	report_bind(r, f->e[1], &f->sel[1]);
	add(f, r, 1, 10, 10, 0);
	add(f, r, 1, 10, 10, 0);
	add(f, r, 1, 10, 10, 0);
	assert_int_equal(report_nsamples(r), 4);
	assert_true(report_ncharts(r) > before);
	/* The chip chart went on: one gap, the new engine's baseline. */
	c = chart_named(r, "PM_PB_CYC");
	report_stats(r, c, line_labelled(r, c, "chip 1"), &st);
	assert_int_equal(st.n, 4);
	assert_int_equal(st.missing, 0);
	/* The core chart started with the new engine. */
	c = chart_named(r, "HPM_INST");
	report_stats(r, c, line_labelled(r, c, "core 1"), &st);
	assert_int_equal(st.n, 2);
	assert_int_equal(st.missing, 2);
	assert_true(st.mean == 10);
	report_free(r);
}

/* Names that try to end the script or the page stay text. */
static void
test_escape(void **state)
{
	struct fixture		*f = *state;
	struct report_info	 hostile = info;
	struct report		*r;
	struct strbuf		 sb = { 0 };
	const char		*lib = "var Dygraph=function(){};\n"
	    "//# sourceMappingURL=dygraph.min.js.map\n";
	char			*cause = NULL, *data, *end;

	hostile.recording = "</script><script>alert(1)</script>";
	hostile.catalog = "a & b <!-- \"q\" \xe2\x80\xa8";
	r = report_new(&hostile);
	report_bind(r, f->e[0], &f->sel[0]);
	add(f, r, 0, 10, 10, 0);
	add(f, r, 0, 10, 10, 1);
	assert_int_equal(report_html(r, lib, strlen(lib), "", 0, &sb,
	    &cause), 0);
	assert_null(strstr(sb.s, "<script>alert"));
	assert_non_null(strstr(sb.s, "&lt;/script&gt;&lt;script&gt;"));
	assert_non_null(strstr(sb.s, "a &amp; b &lt;!-- &quot;q&quot;"));
	/* The map comment points at a file the page does not have. */
	assert_null(strstr(sb.s, "sourceMappingURL"));
	/* One chart box per chart, the data with a null for the gap. */
	data = strstr(sb.s, "id=\"hvtop-data\">");
	assert_non_null(data);
	end = strstr(data, "</script>");
	assert_non_null(end);
	*end = '\0';
	assert_null(strchr(data + 16, '<'));
	assert_non_null(strstr(data, "[null]"));
	assert_non_null(strstr(data, "\"name\":\"PM_PB_CYC\""));
	strbuf_free(&sb);

	/* A library that would end its element is refused. */
	assert_int_equal(report_html(r, "x='</SCRIPT>'", 13, "", 0, &sb,
	    &cause), -4001);
	assert_non_null(strstr(cause, "</script"));
	free(cause);
	cause = NULL;
	assert_int_equal(report_html(r, "", 0, "a{}</style>", 11, &sb,
	    &cause), -4001);
	free(cause);
	strbuf_free(&sb);
	report_free(r);
}

/* Metrics lead the page; the table's numbers are the screens'. */
static void
test_order(void **state)
{
	struct fixture		*f = *state;
	struct report		*r;
	struct strbuf		 sb = { 0 };
	char			*cause = NULL, *metric, *event, *cell;
	uint64_t		 b;

	r = report_new(&info);
	report_bind(r, f->e[0], &f->sel[0]);
	add(f, r, 0, 10, 10, 0);
	for (b = 1; b <= 3; b++)
		add(f, r, 0, 1772721964, 7, 0);
	assert_int_equal(report_html(r, "", 0, "", 0, &sb, &cause), 0);
	metric = strstr(sb.s, "data-kind=\"metric\" data-name=\"PB_CYC_RATE\"");
	event = strstr(sb.s, "data-kind=\"event\" data-name=\"PM_PB_CYC\"");
	assert_non_null(metric);
	assert_non_null(event);
	assert_true(metric < event);
	assert_true(strstr(sb.s, "<h2 id=\"metrics\">") <
	    strstr(sb.s, "<h2 id=\"counters\">"));
	/*
	 * A rate of 1772721964/s on each of two chips, 3545443928/s in
	 * all: as the text screen's column, in M/s ("1773"), every digit on
	 * hover.
	 */
	cell = strstr(sb.s, "title=\"1772721964\">1773</td>");
	assert_non_null(cell);
	assert_non_null(strstr(sb.s, "<td data-unit=\"/s\">M/s</td>"));
	assert_non_null(strstr(sb.s, "title=\"3545443928\">3545</td>"));
	assert_true(strstr(sb.s, "PB_CYC_RATE</td>") <
	    strstr(sb.s, "PM_PB_CYC</td>"));
	strbuf_free(&sb);
	report_free(r);
}

/* A recording not read to its end: the page says so first, in text. */
static void
test_incomplete(void **state)
{
	struct fixture		*f = *state;
	struct report		*r;
	struct strbuf		 sb = { 0 };
	char			*cause = NULL, *banner, *about;

	r = report_new(&info);
	report_bind(r, f->e[0], &f->sel[0]);
	add(f, r, 0, 10, 10, 0);
	add(f, r, 0, 10, 10, 0);
	assert_int_equal(report_html(r, "", 0, "", 0, &sb, &cause), 0);
	assert_null(strstr(sb.s, "id=\"incomplete\""));
	strbuf_free(&sb);

	report_incomplete(r, 0, "run.hvr: offset 4096: <cut> & gone");
	assert_int_equal(report_html(r, "", 0, "", 0, &sb, &cause), 0);
	banner = strstr(sb.s, "id=\"incomplete\"");
	about = strstr(sb.s, "class=\"about\"");
	assert_non_null(banner);
	assert_non_null(about);
	assert_true(banner < about);
	assert_non_null(strstr(sb.s, "(incomplete)</title>"));
	assert_non_null(strstr(sb.s, "ends before its writer closed it"));
	assert_non_null(strstr(sb.s, "last interval is number 1, at "));
	assert_non_null(strstr(sb.s,
	    "<li>run.hvr: offset 4096: &lt;cut&gt; &amp; gone</li>"));
	strbuf_free(&sb);

	report_incomplete(r, 1, "stopped");
	assert_int_equal(report_html(r, "", 0, "", 0, &sb, &cause), 0);
	assert_non_null(strstr(sb.s, "Parts of the file could not be read"));
	strbuf_free(&sb);
	report_free(r);
}

/*
 * Partitions: an @lpar pick made by hand as the selection lays one out
 * (partition 1 with vcpus 0 and 1, partition 3 with vcpu 0; the four
 * placements; cycles and instructions).  A vcpu's cycles grow by
 * cyc[lpar][place] a second, its instructions by 200 in each place.
 */
static void
test_lpar(void **state)
{
	static const struct {
		uint16_t	 lpar;
		unsigned	 vcpu;
	} units[] = { { 1, 0 }, { 1, 1 }, { 3, 0 } };
	static const uint64_t cyc[2][SEL_NPLACES] = {
		{ 700, 100, 100, 100 },		/* partition 1 */
		{ 400, 100, 200, 300 },		/* partition 3 */
	};
	struct fixture		*f = *state;
	struct selection	 sel;
	struct sel_pick		*pk;
	struct sel_counter	*c;
	struct engine		*e;
	struct engine_snapshot	*s;
	struct report		*r;
	struct report_stats	 st;
	struct strbuf		 sb = { 0 };
	char			*cause = NULL;
	size_t			 u, p, j, k, n, ch, i;
	uint64_t		 t;

	memset(&sel, 0, sizeof sel);
	sel.picks = xcalloc(1, sizeof *sel.picks);
	sel.npicks = 1;
	pk = &sel.picks[0];
	pk->kind = SEL_EVENT;
	pk->spec = xstrdup("HPM_CCYC@lpar");
	pk->name = xstrdup("HPM_CCYC");
	pk->domain = SEL_DOMAIN_LPAR;
	pk->lpar = SEL_LPAR_SELF;
	pk->places = 0xf;
	pk->nevents = 2;
	pk->events = xcalloc(2, sizeof *pk->events);
	pk->events[0] = catalog_find_event(f->fx.cat, "HPM_CCYC", 0);
	pk->events[1] = catalog_find_event(f->fx.cat, "HPM_INST", 0);
	assert_non_null(pk->events[0]);
	assert_non_null(pk->events[1]);
	n = 3 * SEL_NPLACES * 2;
	sel.counters = xcalloc(n, sizeof *sel.counters);
	for (u = 0, k = 0; u < 3; u++) {
		for (p = 0; p < SEL_NPLACES; p++) {
			for (j = 0; j < 2; j++, k++) {
				c = &sel.counters[k];
				c->event = pk->events[j];
				c->domain = 3 + (int)p;
				c->index = units[u].vcpu;
				c->lpar = units[u].lpar;
				c->pick = 0;
				c->column = j;
			}
		}
	}
	sel.ncounters = n;
	e = engine_new(f->fx.cat, &sel, TB_HZ, NULL, 0, NULL, NULL);
	r = report_new(&info);
	report_bind(r, e, &sel);
	f->rs.values = xcalloc(n + 1, sizeof *f->rs.values);
	f->rs.nvalues = n;
	for (t = 1; t <= 4; t++) {
		f->now += 1000000000ULL;
		f->rs.now = f->now;
		for (u = 0, k = 0; u < 3; u++) {
			for (p = 0; p < SEL_NPLACES; p++) {
				for (j = 0; j < 2; j++, k++) {
					f->rs.values[k].value = t * (j == 0 ?
					    cyc[units[u].lpar == 3][p] : 200);
					f->rs.values[k].timebase = f->now /
					    1000 * 512;
					f->rs.values[k].status = RAW_OK;
				}
			}
		}
		s = engine_update(e, &f->rs);
		report_add(r, s, f->now + 1700000000000000000ULL);
		engine_snapshot_free(s);
	}
	assert_int_equal(report_nsamples(r), 3);

	ch = chart_named(r, "cycles of the partition");
	assert_string_equal(report_chart_unit(r, ch), "/s");
	report_stats(r, ch, line_labelled(r, ch, "lpar 1"), &st);
	assert_int_equal(st.n, 3);
	assert_true(fabs(st.mean - 2000) < 1e-6);
	report_stats(r, ch, line_labelled(r, ch, "lpar 3"), &st);
	assert_true(fabs(st.mean - 1000) < 1e-6);
	report_stats(r, ch, line_labelled(r, ch, "total"), &st);
	assert_true(fabs(st.mean - 3000) < 1e-6);
	ch = chart_named(r, "instructions per cycle");
	report_stats(r, ch, line_labelled(r, ch, "lpar 1"), &st);
	assert_true(fabs(st.mean - 0.8) < 1e-9);
	ch = chart_named(r, "cycles off the home chip");
	assert_string_equal(report_chart_unit(r, ch), "%");
	report_stats(r, ch, line_labelled(r, ch, "lpar 1"), &st);
	assert_true(fabs(st.mean - 20) < 1e-9);
	report_stats(r, ch, line_labelled(r, ch, "lpar 3"), &st);
	assert_true(fabs(st.mean - 50) < 1e-9);
	ch = chart_named(r, "cycles on a remote node");
	report_stats(r, ch, line_labelled(r, ch, "lpar 1"), &st);
	assert_true(fabs(st.mean - 10) < 1e-9);
	report_stats(r, ch, line_labelled(r, ch, "lpar 3"), &st);
	assert_true(fabs(st.mean - 30) < 1e-9);
	/* The frame: (200 + 200 + 500) / 3000 off the home chip. */
	report_stats(r, chart_named(r, "cycles off the home chip"),
	    line_labelled(r, chart_named(r, "cycles off the home chip"),
	    "total"), &st);
	assert_true(fabs(st.mean - 30) < 1e-9);
	/* No chart draws the virtual processors. */
	for (ch = 0; ch < report_ncharts(r); ch++) {
		for (i = 0; i < report_nlines(r, ch); i++)
			assert_null(strstr(report_line_label(r, ch, i),
			    "vcpu"));
	}
	/* The partition charts lead the page. */
	assert_int_equal(report_html(r, "", 0, "", 0, &sb, &cause), 0);
	assert_non_null(strstr(sb.s, "data-name=\"cycles of the partition\""));
	assert_true(strstr(sb.s, "data-name=\"cycles of the partition\"") <
	    strstr(sb.s, "data-name=\"cycles on a remote node\""));
	assert_true(strstr(sb.s, "data-name=\"cycles on a remote node\"") <
	    strstr(sb.s, "data-name=\"HPM_CCYC\""));
	strbuf_free(&sb);
	report_free(r);
	engine_free(e);
	selection_clear(&sel);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_series, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rebind, setup, teardown),
		cmocka_unit_test_setup_teardown(test_escape, setup, teardown),
		cmocka_unit_test_setup_teardown(test_incomplete, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_lpar, setup, teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
