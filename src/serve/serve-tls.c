/*
 * Client certificates on the endpoint's TLS (mutual TLS), as
 * exporter-toolkit's client_auth_type asks: none, requested, required,
 * verified if given, or required and verified against client_ca_file.
 * libmicrohttpd runs GnuTLS and only requests a certificate when it has
 * authorities to trust, never requires one nor verifies it: so each
 * session is told here what to ask for before its handshake, verifies
 * the certificate in the handshake where it must, and every request is
 * checked again on its session before it is answered.
 */
#include "config.h"

#include "serve/serve-int.h"

#include <gnutls/gnutls.h>

#include "config/serve-tlscfg.h"

/*
 * What a server of web (s->web, set) does on TLS when tls is set: its
 * client_auth_type, and the priority string of its versions and suites
 * (NULL without TLS; caller frees).
 */
char *
serve_tls_init(struct serve *s, int tls)
{
	s->tls = tls;
	s->client_auth = SERVE_TLS_NOCLIENTCERT;
	if (!tls)
		return (NULL);
	s->client_auth = s->web->cfg->client_auth;
	return (serve_tlscfg_priorities(s->web->cfg));
}

static gnutls_session_t
serve_tls_session(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo	*ci;

	ci = MHD_get_connection_info(conn,
	    MHD_CONNECTION_INFO_GNUTLS_SESSION);
	return (ci != NULL ? (gnutls_session_t)ci->tls_session : NULL);
}

/* A connection starts, its handshake still to come. */
void
serve_tls_start(struct serve *s, struct MHD_Connection *conn)
{
	gnutls_session_t	 ss;
	int			 a = s->client_auth;

	if (!s->tls || (ss = serve_tls_session(conn)) == NULL)
		return;
	if (a == SERVE_TLS_NOCLIENTCERT) {
		gnutls_certificate_server_set_request(ss, GNUTLS_CERT_IGNORE);
		return;
	}
	gnutls_certificate_server_set_request(ss,
	    a == SERVE_TLS_REQUIREANYCLIENTCERT ||
	    a == SERVE_TLS_REQUIREANDVERIFYCLIENTCERT ? GNUTLS_CERT_REQUIRE :
	    GNUTLS_CERT_REQUEST);
	/*
	 * A bad certificate ends the handshake, as Go's servers end it.
	 * GnuTLS's check in the handshake fails a session without one too,
	 * so one that is only verified if given is checked per request.
	 */
	if (a == SERVE_TLS_REQUIREANDVERIFYCLIENTCERT)
		gnutls_session_set_verify_cert(ss, NULL, 0);
}

int
serve_tls_client_ok(struct serve *s, struct MHD_Connection *conn)
{
	gnutls_session_t	 ss;
	const gnutls_datum_t	*peer;
	unsigned		 n = 0, status = 0;
	int			 a = s->client_auth;

	if (!s->tls || a == SERVE_TLS_NOCLIENTCERT ||
	    a == SERVE_TLS_REQUESTCLIENTCERT)
		return (1);
	if ((ss = serve_tls_session(conn)) == NULL)
		return (0);
	peer = gnutls_certificate_get_peers(ss, &n);
	if (peer == NULL || n == 0)
		return (a == SERVE_TLS_VERIFYCLIENTCERTIFGIVEN);
	if (a == SERVE_TLS_REQUIREANYCLIENTCERT)
		return (1);
	return (gnutls_certificate_verify_peers2(ss, &status) == 0 &&
	    status == 0);
}
