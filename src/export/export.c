/*
 * Text, CSV and JSON-lines renderers for engine snapshots.  They append to
 * a string buffer and never write a number for a cell without a value.
 */
#include "config.h"

#include "export/export.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "util/htab.h"
#include "util/numfmt.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct export_column {
	char		*name;		/* owned: engines come and go */
	char		*unit;
	char		*group;		/* perf's MetricGroup, or NULL */
	int		 width;		/* in text output */
};

#define EXPORT_TEXT_WIDTH	10	/* narrowest text column */
#define EXPORT_NONE		((size_t)-1)

/*
 * What the picks leave out of a column: which rows it reads comes from
 * the selection alone, so it is worked out once per engine.
 */
struct export_cover {
	char		*off;		/* rows not read, or NULL: all are */
	char		*on;		/* the others, "" for none */
	char		*note;		/* the total's: export_cover_note() */
};

/* What the export works out once per view of the engine it is bound to. */
struct export_view {
	char			**rownote;	/* "not picked on chip 0" */
	size_t			 nrownote;
	struct export_cover	*cover;		/* per column */
	size_t			 ncover;
	/*
	 * Whether cover holds whatever the sample: a metric that reads a
	 * picked event before one not picked has the status of the first
	 * when that fails, so then each interval works its cover out.
	 */
	int			 fixed;
	char			*covertext;	/* text: its "blank" lines */
	/* Text: its columns' units, and each interval's prefixes. */
	struct export_units	*units;
	int			*scale;
	char			(*unit)[EXPORT_UNIT_MAX];
};

struct export {
	int			 format;
	const struct engine	*e;
	struct export_info	 info;
	struct export_column	*cols;		/* union over the views */
	size_t			 ncols;
	size_t			 capcols;
	struct htab		 hash;		/* (name, unit) -> cols */
	size_t			**map;		/* [view][col] -> cols or NONE */
	struct export_view	*views;		/* [view] */
	size_t			 nmap;		/* views when made */
	int			 begun;
	uint64_t		 seq_base;	/* seq of the engines before */
	uint64_t		 last_seq;	/* the last seq written */
	char			*note;		/* for the next interval */
	char			**said;		/* export_news(): said already */
	size_t			 nsaid;
	double			*vals;		/* a CSV row's values, */
	uint8_t			*has;		/* kept from one interval
						   to the next */
	size_t			 nvals;
};

int
export_format_parse(const char *s)
{
	if (strcmp(s, "text") == 0 || strcmp(s, "txt") == 0)
		return (EXPORT_TEXT);
	if (strcmp(s, "csv") == 0)
		return (EXPORT_CSV);
	if (strcmp(s, "json") == 0 || strcmp(s, "jsonl") == 0)
		return (EXPORT_JSON);
	return (-1);
}

int
export_format_from_path(const char *path)
{
	const char	*dot;

	if ((dot = strrchr(path, '.')) == NULL || strchr(dot, '/') != NULL)
		return (-1);
	return (export_format_parse(dot + 1));
}

/* (name, unit) apart: no name holds a NUL. */
static uint32_t
export_hash(const char *name, const char *unit)
{
	uint32_t	 h;

	h = htab_hash_add_str(HTAB_HASH_INIT, name);
	h = htab_hash_add(h, "", 1);
	return (htab_hash_end(htab_hash_add_str(h, unit)));
}

/*
 * The column of (name, unit), added when new and add is set; EXPORT_NONE
 * when it is neither known nor added.
 */
static size_t
export_column(struct export *x, const char *name, const char *unit,
    const char *group, int add)
{
	const struct htab_slot	*s;
	struct htab_probe	 p;
	struct export_column	*c;

	htab_probe(&x->hash, export_hash(name, unit), HTAB_ALL, &p);
	while ((s = htab_next(&p)) != NULL) {
		c = &x->cols[s->val];
		if (strcmp(c->name, name) == 0 && strcmp(c->unit, unit) == 0)
			return (s->val);
	}
	if (!add)
		return (EXPORT_NONE);
	if (x->ncols == x->capcols) {
		x->capcols = x->capcols == 0 ? 16 : x->capcols * 2;
		x->cols = xreallocarray(x->cols, x->capcols, sizeof *x->cols);
	}
	c = &x->cols[x->ncols];
	c->name = xstrdup(name);
	c->unit = xstrdup(unit);
	c->group = group != NULL ? xstrdup(group) : NULL;
	c->width = strlen(name) < EXPORT_TEXT_WIDTH ? EXPORT_TEXT_WIDTH :
	    (int)strlen(name);
	if (group != NULL && (int)strlen(group) > c->width)
		c->width = (int)strlen(group);
	htab_put(&x->hash, &p, c->name, (uint32_t)x->ncols);
	return (x->ncols++);
}

static void
export_unmap(struct export *x)
{
	struct export_view	*vw;
	size_t			 i, j;

	for (i = 0; i < x->nmap; i++) {
		free(x->map[i]);
		vw = &x->views[i];
		for (j = 0; j < vw->nrownote; j++)
			free(vw->rownote[j]);
		free(vw->rownote);
		for (j = 0; j < vw->ncover; j++) {
			free(vw->cover[j].off);
			free(vw->cover[j].on);
			free(vw->cover[j].note);
		}
		free(vw->cover);
		free(vw->covertext);
		export_units_free(vw->units);
		free(vw->scale);
		free(vw->unit);
	}
	free(x->map);
	free(x->views);
	x->map = NULL;
	x->views = NULL;
	x->nmap = 0;
}

static void	export_bind_cover(struct export *, size_t);
static void	export_bind_units(struct export *, size_t);

/*
 * Map the engine's view columns onto ours.  Once a CSV header is out its
 * columns are the file's schema: a column it lacks is left out, and said.
 */
