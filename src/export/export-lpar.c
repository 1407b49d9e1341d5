/*
 * The partition views in batch output.  Text gives the partitions a
 * table with their virtual processors counted, beside each event its
 * share off the home chip and on a remote node, then their cycles in
 * cores and their IPC; the virtual processors a table with each event's
 * split over the four placements.
 * CSV and JSON carry the partition and the virtual processor as their
 * own fields and each placement's values (export-csv.c, export-json.c).
 * Pure: it formats into memory.
 */
#include "config.h"

#include "export/export.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/engine-lpar.h"
#include "export/export-int.h"
#include "model/selection.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define EXPORT_SHARE_WIDTH	8	/* "%offchip" */

int
export_is_lpar(const struct engine_view *v)
{
	return (v->domain == ENG_VIEW_LPAR || v->domain == ENG_VIEW_LPAR_VCPU);
}

unsigned
export_lpar_of(const struct engine_view *v, size_t r)
{
	return (v->domain == ENG_VIEW_LPAR ? v->indices[r] :
	    ENG_ROW_LPAR(v->indices[r]));
}

unsigned
export_lpar_vcpus(const struct engine_view *v, size_t r)
{
	unsigned	 n = 0;
	size_t		 k;

	if (v->vcpus == NULL)
		return (0);
	if (r < v->nrows)
		return (v->vcpus[r]);
	for (k = 0; k < v->nrows; k++)
		n += v->vcpus[k];
	return (n);
}

/* A partition as text shows it: "self" when its id is not known. */
static void
export_lpar_name(unsigned lpar, int width, struct strbuf *sb)
{
	if (lpar == SEL_LPAR_SELF)
		strbuf_addf(sb, "%-*s", width, "self");
	else
		strbuf_addf(sb, "%-*u", width, lpar);
}

int
export_place_reason(const struct engine_cell *c, struct strbuf *sb)
{
	strbuf_reset(sb);
	if (c == NULL || c->status == ENG_ABSENT)
		return (0);
	if (c->status == ENG_OK && !isfinite(c->value))
		strbuf_adds(sb, "not a finite number");
	else if (c->status == ENG_OK && c->estimated && c->counted != 0)
		strbuf_addf(sb, "estimated: counted %u %% of the interval",
		    c->counted);
	else if (c->status == ENG_OK && c->estimated)
		strbuf_adds(sb, "estimated: counted part of the interval");
	else if (c->status != ENG_OK)
		strbuf_adds(sb, engine_status_name(c->status));
	return (sb->len > 0);
}

/* A share in percent, or its mark. */
static void
export_text_share(const struct engine_cell *c, struct strbuf *sb)
{
	if (c->status == ENG_OK)
		strbuf_addf(sb, " %*.1f", EXPORT_SHARE_WIDTH,
		    100 * c->value);
	else
		strbuf_addf(sb, " %*s", EXPORT_SHARE_WIDTH,
		    engine_cell_mark(c));
}

const struct engine_cell *
export_derived(const struct export *x, const struct engine_snapshot *s,
    size_t i, size_t r, int what, size_t col, size_t p)
{
	static const struct engine_cell	 none = { .status = ENG_ABSENT };
	const struct engine_cell	*c;

	c = engine_cell(x->e, s, i, r, engine_derive_col(engine_view(x->e,
	    i), what, col, p));
	return (c != NULL ? c : &none);
}

/* Whether the partition table shows derived value k: cores with a core
 * cycles column, IPC with instructions too. */
static int
export_text_has_derived(const struct engine_view *v, int k)
{
	struct engine_lpar_cols	 cols;

	if (v->domain != ENG_VIEW_LPAR)
		return (0);
	engine_lpar_cols(v, &cols);
	if (k == ENG_DERIVE_CORES)
		return (cols.cycles != ENG_NONE);
	if (k == ENG_DERIVE_IPC)
		return (cols.cycles != ENG_NONE && cols.insts != ENG_NONE);
	return (0);
}

/* The text columns of the derived values, in the order shown. */
static const int export_text_derived[] = {
	ENG_DERIVE_CORES, ENG_DERIVE_IPC
};
#define EXPORT_TEXT_NDERIVED \
	(sizeof export_text_derived / sizeof export_text_derived[0])
static const char *const export_text_derived_head[] = { "cores", "IPC" };

