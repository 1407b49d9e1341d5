/*
 * Reading perf's metric JSON into a model: one entry per object of the
 * array, each with hvtop's formula text or the reason it has none.
 * Pure: bytes in (jansson parses them), a model out; no I/O.  The JSON
 * library does not say where a value was, so a small scanner finds the
 * line and column of each element of the array for the messages.
 */
#include "config.h"

#include "metrics/perfjson.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/perfjson-int.h"
#include "util/hverr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* What a metric's translation is while the file is read. */
enum perfjson_state {
	PJS_TODO,
	PJS_BUSY,		/* being translated: naming it is a loop */
	PJS_DONE,
	PJS_FAILED,
};

struct perfjson_key {
	const char	*name;
	size_t		 index;
};

struct perfjson_work {
	struct perfjson_model	*m;
	json_t			*root;
	enum perfjson_state	*state;
	char			**raw;		/* before scaling */
	int			*degree;
	int			*time;
	int			*refdepth;	/* metrics named in a row */
	struct perfjson_key	*byname;	/* by name, then index */
	size_t			 nbyname;
	int			 depth;		/* of translations under way */
	size_t			 cur;		/* the metric translated */
	size_t			 pasted;	/* bytes of metrics it names */
	size_t			 total;		/* bytes of formulas so far */
	size_t			*edges;		/* metrics named, in order */
	size_t			 nedges;
	size_t			 capedges;
};

int
perfjson_detect(const void *buf, size_t len)
{
	const unsigned char	*p = buf;
	size_t			 i = 0;

	if (len >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf)
		i = 3;
	while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' ||
	    p[i] == '\r'))
		i++;
	return (i < len && (p[i] == '[' || p[i] == '{'));
}

void
perfjson_model_free(struct perfjson_model *m)
{
	struct perfjson_metric	*pm;
	size_t			 i;

	if (m == NULL)
		return;
	for (i = 0; i < m->nmetrics; i++) {
		pm = &m->metrics[i];
		free(pm->name);
		free(pm->expr);
		free(pm->formula);
		free(pm->unit);
		free(pm->perf_unit);
		free(pm->group);
		free(pm->desc);
		free(pm->why);
	}
	free(m->metrics);
	free(m);
}

/*
 * Where each element of the top-level array starts: line and column from
 * 1, columns counting bytes.  Stores at most max positions.
 */
static void
perfjson_positions(const char *s, size_t len, unsigned long *lines,
    unsigned long *cols, size_t max)
{
	unsigned long	 line = 1, col = 1;
	size_t		 i, n = 0;
	int		 depth = 0, instr = 0, esc = 0, expect = 0;
	char		 c;

	for (i = 0; i < len; i++, col++) {
		c = s[i];
		if (instr) {
			if (esc)
				esc = 0;
			else if (c == '\\')
				esc = 1;
			else if (c == '"')
				instr = 0;
		} else {
			if (depth == 1 && expect && c != ' ' && c != '\t' &&
			    c != '\r' && c != '\n' && c != ']') {
				if (n < max) {
					lines[n] = line;
					cols[n] = col;
				}
				n++;
				expect = 0;
			}
			if (c == '"')
				instr = 1;
			else if (c == '[' || c == '{') {
				if (depth++ == 0 && c == '[')
					expect = 1;
			} else if (c == ']' || c == '}')
				depth--;
			else if (c == ',' && depth == 1)
				expect = 1;
		}
		if (c == '\n') {
			line++;
			col = 0;
		}
	}
}

static int
perfjson_printable(const char *s)
{
	for (; *s != '\0'; s++) {
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			return (0);
	}
	return (1);
}

int
perfjson_scale_unit(const char *s, double *scale, char **unit)
{
	const char	*p;
	char		*end;
	double		 v = 1;

	*scale = 1;
	if (s == NULL)
		s = "";
	p = s;
	while (*p == ' ')
		p++;
	if ((*p >= '0' && *p <= '9') || *p == '.' || *p == '-' || *p == '+') {
		v = strtod(p, &end);
		p += end - p;
	}
	while (*p == ' ')
		p++;
	*unit = xstrdup(p);
	if (!isfinite(v) || !perfjson_printable(p))
		return (-HV_EFORMAT);
	*scale = v;
	return (0);
}

static int
perfjson_cmp_key(const void *a, const void *b)
{
	const struct perfjson_key	*x = a, *y = b;
	int				 r;

	if ((r = strcmp(x->name, y->name)) != 0)
		return (r);
	return (x->index < y->index ? -1 : x->index > y->index);
}

