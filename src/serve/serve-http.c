/*
 * The HTTP side of the metrics endpoint, on libmicrohttpd.  One thread of
 * the library's own answers every connection; hvtop's threads never wait
 * for it.  The sampler publishes a frame by swapping a pointer under a
 * mutex; a scrape takes a reference to the frame published last, renders
 * it once per format (later scrapes of the same frame reuse the text) and
 * sends it from memory.  Nothing here reads a counter or calls the
 * hypervisor.
 *
 * What a client can do is bounded: a few connections at once, a timeout
 * for idle ones, a small buffer for request headers, no request bodies,
 * only GET and HEAD, only / and /metrics.  A connection pins at most one
 * frame while it is being sent, so memory stays within the connection
 * limit times the size of one frame, however clients behave.
 *
 * The thread is libmicrohttpd's only one (no thread pool, no thread per
 * connection): the rendered text of a frame is written and read there
 * alone, which is why it needs no lock.
 */
#include "config.h"

#include "serve/serve.h"

#include <sys/types.h>
#include <sys/socket.h>

#include <netinet/in.h>

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <microhttpd.h>

#include "util/clock.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define SERVE_CONNECTIONS	16	/* at once; more are refused */
#define SERVE_TIMEOUT		10	/* seconds an idle connection lives */
#define SERVE_HEADER_MEMORY	(16 * 1024)	/* per connection */
#define SERVE_BACKLOG		32

/* A published frame and, made on demand, its text per format. */
struct serve_pub {
	atomic_uint		 refs;
	struct serve_frame	*frame;
	char			*text[SERVE_NFORMATS];
	size_t			 len[SERVE_NFORMATS];
};

struct serve {
	struct MHD_Daemon	*mhd;
	char			*url;
	pthread_mutex_t		 lock;
	struct serve_pub	*cur;		/* under lock */
	/* The sampler's alone: */
	struct serve_om		*om;
	struct hv_clock		 rt;
	uint64_t		 begin;
	int			 begun;
};

static const char serve_index[] =
    "<!DOCTYPE html>\n"
    "<html><head><meta charset=\"utf-8\"><title>hvtop</title></head>\n"
    "<body><h1>hvtop</h1>\n"
    "<p>IBM PowerVM 24x7 hypervisor counters for Prometheus: "
    "<a href=\"metrics\">/metrics</a>.</p>\n"
    "</body></html>\n";

static struct serve_pub *
serve_pub_ref(struct serve_pub *p)
{
	atomic_fetch_add(&p->refs, 1);
	return (p);
}

static void
serve_pub_unref(struct serve_pub *p)
{
	size_t	 i;

	if (p == NULL || atomic_fetch_sub(&p->refs, 1) != 1)
		return;
	for (i = 0; i < SERVE_NFORMATS; i++)
		free(p->text[i]);
	serve_om_frame_free(p->frame);
	free(p);
}

/* Make f the frame scrapes see; the old one lives while it is sent. */
static void
serve_swap(struct serve *s, struct serve_frame *f)
{
	struct serve_pub	*p, *old;

	p = xcalloc(1, sizeof *p);
	atomic_init(&p->refs, 1);
	p->frame = f;
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
	struct serve_pub	*p;
	struct strbuf		 sb = { 0 };
	enum MHD_Result		 ret;
	int			 fmt;

	fmt = serve_om_accept(MHD_lookup_connection_value(conn,
	    MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT));
	p = serve_current(s);
	if (p->text[fmt] == NULL) {
		serve_om_render(p->frame, fmt, &sb);
		p->len[fmt] = sb.len;
		p->text[fmt] = strbuf_detach(&sb);
	}
	r = MHD_create_response_from_buffer(p->len[fmt], p->text[fmt],
	    MHD_RESPMEM_PERSISTENT);
	if (r == NULL) {
		serve_pub_unref(p);
		return (MHD_NO);
	}
	/* The text is sent from the frame: it lives until the request ends
	 * (serve_completed() lets it go). */
	*req = p;
	MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
	    serve_om_content_type(fmt));
	MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
	MHD_add_response_header(r, MHD_HTTP_HEADER_VARY, "Accept");
	ret = MHD_queue_response(conn, MHD_HTTP_OK, r);
	MHD_destroy_response(r);
	return (ret);
}

