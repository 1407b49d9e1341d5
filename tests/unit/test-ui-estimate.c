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
#include "engine/selection.h"
#include "hvtop.h"
#include "source/source.h"
#include "ui/ui.h"
#include "ui/view.h"
#include "util/file.h"
#include "util/filter.h"
#include "util/xalloc.h"

#define P8	"/tests/data/catalog/p8-catalog-v3.bin"

static const struct source_ops fake_ops = { .name = "test" };

struct fixture {
	struct hvtop		 h;
	struct source		 src;
	struct catalog		*cat;
	struct ui		 ui;
	struct raw_sample	 rs;
};

/* Counter 0 reads as an estimate from the second sample on. */
static void
fixture_sample(struct fixture *fx, unsigned step)
{
	struct engine_snapshot	*s;
	size_t			 k;

	fx->rs.now = (uint64_t)step * 1000000000ULL;
	for (k = 0; k < fx->rs.nvalues; k++) {
		fx->rs.values[k].value = (uint64_t)step * 1000000 * (k + 1);
		fx->rs.values[k].status = RAW_OK;
	}
	if (step > 0) {
		fx->rs.values[0].status = RAW_SCALED;
		fx->rs.values[0].counted = 62;
	}
	s = engine_update(fx->h.engine, &fx->rs);
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
	const char	*top = getenv("top_srcdir");
	char		*path, *cause = NULL;
	void		*buf;
	size_t		 len, i;

	memset(fx, 0, sizeof *fx);
	path = xasprintf("%s%s", top != NULL ? top : "..", P8);
	assert_int_equal(file_read(path, 1 << 24, &buf, &len, &cause), 0);
	free(path);
	assert_int_equal(catalog_parse(buf, len, 1, &fx->cat, &cause), 0);
	free(buf);
	fx->src.ops = &fake_ops;
	fx->src.label = xstrdup("test frame");
	fx->h.src = &fx->src;
	fx->h.cat = fx->cat;
	fx->h.catp = fx->cat;
	fx->h.catalog_label = xstrdup("catalog v3");
	fx->h.opts.delay = 1;
	fx->h.topo.sockets = fx->h.topo.chips = 1;
	fx->h.topo.cores = 4;
	fx->h.topo.smt = 8;
	fx->h.topo.interface = 1;
	fx->h.topo.privileged = 1;
	assert_int_equal(selection_add(&fx->h.sel, fx->cat, &fx->h.topo,
	    "HPM_0THRD_NON_IDLE_CCYC:0-1", 0, &cause), 0);
	fx->h.engine = engine_new(fx->cat, &fx->h.sel, 0, NULL, 0, NULL,
	    NULL);
	fx->rs.nvalues = fx->h.sel.ncounters;
	fx->rs.values = xcalloc(fx->rs.nvalues + 1, sizeof *fx->rs.values);
	fx->ui.h = &fx->h;
	fx->ui.delay = 1;
	snprintf(fx->ui.host, sizeof fx->ui.host, "testhost");
	for (i = 0; i < UI_NSCREENS; i++)
		fx->ui.list[i].sort = -1;
	live_reset(&fx->ui);
	items_build(&fx->ui);
	fixture_sample(fx, 0);
	fixture_sample(fx, 1);
}

static void
fixture_close(struct fixture *fx)
{
	engine_snapshot_free(fx->ui.snap);
	live_free(&fx->ui.live);
	items_free(&fx->ui);
	filter_free(fx->ui.filter);
	engine_free(fx->h.engine);
	selection_clear(&fx->h.sel);
	catalog_free(fx->cat);
	free(fx->h.catalog_label);
	free(fx->src.label);
	free(fx->rs.values);
}

static char *
render(struct ui *ui, int w, int h)
{
	struct view_frame	 f;
	char			*text;

	memset(&f, 0, sizeof f);
	f.width = w;
	f.height = h;
	view_render(ui, &f);
	text = view_frame_text(&f);
	view_frame_free(&f);
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
	/* The cell and the total built on it carry the mark. */
	text = render(&fx.ui, 100, 30);
	if (strstr(text, " ~1000k") == NULL || strstr(text, " ~5000k") ==
	    NULL)
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
