/*
 * src/formula against real formulas: the 36 infix formulas of IBM's
 * catalog (tests/data/formula) compile with its event names, formula
 * names and constants and give the values computed by hand; the 84 RPN
 * formulas of PAPI's papi_events.csv (tests/data/papi) keep their value
 * through RPN -> infix -> RPN on seeded random inputs.
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
#include "util/hverr.h"
#include "util/xalloc.h"

#include "fixture.h"

#define MAX_LINES	4096
#define MAX_FIELDS	32

struct csv {
	char	*buf;
	char	*line[MAX_LINES];
	size_t	 nlines;
};

/* Read tests/data/DIR/NAME into lines. */
static void
csv_read(struct csv *c, const char *dir, const char *name)
{
	char	*p;
	size_t	 n;

	c->buf = fixture_data(dir, name, &n);
	c->nlines = 0;
	for (p = c->buf; *p != '\0' && c->nlines < MAX_LINES;) {
		c->line[c->nlines++] = p;
		if ((p = strchr(p, '\n')) == NULL)
			break;
		*p++ = '\0';
		if (p > c->buf + 1 && p[-2] == '\r')
			p[-2] = '\0';
	}
}

/* Split a line at commas, in place (these files quote nothing we need). */
static size_t
csv_split(char *line, char **f)
{
	size_t	 n = 0;
	char	*p = line;

	f[n++] = p;
	while ((p = strchr(p, ',')) != NULL && n < MAX_FIELDS) {
		*p++ = '\0';
		f[n++] = p;
	}
	return (n);
}

/* ---- IBM's catalog -------------------------------------------------- */

static const char *const ibm_consts[] = {
	"PB_Freq", "XBUS_Freq", "ABUS_Freq", "PHB_Freq"
};
#define IBM_NCONSTS	4

struct ibm {
	struct csv	 ev, fo;
	char		*event[MAX_LINES];
	size_t		 nevents;
	char		*fname[64], *ftext[64];
	size_t		 nformulas;
};

static int
ibm_resolve(void *arg, const char *name, struct formula_ref *ref)
{
	struct ibm	*ibm = arg;
	size_t		 i;

	for (i = 0; i < ibm->nformulas; i++) {
		if (strcmp(ibm->fname[i], name) == 0) {
			ref->kind = FORMULA_FORMULA;
			ref->text = ibm->ftext[i];
			return (0);
		}
	}
	for (i = 0; i < ibm->nevents; i++) {
		if (strcmp(ibm->event[i], name) == 0) {
			ref->kind = FORMULA_EVENT;
			ref->slot = (unsigned)i;
			return (0);
		}
	}
	for (i = 0; i < IBM_NCONSTS; i++) {
		if (strcmp(ibm_consts[i], name) == 0) {
			ref->kind = FORMULA_CONST;
			ref->slot = (unsigned)i;
			return (0);
		}
	}
	return (-HV_ENOENT);
}

static void
ibm_load(struct ibm *ibm)
{
	char	*f[MAX_FIELDS];
	size_t	 i, n;

	memset(ibm, 0, sizeof *ibm);
	csv_read(&ibm->ev, "formula", "events.csv");
	for (i = 1; i < ibm->ev.nlines; i++) {
		if (ibm->ev.line[i][0] == '\0')
			continue;
		n = csv_split(ibm->ev.line[i], f);
		assert_true(n >= 3);
		ibm->event[ibm->nevents++] = f[2];
	}
	assert_int_equal(ibm->nevents, 1330);

	csv_read(&ibm->fo, "formula", "formulae.csv");
	for (i = 1; i < ibm->fo.nlines; i++) {
		if (ibm->fo.line[i][0] == '\0')
			continue;
		n = csv_split(ibm->fo.line[i], f);
		assert_true(n >= 4 && ibm->nformulas < 64);
		/* The formula is second to last: some descriptions hold ','. */
		ibm->fname[ibm->nformulas] = f[0];
		ibm->ftext[ibm->nformulas] = f[n - 2];
		ibm->nformulas++;
	}
	assert_int_equal(ibm->nformulas, 36);
}

static void
ibm_free(struct ibm *ibm)
{
	free(ibm->ev.buf);
	free(ibm->fo.buf);
}

