/*
 * perf's metric JSON read as hvtop formulas (src/metrics/perfjson*): every
 * metric of perf's POWER9 and POWER10 nest_metrics.json loads or is
 * skipped with its reason, and formulas evaluated on given counts equal
 * perf's definitions computed by hand (perf stat -I 1000 shows count x
 * scale over one second; hvtop divides sums of counts by the interval).
 * Expression vectors follow perf's own expression tests.
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

#include "formula/formula.h"
#include "metrics/perfjson.h"
#include "util/hverr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#include "fixture.h"

#define NSLOTS	32

/* Counts by name, handed to the formula as events. */
struct counts {
	const char	*name[NSLOTS];
	double		 value[NSLOTS];
	size_t		 n;
	double		 seconds;
	double		 consts[1];
};

static int
resolve(void *arg, const char *name, struct formula_ref *ref)
{
	struct counts	*c = arg;
	size_t		 i;

	if (formula_compile_special(name) >= 0)
		return (-HV_ENOENT);
	for (i = 0; i < c->n; i++) {
		if (strcmp(c->name[i], name) == 0) {
			ref->kind = FORMULA_EVENT;
			ref->slot = (unsigned)i;
			return (0);
		}
	}
	ref->kind = FORMULA_CONST;
	ref->slot = 0;
	return (0);
}

/* The value of text with counts c; NAN when it has none. */
static double
eval(const char *text, struct counts *c)
{
	struct formula		*f = NULL;
	struct formula_env	 env;
	struct formula_value	 v;
	double			 special[FORMULA_NSPECIAL] = { 0 };
	char			*cause = NULL;

	if (formula_compile(text, FORMULA_INFIX, NULL, resolve, c, &f,
	    &cause) != 0)
		fail_msg("\"%s\": %s", text, cause);
	memset(&env, 0, sizeof env);
	env.values[FORMULA_EVENT] = c->value;
	env.nvalues[FORMULA_EVENT] = c->n;
	special[FORMULA_DELTA_SECONDS] = c->seconds;
	env.values[FORMULA_SPECIAL] = special;
	env.nvalues[FORMULA_SPECIAL] = FORMULA_NSPECIAL;
	env.values[FORMULA_CONST] = c->consts;
	env.nvalues[FORMULA_CONST] = 1;
	v = formula_eval(f, &env);
	formula_free(f);
	return (v.ok ? v.value : NAN);
}

static struct perfjson_model *
parse_file(const char *name)
{
	struct perfjson_model	*m = NULL;
	size_t			 len;
	char			*buf, *cause = NULL;

	buf = fixture_data("perfjson", name, &len);
	assert_true(perfjson_detect(buf, len));
	if (perfjson_parse(buf, len, &m, &cause) != 0)
		fail_msg("%s: %s", name, cause);
	free(buf);
	return (m);
}

static struct perfjson_model *
parse_str(const char *s)
{
	struct perfjson_model	*m = NULL;
	char			*cause = NULL;

	if (perfjson_parse(s, strlen(s), &m, &cause) != 0)
		fail_msg("%s: %s", s, cause);
	return (m);
}

static const struct perfjson_metric *
find(const struct perfjson_model *m, const char *name)
{
	size_t	 i;

	for (i = 0; i < m->nmetrics; i++) {
		if (m->metrics[i].name != NULL &&
		    strcmp(m->metrics[i].name, name) == 0)
			return (&m->metrics[i]);
	}
	fail_msg("no metric %s", name);
	return (NULL);
}

static void
near(double got, double want)
{
	if (!(fabs(got - want) <= 1e-9 * fabs(want) + 1e-12))
		fail_msg("got %.17g, want %.17g", got, want);
}

