/*
 * Unit tests for src/engine: selections against the real POWER8 catalog,
 * deltas modulo 2^64, invalid reads, stale records, rates, and metric
 * values per row and in total.  Raw samples are made by hand, so every
 * expected number is computed here.
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
#include "source/source.h"
#include "util/hverr.h"
#include "util/xalloc.h"

#include "fixture.h"

struct fixture {
	struct catalog		*cat;
	struct topology		 topo;
	struct selection	 sel;
	struct engine		*e;
	struct raw_sample	 rs;
};

#define TB_HZ	FIXTURE_TB_HZ

static int
setup(void **state)
{
	struct fixture	*f;

	f = xcalloc(1, sizeof *f);
	f->cat = fixture_catalog(FIXTURE_P8, 1);
	fixture_topology(&f->topo, 1);
	*state = f;
	return (0);
}

static int
teardown(void **state)
{
	struct fixture	*f = *state;

	engine_free(f->e);
	selection_clear(&f->sel);
	free(f->rs.values);
	catalog_free(f->cat);
	free(f);
	return (0);
}

/* Select the 3-event core group HPM_0THRD_NON_IDLE_CCYC on cores 0,2. */
static void
select_core_group(struct fixture *f, const struct engine_metric_def *defs,
    size_t ndefs)
{
	char	*cause = NULL;
	int	 error;

	error = selection_add(&f->sel, f->cat, &f->topo,
	    "HPM_0THRD_NON_IDLE_CCYC@core:0,2", 0, &cause);
	if (error != 0)
		fail_msg("%s", cause);
	assert_int_equal(f->sel.npicks, 1);
	assert_int_equal(f->sel.picks[0].nevents, 3);
	assert_int_equal(f->sel.ncounters, 6);
	f->e = engine_new(f->cat, &f->sel, TB_HZ, defs, ndefs, NULL, NULL);
	f->rs.values = calloc(f->sel.ncounters, sizeof *f->rs.values);
	f->rs.nvalues = f->sel.ncounters;
}

/* Fill every counter with base + k * step, timebase tb. */
static void
fill(struct fixture *f, uint64_t now, uint64_t base, uint64_t step,
    uint64_t tb)
{
	size_t	 k;

	f->rs.now = now;
	for (k = 0; k < f->rs.nvalues; k++) {
		f->rs.values[k].value = base + k * step;
		f->rs.values[k].timebase = tb;
		f->rs.values[k].status = RAW_OK;
	}
}

static void
test_delta_modulo(void **state)
{
	int	 back;

	(void)state;
	assert_true(engine_delta(10, 25, &back) == 15);
	assert_false(back);
	/* A wrap of the 64-bit accumulator is a small positive delta. */
	assert_true(engine_delta(UINT64_MAX - 4, 5, &back) == 10);
	assert_false(back);
	/* Going backwards is not a huge number. */
	assert_true(engine_delta(100, 90, &back) == 0);
	assert_true(back);
}

static void
test_selection_errors(void **state)
{
	struct fixture	*f = *state;
	char		*cause = NULL;

	assert_int_equal(selection_add(&f->sel, f->cat, &f->topo,
	    "NO_SUCH_GROUP", 0, &cause), -HV_ENOENT);
	assert_non_null(strstr(cause, "unknown group"));
	free(cause);
	assert_int_equal(selection_add(&f->sel, f->cat, &f->topo,
	    "HPM_0THRD_NON_IDLE_CCYC:0,4", 0, &cause), -HV_ERANGE);
	assert_non_null(strstr(cause, "index 4 is out of range"));
	free(cause);
	assert_int_equal(selection_add(&f->sel, f->cat, &f->topo,
	    "HPM_0THRD_NON_IDLE_CCYC:0,x", 0, &cause), -HV_EFORMAT);
	assert_non_null(strstr(cause, "column 3"));
	free(cause);
	assert_int_equal(selection_add(&f->sel, f->cat, &f->topo,
	    "HPM_0THRD_NON_IDLE_CCYC@chip", 0, &cause), -HV_ERANGE);
	free(cause);
	/* perf's CPUs are for PMUs other than hv_24x7. */
	assert_int_equal(selection_add(&f->sel, f->cat, &f->topo,
	    "HPM_0THRD_NON_IDLE_CCYC@cpu", 0, &cause), -HV_ERANGE);
	free(cause);
	assert_int_equal(selection_add(&f->sel, f->cat, &f->topo,
	    "HPM_0THRD_NON_IDLE_CCYC@thread", 0, &cause), -HV_EFORMAT);
	assert_non_null(strstr(cause, "@cpu"));
	free(cause);
	/* vcpu domains need interface 2. */
	assert_int_equal(selection_add(&f->sel, f->cat, &f->topo,
	    "HPM_0THRD_NON_IDLE_CCYC@vcpu", 0, &cause), -HV_ERANGE);
	free(cause);
	assert_int_equal(f->sel.ncounters, 0);
}

