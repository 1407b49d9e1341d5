/*
 * Inside the formula module: tokens, the parse tree and the arithmetic
 * shared by constant folding and evaluation.  Not for use outside
 * src/formula.
 */
#ifndef HVTOP_FORMULA_INT_H
#define HVTOP_FORMULA_INT_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "formula/formula.h"
#include "util/lex.h"

/* Operators of tokens and tree nodes. */
enum formula_op {
	FORMULA_OP_NONE,
	FORMULA_OP_NUM,		/* leaf: a number */
	FORMULA_OP_NAME,	/* leaf: a name */
	FORMULA_OP_NEG,		/* unary minus (infix only) */
	FORMULA_OP_SQRT,	/* RPN sqr, infix sqrt() */
	FORMULA_OP_ADD,
	FORMULA_OP_SUB,
	FORMULA_OP_MUL,
	FORMULA_OP_DIV,
	FORMULA_OP_MOD,		/* fmod(y, x) */
	FORMULA_OP_REM,		/* floor(y / x) */
	FORMULA_OP_POW,		/* node: a ^ b; RPN: x^y */
	FORMULA_OP_SWP,		/* RPN stack words: tokens only */
	FORMULA_OP_ROT,
	FORMULA_OP_DUP,
};

enum formula_tok_kind {
	FORMULA_TOK_END,
	FORMULA_TOK_NUM,
	FORMULA_TOK_NAME,
	FORMULA_TOK_OP,
	FORMULA_TOK_LPAREN,
	FORMULA_TOK_RPAREN,
};

struct formula_tok {
	enum formula_tok_kind kind;
	enum formula_op	 op;
	size_t		 off;		/* byte offset in the text */
	size_t		 len;		/* bytes of source */
	double		 num;
	const char	*name;		/* NAME: unescaped, in the names */
};

/*
 * The lexer writes the names it meets, unescaped and NUL-terminated, one
 * after the other into names: the caller's buffer of len + 1 bytes, which
 * is always enough (a name is never longer than its text, and the byte
 * after it in the text, or the text's end, makes room for its NUL).  A
 * token's name stays valid as long as that buffer.
 */
struct formula_lex {
	struct lex	 lx;
	int		 rpn;
	char		*names;
	size_t		 namelen;
};

/* Character classes of formula text, by byte (LEX_*, formula-lex.c). */
extern const uint16_t formula_lex_class[256];

void	 formula_lex_init(struct formula_lex *, const char *, size_t len,
	    int rpn, char *names);
int	 formula_lex_next(struct formula_lex *, struct formula_tok *,
	    char **cause);
int	 formula_lex_number(const char *, size_t, double *);
const char *formula_lex_op_word(enum formula_op, int rpn);
int	 formula_lex_is_rpn_word(const char *, size_t);

/*
 * A tree node.  Children are created before their parent, so a child's
 * index is always smaller: passes over the node array in index order see
 * children first and need no recursion.  RPN "dup" shares a node.
 */
struct formula_node {
	double		 num;
	uint32_t	 off;		/* column - 1 */
	uint32_t	 name;		/* NAME: offset in names */
	uint32_t	 a, b;		/* operands */
	uint32_t	 terms;		/* leaves, shared nodes copied */
	uint16_t	 height;
	uint8_t		 op;
};

/*
 * A tree is one allocation: the struct, the first FORMULA_AST_INLINE
 * nodes, the text and the names; only a larger tree's nodes move out.
 */
#define FORMULA_AST_INLINE	16

struct formula_ast {
	char		*text;		/* in the block */
	size_t		 len;
	int		 notation;
	struct formula_node *nodes;	/* inline_nodes, or allocated */
	size_t		 nnodes;
	size_t		 cap;
	char		*names;		/* NUL-separated, in the block */
	size_t		 namelen;
	size_t		 namecap;	/* len + 1, always enough */
	uint32_t	 root;
	size_t		 leftover;	/* RPN: values left under the result */
	struct formula_node inline_nodes[];
};

static inline const char *
formula_ast_name(const struct formula_ast *ast, const struct formula_node *n)
{
	return (ast->names + n->name);
}