/* POWER9: the four hv_24x7 metrics load; the six IMC ones do not. */
static void
test_power9(void **state)
{
	struct perfjson_model		*m;
	const struct perfjson_metric	*pm;
	struct counts			 c = { 0 };
	size_t				 i;

	(void)state;
	m = parse_file("power9/nest_metrics.json");
	assert_int_equal(m->nmetrics, 10);
	assert_int_equal(m->nloaded, 4);
	assert_int_equal(m->nskipped, 6);
	for (i = 0; i < m->nmetrics; i++) {
		pm = &m->metrics[i];
		assert_true((pm->formula == NULL) != (pm->why == NULL));
		if (pm->why != NULL)
			assert_non_null(strstr(pm->why, "_imc', not "
			    "hv_24x7"));
	}
	pm = find(m, "mcs01-read");
	assert_string_equal(pm->why, "line 28, column 5: metric mcs01-read: "
	    "MetricExpr column 1: event 'nest_mcs01_imc@PM_MCS01_128B_RD_"
	    "DISP_PORT01@' is on PMU 'nest_mcs01_imc', not hv_24x7");

	/* Memory_RD_BW_Chip: 128-byte reads x 1.6e-2 MB per second. */
	pm = find(m, "Memory_RD_BW_Chip");
	assert_string_equal(pm->unit, "MB/s");
	assert_string_equal(pm->group, "Memory_BW");
	assert_int_equal(pm->aggr, PERFJSON_AGGR_CHIP);
	assert_true(pm->per_second);
	c.name[0] = "PM_MCS01_128B_RD_DISP_PORT01";
	c.name[1] = "PM_MCS01_128B_RD_DISP_PORT23";
	c.name[2] = "PM_MCS23_128B_RD_DISP_PORT01";
	c.name[3] = "PM_MCS23_128B_RD_DISP_PORT23";
	c.value[0] = 1000;
	c.value[1] = 2000;
	c.value[2] = 3000;
	c.value[3] = 4000;
	c.n = 4;
	c.seconds = 2;
	near(eval(pm->formula, &c), 10000 * 1.6e-2 / 2);

	/* PowerBUS_Frequency: a frequency stays GHz, per second. */
	pm = find(m, "PowerBUS_Frequency");
	assert_string_equal(pm->unit, "GHz");
	assert_null(pm->group);
	c.name[0] = "PM_PB_CYC";
	c.value[0] = 3.2e7;
	c.n = 1;
	c.seconds = 4;
	near(eval(pm->formula, &c), 3.2e7 * 2.5e-7 / 4);

	/* CPM_CS_32MHZ_CYC: per core, in the virtual processor domain. */
	pm = find(m, "CPM_CS_32MHZ_CYC");
	assert_int_equal(pm->domain, 3);
	assert_int_equal(pm->aggr, PERFJSON_AGGR_CORE);
	assert_string_equal(pm->unit, "MHz");
	c.name[0] = "CPM_CS_32MHZ_CYC";
	c.value[0] = 32e6;
	c.seconds = 1;
	near(eval(pm->formula, &c), 32e6);
	perfjson_model_free(m);
}