/* The first metric called name, or PERFJSON_METRICS_MAX if none. */
static size_t
perfjson_find(const struct perfjson_work *w, const char *name)
{
	size_t	 a = 0, b = w->nbyname, mid;
	int	 r;

	while (a < b) {
		mid = a + (b - a) / 2;
		r = strcmp(w->byname[mid].name, name);
		if (r < 0)
			a = mid + 1;
		else
			b = mid;
	}
	if (a < w->nbyname && strcmp(w->byname[a].name, name) == 0)
		return (w->byname[a].index);
	return (PERFJSON_METRICS_MAX);
}

static void	perfjson_translate_one(struct perfjson_work *, size_t);

static int
perfjson_ref(void *arg, const char *name, const char **text, int *degree,
    int *time, char **why)
{
	struct perfjson_work	*w = arg;
	size_t			 i, n, cur = w->cur, pasted = w->pasted;

	if ((i = perfjson_find(w, name)) == PERFJSON_METRICS_MAX)
		return (1);
	if (w->state[i] == PJS_BUSY) {
		*why = xasprintf("metric %s names itself through the "
		    "metrics it names", name);
		return (-1);
	}
	if (w->state[i] == PJS_TODO) {
		if (w->depth >= PERFJSON_REF_MAX) {
			*why = xasprintf("metrics name metrics more than %d "
			    "deep at %s", PERFJSON_REF_MAX, name);
			return (-1);
		}
		w->depth++;
		perfjson_translate_one(w, i);
		w->depth--;
		w->cur = cur;
		w->pasted = pasted;
	}
	if (w->state[i] != PJS_DONE) {
		*why = xasprintf("it names metric %s, which is skipped", name);
		return (-1);
	}
	/* The depth of the nesting, whatever order the file has. */
	if (w->refdepth[i] >= PERFJSON_REF_MAX) {
		*why = xasprintf("metrics name metrics more than %d deep at "
		    "%s", PERFJSON_REF_MAX, name);
		return (-1);
	}
	/* Checked before the text is copied: a metric naming a metric
	 * twice, at every level, doubles. */
	n = strlen(w->raw[i]) + 2;
	if (n > PERFJSON_FORMULA_MAX - pasted) {
		*why = xasprintf("with the metrics it names put in, it is "
		    "longer than %d bytes (at %s)", PERFJSON_FORMULA_MAX,
		    name);
		return (-1);
	}
	if (w->total + pasted + n > PERFJSON_TEXT_MAX) {
		*why = xasprintf("the formulas of the file, with the metrics "
		    "they name put in, are longer than %d bytes together "
		    "(at %s)", PERFJSON_TEXT_MAX, name);
		return (-1);
	}
	w->pasted = pasted + n;
	if (w->refdepth[i] + 1 > w->refdepth[cur])
		w->refdepth[cur] = w->refdepth[i] + 1;
	*text = w->raw[i];
	*degree = w->degree[i];
	*time = w->time[i];
	return (0);
}

/* "Hz", "kHz", "MHz", "GHz": already per second. */
static int
perfjson_frequency(const char *u)
{
	return (strcmp(u, "Hz") == 0 || strcmp(u, "kHz") == 0 ||
	    strcmp(u, "KHz") == 0 || strcmp(u, "MHz") == 0 ||
	    strcmp(u, "GHz") == 0);
}

/* Whether text is one parenthesised whole, "(A + B)". */
static int
perfjson_wrapped(const char *text)
{
	size_t	 i;
	int	 depth = 0;

	if (text[0] != '(')
		return (0);
	for (i = 0; text[i] != '\0'; i++) {
		if (text[i] == '(')
			depth++;
		else if (text[i] == ')' && --depth == 0)
			return (text[i + 1] == '\0');
	}
	return (0);
}

/* The whole formula: the expression, its scale, per second. */
static void
perfjson_finish(struct perfjson_metric *pm, const char *raw, int degree,
    int time)
{
	struct strbuf	 sb = { 0 };
	size_t		 n;

	pm->per_second = degree == 1 && !time;
	if (pm->scale == 1 && !pm->per_second)
		strbuf_adds(&sb, raw);
	else if (perfjson_wrapped(raw))
		strbuf_adds(&sb, raw);
	else
		strbuf_addf(&sb, "(%s)", raw);
	/* 15 digits give back the ScaleUnit's decimal number. */
	if (pm->scale != 1)
		strbuf_addf(&sb, " * %.15g", pm->scale);
	if (pm->per_second)
		strbuf_adds(&sb, " / " PERFJSON_SECONDS);
	pm->formula = strbuf_detach(&sb);
	n = strlen(pm->perf_unit);
	if (pm->per_second && !perfjson_frequency(pm->perf_unit) &&
	    !(n >= 2 && strcmp(pm->perf_unit + n - 2, "/s") == 0))
		pm->unit = xasprintf("%s/s", pm->perf_unit);
	else
		pm->unit = xstrdup(pm->perf_unit);
}

