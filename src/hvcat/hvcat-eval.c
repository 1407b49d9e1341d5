/*
 * hvcat eval: compute a formula once, from values given on the command
 * line, the way hvtop computes it every interval.  The expression is RPN
 * or infix (detected, or forced with --rpn / --infix); with --catalog the
 * catalog's formula names stand for their formulas and its event names
 * are known.  The value alone goes to stdout; with -v the RPN, the infix
 * and every evaluation step go to stderr.  Exit status: 0 a value, 1 a
 * formula error or no value, 2 a usage error.
 */
#include "config.h"

#include "hvcat/hvcat.h"

#include <sys/types.h>

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "formula/formula.h"
#include "util/hverr.h"
#include "util/xalloc.h"

struct hvcat_eval {
	const struct catalog	*cat;
	char			**name;		/* NAME=VALUE arguments */
	double			*value;
	int			*used;
	size_t			 nvalues;
	char			**slot;		/* event slots: names */
	double			*ev;		/* and values (NaN: none) */
	size_t			 nslots;
	double			 special[FORMULA_NSPECIAL];
};

static void
hvcat_eval_usage(FILE *fp)
{
	fprintf(fp, "usage: hvcat eval [-v] [--catalog FILE] [--rpn|--infix] "
	    "[--] EXPR [NAME=VALUE]...\n");
}

/* The last NAME=VALUE given for name, or -1. */
static ssize_t
hvcat_eval_given(struct hvcat_eval *e, const char *name)
{
	size_t	 i;

	for (i = e->nvalues; i > 0; i--) {
		if (strcmp(e->name[i - 1], name) == 0)
			return ((ssize_t)i - 1);
	}
	return (-1);
}

static unsigned
hvcat_eval_slot(struct hvcat_eval *e, const char *name, double v)
{
	e->slot = xreallocarray(e->slot, e->nslots + 1, sizeof *e->slot);
	e->ev = xreallocarray(e->ev, e->nslots + 1, sizeof *e->ev);
	e->slot[e->nslots] = xstrdup(name);
	e->ev[e->nslots] = v;
	return ((unsigned)e->nslots++);
}

/*
 * A constant of the catalog: a name its formulas use that is neither an
 * event nor a formula (IBM's PB_Freq, XBUS_Freq, ...).
 */
static int
hvcat_eval_is_const(const struct catalog *cat, const char *name)
{
	const char	*text, *p;
	size_t		 i, n = strlen(name);

	for (i = 0; i < cat->nformulas; i++) {
		if ((text = cat->formulas[i].formula) == NULL)
			continue;
		for (p = text; (p = strstr(p, name)) != NULL; p += n) {
			if ((p == text || !(isalnum((unsigned char)p[-1]) ||
			    p[-1] == '_' || p[-1] == '.')) &&
			    !(isalnum((unsigned char)p[n]) || p[n] == '_' ||
			    p[n] == '.'))
				return (1);
		}
	}
	return (0);
}

static int
hvcat_eval_resolve(void *arg, const char *name, struct formula_ref *ref)
{
	struct hvcat_eval		*e = arg;
	const struct catalog_formula	*fo;
	ssize_t				 i;
	int				 sp;

	sp = formula_compile_special(name);
	if ((i = hvcat_eval_given(e, name)) >= 0) {
		e->used[i] = 1;
		if (sp >= 0)
			return (-HV_ENOENT);	/* the compiler's slot */
		ref->kind = FORMULA_EVENT;
		ref->slot = hvcat_eval_slot(e, name, e->value[i]);
		return (0);
	}
	if (sp >= 0)
		return (-HV_ENOENT);
	if (e->cat == NULL) {
		/* Without a catalog every name is an input. */
		ref->kind = FORMULA_EVENT;
		ref->slot = hvcat_eval_slot(e, name, FORMULA_NOVALUE);
		return (0);
	}
	if ((fo = catalog_find_formula(e->cat, name)) != NULL &&
	    fo->formula != NULL && fo->formula[0] != '\0') {
		ref->kind = FORMULA_FORMULA;
		ref->text = fo->formula;
		return (0);
	}
	if (catalog_find_event(e->cat, name, 0) != NULL) {
		ref->kind = FORMULA_EVENT;
		ref->slot = hvcat_eval_slot(e, name, FORMULA_NOVALUE);
		return (0);
	}
	if (hvcat_eval_is_const(e->cat, name)) {
		ref->kind = FORMULA_CONST;
		ref->hint = xasprintf("give its value as %s=VALUE", name);
	}
	return (-HV_ENOENT);
}

