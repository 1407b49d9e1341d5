/*
 * Unit tests for src/metrics/papi*: PAPI event-definition files.  Small
 * hand-made files for every derived type, quoting, comments, line ends and
 * errors (with line and column); the real papi_events.csv, whose counts
 * were taken independently with grep and awk; availability.
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

#include "metrics/papi.h"
#include "util/hverr.h"
#include "util/strbuf.h"

#include "fixture.h"

static int
parse(const char *text, struct papi_model **m)
{
	char	*cause = NULL;
	int	 rc;

	rc = papi_parse(text, strlen(text), m, &cause);
	assert_non_null(*m);
	if (rc == 0)
		assert_null(cause);
	else
		assert_non_null(cause);
	free(cause);
	return (rc);
}

/* Is there a message with exactly this text? */
static int
has_diag(const struct papi_model *m, const char *text)
{
	size_t	 i;

	for (i = 0; i < m->ndiags; i++) {
		if (strcmp(m->diags[i].text, text) == 0)
			return (1);
	}
	return (0);
}

static void
print_diags(const struct papi_model *m)
{
	size_t	 i;

	for (i = 0; i < m->ndiags; i++)
		print_message("# %s\n", m->diags[i].text);
}

#define ASSERT_DIAG(m, text) do {					\
	if (!has_diag((m), (text))) {					\
		print_diags(m);						\
		fail_msg("no message \"%s\"", (text));			\
	}								\
} while (0)

static const struct papi_event *
event(const struct papi_model *m, const char *name)
{
	const struct papi_event	*ev;

	ev = papi_model_find(m, NULL, name);
	if (ev == NULL)
		fail_msg("no event %s", name);
	return (ev);
}

static void
test_types(void **state)
{
	struct papi_model	*m;
	const struct papi_event	*ev;

	(void)state;
	assert_int_equal(parse(
	    "CPU,hv_24x7\n"
	    "EVENT,ALIAS,NOT_DERIVED,PM_RUN_INST_CMPL\n"
	    "EVENT,SUM,DERIVED_ADD,A,B,C\n"
	    "EVENT,DIFF,DERIVED_SUB,A,B,C\n"
	    "EVENT,DIFF2,DERIVED_SUB,A,B\n"
	    "EVENT,RATE,DERIVED_PS,PAPI_TOT_CYC,A\n"
	    "EVENT,RATE1,DERIVED_PS,A\n"
	    "EVENT,ARATE,DERIVED_ADD_PS,PAPI_TOT_CYC,A,B\n"
	    "EVENT,ARATE2,DERIVED_ADD_PS,A,B\n"
	    "EVENT,CMPD,DERIVED_CMPD,A,B\n"
	    "EVENT,PF,DERIVED_POSTFIX,N0|N1|-|N2|/|,A,B,C\n"
	    "EVENT,PF2,DERIVED_POSTFIX,N0|512|128|/|*|N1|+|,A,B\n"
	    "EVENT,PFHZ,derived_postfix,N0|#|/,A\n"
	    "EVENT,PFDEC,DERIVED_POSTFIX,N0|2.5|*|,A\n"
	    "EVENT,IF,DERIVED_INFIX,N0-(N1+(N2*5)),A,B,C\n"
	    "EVENT,IF2,DERIVED_INFIX, N1 / N0 * # ,A,B\n", &m), 0);
	assert_int_equal(m->nerrors, 0);
	assert_int_equal(m->nwarnings, 0);
	assert_int_equal(m->nevents, 15);

	ev = event(m, "ALIAS");
	assert_int_equal(ev->type, PAPI_TYPE_NOT_DERIVED);
	assert_int_equal(ev->kind, PAPI_KIND_EVENT);
	assert_string_equal(ev->expr, "PM_RUN_INST_CMPL");
	assert_int_equal(ev->nbases, 1);
	assert_null(ev->formula);
	assert_int_equal(ev->line, 2);

	assert_string_equal(event(m, "SUM")->expr, "A B + C +");
	assert_string_equal(event(m, "DIFF")->expr, "A B - C -");
	assert_string_equal(event(m, "DIFF2")->expr, "A B -");

	ev = event(m, "RATE");
	assert_int_equal(ev->type, PAPI_TYPE_PS);
	assert_true(ev->clock);
	assert_int_equal(ev->nbases, 2);
	assert_string_equal(ev->bases[0].name, "PAPI_TOT_CYC");
	assert_string_equal(ev->expr, "A delta-seconds /");
	ev = event(m, "RATE1");
	assert_false(ev->clock);
	assert_string_equal(ev->expr, "A delta-seconds /");
	ev = event(m, "ARATE");
	assert_true(ev->clock);
	assert_string_equal(ev->expr, "A B + delta-seconds /");
	ev = event(m, "ARATE2");
	assert_false(ev->clock);
	assert_string_equal(ev->expr, "A B + delta-seconds /");

	/* PAPI returns the first counter of a DERIVED_CMPD. */
	ev = event(m, "CMPD");
	assert_string_equal(ev->expr, "A");
	assert_int_equal(ev->nbases, 2);

	ev = event(m, "PF");
	assert_int_equal(ev->type, PAPI_TYPE_POSTFIX);
	assert_string_equal(ev->formula, "N0|N1|-|N2|/|");
	assert_string_equal(ev->expr, "A B - C /");
	assert_false(ev->expr_infix);
	assert_string_equal(event(m, "PF2")->expr, "A 512 128 / * B +");
	assert_string_equal(event(m, "PFHZ")->expr, "A cpu_hz /");
	assert_string_equal(event(m, "PFDEC")->expr, "A 2.5 *");

	ev = event(m, "IF");
	assert_int_equal(ev->type, PAPI_TYPE_INFIX);
	assert_true(ev->expr_infix);
	assert_string_equal(ev->formula, "N0-(N1+(N2*5))");
	assert_string_equal(ev->expr, "A-(B+(C*5))");
	assert_string_equal(event(m, "IF2")->expr, "B / A * cpu_hz");

	assert_string_equal(papi_model_type_name(PAPI_TYPE_ADD_PS),
	    "DERIVED_ADD_PS");
	assert_string_equal(papi_model_kind_name(PAPI_KIND_PRESET), "PRESET");
	papi_model_free(m);
}

