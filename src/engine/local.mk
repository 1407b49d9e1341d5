# src/engine: deltas, rates and metric values per interval (pure: the
# engine is handed raw samples and the time, and publishes snapshots that
# the interface and the batch writers render).
libhvpure_a_SOURCES += \
	src/engine/engine.c src/engine/engine.h \
	src/engine/engine-int.h \
	src/engine/engine-derive.c \
	src/engine/engine-lpar.c src/engine/engine-lpar.h \
	src/engine/engine-metric.c \
	src/engine/engine-moved.c \
	src/engine/engine-update.c
check_PROGRAMS += tests/unit/test-engine
tests_unit_test_engine_SOURCES = tests/unit/test-engine.c \
	tests/unit/fixture.c tests/unit/fixture.h
tests_unit_test_engine_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_engine_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)
check_PROGRAMS += tests/unit/test-engine-lpar
tests_unit_test_engine_lpar_SOURCES = tests/unit/test-engine-lpar.c \
	tests/unit/fixture.c tests/unit/fixture.h
tests_unit_test_engine_lpar_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_engine_lpar_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)
check_PROGRAMS += tests/unit/test-engine-span
tests_unit_test_engine_span_SOURCES = tests/unit/test-engine-span.c \
	tests/unit/fixture.c tests/unit/fixture.h
tests_unit_test_engine_span_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_engine_span_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)

noinst_PROGRAMS += tests/bench/bench-refresh
tests_bench_bench_refresh_SOURCES = tests/bench/bench-refresh.c \
	tests/unit/test-hcall-fixture.c tests/unit/test-hcall-fixture.h
tests_bench_bench_refresh_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit
tests_bench_bench_refresh_LDADD = $(CORE_LIBS)
noinst_PROGRAMS += tests/bench/bench-lpar-hcall-refresh
tests_bench_bench_lpar_hcall_refresh_SOURCES = \
	tests/bench/bench-lpar-hcall-refresh.c
tests_bench_bench_lpar_hcall_refresh_LDADD = $(CORE_LIBS)
TESTS += tests/cli/test-hvtop-numbers.sh
TESTS += tests/tui/test-tui-numbers.sh
