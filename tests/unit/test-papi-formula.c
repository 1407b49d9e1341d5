/*
 * The expression texts src/metrics/papi* writes, read by src/formula: every
 * event of the real papi_events.csv and of the man page's example compiles,
 * and small files of every derived type give the values PAPI defines.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "formula/formula.h"
#include "metrics/papi.h"
#include "util/hverr.h"
#include "util/strbuf.h"

#include "fixture.h"

#define NSLOTS	64

/* Names the resolver has seen, by slot; the identifier mapping undone. */
struct names {
	const struct papi_model	*m;
	char			*name[NSLOTS];
	size_t			 n;
};

static void
names_reset(struct names *nm)
{
	while (nm->n > 0)
		free(nm->name[--nm->n]);
}

static int
resolve(void *arg, const char *ident, struct formula_ref *ref)
{
	struct names	*nm = arg;
	const char	*name;
	size_t		 i;

	if (formula_compile_special(ident) >= 0)
		return (-HV_ENOENT);	/* delta-seconds and friends */
	if (strcmp(ident, PAPI_CPU_HZ_OPERAND) == 0) {
		ref->kind = FORMULA_CONST;
		ref->slot = 0;
		return (0);
	}
	if ((name = papi_model_ident_name(nm->m, ident)) == NULL)
		name = ident;
	for (i = 0; i < nm->n; i++) {
		if (strcmp(nm->name[i], name) == 0)
			break;
	}
	if (i == nm->n) {
		if (nm->n == NSLOTS)
			return (-HV_ELIMIT);
		nm->name[nm->n++] = strdup(name);
	}
	ref->kind = FORMULA_EVENT;
	ref->slot = (unsigned)i;
	return (0);
}

static struct formula *
compile(const struct papi_model *m, const struct papi_event *ev,
    struct names *nm)
{
	struct formula	*f = NULL;
	char		*cause = NULL;

	nm->m = m;
	names_reset(nm);
	if (formula_compile(ev->expr, ev->expr_infix ? FORMULA_INFIX :
	    FORMULA_RPN, NULL, resolve, nm, &f, &cause) != 0)
		fail_msg("line %lu, %s: \"%s\": %s", ev->line, ev->name,
		    ev->expr, cause);
	return (f);
}

static void
compile_all(const char *file, size_t nevents)
{
	struct papi_model	*m;
	struct names		 nm = { 0 };
	struct formula		*f;
	size_t			 len, i, j;
	char			*buf;

	buf = fixture_data("papi", file, &len);
	assert_int_equal(papi_parse(buf, len, &m, NULL), 0);
	free(buf);
	assert_int_equal(m->nevents, nevents);
	for (i = 0; i < m->nevents; i++) {
		f = compile(m, &m->events[i], &nm);
		/* What the formula reads is what the event lists. */
		for (j = 0; j < nm.n; j++) {
			size_t	 k;

			for (k = 0; k < m->events[i].nbases; k++) {
				if (strcmp(m->events[i].bases[k].name,
				    nm.name[j]) == 0)
					break;
			}
			assert_true(k < m->events[i].nbases);
		}
		formula_free(f);
	}
	names_reset(&nm);
	papi_model_free(m);
}

static void
test_real_compiles(void **state)
{
	(void)state;
	compile_all("papi_events.csv", 1977);
}

static void
test_man_example_compiles(void **state)
{
	(void)state;
	compile_all("man-example.csv", 5);
}