static void
test_sections(void **state)
{
	struct papi_model	*m;
	size_t			 idx[8];

	(void)state;
	assert_int_equal(parse(
	    "EVENT,GLOBAL,NOT_DERIVED,X\n"		/* 1: applies to all */
	    "CPU,POWER8\n"				/* 2 */
	    "# a comment between the names\n"
	    "\n"
	    "cpu,power8e,3\n"				/* 5 */
	    "PRESET,P,NOT_DERIVED,PM_A\n"		/* 6 */
	    "CPU,hv_24x7\n"				/* 7: new section */
	    "EVENT,H,NOT_DERIVED,PM_B\n"
	    "EVENT,H2,NOT_DERIVED,PM_C\n"
	    "cuda,GH100\n"				/* 10 */
	    "cuda,GA100\n"
	    "PRESET,G,NOT_DERIVED,cuda:::x:stat=sum\n"
	    "CPU,POWER8\n"				/* 13 */
	    "PRESET,P,NOT_DERIVED,PM_D\n"
	    "CPU,empty\n", &m), 0);
	assert_int_equal(m->nerrors, 0);
	assert_int_equal(m->nsections, 6);
	assert_int_equal(m->sections[0].npmus, 0);
	assert_int_equal(m->sections[0].nevents, 1);
	assert_int_equal(m->sections[1].npmus, 2);
	assert_string_equal(m->sections[1].pmus[0].name, "POWER8");
	assert_null(m->sections[1].pmus[0].component);
	assert_int_equal(m->sections[1].pmus[0].type, -1);
	assert_string_equal(m->sections[1].pmus[1].name, "power8e");
	assert_int_equal(m->sections[1].pmus[1].type, 3);
	assert_int_equal(m->sections[1].pmus[1].line, 5);
	assert_int_equal(m->sections[1].first_event, 1);
	assert_int_equal(m->sections[1].nevents, 1);
	assert_int_equal(m->sections[2].npmus, 1);
	assert_int_equal(m->sections[2].nevents, 2);
	assert_int_equal(m->sections[2].line, 7);
	assert_int_equal(m->sections[3].npmus, 2);
	assert_string_equal(m->sections[3].pmus[1].name, "GA100");
	assert_string_equal(m->sections[3].pmus[1].component, "cuda");
	assert_int_equal(m->sections[5].nevents, 0);

	/* Matching: no case; the global section matches everything. */
	assert_int_equal(papi_model_match(m, "HV_24X7", idx, 8), 2);
	assert_int_equal(idx[0], 0);
	assert_int_equal(idx[1], 2);
	assert_int_equal(papi_model_match(m, "power8", idx, 8), 3);
	assert_int_equal(idx[1], 1);
	assert_int_equal(idx[2], 4);
	assert_int_equal(papi_model_match(m, "POWER8E", idx, 1), 2);
	assert_int_equal(papi_model_match(m, NULL, idx, 8), 6);
	assert_int_equal(papi_model_match(m, "x86", idx, 8), 1);
	assert_true(papi_model_matches(&m->sections[3], "gh100"));
	assert_false(papi_model_matches(&m->sections[3], "POWER8"));

	/* The last definition for a PMU wins; other PMUs do not see it. */
	assert_string_equal(papi_model_find(m, "POWER8", "p")->expr, "PM_D");
	assert_string_equal(papi_model_find(m, "power8e", "P")->expr,
	    "PM_A");
	assert_null(papi_model_find(m, "hv_24x7", "P"));
	assert_non_null(papi_model_find(m, "hv_24x7", "global"));
	assert_null(papi_model_find(m, "POWER8", "nothing"));
	papi_model_free(m);
}

static void
test_quoting(void **state)
{
	struct papi_model	*m;
	const struct papi_event	*ev;

	(void)state;
	assert_int_equal(parse(
	    "CPU,hv_24x7\n"
	    "EVENT,Q1,NOT_DERIVED,A,LDESC,\"Long, with commas\",SDESC,"
	    "'short, too',NOTE,\"say \"\"hi\"\", it's fine\"\n"
	    "EVENT,Q2,DERIVED_ADD,A,B, NOTE , \"spaces around\" \n"
	    "EVENT,Q3,NOT_DERIVED,\"hv_24x7/PM_PB_CYC,chip=0/\"\n"
	    "EVENT,Q4,NOT_DERIVED,A,note,'a|b',ldesc,x\n"
	    "EVENT,Q5,NOT_DERIVED,A,NOTE,first,NOTE,second\n"
	    "EVENT,Q6,NOT_DERIVED,A,NOTE,\"\"\n"
	    "EVENT,Q7,NOT_DERIVED,A,SDESC\n", &m), 0);
	assert_int_equal(m->nerrors, 0);
	assert_int_equal(m->nevents, 7);
	ev = event(m, "Q1");
	assert_string_equal(ev->ldesc, "Long, with commas");
	assert_string_equal(ev->sdesc, "short, too");
	assert_string_equal(ev->note, "say \"hi\", it's fine");
	ev = event(m, "Q2");
	assert_int_equal(ev->nbases, 2);
	assert_string_equal(ev->note, "spaces around");
	assert_null(ev->ldesc);
	ev = event(m, "Q3");
	assert_string_equal(ev->bases[0].name, "hv_24x7/PM_PB_CYC,chip=0/");
	assert_string_equal(ev->bases[0].ident, "hv_24x7_PM_PB_CYC_chip_0_");
	assert_int_equal(ev->bases[0].column, 23);
	ev = event(m, "Q4");
	assert_string_equal(ev->note, "a|b");
	assert_string_equal(ev->ldesc, "x");
	assert_string_equal(event(m, "Q5")->note, "second");
	ASSERT_DIAG(m, "line 6, column 35: warning: NOTE is given twice; the "
	    "last one is used");
	assert_string_equal(event(m, "Q6")->note, "");
	assert_null(event(m, "Q7")->sdesc);
	ASSERT_DIAG(m, "line 8, column 24: warning: SDESC has no text; "
	    "ignored");
	assert_int_equal(m->nwarnings, 2);
	papi_model_free(m);
}

