/*
 * tls_server_config and http_server_config of --web-config, as
 * exporter-toolkit reads them: TLS 1.2 to 1.3 unless min_version and
 * max_version say otherwise, the server's order of cipher suites unless
 * prefer_server_cipher_suites is false, client certificates as
 * client_auth_type asks (Go's names), and a few response headers.
 *
 * The suites are Go's (tls.CipherSuites(): forward secret, no static RSA
 * key exchange).  GnuTLS, which serves TLS here, takes key exchanges,
 * ciphers and MACs as three lists and allows every suite they combine
 * to: a cipher_suites list that would let through a suite it does not
 * name is refused with that suite, never widened in silence.  Pure.
 */
#include "config.h"

#include "config/serve-tlscfg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "config/serve-webcfg.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* One of Go's suites and what GnuTLS calls its parts. */
struct tlscfg_suite {
	const char	*name;
	const char	*kx;		/* NULL: TLS 1.3, any key exchange */
	const char	*cipher;
	const char	*mac;
};

static const struct tlscfg_suite tlscfg_suites[SERVE_TLS_NCIPHERS] = {
	{ "TLS_AES_128_GCM_SHA256", NULL, "AES-128-GCM", "AEAD" },
	{ "TLS_AES_256_GCM_SHA384", NULL, "AES-256-GCM", "AEAD" },
	{ "TLS_CHACHA20_POLY1305_SHA256", NULL, "CHACHA20-POLY1305", "AEAD" },
	{ "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA", "ECDHE-ECDSA",
	    "AES-128-CBC", "SHA1" },
	{ "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA", "ECDHE-ECDSA",
	    "AES-256-CBC", "SHA1" },
	{ "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", "ECDHE-RSA", "AES-128-CBC",
	    "SHA1" },
	{ "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA", "ECDHE-RSA", "AES-256-CBC",
	    "SHA1" },
	{ "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "ECDHE-ECDSA",
	    "AES-128-GCM", "AEAD" },
	{ "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", "ECDHE-ECDSA",
	    "AES-256-GCM", "AEAD" },
	{ "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "ECDHE-RSA", "AES-128-GCM",
	    "AEAD" },
	{ "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", "ECDHE-RSA", "AES-256-GCM",
	    "AEAD" },
	{ "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", "ECDHE-ECDSA",
	    "CHACHA20-POLY1305", "AEAD" },
	{ "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", "ECDHE-RSA",
	    "CHACHA20-POLY1305", "AEAD" },
};

/* Without cipher_suites: Go's default, the order its servers prefer. */
static const unsigned char tlscfg_default[] = {
	0, 1, 2, 7, 9, 8, 10, 11, 12, 3, 5, 4, 6
};

static const char *const tlscfg_versions[] = {
	"TLS10", "TLS11", "TLS12", "TLS13"
};

static const char *const tlscfg_auths[] = {
	"NoClientCert", "RequestClientCert", "RequireAnyClientCert",
	"VerifyClientCertIfGiven", "RequireAndVerifyClientCert"
};

/* The headers exporter-toolkit lets a file set, and their values. */
static const struct {
	const char	*name;
	const char	*values;	/* NULL: any; else |a|b| */
} tlscfg_headers[SERVE_TLS_MAXHEADERS] = {
	{ "Content-Security-Policy", NULL },
	{ "X-Frame-Options", "|deny|sameorigin|" },
	{ "X-Content-Type-Options", "|nosniff|" },
	{ "X-XSS-Protection", NULL },
	{ "Strict-Transport-Security", NULL },
};

/* The keys, in the bits of c->seen: a key given twice is refused. */
static const char *const tlscfg_keys[] = {
	"cert_file", "key_file", "client_ca_file", "client_auth_type",
	"min_version", "max_version", "cipher_suites",
	"prefer_server_cipher_suites", "headers"
};

const char *
serve_tlscfg_version_name(unsigned v)
{
	return (v >= 0x0301 && v <= 0x0304 ? tlscfg_versions[v - 0x0301] :
	    "TLS13");
}

