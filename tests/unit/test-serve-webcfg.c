/*
 * Unit tests for --web-config's parser: exporter-toolkit's files as
 * people write them are read; what hvtop would not honour, and what is
 * not YAML, is refused with its line and column.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "config/serve-tlscfg.h"
#include "config/serve-webcfg.h"
#include "util/hverr.h"

#define HASH	"$2y$10$abcdefghijklmnopqrstuuqflPDzB6gcMhKa1rZqKiun2YGL5sa2u"

static struct serve_webcfg *
parse_ok(const char *text)
{
	struct serve_webcfg	*c = NULL;
	char			*cause = NULL;

	if (serve_webcfg_parse(text, strlen(text), &c, &cause) != 0)
		fail_msg("refused: %s", cause);
	assert_non_null(c);
	return (c);
}

/* The cause of a refusal, which must name where. */
static void
parse_bad(const char *text, const char *where)
{
	struct serve_webcfg	*c = NULL;
	char			*cause = NULL;

	assert_true(serve_webcfg_parse(text, strlen(text), &c, &cause) < 0);
	assert_null(c);
	assert_non_null(cause);
	if (strstr(cause, where) == NULL)
		fail_msg("'%s' does not say '%s'", cause, where);
	free(cause);
}

static void
test_full(void **state)
{
	struct serve_webcfg	*c;

	(void)state;
	c = parse_ok("---\n# who may scrape\ntls_server_config:\n"
	    "  cert_file: server.crt   # next to this file\n"
	    "  key_file: \"/etc/hvtop/server key.pem\"\n\n"
	    "basic_auth_users:\r\n"
	    "    prometheus: " HASH "\r\n"
	    "    'o''brien': '" HASH "'\n");
	assert_string_equal(c->cert_file, "server.crt");
	assert_string_equal(c->key_file, "/etc/hvtop/server key.pem");
	assert_int_equal(c->nusers, 2);
	assert_string_equal(c->users[0].name, "prometheus");
	assert_string_equal(c->users[0].hash, HASH);
	assert_string_equal(c->users[1].name, "o'brien");
	assert_string_equal(c->users[1].hash, HASH);
	serve_webcfg_free(c);
}

static void
test_parts(void **state)
{
	struct serve_webcfg	*c;

	(void)state;
	c = parse_ok("basic_auth_users:\n  a: " HASH "\n");
	assert_null(c->cert_file);
	assert_int_equal(c->nusers, 1);
	serve_webcfg_free(c);
	c = parse_ok("tls_server_config:\n  key_file: k\n  cert_file: c");
	assert_string_equal(c->cert_file, "c");
	assert_int_equal(c->nusers, 0);
	serve_webcfg_free(c);
	c = parse_ok("");
	serve_webcfg_free(c);
}

static void
test_refused(void **state)
{
	(void)state;
	parse_bad("http_server_config:\n  http2: false\n", "line 2, column 3: "
	    "hvtop reads headers");
	parse_bad("tls_server_config:\n  cert_file: c\n  key_file: k\n"
	    "  client_auth_type: RequireAndVerifyClientCert\n",
	    "RequireAndVerifyClientCert needs client_ca_file");
	parse_bad("tls_server_config:\n  cert_file: c\n", "both");
	parse_bad("tls_server_config:\n", "needs cert_file");
	parse_bad("basic_auth_users:\n  a: secret\n", "line 2, column 3: "
	    "a user's password must be a bcrypt hash");
	parse_bad("basic_auth_users:\n  a: " HASH "\n  a: " HASH "\n",
	    "line 3, column 3: this user is named twice");
	parse_bad("basic_auth_users:\n  a: " HASH "\n    b: " HASH "\n",
	    "line 3, column 5");
	parse_bad("basic_auth_users:\n\ta: " HASH "\n", "line 2, column 1: a tab");
	parse_bad("  a: b\n", "line 1, column 1: an indented line");
	parse_bad("basic_auth_users: {}\n", "line 1");
	parse_bad("basic_auth_users:\n  a:" HASH "\n", "line 2, column 5");
	parse_bad("basic_auth_users:\n  - a\n", "line 2, column 3: a list");
	parse_bad("tls_server_config:\n  cert_file: \"c\n  key_file: k\n",
	    "line 2, column 14");
	parse_bad("tls_server_config:\n  cert_file: \"c\\n\"\n", "line 2");
	parse_bad("tls_server_config:\n  cert_file: c\n  cert_file: d\n",
	    "line 3, column 3: this key is given twice");
	parse_bad("tls_server_config:\n  cert_file: *x\n", "line 2, column 14");
	parse_bad("basic_auth_users:\n  a b: " HASH "\n", "line 2, column 4");
	parse_bad("basic_auth_users:\n  a\n", "line 2");
	parse_bad("basic_auth_users:\n  'a: " HASH "\n", "line 2, column 3");
	parse_bad("basic_auth_users:\n  '': " HASH "\n",
	    "line 2, column 3: an empty key");
	parse_bad("basic_auth_users:\n  'a'b: " HASH "\n", "line 2, column 6");
}

