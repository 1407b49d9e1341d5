/*
 * The Frame screen: the frame's topology as a heat map.  Each chip is a
 * box, each of its cores a cell coloured (or, without colours, shaded)
 * by a core metric, with its value where the cell is wide enough; a chip
 * box carries bars for its memory and bus metrics against the largest
 * value seen and a history strip of its cores' mean.  The fit step finds
 * the metric and the bars in the engine's views and lays the boxes out
 * (model/frame-map.c); the renderer only reads.  No curses.
 */
#include "config.h"

#include "ui/view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "engine/session.h"
#include "model/frame-map.h"
#include "model/raw.h"
#include "util/xalloc.h"

#define FRAME_LEGEND_LINES	2

void
frame_free(struct ui_frame *fr)
{
	free(fr->metric);
	free(fr->core_row);
	free(fr->chip_row);
	frame_map_free(&fr->map);
	fr->metric = NULL;
	fr->core_row = fr->chip_row = NULL;
	fr->ncore_row = fr->nchip_row = 0;
}

/* The engine's view of a domain, or -1. */
static long
frame_view(const struct engine *e, int domain)
{
	size_t	 i;

	for (i = 0; i < engine_nviews(e); i++) {
		if (engine_view(e, i)->domain == domain)
			return ((long)i);
	}
	return (-1);
}

static const char *
frame_col_name(const struct engine_view *v, size_t col)
{
	if (col < v->nevents)
		return (v->events[col]->name);
	return (v->metrics[col - v->nevents].name);
}

/* A column of view v by name (any case), metrics first; -1 if none. */
static long
frame_find_col(const struct engine_view *v, const char *name)
{
	size_t	 n = v->nevents + v->nmetrics, k, col;

	for (k = 0; k < n; k++) {
		col = (k + v->nevents) % n;
		if (strcasecmp(frame_col_name(v, col), name) == 0)
			return ((long)col);
	}
	return (-1);
}

static int
frame_has(const char *name, const char *a, const char *b)
{
	return (strcasestr(name, a) != NULL &&
	    (b == NULL || strcasestr(name, b) != NULL));
}

/*
 * The chip bars: memory read and write bandwidth, PowerBus and link
 * utilisation, each where a chip metric computes it.
 */
static void
frame_find_bars(struct ui_frame *fr, const struct engine_view *v)
{
	static const struct {
		const char	*label;
		const char	*a, *b, *c, *d;
	} want[FRAME_MAP_BARS] = {
		{ "RD", "RD_BW", NULL, "read", "bandwidth" },
		{ "WR", "WR_BW", NULL, "write", "bandwidth" },
		{ "PB", "PB", "UTIL", "PowerBus", "UTIL" },
		{ "LK", "LINK", "UTIL", "BUS", "UTIL" },
	};
	const char	*name;
	size_t		 w, m;

	fr->nbars = 0;
	if (v == NULL)
		return;
	for (w = 0; w < FRAME_MAP_BARS; w++) {
		for (m = 0; m < v->nmetrics; m++) {
			name = v->metrics[m].name;
			if (!frame_has(name, want[w].a, want[w].b) &&
			    !frame_has(name, want[w].c, want[w].d))
				continue;
			fr->bar_col[fr->nbars] = v->nevents + m;
			fr->bar_label[fr->nbars] = want[w].label;
			fr->nbars++;
			break;
		}
	}
}

/* Per index of the frame (cores or chips): the view's row, or -1. */
static void
frame_rows(long **rows, size_t *n, size_t want, const struct engine_view *v)
{
	size_t	 i;

	if (*n != want) {
		free(*rows);
		*rows = want > 0 ? xcalloc(want, sizeof **rows) : NULL;
		*n = want;
	}
	for (i = 0; i < want; i++)
		(*rows)[i] = -1;
	for (i = 0; v != NULL && i < v->nrows; i++) {
		if (v->indices[i] < want)
			(*rows)[v->indices[i]] = (long)i;
	}
}

static int
frame_value(const struct ui *ui, long view, long row, size_t col, double *v)
{
	const struct engine_cell	*c;

	if (view < 0 || row < 0 || ui->snap == NULL)
		return (-1);
	c = engine_cell(session_engine(ui->ses), ui->snap, (size_t)view,
	    (size_t)row, col);
	if (c == NULL || c->status != ENG_OK)
		return (-1);
	*v = c->value;
	return (0);
}

