# src/pmu: sysfs PMU descriptions (format/* and events/* strings), the
# catalog model built from them, and the hv_24x7 kernel rules.  Pure: the
# perf source reads the files.
libhvpure_a_SOURCES += \
	src/pmu/pmu.h \
	src/pmu/pmu-catalog.c \
	src/pmu/pmu-cpulist.c \
	src/pmu/pmu-event.c \
	src/pmu/pmu-format.c \
	src/pmu/pmu-hv24x7.c

check_PROGRAMS += tests/unit/test-pmu
tests_unit_test_pmu_SOURCES = tests/unit/test-pmu.c \
	tests/unit/fixture.c tests/unit/fixture.h
tests_unit_test_pmu_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_pmu_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)

check_PROGRAMS += tests/unit/test-pmu-catalog
tests_unit_test_pmu_catalog_SOURCES = tests/unit/test-pmu-catalog.c \
	tests/unit/fixture.c tests/unit/fixture.h
tests_unit_test_pmu_catalog_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_pmu_catalog_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)
