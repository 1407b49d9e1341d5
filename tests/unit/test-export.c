/*
 * Unit tests for src/export: the shortest numbers of JSON, one decimal
 * prefix per text column, and a CSV that keeps its header's columns and
 * its seq when the engine behind it changes to another selection.
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
#include "model/selection.h"
#include "export/export.h"
#include "source/source.h"
#include "fixture.h"
#include "test-hcall-fixture.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define TB_HZ	FIXTURE_TB_HZ

static const struct engine_metric_def defs[] = {
	{ "PB_CYC_RATE", "PM_PB_CYC / delta-seconds", "/s", "", "test", NULL, 0 },
	{ "RTY_INV", "1 / PM_PB_RTY", "", "", "test", NULL, 0 },
};

/* ---- numbers ------------------------------------------------------- */

static void
number_is(double v, const char *want)
{
	struct strbuf	 sb = { 0 };

	export_number(v, &sb);
	assert_string_equal(sb.s, want);
	assert_true(strtod(sb.s, NULL) == v);
	strbuf_free(&sb);
}

static void
test_number(void **state)
{
	(void)state;
	number_is(2703.168, "2703.168");
	number_is(2703.1680000000001, "2703.168");
	number_is(1, "1.0");
	number_is(52330, "52330.0");
	number_is(1549564970, "1549564970.0");
	number_is(0.1, "0.1");
	number_is(-0.25, "-0.25");
	number_is(1e-7, "1e-07");
	number_is(1e300, "1e+300");
	number_is(1.0 / 3, "0.3333333333333333");
}

/* ---- human units --------------------------------------------------- */

static void
scale_is(double max, const char *unit, const char *want, int want_scale)
{
	char	 out[32];

	assert_int_equal(export_unit_scale(max, unit, out, sizeof out),
	    want_scale);
	assert_string_equal(out, want);
}

static void
scaled_is(double v, int scale, const char *want)
{
	struct strbuf	 sb = { 0 };

	export_scaled(v, scale, 0, &sb);
	assert_string_equal(sb.s, want);
	strbuf_free(&sb);
}

static void
human_is(double v, const char *want)
{
	struct strbuf	 sb = { 0 };

	export_scaled(v, -1, 0, &sb);
	assert_string_equal(sb.s, want);
	strbuf_free(&sb);
}

static void
test_units(void **state)
{
	(void)state;
	human_is(2703.168, "2703");
	human_is(52330, "52.3k");
	human_is(1.5e19, "15.0E");
	human_is(9.9e21, "9900E");
	/* Past the last prefix: no 300 digits, no wrong magnitude. */
	human_is(1e300, "1.00e+300");
	human_is(-2.5e22, "-2.50e+22");
	human_is(INFINITY, "inf");
	human_is(-INFINITY, "-inf");
	human_is(NAN, "nan");
	/* 10.2k MB/s is 10.2 GB/s. */
	scale_is(10200, "MB/s", "GB/s", 1);
	scale_is(7792, "MB/s", "MB/s", 0);
	scale_is(170137, "/s", "k/s", 1);
	scale_is(15546498, "/s", "M/s", 2);
	scale_is(1.94, "GHz", "GHz", 0);
	scale_is(2e6, "", "k", 1);
	scale_is(5.7e9, "bytes/sec", "Mbytes/sec", 2);
	/* No prefix for a unit that does not take one. */
	scale_is(1e6, "%", "%", -1);
	scale_is(1e6, "cycles", "cycles", -1);
	/* Past exa, the prefix stops. */
	scale_is(1e30, "EB/s", "EB/s", 0);
	/* The rows of one column, under the prefix of its largest. */
	scaled_is(10495.936, 1, "10.5");
	scaled_is(4363.696, 1, "4.36");
	scaled_is(122125, 1, "122");
	scaled_is(0, 1, "0.00");
	scaled_is(7793, 0, "7793");
	scaled_is(1.94, 0, "1.94");
	/* A unit without prefixes: each value its own suffix. */
	scaled_is(12345, -1, "12.3k");
}

/* ---- one CSV schema across engines -------------------------------- */

