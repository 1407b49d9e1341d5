/*
 * Unit tests for the replay controller (ui/ui-replay.c) without a loop:
 * the jump keys say where to go in a note and an action, and the jump's
 * steps, fed by hand the answers the loop would get from the session,
 * say which sample to show, jump back after a failure and say it once.
 * Nothing here writes the status line.  The session (the fake source's,
 * not a recording) only answers the go-to prompt and the summary.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/engine.h"
#include "session/session.h"
#include "source/source.h"
#include "ui/ui-run.h"
#include "util/xalloc.h"

#include "fixture-ui.h"

struct fx {
	struct fixture_ui	 f;
	struct ui_run		 r;
};

static void
fill_steady(struct raw_sample *rs, unsigned n)
{
	size_t	 k;

	for (k = 0; k < rs->nvalues; k++) {
		rs->values[k].value = (uint64_t)n * 8000000;
		rs->values[k].status = RAW_OK;
	}
	rs->calls = 1;
}

/* A replay of 20 samples standing at the tenth. */
static int
fx_setup(void **state)
{
	struct fx	*fx = xcalloc(1, sizeof *fx);

	fixture_ui_open(&fx->f, "HPM_0THRD_NON_IDLE_CCYC:0", fill_steady);
	fx->r.ui = fx->f.ui;
	fx->r.picked = 1;
	fx->r.ui.replay = 1;
	fx->r.ui.replay_pos = fx->r.state.position = 10;
	fx->r.ui.replay_total = fx->r.state.total = 20;
	*state = fx;
	return (0);
}

static int
fx_teardown(void **state)
{
	struct fx	*fx = *state;

	free(fx->r.replay_error);
	free(fx->r.seek.failed);
	fx->f.ui = fx->r.ui;
	fixture_ui_close(&fx->f);
	free(fx);
	return (0);
}

static void
test_keys(void **state)
{
	struct fx	*fx = *state;
	struct ui_run	*r = &fx->r;
	struct ui_note	 n = { 0 };

	/* [ goes one interval back: the interval ending with sample 9. */
	assert_int_equal(ui_replay_back(r, 0, &n), UI_ACT_SEEK);
	assert_int_equal(r->seek.index, 7);
	assert_true(r->seek.back);
	assert_string_equal(n.text, "");
	/* { a tenth (2 samples) back, } a tenth forward. */
	assert_int_equal(ui_replay_back(r, 1, &n), UI_ACT_SEEK);
	assert_int_equal(r->seek.index, 6);
	assert_int_equal(ui_replay_jump(r, &n), UI_ACT_SEEK);
	assert_int_equal(r->seek.index, 10);
	assert_false(r->seek.back);
	assert_string_equal(n.text, "");

	r->ui.replay_pos = 2;
	assert_int_equal(ui_replay_back(r, 0, &n), UI_ACT_NONE);
	assert_int_equal(n.role, UI_R_NORMAL);
	assert_string_equal(n.text, "at the start of the recording");
	r->ui.replay_pos = 19;
	assert_int_equal(ui_replay_jump(r, &n), UI_ACT_NONE);
	assert_string_equal(n.text, "less than a tenth is left: Space steps");
	assert_string_equal(r->ui.msg, "");
}

static void
test_goto(void **state)
{
	struct fx	*fx = *state;
	struct ui_run	*r = &fx->r;
	struct ui_note	 n = { 0 };

	assert_int_equal(ui_replay_goto(r, "1", &n), UI_ACT_NONE);
	assert_int_equal(n.role, UI_R_ERROR);
	assert_string_equal(n.text, "go to 1: samples 2 to 20 have an "
	    "interval to show");
	assert_int_equal(ui_replay_goto(r, "21", &n), UI_ACT_NONE);
	assert_int_equal(ui_replay_goto(r, "+5", &n), UI_ACT_NONE);
	assert_int_equal(n.role, UI_R_ERROR);
	assert_non_null(strstr(n.text, "go to +5: "));
	assert_non_null(strstr(n.text, "no recorded times"));
	/* Sample 5, behind: back, from sample 3. */
	memset(&n, 0, sizeof n);
	assert_int_equal(ui_replay_goto(r, "5", &n), UI_ACT_SEEK);
	assert_int_equal(r->seek.index, 3);
	assert_true(r->seek.back);
	assert_string_equal(n.text, "");
	assert_string_equal(r->ui.msg, "");
}

/* What the loop gets back from the session: the jump, then samples. */
static int
took(struct ui_run *r, uint64_t seq, unsigned changed, struct ui_note *n)
{
	struct engine_snapshot	 snap;
	struct session_result	 res;

	memset(&res, 0, sizeof res);
	memset(&snap, 0, sizeof snap);
	snap.seq = seq;
	res.changed = changed;
	if (r->seek.jumped)
		res.snap = &snap;
	return (ui_replay_took(r, 0, NULL, &res, n));
}