/* Evaluate formula name with the named inputs; consts by position. */
static struct formula_value
ibm_eval(struct ibm *ibm, const char *text, const char *self,
    const double *consts, ...)
{
	static double		 ev[MAX_LINES];
	struct formula		*f;
	struct formula_env	 env;
	struct formula_value	 v;
	const char		*name;
	va_list			 ap;
	char			*cause;
	size_t			 i;

	if (formula_compile(text, FORMULA_AUTO, self, ibm_resolve, ibm, &f,
	    &cause) != 0)
		fail_msg("%s: %s", text, cause);
	for (i = 0; i < ibm->nevents; i++)
		ev[i] = FORMULA_NOVALUE;
	va_start(ap, consts);
	while ((name = va_arg(ap, const char *)) != NULL) {
		for (i = 0; i < ibm->nevents; i++) {
			if (strcmp(ibm->event[i], name) == 0)
				break;
		}
		assert_true(i < ibm->nevents);
		ev[i] = va_arg(ap, double);
	}
	va_end(ap);
	memset(&env, 0, sizeof env);
	env.values[FORMULA_EVENT] = ev;
	env.nvalues[FORMULA_EVENT] = ibm->nevents;
	env.values[FORMULA_CONST] = consts;
	env.nvalues[FORMULA_CONST] = consts != NULL ? IBM_NCONSTS : 0;
	v = formula_eval(f, &env);
	formula_free(f);
	return (v);
}

static const char *
ibm_text(struct ibm *ibm, const char *name)
{
	size_t	 i;

	for (i = 0; i < ibm->nformulas; i++) {
		if (strcmp(ibm->fname[i], name) == 0)
			return (ibm->ftext[i]);
	}
	fail_msg("no formula %s", name);
	return (NULL);
}

static void
test_ibm_compile(void **state)
{
	struct ibm		 ibm;
	struct formula		*f, *g;
	char			*cause, *rpn, *infix;
	size_t			 i;

	(void)state;
	ibm_load(&ibm);
	for (i = 0; i < ibm.nformulas; i++) {
		/* Infix, detected, and compiled under its own name. */
		assert_int_equal(formula_parse_detect(ibm.ftext[i]),
		    FORMULA_INFIX);
		if (formula_compile(ibm.ftext[i], FORMULA_AUTO, ibm.fname[i],
		    ibm_resolve, &ibm, &f, &cause) != 0)
			fail_msg("%s: %s", ibm.fname[i], cause);
		assert_true(formula_noperands(f) >= 2);
		assert_true(formula_depth(f) <= 4);

		/* Its RPN compiles to the same steps. */
		assert_int_equal(formula_print_convert(ibm.ftext[i],
		    FORMULA_AUTO, FORMULA_RPN, &rpn, &cause), 0);
		assert_int_equal(formula_parse_detect(rpn), FORMULA_RPN);
		if (formula_compile(rpn, FORMULA_AUTO, NULL, ibm_resolve, &ibm,
		    &g, &cause) != 0)
			fail_msg("%s: %s: %s", ibm.fname[i], rpn, cause);
		assert_int_equal(formula_ncode(f), formula_ncode(g));
		for (size_t k = 0; k < formula_ncode(f); k++)
			assert_string_equal(formula_code_token(f, k),
			    formula_code_token(g, k));
		assert_int_equal(formula_print_convert(rpn, FORMULA_RPN,
		    FORMULA_INFIX, &infix, &cause), 0);
		formula_free(g);
		if (formula_compile(infix, FORMULA_AUTO, NULL, ibm_resolve,
		    &ibm, &g, &cause) != 0)
			fail_msg("%s: %s: %s", ibm.fname[i], infix, cause);
		assert_int_equal(formula_ncode(f), formula_ncode(g));
		formula_free(g);
		free(infix);
		free(rpn);
		formula_free(f);
	}
	ibm_free(&ibm);
}

