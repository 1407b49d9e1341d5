/*
 * PAPI's POSTFIX and INFIX formulas: their tokens, the check of a formula
 * against its event's base list (first pass), and the expression text
 * written with the identifiers chosen in the second pass.  Pure: no I/O.
 */
#include "config.h"

#include "metrics/papi.h"

#include <stdint.h>
#include <string.h>

#include "metrics/papi-int.h"
#include "util/arena.h"
#include "util/lex.h"
#include "util/strbuf.h"

/* A token of a POSTFIX or INFIX formula. */
enum papi_tok {
	PAPI_TOK_END,
	PAPI_TOK_PLACE,			/* N<i> */
	PAPI_TOK_NUM,
	PAPI_TOK_HZ,			/* # */
	PAPI_TOK_OP,			/* + - * / */
	PAPI_TOK_LPAREN,
	PAPI_TOK_RPAREN,
	PAPI_TOK_BAD,
};

struct papi_token {
	enum papi_tok	 kind;
	size_t		 off;		/* in the formula text */
	size_t		 len;
	unsigned long	 place;		/* PAPI_TOK_PLACE, saturated */
};

/*
 * PAPI's formulas for the scanner (util/lex.h).  POSTFIX separates its
 * tokens with '|' or blanks and has no parentheses; INFIX needs no
 * separator.  A name is a placeholder, N and digits; the other name
 * characters only make a word that is not understood, and a STOP byte
 * ends such a word.
 */
#define PAPI_N		(LEX_START | LEX_NAME)
#define PAPI_BLANKS \
	[' '] = LEX_SPACE | LEX_STOP, ['\t'] = LEX_SPACE | LEX_STOP, \
	['\r'] = LEX_SPACE | LEX_STOP, ['\v'] = LEX_SPACE | LEX_STOP, \
	['\f'] = LEX_SPACE | LEX_STOP
#define PAPI_NAMES \
	['.'] = LEX_NAME, ['0' ... '9'] = LEX_NAME, ['A' ... 'M'] = LEX_NAME, \
	['N'] = PAPI_N, ['O' ... 'Z'] = LEX_NAME, ['_'] = LEX_NAME, \
	['a' ... 'z'] = LEX_NAME
static const uint16_t papi_formula_postfix_class[256] = {
	PAPI_BLANKS,
	PAPI_NAMES,
	['|'] = LEX_SPACE | LEX_STOP,
	['('] = LEX_STOP, [')'] = LEX_STOP,
	['+'] = LEX_PUNCT, ['-'] = LEX_PUNCT, ['*'] = LEX_PUNCT,
	['/'] = LEX_PUNCT, ['#'] = LEX_PUNCT,
};
static const uint16_t papi_formula_infix_class[256] = {
	PAPI_BLANKS,
	PAPI_NAMES,
	['|'] = LEX_STOP,
	['('] = LEX_PUNCT | LEX_STOP, [')'] = LEX_PUNCT | LEX_STOP,
	['+'] = LEX_PUNCT | LEX_STOP, ['-'] = LEX_PUNCT | LEX_STOP,
	['*'] = LEX_PUNCT | LEX_STOP, ['/'] = LEX_PUNCT | LEX_STOP,
	['#'] = LEX_PUNCT,
};
#undef PAPI_N
#undef PAPI_BLANKS
#undef PAPI_NAMES

/* Numbers are digits, with a point only between digits. */
static const struct lex_lang papi_formula_postfix_lang = {
	.class = papi_formula_postfix_class,
};
static const struct lex_lang papi_formula_infix_lang = {
	.class = papi_formula_infix_class,
};

static void
papi_formula_lex(struct lex *lx, const char *s, size_t n, int infix)
{
	lex_init(lx, infix ? &papi_formula_infix_lang :
	    &papi_formula_postfix_lang, s, n);
}

/*
 * The next token of a formula.  A token that is not understood comes
 * back as PAPI_TOK_BAD covering the word.
 */
