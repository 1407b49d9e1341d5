/*
 * Formulas: the derived metrics of a 24x7 catalog, of PAPI event files and
 * of the user, in the catalog proposal's RPN or in infix text, compiled
 * once and evaluated every interval.  Pure: no I/O, no clock, no globals.
 *
 * RPN follows the proposal's table literally.  x is the most recent
 * operand, y the one before it:
 *
 *	A B +	A + B		A B mod	 fmod(A, B): C's %, sign of A
 *	A B -	A - B		A B rem	 floor(A / B)
 *	A B *	A * B		A sqr	 square root of A
 *	A B /	A / B		A B x^y	 B raised to the power A (x^y)
 *	A B swp	B A		A dup	 A A
 *	rot	the whole stack turns: x <- y, y <- z, ..., deepest <- x,
 *		so "1 2 3 rot" leaves "3 1 2" (Forth's -ROT on three values)
 *
 * Infix has the usual precedence, loosest first: + -, then * / % //
 * (% is mod, // is rem), then unary -, then ^ (right-associative, also
 * written **), then sqrt(E), names, numbers and parentheses.  An infix
 * name is letters, digits, '_' and '.', starting with a letter or '_'; a
 * backslash puts the next character into it (perf's "l1d\-miss"; not a
 * space, '|' or a parenthesis); the four words delta-timebase,
 * delta-cycles, delta-instructions and delta-seconds are names, and the
 * RPN operator words (mod, rem, sqr, swp, rot, dup) are not.  An RPN name
 * is any other word that starts with a letter or '_' and has no
 * parenthesis.  Numbers: 12, 1.5, .5, 1e9, 1.0E-06, 0x10 (up to 16 hex
 * digits); a leading '-' makes a negative number in both notations.  '|'
 * separates tokens like white space (PAPI's "N0|N1|-|", "|N0|N1|-").
 *
 * Values are IEEE doubles, but a result is never NaN or infinite: division
 * by zero (also by mod and rem), the square root of a negative number, a
 * power without a real value, an overflow or a missing input give "no
 * value" with the reason.  Columns in messages are 1-based byte positions.
 */
#ifndef HVTOP_FORMULA_H
#define HVTOP_FORMULA_H

#include <stddef.h>

/*
 * Limits.  Deeper or larger texts are rejected with a message.  The
 * nesting counts a level for a right operand (b of a + b), a sign, a
 * square root, a power and a left operand in parentheses ((a + b) * c),
 * not for the left operand of a flat sum or product, which nests 2
 * however long it is; evaluation's stack never exceeds it.  No
 * function here recurses deeper than FORMULA_MAX_DEPTH levels, except
 * along a flat sum's left operands, which FORMULA_MAX_TERMS (and once
 * inlined FORMULA_MAX_CODE) bounds.
 */
#define FORMULA_MAX_DEPTH	256	/* nesting, stack size */
#define FORMULA_MAX_TERMS	1024	/* terms of one text, dup expanded */
#define FORMULA_MAX_CODE	4096	/* steps of a compiled formula */
#define FORMULA_MAX_REFS	16	/* chain of formulas using formulas */

/*
 * A token echoed in a message: its first FORMULA_ECHO bytes, then "..."
 * when it is longer (a number of 130 KB is no message); the column says
 * where it is.  Messages stay printable ASCII.  Programs that echo what
 * they were given about a formula cut it the same way.
 */
#define FORMULA_ECHO		40
#define FORMULA_ECHO_FMT	"'%.*s%s'"
#define FORMULA_ECHO_ARG(s, n)	(int)((n) > FORMULA_ECHO ? FORMULA_ECHO : (n)), \
				(s), (n) > FORMULA_ECHO ? "..." : ""

enum formula_notation {
	FORMULA_AUTO,			/* decide with formula_parse_detect() */
	FORMULA_INFIX,
	FORMULA_RPN,
};

/* ---- parsing and printing ---------------------------------------- */

struct formula_ast;

/*
 * Which notation a text is written in.  The rule: a text with '(' or ')'
 * is infix; otherwise a text whose last token is an RPN operator word
 * (+ - * / mod rem sqr x^y swp rot dup) is RPN, since no infix text can
 * end with an operator; everything else (a single operand, "A + B") is
 * infix.  '|' counts as white space.  Returns FORMULA_INFIX or FORMULA_RPN.
 */
