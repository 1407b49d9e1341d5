/*
 * What the server's files share: the HTTP side (serve-http.c) and who
 * may scrape (serve-web.c: --web-config read from its files and the
 * passwords accepted; serve-auth.c: Basic auth, bcrypt on threads of its
 * own; serve-tls.c: client certificates).  Not for use outside src/serve.
 */
#ifndef HVTOP_SERVE_INT_H
#define HVTOP_SERVE_INT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#ifdef HAVE_CRYPT
#include <crypt.h>
#endif
#include <microhttpd.h>

#include "export/om.h"
#include "serve/serve.h"
#include "sys/clock.h"

#define SERVE_CONNECTIONS	256	/* held at once; one more drops one */
#define SERVE_SLACK		64	/* dropped ones not yet closed */
#define SERVE_DEADLINE		10	/* seconds for a whole request */
#define SERVE_KEEPALIVE		300	/* seconds an answered one may idle */
#define SERVE_TICK_MS		100	/* how often deadlines are checked */
#define SERVE_HEADER_MAX	(16 * 1024)	/* bytes of request headers */
#define SERVE_HEADER_MEMORY	(SERVE_HEADER_MAX + 8 * 1024)	/* with the
						   answer's own, per connection */
#define SERVE_URI_MAX		4096	/* bytes of a request target */
#define SERVE_ARGS_MAX		32	/* arguments in its query */
#define SERVE_BACKLOG		128
#define SERVE_PART		(64 * 1024)	/* text rendered at a time */
#define SERVE_PEM_MAX		(1024 * 1024)	/* a certificate chain */
#define SERVE_REALM		"hvtop"
#define SERVE_AUTH_WORKERS	2	/* threads that hash passwords */
#define SERVE_AUTH_QUEUE	32	/* hashes waiting, from everyone */
#define SERVE_AUTH_INFLIGHT	2	/* ... from one address */
#define SERVE_AUTH_BURST	10	/* failures before 429s */
#define SERVE_AUTH_FORGIVE_NS	1000000000ULL	/* one failure forgotten */
#define SERVE_AUTH_SOURCES	1024	/* addresses remembered */
#define SERVE_AUTH_HASHLEN	60	/* a bcrypt hash */

struct serve_auth_job;
struct serve_pool;

/* The wrong passwords of one client address (the server thread's). */
struct serve_auth_src {
	uint8_t		 key[16];	/* IPv4, or an IPv6 /64 */
	int		 used;
	unsigned	 fails;		/* not yet forgiven */
	unsigned	 inflight;	/* its hashes queued or running */
	uint64_t	 last;		/* when the last was forgiven */
};

/* One TCP connection, in the order they became idle. */
struct serve_conn {
	struct serve_conn	*prev, *next;
	int			 fd;
	uint64_t		 since;		/* opened, last answer sent, or
						   request line read */
	int			 busy;		/* a request is being answered */
	int			 kept;		/* answered; no request since */
	int			 dropped;	/* shut down; not yet closed */
	struct MHD_Connection	*conn;
	struct serve		*srv;
	struct serve_auth_job	*job;		/* its password being hashed */
};

/*
 * A published snapshot, read by every scrape of it, and, made on demand,
 * its gzip text per format, which every gzip scrape of it is sent from.
 */
struct serve_pub {
	atomic_uint	 refs;
	struct om_page	*snap;
	char		*gz[OM_NFORMATS];
	size_t		 gzlen[OM_NFORMATS];
};

struct serve {
	struct MHD_Daemon	*mhd;
	char			*url;
	/* The server's thread alone, once started: */
	pthread_t		 thread;
	int			 running;
	int			 wake[2];	/* a byte: stop */
	struct hv_clock		 lt;
	void			*zs;		/* zlib's, for gzip answers */
	struct serve_conn	*head, *tail;
	unsigned		 held;		/* not dropped */
	pthread_mutex_t		 lock;
	struct serve_pub	*cur;		/* under lock */
	pthread_mutex_t		 authlock;
	struct serve_web	*web;		/* under authlock */
	char			**passed;	/* under authlock: per user of */
	size_t			 npassed;	/* web, the password last ok */
	uint64_t		 authgen;	/* under authlock: reloads */
	struct serve_pool	*pool;		/* hashes (serve-auth.c) */
	int			 tls;
	int			 client_auth;	/* SERVE_TLS_*: as started */
	struct serve_auth_src	 srcs[SERVE_AUTH_SOURCES];
	/* The sampler's alone: */
	struct om		*om;
	struct hv_clock		 rt;
	uint64_t		 begin;
	int			 begun;
	double			 proc_start;	/* -1 until read */
};

