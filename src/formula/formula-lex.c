/*
 * Formula tokens.  RPN text is a list of words separated by white space
 * (or PAPI's '|'); infix text is cut at operator characters.  Numbers are
 * converted here without the C locale's help, so a program that has set a
 * locale with a decimal comma still reads "1.5" as one and a half.  Pure:
 * no I/O.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "formula/formula-int.h"
#include "util/hverr.h"
#include "util/lex.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Longest hex literal: 16 digits are 64 bits. */
#define FORMULA_HEX_DIGITS	16

/* In the order of their first bytes: formula_lex_rpn_first finds them. */
static const struct formula_lex_word {
	const char	*word;
	size_t		 len;
	enum formula_op	 op;
} formula_lex_rpn_words[] = {
	{ "*", 1, FORMULA_OP_MUL },
	{ "+", 1, FORMULA_OP_ADD },
	{ "-", 1, FORMULA_OP_SUB },
	{ "/", 1, FORMULA_OP_DIV },
	{ "dup", 3, FORMULA_OP_DUP },
	{ "mod", 3, FORMULA_OP_MOD },
	{ "rem", 3, FORMULA_OP_REM },
	{ "rot", 3, FORMULA_OP_ROT },
	{ "sqr", 3, FORMULA_OP_SQRT },
	{ "swp", 3, FORMULA_OP_SWP },
	{ "x^y", 3, FORMULA_OP_POW },
};
#define FORMULA_LEX_NWORDS \
	(sizeof formula_lex_rpn_words / sizeof formula_lex_rpn_words[0])

/*
 * 1 + the index of the first word that starts with a byte, 0 for none:
 * every RPN word and every infix name is looked up, and most are no word.
 */
static const uint8_t formula_lex_rpn_first[256] = {
	['*'] = 1, ['+'] = 2, ['-'] = 3, ['/'] = 4, ['d'] = 5, ['m'] = 6,
	['r'] = 7, ['s'] = 9, ['x'] = 11,
};

/*
 * The formula language for the scanner (util/lex.h).  A WORD byte is one
 * of an RPN word, or one a backslash puts into an infix name: printable
 * ASCII but space, the separator '|' and the parentheses (which tell
 * infix from RPN).  Names start with a letter or '_' and go on with
 * letters, digits, '_' and '.'.
 */
#define FW	(LEX_WORD | LEX_ESCAPED)
const uint16_t formula_lex_class[256] = {
	[' '] = LEX_SPACE, ['\t'] = LEX_SPACE, ['\n'] = LEX_SPACE,
	['\r'] = LEX_SPACE, ['\f'] = LEX_SPACE, ['\v'] = LEX_SPACE,
	['|'] = LEX_SPACE,
	['!'] = FW, ['"'] = FW, ['#'] = FW, ['$'] = FW,
	['%'] = FW | LEX_PUNCT, ['&'] = FW, ['\''] = FW,
	['('] = LEX_PUNCT, [')'] = LEX_PUNCT,
	['*'] = FW | LEX_PUNCT, ['+'] = FW | LEX_PUNCT, [','] = FW,
	['-'] = FW | LEX_PUNCT, ['.'] = FW | LEX_NAME, ['/'] = FW | LEX_PUNCT,
	['0' ... '9'] = FW | LEX_NAME,
	[':' ... '@'] = FW,
	['A' ... 'Z'] = FW | LEX_NAME | LEX_START,
	['['] = FW, ['\\'] = FW | LEX_ESCAPE, [']'] = FW,
	['^'] = FW | LEX_PUNCT, ['_'] = FW | LEX_NAME | LEX_START, ['`'] = FW,
	['a' ... 'z'] = FW | LEX_NAME | LEX_START,
	['{'] = FW, ['}' ... '~'] = FW,
};
#undef FW

static const struct lex_lang formula_lex_lang = {
	.class = formula_lex_class,
	.num = LEX_NUM_HEX | LEX_NUM_EXP | LEX_NUM_DOT,
};

static inline int
formula_lex_digit(int c)
{
	return (lex_digit(c));
}

