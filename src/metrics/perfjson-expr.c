/*
 * perf's MetricExpr grammar translated into hvtop's infix formula text,
 * with the expression's degree in the counts (what decides whether the
 * value is made per second).  Pure.  A recursive-descent parser with the
 * precedence of perf's expr.y for what hvtop can compute; every other
 * construct is refused with its column, never guessed.  Recursion is
 * bounded by PERFJSON_DEPTH_MAX.
 */
#include "config.h"

#include "metrics/perfjson.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/perfjson-int.h"
#include "util/hverr.h"
#include "util/lex.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

enum perfjson_tok {
	PJT_END,
	PJT_NUM,
	PJT_NAME,
	PJT_HASH,		/* #name */
	PJT_OP,			/* one character: + - * / ( ) , and others */
};

struct perfjson_tr {
	const char	*s;
	size_t		 len;
	struct lex	 lx;
	enum perfjson_tok tok;
	size_t		 tokpos;
	size_t		 toklen;
	char		 op;
	char		*name;		/* PJT_NAME, PJT_HASH: unescaped */
	int		 depth;
	perfjson_ref_fn	 ref;
	void		*arg;
	struct perfjson_expr_out *out;
	char		*err;
};

/* A value as parsed: its text and degree; constant: numbers alone. */
struct perfjson_val {
	struct strbuf	 sb;
	int		 degree;
	int		 isconst;
};

static int	perfjson_sum(struct perfjson_tr *, struct perfjson_val *);

