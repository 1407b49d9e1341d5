/*
 * Screens as text: every screen of the terminal interface is rendered into
 * a canvas, a grid of ASCII characters with a colour role per cell, without
 * a single curses call.  crt.c paints a canvas; tests and benchmarks dump it
 * as plain text.  Sparkline levels are stored as '1'..'8' with the role
 * UI_R_SPARK so that the painter can draw block characters.
 */
#ifndef HVTOP_VIEW_H
#define HVTOP_VIEW_H

#include <stddef.h>
#include <stdint.h>

#include "ui/ui-model.h"

struct view_canvas {
	int		 width;
	int		 height;
	char		*chars;		/* height x width */
	size_t		 cap;		/* cells chars and roles hold */
	uint8_t		*roles;		/* enum ui_role per cell */
	int		 cursor_y;	/* the terminal cursor, -1: hidden */
	int		 cursor_x;
};

/*
 * Size a canvas and blank it.  Its memory is reused while it holds
 * width x height cells (cap), whatever width and height said before.
 */
void	 view_canvas_resize(struct view_canvas *, int width, int height);
void	 view_canvas_free(struct view_canvas *);
/*
 * Write s at (y, x), at most max characters (max < 0: to the edge), in a
 * role; bytes that are not printable ASCII become '?'.  Returns the
 * column after the text.
 */
int	 view_put(struct view_canvas *, int y, int x, const char *s, int max,
	    int role);
int	 view_putf(struct view_canvas *, int y, int x, int role,
	    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Set the role of n cells from (y, x) (n < 0: to the edge). */
void	 view_role(struct view_canvas *, int y, int x, int n, int role);
/*
 * The canvas as text: one line per row, trailing blanks removed, sparkline
 * levels as ASCII.  Allocated (caller frees).
 */
char	*view_canvas_text(const struct view_canvas *);
/*
 * Put every sparkline level and chart dot mask of a canvas in ASCII, as a
 * terminal without UTF-8 shows them; the roles stay.
 */
void	 view_canvas_ascii(struct view_canvas *);
/* The ASCII character standing for sparkline level c ('1'..'8'). */
char	 view_spark_ascii(char c);

/*
 * Copy name into buf (size len) shortened to at most width characters by
 * eliding its middle with '~', which keeps the distinguishing ends of
 * catalog names such as PM_MCS01_128B_RD_DISP_PORT23.
 */
void	 view_elide(const char *name, int width, char *buf, size_t len);
/* view_put() to the right edge, ending in '~' when s is cut there. */
int	 view_put_cut(struct view_canvas *, int y, int x, const char *s,
	    int role);

/* Sparkline of n values (NaN: gap) into width cells at (y, x). */
void	 view_spark(struct view_canvas *, int y, int x, int width,
	    const double *v, size_t n);

/*
 * A screen of the interface, registered in view.c by its enum ui_screen:
 * its tab, the step that fits the model to the rows y0..y1 of a width
 * (scroll positions, layout; the controller runs it before drawing), the
 * renderer, which only reads the model, and the status line's text
 * (allocated, or NULL).
 */
struct view_screen {
	const char	*name;
	void		(*fit)(struct ui *, int width, int y0, int y1);
	void		(*render)(const struct ui *, struct view_canvas *, int y0,
			    int y1);
	char		*(*status)(const struct ui *);
};

extern const struct view_screen view_live_screen;
extern const struct view_screen view_lpar_screen;
extern const struct view_screen view_frame_screen;
extern const struct view_screen view_events_screen;
extern const struct view_screen view_groups_screen;
extern const struct view_screen view_formulas_screen;
extern const struct view_screen view_help_screen;

#define VIEW_HEADER_LINES 5	/* header lines and the tabs */
#define VIEW_COMPACT_HEIGHT 16	/* below it the header takes 3 lines */

/*
 * Fit the model to a screen of width x height: what changes the model
 * before a canvas of that size is drawn.  Run it, then view_render().
 */
void	 view_fit(struct ui *, int width, int height);
/* Render the whole screen of the model; the model is not changed. */
void	 view_render(const struct ui *, struct view_canvas *);

/* Parts, for the renderers of each screen. */
int	 view_header(const struct ui *, struct view_canvas *);
/* Lines the header and the tabs take on a terminal of a height. */
int	 view_header_lines(int height);
/* The live table's detail pane for the cursor row; lines used. */
int	 view_live_detail(const struct ui *, struct view_canvas *, int y0,
	    int y1);
/* One-line explanation of the cursor cell; allocated or NULL. */
char	*view_live_status(const struct ui *);
/* Rows the content area leaves for the list when details are shown. */
int	 view_detail_height(const struct ui *, int rows);

#endif /* HVTOP_VIEW_H */