static void
test_steps(void **state)
{
	struct fx	*fx = *state;
	struct ui_run	*r = &fx->r;
	struct ui_note	 n = { 0 };

	assert_int_equal(ui_replay_seek(r, 3, 0), UI_ACT_SEEK);
	r->seek.on = 1;
	/* The jump, then the baseline: nothing to show yet. */
	assert_int_equal(took(r, 0, 0, &n), 0);
	assert_true(r->seek.jumped);
	assert_int_equal(took(r, 7, 0, &n), 0);
	assert_true(r->seek.on);
	assert_int_equal(took(r, 8, 0, &n), 1);
	assert_false(r->seek.on);
	/* The loop shows it (ui_show()), which says where the replay is. */
	r->state.position = 5;
	ui_replay_status(r, &n);
	ui_replay_shown(r, &n);
	assert_int_equal(n.role, UI_R_NORMAL);
	assert_string_equal(n.text, "sample 5 of 20");

	/* Going back across a new engine starts a sample earlier. */
	assert_int_equal(ui_replay_seek(r, 3, 1), UI_ACT_SEEK);
	r->seek.on = 1;
	(void)took(r, 0, 0, &n);
	(void)took(r, 4, SESSION_CHANGED_ENGINE, &n);
	assert_int_equal(took(r, 5, 0, &n), 0);
	assert_int_equal(r->seek.index, 2);
	assert_false(r->seek.jumped);
	assert_true(r->seek.on);

	/* Four samples, each a new engine's first: nothing whole here. */
	memset(&n, 0, sizeof n);
	assert_int_equal(ui_replay_seek(r, 3, 0), UI_ACT_SEEK);
	r->seek.on = 1;
	(void)took(r, 0, 0, &n);
	(void)took(r, 0, 0, &n);
	(void)took(r, 0, 0, &n);
	(void)took(r, 0, 0, &n);
	assert_int_equal(took(r, 0, 0, &n), 0);
	assert_false(r->seek.on);
	assert_int_equal(n.role, UI_R_ERROR);
	assert_string_equal(n.text, "replay: no interval to show here");
	assert_null(r->replay_error);
	assert_string_equal(r->ui.msg, "");
}

static void
test_failed(void **state)
{
	struct fx		*fx = *state;
	struct ui_run		*r = &fx->r;
	struct ui_note		 n = { 0 };
	struct session_result	 res;

	/* Cut under the jump: back to the last interval there is, said
	 * once it is shown. */
	memset(&res, 0, sizeof res);
	r->state.total = 8;
	assert_int_equal(ui_replay_jump(r, &n), UI_ACT_SEEK);
	r->seek.on = 1;
	assert_int_equal(ui_replay_took(r, -1, xstrdup("cut at sample 9"),
	    &res, &n), 0);
	assert_true(r->seek.on);
	assert_int_equal(r->seek.index, 6);
	assert_string_equal(n.text, "");
	(void)took(r, 0, 0, &n);
	(void)took(r, 0, 0, &n);
	assert_int_equal(took(r, 6, 0, &n), 1);
	r->state.position = 8;
	ui_replay_status(r, &n);
	ui_replay_shown(r, &n);
	assert_int_equal(n.role, UI_R_ERROR);
	assert_string_equal(n.text, "replay: cut at sample 9");
	assert_string_equal(r->replay_error, "cut at sample 9");

	/* At the end: paused, said once. */
	memset(&n, 0, sizeof n);
	r->state.done = 1;
	ui_replay_status(r, &n);
	assert_true(r->ui.paused);
	assert_int_equal(n.role, UI_R_NORMAL);
	assert_non_null(strstr(n.text, "end of the recording ("));
	assert_non_null(strstr(n.text, "); [ and { go back, q quits"));
	memset(&n, 0, sizeof n);
	ui_replay_status(r, &n);
	assert_string_equal(n.text, "");

	ui_replay_speed(r, 2, &n);
	assert_non_null(strstr(n.text, "the recorded speed (interval "
	    "2.00s)"));
	assert_string_equal(r->ui.msg, "");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_keys, fx_setup,
		    fx_teardown),
		cmocka_unit_test_setup_teardown(test_goto, fx_setup,
		    fx_teardown),
		cmocka_unit_test_setup_teardown(test_steps, fx_setup,
		    fx_teardown),
		cmocka_unit_test_setup_teardown(test_failed, fx_setup,
		    fx_teardown),
	};

	return (cmocka_run_group_tests_name("ui-replay", tests, NULL, NULL));
}
