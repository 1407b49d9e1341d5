/*
 * History charts as cells: the scale, the dots or blocks of the plot, the
 * axes, the ticks and the summary line, computed from the values and the
 * samples' ages alone.  No curses and no clock: the caller gives the ages,
 * the painter turns plot cells into characters (chart_cell_utf8()).  A
 * missing value leaves its column empty; it is never drawn as 0.
 */
#include "config.h"

#include "ui/chart.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/numfmt-si.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define CHART_LABEL_MAX	8	/* the widest value on an axis */
#define CHART_TICK_GAP	12	/* cells between time ticks, at least */

static void
chart_put(struct chart *c, int y, int x, const char *s, int kind)
{
	size_t	 off;

	for (; *s != '\0' && x < c->width; s++, x++) {
		if (x < 0 || y < 0 || y >= c->height)
			continue;
		off = (size_t)y * (size_t)c->width + (size_t)x;
		c->cells[off] = (unsigned char)*s;
		c->kinds[off] = (uint8_t)kind;
	}
}

/* A value in a few characters, in its own prefix. */
static void
chart_num(double v, char *buf, size_t len)
{
	char	 num[NUMFMT_SI_MAX];

	numfmt_si(num, v, -1, 0, CHART_LABEL_MAX);
	snprintf(buf, len, "%s", num);
}

/* "-30s", "-2m", "-1h": a tick's age, a multiple of a round step. */
static void
chart_age(double a, char *buf, size_t len)
{
	if (a >= 3600 && fmod(a, 3600) == 0)
		snprintf(buf, len, "-%gh", a / 3600);
	else if (a >= 60 && fmod(a, 60) == 0)
		snprintf(buf, len, "-%gm", a / 60);
	else
		snprintf(buf, len, "-%gs", a);
}

/* "2m": the span of the window, rounded. */
static void
chart_span(double a, char *buf, size_t len)
{
	if (a < 10)
		snprintf(buf, len, "%.1fs", a);
	else if (a < 100)
		snprintf(buf, len, "%.0fs", a);
	else if (a < 6000)
		snprintf(buf, len, "%.0fm", a / 60);
	else
		snprintf(buf, len, "%.0fh", a / 3600);
}

int
chart_flat(double lo, double hi)
{
	double	 m = fabs(hi) > fabs(lo) ? fabs(hi) : fabs(lo);

	return (!(hi > lo) || hi - lo <= CHART_FLAT * m);
}

/* Where v falls between lo and hi, 0..1; halves keep huge spans finite. */
static double
chart_frac(double v, double lo, double hi)
{
	double	 f;

	if (!(hi > lo))
		return (0.5);
	f = (v / 2 - lo / 2) / (hi / 2 - lo / 2);
	return (f < 0 ? 0 : f > 1 ? 1 : f);
}

static void
chart_plot(struct chart *c, const double *v, size_t n, int px, int rows,
    double lo, double hi)
{
	unsigned char	*cell;
	size_t		 j;
	long		 l, lp = -1, a, b, k, levels;
	int		 spc, cap, dc, x, y, r, fill;

	spc = c->mode == CHART_BRAILLE ? 2 : 1;
	cap = (c->width - px) * spc;
	levels = c->mode == CHART_BRAILLE ? 4L * rows :
	    c->mode == CHART_BLOCK ? 8L * rows : rows;
	for (j = 0; j < n; j++) {
		dc = cap - (int)n + (int)j;
		x = px + dc / spc;
		if (!isfinite(v[j])) {
			lp = -1;
			continue;
		}
		l = lround(chart_frac(v[j], lo, hi) * (double)(levels - 1));
		switch (c->mode) {
		case CHART_BRAILLE:
			/* Join a step to the previous dot, in this column. */
			a = lp < 0 ? l : (lp < l ? lp + 1 : l);
			b = lp < 0 ? l : (lp > l ? lp - 1 : l);
			if (a > b)
				a = b = l;
			for (k = a; k <= b; k++) {
				y = (int)((levels - 1 - k) / 4);
				r = (int)((levels - 1 - k) % 4);
				cell = &c->cells[(size_t)y * (size_t)c->width +
				    (size_t)x];
				*cell |= (unsigned char)(r < 3 ?
				    1U << (r + 3 * (dc % 2)) :
				    0x40U << (dc % 2));
			}
			break;
		case CHART_BLOCK:
			for (y = 0; y < rows; y++) {
				fill = (int)(l + 1 - 8L * (rows - 1 - y));
				fill = fill < 0 ? 0 : fill > 8 ? 8 : fill;
				c->cells[(size_t)y * (size_t)c->width +
				    (size_t)x] = (unsigned char)('0' + fill);
			}
			break;
		case CHART_ASCII:
			y = rows - 1 - (int)l;
			c->cells[(size_t)y * (size_t)c->width + (size_t)x] =
			    '*';
			break;
		}
		lp = l;
	}
}

