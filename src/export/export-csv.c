/*
 * CSV: a header of the columns the export was bound to first, then a row
 * per index and a total per view each interval.  A cell without a value
 * is empty and its row says why.  Pure: it formats into memory.
 */
#include "config.h"

#include "export/export.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/engine-lpar.h"
#include "export/export-int.h"
#include "model/selection.h"
#include "util/numfmt.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

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
export_csv_header(struct export *x, struct strbuf *sb)
{
	size_t	 i;
	char	*h, *hg;

	/* The partition columns are the file's when it starts with
	 * partitions: a file without any keeps the columns it had. */
	for (i = 0; i < engine_nviews(x->e); i++)
		if (export_is_lpar(engine_view(x->e, i)))
			x->lpar_csv = 1;

	strbuf_adds(sb, x->with_summary ? "time,seq,summary,interval_s,"
	    "domain,index" : "time,seq,interval_s,domain,index");
	if (x->lpar_csv) {
		strbuf_adds(sb, ",lpar,vcpu,vcpus,placement");
		for (i = 0; i < EXPORT_LPAR_NDERIVED; i++) {
			strbuf_addc(sb, ',');
			strbuf_adds(sb, engine_derive_name((int)i));
		}
	}
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
	/* The frame's column last and only when it is known: every other
	 * column keeps its place, and a file of an unknown frame the
	 * columns it always had. */
	x->frame_csv = x->info.frame != NULL;
	strbuf_adds(sb, x->frame_csv ? ",reason,error,frame\n" :
	    ",reason,error\n");
}

/*
 * A partition view's "all" row is the sum of the placements read: when
 * that is not all four, the row says which it holds, so that it is not
 * taken for a partition's whole work.
 */
static void
export_csv_places(const struct engine_view *v, struct strbuf *why)
{
	size_t	 p, n = 0;

	if ((v->places & ((1U << SEL_NPLACES) - 1)) ==
	    (1U << SEL_NPLACES) - 1)
		return;
	strbuf_adds(why, "placement: holds ");
	for (p = 0; p < SEL_NPLACES; p++) {
		if (v->places & 1U << p)
			strbuf_addf(why, "%s%s", n++ > 0 ? ", " : "",
			    engine_place_name(p));
	}
	strbuf_addf(why, "%s, not all four", n == 1 ? " only" : "");
}

/* Row r's cells (placement p - 1's if p > 0) into x->vals, x->has, why. */
static void
export_csv_cells(struct export *x, const struct engine_snapshot *s,
    size_t i, size_t r, size_t p, struct strbuf *why)
{
	const struct engine_view	*v = engine_view(x->e, i);
	const struct engine_cell	*c;
	struct strbuf			 reason = { 0 };
	size_t				 j, k, ncol = v->nevents + v->nmetrics;
	double				*vals = x->vals, val;
	uint8_t				*has = x->has;

	for (j = 0; j < ncol; j++) {
		if ((k = x->map[i][j]) == EXPORT_NONE)
			continue;
		if (p > 0 && j >= v->nevents)
			continue;
		if (p > 0) {
			c = engine_place_cell(x->e, s, i, r, j, p - 1);
			if (export_value(c, &val)) {
				vals[k] = val;
				has[k] = 1;
			}
			if (export_place_reason(c, &reason))
				strbuf_addf(why, "%s%s: %s", why->len > 0 ?
				    "; " : "", x->cols[k].name, reason.s);
			continue;
		}
		c = engine_cell(x->e, s, i, r, j);
		if (export_value(c, &val)) {
			vals[k] = val;
			has[k] = 1;
		}
		if (export_reason_picks(x, s, i, r, j, &reason))
			strbuf_addf(why, "%s%s: %s", why->len > 0 ? "; " : "",
			    x->cols[k].name, reason.s);
	}
	strbuf_free(&reason);
}

/* A row's partition columns: lpar, vcpu, vcpus, placement, derived. */
static void
export_csv_lpar(const struct engine_view *v, int lp, size_t r, size_t p,
    const double *dval, const int *dok, struct strbuf *sb)
{
	char	 num[NUMFMT_G_MAX];
	size_t	 j;

	/* lpar, vcpu, vcpus, placement: empty where they do not apply, so
	 * that a column holds one kind of value. */
	strbuf_addc(sb, ',');
	if (lp && r < v->nrows)
		strbuf_add(sb, num, numfmt_u64(num, export_lpar_of(v, r)));
	strbuf_addc(sb, ',');
	if (lp && r < v->nrows && v->domain == ENG_VIEW_LPAR_VCPU)
		strbuf_add(sb, num, numfmt_u64(num,
		    ENG_ROW_VCPU(v->indices[r])));
	strbuf_addc(sb, ',');
	if (lp && v->domain == ENG_VIEW_LPAR)
		strbuf_add(sb, num, numfmt_u64(num, export_lpar_vcpus(v, r)));
	strbuf_addc(sb, ',');
	if (lp)
		strbuf_adds(sb, p == 0 ? "all" : engine_place_name(p - 1));
	for (j = 0; j < EXPORT_LPAR_NDERIVED; j++) {
		strbuf_addc(sb, ',');
		if (lp && p == 0 && dok[j])
			strbuf_add(sb, num, numfmt_g(num, dval[j], 12));
	}
}

