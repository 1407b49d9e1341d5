/*
 * Reading a PAPI event-definition file into the model of papi.h.
 *
 * Two passes.  The first splits each line into fields, checks its command,
 * derived type, base list and formula, and keeps the line only when all of
 * that is right, so one bad line costs that line alone.  The second needs
 * every name of the file: it chooses the identifiers the expressions use
 * (they must not collide with any other name), writes the expression texts,
 * indexes events by name and flags redefinitions.
 *
 * Pure: no I/O, no printing.  The input is untrusted: nothing is read
 * outside [buf, buf + len), strings are copied with their lengths, and
 * every size that could grow with the input is bounded (PAPI_*_MAX), so a
 * hostile file costs memory in proportion to its size.
 *
 * Files may hold hundreds of thousands of events, so nothing here costs
 * more than a constant per name: strings and base lists are carved from
 * the model's arena, an identifier that is its name is the same string,
 * and the second pass finds names through one hash table that keeps each
 * name's hash.
 */
#include "config.h"

#include "metrics/papi.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/papi-int.h"
#include "util/arena.h"
#include "util/hverr.h"
#include "util/lex.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Room in an expression for one identifier beyond its name's length. */
#define PAPI_IDENT_SLACK	24

/* One field of a line. */
struct papi_field {
	const char	*p;		/* content (inside quotes if quoted) */
	size_t		 len;
	unsigned long	 col;		/* column of the content, from 1 */
	char		 quote;		/* '"', '\'' or 0 */
	int		 doubled;	/* contains a doubled quote */
};

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
 * An open-addressing table of names; keys point elsewhere.  What val
 * holds depends on the table: a name_id + 1, an index in the model's
 * identifiers, a suffix; all are below the number of lines of a file,
 * which PAPI_VAL_MAX far exceeds.  16 bytes an entry: the table of a file
 * of 200,000 events is looked up a million times.
 */
#define PAPI_VAL_MAX	((1U << 29) - 1)

struct papi_hent {
	const char	*key;		/* NULL: empty */
	uint32_t	 hash;
	uint32_t	 val : 29;
	uint32_t	 taken : 1;	/* an identifier in use */
	uint32_t	 plain : 2;	/* 1 plain, 2 not, 0 not known yet:
					   names alike but for case are
					   alike in this */
};

struct papi_htab {
	struct papi_hent *e;
	size_t		 cap;		/* a power of two, or 0 */
	size_t		 n;
	int		 nocase;
};

#define PAPI_BASE_CACHE	8

struct papi_ctx {
	struct papi_model *m;
	size_t		 capsections;
	size_t		 capevents;
	size_t		 capdiags;
	size_t		*diagseq;	/* order of creation, for sorting */
	unsigned long	 line;
	struct papi_field *f;		/* fields of the current line */
	size_t		 nf;
	size_t		 capf;
	int		 header_run;	/* last command was a section header */
	size_t		 cursec;	/* PAPI_NONE before the first */
	struct strbuf	 expr;		/* scratch for expression texts */
	char		*lastbase[PAPI_BASE_CACHE]; /* papi_parse_base() */
};

/*
 * Words an expression cannot use as operand names: the formula language's
 * operators, the constant '#' becomes, and what a strtod()-based number
 * reader would take for a number.
 */
static const char *const papi_parse_reserved[] = {
	"mod", "rem", "sqr", "swp", "rot", "dup", "sqrt", PAPI_CPU_HZ_OPERAND,
	"inf", "infinity", "nan",
};

static inline int
papi_parse_isdigit(int c)
{
	return (c >= '0' && c <= '9');
}

static inline int
papi_parse_isidstart(int c)
{
	return ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_');
}

static inline int
papi_parse_isident(int c)
{
	return (papi_parse_isidstart(c) || papi_parse_isdigit(c));
}