static void
perfjson_skip(struct perfjson_metric *pm, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
perfjson_skip(struct perfjson_metric *pm, const char *fmt, ...)
{
	struct strbuf	 sb = { 0 };
	va_list		 ap;

	strbuf_addf(&sb, "line %lu, column %lu: ", pm->line, pm->column);
	if (pm->name != NULL)
		strbuf_addf(&sb, "metric %s: ", pm->name);
	else
		strbuf_addf(&sb, "entry %zu: ", pm->index + 1);
	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	pm->why = strbuf_detach(&sb);
}

static void
perfjson_translate_one(struct perfjson_work *w, size_t i)
{
	struct perfjson_metric		*pm = &w->m->metrics[i];
	struct perfjson_expr_out	 o;
	char				*cause = NULL;

	if (pm->expr == NULL || w->state[i] != PJS_TODO) {
		if (w->state[i] == PJS_TODO)
			w->state[i] = PJS_FAILED;
		return;
	}
	w->state[i] = PJS_BUSY;
	w->cur = i;
	w->pasted = 0;
	if (perfjson_translate(pm->expr, perfjson_ref, w, &o, &cause) != 0) {
		perfjson_skip(pm, "MetricExpr %s", cause);
		free(cause);
		w->state[i] = PJS_FAILED;
		return;
	}
	/* Each formula is bounded; so are all of them together. */
	if ((w->total += strlen(o.text)) > PERFJSON_TEXT_MAX) {
		perfjson_skip(pm, "the formulas of the file, with the "
		    "metrics they name put in, are longer than %d bytes "
		    "together", PERFJSON_TEXT_MAX);
		free(o.text);
		w->state[i] = PJS_FAILED;
		return;
	}
	pm->domain = o.domain;
	if (pm->aggr == PERFJSON_AGGR_NONE)
		pm->aggr = (enum perfjson_aggr)o.aggr;
	w->raw[i] = o.text;
	w->degree[i] = o.degree;
	w->time[i] = o.time;
	w->state[i] = PJS_DONE;
}

/* While the names are collected: each metric named is an edge. */
static int
perfjson_collect(void *arg, const char *name, const char **text,
    int *degree, int *time, char **why)
{
	struct perfjson_work	*w = arg;
	size_t			 j;

	(void)why;
	if ((j = perfjson_find(w, name)) == PERFJSON_METRICS_MAX)
		return (1);
	if (w->nedges == w->capedges) {
		w->capedges = w->capedges * 2 + 64;
		w->edges = xreallocarray(w->edges, w->capedges,
		    sizeof *w->edges);
	}
	w->edges[w->nedges++] = j;
	*text = "1";
	*degree = 0;
	*time = 0;
	return (0);
}

/*
 * Translate the metrics that others name before those that name them,
 * so that no translation recurses (a chain of 32000 in reverse order
 * would overflow the stack) and the depth of the nesting does not depend
 * on the file's order.  The names each metric uses are collected by
 * translating it once with a stand-in for every metric named; then a
 * depth-first walk, on a stack of its own, translates in post-order.  A
 * metric on a loop is left to perfjson_translate_one() from the file's
 * order, which says which metric names itself.
 */
static void
perfjson_order(struct perfjson_work *w)
{
	struct perfjson_expr_out	 o;
	size_t				 n = w->m->nmetrics, i, j, k, sp;
	size_t				*first, *stack, *next;
	unsigned char			*color, *loop;
	char				*cause;

	first = xcalloc(n + 1, sizeof *first);
	for (i = 0; i < n; i++) {
		first[i] = w->nedges;
		if (w->m->metrics[i].why != NULL ||
		    w->m->metrics[i].expr == NULL)
			continue;
		w->cur = i;
		cause = NULL;
		if (perfjson_translate(w->m->metrics[i].expr,
		    perfjson_collect, w, &o, &cause) == 0)
			free(o.text);
		free(cause);
	}
	first[n] = w->nedges;
	color = xcalloc(n + 1, 1);	/* 0 new, 1 on the stack, 2 done */
	loop = xcalloc(n + 1, 1);
	stack = xcalloc(n + 1, sizeof *stack);
	next = xcalloc(n + 1, sizeof *next);
	for (i = 0; i < n; i++) {
		if (color[i] != 0)
			continue;
		sp = 0;
		stack[sp++] = i;
		next[i] = first[i];
		color[i] = 1;
		while (sp > 0) {
			j = stack[sp - 1];
			if (next[j] < first[j + 1]) {
				k = w->edges[next[j]++];
				if (color[k] == 1)
					loop[j] = 1;
				else if (color[k] == 0) {
					color[k] = 1;
					next[k] = first[k];
					stack[sp++] = k;
				}
				continue;
			}
			color[j] = 2;
			sp--;
			if (!loop[j] && w->m->metrics[j].why == NULL)
				perfjson_translate_one(w, j);
		}
	}
	free(first);
	free(color);
	free(loop);
	free(stack);
	free(next);
	free(w->edges);
	w->edges = NULL;
}

/*
 * A string member of o no longer than the bound, or NULL.  A longer one
 * is taken as absent, except that with pm it is why pm is skipped.
 */
static const char *
perfjson_str(json_t *o, const char *key, struct perfjson_metric *pm)
{
	json_t	*v = json_object_get(o, key);

	if (v == NULL || !json_is_string(v))
		return (NULL);
	if (json_string_length(v) > PERFJSON_STRING_MAX) {
		if (pm != NULL)
			perfjson_skip(pm, "%s is %zu bytes, longer than %d",
			    key, json_string_length(v), PERFJSON_STRING_MAX);
		return (NULL);
	}
	return (json_string_value(v));
}

/* Read object o (element i) into pm: its strings, or why not. */
static void
perfjson_read(struct perfjson_metric *pm, json_t *o)
{
	const char	*name, *expr, *su, *s;

	if (!json_is_object(o)) {
		perfjson_skip(pm, "not an object");
		return;
	}
	if ((name = perfjson_str(o, "MetricName", pm)) == NULL) {
		if (pm->why != NULL)
			return;
		if ((s = perfjson_str(o, "EventName", NULL)) != NULL &&
		    perfjson_printable(s))
			perfjson_skip(pm, "event %s, not a metric (no "
			    "MetricName)", s);
		else
			perfjson_skip(pm, "no MetricName string");
		return;
	}
	if (name[0] == '\0' || !perfjson_printable(name) ||
	    strchr(name, ' ') != NULL) {
		perfjson_skip(pm, "MetricName is empty or not printable "
		    "ASCII without spaces");
		return;
	}
	pm->name = xstrdup(name);
	if ((s = perfjson_str(o, "MetricGroup", NULL)) != NULL &&
	    s[0] != '\0' && perfjson_printable(s))
		pm->group = xstrdup(s);
	if (((s = perfjson_str(o, "BriefDescription", NULL)) != NULL ||
	    (s = perfjson_str(o, "PublicDescription", NULL)) != NULL) &&
	    perfjson_printable(s))
		pm->desc = xstrdup(s);
	if ((s = perfjson_str(o, "AggregationMode", NULL)) != NULL)
		pm->aggr = strcmp(s, "PerChip") == 0 ? PERFJSON_AGGR_CHIP :
		    strcmp(s, "PerCore") == 0 ? PERFJSON_AGGR_CORE :
		    PERFJSON_AGGR_NONE;
	su = json_object_get(o, "ScaleUnit") == NULL ? "" :
	    perfjson_str(o, "ScaleUnit", NULL);
	if (su == NULL || perfjson_scale_unit(su, &pm->scale,
	    &pm->perf_unit) != 0) {
		perfjson_skip(pm, "ScaleUnit is not a number and a unit");
		return;
	}
	if ((expr = perfjson_str(o, "MetricExpr", pm)) == NULL) {
		if (pm->why == NULL)
			perfjson_skip(pm, "no MetricExpr string");
		return;
	}
	pm->expr = xstrdup(expr);
}

/* The JSON text as an array of at most PERFJSON_METRICS_MAX metrics. */
static int
perfjson_load(const void *buf, size_t len, json_t **rootp, char **cause)
{
	json_error_t	 jerr;
	json_t		*root;

	root = json_loadb(buf, len, JSON_DECODE_ANY, &jerr);
	if (root == NULL) {
		/* jansson quotes the bytes it stopped at. */
		*cause = xasprintf("line %d, column %d: %s", jerr.line,
		    jerr.column, hv_printable(jerr.text));
		return (-HV_EFORMAT);
	}
	if (!json_is_array(root)) {
		json_decref(root);
		*cause = xstrdup("line 1: perf metrics are a JSON array of "
		    "objects");
		return (-HV_EFORMAT);
	}
	if (json_array_size(root) > PERFJSON_METRICS_MAX) {
		json_decref(root);
		*cause = xasprintf("more than %d metrics",
		    PERFJSON_METRICS_MAX);
		return (-HV_ELIMIT);
	}
	*rootp = root;
	return (0);
}

/* Every metric's fields, with the line and column it starts at. */
static struct perfjson_model *
perfjson_read_all(const void *buf, size_t len, json_t *root)
{
	struct perfjson_model	*m;
	struct perfjson_metric	*pm;
	unsigned long		*lines, *cols;
	size_t			 n, i;

	n = json_array_size(root);
	m = xcalloc(1, sizeof *m);
	m->metrics = xcalloc(n + 1, sizeof *m->metrics);
	m->nmetrics = n;
	lines = xcalloc(n + 1, sizeof *lines);
	cols = xcalloc(n + 1, sizeof *cols);
	perfjson_positions(buf, len, lines, cols, n);
	for (i = 0; i < n; i++) {
		pm = &m->metrics[i];
		pm->index = i;
		pm->line = lines[i];
		pm->column = cols[i];
		pm->scale = 1;
		perfjson_read(pm, json_array_get(root, i));
	}
	free(lines);
	free(cols);
	return (m);
}

/*
 * Translate every metric read, in the order their references need: the
 * first of a name is the one used, a later one is skipped saying where
 * the first is.
 */
static void
perfjson_translate_all(struct perfjson_model *m)
{
	struct perfjson_work	 w;
	struct perfjson_metric	*pm, *first;
	size_t			 n = m->nmetrics, i;

	memset(&w, 0, sizeof w);
	w.m = m;
	w.state = xcalloc(n + 1, sizeof *w.state);
	w.raw = xcalloc(n + 1, sizeof *w.raw);
	w.degree = xcalloc(n + 1, sizeof *w.degree);
	w.time = xcalloc(n + 1, sizeof *w.time);
	w.refdepth = xcalloc(n + 1, sizeof *w.refdepth);
	w.byname = xcalloc(n + 1, sizeof *w.byname);
	for (i = 0; i < n; i++) {
		if (m->metrics[i].name == NULL)
			continue;
		w.byname[w.nbyname].name = m->metrics[i].name;
		w.byname[w.nbyname++].index = i;
	}
	/* By name, then file order: the first of a name is the one used. */
	if (w.nbyname > 1)
		qsort(w.byname, w.nbyname, sizeof *w.byname,
		    perfjson_cmp_key);
	for (i = 0; i < n; i++) {
		pm = &m->metrics[i];
		if (pm->name != NULL && pm->why == NULL &&
		    perfjson_find(&w, pm->name) != i) {
			first = &m->metrics[perfjson_find(&w, pm->name)];
			perfjson_skip(pm, "defined again; the first, at line "
			    "%lu, is used", first->line);
			w.state[i] = PJS_FAILED;
		}
	}
	perfjson_order(&w);
	for (i = 0; i < n; i++) {
		if (m->metrics[i].why == NULL)
			perfjson_translate_one(&w, i);
	}
	for (i = 0; i < n; i++) {
		pm = &m->metrics[i];
		if (w.state[i] == PJS_DONE && pm->why == NULL)
			perfjson_finish(pm, w.raw[i], w.degree[i], w.time[i]);
		else if (pm->why == NULL)
			perfjson_skip(pm, "cannot be translated");
		if (pm->formula != NULL)
			m->nloaded++;
		else
			m->nskipped++;
		free(w.raw[i]);
	}
	free(w.state);
	free(w.raw);
	free(w.degree);
	free(w.time);
	free(w.refdepth);
	free(w.byname);
}

int
perfjson_parse(const void *buf, size_t len, struct perfjson_model **out,
    char **cause)
{
	struct perfjson_model	*m;
	json_t			*root;
	int			 error;

	*out = NULL;
	if ((error = perfjson_load(buf, len, &root, cause)) != 0)
		return (error);
	m = perfjson_read_all(buf, len, root);
	json_decref(root);
	perfjson_translate_all(m);
	*out = m;
	return (0);
}
