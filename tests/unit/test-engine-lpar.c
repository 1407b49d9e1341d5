/*
 * Unit tests for the engine's partition views: an @lpar pick made by
 * hand (two partitions, three virtual processors, four placements, two
 * events) beside a core pick, so the core view is seen not to change.
 * Every expected number is computed here.
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
#include "engine/engine-lpar.h"
#include "export/export.h"
#include "model/raw.h"
#include "model/selection.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include "fixture.h"

#define TB_HZ	FIXTURE_TB_HZ
#define NEV	2		/* HPM_CCYC, HPM_INST */

struct fixture {
	struct catalog		*cat;
	struct topology		 topo;
	struct selection	 sel;
	struct engine		*e;
	struct raw_sample	 rs;
	size_t			 first;	/* the @lpar pick's first counter */
	int			 no_inst5;	/* partition 5 reads cycles only */
};

/* Partition 2 has virtual processors 0 and 1, partition 5 has 0. */
static const struct {
	uint16_t	 lpar;
	unsigned	 vcpu;
} rows[] = { { 2, 0 }, { 2, 1 }, { 5, 0 } };
#define NROWS	(sizeof rows / sizeof rows[0])

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
 * A core pick by the parser, then an @lpar pick by hand, as the contract
 * lays its counters out: per partition, per virtual processor, per
 * placement in places, per event.
 */
static void
select_lpar(struct fixture *f, unsigned places,
    const struct engine_metric_def *defs, size_t ndefs)
{
	struct sel_pick		*pk;
	struct sel_counter	*c;
	char			*cause = NULL;
	size_t			 r, p, j, n;

	if (selection_add(&f->sel, f->cat, &f->topo,
	    "HPM_0THRD_NON_IDLE_CCYC@core:0,2", 0, &cause) != 0)
		fail_msg("%s", cause);
	f->first = f->sel.ncounters;
	f->sel.picks = xreallocarray(f->sel.picks, f->sel.npicks + 1,
	    sizeof *f->sel.picks);
	pk = &f->sel.picks[f->sel.npicks];
	memset(pk, 0, sizeof *pk);
	pk->kind = SEL_EVENT;
	pk->spec = xstrdup("HPM_CCYC@lpar");
	pk->name = xstrdup("HPM_CCYC");
	pk->domain = SEL_DOMAIN_LPAR;
	pk->lpar = SEL_LPAR_SELF;
	pk->places = places;
	pk->events = xcalloc(NEV, sizeof *pk->events);
	pk->events[0] = catalog_find_event(f->cat, "HPM_CCYC", 0);
	pk->events[1] = catalog_find_event(f->cat, "HPM_INST", 0);
	assert_non_null(pk->events[0]);
	assert_non_null(pk->events[1]);
	pk->nevents = NEV;
	pk->first = f->first;
	n = f->sel.ncounters;
	for (r = 0; r < NROWS; r++)
		for (p = 0; p < SEL_NPLACES; p++)
			for (j = 0; places & (1U << p) && j < NEV; j++) {
				if (f->no_inst5 && rows[r].lpar == 5 && j == 1)
					continue;
				f->sel.counters = xreallocarray(
				    f->sel.counters, n + 1,
				    sizeof *f->sel.counters);
				c = &f->sel.counters[n++];
				c->event = pk->events[j];
				c->domain = 3 + (int)p;
				c->index = rows[r].vcpu;
				c->lpar = rows[r].lpar;
				c->pick = f->sel.npicks;
				c->column = j;
			}
	f->sel.ncounters = n;
	f->sel.npicks++;
	f->e = engine_new(f->cat, &f->sel, TB_HZ, defs, ndefs, NULL, NULL);
	f->rs.values = xcalloc(n, sizeof *f->rs.values);
	f->rs.nvalues = n;
}

/*
 * The value of the @lpar counter (row r, place p, event j) after t
 * intervals: cycles 1000 * (r + 1) * (p + 1) per interval, instructions
 * half as many.
 */
static uint64_t
lpar_value(size_t r, size_t p, size_t j, uint64_t t)
{
	return (t * 1000 * (r + 1) * (p + 1) / (j + 1));
}

/* Fill sample t (one second apart) with every counter. */
static void
fill(struct fixture *f, uint64_t t)
{
	const struct sel_counter	*c;
	size_t				 k, r;

	f->rs.now = (t + 1) * 1000000000ULL;
	for (k = 0; k < f->rs.nvalues; k++) {
		c = &f->sel.counters[k];
		f->rs.values[k].status = RAW_OK;
		f->rs.values[k].timebase = (t + 1) * TB_HZ;
		if (k < f->first) {
			f->rs.values[k].value = t * 100 * (k + 1);
			continue;
		}
		for (r = 0; r < NROWS; r++)
			if (rows[r].lpar == c->lpar &&
			    rows[r].vcpu == c->index)
				break;
		f->rs.values[k].value = lpar_value(r, (size_t)c->domain - 3,
		    c->column, t);
	}
}

/* A derived value as the outputs read it: a number, or a mark and why. */
struct derived {
	double		 value;
	int		 ok;
	const char	*mark;
	const char	*reason;
};

/* The derived cell what (of column col, placement p) of row r, or NULL. */
static const struct engine_cell *
derived_cell(const struct fixture *f, const struct engine_snapshot *s,
    size_t view, size_t r, int what, size_t col, size_t p)
{
	return (engine_cell(f->e, s, view, r, engine_derive_col(
	    engine_view(f->e, view), what, col, p)));
}

static int
derived(const struct fixture *f, const struct engine_snapshot *s,
    size_t view, size_t r, int what, size_t col, size_t p,
    struct derived *lv)
{
	const struct engine_cell	*c;

