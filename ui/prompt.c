/*
 * GNU readline inside curses, the way that keeps sampling going: curses
 * owns the keyboard and the screen; each byte typed at an open prompt is
 * handed to rl_callback_read_char() through rl_getc_function; the line is
 * drawn by the renderer.  readline is told not to touch the terminal
 * (prep/deprep off), not to catch signals or SIGWINCH, not to export
 * LINES and COLUMNS (curses would stop seeing resizes), and not to print
 * completion lists (they become a hint line).  Each prompt kind has its
 * own history; the filter's is kept in a file across runs.
 *
 * Limit: bytes are fed one at a time, so multibyte characters typed in an
 * incremental search (Ctrl-R) are not assembled; names are ASCII.
 */
#include "config.h"

#include "ui/prompt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "sys/settings-file.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define PROMPT_HISTORY_MAX	500

static int			 prompt_byte;
static int			 prompt_avail;
static int			 prompt_open_;
static int			 prompt_kind_;
static int			 prompt_closing;
static char			*prompt_label_;
static prompt_done_fn		 prompt_done;
static void			*prompt_arg;
static HISTORY_STATE		*prompt_hist[PROMPT_NKINDS];
static char			*prompt_hist_path;
static const char *const	*prompt_words;
static size_t			 prompt_nwords;
static char			 prompt_hint_[256];
static FILE			*prompt_null;
static char			*prompt_initial;

static int
prompt_getc(FILE *fp)
{
	(void)fp;
	prompt_avail = 0;
	return (prompt_byte);
}

static int
prompt_input_available(void)
{
	return (prompt_avail);
}

/* The renderer draws the line; readline has nothing to do. */
static void
prompt_redisplay(void)
{
}

static void
prompt_prep(int meta)
{
	(void)meta;
}

static void
prompt_deprep(void)
{
}

static char *
prompt_generate(const char *text, int state)
{
	static size_t	 i;
	size_t		 len = strlen(text);

	if (state == 0)
		i = 0;
	while (i < prompt_nwords) {
		if (strncasecmp(prompt_words[i++], text, len) == 0)
			return (xstrdup(prompt_words[i - 1]));
	}
	return (NULL);
}

static char **
prompt_complete(const char *text, int start, int end)
{
	(void)start;
	(void)end;
	rl_attempted_completion_over = 1;	/* no file names */
	/* A space ends a filter term; a pick goes on with @ or :. */
	rl_completion_append_character = prompt_kind_ == PROMPT_FILTER ?
	    ' ' : '\0';
	if (prompt_words == NULL)
		return (NULL);
	return (rl_completion_matches(text, prompt_generate));
}

/* Candidates become a hint line instead of a listing on stdout. */
static void
prompt_show_matches(char **matches, int n, int maxlen)
{
	struct strbuf	 sb = { 0 };
	int		 i;

	(void)maxlen;
	strbuf_addf(&sb, "%d matches:", n);
	for (i = 1; i <= n && sb.len < sizeof prompt_hint_; i++)
		strbuf_addf(&sb, " %s", matches[i]);
	/* A list longer than the hint ends in '~', as on the screen. */
	if (sb.len >= sizeof prompt_hint_)
		snprintf(prompt_hint_, sizeof prompt_hint_, "%.*s~",
		    (int)sizeof prompt_hint_ - 2, sb.s);
	else
		snprintf(prompt_hint_, sizeof prompt_hint_, "%s", sb.s);
	strbuf_free(&sb);
}

static int
prompt_startup(void)
{
	if (prompt_initial != NULL) {
		rl_insert_text(prompt_initial);
		free(prompt_initial);
		prompt_initial = NULL;
	}
	return (0);
}

void
prompt_init(const char *history_path)
{
	rl_readline_name = "hvtop";
	rl_catch_signals = 0;
	rl_catch_sigwinch = 0;
	rl_change_environment = 0;
	rl_prep_term_function = prompt_prep;
	rl_deprep_term_function = prompt_deprep;
	rl_getc_function = prompt_getc;
	rl_input_available_hook = prompt_input_available;
	rl_redisplay_function = prompt_redisplay;
	rl_attempted_completion_function = prompt_complete;
	rl_completion_display_matches_hook = prompt_show_matches;
	rl_startup_hook = prompt_startup;
	rl_basic_word_break_characters = " \t\n\"!:@,";
	rl_completer_word_break_characters = rl_basic_word_break_characters;
	if ((prompt_null = fopen("/dev/null", "w")) != NULL)
		rl_outstream = prompt_null;
	rl_initialize();
	rl_variable_bind("bell-style", "none");
	rl_variable_bind("enable-bracketed-paste", "off");
	rl_variable_bind("completion-ignore-case", "on");
	rl_variable_bind("show-all-if-ambiguous", "on");
	rl_variable_bind("horizontal-scroll-mode", "on");
	using_history();
	stifle_history(PROMPT_HISTORY_MAX);
	if (history_path != NULL) {
		prompt_hist_path = xstrdup(history_path);
		read_history(prompt_hist_path);
	}
	/* The history just read belongs to the filter. */
	prompt_hist[PROMPT_FILTER] = history_get_history_state();
}

