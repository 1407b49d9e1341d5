/*
 * The prompt line: GNU readline's callback interface fed one byte at a
 * time by the main loop, so sampling and drawing go on while the user
 * types.  readline never touches the terminal (curses owns it) and never
 * prints: the line is drawn by the renderer from prompt_text() and
 * prompt_point(), completion candidates go to prompt_hint().  The only
 * file that includes readline.
 */
#ifndef HVTOP_UI_PROMPT_H
#define HVTOP_UI_PROMPT_H

#include <stddef.h>

enum prompt_kind {
	PROMPT_FILTER,		/* history kept across runs */
	PROMPT_INTERVAL,
	PROMPT_PICK,		/* GROUP or EVENT[@dom][:LIST] */
	PROMPT_INDICES,		/* an index list for a chosen entry */
	PROMPT_GOTO,		/* replay: a sample number or a time */
	PROMPT_METRIC,		/* the Frame screen's metric */
	PROMPT_NKINDS
};

/* Called once when the prompt closes: line is NULL when cancelled. */
typedef void	(*prompt_done_fn)(void *arg, int kind, const char *line);

/*
 * Set readline up for use inside curses and load the filter history from
 * history_path (may be NULL: no history file).
 */
void	 prompt_init(const char *history_path);
/* Save the filter history (errors are returned in *cause, caller frees);
 * 0 or -1. */
int	 prompt_save_history(char **cause);
void	 prompt_exit(void);

/*
 * Open a prompt of a kind with a label ("/", "interval: ") and an
 * initial text.  words (may be NULL) are the names Tab completes; they
 * must stay valid while the prompt is open.
 */
void	 prompt_open(int kind, const char *label, const char *initial,
	    const char *const *words, size_t nwords, prompt_done_fn done,
	    void *arg);
int	 prompt_is_open(void);
int	 prompt_kind(void);
/* Hand readline one byte of input. */
void	 prompt_feed(int byte);
/* Close the prompt without a line (Esc, Ctrl-C). */
void	 prompt_cancel(void);
const char *prompt_label(void);
const char *prompt_text(void);
int	 prompt_point(void);
/* Completion candidates or a note, "" when none. */
const char *prompt_hint(void);

#endif /* HVTOP_UI_PROMPT_H */
