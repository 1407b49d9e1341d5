/*
 * The Events, Groups and Formulas screens as text: a sortable list of the
 * catalog (filtered) and a detail pane for the entry under the cursor
 * with everything the catalog says about it: long description, sysfs
 * string, record layout, group membership, a formula in infix and RPN and
 * where each of its operands comes from.  No curses.
 */
#include "config.h"

#include "ui/view.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "model/selection.h"
#include "session/session.h"
#include "formula/formula.h"
#include "source/source.h"
#include "util/hverr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static size_t	view_catalog_detail_top(const struct ui *, int, int, int,
		    size_t *);
static int	view_catalog_detail(const struct ui *, struct view_canvas *,
		    int, int);

static const char *
view_cat_domain(int d)
{
	static const char *const t[] = { "?", "chip", "core", "vhcore",
	    "vhchip", "vhnode", "vrnode" };

	if (d == CATALOG_DOMAIN_CPU)
		return ("cpu");
	return (d > 0 && d < CATALOG_DOMAIN_MAX ? t[d] : "?");
}

static void
view_cat_flags(unsigned f, char *buf)
{
	char	*p = buf;

	if (f & FILTER_FLAG_VERIFIED)
		*p++ = 'V';
	if (f & FILTER_FLAG_UNVERIFIED)
		*p++ = 'U';
	if (f & FILTER_FLAG_CAVEAT)
		*p++ = 'C';
	if (f & FILTER_FLAG_BROKEN)
		*p++ = 'B';
	if (f & FILTER_FLAG_HIDDEN)
		*p++ = 'H';
	if (p == buf)
		*p++ = '-';
	*p = '\0';
}

/* Column widths of a screen for a canvas width; the last takes the rest. */
static void
view_cat_widths(enum ui_screen s, int width, int *w)
{
	static const int ev[6] = { 34, 6, 5, 8, 6, 0 };
	static const int gr[6] = { 34, 6, 6, 12, 14, 0 };
	static const int fm[6] = { 28, 8, 22, 9, 4, 0 };
	const int	*src = s == UI_EVENTS ? ev : s == UI_GROUPS ? gr : fm;
	int		 i, used = 2;

	for (i = 0; i < 5; i++) {
		w[i] = src[i];
		used += w[i] + 1;
	}
	/* Narrow screens give up name width before anything else. */
	while (width - used < 12 && w[0] > 16) {
		w[0]--;
		used--;
	}
	w[5] = width - used > 0 ? width - used : 0;
}

static void
view_cat_cells(const struct ui *ui, enum ui_screen s, const struct ui_item *it,
    char cells[6][256])
{
	const struct catalog		*cat = session_catalog(ui->ses);
	const struct catalog_event	*ev;
	const struct catalog_group	*g;
	const struct catalog_formula	*f;
	const struct engine_metric_def	*d;
	char				*where, *infix, *cause;
	const char			*text;
	size_t				 ndefs;

	switch (s) {
	case UI_EVENTS:
		ev = &cat->events[it->index];
		snprintf(cells[0], 256, "%s", it->name);
		snprintf(cells[1], 256, "%s", view_cat_domain(ev->domain));
		view_cat_flags(it->flags, cells[2]);
		snprintf(cells[3], 256, "0x%x", ev->offset);
		snprintf(cells[4], 256, "%zu", ev->ngroups);
		snprintf(cells[5], 256, "%s", ev->desc != NULL ? ev->desc : "");
		break;
	case UI_GROUPS:
		g = &cat->groups[it->index];
		snprintf(cells[0], 256, "%s", it->name);
		snprintf(cells[1], 256, "%s", view_cat_domain(g->domain));
		snprintf(cells[2], 256, "%zu", catalog_group_nevents(cat, g));
		snprintf(cells[3], 256, "0x%x+%u", g->record_offset,
		    g->record_length);
		where = view_catalog_items_picked_where(ui, g->name, 0);
		snprintf(cells[4], 256, "%s", where != NULL ? where : "");
		free(where);
		snprintf(cells[5], 256, "%s", g->desc != NULL ? g->desc : "");
		break;
	case UI_FORMULAS:
		ndefs = session_nmetrics(ui->ses);
		if (it->index < ndefs) {
			d = &session_metrics(ui->ses)[it->index];
			text = d->text;
			snprintf(cells[1], 256, "%s", d->unit != NULL ?
			    d->unit : "");
			cells[2][0] = '\0';
			snprintf(cells[3], 256, "%s", d->origin != NULL &&
			    strrchr(d->origin, '/') != NULL ?
			    strrchr(d->origin, '/') + 1 : d->origin);
		} else {
			f = &cat->formulas[it->index - ndefs];
			text = f->formula;
			snprintf(cells[1], 256, "%s", f->unit != NULL ?
			    f->unit : "");
			snprintf(cells[2], 256, "%s", f->group < cat->ngroups ?
			    cat->groups[f->group].name : "");
			snprintf(cells[3], 256, "catalog");
		}
		snprintf(cells[0], 256, "%s", it->name);
		snprintf(cells[4], 256, "%s", it->flags & FILTER_FLAG_PICKED ?
		    "yes" : "-");
		if (text != NULL && formula_print_convert(text, FORMULA_AUTO,
		    FORMULA_INFIX, &infix, &cause) == 0) {
			snprintf(cells[5], 256, "%s", infix);
			free(infix);
		} else {
			if (text != NULL)
				free(cause);
			snprintf(cells[5], 256, "%s", text != NULL ? text : "");
		}
		break;
	default:
		break;
	}
}

