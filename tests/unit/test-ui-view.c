/*
 * Unit tests for the canvas and the small renderers of the terminal
 * interface that need no engine: a canvas that grows in place (the way the
 * main loop sizes it before rendering), and shrinks and grows again;
 * text cut at the right edge says so.
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

/* Every cell of a w x h canvas is blank and can be written. */
static void
frame_check(struct view_canvas *f, int w, int h)
{
	char	*text;
	int	 y;

	assert_int_equal(f->width, w);
	assert_int_equal(f->height, h);
	for (y = 0; y < h; y++)
		view_role(f, y, 0, -1, UI_R_HEADER);
	view_put(f, h - 1, w - 1, "x", 1, UI_R_NORMAL);
	text = view_canvas_text(f);
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
	struct view_canvas	 f;
	size_t			 i;

	(void)state;
	memset(&f, 0, sizeof f);
	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		/* What the main loop does: the new size first. */
		f.width = sizes[i][0];
		f.height = sizes[i][1];
		view_canvas_resize(&f, f.width, f.height);
		frame_check(&f, sizes[i][0], sizes[i][1]);
		/* And through the argument. */
		view_canvas_resize(&f, sizes[i][1], sizes[i][0]);
		frame_check(&f, sizes[i][1], sizes[i][0]);
	}
	view_canvas_free(&f);
}

/* Row y of f as text, without the trailing blanks. */
static char *
frame_row(struct view_canvas *f, int y)
{
	char	*row;
	int	 n = f->width;

	row = malloc((size_t)n + 1);
	assert_non_null(row);
	memcpy(row, f->chars + (size_t)y * (size_t)f->width, (size_t)n);
	while (n > 0 && row[n - 1] == ' ')
		n--;
	row[n] = '\0';
	return (row);
}

static void
test_put_cut(void **state)
{
	struct view_canvas	 f;
	char			*row;
	int			 y;

	(void)state;
	memset(&f, 0, sizeof f);
	view_canvas_resize(&f, 20, 3);
	for (y = 0; y < 3; y++)
		view_role(&f, y, 0, -1, UI_R_NORMAL);
	/* Fits exactly: no mark. */
	assert_int_equal(view_put_cut(&f, 0, 10, "0123456789", UI_R_DIM), 20);
	row = frame_row(&f, 0);
	assert_string_equal(row, "          0123456789");
	free(row);
	/* One too long: the last column says it was cut. */
	view_put_cut(&f, 1, 10, "0123456789A", UI_R_DIM);
	row = frame_row(&f, 1);
	assert_string_equal(row, "          012345678~");
	free(row);
	/* No room at all: nothing, and nothing past the edge. */
	assert_int_equal(view_put_cut(&f, 2, 20, "xyz", UI_R_DIM), 20);
	row = frame_row(&f, 2);
	assert_string_equal(row, "");
	free(row);
	view_canvas_free(&f);
}

/*
 * Without UTF-8 the loop hands the terminal a canvas whose sparkline
 * levels and chart dots are ASCII already, the same characters as a dump
 * of the canvas, in the same roles.
 */
static void
test_canvas_ascii(void **state)
{
	struct view_canvas	 f;
	char			*text;

	(void)state;
	memset(&f, 0, sizeof f);
	view_canvas_resize(&f, 6, 1);
	view_put(&f, 0, 0, "ab", -1, UI_R_NORMAL);
	view_put(&f, 0, 2, "18", -1, UI_R_SPARK);
	f.chars[4] = 0x1b;
	f.chars[5] = (char)0xff;
	view_role(&f, 0, 4, 2, UI_R_BRAILLE);
	text = view_canvas_text(&f);
	view_canvas_ascii(&f);
	assert_memory_equal(f.chars, "ab_#':", 6);
	assert_string_equal(text, "ab_#':\n");
	assert_int_equal(f.roles[2], UI_R_SPARK);
	assert_int_equal(f.roles[5], UI_R_BRAILLE);
	free(text);
	view_canvas_free(&f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_frame_grow_in_place),
		cmocka_unit_test(test_put_cut),
		cmocka_unit_test(test_canvas_ascii),
	};

	return (cmocka_run_group_tests_name("ui-view", tests, NULL, NULL));
}