static void
test_index_list(void **state)
{
	unsigned	*v;
	size_t		 n;
	char		*cause = NULL;

	(void)state;
	assert_int_equal(selection_parse_indices("0,3,8-11", 16, &v, &n,
	    &cause), 0);
	assert_int_equal(n, 6);
	assert_int_equal(v[2], 8);
	assert_int_equal(v[5], 11);
	free(v);
	assert_int_equal(selection_parse_indices("5-3", 16, &v, &n, &cause),
	    -HV_EFORMAT);
	free(cause);
	assert_int_equal(selection_parse_indices("1,", 16, &v, &n, &cause),
	    -HV_EFORMAT);
	free(cause);
}

static void
test_rates(void **state)
{
	struct fixture			*f = *state;
	struct engine_snapshot		*s;
	const struct engine_view	*v;
	const struct engine_cell	*c;

	select_core_group(f, NULL, 0);
	assert_int_equal(engine_nviews(f->e), 1);
	v = engine_view(f->e, 0);
	assert_int_equal(v->nrows, 2);
	assert_int_equal(v->indices[1], 2);
	assert_int_equal(v->nevents, 3);

	fill(f, 0, 1000, 0, 1000);
	s = engine_update(f->e, &f->rs);
	assert_int_equal(engine_cell(f->e, s, 0, 0, 0)->status, ENG_NOBASE);
	engine_snapshot_free(s);

	/* Half a second of timebase later, each counter grew by 1000 + k. */
	fill(f, 700000000, 2000, 1, 1000 + TB_HZ / 2);
	s = engine_update(f->e, &f->rs);
	c = engine_cell(f->e, s, 0, 1, 2);	/* core 2, third event: k=5 */
	assert_int_equal(c->status, ENG_OK);
	assert_true(c->delta == 1005);
	/* The record's timebase, not the host clock, is the interval. */
	assert_true(fabs(c->value - 2010) < 1e-9);
	/* The total of an additive event is the sum of its rows. */
	c = engine_cell(f->e, s, 0, 2, 0);
	assert_int_equal(c->status, ENG_OK);
	assert_true(c->delta == 1000 + 1003);
	assert_true(fabs(c->value - 2 * 2003) < 1e-9);
	engine_snapshot_free(s);
}

