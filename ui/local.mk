# ui: the terminal interface, the only code that includes curses or
# readline (libhvui.a).  The renderers (view*.c), the live table model and
# the catalog lists make no curses call, so their unit tests and the
# benchmark dump frames as text.
libhvui_a_SOURCES += \
	ui/chart.c ui/chart.h \
	ui/crt.c ui/crt.h \
	ui/frame.c \
	ui/keys.c ui/keys.h \
	ui/live.c \
	ui/lpar.c \
	ui/prompt.c ui/prompt.h \
	ui/ui.c ui/ui.h ui/ui-model.h ui/ui-run.h \
	ui/ui-note.c \
	ui/ui-pick.c \
	ui/ui-replay.c \
	ui/ui-settings.c \
	ui/view.c ui/view.h \
	ui/view-catalog-items.c \
	ui/view-catalog.c \
	ui/view-frame.c \
	ui/view-help.c \
	ui/view-live.c \
	ui/view-lpar.c

# The filter language and the settings text are pure (src/filter,
# src/config).
check_PROGRAMS += tests/unit/test-filter tests/unit/test-settings
tests_unit_test_filter_SOURCES = tests/unit/test-filter.c
tests_unit_test_filter_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_filter_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)
tests_unit_test_settings_SOURCES = tests/unit/test-settings.c
tests_unit_test_settings_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_settings_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS)

# Frames rendered from a hand-made engine and from the simulated frame.
check_PROGRAMS += tests/unit/test-ui
tests_unit_test_ui_SOURCES = tests/unit/test-ui.c \
	tests/unit/test-fake-source.c tests/unit/test-fake-source.h \
	tests/unit/fixture.c tests/unit/fixture.h \
	tests/unit/fixture-ui.c tests/unit/fixture-ui.h
tests_unit_test_ui_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_ui_LDADD = $(UI_LIBS) $(CMOCKA_LIBS)

# Estimates (multiplexed counts) marked on the Live screen.
check_PROGRAMS += tests/unit/test-ui-estimate
tests_unit_test_ui_estimate_SOURCES = tests/unit/test-ui-estimate.c \
	tests/unit/test-fake-source.c tests/unit/test-fake-source.h \
	tests/unit/fixture.c tests/unit/fixture.h \
	tests/unit/fixture-ui.c tests/unit/fixture-ui.h
tests_unit_test_ui_estimate_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_ui_estimate_LDADD = $(UI_LIBS) $(CMOCKA_LIBS)

# Prefixes that hold from one interval to the next on the Live screen.
check_PROGRAMS += tests/unit/test-ui-prefix
tests_unit_test_ui_prefix_SOURCES = tests/unit/test-ui-prefix.c \
	tests/unit/test-fake-source.c tests/unit/test-fake-source.h \
	tests/unit/fixture.c tests/unit/fixture.h \
	tests/unit/fixture-ui.c tests/unit/fixture-ui.h
tests_unit_test_ui_prefix_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_ui_prefix_LDADD = $(UI_LIBS) $(CMOCKA_LIBS)

# The Partitions screen from a hand-made frame of three partitions.
check_PROGRAMS += tests/unit/test-ui-lpar
tests_unit_test_ui_lpar_SOURCES = tests/unit/test-ui-lpar.c \
	tests/unit/test-fake-source.c tests/unit/test-fake-source.h \
	tests/unit/fixture.c tests/unit/fixture.h \
	tests/unit/fixture-ui.c tests/unit/fixture-ui.h
tests_unit_test_ui_lpar_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_ui_lpar_LDADD = $(UI_LIBS) $(CMOCKA_LIBS)

# The frame and the small renderers, without an engine.
check_PROGRAMS += tests/unit/test-ui-view
tests_unit_test_ui_view_SOURCES = tests/unit/test-ui-view.c
tests_unit_test_ui_view_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_ui_view_LDADD = $(UI_LIBS) $(CMOCKA_LIBS)

# The pick controller says what it refused in a note for the loop.
check_PROGRAMS += tests/unit/test-ui-pick
tests_unit_test_ui_pick_SOURCES = tests/unit/test-ui-pick.c \
	tests/unit/test-fake-source.c tests/unit/test-fake-source.h \
	tests/unit/fixture.c tests/unit/fixture.h \
	tests/unit/fixture-ui.c tests/unit/fixture-ui.h
