/*
 * om: the OpenMetrics exposition of hvtop's samples, the text the metrics
 * endpoint (src/serve) serves: each sample becomes a snapshot, a
 * self-contained copy of the values a scrape shows, and a snapshot is
 * rendered as OpenMetrics 1.0.0 or as the Prometheus text format 0.0.4.
 * Pure: no I/O, no clock; the server feeds it from its own thread.
 *
 * The names, types, units and labels are listed in docs/OPENMETRICS.md.
 */
#ifndef HVTOP_OM_H
#define HVTOP_OM_H

#include <stddef.h>
#include <stdint.h>

#include "model/frame-ident.h"

struct engine;
struct engine_snapshot;
struct raw_sample;
struct selection;
struct strbuf;

/*
 * How hvtop names a unit: the Prometheus base unit for the text of a
 * catalog or metric file ("MB/s" -> "bytes_per_second" with scale 1e6,
 * "%" -> "ratio" with scale 0.01), "" for none.  Allocated (caller frees).
 */
char	*om_name_unit(const char *unit, double *scale);
/*
 * A metric family name: "hvtop_metric_", the name in snake case, then the
 * unit; words that Prometheus' lint reads as a unit or a type are joined
 * to their neighbour.  Allocated (caller frees).
 */
char	*om_name_metric(const char *name, const char *unit);
/* Whether a family name is in Prometheus' form [a-zA-Z_:][a-zA-Z0-9_:]*. */
int	 om_name_valid(const char *);
/*
 * Append text from a catalog or a file, made safe for a label value or a
 * HELP line: valid UTF-8 only (other bytes as '?'), control characters as
 * spaces, backslash escaped, and the double quote too when quote is set.
 */
void	 om_name_escape(const char *, int quote, struct strbuf *);

enum om_format {
	OM_FMT_OPENMETRICS,	/* application/openmetrics-text 1.0.0 */
	OM_FMT_PROMETHEUS,	/* text/plain 0.0.4, what promtool reads */
	OM_NFORMATS
};

/* Why a counter has no value this time (hvtop_read_failures_total). */
enum om_reason {
	OM_R_FAILED,
	OM_R_DENIED,
	OM_R_MISSING,
	OM_R_BUSY,
	OM_R_BACKWARDS,
	OM_NREASONS
};

/* What stays the same for a run. */
struct om_info {
	const char	*source;	/* "sim", "perf", "replay" */
	const char	*source_label;	/* the header line's description */
	uint64_t	 timebase_hz;	/* 0 when unknown */
	struct frame_ident ident;	/* the frame and this partition */
	unsigned	 lpar_self;	/* its id, SEL_LPAR_SELF unknown */
	int		 per_vcpu;	/* partitions per virtual processor
					   (--serve-vcpus), not summed */
	struct frame_caps caps;		/* what it sees, at the start */
};

/* The process serving (process_* series); has: its values are known. */
struct om_process {
	int		 has;
	double		 cpu_seconds;
	double		 resident_bytes;
	double		 start_time;
	double		 open_fds;
	double		 max_fds;
};

/* One sample as hvtop_sample() made it; read, never kept. */
struct om_sample {
	const struct engine		*engine;
	const struct selection		*sel;
	const struct engine_snapshot	*snap;
	const struct raw_sample		*rs;
	unsigned			 generation;	/* engine rebuilds */
	uint64_t			 catalog_version;
	uint64_t			 wall_ns;	/* when it was taken */
	uint64_t			 duration_ns;	/* refresh time, or 0 */
	const struct frame_caps		*caps;		/* NULL: as before */
	const struct om_process		*process;	/* NULL: unknown */
};

struct om;
struct om_snapshot;

/*
 * The sampler's side: remembers what was published for each series so a
 * counter never goes backwards between scrapes, and the running totals of
 * the health counters.  Copies what it needs from info.  Caller frees.
 */
struct om		*om_new(const struct om_info *);
void			 om_free(struct om *);
/* A sample failed as a whole; counted in the next snapshot. */
void			 om_failed(struct om *);
/*
 * A snapshot for one sample: everything a scrape shows, copied, so the
 * engine may be rebuilt or freed afterwards.  With sample NULL, a snapshot
 * with the health metrics only (before the first sample).  The caller
 * owns the snapshot and frees it with om_snapshot_free(), from any thread.
 */
struct om_snapshot	*om_snapshot(struct om *,
			    const struct om_sample *);
void			 om_snapshot_free(struct om_snapshot *);
/* Append a snapshot in a format; nothing in a snapshot is changed. */
void			 om_render(const struct om_snapshot *, int format,
			    struct strbuf *);
/*
 * The same text in parts, for a reader that takes it a piece at a time
 * without the whole text in memory: where the last part ended (zero it
 * for the first).  Appends whole lines until sb has grown by at least
 * room bytes or the text is complete; returns 1 while there is more, 0
 * once complete.  The parts joined are exactly om_render()'s text.
 */
struct om_cursor {
	int	 part;
	int	 meta;		/* the part's (or family's) metadata is out */
	size_t	 i, j;
};
int			 om_render_part(const struct om_snapshot *,
			    int format, struct om_cursor *, struct strbuf *,
			    size_t room);

/*
 * The format an Accept header asks for, OM_FMT_PROMETHEUS without one or
 * when it names neither; -1 when it refuses both (q=0).  The quality of
 * the most specific range that matches each decides; OpenMetrics wins a
 * tie (Prometheus asks for it first; curl and browsers don't).
 */
int			 om_accept(const char *accept);
/*
 * Whether an Accept-Encoding header (NULL: none) lets the answer be
 * gzip: "gzip" (or "x-gzip") with a quality above 0, or "*" above 0
 * when gzip is not named.  RFC 9110, 12.5.3.
 */
int			 om_accept_gzip(const char *accept_encoding);
const char		*om_content_type(int format);

#endif /* HVTOP_OM_H */
