/*
 * The frame drawn as a map: where each chip's box goes in an area of a
 * given size, how wide a core's cell is, how many bar lines and whether a
 * history strip fit in a box; and the heat scale (a value to a level, a
 * level to a shading character).  Pure: topology and sizes in, numbers
 * out, so that the layout is tested without a terminal.
 */
#ifndef HVTOP_FRAME_MAP_H
#define HVTOP_FRAME_MAP_H

#include <stddef.h>

#define FRAME_MAP_LEVELS	10	/* heat levels 0 (cold) .. 9 (hot) */
#define FRAME_MAP_BARS		4	/* bar lines a chip box may carry */
#define FRAME_MAP_VALUE_MIN	5	/* a cell this wide shows a number:
					   four characters and a gap */
#define FRAME_MAP_BAR_VALUE	9	/* the value after a bar, with its
					   unit: " 6.02GB/s", "   45.2%" */

/* What is to be drawn. */
struct frame_map_spec {
	unsigned	 sockets;
	unsigned	 chips;		/* in the frame */
	unsigned	 cores;		/* in the frame */
	int		 nbars;		/* bar lines wanted per chip, 0..4 */
};

/* One chip's box, in the area's coordinates. */
struct frame_map_box {
	unsigned	 chip;
	unsigned	 socket;
	unsigned	 core0;		/* its first core */
	unsigned	 ncores;
	int		 y, x;		/* top left corner */
};

struct frame_map {
	int		 box_w, box_h;	/* outer size of every box */
	int		 border;	/* boxes have a frame line around */
	int		 cell_w;	/* columns per core cell */
	int		 grid_cols;	/* cells per line in a box */
	int		 grid_rows;
	int		 bars;		/* bar lines per box */
	int		 hist;		/* a history strip line */
	int		 per_row;	/* boxes side by side */
	struct frame_map_box *boxes;	/* the boxes that fit, chip order */
	size_t		 nboxes;
	unsigned	 missing;	/* chips that do not fit */
};

/*
 * Lay the frame out in an area of width x height: the richest layout
 * that shows every chip (the widest cells, every bar, the history strip),
 * trading detail for room down to one character per core; when even that
 * does not fit, the boxes that do and missing says how many are left out.
 * A topology without chips or cores gives no box.  m's boxes are
 * allocated (frame_map_free()); m may hold a previous layout.
 */
void	 frame_map_layout(const struct frame_map_spec *, int width,
	    int height, struct frame_map *m);
void	 frame_map_free(struct frame_map *);

/* The cell of a core inside its box: offsets from the box's corner. */
void	 frame_map_cell(const struct frame_map *, unsigned nth, int *dy,
	    int *dx);

/*
 * The heat level of v on the scale lo..hi: 0 .. FRAME_MAP_LEVELS - 1,
 * values outside clamped; -1 for NaN.  A scale without width (hi <= lo)
 * puts everything in the middle.
 */
int	 frame_map_level(double v, double lo, double hi);
/* The shading character of a level, from '.' (cold) to '@' (hot). */
char	 frame_map_shade(int level);

#endif /* HVTOP_FRAME_MAP_H */
