/*
 * The replay controller: moving in a recording (a step, a tenth, a sample
 * number or a time) and saying where the replay stands.  The interval
 * shown ends with the last sample played, so going back n intervals
 * restarts n + 2 samples before the next one; the first interval after a
 * jump is taken at the new position, never across the jump.  Keys only
 * say where to go (UI_ACT_SEEK); the loop makes the jump and takes its
 * samples, one session call a pass, as it takes every other sample, and
 * hands each answer here (ui_replay_took()) to learn what to do next.
 * What came of it is said in a note (struct ui_note) that the loop
 * shows: nothing here samples or writes the status line.
 */
#include "config.h"

#include "ui/ui-run.h"

#include <stdlib.h>

#include "engine/engine.h"
#include "session/session.h"
#include "util/seekspec.h"
#include "util/xalloc.h"

/* Where the replay stands (as the last sample or jump said); at its end
 * it pauses and says so once. */
void
ui_replay_status(struct ui_run *r, struct ui_note *note)
{
	struct ui		*ui = &r->ui;
	char			*sum;

	ui->replay_pos = r->state.position;
	ui->replay_total = r->state.total;
	if (ui->snap != NULL)
		ui->replay_wall = session_wall(ui->ses, ui->snap->now);
	if (!r->state.done || ui->replay_end)
		return;
	ui->replay_end = 1;
	ui->paused = 1;
	sum = session_replay_summary(ui->ses);
	ui_note_set(note, UI_R_NORMAL, "end of the recording (%s); [ and { "
	    "go back, q quits", sum);
	free(sum);
}

/* A replay shown every d seconds plays the recorded gaps scaled by the
 * ratio of d to the recorded interval: say at what speed. */
void
ui_replay_speed(struct ui_run *r, double d, struct ui_note *note)
{
	struct session_replay	 rp;

	(void)session_replay(r->ui.ses, &rp);
	r->ui.replay_speed = rp.speed;
	ui_note_set(note, UI_R_NORMAL, "replaying at %.3gx the recorded "
	    "speed (interval %.2fs)", r->ui.replay_speed, d);
}

/* The recording failed to read (cut under the replay): said on the status
 * line now, and on exit, which then fails. */
void
ui_replay_failed(struct ui_run *r, const char *cause, struct ui_note *note)
{
	ui_note_set(note, UI_R_ERROR, "replay: %s", cause);
	if (r->replay_error == NULL)
		r->replay_error = xstrdup(cause);
}

/*
 * Show the interval that ends with sample index + 1: jump to index, take
 * it as the new baseline, and show the next.  A sample that brings a new
 * engine (the recording changed its selection or catalog there) is a
 * baseline too, so near a change the interval shown moves forward; going
 * back, the jump starts a sample earlier instead, up to three times.  The
 * loop makes the calls, one a pass, and says how each went
 * (ui_replay_took()).
 */
static void
ui_replay_seek_start(struct ui_run *r, uint64_t index, int back, int again)
{
	struct ui_seek	*sk = &r->seek;

	sk->index = index;
	sk->was = r->ui.replay_pos;
	sk->back = back;
	sk->again = again;
	sk->jumped = 0;
	sk->tries = 0;
	sk->n = 0;
	sk->renewed = 0;
	r->ui.replay_end = 0;
}

unsigned
ui_replay_seek(struct ui_run *r, uint64_t index, int back)
{
	ui_replay_seek_start(r, index, back, 0);
	return (UI_ACT_SEEK);
}

/* After the jump back that followed a failure: say the first failure. */
static void
ui_replay_seek_said(struct ui_run *r, struct ui_note *note)
{
	char	*cause = r->seek.failed;

	if (cause == NULL)
		return;
	r->seek.failed = NULL;
	ui_replay_failed(r, cause, note);
	free(cause);
	ui_replay_status(r, note);
}

/* The jump ended without an interval to show (error 0: none there). */
static void
ui_replay_seek_fail(struct ui_run *r, int error, char *cause,
    struct ui_note *note)
{
	struct ui_seek	*sk = &r->seek;
	uint64_t	 was = sk->was;

	sk->on = 0;
	if (error != 0 && !sk->again) {
		/*
		 * The file failed under the jump (cut short): show what
		 * the header will say, the interval shown before or the
		 * last there is now.
		 */
		if (was > r->state.total)
			was = r->state.total;
		if (was >= 2) {
			sk->failed = cause;
			ui_replay_seek_start(r, was - 2, 0, 1);
			sk->on = 1;
			return;
		}
	}
	if (error != 0)
		ui_replay_failed(r, cause, note);
	else if (cause != NULL)
		ui_note_set(note, UI_R_ERROR, "replay: %s", cause);
	free(cause);
	ui_replay_status(r, note);
	ui_replay_seek_said(r, note);
}