static int
perfjson_fail(struct perfjson_tr *t, size_t pos, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
perfjson_fail(struct perfjson_tr *t, size_t pos, const char *fmt, ...)
{
	struct strbuf	 sb = { 0 };
	va_list		 ap;

	if (t->err != NULL)
		return (-HV_EFORMAT);
	strbuf_addf(&sb, "column %zu: ", pos + 1);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	t->err = strbuf_detach(&sb);
	return (-HV_EFORMAT);
}

/*
 * perf's expression text for the scanner (util/lex.h): names of letters,
 * digits and "_.:@?" ("hv_24x7@PM_X,chip=?@" is one name once its commas
 * and '=' are escaped), a backslash that escapes any printable byte, even
 * first, and '#' before a constant's name.
 */
#define PE	LEX_ESCAPED
#define SYM	(LEX_START | LEX_NAME | LEX_ESCAPED)
#define OP	(LEX_PUNCT | LEX_ESCAPED)
static const uint16_t perfjson_class[256] = {
	[' '] = LEX_SPACE, ['\t'] = LEX_SPACE, ['\n'] = LEX_SPACE,
	['\r'] = LEX_SPACE,
	['!'] = OP, ['"'] = PE, ['#'] = LEX_SIGIL | PE, ['$'] = PE,
	['%'] = OP, ['&'] = OP, ['\''] = PE,
	['(' ... '-'] = OP, ['.'] = SYM, ['/'] = OP,
	['0' ... ':'] = SYM, [';'] = PE, ['<' ... '>'] = OP,
	['?' ... 'Z'] = SYM, ['['] = PE, ['\\'] = LEX_START | LEX_ESCAPE | PE,
	[']'] = PE, ['^'] = OP, ['_'] = SYM, ['`'] = PE, ['a' ... 'z'] = SYM,
	['{'] = PE, ['|'] = OP, ['}' ... '~'] = PE,
};
#undef PE
#undef SYM
#undef OP

static const struct lex_lang perfjson_lang = {
	.class = perfjson_class,
	.num = LEX_NUM_EXP | LEX_NUM_DOT,
};

/* A printable character for messages: the byte, or '?'. */
static int
perfjson_show(int c)
{
	return (c > 0x20 && c < 0x7f ? c : '?');
}

/* A number hvtop can hold: no overflow to infinity, no underflow. */
static int
perfjson_number(struct perfjson_tr *t)
{
	char	*text, *end;
	double	 v;

	text = xstrndup(t->s + t->tokpos, t->toklen);
	errno = 0;
	v = strtod(text, &end);
	free(text);
	if (errno == ERANGE || !isfinite(v))
		return (perfjson_fail(t, t->tokpos, "number '%.*s' is out of "
		    "range", (int)(t->toklen > 30 ? 30 : t->toklen),
		    t->s + t->tokpos));
	return (0);
}

static int
perfjson_lex(struct perfjson_tr *t)
{
	struct lex_tok	 k;
	size_t		 end;

	free(t->name);
	t->name = NULL;
	lex_next(&t->lx, &k);
	t->tokpos = k.off;
	switch (k.kind) {
	case LEX_TOK_END:
		t->tok = PJT_END;
		return (0);
	case LEX_TOK_NUM:
		end = k.off + k.len;
		if (lex_class(&t->lx, end) & (LEX_NAME | LEX_ESCAPE))
			return (perfjson_fail(t, t->tokpos, "a number runs "
			    "into '%c'", perfjson_show((unsigned char)
			    t->s[end])));
		t->tok = PJT_NUM;
		t->toklen = k.len;
		return (perfjson_number(t));
	case LEX_TOK_NAME:
		if (k.namelen > PERFJSON_STRING_MAX)
			return (perfjson_fail(t, t->tokpos, "a name longer "
			    "than %d bytes", PERFJSON_STRING_MAX));
		if (k.namelen == 0)
			return (perfjson_fail(t, t->tokpos, "'%c' starts no "
			    "name", perfjson_show(k.c)));
		t->tok = k.c == '#' ? PJT_HASH : PJT_NAME;
		t->name = xmalloc(k.namelen + 1);
		lex_unescape(&t->lx, &k, t->name);
		t->name[k.namelen] = '\0';
		t->toklen = k.len;
		return (0);
	case LEX_TOK_PUNCT:
		t->tok = PJT_OP;
		t->op = (char)k.c;
		t->toklen = 1;
		return (0);
	default:
		return (perfjson_fail(t, k.off, "unexpected character '%c'",
		    perfjson_show(k.c)));
	}
}

static void
perfjson_val_free(struct perfjson_val *v)
{
	strbuf_free(&v->sb);
}

/* The words perf's grammar gives a meaning hvtop cannot compute. */
static const char *
perfjson_refused(const char *name)
{
	static const char *const words[] = {
		"if", "else", "d_ratio", "min", "max", "source_count",
		"has_event", "strcmp_cpuid_str",
	};
	size_t	 i;

	for (i = 0; i < sizeof words / sizeof words[0]; i++) {
		if (strcmp(name, words[i]) == 0)
			return (words[i]);
	}
	return (NULL);
}

/* A name as hvtop's infix lexer reads it back: odd bytes escaped. */
static int
perfjson_emit_name(struct perfjson_tr *t, size_t pos, const char *name,
    struct strbuf *sb)
{
	static const char *const rpn[] = {
		"mod", "rem", "sqr", "swp", "rot", "dup",
	};
	const char	*p;
	size_t		 i;

	if (!((name[0] >= 'a' && name[0] <= 'z') ||
	    (name[0] >= 'A' && name[0] <= 'Z') || name[0] == '_'))
		return (perfjson_fail(t, pos, "name '%s' does not start with "
		    "a letter", name));
	for (i = 0; i < sizeof rpn / sizeof rpn[0]; i++) {
		if (strcmp(name, rpn[i]) == 0)
			return (perfjson_fail(t, pos, "name '%s' is an "
			    "operator word of hvtop's formulas", name));
	}
	for (p = name; *p != '\0'; p++) {
		/* hvtop's names cannot hold these, escaped or not. */
		if (*p == '(' || *p == ')' || *p == '|')
			return (perfjson_fail(t, pos, "name '%s' holds '%c'",
			    name, *p));
	}
	for (p = name; *p != '\0'; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '_' || *p == '.'))
			strbuf_addc(sb, '\\');
		strbuf_addc(sb, *p);
	}
	return (0);
}

/*
 * "hv_24x7@EVENT,k=v,...@" (unescaped): the catalog event EVENT.  Sets
 * the domain and what '?' stands for; refuses other PMUs, fixed indexes
 * and terms hvtop cannot honour.
 */
static int
perfjson_event(struct perfjson_tr *t, size_t pos, const char *name,
    struct perfjson_val *v)
{
	const char	*at, *end, *p, *comma, *eq;
	char		*ev = NULL, *key = NULL, *val = NULL;
	long		 dom;
	int		 error = 0;