static void
test_layout(void **state)
{
	struct papi_model	*m;
	const struct papi_event	*ev;

	(void)state;
	/* CR LF, comments, blanks, tabs, trailing commas, no final LF. */
	assert_int_equal(parse(
	    "# comment, with \"an open quote\r\n"
	    "   # indented comment\r\n"
	    "\r\n"
	    " \t \r\n"
	    "CPU,POWER9\r\n"
	    "PRESET,PAPI_A, DERIVED_ADD,\tX , Y,\r\n"
	    "PRESET,PAPI_B,NOT_DERIVED,Z,,,\r\n"
	    "PRESET , PAPI_C , DERIVED_SUB , U ,, V \r\n"
	    "PRESET,PAPI_D,DERIVED_POSTFIX,|N0|N1|+|,P,Q\r\n"
	    "PRESET,PAPI_E,DERIVED_POSTFIX,N0|N1|-,P,Q", &m), 0);
	assert_int_equal(m->nerrors, 0);
	assert_int_equal(m->nwarnings, 0);
	assert_int_equal(m->nlines, 10);
	assert_int_equal(m->nevents, 5);
	ev = event(m, "PAPI_A");
	assert_int_equal(ev->line, 6);
	assert_string_equal(ev->expr, "X Y +");
	assert_int_equal(ev->bases[0].column, 29);
	assert_string_equal(event(m, "PAPI_B")->expr, "Z");
	assert_string_equal(event(m, "PAPI_C")->expr, "U V -");
	assert_string_equal(event(m, "PAPI_D")->expr, "P Q +");
	assert_string_equal(event(m, "PAPI_E")->expr, "P Q -");
	assert_int_equal(event(m, "PAPI_E")->line, 10);
	papi_model_free(m);
}

