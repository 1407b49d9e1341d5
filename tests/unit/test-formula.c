/*
 * Unit tests for src/formula: every RPN operator as the catalog proposal's
 * table defines it, rot on stacks of several depths, infix precedence,
 * conversions both ways, error messages with their columns, formula
 * references and cycles, and the values that are not numbers.
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
#include "util/strbuf.h"
#include "util/xalloc.h"

/*
 * A resolver over a small table: names with values are events (slot =
 * position), names with a text are formulas, "PB_Freq" is a constant the
 * settings lack.
 */
#define T_MAX	16
struct tres {
	const char	*name[T_MAX];
	double		 value[T_MAX];
	const char	*text[T_MAX];	/* formulas */
	size_t		 n;
};

static int
tres_resolve(void *arg, const char *name, struct formula_ref *ref)
{
	struct tres	*t = arg;
	size_t		 i;

	for (i = 0; i < t->n; i++) {
		if (strcmp(t->name[i], name) != 0)
			continue;
		if (t->text[i] != NULL) {
			ref->kind = FORMULA_FORMULA;
			ref->text = t->text[i];
			return (0);
		}
		ref->kind = FORMULA_EVENT;
		ref->slot = (unsigned)i;
		return (0);
	}
	if (strcmp(name, "PB_Freq") == 0) {
		ref->kind = FORMULA_CONST;
		ref->hint = xasprintf("set it with --const %s=VALUE", name);
	}
	return (-HV_ENOENT);
}

static void
tres_add(struct tres *t, const char *name, double v, const char *text)
{
	assert_true(t->n < T_MAX);
	t->name[t->n] = name;
	t->value[t->n] = v;
	t->text[t->n] = text;
	t->n++;
}

/* "A=1 B=2 C=3": events A..E with those values. */
static void
tres_abc(struct tres *t)
{
	memset(t, 0, sizeof *t);
	tres_add(t, "A", 1, NULL);
	tres_add(t, "B", 2, NULL);
	tres_add(t, "C", 3, NULL);
	tres_add(t, "D", 4, NULL);
	tres_add(t, "E", 5, NULL);
}

static struct formula_value
tres_eval(struct tres *t, const char *text, int notation, char **cause)
{
	struct formula		*f;
	struct formula_env	 env;
	struct formula_value	 v;

	memset(&env, 0, sizeof env);
	*cause = NULL;
	if (formula_compile(text, notation, NULL, tres_resolve, t, &f,
	    cause) != 0) {
		memset(&v, 0, sizeof v);
		v.operand = -2;
		return (v);
	}
	env.values[FORMULA_EVENT] = t->value;
	env.nvalues[FORMULA_EVENT] = t->n;
	v = formula_eval(f, &env);
	formula_free(f);
	return (v);
}

/* The value of text with A..E = 1..5; fails the test on any error. */
static double
val(const char *text, int notation, int line)
{
	struct tres		 t;
	struct formula_value	 v;
	char			*cause;

	tres_abc(&t);
	v = tres_eval(&t, text, notation, &cause);
	if (cause != NULL)
		fail_msg("line %d: %s: %s", line, text, cause);
	if (!v.ok)
		fail_msg("line %d: %s: no value (%s)", line, text,
		    formula_eval_reason(v.reason));
	return (v.value);
}

/* Replace the names A..E with their values, to exercise folding. */
static char *
numbers(const char *text)
{
	struct strbuf	 sb = { 0 };
	const char	*p;

	for (p = text; *p != '\0'; p++) {
		if (*p >= 'A' && *p <= 'E' &&
		    (p == text || p[-1] == ' ' || p[-1] == '|') &&
		    (p[1] == ' ' || p[1] == '|' || p[1] == '\0'))
			strbuf_addf(&sb, "%d", *p - 'A' + 1);
		else
			strbuf_addc(&sb, *p);
	}
	return (strbuf_detach(&sb));
}

/* The proposal's table, x = most recent, y = the one before. */
static const struct {
	int		 line;
	const char	*rpn;
	double		 want;
} rpn_ops[] = {
	{ __LINE__, "D B +", 6 },			/* y + x */
	{ __LINE__, "D B -", 2 },			/* y - x */
	{ __LINE__, "B D -", -2 },
	{ __LINE__, "D B *", 8 },			/* y * x */
	{ __LINE__, "D B /", 2 },			/* y / x */
	{ __LINE__, "B D /", 0.5 },
	{ __LINE__, "E B mod", 1 },			/* y % x */
	{ __LINE__, "0 E - B mod", -1 },		/* fmod: sign of y */
	{ __LINE__, "E 0 B - mod", 1 },
	{ __LINE__, "E B rem", 2 },			/* floor(y / x) */
	{ __LINE__, "0 E - B rem", -3 },		/* floor(-2.5) */
	{ __LINE__, "B E rem", 0 },
	{ __LINE__, "D sqr", 2 },			/* sqrt(x) */
	{ __LINE__, "B sqr B sqr *", 2.0000000000000004 },
	{ __LINE__, "B C x^y", 9 },			/* x ^ y = 3 ^ 2 */
	{ __LINE__, "C B x^y", 8 },			/* 2 ^ 3 */
	{ __LINE__, "0 A - D x^y", 0.25 },		/* 4 ^ -1 */
	{ __LINE__, "D B swp -", -2 },			/* x <- y, y <- x */
	{ __LINE__, "D B swp /", 0.5 },
	{ __LINE__, "C dup *", 9 },			/* y <- x, x <- x */
	{ __LINE__, "C dup dup * *", 27 },
	{ __LINE__, "A B C swp - -", 0 },		/* 1 - (3 - 2) */
	/* rot turns the whole stack: x <- y, y <- z, ..., deepest <- x. */
	{ __LINE__, "C rot", 3 },				/* depth 1 */
	{ __LINE__, "A B rot -", 1 },			/* [2 1] */
	{ __LINE__, "A B rot /", 2 },
	{ __LINE__, "A B C rot swp 10 * + swp 100 * +", 312 },	/* [3 1 2] */
	{ __LINE__, "A B C rot rot swp 10 * + swp 100 * +", 231 },
	{ __LINE__, "A B C rot rot rot swp 10 * + swp 100 * +", 123 },
	{ __LINE__, "A B C D E rot swp 10 * + swp 100 * + swp 1000 * + "
	    "swp 10000 * +", 51234 },				/* depth 5 */
	{ __LINE__, "A B C D E rot rot swp 10 * + swp 100 * + swp 1000 * + "
	    "swp 10000 * +", 45123 },
	/* The encoder itself: [1 2 3] reads 123. */
	{ __LINE__, "A B C swp 10 * + swp 100 * +", 123 },
	/* PAPI's form, with and without the trailing and leading '|'. */
	{ __LINE__, "E|B|-|C|/|", 1 },
	{ __LINE__, "E|B|-|C|/", 1 },
	{ __LINE__, "|E|B|-|C|/|", 1 },
	{ __LINE__, "1e1 .5 * 0x10 +", 21 },
	{ __LINE__, "delta-seconds", 7 },
	/* The result is x, the top of the stack; values under it are left
	 * over ([2 1] and [1], here). */
	{ __LINE__, "A B C rot", 2 },
	{ __LINE__, "A B C +", 5 },
	{ __LINE__, "E A B C rot rot", 1 },
};

