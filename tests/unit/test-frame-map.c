/*
 * Unit tests for the frame's map (src/model/frame-map.c): the frames the
 * Frame screen must show (2 chips x 12 cores at 80x24, 16 chips x 12
 * cores at 200x60 and at 80x24) get every chip and core inside the area
 * without overlap; more room never loses detail; tiny areas and empty
 * topologies give no box and no crash; the heat scale and the numbers in
 * cells.
 */
#include "config.h"

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/frame-map.h"

/* Every box inside w x h, none overlapping, every core of each placed. */
static void
map_check(const struct frame_map_spec *s, const struct frame_map *m, int w,
    int h)
{
	unsigned	 cores = 0;
	size_t		 i, j;
	int		 dy, dx;

	for (i = 0; i < m->nboxes; i++) {
		const struct frame_map_box *a = &m->boxes[i];

		assert_int_equal(a->chip, i);
		assert_true(a->x >= 0 && a->y >= 0);
		assert_true(a->x + m->box_w <= w);
		assert_true(a->y + m->box_h <= h);
		cores += a->ncores;
		/* The last core's cell lies inside the box. */
		frame_map_cell(m, a->ncores - 1, &dy, &dx);
		assert_true(dy < m->box_h - (m->border ? 1 : 0));
		assert_true(dx + (m->cell_w > 0 ? m->cell_w : 1) <= m->box_w);
		for (j = 0; j < i; j++) {
			const struct frame_map_box *b = &m->boxes[j];

			assert_false(a->x < b->x + m->box_w &&
			    b->x < a->x + m->box_w &&
			    a->y < b->y + m->box_h &&
			    b->y < a->y + m->box_h);
		}
	}
	if (m->missing == 0)
		assert_int_equal(cores, s->cores);
	assert_int_equal(m->nboxes + m->missing, s->chips);
}

static void
test_layout_sizes(void **state)
{
	/* The content area of a screen of WxH is W x (H - 9): header,
	 * tabs, legend, status and key bar. */
	static const struct {
		unsigned	 sockets, chips, cores;
		int		 w, h;
		int		 values;	/* numbers fit in the cells */
		int		 bars;
	} t[] = {
		{ 2, 2, 24, 80, 15, 1, 4 },
		{ 2, 2, 24, 200, 51, 1, 4 },
		{ 4, 16, 192, 200, 51, 1, 4 },
		{ 4, 16, 192, 80, 15, 0, 0 },
		{ 1, 1, 4, 40, 3, 1, 0 },
		{ 8, 64, 4096, 300, 91, 1, -1 },
	};
	struct frame_map_spec	 s;
	struct frame_map	 m;
	size_t			 i;

	(void)state;
	memset(&m, 0, sizeof m);
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		s.sockets = t[i].sockets;
		s.chips = t[i].chips;
		s.cores = t[i].cores;
		s.nbars = 4;
		frame_map_layout(&s, t[i].w, t[i].h, &m);
		map_check(&s, &m, t[i].w, t[i].h);
		assert_int_equal(m.missing, 0);
		assert_int_equal(m.cell_w >= FRAME_MAP_VALUE_MIN, t[i].values);
		if (t[i].bars >= 0)
			assert_int_equal(m.bars, t[i].bars);
	}
	frame_map_free(&m);
}

/* A socket's chips start a row of their own when a row holds them. */
static void
test_layout_sockets(void **state)
{
	struct frame_map_spec	 s = { 4, 16, 192, 4 };
	struct frame_map	 m;
	size_t			 i;

	(void)state;
	memset(&m, 0, sizeof m);
	frame_map_layout(&s, 200, 51, &m);
	assert_int_equal(m.per_row % 4, 0);
	for (i = 0; i < m.nboxes; i++)
		assert_int_equal(m.boxes[i].socket, i / 4);
	frame_map_free(&m);
}

/* Growing the area never takes detail away. */
static void
test_layout_monotonic(void **state)
{
	struct frame_map_spec	 s = { 2, 8, 96, 4 };
	struct frame_map	 m;
	int			 w, h, values = 0, bars = 0;

	(void)state;
	memset(&m, 0, sizeof m);
	for (w = 40, h = 1; w <= 300; w += 10, h += 3) {
		frame_map_layout(&s, w, h, &m);
		map_check(&s, &m, w, h);
		if (m.missing != 0)
			continue;
		assert_true((m.cell_w >= FRAME_MAP_VALUE_MIN) >= values);
		if ((m.cell_w >= FRAME_MAP_VALUE_MIN) == values)
			assert_true(m.bars >= bars);
		values = m.cell_w >= FRAME_MAP_VALUE_MIN;
		bars = m.bars;
	}
	frame_map_free(&m);
}

/* Tiny or odd areas and topologies: no crash, nothing outside. */
static void
test_layout_tiny(void **state)
{
	static const int sizes[][2] = { { 1, 1 }, { 20, 5 }, { 2, 50 },
	    { 300, 1 }, { 0, 0 }, { -3, 7 }, { 13, 3 } };
	static const struct frame_map_spec specs[] = {
		{ 0, 0, 0, 4 }, { 1, 1, 1, 0 }, { 3, 5, 7, 4 },
		{ 4, 16, 192, 4 }, { 0, 3, 9, 2 }, { 2, 2, 1, 4 },
	};
	struct frame_map	 m;
	size_t			 i, j;

	(void)state;
	memset(&m, 0, sizeof m);
	for (i = 0; i < sizeof specs / sizeof specs[0]; i++) {
		for (j = 0; j < sizeof sizes / sizeof sizes[0]; j++) {
			frame_map_layout(&specs[i], sizes[j][0], sizes[j][1],
			    &m);
			if (sizes[j][0] > 0 && sizes[j][1] > 0) {
				if (specs[i].cores >= specs[i].chips)
					map_check(&specs[i], &m, sizes[j][0],
					    sizes[j][1]);
			} else
				assert_int_equal(m.nboxes, 0);
		}
	}
	frame_map_free(&m);
	frame_map_free(NULL);
}

static void
test_heat(void **state)
{
	(void)state;
	assert_int_equal(frame_map_level(0, 0, 100), 0);
	assert_int_equal(frame_map_level(-5, 0, 100), 0);
	assert_int_equal(frame_map_level(9.99, 0, 100), 0);
	assert_int_equal(frame_map_level(10, 0, 100), 1);
	assert_int_equal(frame_map_level(55, 0, 100), 5);
	assert_int_equal(frame_map_level(99.9, 0, 100), 9);
	assert_int_equal(frame_map_level(100, 0, 100), 9);
	assert_int_equal(frame_map_level(1e300, 0, 100), 9);
	assert_int_equal(frame_map_level(NAN, 0, 100), -1);
	assert_int_equal(frame_map_level(3, 3, 3), FRAME_MAP_LEVELS / 2);
	assert_int_equal(frame_map_shade(0), '.');
	assert_int_equal(frame_map_shade(9), '@');
	assert_int_equal(frame_map_shade(-1), ' ');
	/* Each level its own character. */
	assert_true(frame_map_shade(4) != frame_map_shade(5));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_sizes),
		cmocka_unit_test(test_layout_sockets),
		cmocka_unit_test(test_layout_monotonic),
		cmocka_unit_test(test_layout_tiny),
		cmocka_unit_test(test_heat),
	};

	return (cmocka_run_group_tests_name("frame-map", tests, NULL, NULL));
}
