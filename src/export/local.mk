# src/export: batch output of engine snapshots (text, CSV, JSON lines).
# Pure: it formats into memory; the caller writes.
libhvpure_a_SOURCES += \
	src/export/export.c src/export/export.h \
	src/export/export-int.h \
	src/export/export-csv.c \
	src/export/export-json.c \
	src/export/export-lpar.c \
	src/export/export-text.c \
	src/export/export-units.c \
	src/export/report.c src/export/report.h \
	src/export/report-int.h \
	src/export/report-html.c

# om: the OpenMetrics exposition the endpoint (src/serve) serves: frames
# of a sample (om.c), their text (om-render.c), the naming rules
# (om-name.c).
libhvpure_a_SOURCES += \
	src/export/om.c src/export/om.h \
	src/export/om-int.h \
	src/export/om-lpar.c \
	src/export/om-name.c \
	src/export/om-render.c

check_PROGRAMS += tests/unit/test-export
tests_unit_test_export_SOURCES = tests/unit/test-export.c \
	tests/unit/test-hcall-fixture.c tests/unit/test-hcall-fixture.h \
	tests/unit/fixture.c tests/unit/fixture.h
tests_unit_test_export_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_export_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_export_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)

check_PROGRAMS += tests/unit/test-report
tests_unit_test_report_SOURCES = tests/unit/test-report.c \
	tests/unit/test-hcall-fixture.c tests/unit/test-hcall-fixture.h \
	tests/unit/fixture.c tests/unit/fixture.h
tests_unit_test_report_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_report_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_report_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)
# Partitions in recordings, the metrics endpoint and the report.
TESTS += tests/cli/test-hvtop-lpar-out.sh

check_PROGRAMS += tests/unit/test-export-units
tests_unit_test_export_units_SOURCES = tests/unit/test-export-units.c
tests_unit_test_export_units_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_export_units_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)

# The partition views as CSV and JSON readers load them (written by
# tests/unit/test-engine-lpar).
TESTS += tests/cli/test-hvtop-lpar-export.sh
# A partition row of fewer than four placements says so in CSV.
TESTS += tests/cli/test-hvtop-lpar-places.sh