	memset(lv, 0, sizeof *lv);
	if ((c = derived_cell(f, s, view, r, what, col, p)) == NULL)
		fail_msg("view %zu row %zu has no derived value %d", view, r,
		    what);
	lv->ok = c->status == ENG_OK;
	lv->value = c->value;
	lv->mark = engine_cell_mark(c);
	lv->reason = engine_derive_reason(c);
	/* Never NaN, and a mark with a reason when there is no number. */
	assert_true(isfinite(c->value));
	assert_true(lv->ok == (lv->mark == NULL));
	assert_true(lv->ok == (lv->reason == NULL));
	return (lv->ok);
}

static void
test_views(void **state)
{
	struct fixture			*f = *state;
	const struct engine_view	*core, *lv, *vv;
	size_t				 nl, nv, first, n;

	select_lpar(f, 0xf, NULL, 0);
	assert_int_equal(engine_nviews(f->e), 3);
	core = engine_view(f->e, 0);
	assert_string_equal(core->term, "core");
	assert_int_equal(core->nrows, 2);
	assert_null(core->place_counter);
	nl = engine_view_find(f->e, ENG_VIEW_LPAR);
	nv = engine_view_find(f->e, ENG_VIEW_LPAR_VCPU);
	assert_int_equal(nl, 1);
	assert_int_equal(nv, 2);
	lv = engine_view(f->e, nl);
	vv = engine_view(f->e, nv);
	assert_string_equal(lv->term, "lpar");
	assert_int_equal(lv->nrows, 2);
	assert_int_equal(lv->indices[0], 2);
	assert_int_equal(lv->indices[1], 5);
	assert_int_equal(lv->vcpus[0], 2);
	assert_int_equal(lv->vcpus[1], 1);
	assert_int_equal(lv->nevents, NEV);
	assert_int_equal(lv->places, 0xf);
	assert_int_equal(vv->nrows, 3);
	assert_int_equal(vv->indices[1], 2 << 16 | 1);
	assert_int_equal(ENG_ROW_LPAR(vv->indices[2]), 5);
	assert_int_equal(ENG_ROW_VCPU(vv->indices[2]), 0);
	/* Row 1 (partition 2, vcpu 1), HPM_INST, domain 5. */
	assert_int_equal(vv->place_counter[(1 * NEV + 1) * SEL_NPLACES + 2],
	    f->first + 1 * SEL_NPLACES * NEV + 2 * NEV + 1);
	assert_int_equal(engine_lpar_row(lv, 5), 1);
	assert_int_equal(engine_lpar_row(lv, 3), ENG_NONE);
	engine_lpar_vcpu_rows(vv, 2, &first, &n);
	assert_int_equal(first, 0);
	assert_int_equal(n, 2);
	engine_lpar_vcpu_rows(vv, 5, &first, &n);
	assert_int_equal(first, 2);
	assert_int_equal(n, 1);
	engine_lpar_vcpu_rows(vv, 9, &first, &n);
	assert_int_equal(n, 0);
	/* The core frequency is asked of the session. */
	assert_string_equal(engine_constant_name(f->e, 0), ENG_LPAR_FREQ);
}

static void
test_sums(void **state)
{
	struct fixture			*f = *state;
	struct engine_snapshot		*s;
	const struct engine_cell	*c;
	size_t				 nl, nv, r, p, j;
	double				 want, sum;

	select_lpar(f, 0xf, NULL, 0);
	nl = engine_view_find(f->e, ENG_VIEW_LPAR);
	nv = engine_view_find(f->e, ENG_VIEW_LPAR_VCPU);
	fill(f, 0);
	s = engine_update(f->e, &f->rs);
	c = engine_cell(f->e, s, nv, 0, 0);
	assert_int_equal(c->status, ENG_NOBASE);
	assert_int_equal(engine_place_cell(f->e, s, nv, 0, 0, 3)->status,
	    ENG_NOBASE);
	fill(f, 1);
	s = engine_update_reuse(f->e, &f->rs, s);
	/* A virtual processor: its placements, and their sum. */
	for (r = 0; r < NROWS; r++)
		for (j = 0; j < NEV; j++) {
			sum = 0;
			for (p = 0; p < SEL_NPLACES; p++) {
				c = engine_place_cell(f->e, s, nv, r, j, p);
				assert_int_equal(c->status, ENG_OK);
				want = (double)lpar_value(r, p, j, 1);
				assert_float_equal(c->value, want, 1e-9);
				sum += want;
			}
			c = engine_cell(f->e, s, nv, r, j);
			assert_int_equal(c->status, ENG_OK);
			assert_float_equal(c->value, sum, 1e-9);
			assert_float_equal(c->delta, sum, 1e-9);
		}
	/* Partition 2: cycles 1000 * (1 + 2) * (1 + 2 + 3 + 4). */
	c = engine_cell(f->e, s, nl, 0, 0);
	assert_int_equal(c->status, ENG_OK);
	assert_float_equal(c->value, 30000, 1e-9);
	c = engine_place_cell(f->e, s, nl, 0, 0, 3);
	assert_float_equal(c->value, 12000, 1e-9);
	/* The total: both partitions; remote node 1000 * 6 * 4. */
	c = engine_cell(f->e, s, nl, 2, 0);
	assert_float_equal(c->value, 60000, 1e-9);
	c = engine_place_cell(f->e, s, nl, 2, 0, 3);
	assert_int_equal(c->status, ENG_OK);
	assert_float_equal(c->value, 24000, 1e-9);
	assert_float_equal(engine_cell(f->e, s, nv, 3, 1)->value, 30000,
	    1e-9);
	/* Not for other views, nor metric columns. */
	assert_null(engine_place_cell(f->e, s, 0, 0, 0, 0));
	assert_null(engine_place_cell(f->e, s, nl, 0, NEV, 0));
	assert_null(engine_place_cell(f->e, s, nl, 0, 0, SEL_NPLACES));
	/* The core view is as without partitions: 100 * (k + 1). */
	assert_float_equal(engine_cell(f->e, s, 0, 1, 2)->value, 600, 1e-9);
	engine_snapshot_free(s);
}