static int
special_resolve(void *arg, const char *name, struct formula_ref *ref)
{
	(void)arg;
	(void)name;
	(void)ref;
	return (-HV_ENOENT);
}

static void
test_rpn_operators(void **state)
{
	struct formula		*f;
	struct formula_env	 env;
	struct formula_value	 v;
	double			 sp[FORMULA_NSPECIAL] = { 0, 0, 0, 7 };
	char			*num, *cause;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof rpn_ops / sizeof rpn_ops[0]; i++) {
		if (strcmp(rpn_ops[i].rpn, "delta-seconds") == 0) {
			/* A name the resolver leaves to the compiler. */
			assert_int_equal(formula_compile(rpn_ops[i].rpn,
			    FORMULA_RPN, NULL, special_resolve, NULL, &f,
			    &cause), 0);
			memset(&env, 0, sizeof env);
			env.values[FORMULA_SPECIAL] = sp;
			env.nvalues[FORMULA_SPECIAL] = FORMULA_NSPECIAL;
			v = formula_eval(f, &env);
			assert_true(v.ok);
			assert_true(v.value == rpn_ops[i].want);
			assert_int_equal(formula_operand(f, 0)->kind,
			    FORMULA_SPECIAL);
			assert_int_equal(formula_operand(f, 0)->slot,
			    FORMULA_DELTA_SECONDS);
			formula_free(f);
			continue;
		}
		if (val(rpn_ops[i].rpn, FORMULA_RPN, rpn_ops[i].line) !=
		    rpn_ops[i].want)
			fail_msg("line %d: %s = %.17g, want %.17g",
			    rpn_ops[i].line, rpn_ops[i].rpn,
			    val(rpn_ops[i].rpn, FORMULA_RPN, rpn_ops[i].line),
			    rpn_ops[i].want);
		/* Detection picks RPN, and constants fold to the same value. */
		assert_int_equal(formula_parse_detect(rpn_ops[i].rpn),
		    FORMULA_RPN);
		num = numbers(rpn_ops[i].rpn);
		if (val(num, FORMULA_AUTO, rpn_ops[i].line) != rpn_ops[i].want)
			fail_msg("line %d: folded %s", rpn_ops[i].line, num);
		assert_int_equal(formula_compile(num, FORMULA_AUTO, NULL,
		    special_resolve, NULL, &f, &cause), 0);
		assert_int_equal(formula_ncode(f), 1);
		formula_free(f);
		free(num);
	}
}

/*
 * Infix: value with A..E = 1..5, the infix printed back (fewest
 * parentheses), the RPN, and that RPN printed as infix when it differs
 * (RPN has no negation: -A goes through 0 A -).
 */
static const struct {
	int		 line;
	const char	*in;
	double		 want;
	const char	*infix;
	const char	*rpn;
	const char	*back;
} infix_cases[] = {
	{ __LINE__, "A + B * C", 7, "A + B * C", "A B C * +", NULL },
	{ __LINE__, "(A + B) * C", 9, "(A + B) * C", "A B + C *", NULL },
	{ __LINE__, "A - B - C", -4, "A - B - C", "A B - C -", NULL },
	{ __LINE__, "A - (B - C)", 2, "A - (B - C)", "A B C - -", NULL },
	{ __LINE__, "A + (B + C)", 6, "A + (B + C)", "A B C + +", NULL },
	{ __LINE__, "((A + B) + C)", 6, "A + B + C", "A B + C +", NULL },
	{ __LINE__, "A / B * C", 1.5, "A / B * C", "A B / C *", NULL },
	{ __LINE__, "A / (B * C)", 1.0 / 6, "A / (B * C)", "A B C * /",
	    NULL },
	{ __LINE__, "E % B", 1, "E % B", "E B mod", NULL },
	{ __LINE__, "E // B", 2, "E // B", "E B rem", NULL },
	{ __LINE__, "E - D // B", 3, "E - D // B", "E D B rem -", NULL },
	{ __LINE__, "B ^ C", 8, "B ^ C", "C B x^y", NULL },
	{ __LINE__, "B ** C", 8, "B ^ C", "C B x^y", NULL },
	{ __LINE__, "B ^ C ^ B", 512, "B ^ C ^ B", "B C x^y B x^y", NULL },
	{ __LINE__, "(B ^ C) ^ B", 64, "(B ^ C) ^ B", "B C B x^y x^y", NULL },
	{ __LINE__, "-B ^ B", -4, "-B ^ B", "0 B B x^y -",
	    "0 - B ^ B" },
	{ __LINE__, "(-B) ^ B", 4, "(-B) ^ B", "B 0 B - x^y",
	    "(0 - B) ^ B" },
	{ __LINE__, "B ^ -A", 0.5, "B ^ -A", "0 A - B x^y",
	    "B ^ (0 - A)" },
	{ __LINE__, "-A * B", -2, "-A * B", "0 A - B *",
	    "(0 - A) * B" },
	{ __LINE__, "A * -B", -2, "A * -B", "A 0 B - *",
	    "A * (0 - B)" },
	{ __LINE__, "A - -B", 3, "A - -B", "A 0 B - -",
	    "A - (0 - B)" },
	{ __LINE__, "-(A + B)", -3, "-(A + B)", "0 A B + -",
	    "0 - (A + B)" },
	{ __LINE__, "- -A", 1, "-(-A)", "0 0 A - -",
	    "0 - (0 - A)" },
	{ __LINE__, "+A", 1, "A", "A", NULL },
	{ __LINE__, "-5 + A", -4, "-5 + A", "-5 A +", NULL },
	{ __LINE__, "A - 5", -4, "A - 5", "A 5 -", NULL },
	{ __LINE__, "(-2) ^ B", 4, "(-2) ^ B", "B -2 x^y", NULL },
	{ __LINE__, "sqrt(D) * sqrt(D + 5)", 6, "sqrt(D) * sqrt(D + 5)",
	    "D sqr D 5 + sqr *", NULL },
	{ __LINE__, "1.0E-06*(A+C+B)*128.0/E", 1.0e-6 * 6 * 128.0 / 5,
	    "1e-06 * (A + C + B) * 128 / E", "1e-06 A C + B + * 128 * E /",
	    NULL },
	{ __LINE__, "(A|+|B)", 3, "A + B", "A B +", NULL },
	{ __LINE__, "0x10 * .5", 8, "16 * 0.5", "16 0.5 *", NULL },
	{ __LINE__, "delta-seconds - A", 6, "delta-seconds - A",
	    "delta-seconds A -", NULL },
	{ __LINE__, "delta - seconds", 1, "delta - seconds",
	    "delta seconds -", NULL },
	{ __LINE__, "l1d\\-loads + A", 4, "l1d\\-loads + A", "l1d-loads A +",
	    NULL },
};

