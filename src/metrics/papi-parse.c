/*
 * Reading a PAPI event-definition file into the model of papi.h.
 *
 * Two passes.  The first (this file) splits each line into fields, checks
 * its command, derived type, base list and formula (papi-formula.c), and
 * keeps the line only when all of that is right, so one bad line costs
 * that line alone.  The second (papi-names.c) needs every name of the
 * file: it chooses the identifiers the expressions use (they must not
 * collide with any other name), writes the expression texts, indexes
 * events by name and flags redefinitions.
 *
 * Pure: no I/O, no printing.  The input is untrusted: nothing is read
 * outside [buf, buf + len), strings are copied with their lengths, and
 * every size that could grow with the input is bounded (PAPI_*_MAX), so a
 * hostile file costs memory in proportion to its size.
 *
 * Files may hold hundreds of thousands of events, so nothing here costs
 * more than a constant per name: strings and base lists are carved from
 * the model's arena, and an event is allocated once (papi_parse_reserve()).
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
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Room in an expression for one identifier beyond its name's length. */
#define PAPI_IDENT_SLACK	24

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
const char *
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

void
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
		while (i < n && papi_isblank((unsigned char)p[i]))
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
			while (i < n && papi_isblank((unsigned char)p[i]))
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
			    papi_isblank((unsigned char)p[e - 1]); e--)
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
			    papi_isdigit((unsigned char)t->p[i]); i++)
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
		if (papi_formula_check(c, l->formula,
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
		while (p < end && papi_isblank((unsigned char)*p))
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
	for (i = 0; i < n && papi_isblank((unsigned char)p[i]); i++)
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
			    (i > 0 && (papi_isdigit(
			    (unsigned char)cmd->p[i]) || cmd->p[i] == '_'))))
				break;
		}
		if (cmd->len != 0 && i == cmd->len && cmd->quote == 0 &&
		    c->nf == 2)
			papi_parse_header(c, cmd, n + 1);
		else if (cmd->len > 4 && papi_lower((unsigned char)
		    cmd->p[0]) == 'c' && papi_lower((unsigned char)
		    cmd->p[1]) == 'p' && papi_lower((unsigned char)
		    cmd->p[2]) == 'u' && papi_isblank((unsigned char)
		    cmd->p[3]))
			PAPI_ERR(c, cmd->col + 3, "a comma must separate CPU "
			    "from the PMU name");
		else
			PAPI_ERR(c, cmd->col, "unknown command '%s' (CPU, "
			    "PRESET or EVENT expected)", papi_parse_quote(q,
			    sizeof q, cmd->p, cmd->len));
	}
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

/* The second pass, then the diagnostics in order. */
static void
papi_parse_finish(struct papi_ctx *c)
{
	papi_names_resolve(c);
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