/* The value shown as heat for core n of the frame (chip metrics: its
 * chip's). */
static int
frame_core_value(const struct ui *ui, unsigned core, unsigned chip,
    double *v)
{
	const struct ui_frame	*fr = &ui->fr;

	if (fr->mview < 0)
		return (-1);
	if (fr->mcore)
		return (core < fr->ncore_row ? frame_value(ui, fr->mview,
		    fr->core_row[core], fr->mcol, v) : -1);
	return (chip < fr->nchip_row ? frame_value(ui, fr->mview,
	    fr->chip_row[chip], fr->mcol, v) : -1);
}

/* Find the metric, the bars and the rows in the current engine. */
static void
frame_resolve(struct ui *ui)
{
	const struct engine	*e = session_engine(ui->ses);
	const struct topology	*t = session_topology(ui->ses);
	struct ui_frame		*fr = &ui->fr;
	const struct engine_view *cv = NULL, *chv = NULL;
	long			 col = -1;

	fr->cview = frame_view(e, CATALOG_DOMAIN_CORE);
	fr->chview = frame_view(e, CATALOG_DOMAIN_CHIP);
	if (fr->cview >= 0)
		cv = engine_view(e, (size_t)fr->cview);
	if (fr->chview >= 0)
		chv = engine_view(e, (size_t)fr->chview);
	frame_rows(&fr->core_row, &fr->ncore_row, t->cores, cv);
	frame_rows(&fr->chip_row, &fr->nchip_row, t->chips, chv);
	frame_find_bars(fr, chv);
	fr->mview = -1;
	fr->mcore = 1;
	if (fr->metric != NULL) {
		if (cv != NULL && (col = frame_find_col(cv, fr->metric)) >= 0)
			fr->mview = fr->cview;
		else if (chv != NULL &&
		    (col = frame_find_col(chv, fr->metric)) >= 0) {
			fr->mview = fr->chview;
			fr->mcore = 0;
		}
	}
	if (fr->mview < 0 && cv != NULL && cv->nevents + cv->nmetrics > 0) {
		/* The first column Live shows: metrics come first. */
		fr->mview = fr->cview;
		col = cv->nmetrics > 0 ? (long)cv->nevents : 0;
	}
	fr->mcol = col >= 0 ? (size_t)col : 0;
}

/* The heat scale: from 0 (or below) to the largest value shown. */
static void
frame_scale(struct ui *ui)
{
	const struct topology	*t = session_topology(ui->ses);
	struct ui_frame		*fr = &ui->fr;
	double			 v, lo = 0, hi = -INFINITY;
	unsigned		 i, cpc;

	cpc = t->chips > 0 ? (t->cores + t->chips - 1) / t->chips : 1;
	for (i = 0; i < t->cores; i++) {
		if (frame_core_value(ui, i, i / cpc, &v) != 0)
			continue;
		if (v < lo)
			lo = v;
		if (v > hi)
			hi = v;
	}
	fr->lo = lo;
	fr->hi = isinf(hi) ? lo : hi;
}

static void
frame_bar_max(struct ui *ui)
{
	struct ui_frame	*fr = &ui->fr;
	double		 v;
	size_t		 i;
	int		 b;

	if (ui->snap == NULL || ui->snap->seq == fr->bar_seq)
		return;
	fr->bar_seq = ui->snap->seq;
	for (b = 0; b < fr->nbars; b++) {
		for (i = 0; i < fr->nchip_row; i++) {
			if (frame_value(ui, fr->chview, fr->chip_row[i],
			    fr->bar_col[b], &v) == 0 && v > fr->bar_max[b])
				fr->bar_max[b] = v;
		}
	}
}

static void
view_frame_fit(struct ui *ui, int width, int y0, int y1)
{
	const struct topology	*t = session_topology(ui->ses);
	struct ui_frame		*fr = &ui->fr;
	struct frame_map_spec	 s;

	frame_resolve(ui);
	frame_scale(ui);
	frame_bar_max(ui);
	memset(&s, 0, sizeof s);
	s.sockets = t->sockets;
	s.chips = t->chips;
	s.cores = t->cores;
	s.nbars = fr->nbars;
	fr->y0 = y0 + FRAME_LEGEND_LINES;
	frame_map_layout(&s, width, y1 - fr->y0, &fr->map);
	if (t->chips > 0 && fr->chip >= t->chips)
		fr->chip = t->chips - 1;
	if (fr->core >= (long)t->cores)
		fr->core = t->cores > 0 ? (long)t->cores - 1 : -1;
}

