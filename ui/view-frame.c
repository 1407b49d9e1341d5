/*
 * The Frame screen drawn: the frame's topology as a heat map.  Each chip
 * is a box, each of its cores a cell coloured (or, without colours,
 * shaded) by the metric, with its value where the cell is wide enough; a
 * chip box carries bars for its memory and bus metrics against the
 * largest value seen and a history strip of its cores' mean.  What is
 * drawn where is the model's (frame.c); this only reads it.  No curses.
 */
#include "config.h"

#include "ui/view.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "session/session.h"
#include "model/frame-map.h"
#include "model/raw.h"
#include "util/numfmt-si.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define FRAME_LEGEND_LINES	2

static void
view_frame_fit(struct ui *ui, int width, int y0, int y1)
{
	frame_fit(ui, width, y0 + FRAME_LEGEND_LINES, y1);
}

/*
 * The prefix of every number on the map, one for all as in a column of
 * Live, so that cells compare at a glance (not 975M beside 1.44G): from
 * the largest magnitude shown, three digits before the point.
 */
static int
view_frame_prefix(const struct ui_frame *fr)
{
	return (numfmt_si_scale(fmax(fabs(fr->lo), fabs(fr->hi)),
	    NUMFMT_SI_ROOM, NUMFMT_SI_TOP));
}

/* Two lines: what the colours mean, over which interval, the scale. */
static void
view_frame_legend(const struct ui *ui, struct view_canvas *f, int y)
{
	const struct ui_frame	*fr = &ui->fr;
	char			 lo[NUMFMT_SI_MAX], hi[NUMFMT_SI_MAX];
	char			 buf[2] = { 0, 0 };
	int			 x, l;

	x = view_putf(f, y, 0, UI_R_TITLE, "%s", frame_metric_name(ui));
	/* A ratio has no unit: no blank where it would be. */
	x = view_putf(f, y, x, UI_R_NORMAL, "%s%s per %s",
	    *frame_metric_unit(ui) != '\0' ? " " : "", frame_metric_unit(ui),
	    fr->mcore ? "core" : "chip (on its cores)");
	if (ui->snap != NULL)
		x = view_putf(f, y, x, UI_R_NORMAL, ", interval %.2fs",
		    ui->snap->elapsed);
	else
		x = view_put(f, y, x, ", waiting for the first interval", -1,
		    UI_R_DIM);
	if (fr->map.missing > 0)
		view_putf(f, y, x + 2, UI_R_WARN, "%u chip%s do not fit",
		    fr->map.missing, fr->map.missing == 1 ? "" : "s");
	/* The scale from nothing is from "0", not "0.00G". */
	numfmt_si(lo, fr->lo, fr->lo == 0 ? 0 : view_frame_prefix(fr), 0, 6);
	numfmt_si(hi, fr->hi, view_frame_prefix(fr), 0, 6);
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
view_frame_cell(const struct ui *ui, struct view_canvas *f, int y, int x,
    unsigned core, unsigned chip)
{
	const struct ui_frame	*fr = &ui->fr;
	int			 cw = fr->map.cell_w, w, l, role, i;
	char			 val[NUMFMT_SI_MAX], text[16];
	double			 v;

	/* A gap between cells wide enough to hold one. */
	w = cw >= 3 ? cw - 1 : cw;
	if (!frame_core_picked(ui, core, chip)) {
		/* Not picked there: blank, not a failure. */
		snprintf(text, sizeof text, "%*s", w, "");
		role = UI_R_NORMAL;
	} else if (frame_core_value(ui, core, chip, &v) != 0) {
		snprintf(text, sizeof text, "%*s", w, "-");
		role = UI_R_INVALID;
	} else {
		if ((l = frame_map_level(v, fr->lo, fr->hi)) < 0)
			l = 0;
		role = UI_R_HEAT + l;
		val[0] = '\0';
		/* Without colours the shade comes first and a blank after
		 * it, so that "-" or "." never reads as part of the number. */
		if (cw >= FRAME_MAP_VALUE_MIN && (fr->colors != 0 ||
		    w - 2 >= 3))
			numfmt_si(val, v, view_frame_prefix(fr),
			    NUMFMT_SI_GROW, fr->colors == 0 ? w - 2 : w);
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
		} else if (val[0] != '\0')
			snprintf(text, sizeof text, "%*s", w, val);
		else {
			/* No number fits: the shade says it in any case. */
			for (i = 0; i < w; i++)
				text[i] = frame_map_shade(l);
			text[w] = '\0';
		}
	}
	if (fr->core == (long)core)
		role = UI_R_CELL;
	view_put(f, y, x, text, w, role);
}

