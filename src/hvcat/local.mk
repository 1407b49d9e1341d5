# src/hvcat: the catalog tool, one file per command.
bin_PROGRAMS += hvcat
hvcat_SOURCES = \
	src/hvcat/hvcat.c src/hvcat/hvcat.h \
	src/hvcat/hvcat-build.c \
	src/hvcat/hvcat-check.c \
	src/hvcat/hvcat-dump.c \
	src/hvcat/hvcat-eval.c \
	src/hvcat/hvcat-info.c \
	src/hvcat/hvcat-load.c \
	src/hvcat/hvcat-opts.c \
	src/hvcat/hvcat-record.c \
	src/hvcat/hvcat-ring.c \
	src/hvcat/hvcat-sysfs.c
hvcat_LDADD = $(CORE_LIBS)
TESTS += tests/cli/test-hvcat-record.sh
# Catalog strings that hold escape sequences reach no terminal.
TESTS += tests/cli/test-hvcat-hostile.sh
# check and build agree; the loading path refuses what is no catalog.
TESTS += tests/cli/test-hvcat-check.sh
