/*
 * Text, CSV and JSON-lines renderers for engine snapshots.  They append to
 * a string buffer and never write a number for a cell without a value.
 * This file binds an export to an engine (its columns, what the picks
 * leave out) and says why a cell has no value; export-text.c,
 * export-csv.c and export-json.c write the formats.
 */
#include "config.h"

#include "export/export.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "export/export-int.h"
#include "util/htab.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

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
	/* 200,000 metrics: one table of the size, not its growth. */
	for (i = 0, j = 0; add && i < n; i++)
		j += engine_view(e, i)->nevents + engine_view(e, i)->nmetrics;
	htab_reserve(&x->hash, j);
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
			export_text_bind(x, i);
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
export_begin(struct export *x, struct strbuf *sb)
{
	if (x->begun)
		return;
	x->begun = 1;
	if (x->format == EXPORT_CSV)
		export_csv_header(x, sb);
}

/* The value a CSV or JSON cell carries, or 0 when it has none. */
int
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
char *
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
	size_t	 i, j, k;
	unsigned *vcpu;

	if (n == 0)
		return;
	/* Virtual processors of partitions: "lpar 2 vcpus 0-3". */
	if (strcmp(term, "lpar_vcpu") == 0) {
		vcpu = xcalloc(n, sizeof *vcpu);
		for (k = 0; k < n; k++)
			vcpu[k] = ENG_ROW_VCPU(idx[k]);
		for (k = 0; k < n; k = j) {
			for (j = k + 1; j < n && ENG_ROW_LPAR(idx[j]) ==
			    ENG_ROW_LPAR(idx[k]); j++)
				continue;
			strbuf_addf(sb, "%slpar %u ", k > 0 ? ", " : "",
			    ENG_ROW_LPAR(idx[k]));
			export_indices("vcpu", vcpu + k, j - k, sb);
		}
		free(vcpu);
		return;
	}
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

/* "not picked on chip 0", "... on lpar 2 vcpu 1" (allocated). */
static char *
export_row_note(const struct engine_view *v, size_t r)
{
	struct strbuf	 sb = { 0 };

	strbuf_adds(&sb, "not picked on ");
	export_indices(v->term, &v->indices[r], 1, &sb);
	return (strbuf_detach(&sb));
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
		return (c->status == ENG_ABSENT ? export_row_note(v, row) :
		    NULL);
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
		vw->rownote[r] = export_row_note(v, r);
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
int
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
void
export_error(const struct export *x, const struct engine_snapshot *s,
    struct strbuf *sb)
{
	strbuf_adds(sb, s->error);
	if (x->note != NULL)
		strbuf_addf(sb, "%s%s", s->error[0] != '\0' ? "; " : "",
		    x->note);
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

void
export_with_summary(struct export *x)
{
	x->with_summary = 1;
}

void
export_summary(struct export *x, const struct engine_snapshot *s,
    uint64_t wall_ns, struct strbuf *sb)
{
	x->summary = 1;
	export_snapshot(x, s, wall_ns, sb);
	x->summary = 0;
}
