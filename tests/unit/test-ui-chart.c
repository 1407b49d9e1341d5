/*
 * Unit tests for the history chart (ui/chart.c): golden grids for small
 * series in each mode, a flat series, a step, gaps (NaN and infinity), one
 * value, every value missing, the newest missing, negative values, huge
 * and tiny magnitudes; the window keeps the newest samples; a chart too
 * small for its axes is refused; cells encode as braille and blocks.
 */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ui/chart.h"
#include "ui/view.h"

#define NV	16
#define NL	8

struct chart_case {
	const char	*name;
	enum chart_mode	 mode;
	int		 width;
	int		 height;
	size_t		 n;
	double		 v[NV];
	const char	*lines[NL];
};

/* The samples are 2 s apart, the newest last. */
static const struct chart_case cases[] = {
	{ "flat", CHART_BRAILLE, 40, 6, 10,
	  { 5, 5, 5, 5, 5, 5, 5, 5, 5, 5 },
	  {
	    "  |",
	    "5 |                                ⠒⠒⠒⠒⠒",
	    "  |",
	    "  +------------------------------------+",
	    "                                     now",
	    "min 5  max 5  last 5 MB/s  (last 18s)",
	    NULL } },
	{ "step, braille", CHART_BRAILLE, 40, 6, 16,
	  { 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 3000, 3000, 3000,
	    3000, 3000, 3000, 3000, 3000 },
	  {
	    "3000 |                              ⡏⠉⠉⠉",
	    "     |                              ⡇",
	    "1000 |                          ⣀⣀⣀⣀⠇",
	    "     +---------------------------------+",
	    "                                     now",
	    "min 1000  max 3000  last 3000 MB/s",
	    NULL } },
	{ "step, block", CHART_BLOCK, 40, 6, 16,
	  { 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 3000, 3000, 3000,
	    3000, 3000, 3000, 3000, 3000 },
	  {
	    "3000 |                          ████████",
	    "     |                          ████████",
	    "1000 |                  ▁▁▁▁▁▁▁▁████████",
	    "     +------------------+--------------+",
	    "                      -30s           now",
	    "min 1000  max 3000  last 3000 MB/s",
	    NULL } },
	{ "step, ascii", CHART_ASCII, 40, 6, 16,
	  { 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 3000, 3000, 3000,
	    3000, 3000, 3000, 3000, 3000 },
	  {
	    "3000 |                          ********",
	    "     |",
	    "1000 |                  ********",
	    "     +------------------+--------------+",
	    "                      -30s           now",
	    "min 1000  max 3000  last 3000 MB/s",
	    NULL } },
	{ "gaps, braille", CHART_BRAILLE, 40, 6, 16,
	  { 1000, 1000, 1000, 1000, 1000, NAN, NAN, 1000, 3000, 3000, 3000,
	    3000, INFINITY, 3000, 3000, 3000 },
	  {
	    "3000 |                              ⡏⠉⠈⠉",
	    "     |                              ⡇",
	    "1000 |                          ⣀⣀⡀⢀⠇",
	    "     +---------------------------------+",
	    "                                     now",
	    "min 1000  max 3000  last 3000 MB/s",
	    NULL } },
	{ "gaps, block", CHART_BLOCK, 40, 6, 16,
	  { 1000, 1000, 1000, 1000, 1000, NAN, NAN, 1000, 3000, 3000, 3000,
	    3000, INFINITY, 3000, 3000, 3000 },
	  {
	    "3000 |                          ████ ███",
	    "     |                          ████ ███",
	    "1000 |                  ▁▁▁▁▁  ▁████ ███",
	    "     +------------------+--------------+",
	    "                      -30s           now",
	    "min 1000  max 3000  last 3000 MB/s",
	    NULL } },
	{ "gaps, ascii", CHART_ASCII, 40, 6, 16,
	  { 1000, 1000, 1000, 1000, 1000, NAN, NAN, 1000, 3000, 3000, 3000,
	    3000, INFINITY, 3000, 3000, 3000 },
	  {
	    "3000 |                          **** ***",
	    "     |",
	    "1000 |                  *****  *",
	    "     +------------------+--------------+",
	    "                      -30s           now",
	    "min 1000  max 3000  last 3000 MB/s",
	    NULL } },
	{ "one value", CHART_BRAILLE, 40, 6, 1,
	  { 42 },
	  {
	    "   |",
	    "42 |                                   ⠐",
	    "   |",
	    "   +-----------------------------------+",
	    "                                     now",
	    "min 42  max 42  last 42 MB/s",
	    NULL } },
	{ "one value, block", CHART_BLOCK, 40, 6, 1,
	  { 42 },
	  {
	    "   |",
	    "42 |                                   ▅",
	    "   |                                   █",
	    "   +-----------------------------------+",
	    "                                     now",
	    "min 42  max 42  last 42 MB/s",
	    NULL } },
	{ "all missing", CHART_BRAILLE, 40, 5, 4,
	  { NAN, NAN, NAN, NAN },
	  {
	    "  |",
	    "  |",
	    "  +------------------------------------+",
	    "                                     now",
	    "min -  max -  last - MB/s  (last 6.0s)",
	    NULL } },
	{ "newest missing", CHART_ASCII, 40, 5, 4,
	  { 1, 2, 3, NAN },
	  {
	    "3 |                                  **",
	    "1 |                                 *",
	    "  +------------------------------------+",
	    "                                     now",
	    "min 1  max 3  last - MB/s  (last 6.0s)",
	    NULL } },
	{ "negative", CHART_BLOCK, 40, 6, 12,
	  { -40, -30, -20, -10, 0, 10, 20, 30, 40, 30, 20, 10 },
	  {
	    " 40 |                             ▂▅█▅▂",
	    "    |                          ▂▅▇█████▇",
	    "-40 |                       ▁▄▇█████████",
	    "    +----------------------------------+",
	    "                                     now",
	    "min -40  max 40  last 10 MB/s",
	    NULL } },
	{ "huge", CHART_ASCII, 40, 5, 6,
	  { 1e300, -1e300, 1e300, -1e300, 1e300, -1e300 },
	  {
	    "1.0e+300 |                        * * *",
	    " -1e+300 |                         * * *",
	    "         +-----------------------------+",
	    "                                     now",
	    "min -1e+300  max 1.0e+300  last -1e+300",
	    NULL } },
	{ "tiny", CHART_ASCII, 40, 5, 6,
	  { 1e-12, 2e-12, 3e-12, 4e-12, 5e-12, 6e-12 },
	  {
	    "6.00e-12 |                           ***",
	    "1.00e-12 |                        ***",
	    "         +-----------------------------+",
	    "                                     now",
	    "min 1.00e-12  max 6.00e-12  last 6.00e-1",
	    NULL } },
	{ "wave, braille", CHART_BRAILLE, 40, 7, 16,
	  { 0, 38, 71, 92, 100, 92, 71, 38, 0, -38, -71, -92, -100, -92, -71,
	    -38 },
	  {
	    " 100 |                           ⡔⠑⢄",
	    "     |                          ⡰⠁ ⠘⡄",
	    "     |                              ⠸⡀ ⢠",
	    "-100 |                               ⠣⡠⠊",
	    "     +---------------------------------+",
	    "                                     now",
	    "min -100  max 100  last -38 MB/s",
	    NULL } },
};

