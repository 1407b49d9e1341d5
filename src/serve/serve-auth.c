/*
 * HTTP Basic auth of the metrics endpoint, with bcrypt off the server's
 * thread.  A bcrypt costs tens of milliseconds at cost 10 and days at
 * cost 31: on the thread that answers every connection, one wrong
 * password held up every scraper.  So a password that needs a hash is
 * handed to a small pool of threads (SERVE_AUTH_WORKERS) while its
 * connection is suspended; the server's thread goes on answering, and
 * the connection is resumed when the hash is done.  What may wait is
 * bounded: SERVE_AUTH_QUEUE hashes in all, SERVE_AUTH_INFLIGHT per
 * client address, and an address that failed SERVE_AUTH_BURST times is
 * answered 429 until its failures are forgiven, one a second.  A
 * password once accepted is remembered per user (serve-web.c), so a
 * scraper that sends it again is answered at once, whatever the flood.
 *
 * What the answer says, and how long it takes, does not tell which users
 * exist: an unknown user is hashed against a dummy hash of the users'
 * cost, and any wrong part gets the same 401.  A password is compared
 * with its length: "pw\0junk" is not "pw".
 *
 * The pool's threads touch only their job, under the pool's lock; the
 * table of addresses and everything else here is the server thread's.
 */
#include "config.h"

#include "serve/serve-int.h"

#include <sys/socket.h>

#include <netinet/in.h>

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/xalloc.h"

/* One password to hash, shared by its connection and a pool thread. */
struct serve_auth_job {
	struct serve_auth_job	*next;
	struct MHD_Connection	*conn;
	unsigned		 refs;		/* under the pool's lock */
	int			 done, ok;	/* under the pool's lock */
	int			 abandoned;	/* under the pool's lock */
	int			 resumed;	/* under the pool's lock */
	int			 known, nul;
	size_t			 who;		/* the user, when known */
	uint64_t		 gen;		/* the users' authgen */
	struct serve_auth_src	*src;
	char			*pass;
	char			 hash[SERVE_AUTH_HASHLEN + 1];
};

/* The threads that hash, and what waits for them. */
struct serve_pool {
	pthread_mutex_t		 lock;
	pthread_cond_t		 cond;		/* a job, or stopping */
	pthread_cond_t		 idle;		/* resuming reached 0 */
	struct serve_auth_job	*head, *tail;	/* queued */
	unsigned		 queued;
	unsigned		 refs;		/* the server's, a thread's */
	unsigned		 resuming;	/* threads in a resume call */
	int			 stopping;
};

/* ---- the pool ------------------------------------------------------ */

static void
serve_auth_job_unref(struct serve_auth_job *j)
{
	if (--j->refs != 0)
		return;
	explicit_bzero(j->pass, strlen(j->pass));
	free(j->pass);
	free(j);
}

