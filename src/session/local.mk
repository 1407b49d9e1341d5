# src/session: the controller the programs use.  It keeps source,
# catalog, selection, engine, recording and endpoint consistent, and is
# the only code that holds a source (I/O: it reads files and the clock
# through the layers below).
libhvcore_a_SOURCES += \
	src/session/session.c src/session/session.h src/session/session-int.h \
	src/session/session-metrics.c \
	src/session/session-overview.c \
	src/session/session-record.c src/session/session-record.h \
	src/session/session-ring.c src/session/session-ring.h \
	src/session/session-replay.c

# The session on the simulated frame and on a recording, through its API.
check_PROGRAMS += tests/unit/test-session
tests_unit_test_session_SOURCES = tests/unit/test-session.c
tests_unit_test_session_CPPFLAGS = $(AM_CPPFLAGS) \
	-DTOP_SRCDIR='"$(abs_top_srcdir)"'
tests_unit_test_session_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_session_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS)
