/*
 * Formula parsing: RPN and infix text into one tree.  RPN is run on a
 * stack of subtrees, so swp, rot and dup become tree shapes and the RPN
 * and infix forms of a formula give the same tree.  Every limit
 * (FORMULA_MAX_DEPTH, FORMULA_MAX_TERMS) is checked while building, so
 * hostile text is refused before anything recurses deeply.  Pure: no I/O.
 */
#include "config.h"

#include "formula/formula.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formula/formula-int.h"
#include "util/hverr.h"
#include "util/xalloc.h"

/* Longer texts are refused: offsets are kept in 32 bits. */
#define FORMULA_MAX_TEXT	(16U << 20)

struct formula_parser {
	struct formula_lex	 lx;
	struct formula_ast	*ast;
	struct formula_tok	 tok;		/* infix: the lookahead */
	int			 depth;		/* infix: open signs and ^ */
	int			 parens;	/* infix: '(' still open */
	char			**cause;
};

static int
formula_parse_error(struct formula_parser *p, int error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
formula_parse_error(struct formula_parser *p, int error, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	*p->cause = xvasprintf(fmt, ap);
	va_end(ap);
	return (error);
}

/* The source text of a token, for messages. */
#define TOKFMT		FORMULA_ECHO_FMT " (col %lu)"
#define TOKARG(p, t)	FORMULA_ECHO_ARG((p)->ast->text + (t)->off, \
			(t)->len), FORMULA_COL((t)->off)

/* The lexer wrote the name into ast->names already: where it is. */
static uint32_t
formula_parse_name(struct formula_ast *ast, const char *name)
{
	return ((uint32_t)(name - ast->names));
}

/* Room for one more node: the first few are in the tree's own block. */
static void
formula_parse_grow(struct formula_ast *ast)
{
	struct formula_node	*nodes;

	if (ast->nnodes < ast->cap)
		return;
	ast->cap = ast->cap * 2 + 16;
	if (ast->nodes == ast->inline_nodes) {
		nodes = xreallocarray(NULL, ast->cap, sizeof *nodes);
		memcpy(nodes, ast->nodes, ast->nnodes * sizeof *nodes);
		ast->nodes = nodes;
	} else
		ast->nodes = xreallocarray(ast->nodes, ast->cap,
		    sizeof *ast->nodes);
}

/*
 * The nesting of a OP b.  The right operand nests a level deeper; the left
 * one only when infix needs parentheses around it ((a + b) * c), so a flat
 * sum or product (what is so far, then one term) adds no level however
 * long it is.  Evaluation pushes a, then b: its stack never exceeds this.
 * A power nests both ways (2 ^ 2 ^ ... is nesting in infix).  Printed
 * infix then opens no more parentheses, signs and powers at once than
 * the nesting, so it parses again.
 */
static unsigned
formula_parse_nest(enum formula_op op, const struct formula_node *na,
    const struct formula_node *nb)
{
	unsigned	 a = na->height, b = nb->height + 1U;

	if (op == FORMULA_OP_POW)
		a++;
	else if ((op == FORMULA_OP_MUL || op == FORMULA_OP_DIV ||
	    op == FORMULA_OP_MOD || op == FORMULA_OP_REM) &&
	    (na->op == FORMULA_OP_ADD || na->op == FORMULA_OP_SUB))
		a++;
	return (a > b ? a : b);
}

/*
 * Add a node made from token tok.  Leaves take no operands; a unary node
 * uses a.  Checks the height and size limits.  Returns 0 with *out set, or
 * -HV_ELIMIT with the message set.
 */
