/*
 * The Frame screen's model: which engine view and column hold the metric
 * shown as heat (chosen by name with m, else the cores' busy share, else
 * the first core column Live shows), which chip metrics make the bars
 * (memory read and write bandwidth, PowerBus and link utilisation), each
 * core's and chip's row, the heat scale, the largest bar values seen,
 * the layout of the boxes (model/frame-map.c) and the cursor.  No curses:
 * view-frame.c draws from this and the tests read it directly.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "session/session.h"
#include "model/frame-map.h"
#include "model/raw.h"
#include "ui/ui-model.h"
#include "util/xalloc.h"

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
	int		 b, used;

	fr->nbars = 0;
	if (v == NULL)
		return;
	for (w = 0; w < FRAME_MAP_BARS; w++) {
		for (m = 0; m < v->nmetrics; m++) {
			name = v->metrics[m].name;
			if (!frame_has(name, want[w].a, want[w].b) &&
			    !frame_has(name, want[w].c, want[w].d))
				continue;
			/* PowerBus_UTIL is not a link's too. */
			for (b = used = 0; b < fr->nbars; b++)
				used |= fr->bar_col[b] == v->nevents + m;
			if (used)
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

int
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
int
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

int
frame_core_picked(const struct ui *ui, unsigned core, unsigned chip)
{
	const struct ui_frame	*fr = &ui->fr;

	if (fr->mview < 0)
		return (0);
	if (fr->mcore)
		return (core < fr->ncore_row && fr->core_row[core] >= 0);
	return (chip < fr->nchip_row && fr->chip_row[chip] >= 0);
}

/* Whether some row of view can have a value in col: a metric whose
 * operands no row reads together would colour no core. */
static int
frame_col_picked(const struct ui *ui, long view, size_t col)
{
	const struct engine		*e = session_engine(ui->ses);
	const struct engine_cell	*c;
	size_t				 r;

	if (ui->snap == NULL)
		return (1);
	for (r = 0; r < engine_view(e, (size_t)view)->nrows; r++) {
		c = engine_cell(e, ui->snap, (size_t)view, r, col);
		if (c != NULL && c->status != ENG_ABSENT)
			return (1);
	}
	return (0);
}

/* The first column of v in Live's order that some row reads. */
static long
frame_first_col(const struct ui *ui, long view, const struct engine_view *v)
{
	size_t	 n = v->nevents + v->nmetrics, k, col;

	for (k = 0; k < n; k++) {
		col = (k + v->nevents) % n;
		if (frame_col_picked(ui, view, col))
			return ((long)col);
	}
	return (v->nmetrics > 0 ? (long)v->nevents : 0);
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
	/* By default the cores' busy share: the first column of a core
	 * group may be one where hot means idle (CPM_0THRD_NON_IDLE_CCYC)
	 * or flat (CPM_CCYC). */
	if (fr->mview < 0 && cv != NULL &&
	    (col = frame_find_col(cv, SESSION_METRIC_BUSY)) >= 0 &&
	    frame_col_picked(ui, fr->cview, (size_t)col))
		fr->mview = fr->cview;
	if (fr->mview < 0 && cv != NULL && cv->nevents + cv->nmetrics > 0) {
		/* Else the first column Live shows (metrics come first) that
		 * some core reads, or the very first. */
		fr->mview = fr->cview;
		col = frame_first_col(ui, fr->cview, cv);
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

void
frame_fit(struct ui *ui, int width, int y0, int y1)
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
	fr->y0 = y0;
	frame_map_layout(&s, width, y1 - fr->y0, &fr->map);
	if (t->chips > 0 && fr->chip >= t->chips)
		fr->chip = t->chips - 1;
	if (fr->core >= (long)t->cores)
		fr->core = t->cores > 0 ? (long)t->cores - 1 : -1;
}

const char *
frame_metric_unit(const struct ui *ui)
{
	if (ui->fr.mview < 0)
		return ("");
	return (live_col_unit(ui, (size_t)ui->fr.mview, ui->fr.mcol));
}

const char *
frame_metric_name(const struct ui *ui)
{
	if (ui->fr.mview < 0)
		return ("");
	return (frame_col_name(engine_view(session_engine(ui->ses),
	    (size_t)ui->fr.mview), ui->fr.mcol));
}

const char *
frame_bar_unit(const struct ui *ui, int b)
{
	if (ui->fr.chview < 0 || b < 0 || b >= ui->fr.nbars)
		return ("");
	return (live_col_unit(ui, (size_t)ui->fr.chview, ui->fr.bar_col[b]));
}