static void
test_errors(void **state)
{
	struct papi_model	*m;
	char			*cause = NULL;
	const char		*text =
	    "CPU,hv_24x7\n"					/* 1 */
	    "EVENT,OK1,NOT_DERIVED,A\n"
	    "EVNT,X,NOT_DERIVED,A\n"
	    "EVENT,X,DERIVED_MUL,A,B\n"
	    "EVENT,X,DERIVED_POSTFIX,N0|N5|+|,A,B\n"		/* 5 */
	    "EVENT,X,DERIVED_POSTFIX,N0|+|,A,B\n"
	    "EVENT,X,DERIVED_POSTFIX,N0|N1|,A,B\n"
	    "EVENT,X,DERIVED_POSTFIX,N0|N1|^|,A,B\n"
	    "EVENT,X,DERIVED_INFIX,N0+(N1*2,A,B\n"
	    "EVENT,X,DERIVED_INFIX,N0+N2,A,B\n"		/* 10 */
	    "EVENT,X,DERIVED_INFIX,N0 N1,A,B\n"
	    "EVENT,X,DERIVED_INFIX,-N0,A\n"
	    "EVENT,X,NOT_DERIVED,A,B\n"
	    "EVENT,X,DERIVED_PS,C,A,B\n"
	    "EVENT,X,DERIVED_ADD_PS,A\n"			/* 15 */
	    "EVENT,X,DERIVED_ADD\n"
	    "EVENT,X\n"
	    "EVENT\n"
	    "EVENT,X,NOT_DERIVED,A,NOTE,\"open\n"
	    "EVENT,X,NOT_DERIVED,A,NOTE,\"a\" b\n"		/* 20 */
	    "EVENT,X,NOT_DERIVED,A,NOTE,x,junk\n"
	    "CPU nhm\n"
	    "CPU\n"
	    "CPU,x,y\n"
	    "EVENT,X,DERIVED_POSTFIX,,A\n"			/* 25 */
	    "EVENT,X,NOT_DERIVED,\"\"\n"
	    "EVENT,X,DERIVED_POSTFIX,N0|N1|-|,A,B,C\n"	/* warning */
	    "EVENT,X,DERIVED_POSTFIX,N0N1|-|,A,B\n"
	    "EVENT,OK2,NOT_DERIVED,B\n";

	(void)state;
	assert_int_equal(papi_parse(text, strlen(text), &m, &cause),
	    -HV_EFORMAT);
	assert_non_null(m);
	assert_string_equal(cause, "line 3, column 1: unknown command 'EVNT' "
	    "(CPU, PRESET or EVENT expected) (and 24 more errors)");
	free(cause);
	ASSERT_DIAG(m, "line 4, column 9: unknown derived type 'DERIVED_MUL'");
	ASSERT_DIAG(m, "line 5, column 28: N5 is out of range: the event "
	    "lists 2 base events (N0..N1)");
	ASSERT_DIAG(m, "line 6, column 28: '+' needs two values before it");
	ASSERT_DIAG(m, "line 7, column 31: the formula leaves 2 values: an "
	    "operator is missing");
	ASSERT_DIAG(m, "line 8, column 31: '^' is not part of a formula "
	    "(N<i>, numbers, #, + - * / separated by '|')");
	ASSERT_DIAG(m, "line 9, column 31: 1 '(' not closed");
	ASSERT_DIAG(m, "line 10, column 26: N2 is out of range: the event "
	    "lists 2 base events (N0..N1)");
	ASSERT_DIAG(m, "line 11, column 26: an operator is missing before "
	    "'N1'");
	ASSERT_DIAG(m, "line 12, column 23: a value is missing before '-'");
	ASSERT_DIAG(m, "line 13, column 23: NOT_DERIVED takes one event, not "
	    "2 (DERIVED_ADD and DERIVED_CMPD take more)");
	ASSERT_DIAG(m, "line 14, column 24: DERIVED_PS takes the cycle counter "
	    "and one event, not 3 events");
	ASSERT_DIAG(m, "line 15, column 24: DERIVED_ADD_PS needs at least two "
	    "events to add");
	ASSERT_DIAG(m, "line 16, column 20: EVENT X has no base events");
	ASSERT_DIAG(m, "line 17, column 8: EVENT needs a derived type "
	    "(NOT_DERIVED, DERIVED_ADD, ...)");
	ASSERT_DIAG(m, "line 18, column 6: EVENT needs an event name");
	ASSERT_DIAG(m, "line 19, column 28: the quote is not closed");
	ASSERT_DIAG(m, "line 20, column 32: only a comma may follow a closing "
	    "quote");
	ASSERT_DIAG(m, "line 21, column 30: expected LDESC, SDESC or NOTE, not "
	    "'junk' (quote texts that hold commas)");
	ASSERT_DIAG(m, "line 22, column 4: a comma must separate CPU from the "
	    "PMU name");
	ASSERT_DIAG(m, "line 23, column 4: CPU needs a PMU name");
	ASSERT_DIAG(m, "line 24, column 7: the PMU type 'y' is not a number");
	ASSERT_DIAG(m, "line 25, column 25: DERIVED_POSTFIX needs a formula");
	ASSERT_DIAG(m, "line 26, column 22: empty base event name");
	ASSERT_DIAG(m, "line 27, column 38: warning: base event N2 'C' is not "
	    "used by the formula");
	ASSERT_DIAG(m, "line 28, column 25: 'N0N1' is not part of a formula "
	    "(N<i>, numbers, #, + - * / separated by '|')");
	assert_int_equal(m->nerrors, 25);
	assert_int_equal(m->nwarnings, 1);
	assert_int_equal(m->ndiags, 26);
	/* Sorted by line. */
	assert_int_equal(m->diags[0].line, 3);
	assert_int_equal(m->diags[25].line, 28);
	assert_int_equal(m->diags[1].severity, PAPI_ERROR);
	assert_string_equal(m->diags[1].message,
	    "unknown derived type 'DERIVED_MUL'");
	assert_int_equal(m->diags[1].column, 9);
	/* Bad lines are skipped; the good ones load. */
	assert_int_equal(m->nevents, 3);
	assert_string_equal(m->events[0].name, "OK1");
	assert_string_equal(m->events[1].name, "X");
	assert_int_equal(m->events[1].line, 27);
	assert_string_equal(m->events[2].name, "OK2");
	papi_model_free(m);
}

static void
test_hostile(void **state)
{
	struct papi_model	*m;
	struct strbuf		 sb = { 0 };
	char			 nul[] = "CPU,a\nEVENT,X,NOT_DERIVED,A\0B\n"
				    "EVENT,Y,NOT_DERIVED,\x1b[2J\n";
	int			 i;

	(void)state;
	assert_int_equal(papi_parse(nul, sizeof nul - 1, &m, NULL),
	    -HV_EFORMAT);
	ASSERT_DIAG(m, "line 2, column 22: NUL byte");
	/* Control bytes are loaded, never echoed raw in messages. */
	assert_int_equal(m->nevents, 1);
	papi_model_free(m);

	/* A line too long. */
	strbuf_adds(&sb, "CPU,a\nEVENT,X,NOT_DERIVED,");
	for (i = 0; i < PAPI_LINE_MAX; i++)
		strbuf_addc(&sb, 'A');
	strbuf_adds(&sb, "\nEVENT,Y,DERIVED_ADD,");
	for (i = 0; i <= PAPI_BASES_MAX; i++)
		strbuf_addf(&sb, "B%d,", i);
	strbuf_adds(&sb, "\nEVENT,Z,DERIVED_POSTFIX,N0");
	for (i = 0; i < 700; i++)
		strbuf_adds(&sb, "|N0|+");
	strbuf_adds(&sb, ",");
	for (i = 0; i < 30; i++)
		strbuf_adds(&sb, "LONGNAME");
	strbuf_adds(&sb, "\nEVENT,BAD,NOT_DERIVED,\x1b[2J,NOTE,x,\x1b[2J\n");
	assert_int_equal(parse(sb.s, &m), -HV_EFORMAT);
	ASSERT_DIAG(m, "line 2, column 16385: the line is longer than 16384 "
	    "bytes");
	ASSERT_DIAG(m, "line 3, column 267: more than 64 base events");
	ASSERT_DIAG(m, "line 4, column 25: the expression would be longer "
	    "than 16384 bytes");
	ASSERT_DIAG(m, "line 5, column 35: expected LDESC, SDESC or NOTE, not "
	    "'?[2J' (quote texts that hold commas)");
	assert_int_equal(m->nevents, 0);
	papi_model_free(m);

	/* Many errors: all counted, a bounded number kept. */
	strbuf_reset(&sb);
	for (i = 0; i < 3 * PAPI_DIAGS_MAX; i++)
		strbuf_adds(&sb, "bad line\n");
	assert_int_equal(parse(sb.s, &m), -HV_EFORMAT);
	assert_int_equal(m->nerrors, 3 * PAPI_DIAGS_MAX);
	assert_int_equal(m->ndiags, PAPI_DIAGS_MAX);
	papi_model_free(m);
	strbuf_free(&sb);

	/* Nothing at all. */
	assert_int_equal(papi_parse("", 0, &m, NULL), 0);
	assert_int_equal(m->nevents, 0);
	assert_int_equal(m->nsections, 0);
	papi_model_free(m);
	papi_model_free(NULL);
}