/* The head of derived column k: the IPC's says what it divides by. */
static const char *
export_text_derived_name(const struct engine_view *v, size_t k)
{
	if (export_text_derived[k] == ENG_DERIVE_IPC)
		return (engine_derive_ipc_label(v));
	return (export_text_derived_head[k]);
}

#define EXPORT_SHARE_SAID	8	/* reasons said per column */

/*
 * A line under the table for c, a derived cell of column name (and what
 * of it, or NULL) without a number, unless its reason was said for this
 * column already or EXPORT_SHARE_SAID were.
 */
static void
export_lpar_text_say(const char **said, size_t *n,
    const struct engine_cell *c, const char *name, const char *what,
    struct strbuf *sb)
{
	const char	*reason = engine_derive_reason(c);

	if (reason == NULL || *n == EXPORT_SHARE_SAID ||
	    export_said(said, *n, reason))
		return;
	said[(*n)++] = reason;
	strbuf_addf(sb, "%-6s %s%s%s: %s\n", engine_cell_mark(c), name,
	    what != NULL ? " " : "", what != NULL ? what : "", reason);
}

void
export_lpar_text_reasons(const struct export *x,
    const struct engine_snapshot *s, size_t i, struct strbuf *sb)
{
	const struct engine_view	*v = engine_view(x->e, i);
	const char			*said[EXPORT_SHARE_SAID];
	size_t				 r, j, n, which;

	if (v->domain != ENG_VIEW_LPAR)
		return;
	for (j = 0; j < v->nevents; j++) {
		for (which = 0; which < 2; which++) {
			n = 0;
			for (r = 0; r <= v->nrows; r++)
				export_lpar_text_say(said, &n,
				    export_derived(x, s, i, r, which == 0 ?
				    ENG_DERIVE_EV_OFF_CHIP :
				    ENG_DERIVE_EV_REMOTE, j, 0),
				    x->cols[x->map[i][j]].name, which == 0 ?
				    "%offchip" : "%remote", sb);
		}
	}
	for (j = 0; j < EXPORT_TEXT_NDERIVED; j++) {
		if (!export_text_has_derived(v, export_text_derived[j]))
			continue;
		n = 0;
		for (r = 0; r <= v->nrows; r++)
			export_lpar_text_say(said, &n, export_derived(x, s, i,
			    r, export_text_derived[j], 0, 0),
			    export_text_derived_name(v, j), NULL, sb);
	}
}

#define EXPORT_TEXT_NAMES	EXPORT_NONE		/* "rows" of the */
#define EXPORT_TEXT_UNITS	(EXPORT_NONE - 1)	/* table's head */

/*
 * The derived columns of row r (r == nrows: the total), or of the head's
 * line of names (EXPORT_TEXT_NAMES) or of units (EXPORT_TEXT_UNITS).
 */
static void
export_lpar_text_derived(const struct export *x,
    const struct engine_snapshot *s, size_t i, size_t r, struct strbuf *sb)
{
	const struct engine_view	*v = engine_view(x->e, i);
	const struct engine_cell	*c;
	size_t				 k;

	for (k = 0; k < EXPORT_TEXT_NDERIVED; k++) {
		if (!export_text_has_derived(v, export_text_derived[k]))
			continue;
		if (r == EXPORT_TEXT_NAMES)
			strbuf_addf(sb, " %*s", EXPORT_SHARE_WIDTH,
			    export_text_derived_name(v, k));
		else if (r == EXPORT_TEXT_UNITS)
			strbuf_addf(sb, " %*s", EXPORT_SHARE_WIDTH, "");
		else if ((c = export_derived(x, s, i, r,
		    export_text_derived[k], 0, 0))->status == ENG_OK)
			strbuf_addf(sb, " %*.2f", EXPORT_SHARE_WIDTH,
			    c->value);
		else
			strbuf_addf(sb, " %*s", EXPORT_SHARE_WIDTH,
			    engine_cell_mark(c));
	}
}