/*
 * Row r of view i: p 0 its cells, p 1..4 the cells of placement p - 1
 * (a partition view's), with the placement's name; metrics and what a
 * partition row derives (IPC, cores, shares) are of the sum alone.
 */
static void
export_csv_row(struct export *x, const struct engine_snapshot *s, size_t i,
    size_t r, size_t p, const struct strbuf *lead, const struct strbuf *err,
    struct strbuf *why, struct strbuf *sb)
{
	const struct engine_view	*v = engine_view(x->e, i);
	size_t				 j;
	char				 num[NUMFMT_G_MAX];
	int				 lp = export_is_lpar(v);
	const struct engine_cell	*dc;
	double				 dval[EXPORT_LPAR_NDERIVED];
	int				 dok[EXPORT_LPAR_NDERIVED] = { 0 };

	memset(x->has, 0, x->ncols);
	strbuf_reset(why);
	if (lp && x->lpar_csv && p == 0)
		export_csv_places(v, why);
	export_csv_cells(x, s, i, r, p, why);
	/* IPC, cores and the shares: the sum's, a fraction of 1 each. */
	for (j = 0; lp && x->lpar_csv && p == 0 &&
	    j < EXPORT_LPAR_NDERIVED; j++) {
		dc = export_derived(x, s, i, r, (int)j, 0, 0);
		dok[j] = dc->status == ENG_OK;
		dval[j] = dc->value;
		if (!dok[j])
			strbuf_addf(why, "%s%s: %s", why->len > 0 ? "; " :
			    "", engine_derive_name((int)j),
			    engine_derive_reason(dc));
	}
	/* As ",%llu,%.9g,%s,", printf's output. */
	strbuf_add(sb, lead->s, lead->len);
	strbuf_add(sb, num, numfmt_g(num, s->row_interval[i][r], 9));
	strbuf_addc(sb, ',');
	strbuf_adds(sb, v->term);
	strbuf_addc(sb, ',');
	if (r == v->nrows)
		strbuf_adds(sb, "total");
	else if (lp && x->lpar_csv && v->domain == ENG_VIEW_LPAR_VCPU)
		strbuf_add(sb, num, numfmt_u64(num,
		    ENG_ROW_VCPU(v->indices[r])));
	else
		strbuf_add(sb, num, numfmt_u64(num, v->indices[r]));
	if (x->lpar_csv)
		export_csv_lpar(v, lp, r, p, dval, dok, sb);
	for (j = 0; j < x->ncols; j++) {
		strbuf_addc(sb, ',');
		/* As "%.12g", at a fraction of printf's cost. */
		if (x->has[j])
			strbuf_add(sb, num, numfmt_g(num, x->vals[j], 12));
	}
	strbuf_addc(sb, ',');
	export_csv_field(why->len > 0 ? why->s : "", sb);
	strbuf_addc(sb, ',');
	export_csv_field(err->len > 0 ? err->s : "", sb);
	if (x->frame_csv) {
		strbuf_addc(sb, ',');
		export_csv_field(x->info.frame != NULL ? x->info.frame : "",
		    sb);
	}
	strbuf_addc(sb, '\n');
}

void
export_csv(struct export *x, const struct engine_snapshot *s,
    uint64_t seq, uint64_t wall_ns, struct strbuf *sb)
{
	const struct engine_view	*v;
	struct strbuf			 why = { 0 }, err = { 0 };
	struct strbuf			 lead = { 0 };
	size_t				 i, r, j, p, ncol;
	char				 num[NUMFMT_G_MAX];

	export_error(x, s, &err);
	if (x->nvals < x->ncols + 1) {
		free(x->vals);
		free(x->has);
		x->nvals = x->ncols + 1;
		x->vals = xcalloc(x->nvals, sizeof *x->vals);
		x->has = xcalloc(x->nvals, 1);
	}
	/* What starts every row, once: the time and the sequence number
	 * (and whether it is the summary). */
	strbuf_addtime(&lead, wall_ns, 1);
	strbuf_addc(&lead, ',');
	strbuf_add(&lead, num, numfmt_u64(num, seq));
	strbuf_addc(&lead, ',');
	if (x->with_summary)
		strbuf_adds(&lead, x->summary ? "true," : "false,");
	for (i = 0; i < engine_nviews(x->e); i++) {
		v = engine_view(x->e, i);
		ncol = v->nevents + v->nmetrics;
		/* A view none of whose columns the header has: no rows. */
		for (j = 0; j < ncol && x->map[i][j] == EXPORT_NONE; j++)
			continue;
		if (j == ncol)
			continue;
		for (r = 0; r <= v->nrows; r++) {
			/* A partition's row, then a row per placement. */
			for (p = 0; p <= SEL_NPLACES; p++) {
				if (p > 0 && (!export_is_lpar(v) ||
				    !(v->places & 1U << (p - 1))))
					continue;
				export_csv_row(x, s, i, r, p, &lead, &err,
				    &why, sb);
			}
		}
	}
	strbuf_free(&why);
	strbuf_free(&err);
	strbuf_free(&lead);
}

/* A JSON string. */
