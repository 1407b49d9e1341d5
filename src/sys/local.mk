# src/sys: the system, the one folder of helpers that do I/O: whole-file
# reads, maps and writes (file.c), the one writer of every output file
# (file-out.c), the guard of mapped files against SIGBUS (mapguard.c),
# the clock (clock.c), where the settings file lives (settings-file.c),
# where catalog files are found (catalog-file.c), and waits that a
# signal ends (iowait.c).
libhvcore_a_SOURCES += \
	src/sys/catalog-file.c src/sys/catalog-file.h \
	src/sys/clock.c src/sys/clock.h \
	src/sys/file.c src/sys/file.h \
	src/sys/file-out.c src/sys/file-out.h \
	src/sys/iowait.c src/sys/iowait.h \
	src/sys/lparcfg-file.c src/sys/lparcfg-file.h \
	src/sys/procstat.c src/sys/procstat.h \
	src/sys/ring-dir.c src/sys/ring-dir.h \
	src/sys/mapguard.c src/sys/mapguard.h \
	src/sys/settings-file.c src/sys/settings-file.h

# The one writer of output files, on nodes of the test's own.
check_PROGRAMS += tests/unit/test-file-out
tests_unit_test_file_out_SOURCES = tests/unit/test-file-out.c
tests_unit_test_file_out_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_file_out_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS)
# W through that writer, on the screen.
TESTS += tests/tui/test-tui-settings-write.sh
# The one lister of a ring's segments, on a directory of the test's own.
check_PROGRAMS += tests/unit/test-ring-dir
tests_unit_test_ring_dir_SOURCES = tests/unit/test-ring-dir.c
tests_unit_test_ring_dir_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_ring_dir_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS)