int	 formula_parse_detect(const char *text);

/*
 * Parse text (NUL-terminated) in the given notation, or FORMULA_AUTO.
 * Names stay names: nothing is resolved.  Returns 0 with *out set (caller
 * frees with formula_ast_free()), or -HV_EFORMAT / -HV_ELIMIT with *cause
 * set to a message with the column (caller frees).
 */
int	 formula_parse(const char *text, int notation,
	    struct formula_ast **out, char **cause);
void	 formula_ast_free(struct formula_ast *);
int	 formula_ast_notation(const struct formula_ast *); /* as written */
/*
 * RPN: how many values a formula leaves under its result.  The result is
 * x, the value on top when the text ends ("A B C rot" is B); the values
 * under it are ignored, and a checker may warn about them.
 */
size_t	 formula_ast_leftover(const struct formula_ast *);

/*
 * The text of a parsed formula in FORMULA_INFIX (fewest parentheses that
 * keep the same tree, so the same value) or FORMULA_RPN (the proposal's
 * operators only; unary minus becomes "0 A -", a power "E B x^y").
 * Returns an allocated string (caller frees).
 */
char	*formula_print(const struct formula_ast *, int notation);

/*
 * Parse text in notation from (or FORMULA_AUTO) and print it in notation
 * to.  Returns 0 with *out set (caller frees), or the formula_parse()
 * error with *cause set (caller frees).
 */
int	 formula_print_convert(const char *text, int from, int to,
	    char **out, char **cause);

/* ---- compiling ---------------------------------------------------- */

/* Where the value of a name comes from at evaluation time. */
enum formula_kind {
	FORMULA_EVENT,		/* a counter (its delta or rate) */
	FORMULA_CONST,		/* a named constant from the settings */
	FORMULA_SPECIAL,	/* delta-timebase ...; slot: formula_special */
	FORMULA_FORMULA,	/* another formula's value */
};
#define FORMULA_NKINDS	4

enum formula_special {
	FORMULA_DELTA_TIMEBASE,
	FORMULA_DELTA_CYCLES,
	FORMULA_DELTA_INSTRUCTIONS,
	FORMULA_DELTA_SECONDS,
};
#define FORMULA_NSPECIAL	4

/* "delta-timebase" ... for a formula_special, NULL otherwise. */
const char	*formula_compile_special_name(int);
/* The formula_special a name stands for, or -1. */
int		 formula_compile_special(const char *name);
/* "event", "constant", "special value", "formula". */
const char	*formula_compile_kind_name(int);

/*
 * What a resolver says about a name.  formula_compile() zeroes it, sets
 * kind to FORMULA_EVENT and calls the resolver, which returns:
 *
 *  0		known: the value is read at evaluation from slot of kind; or,
 *		with has_value, it is value now and is folded in; or, for
 *		kind FORMULA_FORMULA with text set, text is that formula
 *		(in notation) and is compiled inline.  text must stay valid
 *		until the resolver is called again or compile returns.
 *  -HV_ENOENT	unknown: compile fails with "unknown <kind> NAME (col N)",
 *		followed by ": <hint>" if the resolver set hint (allocated;
 *		formula_compile() frees it).  Setting kind picks the word,
 *		e.g. FORMULA_CONST with hint "set it with --const NAME=VALUE".
 *  other < 0	compile fails with that code and the hint as the message.
 *
 * A name the resolver does not know that is one of the four delta-*
 * words becomes FORMULA_SPECIAL with its formula_special slot.
 */
struct formula_ref {
	enum formula_kind kind;
	unsigned	 slot;
	int		 has_value;
	double		 value;
	const char	*text;
	int		 notation;
	char		*hint;
};

typedef int	(*formula_resolve_fn)(void *arg, const char *name,
		    struct formula_ref *ref);

struct formula;

/*
 * Compile text (in notation, or FORMULA_AUTO) for repeated evaluation.
 * self is the formula's own name when it has one (so that a reference to
 * itself is reported as a cycle), or NULL.  Names are resolved through
 * resolve(arg, ...); referenced formulas are compiled inline, each parsed
 * once; a loop of references fails with "formula cycle: A -> B -> A".
 * Constant subexpressions are computed once here.  Returns 0 with *out
 * set (caller frees with formula_free()), or -HV_EFORMAT, -HV_ENOENT,
 * -HV_ECYCLE, -HV_ELIMIT or the resolver's code, with *cause set (caller
 * frees).  Errors inside a referenced formula name it.
 */