static void
papi_formula_token(struct lex *lx, int infix, struct papi_token *t)
{
	struct lex_tok	 k;
	size_t		 i, j;

	lex_next(lx, &k);
	memset(t, 0, sizeof *t);
	t->off = k.off;
	if (k.kind == LEX_TOK_END) {
		t->kind = PAPI_TOK_END;
		return;
	}
	j = k.off + k.len;
	switch (k.kind) {
	case LEX_TOK_NUM:
		t->kind = PAPI_TOK_NUM;
		break;
	case LEX_TOK_NAME:
		/* N and digits, a placeholder, saturated. */
		for (i = k.off + 1; i < j &&
		    papi_isdigit((unsigned char)lx->text[i]); i++) {
			if (t->place < 1000000)
				t->place = t->place * 10 +
				    (unsigned long)(lx->text[i] - '0');
		}
		t->kind = i > k.off + 1 && i == j ? PAPI_TOK_PLACE :
		    PAPI_TOK_BAD;
		break;
	case LEX_TOK_PUNCT:
		switch (k.c) {
		case '#':
			t->kind = PAPI_TOK_HZ;
			break;
		case '(':
			t->kind = PAPI_TOK_LPAREN;
			break;
		case ')':
			t->kind = PAPI_TOK_RPAREN;
			break;
		default:
			t->kind = PAPI_TOK_OP;
			break;
		}
		break;
	default:
		t->kind = PAPI_TOK_BAD;
		break;
	}
	/*
	 * A token must end where the next can start: postfix tokens at a
	 * '|', infix words where no name character follows.
	 */
	if (!infix) {
		if (j < lx->len && !(lex_class(lx, j) & LEX_SPACE))
			t->kind = PAPI_TOK_BAD;
	} else if (t->kind == PAPI_TOK_PLACE || t->kind == PAPI_TOK_NUM ||
	    t->kind == PAPI_TOK_BAD) {
		if (lex_class(lx, j) & LEX_NAME)
			t->kind = PAPI_TOK_BAD;
	}
	if (t->kind == PAPI_TOK_BAD)
		j = lex_span(lx, j, LEX_STOP);
	t->len = j - k.off;
	lx->pos = j;
}

/*
 * Token t of formula f where it stands: a value where one may go, an
 * operator after enough values, parentheses that match.  *depth counts
 * the values on the stack (POSTFIX) or the open parentheses (INFIX);
 * *operand says an INFIX value is expected.  Returns 0, or -1 after
 * reporting the problem.
 */
static int
papi_formula_step(struct papi_ctx *c, const struct papi_field *f,
    const struct papi_token *t, int infix, size_t *depth, int *operand)
{
	unsigned long	 col = f->col + t->off;
	char		 q[64];

	switch (t->kind) {
	case PAPI_TOK_PLACE:
	case PAPI_TOK_NUM:
	case PAPI_TOK_HZ:
		if (!infix)
			(*depth)++;
		else if (!*operand) {
			PAPI_ERR(c, col, "an operator is missing before '%s'",
			    papi_parse_quote(q, sizeof q, f->p + t->off,
			    t->len));
			return (-1);
		} else
			*operand = 0;
		break;
	case PAPI_TOK_OP:
		if (!infix) {
			if (*depth < 2) {
				PAPI_ERR(c, col, "'%c' needs two values "
				    "before it", f->p[t->off]);
				return (-1);
			}
			(*depth)--;
		} else if (*operand) {
			PAPI_ERR(c, col, "a value is missing before '%c'",
			    f->p[t->off]);
			return (-1);
		} else
			*operand = 1;
		break;
	case PAPI_TOK_LPAREN:
		if (!*operand) {
			PAPI_ERR(c, col, "an operator is missing before '('");
			return (-1);
		}
		(*depth)++;
		break;
	case PAPI_TOK_RPAREN:
		if (*operand) {
			PAPI_ERR(c, col, "a value is missing before ')'");
			return (-1);
		}
		if (*depth == 0) {
			PAPI_ERR(c, col, "')' has no matching '('");
			return (-1);
		}
		(*depth)--;
		break;
	case PAPI_TOK_BAD:
	case PAPI_TOK_END:
		break;
	}
	return (0);
}

/* Whether formula f ends complete.  Returns 0, or -1 after reporting. */
static int
papi_formula_end(struct papi_ctx *c, const struct papi_field *f,
    int infix, size_t depth, int operand)
{
	unsigned long	 col = f->col + f->len;

	if (!infix && depth == 0) {
		PAPI_ERR(c, f->col, "the formula is empty");
		return (-1);
	}
	if (!infix && depth > 1) {
		PAPI_ERR(c, col, "the formula leaves %zu values: an operator "
		    "is missing", depth);
		return (-1);
	}
	if (infix && operand) {
		PAPI_ERR(c, col, "the formula ends where a value is expected");
		return (-1);
	}
	if (infix && depth > 0) {
		PAPI_ERR(c, col, "%zu '(' not closed", depth);
		return (-1);
	}
	return (0);
}