static void
test_failed_place(void **state)
{
	struct fixture			*f = *state;
	struct engine_snapshot		*s;
	struct derived			 lv;
	size_t				 nl, nv, k;

	select_lpar(f, 0xf, NULL, 0);
	nl = engine_view_find(f->e, ENG_VIEW_LPAR);
	nv = engine_view_find(f->e, ENG_VIEW_LPAR_VCPU);
	fill(f, 0);
	s = engine_update(f->e, &f->rs);
	fill(f, 1);
	/* Partition 2, vcpu 1, remote node, cycles: failed. */
	k = engine_view(f->e, nv)->place_counter[(1 * NEV + 0) *
	    SEL_NPLACES + 3];
	f->rs.values[k].status = RAW_FAILED;
	s = engine_update_reuse(f->e, &f->rs, s);
	assert_int_equal(engine_place_cell(f->e, s, nv, 1, 0, 3)->status,
	    ENG_FAILED);
	assert_int_equal(engine_place_cell(f->e, s, nv, 1, 0, 2)->status,
	    ENG_OK);
	/* Not a smaller sum: no sum, up to the partition and the total. */
	assert_int_equal(engine_cell(f->e, s, nv, 1, 0)->status, ENG_FAILED);
	assert_int_equal(engine_cell(f->e, s, nl, 0, 0)->status, ENG_FAILED);
	assert_int_equal(engine_place_cell(f->e, s, nl, 0, 0, 3)->status,
	    ENG_FAILED);
	assert_int_equal(engine_place_cell(f->e, s, nl, 0, 0, 2)->status,
	    ENG_OK);
	assert_int_equal(engine_cell(f->e, s, nl, 2, 0)->status, ENG_FAILED);
	assert_int_equal(engine_cell(f->e, s, nl, 1, 0)->status, ENG_OK);
	assert_int_equal(engine_cell(f->e, s, nl, 0, 1)->status, ENG_OK);
	assert_int_equal(derived(f, s, nl, 0, ENG_DERIVE_EV_REMOTE, 0, 0,
	    &lv), 0);
	assert_string_equal(lv.mark, "-");
	assert_string_equal(lv.reason, "the read failed");
	assert_int_equal(derived(f, s, nl, 0, ENG_DERIVE_IPC, 0, 0, &lv), 0);
	assert_int_equal(derived(f, s, nl, 1, ENG_DERIVE_IPC, 0, 0, &lv), 1);
	engine_snapshot_free(s);
}

static void
test_derived(void **state)
{
	struct fixture			*f = *state;
	struct engine_snapshot		*s;
	struct derived			 lv;
	struct engine_lpar_cols		 cols;
	size_t				 nl, nv;

	select_lpar(f, 0xf, NULL, 0);
	nl = engine_view_find(f->e, ENG_VIEW_LPAR);
	nv = engine_view_find(f->e, ENG_VIEW_LPAR_VCPU);
	engine_lpar_cols(engine_view(f->e, nl), &cols);
	assert_int_equal(cols.cycles, 0);
	assert_int_equal(cols.insts, 1);
	assert_true(engine_lpar_is_cycles("PM_RUN_CYC"));
	assert_true(engine_lpar_is_insts("CPM_NON_IDLE_INST"));
	assert_false(engine_lpar_is_cycles("PM_INST_CMPL"));
	assert_string_equal(engine_place_name(3), "remote_node");
	assert_null(engine_place_name(4));
	fill(f, 0);
	s = engine_update(f->e, &f->rs);
	/* No interval yet: a mark and why, never NaN. */
	assert_int_equal(derived(f, s, nl, 0, ENG_DERIVE_EV_OFF_CHIP, 0, 0,
	    &lv), 0);
	assert_string_equal(lv.mark, "-");
	assert_string_equal(lv.reason, "first sample: no interval yet");
	fill(f, 1);
	s = engine_update_reuse(f->e, &f->rs, s);
	/* Places weigh 1, 2, 3, 4: off the home chip 7/10, remote 4/10. */
	assert_int_equal(derived(f, s, nl, 0, ENG_DERIVE_EV_OFF_CHIP, 0, 0,
	    &lv), 1);
	assert_float_equal(lv.value, 0.7, 1e-12);
	assert_int_equal(derived(f, s, nv, 2, ENG_DERIVE_EV_REMOTE, 1, 0,
	    &lv), 1);
	assert_float_equal(lv.value, 0.4, 1e-12);
	assert_int_equal(derived(f, s, nl, 2, ENG_DERIVE_EV_REMOTE, 0, 0,
	    &lv), 1);
	assert_float_equal(lv.value, 0.4, 1e-12);
	assert_int_equal(derived(f, s, nv, 1, ENG_DERIVE_PLACE, 0, 1, &lv),
	    1);
	assert_float_equal(lv.value, 0.2, 1e-12);
	assert_null(derived_cell(f, s, 0, 1, ENG_DERIVE_PLACE, 0, 1));
	assert_int_equal(derived(f, s, nl, 1, ENG_DERIVE_IPC, 0, 0, &lv), 1);
	assert_float_equal(lv.value, 0.5, 1e-12);
	/* Cores: the frequency is not known until it is set, and the cell
	 * is computed with the sample. */
	assert_int_equal(derived(f, s, nl, 0, ENG_DERIVE_CORES, 0, 0, &lv),
	    0);
	assert_string_equal(lv.mark, "?");
	assert_non_null(strstr(lv.reason, "--const CPU_Freq="));
	engine_set_constant(f->e, ENG_LPAR_FREQ, 1e4);
	fill(f, 2);
	s = engine_update_reuse(f->e, &f->rs, s);
	assert_int_equal(derived(f, s, nl, 0, ENG_DERIVE_CORES, 0, 0, &lv),
	    1);
	assert_float_equal(lv.value, 3, 1e-12);
	/* Not a partition view. */
	assert_null(derived_cell(f, s, 0, 0, ENG_DERIVE_EV_REMOTE, 0, 0));
	engine_snapshot_free(s);
}

