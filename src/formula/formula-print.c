/*
 * Formula text from a parse tree: infix with the fewest parentheses that
 * keep the tree (so the value, bit for bit: a + (b + c) keeps its
 * parentheses because floating-point addition does not associate), and
 * RPN with the proposal's operators only.  Numbers are printed with the
 * fewest digits that read back as the same double.  Pure: no I/O.
 */
#include "config.h"

#include "formula/formula.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "formula/formula-int.h"
#include "util/hverr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Infix binding strength, loosest first. */
enum formula_prec {
	FORMULA_PREC_ADD = 1,
	FORMULA_PREC_MUL,
	FORMULA_PREC_UNARY,
	FORMULA_PREC_POW,
	FORMULA_PREC_ATOM,
};

/*
 * Append the shortest decimal text that formula_lex_number() reads back
 * as v.  snprintf() follows the locale's decimal point, so whatever it
 * puts between the digits is replaced by '.'.
 */
void
formula_print_number(struct strbuf *sb, double v)
{
	char	 buf[64], out[64];
	double	 back;
	size_t	 i, o;
	int	 prec;

	for (prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, v);
		for (i = 0, o = 0; buf[i] != '\0'; i++) {
			if ((buf[i] >= '0' && buf[i] <= '9') || buf[i] == 'e' ||
			    buf[i] == '+' || buf[i] == '-')
				out[o++] = buf[i];
			else if (o == 0 || out[o - 1] != '.')
				out[o++] = '.';
		}
		out[o] = '\0';
		if (formula_lex_number(out, o, &back) == 0 && back == v &&
		    signbit(back) == signbit(v))
			break;
	}
	/* %g writes 100 as 1e+02: a whole number's digits when shorter. */
	if (v == floor(v) && fabs(v) < 1e15 && !signbit(v) &&
	    snprintf(buf, sizeof buf, "%.0f", v) < (int)strlen(out))
		strbuf_adds(sb, buf);
	else
		strbuf_adds(sb, out);
}

static int
formula_print_prec(const struct formula_node *n)
{
	switch (n->op) {
	case FORMULA_OP_NUM:
		return (signbit(n->num) ? FORMULA_PREC_UNARY :
		    FORMULA_PREC_ATOM);
	case FORMULA_OP_NEG:
		return (FORMULA_PREC_UNARY);
	case FORMULA_OP_POW:
		return (FORMULA_PREC_POW);
	case FORMULA_OP_MUL:
	case FORMULA_OP_DIV:
	case FORMULA_OP_MOD:
	case FORMULA_OP_REM:
		return (FORMULA_PREC_MUL);
	case FORMULA_OP_ADD:
	case FORMULA_OP_SUB:
		return (FORMULA_PREC_ADD);
	default:
		return (FORMULA_PREC_ATOM);
	}
}

/* A name as infix reads it: other characters get a backslash. */
static int
formula_print_plain(int c)
{
	return ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '.');
}

static void
formula_print_name(struct strbuf *sb, const char *name)
{
	const char	*p;

	/* Most names need no backslash: copied whole. */
	for (p = name; *p != '\0' && formula_print_plain(*p); p++)
		continue;
	if (*p == '\0' || formula_compile_special(name) >= 0) {
		strbuf_adds(sb, name);
		return;
	}
	for (p = name; *p != '\0'; p++) {
		if (!formula_print_plain(*p))
			strbuf_addc(sb, '\\');
		strbuf_addc(sb, *p);
	}
}

static void	formula_print_infix(struct strbuf *, const struct formula_ast *,
		    uint32_t);

static void
formula_print_infix_sub(struct strbuf *sb, const struct formula_ast *ast,
    uint32_t i, int paren)
{
	if (paren)
		strbuf_addc(sb, '(');
	formula_print_infix(sb, ast, i);
	if (paren)
		strbuf_addc(sb, ')');
}

