/*
 * JSON lines: one object per interval, its units and groups, then its
 * rows; a cell without a value is null and the row says why.  Pure: it
 * formats into memory.
 */
#include "config.h"

#include "export/export.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/engine-lpar.h"
#include "export/export-int.h"
#include "model/selection.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

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
	/*
	 * The fewest significant digits that read back as the same double.
	 * When 15 do, the fewest are those 15 without their trailing zeros
	 * (a shorter decimal that reads back is within half an ulp, so
	 * rounding to 15 digits finds it padded); else 16, else 17.  Not
	 * so for subnormals, whose ulp is wide: they are searched from 1.
	 */
	for (p = v != 0 && fabs(v) < DBL_MIN ? 1 : 15; p < 17; p++) {
		snprintf(buf, sizeof buf, "%.*e", p - 1, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	if (p == 15) {
		e = strchr(buf, 'e');
		while (p > 1 && e != NULL && e[-1] == '0') {
			e--;
			p--;
		}
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
	strbuf_addf(sb, ",\"seq\":%llu", (unsigned long long)seq);
	if (x->with_summary)
		strbuf_adds(sb, x->summary ? ",\"summary\":true" :
		    ",\"summary\":false");
	strbuf_adds(sb, ",\"interval_s\":");
	export_number(s->elapsed, sb);
	strbuf_adds(sb, ",\"source\":");
	export_json_str(x->info.source != NULL ? x->info.source : "", sb);
	if (x->info.frame != NULL) {
		strbuf_adds(sb, ",\"frame\":");
		export_json_str(x->info.frame, sb);
	}
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

/* A partition view's row: its partition, virtual processor(s). */
static void
export_json_lpar_ids(const struct engine_view *v, size_t r,
    struct strbuf *sb)
{
	strbuf_adds(sb, ",\"lpar\":");
	if (r < v->nrows)
		strbuf_addf(sb, "%u", export_lpar_of(v, r));
	else
		strbuf_adds(sb, "null");
	if (v->domain == ENG_VIEW_LPAR)
		strbuf_addf(sb, ",\"vcpus\":%u", export_lpar_vcpus(v, r));
	else if (r < v->nrows)
		strbuf_addf(sb, ",\"vcpu\":%u", ENG_ROW_VCPU(v->indices[r]));
	else
		strbuf_adds(sb, ",\"vcpu\":null");
}

/* A reason of why, keyed "EVENT.what". */
static void
export_json_why(const char *name, const char *what, const char *reason,
    struct strbuf *why)
{
	struct strbuf	 key = { 0 };

	strbuf_addf(&key, "%s.%s", name, what);
	strbuf_addc(why, why->len > 0 ? ',' : '{');
	export_json_str(key.s, why);
	strbuf_addc(why, ':');
	export_json_str(reason, why);
	strbuf_free(&key);
}

/* A value (when ok), or null; its reason, if any, in why. */
static void
export_json_share(const char *name, const char *what, int ok, double value,
    const char *reason, struct strbuf *sb, struct strbuf *why)
{
	export_json_str(what, sb);
	strbuf_addc(sb, ':');
	if (ok)
		export_number(value, sb);
	else
		strbuf_adds(sb, "null");
	if (reason != NULL)
		export_json_why(name, what, reason, why);
}

/* A derived cell, as export_json_share() writes it. */
static void
export_json_derived(const char *name, int what, const struct engine_cell *c,
    struct strbuf *sb, struct strbuf *why)
{
	export_json_share(name, engine_derive_name(what),
	    c->status == ENG_OK, c->value, engine_derive_reason(c), sb, why);
}

/*
 * A partition view's row, after its values: each event's placements
 * ("places": {"EVENT": {"home_core": ...}}) and its shares off the home
 * chip and on a remote node ("shares"), fractions of its sum; null with
 * a reason ("EVENT.home_core": ...) where there is no value.
 */
static void
export_json_lpar_places(struct export *x, const struct engine_snapshot *s,
    size_t i, size_t r, struct strbuf *sb, struct strbuf *why)
{
	const struct engine_view	*v = engine_view(x->e, i);
	const struct engine_cell	*c;
	struct strbuf			 pr = { 0 };
	const char			*name;
	size_t				 j, p, n;
	double				 val;
	int				 ok;

	for (n = 0; n < 2; n++) {
		strbuf_adds(sb, n == 0 ? ",\"places\":{" : ",\"shares\":{");
		for (j = 0; j < v->nevents; j++) {
			if (x->map[i][j] == EXPORT_NONE)
				continue;
			name = x->cols[x->map[i][j]].name;
			if (sb->s[sb->len - 1] != '{')
				strbuf_addc(sb, ',');
			export_json_str(name, sb);
			strbuf_adds(sb, ":{");
			if (n == 1) {
				export_json_derived(name,
				    ENG_DERIVE_EV_OFF_CHIP, export_derived(x,
				    s, i, r, ENG_DERIVE_EV_OFF_CHIP, j, 0), sb,
				    why);
				strbuf_addc(sb, ',');
				export_json_derived(name, ENG_DERIVE_EV_REMOTE,
				    export_derived(x, s, i, r,
				    ENG_DERIVE_EV_REMOTE, j, 0), sb, why);
				strbuf_addc(sb, '}');
				continue;
			}
			for (p = 0; p < SEL_NPLACES; p++) {
				if (!(v->places & 1U << p))
					continue;
				c = engine_place_cell(x->e, s, i, r, j, p);
				if (sb->s[sb->len - 1] != '{')
					strbuf_addc(sb, ',');
				/* An estimate has its value and its reason. */
				val = 0;
				ok = export_value(c, &val);
				export_json_share(name, engine_place_name(p),
				    ok, val, export_place_reason(c, &pr) ?
				    pr.s : NULL, sb, why);
			}
			strbuf_addc(sb, '}');
		}
		strbuf_addc(sb, '}');
	}
	/* From the sums of the core cycles and instructions columns. */
	strbuf_adds(sb, ",\"derived\":{");
	export_json_derived("derived", ENG_DERIVE_IPC, export_derived(x, s, i,
	    r, ENG_DERIVE_IPC, 0, 0), sb, why);
	strbuf_addc(sb, ',');
	export_json_derived("derived", ENG_DERIVE_CORES, export_derived(x, s,
	    i, r, ENG_DERIVE_CORES, 0, 0), sb, why);
	strbuf_addc(sb, '}');
	strbuf_free(&pr);
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
	if (export_is_lpar(v))
		export_json_lpar_ids(v, r, sb);
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
	strbuf_adds(sb, "}");
	if (export_is_lpar(v))
		export_json_lpar_places(x, s, i, r, sb, &why);
	strbuf_adds(sb, ",\"reasons\":");
	strbuf_adds(sb, why.len > 0 ? why.s : "{");
	strbuf_adds(sb, "}}");
	strbuf_free(&why);
	strbuf_free(&reason);
}

void
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