/*
 * The derived cells' statuses and reasons when an operand has no value:
 * the first sample, a partition that reads no instructions (and so a
 * total of rows that read different things), a core frequency not
 * known, placements not read, nothing counted.  engine_explain() says
 * of them what the outputs say.
 */
static void
test_derived_reasons(void **state)
{
	struct fixture			*f = *state;
	struct engine_snapshot		*s;
	const struct engine_view	*lv;
	const struct engine_cell	*c;
	struct derived			 d;
	size_t				 nl, col;
	char				*why;

	f->no_inst5 = 1;
	select_lpar(f, 0xf, NULL, 0);
	nl = engine_view_find(f->e, ENG_VIEW_LPAR);
	lv = engine_view(f->e, nl);
	/* Row values, then two per event column, then four per column. */
	assert_int_equal(lv->nderived, 4 + 2 * NEV + NEV * SEL_NPLACES);
	assert_int_equal(engine_derive_col(lv, ENG_DERIVE_IPC, 0, 0),
	    NEV + lv->nmetrics);
	assert_int_equal(engine_derive_col(lv, ENG_DERIVE_PLACE, 1, 3),
	    NEV + lv->nmetrics + lv->nderived - 1);
	assert_int_equal(engine_derive_col(lv, ENG_DERIVE_EV_REMOTE, NEV, 0),
	    ENG_NONE);
	assert_int_equal(engine_derive_col(lv, ENG_NDERIVED, 0, 0), ENG_NONE);
	assert_int_equal(engine_derive_col(engine_view(f->e, 0),
	    ENG_DERIVE_IPC, 0, 0), ENG_NONE);
	assert_string_equal(engine_derive_name(ENG_DERIVE_OFF_CHIP),
	    "off_home_chip");
	assert_string_equal(engine_derive_name(ENG_DERIVE_EV_REMOTE),
	    "remote_node");
	assert_null(engine_derive_name(ENG_NDERIVED));
	assert_string_equal(engine_derive_ipc_label(lv), "IPC");
	fill(f, 0);
	s = engine_update(f->e, &f->rs);
	/* The first sample: the operands' status, said as theirs. */
	c = derived_cell(f, s, nl, 0, ENG_DERIVE_IPC, 0, 0);
	assert_int_equal(c->status, ENG_NOBASE);
	assert_string_equal(engine_cell_mark(c), "-");
	col = engine_derive_col(lv, ENG_DERIVE_IPC, 0, 0);
	why = engine_explain(f->e, s, nl, 0, col);
	assert_string_equal(why, "first sample: no interval yet");
	free(why);
	fill(f, 1);
	s = engine_update_reuse(f->e, &f->rs, s);
	/* Partition 5 reads no instructions: no IPC, and none of the
	 * total, which would set one partition's against both's cycles. */
	assert_int_equal(derived(f, s, nl, 0, ENG_DERIVE_IPC, 0, 0, &d), 1);
	assert_float_equal(d.value, 0.5, 1e-12);
	assert_int_equal(derived(f, s, nl, 1, ENG_DERIVE_IPC, 0, 0, &d), 0);
	assert_int_equal(derived_cell(f, s, nl, 1, ENG_DERIVE_IPC, 0,
	    0)->status, ENG_ABSENT);
	assert_string_equal(d.mark, "-");
	assert_string_equal(d.reason, "not selected for this index");
	assert_int_equal(derived(f, s, nl, lv->nrows, ENG_DERIVE_IPC, 0, 0,
	    &d), 0);
	assert_string_equal(d.reason, "the rows do not all read both cycles "
	    "and instructions");
	/* Cores: "?" while the frequency is not known, and why. */
	c = derived_cell(f, s, nl, 0, ENG_DERIVE_CORES, 0, 0);
	assert_int_equal(c->status, ENG_NOVALUE);
	assert_string_equal(engine_cell_mark(c), "?");
	why = engine_explain(f->e, s, nl, 0, engine_derive_col(lv,
	    ENG_DERIVE_CORES, 0, 0));
	assert_string_equal(why, "the core frequency is not known: set it "
	    "with --const CPU_Freq=VALUE");
	free(why);
	/* The shares of a column a partition does not read. */
	assert_int_equal(derived(f, s, nl, 1, ENG_DERIVE_EV_OFF_CHIP, 1, 0,
	    &d), 0);
	assert_string_equal(d.reason, "needs all four placements (domains 3 "
	    "to 6): not all are read");
	assert_int_equal(derived(f, s, nl, 1, ENG_DERIVE_PLACE, 1, 2, &d), 0);
	assert_string_equal(d.reason, "this placement is not read");
	/* The cycles' shares of a row are its cycles column's. */
	assert_int_equal(derived(f, s, nl, 1, ENG_DERIVE_REMOTE, 0, 0, &d), 1);
	assert_float_equal(d.value, 0.4, 1e-12);
	why = engine_explain(f->e, s, nl, 1, engine_derive_col(lv,
	    ENG_DERIVE_REMOTE, 0, 0));
	assert_string_equal(why, "ok");
	free(why);
	/* Nothing counted: no share, no IPC (a division by zero, "-"). */
	fill(f, 1);
	f->rs.now += 1000000000ULL;
	for (col = 0; col < f->rs.nvalues; col++)
		f->rs.values[col].timebase += TB_HZ;
	s = engine_update_reuse(f->e, &f->rs, s);
	assert_int_equal(engine_cell(f->e, s, nl, 0, 0)->status, ENG_OK);
	assert_int_equal(derived(f, s, nl, 0, ENG_DERIVE_IPC, 0, 0, &d), 0);
	assert_string_equal(d.mark, "-");
	assert_string_equal(d.reason, "division by zero");
	assert_int_equal(derived(f, s, nl, 0, ENG_DERIVE_OFF_CHIP, 0, 0, &d),
	    0);
	assert_string_equal(d.reason, "nothing counted in the interval");
	assert_int_equal(derived(f, s, nl, 0, ENG_DERIVE_PLACE, 0, 0, &d), 0);
	assert_string_equal(d.reason, "nothing counted in the interval");
	engine_snapshot_free(s);
}