static void
test_invalid_reads(void **state)
{
	struct fixture		*f = *state;
	struct engine_snapshot	*s;
	char			*why;

	select_core_group(f, NULL, 0);
	fill(f, 0, 1000, 0, 100);
	engine_snapshot_free(engine_update(f->e, &f->rs));

	/* Counter 0 goes backwards, counter 1 fails, the rest are stale. */
	fill(f, 1000000000, 1000, 0, 100);
	f->rs.values[0].value = 10;
	f->rs.values[0].timebase = 200;
	f->rs.values[1].status = RAW_FAILED;
	s = engine_update(f->e, &f->rs);
	assert_int_equal(engine_cell(f->e, s, 0, 0, 0)->status,
	    ENG_BACKWARDS);
	assert_int_equal(engine_cell(f->e, s, 0, 0, 1)->status, ENG_FAILED);
	assert_int_equal(engine_cell(f->e, s, 0, 0, 2)->status, ENG_STALE);
	/* A failed row fails the total rather than under-count it. */
	assert_int_equal(engine_cell(f->e, s, 0, 2, 0)->status,
	    ENG_BACKWARDS);
	why = engine_explain(f->e, s, 0, 0, 0);
	assert_non_null(strstr(why, "backwards"));
	free(why);
	engine_snapshot_free(s);

	/*
	 * After a backwards read the next one only sets a new baseline,
	 * and says so: not a first sample.  A failed read kept the last
	 * good one, as the stale counter did: 4000 over 200 ticks.
	 */
	fill(f, 2000000000, 5000, 0, 300);
	s = engine_update(f->e, &f->rs);
	assert_int_equal(engine_cell(f->e, s, 0, 0, 0)->status, ENG_RESTART);
	why = engine_explain(f->e, s, 0, 0, 0);
	assert_null(strstr(why, "first sample"));
	free(why);
	assert_int_equal(engine_cell(f->e, s, 0, 0, 1)->status, ENG_OK);
	assert_true(engine_cell(f->e, s, 0, 0, 1)->delta == 4000);
	assert_int_equal(engine_cell(f->e, s, 0, 0, 2)->status, ENG_OK);
	assert_true(engine_cell(f->e, s, 0, 0, 2)->delta == 4000);
	engine_snapshot_free(s);

	/* Every read failed since the start: the first good one is no
	 * first sample either. */
	engine_rebase(f->e);
	fill(f, 3000000000, 6000, 0, 400);
	f->rs.values[1].status = RAW_BUSY;
	engine_snapshot_free(engine_update(f->e, &f->rs));
	fill(f, 4000000000, 7000, 0, 500);
	s = engine_update(f->e, &f->rs);
	assert_int_equal(engine_cell(f->e, s, 0, 0, 0)->status, ENG_OK);
	assert_int_equal(engine_cell(f->e, s, 0, 0, 1)->status, ENG_RESTART);
	engine_snapshot_free(s);
}