static void
export_map(struct export *x, const struct engine *e)
{
	const struct engine_view	*v;
	struct strbuf			 left = { 0 };
	size_t				 i, j, n, nleft = 0, *col;
	int				 add;
	const char			*name, *unit, *group;

	export_unmap(x);
	x->e = e;
	add = !(x->format == EXPORT_CSV && x->begun);
	n = engine_nviews(e);
	x->nmap = n;
	x->map = xcalloc(n + 1, sizeof *x->map);
	x->views = xcalloc(n + 1, sizeof *x->views);
	for (i = 0; i < n; i++) {
		v = engine_view(e, i);
		x->map[i] = xcalloc(v->nevents + v->nmetrics + 1,
		    sizeof **x->map);
		for (j = 0; j < v->nevents + v->nmetrics; j++) {
			if (j < v->nevents) {
				name = v->events[j]->name;
				unit = "/s";
				group = NULL;
			} else {
				name = v->metrics[j - v->nevents].name;
				unit = v->metrics[j - v->nevents].unit;
				group = v->metrics[j - v->nevents].group;
			}
			col = &x->map[i][j];
			*col = export_column(x, name, unit, group, add);
			if (*col != EXPORT_NONE)
				continue;
			if (nleft < 8)
				strbuf_addf(&left, "%s%s", nleft > 0 ? ", " :
				    "", name);
			nleft++;
		}
	}
	if (nleft > 0) {
		free(x->note);
		x->note = xasprintf("the selection changed: %zu column%s not "
		    "in this file's CSV header left out (%s%s)", nleft,
		    nleft == 1 ? "" : "s", left.s, nleft > 8 ? ", ..." : "");
	}
	strbuf_free(&left);
	for (i = 0; i < n; i++)
		export_bind_cover(x, i);
	if (x->format == EXPORT_TEXT)
		for (i = 0; i < n; i++)
			export_bind_units(x, i);
}

struct export *
export_new(int format, const struct engine *e, const struct export_info *info)
{
	struct export	*x;

	x = xcalloc(1, sizeof *x);
	x->format = format;
	x->info = *info;
	export_map(x, e);
	return (x);
}

void
export_rebind(struct export *x, const struct engine *e,
    const struct export_info *info)
{
	x->info = *info;
	x->seq_base = x->last_seq;
	export_map(x, e);
}

const char *
export_note(const struct export *x)
{
	return (x->note);
}

void
export_free(struct export *x)
{
	size_t	 i;

	if (x == NULL)
		return;
	/* The engine may be gone already (a catalog reload). */
	export_unmap(x);
	for (i = 0; i < x->ncols; i++) {
		free(x->cols[i].name);
		free(x->cols[i].unit);
		free(x->cols[i].group);
	}
	free(x->cols);
	htab_free(&x->hash);
	free(x->note);
	for (i = 0; i < x->nsaid; i++)
		free(x->said[i]);
	free(x->said);
	free(x->vals);
	free(x->has);
	free(x);
}

void
export_human(double v, int width, struct strbuf *sb)
{
	static const char	 suffix[] = " kMGTPE";
	double			 a = fabs(v), orig = v;
	int			 i = 0;
	char			 buf[32];

	if (!isfinite(v)) {
		strbuf_addf(sb, "%*s", width, isnan(v) ? "nan" : v < 0 ?
		    "-inf" : "inf");
		return;
	}
	while (a >= 9999.5 && i < (int)sizeof suffix - 2) {
		a /= 1000;
		v /= 1000;
		i++;
	}
	/* Past the last suffix: the exponent says it, not 300 digits. */
	if (a >= 9999.5)
		snprintf(buf, sizeof buf, "%.2e", orig);
	else if (i == 0 && a != 0 && a < 0.01)
		snprintf(buf, sizeof buf, "%.2e", v);
	else if (i == 0 && a == floor(a))
		snprintf(buf, sizeof buf, "%.0f", v);
	else if (a < 10)
		snprintf(buf, sizeof buf, "%.2f%c", v, suffix[i]);
	else if (a < 100)
		snprintf(buf, sizeof buf, "%.1f%c", v, suffix[i]);
	else
		snprintf(buf, sizeof buf, "%.0f%c", v, suffix[i]);
	if (buf[strlen(buf) - 1] == ' ')
		buf[strlen(buf) - 1] = '\0';
	strbuf_addf(sb, "%*s", width, buf);
}

/* A CSV field, quoted when it must be. */
static void
export_csv_field(const char *s, struct strbuf *sb)
{
	if (strpbrk(s, ",\"\n") == NULL) {
		strbuf_adds(sb, s);
		return;
	}
	strbuf_addc(sb, '"');
	for (; *s != '\0'; s++) {
		if (*s == '"')
			strbuf_addc(sb, '"');
		strbuf_addc(sb, *s);
	}
	strbuf_addc(sb, '"');
}

void
export_begin(struct export *x, struct strbuf *sb)
{
	size_t	 i;
	char	*h, *hg;

	if (x->begun)
		return;
	x->begun = 1;
	if (x->format != EXPORT_CSV)
		return;
	strbuf_adds(sb, "time,seq,interval_s,domain,index");
	for (i = 0; i < x->ncols; i++) {
		strbuf_addc(sb, ',');
		if (x->cols[i].unit[0] != '\0')
			h = xasprintf("%s [%s]", x->cols[i].name,
			    x->cols[i].unit);
		else
			h = xstrdup(x->cols[i].name);
		/* A perf metric's group: "NAME [UNIT] {GROUP}". */
		if (x->cols[i].group != NULL) {
			hg = xasprintf("%s {%s}", h, x->cols[i].group);
			free(h);
			h = hg;
		}
		export_csv_field(h, sb);
		free(h);
	}
	strbuf_adds(sb, ",reason,error\n");
}

/* The value a CSV or JSON cell carries, or 0 when it has none. */
static int
export_value(const struct engine_cell *c, double *v)
{
	if (c == NULL || c->status != ENG_OK || !isfinite(c->value))
		return (0);
	*v = c->value;
	return (1);
}

/*
 * Why a cell that applies to its row has no value, or that its value is
 * an estimate (allocated); NULL when it has a measured value or does not
 * apply.  Every format says it from here.
 */
static char *
export_reason(const struct export *x, const struct engine_snapshot *s,
    size_t view, size_t row, size_t col)
{
	const struct engine_cell	*c;
	double				 v;

	c = engine_cell(x->e, s, view, row, col);
	if (c == NULL || c->status == ENG_ABSENT)
		return (NULL);
	if (export_value(c, &v) && !c->estimated)
		return (NULL);
	if (c->status == ENG_OK && !isfinite(c->value))
		return (xstrdup("not a finite number"));
	return (engine_explain(x->e, s, view, row, col));
}

/* Indices as "chip 0" or "chips 0-3,6"; "" for none. */
static void
export_indices(const char *term, const unsigned *idx, size_t n,
    struct strbuf *sb)
{
	size_t	 i, j;

