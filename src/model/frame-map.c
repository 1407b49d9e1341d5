/*
 * The frame's map: chip boxes placed in an area, core cells inside them,
 * and the heat scale.  Every layout that could be drawn is scored and the
 * best that shows every chip wins, so a wider terminal only ever adds
 * detail: numbers in the cells first, then the chip bars, the history
 * strip, wider cells, frame lines.  Pure: no I/O, no curses; the Frame
 * screen (ui/frame.c, ui/view-frame.c) draws from what this decides.
 */
#include "config.h"

#include "model/frame-map.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

#define FRAME_MAP_CELL_MAX	7	/* widest cell tried */
/* Inner width a bar line needs: label and gap, a bar of 5, the value. */
#define FRAME_MAP_BAR_MIN	(3 + 5 + FRAME_MAP_BAR_VALUE)
#define FRAME_MAP_HIST_MIN	12	/* ... and the history strip */
#define FRAME_MAP_TITLE_MIN	4	/* "c15" and a corner */

struct frame_map_try {
	int	 cw, gr, gc, bars, hist, border;
	int	 box_w, box_h, per_row, rows;
};

void
frame_map_free(struct frame_map *m)
{
	if (m == NULL)
		return;
	free(m->boxes);
	memset(m, 0, sizeof *m);
}

/* Boxes per row: a socket's chips stay together on a row when they fit. */
static int
frame_map_per_row(const struct frame_map_spec *s, int width, int box_w)
{
	unsigned	 cps;
	int		 n;

	n = (width + 1) / (box_w + 1);
	if (n < 1)
		return (0);
	if ((unsigned)n > s->chips)
		n = (int)s->chips;
	cps = s->sockets > 0 && s->chips % s->sockets == 0 ?
	    s->chips / s->sockets : 1;
	if (cps > 1 && (unsigned)n > cps)
		n -= n % (int)cps;
	return (n);
}

/* Size one candidate; 0 when its boxes cannot be drawn at all. */
static int
frame_map_size(const struct frame_map_spec *s, unsigned cpc, int width,
    struct frame_map_try *t)
{
	int	 inner;

	t->gc = (int)((cpc + (unsigned)t->gr - 1) / (unsigned)t->gr);
	if ((unsigned)(t->gc * (t->gr - 1)) >= cpc)
		return (0);		/* a whole empty line of cells */
	inner = t->gc * t->cw;
	if (t->border) {
		if (t->bars > 0 && inner < FRAME_MAP_BAR_MIN)
			inner = FRAME_MAP_BAR_MIN;
		if (t->hist && inner < FRAME_MAP_HIST_MIN)
			inner = FRAME_MAP_HIST_MIN;
		if (inner < FRAME_MAP_TITLE_MIN)
			inner = FRAME_MAP_TITLE_MIN;
		t->box_w = inner + 2;
		t->box_h = 2 + t->gr + t->bars + t->hist;
	} else {
		/* A title line over the cells, and nothing else. */
		if (inner < FRAME_MAP_TITLE_MIN - 1)
			inner = FRAME_MAP_TITLE_MIN - 1;
		t->box_w = inner;
		t->box_h = 1 + t->gr;
	}
	if (t->box_w > width)
		return (0);
	t->per_row = frame_map_per_row(s, width, t->box_w);
	if (t->per_row < 1)
		return (0);
	t->rows = (int)((s->chips + (unsigned)t->per_row - 1) /
	    (unsigned)t->per_row);
	return (1);
}

/* Numbers first, then bars, the strip, wider cells, frame lines. */
static long
frame_map_score(const struct frame_map_try *t)
{
	return ((t->cw >= FRAME_MAP_VALUE_MIN) * 1000000L + t->bars * 100000L +
	    t->hist * 50000L + t->cw * 1000L + t->border * 500L - t->gr);
}

void
frame_map_layout(const struct frame_map_spec *s, int width, int height,
    struct frame_map *m)
{
	struct frame_map_try	 t, best;
	unsigned		 cpc, i, fit;
	long			 score, best_score = -1;
	int			 nb;

