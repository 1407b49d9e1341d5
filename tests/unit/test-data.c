/* Reading the test data files (test-data.h). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "test-data.h"
#include "util/strbuf.h"

/* Where make check does not say (a test run by hand), the build's. */
#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

char *
test_data_read(const char *dir, const char *name, size_t *lenp)
{
	struct strbuf	 path = { 0 };
	const char	*top;
	FILE		*f;
	char		*buf;
	long		 len;

	if ((top = getenv("top_srcdir")) == NULL)
		top = TOP_SRCDIR;
	strbuf_addf(&path, "%s/tests/data/%s/%s", top, dir, name);
	if ((f = fopen(path.s, "rb")) == NULL)
		fail_msg("cannot open %s", path.s);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	assert_true(len > 0);
	rewind(f);
	buf = malloc((size_t)len);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	strbuf_free(&path);
	*lenp = (size_t)len;
	return (buf);
}