/* Without a core cycles column: "?" and why, for the row's values. */
static void
test_derived_no_cycles(void **state)
{
	struct fixture			*f = *state;
	struct engine_snapshot		*s;
	const struct engine_view	*lv;
	struct derived			 d;
	size_t				 nl;

	select_lpar(f, 0xf, NULL, 0);
	/* Call the cycles column something else, as if not read. */
	f->sel.picks[f->sel.npicks - 1].events[0] = catalog_find_event(f->cat,
	    "HPM_0THRD_NON_IDLE_CCYC", 0);
	assert_non_null(f->sel.picks[f->sel.npicks - 1].events[0]);
	for (nl = f->first; nl < f->sel.ncounters; nl++)
		if (f->sel.counters[nl].column == 0)
			f->sel.counters[nl].event =
			    f->sel.picks[f->sel.npicks - 1].events[0];
	engine_free(f->e);
	f->e = engine_new(f->cat, &f->sel, TB_HZ, NULL, 0, NULL, NULL);
	engine_set_constant(f->e, ENG_LPAR_FREQ, 1e4);
	nl = engine_view_find(f->e, ENG_VIEW_LPAR);
	lv = engine_view(f->e, nl);
	fill(f, 0);
	s = engine_update(f->e, &f->rs);
	fill(f, 1);
	s = engine_update_reuse(f->e, &f->rs, s);
	assert_int_equal(derived(f, s, nl, 0, ENG_DERIVE_IPC, 0, 0, &d), 0);
	assert_string_equal(d.mark, "?");
	assert_string_equal(d.reason, "no core cycles event is read");
	assert_int_equal(derived(f, s, nl, 0, ENG_DERIVE_CORES, 0, 0, &d), 0);
	assert_string_equal(d.mark, "?");
	assert_int_equal(derived(f, s, nl, lv->nrows, ENG_DERIVE_OFF_CHIP, 0,
	    0, &d), 0);
	assert_string_equal(d.mark, "?");
	assert_string_equal(d.reason, "no core cycles event is read");
	/* The columns' own shares are there still. */
	assert_int_equal(derived(f, s, nl, 0, ENG_DERIVE_EV_OFF_CHIP, 0, 0,
	    &d), 1);
	assert_float_equal(d.value, 0.7, 1e-12);
	engine_snapshot_free(s);
}

static void
test_some_places(void **state)
{
	struct fixture			*f = *state;
	struct engine_snapshot		*s;
	struct derived			 lv;
	size_t				 nl;

	/* Domains 3 and 6 only: sums of those, shares need all four. */
	select_lpar(f, 0x9, NULL, 0);
	nl = engine_view_find(f->e, ENG_VIEW_LPAR);
	assert_int_equal(engine_view(f->e, nl)->places, 0x9);
	fill(f, 0);
	s = engine_update(f->e, &f->rs);
	fill(f, 1);
	s = engine_update_reuse(f->e, &f->rs, s);
	assert_float_equal(engine_cell(f->e, s, nl, 1, 0)->value,
	    3000 * (1 + 4), 1e-9);
	assert_int_equal(engine_place_cell(f->e, s, nl, 1, 0, 1)->status,
	    ENG_ABSENT);
	assert_int_equal(derived(f, s, nl, 1, ENG_DERIVE_EV_OFF_CHIP, 0, 0,
	    &lv), 0);
	assert_string_equal(lv.mark, "-");
	assert_non_null(strstr(lv.reason, "all four placements"));
	engine_snapshot_free(s);
}

static void
test_metrics(void **state)
{
	struct fixture			*f = *state;
	struct engine_snapshot		*s;
	const struct engine_view	*v;
	const struct engine_cell	*c;
	static const struct engine_metric_def defs[] = {
		{ "ipc", "HPM_INST / HPM_CCYC", "", "", "test", NULL, 0 },
	};
	size_t				 nl;

	select_lpar(f, 0xf, defs, 1);
	nl = engine_view_find(f->e, ENG_VIEW_LPAR);
	v = engine_view(f->e, nl);
	assert_int_equal(v->nmetrics, 1);
	fill(f, 0);
	s = engine_update(f->e, &f->rs);
	fill(f, 1);
	s = engine_update_reuse(f->e, &f->rs, s);
	c = engine_cell(f->e, s, nl, 0, NEV);
	assert_int_equal(c->status, ENG_OK);
	assert_float_equal(c->value, 0.5, 1e-12);
	c = engine_cell(f->e, s, nl, v->nrows, NEV);
	assert_int_equal(c->status, ENG_OK);
	assert_float_equal(c->value, 0.5, 1e-12);
	/* Reused: the shape holds the placements' cells too. */
	fill(f, 2);
	s = engine_update_reuse(f->e, &f->rs, s);
	assert_float_equal(engine_place_cell(f->e, s, nl, 1, 1, 0)->value,
	    1500, 1e-9);
	engine_snapshot_free(s);
}