/* Ticks at round ages under the axis; "now" at the newest sample. */
static void
chart_ticks(struct chart *c, const double *age, size_t n, int px, int rows)
{
	static const double	 steps[] = { 0.1, 0.2, 0.5, 1, 2, 5, 10, 15,
				    30, 60, 120, 300, 600, 900, 1800, 3600,
				    7200, 21600, 86400 };
	double			 span, step, a, d, best;
	size_t			 i, j, bj;
	int			 spc, cap, x, start, end, len;
	char			 buf[32];

	spc = c->mode == CHART_BRAILLE ? 2 : 1;
	cap = (c->width - px) * spc;
	len = 3;
	end = c->width - len;
	chart_put(c, rows, c->width - 1, "+", CHART_K_AXIS);
	chart_put(c, rows + 1, end, "now", CHART_K_TEXT);
	if (age == NULL || n < 2 || !(age[0] > 0))
		return;
	span = age[0];
	step = steps[sizeof steps / sizeof steps[0] - 1];
	for (i = 0; i < sizeof steps / sizeof steps[0]; i++) {
		/* Ticks no closer than CHART_TICK_GAP cells. */
		if (steps[i] / span * (double)n / spc >= CHART_TICK_GAP) {
			step = steps[i];
			break;
		}
	}
	for (i = 1; (a = step * (double)i) <= span; i++) {
		best = INFINITY;
		bj = 0;
		for (j = 0; j < n; j++) {
			d = fabs(age[j] - a);
			if (d < best) {
				best = d;
				bj = j;
			}
		}
		x = px + (cap - (int)n + (int)bj) / spc;
		chart_age(a, buf, sizeof buf);
		len = (int)strlen(buf);
		start = x - len / 2;
		if (start < px)
			start = px;
		if (start + len + 1 > end)
			continue;
		chart_put(c, rows, x, "+", CHART_K_AXIS);
		chart_put(c, rows + 1, start, buf, CHART_K_TEXT);
		end = start;
	}
}

/* The range of the finite values of v[first, n): 0 when there is none. */
static int
chart_range(const double *v, size_t first, size_t n, double *lo, double *hi)
{
	size_t	 i;
	int	 have = 0;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (i = first; i < n; i++) {
		if (!isfinite(v[i]))
			continue;
		have = 1;
		*lo = v[i] < *lo ? v[i] : *lo;
		*hi = v[i] > *hi ? v[i] : *hi;
	}
	return (have);
}

/* The plot's cells blank in their mode, right of the labels' lw columns,
 * and the axes. */
static void
chart_frame(struct chart *c, int lw, int rows)
{
	int	 x, y, px = lw + 2;
	size_t	 at;

	for (y = 0; y < rows; y++) {
		for (x = px; x < c->width; x++) {
			at = (size_t)y * (size_t)c->width + (size_t)x;
			c->cells[at] = c->mode == CHART_BRAILLE ? 0 :
			    c->mode == CHART_BLOCK ? '0' : ' ';
			c->kinds[at] = CHART_K_PLOT;
		}
		chart_put(c, y, lw + 1, "|", CHART_K_AXIS);
	}
	chart_put(c, rows, lw + 1, "+", CHART_K_AXIS);
	for (x = lw + 2; x < c->width; x++)
		chart_put(c, rows, x, "-", CHART_K_AXIS);
}

/* The line under the ticks: min, max, last, the unit and the span. */
static void
chart_footer(struct chart *c, const struct chart_series *s, size_t first,
    int have, const char *ll, const char *hl, int row)
{
	struct strbuf	 sb = { 0 };
	double		 last;
	size_t		 n = s->n;
	char		 buf[32];

	last = n > 0 ? s->v[n - 1] : NAN;
	if (have) {
		strbuf_addf(&sb, "min %s  max %s  last ", ll, hl);
		if (isfinite(last)) {
			chart_num(last, buf, sizeof buf);
			strbuf_adds(&sb, buf);
		} else
			strbuf_adds(&sb, "-");
	} else
		strbuf_adds(&sb, "min -  max -  last -");
	if (s->unit != NULL && s->unit[0] != '\0')
		strbuf_addf(&sb, " %s", s->unit);
	/* The window's span, where the line has room for it. */
	if (s->age != NULL && n - first > 1) {
		chart_span(s->age[first], buf, sizeof buf);
		if ((int)(sb.len + strlen(buf)) + 9 <= c->width)
			strbuf_addf(&sb, "  (last %s)", buf);
	}
	chart_put(c, row, 0, sb.s, CHART_K_TEXT);
	strbuf_free(&sb);
}

int
chart_render(const struct chart_series *s, int width, int height,
    enum chart_mode mode, struct chart *c)
{
	double		 lo, hi;
	size_t		 n, first = 0, cells;
	char		 hl[32], ll[32], buf[32];
	int		 lw, px = 0, rows, spc, y, pass, have;

