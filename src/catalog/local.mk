# src/catalog: the 24x7 catalog model: parsing, indexing, writing and
# the JSON form (jansson).  Pure.
libhvpure_a_SOURCES += \
	src/catalog/catalog.h

# Parsing, names, sysfs strings and the lookup tables.
libhvpure_a_SOURCES += \
	src/catalog/catalog-parse.c \
	src/catalog/catalog-index.c src/catalog/catalog-index.h \
	src/catalog/catalog-names.c \
	src/catalog/catalog-text.c \
	src/catalog/catalog-sysfs.c

# Tests of the parser, the hvcat commands, and the parser's benchmark.
check_PROGRAMS += tests/unit/test-catalog-parse
tests_unit_test_catalog_parse_SOURCES = tests/unit/test-catalog-parse.c \
	tests/unit/catalog-gen.c tests/unit/catalog-gen.h \
	tests/unit/fixture.c tests/unit/fixture.h
tests_unit_test_catalog_parse_CPPFLAGS = $(AM_CPPFLAGS) \
	-DTOP_SRCDIR='"$(abs_top_srcdir)"'
tests_unit_test_catalog_parse_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_catalog_parse_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)
# The parser's one pass over each string, byte by byte against words.
check_PROGRAMS += tests/unit/test-catalog-text
tests_unit_test_catalog_text_SOURCES = tests/unit/test-catalog-text.c \
	tests/unit/catalog-gen.c tests/unit/catalog-gen.h
tests_unit_test_catalog_text_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_catalog_text_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)
TESTS += tests/cli/test-hvcat.sh
noinst_PROGRAMS += tests/bench/bench-catalog
tests_bench_bench_catalog_SOURCES = tests/bench/bench-catalog.c \
	tests/unit/catalog-gen.c tests/unit/catalog-gen.h
tests_bench_bench_catalog_CPPFLAGS = $(AM_CPPFLAGS) \
	-DTOP_SRCDIR='"$(abs_top_srcdir)"'
tests_bench_bench_catalog_LDADD = $(PURE_LIBS)

# Writing catalogs and their JSON form (jansson, no I/O): written in
# catalog-json.c, read in catalog-json-read.c through the checked reads
# of catalog-json-value.c.
libhvpure_a_SOURCES += \
	src/catalog/catalog-write.c \
	src/catalog/catalog-json.c src/catalog/catalog-json.h \
	src/catalog/catalog-json-int.h \
	src/catalog/catalog-json-read.c \
	src/catalog/catalog-json-value.c