static inline int
papi_parse_isblank(int c)
{
	return (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f');
}

/* Does the field hold exactly word (no case)? */
static inline int
papi_parse_is(const struct papi_field *f, const char *word)
{
	size_t	 i;

	/* Lengths first: most words asked about are not the field. */
	if (strlen(word) != f->len)
		return (0);
	for (i = 0; i < f->len; i++) {
		if (word[i] == '\0' ||
		    papi_lower((unsigned char)f->p[i]) !=
		    papi_lower((unsigned char)word[i]))
			return (0);
	}
	return (word[i] == '\0');
}

/*
 * Input text for a message: at most 40 bytes, anything unprintable shown
 * as '?', so that a message can go to a terminal as it is.
 */
static const char *
papi_parse_quote(char *buf, size_t size, const char *p, size_t len)
{
	size_t	 i, n;

	n = len > 40 ? 40 : len;
	if (n > size - 4)
		n = size - 4;
	for (i = 0; i < n; i++) {
		buf[i] = (p[i] >= 0x20 && p[i] < 0x7f) ? p[i] : '?';
	}
	if (n < len) {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n] = '\0';
	return (buf);
}

static void
papi_parse_diag(struct papi_ctx *c, enum papi_severity sev,
    unsigned long line, unsigned long col, const char *fmt, ...)
{
	struct papi_model	*m = c->m;
	struct papi_diag	*d;
	va_list			 ap;

	if (sev == PAPI_ERROR)
		m->nerrors++;
	else
		m->nwarnings++;
	if (m->ndiags >= PAPI_DIAGS_MAX)
		return;
	if (m->ndiags == c->capdiags) {
		c->capdiags = c->capdiags ? c->capdiags * 2 : 16;
		m->diags = xreallocarray(m->diags, c->capdiags,
		    sizeof *m->diags);
		c->diagseq = xreallocarray(c->diagseq, c->capdiags,
		    sizeof *c->diagseq);
	}
	c->diagseq[m->ndiags] = m->ndiags;
	d = &m->diags[m->ndiags++];
	d->severity = sev;
	d->line = line;
	d->column = col;
	va_start(ap, fmt);
	d->message = xvasprintf(fmt, ap);
	va_end(ap);
	d->text = xasprintf("line %lu, column %lu: %s%s", line, col,
	    sev == PAPI_WARNING ? "warning: " : "", d->message);
}

#define PAPI_ERR(c, col, ...) \
	papi_parse_diag((c), PAPI_ERROR, (c)->line, (col), __VA_ARGS__)
#define PAPI_WARN(c, col, ...) \
	papi_parse_diag((c), PAPI_WARNING, (c)->line, (col), __VA_ARGS__)

/*
 * A field's value as a string of the model: quotes removed, doubled quotes
 * undone.
 */
static char *
papi_parse_value(struct papi_ctx *c, const struct papi_field *f)
{
	char	*s;
	size_t	 i, n;

	if (!f->doubled)
		return (arena_strndup(&c->m->mem, f->p, f->len));
	s = arena_alloc(&c->m->mem, f->len + 1);
	for (i = n = 0; i < f->len; i++) {
		s[n++] = f->p[i];
		if (f->p[i] == f->quote && i + 1 < f->len &&
		    f->p[i + 1] == f->quote)
			i++;
	}
	s[n] = '\0';
	return (s);
}

static struct papi_field *
papi_parse_addfield(struct papi_ctx *c)
{
	if (c->nf == c->capf) {
		c->capf = c->capf ? c->capf * 2 : 16;
		c->f = xreallocarray(c->f, c->capf, sizeof *c->f);
	}
	memset(&c->f[c->nf], 0, sizeof c->f[c->nf]);
	return (&c->f[c->nf++]);
}

/*
 * Split a line into fields.  Blanks around a field go; a field that starts
 * with a quote runs to the matching quote and only blanks may follow it.
 * Returns 0, or -1 after reporting why the line cannot be split.
 */
static int
papi_parse_split(struct papi_ctx *c, const char *p, size_t n)
{
	struct papi_field	*f;
	const char		*comma;
	size_t			 i, j, e;
	char			 q;

	c->nf = 0;
	i = 0;
	for (;;) {
		while (i < n && papi_parse_isblank((unsigned char)p[i]))
			i++;
		f = papi_parse_addfield(c);
		if (i < n && (p[i] == '"' || p[i] == '\'')) {
			q = p[i];
			for (j = i + 1; j < n; j++) {
				if (p[j] != q)
					continue;
				if (j + 1 < n && p[j + 1] == q) {
					f->doubled = 1;
					j++;
					continue;
				}
				break;
			}
			if (j >= n) {
				PAPI_ERR(c, i + 1, "the quote is not closed");
				return (-1);
			}
			f->p = p + i + 1;
			f->len = j - i - 1;
			f->col = i + 2;
			f->quote = q;
			i = j + 1;
			while (i < n && papi_parse_isblank((unsigned char)p[i]))
				i++;
			if (i < n && p[i] != ',') {
				PAPI_ERR(c, i + 1,
				    "only a comma may follow a closing quote");
				return (-1);
			}
		} else {
			comma = memchr(p + i, ',', n - i);
			j = comma != NULL ? (size_t)(comma - p) : n;
			for (e = j; e > i &&
			    papi_parse_isblank((unsigned char)p[e - 1]); e--)
				continue;
			f->p = p + i;
			f->len = e - i;
			f->col = i + 1;
			i = j;
		}
		if (i >= n)
			break;
		i++;		/* the comma */
	}
	/* Trailing commas (and spaces) are common and mean nothing. */
	while (c->nf > 1 && c->f[c->nf - 1].len == 0 &&
	    c->f[c->nf - 1].quote == 0)
		c->nf--;
	return (0);
}

/*
 * PAPI's formulas for the scanner (util/lex.h).  POSTFIX separates its
 * tokens with '|' or blanks and has no parentheses; INFIX needs no
 * separator.  A name is a placeholder, N and digits; the other name
 * characters only make a word that is not understood, and a STOP byte
 * ends such a word.
 */
#define PAPI_NAMECH	LEX_NAME
#define PAPI_N		(LEX_START | LEX_NAME)
#define PAPI_BLANKS \
	[' '] = LEX_SPACE | LEX_STOP, ['\t'] = LEX_SPACE | LEX_STOP, \
	['\r'] = LEX_SPACE | LEX_STOP, ['\v'] = LEX_SPACE | LEX_STOP, \
	['\f'] = LEX_SPACE | LEX_STOP
#define PAPI_NAMES \
	['.'] = PAPI_NAMECH, ['0' ... '9'] = PAPI_NAMECH, \
	['A' ... 'M'] = PAPI_NAMECH, ['N'] = PAPI_N, \
	['O' ... 'Z'] = PAPI_NAMECH, ['_'] = PAPI_NAMECH, \
	['a' ... 'z'] = PAPI_NAMECH
static const uint16_t papi_postfix_class[256] = {
	PAPI_BLANKS,
	PAPI_NAMES,
	['|'] = LEX_SPACE | LEX_STOP,
	['('] = LEX_STOP, [')'] = LEX_STOP,
	['+'] = LEX_PUNCT, ['-'] = LEX_PUNCT, ['*'] = LEX_PUNCT,
	['/'] = LEX_PUNCT, ['#'] = LEX_PUNCT,
};
static const uint16_t papi_infix_class[256] = {
	PAPI_BLANKS,
	PAPI_NAMES,
	['|'] = LEX_STOP,
	['('] = LEX_PUNCT | LEX_STOP, [')'] = LEX_PUNCT | LEX_STOP,
	['+'] = LEX_PUNCT | LEX_STOP, ['-'] = LEX_PUNCT | LEX_STOP,
	['*'] = LEX_PUNCT | LEX_STOP, ['/'] = LEX_PUNCT | LEX_STOP,
	['#'] = LEX_PUNCT,
};
#undef PAPI_NAMECH
#undef PAPI_N
#undef PAPI_BLANKS
#undef PAPI_NAMES

/* Numbers are digits, with a point only between digits. */
static const struct lex_lang papi_postfix_lang = {
	.class = papi_postfix_class,
};
static const struct lex_lang papi_infix_lang = {
	.class = papi_infix_class,
};

static void
papi_parse_lex_init(struct lex *lx, const char *s, size_t n, int infix)
{
	lex_init(lx, infix ? &papi_infix_lang : &papi_postfix_lang, s, n);
}

/*
 * The next token of a formula.  A token that is not understood comes
 * back as PAPI_TOK_BAD covering the word.
 */
static void
papi_parse_token(struct lex *lx, int infix, struct papi_token *t)
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
		    papi_parse_isdigit((unsigned char)lx->text[i]); i++) {
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
papi_parse_formula_token(struct papi_ctx *c, const struct papi_field *f,
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
papi_parse_formula_end(struct papi_ctx *c, const struct papi_field *f,
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
static int
papi_parse_formula(struct papi_ctx *c, const struct papi_field *f,
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
	papi_parse_lex_init(&lx, f->p, f->len, infix);
	for (;;) {
		papi_parse_token(&lx, infix, &t);
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
		if (papi_parse_formula_token(c, f, &t, infix, &depth,
		    &operand) != 0)
			return (-1);
	}
	return (papi_parse_formula_end(c, f, infix, depth, operand));
}

static void
papi_parse_newsection(struct papi_ctx *c)
{
	struct papi_model	*m = c->m;
	struct papi_section	*s;

	if (m->nsections == c->capsections) {
		c->capsections = c->capsections ? c->capsections * 2 : 16;
		m->sections = xreallocarray(m->sections, c->capsections,
		    sizeof *m->sections);
	}
	s = &m->sections[m->nsections];
	memset(s, 0, sizeof *s);
	s->index = m->nsections;
	s->line = c->line;
	s->first_event = m->nevents;
	c->cursec = m->nsections++;
}

/* CPU,<pmu>[,<type>] or <component>,<name>. */
static void
papi_parse_header(struct papi_ctx *c, const struct papi_field *comp,
    unsigned long eol)
{
	struct papi_section	*s;
	struct papi_pmu		*pmu;
	const struct papi_field	*t;
	char			 q[64];
	long			 type = -1;
	size_t			 i, maxf;

	if (c->nf < 2 || c->f[1].len == 0) {
		PAPI_ERR(c, c->nf < 2 ? eol : c->f[1].col,
		    "CPU needs a PMU name");
		return;
	}
	maxf = comp != NULL ? 2 : 3;
	if (comp == NULL && c->nf >= 3) {
		t = &c->f[2];
		if (t->len == 0 || t->len > 9)
			i = 0;
		else {
			type = 0;
			for (i = 0; i < t->len &&
			    papi_parse_isdigit((unsigned char)t->p[i]); i++)
				type = type * 10 + (t->p[i] - '0');
		}
		if (i == 0 || i != t->len) {
			PAPI_ERR(c, t->col, "the PMU type '%s' is not a number",
			    papi_parse_quote(q, sizeof q, t->p, t->len));
			return;
		}
	}
	if (c->nf > maxf) {
		PAPI_ERR(c, c->f[maxf].col, "unexpected field '%s' after the "
		    "PMU %s", papi_parse_quote(q, sizeof q, c->f[maxf].p,
		    c->f[maxf].len), comp != NULL ? "name" : "name and type");
		return;
	}
	if (!c->header_run || c->cursec == PAPI_NONE)
		papi_parse_newsection(c);
	c->header_run = 1;
	s = &c->m->sections[c->cursec];
	/* Capacity doubles: it is the next power of two of npmus. */
	if ((s->npmus & (s->npmus - 1)) == 0)
		s->pmus = xreallocarray(s->pmus, s->npmus != 0 ?
		    s->npmus * 2 : 1, sizeof *s->pmus);
	pmu = &s->pmus[s->npmus++];
	pmu->name = papi_parse_value(c, &c->f[1]);
	pmu->component = comp != NULL ? papi_parse_value(c, comp) : NULL;
	pmu->type = type;
	pmu->line = c->line;
}

/*
 * Base event i's name.  Files list the same native events over and over
 * (every event of the benchmark reads the same two), so a name the same
 * as the last one at that position is that string again: the model
 * holds one copy, and the second pass knows it by its pointer.
 */
static char *
papi_parse_base(struct papi_ctx *c, size_t i, const struct papi_field *f)
{
	char	*last;

	if (i >= PAPI_BASE_CACHE)
		return (papi_parse_value(c, f));
	last = c->lastbase[i];
	if (last != NULL && !f->doubled && strncmp(last, f->p, f->len) == 0 &&
	    last[f->len] == '\0')
		return (last);
	return (c->lastbase[i] = papi_parse_value(c, f));
}

/* LDESC, SDESC or NOTE: where the value goes, or NULL. */
static char **
papi_parse_key(const struct papi_field *f, struct papi_event *ev)
{
	if (f->quote != 0)
		return (NULL);
	if (papi_parse_is(f, "LDESC"))
		return (&ev->ldesc);
	if (papi_parse_is(f, "SDESC"))
		return (&ev->sdesc);
	if (papi_parse_is(f, "NOTE"))
		return (&ev->note);
	return (NULL);
}

/* What papi_parse_event() learns of a line as it reads it. */
struct papi_evline {
	const char		*cmd;		/* PRESET or EVENT */
	const struct papi_field	*formula;	/* POSTFIX and INFIX only */
	size_t			 bi[PAPI_BASES_MAX];	/* field of each base */
	size_t			 n;		/* base events */
	size_t			 end;		/* the field after the bases */
	size_t			 longest;	/* the longest base name */
	size_t			 nameslen;	/* their lengths added */
	uint64_t		 used;		/* bases the formula reads */
};

/*
 * The name, the derived type and (for POSTFIX and INFIX) the formula of
 * an event line.  Returns the field after them, or 0 after an error.
 */
static size_t
papi_parse_event_type(struct papi_ctx *c, struct papi_event *ev,
    struct papi_evline *l, unsigned long eol)
{
	const struct papi_field	*f = c->f;
	size_t			 nf = c->nf, k = 3;
	char			 q[64];
	enum papi_type		 t;

	if (nf < 2 || f[1].len == 0) {
		PAPI_ERR(c, nf < 2 ? eol : f[1].col, "%s needs an event name",
		    l->cmd);
		return (0);
	}
	if (nf < 3 || f[2].len == 0) {
		PAPI_ERR(c, nf < 3 ? eol : f[2].col, "%s needs a derived type "
		    "(NOT_DERIVED, DERIVED_ADD, ...)", l->cmd);
		return (0);
	}
	for (t = 0; t < PAPI_NTYPES; t++) {
		if (papi_parse_is(&f[2], papi_model_type_name(t)))
			break;
	}
	if (t == PAPI_NTYPES) {
		PAPI_ERR(c, f[2].col, "unknown derived type '%s'",
		    papi_parse_quote(q, sizeof q, f[2].p, f[2].len));
		return (0);
	}
	ev->type = t;
	if (ev->type == PAPI_TYPE_POSTFIX || ev->type == PAPI_TYPE_INFIX) {
		if (k >= nf || f[k].len == 0) {
			PAPI_ERR(c, k >= nf ? eol : f[k].col,
			    "%s needs a formula", papi_model_type_name(t));
			return (0);
		}
		l->formula = &f[k++];
	}
	return (k);
}

/*
 * The base events from field k up to the first key word, and whether
 * the derived type takes that many.  Returns 0, or -1 after an error.
 */
static int
papi_parse_event_bases(struct papi_ctx *c, struct papi_event *ev,
    struct papi_evline *l, size_t k, unsigned long eol)
{
	const struct papi_field	*f = c->f;
	size_t			 nf = c->nf, i, n = 0;
	char			 q[64];

	for (i = k; i < nf && papi_parse_key(&f[i], ev) == NULL; i++) {
		if (f[i].len == 0) {
			if (f[i].quote != 0) {
				PAPI_ERR(c, f[i].col, "empty base event name");
				return (-1);
			}
			continue;	/* PAPI's strtok() skips these too */
		}
		if (n == PAPI_BASES_MAX) {
			PAPI_ERR(c, f[i].col, "more than %d base events",
			    PAPI_BASES_MAX);
			return (-1);
		}
		l->bi[n++] = i;
		l->nameslen += f[i].len;
		if (f[i].len > l->longest)
			l->longest = f[i].len;
	}
	l->n = n;
	l->end = i;
	if (n == 0) {
		PAPI_ERR(c, i < nf ? f[i].col : eol, "%s %s has no base events",
		    l->cmd, papi_parse_quote(q, sizeof q, f[1].p, f[1].len));
		return (-1);
	}
	if (ev->type == PAPI_TYPE_NOT_DERIVED && n != 1) {
		PAPI_ERR(c, f[l->bi[1]].col, "NOT_DERIVED takes one event, "
		    "not %zu (DERIVED_ADD and DERIVED_CMPD take more)", n);
		return (-1);
	}
	if (ev->type == PAPI_TYPE_PS && n > 2) {
		PAPI_ERR(c, f[l->bi[2]].col, "DERIVED_PS takes the cycle "
		    "counter and one event, not %zu events", n);
		return (-1);
	}
	if (ev->type == PAPI_TYPE_ADD_PS && n < 2) {
		PAPI_ERR(c, f[l->bi[0]].col, "DERIVED_ADD_PS needs at least "
		    "two events to add");
		return (-1);
	}
	if (ev->type == PAPI_TYPE_PS)
		ev->clock = n == 2;
	else if (ev->type == PAPI_TYPE_ADD_PS)
		ev->clock = n >= 3;
	return (0);
}

/*
 * The formula checked, and the expression kept small whatever the names
 * are.  Returns 0, or -1 after an error.
 */
static int
papi_parse_event_bound(struct papi_ctx *c, const struct papi_event *ev,
    struct papi_evline *l)
{
	size_t	 places = 0, bound = 16;

	if (l->formula != NULL) {
		if (papi_parse_formula(c, l->formula,
		    ev->type == PAPI_TYPE_INFIX, l->n, &l->used, &places,
		    &bound) != 0)
			return (-1);
		if (places > PAPI_EXPR_MAX / (l->longest + PAPI_IDENT_SLACK))
			bound = SIZE_MAX;
		else
			bound += places * (l->longest + PAPI_IDENT_SLACK);
	} else
		bound += l->nameslen + l->n * (PAPI_IDENT_SLACK + 4) +
		    sizeof PAPI_RATE_OPERAND;
	if (bound > PAPI_EXPR_MAX) {
		PAPI_ERR(c, l->formula != NULL ? l->formula->col :
		    c->f[l->bi[0]].col, "the expression would be longer than "
		    "%d bytes", PAPI_EXPR_MAX);
		return (-1);
	}
	return (0);
}

/*
 * The descriptions: key, value pairs from field i on.  Returns 0, or -1
 * after an error.
 */
static int
papi_parse_event_descs(struct papi_ctx *c, struct papi_event *ev, size_t i)
{
	const struct papi_field	*f = c->f;
	size_t			 nf = c->nf;
	char			 q[64], **slot;

	while (i < nf) {
		if (f[i].len == 0 && f[i].quote == 0) {
			i++;
			continue;
		}
		if ((slot = papi_parse_key(&f[i], ev)) == NULL) {
			/* What the line kept so far stays in the arena: a
			 * line's worth at most. */
			PAPI_ERR(c, f[i].col, "expected LDESC, SDESC or NOTE, "
			    "not '%s' (quote texts that hold commas)",
			    papi_parse_quote(q, sizeof q, f[i].p, f[i].len));
			return (-1);
		}
		if (i + 1 >= nf) {
			PAPI_WARN(c, f[i].col, "%.*s has no text; ignored",
			    (int)f[i].len, f[i].p);
			break;
		}
		if (*slot != NULL)
			PAPI_WARN(c, f[i].col, "%.*s is given twice; the last "
			    "one is used", (int)f[i].len, f[i].p);
		*slot = papi_parse_value(c, &f[i + 1]);
		i += 2;
	}
	return (0);
}

/* Keep ev, with its name, formula and bases, in the current section. */
static void
papi_parse_event_keep(struct papi_ctx *c, struct papi_event *ev,
    const struct papi_evline *l)
{
	struct papi_model	*m = c->m;
	const struct papi_field	*f = c->f;
	size_t			 i;

	ev->name = papi_parse_value(c, &f[1]);
	ev->column = f[1].col;
	if (l->formula != NULL)
		ev->formula = papi_parse_value(c, l->formula);
	ev->bases = arena_calloc(&m->mem, l->n, sizeof *ev->bases);
	ev->nbases = l->n;
	for (i = 0; i < l->n; i++) {
		ev->bases[i].name = papi_parse_base(c, i, &f[l->bi[i]]);
		ev->bases[i].column = f[l->bi[i]].col;
		ev->bases[i].name_id = PAPI_NONE;
	}
	if (c->cursec == PAPI_NONE)
		papi_parse_newsection(c);
	if (m->nevents == c->capevents) {
		c->capevents = c->capevents ? c->capevents * 2 : 64;
		m->events = xreallocarray(m->events, c->capevents,
		    sizeof *m->events);
	}
	ev->index = m->nevents;
	ev->section = c->cursec;
	m->events[m->nevents++] = *ev;
	m->sections[c->cursec].nevents++;
}

/* PRESET,<name>,<type>,<args>[,<key>,<value>]... */
static void
papi_parse_event(struct papi_ctx *c, enum papi_kind kind, unsigned long eol)
{
	const struct papi_field	*f = c->f;
	struct papi_event	 ev;
	struct papi_evline	 l;
	size_t			 i, k;
	char			 q[64];

	/* Any event line ends the list of PMUs, even a bad one. */
	c->header_run = 0;
	memset(&ev, 0, sizeof ev);
	ev.kind = kind;
	ev.line = c->line;
	ev.shadows = PAPI_NONE;
	memset(&l, 0, sizeof l);
	l.cmd = kind == PAPI_KIND_PRESET ? "PRESET" : "EVENT";
	if ((k = papi_parse_event_type(c, &ev, &l, eol)) == 0 ||
	    papi_parse_event_bases(c, &ev, &l, k, eol) != 0 ||
	    papi_parse_event_bound(c, &ev, &l) != 0 ||
	    papi_parse_event_descs(c, &ev, l.end) != 0)
		return;

	/* Unused base events are legal but almost always a slip. */
	if (l.formula != NULL) {
		for (i = 0; i < l.n; i++) {
			if ((l.used & ((uint64_t)1 << i)) == 0)
				PAPI_WARN(c, f[l.bi[i]].col, "base event N%zu "
				    "'%s' is not used by the formula", i,
				    papi_parse_quote(q, sizeof q,
				    f[l.bi[i]].p, f[l.bi[i]].len));
		}
	}
	papi_parse_event_keep(c, &ev, &l);
}

/*
 * Room for every event at once: each starts a line with PRESET or EVENT,
 * perhaps quoted, so a line starting with P, E or a quote is an upper
 * bound (a hint: more would still fit).  Growing by doubling
 * would copy the array and touch twice its pages.
 */
static void
papi_parse_reserve(struct papi_ctx *c, const char *p, size_t len)
{
	const char	*end = p + len, *nl;
	size_t		 n = 0;
	int		 ch;

	while (p < end) {
		while (p < end && papi_parse_isblank((unsigned char)*p))
			p++;
		ch = p < end ? papi_lower((unsigned char)*p) : 0;
		if (ch == 'e' || ch == 'p' || ch == '"' || ch == '\'')
			n++;
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			break;
		p = nl + 1;
	}
	if (n > 0) {
		c->capevents = n;
		c->m->events = xmalloc_huge(n, sizeof *c->m->events);
	}
}

static void
papi_parse_line(struct papi_ctx *c, const char *p, size_t n)
{
	const struct papi_field	*cmd;
	const char		*z;
	char			 q[64];
	size_t			 i;

	if (n > PAPI_LINE_MAX) {
		PAPI_ERR(c, PAPI_LINE_MAX + 1, "the line is longer than %d "
		    "bytes", PAPI_LINE_MAX);
		return;
	}
	if ((z = memchr(p, '\0', n)) != NULL) {
		PAPI_ERR(c, (unsigned long)(z - p) + 1, "NUL byte");
		return;
	}
	for (i = 0; i < n && papi_parse_isblank((unsigned char)p[i]); i++)
		continue;
	if (i == n || p[i] == '#')
		return;
	if (papi_parse_split(c, p, n) != 0)
		return;
	cmd = &c->f[0];
	if (papi_parse_is(cmd, "CPU"))
		papi_parse_header(c, NULL, n + 1);
	else if (papi_parse_is(cmd, "PRESET"))
		papi_parse_event(c, PAPI_KIND_PRESET, n + 1);
	else if (papi_parse_is(cmd, "EVENT"))
		papi_parse_event(c, PAPI_KIND_EVENT, n + 1);
	else {
		/* A component section, "cuda,GH100": a lowercase word. */
		for (i = 0; i < cmd->len; i++) {
			if (!((cmd->p[i] >= 'a' && cmd->p[i] <= 'z') ||
			    (i > 0 && (papi_parse_isdigit(
			    (unsigned char)cmd->p[i]) || cmd->p[i] == '_'))))
				break;
		}
		if (cmd->len != 0 && i == cmd->len && cmd->quote == 0 &&
		    c->nf == 2)
			papi_parse_header(c, cmd, n + 1);
		else if (cmd->len > 4 && papi_lower((unsigned char)
		    cmd->p[0]) == 'c' && papi_lower((unsigned char)
		    cmd->p[1]) == 'p' && papi_lower((unsigned char)
		    cmd->p[2]) == 'u' && papi_parse_isblank((unsigned char)
		    cmd->p[3]))
			PAPI_ERR(c, cmd->col + 3, "a comma must separate CPU "
			    "from the PMU name");
		else
			PAPI_ERR(c, cmd->col, "unknown command '%s' (CPU, "
			    "PRESET or EVENT expected)", papi_parse_quote(q,
			    sizeof q, cmd->p, cmd->len));
	}
}

/* Hash tables for the second pass. */

static uint32_t
papi_htab_hash(const struct papi_htab *h, const char *key)
{
	return ((uint32_t)(h->nocase ? papi_hash_nocase(key) : papi_hash(key)));
}

/* Room for n keys without growing. */
static void
papi_htab_init(struct papi_htab *h, size_t n, int nocase)
{
	memset(h, 0, sizeof *h);
	h->nocase = nocase;
	for (h->cap = 64; h->cap / 4 * 3 < n + 1; h->cap *= 2)
		continue;
	h->e = xmalloc_huge(h->cap, sizeof *h->e);
	memset(h->e, 0, h->cap * sizeof *h->e);
}

static struct papi_hent *
papi_htab_find(const struct papi_htab *h, const char *key, uint32_t hv)
{
	struct papi_hent	*e;
	size_t			 i;

	for (i = hv & (h->cap - 1);; i = (i + 1) & (h->cap - 1)) {
		e = &h->e[i];
		if (e->key == NULL)
			return (NULL);
		if (e->hash == hv && (h->nocase ? papi_casecmp(e->key,
		    key) : strcmp(e->key, key)) == 0)
			return (e);
	}
}

/*
 * The entry of key, added with val 0 and not taken when it is not there
 * (key must then outlive the table).  A pointer to an entry is good until
 * the next key is added.
 */
static struct papi_hent *
papi_htab_add(struct papi_htab *h, const char *key, uint32_t hv)
{
	struct papi_hent	*e, *old;
	size_t			 i, j, oc;

	/* At most three quarters full. */
	if ((h->n + 1) * 4 > h->cap * 3) {
		old = h->e;
		oc = h->cap;
		h->cap = oc * 2;
		h->e = xcalloc(h->cap, sizeof *h->e);
		for (i = 0; i < oc; i++) {
			if (old[i].key == NULL)
				continue;
			for (j = old[i].hash & (h->cap - 1);
			    h->e[j].key != NULL; j = (j + 1) & (h->cap - 1))
				continue;
			h->e[j] = old[i];
		}
		free(old);
	}
	for (i = hv & (h->cap - 1);; i = (i + 1) & (h->cap - 1)) {
		e = &h->e[i];
		if (e->key == NULL)
			break;
		if (e->hash == hv && (h->nocase ? papi_casecmp(e->key,
		    key) : strcmp(e->key, key)) == 0)
			return (e);
	}
	e->key = key;
	e->hash = hv;
	h->n++;
	return (e);
}

static int
papi_parse_plain(const char *s)
{
	size_t	 i;

	if (!papi_parse_isidstart((unsigned char)s[0]))
		return (0);
	for (i = 1; s[i] != '\0'; i++) {
		if (!papi_parse_isident((unsigned char)s[i]))
			return (0);
	}
	if (i > 8)		/* longer than any reserved word */
		return (1);
	for (i = 0; i < sizeof papi_parse_reserved /
	    sizeof papi_parse_reserved[0]; i++) {
		if (papi_casecmp(s, papi_parse_reserved[i]) == 0)
			return (0);
	}
	return (1);
}

struct papi_idents {
	struct papi_htab names;		/* every name (no case): name_id + 1
					   of an event name in val, taken set
					   for every identifier in use, and
					   whether it is plain */
	struct papi_htab map;		/* mapped name -> identifier */
	struct papi_htab next;		/* mangled name (no case) -> next
					   suffix */
	struct strbuf	 sb;
	struct papi_model *m;
	size_t		 cap;
};

/* The identifier for name: name itself when it is plain. */
static char *
papi_parse_ident(struct papi_idents *id, char *name)
{
	struct papi_model	*m = id->m;
	struct strbuf		*sb = &id->sb;
	struct papi_hent	*e, *nx;
	char			*ident;
	size_t			 i, base, k;
	uint32_t		 hv;

	if (papi_parse_plain(name))
		return (name);
	hv = papi_htab_hash(&id->map, name);
	if ((e = papi_htab_find(&id->map, name, hv)) != NULL)
		return (m->idents[e->val].ident);
	strbuf_reset(sb);
	if (papi_parse_isdigit((unsigned char)name[0]) || name[0] == '\0')
		strbuf_addc(sb, '_');
	for (i = 0; name[i] != '\0'; i++)
		strbuf_addc(sb, papi_parse_isident((unsigned char)name[i]) ?
		    name[i] : '_');

	/*
	 * k is the suffix to try, 1 meaning none.  It resumes where the last
	 * name that mangled alike stopped, so that many such names cost
	 * linear time, not quadratic.
	 */
	base = sb->len;
	hv = papi_htab_hash(&id->next, sb->s);
	if ((nx = papi_htab_find(&id->next, sb->s, hv)) == NULL) {
		nx = papi_htab_add(&id->next, arena_strdup(&m->mem, sb->s),
		    hv);
		nx->val = 1;
	}
	for (k = nx->val;; k = k == 1 ? 2 : k + 1) {
		sb->len = base;
		sb->s[base] = '\0';
		if (k > 1)
			strbuf_addf(sb, "__%zu", k);
		e = papi_htab_find(&id->names, sb->s,
		    papi_htab_hash(&id->names, sb->s));
		if (e == NULL || !e->taken)
			break;
	}
	nx->val = (uint32_t)(k == 1 ? 2 : k + 1) & PAPI_VAL_MAX;

	if (m->nidents == id->cap) {
		id->cap = id->cap ? id->cap * 2 : 16;
		m->idents = xreallocarray(m->idents, id->cap,
		    sizeof *m->idents);
	}
	ident = arena_strndup(&m->mem, sb->s, sb->len);
	m->idents[m->nidents].ident = ident;
	m->idents[m->nidents].name = name;
	m->nidents++;
	papi_htab_add(&id->names, ident, papi_htab_hash(&id->names,
	    ident))->taken = 1;
	papi_htab_add(&id->map, name, papi_htab_hash(&id->map,
	    name))->val = (uint32_t)(m->nidents - 1);
	return (ident);
}

/* The expression text of an event whose identifiers are set. */
static char *
papi_parse_expr(struct papi_ctx *c, const struct papi_event *ev)
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
		papi_parse_lex_init(&lx, s, strlen(s), ev->type ==
		    PAPI_TYPE_INFIX);
		for (;;) {
			papi_parse_token(&lx, ev->type == PAPI_TYPE_INFIX,
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

static int
papi_parse_cmpident(const void *a, const void *b)
{
	const struct papi_ident	*x = a, *y = b;

	return (strcmp(x->ident, y->ident));
}

struct papi_diagorder {
	struct papi_diag d;
	size_t		 seq;
};

static int
papi_parse_cmpdiag(const void *a, const void *b)
{
	const struct papi_diagorder	*x = a, *y = b;

	if (x->d.line != y->d.line)
		return (x->d.line < y->d.line ? -1 : 1);
	if (x->d.column != y->d.column)
		return (x->d.column < y->d.column ? -1 : 1);
	return (x->seq < y->seq ? -1 : x->seq > y->seq);
}

/*
 * The model's name lookup (papi_model_find() and the like): name_id + 1
 * by the name of its first event in byname, which papi-model.c hashes
 * alike.
 */
static void
papi_parse_nametab(struct papi_model *m)
{
	const char	*name;
	size_t		 id, i, cap;

	for (cap = 64; cap / 2 < m->nnames + 1; cap *= 2)
		continue;
	m->nametab = xcalloc(cap, sizeof *m->nametab);
	m->nametabcap = cap;
	for (id = 0; id < m->nnames; id++) {
		name = m->events[m->byname[m->namerange[2 * id]]].name;
		for (i = (uint32_t)papi_hash_nocase(name) & (cap - 1);
		    m->nametab[i] != 0; i = (i + 1) & (cap - 1))
			continue;
		m->nametab[i] = (uint32_t)id + 1;
	}
}

/*
 * Every name into the identifier table once, events' and bases': whether
 * it is plain is decided once per distinct name, and an event's name_id
 * is the n-th distinct name (no case).  A base keeps its name's hash in
 * name_id until papi_parse_finish_idents() looks it up again.  Returns
 * whether each event's name is plain (caller frees).
 */
static uint8_t *
papi_parse_finish_names(struct papi_ctx *c, struct papi_idents *id)
{
	struct papi_model	*m = c->m;
	struct papi_event	*ev;
	struct papi_base	*b;
	struct papi_hent	*e;
	size_t			 i, j, n;
	uint32_t		 hv;
	uint8_t			*plain = NULL;

	/* Event names; the bases' mostly repeat (the table grows if not). */
	n = sizeof papi_parse_reserved / sizeof papi_parse_reserved[0] +
	    m->nevents;
	papi_htab_init(&id->names, n, 1);
	papi_htab_init(&id->map, 0, 0);
	papi_htab_init(&id->next, 0, 1);
	for (i = 0; i < sizeof papi_parse_reserved /
	    sizeof papi_parse_reserved[0]; i++)
		papi_htab_add(&id->names, papi_parse_reserved[i],
		    papi_htab_hash(&id->names, papi_parse_reserved[i]))->taken =
		    1;
	if (m->nevents > 0)
		plain = xcalloc(m->nevents, 1);
	for (i = 0; i < m->nevents; i++) {
		ev = &m->events[i];
		e = papi_htab_add(&id->names, ev->name,
		    papi_htab_hash(&id->names, ev->name));
		if (e->plain == 0)
			e->plain = papi_parse_plain(ev->name) ? 1 : 2;
		if (e->plain == 1)
			e->taken = 1;
		if (e->val == 0)
			e->val = (uint32_t)++m->nnames & PAPI_VAL_MAX;
		ev->name_id = (size_t)e->val - 1;
		plain[i] = e->plain == 1;
		for (j = 0; j < ev->nbases; j++) {
			b = &ev->bases[j];
			hv = papi_htab_hash(&id->names, b->name);
			e = papi_htab_add(&id->names, b->name, hv);
			if (e->plain == 0)
				e->plain = papi_parse_plain(b->name) ? 1 : 2;
			if (e->plain == 1)
				e->taken = 1;
			b->name_id = hv;
		}
	}
	return (plain);
}

/* Each event's and base's identifier and name id, and its expression. */
static void
papi_parse_finish_idents(struct papi_ctx *c, struct papi_idents *id,
    const uint8_t *plain)
{
	struct papi_model	*m = c->m;
	struct papi_event	*ev;
	struct papi_base	*b;
	struct papi_hent	*e;
	size_t			 i, j;
	struct {
		const char	*name;
		size_t		 name_id;
		char		*ident;
	}			 cache[PAPI_BASE_CACHE];

	memset(cache, 0, sizeof cache);
	for (i = 0; i < m->nevents; i++) {
		ev = &m->events[i];
		ev->ident = plain[i] ? ev->name : papi_parse_ident(id,
		    ev->name);
		for (j = 0; j < ev->nbases; j++) {
			b = &ev->bases[j];
			/* The same string as the last base here (see
			 * papi_parse_base()): the same answers. */
			if (j < PAPI_BASE_CACHE && cache[j].name == b->name) {
				b->name_id = cache[j].name_id;
				b->ident = cache[j].ident;
				continue;
			}
			/* There since the first loop; read before an
			 * identifier is added. */
			e = papi_htab_find(&id->names, b->name,
			    (uint32_t)b->name_id);
			b->name_id = e->val != 0 ? (size_t)e->val - 1 :
			    PAPI_NONE;
			b->ident = e->plain == 1 ? b->name :
			    papi_parse_ident(id, b->name);
			if (j < PAPI_BASE_CACHE) {
				cache[j].name = b->name;
				cache[j].name_id = b->name_id;
				cache[j].ident = b->ident;
			}
		}
		ev->expr = papi_parse_expr(c, ev);
		ev->expr_infix = ev->type == PAPI_TYPE_INFIX;
	}
}

/*
 * By name, then by position: redefinitions sit side by side.  Names come
 * in the order of their name_ids (no sorting: a name is found through the
 * table), and events are counted into place in file order, which keeps
 * them by position within a name.  A redefinition in the same section
 * shadows the one before, with a warning.
 */
static void
papi_parse_finish_byname(struct papi_ctx *c)
{
	struct papi_model	*m = c->m;
	struct papi_event	*ev, *prev;
	char			 q[64];
	size_t			 i, j, n;

	if (m->nevents == 0)
		return;
	/* namerange[2 id + 1] counts, then is where the next goes. */
	m->namerange = xcalloc(2 * m->nnames, sizeof *m->namerange);
	for (i = 0; i < m->nevents; i++)
		m->namerange[2 * m->events[i].name_id + 1]++;
	for (i = j = 0; i < m->nnames; i++) {
		n = m->namerange[2 * i + 1];
		m->namerange[2 * i] = m->namerange[2 * i + 1] = j;
		j += n;
	}
	m->byname = xcalloc(m->nevents, sizeof *m->byname);
	for (i = 0; i < m->nevents; i++)
		m->byname[m->namerange[2 * m->events[i].name_id + 1]++] = i;
	papi_parse_nametab(m);
	for (i = 1; i < m->nevents; i++) {
		ev = &m->events[m->byname[i]];
		prev = &m->events[m->byname[i - 1]];
		if (prev->name_id != ev->name_id ||
		    prev->section != ev->section)
			continue;
		ev->shadows = prev->index;
		c->line = ev->line;
		PAPI_WARN(c, ev->column, "%s is defined again (first on line "
		    "%lu); this definition is the one used",
		    papi_parse_quote(q, sizeof q, ev->name, strlen(ev->name)),
		    prev->line);
	}
}

/* The diagnostics in the order papi_parse_cmpdiag() gives. */
static void
papi_parse_finish_diags(struct papi_ctx *c)
{
	struct papi_model	*m = c->m;
	struct papi_diagorder	*dord;
	size_t			 i;

	if (m->ndiags < 2)
		return;
	dord = xcalloc(m->ndiags, sizeof *dord);
	for (i = 0; i < m->ndiags; i++) {
		dord[i].d = m->diags[i];
		dord[i].seq = c->diagseq[i];
	}
	qsort(dord, m->ndiags, sizeof *dord, papi_parse_cmpdiag);
	for (i = 0; i < m->ndiags; i++)
		m->diags[i] = dord[i].d;
	free(dord);
}

/* The second pass: identifiers, expressions, the name index. */
static void
papi_parse_finish(struct papi_ctx *c)
{
	struct papi_model	*m = c->m;
	struct papi_idents	 id;
	uint8_t			*plain;

	memset(&id, 0, sizeof id);
	id.m = m;
	plain = papi_parse_finish_names(c, &id);
	papi_parse_finish_idents(c, &id, plain);
	free(plain);
	free(id.names.e);
	free(id.map.e);
	free(id.next.e);
	strbuf_free(&id.sb);
	if (m->nidents > 1)
		qsort(m->idents, m->nidents, sizeof *m->idents,
		    papi_parse_cmpident);
	papi_parse_finish_byname(c);
	papi_parse_finish_diags(c);
}

int
papi_parse(const void *buf, size_t len, struct papi_model **out,
    char **cause)
{
	struct papi_ctx	 c;
	const char	*p = buf, *end = p + len, *nl;
	size_t		 n, i;

	*out = NULL;
	if (cause != NULL)
		*cause = NULL;
	memset(&c, 0, sizeof c);
	c.m = xcalloc(1, sizeof *c.m);
	c.cursec = PAPI_NONE;
	papi_parse_reserve(&c, p, len);
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		n = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		c.line++;
		papi_parse_line(&c, p, n > 0 && p[n - 1] == '\r' ? n - 1 : n);
		p = nl != NULL ? nl + 1 : end;
	}
	c.m->nlines = c.line;
	papi_parse_finish(&c);
	free(c.f);
	free(c.diagseq);
	strbuf_free(&c.expr);
	*out = c.m;
	if (c.m->nerrors == 0)
		return (0);
	if (cause != NULL) {
		for (i = 0; i < c.m->ndiags; i++) {
			if (c.m->diags[i].severity == PAPI_ERROR)
				break;
		}
		if (i == c.m->ndiags)
			*cause = xasprintf("%zu errors", c.m->nerrors);
		else if (c.m->nerrors == 1)
			*cause = xstrdup(c.m->diags[i].text);
		else
			*cause = xasprintf("%s (and %zu more error%s)",
			    c.m->diags[i].text, c.m->nerrors - 1,
			    c.m->nerrors == 2 ? "" : "s");
	}
	return (-HV_EFORMAT);
}