int
frame_set_metric(struct ui *ui, const char *name)
{
	const struct engine	*e = session_engine(ui->ses);
	long			 v;

	if (name == NULL || *name == '\0') {
		free(ui->fr.metric);
		ui->fr.metric = NULL;
		return (0);
	}
	if (((v = frame_view(e, CATALOG_DOMAIN_CORE)) < 0 ||
	    frame_find_col(engine_view(e, (size_t)v), name) < 0) &&
	    ((v = frame_view(e, CATALOG_DOMAIN_CHIP)) < 0 ||
	    frame_find_col(engine_view(e, (size_t)v), name) < 0))
		return (-1);
	free(ui->fr.metric);
	ui->fr.metric = xstrdup(name);
	return (0);
}

char **
frame_metric_names(const struct ui *ui, size_t *n)
{
	static const int	 doms[] = { CATALOG_DOMAIN_CORE,
	    CATALOG_DOMAIN_CHIP };
	const struct engine	*e = session_engine(ui->ses);
	const struct engine_view *v;
	char			**out = NULL;
	size_t			 d, c, cap = 0;
	long			 i;

	*n = 0;
	for (d = 0; d < sizeof doms / sizeof doms[0]; d++) {
		if ((i = frame_view(e, doms[d])) < 0)
			continue;
		v = engine_view(e, (size_t)i);
		cap += v->nevents + v->nmetrics;
		out = xreallocarray(out, cap + 1, sizeof *out);
		for (c = 0; c < v->nevents + v->nmetrics; c++)
			out[(*n)++] = xstrdup(frame_col_name(v, c));
	}
	return (out);
}

void
frame_move(struct ui *ui, int dx, int dy)
{
	const struct topology	*t = session_topology(ui->ses);
	struct ui_frame		*fr = &ui->fr;
	unsigned		 cpc;
	long			 off, c;

	if (t->chips == 0 || t->cores == 0)
		return;
	cpc = (t->cores + t->chips - 1) / t->chips;
	if (dy != 0) {
		off = fr->core < 0 ? -1 : fr->core - (long)(fr->chip * cpc);
		c = (long)fr->chip + dy;
		c = c < 0 ? 0 : c >= (long)t->chips ? (long)t->chips - 1 : c;
		fr->chip = (unsigned)c;
		if (off >= 0) {
			fr->core = (long)(fr->chip * cpc) + off;
			if (fr->core >= (long)t->cores)
				fr->core = (long)t->cores - 1;
		}
		return;
	}
	/* Along the line: a chip, its cores, the next chip ... */
	if (dx > 0) {
		if (fr->core < 0)
			fr->core = (long)(fr->chip * cpc);
		else if (fr->core + 1 < (long)t->cores &&
		    (unsigned)(fr->core + 1) / cpc == fr->chip)
			fr->core++;
		else if (fr->chip + 1 < t->chips) {
			fr->chip++;
			fr->core = -1;
		}
	} else if (dx < 0) {
		if (fr->core > (long)(fr->chip * cpc))
			fr->core--;
		else if (fr->core >= 0)
			fr->core = -1;
		else if (fr->chip > 0) {
			fr->chip--;
			c = (long)((fr->chip + 1) * cpc) - 1;
			fr->core = c < (long)t->cores ? c : (long)t->cores - 1;
		}
	}
}

