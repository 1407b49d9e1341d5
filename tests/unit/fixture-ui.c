/* The interface tests' shared fixtures (fixture-ui.h). */
#include "config.h"

#include "fixture-ui.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "engine/engine.h"
#include "filter/filter.h"
#include "session/session.h"
#include "source/source.h"
#include "ui/view.h"
#include "util/xalloc.h"

#include "fixture.h"

char *
fixture_ui_render(struct ui *ui, int w, int h)
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

void
fixture_ui_sample(struct fixture_ui *fx)
{
	struct session_result	 res;
	struct engine_snapshot	*s;
	char			*cause = NULL;

	assert_int_equal(session_sample(fx->ses, &res, &cause), 0);
	s = res.snap;
	if (s->seq == 0) {
		engine_snapshot_free(s);
		return;
	}
	engine_snapshot_free(fx->ui.snap);
	fx->ui.snap = s;
	live_push(&fx->ui, s);
	live_layout(&fx->ui);
}

void
fixture_ui_open(struct fixture_ui *fx, const char *spec, fake_fill_fn fill)
{
	struct session_opts	 so;
	struct source		*src;
	char			*path, *cause = NULL;
	size_t			 i;

	memset(fx, 0, sizeof *fx);
	/* No metric file of the user's. */
	setenv("XDG_CONFIG_HOME", "/nonexistent", 1);
	path = fixture_path(FIXTURE_P8);
	src = fake_source_new(path, "test frame", fill);
	free(path);
	fx->spec = xstrdup(spec);
	memset(&so, 0, sizeof so);
	so.src = src;
	so.interval = 1;
	so.events = &fx->spec;
	so.nevents = 1;
	assert_int_equal(session_open(&fx->ses, &so, &cause), 0);
	assert_int_equal(session_start(fx->ses, &cause), 0);
	fx->ui.ses = fx->ses;
	fx->ui.interval = 1;
	snprintf(fx->ui.host, sizeof fx->ui.host, "testhost");
	for (i = 0; i < UI_NSCREENS; i++)
		fx->ui.list[i].sort = -1;
	live_reset(&fx->ui);
	view_catalog_items_build(&fx->ui);
	fixture_ui_sample(fx);
}

void
fixture_ui_close(struct fixture_ui *fx)
{
	char	*cause = NULL;

	engine_snapshot_free(fx->ui.snap);
	live_free(&fx->ui.live);
	view_catalog_items_free(&fx->ui);
	filter_free(fx->ui.filter);
	assert_int_equal(session_close(fx->ses, &cause), 0);
	free(fx->spec);
}