static void
hvcat_eval_trace(void *arg, const struct formula *f, size_t step,
    const double *stack, size_t depth)
{
	size_t	 i;

	(void)arg;
	fprintf(stderr, "%4zu  %-24s", step + 1, formula_code_token(f, step));
	for (i = 0; i < depth; i++)
		fprintf(stderr, " %.10g", stack[i]);
	fprintf(stderr, "\n");
}

/* NAME=VALUE: VALUE is a finite number (1e9, 0x10, -2.5). */
static int
hvcat_eval_arg(struct hvcat_eval *e, const char *arg)
{
	const char	*eq;
	char		*end;
	double		 v;

	/* An argument of any length is echoed cut, as the formula's
	 * messages cut a token. */
	if ((eq = strchr(arg, '=')) == NULL || eq == arg) {
		fprintf(stderr, "hvcat eval: " FORMULA_ECHO_FMT " is not "
		    "NAME=VALUE\n", FORMULA_ECHO_ARG(arg, strlen(arg)));
		return (-1);
	}
	v = strtod(eq + 1, &end);
	if (eq[1] == '\0' || *end != '\0' || !isfinite(v)) {
		fprintf(stderr, "hvcat eval: %.*s%s: " FORMULA_ECHO_FMT
		    " is not a number\n",
		    FORMULA_ECHO_ARG(arg, (size_t)(eq - arg)),
		    FORMULA_ECHO_ARG(eq + 1, strlen(eq + 1)));
		return (-1);
	}
	e->name = xreallocarray(e->name, e->nvalues + 1, sizeof *e->name);
	e->value = xreallocarray(e->value, e->nvalues + 1, sizeof *e->value);
	e->used = xreallocarray(e->used, e->nvalues + 1, sizeof *e->used);
	e->name[e->nvalues] = xstrndup(arg, (size_t)(eq - arg));
	e->value[e->nvalues] = v;
	e->used[e->nvalues] = 0;
	e->nvalues++;
	return (0);
}

/* -v: the formula both ways, before evaluating. */
static void
hvcat_eval_show(const char *expr, int notation)
{
	struct formula_ast	*ast;
	char			*rpn, *infix, *cause;

	if (formula_parse(expr, notation, &ast, &cause) != 0) {
		free(cause);	/* compiling reports it */
		return;
	}
	rpn = formula_print(ast, FORMULA_RPN);
	infix = formula_print(ast, FORMULA_INFIX);
	fprintf(stderr, "notation: %s\nrpn:      %s\ninfix:    %s\n",
	    formula_ast_notation(ast) == FORMULA_RPN ? "rpn" : "infix", rpn,
	    infix);
	if (formula_ast_leftover(ast) > 0)
		fprintf(stderr, "warning: %zu value%s left under the result "
		    "(x, the top of the stack), ignored\n",
		    formula_ast_leftover(ast),
		    formula_ast_leftover(ast) == 1 ? "" : "s");
	free(rpn);
	free(infix);
	formula_ast_free(ast);
}

static int
hvcat_eval_run(struct hvcat_eval *e, const char *expr, int notation,
    int verbose)
{
	struct formula		*f;
	struct formula_env	 env;
	struct formula_value	 v;
	const struct formula_operand *op;
	char			*cause, *why;
	size_t			 i;
	ssize_t			 k;

	if (verbose)
		hvcat_eval_show(expr, notation);
	if (formula_compile(expr, notation, NULL, hvcat_eval_resolve, e, &f,
	    &cause) != 0) {
		fprintf(stderr, "hvcat eval: %s\n", cause);
		free(cause);
		return (1);
	}
	for (i = 0; i < FORMULA_NSPECIAL; i++) {
		e->special[i] = FORMULA_NOVALUE;
		k = hvcat_eval_given(e, formula_compile_special_name((int)i));
		if (k >= 0) {
			e->used[k] = 1;
			e->special[i] = e->value[k];
		}
	}
	if (verbose) {
		for (i = 0; i < e->nvalues; i++) {
			if (!e->used[i])
				fprintf(stderr, "hvcat eval: %s is not used by "
				    "the formula\n", e->name[i]);
		}
		fprintf(stderr, "step  token                    stack\n");
	}

	memset(&env, 0, sizeof env);
	env.values[FORMULA_EVENT] = e->ev;
	env.nvalues[FORMULA_EVENT] = e->nslots;
	env.values[FORMULA_SPECIAL] = e->special;
	env.nvalues[FORMULA_SPECIAL] = FORMULA_NSPECIAL;
	if (verbose)
		v = formula_eval_trace(f, &env, hvcat_eval_trace, NULL);
	else
		v = formula_eval(f, &env);
	if (!v.ok) {
		why = formula_eval_explain(f, &v);
		op = v.reason == FORMULA_MISSING && v.operand >= 0 ?
		    formula_operand(f, (size_t)v.operand) : NULL;
		if (op != NULL)
			fprintf(stderr, "hvcat eval: no value: %s (give "
			    "%s=VALUE)\n", why, op->name);
		else
			fprintf(stderr, "hvcat eval: no value: %s\n", why);
		free(why);
		formula_free(f);
		return (1);
	}
	printf("%.17g\n", v.value);
	formula_free(f);
	return (0);
}

