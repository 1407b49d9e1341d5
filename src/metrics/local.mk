# src/metrics: readers of user metric files.  Pure: bytes in, a model with
# expression texts out; the formula engine compiles the texts later.
libhvpure_a_SOURCES += \
	src/metrics/papi.h src/metrics/papi-int.h \
	src/metrics/papi-parse.c \
	src/metrics/papi-formula.c \
	src/metrics/papi-names.c \
	src/metrics/papi-model.c \
	src/metrics/papi-check.c

check_PROGRAMS += tests/unit/test-papi
tests_unit_test_papi_SOURCES = tests/unit/test-papi.c \
	tests/unit/fixture.c tests/unit/fixture.h
tests_unit_test_papi_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_papi_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)

# The expression texts, compiled and evaluated by src/formula.
check_PROGRAMS += tests/unit/test-papi-formula
tests_unit_test_papi_formula_SOURCES = tests/unit/test-papi-formula.c \
	tests/unit/fixture.c tests/unit/fixture.h
tests_unit_test_papi_formula_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_papi_formula_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)

noinst_PROGRAMS += tests/bench/bench-papi
tests_bench_bench_papi_SOURCES = tests/bench/bench-papi.c
tests_bench_bench_papi_LDADD = $(PURE_LIBS)
tests_bench_bench_papi_CPPFLAGS = $(AM_CPPFLAGS) \
	-DPAPI_BENCH_DATA='"$(abs_top_srcdir)/tests/data/papi/papi_events.csv"'

# perf's metric JSON (jansson parses it; no I/O).
libhvpure_a_SOURCES += \
	src/metrics/perfjson.h src/metrics/perfjson-int.h \
	src/metrics/perfjson-parse.c \
	src/metrics/perfjson-expr.c

check_PROGRAMS += tests/unit/test-perfjson
tests_unit_test_perfjson_SOURCES = tests/unit/test-perfjson.c \
	tests/unit/fixture.c tests/unit/fixture.h
tests_unit_test_perfjson_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_perfjson_CPPFLAGS = $(AM_CPPFLAGS) \
	-DTOP_SRCDIR='"$(abs_top_srcdir)"'
tests_unit_test_perfjson_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)
