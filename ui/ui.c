/*
 * The terminal interface.  This first screen shows the batch text view of
 * each snapshot inside curses and refreshes it every interval; 'q' quits.
 * The terminal is restored on every way out.
 */
#include "config.h"

#include <curses.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export/export.h"
#include "hvtop.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static volatile sig_atomic_t ui_quit;

static void
ui_on_signal(int sig)
{
	(void)sig;
	ui_quit = 1;
}

static void
ui_draw(const char *text, int top)
{
	const char	*p = text, *nl;
	int		 y = 0, line = 0, rows, cols;

	getmaxyx(stdscr, rows, cols);
	erase();
	while (*p != '\0' && y < rows - 1) {
		nl = strchr(p, '\n');
		if (nl == NULL)
			nl = p + strlen(p);
		if (line++ >= top) {
			mvaddnstr(y, 0, p, (int)(nl - p) < cols ?
			    (int)(nl - p) : cols);
			y++;
		}
		p = *nl == '\n' ? nl + 1 : nl;
	}
	attron(A_REVERSE);
	mvaddnstr(rows - 1, 0, " q quit  up/down scroll  space refresh ",
	    cols);
	attroff(A_REVERSE);
	refresh();
}

int
hvtop_interactive(struct hvtop *h)
{
	struct engine_snapshot	*snap;
	struct raw_sample	 rs;
	struct export_info	 info;
	struct export		*x;
	struct strbuf		 sb = { 0 };
	struct sigaction	 sa;
	struct pollfd		 pfd;
	uint64_t		 next, now, step;
	char			*cause = NULL;
	int			 ch, top = 0, status = 0, timeout;

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = ui_on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	info.source = h->src->label;
	info.catalog = h->catalog_label;
	x = export_new(0, h->engine, &info);
	memset(&rs, 0, sizeof rs);
	rs.values = xcalloc(h->sel.ncounters + 1, sizeof *rs.values);
	rs.nvalues = h->sel.ncounters;

	initscr();
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	step = (uint64_t)(h->opts.delay * 1e9);
	next = clock_now(&h->clock);
	while (!ui_quit) {
		now = clock_now(&h->clock);
		if (now >= next) {
			if (hvtop_sample(h, &rs, &snap, &cause) != 0) {
				status = 1;
				break;
			}
			strbuf_reset(&sb);
			if (snap->seq == 0)
				strbuf_adds(&sb, "hvtop: sampling...\n");
			else
				export_snapshot(x, snap,
				    clock_wall(&h->clock, snap->now), &sb);
			hvtop_recycle(h, snap);
			ui_draw(sb.s, top);
			next += step;
			if (next < now)
				next = now + step;
		}
		pfd.fd = STDIN_FILENO;
		pfd.events = POLLIN;
		timeout = (int)((next - clock_now(&h->clock)) / 1000000) + 1;
		if (poll(&pfd, 1, timeout) <= 0)
			continue;
		while ((ch = getch()) != ERR) {
			if (ch == 'q' || ch == KEY_F(10))
				ui_quit = 1;
			else if (ch == KEY_DOWN)
				top++;
			else if (ch == KEY_UP && top > 0)
				top--;
			else if (ch == ' ')
				next = clock_now(&h->clock);
			else if (ch == KEY_RESIZE && sb.s != NULL)
				ui_draw(sb.s, top);
		}
	}
	endwin();
	if (cause != NULL) {
		fprintf(stderr, "hvtop: %s\n", cause);
		free(cause);
	}
	free(rs.values);
	strbuf_free(&sb);
	export_free(x);
	return (status);
}
