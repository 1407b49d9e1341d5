/*
 * libFuzzer harness for the formula module: parse arbitrary text as RPN,
 * infix or either, print it both ways, parse the printed text again,
 * compile all of them with a resolver that also hands out formulas
 * (some referring to each other in a loop) and constants, and evaluate.
 * What must hold whatever the input, else abort: printed text parses,
 * printing is a fixed point, the three compiled forms give the same value
 * or the same reason, a value is always finite, every message names a
 * column or says what is wrong in printable text.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formula/formula.h"
#include "util/hverr.h"
#include "util/xalloc.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char *const fuzz_formulas[] = {
	"A + 1",		/* F0 */
	"F0 * F0 F0 + ",	/* F1: an error inside a formula */
	"F3 + 1",		/* F2 and F3: a loop */
	"F2",
	"F0 F0 * F0 /",		/* F4 */
	"F4 F4 + F1 -",		/* F5 */
	"(F5 ^ 2) // F0",	/* F6 */
	"F7",			/* F7: itself */
};
#define FUZZ_NFORMULAS	(sizeof fuzz_formulas / sizeof fuzz_formulas[0])

static int
fuzz_resolve(void *arg, const char *name, struct formula_ref *ref)
{
	size_t		 n = strlen(name), h = 0, i;

	(void)arg;
	if (name[0] == 'F' && n == 2 && name[1] >= '0' &&
	    (size_t)(name[1] - '0') < FUZZ_NFORMULAS) {
		ref->kind = FORMULA_FORMULA;
		ref->text = fuzz_formulas[name[1] - '0'];
		return (0);
	}
	if (name[0] == 'K') {
		ref->kind = FORMULA_CONST;
		ref->has_value = 1;
		ref->value = (double)n / 4;
		return (0);
	}
	if (name[0] == 'U') {
		ref->kind = FORMULA_CONST;
		ref->hint = xstrdup("set it");
		return (-HV_ENOENT);
	}
	for (i = 0; i < n; i++)
		h = h * 31 + (unsigned char)name[i];
	ref->kind = name[0] == 'C' ? FORMULA_CONST : FORMULA_EVENT;
	ref->slot = (unsigned)(h % 20);	/* some beyond the inputs */
	return (0);
}

static void
fuzz_printable(const char *s)
{
	if (s == NULL)
		abort();
	for (; *s != '\0'; s++) {
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			abort();
	}
}

static int
fuzz_compile(const char *text, int notation, struct formula **f)
{
	char	*cause = NULL;
	int	 error;

	error = formula_compile(text, notation, NULL, fuzz_resolve, NULL, f,
	    &cause);
	if (error != 0) {
		if (*f != NULL || cause == NULL || error >= 0)
			abort();
		fuzz_printable(cause);
		free(cause);
	} else if (formula_ncode(*f) == 0 || formula_ncode(*f) >
	    FORMULA_MAX_CODE || formula_depth(*f) > FORMULA_MAX_DEPTH)
		abort();
	return (error);
}

static void
fuzz_same(const struct formula_value *a, const struct formula_value *b)
{
	if (a->ok != b->ok)
		abort();
	if (a->ok && memcmp(&a->value, &b->value, sizeof a->value) != 0)
		abort();
	if (!a->ok && a->reason != b->reason)
		abort();
	if (a->ok && !isfinite(a->value))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int	 notations[] = {
		FORMULA_AUTO, FORMULA_INFIX, FORMULA_RPN
	};
	struct formula_ast	*ast, *a2;
	struct formula		*f[3] = { NULL, NULL, NULL };
	struct formula_env	 env;
	struct formula_value	 v[3];
	double			 ev[16], cv[16], sp[FORMULA_NSPECIAL];
	char			*text, *cause = NULL, *infix, *rpn, *p2;
	int			 notation, ok[3];
	size_t			 i;

	if (size < 1)
		return (0);
	notation = notations[data[0] % 3];
	text = xstrndup((const char *)data + 1, size - 1);

	(void)formula_parse_detect(text);
	if (formula_parse(text, notation, &ast, &cause) != 0) {
		if (ast != NULL || cause == NULL)
			abort();
		fuzz_printable(cause);
		free(cause);
		free(text);
		return (0);
	}

	/* Printed text parses, and printing it again gives the same text. */
	infix = formula_print(ast, FORMULA_INFIX);
	rpn = formula_print(ast, FORMULA_RPN);
	fuzz_printable(infix);
	fuzz_printable(rpn);
	if (formula_parse(infix, FORMULA_INFIX, &a2, &cause) != 0)
		abort();
	p2 = formula_print(a2, FORMULA_INFIX);
	if (strcmp(p2, infix) != 0)
		abort();
	free(p2);
	formula_ast_free(a2);
	/* Detection: a lone operand reads the same either way. */
	if (formula_parse_detect(infix) != FORMULA_INFIX ||
	    (strchr(rpn, ' ') != NULL &&
	    formula_parse_detect(rpn) != FORMULA_RPN))
		abort();
	if (formula_parse(rpn, FORMULA_RPN, &a2, &cause) != 0)
		abort();
	p2 = formula_print(a2, FORMULA_RPN);
	if (strcmp(p2, rpn) != 0)
		abort();
	free(p2);
	formula_ast_free(a2);

	/* Three texts, one tree: the same steps, so the same value. */
	ok[0] = fuzz_compile(text, notation, &f[0]) == 0;
	ok[1] = fuzz_compile(infix, FORMULA_INFIX, &f[1]) == 0;
	ok[2] = fuzz_compile(rpn, FORMULA_RPN, &f[2]) == 0;
	if (ok[0] != ok[1] || ok[0] != ok[2])
		abort();
	if (ok[0]) {
		for (i = 0; i < 16; i++) {
			ev[i] = (double)data[i % size] - 100;
			cv[i] = (double)i / 3;
		}
		ev[size % 16] = FORMULA_NOVALUE;
		for (i = 0; i < FORMULA_NSPECIAL; i++)
			sp[i] = (double)i;
		memset(&env, 0, sizeof env);
		env.values[FORMULA_EVENT] = ev;
		env.nvalues[FORMULA_EVENT] = 16;
		env.values[FORMULA_CONST] = cv;
		env.nvalues[FORMULA_CONST] = 16;
		env.values[FORMULA_SPECIAL] = sp;
		env.nvalues[FORMULA_SPECIAL] = FORMULA_NSPECIAL;
		for (i = 0; i < 3; i++)
			v[i] = formula_eval(f[i], &env);
		fuzz_same(&v[0], &v[1]);
		fuzz_same(&v[0], &v[2]);
		if (!v[0].ok) {
			p2 = formula_eval_explain(f[0], &v[0]);
			fuzz_printable(p2);
			free(p2);
		}
		for (i = 0; i < formula_ncode(f[0]); i++)
			fuzz_printable(formula_code_token(f[0], i));
	}
	for (i = 0; i < 3; i++)
		formula_free(f[i]);
	free(infix);
	free(rpn);
	formula_ast_free(ast);
	free(text);
	return (0);
}
