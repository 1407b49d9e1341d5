/*
 * The Live screen shows an estimate (a count perf multiplexed, read as
 * RAW_SCALED) as a value marked "~", and says why in the detail pane and
 * the status line, the way it shows a cell without a value as "-" with
 * its reason.  Rendered as text from a hand-made engine; no terminal.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "model/selection.h"
#include "session/session.h"
#include "source/source.h"
#include "ui/ui.h"
#include "ui/view.h"
#include "sys/file.h"
#include "filter/filter.h"
#include "util/xalloc.h"

#include "test-fake-source.h"

#define P8	"/tests/data/catalog/p8-catalog-v3.bin"

/*
 * Counter k reads n 1e6 (k + 1) at the n-th sample; counter 0 is an
 * estimate (62 % counted) from the second sample on.
 */
static void
fake_fill(struct raw_sample *rs, unsigned n)
{
	size_t	 k;

	for (k = 0; k < rs->nvalues; k++) {
		rs->values[k].value = (uint64_t)n * 1000000 * (k + 1);
		rs->values[k].status = RAW_OK;
	}
	if (n > 0) {
		rs->values[0].status = RAW_SCALED;
		rs->values[0].counted = 62;
	}
	rs->calls = 1;
}

struct fixture {
	struct session		*ses;
	struct ui		 ui;
};

static void
fixture_sample(struct fixture *fx)
{
	struct engine_snapshot	*s;
	unsigned		 changed;
	char			*cause = NULL;

	assert_int_equal(session_sample(fx->ses, &changed, &s, &cause), 0);
	if (s->seq == 0) {
		engine_snapshot_free(s);
		return;
	}
	engine_snapshot_free(fx->ui.snap);
	fx->ui.snap = s;
	live_push(&fx->ui, s);
	live_layout(&fx->ui);
}

static void
fixture_open(struct fixture *fx)
{
	static char		 e0[] = "HPM_0THRD_NON_IDLE_CCYC:0-1";
	static char		*events[] = { e0 };
	const char		*top = getenv("top_srcdir");
	struct session_opts	 so;
	struct source		*src;
	char			*path, *cause = NULL;
	size_t			 i;

	memset(fx, 0, sizeof *fx);
	setenv("XDG_CONFIG_HOME", "/nonexistent", 1);
	path = xasprintf("%s%s", top != NULL ? top : "..", P8);
	src = fake_source_new(path, "test frame", fake_fill);
	free(path);
	memset(&so, 0, sizeof so);
	so.src = src;
	so.delay = 1;
	so.events = events;
	so.nevents = 1;
	assert_int_equal(session_open(&fx->ses, &so, &cause), 0);
	assert_int_equal(session_start(fx->ses, &cause), 0);
	fx->ui.ses = fx->ses;
	fx->ui.delay = 1;
	snprintf(fx->ui.host, sizeof fx->ui.host, "testhost");
	for (i = 0; i < UI_NSCREENS; i++)
		fx->ui.list[i].sort = -1;
	live_reset(&fx->ui);
	items_build(&fx->ui);
	fixture_sample(fx);
	fixture_sample(fx);
}

static void
fixture_close(struct fixture *fx)
{
	char	*cause = NULL;

	engine_snapshot_free(fx->ui.snap);
	live_free(&fx->ui.live);
	items_free(&fx->ui);
	filter_free(fx->ui.filter);
	assert_int_equal(session_close(fx->ses, &cause), 0);
}

static char *
render(struct ui *ui, int w, int h)
{
	struct view_canvas	 f;
	char			*text;

	memset(&f, 0, sizeof f);
	f.width = w;
	f.height = h;
	view_fit(ui, w, h);
	view_render(ui, &f);
	text = view_canvas_text(&f);
	view_canvas_free(&f);
	return (text);
}

static void
test_live_estimate(void **state)
{
	struct fixture	 fx;
	size_t		 view, row;
	char		*text, *s;

	(void)state;
	fixture_open(&fx);
	/* The cell and the total built on it carry the mark, in the
	 * column's prefix (M/s). */
	text = render(&fx.ui, 100, 30);
	if (strstr(text, " ~1.00\n") == NULL || strstr(text, " ~3.00\n") ==
	    NULL || strstr(text, " M/s\n") == NULL)
		fail_msg("no ~ before the estimates:\n%s", text);
	free(text);

	/* The detail pane gives the reason beside the value. */
	fx.ui.detail = 1;
	text = render(&fx.ui, 110, 30);
	if (strstr(text, "estimated: counted 62 % of the interval") == NULL)
		fail_msg("no reason in the detail pane:\n%s", text);
	free(text);
	fx.ui.detail = 0;

	/* So does the status line, for the cursor cell. */
	assert_int_equal(live_cursor(&fx.ui, &view, &row), 0);
	fx.ui.live.v[view].col = 0;
	s = view_live_status(&fx.ui);
	if (strstr(s, "(estimated: counted 62 % of the interval)") == NULL)
		fail_msg("status line: %s", s);
	free(s);
	fixture_close(&fx);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_live_estimate),
	};

	return (cmocka_run_group_tests_name("ui-estimate", tests, NULL,
	    NULL));
}