static int
infix_resolve(void *arg, const char *name, struct formula_ref *ref)
{
	(void)arg;
	ref->kind = FORMULA_EVENT;
	if (strlen(name) == 1 && name[0] >= 'A' && name[0] <= 'E')
		ref->slot = (unsigned)(name[0] - 'A');
	else if (strcmp(name, "delta-seconds") == 0)
		ref->slot = 5;
	else if (strcmp(name, "delta") == 0)
		ref->slot = 6;
	else if (strcmp(name, "seconds") == 0)
		ref->slot = 7;
	else if (strcmp(name, "l1d-loads") == 0)
		ref->slot = 8;
	else
		return (-HV_ENOENT);
	return (0);
}

static double
infix_val(const char *text, int notation, int line)
{
	static const double	 v[] = { 1, 2, 3, 4, 5, 7, 3, 2, 3 };
	struct formula		*f;
	struct formula_env	 env;
	struct formula_value	 r;
	char			*cause;

	if (formula_compile(text, notation, NULL, infix_resolve, NULL, &f,
	    &cause) != 0)
		fail_msg("line %d: %s: %s", line, text, cause);
	memset(&env, 0, sizeof env);
	env.values[FORMULA_EVENT] = v;
	env.nvalues[FORMULA_EVENT] = sizeof v / sizeof v[0];
	r = formula_eval(f, &env);
	formula_free(f);
	if (!r.ok)
		fail_msg("line %d: %s: no value", line, text);
	return (r.value);
}

static void
test_infix(void **state)
{
	const char	*want;
	char		*out, *back, *cause;
	size_t		 i;
	double		 v;

	(void)state;
	for (i = 0; i < sizeof infix_cases / sizeof infix_cases[0]; i++) {
		const char	*in = infix_cases[i].in;
		int		 line = infix_cases[i].line;

		assert_int_equal(formula_parse_detect(in), FORMULA_INFIX);
		v = infix_val(in, FORMULA_AUTO, line);
		if (v != infix_cases[i].want)
			fail_msg("line %d: %s = %.17g, want %.17g", line, in, v,
			    infix_cases[i].want);

		assert_int_equal(formula_print_convert(in, FORMULA_AUTO,
		    FORMULA_INFIX, &out, &cause), 0);
		if (strcmp(out, infix_cases[i].infix) != 0)
			fail_msg("line %d: infix '%s', want '%s'", line, out,
			    infix_cases[i].infix);
		free(out);

		assert_int_equal(formula_print_convert(in, FORMULA_INFIX,
		    FORMULA_RPN, &out, &cause), 0);
		if (strcmp(out, infix_cases[i].rpn) != 0)
			fail_msg("line %d: rpn '%s', want '%s'", line, out,
			    infix_cases[i].rpn);
		/* The RPN has the same value and prints back the same. */
		if (infix_val(out, FORMULA_RPN, line) != v)
			fail_msg("line %d: rpn %s changes the value", line,
			    out);
		assert_int_equal(formula_print_convert(out, FORMULA_RPN,
		    FORMULA_INFIX, &back, &cause), 0);
		want = infix_cases[i].back != NULL ? infix_cases[i].back :
		    infix_cases[i].infix;
		if (strcmp(back, want) != 0)
			fail_msg("line %d: rpn -> infix '%s', want '%s'", line,
			    back, want);
		free(back);
		free(out);
	}
}