/* Evaluate event name with A=10, B=3, C=2, the interval 4 s, 2 GHz. */
static double
value(const struct papi_model *m, const char *name)
{
	const struct papi_event	*ev;
	struct names		 nm = { 0 };
	struct formula		*f;
	struct formula_env	 env;
	struct formula_value	 v;
	double			 ev_values[NSLOTS], special[FORMULA_NSPECIAL];
	double			 hz = 2e9;
	size_t			 i;

	ev = papi_model_find(m, NULL, name);
	assert_non_null(ev);
	f = compile(m, ev, &nm);
	for (i = 0; i < nm.n; i++) {
		if (strcmp(nm.name[i], "A") == 0)
			ev_values[i] = 10;
		else if (strcmp(nm.name[i], "B") == 0)
			ev_values[i] = 3;
		else if (strcmp(nm.name[i], "C") == 0)
			ev_values[i] = 2;
		else if (strcmp(nm.name[i], "x:y") == 0)
			ev_values[i] = 7;
		else
			fail_msg("%s reads %s", name, nm.name[i]);
	}
	memset(special, 0, sizeof special);
	special[FORMULA_DELTA_SECONDS] = 4;
	memset(&env, 0, sizeof env);
	env.values[FORMULA_EVENT] = ev_values;
	env.nvalues[FORMULA_EVENT] = nm.n;
	env.values[FORMULA_SPECIAL] = special;
	env.nvalues[FORMULA_SPECIAL] = FORMULA_NSPECIAL;
	env.values[FORMULA_CONST] = &hz;
	env.nvalues[FORMULA_CONST] = 1;
	v = formula_eval(f, &env);
	formula_free(f);
	names_reset(&nm);
	if (!v.ok)
		fail_msg("%s: no value (%s)", name,
		    formula_eval_reason(v.reason));
	return (v.value);
}

static void
test_values(void **state)
{
	struct papi_model	*m;
	const char		*text =
	    "CPU,hv_24x7\n"
	    "EVENT,ND,NOT_DERIVED,A\n"
	    "EVENT,ADD,DERIVED_ADD,A,B,C\n"
	    "EVENT,SUB,DERIVED_SUB,A,B,C\n"
	    "EVENT,PS,DERIVED_PS,PAPI_TOT_CYC,A\n"
	    "EVENT,PS1,DERIVED_PS,A\n"
	    "EVENT,APS,DERIVED_ADD_PS,PAPI_TOT_CYC,A,B\n"
	    "EVENT,CMPD,DERIVED_CMPD,A,B\n"
	    "EVENT,PF,DERIVED_POSTFIX,N0|N1|-|N2|/|,A,B,C\n"
	    "EVENT,PFQ,DERIVED_POSTFIX,|N0|512|128|/|*|N1|+,A,B\n"
	    "EVENT,HZ,DERIVED_POSTFIX,N0|#|/|,A\n"
	    "EVENT,IF,DERIVED_INFIX,N0-(N1+(N2*5)),A,B,C\n"
	    "EVENT,IF2,DERIVED_INFIX,N0 - N1 * N2,A,B,C\n"
	    "EVENT,MAP,DERIVED_INFIX,N0/N1,x:y,C\n";

	(void)state;
	assert_int_equal(papi_parse(text, strlen(text), &m, NULL), 0);
	assert_true(value(m, "ND") == 10);
	assert_true(value(m, "ADD") == 15);
	assert_true(value(m, "SUB") == 5);		/* 10 - 3 - 2 */
	assert_true(value(m, "PS") == 2.5);		/* 10 / 4 s */
	assert_true(value(m, "PS1") == 2.5);
	assert_true(value(m, "APS") == 3.25);		/* 13 / 4 s */
	assert_true(value(m, "CMPD") == 10);
	assert_true(value(m, "PF") == 3.5);		/* (10 - 3) / 2 */
	assert_true(value(m, "PFQ") == 43);		/* 10 * 4 + 3 */
	assert_true(value(m, "HZ") == 5e-9);
	assert_true(value(m, "IF") == -3);		/* 10 - (3 + 10) */
	assert_true(value(m, "IF2") == 4);
	assert_true(value(m, "MAP") == 3.5);
	papi_model_free(m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_compiles),
		cmocka_unit_test(test_man_example_compiles),
		cmocka_unit_test(test_values),
	};

	return (cmocka_run_group_tests_name("papi-formula", tests, NULL,
	    NULL));
}
