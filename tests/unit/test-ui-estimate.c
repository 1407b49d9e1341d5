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
#include "ui/ui-model.h"
#include "ui/view.h"
#include "filter/filter.h"
#include "util/xalloc.h"

#include "fixture-ui.h"

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

static void
test_live_estimate(void **state)
{
	struct fixture_ui	 fx;
	size_t			 view, row;
	char			*text, *s;

	(void)state;
	fixture_ui_open(&fx, "HPM_0THRD_NON_IDLE_CCYC:0-1", fake_fill);
	fixture_ui_sample(&fx);
	/* The cell and the total built on it carry the mark, in the
	 * column's prefix (M/s). */
	text = fixture_ui_render(&fx.ui, 100, 30);
	if (strstr(text, " ~1.00\n") == NULL || strstr(text, " ~3.00\n") ==
	    NULL || strstr(text, " M/s\n") == NULL)
		fail_msg("no ~ before the estimates:\n%s", text);
	free(text);

	/* The detail pane gives the reason beside the value. */
	fx.ui.detail = 1;
	text = fixture_ui_render(&fx.ui, 110, 30);
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
	fixture_ui_close(&fx);
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