/* RPN -> infix for the stack words: they become the tree they build. */
static void
test_rpn_to_infix(void **state)
{
	static const struct {
		const char	*rpn, *infix, *canon;
	} c[] = {
		{ "A B swp -", "B - A", "B A -" },
		{ "A dup *", "A * A", "A A *" },
		{ "A B C rot + +", "C + (A + B)", "C A B + +" },
		{ "A B x^y", "B ^ A", "A B x^y" },
		{ "A sqr", "sqrt(A)", "A sqr" },
		{ "A B mod C rem", "A % B // C", "A B mod C rem" },
		{ "A B C mod rem", "A // (B % C)", "A B C mod rem" },
		{ "2 -3 x^y", "(-3) ^ 2", "2 -3 x^y" },
		{ "X% 1 +", "X\\% + 1", "X% 1 +" },
		{ "delta-timebase a-b -", "delta-timebase - a\\-b",
		    "delta-timebase a-b -" },
		{ "1e300 1e-300 0.1 -0 +", NULL, NULL },
	};
	char	*out, *back, *cause;
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		if (c[i].infix == NULL)
			continue;
		assert_int_equal(formula_print_convert(c[i].rpn, FORMULA_RPN,
		    FORMULA_INFIX, &out, &cause), 0);
		assert_string_equal(out, c[i].infix);
		assert_int_equal(formula_print_convert(out, FORMULA_INFIX,
		    FORMULA_RPN, &back, &cause), 0);
		assert_string_equal(back, c[i].canon);
		free(back);
		free(out);
	}
	/* Numbers print with the fewest digits that read back exactly. */
	assert_int_equal(formula_print_convert("0.1 1e300 * 1e-300 + "
	    "0.30000000000000004 123456789012 * -", FORMULA_RPN, FORMULA_RPN,
	    &out, &cause), 0);
	assert_string_equal(out,
	    "0.1 1e+300 * 1e-300 + 0.30000000000000004 123456789012 * -");
	free(out);
	/* Fewest characters too: 100, not 1e+02; 1e+06, not 1000000. */
	assert_int_equal(formula_print_convert("100 * A / B + 1e6 + 120",
	    FORMULA_INFIX, FORMULA_INFIX, &out, &cause), 0);
	assert_string_equal(out, "100 * A / B + 1e+06 + 120");
	free(out);
}

/* Errors: the message a user sees, with the column. */
static const struct {
	int		 line;
	const char	*text;
	int		 notation;
	const char	*msg;		/* exact, or a prefix ending in '*' */
} errors[] = {
	{ __LINE__, "A B + *", FORMULA_RPN,
	    "stack underflow at '*' (col 7): needs 2 operands, has 1" },
	{ __LINE__, "A sqr sqr swp", FORMULA_RPN,
	    "stack underflow at 'swp' (col 11): needs 2 operands, has 1" },
	{ __LINE__, "dup", FORMULA_RPN,
	    "stack underflow at 'dup' (col 1): needs 1 operand, has 0" },
	{ __LINE__, "rot", FORMULA_RPN,
	    "stack underflow at 'rot' (col 1): needs 1 operand, has 0" },
	{ __LINE__, "A B ^", FORMULA_RPN,
	    "unknown operator '^' (col 5): RPN writes x^y*" },
	{ __LINE__, "A B pow", FORMULA_AUTO,
	    "missing operator before 'B' (col 3)" },
	{ __LINE__, "A B +* ", FORMULA_RPN,
	    "unknown operator '+*' (col 5)" },
	{ __LINE__, "A 1e +", FORMULA_RPN, "bad number '1e' (col 3)" },
	{ __LINE__, "A f(B) +", FORMULA_RPN,
	    "unexpected '(' (col 4): RPN has no parentheses" },
	{ __LINE__, "", FORMULA_AUTO, "empty formula" },
	{ __LINE__, " | ", FORMULA_RPN, "empty formula" },
	{ __LINE__, "(A + B))", FORMULA_AUTO, "unbalanced ')' (col 8)" },
	{ __LINE__, ")", FORMULA_AUTO, "unbalanced ')' (col 1)" },
	{ __LINE__, "A * (B + C", FORMULA_AUTO,
	    "unbalanced '(' (col 5): no ')' closes it" },
	{ __LINE__, "(A + )", FORMULA_AUTO,
	    "expected a value before ')' (col 6)" },
	{ __LINE__, "A * / B", FORMULA_AUTO,
	    "expected a value at '/' (col 5)" },
	{ __LINE__, "A +", FORMULA_INFIX,
	    "unexpected end of formula (col 4): expected a value" },
	{ __LINE__, "A +", FORMULA_AUTO,
	    "stack underflow at '+' (col 3): needs 2 operands, has 1" },
	{ __LINE__, "(A B)", FORMULA_AUTO,
	    "missing operator before 'B' (col 4)" },
	{ __LINE__, "A $ B", FORMULA_AUTO,
	    "unexpected character '$' (col 3)" },
	{ __LINE__, "A + \xc3\xa9", FORMULA_AUTO,
	    "unexpected byte 0xc3 (col 5)" },
	{ __LINE__, "2PB + A", FORMULA_AUTO, "bad number '2PB' (col 1)" },
	{ __LINE__, "A + 0x", FORMULA_AUTO, "bad number '0x' (col 5)" },
	{ __LINE__, "A + 0x12345678901234567", FORMULA_AUTO,
	    "bad number '0x12345678901234567' (col 5)" },
	{ __LINE__, "1e999 * A", FORMULA_AUTO, "bad number '1e999' (col 1)" },
	{ __LINE__, "log(A)", FORMULA_AUTO,
	    "unknown function 'log' (col 1): the only function is sqrt" },
	{ __LINE__, "A mod B", FORMULA_INFIX,
	    "'mod' (col 3) is an RPN operator, not a name*" },
};

/* Values left under an RPN result are counted, for a checker's warning. */
static void
test_leftover(void **state)
{
	static const struct {
		const char	*text;
		size_t		 leftover;
	} cases[] = {
		{ "A B C rot", 2 },
		{ "A B C +", 1 },
		{ "A B +", 0 },
		{ "A + B", 0 },
	};
	struct formula_ast	*ast;
	char			*cause = NULL;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_int_equal(formula_parse(cases[i].text, FORMULA_AUTO,
		    &ast, &cause), 0);
		assert_int_equal(formula_ast_leftover(ast), cases[i].leftover);
		formula_ast_free(ast);
	}
}

/*
 * What is left under an RPN result is not resolved: an unknown name or a
 * formula loop there does not fail the formula, as its printed form (which
 * no longer has them) would not either.
 */
