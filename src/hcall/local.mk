# src/hcall: H_GET_24X7_DATA request and result buffers (interface v1 and
# v2), their layouts written once in hcall-layout.def, and the request
# planner.  Pure.
libhvpure_a_SOURCES += \
	src/hcall/hcall.h src/hcall/hcall-layout.def \
	src/hcall/hcall-decode.c \
	src/hcall/hcall-encode.c \
	src/hcall/hcall-names.c \
	src/hcall/hcall-plan.c src/hcall/hcall-plan-int.h \
	src/hcall/hcall-plan-extract.c \
	src/hcall/hcall-plan-pack.c \
	src/hcall/hcall-plan-spans.c

check_PROGRAMS += tests/unit/test-hcall tests/unit/test-hcall-plan \
	tests/unit/test-hcall-plan-lpar
tests_unit_test_hcall_SOURCES = tests/unit/test-hcall.c \
	tests/unit/test-hcall-fixture.c tests/unit/test-hcall-fixture.h \
	tests/unit/harness.h
tests_unit_test_hcall_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_hcall_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)
tests_unit_test_hcall_plan_SOURCES = tests/unit/test-hcall-plan.c \
	tests/unit/test-hcall-fixture.c tests/unit/test-hcall-fixture.h
tests_unit_test_hcall_plan_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_hcall_plan_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)
tests_unit_test_hcall_plan_lpar_SOURCES = tests/unit/test-hcall-plan-lpar.c \
	tests/unit/test-hcall-fixture.c tests/unit/test-hcall-fixture.h
tests_unit_test_hcall_plan_lpar_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_hcall_plan_lpar_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)

noinst_PROGRAMS += tests/bench/bench-hcall
tests_bench_bench_hcall_SOURCES = tests/bench/bench-hcall.c \
	tests/unit/test-hcall-fixture.c tests/unit/test-hcall-fixture.h
tests_bench_bench_hcall_LDADD = $(PURE_LIBS)

noinst_PROGRAMS += tests/bench/bench-lpar-hcall
tests_bench_bench_lpar_hcall_SOURCES = tests/bench/bench-lpar-hcall.c \
	tests/unit/test-hcall-fixture.c tests/unit/test-hcall-fixture.h
tests_bench_bench_lpar_hcall_LDADD = $(PURE_LIBS)