/* POWER10: all 70 load; ratios stay ratios, sums become rates. */
static void
test_power10(void **state)
{
	struct perfjson_model		*m;
	const struct perfjson_metric	*pm;
	struct counts			 c = { 0 };
	size_t				 i, nrate = 0;

	(void)state;
	m = parse_file("power10/nest_metrics.json");
	assert_int_equal(m->nmetrics, 70);
	assert_int_equal(m->nloaded, 70);
	for (i = 0; i < m->nmetrics; i++) {
		assert_non_null(m->metrics[i].formula);
		nrate += m->metrics[i].per_second;
	}
	/* 2 PCI, 8 MCS, 2 memory, TOTAL_INT_PB_BW, PowerBUS_Frequency. */
	assert_int_equal(nrate, 14);

	/* (RTY / (1 + VG)) * 100, in percent, whatever the interval. */
	pm = find(m, "VEC_GROUP_PUMP_RETRY_RATIO_P01");
	assert_string_equal(pm->unit, "%");
	assert_false(pm->per_second);
	c.name[0] = "PM_PB_RTY_VG_PUMP01";
	c.name[1] = "PM_PB_VG_PUMP01";
	c.value[0] = 5;
	c.value[1] = 99;
	c.n = 2;
	c.seconds = 3;
	near(eval(pm->formula, &c), 5.0 / 100 * 100);

	/* ScaleUnit "4": a plain factor. */
	pm = find(m, "TOTAL_GROUP_PUMPS_P01");
	assert_string_equal(pm->unit, "");
	c.name[0] = "PM_PB_GROUP_PUMP01";
	c.name[1] = "PM_PAU_CYC";
	c.value[0] = 300;
	c.value[1] = 1200;
	near(eval(pm->formula, &c), 300.0 / 1200 * 4);

	/* ScaleUnit "1.063%". */
	pm = find(m, "XLINK0_OUT_DATA_UTILIZATION");
	c.name[0] = "PM_XLINK0_OUT_ODD_DATA";
	c.name[1] = "PM_XLINK0_OUT_EVEN_DATA";
	c.name[2] = "PM_XLINK0_OUT_ODD_AVLBL_CYCLES";
	c.name[3] = "PM_XLINK0_OUT_EVEN_AVLBL_CYCLES";
	c.value[0] = 10;
	c.value[1] = 30;
	c.value[2] = 49;
	c.value[3] = 150;
	c.n = 4;
	near(eval(pm->formula, &c), 40.0 / 200 * 100 * 1.063);

	/* 2.56e-7 GHz a PAU cycle: 7.8125 M cycles a second is 2 GHz. */
	pm = find(m, "PowerBUS_Frequency");
	c.name[0] = "PM_PAU_CYC";
	c.value[0] = 7.8125e6 * 3;
	c.n = 1;
	c.seconds = 3;
	near(eval(pm->formula, &c), 2.0);

	/* 64-byte writes x 2.6e-1 MB, per second. */
	pm = find(m, "Memory_WR_BW_Chip");
	assert_string_equal(pm->unit, "MB/s");
	assert_string_equal(pm->group, "Memory_BW");
	c.name[0] = "PM_MCS_64B_WR_DATA_BLOCKS_MC0_CHAN01";
	c.name[1] = "PM_MCS_64B_WR_DATA_BLOCKS_MC1_CHAN01";
	c.name[2] = "PM_MCS_64B_WR_DATA_BLOCKS_MC2_CHAN01";
	c.name[3] = "PM_MCS_64B_WR_DATA_BLOCKS_MC3_CHAN01";
	c.value[0] = 1;
	c.value[1] = 2;
	c.value[2] = 3;
	c.value[3] = 4;
	c.n = 4;
	c.seconds = 0.5;
	near(eval(pm->formula, &c), 10 * 2.6e-1 / 0.5);
	perfjson_model_free(m);
}

struct expr_case {
	const char	*expr;
	double		 value;		/* NAN: no value (division by 0) */
	const char	*error;		/* a part of the message, or NULL */
};

/* perf's expression tests (tools/perf/tests/expr.c), FOO=1, BAR=2. */
static const struct expr_case expr_cases[] = {
	{ "1+1", 2, NULL },
	{ "FOO+BAR", 3, NULL },
	{ "(BAR/2)%2", 0, "column 8: operator '%'" },
	{ "1 - -4", 5, NULL },
	{ "-(-FOO)", 1, NULL },
	{ "- - 3", 3, NULL },
	{ "(FOO+BAR)*BAR", 6, NULL },
	{ "1.5e1 * .5", 7.5, NULL },
	{ "2. * FOO", 2, NULL },
	{ "duration_time * 3", 6, NULL },
	{ "#smt_on * 4", 28, NULL },
	{ "min(1,2) + 1", 0, "column 1: 'min' has no equivalent" },
	{ "1+1 if 3*4 else 0", 0, "column 5: 'if' has no equivalent" },
	{ "d_ratio(2.5, 0)", 0, "column 1: 'd_ratio'" },
	{ "1.1e10 < 1.1e100", 0, "column 8: operator '<'" },
	{ "FOO/0", NAN, NULL },
	{ "BAR/", 0, "column 5: the expression ends" },
	{ "(FOO", 0, "column 5: expected ')'" },
	{ "FOO)", 0, "column 4: unexpected ')'" },
	{ "3x", 0, "column 1: a number runs into 'x'" },
	{ "foo(1)", 0, "function 'foo'" },
	{ "cpu@instructions@", 0, "on PMU 'cpu', not hv_24x7" },
	{ "hv_24x7@PM_PB_CYC\\,chip\\=0@", 0, "reads chip 0 alone" },
	{ "hv_24x7@PM_PB_CYC\\,lpar\\=1@", 0, "the term 'lpar'" },
	{ "hv_24x7@PM_PB_CYC\\,domain\\=9@", 0, "domain '9'" },
	{ "hv_24x7@\\,chip\\=?@", 0, "names no event" },
	{ "a?b", 0, "'?' outside an hv_24x7 event" },
	{ "mod + 1", 0, "operator word" },
	{ "", 0, "column 1: the expression ends" },
	{ "FOO $ 1", 0, "column 5: unexpected character '$'" },
	{ "2e398", 0, "column 1: number '2e398' is out of range" },
	{ "f(1) | 2", 0, "function 'f'" },
	{ "a\\(b", 0, "name 'a(b' holds '('" },
};