/* Costs crypt(3) refuses are refused at load, with the line; 4 and 31,
 * the ends of its range, are read. */
static void
test_cost(void **state)
{
	static const char *const bad[] = { "00", "03", "32", "39", "99" };
	struct serve_webcfg	*c;
	char			 text[256];
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(text, sizeof text, "basic_auth_users:\n  a: $2b$%s$%s"
		    "\n", bad[i], HASH + 7);
		parse_bad(text, "line 2, column 3: the bcrypt cost");
	}
	snprintf(text, sizeof text, "basic_auth_users:\n  a: $2b$04$%s\n"
	    "  b: $2b$31$%s\n", HASH + 7, HASH + 7);
	c = parse_ok(text);
	assert_int_equal(c->nusers, 2);
	serve_webcfg_free(c);
}

#define TLS	"tls_server_config:\n  cert_file: c\n  key_file: k\n"

/* exporter-toolkit's TLS keys, and the GnuTLS priorities they make. */
static void
test_tls(void **state)
{
	struct serve_webcfg	*c;
	char			*p;

	(void)state;
	/* The defaults: TLS 1.2 and 1.3, Go's suites, the server's order. */
	c = parse_ok(TLS);
	p = serve_tlscfg_priorities(c);
	assert_non_null(strstr(p, ":-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2:"));
	assert_null(strstr(p, "TLS1.1"));
	assert_non_null(strstr(p, ":-KX-ALL:+ECDHE-ECDSA:+ECDHE-RSA:"));
	assert_null(strstr(p, "+RSA"));
	assert_non_null(strstr(p, ":%SERVER_PRECEDENCE"));
	assert_int_equal(c->client_auth, SERVE_TLS_NOCLIENTCERT);
	free(p);
	serve_webcfg_free(c);
	c = parse_ok(TLS "  min_version: TLS11\n  max_version: TLS12\n"
	    "  prefer_server_cipher_suites: false\n"
	    "  client_auth_type: RequireAndVerifyClientCert\n"
	    "  client_ca_file: ca.pem\n"
	    "  cipher_suites:\n"
	    "    - TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384\n"
	    "    - 'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256'\n"
	    "http_server_config:\n  headers:\n"
	    "    X-Frame-Options: deny\n"
	    "    Strict-Transport-Security: max-age=31536000\n");
	p = serve_tlscfg_priorities(c);
	assert_string_equal(p, "NORMAL:-VERS-ALL:+VERS-TLS1.2:+VERS-TLS1.1:"
	    "-KX-ALL:+ECDHE-RSA:-CIPHER-ALL:+AES-256-GCM:+CHACHA20-POLY1305:"
	    "-MAC-ALL:+AEAD");
	assert_int_equal(c->client_auth,
	    SERVE_TLS_REQUIREANDVERIFYCLIENTCERT);
	assert_string_equal(c->client_ca_file, "ca.pem");
	assert_int_equal(c->nheaders, 2);
	assert_string_equal(c->headers[1].name, "Strict-Transport-Security");
	assert_string_equal(c->headers[1].value, "max-age=31536000");
	free(p);
	serve_webcfg_free(c);
	parse_bad(TLS "  min_version: TLS9\n", "line 4, column 3: a TLS "
	    "version");
	parse_bad(TLS "  min_version: TLS13\n  max_version: TLS12\n",
	    "min_version TLS13 is above max_version TLS12");
	parse_bad(TLS "  max_version: TLS11\n", "min_version TLS12 (the "
	    "default) is above max_version TLS11");
	parse_bad(TLS "  client_auth_type: Verify\n", "line 4, column 3: "
	    "client_auth_type is one of");
	parse_bad(TLS "  client_ca_file: ca.pem\n", "without a "
	    "client_auth_type");
	parse_bad(TLS "  cipher_suites:\n    - TLS_RSA_WITH_AES_128_CBC_SHA\n",
	    "line 5, column 5: not one of Go's cipher suites");
	/* GnuTLS would combine these two into ECDHE_ECDSA with AES-128. */
	parse_bad(TLS "  cipher_suites:\n"
	    "    - TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256\n"
	    "    - TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384\n",
	    "would also allow TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256");
	parse_bad(TLS "  cipher_suites: TLS_AES_128_GCM_SHA256\n",
	    "line 4, column 3: expected the list");
	parse_bad(TLS "  cipher_suites:\n    x: y\n", "line 5, column 5: "
	    "expected a list item");
	parse_bad(TLS "  key: abc\n", "line 4, column 3: hvtop reads the "
	    "certificates and keys from files");
	parse_bad(TLS "  curve_preferences:\n", "line 4, column 3: hvtop "
	    "does not read this key");
	parse_bad(TLS "  min_version: TLS12\n  min_version: TLS12\n",
	    "line 5, column 3: this key is given twice");
	parse_bad("http_server_config:\n  headers:\n    Server: x\n",
	    "line 3, column 5: this header cannot be set");
	parse_bad("http_server_config:\n  headers:\n"
	    "    X-Content-Type-Options: sniff\n", "line 3, column 5: "
	    "X-Content-Type-Options is nosniff");
	parse_bad("http_server_config:\n  headers:\n    - a\n",
	    "line 3, column 5: a list");
	parse_bad("http_server_config:\n  headers:\n    X-XSS-Protection: a\n"
	    "   X-Frame-Options: deny\n", "line 4, column 4: the indentation");
	parse_bad("- a\n", "line 1, column 1: a list");
}