static void
test_metrics(void **state)
{
	static const struct engine_metric_def defs[] = {
		{ "IPC", "HPM_NON_IDLE_INST HPM_NON_IDLE_PCYC /", "", "",
		    "test", NULL, 0 },
		{ "INST_BW", "(HPM_NON_IDLE_INST * 8) * PB_Freq", "B/s", "",
		    "test", NULL, 0 },
		{ "CHIP_ONLY", "PM_PB_CYC 2 *", "", "", "test", NULL, 0 },
		{ "CLOCK", "HPM_NON_IDLE_PCYC delta-seconds /", "Hz", "",
		    "test", NULL, 0 },
	};
	struct fixture			*f = *state;
	struct engine_snapshot		*s;
	const struct engine_view	*v;
	const struct engine_cell	*c;
	char				**skipped = NULL, *why;
	size_t				 nskipped = 0, i, col;

	assert_int_equal(selection_add(&f->sel, f->cat, &f->topo,
	    "HPM_0THRD_NON_IDLE_CCYC@core:0,2", 0, &why), 0);
	f->e = engine_new(f->cat, &f->sel, TB_HZ, defs, 4, &skipped,
	    &nskipped);
	f->rs.values = calloc(f->sel.ncounters, sizeof *f->rs.values);
	f->rs.nvalues = f->sel.ncounters;
	v = engine_view(f->e, 0);
	assert_int_equal(v->nmetrics, 3);
	assert_string_equal(v->metrics[0].name, "IPC");
	/* The chip event is not selected: that metric is skipped, with why. */
	assert_int_equal(nskipped, 1);
	assert_non_null(strstr(skipped[0], "CHIP_ONLY"));
	for (i = 0; i < nskipped; i++)
		free(skipped[i]);
	free(skipped);

	/* Columns: CCYC, INST, PCYC.  Core 0: +100 inst / +400 cycles;
	 * core 2: +300 inst / +200 cycles. */
	fill(f, 0, 0, 0, 10);
	engine_snapshot_free(engine_update(f->e, &f->rs));
	fill(f, 1000000000, 0, 0, 10 + TB_HZ);
	f->rs.values[1].value = 100;
	f->rs.values[2].value = 400;
	f->rs.values[4].value = 300;
	f->rs.values[5].value = 200;
	f->rs.values[0].value = 1;
	f->rs.values[3].value = 1;
	s = engine_update(f->e, &f->rs);
	col = v->nevents;
	c = engine_cell(f->e, s, 0, 0, col);
	assert_int_equal(c->status, ENG_OK);
	assert_true(fabs(c->value - 0.25) < 1e-12);
	c = engine_cell(f->e, s, 0, 1, col);
	assert_true(fabs(c->value - 1.5) < 1e-12);
	/* The total is the ratio of the sums, not the sum of ratios. */
	c = engine_cell(f->e, s, 0, 2, col);
	assert_int_equal(c->status, ENG_OK);
	assert_true(fabs(c->value - 400.0 / 600.0) < 1e-12);
	/* An unknown constant: no number, and the reason says how. */
	c = engine_cell(f->e, s, 0, 0, col + 1);
	assert_int_equal(c->status, ENG_NOVALUE);
	why = engine_explain(f->e, s, 0, 0, col + 1);
	assert_non_null(strstr(why, "--const PB_Freq"));
	free(why);
	/* A frequency's total is the mean of its rows, not their sum. */
	assert_true(fabs(engine_cell(f->e, s, 0, 0, col + 2)->value - 400) <
	    1e-9);
	assert_true(fabs(engine_cell(f->e, s, 0, 2, col + 2)->value - 300) <
	    1e-9);
	engine_snapshot_free(s);

	engine_set_constant(f->e, "PB_Freq", 2.0);
	fill(f, 2000000000, 0, 0, 10 + 2 * TB_HZ);
	f->rs.values[1].value = 200;
	f->rs.values[2].value = 800;
	f->rs.values[4].value = 600;
	f->rs.values[5].value = 400;
	f->rs.values[0].value = 2;
	f->rs.values[3].value = 2;
	s = engine_update(f->e, &f->rs);
	c = engine_cell(f->e, s, 0, 0, col + 1);
	assert_int_equal(c->status, ENG_OK);
	assert_true(fabs(c->value - 100 * 8 * 2.0) < 1e-9);
	engine_snapshot_free(s);
}

/*
 * Many definitions, as a large -m file gives: metrics that use earlier
 * metrics (found by name, the first definition of a name winning) and
 * thousands of distinct constants, each found and set by name.
 */