int	 formula_compile(const char *text, int notation, const char *self,
	    formula_resolve_fn resolve, void *arg, struct formula **out,
	    char **cause);
/*
 * The same, with the formula carved from mem, which owns it: never
 * formula_free() it; it lives until arena_free(mem).  For a program that
 * compiles many formulas that live and die together (an engine's
 * metrics): one allocation each from a block instead of a malloc() each.
 */
struct arena;
int	 formula_compile_in(struct arena *mem, const char *text, int notation,
	    const char *self, formula_resolve_fn resolve, void *arg,
	    struct formula **out, char **cause);
void	 formula_free(struct formula *);

/* The names a compiled formula reads, in order of first use. */
struct formula_operand {
	const char	*name;		/* owned by the formula */
	enum formula_kind kind;
	unsigned	 slot;
};
size_t	 formula_noperands(const struct formula *);
const struct formula_operand *formula_operand(const struct formula *,
	    size_t);

size_t	 formula_ncode(const struct formula *);	/* steps */
size_t	 formula_depth(const struct formula *);	/* stack entries needed */
/* The RPN token of step i ("PM_CYC", "512", "x^y"); owned by the formula. */
const char *formula_code_token(const struct formula *, size_t i);
/* The formula's value when it reads no inputs and is defined, else 0. */
int	 formula_constant(const struct formula *, double *);
/*
 * 1 when the formula takes a remainder or an integer quotient (mod, rem:
 * "x % 2", "x // 4"), whose result means something only for whole
 * numbers: a caller that estimates counts (scales them to another
 * interval) should hand it whole ones.
 */
int	 formula_integral(const struct formula *);

/* ---- evaluating --------------------------------------------------- */

enum formula_reason {
	FORMULA_OK,
	FORMULA_MISSING,	/* an input has no value: see operand */
	FORMULA_DIVZERO,	/* x / 0, x mod 0, x rem 0, 0 ^ -n */
	FORMULA_SQRTNEG,	/* square root of a negative number */
	FORMULA_DOMAIN,		/* negative number to a fractional power */
	FORMULA_RANGE,		/* the result overflows a double */
};

/*
 * The inputs of an evaluation: values[kind][slot], with nvalues[kind]
 * entries.  An input that is NaN or infinite has no value (store
 * FORMULA_NOVALUE for a counter that could not be read); so has a slot
 * beyond nvalues.
 */
#define FORMULA_NOVALUE	(__builtin_nan(""))
struct formula_env {
	const double	*values[FORMULA_NKINDS];
	size_t		 nvalues[FORMULA_NKINDS];
};

/*
 * The result of an evaluation.  ok is 1 when value is a finite number;
 * otherwise reason says why and, for FORMULA_MISSING, operand is the
 * formula_operand() index of the input without a value (else -1).
 */
struct formula_value {
	double		 value;
	int		 ok;
	enum formula_reason reason;
	int		 operand;
};

/*
 * Evaluate.  Allocates nothing and takes time proportional to the number
 * of steps; the stack lives in the caller's frame (FORMULA_MAX_DEPTH
 * doubles).  The first failure in RPN order decides the reason.
 */
struct formula_value formula_eval(const struct formula *,
	    const struct formula_env *);

/*
 * The same, calling fn after each step with the step's index (see
 * formula_code_token()) and the stack, deepest entry first.
 */
typedef void	(*formula_trace_fn)(void *arg, const struct formula *,
		    size_t step, const double *stack, size_t depth);
struct formula_value formula_eval_trace(const struct formula *,
	    const struct formula_env *, formula_trace_fn fn, void *arg);

/* "division by zero" ...; a constant string. */
const char	*formula_eval_reason(int);
/*
 * Why a value is missing, for a user: "PM_CYC has no value", "division by
 * zero".  Returns an allocated string (caller frees).
 */
char		*formula_eval_explain(const struct formula *,
		    const struct formula_value *);

#endif /* HVTOP_FORMULA_H */