static void
serve_auth_pool_unref(struct serve_pool *p)
{
	int	 last;

	pthread_mutex_lock(&p->lock);
	last = --p->refs == 0;
	pthread_mutex_unlock(&p->lock);
	if (!last)
		return;
	pthread_cond_destroy(&p->cond);
	pthread_cond_destroy(&p->idle);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

#ifndef HAVE_CRYPT
/* Without crypt(3) no hash runs (serve_web_load refuses users); the
 * workers' scratch space is a stand-in. */
struct crypt_data {
	char	 unused;
};
#endif

/* Whether the offered password is the hash's, on a pool thread. */
static int
serve_auth_hash(const struct serve_auth_job *j, struct crypt_data *cd)
{
#ifdef HAVE_CRYPT
	const char	*h;

	memset(cd, 0, sizeof *cd);
	h = crypt_rn(j->pass, j->hash, cd, (int)sizeof *cd);
	return (j->known && !j->nul && h != NULL &&
	    serve_web_same(j->hash, h, strlen(h)));
#else
	(void)j;
	(void)cd;
	return (0);	/* serve_web_load refuses users then */
#endif
}

/*
 * A pool thread: hash what is queued, then resume the connection that
 * waits for it.  It holds a reference to the pool, so that serve_stop()
 * need not wait for a hash of cost 31 to end.
 */
static void *
serve_auth_worker(void *arg)
{
	struct serve_pool	*p = arg;
	struct serve_auth_job	*j;
	struct crypt_data	*cd;
	int			 ok, resume;

	cd = xcalloc(1, sizeof *cd);
	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (!p->stopping && p->head == NULL)
			pthread_cond_wait(&p->cond, &p->lock);
		if (p->stopping)
			break;
		j = p->head;
		p->head = j->next;
		if (p->head == NULL)
			p->tail = NULL;
		p->queued--;
		ok = 0;
		if (!j->abandoned) {
			pthread_mutex_unlock(&p->lock);
			ok = serve_auth_hash(j, cd);
			pthread_mutex_lock(&p->lock);
		}
		j->done = 1;
		j->ok = ok;
		resume = !j->abandoned && !j->resumed && !p->stopping;
		if (resume) {
			/* Outside the lock: the library takes its own. */
			j->resumed = 1;
			p->resuming++;
			pthread_mutex_unlock(&p->lock);
			MHD_resume_connection(j->conn);
			pthread_mutex_lock(&p->lock);
			if (--p->resuming == 0)
				pthread_cond_broadcast(&p->idle);
		}
		serve_auth_job_unref(j);
	}
	pthread_mutex_unlock(&p->lock);
	explicit_bzero(cd, sizeof *cd);
	free(cd);
	serve_auth_pool_unref(p);
	return (NULL);
}

struct serve_pool *
serve_auth_pool_new(void)
{
	struct serve_pool	*p;

	p = xcalloc(1, sizeof *p);
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, NULL);
	pthread_cond_init(&p->idle, NULL);
	p->refs = 1;
	return (p);
}

/* The pool's threads, with every signal blocked (set by serve_run). */
int
serve_auth_pool_start(struct serve_pool *p)
{
	pthread_attr_t	 attr;
	pthread_t	 t;
	int		 i, error = 0;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	for (i = 0; i < SERVE_AUTH_WORKERS && error == 0; i++) {
		pthread_mutex_lock(&p->lock);
		p->refs++;
		pthread_mutex_unlock(&p->lock);
		if ((error = pthread_create(&t, &attr, serve_auth_worker,
		    p)) != 0)
			serve_auth_pool_unref(p);
	}
	pthread_attr_destroy(&attr);
	return (error);
}

/*
 * The end, before the library stops: no connection waits for a hash any
 * more (each is resumed, and finds its job abandoned).  On the server's
 * thread, or once it has ended.
 */
void
serve_auth_pool_stop(struct serve *s)
{
	struct serve_pool	*p = s->pool;
	struct serve_conn	*c;
	struct serve_auth_job	*j;

	if (p == NULL)
		return;
	pthread_mutex_lock(&p->lock);
	p->stopping = 1;
	pthread_cond_broadcast(&p->cond);
	while (p->resuming != 0)
		pthread_cond_wait(&p->idle, &p->lock);
	while ((j = p->head) != NULL) {
		p->head = j->next;
		serve_auth_job_unref(j);
	}
	p->tail = NULL;
	p->queued = 0;
	pthread_mutex_unlock(&p->lock);
	for (c = s->head; c != NULL; c = c->next) {
		if (c->job != NULL)
			serve_auth_abandon(s, c);
	}
}

/*
 * Once the library has closed every connection: the pool is let go.  A
 * thread still in a hash (of cost 31, days) frees what it holds when it
 * ends, or the process ends it: nobody waits for it.
 */
void
serve_auth_pool_free(struct serve *s)
{
	if (s->pool == NULL)
		return;
	serve_auth_pool_unref(s->pool);
	s->pool = NULL;
}

/* Queue a job: 0, or -1 when the queue is full or stopping. */
static int
serve_auth_submit(struct serve_pool *p, struct serve_auth_job *j)
{
	pthread_mutex_lock(&p->lock);
	if (p->stopping || p->queued >= SERVE_AUTH_QUEUE) {
		pthread_mutex_unlock(&p->lock);
		return (-1);
	}
	j->refs = 2;		/* the connection's and the pool's */
	j->next = NULL;
	if (p->tail != NULL)
		p->tail->next = j;
	else
		p->head = j;
	p->tail = j;
	p->queued++;
	pthread_cond_signal(&p->cond);
	pthread_mutex_unlock(&p->lock);
	return (0);
}

