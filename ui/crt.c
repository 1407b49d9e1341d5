/*
 * The terminal under curses.  Every way out restores it: crt_done() on a
 * normal exit; SIGINT, SIGTERM and SIGHUP only set a flag that the main
 * loop turns into a normal exit; every other signal whose default action
 * ends the process (SIGQUIT from Ctrl-\, SIGABRT, SIGSEGV, SIGPIPE,
 * SIGUSR1, SIGALRM, the real-time signals ...) restores what it can
 * (cursor, endwin, stderr) in the handler and is raised again with its
 * default action, so the exit status says which signal it was.
 * While curses is up stderr goes to an unlinked temporary file, so stray
 * messages cannot corrupt the screen; they are replayed after endwin.
 */
#include "config.h"

#include "ui/crt.h"

#include <curses.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include "model/frame-map.h"
#include "ui/ui-model.h"
#include "ui/view.h"
#include "sys/iowait.h"
#include "sys/mapguard.h"
#include "util/xalloc.h"

/* Last: it defines the capabilities' names (lines, columns ...) as macros. */
#include <term.h>

static SCREEN			*crt_screen;
static int			 crt_up;
static int			 crt_err_fd = -1;	/* the file */
static int			 crt_err_saved = -1;	/* the real stderr */
static volatile sig_atomic_t	 crt_sig;
static attr_t			 crt_attr[UI_NROLES];
static short			 crt_pair[UI_NROLES];
static int			 crt_ncolors;
static int			 crt_drawn_w = -1;	/* the size drawn */
static int			 crt_drawn_h = -1;

static void
crt_stderr_begin(void)
{
	const char	*dir;
	char		*path;
	int		 fd;

	fflush(stderr);
	if ((dir = getenv("TMPDIR")) == NULL || *dir == '\0')
		dir = "/tmp";
	path = xasprintf("%s/hvtop-stderr.XXXXXX", dir);
	fd = mkstemp(path);
	if (fd != -1)
		unlink(path);
	free(path);
	if (fd == -1)
		return;
	if ((crt_err_saved = dup(STDERR_FILENO)) == -1 ||
	    dup2(fd, STDERR_FILENO) == -1) {
		close(fd);
		if (crt_err_saved != -1)
			close(crt_err_saved);
		crt_err_saved = -1;
		return;
	}
	crt_err_fd = fd;
}

static void
crt_stderr_end(void)
{
	char	 buf[4096];
	ssize_t	 n;

	if (crt_err_saved == -1)
		return;
	fflush(stderr);
	dup2(crt_err_saved, STDERR_FILENO);
	close(crt_err_saved);
	crt_err_saved = -1;
	if (lseek(crt_err_fd, 0, SEEK_SET) == 0) {
		while ((n = read(crt_err_fd, buf, sizeof buf)) > 0) {
			if (write(STDERR_FILENO, buf, (size_t)n) != n)
				break;
		}
	}
	close(crt_err_fd);
	crt_err_fd = -1;
}

/*
 * The heat levels: a perceptual scale from dark violet through teal and
 * green to yellow (the xterm cube's nearest to viridis) with 256
 * colours; blue, cyan, green, yellow, red with 8; without colours the
 * Frame screen draws shading characters and the hottest levels are bold
 * or reversed as well.  Pairs from n on.
 */
static void
crt_heat(int color, short n)
{
	static const short	 c256[FRAME_MAP_LEVELS] = { 53, 54, 60, 24, 30,
	    36, 72, 77, 148, 220 };
	static const short	 c8[FRAME_MAP_LEVELS / 2] = { COLOR_BLUE,
	    COLOR_CYAN, COLOR_GREEN, COLOR_YELLOW, COLOR_RED };
	int			 l;
	short			 bg;

	crt_ncolors = !color ? 0 : COLORS >= 256 && COLOR_PAIRS > n +
	    FRAME_MAP_LEVELS ? 256 : 8;
	for (l = 0; l < FRAME_MAP_LEVELS; l++) {
		crt_pair[UI_R_HEAT + l] = 0;
		crt_attr[UI_R_HEAT + l] = l >= 8 ? A_REVERSE | A_BOLD :
		    l >= 5 ? A_BOLD : A_NORMAL;
		if (crt_ncolors == 0)
			continue;
		bg = crt_ncolors == 256 ? c256[l] : c8[l / 2];
		init_pair(n, crt_ncolors == 256 ? (l < 5 ? COLOR_WHITE :
		    COLOR_BLACK) : (l < 2 ? COLOR_WHITE : COLOR_BLACK), bg);
		crt_pair[UI_R_HEAT + l] = n++;
		crt_attr[UI_R_HEAT + l] = crt_ncolors == 256 && l < 5 ?
		    A_BOLD : A_NORMAL;
	}
}

