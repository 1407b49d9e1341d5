/*
 * Unit tests for the metrics endpoint's content negotiation: which format
 * an Accept header chooses, and whether Accept-Encoding lets the answer be
 * gzip, with their q values honoured (q=0 refuses).
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "export/om.h"

#define OM	OM_FMT_OPENMETRICS
#define TEXT	OM_FMT_PROMETHEUS

static void
test_accept_default(void **state)
{
	(void)state;
	assert_int_equal(om_accept(NULL), TEXT);
	assert_int_equal(om_accept(""), TEXT);
	assert_int_equal(om_accept("*/*"), TEXT);
	assert_int_equal(om_accept("text/html, image/png"), TEXT);
	assert_int_equal(om_accept("text/plain"), TEXT);
	assert_int_equal(om_accept("application/openmetrics-text"),
	    OM);
	assert_int_equal(om_accept("Application/OpenMetrics-Text; "
	    "version=1.0.0"), OM);
}

/* What Prometheus sends: OpenMetrics first. */
static void
test_accept_prometheus(void **state)
{
	(void)state;
	assert_int_equal(om_accept("application/openmetrics-text;"
	    "version=1.0.0;q=0.5,application/openmetrics-text;"
	    "version=0.0.1;q=0.4,text/plain;version=0.0.4;q=0.3,*/*;q=0.2"),
	    OM);
	assert_int_equal(om_accept("text/plain;version=0.0.4;q=1,"
	    "application/openmetrics-text;q=0.5"), TEXT);
	assert_int_equal(om_accept("text/plain, "
	    "application/openmetrics-text"), OM);
}

/* A type with q=0 is never chosen. */
static void
test_accept_q0(void **state)
{
	(void)state;
	assert_int_equal(om_accept("application/openmetrics-text;"
	    "q=0, text/plain"), TEXT);
	assert_int_equal(om_accept("application/openmetrics-text;"
	    "q=0.000, */*"), TEXT);
	assert_int_equal(om_accept("application/openmetrics-text;"
	    "q=0"), -1);
	assert_int_equal(om_accept("text/plain;q=0"), -1);
	assert_int_equal(om_accept("*/*;q=0"), -1);
	assert_int_equal(om_accept("text/plain;q=0, */*"), OM);
	assert_int_equal(om_accept("text/plain;q=0, "
	    "application/openmetrics-text;q=0.1"), OM);
	assert_int_equal(om_accept("text/*;q=0, "
	    "application/openmetrics-text"), OM);
	assert_int_equal(om_accept("application/openmetrics-text;"
	    "q=0, text/plain;q=0"), -1);
}

/* A malformed q drops its range only. */
static void
test_accept_malformed(void **state)
{
	(void)state;
	assert_int_equal(om_accept("application/openmetrics-text;"
	    "q=2, text/plain"), TEXT);
	assert_int_equal(om_accept("application/openmetrics-text;"
	    "q=abc"), TEXT);
	assert_int_equal(om_accept("application/openmetrics-text;"
	    "q=0.5x"), TEXT);
	assert_int_equal(om_accept(",,,;;;q=,"), TEXT);
	assert_int_equal(om_accept(";q=0"), TEXT);
}

/* Accept-Encoding: gzip as Prometheus and curl --compressed ask for it. */
static void
test_accept_gzip(void **state)
{
	(void)state;
	assert_int_equal(om_accept_gzip(NULL), 0);
	assert_int_equal(om_accept_gzip(""), 0);
	assert_int_equal(om_accept_gzip("gzip"), 1);
	assert_int_equal(om_accept_gzip("GZIP"), 1);
	assert_int_equal(om_accept_gzip("identity"), 0);
	assert_int_equal(om_accept_gzip("deflate, gzip, br, zstd"), 1);
	assert_int_equal(om_accept_gzip("x-gzip"), 1);
	assert_int_equal(om_accept_gzip("gzip;q=0"), 0);
	assert_int_equal(om_accept_gzip("gzip ; q=0.001"), 1);
	assert_int_equal(om_accept_gzip("*"), 1);
	assert_int_equal(om_accept_gzip("*;q=0"), 0);
	/* Named, gzip's own quality wins over "*". */
	assert_int_equal(om_accept_gzip("gzip;q=0, *"), 0);
	assert_int_equal(om_accept_gzip("gzip, *;q=0"), 1);
	/* Malformed: that coding is dropped, not the header. */
	assert_int_equal(om_accept_gzip("gzip;q=2"), 0);
	assert_int_equal(om_accept_gzip("gzip;q=x, deflate"), 0);
	assert_int_equal(om_accept_gzip("gzipx, gzi"), 0);
	assert_int_equal(om_accept_gzip(",,;q=,gzip"), 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accept_default),
		cmocka_unit_test(test_accept_prometheus),
		cmocka_unit_test(test_accept_q0),
		cmocka_unit_test(test_accept_malformed),
		cmocka_unit_test(test_accept_gzip),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
