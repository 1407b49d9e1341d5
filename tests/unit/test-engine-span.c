/*
 * Unit tests for the spans of src/engine's metrics: a metric is computed
 * over operands that cover the same samples, in a row and in the total,
 * after a read of some of a row's counters failed while the others'
 * succeeded.  Raw samples are made by hand against the real POWER8
 * catalog, so every expected number is computed here.
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
#include "model/raw.h"
#include "model/selection.h"
#include "util/xalloc.h"

#include "fixture.h"

#define TB_HZ	FIXTURE_TB_HZ

struct fixture {
	struct catalog		*cat;
	struct topology		 topo;
	struct selection	 sel;
	struct engine		*e;
	struct raw_sample	 rs;
};

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

/*
 * The core group HPM_0THRD_NON_IDLE_CCYC on cores 0 and 2: columns
 * CCYC, INST, PCYC; counters 0-2 core 0's, 3-5 core 2's.
 */
static void
select_cores(struct fixture *f, const struct engine_metric_def *defs,
    size_t ndefs)
{
	char	*cause = NULL;

	if (selection_add(&f->sel, f->cat, &f->topo,
	    "HPM_0THRD_NON_IDLE_CCYC@core:0,2", 0, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(f->sel.ncounters, 6);
	f->e = engine_new(f->cat, &f->sel, TB_HZ, defs, ndefs, NULL, NULL);
	f->rs.values = xcalloc(f->sel.ncounters, sizeof *f->rs.values);
	f->rs.nvalues = f->sel.ncounters;
}

/* Sample t (t seconds of timebase in): counter k at v[k]. */
static void
sample(struct fixture *f, uint64_t t, const uint64_t *v)
{
	size_t	 k;

	f->rs.now = (t + 1) * 1000000000ULL;
	for (k = 0; k < f->rs.nvalues; k++) {
		f->rs.values[k].value = v[k];
		f->rs.values[k].timebase = 10 + t * TB_HZ;
		f->rs.values[k].status = RAW_OK;
	}
}

static const struct engine_metric_def span_defs[] = {
	/* One operand: its own seconds, whatever the row's first column
	 * covers. */
	{ "PCYC_RATE", "HPM_NON_IDLE_PCYC delta-seconds /", "/s", "",
	    "test", NULL, 0 },
	{ "CLOCK", "HPM_NON_IDLE_PCYC / delta-seconds / 1e6", "MHz", "",
	    "test", NULL, 0 },
	/* Two operands, one of which missed a read. */
	{ "CCYC_PER_PCYC", "HPM_0THRD_NON_IDLE_CCYC / HPM_NON_IDLE_PCYC", "",
	    "", "test", NULL, 0 },
	/* Two operands that both read well. */
	{ "IPC", "HPM_NON_IDLE_INST / HPM_NON_IDLE_PCYC", "", "", "test",
	    NULL, 0 },
};

/*
 * Core 0's CCYC is busy in the second sample and reads well in the
 * third, so its delta there covers two seconds while the row's other
 * counters cover the last one.
 */
static struct engine_snapshot *
busy_then_good(struct fixture *f)
{
	static const uint64_t	 v0[6] = { 0, 0, 0, 0, 0, 0 };
	static const uint64_t	 v1[6] = { 0, 100, 200, 300, 400, 500 };
	static const uint64_t	 v2[6] = { 500, 300, 500, 700, 900, 1100 };

	select_cores(f, span_defs, 4);
	sample(f, 0, v0);
	engine_snapshot_free(engine_update(f->e, &f->rs));
	sample(f, 1, v1);
	f->rs.values[0].status = RAW_BUSY;
	engine_snapshot_free(engine_update(f->e, &f->rs));
	sample(f, 2, v2);
	return (engine_update(f->e, &f->rs));
}

static void
test_own_seconds(void **state)
{
	struct fixture			*f = *state;
	struct engine_snapshot		*s = busy_then_good(f);
	const struct engine_view	*v = engine_view(f->e, 0);
	const struct engine_cell	*c;
	size_t				 col = v->nevents;

	/* The busy counter: 500 over 2 s; its row's others over 1 s. */
	c = engine_cell(f->e, s, 0, 0, 0);
	assert_int_equal(c->status, ENG_OK);
	assert_int_equal(c->span, 2);
	assert_float_equal(c->value, 250, 1e-9);
	assert_int_equal(engine_cell(f->e, s, 0, 0, 2)->span, 1);
	/* PCYC over its own second: 300/s, not 300 over the row's 2 s. */
	c = engine_cell(f->e, s, 0, 0, col);
	assert_int_equal(c->status, ENG_OK);
	assert_float_equal(c->value, 300, 1e-9);
	c = engine_cell(f->e, s, 0, 0, col + 1);
	assert_int_equal(c->status, ENG_OK);
	assert_float_equal(c->value, 300e-6, 1e-15);
	/* Core 2 read well throughout: 600/s. */
	assert_float_equal(engine_cell(f->e, s, 0, 1, col)->value, 600, 1e-9);
	/* The totals: the sum of the rates, the mean of the clocks. */
	c = engine_cell(f->e, s, 0, 2, col);
	assert_int_equal(c->status, ENG_OK);
	assert_float_equal(c->value, 900, 1e-9);
	c = engine_cell(f->e, s, 0, 2, col + 1);
	assert_int_equal(c->status, ENG_OK);
	assert_float_equal(c->value, 450e-6, 1e-15);
	engine_snapshot_free(s);
}

static void
test_split_operands(void **state)
{
	struct fixture			*f = *state;
	struct engine_snapshot		*s = busy_then_good(f);
	const struct engine_view	*v = engine_view(f->e, 0);
	const struct engine_cell	*c;
	size_t				 col = v->nevents;
	char				*why;

	/* 500 cycles over 2 s against 300 over 1 s: no value, and why. */
	c = engine_cell(f->e, s, 0, 0, col + 2);
	assert_int_equal(c->status, ENG_SPLIT);
	assert_string_equal(engine_cell_mark(c), "-");
	why = engine_explain(f->e, s, 0, 0, col + 2);
	assert_string_equal(why, "HPM_0THRD_NON_IDLE_CCYC covers 2 "
	    "intervals, HPM_NON_IDLE_PCYC 1 (a read failed in between): no "
	    "value over one span");
	free(why);
	/* The same row's metric of operands over one span has its value. */
	c = engine_cell(f->e, s, 0, 0, col + 3);
	assert_int_equal(c->status, ENG_OK);
	assert_float_equal(c->value, 200.0 / 300.0, 1e-12);
	/* Core 2: 400 / 600. */
	c = engine_cell(f->e, s, 0, 1, col + 2);
	assert_int_equal(c->status, ENG_OK);
	assert_float_equal(c->value, 400.0 / 600.0, 1e-12);
	/*
	 * The total sets rates against rates over the total's seconds:
	 * (250 + 400) / (300 + 600), never a count over two seconds
	 * against one over one.
	 */
	c = engine_cell(f->e, s, 0, 2, col + 2);
	assert_int_equal(c->status, ENG_OK);
	assert_float_equal(c->value, 650.0 / 900.0, 1e-12);
	engine_snapshot_free(s);

	/* The next interval covers one second for every counter again. */
	{
		static const uint64_t v3[6] = { 900, 400, 800, 1100, 1400,
		    1700 };

		sample(f, 3, v3);
		s = engine_update(f->e, &f->rs);
		c = engine_cell(f->e, s, 0, 0, col + 2);
		assert_int_equal(c->status, ENG_OK);
		assert_float_equal(c->value, 400.0 / 300.0, 1e-12);
		engine_snapshot_free(s);
	}
}

/*
 * The total of a formula that takes a remainder, over rows of different
 * intervals: cores 0 and 1 over one second, core 2 over 256000002 ticks
 * (just over half a second), each counting 1234 instructions.  The
 * total's seconds are the mean, 1280000002 / 3 ticks; its count is the
 * summed rates over them, 4113.33, so 4113, and its ticks 426666667:
 * whole numbers, never a mean of the rows' remainders.
 */
static void
test_whole_total(void **state)
{
	static const struct engine_metric_def defs[] = {
		{ "MOD7_MHZ", "HPM_NON_IDLE_INST % 7", "MHz", "", "test", NULL,
		    0 },
		{ "TICKS", "(HPM_NON_IDLE_INST + delta-timebase) % 1000", "",
		    "", "test", NULL, 0 },
	};
	struct fixture			*f = *state;
	struct engine_snapshot		*s;
	const struct engine_view	*v;
	const struct engine_cell	*c;
	char				*cause = NULL;
	size_t				 k, col;

	if (selection_add(&f->sel, f->cat, &f->topo,
	    "HPM_0THRD_NON_IDLE_CCYC@core:0-2", 0, &cause) != 0)
		fail_msg("%s", cause);
	f->e = engine_new(f->cat, &f->sel, TB_HZ, defs, 2, NULL, NULL);
	f->rs.values = xcalloc(f->sel.ncounters, sizeof *f->rs.values);
	f->rs.nvalues = f->sel.ncounters;
	v = engine_view(f->e, 0);
	col = v->nevents;
	f->rs.now = 1000000000ULL;
	for (k = 0; k < f->rs.nvalues; k++)
		f->rs.values[k] = (struct raw_value){ .value = 0,
		    .timebase = 10, .status = RAW_OK };
	engine_snapshot_free(engine_update(f->e, &f->rs));
	f->rs.now = 2000000000ULL;
	for (k = 0; k < f->rs.nvalues; k++) {
		f->rs.values[k].value = 1234;
		f->rs.values[k].timebase = 10 + (k < 6 ? TB_HZ :
		    TB_HZ / 2 + 2);
	}
	s = engine_update(f->e, &f->rs);
	/* Each row: 1234 % 7 = 2, and its own ticks. */
	assert_float_equal(engine_cell(f->e, s, 0, 0, col)->value, 2, 0);
	assert_float_equal(engine_cell(f->e, s, 0, 2, col + 1)->value,
	    236, 0);		/* (1234 + 256000002) % 1000 */
	c = engine_cell(f->e, s, 0, 3, col);
	assert_int_equal(c->status, ENG_OK);
	assert_float_equal(c->value, 4, 0);		/* 4113 % 7 */
	c = engine_cell(f->e, s, 0, 3, col + 1);
	assert_int_equal(c->status, ENG_OK);
	assert_float_equal(c->value, 780, 0);	/* (4113 + 426666667) % 1000 */
	engine_snapshot_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_own_seconds, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_split_operands, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_whole_total, setup,
		    teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
