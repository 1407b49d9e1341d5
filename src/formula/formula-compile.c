/*
 * Formula compilation: names resolved to input slots through the caller's
 * resolver, referenced formulas parsed once and inlined, constant
 * subexpressions computed, and the tree flattened into RPN steps whose
 * stack depth is known.  Evaluation (formula-eval.c) then allocates
 * nothing.  Pure: no I/O; the resolver is the only way out.
 *
 * hvtop compiles every metric of a file for every view, so a compile
 * costs few allocations: the tree of each text is one block, what a unit
 * knows of its nodes another, the names met and the operands stay in the
 * compiler's own arrays while there are few, names point into the trees,
 * and the result is one block that formula_free() frees at once.
 */
#include "config.h"

#include "formula/formula.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formula/formula-int.h"
#include "util/arena.h"
#include "util/hverr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const char *const formula_compile_specials[FORMULA_NSPECIAL] = {
	"delta-timebase",
	"delta-cycles",
	"delta-instructions",
	"delta-seconds",
};

static const char *const formula_compile_kinds[FORMULA_NKINDS] = {
	"event",
	"constant",
	"special value",
	"formula",
};

/* link[] of a node the result does not reach. */
#define FORMULA_UNREACHED	UINT32_MAX

/* How a NAME node was resolved. */
enum formula_link {
	FORMULA_LINK_OPERAND,		/* an input: operands[arg] */
	FORMULA_LINK_VALUE,		/* known now: value */
	FORMULA_LINK_UNIT,		/* another formula: units[arg] */
};

struct formula_cname {
	const char	*name;		/* in a unit's tree */
	enum formula_link link;
	uint32_t	 arg;
	double		 value;
};

/* One parsed text: the formula compiled, or one it refers to. */
struct formula_unit {
	struct formula_ast *ast;
	double		*cval;		/* one block from here on */
	uint32_t	*steps;		/* per node: steps once emitted */
	uint32_t	*stack;		/* per node: stack entries needed */
	uint32_t	*height;	/* per node: nesting once inlined */
	uint32_t	*link;		/* per node: index in names, or
					   FORMULA_UNREACHED */
	uint8_t		*isconst;	/* per node: value known now */
};

/* An input of the formula being compiled. */
struct formula_cop {
	const char	*name;		/* in a unit's tree */
	enum formula_kind kind;
	unsigned	 slot;
};

/* What most formulas need, kept in the compiler's frame. */
#define FORMULA_CC_UNITS	4
#define FORMULA_CC_NAMES	16
#define FORMULA_CC_STEPS	64

struct formula_cc {
	formula_resolve_fn	 resolve;
	void			*arg;
	const char		*self;
	struct formula_unit	*units;
	size_t			 nunits;
	size_t			 capunits;
	struct formula_cname	*names;
	size_t			 nnames;
	size_t			 capnames;
	struct formula_cop	*ops;		/* the operands, in order */
	size_t			 nops;
	size_t			 capops;
	const char		*chain[FORMULA_MAX_REFS + 1];
	size_t			 nchain;
	unsigned long		 topcol;	/* where the chain starts */
	char			**cause;
	struct arena		*mem;		/* where the result goes, or NULL */

	/* The program as it is emitted, before it gets its own block. */
	struct formula_insn	*steps;
	size_t			 nsteps;
	double			*nums;
	uint32_t		*numoff;	/* per number: its text in numtext */
	size_t			 nnums;
	struct strbuf		 numtext;	/* NUL-separated */

	struct formula_unit	 units0[FORMULA_CC_UNITS];
	struct formula_cname	 names0[FORMULA_CC_NAMES];
	struct formula_cop	 ops0[FORMULA_CC_NAMES];
	struct formula_insn	 steps0[FORMULA_CC_STEPS + 1];
	double			 nums0[FORMULA_CC_STEPS];
	uint32_t		 numoff0[FORMULA_CC_STEPS];
};

