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
#include "export/export-int.h"
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
export_csv_header(const struct export *x, struct strbuf *sb)
{
	size_t	 i;
	char	*h, *hg;

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

void
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
