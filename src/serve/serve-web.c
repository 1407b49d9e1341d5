/*
 * Who may scrape the metrics endpoint: the --web-config file and the TLS
 * files it names, read and checked against a running server, and HTTP
 * Basic auth against its users (bcrypt through crypt(3)).  A password
 * once accepted is remembered, so a scraper does not pay for bcrypt on
 * every request.
 */
#include "config.h"

#include "serve/serve-int.h"

#include <sys/stat.h>

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/serve-tlscfg.h"
#include "serve/serve.h"
#include "sys/file.h"
#include "util/hverr.h"
#include "util/xalloc.h"

/*
 * Whether the offered bytes b (blen of them, perhaps with a NUL) are the
 * secret string a, in a time that does not say where they differ, nor
 * how long a is: the loop runs over all of a whatever b is.
 */
int
serve_web_same(const char *a, const char *b, size_t blen)
{
	size_t		 la = strlen(a), i;
	unsigned char	 d = la != blen;

	for (i = 0; i < la; i++)
		d |= (unsigned char)(a[i] ^ (blen == 0 ? 0 :
		    b[i < blen ? i : blen - 1]));
	return (d == 0);
}

/* Forget the passwords last accepted (authlock held). */
void
serve_web_passed_clear(struct serve *s)
{
	size_t	 i;

	for (i = 0; i < s->npassed; i++) {
		if (s->passed[i] != NULL) {
			explicit_bzero(s->passed[i], strlen(s->passed[i]));
			free(s->passed[i]);
		}
	}
	free(s->passed);
	s->passed = NULL;
	s->npassed = 0;
}

/*
 * Whether user's password is the one last accepted for it (authlock
 * held).  Prometheus sends the same credentials every scrape, and a
 * bcrypt costs tens of milliseconds: the password that passed last is
 * kept per user (in memory only, wiped when a reload or the end forgets
 * it), and offered again it passes without a hash.
 */
int
serve_web_passed(struct serve *s, const char *user, const char *pass,
    size_t passlen)
{
	const struct serve_webcfg	*c = s->web->cfg;
	size_t				 i;

	for (i = 0; i < c->nusers && i < s->npassed; i++) {
		if (strcmp(c->users[i].name, user) == 0)
			return (s->passed[i] != NULL &&
			    serve_web_same(s->passed[i], pass, passlen));
	}
	return (0);
}

/*
 * Keep the password a hash accepted for user who, unless the users were
 * read again meanwhile (gen): it is not kept for the new ones.
 */
void
serve_web_passed_keep(struct serve *s, size_t who, uint64_t gen,
    const char *pass)
{
	pthread_mutex_lock(&s->authlock);
	if (gen == s->authgen && who < s->web->cfg->nusers) {
		if (s->passed == NULL) {
			s->npassed = s->web->cfg->nusers;
			s->passed = xcalloc(s->npassed, sizeof *s->passed);
		}
		if (s->passed[who] != NULL) {
			explicit_bzero(s->passed[who], strlen(s->passed[who]));
			free(s->passed[who]);
		}
		s->passed[who] = xstrdup(pass);
	}
	pthread_mutex_unlock(&s->authlock);
}

/*
 * The headers of http_server_config every answer carries, added to r
 * (on the server's thread: the connection's server is its socket's).
 */
void
serve_web_headers(struct MHD_Connection *conn, struct MHD_Response *r)
{
	const union MHD_ConnectionInfo	*ci;
	const struct serve_conn		*c;
	const struct serve_webcfg	*cfg;
	size_t				 i;

	ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	if (ci == NULL || (c = ci->socket_context) == NULL || c->srv == NULL)
		return;
	pthread_mutex_lock(&c->srv->authlock);
	cfg = c->srv->web != NULL ? c->srv->web->cfg : NULL;
	for (i = 0; cfg != NULL && i < cfg->nheaders; i++)
		MHD_add_response_header(r, cfg->headers[i].name,
		    cfg->headers[i].value);
	pthread_mutex_unlock(&c->srv->authlock);
}

enum MHD_Result
serve_web_unauthorized(struct MHD_Connection *conn)
{
	static const char	 body[] = "401 Unauthorized: this endpoint "
	    "needs a user and password (HTTP Basic auth)\n";
	struct MHD_Response	*r;
	enum MHD_Result		 ret;

	r = MHD_create_response_from_buffer(sizeof body - 1,
	    (void *)(uintptr_t)body, MHD_RESPMEM_PERSISTENT);
	if (r == NULL)
		return (MHD_NO);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
	    "text/plain; charset=utf-8");
	serve_web_headers(conn, r);
	ret = MHD_queue_basic_auth_fail_response(conn, SERVE_REALM, r);
	MHD_destroy_response(r);
	return (ret);
}