static void
test_bytes(void **state)
{
	static const char nul[] = "basic_auth_users:\n  a\0: x\n";
	struct serve_webcfg	*c = NULL;
	char			*cause = NULL, *big;

	(void)state;
	assert_int_equal(serve_webcfg_parse(nul, sizeof nul - 1, &c, &cause),
	    -HV_EFORMAT);
	assert_non_null(strstr(cause, "line 2, column 4: a NUL byte"));
	free(cause);
	big = calloc(1, SERVE_WEBCFG_MAXLEN + 2);
	assert_non_null(big);
	memset(big, '#', SERVE_WEBCFG_MAXLEN + 1);
	assert_int_equal(serve_webcfg_parse(big, SERVE_WEBCFG_MAXLEN + 1, &c,
	    &cause), -HV_ELIMIT);
	free(cause);
	free(big);
	/* Not NUL-terminated: nothing past len is read. */
	c = NULL;
	assert_int_equal(serve_webcfg_parse("tls_server_config:\n  cert_file: "
	    "c\n  key_file: kXXXX", 47, &c, &cause), 0);
	assert_string_equal(c->key_file, "k");
	serve_webcfg_free(c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_parts),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_cost),
		cmocka_unit_test(test_tls),
		cmocka_unit_test(test_bytes),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