/* A character that may follow the first one of an infix name. */
static inline int
formula_lex_namechar(int c)
{
	return (formula_lex_class[c & 0xff] & LEX_NAME);
}

static int
formula_lex_hex(int c)
{
	if (c >= '0' && c <= '9')
		return (c - '0');
	if (c >= 'a' && c <= 'f')
		return (c - 'a' + 10);
	if (c >= 'A' && c <= 'F')
		return (c - 'A' + 10);
	return (-1);
}

/*
 * The operator word of op: RPN's words, or infix's symbols.  NULL for
 * leaves and for stack words in infix.
 */
const char *
formula_lex_op_word(enum formula_op op, int rpn)
{
	size_t	 i;

	if (!rpn) {
		switch (op) {
		case FORMULA_OP_MOD:
			return ("%");
		case FORMULA_OP_REM:
			return ("//");
		case FORMULA_OP_POW:
			return ("^");
		case FORMULA_OP_SQRT:
			return ("sqrt");
		case FORMULA_OP_NEG:
			return ("-");
		case FORMULA_OP_SWP:
		case FORMULA_OP_ROT:
		case FORMULA_OP_DUP:
			return (NULL);
		default:
			break;
		}
	}
	for (i = 0; i < FORMULA_LEX_NWORDS; i++) {
		if (formula_lex_rpn_words[i].op == op)
			return (formula_lex_rpn_words[i].word);
	}
	return (NULL);
}

static enum formula_op
formula_lex_rpn_op(const char *s, size_t n)
{
	const struct formula_lex_word	*w;
	size_t				 i;

	/* Every word is 1 or 3 bytes long: most names are neither. */
	if ((n != 1 && n != 3) ||
	    (i = formula_lex_rpn_first[(unsigned char)s[0]]) == 0)
		return (FORMULA_OP_NONE);
	for (w = &formula_lex_rpn_words[i - 1]; w <
	    formula_lex_rpn_words + FORMULA_LEX_NWORDS && w->word[0] == s[0];
	    w++) {
		if (w->len == n && (n == 1 ||
		    (w->word[1] == s[1] && w->word[2] == s[2])))
			return (w->op);
	}
	return (FORMULA_OP_NONE);
}

/* Whether s[0..n) is one of RPN's operator words. */
int
formula_lex_is_rpn_word(const char *s, size_t n)
{
	return (formula_lex_rpn_op(s, n) != FORMULA_OP_NONE);
}

/* Room for "e", a sign, the exponent's digits and the NUL. */
#define FORMULA_LEX_EXP_ROOM	32

/*
 * The hex digits of s[i..n) into *u.  Returns -1 for none, more than
 * FORMULA_HEX_DIGITS, or anything else there.
 */
static int
formula_lex_hexnum(const char *s, size_t i, size_t n, uint64_t *u)
{
	size_t	 nd;
	int	 d;

	*u = 0;
	for (nd = 0; i < n; i++, nd++) {
		if ((d = formula_lex_hex((unsigned char)s[i])) < 0 ||
		    nd == FORMULA_HEX_DIGITS)
			return (-1);
		*u = *u << 4 | (uint64_t)d;
	}
	return (nd == 0 ? -1 : 0);
}

/*
 * The exponent at s[*ip] ('e' or 'E', a sign, digits) into *e, *ip moved
 * past it; with no 'e' there both stay.  Returns -1 for an 'e' without
 * digits.
 */
static int
formula_lex_exponent(const char *s, size_t n, size_t *ip, long *e)
{
	size_t	 i = *ip;
	long	 x = 0, esign = 1;

	if (i >= n || (s[i] != 'e' && s[i] != 'E'))
		return (0);
	i++;
	if (i < n && (s[i] == '+' || s[i] == '-'))
		esign = s[i++] == '-' ? -1 : 1;
	if (i == n || !formula_lex_digit((unsigned char)s[i]))
		return (-1);
	for (; i < n && formula_lex_digit((unsigned char)s[i]); i++) {
		/* Beyond a million the result is 0 or out of range. */
		if (x < 1000000)
			x = x * 10 + (s[i] - '0');
	}
	*e = esign * x;
	*ip = i;
	return (0);
}

