/*
 * The metrics endpoint: what hvtop measured, offered to Prometheus over
 * HTTP while the sampler runs (hvtop --serve ADDR:PORT).
 *
 * The text is the OpenMetrics exposition (export/om.h, pure);
 * the address and --web-config are parsed in src/config.  The server
 * (serve-http.c) runs libmicrohttpd in a thread of its own and answers
 * every scrape from the last frame published: a scrape never waits for
 * the sampler, never reaches the source and never causes a hypervisor
 * call.  The sampler only swaps a pointer under a mutex when it
 * publishes.
 *
 * The names, types, units and labels are listed in docs/OPENMETRICS.md.
 */
#ifndef HVTOP_SERVE_H
#define HVTOP_SERVE_H

#include <stddef.h>
#include <stdint.h>

#include "config/serve-addr.h"
#include "config/serve-webcfg.h"
#include "model/frame-ident.h"

struct engine;
struct engine_snapshot;
struct raw_sample;
struct selection;

/* What stays the same for a run. */
struct serve_info {
	const char	*source;	/* "sim", "perf", "replay" */
	const char	*source_label;	/* the header line's description */
	uint64_t	 timebase_hz;	/* 0 when unknown */
	struct frame_ident ident;	/* the frame and this partition */
	unsigned	 lpar_self;	/* its id, 0xffff when unknown */
	int		 per_vcpu;	/* --serve-vcpus */
	struct frame_caps caps;		/* what it sees at the start */
};

/* ---- the server (serve-http.c) ------------------------------------- */

struct serve;

/*
 * Listen on addr and serve /metrics from a thread that runs libmicrohttpd.
 * Returns 0 with *out set (stop it with serve_stop()), or -errno with
 * *cause set (caller frees) saying which address could not be used.
 */
int		 serve_start(const struct serve_addr *,
		    const struct serve_info *, struct serve **out,
		    char **cause);
void		 serve_stop(struct serve *);

/* --web-config FILE as read: the parsed file and the PEM it names. */
struct serve_web {
	struct serve_webcfg	*cfg;
	char			*cert;	/* NUL-terminated PEM; NULL: */
	char			*key;	/* plain HTTP */
	char			*ca;	/* client_ca_file's PEM, or NULL */
	char			*pem_error;	/* why a PEM is unreadable */
	char			 dummy[61];	/* an unknown user's bcrypt */
};

/*
 * Read FILE and the TLS files it names (relative to FILE's directory).
 * Returns 0, or a negative code with *cause naming the file and where.
 */
int		 serve_web_load(const char *path, struct serve_web **,
		    char **cause);
void		 serve_web_free(struct serve_web *);
/* serve_start() with TLS and Basic auth as web says (it is taken). */
int		 serve_start_web(const struct serve_addr *,
		    const struct serve_info *, struct serve_web *,
		    struct serve **out, char **cause);
/*
 * serve_start_web() in two steps: listen (a port below 1024 needs root),
 * then start the server's thread, which takes the ids, capabilities and
 * no_new_privs of the thread that starts it, as they are then.  Until
 * serve_run(), connections wait in the socket's backlog.  serve_run()
 * on a running server does nothing; serve_stop() takes either.
 */
int		 serve_open_web(const struct serve_addr *,
		    const struct serve_info *, struct serve_web *,
		    struct serve **out, char **cause);
int		 serve_run(struct serve *, char **cause);
/*
 * Use the users and headers of a web configuration read again (it is
 * taken).  TLS cannot be turned on or off, nor its files or settings
 * changed, while listening: such a change is refused, and the old
 * configuration kept, with *cause.  A TLS file hvtop may no longer read
 * (a key only root reads, after --user) is taken to be the one in use
 * when its name and every TLS setting are unchanged.
 */
int		 serve_web_reload(struct serve *, struct serve_web *,
		    char **cause);
/* "http://127.0.0.1:9724/metrics", with the port actually bound. */
const char	*serve_url(const struct serve *);
/* The sampler starts a refresh: the clock for its duration starts. */
void		 serve_sample_begin(struct serve *);
/*
 * The sampler made a snapshot: copy it into a frame and make it the one
 * scrapes see.  The sample's duration is measured from the last
 * serve_sample_begin(); a begin without a publish was a failed sample.
 */
void		 serve_publish(struct serve *, const struct engine *,
		    const struct selection *, unsigned generation,
		    uint64_t catalog_version, const struct raw_sample *,
		    const struct engine_snapshot *, uint64_t wall_ns,
		    const struct frame_caps *caps);

#endif /* HVTOP_SERVE_H */
