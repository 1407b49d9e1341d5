# tests: cmocka unit tests (pure ones link libhvpure.a alone), shell tests
# of the programs, and the layering check.  Every test speaks TAP.
UNIT_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)

check_PROGRAMS += tests/unit/test-util
tests_unit_test_util_SOURCES = tests/unit/test-util.c
tests_unit_test_util_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_util_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)

TESTS += $(check_PROGRAMS)
TESTS += scripts/check-pure.sh scripts/check-layers.sh scripts/check-floors.sh
# The floors check itself, on objects planted to break it.
TESTS += tests/cli/test-check-floors.sh
# No file over 1,000 lines, no function over 80; the check itself, on a
# planted tree.
TESTS += scripts/check-sizes.sh tests/cli/test-check-sizes.sh
TESTS += tests/cli/test-hvtop-cli.sh tests/cli/test-hvtop-env.sh \
	tests/cli/test-hvtop-symbols.sh tests/cli/test-hvtop-wakeups.sh
TESTS += tests/cli/test-docs-examples.sh tests/cli/test-docs-render.sh
# Every benchmark once, to see it finish (scripts/bench times them).
TESTS += tests/bench/test-bench-smoke.sh
# scripts/setup.sh's install past an index that fails to download.
TESTS += tests/cli/test-setup-apt.sh
# The virtual LPAR's apt state, kept apart from the host's.
TESTS += tests/cli/test-guest-apt.sh
# The LPAR cache forgets the source trees that are gone.
TESTS += tests/cli/test-guest-prune.sh
# The LPAR console's lines, mended where a trace line tore them.
TESTS += tests/cli/test-guest-console.sh
# The simulated frame's partitions against its cores, in pandas.
TESTS += tests/cli/test-sim-conserve.sh
# A fleet of simulated frames in one Prometheus, over TLS and Basic auth.
TESTS += tests/cli/test-fleet.sh
EXTRA_DIST += tests/cli tests/data tests/fuzz tests/bench

# The folders above are distributed whole; in a build outside the source
# tree they share names with build folders, so drop what the build made.
dist-hook:
	find $(distdir) -depth \( -name .deps -o -name .dirstamp -o \
	    -name '*.o' -o -name '*.log' -o -name '*.trs' \) -exec rm -rf {} +
	for p in $(check_PROGRAMS) $(noinst_PROGRAMS); do \
	    rm -f $(distdir)/$$p; done

# Test logs are written beside their scripts, in folders that a build
# outside the source tree would not otherwise make.
all-local:
	@$(MKDIR_P) scripts tests/cli tests/tui
