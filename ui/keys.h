/*
 * The keys of the terminal interface, in one table: for each entry the
 * key codes, the screens and modes it applies to, what it does and how it
 * is documented.  The table drives the dispatch of keys, the help screen,
 * the function bar and, through a test that compares them, the KEYS and
 * REPLAY KEYS sections of the manual page.  Nothing here needs curses.
 */
#ifndef HVTOP_UI_KEYS_H
#define HVTOP_UI_KEYS_H

#include <stddef.h>

#include "ui/ui-model.h"

struct ui_note;
struct ui_run;

/* Where a key applies: the screens (1 << enum ui_screen) and the modes. */
#define KEYS_LIVE	(1U << UI_LIVE)
#define KEYS_LPAR	(1U << UI_LPAR)
#define KEYS_FRAME	(1U << UI_FRAME)
#define KEYS_EVENTS	(1U << UI_EVENTS)
#define KEYS_GROUPS	(1U << UI_GROUPS)
#define KEYS_FORMULAS	(1U << UI_FORMULAS)
#define KEYS_HELP	(1U << UI_HELP)
#define KEYS_LISTS	(KEYS_EVENTS | KEYS_GROUPS | KEYS_FORMULAS)
#define KEYS_SCREENS	(KEYS_LIVE | KEYS_LPAR | KEYS_FRAME | KEYS_LISTS | \
			    KEYS_HELP)
#define KEYS_MONITOR	0x100U		/* sampling a source */
#define KEYS_REPLAY	0x200U		/* replaying a recording */
#define KEYS_MODES	(KEYS_MONITOR | KEYS_REPLAY)
#define KEYS_ANY	(KEYS_SCREENS | KEYS_MODES)

/* The sections of the help screen, in its order. */
enum keys_section {
	KEYS_S_ALL,		/* keys on every screen */
	KEYS_S_LIVE,
	KEYS_S_FRAME,
	KEYS_S_LPAR,
	KEYS_S_REPLAY,
	KEYS_S_LISTS,		/* Events, Groups, Formulas */
	KEYS_NSECTIONS
};

#define KEYS_MAX	8	/* codes per entry */

/*
 * Do what the key k (one of the entry's) does; returns UI_ACT_* bits, and
 * what came of it is said in the note, for the loop to show.
 */
typedef unsigned (*keys_fn)(struct ui_run *, int k, struct ui_note *);

struct keys_entry {
	int		 key[KEYS_MAX];	/* codes (crt.h); 0 ends early */
	unsigned	 where;		/* KEYS_* screens and modes */
	keys_fn		 fn;
	enum keys_section section;
	const char	*names;		/* "h, ?, F1": the help, the manual */
	const char	*help;		/* one line for the help screen */
	int		 bar;		/* place on the function bar, 0: none */
	unsigned	 bar_where;	/* screens and modes it is shown on */
	unsigned	 bar_also;	/* and these (a second mask), or 0 */
	const char	*bar_key;	/* "F1" */
	const char	*bar_label;	/* "Help" */
};

extern const struct keys_entry	keys_table[];
extern const size_t		keys_count;

/* The title of a section of the help screen. */
const char	*keys_section_title(enum keys_section);
/* The screen and mode of the model, as a KEYS_* mask. */
unsigned	 keys_where(const struct ui *);
/* Whether an entry's mask covers a screen and mode (keys_where()). */
int		 keys_applies(unsigned mask, unsigned where);
/* The entry that key k runs on a screen and mode, or NULL. */
const struct keys_entry *keys_find(int k, unsigned where);
/*
 * Run key k: find its entry and call it.  Returns what the loop must do
 * next (UI_ACT_*; UI_ACT_NONE for a key that does nothing here); what it
 * has to say goes in the note (a key that does nothing says so), which
 * the loop shows.
 */
unsigned	 keys_dispatch(struct ui_run *, int k, struct ui_note *);

#endif /* HVTOP_UI_KEYS_H */