static enum MHD_Result
serve_access(void *cls, struct MHD_Connection *conn, const char *url,
    const char *method, const char *version, const char *upload_data,
    size_t *upload_data_size, void **req)
{
	struct serve	*s = cls;

	(void)version;
	(void)upload_data;
	/*
	 * Everything is decided on the headers alone, before any body is
	 * read: a body is refused, not drained.
	 */
	if (*req != NULL || *upload_data_size != 0)
		return (MHD_NO);
	if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 &&
	    strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
		return (serve_reply(conn, MHD_HTTP_METHOD_NOT_ALLOWED,
		    "text/plain; charset=utf-8", "only GET and HEAD are "
		    "served here\n", "GET, HEAD"));
	if (serve_has_body(conn))
		return (serve_reply(conn, MHD_HTTP_CONTENT_TOO_LARGE,
		    "text/plain; charset=utf-8", "a request body is not "
		    "accepted here\n", NULL));
	if (strcmp(url, "/metrics") == 0)
		return (serve_metrics(s, conn, req));
	if (strcmp(url, "/") == 0)
		return (serve_reply(conn, MHD_HTTP_OK,
		    "text/html; charset=utf-8", serve_index, NULL));
	return (serve_reply(conn, MHD_HTTP_NOT_FOUND,
	    "text/plain; charset=utf-8", "not found: the metrics are at "
	    "/metrics\n", NULL));
}

static void
serve_completed(void *cls, struct MHD_Connection *conn, void **req,
    enum MHD_RequestTerminationCode code)
{
	(void)cls;
	(void)conn;
	(void)code;
	serve_pub_unref(*req);
	*req = NULL;
}

/* A listening socket on the address; -errno with the cause. */
static int
serve_listen(const struct serve_addr *a, int *fdp, char **url, char **cause)
{
	struct addrinfo		 hints, *res = NULL, *ai;
	struct sockaddr_storage	 ss;
	socklen_t		 sl = sizeof ss;
	const char		*host = a->host;
	char			 port[8], name[INET6_ADDRSTRLEN];
	int			 fd = -1, on = 1, error, saved = 0;
	unsigned		 bound;

	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE;
	if (strcmp(host, "*") == 0)
		host = NULL;		/* every interface, asked for */
	snprintf(port, sizeof port, "%u", a->port);
	if ((error = getaddrinfo(host, port, &hints, &res)) != 0) {
		*cause = xasprintf("--serve %s: %s", a->host,
		    gai_strerror(error));
		return (-EINVAL);
	}
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
		    ai->ai_protocol);
		if (fd == -1) {
			saved = errno;
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 &&
		    listen(fd, SERVE_BACKLOG) == 0)
			break;
		saved = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
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
	struct serve	*s;
	sigset_t	 all, old;
	int		 fd = -1, error;

	*out = NULL;
	s = xcalloc(1, sizeof *s);
	if ((error = serve_listen(a, &fd, &s->url, cause)) != 0) {
		free(s);
		return (error);
	}
	pthread_mutex_init(&s->lock, NULL);
	clock_init(&s->rt, 0, 0);
	s->om = serve_om_new(info);
	serve_swap(s, serve_om_frame(s->om, NULL));
	/* Signals are for hvtop's own threads: the library's inherits a
	 * mask that blocks them all. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	s->mhd = MHD_start_daemon(MHD_USE_AUTO_INTERNAL_THREAD,
	    0, NULL, NULL, serve_access, s,
	    MHD_OPTION_LISTEN_SOCKET, (MHD_socket)fd,
	    MHD_OPTION_CONNECTION_LIMIT, (unsigned)SERVE_CONNECTIONS,
	    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)SERVE_TIMEOUT,
	    MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)SERVE_HEADER_MEMORY,
	    MHD_OPTION_NOTIFY_COMPLETED, serve_completed, s,
	    MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (s->mhd == NULL) {
		*cause = xasprintf("--serve %s:%u: the HTTP server did not "
		    "start", a->host, a->port);
		close(fd);
		serve_stop(s);
		return (-EIO);
	}
	*out = s;
	return (0);
}

void
serve_stop(struct serve *s)
{
	if (s == NULL)
		return;
	/* Every request ends here, so no frame is in use afterwards. */
	if (s->mhd != NULL)
		MHD_stop_daemon(s->mhd);
	serve_pub_unref(s->cur);
	serve_om_free(s->om);
	pthread_mutex_destroy(&s->lock);
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
		serve_om_failed(s->om);
	s->begun = 1;
	s->begin = clock_now(&s->rt);
}

void
serve_publish(struct serve *s, const struct engine *e,
    const struct selection *sel, unsigned generation,
    uint64_t catalog_version, const struct raw_sample *rs,
    const struct engine_snapshot *snap, uint64_t wall_ns)
{
	struct serve_sample	 smp;

	smp.engine = e;
	smp.sel = sel;
	smp.snap = snap;
	smp.rs = rs;
	smp.generation = generation;
	smp.catalog_version = catalog_version;
	smp.wall_ns = wall_ns;
	smp.duration_ns = s->begun ? clock_now(&s->rt) - s->begin : 0;
	s->begun = 0;
	serve_swap(s, serve_om_frame(s->om, &smp));
}
