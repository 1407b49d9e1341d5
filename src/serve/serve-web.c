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
#include <stdlib.h>
#include <string.h>

#include "serve/serve.h"
#include "sys/file.h"
#include "util/hverr.h"
#include "util/xalloc.h"

/*
 * Whether the offered string b is the secret a, in a time that does not
 * say where they differ, nor how long a is: the loop runs over all of a
 * whatever b is.
 */
static int
serve_web_same(const char *a, const char *b)
{
	size_t		 la = strlen(a), lb = strlen(b), i;
	unsigned char	 d = la != lb;

	for (i = 0; i < la; i++)
		d |= (unsigned char)(a[i] ^ b[i < lb ? i : lb]);
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
 * Basic auth against the users' bcrypt hashes, with crypt(3).  Prometheus
 * sends the same credentials every scrape, and a bcrypt costs tens of
 * milliseconds on this, the server's only thread: so the password that
 * passed last is kept per user (in memory only, wiped when a reload or
 * the end forgets it), and offered again it passes without a hash.  Any
 * other password costs a hash, as does an unknown user, so that the time
 * of the answer does not tell which part was wrong, and the answer is
 * the same 401.  The hash runs without authlock: a reload meanwhile is
 * not held up by it, and what it accepts is not kept for the new users.
 */
int
serve_web_authorized(struct serve *s, struct MHD_Connection *conn)
{
	const struct serve_webcfg	*c;
	char				*user, *pass = NULL, *hash = NULL;
	const char			*h;
	size_t				 i, who = 0;
	uint64_t			 gen;
	int				 ok = 0, known = 0, hashed = 0;

	user = MHD_basic_auth_get_username_password(conn, &pass);
	pthread_mutex_lock(&s->authlock);
	c = s->web != NULL ? s->web->cfg : NULL;
	if (c == NULL || c->nusers == 0)
		ok = 1;
	else if (user != NULL && pass != NULL) {
		for (i = 0; i < c->nusers; i++) {
			if (strcmp(c->users[i].name, user) == 0) {
				who = i;
				known = 1;
			}
		}
		if (known && who < s->npassed && s->passed[who] != NULL &&
		    serve_web_same(s->passed[who], pass))
			ok = 1;
		else
			hash = xstrdup(c->users[known ? who : 0].hash);
	}
	gen = s->authgen;
	pthread_mutex_unlock(&s->authlock);
	if (hash != NULL) {
#ifdef HAVE_CRYPT
		memset(s->cd, 0, sizeof *s->cd);
		h = crypt_rn(pass, hash, s->cd, (int)sizeof *s->cd);
#else
		h = NULL;	/* serve_web_load refuses users then */
#endif
		ok = known && h != NULL && serve_web_same(hash, h);
		free(hash);
		hashed = 1;
	}
	if (ok && hashed) {
		pthread_mutex_lock(&s->authlock);
		if (gen == s->authgen) {
			if (s->passed == NULL) {
				s->npassed = s->web->cfg->nusers;
				s->passed = xcalloc(s->npassed,
				    sizeof *s->passed);
			}
			if (s->passed[who] != NULL) {
				explicit_bzero(s->passed[who],
				    strlen(s->passed[who]));
				free(s->passed[who]);
			}
			s->passed[who] = xstrdup(pass);
		}
		pthread_mutex_unlock(&s->authlock);
	}
	if (pass != NULL) {
		explicit_bzero(pass, strlen(pass));
		MHD_free(pass);
	}
	if (user != NULL)
		MHD_free(user);
	return (ok);
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
	ret = MHD_queue_basic_auth_fail_response(conn, SERVE_REALM, r);
	MHD_destroy_response(r);
	return (ret);
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
	if (w->cfg->cert_file != NULL &&
	    ((error = serve_web_pem(path, w->cfg->cert_file, &w->cert,
	    cause)) != 0 || (error = serve_web_pem(path, w->cfg->key_file,
	    &w->key, cause)) != 0)) {
		serve_web_free(w);
		return (error);
	}
	*out = w;
	return (0);
}

void
serve_web_free(struct serve_web *w)
{
	if (w == NULL)
		return;
	serve_webcfg_free(w->cfg);
	free(w->cert);
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

int
serve_web_reload(struct serve *s, struct serve_web *w, char **cause)
{
	struct serve_web	*old;

	pthread_mutex_lock(&s->authlock);
	old = s->web;
	if (!serve_web_pem_same(old != NULL ? old->cert : NULL, w->cert) ||
	    !serve_web_pem_same(old != NULL ? old->key : NULL, w->key)) {
		pthread_mutex_unlock(&s->authlock);
		*cause = xasprintf("%s", "the TLS certificate or key differs "
		    "from the one hvtop listens with, and a listening hvtop "
		    "cannot change it: restart hvtop to use it (the old web "
		    "configuration stays)");
		serve_web_free(w);
		return (-HV_EFORMAT);
	}
	/* An endpoint that asked for a password never stops asking because
	 * its file was emptied or cut short. */
	if (old != NULL && old->cfg->nusers > 0 && w->cfg->nusers == 0) {
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