static void
test_leftover_unresolved(void **state)
{
	static const struct {
		const char	*text;
		double		 value;
	} cases[] = {
		{ "NOSUCH A B +", 3 },
		{ "S 2 2 -", 0 },
		{ "PB_Freq X A B *", 2 },
		{ "NOSUCH dup A", 1 },
	};
	struct formula_value	 v;
	struct tres		 t;
	char			*cause;
	size_t			 i;

	(void)state;
	tres_abc(&t);
	tres_add(&t, "X", 0, "Y + 1");
	tres_add(&t, "Y", 0, "X");
	tres_add(&t, "S", 0, "S");
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		v = tres_eval(&t, cases[i].text, FORMULA_RPN, &cause);
		if (!v.ok)
			fail_msg("'%s': %s", cases[i].text,
			    cause != NULL ? cause : "no value");
		assert_true(v.value == cases[i].value);
	}
	/* What the result reaches is still resolved. */
	v = tres_eval(&t, "A NOSUCH +", FORMULA_AUTO, &cause);
	assert_false(v.ok);
	assert_non_null(cause);
	free(cause);
}

static void
test_parse_errors(void **state)
{
	struct formula_ast	*ast;
	char			*cause;
	size_t			 i, n;

	(void)state;
	for (i = 0; i < sizeof errors / sizeof errors[0]; i++) {
		cause = NULL;
		if (formula_parse(errors[i].text, errors[i].notation, &ast,
		    &cause) == 0)
			fail_msg("line %d: '%s' parses", errors[i].line,
			    errors[i].text);
		assert_null(ast);
		n = strlen(errors[i].msg);
		if (errors[i].msg[n - 1] == '*' ?
		    strncmp(cause, errors[i].msg, n - 1) != 0 :
		    strcmp(cause, errors[i].msg) != 0)
			fail_msg("line %d: '%s'\n got: %s\nwant: %s",
			    errors[i].line, errors[i].text, cause,
			    errors[i].msg);
		free(cause);
	}
}

static void
test_compile_errors(void **state)
{
	struct tres		 t;
	struct formula		*f;
	struct formula_value	 v;
	char			*cause;

	(void)state;
	tres_abc(&t);
	v = tres_eval(&t, "A + PM_FOO", FORMULA_AUTO, &cause);
	assert_int_equal(v.operand, -2);
	assert_string_equal(cause, "unknown event PM_FOO (col 5)");
	free(cause);

	v = tres_eval(&t, "(A / B) * PB_Freq", FORMULA_AUTO, &cause);
	assert_string_equal(cause, "unknown constant PB_Freq (col 11): set it "
	    "with --const PB_Freq=VALUE");
	free(cause);

	/* An error inside a referenced formula names it. */
	tres_add(&t, "F", 0, "A * (B + PM_BAR)");
	v = tres_eval(&t, "C + F", FORMULA_AUTO, &cause);
	assert_string_equal(cause, "formula F (used at col 5): unknown event "
	    "PM_BAR (col 10)");
	free(cause);
	tres_add(&t, "G", 0, "A +");
	assert_int_equal(formula_compile("G", FORMULA_AUTO, "TOP",
	    tres_resolve, &t, &f, &cause), -HV_EFORMAT);
	assert_string_equal(cause, "formula TOP -> G (used at col 1): stack "
	    "underflow at '+' (col 3): needs 2 operands, has 1");
	free(cause);
}

static void
test_cycles(void **state)
{
	struct tres		 t;
	struct formula		*f;
	char			*cause;

	(void)state;
	tres_abc(&t);
	tres_add(&t, "X", 0, "Y + 1");
	tres_add(&t, "Y", 0, "A * Z");
	tres_add(&t, "Z", 0, "B + X");
	tres_add(&t, "S", 0, "S");

	assert_int_equal(formula_compile("A + X", FORMULA_AUTO, NULL,
	    tres_resolve, &t, &f, &cause), -HV_ECYCLE);
	assert_string_equal(cause, "formula cycle: X -> Y -> Z -> X (col 5)");
	free(cause);

	/* Compiling X itself: the loop is found from its own name. */
	assert_int_equal(formula_compile("Y + 1", FORMULA_AUTO, "X",
	    tres_resolve, &t, &f, &cause), -HV_ECYCLE);
	assert_string_equal(cause, "formula cycle: X -> Y -> Z -> X (col 1)");
	free(cause);

	assert_int_equal(formula_compile("2 * S", FORMULA_AUTO, NULL,
	    tres_resolve, &t, &f, &cause), -HV_ECYCLE);
	assert_string_equal(cause, "formula cycle: S -> S (col 5)");
	free(cause);

	assert_int_equal(formula_compile("E + 1", FORMULA_AUTO, "E2",
	    tres_resolve, &t, &f, &cause), 0);
	formula_free(f);
	assert_int_equal(formula_compile("E2 1 +", FORMULA_AUTO, "E2",
	    tres_resolve, &t, &f, &cause), -HV_ECYCLE);
	assert_string_equal(cause, "formula cycle: E2 -> E2 (col 1)");
	free(cause);
}

/* Formulas using formulas: inlined once each, values known now folded. */
static int
ref_resolve(void *arg, const char *name, struct formula_ref *ref)
{
	int	*calls = arg;

	(*calls)++;
	if (strcmp(name, "SUM") == 0) {
		ref->kind = FORMULA_FORMULA;
		ref->text = "A B +";	/* RPN inside infix */
		return (0);
	}
	if (strcmp(name, "SIX") == 0) {
		ref->kind = FORMULA_FORMULA;
		ref->text = "2 * 3";
		return (0);
	}
	if (strcmp(name, "PB_Freq") == 0) {
		ref->kind = FORMULA_CONST;
		ref->has_value = 1;
		ref->value = 2.4e9;
		return (0);
	}
	if (strcmp(name, "OTHER") == 0) {
		ref->kind = FORMULA_FORMULA;	/* by value */
		ref->slot = 1;
		return (0);
	}
	if (strcmp(name, "A") == 0 || strcmp(name, "B") == 0) {
		ref->slot = (unsigned)(name[0] - 'A');
		return (0);
	}
	return (-HV_ENOENT);
}