	if (n == 0)
		return;
	strbuf_addf(sb, "%s%s ", term, n > 1 ? "s" : "");
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && idx[j] == idx[j - 1] + 1; j++)
			continue;
		if (i > 0)
			strbuf_addc(sb, ',');
		if (j - i == 1)
			strbuf_addf(sb, "%u", idx[i]);
		else
			strbuf_addf(sb, "%u-%u", idx[i], idx[j - 1]);
	}
}

/* The note of a total whose rows off leave out, as export_cover_note(). */
static char *
export_cover_text(const char *off, const char *on)
{
	if (on[0] == '\0')
		return (xasprintf("not picked on %s", off));
	return (xasprintf("total of %s only, not picked on %s", on, off));
}

size_t
export_cover(const struct engine *e, const struct engine_snapshot *s,
    size_t view, size_t col, char **off, char **on)
{
	const struct engine_view	*v = engine_view(e, view);
	const struct engine_cell	*c;
	struct strbuf			 a = { 0 }, b = { 0 };
	unsigned			*in, *out;
	size_t				 r, nin = 0, nout = 0;

	for (r = 0; r < v->nrows; r++) {
		c = engine_cell(e, s, view, r, col);
		if (c != NULL && c->status == ENG_ABSENT)
			nout++;
	}
	if (nout == 0)
		return (0);
	in = xcalloc(v->nrows + 1, sizeof *in);
	out = xcalloc(v->nrows + 1, sizeof *out);
	nout = 0;
	for (r = 0; r < v->nrows; r++) {
		c = engine_cell(e, s, view, r, col);
		if (c != NULL && c->status == ENG_ABSENT)
			out[nout++] = v->indices[r];
		else
			in[nin++] = v->indices[r];
	}
	export_indices(v->term, out, nout, &a);
	export_indices(v->term, in, nin, &b);
	*off = strbuf_detach(&a);
	*on = strbuf_detach(&b);
	free(in);
	free(out);
	return (nout);
}

char *
export_cover_note(const struct engine *e, const struct engine_snapshot *s,
    size_t view, size_t row, size_t col)
{
	const struct engine_view	*v = engine_view(e, view);
	const struct engine_cell	*c;
	char				*off, *on, *note;

	if (v == NULL || (c = engine_cell(e, s, view, row, col)) == NULL)
		return (NULL);
	if (row < v->nrows)
		return (c->status == ENG_ABSENT ? xasprintf("not picked on "
		    "%s %u", v->term, v->indices[row]) : NULL);
	if (export_cover(e, s, view, col, &off, &on) == 0)
		return (NULL);
	note = export_cover_text(off, on);
	free(off);
	free(on);
	return (note);
}

/*
 * Whether row r of a view reads column col as its selection has it: 1 when
 * it does not (its cell is ENG_ABSENT), 0 when it does, -1 when that
 * depends on the sample (a metric whose first operand is picked there and
 * a later one not: while the first fails, the metric has its status).
 */
static int
export_absent(const struct engine_view *v, size_t r, size_t col)
{
	const struct engine_metric	*m;
	size_t				 k, nabsent = 0;

	if (col < v->nevents)
		return (v->counter[r * v->nevents + col] == ENG_NONE);
	m = &v->metrics[col - v->nevents];
	for (k = 0; k < m->nevslots; k++)
		if (v->counter[r * v->nevents + m->evslots[k]] == ENG_NONE)
			nabsent++;
	if (nabsent == 0)
		return (0);
	return (v->counter[r * v->nevents + m->evslots[0]] == ENG_NONE ? 1 :
	    -1);
}

static void	export_text_cover_lines(const struct export *, size_t,
		    char *const *, char *const *, struct strbuf *);

/*
 * What the picks leave out of each column of view i, once per engine:
 * every row's note and, when the selection alone says it, each column's
 * cover and its text.
 */
static void
export_bind_cover(struct export *x, size_t i)
{
	const struct engine_view	*v = engine_view(x->e, i);
	struct export_view		*vw = &x->views[i];
	struct export_cover		*cv;
	struct strbuf			 a = { 0 }, b = { 0 }, t = { 0 };
	unsigned			*in, *out;
	size_t				 r, j, nin, nout, ncol;
	char				**off, **on;
	int				 st;

	ncol = v->nevents + v->nmetrics;
	vw->nrownote = v->nrows;
	vw->rownote = xcalloc(v->nrows + 1, sizeof *vw->rownote);
	for (r = 0; r < v->nrows; r++)
		vw->rownote[r] = xasprintf("not picked on %s %u", v->term,
		    v->indices[r]);
	vw->ncover = ncol;
	vw->cover = xcalloc(ncol + 1, sizeof *vw->cover);
	in = xcalloc(v->nrows + 1, sizeof *in);
	out = xcalloc(v->nrows + 1, sizeof *out);
	vw->fixed = 1;
	for (j = 0; j < ncol && vw->fixed; j++) {
		nin = nout = 0;
		for (r = 0; r < v->nrows; r++) {
			if ((st = export_absent(v, r, j)) < 0)
				break;
			if (st)
				out[nout++] = v->indices[r];
			else
				in[nin++] = v->indices[r];
		}
		if (r < v->nrows) {
			vw->fixed = 0;
			break;
		}
		if (nout == 0)
			continue;
		cv = &vw->cover[j];
		strbuf_reset(&a);
		strbuf_reset(&b);
		export_indices(v->term, out, nout, &a);
		export_indices(v->term, in, nin, &b);
		cv->off = xstrdup(a.len > 0 ? a.s : "");
		cv->on = xstrdup(b.len > 0 ? b.s : "");
		cv->note = export_cover_text(cv->off, cv->on);
	}
	if (vw->fixed && x->format == EXPORT_TEXT) {
		off = xcalloc(ncol + 1, sizeof *off);
		on = xcalloc(ncol + 1, sizeof *on);
		for (j = 0; j < ncol; j++) {
			off[j] = vw->cover[j].off;
			on[j] = vw->cover[j].on;
		}
		export_text_cover_lines(x, i, off, on, &t);
		vw->covertext = xstrdup(t.len > 0 ? t.s : "");
		free(off);
		free(on);
	}
	free(in);
	free(out);
	strbuf_free(&a);
	strbuf_free(&b);
	strbuf_free(&t);
}

/*
 * What the picks say of a cell, for CSV and JSON: a row's cell not picked
 * there, a total that covers only some rows; NULL for none.  *tmp is what
 * the note was allocated as, when it was, for the caller to free.
 */
