/*
 * The HTTP side of the metrics endpoint, on libmicrohttpd.  One thread of
 * hvtop's server runs the library's event loop and answers every
 * connection; hvtop's other threads never wait for it.  The sampler
 * publishes a snapshot by swapping a pointer under a mutex; a scrape takes a
 * reference to the snapshot published last and renders its text a part
 * at a time as its connection takes it, or, asked for gzip, is sent the
 * gzip text made once per snapshot and format.  Nothing here reads a
 * counter or calls the hypervisor.
 *
 * What a client can do is bounded, and no client can keep a scraper out.
 * Each connection has a deadline for a whole request, from the moment it
 * opens (or its last answer ends) until its answer is sent: a client that
 * trickles a byte at a time is cut off when the deadline passes, however
 * busy it looks.  Up to SERVE_CONNECTIONS connections are held at once;
 * one more makes room by dropping the connection idle for longest (one
 * that has not finished sending a request), or is itself refused at once
 * when every connection is being answered.  A small buffer for request
 * headers, no request bodies, only GET and HEAD, only / and /metrics.  A
 * connection pins at most one snapshot (its values, a small part of its
 * text's size) and one part of the text while it is being sent, so a
 * client that asks and never reads costs that much, not a copy of the
 * text.
 *
 * The thread is the library's only one (no thread pool, no thread per
 * connection): every callback below, the gzip text of a snapshot and the
 * list of connections are used there alone, which is why they need no
 * lock.
 */
#include "config.h"

#include "serve/serve.h"

#include <sys/types.h>
#include <sys/socket.h>

#include <netinet/in.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <libgen.h>
#include <microhttpd.h>

#include "export/om.h"
#include "serve/serve-int.h"
#include "sys/clock.h"
#include "sys/file.h"
#include "sys/procstat.h"
#include "util/hverr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const char serve_long[] =
    "the request target is too long: only / and /metrics are served, "
    "without arguments\n";

static const char serve_big[] = "the request's header fields are over "
    "16 KiB\n";

static const char serve_index[] =
    "<!DOCTYPE html>\n"
    "<html><head><meta charset=\"utf-8\"><title>hvtop</title></head>\n"
    "<body><h1>hvtop</h1>\n"
    "<p>IBM PowerVM 24x7 hypervisor counters for Prometheus: "
    "<a href=\"metrics\">/metrics</a>.</p>\n"
    "</body></html>\n";

/* Make f the snapshot scrapes see; the old one lives while it is sent. */
static void
serve_swap(struct serve *s, struct om_page *f)
{
	struct serve_pub	*p, *old;

	p = xcalloc(1, sizeof *p);
	atomic_init(&p->refs, 1);
	p->snap = f;
	pthread_mutex_lock(&s->lock);
	old = s->cur;
	s->cur = p;
	pthread_mutex_unlock(&s->lock);
	serve_pub_unref(old);
}

static struct serve_pub *
serve_current(struct serve *s)
{
	struct serve_pub	*p;

	pthread_mutex_lock(&s->lock);
	p = serve_pub_ref(s->cur);
	pthread_mutex_unlock(&s->lock);
	return (p);
}

/* ---- connections --------------------------------------------------- */

static void
serve_conn_unlink(struct serve *s, struct serve_conn *c)
{
	if (c->prev != NULL)
		c->prev->next = c->next;
	else
		s->head = c->next;
	if (c->next != NULL)
		c->next->prev = c->prev;
	else
		s->tail = c->prev;
	c->prev = c->next = NULL;
}

static void
serve_conn_append(struct serve *s, struct serve_conn *c)
{
	c->prev = s->tail;
	c->next = NULL;
	if (s->tail != NULL)
		s->tail->next = c;
	else
		s->head = c;
	s->tail = c;
}

/*
 * End a connection: the library sees it closed at its next turn and
 * cleans up as for any client that went away.  The socket stays open
 * until then, so its number cannot have been given to another.
 */
