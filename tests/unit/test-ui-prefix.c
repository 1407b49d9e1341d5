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
#include "ui/ui.h"
#include "ui/view.h"
#include "filter/filter.h"
#include "util/xalloc.h"

#include "test-fake-source.h"

#define P8	"/tests/data/catalog/p8-catalog-v3.bin"

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
fixture_open(struct fixture *fx, fake_fill_fn fill)
{
	static char		 e0[] = "HPM_0THRD_NON_IDLE_CCYC:0";
	static char		*events[] = { e0 };
	const char		*top = getenv("top_srcdir");
	struct session_opts	 so;
	struct source		*src;
	char			*path, *cause = NULL;
	size_t			 i;

	memset(fx, 0, sizeof *fx);
	setenv("XDG_CONFIG_HOME", "/nonexistent", 1);
	path = xasprintf("%s%s", top != NULL ? top : "..", P8);
	src = fake_source_new(path, "test frame", fill);
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
	for (i = 0; i < UI_NSCREENS; i++)
		fx->ui.list[i].sort = -1;
	live_reset(&fx->ui);
	fixture_sample(fx);
}

static void
fixture_close(struct fixture *fx)
{
	char	*cause = NULL;

	engine_snapshot_free(fx->ui.snap);
	live_free(&fx->ui.live);
	filter_free(fx->ui.filter);
	assert_int_equal(session_close(fx->ses, &cause), 0);
}

/* The row's cell as the screen writes it, and its column's unit. */
static void
shown(struct fixture *fx, char *buf, size_t len, const char **unit)
{
	int	 role;

	live_format(&fx->ui, 0, 0, 0, 0, buf, len, &role);
	*unit = live_col_shown_unit(&fx->ui, 0, 0);
}

static void
test_prefix_holds(void **state)
{
	struct fixture	 fx;
	const char	*unit;
	char		 buf[32];
	int		 i;

	(void)state;
	fixture_open(&fx, fill_swing);
	for (i = 0; i < 6; i++) {
		fixture_sample(&fx);
		shown(&fx, buf, sizeof buf, &unit);
		assert_string_equal(unit, "G/s");
		assert_string_equal(buf, i % 2 == 0 ? "12.0" : "4.57");
	}
	fixture_close(&fx);
}

static void
test_prefix_same_form(void **state)
{
	struct fixture	 fx;
	const char	*unit;
	char		 buf[32];

	(void)state;
	fixture_open(&fx, fill_steady);
	fixture_sample(&fx);
	shown(&fx, buf, sizeof buf, &unit);
	/* As a column of two such rows, whose total is 16.0 M/s. */
	assert_string_equal(unit, "M/s");
	assert_string_equal(buf, "8.00");
	fixture_close(&fx);
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