static void
formula_print_infix(struct strbuf *sb, const struct formula_ast *ast,
    uint32_t i)
{
	const struct formula_node	*n = &ast->nodes[i];
	int				 p = formula_print_prec(n), pa, pb;

	switch (n->op) {
	case FORMULA_OP_NUM:
		formula_print_number(sb, n->num);
		return;
	case FORMULA_OP_NAME:
		formula_print_name(sb, formula_ast_name(ast, n));
		return;
	case FORMULA_OP_SQRT:
		strbuf_adds(sb, "sqrt(");
		formula_print_infix(sb, ast, n->a);
		strbuf_addc(sb, ')');
		return;
	case FORMULA_OP_NEG:
		strbuf_addc(sb, '-');
		pa = formula_print_prec(&ast->nodes[n->a]);
		formula_print_infix_sub(sb, ast, n->a,
		    pa <= FORMULA_PREC_UNARY);
		return;
	default:
		break;
	}
	pa = formula_print_prec(&ast->nodes[n->a]);
	pb = formula_print_prec(&ast->nodes[n->b]);
	if (n->op == FORMULA_OP_POW) {
		/* Right-associative; "2 ^ -1" needs no parentheses. */
		formula_print_infix_sub(sb, ast, n->a, pa <= p);
		strbuf_adds(sb, " ^ ");
		formula_print_infix_sub(sb, ast, n->b, pb < FORMULA_PREC_UNARY);
		return;
	}
	formula_print_infix_sub(sb, ast, n->a, pa < p);
	strbuf_addc(sb, ' ');
	strbuf_adds(sb, formula_lex_op_word(n->op, 0));
	strbuf_addc(sb, ' ');
	formula_print_infix_sub(sb, ast, n->b, pb <= p);
}

static void
formula_print_sep(struct strbuf *sb)
{
	if (sb->len > 0)
		strbuf_addc(sb, ' ');
}

static void
formula_print_rpn(struct strbuf *sb, const struct formula_ast *ast,
    uint32_t i)
{
	const struct formula_node	*n = &ast->nodes[i];

	switch (n->op) {
	case FORMULA_OP_NUM:
		formula_print_sep(sb);
		formula_print_number(sb, n->num);
		return;
	case FORMULA_OP_NAME:
		formula_print_sep(sb);
		strbuf_adds(sb, formula_ast_name(ast, n));
		return;
	case FORMULA_OP_SQRT:
		formula_print_rpn(sb, ast, n->a);
		strbuf_adds(sb, " sqr");
		return;
	case FORMULA_OP_NEG:
		/* RPN has no negation: 0 - A. */
		formula_print_sep(sb);
		strbuf_addc(sb, '0');
		formula_print_rpn(sb, ast, n->a);
		strbuf_adds(sb, " -");
		return;
	case FORMULA_OP_POW:
		/* x^y raises x, the most recent value: exponent first. */
		formula_print_rpn(sb, ast, n->b);
		formula_print_rpn(sb, ast, n->a);
		strbuf_adds(sb, " x^y");
		return;
	default:
		formula_print_rpn(sb, ast, n->a);
		formula_print_rpn(sb, ast, n->b);
		strbuf_addc(sb, ' ');
		strbuf_adds(sb, formula_lex_op_word(n->op, 1));
		return;
	}
}

char *
formula_print(const struct formula_ast *ast, int notation)
{
	struct strbuf	 sb = { 0 };

	if (notation == FORMULA_RPN)
		formula_print_rpn(&sb, ast, ast->root);
	else
		formula_print_infix(&sb, ast, ast->root);
	return (strbuf_detach(&sb));
}

int
formula_print_convert(const char *text, int from, int to, char **out,
    char **cause)
{
	struct formula_ast	*ast;
	int			 error;

	*out = NULL;
	if ((error = formula_parse(text, from, &ast, cause)) != 0)
		return (error);
	*out = formula_print(ast, to);
	formula_ast_free(ast);
	return (0);
}