static void
serve_conn_drop(struct serve *s, struct serve_conn *c)
{
	if (c->dropped)
		return;
	shutdown(c->fd, SHUT_RDWR);
	c->dropped = 1;
	s->held--;
}

/*
 * One connection too many: drop the one idle for longest, which may be
 * the new one itself when all the others are being answered.
 */
static void
serve_conn_room(struct serve *s)
{
	struct serve_conn	*c;

	for (c = s->head; c != NULL; c = c->next) {
		if (!c->busy && !c->dropped) {
			serve_conn_drop(s, c);
			return;
		}
	}
}

/*
 * Drop every connection past its deadline: SERVE_DEADLINE for a request,
 * SERVE_KEEPALIVE for one answered and waiting for the next (a scraper
 * keeps its connection between scrapes; such idle ones are also the
 * first dropped to make room).
 */
static void
serve_conn_reap(struct serve *s)
{
	struct serve_conn	*c;
	uint64_t		 now, limit;

	now = clock_now(&s->lt);
	for (c = s->head; c != NULL; c = c->next) {
		limit = (c->kept ? SERVE_KEEPALIVE : SERVE_DEADLINE) *
		    1000000000ULL;
		if (!c->dropped && now - c->since > limit) {
			/* Waiting for a hash: resumed, to be closed. */
			serve_auth_abandon(s, c);
			serve_conn_drop(s, c);
		}
	}
}

/*
 * Answer a request with one status line of hvtop's and close the
 * connection, outside the library: nothing else has been sent on it
 * since its last answer ended (the library reads the next request only
 * then).  Over TLS the text cannot be sent here: the connection is only
 * closed.
 */
static void
serve_conn_refuse(struct serve *s, struct serve_conn *c, unsigned status,
    const char *reason, const char *body)
{
	char	 buf[512];
	int	 n;

	if (!s->tls) {
		n = snprintf(buf, sizeof buf, "HTTP/1.1 %u %s\r\n"
		    "Connection: close\r\n"
		    "Content-Type: text/plain; charset=utf-8\r\n"
		    "Content-Length: %zu\r\n\r\n%s", status, reason,
		    strlen(body), body);
		if (n > 0 && (size_t)n < sizeof buf)
			(void)send(c->fd, buf, (size_t)n,
			    MSG_NOSIGNAL | MSG_DONTWAIT);
	}
	serve_conn_drop(s, c);
}

static void
serve_notify(void *cls, struct MHD_Connection *conn, void **ctx,
    enum MHD_ConnectionNotificationCode code)
{
	struct serve			*s = cls;
	struct serve_conn		*c = *ctx;
	const union MHD_ConnectionInfo	*ci;

	if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
		if (c == NULL)
			return;
		serve_conn_unlink(s, c);
		if (!c->dropped)
			s->held--;
		serve_auth_closed(s, c);
		free(c);
		*ctx = NULL;
		return;
	}
	ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
	if (ci == NULL)
		return;
	c = xcalloc(1, sizeof *c);
	c->fd = ci->connect_fd;
	c->conn = conn;
	c->srv = s;
	c->since = clock_now(&s->lt);
	serve_conn_append(s, c);
	*ctx = c;
	serve_tls_start(s, conn);
	if (++s->held > SERVE_CONNECTIONS)
		serve_conn_room(s);
}

static struct serve_conn *
serve_conn_of(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo	*ci;

	ci = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
	return (ci != NULL ? ci->socket_context : NULL);
}

