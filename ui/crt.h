/*
 * The terminal: curses set up and torn down exactly once, colour roles
 * (or monochrome attributes), painting a canvas, reading keys, the signals
 * that must restore the terminal, and stderr kept in a file while curses
 * owns the screen.  The only file besides prompt.c and ui.c that includes
 * curses.h.
 */
#ifndef HVTOP_UI_CRT_H
#define HVTOP_UI_CRT_H

struct view_canvas;

/*
 * Take the terminal: stderr goes to a temporary file, curses starts in
 * cbreak/noecho mode with the keypad on.  color: 1 to use colours when
 * the terminal has them.  Returns 0, or -1 with *cause set (caller frees)
 * when the terminal cannot be used; nothing is left changed then.
 */
int	 crt_init(int color, char **cause);
/*
 * Whether the terminal on standard output can hold the screens: terminfo
 * knows it and it can place the cursor.  Returns 1, or 0 with *cause set
 * (caller frees).  Curses is not started.
 */
int	 crt_capable(char **cause);
/*
 * Give the terminal back (endwin once; a second call does nothing), put
 * stderr back and replay what was written to it meanwhile.
 */
void	 crt_done(void);
/* Colours in use: 0 (none: NO_COLOR, TERM=dumb ...), 8 or 256. */
int	 crt_colors(void);
/* Nonzero while curses is up. */
int	 crt_active(void);
/* Terminal size. */
void	 crt_size(int *width, int *height);
/*
 * Paint a canvas as it is: nothing is rendered here.  utf8: the cells of
 * sparkline levels and of chart dot masks are painted as block and
 * braille characters; without it they hold ASCII (view_canvas_ascii()).
 */
void	 crt_draw(const struct view_canvas *, int utf8);
/* Forget what is on the screen and paint everything next time. */
void	 crt_redraw(void);
/* A key or byte without waiting, or -1 when none is pending. */
int	 crt_key(void);
/* Wait at most ms for one key (ESC sequences); -1 when none came. */
int	 crt_key_wait(int ms);
/* Keypad translation on (normal keys) or off (raw bytes for readline). */
void	 crt_keypad(int on);
/* The key codes ui.c needs, without including curses.h there. */
enum crt_keys {
	CRT_KEY_NONE = -1,
	CRT_KEY_BASE = 0x10000,	/* above every byte */
	CRT_KEY_UP,
	CRT_KEY_DOWN,
	CRT_KEY_LEFT,
	CRT_KEY_RIGHT,
	CRT_KEY_PPAGE,
	CRT_KEY_NPAGE,
	CRT_KEY_HOME,
	CRT_KEY_END,
	CRT_KEY_BTAB,
	CRT_KEY_DC,
	CRT_KEY_BACKSPACE,
	CRT_KEY_ENTER,
	CRT_KEY_RESIZE,
	CRT_KEY_F1,
	CRT_KEY_F3,
	CRT_KEY_F4,
	CRT_KEY_F10,
	CRT_KEY_OTHER,
};
/* Install the handlers; signals are then reported by crt_signal(). */
void	 crt_signals(void);
/* The last SIGINT/SIGTERM/SIGHUP received (and clear it), or 0. */
int	 crt_signal(void);
/* The file descriptor to poll for input. */
int	 crt_fd(void);

#endif /* HVTOP_UI_CRT_H */