int
frame_live_row(const struct ui *ui, size_t *view, size_t *row, char *buf,
    size_t len)
{
	const struct ui_frame	*fr = &ui->fr;
	const struct topology	*t = session_topology(ui->ses);
	unsigned		 cpc, i;

	if (fr->core >= 0) {
		if ((size_t)fr->core < fr->ncore_row &&
		    fr->core_row[fr->core] >= 0) {
			*view = (size_t)fr->cview;
			*row = (size_t)fr->core_row[fr->core];
			return (0);
		}
		snprintf(buf, len, "core %ld is not read: pick a core group "
		    "for it (g NAME@core:%ld)", fr->core, fr->core);
		return (-1);
	}
	if (fr->chip < fr->nchip_row && fr->chip_row[fr->chip] >= 0) {
		*view = (size_t)fr->chview;
		*row = (size_t)fr->chip_row[fr->chip];
		return (0);
	}
	/* A chip without chip rows: its first core that has one. */
	cpc = t->chips > 0 ? (t->cores + t->chips - 1) / t->chips : 1;
	for (i = fr->chip * cpc; i < (fr->chip + 1) * cpc &&
	    i < fr->ncore_row; i++) {
		if (fr->core_row[i] >= 0) {
			*view = (size_t)fr->cview;
			*row = (size_t)fr->core_row[i];
			return (0);
		}
	}
	snprintf(buf, len, "chip %u is not read: pick a chip or core group "
	    "for it", fr->chip);
	return (-1);
}

/* ---- drawing ------------------------------------------------------- */

static const char *
frame_metric_unit(const struct ui *ui)
{
	const struct engine_view *v;

	if (ui->fr.mview < 0)
		return ("");
	v = engine_view(session_engine(ui->ses), (size_t)ui->fr.mview);
	if (ui->fr.mcol < v->nevents)
		return ("/s");
	return (v->metrics[ui->fr.mcol - v->nevents].unit != NULL ?
	    v->metrics[ui->fr.mcol - v->nevents].unit : "");
}

static const char *
frame_metric_name(const struct ui *ui)
{
	if (ui->fr.mview < 0)
		return ("");
	return (frame_col_name(engine_view(session_engine(ui->ses),
	    (size_t)ui->fr.mview), ui->fr.mcol));
}

/* Two lines: what the colours mean, over which interval, the scale. */
static void
frame_legend(const struct ui *ui, struct view_frame *f, int y)
{
	const struct ui_frame	*fr = &ui->fr;
	char			 lo[16], hi[16], buf[2] = { 0, 0 };
	int			 x, l;

	x = view_putf(f, y, 0, UI_R_TITLE, "%s", frame_metric_name(ui));
	x = view_putf(f, y, x, UI_R_NORMAL, " %s per %s", frame_metric_unit(ui),
	    fr->mcore ? "core" : "chip (on its cores)");
	if (ui->snap != NULL)
		x = view_putf(f, y, x, UI_R_NORMAL, ", interval %.2fs",
		    ui->snap->interval);
	else
		x = view_put(f, y, x, ", waiting for the first interval", -1,
		    UI_R_DIM);
	if (fr->map.missing > 0)
		view_putf(f, y, x + 2, UI_R_WARN, "%u chip%s do not fit",
		    fr->map.missing, fr->map.missing == 1 ? "" : "s");
	frame_map_value(fr->lo, 6, lo, sizeof lo);
	frame_map_value(fr->hi, 6, hi, sizeof hi);
	x = view_putf(f, y + 1, 0, UI_R_NORMAL, "cold %s ", lo);
	for (l = 0; l < FRAME_MAP_LEVELS; l++) {
		buf[0] = fr->colors == 0 ? frame_map_shade(l) : ' ';
		x = view_put(f, y + 1, x, buf, 1, UI_R_HEAT + l);
	}
	x = view_putf(f, y + 1, x, UI_R_NORMAL, " %s hot  %s", hi,
	    frame_metric_unit(ui));
	if (fr->nbars > 0 && fr->map.bars > 0)
		view_put(f, y + 1, x, "  bars: against the largest seen; "
		    "m: metric, Enter: Live", -1, UI_R_DIM);
	else
		view_put(f, y + 1, x, "  m: metric, Enter: Live", -1,
		    UI_R_DIM);
}