/* The server's thread: the library's event loop, and the deadlines. */
static void *
serve_loop(void *arg)
{
	struct serve			*s = arg;
	const union MHD_DaemonInfo	*di;
	struct pollfd			 pfd[2];
	MHD_UNSIGNED_LONG_LONG		 ms;
	int				 wait;

	di = MHD_get_daemon_info(s->mhd, MHD_DAEMON_INFO_EPOLL_FD);
	pfd[0].fd = di->epoll_fd;
	pfd[0].events = POLLIN;
	pfd[1].fd = s->wake[0];
	pfd[1].events = POLLIN;
	for (;;) {
		/* Without a connection there is no deadline to watch. */
		wait = s->head != NULL ? SERVE_TICK_MS : -1;
		if (MHD_get_timeout(s->mhd, &ms) == MHD_YES &&
		    (wait == -1 || ms < (unsigned)wait))
			wait = ms < SERVE_TICK_MS ? (int)ms : SERVE_TICK_MS;
		if (poll(pfd, 2, wait) == -1 && errno != EINTR)
			break;
		if (pfd[1].revents != 0)
			break;
		MHD_run(s->mhd);
		serve_conn_reap(s);
	}
	return (NULL);
}

/* ---- requests ------------------------------------------------------ */

static enum MHD_Result
serve_reply(struct MHD_Connection *conn, unsigned status, const char *type,
    const char *body, const char *allow)
{
	struct MHD_Response	*r;
	enum MHD_Result		 ret;

	r = MHD_create_response_from_buffer(strlen(body), (void *)(uintptr_t)
	    body, MHD_RESPMEM_PERSISTENT);
	if (r == NULL)
		return (MHD_NO);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	if (allow != NULL)
		MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, allow);
	serve_web_headers(conn, r);
	ret = MHD_queue_response(conn, status, r);
	MHD_destroy_response(r);
	return (ret);
}

/* Whether the request says it carries a body. */
static int
serve_has_body(struct MHD_Connection *conn)
{
	const char	*v;

	if (MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
	    MHD_HTTP_HEADER_TRANSFER_ENCODING) != NULL)
		return (1);
	v = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
	    MHD_HTTP_HEADER_CONTENT_LENGTH);
	return (v != NULL && strspn(v, "0 \t") != strlen(v));
}

static enum MHD_Result
serve_metrics(struct serve *s, struct MHD_Connection *conn, void **req)
{
	struct MHD_Response	*r;
	enum MHD_Result		 ret;
	int			 fmt;

	fmt = om_accept(MHD_lookup_connection_value(conn,
	    MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT));
	if (fmt < 0)
		return (serve_reply(conn, MHD_HTTP_NOT_ACCEPTABLE,
		    "text/plain; charset=utf-8", "the metrics are offered as "
		    "application/openmetrics-text or text/plain, and the "
		    "Accept header refuses both\n", NULL));
	r = serve_pub_body(serve_current(s), fmt, om_accept_gzip(
	    MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
	    MHD_HTTP_HEADER_ACCEPT_ENCODING)) ? &s->zs : NULL, req);
	if (r == NULL)
		return (MHD_NO);
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
	    om_content_type(fmt));
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	MHD_add_response_header(r, MHD_HTTP_HEADER_VARY,
	    "Accept, Accept-Encoding");
	serve_web_headers(conn, r);
	ret = MHD_queue_response(conn, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return (ret);
}

/* What serve_headers() found wrong in a request's header fields. */
struct serve_fields {
	int		 lengths;	/* Content-Length fields */
	int		 auths;		/* Authorization fields */
	int		 malformed;	/* a name with white space */
};