static const char *
export_picks_note(const struct export *x, const struct engine_snapshot *s,
    size_t view, size_t row, size_t col, char **tmp)
{
	const struct engine_view	*v = engine_view(x->e, view);
	const struct export_view	*vw = &x->views[view];
	const struct engine_cell	*c;

	*tmp = NULL;
	if (row < v->nrows) {
		c = engine_cell(x->e, s, view, row, col);
		return (c != NULL && c->status == ENG_ABSENT ?
		    vw->rownote[row] : NULL);
	}
	if (vw->fixed)
		return (vw->cover[col].note);
	*tmp = export_cover_note(x->e, s, view, row, col);
	return (*tmp);
}

/*
 * export_reason(), and for CSV and JSON what the picks say, into *sb
 * (reset first); returns whether there is anything to say.
 */
static int
export_reason_picks(const struct export *x, const struct engine_snapshot *s,
    size_t view, size_t row, size_t col, struct strbuf *sb)
{
	const char	*note;
	char		*reason, *tmp;
	int		 any;

	strbuf_reset(sb);
	reason = export_reason(x, s, view, row, col);
	note = export_picks_note(x, s, view, row, col, &tmp);
	if (reason != NULL && note != NULL)
		strbuf_addf(sb, "%s (%s)", reason, note);
	else if (reason != NULL)
		strbuf_adds(sb, reason);
	else if (note != NULL)
		strbuf_adds(sb, note);
	any = reason != NULL || note != NULL;
	free(reason);
	free(tmp);
	return (any);
}

/* How text marks a cell beside its reason: "~" for an estimate. */
static const char *
export_text_mark(const struct engine_cell *c)
{
	if (engine_cell_mark(c) == NULL)
		return ("~");
	return (c->status == ENG_NOVALUE ? "?" : "-");
}

#define EXPORT_NEWS_MAX	20	/* lines export_news() writes in a run */

void
export_news(struct export *x, const struct engine_snapshot *s,
    struct strbuf *sb)
{
	const struct engine_view	*v;
	const struct engine_cell	*c;
	size_t				 i, r, j, k;
	char				*reason, *line;

	for (i = 0; i < engine_nviews(x->e); i++) {
		v = engine_view(x->e, i);
		for (j = v->nevents; j < v->nevents + v->nmetrics; j++) {
			for (r = 0; r <= v->nrows; r++) {
				c = engine_cell(x->e, s, i, r, j);
				if (c == NULL || c->status != ENG_NOVALUE)
					continue;
				if (x->nsaid > EXPORT_NEWS_MAX)
					return;
				reason = export_reason(x, s, i, r, j);
				line = xasprintf("%s has no value: %s",
				    v->metrics[j - v->nevents].name, reason);
				free(reason);
				for (k = 0; k < x->nsaid; k++)
					if (strcmp(x->said[k], line) == 0)
						break;
				if (k < x->nsaid) {
					free(line);
					continue;
				}
				x->said = xreallocarray(x->said, x->nsaid + 1,
				    sizeof *x->said);
				x->said[x->nsaid++] = line;
				if (x->nsaid > EXPORT_NEWS_MAX)
					strbuf_adds(sb, "further metrics without "
					    "a value: see the output\n");
				else
					strbuf_addf(sb, "%s\n", line);
			}
		}
	}
}

/* The error of an interval, with what the export has to add to it. */
static void
export_error(const struct export *x, const struct engine_snapshot *s,
    struct strbuf *sb)
{
	strbuf_adds(sb, s->error);
	if (x->note != NULL)
		strbuf_addf(sb, "%s%s", s->error[0] != '\0' ? "; " : "",
		    x->note);
}

static void
export_csv(struct export *x, const struct engine_snapshot *s,
    uint64_t seq, uint64_t wall_ns, struct strbuf *sb)
{
	const struct engine_view	*v;
	const struct engine_cell	*c;
	struct strbuf			 why = { 0 }, err = { 0 };
	struct strbuf			 lead = { 0 }, reason = { 0 };
	double				*vals;
	uint8_t				*has;
	size_t				 i, r, j, ncol, k;
	double				 val;
	char				 num[NUMFMT_G_MAX];

	export_error(x, s, &err);
	if (x->nvals < x->ncols + 1) {
		free(x->vals);
		free(x->has);
		x->nvals = x->ncols + 1;
		x->vals = xcalloc(x->nvals, sizeof *x->vals);
		x->has = xcalloc(x->nvals, 1);
	}
	vals = x->vals;
	has = x->has;
	/* What starts every row, once: the time and the sequence number. */
	strbuf_addtime(&lead, wall_ns, 1);
	strbuf_addc(&lead, ',');
	strbuf_add(&lead, num, numfmt_u64(num, seq));
	strbuf_addc(&lead, ',');
	for (i = 0; i < engine_nviews(x->e); i++) {
		v = engine_view(x->e, i);
		ncol = v->nevents + v->nmetrics;
		/* A view none of whose columns the header has: no rows. */
		for (j = 0; j < ncol && x->map[i][j] == EXPORT_NONE; j++)
			continue;
		if (j == ncol)
			continue;
		for (r = 0; r <= v->nrows; r++) {
			memset(has, 0, x->ncols);
			strbuf_reset(&why);
			for (j = 0; j < ncol; j++) {
				if ((k = x->map[i][j]) == EXPORT_NONE)
					continue;
				c = engine_cell(x->e, s, i, r, j);
				if (export_value(c, &val)) {
					vals[k] = val;
					has[k] = 1;
				}
				if (export_reason_picks(x, s, i, r, j,
				    &reason))
					strbuf_addf(&why, "%s%s: %s",
					    why.len > 0 ? "; " : "",
					    x->cols[k].name, reason.s);
			}
			/* As ",%llu,%.9g,%s,", printf's output. */
			strbuf_add(sb, lead.s, lead.len);
			strbuf_add(sb, num, numfmt_g(num,
			    s->row_interval[i][r], 9));
			strbuf_addc(sb, ',');
			strbuf_adds(sb, v->term);
			strbuf_addc(sb, ',');
			if (r == v->nrows)
				strbuf_adds(sb, "total");
			else
				strbuf_add(sb, num, numfmt_u64(num,
				    v->indices[r]));
			for (j = 0; j < x->ncols; j++) {
				strbuf_addc(sb, ',');
				/* As "%.12g", at a fraction of printf's cost. */
				if (has[j])
					strbuf_add(sb, num, numfmt_g(num,
					    vals[j], 12));
			}
			strbuf_addc(sb, ',');
			export_csv_field(why.len > 0 ? why.s : "", sb);
			strbuf_addc(sb, ',');
			export_csv_field(err.len > 0 ? err.s : "", sb);
			strbuf_addc(sb, '\n');
		}
	}
	strbuf_free(&why);
	strbuf_free(&err);
	strbuf_free(&lead);
	strbuf_free(&reason);
}

