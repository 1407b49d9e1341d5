# tests: cmocka unit tests (pure ones link libhvpure.a alone), shell tests
# of the programs, and the layering check.  Every test speaks TAP.
UNIT_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)

check_PROGRAMS += tests/unit/test-util
tests_unit_test_util_SOURCES = tests/unit/test-util.c
tests_unit_test_util_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_util_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)

TESTS += $(check_PROGRAMS)
TESTS += scripts/check-pure.sh
TESTS += tests/cli/test-hvtop-cli.sh
EXTRA_DIST += tests/cli tests/data tests/fuzz tests/bench