static void
test_ibm_values(void **state)
{
	static const double	 freq[IBM_NCONSTS] = {
		2.4e9, 4.8e9, 3.2e9, 2.5e8
	};
	struct ibm		 ibm;
	struct formula_value	 v;
	struct formula		*f;
	char			*cause, *s;
	double			 want;

	(void)state;
	ibm_load(&ibm);

	/* ((PM_PB_INT_DATA_XFER * 512) / PM_PB_CYC) * PB_Freq */
	v = ibm_eval(&ibm, "TOTAL_INT_PB_BW", NULL, freq,
	    "PM_PB_INT_DATA_XFER", 1000.0, "PM_PB_CYC", 2000.0, NULL);
	assert_true(v.ok);
	want = 1000.0 * 512 / 2000 * 2.4e9;		/* 256 * 2.4e9 */
	assert_true(v.value == want);
	assert_true(v.value == 614400000000.0);

	/*
	 * (PM_XLINK_CYCLES - PM_XLINK0_OUT_IDL_CYC/2) / PM_XLINK_CYCLES *
	 * 100
	 */
	v = ibm_eval(&ibm, ibm_text(&ibm, "TOTAL_XLINK0_UTILISATION%"),
	    "TOTAL_XLINK0_UTILISATION%", freq, "PM_XLINK_CYCLES", 1000.0,
	    "PM_XLINK0_OUT_IDL_CYC", 500.0, NULL);
	assert_true(v.ok && v.value == 75);

	/*
	 * (1 - PM_ALINK1_OUT_IDL_CYC/PM_ALINK_CYCLES)*100, by its name: '%'
	 * is mod in infix, so the name escapes it.
	 */
	v = ibm_eval(&ibm, "TOTAL_ALINK1_UTILISATION\\%", NULL, freq,
	    "PM_ALINK_CYCLES", 1000.0, "PM_ALINK1_OUT_IDL_CYC", 250.0, NULL);
	assert_true(v.ok && v.value == 75);

	/* (PM_MCS_DOWN_128B_DATA_XFER_MC2*128*PB_Freq)/ PM_PB_CYC */
	v = ibm_eval(&ibm, "TOTAL_MC2_WRITE_BW", NULL, freq,
	    "PM_MCS_DOWN_128B_DATA_XFER_MC2", 3e6, "PM_PB_CYC", 1.2e9, NULL);
	assert_true(v.ok);
	assert_true(v.value == 3e6 * 128 * 2.4e9 / 1.2e9);
	assert_true(v.value == 768000000.0);

	/* ((PM_PHB_ANY_DMA_RCV_PHB1) *256/ PM_PHB_CYC_CNT_PHB1) * PHB_Freq */
	v = ibm_eval(&ibm, "TOTAL_PHB1_DMA_BW", NULL, freq,
	    "PM_PHB_ANY_DMA_RCV_PHB1", 10.0, "PM_PHB_CYC_CNT_PHB1", 1e6, NULL);
	assert_true(v.ok && v.value == 10.0 * 256 / 1e6 * 2.5e8);
	assert_true(v.value == 640000.0);

	/* (PM_XLINK1_OUT_DATA_CYC * 8 * XBUS_Freq) / PM_XLINK_CYCLES */
	v = ibm_eval(&ibm, "TOTAL_OUTBOUND_XLINK1_BW", NULL, freq,
	    "PM_XLINK1_OUT_DATA_CYC", 600.0, "PM_XLINK_CYCLES", 4800.0, NULL);
	assert_true(v.ok && v.value == 600.0 * 8 * 4.8e9 / 4800);
	assert_true(v.value == 4.8e9);

	/* A user formula built from two catalog formulas. */
	v = ibm_eval(&ibm, "(TOTAL_INT_PB_BW + TOTAL_EXT_PB_BW) / 2", NULL,
	    freq, "PM_PB_INT_DATA_XFER", 1000.0, "PM_PB_EXT_DATA_XFER", 3000.0,
	    "PM_PB_CYC", 2000.0, NULL);
	assert_true(v.ok && v.value == (614400000000.0 + 1843200000000.0) / 2);

	/* No PB_Freq set: no value, and it says which. */
	assert_int_equal(formula_compile("TOTAL_SYSTEM_PUMPS_PERSEC",
	    FORMULA_AUTO, NULL, ibm_resolve, &ibm, &f, &cause), 0);
	v = ibm_eval(&ibm, "TOTAL_SYSTEM_PUMPS_PERSEC", NULL, NULL,
	    "PM_PB_SYS_PUMP", 5.0, "PM_PB_CYC", 10.0, NULL);
	assert_false(v.ok);
	assert_int_equal(v.reason, FORMULA_MISSING);
	s = formula_eval_explain(f, &v);
	assert_string_equal(s, "PB_Freq has no value");
	free(s);
	formula_free(f);

	/* A counter that could not be read, and a zero cycle count. */
	v = ibm_eval(&ibm, "TOTAL_SYSTEM_PUMPS_PERSEC", NULL, freq,
	    "PM_PB_CYC", 10.0, NULL);
	assert_int_equal(v.reason, FORMULA_MISSING);
	v = ibm_eval(&ibm, "TOTAL_SYSTEM_PUMPS_PERSEC", NULL, freq,
	    "PM_PB_SYS_PUMP", 5.0, "PM_PB_CYC", 0.0, NULL);
	assert_int_equal(v.reason, FORMULA_DIVZERO);
	ibm_free(&ibm);
}

/* ---- PAPI ----------------------------------------------------------- */

