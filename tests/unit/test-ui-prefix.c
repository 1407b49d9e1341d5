/*
 * The Live screen's prefixes hold: a column keeps its prefix while its
 * values stay in a band around it (12.0 G/s, then 4.57 G/s, not 4572
 * M/s), and a rate has the same form whatever else is read (8.00 M/s
 * on one chip as among many).  From a hand-made source; no terminal.
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

/* Per interval of 1 s: 12e9 counts, then 4.572e9, and again. */
static void
fill_swing(struct raw_sample *rs, unsigned n)
{
	uint64_t	 v = (uint64_t)(n / 2) * 16572000000ULL +
			    (n % 2) * 12000000000ULL;
	size_t		 k;

	for (k = 0; k < rs->nvalues; k++) {
		rs->values[k].value = v;
		rs->values[k].status = RAW_OK;
	}
	rs->calls = 1;
}

/* 8e6 counts an interval, as the PowerBus cycles of a chip. */
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

/* The row's cell as the screen writes it, and its column's unit. */
static void
shown(struct fixture_ui *fx, char *buf, size_t len, const char **unit)
{
	int	 role;

	live_format(&fx->ui, 0, 0, 0, 0, buf, len, &role);
	*unit = live_col_shown_unit(&fx->ui, 0, 0);
}

static void
test_prefix_holds(void **state)
{
	struct fixture_ui	 fx;
	const char		*unit;
	char			 buf[32];
	int			 i;

	(void)state;
	fixture_ui_open(&fx, "HPM_0THRD_NON_IDLE_CCYC:0", fill_swing);
	for (i = 0; i < 6; i++) {
		fixture_ui_sample(&fx);
		shown(&fx, buf, sizeof buf, &unit);
		assert_string_equal(unit, "G/s");
		assert_string_equal(buf, i % 2 == 0 ? "12.0" : "4.57");
	}
	fixture_ui_close(&fx);
}

static void
test_prefix_same_form(void **state)
{
	struct fixture_ui	 fx;
	const char		*unit;
	char			 buf[32];

	(void)state;
	fixture_ui_open(&fx, "HPM_0THRD_NON_IDLE_CCYC:0", fill_steady);
	fixture_ui_sample(&fx);
	shown(&fx, buf, sizeof buf, &unit);
	/* As a column of two such rows, whose total is 16.0 M/s. */
	assert_string_equal(unit, "M/s");
	assert_string_equal(buf, "8.00");
	fixture_ui_close(&fx);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_prefix_holds),
		cmocka_unit_test(test_prefix_same_form),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
