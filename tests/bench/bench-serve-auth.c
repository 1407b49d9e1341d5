/*
 * The metrics endpoint with Basic auth under a flood of wrong passwords:
 * a scraper whose password was accepted once (as Prometheus', sent again
 * every scrape) scrapes while FLOODERS clients, each from an address of
 * its own on loopback (127.0.0.2 on), send wrong passwords for its user
 * as fast as they are answered.  The user's hash is bcrypt of cost 10,
 * as htpasswd -B writes by default.  Prints the scraper's median and
 * worst latency alone and under the flood, how many scrapes got their
 * 200 under the flood, and what the flood was answered.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <netinet/in.h>

#include <arpa/inet.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_CRYPT
#include <crypt.h>
#endif

#include "serve/serve.h"
#include "tests/bench/bench.h"

#define FLOODERS	250
#define SCRAPES		50
#define COST		10

/* The flood's state, shared by its threads. */
struct flood {
	unsigned	 port;
	atomic_int	 stop;
	atomic_uint	 answers[6];	/* 200, 401, 429, 503, other, none */
};

struct flooder {
	struct flood	*f;
	unsigned	 n;		/* its address: 127.0.0.(2 + n) */
};

/*
 * One request from 127.0.0.1 + src with the credentials in auth (base64
 * of user:password); the HTTP status, or 0 without an answer.
 */
static int
request(unsigned port, unsigned src, const char *auth)
{
	struct sockaddr_in	 sin;
	struct timeval		 tv = { 30, 0 };
	char			 req[256], buf[4096], scratch[4096];
	size_t			 got = 0;
	ssize_t			 n;
	int			 fd, len, status = 0;

	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) == -1)
		return (0);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK + src);
	if (src != 0 && bind(fd, (struct sockaddr *)&sin, sizeof sin) != 0)
		goto out;
	sin.sin_port = htons((uint16_t)port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	len = snprintf(req, sizeof req, "GET /metrics HTTP/1.0\r\n"
	    "Authorization: Basic %s\r\n\r\n", auth);
	if (connect(fd, (struct sockaddr *)&sin, sizeof sin) != 0 ||
	    write(fd, req, (size_t)len) != len)
		goto out;
	/* The status line is in the first bytes; the rest is read, left. */
	while ((n = read(fd, got < 16 ? buf + got : scratch, got < 16 ?
	    sizeof buf - 1 - got : sizeof scratch)) > 0)
		got += got < 16 ? (size_t)n : 0;
	buf[got < 16 ? got : 16] = '\0';
	if (got >= 12 && strncmp(buf, "HTTP/1.", 7) == 0)
		status = atoi(buf + 9);
out:
	close(fd);
	return (status);
}

static void *
flooder(void *arg)
{
	struct flooder	*w = arg;
	int		 st, k;

	/* base64 of "prometheus:wrong" */
	while (!atomic_load(&w->f->stop)) {
		st = request(w->f->port, 1 + w->n, "cHJvbWV0aGV1czp3cm9uZw==");
		k = st == 200 ? 0 : st == 401 ? 1 : st == 429 ? 2 :
		    st == 503 ? 3 : st != 0 ? 4 : 5;
		atomic_fetch_add(&w->f->answers[k], 1);
	}
	return (NULL);
}

/* n scrapes with the right password: their latencies in ms, the 200s. */
static size_t
scrapes(unsigned port, double *ms, size_t n)
{
	uint64_t	 t0;
	size_t		 i, ok = 0;

	for (i = 0; i < n; i++) {
		t0 = bench_ns(CLOCK_MONOTONIC);
		/* base64 of "prometheus:s3cret" */
		if (request(port, 0, "cHJvbWV0aGV1czpzM2NyZXQ=") == 200)
			ok++;
		ms[i] = (double)(bench_ns(CLOCK_MONOTONIC) - t0) / 1e6;
	}
	return (ok);
}

static double
worst(const double *v, size_t n)
{
	double	 w = 0;
	size_t	 i;

	for (i = 0; i < n; i++)
		w = v[i] > w ? v[i] : w;
	return (w);
}