/*
 * One placement's read of a virtual processor's cycles fails, then reads
 * well: its delta covers two intervals, the other placements' one, so
 * the sum covers no one span and a metric of it has no value, up to
 * the partition; the instructions, read well, still have theirs.
 */
static void
test_split_place(void **state)
{
	struct fixture			*f = *state;
	struct engine_snapshot		*s;
	const struct engine_view	*vv;
	const struct engine_cell	*c;
	static const struct engine_metric_def defs[] = {
		{ "ipc", "HPM_INST / HPM_CCYC", "", "", "test", NULL, 0 },
		{ "inst", "HPM_INST / delta-seconds", "/s", "", "test", NULL,
		    0 },
	};
	size_t				 nl, nv, k;
	char				*why;

	select_lpar(f, 0xf, defs, 2);
	nl = engine_view_find(f->e, ENG_VIEW_LPAR);
	nv = engine_view_find(f->e, ENG_VIEW_LPAR_VCPU);
	vv = engine_view(f->e, nv);
	/* Partition 2, vcpu 1, home chip, cycles. */
	k = vv->place_counter[(1 * NEV + 0) * SEL_NPLACES + 1];
	fill(f, 0);
	s = engine_update(f->e, &f->rs);
	fill(f, 1);
	f->rs.values[k].status = RAW_BUSY;
	s = engine_update_reuse(f->e, &f->rs, s);
	fill(f, 2);
	s = engine_update_reuse(f->e, &f->rs, s);
	assert_int_equal(engine_place_cell(f->e, s, nv, 1, 0, 1)->span, 2);
	assert_int_equal(engine_place_cell(f->e, s, nv, 1, 0, 0)->span, 1);
	c = engine_cell(f->e, s, nv, 1, 0);
	assert_int_equal(c->status, ENG_OK);
	assert_int_equal(c->span, 0);
	c = engine_cell(f->e, s, nv, 1, NEV);
	assert_int_equal(c->status, ENG_SPLIT);
	why = engine_explain(f->e, s, nv, 1, NEV);
	assert_string_equal(why, "HPM_CCYC sums reads over different "
	    "intervals (a read failed in between): no value over one span");
	free(why);
	assert_int_equal(engine_cell(f->e, s, nl, 0, NEV)->status, ENG_SPLIT);
	/* Its other virtual processor, and the other partition, read well. */
	assert_int_equal(engine_cell(f->e, s, nv, 0, NEV)->status, ENG_OK);
	assert_int_equal(engine_cell(f->e, s, nl, 1, NEV)->status, ENG_OK);
	c = engine_cell(f->e, s, nl, 0, NEV + 1);
	assert_int_equal(c->status, ENG_OK);
	/* Partition 2's instructions: 500 * (1 + 2) * (1 + 2 + 3 + 4). */
	assert_float_equal(c->value, 15000, 1e-9);
	engine_snapshot_free(s);
}

/*
 * A whole run's totals (counting over a command): partition 5's records
 * cover 1.5 s, partition 2's 1 s.  Rates over the mean of the rows'
 * seconds would give each view's total another count; counted, every
 * view sums the same deltas, 1000 * (1 + 2 + 3) * (1 + 2 + 3 + 4) cycles,
 * and each total's rate is that count over its seconds.
 */
static void
test_count_whole(void **state)
{
	struct fixture			*f = *state;
	struct engine_snapshot		*s;
	const struct engine_view	*lv, *vv;
	const struct engine_cell	*c;
	size_t				 nl, nv, k, p;

	select_lpar(f, 0xf, NULL, 0);
	engine_count_whole(f->e, 1);
	nl = engine_view_find(f->e, ENG_VIEW_LPAR);
	nv = engine_view_find(f->e, ENG_VIEW_LPAR_VCPU);
	lv = engine_view(f->e, nl);
	vv = engine_view(f->e, nv);
	fill(f, 0);
	s = engine_update(f->e, &f->rs);
	fill(f, 1);
	for (k = f->first; k < f->rs.nvalues; k++)
		if (f->sel.counters[k].lpar == 5)
			f->rs.values[k].timebase = TB_HZ + 3 * TB_HZ / 2;
	s = engine_update_reuse(f->e, &f->rs, s);
	assert_float_equal(s->row_interval[nv][2], 1.5, 1e-12);
	c = engine_cell(f->e, s, nv, vv->nrows, 0);
	assert_int_equal(c->status, ENG_OK);
	assert_float_equal(c->delta, 60000, 0);
	assert_float_equal(c->value, 60000 / s->row_interval[nv][vv->nrows],
	    1e-9);
	c = engine_cell(f->e, s, nl, lv->nrows, 0);
	assert_int_equal(c->status, ENG_OK);
	assert_float_equal(c->delta, 60000, 0);
	assert_float_equal(c->value, 60000 / s->row_interval[nl][lv->nrows],
	    1e-9);
	/* The placements' totals too: remote node 1000 * 6 * 4. */
	for (p = 0; p < SEL_NPLACES; p++) {
		c = engine_place_cell(f->e, s, nl, lv->nrows, 0, p);
		assert_float_equal(c->delta, 1000.0 * 6 * (double)(p + 1), 0);
	}
	engine_snapshot_free(s);
}