static void
test_references(void **state)
{
	static const double	 ev[] = { 3, 4 }, fv[] = { 0, 100 };
	struct formula		*f;
	struct formula_env	 env;
	struct formula_value	 v;
	char			*cause;
	int			 calls = 0;
	double			 c;

	(void)state;
	assert_int_equal(formula_compile("SUM * SUM / SIX * PB_Freq + OTHER",
	    FORMULA_AUTO, NULL, ref_resolve, &calls, &f, &cause), 0);
	/* Each name asked once: SUM, SIX, PB_Freq, OTHER, A, B. */
	assert_int_equal(calls, 6);
	assert_int_equal(formula_noperands(f), 3);
	assert_string_equal(formula_operand(f, 0)->name, "A");
	assert_string_equal(formula_operand(f, 1)->name, "B");
	assert_string_equal(formula_operand(f, 2)->name, "OTHER");
	assert_int_equal(formula_operand(f, 2)->kind, FORMULA_FORMULA);
	assert_null(formula_operand(f, 3));
	/* A B + A B + * 6 / 2.4e9 * OTHER + */
	assert_int_equal(formula_ncode(f), 13);
	assert_string_equal(formula_code_token(f, 7), "6");
	assert_string_equal(formula_code_token(f, 9), "2.4e+09");
	assert_string_equal(formula_code_token(f, 12), "+");
	assert_int_equal(formula_depth(f), 3);
	memset(&env, 0, sizeof env);
	env.values[FORMULA_EVENT] = ev;
	env.nvalues[FORMULA_EVENT] = 2;
	env.values[FORMULA_FORMULA] = fv;
	env.nvalues[FORMULA_FORMULA] = 2;
	v = formula_eval(f, &env);
	assert_true(v.ok);
	assert_true(v.value == 7.0 * 7 / 6 * 2.4e9 + 100);
	assert_false(formula_constant(f, &c));
	formula_free(f);

	assert_int_equal(formula_compile("SIX ^ 2 - SIX", FORMULA_AUTO, NULL,
	    ref_resolve, &calls, &f, &cause), 0);
	assert_true(formula_constant(f, &c));
	assert_true(c == 30);
	formula_free(f);
}

/* Values that are not numbers, and where they come from. */
static void
test_no_value(void **state)
{
	static const struct {
		int		 line;
		const char	*text;
		enum formula_reason why;
	} c[] = {
		{ __LINE__, "A B B - /", FORMULA_DIVZERO },
		{ __LINE__, "1 0 /", FORMULA_DIVZERO },	/* not folded away */
		{ __LINE__, "A 0 mod", FORMULA_DIVZERO },
		{ __LINE__, "A 0 rem", FORMULA_DIVZERO },
		{ __LINE__, "-1 0 x^y", FORMULA_DIVZERO },	/* 0 ^ -1 */
		{ __LINE__, "0 A - sqr", FORMULA_SQRTNEG },
		{ __LINE__, "sqrt(-4)", FORMULA_SQRTNEG },
		{ __LINE__, "(-8) ^ 0.5", FORMULA_DOMAIN },
		{ __LINE__, "1e308 * E", FORMULA_RANGE },
		{ __LINE__, "E ^ 1e6", FORMULA_RANGE },
		{ __LINE__, "A / (1e308 * 10)", FORMULA_RANGE },
		{ __LINE__, "1 / B + E % 0", FORMULA_DIVZERO },
	};
	struct tres		 t;
	struct formula		*f;
	struct formula_env	 env;
	struct formula_value	 v;
	char			*cause, *why;
	size_t			 i;

	(void)state;
	tres_abc(&t);
	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		v = tres_eval(&t, c[i].text, FORMULA_AUTO, &cause);
		if (cause != NULL)
			fail_msg("line %d: %s", c[i].line, cause);
		if (v.ok || v.reason != c[i].why || v.operand != -1)
			fail_msg("line %d: %s: ok %d reason %d", c[i].line,
			    c[i].text, v.ok, v.reason);
	}

	/* A missing input: the first one in RPN order is named. */
	t.value[1] = FORMULA_NOVALUE;		/* B */
	t.value[3] = INFINITY;			/* D */
	assert_int_equal(formula_compile("A + B / 0 + D", FORMULA_AUTO, NULL,
	    tres_resolve, &t, &f, &cause), 0);
	memset(&env, 0, sizeof env);
	env.values[FORMULA_EVENT] = t.value;
	env.nvalues[FORMULA_EVENT] = t.n;
	v = formula_eval(f, &env);
	assert_false(v.ok);
	assert_int_equal(v.reason, FORMULA_MISSING);
	assert_int_equal(v.operand, 1);
	why = formula_eval_explain(f, &v);
	assert_string_equal(why, "B has no value");
	free(why);
	/* Fix B: now the division by zero comes first. */
	t.value[1] = 2;
	v = formula_eval(f, &env);
	assert_int_equal(v.reason, FORMULA_DIVZERO);
	why = formula_eval_explain(f, &v);
	assert_string_equal(why, "division by zero");
	free(why);
	formula_free(f);

	assert_int_equal(formula_compile("A + D", FORMULA_AUTO, NULL,
	    tres_resolve, &t, &f, &cause), 0);
	v = formula_eval(f, &env);
	assert_int_equal(v.reason, FORMULA_MISSING);
	assert_string_equal(formula_operand(f, (size_t)v.operand)->name, "D");
	/* Fewer inputs than slots: the missing slot has no value. */
	t.value[3] = 4;
	env.nvalues[FORMULA_EVENT] = 3;
	v = formula_eval(f, &env);
	assert_int_equal(v.reason, FORMULA_MISSING);
	assert_int_equal(v.operand, 1);
	env.nvalues[FORMULA_EVENT] = 4;
	v = formula_eval(f, &env);
	assert_true(v.ok && v.value == 5);
	formula_free(f);

	/* -0 reads 0. */
	v = tres_eval(&t, "0 A * -1 *", FORMULA_AUTO, &cause);
	assert_true(v.ok);
	assert_false(signbit(v.value));
	assert_string_equal(formula_eval_reason(FORMULA_SQRTNEG),
	    "square root of a negative number");
}

/* Limits are reported, never recursed into. */
/* Names lo..hi-1 summed as a balanced tree; the first neg negated. */
static void
sum_of(struct strbuf *sb, int lo, int hi, int neg)
{
	int	 mid = lo + (hi - lo) / 2;

	if (hi - lo == 1) {
		strbuf_adds(sb, lo < neg ? "-A" : "A");
		return;
	}
	strbuf_addc(sb, '(');
	sum_of(sb, lo, mid, neg);
	strbuf_adds(sb, " + ");
	sum_of(sb, mid, hi, neg);
	strbuf_addc(sb, ')');
}

