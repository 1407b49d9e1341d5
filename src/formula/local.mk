# src/formula: derived-metric formulas (RPN and infix): parse, print,
# compile, evaluate.  Pure.
libhvpure_a_SOURCES += \
	src/formula/formula.h src/formula/formula-int.h \
	src/formula/formula-lex.c \
	src/formula/formula-parse.c \
	src/formula/formula-print.c \
	src/formula/formula-compile.c \
	src/formula/formula-eval.c

check_PROGRAMS += tests/unit/test-formula
tests_unit_test_formula_SOURCES = tests/unit/test-formula.c
tests_unit_test_formula_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_formula_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)

check_PROGRAMS += tests/unit/test-formula-data
tests_unit_test_formula_data_SOURCES = tests/unit/test-formula-data.c \
	tests/unit/fixture.c tests/unit/fixture.h
tests_unit_test_formula_data_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_formula_data_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)

# hvcat eval, the command-line face of this module.
TESTS += tests/cli/test-hvcat-eval.sh tests/cli/test-hvcat-eval-limits.sh

noinst_PROGRAMS += tests/bench/bench-formula
tests_bench_bench_formula_SOURCES = tests/bench/bench-formula.c
tests_bench_bench_formula_LDADD = $(PURE_LIBS)

# The scanner the expression languages share (src/util/lex.c).
check_PROGRAMS += tests/unit/test-lex
tests_unit_test_lex_SOURCES = tests/unit/test-lex.c
tests_unit_test_lex_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_lex_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)