/* A web configuration with the user prometheus, password s3cret. */
static int
webcfg(char *path, size_t len, int cost)
{
#ifdef HAVE_CRYPT
	struct crypt_data	 cd;
	char			 salt[CRYPT_GENSALT_OUTPUT_SIZE];
	const char		*h;
	FILE			*fp;
	int			 fd;

	snprintf(path, len, "%s/hvtop-bench-XXXXXX", getenv("TMPDIR") !=
	    NULL ? getenv("TMPDIR") : "/tmp");
	memset(&cd, 0, sizeof cd);
	if (crypt_gensalt_rn("$2b$", (unsigned long)cost, NULL, 0, salt,
	    (int)sizeof salt) == NULL || (h = crypt_rn("s3cret", salt, &cd,
	    (int)sizeof cd)) == NULL || (fd = mkstemp(path)) == -1)
		return (-1);
	if ((fp = fdopen(fd, "w")) == NULL) {
		close(fd);
		return (-1);
	}
	fprintf(fp, "basic_auth_users:\n  prometheus: '%s'\n", h);
	return (fclose(fp) == 0 ? 0 : -1);
#else
	(void)path;
	(void)len;
	(void)cost;
	return (-1);
#endif
}

int
main(void)
{
	static struct flooder	 w[FLOODERS];
	static pthread_t	 t[FLOODERS];
	struct flood		 f;
	struct serve_info	 info;
	struct serve_addr	 addr;
	struct serve_web	*web;
	struct serve		*srv;
	double			 idle[SCRAPES], busy[SCRAPES];
	char			 path[256], *cause = NULL;
	size_t			 n = bench_iters(SCRAPES), ok, i;
	size_t			 nflood = bench_smoke() ? 8 : FLOODERS;
	int			 cost = bench_smoke() ? 4 : COST;

	memset(&info, 0, sizeof info);
	info.source = "sim";
	info.source_label = "bench";
	info.lpar_self = 0xffff;
	if (webcfg(path, sizeof path, cost) != 0) {
		fprintf(stderr, "bench-serve-auth: no bcrypt here (crypt(3))\n");
		return (BENCH_SKIP);
	}
	if (serve_web_load(path, &web, &cause) != 0 ||
	    serve_addr_parse("127.0.0.1:0", &addr, &cause) != 0 ||
	    serve_start_web(&addr, &info, web, &srv, &cause) != 0) {
		fprintf(stderr, "bench-serve-auth: %s\n", cause);
		unlink(path);
		return (1);
	}
	unlink(path);
	memset(&f, 0, sizeof f);
	if (sscanf(serve_url(srv), "http://127.0.0.1:%u", &f.port) != 1)
		return (1);
	/* The first scrape pays the hash; the rest are the remembered. */
	if (scrapes(f.port, idle, 1) != 1) {
		fprintf(stderr, "bench-serve-auth: the password is refused\n");
		return (1);
	}
	if (scrapes(f.port, idle, n) != n) {
		fprintf(stderr, "bench-serve-auth: a scrape failed\n");
		return (1);
	}
	for (i = 0; i < nflood; i++) {
		w[i].f = &f;
		w[i].n = (unsigned)i + 1;
		if (pthread_create(&t[i], NULL, flooder, &w[i]) != 0)
			return (1);
	}
	/* The flood under way: a first round of answers. */
	while (atomic_load(&f.answers[1]) + atomic_load(&f.answers[2]) +
	    atomic_load(&f.answers[3]) < nflood)
		usleep(10000);
	ok = scrapes(f.port, busy, n);
	atomic_store(&f.stop, 1);
	for (i = 0; i < nflood; i++)
		pthread_join(t[i], NULL);
	serve_stop(srv);

	printf("serve.auth.scrape.alone %.3f ms\n", bench_median(idle, n));
	printf("serve.auth.scrape.alone.worst %.3f ms\n", worst(idle, n));
	printf("serve.auth.scrape.flood%zu %.3f ms\n", nflood,
	    bench_median(busy, n));
	printf("serve.auth.scrape.flood%zu.worst %.3f ms\n", nflood,
	    worst(busy, n));
	printf("serve.auth.scrape.flood%zu.ok %zu of %zu\n", nflood, ok, n);
	printf("serve.auth.flood.401 %u count\n", atomic_load(&f.answers[1]));
	printf("serve.auth.flood.429 %u count\n", atomic_load(&f.answers[2]));
	printf("serve.auth.flood.503 %u count\n", atomic_load(&f.answers[3]));
	printf("serve.auth.flood.unanswered %u count\n",
	    atomic_load(&f.answers[5]));
	return (ok == n ? 0 : 1);
}