static enum MHD_Result
serve_field(void *cls, enum MHD_ValueKind kind, const char *name,
    const char *value)
{
	struct serve_fields	*f = cls;

	(void)kind;
	(void)value;
	/* "Name : value" would be read as another field than "Name". */
	if (name[strcspn(name, " \t")] != '\0')
		f->malformed = 1;
	if (strcasecmp(name, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0)
		f->lengths++;
	if (strcasecmp(name, MHD_HTTP_HEADER_AUTHORIZATION) == 0)
		f->auths++;
	return (MHD_YES);
}

/*
 * Whether the header fields can be read only one way.  A name followed by
 * white space before its colon, or two Content-Length or Authorization
 * fields, are read differently by different HTTP software; a proxy in
 * front may have let through what it read as something else.  Such a
 * request is refused.
 */
static int
serve_fields_valid(struct MHD_Connection *conn)
{
	struct serve_fields	 f = { 0, 0, 0 };

	MHD_get_connection_values(conn, MHD_HEADER_KIND, serve_field, &f);
	return (!f.malformed && f.lengths <= 1 && f.auths <= 1);
}

/*
 * The request target, before the library splits and decodes it.  Only /
 * and /metrics are served and neither takes arguments, so a long target
 * or one with many arguments is refused before the library stores them
 * (it would run out of the connection's memory and close it without an
 * answer).  A NUL byte (%00) in the path would cut it short once decoded:
 * "/metrics%00junk" is not "/metrics".  The mark is an address only,
 * never written: const, so no mutable global.
 */
static const char serve_marks[3];
#define SERVE_BAD_TARGET ((void *)(uintptr_t)&serve_marks[0])
#define SERVE_LONG_TARGET ((void *)(uintptr_t)&serve_marks[1])
/* A request found good on its headers, answered once it is all in. */
#define SERVE_PENDING	((void *)(uintptr_t)&serve_marks[2])
#define SERVE_MARK(p)	((p) == SERVE_BAD_TARGET || \
			 (p) == SERVE_LONG_TARGET || (p) == SERVE_PENDING)

static void *
serve_target(void *cls, const char *uri, struct MHD_Connection *conn)
{
	struct serve		*s = cls;
	struct serve_conn	*c;
	const char		*q, *p;
	size_t			 plen, args = 0;

	/* A request on a kept connection: its own deadline starts. */
	if ((c = serve_conn_of(conn)) != NULL && c->kept) {
		c->kept = 0;
		c->since = clock_now(&s->lt);
	}
	q = strchr(uri, '?');
	plen = q != NULL ? (size_t)(q - uri) : strlen(uri);
	for (p = q; p != NULL; p = strchr(p + 1, '&'))
		args++;
	/* On TLS the answer is the library's to send, encrypted. */
	if ((strlen(uri) > SERVE_URI_MAX || args > SERVE_ARGS_MAX) &&
	    ((struct serve *)cls)->tls)
		return (SERVE_LONG_TARGET);
	if (strlen(uri) > SERVE_URI_MAX || args > SERVE_ARGS_MAX) {
		/* Answered here and now, the connection closed. */
		if (c != NULL)
			serve_conn_refuse(s, c, 414, "URI Too Long",
			    serve_long);
		return (NULL);
	}
	for (p = uri; p + 3 <= uri + plen; p++) {
		if (p[0] == '%' && p[1] == '0' && p[2] == '0')
			return (SERVE_BAD_TARGET);
	}
	return (NULL);
}

/* What a request found good on its headers gets. */
static enum MHD_Result
serve_answer(struct serve *s, struct MHD_Connection *conn, const char *url,
    void **req)
{
	if (strcmp(url, "/metrics") == 0)
		return (serve_metrics(s, conn, req));
	if (strcmp(url, "/") == 0)
		return (serve_reply(conn, MHD_HTTP_OK,
		    "text/html; charset=utf-8", serve_index, NULL));
	return (serve_reply(conn, MHD_HTTP_NOT_FOUND,
	    "text/plain; charset=utf-8", "not found: the metrics are at "
	    "/metrics\n", NULL));
}

