/*
 * The TLS and HTTP settings of --web-config (exporter-toolkit's
 * tls_server_config and http_server_config), and the GnuTLS priority
 * string they make.  Pure: the parser of serve-webcfg.c hands each key
 * here, and src/serve gives the string to the TLS library.
 */
#ifndef HVTOP_SERVE_TLSCFG_H
#define HVTOP_SERVE_TLSCFG_H

#include <stddef.h>

struct serve_webcfg;

/* client_auth_type, as Go's crypto/tls names its ClientAuthType. */
enum {
	SERVE_TLS_NOCLIENTCERT,
	SERVE_TLS_REQUESTCLIENTCERT,
	SERVE_TLS_REQUIREANYCLIENTCERT,
	SERVE_TLS_VERIFYCLIENTCERTIFGIVEN,
	SERVE_TLS_REQUIREANDVERIFYCLIENTCERT
};

#define SERVE_TLS_NCIPHERS	13	/* Go's tls.CipherSuites() */
#define SERVE_TLS_MAXHEADERS	5

/* The sub-mapping or list a key opens on the lines below it. */
enum {
	SERVE_TLSCFG_NONE,
	SERVE_TLSCFG_CIPHERS,	/* cipher_suites: - NAME lines */
	SERVE_TLSCFG_HEADERS	/* headers: Name: value lines */
};

/*
 * One key of tls_server_config (http 0) or http_server_config (http 1)
 * with its value (NULL: none), into c; *sub is what it opens.  NULL, or
 * why it is refused (a static string).
 */
const char	*serve_tlscfg_key(struct serve_webcfg *c, int http,
		    const char *key, char **value, int *sub);
/* One item of cipher_suites: NULL, or why it is refused. */
const char	*serve_tlscfg_cipher(struct serve_webcfg *, const char *);
/* One header of http_server_config.headers: NULL, or why not. */
const char	*serve_tlscfg_header(struct serve_webcfg *, char **name,
		    char **value);
/* What the keys say together: NULL, or why not (caller frees). */
char		*serve_tlscfg_check(const struct serve_webcfg *);
/* The GnuTLS priority string of c's versions and suites (caller frees). */
char		*serve_tlscfg_priorities(const struct serve_webcfg *);
/* Whether a and b ask for the same TLS: TLS on or off, the versions,
 * suites and client certificates (the files are compared apart). */
int		 serve_tlscfg_same(const struct serve_webcfg *,
		    const struct serve_webcfg *);
/* "TLS12" for 0x0303. */
const char	*serve_tlscfg_version_name(unsigned);

#endif /* HVTOP_SERVE_TLSCFG_H */