/*
 * The connection waits no more (its deadline passed, or the end): its job
 * is abandoned and the connection resumed, to be closed.
 */
void
serve_auth_abandon(struct serve *s, struct serve_conn *c)
{
	struct serve_auth_job	*j = c->job;
	struct serve_pool	*p = s->pool;
	int			 resume = 0;

	if (j == NULL)
		return;
	if (p != NULL)
		pthread_mutex_lock(&p->lock);
	j->abandoned = 1;
	if (!j->resumed) {
		j->resumed = 1;
		resume = 1;
	}
	if (p != NULL)
		pthread_mutex_unlock(&p->lock);
	if (resume)
		MHD_resume_connection(c->conn);
}

/* The connection is closed: its share of its job goes. */
void
serve_auth_closed(struct serve *s, struct serve_conn *c)
{
	struct serve_auth_job	*j = c->job;

	if (j == NULL)
		return;
	if (j->src != NULL && j->src->inflight > 0)
		j->src->inflight--;
	c->job = NULL;
	if (s->pool != NULL)
		pthread_mutex_lock(&s->pool->lock);
	serve_auth_job_unref(j);
	if (s->pool != NULL)
		pthread_mutex_unlock(&s->pool->lock);
}

/* ---- who asks: failures per client address ------------------------- */

/*
 * The client's address as a key: IPv4 (mapped or not) whole, IPv6 by its
 * first 64 bits, as one host usually holds a whole /64.
 */
static void
serve_auth_key(struct MHD_Connection *conn, uint8_t key[16])
{
	const union MHD_ConnectionInfo	*ci;
	const struct sockaddr_in6	*s6;
	const struct sockaddr_in	*s4;

	memset(key, 0, 16);
	ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	if (ci == NULL || ci->client_addr == NULL)
		return;
	if (ci->client_addr->sa_family == AF_INET) {
		s4 = (const struct sockaddr_in *)(const void *)ci->client_addr;
		memcpy(key + 12, &s4->sin_addr, 4);
	} else if (ci->client_addr->sa_family == AF_INET6) {
		s6 = (const struct sockaddr_in6 *)(const void *)
		    ci->client_addr;
		if (IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr))
			memcpy(key + 12, s6->sin6_addr.s6_addr + 12, 4);
		else {
			memcpy(key, s6->sin6_addr.s6_addr, 8);
			key[15] = 6;
		}
	}
}

/* The failures of src, less those forgiven since. */
static void
serve_auth_forgive(struct serve_auth_src *src, uint64_t now)
{
	uint64_t	 n;

	n = (now - src->last) / SERVE_AUTH_FORGIVE_NS;
	src->fails = n >= src->fails ? 0 : src->fails - (unsigned)n;
	src->last += n * SERVE_AUTH_FORGIVE_NS;
	if (src->fails == 0)
		src->last = now;
}

/*
 * The entry of an address, made if need be in place of the one whose
 * failures are oldest; NULL when every entry waits for a hash.
 */
static struct serve_auth_src *
serve_auth_src(struct serve *s, struct MHD_Connection *conn, uint64_t now)
{
	struct serve_auth_src	*e, *old = NULL;
	uint8_t			 key[16];
	size_t			 i;

	serve_auth_key(conn, key);
	for (i = 0; i < SERVE_AUTH_SOURCES; i++) {
		e = &s->srcs[i];
		if (e->used && memcmp(e->key, key, sizeof key) == 0) {
			serve_auth_forgive(e, now);
			return (e);
		}
		if (e->inflight == 0 && (old == NULL || !e->used ||
		    (old->used && e->last < old->last)))
			old = e;
	}
	if (old == NULL)
		return (NULL);
	memset(old, 0, sizeof *old);
	memcpy(old->key, key, sizeof key);
	old->used = 1;
	old->last = now;
	return (old);
}

