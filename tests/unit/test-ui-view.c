/*
 * Unit tests for the frame and the small renderers of the terminal
 * interface that need no engine: a frame that grows in place (the way the
 * main loop sizes it before rendering), and shrinks and grows again.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ui/view.h"

/* Every cell of a w x h frame is blank and can be written. */
static void
frame_check(struct view_frame *f, int w, int h)
{
	char	*text;
	int	 y;

	assert_int_equal(f->width, w);
	assert_int_equal(f->height, h);
	for (y = 0; y < h; y++)
		view_role(f, y, 0, -1, UI_R_HEADER);
	view_put(f, h - 1, w - 1, "x", 1, UI_R_NORMAL);
	text = view_frame_text(f);
	assert_non_null(strchr(text, 'x'));
	free(text);
}

static void
test_frame_grow_in_place(void **state)
{
	static const int sizes[][2] = {
		{ 80, 24 }, { 200, 60 }, { 80, 60 }, { 200, 24 }, { 160, 24 },
		{ 120, 40 }, { 1, 1 }, { 300, 100 }, { 40, 10 }, { 300, 1 },
		{ 1, 300 },
	};
	struct view_frame	 f;
	size_t			 i;

	(void)state;
	memset(&f, 0, sizeof f);
	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		/* What the main loop does: the new size first. */
		f.width = sizes[i][0];
		f.height = sizes[i][1];
		view_frame_resize(&f, f.width, f.height);
		frame_check(&f, sizes[i][0], sizes[i][1]);
		/* And through the argument. */
		view_frame_resize(&f, sizes[i][1], sizes[i][0]);
		frame_check(&f, sizes[i][1], sizes[i][0]);
	}
	view_frame_free(&f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frame_grow_in_place),
	};

	return (cmocka_run_group_tests_name("ui-view", tests, NULL, NULL));
}
