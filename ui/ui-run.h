/*
 * The running interface's controller: the model (struct ui) and what the
 * main loop keeps beside it, shared by the loop (ui.c), the key table
 * (keys.c) and the pick, settings and replay controllers (ui-pick.c,
 * ui-settings.c, ui-replay.c).  These change the model; the renderers
 * (view*.c) only read it.  Private to ui/.
 */
#ifndef HVTOP_UI_RUN_H
#define HVTOP_UI_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "ui/ui-model.h"
#include "ui/view.h"
#include "session/session.h"
#include "sys/clock.h"

struct engine_snapshot;
struct selection;

/*
 * A jump in a replay, asked for by a key (UI_ACT_SEEK) and made by the
 * loop one session call a pass: the jump, then samples until one shows
 * an interval (ui-replay.c).
 */
struct ui_seek {
	int		 on;		/* under way */
	uint64_t	 index;		/* the sample jumped to */
	uint64_t	 was;		/* where the replay stood before */
	int		 back;		/* backwards: near a change of engine
					   start a sample earlier */
	int		 again;		/* the jump back after a failure */
	int		 jumped;	/* session_seek() is done */
	int		 tries;		/* starts made a sample earlier */
	int		 n;		/* samples taken since the jump */
	unsigned	 renewed;	/* SESSION_CHANGED_* since the jump */
	char		*failed;	/* the first failure, said after the
					   jump back */
};

/* What the loop needs besides the model. */
struct ui_run {
	struct ui	 ui;
	int		 interval_set;	/* the command line's (ui_opts) */
	int		 picked;
	struct hv_clock	 rt;		/* real time, for pacing */
	uint64_t	 next;		/* real time of the next sample */
	uint64_t	 vnext;		/* virtual clock: next sample */
	uint64_t	 snap_rt;	/* real time of the last snapshot */
	uint64_t	 cpu_prev;
	uint64_t	 cpu_rt_prev;
	uint64_t	 msg_until;
	int		 quit;
	int		 status;
	int		 sample_now;
	int		 rows;		/* the terminal's height as a key came:
					   what a page of the lists is */
	struct session_result state;	/* the last sample's or jump's, with
					   no snapshot: where a replay stands
					   and when the next sample is due */
	struct ui_seek	 seek;
	char		*rec_error;	/* why the recording stopped */
	char		*replay_error;	/* why a replay could not read on */
	char		*filter_before;	/* restored when a filter is cancelled */
	char		*pending;	/* entry waiting for its indices */
	int		 pending_event;
	struct settings	*settings;	/* as loaded; W keeps unknown keys */
	char		*settings_unread; /* why the file could not be read */
	const char	**words;	/* Tab completion */
	size_t		 nwords;
	size_t		 npickwords;	/* names only, for picks */
	char		**frame_words;	/* the metric prompt's names */
	size_t		 nframe_words;
	struct view_canvas canvas;
};

/*
 * What a controller has to say on the status line, which the loop shows
 * (ui_say()): a later note replaces an earlier one, as on the line;
 * text[0] == '\0' says nothing.
 */
struct ui_note {
	int		 role;
	char		 text[256];	/* the size of ui.msg */
};

/* ---- ui-note.c ----------------------------------------------------- */

/* Say something in the note, over what it said before. */
void	 ui_note_set(struct ui_note *, int role, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));

/* ---- ui.c: the loop ------------------------------------------------ */