static int
papi_resolve(void *arg, const char *name, struct formula_ref *ref)
{
	char	*end;
	long	 k;

	(void)arg;
	if (name[0] != 'N')
		return (-HV_ENOENT);
	k = strtol(name + 1, &end, 10);
	if (end == name + 1 || *end != '\0' || k < 0 || k >= 64)
		return (-HV_ENOENT);
	ref->kind = FORMULA_EVENT;
	ref->slot = (unsigned)k;
	return (0);
}

/* A fixed sequence: the same inputs on every run. */
static uint64_t
lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (*s >> 11);
}

static void
test_papi_roundtrip(void **state)
{
	struct csv		 c;
	struct formula		*f[3];
	struct formula_env	 env;
	struct formula_value	 v[3];
	double			 in[64];
	char			*fld[MAX_FIELDS], *cause, *infix, *rpn;
	size_t			 i, j, k, n, count = 0;
	uint64_t		 seed = 24;

	(void)state;
	csv_read(&c, "papi", "papi_events.csv");
	memset(&env, 0, sizeof env);
	env.values[FORMULA_EVENT] = in;
	env.nvalues[FORMULA_EVENT] = 64;
	for (i = 0; i < c.nlines; i++) {
		if (strstr(c.line[i], ",DERIVED_POSTFIX,") == NULL)
			continue;
		n = csv_split(c.line[i], fld);
		assert_true(n >= 5);
		count++;

		assert_int_equal(formula_parse_detect(fld[3]), FORMULA_RPN);
		if (formula_print_convert(fld[3], FORMULA_AUTO, FORMULA_INFIX,
		    &infix, &cause) != 0)
			fail_msg("line %zu: %s: %s", i + 1, fld[3], cause);
		assert_int_equal(formula_parse_detect(infix), FORMULA_INFIX);
		assert_int_equal(formula_print_convert(infix, FORMULA_AUTO,
		    FORMULA_RPN, &rpn, &cause), 0);
		if (formula_compile(fld[3], FORMULA_AUTO, NULL, papi_resolve,
		    NULL, &f[0], &cause) != 0 ||
		    formula_compile(infix, FORMULA_AUTO, NULL, papi_resolve,
		    NULL, &f[1], &cause) != 0 ||
		    formula_compile(rpn, FORMULA_AUTO, NULL, papi_resolve,
		    NULL, &f[2], &cause) != 0)
			fail_msg("line %zu: %s", i + 1, cause);

		for (j = 0; j < 100; j++) {
			for (k = 0; k < 64; k++) {
				/* Counts up to 2^40, some with fractions. */
				in[k] = (double)(lcg(&seed) >> 13);
				if (j % 3 == 1)
					in[k] /= 7;
			}
			for (k = 0; k < 3; k++)
				v[k] = formula_eval(f[k], &env);
			for (k = 1; k < 3; k++) {
				if (v[k].ok != v[0].ok ||
				    memcmp(&v[k].value, &v[0].value,
				    sizeof v[0].value) != 0)
					fail_msg("line %zu: %s / %s / %s: "
					    "%.17g %.17g", i + 1, fld[3],
					    infix, rpn, v[0].value,
					    v[k].value);
			}
			assert_true(v[0].ok);
		}
		for (k = 0; k < 3; k++)
			formula_free(f[k]);
		free(infix);
		free(rpn);
	}
	assert_int_equal(count, 84);
	free(c.buf);
}

/* PAPI's quirks: no trailing '|', a leading '|'; same value as clean. */
static void
test_papi_quirks(void **state)
{
	static const char *const same[] = {
		"N0|N1|-|N2|+|N3|-|", "N0|N1|-|N2|+|N3|-",
		"|N0|N1|-|N2|+|N3|-|",
		"N0 N1 - N2 + N3 -", "N0 - N1 + N2 - N3",
	};
	static const double	 in[] = { 100, 7, 30, 2 };
	struct formula		*f;
	struct formula_env	 env;
	struct formula_value	 v;
	char			*cause;
	size_t			 i;

	(void)state;
	memset(&env, 0, sizeof env);
	env.values[FORMULA_EVENT] = in;
	env.nvalues[FORMULA_EVENT] = 4;
	for (i = 0; i < sizeof same / sizeof same[0]; i++) {
		assert_int_equal(formula_compile(same[i], FORMULA_AUTO, NULL,
		    papi_resolve, NULL, &f, &cause), 0);
		v = formula_eval(f, &env);
		assert_true(v.ok && v.value == 121);
		formula_free(f);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ibm_compile),
		cmocka_unit_test(test_ibm_values),
		cmocka_unit_test(test_papi_roundtrip),
		cmocka_unit_test(test_papi_quirks),
	};

	return (cmocka_run_group_tests_name("formula-data", tests, NULL,
	    NULL));
}