/* Whether the request's header block is over SERVE_HEADER_MAX bytes. */
static int
serve_header_long(struct MHD_Connection *conn)
{
	const union MHD_ConnectionInfo	*ci;

	ci = MHD_get_connection_info(conn,
	    MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
	return (ci != NULL && ci->header_size > SERVE_HEADER_MAX);
}

/*
 * Errors are answered at the first call, on the headers alone, and close
 * the connection (a body is refused, not drained).  A good request is
 * answered at the second, once the library has all of it: an answer
 * queued earlier would close the connection too, and a scraper keeps
 * its connection from one scrape to the next.
 */
static enum MHD_Result
serve_access(void *cls, struct MHD_Connection *conn, const char *url,
    const char *method, const char *version, const char *upload_data,
    size_t *upload_data_size, void **req)
{
	struct serve		*s = cls;
	struct serve_conn	*c;
	int			 auth;

	(void)version;
	(void)upload_data;
	if ((c = serve_conn_of(conn)) != NULL)
		c->busy = 1;
	if (*req == SERVE_BAD_TARGET) {
		*req = NULL;
		return (serve_reply(conn, MHD_HTTP_BAD_REQUEST,
		    "text/plain; charset=utf-8", "a NUL byte (%00) in the "
		    "path\n", NULL));
	}
	if (*req == SERVE_LONG_TARGET) {
		*req = NULL;
		return (serve_reply(conn, MHD_HTTP_URI_TOO_LONG,
		    "text/plain; charset=utf-8", serve_long, NULL));
	}
	if (*req == SERVE_PENDING && *upload_data_size == 0) {
		*req = NULL;
		return (serve_answer(s, conn, url, req));
	}
	if (*req != NULL || *upload_data_size != 0)
		return (MHD_NO);
	/*
	 * The library's own limit is its memory, which its answer needs
	 * too: hvtop's is lower, and hvtop answers without that memory, so
	 * that every request gets an answer.
	 */
	if (serve_header_long(conn)) {
		/* On TLS the answer is the library's to send, encrypted. */
		if (s->tls)
			return (serve_reply(conn,
			    MHD_HTTP_REQUEST_HEADER_FIELDS_TOO_LARGE,
			    "text/plain; charset=utf-8", serve_big, NULL));
		if (c != NULL)
			serve_conn_refuse(s, c,
			    MHD_HTTP_REQUEST_HEADER_FIELDS_TOO_LARGE,
			    "Request Header Fields Too Large", serve_big);
		return (MHD_NO);
	}
	if (!serve_fields_valid(conn))
		return (serve_reply(conn, MHD_HTTP_BAD_REQUEST,
		    "text/plain; charset=utf-8", "a header field can be read "
		    "more than one way (white space before its colon, or "
		    "Content-Length or Authorization twice)\n", NULL));
	if (!serve_tls_client_ok(s, conn))
		return (serve_reply(conn, MHD_HTTP_FORBIDDEN,
		    "text/plain; charset=utf-8", "this endpoint needs a "
		    "client certificate its authorities signed\n", NULL));
	if ((auth = serve_auth_check(s, conn, c)) == SERVE_AUTH_WAIT)
		return (MHD_YES);
	if (auth != SERVE_AUTH_OK)
		return (serve_auth_refuse(conn, auth));
	if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 &&
	    strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
		return (serve_reply(conn, MHD_HTTP_METHOD_NOT_ALLOWED,
		    "text/plain; charset=utf-8", "only GET and HEAD are "
		    "served here\n", "GET, HEAD"));
	if (serve_has_body(conn))
		return (serve_reply(conn, MHD_HTTP_CONTENT_TOO_LARGE,
		    "text/plain; charset=utf-8", "a request body is not "
		    "accepted here\n", NULL));
	*req = SERVE_PENDING;
	return (MHD_YES);
}

/*
 * libmicrohttpd up to 0.9.77 answers a request whose headers it refuses
 * itself (a Content-Length that is not a number, "-1" or "0x10"; HTTP/1.1
 * without Host) with its error's status line and headers twice.  Its log
 * says so before either is sent, and the request it means is the one
 * whose headers are read but not yet handed to hvtop, as the library
 * hands them over in the same turn as it reads them.  hvtop answers that
 * one once itself and closes it, so the library's text goes nowhere.
 */
static void
serve_log(void *cls, const char *fmt, va_list ap)
{
	static const char	 pre[] = "Error processing request (HTTP "
	    "response code is %u";
	struct serve		*s = cls;
	struct serve_conn	*c;
	unsigned		 status;

	if (strncmp(fmt, pre, sizeof pre - 1) != 0)
		return;
	status = va_arg(ap, unsigned);
	for (c = s->head; c != NULL; c = c->next) {
		if (c->dropped || c->busy ||
		    MHD_get_connection_info(c->conn,
		    MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE) == NULL)
			continue;
		if (status == MHD_HTTP_CONTENT_TOO_LARGE)
			serve_conn_refuse(s, c, status, "Content Too Large",
			    "the Content-Length is too large: a request body "
			    "is not accepted here\n");
		else
			serve_conn_refuse(s, c, MHD_HTTP_BAD_REQUEST,
			    "Bad Request", "a Content-Length that is not a "
			    "number, or HTTP/1.1 without Host\n");
	}
}

static void
serve_completed(void *cls, struct MHD_Connection *conn, void **req,
    enum MHD_RequestTerminationCode code)
{
	struct serve		*s = cls;
	struct serve_conn	*c;

	(void)code;
	if (!SERVE_MARK(*req))
		serve_pub_unref(*req);
	*req = NULL;
	/* Idle again: the deadline starts over for the next request. */
	if ((c = serve_conn_of(conn)) != NULL && !c->dropped) {
		c->busy = 0;
		c->kept = 1;
		c->since = clock_now(&s->lt);
		serve_conn_unlink(s, c);
		serve_conn_append(s, c);
	}
}

/*
 * A socket listening on the first address of host (NULL: every interface)
 * and port in family that can be bound; -1 with *err an errno, or with
 * *gai a getaddrinfo() error.
 */
static int
serve_bind(const char *host, const char *port, int family, int *err,
    int *gai)
{
	struct addrinfo		 hints, *res = NULL, *ai;
	int			 fd = -1, on = 1, off = 0;

	memset(&hints, 0, sizeof hints);
	hints.ai_family = family;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE;
	*err = 0;
	if ((*gai = getaddrinfo(host, port, &hints, &res)) != 0)
		return (-1);
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
		    ai->ai_protocol);
		if (fd == -1) {
			*err = errno;
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
		/* Every interface of both families: IPv4 as mapped. */
		if (host == NULL && ai->ai_family == AF_INET6)
			setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off,
			    sizeof off);
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 &&
		    listen(fd, SERVE_BACKLOG) == 0)
			break;
		*err = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	return (fd);
}