#define MANY	3000
static void
test_many_metrics(void **state)
{
	struct fixture			*f = *state;
	struct engine_metric_def	*defs;
	struct engine_snapshot		*s;
	const struct engine_view	*v;
	const struct engine_cell	*c;
	char				**names, *text, *infix;
	size_t				 i, n, col;
	const char			*name;

	defs = calloc(MANY + 1, sizeof *defs);
	names = calloc(2 * (MANY + 1), sizeof *names);
	for (i = 0; i < MANY; i++) {
		names[2 * i] = xasprintf("M%zu", i);
		if (i % 3 == 0)
			text = xstrdup("HPM_NON_IDLE_INST HPM_NON_IDLE_PCYC /");
		else if (i % 3 == 1)
			text = xasprintf("M%zu 2 *", i - 1);
		else
			text = xasprintf("HPM_NON_IDLE_INST K%zu *", i);
		names[2 * i + 1] = text;
		defs[i].name = names[2 * i];
		defs[i].text = text;
		defs[i].unit = i % 2 ? "/s" : "";
		defs[i].origin = "many.csv";
	}
	/* A second M0: references still mean the first. */
	names[2 * MANY] = xstrdup("M0");
	names[2 * MANY + 1] = xstrdup("HPM_NON_IDLE_INST");
	defs[MANY].name = names[2 * MANY];
	defs[MANY].text = names[2 * MANY + 1];
	defs[MANY].origin = "many.csv";
	select_core_group(f, defs, MANY + 1);
	v = engine_view(f->e, 0);
	assert_int_equal(v->nmetrics, MANY + 1);
	assert_string_equal(v->metrics[MANY - 1].name, "M2999");
	infix = engine_metric_infix(&v->metrics[1]);
	assert_string_equal(infix, "M0 * 2");
	free(infix);
	assert_string_equal(v->metrics[7].unit, "/s");
	assert_string_equal(v->metrics[8].unit, "");
	assert_string_equal(v->metrics[8].origin, "many.csv");
	/* Constants in order of first use, each once. */
	for (n = 0; (name = engine_constant_name(f->e, n)) != NULL; n++) {
		text = xasprintf("K%zu", 3 * n + 2);
		assert_string_equal(name, text);
		free(text);
		engine_set_constant(f->e, name, (double)n);
	}
	assert_int_equal(n, MANY / 3);
	engine_set_constant(f->e, "K2", 0.5);

	/* Core 0: +100 inst / +400 cycles. */
	fill(f, 0, 0, 0, 10);
	engine_snapshot_free(engine_update(f->e, &f->rs));
	fill(f, 1000000000, 0, 0, 10 + TB_HZ);
	f->rs.values[1].value = 100;
	f->rs.values[2].value = 400;
	f->rs.values[4].value = 300;
	f->rs.values[5].value = 200;
	s = engine_update(f->e, &f->rs);
	col = v->nevents;
	for (i = 0; i < MANY; i += 997) {
		c = engine_cell(f->e, s, 0, 0, col + i);
		assert_int_equal(c->status, ENG_OK);
	}
	assert_true(fabs(engine_cell(f->e, s, 0, 0, col)->value - 0.25) <
	    1e-12);
	assert_true(fabs(engine_cell(f->e, s, 0, 0, col + 1)->value - 0.5) <
	    1e-12);
	assert_true(fabs(engine_cell(f->e, s, 0, 0, col + 2)->value - 50) <
	    1e-9);
	assert_true(fabs(engine_cell(f->e, s, 0, 0, col + 2999)->value -
	    100 * 999.0) < 1e-9);
	assert_true(fabs(engine_cell(f->e, s, 0, 0, col + MANY)->value -
	    100) < 1e-9);
	engine_snapshot_free(s);
	for (i = 0; i < 2 * (MANY + 1); i++)
		free(names[i]);
	free(names);
	free(defs);
}

/*
 * Rows whose records were updated over different intervals: core 0's
 * counters cover one second, core 2's half a second.  The total adds
 * rates, never counts over one row's interval, and a frequency's total
 * is the mean of its rows.
 */
static void
test_total_intervals(void **state)
{
	static const struct engine_metric_def defs[] = {
		{ "INST_RATE", "HPM_NON_IDLE_INST delta-seconds /", "/s", "",
		    "test", NULL, 0 },
		{ "CLOCK", "HPM_NON_IDLE_PCYC delta-seconds /", "GHz", "",
		    "test", NULL, 0 },
	};
	struct fixture			*f = *state;
	struct engine_snapshot		*s;
	const struct engine_view	*v;
	const struct engine_cell	*c;
	size_t				 col;

	select_core_group(f, defs, 2);
	v = engine_view(f->e, 0);
	assert_int_equal(v->nmetrics, 2);
	col = v->nevents;
	fill(f, 0, 1000, 0, 1000);
	engine_snapshot_free(engine_update(f->e, &f->rs));
	/* Every counter grew by 1000; core 0 over 1 s, core 2 over 0.5 s. */
	fill(f, 1000000000, 2000, 0, 1000 + TB_HZ);
	f->rs.values[3].timebase = f->rs.values[4].timebase =
	    f->rs.values[5].timebase = 1000 + TB_HZ / 2;
	s = engine_update(f->e, &f->rs);
	assert_true(s->row_interval[0][0] == 1.0);
	assert_true(s->row_interval[0][1] == 0.5);
	/* The total covers the mean of the rows' intervals. */
	assert_true(fabs(s->row_interval[0][2] - 0.75) < 1e-12);
	/* An event: 1000/s + 2000/s, and that rate over 0.75 s. */
	c = engine_cell(f->e, s, 0, 2, 1);
	assert_int_equal(c->status, ENG_OK);
	assert_true(fabs(c->value - 3000) < 1e-9);
	assert_true(fabs(c->delta - 2250) < 1e-9);
	/* A rate metric: the sum of the rows' rates. */
	assert_true(fabs(engine_cell(f->e, s, 0, 0, col)->value - 1000) <
	    1e-9);
	assert_true(fabs(engine_cell(f->e, s, 0, 1, col)->value - 2000) <
	    1e-9);
	c = engine_cell(f->e, s, 0, 2, col);
	assert_int_equal(c->status, ENG_OK);
	assert_true(fabs(c->value - 3000) < 1e-9);
	/* A frequency: the mean of 1000 and 2000. */
	c = engine_cell(f->e, s, 0, 2, col + 1);
	assert_int_equal(c->status, ENG_OK);
	assert_true(fabs(c->value - 1500) < 1e-9);
	engine_snapshot_free(s);
}