struct fixture {
	struct tfix		 fx;
	struct topology		 topo;
	struct selection	 sel[2];
	struct engine		*e[2];
	struct raw_sample	 rs;
	uint64_t		 now;
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

/* One sample of engine i, with every counter at base + 1000 k. */
static struct engine_snapshot *
sample(struct fixture *f, size_t i, uint64_t base)
{
	size_t	 k;

	f->now += 1000000000ULL;
	free(f->rs.values);
	f->rs.nvalues = f->sel[i].ncounters;
	f->rs.values = xcalloc(f->rs.nvalues + 1, sizeof *f->rs.values);
	f->rs.now = f->now;
	f->rs.catalog_version = f->fx.cat->version;
	for (k = 0; k < f->rs.nvalues; k++) {
		f->rs.values[k].value = base + 1000 * k;
		f->rs.values[k].timebase = f->now / 1000 * 512;
		f->rs.values[k].status = RAW_OK;
	}
	return (engine_update(f->e[i], &f->rs));
}

/* Fields of one CSV line (quotes respected), or -1 at the end. */
static int
csv_fields(const char **p)
{
	const char	*s = *p;
	int		 n = 1, quoted = 0;

	if (*s == '\0')
		return (-1);
	for (; *s != '\0' && (quoted || *s != '\n'); s++) {
		if (*s == '"')
			quoted = !quoted;
		else if (*s == ',' && !quoted)
			n++;
	}
	*p = *s == '\n' ? s + 1 : s;
	return (n);
}

static void
test_csv_schema(void **state)
{
	struct fixture		*f = *state;
	struct export_info	 info = { "sim", "fixture", "hcalls", NULL };
	struct export		*x;
	struct engine_snapshot	*s;
	struct strbuf		 sb = { 0 };
	const char		*p, *line;
	int			 head, n, lines = 0;

	x = export_new(EXPORT_CSV, f->e[0], &info);
	engine_snapshot_free(sample(f, 0, 100));
	s = sample(f, 0, 200);
	export_snapshot(x, s, 0, &sb);
	engine_snapshot_free(s);
	/* The selection grows: the header stays, seq goes on. */
	export_rebind(x, f->e[1], &info);
	assert_non_null(export_note(x));
	assert_non_null(strstr(export_note(x), "left out"));
	assert_non_null(strstr(export_note(x), "4 columns"));
	assert_non_null(strstr(export_note(x), "HPM_INST"));
	engine_snapshot_free(sample(f, 1, 300));
	s = sample(f, 1, 400);
	export_snapshot(x, s, 0, &sb);
	engine_snapshot_free(s);
	assert_null(export_note(x));
	export_free(x);

	p = sb.s;
	head = csv_fields(&p);
	assert_true(head > 7);
	while ((line = p, n = csv_fields(&p)) >= 0) {
		assert_int_equal(n, head);
		assert_true(strncmp(line, "time,", 5) != 0);
		/* seq: 1 before the change, 2 after it. */
		assert_true(strncmp(strchr(line, ',') + 1, lines < 3 ? "1," :
		    "2,", 2) == 0);
		lines++;
	}
	/* Two chips and a total per interval; no core rows fit. */
	assert_int_equal(lines, 6);
	assert_non_null(strstr(sb.s, "left out"));
	strbuf_free(&sb);
}

/* Text and JSON take the new columns; JSON says why a value is null. */
static void
test_json_rebind(void **state)
{
	struct fixture		*f = *state;
	struct export_info	 info = { "sim", "fixture", "hcalls", NULL };
	struct export		*x;
	struct engine_snapshot	*s;
	struct strbuf		 sb = { 0 };

	x = export_new(EXPORT_JSON, f->e[0], &info);
	engine_snapshot_free(sample(f, 0, 100));
	s = sample(f, 0, 200);
	export_snapshot(x, s, 0, &sb);
	engine_snapshot_free(s);
	export_rebind(x, f->e[1], &info);
	engine_snapshot_free(sample(f, 1, 300));
	s = sample(f, 1, 400);
	strbuf_reset(&sb);
	export_snapshot(x, s, 0, &sb);
	engine_snapshot_free(s);
	export_free(x);
	assert_non_null(strstr(sb.s, "\"seq\":2,"));
	assert_non_null(strstr(sb.s, "\"domain\":\"core\""));
	assert_non_null(strstr(sb.s, "\"index\":null,\"total\":true"));
	assert_non_null(strstr(sb.s, "\"PB_CYC_RATE\":\"/s\""));
	/* Every counter grew by 200 in 1 s. */
	assert_non_null(strstr(sb.s, "\"PB_CYC_RATE\":200.0"));
	strbuf_free(&sb);
}

/*
 * What the picks leave out, worked out once per engine, reads as the
 * snapshot has it: a metric that reads a picked event before one not
 * picked has the status of the first while it has no value, so its total
 * covers both chips on the first interval and one on the next.
 */
static void
test_cover(void **state)
{
	static const struct engine_metric_def cdefs[] = {
		{ "PICKED_FIRST",
		    "PM_PB_CYC + PM_MCS_128B_RD_DATA_BLOCKS_MC0_CHAN01",
		    "/s", "", "test", NULL, 0 },
		{ "UNPICKED_FIRST",
		    "PM_MCS_128B_RD_DATA_BLOCKS_MC0_CHAN01 + PM_PB_CYC",
		    "/s", "", "test", NULL, 0 },
	};
	static const int	 formats[] = { EXPORT_CSV, EXPORT_JSON,
	    EXPORT_TEXT };
	struct fixture		*f = *state;
	struct export_info	 info = { "sim", "fixture", "hcalls", NULL };
	struct tfix		 fx;
	struct selection	 sel = { 0 };
	struct engine		*e;
	struct engine_snapshot	*s[2];
	struct export		*x;
	struct strbuf		 sb = { 0 };
	char			*cause = NULL, *note;
	size_t			 i, k;

	tfix_build(&fx, 2, 0, 0);
	if (selection_add(&sel, fx.cat, &f->topo, "CHIP_GROUP_0", 0,
	    &cause) != 0 || selection_add(&sel, fx.cat, &f->topo,
	    "CHIP_GROUP_1:1", 0, &cause) != 0)
		fail_msg("%s", cause);
	e = engine_new(fx.cat, &sel, TB_HZ, cdefs, sizeof cdefs /
	    sizeof cdefs[0], NULL, NULL);
	assert_non_null(e);
	free(f->rs.values);
	f->rs.values = NULL;
	for (i = 0; i < 2; i++) {
		f->now += 1000000000ULL;
		f->rs.nvalues = sel.ncounters;
		f->rs.values = xreallocarray(f->rs.values, f->rs.nvalues + 1,
		    sizeof *f->rs.values);
		f->rs.now = f->now;
		f->rs.catalog_version = fx.cat->version;
		for (k = 0; k < f->rs.nvalues; k++) {
			f->rs.values[k].value = 100 * (i + 1) + 1000 * k;
			f->rs.values[k].timebase = f->now / 1000 * 512;
			f->rs.values[k].status = RAW_OK;
		}
		s[i] = engine_update(e, &f->rs);
	}
	/* The total of the first metric: chips 0 and 1, then chip 1. */
	k = engine_view(e, 0)->nevents;
	assert_null(export_cover_note(e, s[0], 0, 2, k));
	note = export_cover_note(e, s[1], 0, 2, k);
	assert_string_equal(note, "total of chip 1 only, not picked on "
	    "chip 0");
	free(note);
	for (i = 0; i < sizeof formats / sizeof formats[0]; i++) {
		x = export_new(formats[i], e, &info);
		strbuf_reset(&sb);
		export_snapshot(x, s[0], 0, &sb);
		assert_null(strstr(sb.s, "PICKED_FIRST: total of chip 1"));
		assert_null(strstr(sb.s, "PICKED_FIRST\":\"total of chip 1"));
		assert_null(strstr(sb.s, "only: PICKED_FIRST"));
		assert_non_null(strstr(sb.s, formats[i] == EXPORT_TEXT ?
		    "only: PM_MCS_128B_RD_DATA_BLOCKS_MC0_CHAN01" :
		    "not picked on chip 0"));
		strbuf_reset(&sb);
		export_snapshot(x, s[1], 0, &sb);
		switch (formats[i]) {
		case EXPORT_CSV:
			assert_non_null(strstr(sb.s, "; PICKED_FIRST: total "
			    "of chip 1 only, not picked on chip 0"));
			assert_non_null(strstr(sb.s, "; UNPICKED_FIRST: "
			    "total of chip 1 only, not picked on chip 0"));
			break;
		case EXPORT_JSON:
			assert_non_null(strstr(sb.s, "\"PICKED_FIRST\":\"total "
			    "of chip 1 only, not picked on chip 0\""));
			break;
		default:
			assert_non_null(strstr(sb.s, "only: "
			    "PM_MCS_128B_RD_DATA_BLOCKS_MC0_CHAN01, "));
			assert_non_null(strstr(sb.s, ", PICKED_FIRST, "
			    "UNPICKED_FIRST\n"));
			break;
		}
		export_free(x);
	}
	strbuf_free(&sb);
	engine_snapshot_free(s[0]);
	engine_snapshot_free(s[1]);
	engine_free(e);
	selection_clear(&sel);
	tfix_free(&fx);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_number),
		cmocka_unit_test(test_units),
		cmocka_unit_test_setup_teardown(test_csv_schema, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_json_rebind, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_cover, setup, teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