static const char *
tlscfg_file(char **f, char **value)
{
	if (*value == NULL || (*value)[0] == '\0')
		return ("expected a file name");
	*f = *value;
	*value = NULL;
	return (NULL);
}

static const char *
tlscfg_name(const char *const *names, size_t n, const char *v, int *out,
    const char *what)
{
	size_t	 i;

	for (i = 0; v != NULL && i < n; i++) {
		if (strcmp(names[i], v) == 0) {
			*out = (int)i;
			return (NULL);
		}
	}
	return (what);
}

/* tls_server_config's keys other than the two files. */
static const char *
tlscfg_tls(struct serve_webcfg *c, const char *key, char **value, int *sub)
{
	int	 i;

	if (strcmp(key, "client_ca_file") == 0)
		return (tlscfg_file(&c->client_ca_file, value));
	if (strcmp(key, "client_auth_type") == 0)
		return (tlscfg_name(tlscfg_auths, 5, *value, &c->client_auth,
		    "client_auth_type is one of NoClientCert, "
		    "RequestClientCert, RequireAnyClientCert, "
		    "VerifyClientCertIfGiven and RequireAndVerifyClientCert"));
	if (strcmp(key, "min_version") == 0 || strcmp(key, "max_version") ==
	    0) {
		if (tlscfg_name(tlscfg_versions, 4, *value, &i, "") != NULL)
			return ("a TLS version is TLS10, TLS11, TLS12 or "
			    "TLS13");
		*(key[1] == 'i' ? &c->min_version : &c->max_version) =
		    0x0301 + (unsigned)i;
		return (NULL);
	}
	if (strcmp(key, "prefer_server_cipher_suites") == 0) {
		if (*value != NULL && strcasecmp(*value, "true") == 0)
			c->prefer_server = 1;
		else if (*value != NULL && strcasecmp(*value, "false") == 0)
			c->prefer_server = 0;
		else
			return ("expected true or false");
		return (NULL);
	}
	if (strcmp(key, "cipher_suites") == 0) {
		if (*value != NULL && (*value)[0] != '\0')
			return ("expected the list on the lines below, one "
			    "\"- NAME\" a line");
		*sub = SERVE_TLSCFG_CIPHERS;
		return (NULL);
	}
	if (strcmp(key, "cert") == 0 || strcmp(key, "key") == 0 ||
	    strcmp(key, "client_ca") == 0)
		return ("hvtop reads the certificates and keys from files: "
		    "write cert_file, key_file or client_ca_file");
	return ("hvtop does not read this key of tls_server_config (it "
	    "reads cert_file, key_file, client_ca_file, client_auth_type, "
	    "min_version, max_version, cipher_suites and "
	    "prefer_server_cipher_suites)");
}

const char *
serve_tlscfg_key(struct serve_webcfg *c, int http, const char *key,
    char **value, int *sub)
{
	size_t	 k;

	*sub = SERVE_TLSCFG_NONE;
	for (k = 0; k < sizeof tlscfg_keys / sizeof tlscfg_keys[0]; k++) {
		if (strcmp(tlscfg_keys[k], key) == 0)
			break;
	}
	if (k < sizeof tlscfg_keys / sizeof tlscfg_keys[0] &&
	    (c->seen & (1u << k)))
		return ("this key is given twice");
	if (k < sizeof tlscfg_keys / sizeof tlscfg_keys[0] &&
	    (strcmp(key, "headers") == 0) == (http != 0))
		c->seen |= 1u << k;
	if (http) {
		if (strcmp(key, "headers") != 0)
			return ("hvtop reads headers in http_server_config, "
			    "nothing else");
		if (*value != NULL && (*value)[0] != '\0')
			return ("expected the headers on the lines below");
		*sub = SERVE_TLSCFG_HEADERS;
		return (NULL);
	}
	if (strcmp(key, "cert_file") == 0)
		return (tlscfg_file(&c->cert_file, value));
	if (strcmp(key, "key_file") == 0)
		return (tlscfg_file(&c->key_file, value));
	return (tlscfg_tls(c, key, value, sub));
}