/*
 * A record timebase of 0 is a record not updated yet: no rate, and the
 * reason says so.  Its first update only sets the baseline (what it
 * counted before covers no known time); the second gives a rate over
 * the timebases of the two updates, whatever the host clock says.
 */
static void
test_not_updated(void **state)
{
	struct fixture		*f = *state;
	struct engine_snapshot	*s;
	const struct engine_cell *c;
	char			*why;

	select_core_group(f, NULL, 0);
	fill(f, 0, 0, 0, 0);
	engine_snapshot_free(engine_update(f->e, &f->rs));
	/* Still not updated: no value, not 0/s. */
	fill(f, 400000000, 0, 0, 0);
	s = engine_update(f->e, &f->rs);
	c = engine_cell(f->e, s, 0, 0, 0);
	assert_int_equal(c->status, ENG_NOTYET);
	why = engine_explain(f->e, s, 0, 0, 0);
	assert_string_equal(why, "not updated yet");
	free(why);
	assert_int_equal(engine_cell(f->e, s, 0, 2, 0)->status, ENG_NOTYET);
	engine_snapshot_free(s);
	/* The first update: 5000 counted since boot, over no known time. */
	fill(f, 800000000, 5000, 0, TB_HZ / 4);
	s = engine_update(f->e, &f->rs);
	assert_int_equal(engine_cell(f->e, s, 0, 0, 0)->status, ENG_NOTYET);
	engine_snapshot_free(s);
	/* The second: 1000 more over one second of timebase, while the
	 * host clock moved 0.4 s. */
	fill(f, 1200000000, 6000, 0, TB_HZ / 4 + TB_HZ);
	s = engine_update(f->e, &f->rs);
	c = engine_cell(f->e, s, 0, 0, 0);
	assert_int_equal(c->status, ENG_OK);
	assert_true(c->delta == 1000);
	assert_true(fabs(c->value - 1000) < 1e-9);
	engine_snapshot_free(s);
	/* A record with no timebase at all whose counts move: the host
	 * clock is the only clock. */
	fill(f, 2200000000, 7000, 0, 0);
	s = engine_update(f->e, &f->rs);
	assert_int_equal(engine_cell(f->e, s, 0, 0, 0)->status, ENG_NOTYET);
	engine_snapshot_free(s);
	fill(f, 3200000000, 9000, 0, 0);
	s = engine_update(f->e, &f->rs);
	c = engine_cell(f->e, s, 0, 0, 0);
	assert_int_equal(c->status, ENG_OK);
	assert_true(fabs(c->value - 2000) < 1e-9);
	engine_snapshot_free(s);
}

/*
 * Without record timebases (perf's hv_24x7), a counter that reads the
 * same twice counted 0 when its record moved: another counter of the
 * same core did.  A record none of whose counters moved is still one
 * the hypervisor has not updated, and keeps its baselines.
 */