	c->shown = 0;
	if (width < CHART_MIN_WIDTH || height < CHART_MIN_HEIGHT) {
		c->width = c->height = 0;
		return (-1);
	}
	cells = (size_t)width * (size_t)height;
	if (c->cells == NULL || (size_t)c->width * (size_t)c->height <
	    cells) {
		free(c->cells);
		free(c->kinds);
		c->cells = xmalloc(cells);
		c->kinds = xmalloc(cells);
	}
	c->width = width;
	c->height = height;
	c->mode = mode;
	memset(c->cells, ' ', cells);
	memset(c->kinds, CHART_K_TEXT, cells);
	rows = height - 3;
	spc = mode == CHART_BRAILLE ? 2 : 1;

	/* The labels' width decides the plot's, which decides the samples
	 * shown, which decide the labels: take every sample's range first,
	 * then the range of those that fit. */
	n = s->n;
	have = chart_range(s->v, 0, n, &lo, &hi);
	for (pass = 0; pass < 2; pass++) {
		chart_num(hi, hl, sizeof hl);
		chart_num(lo, ll, sizeof ll);
		lw = have ? (int)(strlen(hl) > strlen(ll) ? strlen(hl) :
		    strlen(ll)) : 1;
		px = lw + 2;
		first = n > (size_t)(width - px) * (size_t)spc ?
		    n - (size_t)(width - px) * (size_t)spc : 0;
		have = chart_range(s->v, first, n, &lo, &hi);
	}
	chart_num(hi, hl, sizeof hl);
	chart_num(lo, ll, sizeof ll);
	c->shown = n - first;

	/* Plot cells start blank in their mode. */
	chart_frame(c, lw, rows);
	if (have && !chart_flat(lo, hi)) {
		snprintf(buf, sizeof buf, "%*s", lw, hl);
		chart_put(c, 0, 0, buf, CHART_K_TEXT);
		snprintf(buf, sizeof buf, "%*s", lw, ll);
		chart_put(c, rows - 1, 0, buf, CHART_K_TEXT);
	} else if (have) {
		/* One value: its label on the row of its line. */
		y = mode == CHART_BRAILLE ? (4 * rows - 1 -
		    (int)lround(0.5 * (4 * rows - 1))) / 4 :
		    mode == CHART_BLOCK ? (8 * rows - 1 -
		    (int)lround(0.5 * (8 * rows - 1))) / 8 :
		    rows - 1 - (int)lround(0.5 * (rows - 1));
		snprintf(buf, sizeof buf, "%*s", lw, hl);
		chart_put(c, y, 0, buf, CHART_K_TEXT);
	}
	/* A line constant within rounding is drawn flat, not as noise
	 * blown up to the chart's height. */
	if (have)
		chart_plot(c, s->v + first, n - first, px, rows, lo,
		    chart_flat(lo, hi) ? lo : hi);
	chart_ticks(c, s->age != NULL ? s->age + first : NULL, n - first,
	    px, rows);
	chart_footer(c, s, first, have, ll, hl, rows + 2);
	return (0);
}

void
chart_free(struct chart *c)
{
	free(c->cells);
	free(c->kinds);
	memset(c, 0, sizeof *c);
}

int
chart_cell_utf8(enum chart_mode mode, int kind, unsigned char ch, char *buf)
{
	unsigned	 u;

	if (kind != CHART_K_PLOT || mode == CHART_ASCII ||
	    (mode == CHART_BRAILLE && ch == 0) ||
	    (mode == CHART_BLOCK && (ch <= '0' || ch > '8'))) {
		buf[0] = kind == CHART_K_PLOT && mode != CHART_ASCII ? ' ' :
		    (char)ch;
		buf[1] = '\0';
		return (1);
	}
	u = mode == CHART_BRAILLE ? 0x2800U + ch : 0x2580U + (ch - '0');
	buf[0] = (char)(0xe0 | (u >> 12));
	buf[1] = (char)(0x80 | ((u >> 6) & 0x3f));
	buf[2] = (char)(0x80 | (u & 0x3f));
	buf[3] = '\0';
	return (3);
}

char
chart_cell_ascii(enum chart_mode mode, unsigned char ch)
{
	static const char	 ramp[] = " _.:-=+*#";

	switch (mode) {
	case CHART_BRAILLE:
		/* Dots in the upper half, the lower half, or both. */
		if (ch == 0)
			return (' ');
		if ((ch & 0x1b) != 0 && (ch & 0xe4) != 0)
			return (':');
		return ((ch & 0x1b) != 0 ? '\'' : '.');
	case CHART_BLOCK:
		return (ch >= '0' && ch <= '8' ? ramp[ch - '0'] : ' ');
	default:
		return ((char)ch);
	}
}

char *
chart_line(const struct chart *c, int y)
{
	struct strbuf	 sb = { 0 };
	char		 buf[8];
	size_t		 off;
	int		 x;

	strbuf_adds(&sb, "");
	if (y < 0 || y >= c->height)
		return (strbuf_detach(&sb));
	for (x = 0; x < c->width; x++) {
		off = (size_t)y * (size_t)c->width + (size_t)x;
		chart_cell_utf8(c->mode, c->kinds[off], c->cells[off], buf);
		strbuf_adds(&sb, buf);
	}
	while (sb.len > 0 && sb.s[sb.len - 1] == ' ')
		sb.s[--sb.len] = '\0';
	return (strbuf_detach(&sb));
}
