/*
 * A report of a run: every interval's values kept as time series, then
 * written as one self-contained HTML page (hvtop report).  The page holds
 * first, when the recording was not read to its end, a box that says so;
 * then the frame and the catalog the run came from, one chart per metric
 * (first, under the pick whose events it reads) and per event of each
 * picked group (one line per chip, core or virtual processor, a gap where
 * a value was missing) and a summary table (min, mean, p95, max per row,
 * in the text screen's form), in the same order.  An @lpar pick adds, first
 * among its metrics, a chart per partition metric (cycles/s, IPC, % of
 * the cycles off the home chip, % on a remote node) with a line per
 * partition; its virtual processors have no lines of their own.  The charting library
 * is handed in as text and inlined, so that the page needs no network.
 *
 * Pure: snapshots in, text out.  Catalog names and labels are untrusted:
 * they are escaped for HTML where they are text and for JavaScript where
 * they are data.
 */
#ifndef HVTOP_REPORT_H
#define HVTOP_REPORT_H

#include <stddef.h>
#include <stdint.h>

struct engine;
struct engine_snapshot;
struct selection;
struct strbuf;

/* What the page says about where the run came from; strings are copied. */
struct report_info {
	const char	*recording;	/* the file replayed */
	const char	*source;	/* the source's label: the frame */
	const char	*frame;		/* "4 chips, 48 cores, SMT 8" */
	const char	*catalog;	/* the catalog's label */
	const char	*version;	/* hvtop's */
};

/* A row of the summary: over the intervals that had a value. */
struct report_stats {
	size_t		 n;		/* intervals with a value */
	size_t		 missing;	/* intervals without one */
	double		 min, mean, p95, max;	/* NaN when n is 0 */
};

struct report;

struct report	*report_new(const struct report_info *);
void		 report_free(struct report *);
/*
 * Take the snapshots of this engine from now on (a new selection or
 * catalog).  Its columns join the charts of the same domain, group, name
 * and unit; new ones get charts of their own.  The engine and the
 * selection are only read during the call.
 */
void		 report_bind(struct report *, const struct engine *,
		    const struct selection *);
/* One interval of the bound engine, at wall-clock time wall_ns; the
 * first sample of an engine (seq 0, no rates yet) adds nothing. */
void		 report_add(struct report *, const struct engine_snapshot *,
		    uint64_t wall_ns);

/*
 * The recording could not be read to its end: the page says so at its
 * top, with this line of the reader's (where the file ends or what was
 * lost, at which byte offset).  damaged: parts were lost before the end,
 * or the replay stopped early, not only a file that ends before its
 * writer closed it.  Once per line; the line is copied.
 */
void		 report_incomplete(struct report *, int damaged,
		    const char *line);

size_t		 report_nsamples(const struct report *);
size_t		 report_ncharts(const struct report *);
/* Chart c's name and unit, and its lines ("chip 0" ..., and "total",
 * which is in the summary and not drawn). */
const char	*report_chart_name(const struct report *, size_t c);
const char	*report_chart_unit(const struct report *, size_t c);
size_t		 report_nlines(const struct report *, size_t c);
const char	*report_line_label(const struct report *, size_t c,
		    size_t line);
void		 report_stats(const struct report *, size_t c, size_t line,
		    struct report_stats *);

/*
 * The page, appended to sb.  js and css (may be empty) are the charting
 * library's script and style, inlined as they are; a script that could
 * end the page's <script> element early is refused: -HV_EFORMAT with
 * *cause set (caller frees).
 */
int		 report_html(const struct report *, const char *js,
		    size_t jslen, const char *css, size_t csslen,
		    struct strbuf *sb, char **cause);

#endif /* HVTOP_REPORT_H */