static void
test_chart_golden(void **state)
{
	struct chart		 c;
	struct chart_series	 s;
	double			 age[NV];
	size_t			 i, k;
	char			*line;
	int			 y;

	(void)state;
	memset(&c, 0, sizeof c);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		for (k = 0; k < cases[i].n; k++)
			age[k] = 2.0 * (double)(cases[i].n - 1 - k);
		s.v = cases[i].v;
		s.age = age;
		s.n = cases[i].n;
		s.unit = "MB/s";
		assert_int_equal(chart_render(&s, cases[i].width,
		    cases[i].height, cases[i].mode, &c), 0);
		assert_int_equal(c.height, cases[i].height);
		for (y = 0; y < c.height; y++) {
			line = chart_line(&c, y);
			if (cases[i].lines[y] == NULL ||
			    strcmp(line, cases[i].lines[y]) != 0)
				fail_msg("%s, line %d: \"%s\", not \"%s\"",
				    cases[i].name, y, line,
				    cases[i].lines[y] == NULL ? "(none)" :
				    cases[i].lines[y]);
			free(line);
		}
		assert_null(cases[i].lines[c.height]);
	}
	chart_free(&c);
}

/* A long history: the newest samples that fit, ticks at round ages. */
static void
test_chart_window(void **state)
{
	struct chart		 c;
	struct chart_series	 s = { 0 };
	double			 v[200], age[200];
	size_t			 k;
	char			*line;

	(void)state;
	memset(&c, 0, sizeof c);
	for (k = 0; k < 200; k++) {
		v[k] = (double)k;
		age[k] = 2.0 * (double)(199 - k);
	}
	s.v = v;
	s.age = age;
	s.n = 200;
	assert_int_equal(chart_render(&s, 80, 8, CHART_BRAILLE, &c), 0);
	/* Labels of 3 columns and " |": 75 cells of 2 samples. */
	assert_int_equal(c.shown, 150);
	line = chart_line(&c, 0);
	assert_int_equal(strncmp(line, "199 |   ", 8), 0);
	free(line);
	line = chart_line(&c, 4);
	assert_int_equal(strncmp(line, " 50 |\xe2\xa3\x80", 8), 0);
	free(line);
	line = chart_line(&c, 6);
	assert_string_equal(line, "                  -4m            -3m      "
	    "      -2m            -1m           now");
	free(line);
	line = chart_line(&c, 7);
	assert_string_equal(line, "min 50  max 199  last 199  (last 5m)");
	free(line);
	/* Without ages: only "now", no span. */
	s.age = NULL;
	assert_int_equal(chart_render(&s, 80, 8, CHART_ASCII, &c), 0);
	line = chart_line(&c, 6);
	assert_string_equal(line, "                                         "
	    "                                    now");
	free(line);
	chart_free(&c);
}