static void
test_expr(void **state)
{
	struct counts	 c = { 0 };
	char		*out, *cause;
	size_t		 i;
	int		 degree, r;
	double		 v;

	(void)state;
	c.name[0] = "FOO";
	c.name[1] = "BAR";
	c.value[0] = 1;
	c.value[1] = 2;
	c.n = 2;
	c.seconds = 2;
	c.consts[0] = 7;
	for (i = 0; i < sizeof expr_cases / sizeof expr_cases[0]; i++) {
		out = cause = NULL;
		r = perfjson_expr(expr_cases[i].expr, &out, &degree, &cause);
		if (expr_cases[i].error != NULL) {
			if (r == 0)
				fail_msg("\"%s\" gave \"%s\"",
				    expr_cases[i].expr, out);
			if (strstr(cause, expr_cases[i].error) == NULL)
				fail_msg("\"%s\": \"%s\" lacks \"%s\"",
				    expr_cases[i].expr, cause,
				    expr_cases[i].error);
			free(cause);
			continue;
		}
		if (r != 0)
			fail_msg("\"%s\": %s", expr_cases[i].expr, cause);
		v = eval(out, &c);
		if (isnan(expr_cases[i].value))
			assert_true(isnan(v));
		else
			near(v, expr_cases[i].value);
		free(out);
	}
}

struct degree_case {
	const char	*expr;
	int		 degree;
};

static const struct degree_case degree_cases[] = {
	{ "A", 1 },
	{ "A + B", 1 },
	{ "(A + B) * 4", 1 },
	{ "A / B", 0 },
	{ "A / (1 + B) * 100", 0 },
	{ "1 + A", 1 },
	{ "A * B", 2 },
	{ "1 / A", -1 },
	{ "A + A / B", -100 },
	{ "3", 0 },
	{ "A / duration_time", 1 },
};

static void
test_degree(void **state)
{
	char	*out, *cause = NULL;
	size_t	 i;
	int	 degree;

	(void)state;
	for (i = 0; i < sizeof degree_cases / sizeof degree_cases[0]; i++) {
		if (perfjson_expr(degree_cases[i].expr, &out, &degree,
		    &cause) != 0)
			fail_msg("%s: %s", degree_cases[i].expr, cause);
		if (degree != degree_cases[i].degree)
			fail_msg("%s: degree %d, want %d",
			    degree_cases[i].expr, degree,
			    degree_cases[i].degree);
		free(out);
	}
}