/*
 * Compiled code.  steps holds one entry per RPN token (traces and
 * formula_code_token() use it); code is the same program with each operand
 * that an operator takes at once folded into it ("A B +" runs as LOAD A,
 * ADD_LOAD B), which is what formula_eval() runs.  Both end with
 * FORMULA_C_END.  The binary operators come in threes, in the order of
 * enum formula_op: x from the stack, from nums[arg], or from an input.
 */
#define FORMULA_C_BINARY(name) \
	FORMULA_C_##name, FORMULA_C_##name##_NUM, FORMULA_C_##name##_LOAD
enum formula_code {
	FORMULA_C_END,
	FORMULA_C_NUM,		/* push nums[arg] */
	FORMULA_C_LOAD,		/* push values[kind][arg] */
	FORMULA_C_SQRT,
	FORMULA_C_BINARY(ADD),
	FORMULA_C_BINARY(SUB),
	FORMULA_C_BINARY(MUL),
	FORMULA_C_BINARY(DIV),
	FORMULA_C_BINARY(MOD),
	FORMULA_C_BINARY(REM),
	FORMULA_C_BINARY(POW),
	FORMULA_C_LAST
};
#undef FORMULA_C_BINARY

/* The code of binary operator op (FORMULA_OP_ADD ... FORMULA_OP_POW). */
#define FORMULA_C_OF(op)	(FORMULA_C_ADD + 3 * ((op) - FORMULA_OP_ADD))
/* The operator of a binary code of any of the three kinds. */
#define FORMULA_OP_OF(code)	(FORMULA_OP_ADD + ((code) - FORMULA_C_ADD) / 3)

struct formula_insn {
	uint8_t		 code;		/* enum formula_code */
	uint8_t		 kind;		/* LOAD: enum formula_kind */
	uint16_t	 operand;	/* LOAD: formula_operand() index */
	uint32_t	 arg;		/* LOAD: slot; NUM: index in nums */
};

/*
 * One block (formula_compile_finish()): a program of 200,000 metrics
 * holds as many of these.  Counts are bounded by FORMULA_MAX_CODE.
 */
struct formula {
	struct formula_insn *code;	/* fused, for formula_eval() */
	struct formula_insn *steps;	/* one per RPN token */
	double		*nums;
	char		**numtext;	/* nums as printed, for traces */
	struct formula_operand *operands; /* names in the block */
	uint32_t	 nsteps;
	uint32_t	 nnums;
	uint32_t	 noperands;
	uint32_t	 depth;		/* stack entries needed */
};

struct strbuf;
void	 formula_print_number(struct strbuf *, double);

/* Byte columns are positions + 1 in every message. */
#define FORMULA_COL(off)	((unsigned long)(off) + 1)

/*
 * One operator on the RPN registers: y is the older operand, x the most
 * recent (unary operators use x).  Returns FORMULA_OK with *r set, or the
 * reason there is no value.  Folding and evaluation both use this, so a
 * folded constant is exactly what evaluation would compute.
 */
static inline enum formula_reason
formula_apply(enum formula_op op, double y, double x, double *r)
{
	double	 v;

	switch (op) {
	case FORMULA_OP_ADD:
		v = y + x;
		break;
	case FORMULA_OP_SUB:
		v = y - x;
		break;
	case FORMULA_OP_MUL:
		v = y * x;
		break;
	case FORMULA_OP_DIV:
		if (x == 0)
			return (FORMULA_DIVZERO);
		v = y / x;
		break;
	case FORMULA_OP_MOD:
		if (x == 0)
			return (FORMULA_DIVZERO);
		v = fmod(y, x);
		break;
	case FORMULA_OP_REM:
		if (x == 0)
			return (FORMULA_DIVZERO);
		v = floor(y / x);
		break;
	case FORMULA_OP_SQRT:
		if (x < 0)
			return (FORMULA_SQRTNEG);
		v = sqrt(x);
		break;
	case FORMULA_OP_POW:
		/* x^y: x raised to the power y. */
		if (x == 0 && y < 0)
			return (FORMULA_DIVZERO);
		v = pow(x, y);
		if (isnan(v))
			return (FORMULA_DOMAIN);
		break;
	case FORMULA_OP_NEG:
		v = -x;
		break;
	default:
		return (FORMULA_DOMAIN);
	}
	if (!isfinite(v))
		return (FORMULA_RANGE);
	*r = v;
	return (FORMULA_OK);
}

#endif /* HVTOP_FORMULA_INT_H */