/* Put a message on the status line for a few seconds. */
void	 ui_msg(struct ui_run *, int role, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
/* Put a controller's note, if any, on the status line. */
void	 ui_say(struct ui_run *, const struct ui_note *);
/* The engine changed (picks or, with catalog, a reload): start over. */
void	 ui_engine_changed(struct ui_run *, int catalog);
/*
 * Use text as the filter: UI_ACT_RELAYOUT, or UI_ACT_NONE when it does
 * not parse (the old one stays and filter_error says why).
 */
unsigned ui_set_filter(struct ui *, const char *text);
/*
 * Take what session_sample() or session_seek() said: where a replay
 * stands, when the next sample is due, and a new engine to follow.
 */
void	 ui_take(struct ui_run *, const struct session_result *);
/* Put snap on screen (the model owns it from now on); a replay's end is
 * said in the note. */
void	 ui_show(struct ui_run *, struct engine_snapshot *, uint64_t now,
	    struct ui_note *);

/* ---- ui-pick.c: picking groups and events -------------------------- */

void	 ui_pick_list_free(struct ui_pick **, size_t *);
void	 ui_pick_list_add(struct ui_pick **, size_t *, const char *spec,
	    int event);
void	 ui_pick_list_copy(const struct selection *, struct ui_pick **,
	    size_t *);
/*
 * Select what the picks (or, without picks, the overview) say.  Returns
 * 0, or an error with *cause set (caller frees); the previous selection
 * stays.  The new engine's first values need a sample.
 */
int	 ui_pick_apply(struct ui_run *, char **cause);
/*
 * The rest change the picks and return what the loop must do next
 * (UI_ACT_*): a sample after a new selection, the prompt for indices;
 * what came of it they say in a note, for the loop to show.
 */
/* Replace (or add) a pick and apply; on failure the pick is dropped. */
unsigned ui_pick_set(struct ui_run *, const char *spec, int event,
	    struct ui_note *);
/* Remove the picks of a group or event; apply. */
unsigned ui_pick_unset(struct ui_run *, const char *name, int event,
	    struct ui_note *);
/* Drop every pick: back to the overview. */
unsigned ui_pick_clear(struct ui_run *, struct ui_note *);
/* Pick the entry under a catalog list's cursor (asks for indices). */
unsigned ui_pick_entry(struct ui_run *, struct ui_note *);
/* Unpick the entry under a catalog list's cursor. */
unsigned ui_pick_unpick_entry(struct ui_run *, struct ui_note *);
/* Unpick what feeds the Live cursor column. */
unsigned ui_pick_unpick_column(struct ui_run *, struct ui_note *);
/* Answers to the pick prompts (g, and the indices after Enter). */
unsigned ui_pick_by_name(struct ui_run *, const char *line,
	    struct ui_note *);
unsigned ui_pick_indices(struct ui_run *, const char *line,
	    struct ui_note *);
/* The picks and the overview the session started with. */
void	 ui_pick_setup(struct ui_run *);

/* ---- ui-settings.c: the settings file ------------------------------ */

/*
 * These change the model and the settings kept, and say what came of it
 * in a note for the loop to show; they do not touch the status line.
 */
/* Load the settings file, if any, and use what it says. */
void	 ui_settings_load(struct ui_run *, struct ui_note *);
/* Write the settings file (W); returns what the loop must do (UI_ACT_*). */
unsigned ui_settings_save(struct ui_run *, struct ui_note *);

/* ---- ui-replay.c: moving in a recording ---------------------------- */

/*
 * These change the model and the jump under way, and say what came of it
 * in a note for the loop to show; they neither sample nor touch the
 * status line.
 */
/* Where the replay stands; at its end it pauses and says so once. */
void	 ui_replay_status(struct ui_run *, struct ui_note *);
/* Say at what speed the replay plays for an interval of d seconds. */
void	 ui_replay_speed(struct ui_run *, double d, struct ui_note *);
/* The go-to prompt's answer: UI_ACT_SEEK, or UI_ACT_NONE (said why). */
unsigned ui_replay_goto(struct ui_run *, const char *line,
	    struct ui_note *);
/* The recording could not be read on: say why now and on exit (status 1). */
void	 ui_replay_failed(struct ui_run *, const char *cause,
	    struct ui_note *);
/*
 * Ask the loop to show the interval ending with sample index + 1
 * (UI_ACT_SEEK: the loop then makes the jump and takes samples, one
 * session call a pass, until seek.on is clear).
 */
unsigned ui_replay_seek(struct ui_run *, uint64_t index, int back);
/* One sample back, or with jump a tenth of the recording. */
unsigned ui_replay_back(struct ui_run *, int jump, struct ui_note *);
/* A tenth of the recording forward. */
unsigned ui_replay_jump(struct ui_run *, struct ui_note *);
/*
 * The loop made the jump under way's next call: session_seek() until
 * seek.jumped is set, session_sample() after; error and cause (freed
 * here) are its answer, res its result, taken already (ui_take()).
 * Returns 1 when res->snap is the interval to show: the loop puts it up
 * (ui_show()) and then calls ui_replay_shown().  Otherwise the loop
 * gives any snapshot back to the session; seek.on says whether the jump
 * goes on.
 */
int	 ui_replay_took(struct ui_run *, int error, char *cause,
	    const struct session_result *res, struct ui_note *);
/* The jump's interval is on screen: say where the replay stands. */
void	 ui_replay_shown(struct ui_run *, struct ui_note *);

#endif /* HVTOP_UI_RUN_H */
