/*
 * Unit tests for the pick controller (ui/ui-pick.c): a change the
 * session refuses, or an unpick of what is not picked, is said in a note
 * for the loop, asks for no sample, and leaves the status line and the
 * picks as they were.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "session/session.h"
#include "source/source.h"
#include "ui/ui-run.h"

#include "fixture-ui.h"

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

static void
test_refused(void **state)
{
	struct fixture_ui	 fx;
	struct ui_run		 r;
	struct ui_note		 n = { 0 };

	(void)state;
	fixture_ui_open(&fx, "HPM_0THRD_NON_IDLE_CCYC:0", fill_steady);
	memset(&r, 0, sizeof r);
	r.ui = fx.ui;
	r.picked = 1;

	/* No such group: nothing picked, the note says why. */
	assert_int_equal(ui_pick_set(&r, "NO_SUCH_GROUP", 0, &n),
	    UI_ACT_NONE);
	assert_int_equal(n.role, UI_R_ERROR);
	assert_non_null(strstr(n.text, "cannot pick "));
	assert_non_null(strstr(n.text, "NO_SUCH_GROUP"));
	assert_int_equal(r.ui.npicks, 0);
	assert_string_equal(r.ui.msg, "");

	/* Not picked: a warning, the picks as they were. */
	memset(&n, 0, sizeof n);
	assert_int_equal(ui_pick_unset(&r, "NO_SUCH_GROUP", 0, &n),
	    UI_ACT_NONE);
	assert_int_equal(n.role, UI_R_WARN);
	assert_string_equal(n.text, "NO_SUCH_GROUP is not picked");
	assert_int_equal(r.ui.npicks, 0);
	assert_string_equal(r.ui.msg, "");

	/* A name the g prompt cannot spell: said, nothing asked. */
	memset(&n, 0, sizeof n);
	assert_int_equal(ui_pick_by_name(&r, " NO_SUCH_GROUP", &n),
	    UI_ACT_NONE);
	assert_int_equal(n.role, UI_R_ERROR);
	assert_non_null(strstr(n.text, "NO_SUCH_GROUP"));
	assert_string_equal(r.ui.msg, "");

	fx.ui = r.ui;
	fixture_ui_close(&fx);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refused),
	};

	return (cmocka_run_group_tests_name("ui-pick", tests, NULL, NULL));
}