	at = strchr(name, '@');
	if ((size_t)(at - name) != strlen("hv_24x7") ||
	    strncmp(name, "hv_24x7", (size_t)(at - name)) != 0)
		return (perfjson_fail(t, pos, "event '%s' is on PMU '%.*s', "
		    "not hv_24x7", name, (int)(at - name), name));
	end = strrchr(name, '@');
	if (end == at || end[1] != '\0')
		return (perfjson_fail(t, pos, "event '%s' is not written "
		    "hv_24x7@EVENT,...@", name));
	p = at + 1;
	comma = memchr(p, ',', (size_t)(end - p));
	if (comma == NULL)
		comma = end;
	ev = xstrndup(p, (size_t)(comma - p));
	if (ev[0] == '\0' || strchr(ev, '=') != NULL || strchr(ev, '@') !=
	    NULL || strchr(ev, '?') != NULL) {
		error = perfjson_fail(t, pos, "event '%s' names no event",
		    name);
		goto out;
	}
	for (p = comma; p < end; p = comma) {
		p++;
		comma = memchr(p, ',', (size_t)(end - p));
		if (comma == NULL)
			comma = end;
		eq = memchr(p, '=', (size_t)(comma - p));
		free(key);
		free(val);
		if (eq == NULL) {
			key = xstrndup(p, (size_t)(comma - p));
			val = xstrdup("");
		} else {
			key = xstrndup(p, (size_t)(eq - p));
			val = xstrndup(eq + 1, (size_t)(comma - eq - 1));
		}
		if (strcmp(key, "chip") == 0 || strcmp(key, "core") == 0 ||
		    strcmp(key, "vcpu") == 0) {
			if (strcmp(val, "?") != 0) {
				error = perfjson_fail(t, pos, "event '%s' "
				    "reads %s %s alone; hvtop computes a "
				    "metric on every %s it shows", name, key,
				    val, key);
				goto out;
			}
			if (t->out->aggr == PERFJSON_AGGR_NONE)
				t->out->aggr = key[1] == 'h' ?
				    PERFJSON_AGGR_CHIP : PERFJSON_AGGR_CORE;
		} else if (strcmp(key, "domain") == 0) {
			dom = val[0] >= '1' && val[0] <= '6' &&
			    val[1] == '\0' ? val[0] - '0' : 0;
			if (dom == 0) {
				error = perfjson_fail(t, pos, "event '%s': "
				    "domain '%s' is not 1 to 6", name, val);
				goto out;
			}
			t->out->domain = (int)dom;
		} else {
			error = perfjson_fail(t, pos, "event '%s': hvtop "
			    "cannot honour the term '%s'", name, key);
			goto out;
		}
	}
	if ((error = perfjson_emit_name(t, pos, ev, &v->sb)) != 0)
		goto out;
	v->degree = 1;
out:
	free(ev);
	free(key);
	free(val);
	return (error);
}

/* A name: an hv_24x7 event, duration_time, another metric, or a name. */
static int
perfjson_name(struct perfjson_tr *t, const char *name, size_t pos,
    struct perfjson_val *v)
{
	const char	*text, *w;
	char		*why = NULL;
	int		 r, degree, time;

	if ((w = perfjson_refused(name)) != NULL)
		return (perfjson_fail(t, pos, "'%s' has no equivalent in "
		    "hvtop's formulas", w));
	if (strchr(name, '@') != NULL)
		return (perfjson_event(t, pos, name, v));
	if (strchr(name, '?') != NULL)
		return (perfjson_fail(t, pos, "'?' outside an hv_24x7 event "
		    "('%s')", name));
	if (strcmp(name, "duration_time") == 0) {
		strbuf_adds(&v->sb, PERFJSON_SECONDS);
		v->degree = 0;
		t->out->time = 1;
		return (0);
	}
	r = t->ref != NULL ? t->ref(t->arg, name, &text, &degree, &time,
	    &why) : 1;
	if (r < 0) {
		r = perfjson_fail(t, pos, "%s", why);
		free(why);
		return (r);
	}
	if (r == 0) {
		strbuf_addc(&v->sb, '(');
		strbuf_adds(&v->sb, text);
		strbuf_addc(&v->sb, ')');
		v->degree = degree;
		t->out->time |= time;
		return (0);
	}
	/* A catalog event or formula, resolved when the metric compiles. */
	v->degree = 1;
	return (perfjson_emit_name(t, pos, name, &v->sb));
}