/* One core's cell at (y, x). */
static void
frame_cell(const struct ui *ui, struct view_frame *f, int y, int x,
    unsigned core, unsigned chip)
{
	const struct ui_frame	*fr = &ui->fr;
	int			 cw = fr->map.cell_w, w, l, role, i;
	char			 val[16], text[16];
	double			 v;

	/* A gap between cells wide enough to hold one. */
	w = cw >= 3 ? cw - 1 : cw;
	if (frame_core_value(ui, core, chip, &v) != 0) {
		snprintf(text, sizeof text, "%*s", w, "-");
		role = UI_R_INVALID;
	} else {
		if ((l = frame_map_level(v, fr->lo, fr->hi)) < 0)
			l = 0;
		role = UI_R_HEAT + l;
		val[0] = '\0';
		/* Without colours the shade comes first and a blank after
		 * it, so that "-" or "." never reads as part of the number. */
		if (cw >= 4 && (fr->colors != 0 || w - 2 >= 3))
			frame_map_value(v, fr->colors == 0 ? w - 2 : w, val,
			    sizeof val);
		if (fr->colors == 0) {
			text[0] = frame_map_shade(l);
			if (val[0] != '\0')
				snprintf(text + 1, sizeof text - 1, " %*s",
				    w - 2, val);
			else {
				for (i = 1; i < w; i++)
					text[i] = text[0];
				text[w] = '\0';
			}
		} else
			snprintf(text, sizeof text, "%*s", w, val);
	}
	if (fr->core == (long)core)
		role = UI_R_CELL;
	view_put(f, y, x, text, w, role);
}

static void
frame_bar(const struct ui *ui, struct view_frame *f, int y, int x, int w,
    int b, unsigned chip)
{
	const struct ui_frame	*fr = &ui->fr;
	char			 val[16];
	double			 v;
	int			 bw, n, i;

	x = view_put(f, y, x, fr->bar_label[b], 2, UI_R_DIM) + 1;
	bw = w - 3 - 6;
	if (chip >= fr->nchip_row || frame_value(ui, fr->chview,
	    fr->chip_row[chip], fr->bar_col[b], &v) != 0) {
		view_put(f, y, x + bw, "     -", 6, UI_R_INVALID);
		return;
	}
	n = fr->bar_max[b] > 0 && v > 0 ? (int)(v / fr->bar_max[b] * bw +
	    0.5) : 0;
	if (n > bw)
		n = bw;
	for (i = 0; i < n; i++)
		view_put(f, y, x + i, "#", 1, UI_R_PICKED);
	frame_map_value(v, 5, val, sizeof val);
	view_putf(f, y, x + bw, UI_R_NORMAL, "%6s", val);
}

/* The chip's mean of the heat metric over the history kept. */
static void
frame_hist(const struct ui *ui, struct view_frame *f, int y, int x, int w,
    const struct frame_map_box *b)
{
	const struct ui_frame	*fr = &ui->fr;
	double			 h[LIVE_HIST], sum[LIVE_HIST];
	unsigned		 cnt[LIVE_HIST], i;
	size_t			 n = 0, k, m;

	x = view_put(f, y, x, "hist ", -1, UI_R_DIM);
	w -= 5;
	if (w < 1 || fr->mview < 0)
		return;
	memset(sum, 0, sizeof sum);
	memset(cnt, 0, sizeof cnt);
	for (i = 0; i < (fr->mcore ? b->ncores : 1); i++) {
		long row = fr->mcore ? (b->core0 + i < fr->ncore_row ?
		    fr->core_row[b->core0 + i] : -1) : (b->chip <
		    fr->nchip_row ? fr->chip_row[b->chip] : -1);

		if (row < 0)
			continue;
		m = live_history(ui, (size_t)fr->mview, (size_t)row, fr->mcol,
		    h, LIVE_HIST);
		n = m;
		for (k = 0; k < m; k++) {
			if (isnan(h[k]))
				continue;
			sum[k] += h[k];
			cnt[k]++;
		}
	}
	for (k = 0; k < n; k++)
		h[k] = cnt[k] > 0 ? sum[k] / cnt[k] : NAN;
	view_spark(f, y, x, w, h, n);
}

