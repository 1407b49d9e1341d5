# catalogs: the 24x7 catalogs hvtop ships.  Their JSON sources are
# committed (scripts/gen-catalogs.py writes them from catalogs/upstream/);
# the build only turns each into its binary image with the hvcat it has
# just built, and installs the images where hvcat and hvtop look for them.
catalogdir = $(pkgdatadir)/catalogs
catalog_DATA = catalogs/power8.bin catalogs/power9.bin catalogs/power10.bin
CLEANFILES += $(catalog_DATA)
EXTRA_DIST += catalogs/README.md catalogs/upstream \
	catalogs/power8.json catalogs/power9.json catalogs/power10.json

HVCAT_BUILD = $(MKDIR_P) catalogs && ./hvcat$(EXEEXT) build
catalogs/power8.bin: $(srcdir)/catalogs/power8.json hvcat$(EXEEXT)
	$(AM_V_GEN)$(HVCAT_BUILD) $(srcdir)/catalogs/power8.json -o $@
catalogs/power9.bin: $(srcdir)/catalogs/power9.json hvcat$(EXEEXT)
	$(AM_V_GEN)$(HVCAT_BUILD) $(srcdir)/catalogs/power9.json -o $@
catalogs/power10.bin: $(srcdir)/catalogs/power10.json hvcat$(EXEEXT)
	$(AM_V_GEN)$(HVCAT_BUILD) $(srcdir)/catalogs/power10.json -o $@

# Tests and benchmark of catalog_write() and the JSON form, hvcat build,
# and the shipped catalogs.
check_PROGRAMS += tests/unit/test-catalog-write tests/unit/test-catalog-json
tests_unit_test_catalog_write_SOURCES = tests/unit/test-catalog-write.c \
	tests/unit/fixture.c tests/unit/fixture.h
tests_unit_test_catalog_write_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_catalog_write_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)
tests_unit_test_catalog_json_SOURCES = tests/unit/test-catalog-json.c \
	tests/unit/fixture.c tests/unit/fixture.h
tests_unit_test_catalog_json_CFLAGS = $(UNIT_CFLAGS) $(JANSSON_CFLAGS)
tests_unit_test_catalog_json_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)
noinst_PROGRAMS += tests/bench/bench-catalog-write
tests_bench_bench_catalog_write_SOURCES = tests/bench/bench-catalog-write.c
tests_bench_bench_catalog_write_CPPFLAGS = $(AM_CPPFLAGS) \
	-DTOP_SRCDIR='"$(abs_top_srcdir)"'
tests_bench_bench_catalog_write_LDADD = $(CORE_LIBS)
TESTS += scripts/check-catalogs.sh tests/cli/test-hvcat-build.sh
TESTS += tests/cli/test-catalog-plausible.sh