static void
view_frame_bar(const struct ui *ui, struct view_canvas *f, int y, int x, int w,
    int b, unsigned chip)
{
	const struct ui_frame	*fr = &ui->fr;
	struct strbuf		 sb = { 0 };
	char			 val[FRAME_MAP_BAR_VALUE];
	double			 v;
	int			 bw, n, i;

	x = view_put(f, y, x, fr->bar_label[b], 2, UI_R_DIM) + 1;
	bw = w - 3 - FRAME_MAP_BAR_VALUE;
	/* A chip its group is not picked on: no bar, no failure. */
	if (chip >= fr->nchip_row || fr->chip_row[chip] < 0)
		return;
	if (frame_value(ui, fr->chview,
	    fr->chip_row[chip], fr->bar_col[b], &v) != 0) {
		view_putf(f, y, x + bw, UI_R_INVALID, "%*s",
		    FRAME_MAP_BAR_VALUE, "-");
		return;
	}
	n = fr->bar_max[b] > 0 && v > 0 ? (int)(v / fr->bar_max[b] * bw +
	    0.5) : 0;
	if (n > bw)
		n = bw;
	for (i = 0; i < n; i++)
		view_put(f, y, x + i, "#", 1, UI_R_PICKED);
	export_value_unit(v, frame_bar_unit(ui, b), "", &sb);
	view_elide(sb.s, FRAME_MAP_BAR_VALUE - 1, val, sizeof val);
	view_putf(f, y, x + bw, UI_R_NORMAL, "%*s", FRAME_MAP_BAR_VALUE, val);
	strbuf_free(&sb);
}

/* The chip's mean of the heat metric over the history kept. */
static void
view_frame_hist(const struct ui *ui, struct view_canvas *f, int y, int x, int w,
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
view_frame_box(const struct ui *ui, struct view_canvas *f, int y0,
    const struct frame_map_box *b)
{
	const struct ui_frame	*fr = &ui->fr;
	const struct frame_map	*m = &fr->map;
	char			 title[64], val[NUMFMT_SI_MAX];
	int			 y = y0 + b->y, x = b->x, i, dy, dx;
	int			 inner, role;
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
		numfmt_si(val, v, view_frame_prefix(fr), 0, 6);
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
		view_frame_cell(ui, f, y + dy, x + dx, b->core0 + (unsigned)i,
		    b->chip);
	}
	dx = m->border ? 1 : 0;
	dy = 1 + m->grid_rows;
	for (i = 0; i < m->bars && i < fr->nbars; i++)
		view_frame_bar(ui, f, y + dy + i, x + dx, inner, i, b->chip);
	if (m->hist)
		view_frame_hist(ui, f, y + dy + m->bars, x + dx, inner, b);
}

static void
view_frame_render(const struct ui *ui, struct view_canvas *f, int y0, int y1)
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
	view_frame_legend(ui, f, y0);
	for (i = 0; i < fr->map.nboxes; i++)
		view_frame_box(ui, f, fr->y0, &fr->map.boxes[i]);
}

static char *
view_frame_status(const struct ui *ui)
{
	const struct ui_frame	*fr = &ui->fr;
	const struct topology	*t = session_topology(ui->ses);
	struct strbuf		 val = { 0 };
	double			 v;
	unsigned		 cpc, chip;
	char			*s;

	if (fr->mview < 0 || t->chips == 0)
		return (NULL);
	cpc = (t->cores + t->chips - 1) / t->chips;
	chip = fr->core >= 0 ? (unsigned)fr->core / cpc : fr->chip;
	if (fr->core < 0 && fr->mcore)
		return (xasprintf("chip %u: %u cores; Right enters them",
		    chip, cpc));
	/* The value with its unit: "13.9 GB/s", not "13.9k MB/s". */
	if (frame_core_value(ui, fr->core >= 0 ? (unsigned)fr->core :
	    chip * cpc, chip, &v) == 0)
		export_value_unit(v, frame_metric_unit(ui), " ", &val);
	else if (!frame_core_picked(ui, fr->core >= 0 ? (unsigned)fr->core :
	    chip * cpc, chip))
		strbuf_adds(&val, "not picked here");
	else
		strbuf_addf(&val, "- %s", frame_metric_unit(ui));
	if (fr->core >= 0)
		s = xasprintf("core %ld (chip %u): %s = %s", fr->core, chip,
		    frame_metric_name(ui), val.s);
	else
		s = xasprintf("chip %u: %s = %s", chip, frame_metric_name(ui),
		    val.s);
	strbuf_free(&val);
	return (s);
}

const struct view_screen view_frame_screen = {
	.name = "Frame",
	.fit = view_frame_fit,
	.render = view_frame_render,
	.status = view_frame_status,
};
