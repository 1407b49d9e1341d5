# src/record: the recording format (docs/FORMAT-recording.md), pure:
# bytes in, bytes out.  The file behind hvtop -w (open, append, fsync) is
# the session's (src/session/session-record.c); the replay source is in
# src/source.
libhvpure_a_SOURCES += \
	src/record/record.h src/record/record-int.h \
	src/record/record-bits.c \
	src/record/record-buf.c \
	src/record/record-codec.c \
	src/record/record-codec-crc.c \
	src/record/record-codec-lp.c \
	src/record/record-frame.c \
	src/record/record-rc.c \
	src/record/record-read.c \
	src/record/record-read-open.c \
	src/record/record-read-select.c \
	src/record/record-ring.c src/record/record-ring.h \
	src/record/record-selection.c \
	src/record/record-write.c

check_PROGRAMS += tests/unit/test-record
tests_unit_test_record_SOURCES = tests/unit/test-record.c
tests_unit_test_record_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_record_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)
check_PROGRAMS += tests/unit/test-record-lp
tests_unit_test_record_lp_SOURCES = tests/unit/test-record-lp.c
tests_unit_test_record_lp_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_record_lp_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)
check_PROGRAMS += tests/unit/test-record-frame
tests_unit_test_record_frame_SOURCES = tests/unit/test-record-frame.c
tests_unit_test_record_frame_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_record_frame_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)
check_PROGRAMS += tests/unit/test-record-replay
tests_unit_test_record_replay_SOURCES = tests/unit/test-record-replay.c
tests_unit_test_record_replay_CPPFLAGS = $(AM_CPPFLAGS) \
	-DTOP_SRCDIR='"$(abs_top_srcdir)"'
tests_unit_test_record_replay_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_record_replay_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS)
check_PROGRAMS += tests/unit/test-record-ring
tests_unit_test_record_ring_SOURCES = tests/unit/test-record-ring.c
tests_unit_test_record_ring_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_record_ring_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)
TESTS += tests/cli/test-hvtop-replay.sh
TESTS += tests/cli/test-ring.sh tests/cli/test-ring-window.sh \
	tests/cli/test-ring-memory.sh tests/cli/test-ring-gone.sh
TESTS += tests/cli/test-hvtop-abuse.sh
TESTS += tests/cli/test-hvtop-replay-same.sh tests/cli/test-record-long.sh
TESTS += tests/cli/test-hvtop-replay-golden.sh
TESTS += tests/cli/test-hvtop-frame.sh

# Bytes per counter and CPU per sample on the default simulated workload.
noinst_PROGRAMS += tests/bench/bench-record
tests_bench_bench_record_SOURCES = tests/bench/bench-record.c
tests_bench_bench_record_CPPFLAGS = $(AM_CPPFLAGS) \
	-DBENCH_CATALOG_DIR='"$(abs_top_builddir)/catalogs"'
tests_bench_bench_record_LDADD = $(CORE_LIBS)