/*
 * The hash an unknown user's password is checked against: one that no
 * password can match (its text is not crypt(3)'s for its salt), at the
 * cost most users have (the lowest of those most have), so that an
 * unknown user costs what a known one does.
 */
void
serve_web_dummy(const struct serve_webcfg *c, char out[61])
{
	unsigned	 n[100] = { 0 }, cost, best = 10, most = 0;
	size_t		 i;

	for (i = 0; i < c->nusers; i++) {
		cost = (unsigned)(c->users[i].hash[4] - '0') * 10 +
		    (unsigned)(c->users[i].hash[5] - '0');
		n[cost]++;
	}
	for (cost = 0; cost < 100; cost++) {
		if (n[cost] > most) {
			best = cost;
			most = n[cost];
		}
	}
	snprintf(out, 61, "$2b$%02u$%s", best % 100, "hvtopunknownuser.nomatch"
	    "/////////////////////////////");
}

/* A PEM file the web configuration names, relative to its directory. */
static int
serve_web_pem(const char *cfgpath, const char *name, char **out,
    char **cause)
{
	char	*dir, *path, *c = NULL;
	void	*buf;
	size_t	 len;
	int	 error;

	dir = xstrdup(cfgpath);
	path = name[0] == '/' ? xstrdup(name) :
	    xasprintf("%s/%s", dirname(dir), name);
	free(dir);
	if ((error = file_read(path, SERVE_PEM_MAX, &buf, &len, &c)) != 0) {
		*cause = xasprintf("%s: %s", cfgpath, c);
		free(c);
		free(path);
		return (error);
	}
	if (memchr(buf, '\0', len) != NULL || len == 0) {
		*cause = xasprintf("%s: %s: %s", cfgpath, path, len == 0 ?
		    "empty" : "a NUL byte: not a PEM file");
		explicit_bzero(buf, len);
		free(buf);
		free(path);
		return (-HV_EFORMAT);
	}
	free(path);
	/* file_read() ends the text with a NUL: no copy of a key to wipe. */
	*out = buf;
	return (0);
}

int
serve_web_load(const char *path, struct serve_web **out, char **cause)
{
	struct stat		 st;
	struct serve_web	*w;
	void			*buf;
	size_t			 len;
	char			*c = NULL;
	int			 error;

	*out = NULL;
	/*
	 * A FIFO or a device reads as something else each time (a FIFO
	 * without a writer as empty), so only a regular file is read: a
	 * configuration that is not there is refused, not taken as empty.
	 */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		*cause = xasprintf("--web-config %s: not a regular file (%s)",
		    path, S_ISDIR(st.st_mode) ? "a directory" :
		    S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISSOCK(st.st_mode) ?
		    "a socket" : "a device");
		return (-EINVAL);
	}
	if ((error = file_read(path, SERVE_WEBCFG_MAXLEN, &buf, &len,
	    &c)) != 0) {
		*cause = xasprintf("--web-config %s", c);
		free(c);
		return (error);
	}
	w = xcalloc(1, sizeof *w);
	error = serve_webcfg_parse(buf, len, &w->cfg, &c);
	free(buf);
	if (error != 0) {
		*cause = xasprintf("--web-config %s: %s", path, c);
		free(c);
		free(w);
		return (error);
	}
#ifndef HAVE_CRYPT
	if (w->cfg->nusers > 0) {
		*cause = xasprintf("--web-config %s: basic_auth_users needs "
		    "crypt(3), and this hvtop was built without libxcrypt",
		    path);
		serve_web_free(w);
		return (-EINVAL);
	}
#endif
	serve_web_dummy(w->cfg, w->dummy);
	if (w->cfg->cert_file != NULL &&
	    ((error = serve_web_pem(path, w->cfg->cert_file, &w->cert,
	    cause)) != 0 || (error = serve_web_pem(path, w->cfg->key_file,
	    &w->key, cause)) != 0 || (w->cfg->client_ca_file != NULL &&
	    (error = serve_web_pem(path, w->cfg->client_ca_file, &w->ca,
	    cause)) != 0))) {
		/*
		 * After --user, a key only root may read is unreadable: a
		 * reload that keeps the TLS settings uses the key in memory
		 * (serve_web_reload), anything else is refused with this.
		 */
		if (error == -EACCES || error == -EPERM) {
			w->pem_error = *cause;
			*cause = NULL;
			*out = w;
			return (0);
		}
		serve_web_free(w);
		return (error);
	}
	*out = w;
	return (0);
}