int
crt_colors(void)
{
	return (crt_ncolors);
}

/* Monochrome attributes, and colour pairs where colours exist. */
static void
crt_roles(int color)
{
	static const struct {
		int	 role;
		attr_t	 mono;
		short	 fg, bg;
		attr_t	 extra;
	} t[] = {
		{ UI_R_NORMAL,	 A_NORMAL, -1, -1, 0 },
		{ UI_R_HEADER,	 A_BOLD, -1, -1, A_BOLD },
		{ UI_R_SIM,	 A_REVERSE | A_BOLD, COLOR_WHITE, COLOR_RED,
		    A_BOLD },
		{ UI_R_TAB,	 A_NORMAL, COLOR_BLACK, COLOR_CYAN, 0 },
		{ UI_R_TAB_ON,	 A_REVERSE | A_BOLD, COLOR_BLACK, COLOR_GREEN,
		    A_BOLD },
		{ UI_R_TITLE,	 A_BOLD, COLOR_CYAN, -1, A_BOLD },
		{ UI_R_COLHEAD,	 A_UNDERLINE, COLOR_BLACK, COLOR_GREEN, 0 },
		{ UI_R_SORTHEAD, A_BOLD | A_UNDERLINE, COLOR_BLACK, COLOR_CYAN,
		    A_BOLD },
		{ UI_R_CURSOR,	 A_REVERSE, COLOR_BLACK, COLOR_CYAN, 0 },
		{ UI_R_CELL,	 A_REVERSE | A_BOLD | A_UNDERLINE, COLOR_BLACK,
		    COLOR_YELLOW, A_BOLD },
		{ UI_R_TOTAL,	 A_BOLD, -1, -1, A_BOLD },
		{ UI_R_INVALID,	 A_DIM, COLOR_RED, -1, 0 },
		{ UI_R_ERROR,	 A_BOLD, COLOR_RED, -1, A_BOLD },
		{ UI_R_WARN,	 A_BOLD, COLOR_YELLOW, -1, 0 },
		{ UI_R_DIM,	 A_DIM, COLOR_BLUE, -1, A_BOLD },
		{ UI_R_SPARK,	 A_NORMAL, COLOR_GREEN, -1, 0 },
		{ UI_R_KEY,	 A_BOLD, -1, -1, A_BOLD },
		{ UI_R_BAR,	 A_REVERSE, COLOR_BLACK, COLOR_CYAN, 0 },
		{ UI_R_PROMPT,	 A_NORMAL, -1, -1, 0 },
		{ UI_R_PICKED,	 A_BOLD, COLOR_GREEN, -1, A_BOLD },
		{ UI_R_GOOD,	 A_NORMAL, COLOR_GREEN, -1, 0 },
		{ UI_R_BRAILLE,	 A_NORMAL, COLOR_GREEN, -1, 0 },
		{ UI_R_PLOT,	 A_NORMAL, COLOR_GREEN, -1, 0 },
	};
	size_t	 i;
	short	 n = 1;

	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		crt_attr[t[i].role] = t[i].mono;
		crt_pair[t[i].role] = 0;
		if (!color || (t[i].fg == -1 && t[i].bg == -1)) {
			if (color)
				crt_attr[t[i].role] = t[i].extra;
			continue;
		}
		init_pair(n, t[i].fg, t[i].bg);
		crt_pair[t[i].role] = n++;
		crt_attr[t[i].role] = t[i].extra;
	}
	crt_heat(color, n);
}

/*
 * Home and End as terminals send them, whatever TERM's entry says: the
 * VT220 pair (tmux, screen, PuTTY, the Linux console), rxvt's, and the
 * xterm forms.  A sequence TERM binds to another key (xterm's entry has
 * "\033[1~" as Find) keeps it; crt_map() reads that key as Home.
 */
static void
crt_home_end(void)
{
	static const struct {
		const char	*seq;
		int		 key;
	} keys[] = {
		{ "\033[1~", KEY_HOME }, { "\033[4~", KEY_END },
		{ "\033[7~", KEY_HOME }, { "\033[8~", KEY_END },
		{ "\033[H", KEY_HOME }, { "\033[F", KEY_END },
		{ "\033OH", KEY_HOME }, { "\033OF", KEY_END },
	};
	size_t	 i;

	for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		if (key_defined(keys[i].seq) == 0)
			define_key(keys[i].seq, keys[i].key);
	}
}