static void
test_chart_small(void **state)
{
	struct chart		 c;
	struct chart_series	 s = { 0 };
	double			 v[2] = { 1, 2 };

	(void)state;
	memset(&c, 0, sizeof c);
	s.v = v;
	s.n = 2;
	assert_int_equal(chart_render(&s, CHART_MIN_WIDTH - 1, 10,
	    CHART_BRAILLE, &c), -1);
	assert_int_equal(c.width, 0);
	assert_int_equal(chart_render(&s, 80, CHART_MIN_HEIGHT - 1,
	    CHART_BLOCK, &c), -1);
	assert_int_equal(chart_render(&s, CHART_MIN_WIDTH, CHART_MIN_HEIGHT,
	    CHART_ASCII, &c), 0);
	/* Then larger again: the cells grow. */
	assert_int_equal(chart_render(&s, 300, 100, CHART_BRAILLE, &c), 0);
	assert_int_equal(c.width, 300);
	chart_free(&c);
	chart_free(&c);
}

static void
test_chart_cells(void **state)
{
	char	 buf[8];

	(void)state;
	assert_int_equal(chart_cell_utf8(CHART_BRAILLE, CHART_K_PLOT, 0xff,
	    buf), 3);
	assert_string_equal(buf, "\xe2\xa3\xbf");	/* U+28FF */
	assert_int_equal(chart_cell_utf8(CHART_BRAILLE, CHART_K_PLOT, 0,
	    buf), 1);
	assert_string_equal(buf, " ");
	assert_int_equal(chart_cell_utf8(CHART_BLOCK, CHART_K_PLOT, '8',
	    buf), 3);
	assert_string_equal(buf, "\xe2\x96\x88");	/* U+2588 */
	assert_int_equal(chart_cell_utf8(CHART_BLOCK, CHART_K_PLOT, '0',
	    buf), 1);
	assert_string_equal(buf, " ");
	assert_int_equal(chart_cell_utf8(CHART_BRAILLE, CHART_K_AXIS, '|',
	    buf), 1);
	assert_string_equal(buf, "|");
	assert_int_equal(chart_cell_ascii(CHART_BRAILLE, 0), ' ');
	assert_int_equal(chart_cell_ascii(CHART_BRAILLE, 0x01), '\'');
	assert_int_equal(chart_cell_ascii(CHART_BRAILLE, 0x40), '.');
	assert_int_equal(chart_cell_ascii(CHART_BRAILLE, 0x41), ':');
	assert_int_equal(chart_cell_ascii(CHART_BLOCK, '8'), '#');
	assert_int_equal(chart_cell_ascii(CHART_BLOCK, '0'), ' ');
	assert_int_equal(chart_cell_ascii(CHART_ASCII, '*'), '*');
}

/*
 * A counter constant within rounding (a 32 MHz clock read over intervals
 * that differ by a few counts) is a flat chart and sparkline, not spikes
 * from the bottom to the top.
 */
static void
test_chart_flat(void **state)
{
	struct chart		 c;
	struct chart_series	 s = { 0 };
	struct view_canvas	 f;
	double			 v[40];
	size_t			 k;
	int			 y, rows = 0;
	char			*line;

	(void)state;
	memset(&c, 0, sizeof c);
	for (k = 0; k < 40; k++)
		v[k] = 32e6 + (k % 2 == 0 ? 0 : 3);
	s.v = v;
	s.n = 40;
	assert_int_equal(chart_render(&s, 60, 10, CHART_ASCII, &c), 0);
	for (y = 0; y < c.height - 3; y++) {
		line = chart_line(&c, y);
		rows += strchr(line, '*') != NULL;
		free(line);
	}
	assert_int_equal(rows, 1);
	chart_free(&c);

	memset(&f, 0, sizeof f);
	view_canvas_resize(&f, 20, 1);
	view_spark(&f, 0, 0, 10, v, 10);
	for (k = 1; k < 10; k++)
		assert_int_equal(f.chars[k], f.chars[0]);
	view_canvas_free(&f);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chart_golden),
		cmocka_unit_test(test_chart_window),
		cmocka_unit_test(test_chart_small),
		cmocka_unit_test(test_chart_cells),
		cmocka_unit_test(test_chart_flat),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