/* Metrics naming metrics, loops, duplicates, bad entries. */
static void
test_file(void **state)
{
	struct perfjson_model		*m;
	const struct perfjson_metric	*pm;
	struct counts			 c = { 0 };
	char				*cause = NULL;

	(void)state;
	m = parse_str("[\n"
	    " {\"MetricName\": \"a\", \"MetricExpr\": \"X + Y\","
	    " \"ScaleUnit\": \"2MB\"},\n"
	    " {\"MetricName\": \"b\", \"MetricExpr\": \"a / X\","
	    " \"ScaleUnit\": \"100%\", \"MetricGroup\": \"g1;g2\"},\n"
	    " {\"MetricName\": \"c\", \"MetricExpr\": \"d\"},\n"
	    " {\"MetricName\": \"d\", \"MetricExpr\": \"c\"},\n"
	    " {\"MetricName\": \"a\", \"MetricExpr\": \"Y\"},\n"
	    " {\"EventName\": \"PM_X\"},\n"
	    " 7,\n"
	    " {\"MetricName\": \"e\", \"MetricExpr\": \"X\","
	    " \"ScaleUnit\": \"1e999GB\"},\n"
	    " {\"MetricName\": \"f\", \"MetricExpr\": \"b * a\","
	    " \"BriefDescription\": \"f it is\"}\n"
	    "]\n");
	assert_int_equal(m->nmetrics, 9);
	assert_int_equal(m->nloaded, 3);
	c.name[0] = "X";
	c.name[1] = "Y";
	c.value[0] = 10;
	c.value[1] = 30;
	c.n = 2;
	c.seconds = 2;
	pm = find(m, "a");
	assert_string_equal(pm->unit, "MB/s");
	near(eval(pm->formula, &c), 40.0 * 2 / 2);
	/* b uses a before its scale, as perf does: (X+Y)/X, in percent. */
	pm = find(m, "b");
	assert_string_equal(pm->group, "g1;g2");
	assert_string_equal(pm->unit, "%");
	near(eval(pm->formula, &c), 4.0 * 100);
	pm = find(m, "f");
	assert_string_equal(pm->desc, "f it is");
	/* A ratio times a count is a count: per second. */
	assert_int_equal(pm->per_second, 1);
	assert_string_equal(pm->unit, "/s");
	near(eval(pm->formula, &c), 4.0 * 40 / 2);
	pm = find(m, "c");
	assert_non_null(strstr(pm->why, "line 4, column 2: metric c: "
	    "MetricExpr column 1: "));
	assert_non_null(strstr(pm->why, "names metric d, which is "
	    "skipped"));
	pm = find(m, "d");
	assert_non_null(strstr(pm->why, "metric c names itself"));
	assert_non_null(strstr(m->metrics[4].why, "defined again; the "
	    "first, at line 2, is used"));
	assert_non_null(strstr(m->metrics[5].why, "event PM_X, not a "
	    "metric"));
	assert_string_equal(m->metrics[6].why, "line 8, column 2: entry 7: "
	    "not an object");
	assert_non_null(strstr(m->metrics[7].why, "ScaleUnit"));
	perfjson_model_free(m);

	/* Not JSON, not an array. */
	assert_int_equal(perfjson_parse("[1,", 3, &m, &cause), -HV_EFORMAT);
	assert_null(m);
	assert_non_null(strstr(cause, "line 1, column"));
	free(cause);
	/* jansson's message quotes the byte it stopped at: printable. */
	assert_int_equal(perfjson_parse("1\x01", 2, &m, &cause),
	    -HV_EFORMAT);
	assert_null(strchr(cause, '\x01'));
	free(cause);
	assert_int_equal(perfjson_parse("{}", 2, &m, &cause), -HV_EFORMAT);
	assert_non_null(strstr(cause, "JSON array"));
	free(cause);
	m = parse_str("[]");
	assert_int_equal(m->nmetrics, 0);
	perfjson_model_free(m);
}

static void
test_detect(void **state)
{
	(void)state;
	assert_true(perfjson_detect(" \n[", 3));
	assert_true(perfjson_detect("\xef\xbb\xbf{", 4));
	assert_false(perfjson_detect("CPU,hv_24x7\n", 12));
	assert_false(perfjson_detect("", 0));
	assert_false(perfjson_detect("  ", 2));
}

static void
test_scale_unit(void **state)
{
	double	 s;
	char	*u;

	(void)state;
	assert_int_equal(perfjson_scale_unit("1.6e-2MB", &s, &u), 0);
	near(s, 0.016);
	assert_string_equal(u, "MB");
	free(u);
	assert_int_equal(perfjson_scale_unit("4", &s, &u), 0);
	near(s, 4);
	assert_string_equal(u, "");
	free(u);
	assert_int_equal(perfjson_scale_unit("%", &s, &u), 0);
	near(s, 1);
	assert_string_equal(u, "%");
	free(u);
	assert_int_equal(perfjson_scale_unit(NULL, &s, &u), 0);
	free(u);
	assert_int_equal(perfjson_scale_unit("1\tB", &s, &u), -HV_EFORMAT);
	free(u);
}