/*
 * Options by hand: an expression may start with '-' ("-A + B"), which
 * getopt would take for options.  Unknown "--words" are usage errors;
 * "--" ends the options.  Returns 0 with *np at the first argument after
 * them, 1 when help was printed, or -1 for a usage error (said).
 */
static int
hvcat_eval_options(int argc, char **argv, int *np, int *notation,
    int *verbose, const char **catalog)
{
	const char	*a;
	int		 n;

	for (n = 1; n < argc; n++) {
		a = argv[n];
		if (strcmp(a, "--") == 0) {
			n++;
			break;
		}
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			hvcat_eval_usage(stdout);
			return (1);
		}
		if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0)
			*verbose = 1;
		else if (strcmp(a, "--rpn") == 0 || strcmp(a, "--infix") == 0) {
			if (*notation != FORMULA_AUTO) {
				fprintf(stderr, "hvcat eval: give --rpn or "
				    "--infix, not both\n");
				return (-1);
			}
			*notation = a[2] == 'r' ? FORMULA_RPN : FORMULA_INFIX;
		} else if (strcmp(a, "--catalog") == 0) {
			if (n + 1 == argc) {
				fprintf(stderr, "hvcat eval: %s needs a FILE\n",
				    a);
				return (-1);
			}
			*catalog = argv[++n];
		} else if (strncmp(a, "--catalog=", 10) == 0)
			*catalog = a + 10;
		else if (strncmp(a, "--", 2) == 0) {
			fprintf(stderr, "hvcat eval: unknown option %s\n", a);
			return (-1);
		} else
			break;
	}
	*np = n;
	return (0);
}

/* Free what the arguments gave e; e itself is the caller's. */
static void
hvcat_eval_clear(struct hvcat_eval *e)
{
	size_t	 i;

	for (i = 0; i < e->nvalues; i++)
		free(e->name[i]);
	for (i = 0; i < e->nslots; i++)
		free(e->slot[i]);
	free(e->name);
	free(e->value);
	free(e->used);
	free(e->slot);
	free(e->ev);
}

int
hvcat_eval(int argc, char **argv)
{
	struct hvcat_eval	 e;
	struct catalog		*cat = NULL;
	const char		*catalog = NULL, *expr;
	int			 notation = FORMULA_AUTO, verbose = 0, rc = 2;
	int			 n;

	memset(&e, 0, sizeof e);
	switch (hvcat_eval_options(argc, argv, &n, &notation, &verbose,
	    &catalog)) {
	case 1:
		return (0);
	case -1:
		goto usage;
	}
	if (n >= argc) {
		fprintf(stderr, "hvcat eval: no expression\n");
		goto usage;
	}
	expr = argv[n++];
	for (; n < argc; n++) {
		if (hvcat_eval_arg(&e, argv[n]) != 0)
			goto usage;
	}

	if (catalog != NULL) {
		if (hvcat_load(catalog, 0, &cat) != 0) {
			rc = 1;
			goto out;
		}
		e.cat = cat;
	}
	rc = hvcat_eval_run(&e, expr, notation, verbose);
	goto out;
usage:
	hvcat_eval_usage(stderr);
	rc = 2;
out:
	if (cat != NULL)
		catalog_free(cat);
	hvcat_eval_clear(&e);
	return (rc);
}