/* ---- the check ----------------------------------------------------- */

static int
serve_auth_b64(int ch)
{
	static const char	 a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789+/";
	const char		*p;

	if (ch == '\0' || (p = strchr(a, ch)) == NULL)
		return (-1);
	return ((int)(p - a));
}

/*
 * The credentials of "Basic BASE64(user:password)": *user and *pass
 * (caller frees both) with the password's length, which may hold a NUL
 * byte.  0, or -1 for a field that is not Basic credentials.
 */
int
serve_auth_basic(const char *field, char **user, char **pass,
    size_t *passlen)
{
	const char	*p;
	char		*buf, *colon;
	size_t		 len, n = 0, i;
	unsigned	 acc = 0;
	int		 bits = 0, v, pad = 0;

	*user = *pass = NULL;
	if (field == NULL || strncasecmp(field, "Basic ", 6) != 0)
		return (-1);
	for (p = field + 6; *p == ' '; p++)
		continue;
	len = strlen(p);
	while (len > 0 && p[len - 1] == ' ')
		len--;
	buf = xmalloc(len / 4 * 3 + 3);
	for (i = 0; i < len; i++) {
		if (p[i] == '=' && pad < 2 && i >= 2) {
			pad++;
			continue;
		}
		if (pad > 0 || (v = serve_auth_b64(p[i])) < 0)
			goto fail;
		acc = (acc << 6) | (unsigned)v;
		if ((bits += 6) >= 8) {
			bits -= 8;
			buf[n++] = (char)((acc >> bits) & 0xff);
		}
	}
	if (len % 4 != 0 || len == 0 ||
	    (colon = memchr(buf, ':', n)) == NULL)
		goto fail;
	*user = xstrndup(buf, (size_t)(colon - buf));
	*passlen = n - (size_t)(colon - buf) - 1;
	*pass = xmalloc(*passlen + 1);
	memcpy(*pass, colon + 1, *passlen);
	(*pass)[*passlen] = '\0';
	explicit_bzero(buf, n);
	free(buf);
	return (0);
fail:
	explicit_bzero(buf, n);
	free(buf);
	return (-1);
}

/* The answer of a connection whose hash is done (or abandoned). */
static int
serve_auth_result(struct serve *s, struct serve_conn *c)
{
	struct serve_auth_job	*j = c->job;
	int			 done, ok, gone;

	pthread_mutex_lock(&s->pool->lock);
	done = j->done;
	ok = j->ok;
	gone = j->abandoned;
	pthread_mutex_unlock(&s->pool->lock);
	if (gone || !done) {
		serve_auth_closed(s, c);
		return (SERVE_AUTH_GONE);
	}
	if (j->src != NULL && !ok && j->src->fails < UINT_MAX) {
		if (j->src->fails++ == 0)
			j->src->last = clock_now(&s->lt);
	}
	if (ok)
		serve_web_passed_keep(s, j->who, j->gen, j->pass);
	serve_auth_closed(s, c);
	return (ok ? SERVE_AUTH_OK : SERVE_AUTH_DENIED);
}

/*
 * A new job for the password: the hash of its user, or the dummy of the
 * users' cost for an unknown one (authlock held).
 */
static struct serve_auth_job *
serve_auth_job(struct serve *s, struct MHD_Connection *conn,
    const char *user, char *pass, size_t passlen)
{
	const struct serve_webcfg	*cfg = s->web->cfg;
	struct serve_auth_job		*j;
	size_t				 i;

	j = xcalloc(1, sizeof *j);
	j->conn = conn;
	j->pass = pass;
	j->nul = strlen(pass) != passlen;
	j->gen = s->authgen;
	for (i = 0; i < cfg->nusers; i++) {
		if (strcmp(cfg->users[i].name, user) == 0) {
			j->who = i;
			j->known = 1;
		}
	}
	memcpy(j->hash, j->known ? cfg->users[j->who].hash : s->web->dummy,
	    sizeof j->hash);
	j->hash[SERVE_AUTH_HASHLEN] = '\0';
	return (j);
}

