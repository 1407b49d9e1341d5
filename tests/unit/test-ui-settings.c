/*
 * Unit tests for the settings controller (ui/ui-settings.c): loading and
 * writing the settings file say what came of it in a note for the loop,
 * and leave the status line alone.  No session is needed: the cases pick
 * nothing from the file.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "config/settings.h"
#include "ui/ui-run.h"
#include "util/xalloc.h"

struct fx {
	struct ui_run	 r;
	char		 dir[64];
	char		*path;
};

static int
fx_setup(void **state)
{
	struct fx	*fx = xcalloc(1, sizeof *fx);
	size_t		 i;

	snprintf(fx->dir, sizeof fx->dir, "/tmp/hvtop-ui-settings.XXXXXX");
	assert_non_null(mkdtemp(fx->dir));
	fx->path = xasprintf("%s/hvtoprc", fx->dir);
	setenv("HVTOP_CONFIG", fx->path, 1);
	clock_init(&fx->r.rt, 0, 0);
	for (i = 0; i < UI_NSCREENS; i++)
		fx->r.ui.list[i].sort = -1;
	fx->r.ui.interval = 2;
	fx->r.picked = 1;
	*state = fx;
	return (0);
}

static int
fx_teardown(void **state)
{
	struct fx	*fx = *state;
	size_t		 i;

	settings_free(fx->r.settings);
	free(fx->r.settings_unread);
	for (i = 0; i < fx->r.ui.nhidden; i++)
		free(fx->r.ui.hidden[i]);
	free(fx->r.ui.hidden);
	unlink(fx->path);
	rmdir(fx->dir);
	free(fx->path);
	free(fx);
	unsetenv("HVTOP_CONFIG");
	return (0);
}

static void
test_save_says(void **state)
{
	struct fx	*fx = *state;
	struct ui_note	 n = { 0 };
	char		 want[256];
	FILE		*fp;

	/* A file that could not be read is not written over. */
	fx->r.settings_unread = xstrdup("line 3: no key");
	assert_int_equal(ui_settings_save(&fx->r, &n), UI_ACT_NONE);
	assert_int_equal(n.role, UI_R_ERROR);
	assert_string_equal(n.text, "settings not written: the file could "
	    "not be read (line 3: no key)");
	assert_int_equal(access(fx->path, F_OK), -1);
	free(fx->r.settings_unread);
	fx->r.settings_unread = NULL;

	/* Written: the note says where, the status line is the loop's. */
	assert_int_equal(ui_settings_save(&fx->r, &n), UI_ACT_NONE);
	assert_int_equal(n.role, UI_R_GOOD);
	snprintf(want, sizeof want, "settings written to %s", fx->path);
	assert_string_equal(n.text, want);
	assert_string_equal(fx->r.ui.msg, "");
	assert_non_null(fp = fopen(fx->path, "r"));
	fclose(fp);

	/* Nowhere to write. */
	unsetenv("HVTOP_CONFIG");
	setenv("HOME", "", 1);
	setenv("XDG_CONFIG_HOME", "", 1);
	assert_int_equal(ui_settings_save(&fx->r, &n), UI_ACT_NONE);
	assert_int_equal(n.role, UI_R_ERROR);
	assert_string_equal(n.text, "nowhere to write settings: set HOME, "
	    "XDG_CONFIG_HOME or HVTOP_CONFIG");
	assert_string_equal(fx->r.ui.msg, "");
}

static void
test_load_says(void **state)
{
	struct fx	*fx = *state;
	struct ui_note	 n = { 0 };
	FILE		*fp;

	/* No file: nothing to say. */
	ui_settings_load(&fx->r, &n);
	assert_string_equal(n.text, "");

	/* A bad interval: said, the default kept, what else is there
	 * used. */
	assert_non_null(fp = fopen(fx->path, "w"));
	fputs("config_version=1\ninterval=soon\nhidden=cycles\n", fp);
	fclose(fp);
	ui_settings_load(&fx->r, &n);
	assert_int_equal(n.role, UI_R_ERROR);
	assert_non_null(strstr(n.text, "interval=soon"));
	assert_non_null(strstr(n.text, "the default is used"));
	assert_true(fx->r.ui.interval == 2);
	assert_int_equal(fx->r.ui.nhidden, 1);
	assert_string_equal(fx->r.ui.hidden[0], "cycles");
	assert_string_equal(fx->r.ui.msg, "");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_save_says, fx_setup,
		    fx_teardown),
		cmocka_unit_test_setup_teardown(test_load_says, fx_setup,
		    fx_teardown),
	};

	return (cmocka_run_group_tests_name("ui-settings", tests, NULL, NULL));
}