static void
test_idents(void **state)
{
	struct papi_model	*m;
	const struct papi_event	*ev;

	(void)state;
	assert_int_equal(parse(
	    "CPU,x\n"
	    "EVENT,E1,DERIVED_ADD,A:B,A_B,a:b,A:B\n"
	    "EVENT,E2,DERIVED_POSTFIX,N0|N1|N2|N3|+|+|+|,mod,9LIVES,x/y,"
	    "A_B__2\n"
	    "EVENT,my:metric,NOT_DERIVED,A:B\n"
	    "EVENT,E3,DERIVED_INFIX,N0*N1,my:metric,E1\n", &m), 0);
	assert_int_equal(m->nerrors, 0);
	ev = event(m, "E1");
	/*
	 * A_B is a real name, A_B__2 too: A:B gets A_B__3, a:b a_b__4 (case
	 * is kept, but identifiers must differ in more than case).
	 */
	assert_string_equal(ev->expr, "A_B__3 A_B + a_b__4 + A_B__3 +");
	assert_string_equal(ev->bases[0].name, "A:B");
	assert_string_equal(ev->bases[0].ident, "A_B__3");
	assert_string_equal(ev->bases[1].ident, "A_B");
	ev = event(m, "E2");
	assert_string_equal(ev->expr, "mod__2 _9LIVES x_y A_B__2 + + +");
	ev = event(m, "my:metric");
	assert_string_equal(ev->ident, "my_metric");
	assert_string_equal(ev->expr, "A_B__3");
	assert_string_equal(event(m, "E3")->expr, "my_metric*E1");
	assert_string_equal(papi_model_ident_name(m, "A_B__3"), "A:B");
	assert_string_equal(papi_model_ident_name(m, "a_b__4"), "a:b");
	assert_string_equal(papi_model_ident_name(m, "mod__2"), "mod");
	assert_string_equal(papi_model_ident_name(m, "_9LIVES"), "9LIVES");
	assert_string_equal(papi_model_ident_name(m, "my_metric"),
	    "my:metric");
	assert_null(papi_model_ident_name(m, "A_B"));
	assert_null(papi_model_ident_name(m, "nothing"));
	assert_int_equal(m->nidents, 6);
	papi_model_free(m);
}

/*
 * A large file: 20,000 events, every 1,000th defined again later with
 * its name in lower case, the rest of another section using them.  Names
 * are found without case, the last definition wins, base events resolve
 * to the definition before them, byname groups every event by name.
 */
#define MANY	20000
static void
test_many(void **state)
{
	struct papi_model	*m;
	struct strbuf		 sb = { 0 };
	const struct papi_event	*ev, *r;
	unsigned char		*seen;
	char			 name[32];
	size_t			 i, j, lo, hi;

	(void)state;
	strbuf_adds(&sb, "CPU,hv_24x7\n");
	for (i = 0; i < MANY; i++)
		strbuf_addf(&sb, "EVENT,E%zu,DERIVED_ADD,NATIVE_%zu,N:X\n", i,
		    i % 7);
	for (i = 0; i < MANY; i += 1000)
		strbuf_addf(&sb, "EVENT,e%zu,NOT_DERIVED,E%zu\n", i, i + 1);
	strbuf_adds(&sb, "CPU,other\n");
	for (i = 0; i < 100; i++)
		strbuf_addf(&sb, "EVENT,U%zu,DERIVED_SUB,E%zu,e%zu\n", i, i,
		    i);
	assert_int_equal(parse(sb.s, &m), 0);
	strbuf_free(&sb);
	assert_int_equal(m->nevents, MANY + MANY / 1000 + 100);
	assert_int_equal(m->nnames, MANY + 100);
	assert_int_equal(m->nwarnings, MANY / 1000);

	ev = papi_model_find(m, "hv_24x7", "E1000");
	assert_non_null(ev);
	assert_string_equal(ev->name, "e1000");
	assert_string_equal(ev->expr, "E1001");
	ev = papi_model_find(m, "HV_24X7", "e1001");
	assert_non_null(ev);
	assert_string_equal(ev->name, "E1001");
	assert_string_equal(ev->expr, "NATIVE_0 N_X +");
	assert_null(papi_model_find(m, "hv_24x7", "U5"));
	assert_null(papi_model_find(m, "hv_24x7", "E20000"));
	assert_null(papi_model_find(m, NULL, "E"));

	/* U0 uses E0 and e0: both mean the later e0 (same name, no case). */
	ev = papi_model_find(m, NULL, "U0");
	r = papi_model_resolve(m, NULL, ev, 0);
	assert_non_null(r);
	assert_string_equal(r->name, "e0");
	/* U5 uses E5, defined once. */
	ev = papi_model_find(m, NULL, "u5");
	r = papi_model_resolve(m, NULL, ev, 1);
	assert_non_null(r);
	assert_string_equal(r->name, "E5");
	/* Native names resolve to nothing. */
	assert_null(papi_model_resolve(m, NULL, papi_model_find(m, NULL,
	    "E3"), 0));

	/* byname: every event once, grouped by name, by index within. */
	seen = calloc(m->nevents, 1);
	for (i = 0; i < m->nevents; i++) {
		assert_false(seen[m->byname[i]]);
		seen[m->byname[i]] = 1;
		if (i > 0 && m->events[m->byname[i]].name_id ==
		    m->events[m->byname[i - 1]].name_id)
			assert_true(m->byname[i] > m->byname[i - 1]);
	}
	free(seen);
	for (i = 0; i < m->nnames; i++) {
		lo = m->namerange[2 * i];
		hi = m->namerange[2 * i + 1];
		assert_true(lo < hi);
		for (j = lo; j < hi; j++)
			assert_int_equal(m->events[m->byname[j]].name_id, i);
	}
	snprintf(name, sizeof name, "E%d", MANY - 1);
	assert_ptr_equal(papi_model_find(m, NULL, name),
	    &m->events[MANY - 1]);
	papi_model_free(m);
}