/*
 * Whether the request may be answered: SERVE_AUTH_OK; _DENIED (401);
 * _LIMITED (429) or _BUSY (503), without a hash; _WAIT, the connection
 * suspended until its hash is done, when this is called again; _GONE,
 * the connection is to be closed.  On the server's thread.
 */
int
serve_auth_check(struct serve *s, struct MHD_Connection *conn,
    struct serve_conn *c)
{
	struct serve_auth_job	*j;
	struct serve_auth_src	*src;
	char			*user = NULL, *pass = NULL;
	size_t			 passlen = 0;
	int			 r;

	if (c != NULL && c->job != NULL)
		return (serve_auth_result(s, c));
	pthread_mutex_lock(&s->authlock);
	if (s->web == NULL || s->web->cfg->nusers == 0) {
		pthread_mutex_unlock(&s->authlock);
		return (SERVE_AUTH_OK);
	}
	if (serve_auth_basic(MHD_lookup_connection_value(conn,
	    MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION), &user, &pass,
	    &passlen) != 0) {
		pthread_mutex_unlock(&s->authlock);
		return (SERVE_AUTH_DENIED);
	}
	/*
	 * An address over its limit is refused before the remembered
	 * passwords are compared: a comparison costs no hash, and would
	 * let it guess on for free.
	 */
	r = SERVE_AUTH_WAIT;
	if ((src = serve_auth_src(s, conn, clock_now(&s->lt))) == NULL)
		r = SERVE_AUTH_BUSY;
	else if (src->fails >= SERVE_AUTH_BURST)
		r = SERVE_AUTH_LIMITED;
	else if (serve_web_passed(s, user, pass, passlen))
		r = SERVE_AUTH_OK;
	else if (c == NULL || s->pool == NULL)
		r = SERVE_AUTH_BUSY;
	else if (src->inflight >= SERVE_AUTH_INFLIGHT)
		r = SERVE_AUTH_LIMITED;
	if (r != SERVE_AUTH_WAIT) {
		pthread_mutex_unlock(&s->authlock);
		free(user);
		explicit_bzero(pass, passlen);
		free(pass);
		return (r);
	}
	j = serve_auth_job(s, conn, user, pass, passlen);
	pthread_mutex_unlock(&s->authlock);
	free(user);
	if (serve_auth_submit(s->pool, j) != 0) {
		j->refs = 1;
		serve_auth_job_unref(j);
		return (SERVE_AUTH_BUSY);
	}
	j->src = src;
	src->inflight++;
	c->job = j;
	MHD_suspend_connection(conn);
	return (SERVE_AUTH_WAIT);
}

static enum MHD_Result
serve_auth_later(struct MHD_Connection *conn, unsigned status,
    const char *body, const char *after)
{
	struct MHD_Response	*r;
	enum MHD_Result		 ret;

	r = MHD_create_response_from_buffer(strlen(body),
	    (void *)(uintptr_t)body, MHD_RESPMEM_PERSISTENT);
	if (r == NULL)
		return (MHD_NO);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
	    "text/plain; charset=utf-8");
	MHD_add_response_header(r, MHD_HTTP_HEADER_RETRY_AFTER, after);
	serve_web_headers(conn, r);
	ret = MHD_queue_response(conn, status, r);
	MHD_destroy_response(r);
	return (ret);
}

/* The answer to a check that did not pass (not _OK, not _WAIT). */
enum MHD_Result
serve_auth_refuse(struct MHD_Connection *conn, int r)
{
	switch (r) {
	case SERVE_AUTH_LIMITED:
		return (serve_auth_later(conn, MHD_HTTP_TOO_MANY_REQUESTS,
		    "429 Too Many Requests: too many wrong passwords from "
		    "this address; try again later\n", "1"));
	case SERVE_AUTH_BUSY:
		return (serve_auth_later(conn, MHD_HTTP_SERVICE_UNAVAILABLE,
		    "503 Service Unavailable: too many passwords are being "
		    "checked; try again later\n", "1"));
	case SERVE_AUTH_GONE:
		return (MHD_NO);
	default:
		return (serve_web_unauthorized(conn));
	}
}