/* A listening socket on the address; -errno with the cause. */
static int
serve_listen(const struct serve_addr *a, int *fdp, char **url, char **cause)
{
	struct sockaddr_storage	 ss;
	socklen_t		 sl = sizeof ss;
	char			 port[8], name[INET6_ADDRSTRLEN];
	int			 fd, saved, gai;
	unsigned		 bound;

	snprintf(port, sizeof port, "%u", a->port);
	if (strcmp(a->host, "*") == 0) {
		/*
		 * Every interface: IPv6 and IPv4 on one socket, or IPv4
		 * alone where the system has no IPv6.
		 */
		fd = serve_bind(NULL, port, AF_INET6, &saved, &gai);
		if (fd == -1 && saved != EADDRINUSE && saved != EACCES)
			fd = serve_bind(NULL, port, AF_INET, &saved, &gai);
	} else
		fd = serve_bind(a->host, port, AF_UNSPEC, &saved, &gai);
	if (fd == -1 && gai != 0) {
		*cause = xasprintf("--serve %s: %s", a->host,
		    gai_strerror(gai));
		return (-EINVAL);
	}
	if (fd == -1) {
		*cause = xasprintf("--serve %s:%u: cannot listen: %s",
		    a->host, a->port, strerror(saved));
		return (-saved);
	}
	if (getsockname(fd, (struct sockaddr *)&ss, &sl) != 0) {
		saved = errno;
		close(fd);
		*cause = xasprintf("--serve %s:%u: %s", a->host, a->port,
		    strerror(saved));
		return (-saved);
	}
	if (ss.ss_family == AF_INET6) {
		inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&ss)->sin6_addr,
		    name, sizeof name);
		bound = ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
		*url = xasprintf("http://[%s]:%u/metrics", name, bound);
	} else {
		inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr,
		    name, sizeof name);
		bound = ntohs(((struct sockaddr_in *)&ss)->sin_port);
		*url = xasprintf("http://%s:%u/metrics", name, bound);
	}
	*fdp = fd;
	return (0);
}