/* Many names that mangle alike still get distinct identifiers. */
static void
test_idents_alike(void **state)
{
	static const char	 punct[] = ".:;<=>?@[]^`{}~!$%&*+/|-";
	struct papi_model	*m;
	struct strbuf		 sb = { 0 };
	const struct papi_event	*ev;
	size_t			 i, j, n = 0;

	(void)state;
	strbuf_adds(&sb, "CPU,x\nEVENT,x____3,NOT_DERIVED,X____5\n");
	for (i = 0; punct[i] != '\0'; i++) {
		for (j = 0; punct[j] != '\0'; j++, n++)
			strbuf_addf(&sb, "EVENT,E%zu,NOT_DERIVED,\"x%c%c\"\n",
			    n, punct[i], punct[j]);
	}
	assert_int_equal(parse(sb.s, &m), 0);
	strbuf_free(&sb);
	assert_int_equal(m->nevents, n + 1);
	assert_int_equal(m->nidents, n);
	for (i = 1; i < m->nidents; i++) {
		/* Sorted by identifier, so equal ones would be neighbours. */
		assert_true(strcmp(m->idents[i - 1].ident,
		    m->idents[i].ident) < 0);
	}
	for (i = 1; i <= n; i++) {
		ev = &m->events[i];
		assert_string_equal(papi_model_ident_name(m,
		    ev->bases[0].ident), ev->bases[0].name);
	}
	/* x____3 and X____5 are names of the file: they are skipped. */
	assert_string_equal(m->events[1].bases[0].ident, "x__");
	assert_string_equal(m->events[2].bases[0].ident, "x____2");
	assert_string_equal(m->events[3].bases[0].ident, "x____4");
	assert_string_equal(m->events[4].bases[0].ident, "x____6");
	papi_model_free(m);
}

static int
known_in(const char *name, void *arg)
{
	const char *const	*p;

	for (p = arg; *p != NULL; p++) {
		if (strcmp(*p, name) == 0)
			return (1);
	}
	return (0);
}

static void
test_check(void **state)
{
	struct papi_model	*m;
	struct papi_avail	*av;
	const char		*known[] = { "A", "B", "C", "PM_X", NULL };

	(void)state;
	assert_int_equal(parse(
	    "CPU,hv_24x7\n"
	    "EVENT,E0,DERIVED_ADD,A,B\n"		/* 0 available */
	    "EVENT,E1,DERIVED_SUB,A,NOPE,ALSO_NOPE\n"	/* 1 missing NOPE */
	    "EVENT,E2,DERIVED_PS,PAPI_TOT_CYC,C\n"	/* 2 clock not needed */
	    "EVENT,E3,DERIVED_CMPD,A,D\n"		/* 3 all needed */
	    "EVENT,E4,NOT_DERIVED,E0\n"		/* 4 through E0 */
	    "EVENT,E5,DERIVED_POSTFIX,N0|N1|+|,E1,A\n"	/* 5 through E1 */
	    "EVENT,PM_X,DERIVED_ADD,PM_X,A\n"		/* 6 native PM_X */
	    "EVENT,E7,NOT_DERIVED,LATER\n"		/* 7 LATER is after */
	    "EVENT,LATER,NOT_DERIVED,A\n"		/* 8 */
	    "EVENT,E9,NOT_DERIVED,pm_x\n"		/* 9 no case: event 6 */
	    "CPU,POWER8\n"
	    "EVENT,P0,NOT_DERIVED,A\n"			/* 10 not here */
	    "EVENT,E0,NOT_DERIVED,NOPE\n"		/* 11 other section */
	    "CPU,hv_24x7\n"
	    "EVENT,E12,NOT_DERIVED,E0\n", &m), 0);	/* 12 sees event 0 */
	assert_int_equal(papi_check(m, "HV_24x7", known_in, known, &av), 0);
	assert_int_equal(av[0].status, PAPI_AVAILABLE);
	assert_int_equal(av[0].base, PAPI_NONE);
	assert_null(av[0].missing);
	assert_int_equal(av[1].status, PAPI_MISSING);
	assert_string_equal(av[1].missing, "NOPE");
	assert_int_equal(av[1].base, 1);
	assert_int_equal(av[2].status, PAPI_AVAILABLE);
	assert_int_equal(av[3].status, PAPI_MISSING);
	assert_string_equal(av[3].missing, "D");
	assert_int_equal(av[3].base, 1);
	assert_int_equal(av[4].status, PAPI_AVAILABLE);
	assert_int_equal(av[5].status, PAPI_MISSING);
	assert_string_equal(av[5].missing, "NOPE");
	assert_int_equal(av[5].base, 0);
	assert_int_equal(av[6].status, PAPI_AVAILABLE);
	assert_int_equal(av[7].status, PAPI_MISSING);
	assert_string_equal(av[7].missing, "LATER");
	assert_int_equal(av[8].status, PAPI_AVAILABLE);
	assert_int_equal(av[9].status, PAPI_AVAILABLE);
	assert_int_equal(av[10].status, PAPI_NOT_HERE);
	assert_int_equal(av[11].status, PAPI_NOT_HERE);
	assert_int_equal(av[12].status, PAPI_AVAILABLE);
	free(av);

	/* papi_model_resolve() agrees. */
	assert_ptr_equal(papi_model_resolve(m, "hv_24x7", &m->events[4], 0),
	    &m->events[0]);
	assert_null(papi_model_resolve(m, "hv_24x7", &m->events[6], 0));
	assert_ptr_equal(papi_model_resolve(m, "hv_24x7", &m->events[9], 0),
	    &m->events[6]);
	assert_null(papi_model_resolve(m, "hv_24x7", &m->events[7], 0));
	assert_ptr_equal(papi_model_resolve(m, "hv_24x7", &m->events[12], 0),
	    &m->events[0]);
	assert_ptr_equal(papi_model_resolve(m, NULL, &m->events[12], 0),
	    &m->events[11]);

	/* For POWER8, E0 of the POWER8 section needs NOPE. */
	assert_int_equal(papi_check(m, "POWER8", known_in, known, &av), 0);
	assert_int_equal(av[0].status, PAPI_NOT_HERE);
	assert_int_equal(av[10].status, PAPI_AVAILABLE);
	assert_int_equal(av[11].status, PAPI_MISSING);
	assert_string_equal(av[11].missing, "NOPE");
	free(av);
	papi_model_free(m);

	assert_int_equal(papi_parse("# nothing\n", 10, &m, NULL), 0);
	assert_int_equal(papi_check(m, NULL, known_in, known, &av), 0);
	assert_null(av);
	papi_model_free(m);
}