/*
 * A cell cut to its column says so: a name loses its middle to '~' (the
 * ends tell catalog names apart), other text ends in '~'.
 */
static void
view_cat_cell(struct view_canvas *f, int y, int x, const char *cell, int w,
    int col, int role)
{
	char	 buf[256];

	if (w < 1)
		return;
	if ((int)strlen(cell) <= w || w < 2 || w >= (int)sizeof buf) {
		view_put(f, y, x, cell, w, role);
		return;
	}
	if (col == 0)
		view_elide(cell, w, buf, sizeof buf);
	else
		snprintf(buf, sizeof buf, "%.*s~", w - 1, cell);
	view_put(f, y, x, buf, w, role);
}

/*
 * Fit a list's cursor and first row to its rows, and the detail pane's
 * first line to its lines: the controller's step before drawing.
 */
static void
view_catalog_fit(struct ui *ui, int width, int y0, int y1)
{
	const struct ui_items	*items = &ui->items[ui->screen];
	struct ui_list		*l = &ui->list[ui->screen];
	int			 h, dh;

	dh = view_detail_height(ui, y1 - y0);
	h = y1 - y0 - dh - 1;
	if (l->cursor >= items->nshown)
		l->cursor = items->nshown > 0 ? items->nshown - 1 : 0;
	if (h < 1)
		h = 1;
	if (l->cursor < l->top)
		l->top = l->cursor;
	if (l->cursor >= l->top + (size_t)h)
		l->top = l->cursor - (size_t)h + 1;
	if (l->top >= items->nshown)
		l->top = 0;
	/* A list that shrank (a filter) fills the rows from the top: no
	 * match hides above the view while rows below it are blank. */
	if (items->nshown <= (size_t)h)
		l->top = 0;
	else if (l->top > items->nshown - (size_t)h)
		l->top = items->nshown - (size_t)h;
	if (dh > 0)
		ui->detail_top = view_catalog_detail_top(ui, width, y1 - dh,
		    y1, NULL);
}