int
crt_init(int color, char **cause)
{
	const char	*term;

	if (crt_up)
		return (0);
	term = getenv("TERM");
	crt_stderr_begin();
	/* newterm(), not initscr(): initscr exits on a bad terminal. */
	crt_screen = newterm(NULL, stdout, stdin);
	if (crt_screen == NULL) {
		crt_stderr_end();
		/* Set: without it ui_capable() chose -b. */
		*cause = xasprintf("cannot use the terminal '%s' (use -b for "
		    "batch output)", term);
		return (-1);
	}
	crt_up = 1;
	crt_drawn_w = crt_drawn_h = -1;
	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, TRUE);
	crt_home_end();
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	if (term != NULL && strcmp(term, "dumb") == 0)
		color = 0;
	if (color && has_colors()) {
		start_color();
		use_default_colors();
	} else
		color = 0;
	crt_roles(color);
	return (0);
}

int
crt_capable(char **cause)
{
	TERMINAL	*saved = cur_term, *t;
	const char	*term = getenv("TERM"), *cup;
	int		 err = 0, ok;

	if (term == NULL || *term == '\0') {
		*cause = xstrdup("TERM is not set");
		return (0);
	}
	if (setupterm(NULL, STDOUT_FILENO, &err) != OK) {
		*cause = xasprintf("the terminal '%s' is not known here", term);
		return (0);
	}
	/* A printing terminal (dumb, an editor's shell) has no cup. */
	cup = tigetstr("cup");
	ok = cup != NULL && cup != (const char *)-1;
	t = cur_term;
	set_curterm(saved);
	del_curterm(t);
	if (!ok)
		*cause = xasprintf("the terminal '%s' cannot place the cursor",
		    term);
	return (ok);
}

void
crt_done(void)
{
	if (!crt_up)
		return;
	crt_up = 0;
	curs_set(1);
	endwin();
	delscreen(crt_screen);
	crt_screen = NULL;
	crt_stderr_end();
}

int
crt_active(void)
{
	return (crt_up);
}

void
crt_size(int *width, int *height)
{
	getmaxyx(stdscr, *height, *width);
}

static void
crt_attrs(int role)
{
	attrset(crt_attr[role] | COLOR_PAIR(crt_pair[role]));
}

void
crt_draw(const struct view_canvas *f, int utf8)
{
	const char	*row;
	const uint8_t	*roles;
	wchar_t		 w[512];
	int		 y, x, e, i, maxy, maxx;

	getmaxyx(stdscr, maxy, maxx);
	/* The loop never writes the last cell: it must not keep what was
	 * there before a resize. */
	if (maxx != crt_drawn_w || maxy != crt_drawn_h) {
		erase();
		crt_drawn_w = maxx;
		crt_drawn_h = maxy;
	}
	for (y = 0; y < f->height && y < maxy; y++) {
		row = f->chars + (size_t)y * (size_t)f->width;
		roles = f->roles + (size_t)y * (size_t)f->width;
		for (x = 0; x < f->width && x < maxx; x = e) {
			for (e = x + 1; e < f->width && e < maxx &&
			    roles[e] == roles[x]; e++)
				;
			crt_attrs(roles[x]);
			/* The last cell of the screen cannot be written
			 * without scrolling on some terminals. */
			if (y == maxy - 1 && e == maxx)
				e--;
			if (e <= x)
				break;
			if (roles[x] == UI_R_SPARK && utf8) {
				for (i = 0; i < e - x && i < 511; i++)
					w[i] = row[x + i] >= '1' &&
					    row[x + i] <= '8' ?
					    (wchar_t)(0x2580 + row[x + i] -
					    '0') : L' ';
				w[i] = L'\0';
				mvaddnwstr(y, x, w, i);
			} else if (roles[x] == UI_R_BRAILLE && utf8) {
				for (i = 0; i < e - x && i < 511; i++)
					w[i] = (wchar_t)(0x2800 +
					    (unsigned char)row[x + i]);
				w[i] = L'\0';
				mvaddnwstr(y, x, w, i);
			} else
				mvaddnstr(y, x, row + x, e - x);
		}
	}
	attrset(A_NORMAL);
	if (f->cursor_y >= 0) {
		move(f->cursor_y, f->cursor_x);
		curs_set(1);
	} else
		curs_set(0);
	refresh();
}