/*
 * "e" and the exponent after buf's bl bytes, written without snprintf's
 * locale, and the NUL.
 */
static void
formula_lex_put_exponent(char *buf, size_t bl, long e)
{
	char	 tmp[FORMULA_LEX_EXP_ROOM];
	size_t	 nd = 0;

	buf[bl++] = 'e';
	if (e < 0) {
		buf[bl++] = '-';
		e = -e;
	}
	do {
		tmp[nd++] = (char)('0' + e % 10);
		e /= 10;
	} while (e > 0);
	while (nd > 0)
		buf[bl++] = tmp[--nd];
	buf[bl] = '\0';
}

/*
 * Convert a whole number literal: an optional sign, then 0x and up to 16
 * hex digits, or decimal digits with an optional point and exponent.
 * The significant digits are handed to strtod() as "DIGITSe<exp>", a form
 * without a decimal point, so the result is correctly rounded and does not
 * depend on the locale.  Returns 0 with *out set, or -1 when the text is
 * not such a number or does not fit a double.
 */
int
formula_lex_number(const char *s, size_t n, double *out)
{
	char		*buf, *end, small[96];
	size_t		 i = 0, bl = 0, ndig = 0;
	long		 scale = 0, e = 0;
	int		 neg = 0, point = 0;
	uint64_t	 u;
	double		 v;

	if (i < n && (s[i] == '+' || s[i] == '-'))
		neg = s[i++] == '-';
	if (n - i >= 2 && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
		if (formula_lex_hexnum(s, i + 2, n, &u) != 0)
			return (-1);
		v = (double)u;
		*out = neg ? -v : v;
		return (0);
	}

	/* Most numbers are short: no allocation for them. */
	buf = n + FORMULA_LEX_EXP_ROOM <= sizeof small ? small :
	    xmalloc(n + FORMULA_LEX_EXP_ROOM);
	for (; i < n; i++) {
		if (s[i] == '.' && !point) {
			point = 1;
			continue;
		}
		if (!formula_lex_digit((unsigned char)s[i]))
			break;
		ndig++;
		if (point)
			scale++;
		if (s[i] == '0' && bl == 0)
			continue;	/* leading zeros carry nothing */
		buf[bl++] = s[i];
	}
	if (ndig == 0 || formula_lex_exponent(s, n, &i, &e) != 0 || i != n)
		goto fail;
	if (bl == 0) {
		if (buf != small)
			free(buf);
		*out = neg ? -0.0 : 0.0;
		return (0);
	}
	formula_lex_put_exponent(buf, bl, e - scale);

	errno = 0;
	v = strtod(buf, &end);
	if (*end != '\0' || !isfinite(v))
		goto fail;
	if (buf != small)
		free(buf);
	*out = neg ? -v : v;
	return (0);
fail:
	if (buf != small)
		free(buf);
	return (-1);
}

void
formula_lex_init(struct formula_lex *lx, const char *text, size_t len,
    int rpn, char *names)
{
	lex_init(&lx->lx, &formula_lex_lang, text, len);
	lx->rpn = rpn;
	lx->names = names;
	lx->namelen = 0;
}

/* Where the next name goes; formula_lex_name_end() terminates it. */
static char *
formula_lex_name_start(struct formula_lex *lx)
{
	return (lx->names + lx->namelen);
}

static const char *
formula_lex_name_end(struct formula_lex *lx, size_t n)
{
	char	*name = lx->names + lx->namelen;

	name[n] = '\0';
	lx->namelen += n + 1;
	return (name);
}