/* A sample after the jump: a baseline, a start a sample earlier, or the
 * interval to show (1). */
static int
ui_replay_seek_sample(struct ui_run *r, const struct session_result *res,
    struct ui_note *note)
{
	struct ui_seek	*sk = &r->seek;

	sk->renewed |= res->changed;
	if (sk->n == 0 || res->snap->seq == 0) {
		/* Every sample brought a new engine: nothing whole. */
		if (++sk->n == 4)
			ui_replay_seek_fail(r, 0,
			    xstrdup("no interval to show here"), note);
		return (0);
	}
	if (sk->back && (sk->renewed & SESSION_CHANGED_ENGINE) &&
	    sk->index > 0 && sk->tries < 2) {
		sk->index--;
		sk->tries++;
		sk->jumped = 0;
		return (0);
	}
	sk->on = 0;
	return (1);
}

int
ui_replay_took(struct ui_run *r, int error, char *cause,
    const struct session_result *res, struct ui_note *note)
{
	struct ui_seek	*sk = &r->seek;

	if (error != 0) {
		ui_replay_seek_fail(r, -1, cause, note);
		return (0);
	}
	free(cause);
	if (sk->jumped)
		return (ui_replay_seek_sample(r, res, note));
	sk->jumped = 1;
	sk->n = 0;
	sk->renewed = 0;
	return (0);
}

void
ui_replay_shown(struct ui_run *r, struct ui_note *note)
{
	ui_note_set(note, UI_R_NORMAL, "sample %llu of %llu",
	    (unsigned long long)r->ui.replay_pos,
	    (unsigned long long)r->ui.replay_total);
	ui_replay_seek_said(r, note);
}

/*
 * Go where the user said: a sample number as the header counts them, or
 * a time, which shows the interval ending with the first sample recorded
 * at or after it.
 */
unsigned
ui_replay_goto(struct ui_run *r, const char *line, struct ui_note *note)
{
	struct ui		*ui = &r->ui;
	struct session_replay	 rp;
	struct seekspec		 w;
	uint64_t		 pos = ui->replay_pos, n, i;
	char			*cause = NULL;

	(void)session_replay(ui->ses, &rp);
	if (seekspec_parse(line, rp.first, &w, &cause) != 0) {
		ui_note_set(note, UI_R_ERROR, "go to %s: %s", line, cause);
		free(cause);
		return (UI_ACT_NONE);
	}
	if (w.kind == SEEKSPEC_SAMPLE) {
		n = w.value;
		if (n < 2 || n > ui->replay_total) {
			ui_note_set(note, UI_R_ERROR, "go to %s: samples 2 "
			    "to %llu have an interval to show", line,
			    (unsigned long long)ui->replay_total);
			return (UI_ACT_NONE);
		}
	} else {
		if (w.value < rp.first) {
			ui_note_set(note, UI_R_ERROR, "go to %s: before the "
			    "first sample", line);
			return (UI_ACT_NONE);
		}
		if (session_find(ui->ses, w.value, &i, &cause) != 0) {
			ui_note_set(note, UI_R_ERROR, "go to %s: %s", line,
			    cause);
			free(cause);
			return (UI_ACT_NONE);
		}
		if (i >= ui->replay_total) {
			ui_note_set(note, UI_R_ERROR, "go to %s: after the "
			    "last sample", line);
			return (UI_ACT_NONE);
		}
		n = i + 1 > 2 ? i + 1 : 2;
	}
	return (ui_replay_seek(r, n - 2, n < pos));
}

/* The step of { and }: a tenth of the recording, one sample at least. */
static uint64_t
ui_replay_tenth(const struct ui *ui)
{
	return (ui->replay_total / 10 > 0 ? ui->replay_total / 10 : 1);
}

unsigned
ui_replay_back(struct ui_run *r, int jump, struct ui_note *note)
{
	uint64_t	 pos = r->ui.replay_pos, back;

	back = (jump ? ui_replay_tenth(&r->ui) : 1) + 2;
	if (pos < 3) {
		ui_note_set(note, UI_R_NORMAL, "at the start of the "
		    "recording");
		return (UI_ACT_NONE);
	}
	return (ui_replay_seek(r, pos > back ? pos - back : 0, 1));
}

unsigned
ui_replay_jump(struct ui_run *r, struct ui_note *note)
{
	uint64_t	 pos = r->ui.replay_pos, total = r->ui.replay_total;
	uint64_t	 jump = ui_replay_tenth(&r->ui);

	if (total < 2 || pos + jump >= total) {
		ui_note_set(note, UI_R_NORMAL, "less than a tenth is left: "
		    "Space steps");
		return (UI_ACT_NONE);
	}
	return (ui_replay_seek(r, pos + jump - 2, 0));
}