static void
test_estimates(void **state)
{
	struct fixture			*f = *state;
	struct engine_snapshot		*s;
	const struct engine_cell	*c;
	size_t				 nl, nv, k;

	select_lpar(f, 0xf, NULL, 0);
	nl = engine_view_find(f->e, ENG_VIEW_LPAR);
	nv = engine_view_find(f->e, ENG_VIEW_LPAR_VCPU);
	fill(f, 0);
	s = engine_update(f->e, &f->rs);
	fill(f, 1);
	k = engine_view(f->e, nv)->place_counter[(2 * NEV + 0) *
	    SEL_NPLACES + 1];
	f->rs.values[k].status = RAW_SCALED;
	f->rs.values[k].counted = 40;
	s = engine_update_reuse(f->e, &f->rs, s);
	c = engine_place_cell(f->e, s, nv, 2, 0, 1);
	assert_true(c->estimated);
	assert_int_equal(c->counted, 40);
	assert_true(engine_cell(f->e, s, nv, 2, 0)->estimated);
	assert_true(engine_cell(f->e, s, nl, 1, 0)->estimated);
	assert_true(engine_cell(f->e, s, nl, 2, 0)->estimated);
	assert_false(engine_cell(f->e, s, nl, 0, 0)->estimated);
	assert_false(engine_cell(f->e, s, nl, 1, 1)->estimated);
	engine_snapshot_free(s);
}

/*
 * The outputs of three intervals, the second with a failed placement, in
 * format fmt; written to the file $HVTOP_LPAR_OUT.fmt too when that is
 * set, for the scripts that load them as their readers would.
 */
static char *
export_run(struct fixture *f, int fmt, const char *suffix)
{
	struct export		*x;
	struct engine_snapshot	*s = NULL;
	struct strbuf		 sb = { 0 };
	struct export_info	 info = { "sim", "fixture", "hcalls", NULL };
	const char		*out = getenv("HVTOP_LPAR_OUT");
	char			*path;
	FILE			*fp;
	uint64_t		 t;
	size_t			 k;

	select_lpar(f, 0xf, NULL, 0);
	engine_set_constant(f->e, ENG_LPAR_FREQ, 1e4);
	x = export_new(fmt, f->e, &info);
	for (t = 0; t < 3; t++) {
		fill(f, t);
		if (t == 1) {
			k = engine_view(f->e, engine_view_find(f->e,
			    ENG_VIEW_LPAR_VCPU))->place_counter[(2 * NEV +
			    1) * SEL_NPLACES + 3];
			if (k < f->rs.nvalues)
				f->rs.values[k].status = RAW_BUSY;
		}
		/* Partition 5's cycles on its home core: perf scaled them. */
		if (t == 2 && !f->no_inst5) {
			k = engine_view(f->e, engine_view_find(f->e,
			    ENG_VIEW_LPAR_VCPU))->place_counter[(2 * NEV +
			    0) * SEL_NPLACES + 0];
			f->rs.values[k].status = RAW_SCALED;
			f->rs.values[k].counted = 40;
		}
		s = engine_update_reuse(f->e, &f->rs, s);
		export_snapshot(x, s, 1700000000000000000ULL + t * 1000000000ULL,
		    &sb);
	}
	engine_snapshot_free(s);
	export_free(x);
	if (out != NULL) {
		if (asprintf(&path, "%s.%s", out, suffix) < 0)
			fail();
		assert_non_null(fp = fopen(path, "w"));
		fputs(sb.s, fp);
		fclose(fp);
		free(path);
	}
	return (strbuf_detach(&sb));
}

static void
test_export_text(void **state)
{
	char	*out;

	out = export_run(*state, EXPORT_TEXT, "txt");
	if (getenv("HVTOP_LPAR_SHOW") != NULL)
		fputs(out, stderr);
	/* The core view's table is as it was. */
	assert_non_null(strstr(out, "\ncore   HPM_0THRD_NON_IDLE_CCYC "));
	assert_non_null(strstr(out, "\nlpar   vcpus   HPM_CCYC %offchip  "
	    "%remote   HPM_INST %offchip  %remote    cores      IPC\n"));
	assert_non_null(strstr(out, "\ntotal      3       60.0     70.0     "
	    "40.0          -        -        -     6.00        -\n"));
	/* Cores and IPC of the summed placements: 30000 / 1e4, 1/2. */
	assert_non_null(strstr(out, "\n2          2       30.0     70.0     "
	    "40.0       15.0     70.0     40.0     3.00     0.50\n"));
	assert_non_null(strstr(out, "\n-      IPC: the hypervisor was "
	    "busy\n"));
	assert_non_null(strstr(out, "\n-      HPM_INST %offchip: the "
	    "hypervisor was busy\n"));
	assert_non_null(strstr(out, "\nlpar    vcpu   HPM_CCYC   %hcore   "
	    "%hchip   %hnode  %remote"));
	assert_non_null(strstr(out, "\n2          1       20.0     10.0     "
	    "20.0     30.0     40.0       10.0     10.0"));
	free(out);
}

static void
test_export_csv(void **state)
{
	char	*out;

	out = export_run(*state, EXPORT_CSV, "csv");
	if (getenv("HVTOP_LPAR_SHOW") != NULL)
		fputs(out, stderr);
	assert_non_null(strstr(out, "time,seq,interval_s,domain,index,lpar,"
	    "vcpu,vcpus,placement,ipc,cores,off_home_chip,remote_node,"
	    "HPM_0THRD_NON_IDLE_CCYC [/s],"));
	assert_non_null(strstr(out, ",1,1,core,2,,,,,,,,,400,500,600,,,,\n"));
	/* IPC, cores and the cycles' shares on the sum's row alone. */
	assert_non_null(strstr(out, ",1,1,lpar,2,2,,2,all,0.5,3,0.7,0.4,,,,"
	    "30000,15000,,\n"));
	assert_non_null(strstr(out, ",1,1,lpar,2,2,,2,home_chip,,,,,,,,6000,"
	    "3000,,\n"));
	assert_non_null(strstr(out, ",1,1,lpar,5,5,,1,remote_node,,,,,,,,"
	    "12000,,HPM_INST: the hypervisor was busy,\n"));
	assert_non_null(strstr(out, ",1,1,lpar,5,5,,1,all,,3,0.7,0.4,,,,"
	    "30000,,HPM_INST: the hypervisor was busy; ipc: the hypervisor "
	    "was busy,\n"));
	assert_non_null(strstr(out, ",1,1,lpar,total,,,3,all,,6,0.7,0.4,,,,"
	    "60000,,"));
	assert_non_null(strstr(out, ",2,1,lpar_vcpu,1,2,1,,all,0.5,2,0.7,0.4,"
	    ",,,20000,10000,,\n"));
	assert_non_null(strstr(out, ",2,1,lpar_vcpu,total,,,,remote_node,,,,"
	    ",,,,24000,12000,,\n"));
	assert_non_null(strstr(out, ",2,1,lpar,5,5,,1,home_core,,,,,,,,3000,"
	    "1500,HPM_CCYC: estimated: counted 40 % of the interval,\n"));
	free(out);
}