static int
formula_lex_error(char **cause, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
formula_lex_error(char **cause, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	*cause = xvasprintf(fmt, ap);
	va_end(ap);
	return (-HV_EFORMAT);
}

/* A character for a message: 'c', or 0xNN when it is not printable. */
static char *
formula_lex_show(int c)
{
	if (c > ' ' && c < 0x7f)
		return (xasprintf("character '%c'", c));
	if (c == ' ')
		return (xstrdup("space"));
	return (xasprintf("byte 0x%02x", (unsigned)c & 0xff));
}

static int
formula_lex_unexpected(struct formula_lex *lx, size_t at, char **cause)
{
	char	*what;
	int	 error;

	what = formula_lex_show((unsigned char)lx->lx.text[at]);
	error = formula_lex_error(cause, "unexpected %s (col %lu)", what,
	    FORMULA_COL(at));
	free(what);
	return (error);
}

/* An RPN word: an operator, a number or a name. */
static int
formula_lex_rpn(struct formula_lex *lx, struct formula_tok *tok,
    char **cause)
{
	struct lex_tok	 t;
	const char	*w;
	size_t		 n, i;
	int		 c;

	i = lex_word(&lx->lx, &t);
	tok->off = t.off;
	if (t.kind == LEX_TOK_END) {
		tok->kind = FORMULA_TOK_END;
		return (0);
	}
	w = lx->lx.text + t.off;
	tok->len = n = t.len;
	if (i != SIZE_MAX) {
		if (lx->lx.text[i] == '(' || lx->lx.text[i] == ')') {
			return (formula_lex_error(cause, "unexpected '%c' (col "
			    "%lu): RPN has no parentheses", lx->lx.text[i],
			    FORMULA_COL(i)));
		}
		return (formula_lex_unexpected(lx, i, cause));
	}

	if ((tok->op = formula_lex_rpn_op(w, n)) != FORMULA_OP_NONE) {
		tok->kind = FORMULA_TOK_OP;
		return (0);
	}
	c = t.c;
	if (formula_lex_digit(c) || ((c == '+' || c == '-') && n > 1 &&
	    (formula_lex_digit((unsigned char)w[1]) || w[1] == '.')) ||
	    c == '.') {
		if (formula_lex_number(w, n, &tok->num) != 0) {
			return (formula_lex_error(cause,
			    "bad number " FORMULA_ECHO_FMT " (col %lu)",
			    FORMULA_ECHO_ARG(w, n), FORMULA_COL(tok->off)));
		}
		tok->kind = FORMULA_TOK_NUM;
		return (0);
	}
	if (formula_lex_class[c] & LEX_START) {
		tok->kind = FORMULA_TOK_NAME;
		memcpy(formula_lex_name_start(lx), w, n);
		tok->name = formula_lex_name_end(lx, n);
		return (0);
	}
	if (n == 1 && (c == '^' || c == '%')) {
		return (formula_lex_error(cause,
		    "unknown operator '%c' (col %lu): RPN writes %s",
		    c, FORMULA_COL(tok->off), c == '^' ?
		    "x^y (x, the most recent value, raised to the power y)" :
		    "mod"));
	}
	return (formula_lex_error(cause, "unknown operator " FORMULA_ECHO_FMT
	    " (col %lu)", FORMULA_ECHO_ARG(w, n), FORMULA_COL(tok->off)));
}

/* The delta-* words are names in infix although '-' is an operator. */
static size_t
formula_lex_delta(const char *s, size_t n)
{
	static const char *const suffix[] = {
		"-timebase", "-cycles", "-instructions", "-seconds"
	};
	size_t	 i, k;

	for (i = 0; i < sizeof suffix / sizeof suffix[0]; i++) {
		k = strlen(suffix[i]);
		if (n >= k && memcmp(s, suffix[i], k) == 0 &&
		    (n == k || !formula_lex_namechar((unsigned char)s[k])))
			return (k);
	}
	return (0);
}

static int
formula_lex_infix_number(struct formula_lex *lx, const struct lex_tok *t,
    struct formula_tok *tok, char **cause)
{
	const char	*s = lx->lx.text;
	size_t		 i = t->off + t->len;

	tok->off = t->off;
	if ((lex_class(&lx->lx, i) & LEX_NAME) ||
	    formula_lex_number(s + t->off, t->len, &tok->num) != 0) {
		/* Show the whole word: "2PB", "1e", "0x". */
		while (lex_class(&lx->lx, i) & LEX_NAME)
			i++;
		return (formula_lex_error(cause, "bad number " FORMULA_ECHO_FMT
		    " (col %lu)", FORMULA_ECHO_ARG(s + t->off, i - t->off),
		    FORMULA_COL(t->off)));
	}
	tok->kind = FORMULA_TOK_NUM;
	tok->len = t->len;
	return (0);
}

static int
formula_lex_infix_name(struct formula_lex *lx, const struct lex_tok *t,
    struct formula_tok *tok, char **cause)
{
	const char	*s = lx->lx.text;
	char		*name = formula_lex_name_start(lx);
	size_t		 i = t->off + t->len, k, n = t->namelen;

	if (t->escaped)
		lex_unescape(&lx->lx, t, name);
	else
		memcpy(name, s + t->off, n);
	if (!t->escaped && n == 5 && memcmp(name, "delta", 5) == 0 &&
	    (k = formula_lex_delta(s + i, lx->lx.len - i)) != 0) {
		memcpy(name + n, s + i, k);
		n += k;
		i += k;
		lx->lx.pos = i;
	}
	tok->off = t->off;
	tok->len = i - t->off;
	if (formula_lex_is_rpn_word(name, n)) {
		return (formula_lex_error(cause, FORMULA_ECHO_FMT " (col %lu) "
		    "is an RPN operator, not a name; infix writes %% for mod, "
		    "// for rem, sqrt(E) for sqr",
		    FORMULA_ECHO_ARG(s + tok->off, tok->len),
		    FORMULA_COL(tok->off)));
	}
	tok->kind = FORMULA_TOK_NAME;
	tok->name = formula_lex_name_end(lx, n);
	return (0);
}

static int
formula_lex_infix(struct formula_lex *lx, struct formula_tok *tok,
    char **cause)
{
	struct lex_tok	 t;
	const char	*s = lx->lx.text;
	size_t		 i;

	lex_next(&lx->lx, &t);
	switch (t.kind) {
	case LEX_TOK_END:
		tok->kind = FORMULA_TOK_END;
		tok->off = t.off;
		return (0);
	case LEX_TOK_NUM:
		return (formula_lex_infix_number(lx, &t, tok, cause));
	case LEX_TOK_NAME:
		return (formula_lex_infix_name(lx, &t, tok, cause));
	case LEX_TOK_PUNCT:
		break;
	default:
		return (formula_lex_unexpected(lx, t.off, cause));
	}

	i = t.off;
	tok->off = i;
	tok->len = 1;
	tok->kind = FORMULA_TOK_OP;
	switch (t.c) {
	case '(':
		tok->kind = FORMULA_TOK_LPAREN;
		break;
	case ')':
		tok->kind = FORMULA_TOK_RPAREN;
		break;
	case '+':
		tok->op = FORMULA_OP_ADD;
		break;
	case '-':
		tok->op = FORMULA_OP_SUB;
		break;
	case '*':
		tok->op = FORMULA_OP_MUL;
		if (i + 1 < lx->lx.len && s[i + 1] == '*') {
			tok->op = FORMULA_OP_POW;
			tok->len = 2;
		}
		break;
	case '/':
		tok->op = FORMULA_OP_DIV;
		if (i + 1 < lx->lx.len && s[i + 1] == '/') {
			tok->op = FORMULA_OP_REM;
			tok->len = 2;
		}
		break;
	case '%':
		tok->op = FORMULA_OP_MOD;
		break;
	default:
		tok->op = FORMULA_OP_POW;	/* '^' */
		break;
	}
	lx->lx.pos = i + tok->len;
	return (0);
}

/*
 * The next token.  At the end of the text tok->kind is FORMULA_TOK_END
 * with tok->off at the end.  A name token's name is in lx->names.
 * Returns 0, or -HV_EFORMAT with *cause set (caller frees).
 */
int
formula_lex_next(struct formula_lex *lx, struct formula_tok *tok,
    char **cause)
{
	memset(tok, 0, sizeof *tok);
	if (lx->rpn)
		return (formula_lex_rpn(lx, tok, cause));
	return (formula_lex_infix(lx, tok, cause));
}
