/*
 * Text: a table per view each interval, its columns scaled to human
 * units, then why cells have no value and what the picks leave out.
 * Pure: it formats into memory.
 */
#include "config.h"

#include "export/export.h"

#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "export/export-int.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* Text: view i's units, parsed once per engine. */
void
export_text_bind(struct export *x, size_t i)
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

/* How text marks a cell beside its reason: "~" for an estimate. */
static const char *
export_text_mark(const struct engine_cell *c)
{
	if (engine_cell_mark(c) == NULL)
		return ("~");
	return (c->status == ENG_NOVALUE ? "?" : "-");
}

void
export_text_cell(const struct engine_cell *c, int scale, int width,
    struct strbuf *sb)
{
	/* Not picked on this index: not a failure, a blank. */
	if (c->status == ENG_ABSENT)
		strbuf_addf(sb, "%*s", width, "");
	else if (engine_cell_mark(c) != NULL)
		strbuf_addf(sb, "%*s", width, engine_cell_mark(c));
	else
		export_cell_scaled(c, scale, width, sb);
}

int
export_said(const char *const *said, size_t n, const char *reason)
{
	size_t	 k;

	for (k = 0; k < n; k++) {
		if (strcmp(said[k], reason) == 0)
			return (1);
	}
	return (0);
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
			if (nsaid == 8 || export_said((const char *const *)said,
			    nsaid, reason)) {
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
void
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

void
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
	strbuf_addf(sb, "  %s", x->info.source);
	if (x->info.frame != NULL)
		strbuf_addf(sb, "  frame %s", x->info.frame);
	strbuf_addf(sb, "  %s  interval %.3f s  %s %u (naive %u)\n",
	    x->info.catalog, s->elapsed,
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
		if (export_is_lpar(v)) {
			export_lpar_text(x, s, i, sb);
			export_text_reasons(x, s, i, sb);
			export_lpar_text_reasons(x, s, i, sb);
			export_text_cover(x, s, i, sb);
			continue;
		}
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
				export_text_cell(c, scale[j], col->width, sb);
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
