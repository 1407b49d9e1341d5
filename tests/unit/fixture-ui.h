/*
 * The interface tests' shared fixtures: a screen rendered as text, and
 * the Live screen of a session on the hand-made source of
 * test-fake-source.h.  No terminal: rows of text, as batch mode prints.
 */
#ifndef HVTOP_FIXTURE_UI_H
#define HVTOP_FIXTURE_UI_H

#include "ui/ui-model.h"

#include "test-fake-source.h"

/* The screen ui shows, laid out and rendered at w x h; the caller frees
 * it. */
char	*fixture_ui_render(struct ui *ui, int w, int h);

struct fixture_ui {
	struct session	*ses;
	struct ui	 ui;
	char		*spec;		/* the session's one -e spec */
};

/*
 * A session reading the group spec (as -e takes it) from the P8 fake
 * source filled by fill, and the Live screen on it, on host "testhost",
 * after its first sample (which only sets the baseline).
 * Fails the test when the session does not start.
 */
void	 fixture_ui_open(struct fixture_ui *fx, const char *spec,
	    fake_fill_fn fill);
/* Sample once and show it as the interface would. */
void	 fixture_ui_sample(struct fixture_ui *fx);
void	 fixture_ui_close(struct fixture_ui *fx);

#endif /* HVTOP_FIXTURE_UI_H */
