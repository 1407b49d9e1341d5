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

#include <jansson.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct export_column {
	const char	*name;
	const char	*unit;
	int		 width;		/* in text output */
};

#define EXPORT_TEXT_WIDTH	10	/* narrowest text column */

struct export {
	int			 format;
	const struct engine	*e;
	struct export_info	 info;
	struct export_column	*cols;		/* union over the views */
	size_t			 ncols;
	size_t			**map;		/* [view][col] -> cols index */
	size_t			 nmap;		/* views when made */
	int			 begun;
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

static size_t
export_column(struct export *x, const char *name, const char *unit)
{
	size_t	 i;

	for (i = 0; i < x->ncols; i++) {
		if (strcmp(x->cols[i].name, name) == 0 &&
		    strcmp(x->cols[i].unit, unit) == 0)
			return (i);
	}
	x->cols = xreallocarray(x->cols, x->ncols + 1, sizeof *x->cols);
	x->cols[x->ncols].name = name;
	x->cols[x->ncols].unit = unit;
	x->cols[x->ncols].width = strlen(name) < EXPORT_TEXT_WIDTH ?
	    EXPORT_TEXT_WIDTH : (int)strlen(name);
	return (x->ncols++);
}

struct export *
export_new(int format, const struct engine *e, const struct export_info *info)
{
	const struct engine_view	*v;
	struct export			*x;
	size_t				 i, j, n;

	x = xcalloc(1, sizeof *x);
	x->format = format;
	x->e = e;
	x->info = *info;
	n = engine_nviews(e);
	x->nmap = n;
	x->map = xcalloc(n + 1, sizeof *x->map);
	for (i = 0; i < n; i++) {
		v = engine_view(e, i);
		x->map[i] = xcalloc(v->nevents + v->nmetrics + 1,
		    sizeof **x->map);
		for (j = 0; j < v->nevents; j++)
			x->map[i][j] = export_column(x, v->events[j]->name,
			    "/s");
		for (j = 0; j < v->nmetrics; j++)
			x->map[i][v->nevents + j] = export_column(x,
			    v->metrics[j].name, v->metrics[j].unit);
	}
	return (x);
}

void
export_free(struct export *x)
{
	size_t	 i;

	if (x == NULL)
		return;
	/* The engine may be gone already (a catalog reload). */
	for (i = 0; i < x->nmap; i++)
		free(x->map[i]);
	free(x->map);
	free(x->cols);
	free(x);
}

void
export_human(double v, int width, struct strbuf *sb)
{
	static const char	 suffix[] = " kMGTPE";
	double			 a = fabs(v);
	int			 i = 0;
	char			 buf[32];

	while (a >= 9999.5 && i < (int)sizeof suffix - 2) {
		a /= 1000;
		v /= 1000;
		i++;
	}
	if (i == 0 && a != 0 && a < 0.01)
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
	char	*h;

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
		export_csv_field(h, sb);
		free(h);
	}
	strbuf_adds(sb, ",error\n");
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

static void
export_csv(struct export *x, const struct engine_snapshot *s,
    uint64_t wall_ns, struct strbuf *sb)
{
	const struct engine_view	*v;
	const struct engine_cell	*c;
	double				*vals;
	uint8_t				*has;
	size_t				 i, r, j, ncol;
	double				 val;

	vals = xcalloc(x->ncols + 1, sizeof *vals);
	has = xcalloc(x->ncols + 1, 1);
	for (i = 0; i < engine_nviews(x->e); i++) {
		v = engine_view(x->e, i);
		ncol = v->nevents + v->nmetrics;
		for (r = 0; r <= v->nrows; r++) {
			memset(has, 0, x->ncols);
			for (j = 0; j < ncol; j++) {
				c = engine_cell(x->e, s, i, r, j);
				if (export_value(c, &val)) {
					vals[x->map[i][j]] = val;
					has[x->map[i][j]] = 1;
				}
			}
			strbuf_addtime(sb, wall_ns, 1);
			strbuf_addf(sb, ",%llu,%.9g,%s,",
			    (unsigned long long)s->seq,
			    s->row_interval[i][r], v->term);
			if (r == v->nrows)
				strbuf_adds(sb, "total");
			else
				strbuf_addf(sb, "%u", v->indices[r]);
			for (j = 0; j < x->ncols; j++) {
				strbuf_addc(sb, ',');
				if (has[j])
					strbuf_addf(sb, "%.12g", vals[j]);
			}
			strbuf_addc(sb, ',');
			export_csv_field(s->error, sb);
			strbuf_addc(sb, '\n');
		}
	}
	free(vals);
	free(has);
}

static void
export_json(struct export *x, const struct engine_snapshot *s,
    uint64_t wall_ns, struct strbuf *sb)
{
	const struct engine_view	*v;
	const struct engine_cell	*c;
	json_t				*o, *rows, *row, *vals;
	struct strbuf			 t = { 0 };
	size_t				 i, r, j, ncol;
	double				 val;
	char				*out;

	strbuf_addtime(&t, wall_ns, 1);
	o = json_object();
	json_object_set_new(o, "time", json_string(t.s));
	strbuf_free(&t);
	json_object_set_new(o, "seq", json_integer((json_int_t)s->seq));
	json_object_set_new(o, "interval_s", json_real(s->interval));
	json_object_set_new(o, "source", json_string(x->info.source));
	json_object_set_new(o, "calls", json_integer(s->calls));
	json_object_set_new(o, "naive_calls", json_integer(s->naive_calls));
	json_object_set_new(o, "error", s->error[0] != '\0' ?
	    json_string(s->error) : json_null());
	rows = json_array();
	for (i = 0; i < engine_nviews(x->e); i++) {
		v = engine_view(x->e, i);
		ncol = v->nevents + v->nmetrics;
		for (r = 0; r <= v->nrows; r++) {
			row = json_object();
			json_object_set_new(row, "domain",
			    json_string(v->term));
			json_object_set_new(row, "index", r == v->nrows ?
			    json_string("total") :
			    json_integer(v->indices[r]));
			json_object_set_new(row, "interval_s",
			    json_real(s->row_interval[i][r]));
			vals = json_object();
			for (j = 0; j < ncol; j++) {
				c = engine_cell(x->e, s, i, r, j);
				if (c->status == ENG_ABSENT)
					continue;
				json_object_set_new(vals,
				    x->cols[x->map[i][j]].name,
				    export_value(c, &val) ? json_real(val) :
				    json_null());
			}
			json_object_set_new(row, "values", vals);
			json_array_append_new(rows, row);
		}
	}
	json_object_set_new(o, "rows", rows);
	out = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
	if (out != NULL) {
		strbuf_adds(sb, out);
		strbuf_addc(sb, '\n');
		free(out);
	}
	json_decref(o);
}

static void
export_text(struct export *x, const struct engine_snapshot *s,
    uint64_t wall_ns, struct strbuf *sb)
{
	const struct engine_view	*v;
	const struct engine_cell	*c;
	const struct export_column	*col;
	size_t				 i, r, j, ncol;
	int				 w;

	strbuf_adds(sb, "hvtop ");
	strbuf_addtime(sb, wall_ns, 1);
	strbuf_addf(sb, "  %s  %s  interval %.3f s  %s %u (naive %u)\n",
	    x->info.source, x->info.catalog, s->interval,
	    x->info.calls != NULL ? x->info.calls : "hcalls", s->calls,
	    s->naive_calls);
	if (s->error[0] != '\0')
		strbuf_addf(sb, "error: %s\n", s->error);
	for (i = 0; i < engine_nviews(x->e); i++) {
		v = engine_view(x->e, i);
		ncol = v->nevents + v->nmetrics;
		strbuf_addf(sb, "\n%-6s", v->term);
		for (j = 0; j < ncol; j++) {
			col = &x->cols[x->map[i][j]];
			strbuf_addf(sb, " %*s", col->width, col->name);
		}
		strbuf_addf(sb, "\n%-6s", "");
		for (j = 0; j < ncol; j++) {
			col = &x->cols[x->map[i][j]];
			strbuf_addf(sb, " %*s", col->width, col->unit);
		}
		strbuf_addc(sb, '\n');
		for (r = 0; r <= v->nrows; r++) {
			if (r == v->nrows)
				strbuf_addf(sb, "%-6s", "total");
			else
				strbuf_addf(sb, "%-6u", v->indices[r]);
			for (j = 0; j < ncol; j++) {
				w = x->cols[x->map[i][j]].width;
				c = engine_cell(x->e, s, i, r, j);
				strbuf_addc(sb, ' ');
				if (engine_cell_mark(c) == NULL)
					export_human(c->value, w, sb);
				else
					strbuf_addf(sb, "%*s", w,
					    engine_cell_mark(c));
			}
			strbuf_addc(sb, '\n');
		}
	}
	strbuf_addc(sb, '\n');
}

void
export_snapshot(struct export *x, const struct engine_snapshot *s,
    uint64_t wall_ns, struct strbuf *sb)
{
	export_begin(x, sb);
	switch (x->format) {
	case EXPORT_CSV:
		export_csv(x, s, wall_ns, sb);
		break;
	case EXPORT_JSON:
		export_json(x, s, wall_ns, sb);
		break;
	default:
		export_text(x, s, wall_ns, sb);
		break;
	}
}