static void
test_real(void **state)
{
	struct papi_model	*m;
	const struct papi_event	*ev;
	const struct papi_section *s;
	size_t			 len, i, ntype[PAPI_NTYPES] = { 0 };
	size_t			 idx[4], npmus = 0, ncuda = 0;
	char			*buf, *cause = NULL;

	(void)state;
	buf = fixture_data("papi", "papi_events.csv", &len);
	assert_int_equal(papi_parse(buf, len, &m, &cause), 0);
	free(buf);
	if (m->nerrors != 0)
		print_diags(m);
	assert_null(cause);
	assert_int_equal(m->nerrors, 0);
	assert_int_equal(m->nlines, 2812);
	/* grep -c '^PRESET' */
	assert_int_equal(m->nevents, 1977);
	/*
	 * Active definitions by type (awk on the third field of PRESET
	 * lines).  grep -c DERIVED_POSTFIX says 84: 7 of those lines are
	 * commented out, so 77 are real; likewise ADD 264 -> 250, SUB 162
	 * -> 152.
	 */
	for (i = 0; i < m->nevents; i++) {
		ntype[m->events[i].type]++;
		assert_int_equal(m->events[i].kind, PAPI_KIND_PRESET);
		assert_non_null(m->events[i].expr);
	}
	assert_int_equal(ntype[PAPI_TYPE_NOT_DERIVED], 1486);
	assert_int_equal(ntype[PAPI_TYPE_ADD], 250);
	assert_int_equal(ntype[PAPI_TYPE_SUB], 152);
	assert_int_equal(ntype[PAPI_TYPE_POSTFIX], 77);
	assert_int_equal(ntype[PAPI_TYPE_CMPD], 12);
	assert_int_equal(ntype[PAPI_TYPE_PS], 0);
	assert_int_equal(ntype[PAPI_TYPE_ADD_PS], 0);
	assert_int_equal(ntype[PAPI_TYPE_INFIX], 0);
	/* 180 CPU lines and 3 cuda lines in 89 runs. */
	assert_int_equal(m->nsections, 89);
	for (i = 0; i < m->nsections; i++) {
		s = &m->sections[i];
		npmus += s->npmus;
		if (s->npmus != 0 && s->pmus[0].component != NULL)
			ncuda += s->npmus;
	}
	assert_int_equal(npmus, 183);
	assert_int_equal(ncuda, 3);
	/* 13 names defined twice within one section: warnings only. */
	assert_int_equal(m->nwarnings, 13);
	ASSERT_DIAG(m, "line 1858, column 8: warning: PAPI_L2_ICM is defined "
	    "again (first on line 1857); this definition is the one used");
	assert_int_equal(m->nnames, 113);

	/* The POWER8 section: lines 1792-1836, 26 presets. */
	assert_int_equal(papi_model_match(m, "power8", idx, 4), 1);
	s = &m->sections[idx[0]];
	assert_int_equal(s->line, 1792);
	assert_int_equal(s->npmus, 2);
	assert_string_equal(s->pmus[0].name, "POWER8");
	assert_string_equal(s->pmus[1].name, "power8");
	assert_int_equal(s->nevents, 26);
	ev = &m->events[s->first_event];
	assert_string_equal(ev->name, "PAPI_L1_DCM");
	assert_string_equal(ev->expr, "PM_LD_MISS_L1 PM_ST_MISS_L1 +");
	/* Line 1800: no trailing '|'. */
	ev = papi_model_find(m, "POWER8", "PAPI_L1_DCA");
	assert_int_equal(ev->line, 1800);
	assert_string_equal(ev->formula, "N0|N1|-|N2|+|N3|-");
	assert_string_equal(ev->expr,
	    "PM_ST_FIN PM_ST_MISS_L1 - PM_LD_REF_L1 + PM_LD_MISS_L1 -");
	ev = papi_model_find(m, "POWER8", "PAPI_DP_OPS");
	assert_string_equal(ev->expr, "PM_VSU0_2FLOP 4 * PM_VSU0_4FLOP 8 * "
	    "PM_VSU0_8FLOP 16 * PM_VSU0_16FLOP 32 * + + +");
	assert_string_equal(papi_model_find(m, "POWER8", "PAPI_TOT_CYC")->expr,
	    "PM_RUN_CYC");
	assert_string_equal(papi_model_find(m, "POWER8", "PAPI_STL_ICY")->expr,
	    "PM_RUN_CYC PM_1PLUS_PPC_DISP -");
	assert_null(papi_model_find(m, "POWER8", "PAPI_L2_LDM"));

	/* Line 2174: a leading '|'. */
	for (ev = NULL, i = 0; i < m->nevents; i++) {
		if (m->events[i].line == 2174)
			ev = &m->events[i];
	}
	assert_non_null(ev);
	assert_string_equal(ev->expr, "L1D_CACHE L1I_CACHE + L1I_CACHE_REFILL "
	    "- L1D_CACHE_REFILL -");

	/* A native name with ':' and a single-quoted note (line 93). */
	ev = papi_model_find(m, "AMD64 (K8 RevB)", "PAPI_FP_OPS");
	assert_int_equal(ev->line, 93);
	assert_string_equal(ev->bases[0].name,
	    "DISPATCHED_FPU:OPS_MULTIPLY:OPS_ADD");
	assert_string_equal(ev->expr, "DISPATCHED_FPU_OPS_MULTIPLY_OPS_ADD");
	assert_string_equal(ev->note, "Counts speculative adds and "
	    "multiplies. Variable and higher than theoretical.");
	assert_string_equal(papi_model_ident_name(m,
	    "DISPATCHED_FPU_OPS_MULTIPLY_OPS_ADD"),
	    "DISPATCHED_FPU:OPS_MULTIPLY:OPS_ADD");
	/* A cuda component section. */
	ev = papi_model_find(m, "GH100", "PAPI_CUDA_FP8_OPS");
	assert_non_null(ev);
	assert_string_equal(ev->bases[0].name,
	    "cuda:::sm__ops_path_tensor_src_fp8:stat=sum");
	assert_null(papi_model_find(m, "GA100", "PAPI_CUDA_FP8_OPS"));
	papi_model_free(m);
}