static int
formula_parse_node(struct formula_parser *p, enum formula_op op,
    const struct formula_tok *tok, uint32_t a, uint32_t b, uint32_t *out)
{
	struct formula_ast	*ast = p->ast;
	struct formula_node	*n, *na = NULL, *nb = NULL;
	uint32_t		 terms = 1;
	unsigned		 height = 1;

	if (op != FORMULA_OP_NUM && op != FORMULA_OP_NAME) {
		na = &ast->nodes[a];
		/* A negation counts the 0 of its RPN spelling (0 A -), so
		 * that a text within the limit prints as one within it. */
		terms = na->terms + (op == FORMULA_OP_NEG);
		height = na->height + 1U;
		if (op != FORMULA_OP_SQRT && op != FORMULA_OP_NEG) {
			nb = &ast->nodes[b];
			terms += nb->terms;
			height = formula_parse_nest(op, na, nb);
		}
	}
	if (height > FORMULA_MAX_DEPTH) {
		return (formula_parse_error(p, -HV_ELIMIT, "formula nested too "
		    "deeply: more than %d levels at " TOKFMT,
		    FORMULA_MAX_DEPTH, TOKARG(p, tok)));
	}
	if (terms > FORMULA_MAX_TERMS) {
		return (formula_parse_error(p, -HV_ELIMIT, "formula too large: "
		    "more than %d terms at " TOKFMT, FORMULA_MAX_TERMS,
		    TOKARG(p, tok)));
	}

	formula_parse_grow(ast);
	n = &ast->nodes[ast->nnodes];
	memset(n, 0, sizeof *n);
	n->op = (uint8_t)op;
	n->off = (uint32_t)tok->off;
	n->a = a;
	n->b = b;
	n->terms = terms;
	n->height = (uint16_t)height;
	if (op == FORMULA_OP_NUM)
		n->num = tok->num;
	else if (op == FORMULA_OP_NAME)
		n->name = formula_parse_name(ast, tok->name);
	*out = (uint32_t)ast->nnodes++;
	return (0);
}

/* ---- RPN ----------------------------------------------------------- */

static int
formula_parse_arity(enum formula_op op)
{
	switch (op) {
	case FORMULA_OP_SQRT:
	case FORMULA_OP_DUP:
	case FORMULA_OP_ROT:
		return (1);
	default:
		return (2);
	}
}

/* The error for a value that would not fit on the stack. */
static int
formula_parse_deep(struct formula_parser *p)
{
	return (formula_parse_error(p, -HV_ELIMIT, "stack deeper than %d "
	    "values at " TOKFMT, FORMULA_MAX_DEPTH, TOKARG(p, &p->tok)));
}

/*
 * Apply the operator token to the stack st of *spp values: swp, dup and
 * rot move values; the others replace their operands with a node.
 */
static int
formula_parse_rpn_op(struct formula_parser *p, uint32_t *st, size_t *spp)
{
	struct formula_tok	*tok = &p->tok;
	uint32_t		 n, x;
	size_t			 sp = *spp, need;
	int			 error;

	need = (size_t)formula_parse_arity(tok->op);
	if (sp < need) {
		return (formula_parse_error(p, -HV_EFORMAT,
		    "stack underflow at " TOKFMT ": needs %zu "
		    "operand%s, has %zu", TOKARG(p, tok), need,
		    need == 1 ? "" : "s", sp));
	}
	switch (tok->op) {
	case FORMULA_OP_SWP:
		x = st[sp - 1];
		st[sp - 1] = st[sp - 2];
		st[sp - 2] = x;
		break;
	case FORMULA_OP_DUP:
		if (sp == FORMULA_MAX_DEPTH)
			return (formula_parse_deep(p));
		if (2 * (uint64_t)p->ast->nodes[st[sp - 1]].terms >
		    FORMULA_MAX_TERMS) {
			return (formula_parse_error(p, -HV_ELIMIT,
			    "formula too large: more than %d terms "
			    "at " TOKFMT, FORMULA_MAX_TERMS,
			    TOKARG(p, tok)));
		}
		st[sp] = st[sp - 1];
		sp++;
		break;
	case FORMULA_OP_ROT:
		/* x <- y, y <- z, ..., deepest <- x. */
		x = st[sp - 1];
		memmove(st + 1, st, (sp - 1) * sizeof st[0]);
		st[0] = x;
		break;
	case FORMULA_OP_SQRT:
		error = formula_parse_node(p, tok->op, tok, st[sp - 1], 0, &n);
		if (error != 0)
			return (error);
		st[sp - 1] = n;
		break;
	case FORMULA_OP_POW:
		/* x^y: the base is x, the most recent value. */
		error = formula_parse_node(p, tok->op, tok, st[sp - 1],
		    st[sp - 2], &n);
		if (error != 0)
			return (error);
		st[--sp - 1] = n;
		break;
	default:
		/* y OP x. */
		error = formula_parse_node(p, tok->op, tok, st[sp - 2],
		    st[sp - 1], &n);
		if (error != 0)
			return (error);
		st[--sp - 1] = n;
		break;
	}
	*spp = sp;
	return (0);
}