int
serve_start(const struct serve_addr *a, const struct serve_info *info,
    struct serve **out, char **cause)
{
	return (serve_start_web(a, info, NULL, out, cause));
}

int
serve_start_web(const struct serve_addr *a, const struct serve_info *info,
    struct serve_web *web, struct serve **out, char **cause)
{
	int	 error;

	if ((error = serve_open_web(a, info, web, out, cause)) != 0)
		return (error);
	if ((error = serve_run(*out, cause)) != 0) {
		serve_stop(*out);
		*out = NULL;
	}
	return (error);
}

/* Start the library's daemon on the listening socket fd, for s. */
static struct MHD_Daemon *
serve_daemon(struct serve *s, int fd, const char *prio)
{
	/*
	 * The library's loop runs in a thread of hvtop's (epoll, driven
	 * from outside) so that the deadlines are checked between its
	 * turns, where every connection is the thread's alone.  Its own
	 * limit is above hvtop's by the connections dropped but not yet
	 * closed, so it never stops accepting.
	 */
	return (MHD_start_daemon(MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME |
	    MHD_USE_ERROR_LOG |
	    (s->tls ? MHD_USE_TLS : 0),
	    0, NULL, NULL, serve_access, s,
	    /* First, so that it is used for the options' own messages. */
	    MHD_OPTION_EXTERNAL_LOGGER, serve_log, s,
	    MHD_OPTION_HTTPS_MEM_KEY, s->tls ? s->web->key : NULL,
	    MHD_OPTION_HTTPS_MEM_CERT, s->tls ? s->web->cert : NULL,
	    MHD_OPTION_HTTPS_MEM_TRUST, s->tls ? s->web->ca : NULL,
	    MHD_OPTION_HTTPS_PRIORITIES, prio,
	    MHD_OPTION_LISTEN_SOCKET, (MHD_socket)fd,
	    MHD_OPTION_CONNECTION_LIMIT,
	    (unsigned)(SERVE_CONNECTIONS + SERVE_SLACK),
	    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)SERVE_KEEPALIVE,
	    MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)SERVE_HEADER_MEMORY,
	    MHD_OPTION_NOTIFY_COMPLETED, serve_completed, s,
	    MHD_OPTION_NOTIFY_CONNECTION, serve_notify, s,
	    MHD_OPTION_URI_LOG_CALLBACK, serve_target, s,
	    MHD_OPTION_END));
}

int
serve_open_web(const struct serve_addr *a, const struct serve_info *info,
    struct serve_web *web, struct serve **out, char **cause)
{
	struct om_info	 oi;
	struct serve	*s;
	char		*url, *prio = NULL;
	int		 fd = -1, error, tls;