static void
frame_box(const struct ui *ui, struct view_frame *f, int y0,
    const struct frame_map_box *b)
{
	const struct ui_frame	*fr = &ui->fr;
	const struct frame_map	*m = &fr->map;
	char			 title[64], val[16];
	int			 y = y0 + b->y, x = b->x, i, dy, dx, inner, role;
	double			 v;

	inner = m->border ? m->box_w - 2 : m->box_w;
	if (m->box_w >= 18)
		snprintf(title, sizeof title, "chip %u s%u", b->chip,
		    b->socket);
	else if (m->box_w >= 9)
		snprintf(title, sizeof title, "chip %u", b->chip);
	else
		snprintf(title, sizeof title, "c%u", b->chip);
	/* A chip metric shown as heat: its value beside the title. */
	if (!fr->mcore && frame_core_value(ui, b->core0, b->chip, &v) == 0) {
		frame_map_value(v, 6, val, sizeof val);
		if ((int)(strlen(title) + strlen(val)) + 1 <= inner)
			snprintf(title + strlen(title), sizeof title -
			    strlen(title), " %s", val);
	}
	role = fr->core < 0 && fr->chip == b->chip ? UI_R_CELL : UI_R_TITLE;
	if (m->border) {
		view_put(f, y, x, "+", 1, UI_R_DIM);
		for (i = 1; i < m->box_w - 1; i++) {
			view_put(f, y, x + i, "-", 1, UI_R_DIM);
			view_put(f, y + m->box_h - 1, x + i, "-", 1, UI_R_DIM);
		}
		view_put(f, y, x + m->box_w - 1, "+", 1, UI_R_DIM);
		view_put(f, y + m->box_h - 1, x, "+", 1, UI_R_DIM);
		view_put(f, y + m->box_h - 1, x + m->box_w - 1, "+", 1,
		    UI_R_DIM);
		for (i = 1; i < m->box_h - 1; i++) {
			view_put(f, y + i, x, "|", 1, UI_R_DIM);
			view_put(f, y + i, x + m->box_w - 1, "|", 1, UI_R_DIM);
		}
		view_put(f, y, x + 1, title, inner, role);
	} else
		view_put(f, y, x, title, inner, role);
	for (i = 0; i < (int)b->ncores; i++) {
		frame_map_cell(m, (unsigned)i, &dy, &dx);
		frame_cell(ui, f, y + dy, x + dx, b->core0 + (unsigned)i,
		    b->chip);
	}
	dx = m->border ? 1 : 0;
	dy = 1 + m->grid_rows;
	for (i = 0; i < m->bars && i < fr->nbars; i++)
		frame_bar(ui, f, y + dy + i, x + dx, inner, i, b->chip);
	if (m->hist)
		frame_hist(ui, f, y + dy + m->bars, x + dx, inner, b);
}

static void
view_frame_render(const struct ui *ui, struct view_frame *f, int y0, int y1)
{
	const struct ui_frame	*fr = &ui->fr;
	const struct topology	*t = session_topology(ui->ses);
	size_t			 i;

	(void)y1;
	if (t->interface == 0 || t->chips == 0 || t->cores == 0) {
		view_put(f, y0, 0, "The Frame screen draws a frame's chips "
		    "and cores: this source has no frame topology.", -1,
		    UI_R_WARN);
		return;
	}
	if (fr->mview < 0) {
		view_put(f, y0, 0, "No core metric is read, so there is no "
		    "heat to draw.", -1, UI_R_WARN);
		view_put(f, y0 + 1, 0, "Pick a core group (Groups screen, or "
		    "g NAME), or choose a chip metric with m.", -1,
		    UI_R_NORMAL);
		return;
	}
	frame_legend(ui, f, y0);
	for (i = 0; i < fr->map.nboxes; i++)
		frame_box(ui, f, fr->y0, &fr->map.boxes[i]);
}

static char *
view_frame_status(const struct ui *ui)
{
	const struct ui_frame	*fr = &ui->fr;
	const struct topology	*t = session_topology(ui->ses);
	char			 val[16];
	double			 v;
	unsigned		 cpc, chip;

	if (fr->mview < 0 || t->chips == 0)
		return (NULL);
	cpc = (t->cores + t->chips - 1) / t->chips;
	chip = fr->core >= 0 ? (unsigned)fr->core / cpc : fr->chip;
	if (frame_core_value(ui, fr->core >= 0 ? (unsigned)fr->core :
	    chip * cpc, chip, &v) == 0)
		frame_map_value(v, 8, val, sizeof val);
	else
		snprintf(val, sizeof val, "-");
	if (fr->core >= 0)
		return (xasprintf("core %ld (chip %u): %s = %s %s", fr->core,
		    chip, frame_metric_name(ui), val, frame_metric_unit(ui)));
	if (fr->mcore)
		return (xasprintf("chip %u: %u cores; Right enters them",
		    chip, cpc));
	return (xasprintf("chip %u: %s = %s %s", chip, frame_metric_name(ui),
	    val, frame_metric_unit(ui)));
}

const struct view_screen view_frame_screen = {
	.name = "Frame",
	.fit = view_frame_fit,
	.render = view_frame_render,
	.status = view_frame_status,
};