/*
 * Check a POSTFIX or INFIX formula against a list of nbases events.  Sets
 * *used to the placeholders it uses and adds to *bound the room its
 * expression needs apart from the names.  Returns 0, or -1 after
 * reporting the first problem with its column.
 */
int
papi_formula_check(struct papi_ctx *c, const struct papi_field *f,
    int infix, size_t nbases, uint64_t *used, size_t *placecount,
    size_t *bound)
{
	struct papi_token	 t;
	struct lex		 lx;
	char			 q[64];
	size_t			 depth = 0;
	int			 operand = 1;	/* infix: operand expected */
	unsigned long		 col;

	*used = 0;
	*placecount = 0;
	papi_formula_lex(&lx, f->p, f->len, infix);
	for (;;) {
		papi_formula_token(&lx, infix, &t);
		col = f->col + t.off;
		if (t.kind == PAPI_TOK_END)
			break;
		*bound += t.len + 1;
		if (t.kind == PAPI_TOK_BAD) {
			PAPI_ERR(c, col, "'%s' is not part of a formula "
			    "(N<i>, numbers, #, + - * /%s)",
			    papi_parse_quote(q, sizeof q, f->p + t.off, t.len),
			    infix ? " and parentheses" : " separated by '|'");
			return (-1);
		}
		if (t.kind == PAPI_TOK_PLACE) {
			if (t.place >= nbases) {
				PAPI_ERR(c, col, "N%lu is out of range: the "
				    "event lists %zu base event%s (N0..N%zu)",
				    t.place, nbases, nbases == 1 ? "" : "s",
				    nbases - 1);
				return (-1);
			}
			*used |= (uint64_t)1 << t.place;
			(*placecount)++;
		}
		if (t.kind == PAPI_TOK_PLACE || t.kind == PAPI_TOK_NUM ||
		    t.kind == PAPI_TOK_HZ)
			*bound += sizeof PAPI_CPU_HZ_OPERAND;
		if (papi_formula_step(c, f, &t, infix, &depth,
		    &operand) != 0)
			return (-1);
	}
	return (papi_formula_end(c, f, infix, depth, operand));
}

/* The expression text of an event whose identifiers are set. */
char *
papi_formula_expr(struct papi_ctx *c, const struct papi_event *ev)
{
	struct strbuf		*sb = &c->expr;
	struct papi_token	 t;
	struct lex		 lx;
	const char		*s;
	size_t			 i, first, last;

	strbuf_reset(sb);
	switch (ev->type) {
	case PAPI_TYPE_NOT_DERIVED:
	case PAPI_TYPE_CMPD:
		strbuf_adds(sb, ev->bases[0].ident);
		break;
	case PAPI_TYPE_ADD:
	case PAPI_TYPE_SUB:
	case PAPI_TYPE_PS:
	case PAPI_TYPE_ADD_PS:
		first = ev->clock ? 1 : 0;
		strbuf_adds(sb, ev->bases[first].ident);
		for (i = first + 1; i < ev->nbases; i++) {
			strbuf_addc(sb, ' ');
			strbuf_adds(sb, ev->bases[i].ident);
			strbuf_add(sb, ev->type == PAPI_TYPE_SUB ? " -" :
			    " +", 2);
		}
		if (ev->type == PAPI_TYPE_PS || ev->type == PAPI_TYPE_ADD_PS)
			strbuf_adds(sb, " " PAPI_RATE_OPERAND " /");
		break;
	case PAPI_TYPE_POSTFIX:
	case PAPI_TYPE_INFIX:
		s = ev->formula;
		last = 0;
		papi_formula_lex(&lx, s, strlen(s), ev->type ==
		    PAPI_TYPE_INFIX);
		for (;;) {
			papi_formula_token(&lx, ev->type == PAPI_TYPE_INFIX,
			    &t);
			if (t.kind == PAPI_TOK_END)
				break;
			/* Infix keeps its spacing, as single spaces. */
			if (sb->len != 0 && (ev->type != PAPI_TYPE_INFIX ||
			    t.off != last))
				strbuf_addc(sb, ' ');
			if (t.kind == PAPI_TOK_PLACE)
				strbuf_adds(sb, ev->bases[t.place].ident);
			else if (t.kind == PAPI_TOK_HZ)
				strbuf_adds(sb, PAPI_CPU_HZ_OPERAND);
			else
				strbuf_add(sb, s + t.off, t.len);
			last = lx.pos;
		}
		break;
	}
	return (arena_strndup(&c->m->mem, sb->len != 0 ? sb->s : "",
	    sb->len));
}