tests_unit_test_ui_pick_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_ui_pick_LDADD = $(UI_LIBS) $(CMOCKA_LIBS)

# The settings controller says what came of loading and writing the
# file in a note for the loop.
check_PROGRAMS += tests/unit/test-ui-settings
tests_unit_test_ui_settings_SOURCES = tests/unit/test-ui-settings.c
tests_unit_test_ui_settings_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_ui_settings_LDADD = $(UI_LIBS) $(CMOCKA_LIBS)

# The replay controller: where the jump keys go and what the jump's
# steps show and say, fed by hand, without a loop.
check_PROGRAMS += tests/unit/test-ui-replay
tests_unit_test_ui_replay_SOURCES = tests/unit/test-ui-replay.c \
	tests/unit/test-fake-source.c tests/unit/test-fake-source.h \
	tests/unit/fixture.c tests/unit/fixture.h \
	tests/unit/fixture-ui.c tests/unit/fixture-ui.h
tests_unit_test_ui_replay_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_ui_replay_LDADD = $(UI_LIBS) $(CMOCKA_LIBS)

# The history chart's cells, without curses.
check_PROGRAMS += tests/unit/test-ui-chart
tests_unit_test_ui_chart_SOURCES = tests/unit/test-ui-chart.c
tests_unit_test_ui_chart_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_ui_chart_LDADD = $(UI_LIBS) $(CMOCKA_LIBS)

# The key table: no key claimed twice, and the manual page's KEYS and
# REPLAY KEYS sections list exactly its keys.
check_PROGRAMS += tests/unit/test-ui-keys
tests_unit_test_ui_keys_SOURCES = tests/unit/test-ui-keys.c
tests_unit_test_ui_keys_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_ui_keys_CPPFLAGS = $(AM_CPPFLAGS) \
	-DHVTOP_MAN_PAGE='"$(abs_top_srcdir)/hvtop.1.in"'
tests_unit_test_ui_keys_LDADD = $(UI_LIBS) $(CMOCKA_LIBS)

# The interactive screens driven through tmux.
TESTS += tests/tui/test-tui.sh
TESTS += tests/tui/test-tui-resize.sh
TESTS += tests/tui/test-tui-header.sh
TESTS += tests/tui/test-tui-scroll.sh
TESTS += tests/tui/test-tui-filter-view.sh tests/tui/test-tui-filter-regex.sh
TESTS += tests/tui/test-tui-detail.sh
TESTS += tests/tui/test-tui-prompt.sh
TESTS += tests/tui/test-tui-signals.sh
TESTS += tests/tui/test-tui-frame.sh
TESTS += tests/tui/test-tui-chart.sh
TESTS += tests/tui/test-tui-recfail.sh
TESTS += tests/tui/test-tui-settings-keep.sh
TESTS += tests/tui/test-tui-replay-cut.sh tests/tui/test-tui-ring.sh
TESTS += tests/tui/test-tui-units.sh
TESTS += tests/tui/test-tui-unpicked.sh
TESTS += tests/tui/test-tui-sticky.sh
TESTS += tests/tui/test-tui-hscroll-resize.sh
TESTS += tests/tui/test-tui-names.sh
TESTS += tests/tui/test-tui-small.sh
TESTS += tests/tui/test-tui-tabs-prompts.sh
TESTS += tests/tui/test-tui-lpar.sh
TESTS += tests/tui/test-tui-live-lpar.sh
TESTS += tests/tui/test-tui-home.sh
TESTS += tests/tui/test-tui-glance.sh
TESTS += tests/tui/test-tui-save-sort.sh
TESTS += tests/tui/test-tui-pick-name.sh
TESTS += tests/tui/test-tui-lpar-prefix.sh
EXTRA_DIST += tests/tui

noinst_PROGRAMS += tests/bench/bench-ui
tests_bench_bench_ui_SOURCES = tests/bench/bench-ui.c
tests_bench_bench_ui_CPPFLAGS = $(AM_CPPFLAGS) \
	-DUI_BENCH_CATALOG='"$(abs_top_builddir)/catalogs/power9.bin"'
tests_bench_bench_ui_LDADD = $(UI_LIBS)