static int
perfjson_primary(struct perfjson_tr *t, struct perfjson_val *v)
{
	struct perfjson_val	 in;
	size_t			 pos = t->tokpos;
	char			*name;
	int			 error;

	switch (t->tok) {
	case PJT_NUM:
		strbuf_add(&v->sb, t->s + t->tokpos, t->toklen);
		/* "1." is perf's; hvtop wants a digit after the point. */
		if (t->s[t->tokpos + t->toklen - 1] == '.')
			strbuf_addc(&v->sb, '0');
		v->degree = 0;
		v->isconst = 1;
		return (perfjson_lex(t));
	case PJT_HASH:
		/* #smt_on and friends: a named constant (--const). */
		if ((error = perfjson_emit_name(t, pos, t->name, &v->sb)) != 0)
			return (error);
		v->degree = 0;
		v->isconst = 1;
		return (perfjson_lex(t));
	case PJT_NAME:
		name = t->name;
		t->name = NULL;
		if ((error = perfjson_lex(t)) == 0 && t->tok == PJT_OP &&
		    t->op == '(' && perfjson_refused(name) == NULL)
			error = perfjson_fail(t, pos, "function '%s' has no "
			    "equivalent in hvtop's formulas", name);
		if (error == 0)
			error = perfjson_name(t, name, pos, v);
		free(name);
		return (error);
	case PJT_OP:
		if (t->op != '(')
			break;
		if (++t->depth > PERFJSON_DEPTH_MAX)
			return (perfjson_fail(t, pos, "nested deeper than %d",
			    PERFJSON_DEPTH_MAX));
		if ((error = perfjson_lex(t)) != 0)
			return (error);
		memset(&in, 0, sizeof in);
		if ((error = perfjson_sum(t, &in)) != 0) {
			perfjson_val_free(&in);
			return (error);
		}
		if (t->tok != PJT_OP || t->op != ')') {
			perfjson_val_free(&in);
			return (perfjson_fail(t, t->tokpos, "expected ')' "
			    "for the '(' at column %zu", pos + 1));
		}
		t->depth--;
		strbuf_addc(&v->sb, '(');
		if (in.sb.s != NULL)
			strbuf_adds(&v->sb, in.sb.s);
		strbuf_addc(&v->sb, ')');
		v->degree = in.degree;
		v->isconst = in.isconst;
		perfjson_val_free(&in);
		return (perfjson_lex(t));
	case PJT_END:
		return (perfjson_fail(t, pos, "the expression ends where a "
		    "value was expected"));
	}
	return (perfjson_fail(t, pos, "'%c' where a value was expected",
	    perfjson_show((unsigned char)t->op)));
}

/* Unary minus binds tighter than * and /, as in perf and hvtop. */
static int
perfjson_unary(struct perfjson_tr *t, struct perfjson_val *v)
{
	struct perfjson_val	 in;
	size_t			 pos = t->tokpos;
	int			 error;

	if (t->tok == PJT_OP && t->op == '!')
		return (perfjson_fail(t, pos, "'!' has no equivalent in "
		    "hvtop's formulas"));
	if (t->tok != PJT_OP || t->op != '-')
		return (perfjson_primary(t, v));
	if (++t->depth > PERFJSON_DEPTH_MAX)
		return (perfjson_fail(t, pos, "nested deeper than %d",
		    PERFJSON_DEPTH_MAX));
	if ((error = perfjson_lex(t)) != 0)
		return (error);
	memset(&in, 0, sizeof in);
	if ((error = perfjson_unary(t, &in)) == 0) {
		t->depth--;
		/* "--x" would not read back: "-(-x)". */
		strbuf_adds(&v->sb, in.sb.s[0] == '-' ? "-(" : "-");
		strbuf_adds(&v->sb, in.sb.s);
		if (in.sb.s[0] == '-')
			strbuf_addc(&v->sb, ')');
		v->degree = in.degree;
		v->isconst = in.isconst;
	}
	perfjson_val_free(&in);
	return (error);
}