enum {
	SERVE_AUTH_OK,		/* answer the request */
	SERVE_AUTH_DENIED,	/* 401 */
	SERVE_AUTH_LIMITED,	/* 429: too many failures from there */
	SERVE_AUTH_BUSY,	/* 503: too many hashes waiting */
	SERVE_AUTH_WAIT,	/* suspended until its hash is done */
	SERVE_AUTH_GONE		/* close the connection */
};

/* Whether b (blen bytes) is the string a, in a time that does not say. */
int		 serve_web_same(const char *, const char *, size_t);

/* ---- serve-pub.c ---------------------------------------------------- */

/* Another holder of p (returned), or one fewer (the last frees it). */
struct serve_pub	*serve_pub_ref(struct serve_pub *);
void		 serve_pub_unref(struct serve_pub *);
/*
 * The answer's body for p in fmt, gzip when zs is not NULL (with its
 * Content-Encoding; *zs is the server thread's zlib stream, made at the
 * first use), which takes the caller's reference to p: a plain answer
 * lets it go when the library is done with it, a gzip one hands it to
 * *req for the request's end; NULL (the reference let go) when the
 * library cannot make an answer.
 */
struct MHD_Response *serve_pub_body(struct serve_pub *p, int fmt,
		    void **zs, void **req);
/* Free the zlib stream serve_pub_body() made (NULL: none). */
void		 serve_pub_zfree(void *);

/* ---- serve-web.c ---------------------------------------------------- */

/* Forget the passwords last accepted (authlock held). */
void		 serve_web_passed_clear(struct serve *);
/* Whether the password is the one last accepted for user (authlock). */
int		 serve_web_passed(struct serve *, const char *user,
		    const char *pass, size_t passlen);
/* Keep a password a hash accepted, unless the users changed since gen. */
void		 serve_web_passed_keep(struct serve *, size_t who,
		    uint64_t gen, const char *pass);
/* The dummy hash of an unknown user: the cost most users have. */
void		 serve_web_dummy(const struct serve_webcfg *, char out[61]);
/* The configured headers, added to an answer (the server's thread). */
void		 serve_web_headers(struct MHD_Connection *,
		    struct MHD_Response *);
/* The 401 answer that asks for a user and password. */
enum MHD_Result	 serve_web_unauthorized(struct MHD_Connection *);

/* serve-auth.c: Basic auth, bcrypt off the server's thread. */
struct serve_pool *serve_auth_pool_new(void);
int		 serve_auth_pool_start(struct serve_pool *);
void		 serve_auth_pool_stop(struct serve *);
void		 serve_auth_pool_free(struct serve *);
int		 serve_auth_basic(const char *, char **user, char **pass,
		    size_t *passlen);
/* SERVE_AUTH_*, on the server's thread; c may be NULL. */
int		 serve_auth_check(struct serve *, struct MHD_Connection *,
		    struct serve_conn *c);
enum MHD_Result	 serve_auth_refuse(struct MHD_Connection *, int);
void		 serve_auth_abandon(struct serve *, struct serve_conn *);
void		 serve_auth_closed(struct serve *, struct serve_conn *);

/* Whether web can start a server (every TLS file read); frees it if not. */
int		 serve_web_ready(struct serve_web *, char **cause);

/* serve-tls.c: what the TLS session of a connection may do. */
char		*serve_tls_init(struct serve *, int tls);
void		 serve_tls_start(struct serve *, struct MHD_Connection *);
/* Whether a client's certificate is as client_auth_type asks. */
int		 serve_tls_client_ok(struct serve *, struct MHD_Connection *);

#endif /* HVTOP_SERVE_INT_H */
