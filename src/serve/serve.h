/*
 * The metrics endpoint: what hvtop measured, offered to Prometheus over
 * HTTP while the sampler runs (hvtop --serve ADDR:PORT).
 *
 * Two halves.  The renderer (serve-om.c) turns each sample into a frame,
 * a self-contained copy of the values a scrape shows, and renders a frame
 * as OpenMetrics 1.0.0 or as the Prometheus text format 0.0.4; it does no
 * I/O and reads no clock.  The server (serve-http.c) runs libmicrohttpd
 * in a thread of its own and answers every scrape from the last frame
 * published: a scrape never waits for the sampler, never reaches the
 * source and never causes a hypervisor call.  The sampler only swaps a
 * pointer under a mutex when it publishes.
 *
 * The names, types, units and labels are listed in docs/METRICS.md.
 */
#ifndef HVTOP_SERVE_H
#define HVTOP_SERVE_H

#include <stddef.h>
#include <stdint.h>

struct engine;
struct engine_snapshot;
struct raw_sample;
struct selection;
struct strbuf;

/* ---- who may scrape (serve-webcfg.c, pure) -------------------------- */

#define SERVE_WEBCFG_MAXLEN	65536	/* bytes in a web configuration */
#define SERVE_WEBCFG_MAXUSERS	1024

struct serve_webuser {
	char		*name;
	char		*hash;		/* bcrypt, as crypt(3) checks it */
};

/* --web-config FILE: TLS when cert_file is set, Basic auth when there
 * are users. */
struct serve_webcfg {
	char			*cert_file;	/* as written: relative to */
	char			*key_file;	/* the file's directory */
	struct serve_webuser	*users;
	size_t			 nusers;
};

/*
 * Parse exporter-toolkit's web-config.yml, the subset hvtop uses:
 * tls_server_config (cert_file, key_file) and basic_auth_users (user:
 * bcrypt hash).  Anything else is refused.  Returns 0, or -HV_EFORMAT /
 * -HV_ELIMIT with *cause naming the line and column.
 */
int	 serve_webcfg_parse(const char *, size_t, struct serve_webcfg **,
	    char **cause);
void	 serve_webcfg_free(struct serve_webcfg *);

/* ---- the address (serve-addr.c) ------------------------------------ */
/* This part and the next are pure (libhvpure.a); the rest is core. */

#define SERVE_DEFAULT_HOST	"127.0.0.1"
#define SERVE_DEFAULT_PORT	9724

struct serve_addr {
	char		 host[256];	/* numeric or a name; no brackets */
	unsigned	 port;		/* 0: any free port */
};

/*
 * Parse "ADDR:PORT", "[IPV6]:PORT", ":PORT" or "PORT".  Without an
 * address the loopback address is used: listening elsewhere must be
 * asked for.  Returns 0, or -HV_EFORMAT / -HV_ERANGE with *cause set
 * (caller frees) naming the column at fault.
 */
int	 serve_addr_parse(const char *, struct serve_addr *, char **cause);

/* ---- names and text (serve-name.c) ---------------------------------- */

/*
 * How hvtop names a unit: the Prometheus base unit for the text of a
 * catalog or metric file ("MB/s" -> "bytes_per_second" with scale 1e6,
 * "%" -> "ratio" with scale 0.01), "" for none.  Allocated (caller frees).
 */
char	*serve_name_unit(const char *unit, double *scale);
/*
 * A metric family name: "hvtop_metric_", the name in snake case, then the
 * unit; words that Prometheus' lint reads as a unit or a type are joined
 * to their neighbour.  Allocated (caller frees).
 */
char	*serve_name_metric(const char *name, const char *unit);
/* Whether a family name is in Prometheus' form [a-zA-Z_:][a-zA-Z0-9_:]*. */
int	 serve_name_valid(const char *);
/*
 * Append text from a catalog or a file, made safe for a label value or a
 * HELP line: valid UTF-8 only (other bytes as '?'), control characters as
 * spaces, backslash escaped, and the double quote too when quote is set.
 */
void	 serve_name_escape(const char *, int quote, struct strbuf *);

/* ---- the renderer (serve-om.c) ------------------------------------- */

enum serve_format {
	SERVE_OPENMETRICS,	/* application/openmetrics-text 1.0.0 */
	SERVE_PROMETHEUS,	/* text/plain 0.0.4, what promtool reads */
	SERVE_NFORMATS
};

/* Why a counter has no value this time (hvtop_read_failures_total). */
enum serve_reason {
	SERVE_R_FAILED,
	SERVE_R_DENIED,
	SERVE_R_MISSING,
	SERVE_R_BUSY,
	SERVE_R_BACKWARDS,
	SERVE_NREASONS
};

/* What stays the same for a run. */
struct serve_info {
	const char	*source;	/* "sim", "perf", "replay" */
	const char	*source_label;	/* the header line's description */
	uint64_t	 timebase_hz;	/* 0 when unknown */
};

/* One sample as hvtop_sample() made it; read, never kept. */
struct serve_sample {
	const struct engine		*engine;
	const struct selection		*sel;
	const struct engine_snapshot	*snap;
	const struct raw_sample		*rs;
	unsigned			 generation;	/* engine rebuilds */
	uint64_t			 catalog_version;
	uint64_t			 wall_ns;	/* when it was taken */
	uint64_t			 duration_ns;	/* refresh time, or 0 */
};

struct serve_om;
struct serve_frame;

/*
 * The sampler's side: remembers what was published for each series so a
 * counter never goes backwards between scrapes, and the running totals of
 * the health counters.  Copies what it needs from info.  Caller frees.
 */
struct serve_om		*serve_om_new(const struct serve_info *);
void			 serve_om_free(struct serve_om *);
/* A sample failed as a whole; counted in the next frame. */
void			 serve_om_failed(struct serve_om *);
/*
 * A frame for one sample: everything a scrape shows, copied, so the
 * engine may be rebuilt or freed afterwards.  With sample NULL, a frame
 * with the health metrics only (before the first sample).  The caller
 * owns the frame and frees it with serve_om_frame_free(), from any thread.
 */
struct serve_frame	*serve_om_frame(struct serve_om *,
			    const struct serve_sample *);
void			 serve_om_frame_free(struct serve_frame *);
/* Append a frame in a format; nothing in a frame is changed. */
void			 serve_om_render(const struct serve_frame *, int format,
			    struct strbuf *);

/*
 * The format an Accept header asks for, SERVE_PROMETHEUS without one or
 * when it names neither; -1 when it refuses both (q=0).  The quality of
 * the most specific range that matches each decides; OpenMetrics wins a
 * tie (Prometheus asks for it first; curl and browsers don't).
 */
int			 serve_om_accept(const char *accept);
const char		*serve_om_content_type(int format);

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
 * Use the users of a web configuration read again (it is taken).  TLS
 * cannot be turned on or off, nor its key changed, while listening: such
 * a change is refused, and the old configuration kept, with *cause.
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
		    const struct engine_snapshot *, uint64_t wall_ns);

#endif /* HVTOP_SERVE_H */