	*out = NULL;
	if ((error = serve_web_ready(web, cause)) != 0)
		return (error);
	s = xcalloc(1, sizeof *s);
	s->wake[0] = s->wake[1] = -1;
	s->proc_start = -1;
	if ((error = serve_listen(a, &fd, &s->url, cause)) != 0) {
		free(s);
		serve_web_free(web);
		return (error);
	}
	tls = web != NULL && web->cert != NULL;
	s->tls = tls;
	if (tls) {
		url = xasprintf("https%s", s->url + 4);
		free(s->url);
		s->url = url;
	}
	s->web = web;
	prio = serve_tls_init(s, tls);
	s->pool = serve_auth_pool_new();
	pthread_mutex_init(&s->authlock, NULL);
	pthread_mutex_init(&s->lock, NULL);
	clock_init(&s->rt, 0, 0);
	clock_init(&s->lt, 0, 0);
	oi.source = info->source;
	oi.source_label = info->source_label;
	oi.timebase_hz = info->timebase_hz;
	oi.ident = info->ident;
	oi.lpar_self = info->lpar_self;
	oi.per_vcpu = info->per_vcpu;
	oi.caps = info->caps;
	s->om = om_new(&oi);
	serve_swap(s, om_page(s->om, NULL));
	s->mhd = serve_daemon(s, fd, prio);
	free(prio);
	if (s->mhd == NULL) {
		*cause = xasprintf("--serve %s:%u: the HTTP server did not "
		    "start%s", a->host, a->port, tls ? " (is the TLS key "
		    "the certificate's, both in PEM?)" : "");
		close(fd);
		serve_stop(s);
		return (-EIO);
	}
	if (pipe2(s->wake, O_CLOEXEC) != 0) {
		error = errno;
		*cause = xasprintf("--serve %s:%u: %s", a->host, a->port,
		    strerror(error));
		serve_stop(s);
		return (-error);
	}
	*out = s;
	return (0);
}

int
serve_run(struct serve *s, char **cause)
{
	sigset_t	 all, old;
	int		 error;

	if (s->running)
		return (0);
	/* Signals are for hvtop's other threads: the server's inherits a
	 * mask that blocks them all. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	error = pthread_create(&s->thread, NULL, serve_loop, s);
	if (error == 0 && (error = serve_auth_pool_start(s->pool)) != 0) {
		s->running = 1;
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		*cause = xasprintf("--serve: the threads that check "
		    "passwords: %s", strerror(error));
		return (-error);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (error != 0) {
		*cause = xasprintf("--serve: the server's thread: %s",
		    strerror(error));
		return (-error);
	}
	s->running = 1;
	return (0);
}

void
serve_stop(struct serve *s)
{
	if (s == NULL)
		return;
	if (s->running) {
		/* Nothing else writes this pipe, so one byte always fits. */
		ssize_t n = write(s->wake[1], "", 1);

		(void)n;
		pthread_join(s->thread, NULL);
	}
	/* No connection is left waiting for a hash; every request ends
	 * here, so no snapshot is in use afterwards. */
	serve_auth_pool_stop(s);
	if (s->mhd != NULL)
		MHD_stop_daemon(s->mhd);
	serve_auth_pool_free(s);
	if (s->wake[0] != -1) {
		close(s->wake[0]);
		close(s->wake[1]);
	}
	serve_pub_unref(s->cur);
	serve_pub_zfree(s->zs);
	om_free(s->om);
	pthread_mutex_destroy(&s->lock);
	serve_web_passed_clear(s);
	pthread_mutex_destroy(&s->authlock);
	serve_web_free(s->web);
	free(s->url);
	free(s);
}

const char *
serve_url(const struct serve *s)
{
	return (s->url);
}

void
serve_sample_begin(struct serve *s)
{
	if (s->begun)
		om_failed(s->om);
	s->begun = 1;
	s->begin = clock_now(&s->rt);
}

void
serve_publish(struct serve *s, const struct engine *e,
    const struct selection *sel, unsigned generation,
    uint64_t catalog_version, const struct raw_sample *rs,
    const struct engine_snapshot *snap, uint64_t wall_ns,
    const struct frame_caps *caps)
{
	struct om_snapshot	 smp;
	struct om_process	 proc;

	smp.engine = e;
	smp.sel = sel;
	smp.snap = snap;
	smp.rs = rs;
	smp.generation = generation;
	smp.catalog_version = catalog_version;
	smp.wall_ns = wall_ns;
	smp.duration_ns = s->begun ? clock_now(&s->rt) - s->begin : 0;
	smp.caps = caps;
	procstat_read(&proc, &s->proc_start);
	smp.process = &proc;
	s->begun = 0;
	serve_swap(s, om_page(s->om, &smp));
}