	free(m->boxes);
	memset(m, 0, sizeof *m);
	if (s->chips == 0 || s->cores == 0 || width < 1 || height < 1) {
		m->missing = s->chips;
		return;
	}
	cpc = (s->cores + s->chips - 1) / s->chips;
	nb = s->nbars < 0 ? 0 : s->nbars > FRAME_MAP_BARS ? FRAME_MAP_BARS :
	    s->nbars;
	memset(&best, 0, sizeof best);
	memset(&t, 0, sizeof t);
	for (t.border = 0; t.border <= 1; t.border++)
	for (t.cw = 1; t.cw <= FRAME_MAP_CELL_MAX; t.cw++)
	for (t.bars = 0; t.bars <= (t.border ? nb : 0); t.bars++)
	for (t.hist = 0; t.hist <= t.border; t.hist++)
	for (t.gr = 1; (unsigned)t.gr <= cpc; t.gr++) {
		if (!frame_map_size(s, cpc, width, &t) ||
		    t.rows * t.box_h > height)
			continue;
		if ((score = frame_map_score(&t)) > best_score) {
			best_score = score;
			best = t;
		}
	}
	if (best_score < 0) {
		/* Nothing shows every chip: the smallest boxes, clipped. */
		memset(&best, 0, sizeof best);
		best.cw = 1;
		best.gr = 1;
		if (!frame_map_size(s, cpc, width, &best)) {
			m->missing = s->chips;
			return;
		}
	}
	m->box_w = best.box_w;
	m->box_h = best.box_h;
	m->border = best.border;
	m->cell_w = best.cw;
	m->grid_cols = best.gc;
	m->grid_rows = best.gr;
	m->bars = best.bars;
	m->hist = best.hist;
	m->per_row = best.per_row;
	fit = (unsigned)(height / best.box_h) * (unsigned)best.per_row;
	if (fit > s->chips)
		fit = s->chips;
	m->missing = s->chips - fit;
	if (fit == 0)
		return;
	m->boxes = xcalloc(fit, sizeof *m->boxes);
	m->nboxes = fit;
	for (i = 0; i < fit; i++) {
		m->boxes[i].chip = i;
		m->boxes[i].socket = s->sockets > 0 && s->chips %
		    s->sockets == 0 ? i / (s->chips / s->sockets) : 0;
		m->boxes[i].core0 = i * cpc;
		m->boxes[i].ncores = i * cpc >= s->cores ? 0 :
		    s->cores - i * cpc < cpc ? s->cores - i * cpc : cpc;
		m->boxes[i].y = (int)(i / (unsigned)best.per_row) * best.box_h;
		m->boxes[i].x = (int)(i % (unsigned)best.per_row) *
		    (best.box_w + 1);
	}
}

void
frame_map_cell(const struct frame_map *m, unsigned nth, int *dy, int *dx)
{
	int	 gc = m->grid_cols > 0 ? m->grid_cols : 1;

	/* Under the top line: the frame line or the title. */
	*dy = 1 + (int)nth / gc;
	*dx = (m->border ? 1 : 0) + ((int)nth % gc) * m->cell_w;
}

int
frame_map_level(double v, double lo, double hi)
{
	int	 l;

	if (isnan(v))
		return (-1);
	if (!(hi > lo))
		return (FRAME_MAP_LEVELS / 2);
	if (v <= lo)
		return (0);
	if (v >= hi)
		return (FRAME_MAP_LEVELS - 1);
	l = (int)((v - lo) / (hi - lo) * FRAME_MAP_LEVELS);
	return (l < 0 ? 0 : l >= FRAME_MAP_LEVELS ? FRAME_MAP_LEVELS - 1 : l);
}

char
frame_map_shade(int level)
{
	static const char	 ramp[FRAME_MAP_LEVELS + 1] = ".,:-=+*#%@";

	if (level < 0)
		return (' ');
	return (ramp[level >= FRAME_MAP_LEVELS ? FRAME_MAP_LEVELS - 1 :
	    level]);
}