static int
formula_parse_rpn(struct formula_parser *p)
{
	struct formula_tok	*tok = &p->tok;
	uint32_t		 st[FORMULA_MAX_DEPTH], n;
	size_t			 sp = 0;
	int			 error;

	for (;;) {
		if ((error = formula_lex_next(&p->lx, tok, p->cause)) != 0)
			return (error);
		if (tok->kind == FORMULA_TOK_END)
			break;
		if (tok->kind == FORMULA_TOK_OP) {
			if ((error = formula_parse_rpn_op(p, st, &sp)) != 0)
				return (error);
			continue;
		}
		if (sp == FORMULA_MAX_DEPTH)
			return (formula_parse_deep(p));
		error = formula_parse_node(p, tok->kind == FORMULA_TOK_NUM ?
		    FORMULA_OP_NUM : FORMULA_OP_NAME, tok, 0, 0, &n);
		if (error != 0)
			return (error);
		st[sp++] = n;
	}

	if (sp == 0)
		return (formula_parse_error(p, -HV_EFORMAT, "empty formula"));
	/*
	 * The proposal: the result is what the formula leaves on top (x);
	 * values under it are left over, not an error.
	 */
	p->ast->root = st[sp - 1];
	p->ast->leftover = sp - 1;
	return (0);
}

/* ---- infix --------------------------------------------------------- */

static int	formula_parse_expr(struct formula_parser *, uint32_t *);

static int
formula_parse_advance(struct formula_parser *p)
{
	return (formula_lex_next(&p->lx, &p->tok, p->cause));
}

/* The lookahead cannot start a value or continue an expression. */
static int
formula_parse_unexpected(struct formula_parser *p)
{
	struct formula_tok	*tok = &p->tok;

	switch (tok->kind) {
	case FORMULA_TOK_END:
		return (formula_parse_error(p, -HV_EFORMAT, "unexpected end of "
		    "formula (col %lu): expected a value",
		    FORMULA_COL(tok->off)));
	case FORMULA_TOK_RPAREN:
		if (p->parens == 0) {
			return (formula_parse_error(p, -HV_EFORMAT,
			    "unbalanced ')' (col %lu)",
			    FORMULA_COL(tok->off)));
		}
		return (formula_parse_error(p, -HV_EFORMAT, "expected a value "
		    "before ')' (col %lu)", FORMULA_COL(tok->off)));
	case FORMULA_TOK_OP:
		return (formula_parse_error(p, -HV_EFORMAT, "expected a value "
		    "at " TOKFMT, TOKARG(p, tok)));
	default:
		return (formula_parse_error(p, -HV_EFORMAT, "missing operator "
		    "before " TOKFMT, TOKARG(p, tok)));
	}
}

/*
 * Nesting is counted in parentheses and, apart, in prefix signs and
 * exponents, so that the infix printed for any tree that fits
 * FORMULA_MAX_DEPTH parses again: it has at most one of each per level.
 */
static int
formula_parse_open(struct formula_parser *p)
{
	if (++p->parens > FORMULA_MAX_DEPTH) {
		return (formula_parse_error(p, -HV_ELIMIT, "formula nested too "
		    "deeply: more than %d parentheses at " TOKFMT,
		    FORMULA_MAX_DEPTH, TOKARG(p, &p->tok)));
	}
	return (0);
}

static int
formula_parse_deeper(struct formula_parser *p)
{
	if (++p->depth > FORMULA_MAX_DEPTH) {
		return (formula_parse_error(p, -HV_ELIMIT, "formula nested too "
		    "deeply: more than %d signs and powers at " TOKFMT,
		    FORMULA_MAX_DEPTH, TOKARG(p, &p->tok)));
	}
	return (0);
}