static void
view_catalog(const struct ui *ui, struct view_canvas *f, int y0, int y1)
{
	enum ui_screen		 s = ui->screen;
	const struct ui_items	*items = &ui->items[s];
	const struct ui_list	*l = &ui->list[s];
	const struct ui_item	*it;
	char			 cells[6][256];
	int			 w[6], i, x, y, h, dh, role;
	size_t			 k;

	dh = view_detail_height(ui, y1 - y0);
	h = y1 - y0 - dh - 1;
	view_cat_widths(s, f->width, w);
	view_role(f, y0, 0, -1, UI_R_COLHEAD);
	x = 2;
	for (i = 0; i < 6; i++) {
		role = l->sort == i ? UI_R_SORTHEAD : UI_R_COLHEAD;
		view_putf(f, y0, x, role, "%-*.*s", w[i], w[i],
		    view_catalog_items_col_name(s, i));
		if (l->sort == i && l->reverse)
			view_put(f, y0, x + (int)strlen(
			    view_catalog_items_col_name(s, i)), "^", 1, role);
		x += w[i] + 1;
	}
	if (items->nshown == 0) {
		view_put(f, y0 + 1, 2, items->n == 0 ? "the catalog has none" :
		    "nothing matches the filter (Esc or = clears it)", -1,
		    UI_R_DIM);
	}
	for (k = l->top, y = y0 + 1; k < items->nshown && y < y0 + 1 + h;
	    k++, y++) {
		it = &items->v[items->shown[k]];
		view_cat_cells(ui, s, it, cells);
		role = k == l->cursor ? UI_R_CURSOR : UI_R_NORMAL;
		view_role(f, y, 0, -1, role);
		if (it->flags & FILTER_FLAG_PICKED)
			view_put(f, y, 0, "*", 1, k == l->cursor ? role :
			    UI_R_PICKED);
		x = 2;
		for (i = 0; i < 6; i++) {
			view_cat_cell(f, y, x, cells[i], w[i], i, i == 0 &&
			    k != l->cursor && (it->flags &
			    FILTER_FLAG_PICKED) ? UI_R_PICKED : role);
			x += w[i] + 1;
		}
	}
	if (dh > 0)
		view_catalog_detail(ui, f, y1 - dh, y1);
}

/* ---- the detail pane ----------------------------------------------- */

/*
 * The lines of a detail pane: the first skip lines are counted, not drawn
 * (the pane scrolls), and so are lines past y1 (to know how many there
 * are).
 */
struct view_lines {
	struct view_canvas	*f;		/* NULL: counting only */
	int			 width;
	int			 y, y1;
	size_t			 skip;
	size_t			 n;		/* lines so far */
};

/*
 * Word-wrap text over lines of the pane: the first line at column first,
 * the others at column next.  Long texts (formulas, sysfs strings) break
 * at spaces or, failing that, at the edge.
 */
static void
view_wrap_at(struct view_lines *vl, const char *text, int role, int first,
    int next)
{
	const char	*p = text, *brk;
	int		 x = first, w, n;

	while (*p != '\0') {
		w = vl->width - x - 1;
		if (w < 10)
			w = 10;
		n = (int)strlen(p);
		if (n > w) {
			n = w;
			for (brk = p + w; brk > p && *brk != ' '; brk--)
				;
			if (brk > p + w / 3)
				n = (int)(brk - p);
		}
		if (vl->n++ >= vl->skip && vl->y < vl->y1 && vl->f != NULL)
			view_put(vl->f, vl->y++, x, p, n, role);
		p += n;
		while (*p == ' ')
			p++;
		x = next;
	}
}

