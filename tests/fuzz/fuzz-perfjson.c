/*
 * libFuzzer harness for perf's metric JSON reader: parse arbitrary bytes
 * and check what must hold whatever the input: a model or an error, never
 * both; every object loaded or skipped with a printable reason; every
 * formula within the bound (the metrics it names put in) and read back
 * by hvtop's formula parser; and any bytes as one MetricExpr translate or
 * fail with a column.  Any violation aborts.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formula/formula.h"
#include "metrics/perfjson.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
check_printable(const char *s)
{
	for (; *s != '\0'; s++) {
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			abort();
	}
}

/* A formula text hvtop's parser must read. */
static void
check_formula(const char *text)
{
	struct formula_ast	*a = NULL;
	char			*cause = NULL;

	if (formula_parse(text, FORMULA_INFIX, &a, &cause) != 0) {
		/* Only the parser's own limits may refuse it. */
		if (cause == NULL || (strstr(cause, "deep") == NULL &&
		    strstr(cause, "terms") == NULL &&
		    strstr(cause, "long") == NULL))
			abort();
		free(cause);
		return;
	}
	formula_ast_free(a);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct perfjson_metric	*pm;
	struct perfjson_model		*m = NULL;
	char				*cause = NULL, *expr, *out = NULL;
	size_t				 i, nl = 0;
	int				 rc, degree;

	rc = perfjson_parse(data, size, &m, &cause);
	if ((rc == 0) != (m != NULL) || (rc == 0) != (cause == NULL))
		abort();
	if (rc != 0) {
		check_printable(cause);
		free(cause);
	} else {
		for (i = 0; i < m->nmetrics; i++) {
			pm = &m->metrics[i];
			if ((pm->formula == NULL) == (pm->why == NULL))
				abort();
			if (pm->why != NULL) {
				check_printable(pm->why);
				continue;
			}
			nl++;
			if (pm->name == NULL || pm->unit == NULL ||
			    strlen(pm->formula) > PERFJSON_FORMULA_MAX +
			    2 * PERFJSON_STRING_MAX + 64)
				abort();
			check_formula(pm->formula);
		}
		if (nl != m->nloaded || m->nloaded + m->nskipped !=
		    m->nmetrics)
			abort();
		perfjson_model_free(m);
	}

	/* The same bytes as one expression. */
	if (size > PERFJSON_STRING_MAX + 1)
		return (0);
	expr = malloc(size + 1);
	if (expr == NULL)
		return (0);
	memcpy(expr, data, size);
	expr[size] = '\0';
	cause = NULL;
	if (perfjson_expr(expr, &out, &degree, &cause) == 0) {
		if (out == NULL || cause != NULL)
			abort();
		check_formula(out);
		free(out);
	} else {
		if (out != NULL || cause == NULL ||
		    strncmp(cause, "column ", 7) != 0)
			abort();
		check_printable(cause);
		free(cause);
	}
	free(expr);
	return (0);
}