static int
formula_parse_primary(struct formula_parser *p, uint32_t *out)
{
	struct formula_tok	 t = p->tok;
	size_t			 open;
	int			 error;

	switch (t.kind) {
	case FORMULA_TOK_NUM:
		if ((error = formula_parse_node(p, FORMULA_OP_NUM, &t, 0, 0,
		    out)) != 0)
			return (error);
		return (formula_parse_advance(p));
	case FORMULA_TOK_NAME:
		/* t.name stays good: names are never moved. */
		if ((error = formula_parse_advance(p)) != 0)
			return (error);
		if (p->tok.kind != FORMULA_TOK_LPAREN)
			return (formula_parse_node(p, FORMULA_OP_NAME, &t, 0, 0,
			    out));
		if (strcmp(t.name, "sqrt") != 0) {
			return (formula_parse_error(p, -HV_EFORMAT, "unknown "
			    "function " TOKFMT ": the only function is sqrt",
			    TOKARG(p, &t)));
		}
		open = p->tok.off;
		if ((error = formula_parse_open(p)) != 0 ||
		    (error = formula_parse_advance(p)) != 0)
			return (error);
		if ((error = formula_parse_expr(p, out)) != 0)
			return (error);
		p->parens--;
		if (p->tok.kind != FORMULA_TOK_RPAREN)
			goto unclosed;
		if ((error = formula_parse_node(p, FORMULA_OP_SQRT, &t, *out, 0,
		    out)) != 0)
			return (error);
		return (formula_parse_advance(p));
	case FORMULA_TOK_LPAREN:
		open = t.off;
		if ((error = formula_parse_open(p)) != 0 ||
		    (error = formula_parse_advance(p)) != 0)
			return (error);
		if ((error = formula_parse_expr(p, out)) != 0)
			return (error);
		p->parens--;
		if (p->tok.kind != FORMULA_TOK_RPAREN)
			goto unclosed;
		return (formula_parse_advance(p));
	default:
		return (formula_parse_unexpected(p));
	}
unclosed:
	if (p->tok.kind == FORMULA_TOK_END) {
		return (formula_parse_error(p, -HV_EFORMAT, "unbalanced '(' "
		    "(col %lu): no ')' closes it", FORMULA_COL(open)));
	}
	return (formula_parse_unexpected(p));
}

static int	formula_parse_unary(struct formula_parser *, uint32_t *);

static int
formula_parse_power(struct formula_parser *p, uint32_t *out)
{
	struct formula_tok	 t;
	uint32_t		 exp;
	int			 error;

	if ((error = formula_parse_primary(p, out)) != 0)
		return (error);
	if (p->tok.kind != FORMULA_TOK_OP || p->tok.op != FORMULA_OP_POW)
		return (0);
	t = p->tok;
	if ((error = formula_parse_deeper(p)) != 0 ||
	    (error = formula_parse_advance(p)) != 0)
		return (error);
	/* Right-associative, and "2 ^ -1" is allowed. */
	if ((error = formula_parse_unary(p, &exp)) != 0)
		return (error);
	p->depth--;
	return (formula_parse_node(p, FORMULA_OP_POW, &t, *out, exp, out));
}

static int
formula_parse_unary(struct formula_parser *p, uint32_t *out)
{
	struct formula_tok	 t = p->tok;
	struct formula_node	*n;
	int			 error;

	if (t.kind != FORMULA_TOK_OP ||
	    (t.op != FORMULA_OP_SUB && t.op != FORMULA_OP_ADD))
		return (formula_parse_power(p, out));
	if ((error = formula_parse_deeper(p)) != 0 ||
	    (error = formula_parse_advance(p)) != 0)
		return (error);
	if ((error = formula_parse_unary(p, out)) != 0)
		return (error);
	p->depth--;
	if (t.op == FORMULA_OP_ADD)
		return (0);
	n = &p->ast->nodes[*out];
	if (n->op == FORMULA_OP_NUM) {
		/* "-5" is the number -5, in RPN too. */
		n->num = -n->num;
		n->off = (uint32_t)t.off;
		return (0);
	}
	return (formula_parse_node(p, FORMULA_OP_NEG, &t, *out, 0, out));
}

static int
formula_parse_term(struct formula_parser *p, uint32_t *out)
{
	struct formula_tok	 t;
	uint32_t		 r;
	int			 error;

	if ((error = formula_parse_unary(p, out)) != 0)
		return (error);
	while (p->tok.kind == FORMULA_TOK_OP && (p->tok.op == FORMULA_OP_MUL ||
	    p->tok.op == FORMULA_OP_DIV || p->tok.op == FORMULA_OP_MOD ||
	    p->tok.op == FORMULA_OP_REM)) {
		t = p->tok;
		if ((error = formula_parse_advance(p)) != 0)
			return (error);
		if ((error = formula_parse_unary(p, &r)) != 0)
			return (error);
		error = formula_parse_node(p, t.op, &t, *out, r, out);
		if (error != 0)
			return (error);
	}
	return (0);
}