/* Make kind's history the one readline uses. */
static void
prompt_use_history(int kind)
{
	HISTORY_STATE	 empty;

	if (prompt_hist[kind] != NULL) {
		history_set_history_state(prompt_hist[kind]);
		return;
	}
	memset(&empty, 0, sizeof empty);
	history_set_history_state(&empty);
}

static void
prompt_keep_history(int kind)
{
	free(prompt_hist[kind]);
	prompt_hist[kind] = history_get_history_state();
}

static void
prompt_close(void)
{
	rl_callback_handler_remove();
	prompt_keep_history(prompt_kind_);
	prompt_open_ = 0;
	prompt_hint_[0] = '\0';
}

static void
prompt_on_line(char *line)
{
	prompt_done_fn	 done = prompt_done;
	int		 kind = prompt_kind_;

	if (line != NULL && *line != '\0') {
		/* No duplicate of the last entry. */
		HIST_ENTRY *last = history_length > 0 ?
		    history_get(history_base + history_length - 1) : NULL;

		if (last == NULL || strcmp(last->line, line) != 0)
			add_history(line);
	}
	prompt_closing = 1;
	prompt_close();
	done(prompt_arg, kind, line);
	free(line);
}

void
prompt_open(int kind, const char *label, const char *initial,
    const char *const *words, size_t nwords, prompt_done_fn done, void *arg)
{
	if (prompt_open_)
		prompt_cancel();
	prompt_kind_ = kind;
	free(prompt_label_);
	prompt_label_ = xstrdup(label);
	prompt_done = done;
	prompt_arg = arg;
	prompt_words = words;
	prompt_nwords = nwords;
	prompt_hint_[0] = '\0';
	prompt_use_history(kind);
	free(prompt_initial);
	prompt_initial = initial != NULL && *initial != '\0' ?
	    xstrdup(initial) : NULL;
	prompt_open_ = 1;
	prompt_closing = 0;
	rl_callback_handler_install(NULL, prompt_on_line);
}

int
prompt_is_open(void)
{
	return (prompt_open_);
}

int
prompt_kind(void)
{
	return (prompt_kind_);
}

void
prompt_feed(int byte)
{
	if (!prompt_open_)
		return;
	prompt_byte = byte;
	prompt_avail = 1;
	if (byte != '\t')
		prompt_hint_[0] = '\0';
	rl_callback_read_char();
	prompt_avail = 0;
}

void
prompt_cancel(void)
{
	prompt_done_fn	 done = prompt_done;
	int		 kind = prompt_kind_;

	if (!prompt_open_)
		return;
	/* Drop the half-typed line and readline's partial key state. */
	rl_callback_sigcleanup();
	rl_replace_line("", 0);
	prompt_close();
	done(prompt_arg, kind, NULL);
}

const char *
prompt_label(void)
{
	return (prompt_label_ != NULL ? prompt_label_ : "");
}

const char *
prompt_text(void)
{
	return (prompt_open_ && rl_line_buffer != NULL ? rl_line_buffer : "");
}

int
prompt_point(void)
{
	return (prompt_open_ ? rl_point : 0);
}

const char *
prompt_hint(void)
{
	return (prompt_hint_);
}

int
prompt_save_history(char **cause)
{
	HISTORY_STATE	*cur;
	int		 error;

	if (prompt_hist_path == NULL)
		return (0);
	if (settings_file_mkdirs(prompt_hist_path, cause) != 0)
		return (-1);
	cur = history_get_history_state();
	prompt_use_history(PROMPT_FILTER);
	error = write_history(prompt_hist_path);
	if (error == 0)
		history_truncate_file(prompt_hist_path, PROMPT_HISTORY_MAX);
	history_set_history_state(cur);
	free(cur);
	if (error != 0) {
		*cause = xasprintf("%s: %s", prompt_hist_path,
		    strerror(error));
		return (-1);
	}
	return (0);
}

void
prompt_exit(void)
{
	HISTORY_STATE	 empty;
	int		 i;

	if (prompt_open_) {
		rl_callback_sigcleanup();
		rl_callback_handler_remove();
		prompt_keep_history(prompt_kind_);
		prompt_open_ = 0;
	}
	/* Free every kind's history, entries and array, and the undo
	 * lists readline keeps with the entries edited (clear_history()
	 * leaves those). */
	for (i = 0; i < PROMPT_NKINDS; i++) {
		if (prompt_hist[i] == NULL)
			continue;
		history_set_history_state(prompt_hist[i]);
		rl_clear_history();
		free(history_list());
		memset(&empty, 0, sizeof empty);
		history_set_history_state(&empty);
		free(prompt_hist[i]);
		prompt_hist[i] = NULL;
	}
	free(prompt_label_);
	prompt_label_ = NULL;
	free(prompt_hist_path);
	prompt_hist_path = NULL;
	free(prompt_initial);
	prompt_initial = NULL;
	if (prompt_null != NULL) {
		rl_outstream = NULL;
		fclose(prompt_null);
		prompt_null = NULL;
	}
}