static void
test_man_example(void **state)
{
	struct papi_model	*m;
	struct papi_avail	*av;
	const char		*known[] = {
		"FP_COMP_OPS_EXE:SSE_SINGLE_PRECISION",
		"FP_COMP_OPS_EXE:SSE_FP_PACKED", "UNHALTED_CORE_CYCLES", NULL
	};
	const struct papi_event	*ev;
	size_t			 len;
	char			*buf;

	(void)state;
	buf = fixture_data("papi", "man-example.csv", &len);
	assert_int_equal(papi_parse(buf, len, &m, NULL), 0);
	free(buf);
	assert_int_equal(m->nevents, 5);
	assert_int_equal(m->nsections, 2);
	ev = papi_model_find(m, "nhm-ex", "PAPI_SP_OPS");
	assert_string_equal(ev->expr, "FP_COMP_OPS_EXE_SSE_SINGLE_PRECISION "
	    "FP_COMP_OPS_EXE_SSE_FP_PACKED 3 * +");
	assert_string_equal(ev->note, "Using a postfix formula");
	ev = papi_model_find(m, "nhm", "USER_SP_OPS");
	assert_string_equal(ev->expr, "FP_COMP_OPS_EXE_SSE_SINGLE_PRECISION+"
	    "(FP_COMP_OPS_EXE_SSE_FP_PACKED*3)");
	ev = papi_model_find(m, "nhm", "ALIAS_SP_OPS");
	assert_string_equal(ev->expr, "PAPI_SP_OPS");
	assert_string_equal(ev->ldesc, "Alias for preset event PAPI_SP_OPS");
	assert_ptr_equal(papi_model_resolve(m, "nhm", ev, 0),
	    papi_model_find(m, "nhm", "PAPI_SP_OPS"));
	assert_int_equal(papi_check(m, "NHM", known_in, known, &av), 0);
	assert_int_equal(av[0].status, PAPI_AVAILABLE);
	assert_int_equal(av[1].status, PAPI_MISSING);
	assert_string_equal(av[1].missing, "UNHALTED_REFERENCE_CYCLES");
	assert_int_equal(av[2].status, PAPI_AVAILABLE);
	assert_int_equal(av[3].status, PAPI_AVAILABLE);
	assert_int_equal(av[4].status, PAPI_AVAILABLE);
	free(av);
	assert_int_equal(papi_check(m, "snb", known_in, known, &av), 0);
	assert_int_equal(av[4].status, PAPI_NOT_HERE);
	free(av);
	papi_model_free(m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_types),
		cmocka_unit_test(test_sections),
		cmocka_unit_test(test_quoting),
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_idents),
		cmocka_unit_test(test_idents_alike),
		cmocka_unit_test(test_many),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_real),
		cmocka_unit_test(test_man_example),
	};

	return (cmocka_run_group_tests_name("papi", tests, NULL, NULL));
}