static int
formula_parse_expr(struct formula_parser *p, uint32_t *out)
{
	struct formula_tok	 t;
	uint32_t		 r;
	int			 error;

	if ((error = formula_parse_term(p, out)) != 0)
		return (error);
	while (p->tok.kind == FORMULA_TOK_OP && (p->tok.op == FORMULA_OP_ADD ||
	    p->tok.op == FORMULA_OP_SUB)) {
		t = p->tok;
		if ((error = formula_parse_advance(p)) != 0)
			return (error);
		if ((error = formula_parse_term(p, &r)) != 0)
			return (error);
		error = formula_parse_node(p, t.op, &t, *out, r, out);
		if (error != 0)
			return (error);
	}
	return (0);
}

static int
formula_parse_infix(struct formula_parser *p)
{
	int	 error;

	if ((error = formula_parse_advance(p)) != 0)
		return (error);
	if (p->tok.kind == FORMULA_TOK_END)
		return (formula_parse_error(p, -HV_EFORMAT, "empty formula"));
	if ((error = formula_parse_expr(p, &p->ast->root)) != 0)
		return (error);
	if (p->tok.kind != FORMULA_TOK_END)
		return (formula_parse_unexpected(p));
	return (0);
}

/* ---- entry points -------------------------------------------------- */

int
formula_parse_detect(const char *text)
{
	size_t	 start, end;

	if (strpbrk(text, "()") != NULL)
		return (FORMULA_INFIX);
	/* The last token, found from the end. */
	for (end = strlen(text); end > 0 &&
	    (formula_lex_class[(unsigned char)text[end - 1]] &
	    LEX_SPACE); end--)
		continue;
	for (start = end; start > 0 &&
	    !(formula_lex_class[(unsigned char)text[start - 1]] &
	    LEX_SPACE); start--)
		continue;
	if (end > start && formula_lex_is_rpn_word(text + start, end - start))
		return (FORMULA_RPN);
	return (FORMULA_INFIX);
}

int
formula_parse(const char *text, int notation, struct formula_ast **out,
    char **cause)
{
	struct formula_parser	 p;
	struct formula_ast	*ast;
	size_t			 len = strlen(text), ninline;
	int			 error;

	*out = NULL;
	if (len > FORMULA_MAX_TEXT) {
		*cause = xasprintf("formula text too long: %zu bytes, at most "
		    "%u", len, FORMULA_MAX_TEXT);
		return (-HV_ELIMIT);
	}
	if (notation != FORMULA_INFIX && notation != FORMULA_RPN)
		notation = formula_parse_detect(text);

	/*
	 * One block: the tree, a few nodes, the text and the names (len + 1
	 * bytes always hold them, see formula_lex_init()).  A formula of up
	 * to FORMULA_AST_INLINE nodes costs this one allocation.
	 */
	ninline = len < FORMULA_AST_INLINE ? len + 1 : FORMULA_AST_INLINE;
	ast = xmalloc(sizeof *ast + ninline * sizeof *ast->nodes +
	    2 * (len + 1));
	memset(ast, 0, sizeof *ast);
	ast->nodes = ast->inline_nodes;
	ast->cap = ninline;
	ast->text = (char *)(ast->inline_nodes + ninline);
	memcpy(ast->text, text, len + 1);
	ast->names = ast->text + len + 1;
	ast->namecap = len + 1;
	ast->len = len;
	ast->notation = notation;

	memset(&p, 0, sizeof p);
	p.ast = ast;
	p.cause = cause;
	formula_lex_init(&p.lx, ast->text, len, notation == FORMULA_RPN,
	    ast->names);
	if (notation == FORMULA_RPN)
		error = formula_parse_rpn(&p);
	else
		error = formula_parse_infix(&p);
	ast->namelen = p.lx.namelen;
	if (error != 0) {
		formula_ast_free(ast);
		return (error);
	}
	*out = ast;
	return (0);
}

int
formula_ast_notation(const struct formula_ast *ast)
{
	return (ast->notation);
}

size_t
formula_ast_leftover(const struct formula_ast *ast)
{
	return (ast->leftover);
}

void
formula_ast_free(struct formula_ast *ast)
{
	if (ast == NULL)
		return;
	if (ast->nodes != ast->inline_nodes)
		free(ast->nodes);
	free(ast);
}