/* The header of view i's table: names, then units. */
static void
export_lpar_text_head(const struct export *x, size_t i, struct strbuf *sb)
{
	const struct engine_view	*v = engine_view(x->e, i);
	const struct export_view	*vw = &x->views[i];
	const struct export_column	*col;
	size_t				 j, p, ncol = v->nevents + v->nmetrics;
	int				 vcpu = v->domain == ENG_VIEW_LPAR_VCPU;

	strbuf_addf(sb, "\n%-6s %5s", "lpar", vcpu ? "vcpu" : "vcpus");
	for (j = 0; j <= ncol; j++) {
		/* Cores and IPC after the events, before the metrics. */
		if (j == v->nevents)
			export_lpar_text_derived(x, NULL, i, EXPORT_TEXT_NAMES,
			    sb);
		if (j == ncol)
			break;
		col = &x->cols[x->map[i][j]];
		strbuf_addf(sb, " %*s", col->width, col->name);
		if (j >= v->nevents)
			continue;
		if (vcpu)
			for (p = 0; p < SEL_NPLACES; p++)
				strbuf_addf(sb, " %*s", EXPORT_SHARE_WIDTH,
				    (const char *[]){ "%hcore", "%hchip",
				    "%hnode", "%remote" }[p]);
		else
			strbuf_addf(sb, " %*s %*s", EXPORT_SHARE_WIDTH,
			    "%offchip", EXPORT_SHARE_WIDTH, "%remote");
	}
	strbuf_addf(sb, "\n%-6s %5s", "", "");
	for (j = 0; j <= ncol; j++) {
		if (j == v->nevents)
			export_lpar_text_derived(x, NULL, i, EXPORT_TEXT_UNITS,
			    sb);
		if (j == ncol)
			break;
		strbuf_addf(sb, " %*s", x->cols[x->map[i][j]].width,
		    vw->unit[j]);
		if (j >= v->nevents)
			continue;
		for (p = 0; p < (vcpu ? SEL_NPLACES : 2); p++)
			strbuf_addf(sb, " %*s", EXPORT_SHARE_WIDTH, "%");
	}
	/* Units left blank at the end leave no blanks behind. */
	while (sb->len > 0 && sb->s[sb->len - 1] == ' ')
		sb->s[--sb->len] = '\0';
	strbuf_addc(sb, '\n');
}

void
export_lpar_text(struct export *x, const struct engine_snapshot *s,
    size_t i, struct strbuf *sb)
{
	const struct engine_view	*v = engine_view(x->e, i);
	struct export_view		*vw = &x->views[i];
	const struct engine_cell	*c;
	const struct export_column	*col;
	size_t				 r, j, p, ncol;
	int				 vcpu = v->domain == ENG_VIEW_LPAR_VCPU;

	ncol = v->nevents + v->nmetrics;
	export_view_scales(x->e, s, i, vw->units, vw->scale, vw->unit);
	export_lpar_text_head(x, i, sb);
	for (r = 0; r <= v->nrows; r++) {
		if (r == v->nrows)
			strbuf_addf(sb, "%-6s", "total");
		else
			export_lpar_name(export_lpar_of(v, r), 6, sb);
		if (r < v->nrows && vcpu)
			strbuf_addf(sb, " %5u", ENG_ROW_VCPU(v->indices[r]));
		else if (vcpu)
			strbuf_addf(sb, " %5s", "");
		else
			strbuf_addf(sb, " %5u", export_lpar_vcpus(v, r));
		for (j = 0; j <= ncol; j++) {
			if (j == v->nevents)
				export_lpar_text_derived(x, s, i, r, sb);
			if (j == ncol)
				break;
			col = &x->cols[x->map[i][j]];
			c = engine_cell(x->e, s, i, r, j);
			strbuf_addc(sb, ' ');
			export_text_cell(c, vw->scale[j], col->width, sb);
			if (j >= v->nevents)
				continue;
			for (p = 0; vcpu && p < SEL_NPLACES; p++)
				export_text_share(export_derived(x, s, i, r,
				    ENG_DERIVE_PLACE, j, p), sb);
			if (vcpu)
				continue;
			export_text_share(export_derived(x, s, i, r,
			    ENG_DERIVE_EV_OFF_CHIP, j, 0), sb);
			export_text_share(export_derived(x, s, i, r,
			    ENG_DERIVE_EV_REMOTE, j, 0), sb);
		}
		while (sb->len > 0 && sb->s[sb->len - 1] == ' ')
			sb->s[--sb->len] = '\0';
		strbuf_addc(sb, '\n');
	}
}