static void
test_limits(void **state)
{
	struct formula_ast	*ast;
	struct strbuf		 sb = { 0 };
	char			*cause;
	int			 i;

	(void)state;
	for (i = 0; i < 300; i++)
		strbuf_addc(&sb, '(');
	strbuf_addc(&sb, 'A');
	for (i = 0; i < 300; i++)
		strbuf_addc(&sb, ')');
	assert_int_equal(formula_parse(sb.s, FORMULA_AUTO, &ast, &cause),
	    -HV_ELIMIT);
	assert_string_equal(cause, "formula nested too deeply: more than 256 "
	    "parentheses at '(' (col 257)");
	free(cause);

	/* 250 levels are fine. */
	strbuf_reset(&sb);
	for (i = 0; i < 250; i++)
		strbuf_addc(&sb, '(');
	strbuf_addc(&sb, 'A');
	for (i = 0; i < 250; i++)
		strbuf_addc(&sb, ')');
	assert_int_equal(formula_parse(sb.s, FORMULA_AUTO, &ast, &cause), 0);
	formula_ast_free(ast);

	strbuf_reset(&sb);
	for (i = 0; i < 100000; i++)
		strbuf_adds(&sb, "-");
	strbuf_adds(&sb, "A");
	assert_int_equal(formula_parse(sb.s, FORMULA_INFIX, &ast, &cause),
	    -HV_ELIMIT);
	free(cause);

	strbuf_reset(&sb);
	for (i = 0; i < 1000; i++)
		strbuf_adds(&sb, "2 ^ ");
	strbuf_adds(&sb, "A");
	assert_int_equal(formula_parse(sb.s, FORMULA_INFIX, &ast, &cause),
	    -HV_ELIMIT);
	free(cause);

	strbuf_reset(&sb);
	for (i = 0; i < 300; i++)
		strbuf_adds(&sb, "A ");
	assert_int_equal(formula_parse(sb.s, FORMULA_RPN, &ast, &cause),
	    -HV_ELIMIT);
	assert_string_equal(cause, "stack deeper than 256 values at 'A' "
	    "(col 513)");
	free(cause);

	/* A flat sum nests no deeper with each term: only nesting counts. */
	strbuf_reset(&sb);
	strbuf_adds(&sb, "A");
	for (i = 0; i < 300; i++)
		strbuf_adds(&sb, " A +");
	assert_int_equal(formula_parse(sb.s, FORMULA_RPN, &ast, &cause), 0);
	formula_ast_free(ast);
	strbuf_reset(&sb);
	strbuf_adds(&sb, "1");
	for (i = 0; i < 999; i++)
		strbuf_adds(&sb, i % 3 == 0 ? " + 1" : i % 3 == 1 ? " * 1" :
		    " - 1");
	assert_int_equal(formula_parse(sb.s, FORMULA_INFIX, &ast, &cause), 0);
	formula_ast_free(ast);
	/* Nested on the right it is nesting: "A - (A - (A - ..." */
	strbuf_reset(&sb);
	for (i = 0; i < 300; i++)
		strbuf_adds(&sb, "A ");
	for (i = 0; i < 299; i++)
		strbuf_adds(&sb, "- ");
	assert_int_equal(formula_parse(sb.s, FORMULA_RPN, &ast, &cause),
	    -HV_ELIMIT);
	free(cause);

	/* A long token is echoed cut, with its column. */
	strbuf_reset(&sb);
	strbuf_adds(&sb, "1 + ");
	for (i = 0; i < 130000; i++)
		strbuf_addc(&sb, '9');
	assert_int_equal(formula_parse(sb.s, FORMULA_INFIX, &ast, &cause),
	    -HV_EFORMAT);
	assert_string_equal(cause, "bad number '9999999999999999999999999999"
	    "999999999999...' (col 5)");
	free(cause);

	/*
	 * A negation prints in RPN as 0 A -, one term more: an infix text
	 * of 1000 names and 30 negations is as large as its RPN form, so
	 * both are refused alike, and within the limit both read back.
	 */
	for (i = 0; i < 2; i++) {
		char	*rpn;

		strbuf_reset(&sb);
		sum_of(&sb, 0, 1000, i == 0 ? 30 : 20);
		if (i == 0) {
			assert_int_equal(formula_parse(sb.s, FORMULA_INFIX,
			    &ast, &cause), -HV_ELIMIT);
			assert_non_null(strstr(cause, "more than 1024 terms"));
			free(cause);
			continue;
		}
		assert_int_equal(formula_parse(sb.s, FORMULA_INFIX, &ast,
		    &cause), 0);
		rpn = formula_print(ast, FORMULA_RPN);
		formula_ast_free(ast);
		assert_int_equal(formula_parse(rpn, FORMULA_RPN, &ast, &cause),
		    0);
		formula_ast_free(ast);
		free(rpn);
	}

	/* dup doubles: 2^11 terms are too many. */
	strbuf_reset(&sb);
	strbuf_adds(&sb, "A");
	for (i = 0; i < 11; i++)
		strbuf_adds(&sb, " dup *");
	assert_int_equal(formula_parse(sb.s, FORMULA_RPN, &ast, &cause),
	    -HV_ELIMIT);
	assert_string_equal(cause, "formula too large: more than 1024 terms "
	    "at 'dup' (col 63)");
	free(cause);
	strbuf_free(&sb);
}

/*
 * A formula larger than what the compiler keeps in its own frame: 40
 * inputs, 10 referenced formulas, more than 64 steps, numbers, and a
 * parse tree of more than 16 nodes.  Values, operands and tokens are
 * what the small cases give.
 */
static int
big_resolve(void *arg, const char *name, struct formula_ref *ref)
{
	char	**texts = arg;
	int	 i;

	if (name[0] == 'V' && (i = atoi(name + 1)) >= 0 && i < 40) {
		ref->kind = FORMULA_EVENT;
		ref->slot = (unsigned)i;
		return (0);
	}
	if (name[0] == 'F' && (i = atoi(name + 1)) >= 0 && i < 10) {
		ref->kind = FORMULA_FORMULA;
		ref->text = texts[i];
		return (0);
	}
	return (-HV_ENOENT);
}

