/*
 * The terminal interface as the program sees it: whether the terminal can
 * show the screens, and the screens themselves run on a started session.
 * The model behind them is private to ui/ (ui/ui-model.h).
 */
#ifndef HVTOP_UI_H
#define HVTOP_UI_H

struct session;

/* What the command line tells the interface besides the session. */
struct ui_opts {
	int		 interval_set;	/* -d given: the settings' interval
					   is not used */
	int		 picked;	/* -g or -e given: the settings'
					   picks are not used */
	int		 no_color;	/* --no-color */
};

/*
 * Whether the terminal can show the screens; 0 with *cause (caller frees)
 * when it cannot, and batch output is all it can take.
 */
int	 ui_capable(char **cause);
/*
 * Run the terminal interface on a started session until the user quits;
 * returns the exit status.  Curses is up only while it runs.
 */
int	 ui_main(struct session *, const struct ui_opts *);

#endif /* HVTOP_UI_H */
