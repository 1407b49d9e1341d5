# src/source: where counters come from, behind one ops table (source.h).
# Core layer: these files make syscalls and read files.
libhvcore_a_SOURCES += \
	src/source/source.c src/source/source.h

# The hcall client: the 24x7 hcall buffers over a transport that only
# moves them; the simulated PowerVM is one transport ("--source sim").
libhvcore_a_SOURCES += \
	src/source/source-hcall.c \
	src/source/source-hcall-lpar.c \
	src/source/source-hcall-int.h \
	src/source/source-hcall.h \
	src/source/transport.h src/source/transport-sim.c

# The client over a transport of the test's own.
check_PROGRAMS += tests/unit/test-source-hcall
tests_unit_test_source_hcall_SOURCES = tests/unit/test-source-hcall.c \
	tests/unit/fixture.c tests/unit/fixture.h
tests_unit_test_source_hcall_CPPFLAGS = $(AM_CPPFLAGS) \
	-DTOP_SRCDIR='"$(abs_top_srcdir)"'
tests_unit_test_source_hcall_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_source_hcall_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS)

# The hcall source finding the frame's partitions on the simulator.
check_PROGRAMS += tests/unit/test-source-lpar
tests_unit_test_source_lpar_SOURCES = tests/unit/test-source-lpar.c
tests_unit_test_source_lpar_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_source_lpar_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS)

# The perf source: a generic fd-group reader (perf_event_open(), groups,
# reads, scaling of multiplexed counts) and one variant table per kind of
# PMU (hv_24x7; every other PMU, counted per CPU).  source-perf-int.h says
# which file holds what.
libhvcore_a_SOURCES += \
	src/source/source-perf.c src/source/source-perf.h \
	src/source/source-perf-int.h \
	src/source/source-perf-error.c \
	src/source/source-perf-opt.c \
	src/source/source-perf-scale.c \
	src/source/source-perf-sysfs.c src/source/source-perf-const.c \
	src/source/source-perf-hv24x7.c src/source/source-perf-lpar.c \
	src/source/source-perf-cpu.c

check_PROGRAMS += tests/unit/test-source-perf
tests_unit_test_source_perf_SOURCES = tests/unit/test-source-perf.c \
	tests/unit/fixture.c tests/unit/fixture.h \
	tests/unit/harness.h
tests_unit_test_source_perf_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_source_perf_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS)
check_PROGRAMS += tests/unit/test-source-perf-real
tests_unit_test_source_perf_real_SOURCES = tests/unit/test-source-perf-real.c \
	tests/unit/harness.h
tests_unit_test_source_perf_real_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_source_perf_real_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS)
check_PROGRAMS += tests/unit/test-source-perf-scale
tests_unit_test_source_perf_scale_SOURCES = \
	tests/unit/test-source-perf-scale.c \
	tests/unit/harness.h
tests_unit_test_source_perf_scale_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_source_perf_scale_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS)

noinst_PROGRAMS += tests/bench/bench-perf
tests_bench_bench_perf_SOURCES = tests/bench/bench-perf.c
tests_bench_bench_perf_LDADD = $(CORE_LIBS)

# The replay source: a recording played back (src/record).
libhvcore_a_SOURCES += \
	src/source/source-replay-ring.c src/source/source-replay-ring.h \
	src/source/source-replay.c src/source/source-replay.h