/*
 * Room for one more element in *arr, which starts as the inline array
 * first (of *cap elements) and doubles on the heap from there.
 */
static void
formula_cc_grow(void **arr, size_t n, size_t *cap, size_t size,
    const void *first)
{
	void	*p;

	if (n < *cap)
		return;
	if (*arr == first) {
		p = xreallocarray(NULL, *cap * 2, size);
		memcpy(p, *arr, n * size);
		*arr = p;
	} else
		*arr = xreallocarray(*arr, *cap * 2, size);
	*cap *= 2;
}

const char *
formula_compile_special_name(int i)
{
	if (i < 0 || i >= FORMULA_NSPECIAL)
		return (NULL);
	return (formula_compile_specials[i]);
}

int
formula_compile_special(const char *name)
{
	int	 i;

	for (i = 0; i < FORMULA_NSPECIAL; i++) {
		if (strcmp(name, formula_compile_specials[i]) == 0)
			return (i);
	}
	return (-1);
}

const char *
formula_compile_kind_name(int kind)
{
	if (kind < 0 || kind >= FORMULA_NKINDS)
		return ("name");
	return (formula_compile_kinds[kind]);
}

static int
formula_compile_error(struct formula_cc *cc, int error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/*
 * Set the message.  Inside a referenced formula it starts with the chain
 * of formulas that led there and the column of the first one's use.
 */
static int
formula_compile_error(struct formula_cc *cc, int error, const char *fmt, ...)
{
	struct strbuf	 sb = { 0 };
	va_list		 ap;
	size_t		 i;

	if (cc->nchain > (cc->self != NULL ? 1U : 0U)) {
		strbuf_adds(&sb, "formula ");
		for (i = 0; i < cc->nchain; i++)
			strbuf_addf(&sb, "%s%s", i > 0 ? " -> " : "",
			    cc->chain[i]);
		strbuf_addf(&sb, " (used at col %lu): ", cc->topcol);
	}
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	*cc->cause = strbuf_detach(&sb);
	return (error);
}

static void
formula_compile_unit_free(struct formula_unit *u)
{
	formula_ast_free(u->ast);
	free(u->cval);
}

static struct formula_cname *
formula_compile_find(struct formula_cc *cc, const char *name)
{
	size_t	 i;

	for (i = 0; i < cc->nnames; i++) {
		if (strcmp(cc->names[i].name, name) == 0)
			return (&cc->names[i]);
	}
	return (NULL);
}

static uint32_t
formula_compile_operand(struct formula_cc *cc, const char *name,
    enum formula_kind kind, unsigned slot)
{
	struct formula_cop	*op;
	size_t			 i;

	for (i = 0; i < cc->nops; i++) {
		if (strcmp(cc->ops[i].name, name) == 0)
			return ((uint32_t)i);
	}
	formula_cc_grow((void **)&cc->ops, cc->nops, &cc->capops,
	    sizeof *cc->ops, cc->ops0);
	op = &cc->ops[cc->nops++];
	op->name = name;
	op->kind = kind;
	op->slot = slot;
	return ((uint32_t)i);
}

static int	formula_compile_unit(struct formula_cc *, const char *,
		    const char *, int, uint32_t *);

/* "A -> B -> A": the chain from where name first appears, and name. */
static int
formula_compile_cycle(struct formula_cc *cc, const char *name)
{
	struct strbuf	 sb = { 0 };
	size_t		 i, from = 0;

	for (i = 0; i < cc->nchain; i++) {
		if (strcmp(cc->chain[i], name) == 0) {
			from = i;
			break;
		}
	}
	for (i = from; i < cc->nchain; i++)
		strbuf_addf(&sb, "%s -> ", cc->chain[i]);
	strbuf_adds(&sb, name);
	*cc->cause = xasprintf("formula cycle: %s (col %lu)", sb.s, cc->topcol);
	strbuf_free(&sb);
	return (-HV_ECYCLE);
}

/*
 * Ask the resolver what name means, falling back to the special names.
 * Returns 0 with *ref set (its hint freed), or an error with the message
 * set.
 */
static int
formula_compile_resolve(struct formula_cc *cc, const char *name,
    uint32_t off, struct formula_ref *ref)
{
	const char	*why;
	int		 error, special;

	memset(ref, 0, sizeof *ref);
	ref->kind = FORMULA_EVENT;
	error = cc->resolve(cc->arg, name, ref);
	special = error == -HV_ENOENT ? formula_compile_special(name) : -1;
	if (error == -HV_ENOENT && special >= 0) {
		free(ref->hint);
		memset(ref, 0, sizeof *ref);
		ref->kind = FORMULA_SPECIAL;
		ref->slot = (unsigned)special;
		error = 0;
	}
	if (error == -HV_ENOENT) {
		error = formula_compile_error(cc, -HV_ENOENT, "unknown %s %s "
		    "(col %lu)%s%s", formula_compile_kind_name(ref->kind), name,
		    FORMULA_COL(off), ref->hint != NULL ? ": " : "",
		    ref->hint != NULL ? ref->hint : "");
	} else if (error != 0) {
		if ((why = ref->hint) == NULL &&
		    (why = hv_strerror(error)) == NULL)
			why = "cannot be resolved";
		error = formula_compile_error(cc, error < 0 ? error :
		    -HV_ENOENT, "%s (col %lu): %s", name, FORMULA_COL(off),
		    why);
	}
	free(ref->hint);
	ref->hint = NULL;
	return (error);
}

/*
 * What a resolved name links to: a value, another formula's unit
 * (compiled now) or an operand.  Returns 0 with cn's link and arg or
 * value set.
 */
static int
formula_compile_link(struct formula_cc *cc, const char *name, uint32_t off,
    const struct formula_ref *ref, struct formula_cname *cn)
{
	if (ref->has_value) {
		if (!isfinite(ref->value)) {
			return (formula_compile_error(cc, -HV_ERANGE, "%s (col "
			    "%lu) is not a finite number", name,
			    FORMULA_COL(off)));
		}
		cn->link = FORMULA_LINK_VALUE;
		cn->value = ref->value;
	} else if (ref->kind == FORMULA_FORMULA && ref->text != NULL) {
		if (cc->nchain == FORMULA_MAX_REFS) {
			return (formula_compile_error(cc, -HV_ELIMIT,
			    "formulas refer to formulas more than %d deep at "
			    "%s (col %lu)", FORMULA_MAX_REFS, name,
			    FORMULA_COL(off)));
		}
		if (cc->nchain == (cc->self != NULL ? 1U : 0U))
			cc->topcol = FORMULA_COL(off);
		cn->link = FORMULA_LINK_UNIT;
		return (formula_compile_unit(cc, name, ref->text,
		    ref->notation, &cn->arg));
	} else {
		if ((unsigned)ref->kind >= FORMULA_NKINDS) {
			return (formula_compile_error(cc, -HV_ERANGE, "%s (col "
			    "%lu): bad kind %d from the resolver", name,
			    FORMULA_COL(off), (int)ref->kind));
		}
		if (cc->nops == FORMULA_MAX_CODE) {
			return (formula_compile_error(cc, -HV_ELIMIT,
			    "formula too large: more than %d inputs",
			    FORMULA_MAX_CODE));
		}
		cn->link = FORMULA_LINK_OPERAND;
		cn->arg = formula_compile_operand(cc, name, ref->kind,
		    ref->slot);
	}
	return (0);
}

/* Resolve one name met at node off of the unit being compiled. */
static int
formula_compile_name(struct formula_cc *cc, const char *name, uint32_t off,
    struct formula_cname **out)
{
	struct formula_ref	 ref;
	struct formula_cname	 cn;
	size_t			 i;
	int			 error;

	if ((*out = formula_compile_find(cc, name)) != NULL)
		return (0);
	for (i = 0; i < cc->nchain; i++) {
		if (strcmp(cc->chain[i], name) == 0) {
			if (cc->nchain == (cc->self != NULL ? 1U : 0U))
				cc->topcol = FORMULA_COL(off);
			return (formula_compile_cycle(cc, name));
		}
	}
	if ((error = formula_compile_resolve(cc, name, off, &ref)) != 0)
		return (error);
	memset(&cn, 0, sizeof cn);
	if ((error = formula_compile_link(cc, name, off, &ref, &cn)) != 0)
		return (error);
	/* name is in a unit's tree, which lives as long as cc. */
	cn.name = name;
	formula_cc_grow((void **)&cc->names, cc->nnames, &cc->capnames,
	    sizeof *cc->names, cc->names0);
	cc->names[cc->nnames] = cn;
	*out = &cc->names[cc->nnames++];
	return (0);
}

static uint32_t
formula_compile_sat(uint64_t v)
{
	return (v > UINT32_MAX ? UINT32_MAX : (uint32_t)v);
}

static uint32_t
formula_compile_max(uint32_t a, uint32_t b)
{
	return (a > b ? a : b);
}

/* Node i names cn: a value, or whatever the root of its unit is. */
static void
formula_compile_measure_name(struct formula_cc *cc, struct formula_unit *u,
    size_t i, const struct formula_cname *cn)
{
	const struct formula_unit	*v;

	if (cn->link == FORMULA_LINK_VALUE) {
		u->isconst[i] = 1;
		u->cval[i] = cn->value;
	} else if (cn->link == FORMULA_LINK_UNIT) {
		v = &cc->units[cn->arg];
		u->isconst[i] = v->isconst[v->ast->root];
		u->cval[i] = v->cval[v->ast->root];
		u->steps[i] = v->steps[v->ast->root];
		u->stack[i] = v->stack[v->ast->root];
		u->height[i] = v->height[v->ast->root];
	}
}

/* Node i is the square root or the negation of node a. */
static void
formula_compile_measure_unary(struct formula_unit *u, size_t i,
    const struct formula_node *n)
{
	enum formula_reason	 why;
	uint32_t		 a = n->a;
	double			 r;

	u->height[i] = formula_compile_sat((uint64_t)u->height[a] + 1);
	if (u->isconst[a]) {
		why = formula_apply(n->op, 0, u->cval[a], &r);
		if (why == FORMULA_OK) {
			u->isconst[i] = 1;
			u->cval[i] = r;
			return;
		}
	}
	/* NEG is emitted as 0 A -. */
	u->steps[i] = formula_compile_sat((uint64_t)u->steps[a] +
	    (n->op == FORMULA_OP_NEG ? 2 : 1));
	u->stack[i] = n->op == FORMULA_OP_NEG ?
	    formula_compile_sat((uint64_t)u->stack[a] + 1) : u->stack[a];
}

/* Node i is a OP b. */
static void
formula_compile_measure_binary(struct formula_unit *u, size_t i,
    const struct formula_node *n)
{
	enum formula_reason	 why;
	uint32_t		 a = n->a, b = n->b, first, second;
	double			 r;

	/* A power pushes its exponent first.  The nesting is the stack
	 * that order needs: a flat sum adds no level (see formula-parse.c). */
	first = n->op == FORMULA_OP_POW ? b : a;
	second = n->op == FORMULA_OP_POW ? a : b;
	u->height[i] = formula_compile_max(u->height[first],
	    formula_compile_sat((uint64_t)u->height[second] + 1));
	if (u->isconst[a] && u->isconst[b]) {
		/* The tree is a OP b; a ^ b is x^y with x = a. */
		if (n->op == FORMULA_OP_POW)
			why = formula_apply(n->op, u->cval[b], u->cval[a], &r);
		else
			why = formula_apply(n->op, u->cval[a], u->cval[b], &r);
		if (why == FORMULA_OK) {
			u->isconst[i] = 1;
			u->cval[i] = r;
			return;
		}
	}
	u->steps[i] = formula_compile_sat((uint64_t)u->steps[a] +
	    u->steps[b] + 1);
	u->stack[i] = formula_compile_max(u->stack[first],
	    formula_compile_sat((uint64_t)u->stack[second] + 1));
}

/*
 * Fill in what is known of every node of unit k, children first (they
 * have smaller indexes): whether its value is known now, how many steps
 * and stack entries it takes, and how deep it nests once inlined.
 */
static void
formula_compile_measure(struct formula_cc *cc, size_t k,
    const uint32_t *link)
{
	struct formula_unit	*u = &cc->units[k];
	struct formula_node	*n;
	size_t			 i;

	for (i = 0; i < u->ast->nnodes; i++) {
		n = &u->ast->nodes[i];
		if (link[i] == FORMULA_UNREACHED)
			continue;	/* left under an RPN result */
		u->isconst[i] = 0;
		u->height[i] = 1;
		u->steps[i] = 1;
		u->stack[i] = 1;
		switch (n->op) {
		case FORMULA_OP_NUM:
			u->isconst[i] = 1;
			u->cval[i] = n->num;
			break;
		case FORMULA_OP_NAME:
			formula_compile_measure_name(cc, u, i,
			    &cc->names[link[i]]);
			break;
		case FORMULA_OP_SQRT:
		case FORMULA_OP_NEG:
			formula_compile_measure_unary(u, i, n);
			break;
		default:
			formula_compile_measure_binary(u, i, n);
			break;
		}
	}
}

/*
 * Parse text as formula name (NULL: the text compiled), resolve its names
 * and measure it.  Returns 0 with *out set to its unit index.
 */
static int
formula_compile_unit(struct formula_cc *cc, const char *name,
    const char *text, int notation, uint32_t *out)
{
	struct formula_ast	*ast;
	struct formula_unit	*u;
	struct formula_cname	*cn;
	struct formula_node	*n;
	uint32_t		*link;
	size_t			 k, i, nn;
	char			*cause;
	int			 error;

	if (name != NULL)
		cc->chain[cc->nchain++] = name;
	if ((error = formula_parse(text, notation, &ast, &cause)) != 0) {
		formula_compile_error(cc, error, "%s", cause);
		free(cause);
		goto out;
	}
	k = cc->nunits;
	formula_cc_grow((void **)&cc->units, cc->nunits, &cc->capunits,
	    sizeof *cc->units, cc->units0);
	cc->nunits++;
	u = &cc->units[k];
	u->ast = ast;
	/* What is known of each node, in one block. */
	nn = ast->nnodes;
	u->cval = xcalloc(nn, sizeof *u->cval + 4 * sizeof (uint32_t) + 1);
	u->steps = (uint32_t *)(u->cval + nn);
	u->stack = u->steps + nn;
	u->height = u->stack + nn;
	u->link = u->height + nn;
	u->isconst = (uint8_t *)(u->link + nn);
	link = u->link;

	/*
	 * Only what the result reaches is resolved: an RPN formula's values
	 * left under its result are ignored, so an unknown name among them
	 * must not fail it (its printed form no longer has them).  Children
	 * come before parents, so one pass down from the root marks them.
	 */
	for (i = 0; i < ast->nnodes; i++)
		link[i] = FORMULA_UNREACHED;
	link[ast->root] = 0;
	for (i = ast->nnodes; i-- > 0;) {
		n = &ast->nodes[i];
		if (link[i] == FORMULA_UNREACHED || n->op == FORMULA_OP_NUM ||
		    n->op == FORMULA_OP_NAME)
			continue;
		link[n->a] = 0;
		if (n->op != FORMULA_OP_NEG && n->op != FORMULA_OP_SQRT)
			link[n->b] = 0;
	}
	for (i = 0; i < ast->nnodes; i++) {
		n = &ast->nodes[i];
		if (n->op != FORMULA_OP_NAME || link[i] == FORMULA_UNREACHED)
			continue;
		/* Resolving may add units (and move cc->units): only link,
		 * in the unit's own block, is used across it. */
		error = formula_compile_name(cc, formula_ast_name(ast, n),
		    n->off, &cn);
		if (error != 0)
			goto out;
		link[i] = (uint32_t)(cn - cc->names);
	}
	formula_compile_measure(cc, k, link);
	*out = (uint32_t)k;
out:
	if (name != NULL)
		cc->nchain--;
	return (error);
}

static void
formula_compile_push(struct formula_cc *cc, uint8_t code, uint8_t kind,
    uint16_t operand, uint32_t arg)
{
	struct formula_insn	*c = &cc->steps[cc->nsteps++];

	c->code = code;
	c->kind = kind;
	c->operand = operand;
	c->arg = arg;
}

static void
formula_compile_num(struct formula_cc *cc, double v)
{
	cc->nums[cc->nnums] = v;
	cc->numoff[cc->nnums] = (uint32_t)cc->numtext.len;
	formula_print_number(&cc->numtext, v);
	strbuf_add(&cc->numtext, "", 1);	/* the NUL, kept */
	formula_compile_push(cc, FORMULA_C_NUM, 0, 0, (uint32_t)cc->nnums++);
}

/*
 * Emit node i of unit k in RPN order.  Recursion is bounded by the
 * nesting along right operands and by the steps (FORMULA_MAX_CODE) along
 * a flat sum's left ones.
 */
static void
formula_compile_emit(struct formula_cc *cc, size_t k, uint32_t i)
{
	struct formula_unit	*u = &cc->units[k];
	struct formula_node	*n = &u->ast->nodes[i];
	struct formula_cname	*cn;
	const struct formula_cop *op;

	if (u->isconst[i]) {
		formula_compile_num(cc, u->cval[i]);
		return;
	}
	switch (n->op) {
	case FORMULA_OP_NAME:
		/* Names of a unit were all resolved: link says to what. */
		cn = &cc->names[u->link[i]];
		if (cn->link == FORMULA_LINK_UNIT) {
			formula_compile_emit(cc, cn->arg,
			    cc->units[cn->arg].ast->root);
			return;
		}
		op = &cc->ops[cn->arg];
		formula_compile_push(cc, FORMULA_C_LOAD, (uint8_t)op->kind,
		    (uint16_t)cn->arg, op->slot);
		return;
	case FORMULA_OP_SQRT:
		formula_compile_emit(cc, k, n->a);
		formula_compile_push(cc, FORMULA_C_SQRT, 0, 0, 0);
		return;
	case FORMULA_OP_NEG:
		formula_compile_num(cc, 0);
		formula_compile_emit(cc, k, n->a);
		formula_compile_push(cc, FORMULA_C_OF(FORMULA_OP_SUB), 0, 0,
		    0);
		return;
	case FORMULA_OP_POW:
		formula_compile_emit(cc, k, n->b);
		formula_compile_emit(cc, k, n->a);
		break;
	default:
		formula_compile_emit(cc, k, n->a);
		formula_compile_emit(cc, k, n->b);
		break;
	}
	formula_compile_push(cc, (uint8_t)FORMULA_C_OF(n->op), 0, 0, 0);
}

/*
 * The code evaluation runs: an operand followed by a binary operator is
 * that operator's x, so the two become one step that reads x directly.
 */
static void
formula_compile_fuse(struct formula *f)
{
	const struct formula_insn	*s = f->steps;
	struct formula_insn		*c = f->code;
	size_t				 i;

	for (i = 0; i < f->nsteps; i++) {
		*c = s[i];
		if ((s[i].code == FORMULA_C_NUM ||
		    s[i].code == FORMULA_C_LOAD) &&
		    s[i + 1].code >= FORMULA_C_ADD &&
		    (s[i + 1].code - FORMULA_C_ADD) % 3 == 0) {
			c->code = (uint8_t)(s[i + 1].code +
			    (s[i].code == FORMULA_C_NUM ? 1 : 2));
			i++;
		}
		c++;
	}
	c->code = FORMULA_C_END;
}

/*
 * The compiled formula in one block: the struct, the numbers, the
 * operands, the pointers to the numbers' texts, the two programs and the
 * texts.
 * Every part is a multiple of 8 bytes, so each stays aligned.
 */
static struct formula *
formula_compile_finish(struct formula_cc *cc, size_t depth)
{
	struct formula	*f;
	char		*p, *text;
	size_t		 i, n, size, strs = cc->numtext.len;

	_Static_assert(sizeof (struct formula_insn) == 8, "insn size");
	for (i = 0; i < cc->nops; i++)
		strs += strlen(cc->ops[i].name) + 1;
	size = sizeof *f + cc->nnums * sizeof *f->nums +
	    cc->nops * sizeof *f->operands +
	    cc->nnums * sizeof *f->numtext +
	    2 * (cc->nsteps + 1) * sizeof *f->code + strs;
	p = cc->mem != NULL ? arena_alloc(cc->mem, size) : xmalloc(size);
	f = (struct formula *)(void *)p;
	memset(f, 0, sizeof *f);
	p += sizeof *f;
	f->nums = (double *)(void *)p;
	p += cc->nnums * sizeof *f->nums;
	f->operands = (struct formula_operand *)(void *)p;
	p += cc->nops * sizeof *f->operands;
	f->numtext = (char **)(void *)p;
	p += cc->nnums * sizeof *f->numtext;
	f->code = (struct formula_insn *)(void *)p;
	p += (cc->nsteps + 1) * sizeof *f->code;
	f->steps = (struct formula_insn *)(void *)p;
	p += (cc->nsteps + 1) * sizeof *f->steps;
	text = p;

	f->depth = (uint32_t)depth;
	f->nsteps = (uint32_t)cc->nsteps;
	memcpy(f->steps, cc->steps, cc->nsteps * sizeof *f->steps);
	memset(&f->steps[f->nsteps], 0, sizeof f->steps[f->nsteps]);
	f->steps[f->nsteps].code = FORMULA_C_END;
	f->nnums = (uint32_t)cc->nnums;
	if (cc->nnums > 0) {
		memcpy(f->nums, cc->nums, cc->nnums * sizeof *f->nums);
		memcpy(text, cc->numtext.s, cc->numtext.len);
		for (i = 0; i < cc->nnums; i++)
			f->numtext[i] = text + cc->numoff[i];
		text += cc->numtext.len;
	}
	f->noperands = (uint32_t)cc->nops;
	for (i = 0; i < cc->nops; i++) {
		n = strlen(cc->ops[i].name) + 1;
		memcpy(text, cc->ops[i].name, n);
		f->operands[i].name = text;
		f->operands[i].kind = cc->ops[i].kind;
		f->operands[i].slot = cc->ops[i].slot;
		text += n;
	}
	formula_compile_fuse(f);
	return (f);
}

int
formula_compile(const char *text, int notation, const char *self,
    formula_resolve_fn resolve, void *arg, struct formula **out,
    char **cause)
{
	return (formula_compile_in(NULL, text, notation, self, resolve, arg,
	    out, cause));
}

int
formula_compile_in(struct arena *mem, const char *text, int notation,
    const char *self, formula_resolve_fn resolve, void *arg,
    struct formula **out, char **cause)
{
	struct formula_cc	 cc;
	struct formula_unit	*u;
	uint32_t		 k, root, steps;
	size_t			 i;
	int			 error;

	*out = NULL;
	/* The inline arrays need no clearing: only the head. */
	memset(&cc, 0, offsetof(struct formula_cc, units0));
	cc.resolve = resolve;
	cc.arg = arg;
	cc.self = self;
	cc.cause = cause;
	cc.mem = mem;
	cc.units = cc.units0;
	cc.capunits = FORMULA_CC_UNITS;
	cc.names = cc.names0;
	cc.capnames = FORMULA_CC_NAMES;
	cc.ops = cc.ops0;
	cc.capops = FORMULA_CC_NAMES;

	if ((error = formula_compile_unit(&cc, self, text, notation, &k)) != 0)
		goto fail;
	u = &cc.units[k];
	root = u->ast->root;
	if (u->height[root] > FORMULA_MAX_DEPTH) {
		error = formula_compile_error(&cc, -HV_ELIMIT, "formula nested "
		    "too deeply once referenced formulas are inlined: %u "
		    "levels, at most %d", u->height[root], FORMULA_MAX_DEPTH);
		goto fail;
	}
	steps = u->steps[root];
	if (steps > FORMULA_MAX_CODE) {
		error = formula_compile_error(&cc, -HV_ELIMIT, "formula too "
		    "large once referenced formulas are inlined: %u steps, "
		    "at most %d", steps, FORMULA_MAX_CODE);
		goto fail;
	}
	/* Room for FORMULA_C_END, and for fusing to look one step ahead. */
	if (steps <= FORMULA_CC_STEPS) {
		cc.steps = cc.steps0;
		cc.nums = cc.nums0;
		cc.numoff = cc.numoff0;
	} else {
		cc.steps = xcalloc(steps + 1, sizeof *cc.steps);
		cc.nums = xcalloc(steps, sizeof *cc.nums);
		cc.numoff = xcalloc(steps, sizeof *cc.numoff);
	}
	formula_compile_emit(&cc, k, root);
	/* Stack entries never exceed the height, so this fits too. */
	*out = formula_compile_finish(&cc, u->stack[root]);
fail:
	for (i = 0; i < cc.nunits; i++)
		formula_compile_unit_free(&cc.units[i]);
	if (cc.units != cc.units0)
		free(cc.units);
	if (cc.names != cc.names0)
		free(cc.names);
	if (cc.ops != cc.ops0)
		free(cc.ops);
	if (cc.steps != cc.steps0) {
		free(cc.steps);
		free(cc.nums);
		free(cc.numoff);
	}
	strbuf_free(&cc.numtext);
	return (error);
}

/* Everything is in the one block formula_compile_finish() made. */
void
formula_free(struct formula *f)
{
	free(f);
}

size_t
formula_noperands(const struct formula *f)
{
	return (f->noperands);
}

const struct formula_operand *
formula_operand(const struct formula *f, size_t i)
{
	if (i >= f->noperands)
		return (NULL);
	return (&f->operands[i]);
}

size_t
formula_ncode(const struct formula *f)
{
	return (f->nsteps);
}

size_t
formula_depth(const struct formula *f)
{
	return (f->depth);
}

int
formula_integral(const struct formula *f)
{
	uint32_t	 i;

	for (i = 0; i < f->nsteps; i++) {
		if (f->steps[i].code >= FORMULA_C_MOD &&
		    f->steps[i].code <= FORMULA_C_REM_LOAD)
			return (1);
	}
	return (0);
}

const char *
formula_code_token(const struct formula *f, size_t i)
{
	const struct formula_insn	*c;

	if (i >= f->nsteps)
		return (NULL);
	c = &f->steps[i];
	switch (c->code) {
	case FORMULA_C_NUM:
		return (f->numtext[c->arg]);
	case FORMULA_C_LOAD:
		return (f->operands[c->operand].name);
	case FORMULA_C_SQRT:
		return (formula_lex_op_word(FORMULA_OP_SQRT, 1));
	default:
		return (formula_lex_op_word(FORMULA_OP_OF(c->code), 1));
	}
}

int
formula_constant(const struct formula *f, double *v)
{
	if (f->nsteps != 1 || f->steps[0].code != FORMULA_C_NUM)
		return (0);
	*v = f->nums[0];
	return (1);
}
