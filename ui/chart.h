/*
 * A history chart as a grid of cells, without curses: a series of values
 * (NaN or infinite: missing, drawn as a gap, never as 0) with the age of
 * each sample, drawn into width x height cells with a value axis labelled
 * with the minimum and maximum, a time axis with ticks ("-30s", "now") and
 * a line "min ... max ... last ... UNIT  (last 2m)".  The plot is braille
 * (2 x 4 dots a cell), block characters (8 levels a cell) or ASCII.
 */
#ifndef HVTOP_UI_CHART_H
#define HVTOP_UI_CHART_H

#include <stddef.h>
#include <stdint.h>

enum chart_mode {
	CHART_ASCII,		/* '*' per sample */
	CHART_BLOCK,		/* cell: level '0'..'8' of U+2581..U+2588 */
	CHART_BRAILLE		/* cell: the dot mask of U+2800 + mask */
};

/* What a cell holds. */
enum chart_kind {
	CHART_K_TEXT,		/* labels, the summary: ASCII */
	CHART_K_AXIS,		/* '|', '-', '+': ASCII */
	CHART_K_PLOT		/* by the mode: see enum chart_mode */
};

struct chart_series {
	const double	*v;		/* oldest first; NaN: missing */
	const double	*age;		/* seconds before the newest, or NULL */
	size_t		 n;
	const char	*unit;		/* for the summary, or NULL */
};

struct chart {
	int		 width;
	int		 height;
	enum chart_mode	 mode;
	unsigned char	*cells;		/* height x width */
	uint8_t		*kinds;		/* enum chart_kind per cell */
	size_t		 shown;		/* samples that fitted */
};

#define CHART_MIN_WIDTH		24
#define CHART_MIN_HEIGHT	4	/* one plot row and three lines */

/*
 * Draw the newest samples that fit into a chart of width x height (at
 * least CHART_MIN_WIDTH x CHART_MIN_HEIGHT: else -1 and an empty chart).
 * The chart's memory is reused across calls; chart_free() releases it.
 */
int	 chart_render(const struct chart_series *, int width, int height,
	    enum chart_mode, struct chart *);
void	 chart_free(struct chart *);
/* Line y of the chart as UTF-8, trailing blanks removed; allocated. */
char	*chart_line(const struct chart *, int y);
/* A cell as UTF-8 into buf (at least 4 bytes and a NUL); its length. */
int	 chart_cell_utf8(enum chart_mode, int kind, unsigned char c,
	    char *buf);
/*
 * Whether values from lo to hi are one value as the screen writes it
 * (three significant digits): they vary by less than CHART_FLAT of it,
 * and a sparkline or chart of them is a flat line.
 */
#define CHART_FLAT	1e-3
int	 chart_flat(double lo, double hi);
/* The ASCII character that stands for a plot cell in a text dump. */
char	 chart_cell_ascii(enum chart_mode, unsigned char c);

#endif /* HVTOP_UI_CHART_H */