void
crt_redraw(void)
{
	clearok(curscr, TRUE);
}

static int
crt_map(int ch)
{
	if (ch == ERR)
		return (CRT_KEY_NONE);
	if (ch >= 0 && ch < 256)
		return (ch);
	switch (ch) {
	case KEY_UP:		return (CRT_KEY_UP);
	case KEY_DOWN:		return (CRT_KEY_DOWN);
	case KEY_LEFT:		return (CRT_KEY_LEFT);
	case KEY_RIGHT:		return (CRT_KEY_RIGHT);
	case KEY_PPAGE:		return (CRT_KEY_PPAGE);
	case KEY_NPAGE:		return (CRT_KEY_NPAGE);
	/* Find and Select are where VT220 keyboards have Home and End. */
	case KEY_HOME:
	case KEY_FIND:
	case KEY_A1:
	case KEY_BEG:		return (CRT_KEY_HOME);
	case KEY_END:
	case KEY_SELECT:
	case KEY_C1:
	case KEY_LL:		return (CRT_KEY_END);
	case KEY_BTAB:		return (CRT_KEY_BTAB);
	case KEY_DC:		return (CRT_KEY_DC);
	case KEY_BACKSPACE:	return (CRT_KEY_BACKSPACE);
	case KEY_ENTER:		return (CRT_KEY_ENTER);
	case KEY_RESIZE:	return (CRT_KEY_RESIZE);
	case KEY_F(1):		return (CRT_KEY_F1);
	case KEY_F(3):		return (CRT_KEY_F3);
	case KEY_F(4):		return (CRT_KEY_F4);
	case KEY_F(10):		return (CRT_KEY_F10);
	default:		return (CRT_KEY_OTHER);
	}
}

int
crt_key(void)
{
	return (crt_map(wgetch(stdscr)));
}

int
crt_key_wait(int ms)
{
	int	 ch;

	wtimeout(stdscr, ms);
	ch = wgetch(stdscr);
	nodelay(stdscr, TRUE);
	return (crt_map(ch));
}

void
crt_keypad(int on)
{
	keypad(stdscr, on ? TRUE : FALSE);
}

int
crt_fd(void)
{
	return (STDIN_FILENO);
}

static void
crt_on_quit(int sig)
{
	crt_sig = sig;
	/* A write that waits (a -w FIFO nobody reads) ends too. */
	iowait_stop(sig);
}

/* Best effort: the program is dying; give the user a usable terminal. */
static void
crt_on_fatal(int sig)
{
	static const char msg[] = "hvtop: fatal signal, terminal restored\n";

	if (crt_up) {
		crt_up = 0;
		curs_set(1);
		endwin();
	}
	if (crt_err_saved != -1) {
		dup2(crt_err_saved, STDERR_FILENO);
		if (write(STDERR_FILENO, msg, sizeof msg - 1) < 0)
			crt_sig = sig;
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* A recording cut short under a replay is not fatal (mapguard.h). */
static void
crt_on_bus(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	if (mapguard_fault(si->si_addr))
		return;
	crt_on_fatal(sig);
}

void
crt_signals(void)
{
	/* Every signal whose default action ends the process, but the
	 * three above (SIGKILL cannot be caught). */
	static const int	 fatal[] = {
		SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGUSR1,
		SIGSEGV, SIGUSR2, SIGPIPE, SIGALRM,
#ifdef SIGSTKFLT
		SIGSTKFLT,
#endif
		SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF,
#ifdef SIGPOLL
		SIGPOLL,
#endif
#ifdef SIGPWR
		SIGPWR,
#endif
		SIGSYS,
	};
	struct sigaction	 sa, old;
	size_t			 i;
	int			 sig;

	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = crt_on_quit;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = crt_on_fatal;
	sa.sa_flags = SA_RESETHAND;
	for (i = 0; i < sizeof fatal / sizeof fatal[0]; i++) {
		/* One ignored when hvtop started stays so (trap '' XFSZ:
		 * a write past ulimit -f fails with EFBIG instead). */
		if (sigaction(fatal[i], NULL, &old) == 0 &&
		    old.sa_handler == SIG_IGN)
			continue;
		sigaction(fatal[i], &sa, NULL);
	}
	for (sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		sigaction(sig, &sa, NULL);
	sa.sa_handler = NULL;
	sa.sa_sigaction = crt_on_bus;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGBUS, &sa, NULL);
}

int
crt_signal(void)
{
	int	 s = crt_sig;

	crt_sig = 0;
	return (s);
}
