/*
 * Unit tests for the endpoint's Basic auth: the credentials are read
 * with the password's length (a NUL byte in it is kept, not a cut), and
 * an unknown user is hashed at the cost most users have, never at the
 * first user's whatever it is.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config/serve-webcfg.h"
#include "serve/serve-int.h"

#define SALT	"abcdefghijklmnopqrstuuqflPDzB6gcMhKa1rZqKiun2YGL5sa2u"

static void
test_basic(void **state)
{
	char	*user, *pass;
	size_t	 len;

	(void)state;
	/* "prometheus:pw\0junk" */
	assert_int_equal(serve_auth_basic("Basic cHJvbWV0aGV1czpwdwBqdW5r",
	    &user, &pass, &len), 0);
	assert_string_equal(user, "prometheus");
	assert_int_equal(len, 7);
	assert_memory_equal(pass, "pw\0junk", 7);
	assert_false(serve_web_same("pw", pass, len));
	assert_true(serve_web_same("pw", pass, 2));
	free(user);
	free(pass);
	/* "a:b:c", the password holds the second colon; "basic" any case */
	assert_int_equal(serve_auth_basic("basic  YTpiOmM=", &user, &pass,
	    &len), 0);
	assert_string_equal(user, "a");
	assert_int_equal(len, 3);
	assert_string_equal(pass, "b:c");
	assert_true(serve_web_same("b:c", pass, len));
	free(user);
	free(pass);
	/* not Basic, not base64, no colon, cut short */
	assert_int_equal(serve_auth_basic("Bearer YTpi", &user, &pass, &len),
	    -1);
	assert_int_equal(serve_auth_basic("Basic YT*i", &user, &pass, &len),
	    -1);
	assert_int_equal(serve_auth_basic("Basic YWJj", &user, &pass, &len),
	    -1);
	assert_int_equal(serve_auth_basic("Basic YTp", &user, &pass, &len),
	    -1);
	assert_int_equal(serve_auth_basic("Basic =YTp", &user, &pass, &len),
	    -1);
	assert_int_equal(serve_auth_basic(NULL, &user, &pass, &len), -1);
}

static void
dummy_of(const char *text, const char *want)
{
	struct serve_webcfg	*c;
	char			*cause = NULL, d[61];

	assert_int_equal(serve_webcfg_parse(text, strlen(text), &c, &cause),
	    0);
	serve_web_dummy(c, d);
	assert_int_equal(strlen(d), 60);
	assert_memory_equal(d, want, 7);
	serve_webcfg_free(c);
}

static void
test_dummy(void **state)
{
	(void)state;
	dummy_of("basic_auth_users:\n  a: $2b$04$" SALT "\n  b: $2y$12$" SALT
	    "\n  c: $2y$12$" SALT "\n", "$2b$12$");
	dummy_of("basic_auth_users:\n  a: $2b$14$" SALT "\n  b: $2y$11$" SALT
	    "\n", "$2b$11$");
	dummy_of("basic_auth_users:\n  a: $2a$31$" SALT "\n", "$2b$31$");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_basic),
		cmocka_unit_test(test_dummy),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
