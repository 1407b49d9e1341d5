# src: the programs.  Each main() only parses options and calls into the
# libraries; the link lines show what each program may use.
bin_PROGRAMS += hvtop
hvtop_SOURCES = src/hvtop.c src/hvtop.h src/hvtop-list.c src/hvtop-opts.c \
	src/hvtop-report.c src/hvtop-command.c src/hvtop-user.c \
	src/hvtop-check.c src/hvtop-loop.c src/hvtop-loop.h
hvtop_LDADD = $(UI_LIBS)
TESTS += tests/cli/test-hvtop-batch.sh
TESTS += tests/cli/test-hvtop-check.sh
TESTS += tests/cli/test-hvtop-export.sh
TESTS += tests/cli/test-hvtop-perfjson.sh tests/cli/test-hvtop-perfjson-refs.sh
TESTS += tests/cli/test-hvtop-units.sh
TESTS += tests/cli/test-hvtop-unpicked.sh
TESTS += tests/cli/test-hvtop-perf.sh
TESTS += tests/cli/test-hvtop-options.sh
TESTS += tests/cli/test-hvtop-usage.sh
TESTS += tests/cli/test-hvtop-help.sh
TESTS += tests/cli/test-hvtop-command.sh
TESTS += tests/cli/test-hvtop-command-sum.sh
TESTS += tests/cli/test-hvtop-busy.sh
TESTS += tests/cli/test-sim-clocks.sh
TESTS += tests/cli/test-hvtop-whole.sh
TESTS += tests/cli/test-hvtop-spans.sh
TESTS += tests/cli/test-hvtop-report.sh
TESTS += tests/cli/test-hvtop-report-cut.sh
TESTS += tests/cli/test-hvtop-report-layout.sh
TESTS += tests/cli/test-hvtop-clockstep.sh
TESTS += tests/cli/test-hvtop-stall.sh
TESTS += tests/cli/test-hvtop-outerr.sh
# What each kind of name becomes when an output is written to it.
TESTS += tests/cli/test-hvtop-outfile.sh
TESTS += tests/cli/test-hvtop-lpar-pick.sh
# hvtop's own per-core metrics in every output, the partitions' IPC.
TESTS += tests/cli/test-hvtop-derived.sh
TESTS += tests/cli/test-hvtop-lpar-busy.sh
# SIGTERM, SIGINT and SIGHUP end every wait of a batch run.
TESTS += tests/cli/test-hvtop-signals.sh tests/cli/test-hvtop-signals-command.sh
TESTS += tests/cli/test-hvtop-signals-serve.sh
# Every folder's floor, read by scripts/check-floors.sh.
EXTRA_DIST += src/layers.txt