/* Whether web (NULL: none) can start a server: at the start every TLS
 * file must have been read.  If not, web is freed. */
int
serve_web_ready(struct serve_web *w, char **cause)
{
	if (w == NULL || w->pem_error == NULL)
		return (0);
	*cause = w->pem_error;
	w->pem_error = NULL;
	serve_web_free(w);
	return (-EACCES);
}

void
serve_web_free(struct serve_web *w)
{
	if (w == NULL)
		return;
	serve_webcfg_free(w->cfg);
	free(w->cert);
	free(w->ca);
	free(w->pem_error);
	/* explicit_bzero: a memset() before free() may be optimised away. */
	if (w->key != NULL) {
		explicit_bzero(w->key, strlen(w->key));
		free(w->key);
	}
	free(w);
}

static int
serve_web_pem_same(const char *a, const char *b)
{
	return ((a == NULL && b == NULL) ||
	    (a != NULL && b != NULL && strcmp(a, b) == 0));
}

/*
 * Why the TLS of w cannot replace old's on a listening server, or NULL.
 * A file that cannot be read (a key only root may read, after --user)
 * is the one in use when its name and every TLS setting are the same.
 */
static char *
serve_web_tls_change(const struct serve_web *old, struct serve_web *w)
{
	static const char	 keep[] = " (the old web configuration stays)";

	if (!serve_tlscfg_same(old->cfg, w->cfg))
		return (xasprintf("the TLS settings differ from those hvtop "
		    "listens with (TLS on or off, versions, suites, client "
		    "certificates), and a listening hvtop cannot change "
		    "them: restart hvtop to use them%s", keep));
	if (w->pem_error != NULL && (old->cert == NULL ||
	    strcmp(old->cfg->cert_file, w->cfg->cert_file) != 0 ||
	    strcmp(old->cfg->key_file, w->cfg->key_file) != 0 ||
	    (w->cfg->client_ca_file != NULL &&
	    strcmp(old->cfg->client_ca_file, w->cfg->client_ca_file) != 0)))
		return (xasprintf("%s%s", w->pem_error, keep));
	if (w->pem_error != NULL) {
		/* What could be read is compared below, as always. */
		if (w->cert == NULL)
			w->cert = xstrdup(old->cert);
		if (w->key == NULL)
			w->key = xstrdup(old->key);
		if (w->ca == NULL && old->ca != NULL)
			w->ca = xstrdup(old->ca);
	}
	if (!serve_web_pem_same(old->cert, w->cert) ||
	    !serve_web_pem_same(old->key, w->key))
		return (xasprintf("the TLS certificate or key differs from "
		    "the one hvtop listens with, and a listening hvtop cannot "
		    "change it: restart hvtop to use it%s", keep));
	if (!serve_web_pem_same(old->ca, w->ca))
		return (xasprintf("the client CA differs from the one hvtop "
		    "listens with, and a listening hvtop cannot change it: "
		    "restart hvtop to use it%s", keep));
	return (NULL);
}

int
serve_web_reload(struct serve *s, struct serve_web *w, char **cause)
{
	struct serve_web	*old;
	char			*why;

	pthread_mutex_lock(&s->authlock);
	old = s->web;
	if ((why = serve_web_tls_change(old, w)) != NULL) {
		pthread_mutex_unlock(&s->authlock);
		*cause = why;
		serve_web_free(w);
		return (-HV_EFORMAT);
	}
	/* An endpoint that asked for a password never stops asking because
	 * its file was emptied or cut short. */
	if (old->cfg->nusers > 0 && w->cfg->nusers == 0) {
		pthread_mutex_unlock(&s->authlock);
		*cause = xasprintf("%s", "the web configuration has no "
		    "basic_auth_users, and a reload cannot turn Basic auth "
		    "off: restart hvtop to serve without it (the old web "
		    "configuration stays)");
		serve_web_free(w);
		return (-HV_EFORMAT);
	}
	s->web = w;
	serve_web_passed_clear(s);
	s->authgen++;
	pthread_mutex_unlock(&s->authlock);
	serve_web_free(old);
	return (0);
}