/* Which formulas want whole counts: those with a remainder or an
 * integer quotient anywhere, also inside a formula they use. */
static void
test_integral(void **state)
{
	static const struct {
		const char	*text;
		int		 integral;
	} rows[] = {
		{ "A % 2", 1 },
		{ "A // 4", 1 },
		{ "A 2 mod", 1 },
		{ "A 4 rem", 1 },
		{ "(A + B) % C * 2", 1 },
		{ "F * 2", 1 },
		{ "A / 2", 0 },
		{ "A * 2.5e-7 / B", 0 },
		{ "A B + C /", 0 },
	};
	struct tres	 t;
	struct formula	*f;
	char		*cause = NULL;
	size_t		 i;

	(void)state;
	tres_abc(&t);
	tres_add(&t, "F", 0, "A % 2");
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		if (formula_compile(rows[i].text, FORMULA_AUTO, NULL,
		    tres_resolve, &t, &f, &cause) != 0)
			fail_msg("%s: %s", rows[i].text, cause);
		if (formula_integral(f) != rows[i].integral)
			fail_msg("%s: integral %d", rows[i].text,
			    formula_integral(f));
		formula_free(f);
	}
}

static void
test_large(void **state)
{
	struct strbuf		 sb = { 0 };
	struct formula		*f;
	struct formula_env	 env;
	struct formula_value	 v;
	double			 values[40];
	char			*texts[10], *cause = NULL, *infix;
	int			 i;

	(void)state;
	for (i = 0; i < 40; i++)
		values[i] = i + 1;
	for (i = 0; i < 10; i++)
		texts[i] = xasprintf("V%d 2 *", i);
	for (i = 0; i < 10; i++)
		strbuf_addf(&sb, "F%d + ", i);
	for (i = 0; i < 40; i++)
		strbuf_addf(&sb, "V%d + ", i);
	strbuf_adds(&sb, "0.25");
	if (formula_compile(sb.s, FORMULA_AUTO, "BIG", big_resolve, texts, &f,
	    &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(formula_noperands(f), 40);
	assert_string_equal(formula_operand(f, 0)->name, "V0");
	assert_string_equal(formula_operand(f, 39)->name, "V39");
	assert_true(formula_ncode(f) > 64);
	assert_string_equal(formula_code_token(f, formula_ncode(f) - 2),
	    "0.25");
	assert_string_equal(formula_code_token(f, formula_ncode(f) - 1), "+");
	memset(&env, 0, sizeof env);
	env.values[FORMULA_EVENT] = values;
	env.nvalues[FORMULA_EVENT] = 40;
	v = formula_eval(f, &env);
	assert_true(v.ok);
	/* 2 (1 + ... + 10) + (1 + ... + 40) + 0.25 */
	assert_true(v.value == 110 + 820 + 0.25);
	formula_free(f);

	/* The tree of the text itself, printed back. */
	assert_int_equal(formula_print_convert(sb.s, FORMULA_AUTO,
	    FORMULA_RPN, &infix, &cause), 0);
	assert_int_equal(strncmp(infix, "F0 F1 + F2 + ", 13), 0);
	free(infix);
	for (i = 0; i < 10; i++)
		free(texts[i]);
	strbuf_free(&sb);
}

static void
test_detect(void **state)
{
	(void)state;
	assert_int_equal(formula_parse_detect("A B +"), FORMULA_RPN);
	assert_int_equal(formula_parse_detect("A B x^y\n"), FORMULA_RPN);
	assert_int_equal(formula_parse_detect("N0|N1|-|"), FORMULA_RPN);
	assert_int_equal(formula_parse_detect("A dup"), FORMULA_RPN);
	assert_int_equal(formula_parse_detect("A + B"), FORMULA_INFIX);
	assert_int_equal(formula_parse_detect("(A B +)"), FORMULA_INFIX);
	assert_int_equal(formula_parse_detect("A"), FORMULA_INFIX);
	assert_int_equal(formula_parse_detect("A*B"), FORMULA_INFIX);
	assert_int_equal(formula_parse_detect(""), FORMULA_INFIX);
}

/* A trace sees every step with the stack after it. */
static void
trace_cb(void *arg, const struct formula *f, size_t step,
    const double *stack, size_t depth)
{
	struct strbuf	*sb = arg;
	size_t		 i;

	strbuf_addf(sb, "%s:", formula_code_token(f, step));
	for (i = 0; i < depth; i++)
		strbuf_addf(sb, " %g", stack[i]);
	strbuf_addc(sb, ';');
}

static void
test_trace(void **state)
{
	struct tres		 t;
	struct formula		*f;
	struct formula_env	 env;
	struct formula_value	 v;
	struct strbuf		 sb = { 0 };
	char			*cause;

	(void)state;
	tres_abc(&t);
	assert_int_equal(formula_compile("(A + B) * -C", FORMULA_AUTO, NULL,
	    tres_resolve, &t, &f, &cause), 0);
	memset(&env, 0, sizeof env);
	env.values[FORMULA_EVENT] = t.value;
	env.nvalues[FORMULA_EVENT] = t.n;
	v = formula_eval_trace(f, &env, trace_cb, &sb);
	assert_true(v.ok && v.value == -9);
	assert_string_equal(sb.s,
	    "A: 1;B: 1 2;+: 3;0: 3 0;C: 3 0 3;-: 3 -3;*: -9;");
	strbuf_free(&sb);
	formula_free(f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rpn_operators),
		cmocka_unit_test(test_infix),
		cmocka_unit_test(test_rpn_to_infix),
		cmocka_unit_test(test_leftover),
		cmocka_unit_test(test_leftover_unresolved),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_compile_errors),
		cmocka_unit_test(test_cycles),
		cmocka_unit_test(test_references),
		cmocka_unit_test(test_no_value),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_integral),
		cmocka_unit_test(test_large),
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_trace),
	};

	return (cmocka_run_group_tests_name("formula", tests, NULL, NULL));
}