static void
test_export_json(void **state)
{
	char	*out;

	out = export_run(*state, EXPORT_JSON, "json");
	if (getenv("HVTOP_LPAR_SHOW") != NULL)
		fputs(out, stderr);
	assert_non_null(strstr(out, "{\"domain\":\"lpar\",\"index\":2,"
	    "\"total\":false,\"lpar\":2,\"vcpus\":2,\"interval_s\":1.0,"
	    "\"values\":{\"HPM_CCYC\":30000.0,\"HPM_INST\":15000.0},"
	    "\"places\":{\"HPM_CCYC\":{\"home_core\":3000.0,"
	    "\"home_chip\":6000.0,\"home_node\":9000.0,"
	    "\"remote_node\":12000.0},"));
	assert_non_null(strstr(out, "\"shares\":{\"HPM_CCYC\":{"
	    "\"off_home_chip\":0.7,\"remote_node\":0.4},"));
	assert_non_null(strstr(out, "\"derived\":{\"ipc\":0.5,"
	    "\"cores\":3.0},\"reasons\":{}}"));
	assert_non_null(strstr(out, "\"lpar\":5,\"vcpu\":0,"));
	assert_non_null(strstr(out, "\"HPM_INST.remote_node\":\"the "
	    "hypervisor was busy\""));
	assert_non_null(strstr(out, "\"HPM_CCYC.home_core\":\"estimated: "
	    "counted 40 % of the interval\""));
	free(out);
}

static void
test_export_cover(void **state)
{
	struct fixture	*f = *state;
	char		*out;

	/* Partition 5 does not read instructions: blank, not failed. */
	f->no_inst5 = 1;
	out = export_run(f, EXPORT_CSV, "cover.csv");
	if (getenv("HVTOP_LPAR_SHOW") != NULL)
		fputs(out, stderr);
	assert_non_null(strstr(out, ",1,1,lpar,5,5,,1,all,,3,0.7,0.4,,,,"
	    "30000,,HPM_INST: not picked on lpar 5; ipc: "));
	assert_non_null(strstr(out, ",1,1,lpar_vcpu,0,5,0,,all,,3,0.7,0.4,,,,"
	    "30000,,HPM_INST: not picked on lpar 5 vcpu 0; ipc: "));
	/* Instructions of some rows over cycles of all is no IPC. */
	assert_non_null(strstr(out, ",2,1,lpar_vcpu,total,,,,all,,6,0.7,"
	    "0.4,,,,60000,15000,\"HPM_INST: total of lpar 2 vcpus 0-1 only, "
	    "not picked on lpar 5 vcpu 0; ipc: the rows do not all read "
	    "both cycles and instructions\",\n"));
	free(out);
}

/*
 * Without record timebases, a virtual processor that runs only at home:
 * its other placements read 0 and stay 0, and count 0 while its home
 * record moves.  A placement that counted before and reads the same is a
 * record not updated yet: only its own record vouches for it.
 */
static void
test_unmoved_places(void **state)
{
	struct fixture			*f = *state;
	struct engine_snapshot		*s;
	const struct sel_counter	*c;
	size_t				 nv, k, t;

	select_lpar(f, 0xf, NULL, 0);
	nv = engine_view_find(f->e, ENG_VIEW_LPAR_VCPU);
	s = NULL;
	for (t = 0; t < 2; t++) {
		fill(f, t);
		for (k = 0; k < f->rs.nvalues; k++) {
			c = &f->sel.counters[k];
			f->rs.values[k].timebase = 0;
			if (k >= f->first && c->domain != 3)
				f->rs.values[k].value = c->lpar == 2 &&
				    c->index == 0 && c->domain == 6 ? 777 : 0;
		}
		s = engine_update_reuse(f->e, &f->rs, s);
	}
	/* Partition 2's processor 1, and partition 5's: every placement. */
	for (k = 0; k < 4; k++) {
		assert_int_equal(engine_place_cell(f->e, s, nv, 1, 0,
		    k)->status, ENG_OK);
		assert_int_equal(engine_place_cell(f->e, s, nv, 2, 1,
		    k)->status, ENG_OK);
	}
	assert_float_equal(engine_place_cell(f->e, s, nv, 1, 0, 0)->value,
	    2000, 1e-9);
	assert_float_equal(engine_place_cell(f->e, s, nv, 1, 0, 2)->value,
	    0, 1e-9);
	assert_float_equal(engine_cell(f->e, s, nv, 1, 0)->value, 2000,
	    1e-9);
	/* Partition 2's processor 0: remote node counted before. */
	assert_int_equal(engine_place_cell(f->e, s, nv, 0, 0, 1)->status,
	    ENG_OK);
	assert_int_equal(engine_place_cell(f->e, s, nv, 0, 0, 3)->status,
	    ENG_NOTYET);
	engine_snapshot_free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_views, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sums, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unmoved_places, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_failed_place, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_derived, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_derived_reasons, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_derived_no_cycles, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_some_places, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_metrics, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_split_place, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_count_whole, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_estimates, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_export_text, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_export_csv, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_export_json, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_export_cover, setup,
		    teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