static void
test_unmoved_zero(void **state)
{
	struct fixture		*f = *state;
	struct engine_snapshot	*s;
	const struct engine_cell *c;
	size_t			 k, core0 = 0, core2 = 0;

	select_core_group(f, NULL, 0);
	for (k = 0; k < f->sel.ncounters; k++)
		if (f->sel.counters[k].column == 0 &&
		    f->sel.counters[k].index == 0)
			core0 = k;
		else if (f->sel.counters[k].column == 0)
			core2 = k;
	fill(f, 0, 100, 0, 0);
	engine_snapshot_free(engine_update(f->e, &f->rs));
	/* Core 0's first event moves; core 2 reads the same. */
	fill(f, 1000000000, 100, 0, 0);
	f->rs.values[core0].value = 300;
	s = engine_update(f->e, &f->rs);
	assert_int_equal(engine_cell(f->e, s, 0, 0, 0)->status, ENG_OK);
	assert_true(fabs(engine_cell(f->e, s, 0, 0, 0)->value - 200) < 1e-9);
	c = engine_cell(f->e, s, 0, 0, 1);
	assert_int_equal(c->status, ENG_OK);
	assert_true(c->value == 0 && c->delta == 0);
	assert_int_equal(engine_cell(f->e, s, 0, 0, 2)->status, ENG_OK);
	for (k = 0; k < 3; k++)
		assert_int_equal(engine_cell(f->e, s, 0, 1, k)->status,
		    ENG_NOTYET);
	engine_snapshot_free(s);
	/* Then core 2 moves, over the two seconds since its baseline, and
	 * core 0 does not. */
	fill(f, 2000000000, 100, 0, 0);
	f->rs.values[core0].value = 300;
	f->rs.values[core2].value = 500;
	s = engine_update(f->e, &f->rs);
	c = engine_cell(f->e, s, 0, 1, 0);
	assert_int_equal(c->status, ENG_OK);
	assert_true(fabs(c->value - 200) < 1e-9);
	c = engine_cell(f->e, s, 0, 1, 2);
	assert_int_equal(c->status, ENG_OK);
	assert_true(c->value == 0 && c->span == 2);
	assert_int_equal(engine_cell(f->e, s, 0, 0, 0)->status, ENG_NOTYET);
	assert_int_equal(engine_cell(f->e, s, 0, 0, 1)->status, ENG_NOTYET);
	engine_snapshot_free(s);
}

/* Every cell without a value says why; text marks it - or ?. */
static void
test_reasons(void **state)
{
	static const struct engine_metric_def defs[] = {
		{ "DIVZ", "HPM_NON_IDLE_INST 0 /", "", "", "test", NULL, 0 },
		{ "NEEDC", "HPM_NON_IDLE_INST Frob_Freq *", "", "", "test", NULL, 0 },
	};
	struct fixture		*f = *state;
	struct engine_snapshot	*s;
	const struct engine_cell *c;
	size_t			 col;
	char			*why;

	select_core_group(f, defs, 2);
	col = engine_view(f->e, 0)->nevents;
	fill(f, 0, 1000, 0, 1000);
	engine_snapshot_free(engine_update(f->e, &f->rs));
	fill(f, 1000000000, 2000, 0, 1000 + TB_HZ);
	s = engine_update(f->e, &f->rs);
	assert_null(engine_cell_mark(engine_cell(f->e, s, 0, 0, 0)));
	c = engine_cell(f->e, s, 0, 0, col);
	assert_int_equal(c->status, ENG_NOVALUE);
	assert_string_equal(engine_cell_mark(c), "-");
	why = engine_explain(f->e, s, 0, 0, col);
	assert_non_null(strstr(why, "division by zero"));
	free(why);
	c = engine_cell(f->e, s, 0, 2, col + 1);
	assert_string_equal(engine_cell_mark(c), "?");
	why = engine_explain(f->e, s, 0, 2, col + 1);
	assert_non_null(strstr(why, "unknown constant Frob_Freq"));
	free(why);
	engine_snapshot_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delta_modulo),
		cmocka_unit_test(test_index_list),
		cmocka_unit_test_setup_teardown(test_selection_errors, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_rates, setup, teardown),
		cmocka_unit_test_setup_teardown(test_invalid_reads, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_metrics, setup, teardown),
		cmocka_unit_test_setup_teardown(test_many_metrics, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_total_intervals, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_not_updated, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_unmoved_zero, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_reasons, setup, teardown),
	};

	return (cmocka_run_group_tests_name("engine", tests, NULL, NULL));
}