const char *
serve_tlscfg_cipher(struct serve_webcfg *c, const char *name)
{
	size_t	 i, j;

	for (i = 0; name != NULL && i < SERVE_TLS_NCIPHERS; i++) {
		if (strcmp(tlscfg_suites[i].name, name) != 0)
			continue;
		for (j = 0; j < c->nciphers; j++) {
			if (c->ciphers[j] == i)
				return ("this suite is named twice");
		}
		c->ciphers[c->nciphers++] = (unsigned char)i;
		return (NULL);
	}
	return ("not one of Go's cipher suites (tls.CipherSuites(): "
	    "ECDHE with AES-GCM, ChaCha20-Poly1305 or AES-CBC-SHA, and "
	    "TLS 1.3's three)");
}

const char *
serve_tlscfg_header(struct serve_webcfg *c, char **name, char **value)
{
	char	 want[64];
	size_t	 i;

	for (i = 0; i < SERVE_TLS_MAXHEADERS; i++) {
		if (strcmp(tlscfg_headers[i].name, *name) == 0)
			break;
	}
	if (i == SERVE_TLS_MAXHEADERS)
		return ("this header cannot be set (Content-Security-Policy, "
		    "X-Frame-Options, X-Content-Type-Options, "
		    "X-XSS-Protection and Strict-Transport-Security can)");
	if (*value == NULL || (*value)[0] == '\0')
		return (NULL);		/* unset, as exporter-toolkit's */
	if ((*value)[strcspn(*value, "\r\n")] != '\0')
		return ("a line break in a header's value");
	snprintf(want, sizeof want, "|%s|", *value);
	if (tlscfg_headers[i].values != NULL &&
	    strstr(tlscfg_headers[i].values, want) == NULL)
		return (i == 1 ? "X-Frame-Options is deny or sameorigin" :
		    "X-Content-Type-Options is nosniff");
	for (i = 0; i < c->nheaders; i++) {
		if (strcmp(c->headers[i].name, *name) == 0)
			return ("this header is given twice");
	}
	c->headers = xreallocarray(c->headers, c->nheaders + 1,
	    sizeof c->headers[0]);
	c->headers[c->nheaders].name = *name;
	c->headers[c->nheaders].value = *value;
	c->nheaders++;
	*name = *value = NULL;
	return (NULL);
}

static int
tlscfg_in(const char *const *set, size_t n, const char *v)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		if (strcmp(set[i], v) == 0)
			return (1);
	}
	return (0);
}

/*
 * The key exchanges, ciphers and MACs of the suites listed, each once in
 * the order of the list.
 */
static void
tlscfg_parts(const struct serve_webcfg *c, const char **kx, size_t *nkx,
    const char **ci, size_t *nci, const char **mac, size_t *nmac)
{
	const struct tlscfg_suite	*s;
	const unsigned char		*l = c->nciphers > 0 ? c->ciphers :
					    tlscfg_default;
	size_t				 n = c->nciphers > 0 ? c->nciphers :
					    sizeof tlscfg_default, i;

	*nkx = *nci = *nmac = 0;
	for (i = 0; i < n; i++) {
		s = &tlscfg_suites[l[i]];
		if (s->kx != NULL && !tlscfg_in(kx, *nkx, s->kx))
			kx[(*nkx)++] = s->kx;
		if (!tlscfg_in(ci, *nci, s->cipher))
			ci[(*nci)++] = s->cipher;
		if (!tlscfg_in(mac, *nmac, s->mac))
			mac[(*nmac)++] = s->mac;
	}
}