/* The degree of a product or quotient, or of a sum. */
static int
perfjson_degree(int a, int b, char op)
{
	if (a == PERFJSON_DEG_UNKNOWN || b == PERFJSON_DEG_UNKNOWN)
		return (PERFJSON_DEG_UNKNOWN);
	if (op == '*')
		return (a + b < -50 || a + b > 50 ? PERFJSON_DEG_UNKNOWN :
		    a + b);
	if (op == '/')
		return (a - b < -50 || a - b > 50 ? PERFJSON_DEG_UNKNOWN :
		    a - b);
	return (a == b ? a : PERFJSON_DEG_UNKNOWN);
}

static int
perfjson_refuse_op(struct perfjson_tr *t)
{
	if (t->tok == PJT_OP && strchr("%<>&|^=!", t->op) != NULL)
		return (perfjson_fail(t, t->tokpos, "operator '%c' has no "
		    "equivalent in hvtop's formulas", t->op));
	if (t->tok == PJT_NAME && perfjson_refused(t->name) != NULL)
		return (perfjson_fail(t, t->tokpos, "'%s' has no equivalent "
		    "in hvtop's formulas", t->name));
	return (0);
}

/*
 * A product ('*', '/' over unary terms) or, with sum set, a sum ('+',
 * '-' over products).  A constant added to counts keeps their degree:
 * perf's "1 + EVENT" guards a division, and the ratio stays a ratio.
 */
static int
perfjson_terms(struct perfjson_tr *t, struct perfjson_val *v, int sum)
{
	struct perfjson_val	 r;
	const char		*ops = sum ? "+-" : "*/";
	char			 op;
	int			 error;

	if ((error = sum ? perfjson_terms(t, v, 0) :
	    perfjson_unary(t, v)) != 0)
		return (error);
	while (t->tok == PJT_OP && t->op != '\0' &&
	    strchr(ops, t->op) != NULL) {
		op = t->op;
		if ((error = perfjson_lex(t)) != 0)
			return (error);
		memset(&r, 0, sizeof r);
		if ((error = sum ? perfjson_terms(t, &r, 0) :
		    perfjson_unary(t, &r)) != 0) {
			perfjson_val_free(&r);
			return (error);
		}
		strbuf_addf(&v->sb, " %c %s", op, r.sb.s);
		if (sum && v->isconst)
			v->degree = r.degree;
		else if (!sum || !r.isconst)
			v->degree = perfjson_degree(v->degree, r.degree, op);
		v->isconst = v->isconst && r.isconst;
		perfjson_val_free(&r);
	}
	return (perfjson_refuse_op(t));
}

static int
perfjson_sum(struct perfjson_tr *t, struct perfjson_val *v)
{
	return (perfjson_terms(t, v, 1));
}

int
perfjson_translate(const char *expr, perfjson_ref_fn ref, void *arg,
    struct perfjson_expr_out *out, char **cause)
{
	struct perfjson_tr	 t;
	struct perfjson_val	 v;
	int			 error;

	memset(out, 0, sizeof *out);
	memset(&t, 0, sizeof t);
	memset(&v, 0, sizeof v);
	t.s = expr;
	t.len = strlen(expr);
	lex_init(&t.lx, &perfjson_lang, expr, t.len);
	t.ref = ref;
	t.arg = arg;
	t.out = out;
	if (t.len > PERFJSON_STRING_MAX)
		error = perfjson_fail(&t, 0, "longer than %d bytes",
		    PERFJSON_STRING_MAX);
	else if ((error = perfjson_lex(&t)) == 0 &&
	    (error = perfjson_sum(&t, &v)) == 0 && t.tok != PJT_END)
		error = perfjson_fail(&t, t.tokpos, "unexpected '%.*s'",
		    (int)(t.toklen > 20 ? 20 : t.toklen), expr + t.tokpos);
	free(t.name);
	if (error != 0) {
		perfjson_val_free(&v);
		*cause = t.err != NULL ? t.err : xstrdup("cannot be read");
		return (-HV_EFORMAT);
	}
	out->text = strbuf_detach(&v.sb);
	out->degree = v.degree;
	return (0);
}

int
perfjson_expr(const char *expr, char **out, int *degree, char **cause)
{
	struct perfjson_expr_out	 o;
	int				 error;

	*out = NULL;
	if ((error = perfjson_translate(expr, NULL, NULL, &o, cause)) != 0)
		return (error);
	*out = o.text;
	*degree = o.degree;
	return (0);
}
