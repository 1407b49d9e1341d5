/*
 * Unit tests for counts the kernel multiplexed: the perf source's group
 * read (source_perf_scale(), fed the words read(2) returns) scales them
 * interval by interval and marks them RAW_SCALED with the share counted;
 * a group that did not run has no value.  Then the same values through
 * the engine and every export format: an estimate keeps its value and
 * says so ("estimated: counted 62 % of the interval"), in the cell, its
 * total and the metrics that use it.  Last, a real software counter
 * (never multiplexed) comes back as a plain RAW_OK, or the test says why
 * it cannot count here.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "model/selection.h"
#include "export/export.h"
#include "export/om.h"
#include "pmu/pmu.h"
#include "source/source-perf.h"
#include "util/hverr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include "harness.h"

/* One group read: nr, time_enabled, time_running, counts. */
static unsigned
group_read(struct source_perf_scale *sc, uint64_t enabled, uint64_t running,
    const uint64_t *counts, size_t n, struct raw_value *values)
{
	static const size_t	 members[4] = { 0, 1, 2, 3 };
	uint64_t		 w[3 + 4];

	assert_true(n <= 4);
	w[0] = n;
	w[1] = enabled;
	w[2] = running;
	memcpy(w + 3, counts, n * sizeof *counts);
	return (source_perf_scale(sc, w, 3 + n, members, values));
}

static void
test_scale_not_multiplexed(void **state)
{
	struct source_perf_scale sc;
	struct raw_value	 v[2];
	uint64_t		 c[2];

	(void)state;
	source_perf_scale_init(&sc, 2);
	c[0] = 10;
	c[1] = 20;
	assert_int_equal(group_read(&sc, 1000, 1000, c, 2, v), 100);
	assert_int_equal(v[0].status, RAW_OK);
	assert_true(v[0].value == 10 && v[1].value == 20);
	assert_int_equal(v[0].counted, 0);
	/* The count itself is handed on, whatever it does. */
	c[0] = 15;
	c[1] = 5;			/* backwards: the engine discards it */
	assert_int_equal(group_read(&sc, 2000, 2000, c, 2, v), 100);
	assert_true(v[0].value == 15 && v[1].value == 5);
	assert_int_equal(v[1].status, RAW_OK);
	source_perf_scale_clear(&sc);
}

static void
test_scale_multiplexed(void **state)
{
	struct source_perf_scale sc;
	struct raw_value	 v[1];
	uint64_t		 c[1], last;

	(void)state;
	source_perf_scale_init(&sc, 1);
	/* First read: half the time since the group was enabled. */
	c[0] = 100;
	assert_int_equal(group_read(&sc, 1000, 500, c, 1, v), 50);
	assert_int_equal(v[0].status, RAW_SCALED);
	assert_int_equal(v[0].counted, 50);
	assert_true(v[0].value == 200);
	/* Then interval by interval: 250 of 1000 ns counted 50 events. */
	c[0] = 150;
	assert_int_equal(group_read(&sc, 2000, 750, c, 1, v), 25);
	assert_int_equal(v[0].status, RAW_SCALED);
	assert_int_equal(v[0].counted, 25);
	assert_true(v[0].value == 200 + 200);
	/* A whole interval counted: no estimate, the delta as it is. */
	c[0] = 250;
	assert_int_equal(group_read(&sc, 3000, 1750, c, 1, v), 100);
	assert_int_equal(v[0].status, RAW_OK);
	assert_int_equal(v[0].counted, 0);
	assert_true(v[0].value == 400 + 100);
	/* A share is never shown as 0 % or 100 % when it is neither. */
	c[0] = 251;
	assert_int_equal(group_read(&sc, 103000, 1751, c, 1, v), 1);
	assert_int_equal(v[0].counted, 1);
	c[0] = 260;
	assert_int_equal(group_read(&sc, 113000, 11750, c, 1, v), 99);
	assert_int_equal(v[0].counted, 99);
	assert_int_equal(v[0].status, RAW_SCALED);
	/* A count that went backwards stays backwards, scaled. */
	last = v[0].value;
	c[0] = 250;
	assert_int_equal(group_read(&sc, 114000, 12250, c, 1, v), 50);
	assert_true(v[0].value == last - 20);
	source_perf_scale_clear(&sc);
}