static void
view_line(struct view_lines *vl, int role, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
view_line(struct view_lines *vl, int role, const char *fmt, ...)
{
	va_list	 ap;
	char	 buf[4096];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	view_wrap_at(vl, buf, role, 1, 3);
}

static void
view_wrap(struct view_lines *vl, const char *text, int role)
{
	view_wrap_at(vl, text, role, 3, 3);
}

static void
view_flag_words(unsigned f, struct strbuf *sb)
{
	unsigned	 bit;

	for (bit = 1; bit <= FILTER_FLAG_PICKED; bit <<= 1) {
		if ((f & bit) && filter_flag_name(bit) != NULL)
			strbuf_addf(sb, "%s%s", sb->len > 0 ? ", " : "",
			    filter_flag_name(bit));
	}
	if (sb->len == 0)
		strbuf_adds(sb, "no flags");
}

static void
view_event_detail(const struct ui *ui, struct view_lines *vl,
    const struct ui_item *it)
{
	const struct catalog		*cat = session_catalog(ui->ses);
	const struct catalog_event	*ev = &cat->events[it->index];
	struct strbuf			 sb = { 0 };
	char				*s, *where;
	size_t				 i;

	view_flag_words(it->flags, &sb);
	view_line(vl, UI_R_TITLE, "%s  [%s]  %s", it->name,
	    catalog_domain_name(ev->domain), sb.s);
	strbuf_reset(&sb);
	if (ev->desc != NULL && ev->desc[0] != '\0')
		view_wrap(vl, ev->desc, UI_R_NORMAL);
	if (ev->long_desc != NULL && ev->long_desc[0] != '\0' &&
	    (ev->desc == NULL || strcmp(ev->long_desc, ev->desc) != 0))
		view_wrap(vl, ev->long_desc, UI_R_NORMAL);
	/* Another PMU's event has no 24x7 record: its description above
	 * is the event as perf writes it. */
	if (ev->domain != CATALOG_DOMAIN_CPU) {
		s = catalog_sysfs_string(ev, CATALOG_SYSFS_CURRENT);
		view_line(vl, UI_R_NORMAL, "sysfs: hv_24x7/%s/ = %s",
		    it->name, s);
		free(s);
		view_line(vl, UI_R_NORMAL, "record: group record at 0x%x, %u "
		    "bytes; counter at +0x%x (offset 0x%x); catalog entry at "
		    "byte %zu", ev->record_offset, ev->record_length,
		    ev->counter_offset, ev->offset, ev->file_offset);
	}
	for (i = 0; i < ev->ngroups; i++)
		strbuf_addf(&sb, "%s%s", i > 0 ? ", " : "",
		    ev->groups[i] < cat->ngroups ?
		    cat->groups[ev->groups[i]].name : "?");
	view_line(vl, UI_R_NORMAL, "groups: %s", sb.len > 0 ? sb.s :
	    "none (read it singly with Enter)");
	if (ev->formula != CATALOG_NONE && ev->formula < cat->nformulas)
		view_line(vl, UI_R_NORMAL, "formula: %s",
		    cat->formulas[ev->formula].name);
	where = view_catalog_items_picked_where(ui, ev->name, 1);
	view_line(vl, where != NULL ? UI_R_PICKED : UI_R_DIM, "%s%s",
	    where != NULL ? "picked singly on " : "Enter reads it singly on "
	    "chosen indices", where != NULL ? where : "");
	free(where);
	strbuf_free(&sb);
}

static void
view_group_detail(const struct ui *ui, struct view_lines *vl,
    const struct ui_item *it)
{
	const struct catalog		*cat = session_catalog(ui->ses);
	const struct catalog_group	*g = &cat->groups[it->index];
	const struct catalog_event	*ev;
	struct strbuf			 sb = { 0 };
	char				*where;
	size_t				 i;

	view_line(vl, UI_R_TITLE, "%s  [%s]  record 0x%x, %u bytes, schema "
	    "%u, %zu events%s", it->name, catalog_domain_name(g->domain),
	    g->record_offset, g->record_length, g->schema,
	    catalog_group_nevents(cat, g),
	    g->record_length == 0 ? "  (record length 0: not readable)" :
	    "");
	if (g->desc != NULL && g->desc[0] != '\0')
		view_wrap(vl, g->desc, UI_R_NORMAL);
	where = view_catalog_items_picked_where(ui, g->name, 0);
	view_line(vl, where != NULL ? UI_R_PICKED : UI_R_DIM, "%s%s",
	    where != NULL ? "picked on " : "Enter picks it for all or "
	    "chosen indices", where != NULL ? where : "");
	free(where);
	for (i = 0; i < cat->nformulas; i++) {
		if (cat->formulas[i].group == g->index &&
		    cat->formulas[i].name != NULL)
			strbuf_addf(&sb, "%s%s", sb.len > 0 ? ", " : "",
			    cat->formulas[i].name);
	}
	if (sb.len > 0)
		view_line(vl, UI_R_NORMAL, "formulas: %s", sb.s);
	for (i = 0; i < CATALOG_GROUP_SLOTS; i++) {
		if ((ev = catalog_group_event(cat, g, i)) == NULL)
			continue;
		view_line(vl, UI_R_NORMAL, "  +0x%-4x %-34s %s",
		    ev->counter_offset, ev->sysfs_name,
		    ev->desc != NULL ? ev->desc : "");
	}
	strbuf_free(&sb);
}

/* The names a formula reads, recorded as the compiler resolves them. */
struct view_opnd {
	const struct ui	*ui;
	char		**names;
	int		*kinds;
	size_t		 n;
};

static int
view_opnd_resolve(void *arg, const char *name, struct formula_ref *ref)
{
	struct view_opnd		*o = arg;
	const struct catalog		*cat = session_catalog(o->ui->ses);
	const struct catalog_formula	*f;
	size_t				 i;
	int				 kind;

	if (catalog_find_event(cat, name, 0) != NULL)
		kind = FORMULA_EVENT;
	else if ((f = catalog_find_formula(cat, name)) != NULL &&
	    f->formula != NULL) {
		kind = FORMULA_FORMULA;
		ref->text = f->formula;
		ref->notation = FORMULA_AUTO;
	} else if (formula_compile_special(name) >= 0)
		kind = FORMULA_SPECIAL;
	else
		kind = FORMULA_CONST;
	for (i = 0; i < o->n; i++) {
		if (strcmp(o->names[i], name) == 0)
			break;
	}
	if (i == o->n) {
		o->names = xreallocarray(o->names, o->n + 1,
		    sizeof *o->names);
		o->kinds = xreallocarray(o->kinds, o->n + 1,
		    sizeof *o->kinds);
		o->names[o->n] = xstrdup(name);
		o->kinds[o->n++] = kind;
	}
	if (kind == FORMULA_SPECIAL)
		return (-HV_ENOENT);
	ref->kind = kind;
	ref->slot = 0;
	return (0);
}

static void
view_operand(const struct ui *ui, struct view_lines *vl, const char *name,
    int kind)
{
	const struct catalog		*cat = session_catalog(ui->ses);
	const struct catalog_event	*ev;
	const struct catalog_formula	*f;
	const char			*text;
	double				 v;

	switch (kind) {
	case FORMULA_EVENT:
		ev = catalog_find_event(cat, name, 0);
		view_line(vl, UI_R_NORMAL, "  %-30s event, %s, group %s, "
		    "offset 0x%x", name, catalog_domain_name(ev->domain),
		    ev->ngroups > 0 && ev->groups[0] < cat->ngroups ?
		    cat->groups[ev->groups[0]].name : "(none)", ev->offset);
		return;
	case FORMULA_FORMULA:
		f = catalog_find_formula(cat, name);
		view_line(vl, UI_R_NORMAL, "  %-30s formula: %s", name,
		    f->formula);
		return;
	case FORMULA_SPECIAL:
		view_line(vl, UI_R_NORMAL, "  %-30s the interval (%s)", name,
		    strstr(name, "seconds") != NULL ? "seconds" :
		    strstr(name, "timebase") != NULL ? "timebase ticks" :
		    "from the record");
		return;
	default:
		break;
	}
	switch (session_constant(ui->ses, name, &v, &text)) {
	case SESSION_CONST_OPTION:
		view_line(vl, UI_R_NORMAL, "  %-30s constant %s (--const)",
		    name, text);
		return;
	case SESSION_CONST_FRAME:
		view_line(vl, UI_R_NORMAL, "  %-30s constant %g (from %s)",
		    name, v, session_constant_origin(ui->ses, name));
		return;
	case SESSION_CONST_NONE:
		break;
	}
	view_line(vl, UI_R_WARN, "  %-30s unknown constant: set it with "
	    "--const %s=VALUE", name, name);
}

static void
view_formula_detail(const struct ui *ui, struct view_lines *vl,
    const struct ui_item *it)
{
	const struct catalog		*cat = session_catalog(ui->ses);
	const struct catalog_formula	*cf = NULL;
	const struct engine_metric_def	*d = NULL;
	struct view_opnd		 o;
	struct formula			*fc;
	const char			*text, *unit, *origin, *group = NULL;
	char				*s, *cause;
	size_t				 i;

	if (it->index < session_nmetrics(ui->ses)) {
		d = &session_metrics(ui->ses)[it->index];
		text = d->text;
		unit = d->unit;
		origin = d->origin;
	} else {
		cf = &cat->formulas[it->index - session_nmetrics(ui->ses)];
		text = cf->formula;
		unit = cf->unit;
		origin = "catalog";
	}
	/* The catalog's group of a formula, perf's MetricGroup of a metric. */
	if (cf != NULL && cf->group < cat->ngroups)
		group = cat->groups[cf->group].name;
	else if (d != NULL)
		group = d->group;
	view_line(vl, UI_R_TITLE, "%s  [%s]  from %s%s%s", it->name,
	    unit != NULL && unit[0] != '\0' ? unit : "no unit", origin,
	    group != NULL ? ", group " : "", group != NULL ? group : "");
	if (it->desc != NULL && it->desc[0] != '\0')
		view_wrap(vl, it->desc, UI_R_NORMAL);
	if (text == NULL)
		return;
	if (formula_print_convert(text, FORMULA_AUTO, FORMULA_INFIX, &s,
	    &cause) != 0) {
		view_line(vl, UI_R_ERROR, "cannot parse %s: %s", text, cause);
		free(cause);
		return;
	}
	view_line(vl, UI_R_NORMAL, "infix: %s", s);
	free(s);
	if (formula_print_convert(text, FORMULA_AUTO, FORMULA_RPN, &s,
	    &cause) == 0) {
		view_line(vl, UI_R_NORMAL, "RPN:   %s", s);
		free(s);
	} else
		free(cause);
	view_line(vl, it->flags & FILTER_FLAG_PICKED ? UI_R_PICKED :
	    UI_R_DIM, "%s", it->flags & FILTER_FLAG_PICKED ? "computed on "
	    "the Live screen" : "not on the Live screen: Enter picks the "
	    "groups that hold its operands");
	memset(&o, 0, sizeof o);
	o.ui = ui;
	if (formula_compile(text, FORMULA_AUTO, it->name, view_opnd_resolve,
	    &o, &fc, &cause) == 0)
		formula_free(fc);
	else {
		view_line(vl, UI_R_ERROR, "%s", cause);
		free(cause);
	}
	view_line(vl, UI_R_NORMAL, "operands:");
	for (i = 0; i < o.n; i++) {
		view_operand(ui, vl, o.names[i], o.kinds[i]);
		free(o.names[i]);
	}
	free(o.names);
	free(o.kinds);
}

static void
view_catalog_lines(const struct ui *ui, struct view_lines *vl,
    const struct ui_item *it)
{
	switch (ui->screen) {
	case UI_EVENTS:
		view_event_detail(ui, vl, it);
		break;
	case UI_GROUPS:
		view_group_detail(ui, vl, it);
		break;
	case UI_FORMULAS:
		view_formula_detail(ui, vl, it);
		break;
	default:
		break;
	}
}

/*
 * The first line of the detail pane in rows y0..y1 of a width: where J
 * and K put it, short of leaving rows blank.  *total (may be NULL) is
 * set to the number of its lines.
 */
static size_t
view_catalog_detail_top(const struct ui *ui, int width, int y0, int y1,
    size_t *total)
{
	const struct ui_item	*it;
	struct view_lines	 vl = { NULL, width, 0, 0, (size_t)-1, 0 };
	size_t			 rows = y1 > y0 + 1 ? (size_t)(y1 - y0 - 1) : 0;

	if (total != NULL)
		*total = 0;
	if ((it = view_catalog_items_cursor(ui, ui->screen)) == NULL)
		return (ui->detail_top);
	view_catalog_lines(ui, &vl, it);
	if (total != NULL)
		*total = vl.n;
	if (vl.n <= rows)
		return (0);
	return (ui->detail_top > vl.n - rows ? vl.n - rows : ui->detail_top);
}

/*
 * The detail pane scrolls (J, K) when its lines outnumber its rows; the
 * title says which lines are shown.
 */
static int
view_catalog_detail(const struct ui *ui, struct view_canvas *f, int y0,
    int y1)
{
	const struct ui_item	*it;
	struct view_lines	 vl = { f, f->width, y0 + 1, y1, 0, 0 };
	size_t			 rows = y1 > y0 + 1 ? (size_t)(y1 - y0 - 1) : 0;
	size_t			 n;

	view_role(f, y0, 0, -1, UI_R_COLHEAD);
	view_put(f, y0, 0, "details (v hides)", -1, UI_R_COLHEAD);
	if ((it = view_catalog_items_cursor(ui, ui->screen)) == NULL)
		return (1);
	vl.skip = view_catalog_detail_top(ui, f->width, y0, y1, &n);
	if (n > rows)
		view_putf(f, y0, 18, UI_R_COLHEAD, " lines %zu-%zu of %zu "
		    "(J K scroll)", vl.skip + 1, vl.skip + rows, n);
	view_catalog_lines(ui, &vl, it);
	return (vl.y - y0);
}

const struct view_screen view_events_screen = {
	.name = "Events",
	.fit = view_catalog_fit,
	.render = view_catalog,
};

const struct view_screen view_groups_screen = {
	.name = "Groups",
	.fit = view_catalog_fit,
	.render = view_catalog,
};

const struct view_screen view_formulas_screen = {
	.name = "Formulas",
	.fit = view_catalog_fit,
	.render = view_catalog,
};