/* A JSON string. */
static void
export_json_str(const char *s, struct strbuf *sb)
{
	strbuf_addc(sb, '"');
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			strbuf_addf(sb, "\\%c", *s);
		else if ((unsigned char)*s < 0x20 || *s == 0x7f)
			strbuf_addf(sb, "\\u%04x", (unsigned char)*s);
		else
			strbuf_addc(sb, *s);
	}
	strbuf_addc(sb, '"');
}

void
export_number(double v, struct strbuf *sb)
{
	char	 buf[48], *e;
	int	 p, x;

	if (!isfinite(v)) {
		strbuf_adds(sb, "null");
		return;
	}
	/* The fewest significant digits that read back as the same double. */
	for (p = 1; p < 17; p++) {
		snprintf(buf, sizeof buf, "%.*e", p - 1, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	snprintf(buf, sizeof buf, "%.*e", p - 1, v);
	x = (e = strchr(buf, 'e')) != NULL ? atoi(e + 1) : 0;
	/* Plain decimals where they are short, as most readers print. */
	if (x >= -4 && x < 16)
		snprintf(buf, sizeof buf, "%.*f", p - 1 - x > 0 ? p - 1 - x : 0,
		    v);
	else
		snprintf(buf, sizeof buf, "%.*g", p, v);
	strbuf_adds(sb, buf);
	/* Still a real number to a reader that types them. */
	if (strpbrk(buf, ".eE") == NULL)
		strbuf_adds(sb, ".0");
}

/* The sample's time, sequence, interval, source, calls and error. */
static void
export_json_head(struct export *x, const struct engine_snapshot *s,
    uint64_t seq, uint64_t wall_ns, struct strbuf *sb)
{
	struct strbuf	t = { 0 };

	strbuf_adds(sb, "{\"time\":");
	strbuf_addtime(&t, wall_ns, 1);
	export_json_str(t.s, sb);
	strbuf_addf(sb, ",\"seq\":%llu,\"interval_s\":",
	    (unsigned long long)seq);
	export_number(s->interval, sb);
	strbuf_adds(sb, ",\"source\":");
	export_json_str(x->info.source != NULL ? x->info.source : "", sb);
	strbuf_addf(sb, ",\"calls\":%u,\"naive_calls\":%u,\"error\":",
	    s->calls, s->naive_calls);
	strbuf_reset(&t);
	export_error(x, s, &t);
	if (t.len > 0)
		export_json_str(t.s, sb);
	else
		strbuf_adds(sb, "null");
	strbuf_free(&t);
}

/* The unit of every name the rows carry, once; the caller closes it. */
static void
export_json_units(struct export *x, struct strbuf *sb)
{
	const struct engine_view	*v;
	const struct export_column	*col;
	size_t				 i, j, nv = 0;
	uint8_t				*seen;

	strbuf_adds(sb, ",\"units\":{");
	seen = xcalloc(x->ncols + 1, 1);
	for (i = 0; i < engine_nviews(x->e); i++) {
		v = engine_view(x->e, i);
		for (j = 0; j < v->nevents + v->nmetrics; j++) {
			if (x->map[i][j] == EXPORT_NONE || seen[x->map[i][j]])
				continue;
			seen[x->map[i][j]] = 1;
			col = &x->cols[x->map[i][j]];
			if (nv++ > 0)
				strbuf_addc(sb, ',');
			export_json_str(col->name, sb);
			strbuf_addc(sb, ':');
			export_json_str(col->unit, sb);
		}
	}
	free(seen);
}

/*
 * The group of every name that has one (perf's MetricGroup), once; the
 * member is left out when no column has a group.
 */
static void
export_json_groups(struct export *x, struct strbuf *sb)
{
	const struct engine_view	*v;
	const struct export_column	*col;
	size_t				 i, j, ng = 0;
	uint8_t				*seen;

	seen = xcalloc(x->ncols + 1, 1);
	for (i = 0; i < engine_nviews(x->e); i++) {
		v = engine_view(x->e, i);
		for (j = 0; j < v->nevents + v->nmetrics; j++) {
			if (x->map[i][j] == EXPORT_NONE || seen[x->map[i][j]])
				continue;
			seen[x->map[i][j]] = 1;
			col = &x->cols[x->map[i][j]];
			if (col->group == NULL)
				continue;
			strbuf_adds(sb, ng++ > 0 ? "," : ",\"groups\":{");
			export_json_str(col->name, sb);
			strbuf_addc(sb, ':');
			export_json_str(col->group, sb);
		}
	}
	if (ng > 0)
		strbuf_addc(sb, '}');
	free(seen);
}

/* Row r of view i (r == nrows: the total), its values and reasons. */
static void
export_json_row(struct export *x, const struct engine_snapshot *s,
    size_t i, size_t r, struct strbuf *sb)
{
	const struct engine_view	*v = engine_view(x->e, i);
	const struct engine_cell	*c;
	const struct export_column	*col;
	struct strbuf			 why = { 0 }, reason = { 0 };
	size_t				 j, nv = 0;
	double				 val;

	strbuf_adds(sb, "{\"domain\":");
	export_json_str(v->term, sb);
	if (r == v->nrows)
		strbuf_adds(sb, ",\"index\":null,\"total\":true");
	else
		strbuf_addf(sb, ",\"index\":%u,\"total\":false",
		    v->indices[r]);
	strbuf_adds(sb, ",\"interval_s\":");
	export_number(s->row_interval[i][r], sb);
	strbuf_adds(sb, ",\"values\":{");
	for (j = 0; j < v->nevents + v->nmetrics; j++) {
		c = engine_cell(x->e, s, i, r, j);
		if (c == NULL || c->status == ENG_ABSENT ||
		    x->map[i][j] == EXPORT_NONE)
			continue;
		col = &x->cols[x->map[i][j]];
		if (nv++ > 0)
			strbuf_addc(sb, ',');
		export_json_str(col->name, sb);
		strbuf_addc(sb, ':');
		if (export_value(c, &val))
			export_number(val, sb);
		else
			strbuf_adds(sb, "null");
		if (!export_reason_picks(x, s, i, r, j, &reason))
			continue;
		strbuf_addc(&why, why.len > 0 ? ',' : '{');
		export_json_str(col->name, &why);
		strbuf_addc(&why, ':');
		export_json_str(reason.s, &why);
	}
	strbuf_adds(sb, "},\"reasons\":");
	strbuf_adds(sb, why.len > 0 ? why.s : "{");
	strbuf_adds(sb, "}}");
	strbuf_free(&why);
	strbuf_free(&reason);
}

static void
export_json(struct export *x, const struct engine_snapshot *s,
    uint64_t seq, uint64_t wall_ns, struct strbuf *sb)
{
	const struct engine_view	*v;
	size_t				 i, r, nrow = 0;

	export_json_head(x, s, seq, wall_ns, sb);
	export_json_units(x, sb);
	strbuf_addc(sb, '}');
	export_json_groups(x, sb);
	strbuf_adds(sb, ",\"rows\":[");
	for (i = 0; i < engine_nviews(x->e); i++) {
		v = engine_view(x->e, i);
		for (r = 0; r <= v->nrows; r++) {
			if (nrow++ > 0)
				strbuf_addc(sb, ',');
			export_json_row(x, s, i, r, sb);
		}
	}
	strbuf_adds(sb, "]}\n");
}

/* ---- human units --------------------------------------------------- */

static const char export_prefix[] = "\0kMGTPE";
#define EXPORT_NPREFIX	((int)sizeof export_prefix - 1)

/* A unit that takes a decimal prefix: "", "/s", "B/s", "Hz" ... */
static int
export_base_unit(const char *u)
{
	static const char	*const base[] = { "", "B", "B/s", "b", "b/s",
	    "Hz", "W", "J", "bytes", "bytes/s", "bytes/sec" };
	size_t			 i;

	if (u[0] == '/')
		return (1);
	for (i = 0; i < sizeof base / sizeof base[0]; i++)
		if (strcmp(u, base[i]) == 0)
			return (1);
	return (0);
}

/*
 * A unit that takes a prefix: its power of 1000 ("MB/s": 2) in *e and
 * the unit without it in *base; -1 for a unit that takes none.
 */
static int
export_unit_parse(const char *unit, int *e, const char **base)
{
	const char	*p;

	if (unit[0] != '\0' && unit[1] != '\0' &&
	    (p = strchr(export_prefix + 1, unit[0])) != NULL &&
	    export_base_unit(unit + 1)) {
		*e = (int)(p - export_prefix);
		*base = unit + 1;
		return (0);
	}
	if (!export_base_unit(unit))
		return (-1);
	*e = 0;
	*base = unit;
	return (0);
}

/* Thousands to divide v by, from prefix e on, until it is below limit. */
static int
export_steps(double v, int e, double limit)
{
	int	 s = 0;

	v = fabs(v);
	while (isfinite(v) && v >= limit && e + s < EXPORT_NPREFIX - 1) {
		v /= 1000;
		s++;
	}
	return (s);
}

/* base with the prefix of 1000^p. */
static void
export_unit_name(int p, const char *base, char *out, size_t outlen)
{
	if (p == 0)
		snprintf(out, outlen, "%s", base);
	else if (base[0] == '\0')
		snprintf(out, outlen, "%c", export_prefix[p]);
	else
		snprintf(out, outlen, "%c%s", export_prefix[p], base);
}

int
export_unit_scale(double max, const char *unit, char *out, size_t outlen)
{
	const char	*base;
	int		 e, s;

	if (export_unit_parse(unit, &e, &base) != 0) {
		snprintf(out, outlen, "%s", unit);
		return (-1);
	}
	s = export_steps(max, e, 9999.5);
	export_unit_name(e + s, base, out, outlen);
	return (s);
}

/* A column's unit as export_units_new() parses it. */
struct export_unit {
	const char	*unit;		/* in export_units' own copy */
	const char	*base;		/* without its prefix */
	int		 pre;		/* its prefix's power of 1000, or -1:
					   it takes none */
	size_t		 next;		/* the next of its family, or NONE */
	int		 first;		/* the first of its family */
};

struct export_units {
	size_t			 n;
	struct export_unit	*col;
	char			**copy;		/* the units, owned */
	double			*max;		/* export_view_scales() */
};

struct export_units *
export_units_new(size_t n, const char *const *unit)
{
	struct export_units	*u;
	struct export_unit	*c;
	size_t			 i, f, *last;

	u = xcalloc(1, sizeof *u);
	u->n = n;
	u->col = xcalloc(n + 1, sizeof *u->col);
	u->copy = xcalloc(n + 1, sizeof *u->copy);
	u->max = xcalloc(n + 1, sizeof *u->max);
	last = xcalloc(n + 1, sizeof *last);
	for (i = 0; i < n; i++) {
		c = &u->col[i];
		c->unit = u->copy[i] = xstrdup(unit[i]);
		c->next = EXPORT_NONE;
		if (export_unit_parse(c->unit, &c->pre, &c->base) != 0) {
			c->pre = -1;
			continue;
		}
		/* Its family: the columns before it of the same base. */
		for (f = 0; f < i; f++)
			if (u->col[f].first && u->col[f].pre >= 0 &&
			    strcmp(u->col[f].base, c->base) == 0)
				break;
		if (f == i) {
			c->first = 1;
			last[i] = i;
			continue;
		}
		u->col[last[f]].next = i;
		last[f] = i;
	}
	free(last);
	return (u);
}

void
export_units_free(struct export_units *u)
{
	size_t	 i;

	if (u == NULL)
		return;
	for (i = 0; i < u->n; i++)
		free(u->copy[i]);
	free(u->copy);
	free(u->col);
	free(u->max);
	free(u);
}

void
export_units_scale(const struct export_units *u, const double *max,
    int *scale, char (*out)[EXPORT_UNIT_MAX])
{
	const struct export_unit	*c;
	size_t				 i, k;
	int				 top, j;
	double				 m;

	/* Each column's own prefix. */
	for (i = 0; i < u->n; i++) {
		c = &u->col[i];
		if (c->pre < 0) {
			snprintf(out[i], EXPORT_UNIT_MAX, "%s", c->unit);
			scale[i] = -1;
			continue;
		}
		scale[i] = export_steps(max[i], c->pre, 9999.5);
		export_unit_name(c->pre + scale[i], c->base, out[i],
		    EXPORT_UNIT_MAX);
	}
	/* Then the largest of each family, where it reads 1 or more. */
	for (i = 0; i < u->n; i++) {
		if (!u->col[i].first)
			continue;
		top = 0;
		for (k = i; k != EXPORT_NONE; k = u->col[k].next)
			if (u->col[k].pre + scale[k] > top)
				top = u->col[k].pre + scale[k];
		for (k = i; k != EXPORT_NONE; k = u->col[k].next) {
			c = &u->col[k];
			if (top == c->pre + scale[k] || !isfinite(max[k]))
				continue;
			m = fabs(max[k]);
			for (j = c->pre; j < top; j++)
				m /= 1000;
			if (max[k] != 0 && m < 1)
				continue;
			scale[k] = top - c->pre;
			export_unit_name(top, c->base, out[k],
			    EXPORT_UNIT_MAX);
		}
	}
}

void
export_unit_scales(size_t n, const char *const *unit, const double *max,
    int *scale, char (*out)[EXPORT_UNIT_MAX])
{
	struct export_units	*u;

	u = export_units_new(n, unit);
	export_units_scale(u, max, scale, out);
	export_units_free(u);
}

void
export_value_unit(double v, const char *unit, const char *sep,
    struct strbuf *sb)
{
	const char	*base;
	char		 name[EXPORT_UNIT_MAX];
	int		 e, s;

	if (!isfinite(v) || export_unit_parse(unit, &e, &base) != 0) {
		export_human(v, 0, sb);
		if (unit[0] != '\0')
			strbuf_addf(sb, "%s%s", sep, unit);
		return;
	}
	s = export_steps(v, e, 999.5);
	export_unit_name(e + s, base, name, sizeof name);
	export_scaled(v, s, 0, sb);
	if (name[0] != '\0')
		strbuf_addf(sb, "%s%s", sep, name);
}

void
export_scaled(double v, int scale, int width, struct strbuf *sb)
{
	double	 a;
	char	 buf[32];
	int	 i;

	if (scale < 0) {
		export_human(v, width, sb);
		return;
	}
	for (i = 0; i < scale; i++)
		v /= 1000;
	a = fabs(v);
	if (scale == 0 && a == floor(a))
		snprintf(buf, sizeof buf, "%.0f", v);
	else if (scale == 0 && a != 0 && a < 0.01)
		snprintf(buf, sizeof buf, "%.2e", v);
	else if (a < 10)
		snprintf(buf, sizeof buf, "%.2f", v);
	else if (a < 100)
		snprintf(buf, sizeof buf, "%.1f", v);
	else
		snprintf(buf, sizeof buf, "%.0f", v);
	strbuf_addf(sb, "%*s", width, buf);
}

void
export_cell_scaled(const struct engine_cell *c, int scale, int width,
    struct strbuf *sb)
{
	struct strbuf	 v = { 0 };

	if (!c->estimated) {
		export_scaled(c->value, scale, width, sb);
		return;
	}
	strbuf_addc(&v, '~');
	export_scaled(c->value, scale, 0, &v);
	strbuf_addf(sb, "%*s", width, v.s);
	strbuf_free(&v);
}

void
export_view_scales(const struct engine *e, const struct engine_snapshot *s,
    size_t view, struct export_units *u, int *scale,
    char (*out)[EXPORT_UNIT_MAX])
{
	const struct engine_view	*v = engine_view(e, view);
	const struct engine_cell	*c;
	size_t				 r, j;
	double				*max = u->max;

	for (j = 0; j < u->n; j++) {
		max[j] = 0;
		for (r = 0; s != NULL && r <= v->nrows; r++) {
			c = engine_cell(e, s, view, r, j);
			if (c != NULL && c->status == ENG_OK &&
			    isfinite(c->value) && fabs(c->value) > max[j])
				max[j] = fabs(c->value);
		}
	}
	export_units_scale(u, max, scale, out);
}

/* Text: view i's units, parsed once per engine. */
static void
export_bind_units(struct export *x, size_t i)
{
	const struct engine_view	*v = engine_view(x->e, i);
	struct export_view		*vw = &x->views[i];
	const char			**units;
	size_t				 j, ncol;

	ncol = v->nevents + v->nmetrics;
	units = xcalloc(ncol + 1, sizeof *units);
	for (j = 0; j < ncol; j++)
		units[j] = x->cols[x->map[i][j]].unit;
	vw->units = export_units_new(ncol, units);
	vw->scale = xcalloc(ncol + 1, sizeof *vw->scale);
	vw->unit = xcalloc(ncol + 1, sizeof *vw->unit);
	free(units);
}

/*
 * Why cells of a view have no value, or have an estimate: one line per
 * column and reason.
 */
static void
export_text_reasons(const struct export *x, const struct engine_snapshot *s,
    size_t view, struct strbuf *sb)
{
	const struct engine_view	*v = engine_view(x->e, view);
	const struct engine_cell	*c;
	char				*reason, **said = NULL;
	size_t				 r, j, k, nsaid;

	for (j = 0; j < v->nevents + v->nmetrics; j++) {
		nsaid = 0;
		for (r = 0; r <= v->nrows; r++) {
			if ((reason = export_reason(x, s, view, r, j)) == NULL)
				continue;
			for (k = 0; k < nsaid; k++)
				if (strcmp(said[k], reason) == 0)
					break;
			if (k < nsaid || nsaid == 8) {
				free(reason);
				continue;
			}
			c = engine_cell(x->e, s, view, r, j);
			strbuf_addf(sb, "%-6s %s: %s\n", export_text_mark(c),
			    x->cols[x->map[view][j]].name, reason);
			said = xreallocarray(said, nsaid + 1, sizeof *said);
			said[nsaid++] = reason;
		}
		for (k = 0; k < nsaid; k++)
			free(said[k]);
	}
	free(said);
}

#define EXPORT_COVER_NAMES	16	/* columns a cover line names */

/*
 * What blank cells mean: per set of rows the picks leave out, one line
 * that names them, what the total covers and the columns, so that a
 * total of some rows is never read as one of all.  off[j] and on[j] are
 * column j's, as export_cover() gives them (off[j] NULL: none).
 */
static void
export_text_cover_lines(const struct export *x, size_t view,
    char *const *off, char *const *on, struct strbuf *sb)
{
	const struct engine_view	*v = engine_view(x->e, view);
	size_t				 ncol = v->nevents + v->nmetrics;
	size_t				 j, k, n, *group;

	group = xcalloc(ncol + 1, sizeof *group);
	for (j = 0; j < ncol; j++) {
		group[j] = EXPORT_NONE;
		if (off[j] == NULL)
			continue;
		for (k = 0; k < j; k++)
			if (off[k] != NULL && strcmp(off[k], off[j]) == 0 &&
			    strcmp(on[k], on[j]) == 0)
				break;
		group[j] = k < j ? group[k] : j;
	}
	for (j = 0; j < ncol; j++) {
		if (group[j] != j)
			continue;
		strbuf_addf(sb, "%-6s not picked on %s", "blank", off[j]);
		if (on[j][0] != '\0')
			strbuf_addf(sb, ", the total is of %s only", on[j]);
		else
			strbuf_adds(sb, ", nor is the total");
		for (k = j, n = 0; k < ncol; k++) {
			if (group[k] != j)
				continue;
			if (n < EXPORT_COVER_NAMES)
				strbuf_addf(sb, "%s%s", n > 0 ? ", " : ": ",
				    x->cols[x->map[view][k]].name);
			n++;
		}
		if (n > EXPORT_COVER_NAMES)
			strbuf_addf(sb, " and %zu more",
			    n - EXPORT_COVER_NAMES);
		strbuf_addc(sb, '\n');
	}
	free(group);
}

/* export_text_cover_lines() for view i in snapshot s. */
static void
export_text_cover(const struct export *x, const struct engine_snapshot *s,
    size_t view, struct strbuf *sb)
{
	const struct engine_view	*v = engine_view(x->e, view);
	size_t				 ncol = v->nevents + v->nmetrics;
	size_t				 j;
	char				**off, **on;

	if (x->views[view].fixed) {
		strbuf_adds(sb, x->views[view].covertext);
		return;
	}
	off = xcalloc(ncol + 1, sizeof *off);
	on = xcalloc(ncol + 1, sizeof *on);
	for (j = 0; j < ncol; j++)
		(void)export_cover(x->e, s, view, j, &off[j], &on[j]);
	export_text_cover_lines(x, view, off, on, sb);
	for (j = 0; j < ncol; j++) {
		free(off[j]);
		free(on[j]);
	}
	free(off);
	free(on);
}

/* Under the units, perf's MetricGroup of each column, when one has it. */
static void
export_text_groups(const struct export *x, size_t i, size_t ncol,
    struct strbuf *sb)
{
	const struct export_column	*col;
	size_t				 j;

	for (j = 0; j < ncol; j++) {
		if (x->cols[x->map[i][j]].group != NULL)
			break;
	}
	if (j == ncol)
		return;
	strbuf_addf(sb, "%-6s", "group");
	for (j = 0; j < ncol; j++) {
		col = &x->cols[x->map[i][j]];
		strbuf_addf(sb, " %*s", col->width, col->group != NULL ?
		    col->group : "");
	}
	strbuf_addc(sb, '\n');
}

static void
export_text(struct export *x, const struct engine_snapshot *s,
    uint64_t wall_ns, struct strbuf *sb)
{
	const struct engine_view	*v;
	const struct engine_cell	*c;
	const struct export_column	*col;
	struct export_view		*vw;
	struct strbuf			 err = { 0 };
	size_t				 i, r, j, ncol;
	int				*scale;
	char				(*unit)[EXPORT_UNIT_MAX];

	strbuf_adds(sb, "hvtop ");
	strbuf_addtime(sb, wall_ns, 1);
	strbuf_addf(sb, "  %s  %s  interval %.3f s  %s %u (naive %u)\n",
	    x->info.source, x->info.catalog, s->interval,
	    x->info.calls != NULL ? x->info.calls : "hcalls", s->calls,
	    s->naive_calls);
	export_error(x, s, &err);
	if (err.len > 0)
		strbuf_addf(sb, "error: %s\n", err.s);
	strbuf_free(&err);
	for (i = 0; i < engine_nviews(x->e); i++) {
		v = engine_view(x->e, i);
		ncol = v->nevents + v->nmetrics;
		vw = &x->views[i];
		scale = vw->scale;
		unit = vw->unit;
		strbuf_addf(sb, "\n%-6s", v->term);
		for (j = 0; j < ncol; j++) {
			col = &x->cols[x->map[i][j]];
			strbuf_addf(sb, " %*s", col->width, col->name);
		}
		/* One prefix per column, so its rows compare by eye, and
		 * per unit family, so its columns do. */
		export_view_scales(x->e, s, i, vw->units, scale, unit);
		strbuf_addf(sb, "\n%-6s", "");
		for (j = 0; j < ncol; j++)
			strbuf_addf(sb, " %*s", x->cols[x->map[i][j]].width,
			    unit[j]);
		strbuf_addc(sb, '\n');
		export_text_groups(x, i, ncol, sb);
		for (r = 0; r <= v->nrows; r++) {
			if (r == v->nrows)
				strbuf_addf(sb, "%-6s", "total");
			else
				strbuf_addf(sb, "%-6u", v->indices[r]);
			for (j = 0; j < ncol; j++) {
				col = &x->cols[x->map[i][j]];
				c = engine_cell(x->e, s, i, r, j);
				strbuf_addc(sb, ' ');
				/* Not picked on this index: not a failure. */
				if (c->status == ENG_ABSENT)
					strbuf_addf(sb, "%*s", col->width, "");
				else if (engine_cell_mark(c) != NULL)
					strbuf_addf(sb, "%*s", col->width,
					    engine_cell_mark(c));
				else
					export_cell_scaled(c, scale[j],
					    col->width, sb);
			}
			/* Blank cells at the end leave no blanks behind. */
			while (sb->len > 0 && sb->s[sb->len - 1] == ' ')
				sb->s[--sb->len] = '\0';
			strbuf_addc(sb, '\n');
		}
		export_text_reasons(x, s, i, sb);
		export_text_cover(x, s, i, sb);
	}
	strbuf_addc(sb, '\n');
}

void
export_snapshot(struct export *x, const struct engine_snapshot *s,
    uint64_t wall_ns, struct strbuf *sb)
{
	uint64_t	 seq;

	export_begin(x, sb);
	/* One count over the run, across engines. */
	seq = x->seq_base + s->seq;
	x->last_seq = seq;
	switch (x->format) {
	case EXPORT_CSV:
		export_csv(x, s, seq, wall_ns, sb);
		break;
	case EXPORT_JSON:
		export_json(x, s, seq, wall_ns, sb);
		break;
	default:
		export_text(x, s, wall_ns, sb);
		break;
	}
	free(x->note);
	x->note = NULL;
}