/* time_running 0: no value, and nothing is made up for it. */
static void
test_scale_not_running(void **state)
{
	struct source_perf_scale sc;
	struct raw_value	 v[2];
	uint64_t		 c[2] = { 0, 0 };

	(void)state;
	source_perf_scale_init(&sc, 2);
	/* Read as soon as it was enabled: no time at all yet. */
	assert_int_equal(group_read(&sc, 0, 0, c, 2, v), 0);
	assert_int_equal(v[0].status, RAW_MISSING);
	assert_int_equal(group_read(&sc, 1000, 0, c, 2, v), 0);
	assert_int_equal(v[0].status, RAW_MISSING);
	assert_int_equal(v[1].status, RAW_MISSING);
	assert_false(sc.started);
	c[0] = 40;
	assert_int_equal(group_read(&sc, 2000, 400, c, 2, v), 20);
	assert_int_equal(v[0].status, RAW_SCALED);
	assert_true(v[0].value == 200);
	/* Running before, but not in this interval. */
	assert_int_equal(group_read(&sc, 3000, 400, c, 2, v), 0);
	assert_int_equal(v[0].status, RAW_MISSING);
	assert_true(v[0].value == 0);
	/* The next interval counts from there. */
	c[0] = 140;
	assert_int_equal(group_read(&sc, 4000, 1400, c, 2, v), 100);
	assert_int_equal(v[0].status, RAW_OK);
	assert_true(v[0].value == 300);
	source_perf_scale_clear(&sc);
}

/* A read shorter than the group leaves the rest without a value. */
static void
test_scale_short(void **state)
{
	static const size_t	 members[2] = { 1, 0 };
	struct source_perf_scale sc;
	struct raw_value	 v[2];
	uint64_t		 w[5] = { 1, 1000, 1000, 7, 8 };

	(void)state;
	source_perf_scale_init(&sc, 2);
	assert_int_equal(source_perf_scale(&sc, w, 5, members, v), 100);
	assert_int_equal(sc.nr, 1);
	/* Counter j goes to values[members[j]]. */
	assert_int_equal(v[1].status, RAW_OK);
	assert_true(v[1].value == 7);
	assert_int_equal(v[0].status, RAW_MISSING);
	assert_int_equal(source_perf_scale(&sc, w, 2, members, v), 0);
	assert_int_equal(sc.nr, 0);
	assert_int_equal(v[0].status, RAW_MISSING);
	assert_int_equal(v[1].status, RAW_MISSING);
	source_perf_scale_clear(&sc);
	source_perf_scale_clear(NULL);
}

/* The one rule for status bytes: estimates are values. */
static void
test_raw_reason(void **state)
{
	(void)state;
	assert_int_equal(raw_reason(RAW_OK), RAW_OK);
	assert_int_equal(raw_reason(RAW_SCALED), RAW_OK);
	assert_int_equal(raw_reason(RAW_FAILED), RAW_FAILED);
	assert_int_equal(raw_reason(RAW_DENIED), RAW_DENIED);
	assert_int_equal(raw_reason(RAW_MISSING), RAW_MISSING);
	assert_int_equal(raw_reason(RAW_BUSY), RAW_BUSY);
	assert_int_equal(raw_reason(200), RAW_FAILED);
}

/* ---- through the engine and the exports ------------------------------- */

struct fixture {
	struct listing_fx {
		struct pmu_event	 ev[2];
		struct pmu_listing	 l;
	}			 lx;
	struct catalog		*cat;
	struct topology		 topo;
	struct selection	 sel;
	struct engine		*e;
	struct source_perf_scale sc;
	struct raw_sample	 rs;
};