char *
serve_tlscfg_check(const struct serve_webcfg *c)
{
	const char	*kx[SERVE_TLS_NCIPHERS], *ci[SERVE_TLS_NCIPHERS];
	const char	*mac[SERVE_TLS_NCIPHERS];
	size_t		 nkx, nci, nmac, i, j;
	unsigned	 lo, hi;
	int		 listed;

	/* Unset, they are TLS12 and TLS13: max_version TLS11 alone would
	 * leave no version at all. */
	lo = c->min_version != 0 ? c->min_version : 0x0303;
	hi = c->max_version != 0 ? c->max_version : 0x0304;
	if (lo > hi)
		return (xasprintf("min_version %s%s is above max_version %s",
		    serve_tlscfg_version_name(lo), c->min_version == 0 ?
		    " (the default)" : "", serve_tlscfg_version_name(hi)));
	if (c->client_ca_file != NULL &&
	    c->client_auth == SERVE_TLS_NOCLIENTCERT)
		return (xasprintf("%s", "client_ca_file is given without a "
		    "client_auth_type that asks for a certificate"));
	if (c->client_ca_file == NULL &&
	    (c->client_auth == SERVE_TLS_VERIFYCLIENTCERTIFGIVEN ||
	    c->client_auth == SERVE_TLS_REQUIREANDVERIFYCLIENTCERT))
		return (xasprintf("client_auth_type %s needs client_ca_file, "
		    "the authorities a client's certificate is verified "
		    "against", tlscfg_auths[c->client_auth]));
	tlscfg_parts(c, kx, &nkx, ci, &nci, mac, &nmac);
	for (i = 0; i < SERVE_TLS_NCIPHERS && c->nciphers > 0; i++) {
		if (tlscfg_suites[i].kx == NULL ||
		    !tlscfg_in(kx, nkx, tlscfg_suites[i].kx) ||
		    !tlscfg_in(ci, nci, tlscfg_suites[i].cipher) ||
		    !tlscfg_in(mac, nmac, tlscfg_suites[i].mac))
			continue;
		for (j = 0, listed = 0; j < c->nciphers; j++)
			listed |= c->ciphers[j] == i;
		if (!listed)
			return (xasprintf("cipher_suites would also allow %s: "
			    "GnuTLS combines the key exchanges, ciphers and "
			    "MACs of the suites listed, so list it too or "
			    "drop a suite that brings its parts",
			    tlscfg_suites[i].name));
	}
	return (NULL);
}

char *
serve_tlscfg_priorities(const struct serve_webcfg *c)
{
	const char	*kx[SERVE_TLS_NCIPHERS], *ci[SERVE_TLS_NCIPHERS];
	const char	*mac[SERVE_TLS_NCIPHERS];
	struct strbuf	 sb = { 0 };
	unsigned	 v, lo, hi;
	size_t		 nkx, nci, nmac, i;

	lo = c->min_version != 0 ? c->min_version : 0x0303;
	hi = c->max_version != 0 ? c->max_version : 0x0304;
	strbuf_addf(&sb, "%s", "NORMAL:-VERS-ALL");
	for (v = hi; v >= lo && v >= 0x0301; v--)
		strbuf_addf(&sb, ":+VERS-TLS1.%u", v - 0x0301);
	tlscfg_parts(c, kx, &nkx, ci, &nci, mac, &nmac);
	strbuf_addf(&sb, "%s", ":-KX-ALL");
	for (i = 0; i < nkx; i++)
		strbuf_addf(&sb, ":+%s", kx[i]);
	strbuf_addf(&sb, "%s", ":-CIPHER-ALL");
	for (i = 0; i < nci; i++)
		strbuf_addf(&sb, ":+%s", ci[i]);
	strbuf_addf(&sb, "%s", ":-MAC-ALL");
	for (i = 0; i < nmac; i++)
		strbuf_addf(&sb, ":+%s", mac[i]);
	if (c->prefer_server != 0)
		strbuf_addf(&sb, "%s", ":%SERVER_PRECEDENCE");
	return (strbuf_detach(&sb));
}

int
serve_tlscfg_same(const struct serve_webcfg *a, const struct serve_webcfg *b)
{
	return ((a->cert_file == NULL) == (b->cert_file == NULL) &&
	    (a->client_ca_file == NULL) == (b->client_ca_file == NULL) &&
	    a->client_auth == b->client_auth &&
	    a->min_version == b->min_version &&
	    a->max_version == b->max_version &&
	    (a->prefer_server != 0) == (b->prefer_server != 0) &&
	    a->nciphers == b->nciphers &&
	    memcmp(a->ciphers, b->ciphers, a->nciphers) == 0);
}
