/*
 * What the server's two files share: the HTTP side (serve-http.c) and
 * who may scrape (serve-web.c: --web-config read from its files, Basic
 * auth).  Not for use outside src/serve.
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

/* One TCP connection, in the order they became idle. */
struct serve_conn {
	struct serve_conn	*prev, *next;
	struct MHD_Connection	*conn;
	int			 fd;
	uint64_t		 since;		/* opened, last answer sent, or
						   request line read */
	int			 busy;		/* a request is being answered */
	int			 kept;		/* answered; no request since */
	int			 dropped;	/* shut down; not yet closed */
};

/*
 * A published snapshot, read by every scrape of it, and, made on demand,
 * its gzip text per format, which every gzip scrape of it is sent from.
 */
struct serve_pub {
	atomic_uint	 refs;
	struct om_snapshot	*snap;
	char		*gz[OM_NFORMATS];
	size_t		 gzlen[OM_NFORMATS];
};

struct serve {
	struct MHD_Daemon	*mhd;
	char			*url;
	int			 tls;
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
#ifdef HAVE_CRYPT
	struct crypt_data	*cd;		/* the server thread's */
#endif
	/* The sampler's alone: */
	struct om		*om;
	struct hv_clock		 rt;
	uint64_t		 begin;
	int			 begun;
};

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
/* Whether the request carries a user and password of web (any thread). */
int		 serve_web_authorized(struct serve *, struct MHD_Connection *);
/* The 401 answer that asks for them. */
enum MHD_Result	 serve_web_unauthorized(struct MHD_Connection *);

#endif /* HVTOP_SERVE_INT_H */