static void
fixture_open(struct fixture *f)
{
	static const struct engine_metric_def def = {
		"RATIO", "a / b", "", "a per b", "test", NULL, 0
	};
	char	*cause = NULL;

	memset(f, 0, sizeof *f);
	assert_int_equal(pmu_event_parse("a", "config=1", 8, &f->lx.ev[0],
	    &cause), 0);
	assert_int_equal(pmu_event_parse("b", "config=2", 8, &f->lx.ev[1],
	    &cause), 0);
	f->lx.l.name = "test";
	f->lx.l.events = f->lx.ev;
	f->lx.l.nevents = 2;
	f->cat = pmu_catalog_build(&f->lx.l, 1, PMU_CATALOG_CPU, 2);
	f->topo.sockets = 1;
	f->topo.chips = f->topo.cores = f->topo.vcpus = 1;
	f->topo.smt = 1;
	f->topo.privileged = 1;
	if (selection_add(&f->sel, f->cat, &f->topo, "test@cpu:0", 0,
	    &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(f->sel.ncounters, 2);
	f->e = engine_new(f->cat, &f->sel, 0, &def, 1, NULL, NULL);
	assert_non_null(f->e);
	source_perf_scale_init(&f->sc, 2);
	f->rs.values = xcalloc(3, sizeof *f->rs.values);
	f->rs.nvalues = 2;
}

static void
fixture_close(struct fixture *f)
{
	free(f->rs.values);
	source_perf_scale_clear(&f->sc);
	engine_free(f->e);
	selection_clear(&f->sel);
	catalog_free(f->cat);
	pmu_event_clear(&f->lx.ev[0]);
	pmu_event_clear(&f->lx.ev[1]);
}

/* One group read of a and b at second t, then the engine's snapshot. */
static struct engine_snapshot *
fixture_sample(struct fixture *f, unsigned t, uint64_t enabled,
    uint64_t running, uint64_t a, uint64_t b)
{
	static const size_t	 members[2] = { 0, 1 };
	uint64_t		 w[5];

	w[0] = 2;
	w[1] = enabled;
	w[2] = running;
	w[3] = a;
	w[4] = b;
	source_perf_scale(&f->sc, w, 5, members, f->rs.values);
	f->rs.now = (uint64_t)t * 1000000000ULL;
	return (engine_update(f->e, &f->rs));
}

static char *
render(struct fixture *f, const struct engine_snapshot *s, int format)
{
	static const struct export_info info = { "perf test", "model",
	    "group reads", NULL };
	struct export	*x;
	struct strbuf	 sb = { 0 };

	x = export_new(format, f->e, &info);
	export_begin(x, &sb);
	export_snapshot(x, s, 0, &sb);
	export_free(x);
	return (strbuf_detach(&sb));
}

static void
test_engine_estimate(void **state)
{
	struct fixture			 f;
	struct engine_snapshot		*s;
	const struct engine_cell	*c;
	char				*why, *out;

	(void)state;
	fixture_open(&f);
	s = fixture_sample(&f, 1, 1000, 1000, 100, 100);
	engine_snapshot_free(s);
	/* 62 % of the next second counted 62 a and 124 b: scaled to 100
	 * and 200. */
	s = fixture_sample(&f, 2, 2000, 1620, 162, 224);
	c = engine_cell(f.e, s, 0, 0, 0);
	assert_int_equal(c->status, ENG_OK);
	assert_true(c->estimated);
	assert_int_equal(c->counted, 62);
	assert_true(c->value == 100);
	assert_null(engine_cell_mark(c));
	why = engine_explain(f.e, s, 0, 0, 0);
	assert_string_equal(why, "estimated: counted 62 % of the interval");
	free(why);
	/* The total and the metric rest on it. */
	c = engine_cell(f.e, s, 0, 1, 0);
	assert_true(c->estimated && c->counted == 62);
	c = engine_cell(f.e, s, 0, 0, 2);
	assert_int_equal(c->status, ENG_OK);
	assert_true(c->value == 0.5);
	assert_true(c->estimated && c->counted == 62);
	assert_true(engine_cell(f.e, s, 0, 1, 2)->estimated);

	out = render(&f, s, EXPORT_CSV);
	must_contain(out, ",100,200,0.5,a: estimated: counted 62 % of the "
	    "interval; b: estimated: counted 62 % of the interval; RATIO: "
	    "estimated: counted 62 % of the interval,");
	free(out);
	out = render(&f, s, EXPORT_JSON);
	must_contain(out, "\"a\":100.0,");
	must_contain(out, "\"reasons\":{\"a\":\"estimated: counted 62 % of "
	    "the interval\"");
	free(out);
	out = render(&f, s, EXPORT_TEXT);
	must_contain(out, "~100");
	must_contain(out, "~0.50");
	must_contain(out, "\n~      a: estimated: counted 62 % of the "
	    "interval\n");
	free(out);
	engine_snapshot_free(s);

	/* The whole interval counted again: measured, no reason. */
	s = fixture_sample(&f, 3, 3000, 2620, 262, 424);
	c = engine_cell(f.e, s, 0, 0, 0);
	assert_false(c->estimated);
	assert_true(c->value == 100);
	why = engine_explain(f.e, s, 0, 0, 0);
	assert_string_equal(why, "ok");
	free(why);
	out = render(&f, s, EXPORT_JSON);
	must_contain(out, "\"reasons\":{}");
	free(out);
	out = render(&f, s, EXPORT_TEXT);
	assert_null(strchr(out, '~'));
	free(out);
	engine_snapshot_free(s);
	fixture_close(&f);
}

/* A group that did not run: no value, and the reason for it. */
static void
test_engine_not_running(void **state)
{
	struct fixture			 f;
	struct engine_snapshot		*s;
	const struct engine_cell	*c;
	char				*why, *out;

	(void)state;
	fixture_open(&f);
	s = fixture_sample(&f, 1, 1000, 1000, 100, 100);
	engine_snapshot_free(s);
	s = fixture_sample(&f, 2, 2000, 1000, 100, 100);
	c = engine_cell(f.e, s, 0, 0, 0);
	assert_int_equal(c->status, ENG_MISSING);
	assert_false(c->estimated);
	assert_string_equal(engine_cell_mark(c), "-");
	why = engine_explain(f.e, s, 0, 0, 0);
	assert_string_equal(why, "the result did not carry this counter");
	free(why);
	out = render(&f, s, EXPORT_JSON);
	must_contain(out, "\"a\":null,");
	must_contain(out, "\"a\":\"the result did not carry this counter\"");
	free(out);
	engine_snapshot_free(s);
	fixture_close(&f);
}

/* A recording keeps the status, not the share: still an estimate. */
static void
test_engine_share_unknown(void **state)
{
	struct fixture		 f;
	struct engine_snapshot	*s;
	char			*why;

	(void)state;
	fixture_open(&f);
	f.rs.now = 1000000000ULL;
	engine_snapshot_free(engine_update(f.e, &f.rs));
	f.rs.now = 2000000000ULL;
	f.rs.values[0].value = 10;
	f.rs.values[0].status = RAW_SCALED;
	f.rs.values[0].counted = 0;
	s = engine_update(f.e, &f.rs);
	assert_true(engine_cell(f.e, s, 0, 0, 0)->estimated);
	why = engine_explain(f.e, s, 0, 0, 0);
	assert_string_equal(why, "estimated: counted part of the interval");
	free(why);
	engine_snapshot_free(s);
	fixture_close(&f);
}

/* The OpenMetrics endpoint: an estimate is a reading, not a failure. */
static void
test_serve_estimate(void **state)
{
	struct om_info		 info;
	struct fixture		 f;
	struct engine_snapshot	*s;
	struct om		*om;
	struct om_snapshot	 ss;
	struct om_page		*fr;
	struct strbuf		 sb = { 0 };

	(void)state;
	memset(&info, 0, sizeof info);
	info.source = "perf";
	info.source_label = "perf test";
	info.lpar_self = 0xffff;
	fixture_open(&f);
	om = om_new(&info);
	engine_snapshot_free(fixture_sample(&f, 1, 1000, 1000, 100, 100));
	s = fixture_sample(&f, 2, 2000, 1620, 162, 224);
	memset(&ss, 0, sizeof ss);
	ss.engine = f.e;
	ss.sel = &f.sel;
	ss.snap = s;
	ss.rs = &f.rs;
	fr = om_page(om, &ss);
	om_render(fr, OM_FMT_OPENMETRICS, &sb);
	om_snapshot_free(fr);
	must_contain(sb.s, "hvtop_read_failures_total{frame=\"unknown\",reason=\"failed\"} 0\n");
	must_contain(sb.s, "hvtop_read_failures_total{frame=\"unknown\",reason=\"missing\"} 0\n");
	must_contain(sb.s, "hvtop_events_total{frame=\"unknown\",event=\"a\",");
	must_contain(sb.s, "} 200\n");
	strbuf_free(&sb);
	engine_snapshot_free(s);

	/* A group that did not run: a missing reading. */
	s = fixture_sample(&f, 3, 3000, 1620, 162, 224);
	ss.snap = s;
	fr = om_page(om, &ss);
	om_render(fr, OM_FMT_OPENMETRICS, &sb);
	om_snapshot_free(fr);
	must_contain(sb.s, "hvtop_read_failures_total{frame=\"unknown\",reason=\"missing\"} 2\n");
	must_contain(sb.s, "hvtop_read_failures_total{frame=\"unknown\",reason=\"failed\"} 0\n");
	strbuf_free(&sb);
	engine_snapshot_free(s);
	om_free(om);
	fixture_close(&f);
}

/* ---- a real group read ------------------------------------------------ */

/*
 * The software PMU's cpu-clock through the perf source: the kernel never
 * multiplexes software events, so the values are plain RAW_OK.
 */
static void
test_real_software(void **state)
{
	static const char *const events[] = { "cpu-clock", "task-clock" };
	struct source		 src;
	struct selection	 sel;
	struct topology		 t;
	struct raw_sample	 rs;
	const struct catalog	*model;
	struct timespec		 ts = { 0, 5000000 };
	char			*cause = NULL;
	size_t			 i, k;
	int			 error;

	(void)state;
	memset(&src, 0, sizeof src);
	memset(&sel, 0, sizeof sel);
	memset(&rs, 0, sizeof rs);
	src.ops = &source_perf_ops;
	if ((error = source_perf_ops.open(&src, "pmu=software", &cause)) != 0) {
		print_message("# SKIP real software counters: %s\n", cause);
		free(cause);
		return;
	}
	assert_int_equal(source_perf_catalog_model(&src, &model), 0);
	assert_int_equal(source_perf_ops.topology(&src, &t, &cause), 0);
	for (i = 0; i < 2; i++)
		if (selection_add(&sel, model, &t, events[i], 1, &cause) != 0)
			fail_msg("%s", cause);
	if ((error = source_perf_ops.select(&src, &sel, &cause)) != 0) {
		print_message("# SKIP real software counters: %s\n", cause);
		free(cause);
		selection_clear(&sel);
		source_perf_ops.close(&src);
		return;
	}
	for (k = 0; k < 2; k++) {
		if (k > 0)
			nanosleep(&ts, NULL);
		if (source_perf_ops.sample(&src, 1, &rs, &cause) != 0)
			fail_msg("%s", cause);
		assert_int_equal(rs.calls, 1);
		for (i = 0; i < rs.nvalues; i++) {
			assert_int_equal(rs.values[i].status, RAW_OK);
			assert_int_equal(rs.values[i].counted, 0);
		}
	}
	assert_true(rs.values[0].value > 0);
	free(rs.values);
	selection_clear(&sel);
	source_perf_ops.close(&src);
}

/*
 * A sample's time follows time_enabled from its group's first read: the
 * host time taken before the reads only anchors it.
 */
static void
test_clock(void **state)
{
	struct source_perf_clock c;
	const uint64_t		 s = 1000000000;	/* 1 s in ns */

	(void)state;
	memset(&c, 0, sizeof c);
	/* The first read anchors: the host's time. */
	assert_true(source_perf_clock(&c, 50 * s, 3000) == 50 * s);
	/* Taken 30 ms early this time: the read was a second on. */
	assert_true(source_perf_clock(&c, 51 * s - 30000000, 3000 + s) ==
	    51 * s);
	/* Taken late: the same, the interval is the kernel's. */
	assert_true(source_perf_clock(&c, 52 * s + 40000000, 3000 + 2 * s) ==
	    52 * s);
	/* A clock that did not move: the host's time, anchored again. */
	assert_true(source_perf_clock(&c, 53 * s, 3000 + 2 * s) == 53 * s);
	assert_true(source_perf_clock(&c, 54 * s, 3000 + 3 * s) == 54 * s);
	/* Backwards (a group enabled again): anchored again. */
	assert_true(source_perf_clock(&c, 55 * s, 10) == 55 * s);
	assert_true(source_perf_clock(&c, 56 * s + 1, 10 + s) == 56 * s);
	/* More than a second from the host's: not trusted. */
	assert_true(source_perf_clock(&c, 57 * s, 10 + 3 * s + s / 2) ==
	    57 * s);
	assert_true(source_perf_clock(&c, 58 * s + 5, 10 + 4 * s + s / 2) ==
	    58 * s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scale_not_multiplexed),
		cmocka_unit_test(test_scale_multiplexed),
		cmocka_unit_test(test_scale_not_running),
		cmocka_unit_test(test_scale_short),
		cmocka_unit_test(test_clock),
		cmocka_unit_test(test_raw_reason),
		cmocka_unit_test(test_engine_estimate),
		cmocka_unit_test(test_engine_not_running),
		cmocka_unit_test(test_engine_share_unknown),
		cmocka_unit_test(test_serve_estimate),
		cmocka_unit_test(test_real_software),
	};

	return (cmocka_run_group_tests_name("source-perf-scale", tests, NULL,
	    NULL));
}