/*
 * What metrics naming metrics may cost: the depth of the nesting in any
 * order of the file, the size of one formula, a name too long.
 */
static void
test_bounds(void **state)
{
	struct perfjson_model		*m;
	const struct perfjson_metric	*pm;
	struct strbuf			 sb = { 0 };
	char				*big;
	size_t				 i, j;

	(void)state;
	/* Last first: P9 is 9 deep however the file is ordered. */
	strbuf_adds(&sb, "[");
	for (i = 10; i-- > 1;)
		strbuf_addf(&sb, "{\"MetricName\": \"P%zu\", \"MetricExpr\": "
		    "\"P%zu + 1\"},\n", i, i - 1);
	strbuf_adds(&sb, "{\"MetricName\": \"P0\", \"MetricExpr\": \"X\"}]");
	m = parse_str(sb.s);
	assert_int_equal(m->nloaded, 9);
	pm = find(m, "P8");
	assert_null(pm->why);
	pm = find(m, "P9");
	assert_string_equal(pm->why, "line 1, column 2: metric P9: "
	    "MetricExpr column 1: metrics name metrics more than 8 deep at "
	    "P8");
	perfjson_model_free(m);

	/* Each names the one before 20 times: 20^4 copies of X. */
	strbuf_reset(&sb);
	strbuf_adds(&sb, "[{\"MetricName\": \"P0\", \"MetricExpr\": \"X\"}");
	for (i = 1; i < 8; i++) {
		strbuf_addf(&sb, ",\n{\"MetricName\": \"P%zu\", "
		    "\"MetricExpr\": \"P%zu", i, i - 1);
		for (j = 1; j < 20; j++)
			strbuf_addf(&sb, " + P%zu", i - 1);
		strbuf_adds(&sb, "\"}");
	}
	strbuf_adds(&sb, "]");
	m = parse_str(sb.s);
	assert_int_equal(m->nloaded, 4);
	for (i = 0; i < m->nmetrics; i++) {
		if (m->metrics[i].formula != NULL)
			assert_true(strlen(m->metrics[i].formula) <=
			    PERFJSON_FORMULA_MAX + PERFJSON_STRING_MAX);
	}
	pm = find(m, "P4");
	assert_non_null(strstr(pm->why, "line 5, column 1: metric P4: "
	    "MetricExpr column "));
	assert_non_null(strstr(pm->why, ": with the metrics it names put "
	    "in, it is longer than 65536 bytes (at P3)"));
	perfjson_model_free(m);

	/* A name of 10 MB: too long, said so with the bound and where. */
	big = xmalloc(10 << 20);
	memset(big, 'a', 10 << 20);
	strbuf_reset(&sb);
	strbuf_adds(&sb, "[\n {\"MetricName\": \"");
	strbuf_add(&sb, big, 10 << 20);
	strbuf_adds(&sb, "\", \"MetricExpr\": \"X\"},\n {\"MetricName\": "
	    "\"e\", \"MetricExpr\": \"");
	strbuf_add(&sb, big, PERFJSON_STRING_MAX + 1);
	strbuf_adds(&sb, "\"}]");
	free(big);
	m = parse_str(sb.s);
	assert_int_equal(m->nloaded, 0);
	assert_string_equal(m->metrics[0].why, "line 2, column 2: entry 1: "
	    "MetricName is 10485760 bytes, longer than 16384");
	assert_string_equal(m->metrics[1].why, "line 3, column 2: metric e: "
	    "MetricExpr is 16385 bytes, longer than 16384");
	perfjson_model_free(m);
	strbuf_free(&sb);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_power9),
		cmocka_unit_test(test_power10),
		cmocka_unit_test(test_expr),
		cmocka_unit_test(test_degree),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_scale_unit),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
