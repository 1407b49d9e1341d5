# src: the programs.  Each main() only parses options and calls into the
# libraries; the link lines show what each program may use.
bin_PROGRAMS += hvtop
hvtop_SOURCES = src/hvtop.c src/hvtop.h src/hvtop-list.c src/hvtop-opts.c \
	src/hvtop-report.c
hvtop_LDADD = $(UI_LIBS)
TESTS += tests/cli/test-hvtop-batch.sh
TESTS += tests/cli/test-hvtop-export.sh
TESTS += tests/cli/test-hvtop-units.sh
TESTS += tests/cli/test-hvtop-unpicked.sh
TESTS += tests/cli/test-hvtop-perfjson.sh
TESTS += tests/cli/test-hvtop-perf.sh
TESTS += tests/cli/test-hvtop-options.sh
TESTS += tests/cli/test-hvtop-report.sh
