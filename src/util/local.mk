# src/util: small pure helpers (allocation, big-endian access, strings,
# error names, numbers as text).
libhvpure_a_SOURCES += \
	src/util/arena.c src/util/arena.h \
	src/util/be.h \
	src/util/htab.c src/util/htab.h \
	src/util/hverr.c src/util/hverr.h \
	src/util/lex.c src/util/lex.h \
	src/util/numfmt.c src/util/numfmt.h \
	src/util/numfmt-si.c src/util/numfmt-si.h \
	src/util/seekspec.c src/util/seekspec.h \
	src/util/strbuf.c src/util/strbuf.h \
	src/util/xalloc.c src/util/xalloc.h

# Arenas, which hold the strings of large metric files.
check_PROGRAMS += tests/unit/test-arena
tests_unit_test_arena_SOURCES = tests/unit/test-arena.c
tests_unit_test_arena_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_arena_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)

# The hash index behind every lookup by name.
check_PROGRAMS += tests/unit/test-htab
tests_unit_test_htab_SOURCES = tests/unit/test-htab.c
tests_unit_test_htab_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_htab_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)

# Numbers as printf's %g prints them.
check_PROGRAMS += tests/unit/test-numfmt
tests_unit_test_numfmt_SOURCES = tests/unit/test-numfmt.c
tests_unit_test_numfmt_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_numfmt_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS) -lm

# The one spelling of a number on the screens and in text output.
check_PROGRAMS += tests/unit/test-numfmt-si
tests_unit_test_numfmt_si_SOURCES = tests/unit/test-numfmt-si.c
tests_unit_test_numfmt_si_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_numfmt_si_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS) -lm

# A CSV row's start, laid out without printf.
check_PROGRAMS += tests/unit/test-rowfmt
tests_unit_test_rowfmt_SOURCES = tests/unit/test-rowfmt.c
tests_unit_test_rowfmt_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_rowfmt_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)

# The replay's "go to" text.
check_PROGRAMS += tests/unit/test-seekspec
tests_unit_test_seekspec_SOURCES = tests/unit/test-seekspec.c
tests_unit_test_seekspec_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_seekspec_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)

# The numbers of the kernel's process files (process_*), taken within
# their length.
libhvpure_a_SOURCES += src/util/procfs.c src/util/procfs.h
check_PROGRAMS += tests/unit/test-procfs
tests_unit_test_procfs_SOURCES = tests/unit/test-procfs.c
tests_unit_test_procfs_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_procfs_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)
