# src/serve: the OpenMetrics endpoint (hvtop --serve), the only code
# that includes libmicrohttpd: HTTP and sockets (serve-http.c), and who
# may scrape (serve-web.c; Basic auth on its own threads, serve-auth.c;
# client certificates on GnuTLS's session, serve-tls.c).  The text it serves is src/export's
# (om*.c); its address and --web-config are parsed in src/config.
libhvcore_a_SOURCES += \
	src/serve/serve.h src/serve/serve-int.h \
	src/serve/serve-auth.c src/serve/serve-http.c src/serve/serve-pub.c \
	src/serve/serve-tls.c \
	src/serve/serve-web.c

check_PROGRAMS += tests/unit/test-serve
tests_unit_test_serve_SOURCES = tests/unit/test-serve.c \
	tests/unit/test-hcall-fixture.c tests/unit/test-hcall-fixture.h \
	tests/unit/fixture.c tests/unit/fixture.h
tests_unit_test_serve_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit
tests_unit_test_serve_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_serve_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS)

check_PROGRAMS += tests/unit/test-serve-webcfg
tests_unit_test_serve_webcfg_SOURCES = tests/unit/test-serve-webcfg.c
tests_unit_test_serve_webcfg_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_serve_webcfg_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS)

TESTS += tests/cli/test-hvtop-serve.sh
TESTS += tests/cli/test-hvtop-serve-user.sh
TESTS += tests/cli/test-hvtop-serve-web.sh
TESTS += tests/cli/test-hvtop-serve-hup.sh
TESTS += tests/cli/test-hvtop-serve-sum.sh
TESTS += tests/cli/test-hvtop-serve-frame.sh
TESTS += tests/cli/test-hvtop-serve-abuse.sh
TESTS += tests/cli/test-hvtop-serve-auth.sh
TESTS += tests/cli/test-hvtop-serve-tls.sh
TESTS += tests/cli/test-hvtop-serve-conn.sh
TESTS += tests/cli/test-hvtop-pcp.sh

noinst_PROGRAMS += tests/bench/bench-serve
tests_bench_bench_serve_SOURCES = tests/bench/bench-serve.c \
	tests/unit/test-hcall-fixture.c tests/unit/test-hcall-fixture.h
tests_bench_bench_serve_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests/unit
tests_bench_bench_serve_LDADD = $(CORE_LIBS)

check_PROGRAMS += tests/unit/test-serve-http
tests_unit_test_serve_http_SOURCES = tests/unit/test-serve-http.c
tests_unit_test_serve_http_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_serve_http_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS)

check_PROGRAMS += tests/unit/test-serve-auth
tests_unit_test_serve_auth_SOURCES = tests/unit/test-serve-auth.c
tests_unit_test_serve_auth_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_serve_auth_LDADD = $(CORE_LIBS) $(CMOCKA_LIBS)

noinst_PROGRAMS += tests/bench/bench-serve-auth
tests_bench_bench_serve_auth_SOURCES = tests/bench/bench-serve-auth.c
tests_bench_bench_serve_auth_LDADD = $(CORE_LIBS)
