/*
 * Batch output: engine snapshots rendered as text (like top -b), CSV with
 * a header naming every column and its unit, or JSON lines.  The names
 * and units are those of the terminal screens.  Rendering appends to a
 * string buffer; writing it out is the caller's business.
 *
 * One row per (domain, index) and one total row per domain.  The columns
 * are the union, over all views, of event rates (unit "/s") and metrics
 * (their own unit); a cell that does not apply to a row is empty.  A value
 * that is invalid, stale or not computable is empty in CSV, null in JSON
 * and "-" (or "?" for a metric) in text, never a made-up number, and the
 * reason is given beside it: a CSV "reason" column, a JSON "reasons"
 * object, a text line under the table.
 *
 * A CSV file has one schema: the columns of its header.  When the engine
 * changes (a catalog reload, a replay following a new selection) its
 * columns are mapped onto those by name and unit, and seq keeps counting.
 */
#ifndef HVTOP_EXPORT_H
#define HVTOP_EXPORT_H

#include <stddef.h>
#include <stdint.h>

struct engine;
struct engine_cell;
struct engine_snapshot;
struct strbuf;

enum export_format {
	EXPORT_TEXT,
	EXPORT_CSV,
	EXPORT_JSON,
};

/* What the header line of every interval says about the run. */
struct export_info {
	const char	*source;	/* "SIMULATED ...", "perf hv_24x7" */
	const char	*catalog;	/* "power9 v1 (built ...)" */
	const char	*calls;		/* "hcalls", "group reads" */
	/*
	 * The frame's MODEL*SERIAL ("9080-M9S*21A1B2C"), or NULL when the
	 * source does not know it: then no output names a frame.  Text
	 * puts it after the source, CSV in a last column "frame" (decided
	 * with the header, for the whole file), JSON as a "frame" member
	 * after "source".
	 */
	const char	*frame;
};

struct export;

/* format from a name ("text", "csv", "json") or a file suffix; -1 if none */
int		 export_format_parse(const char *);
int		 export_format_from_path(const char *);

struct export	*export_new(int format, const struct engine *,
		    const struct export_info *);
void		 export_free(struct export *);
/*
 * Go on with a new engine (the old one may be gone): same output, same
 * CSV columns, seq going on from the last interval written.
 */
void		 export_rebind(struct export *, const struct engine *,
		    const struct export_info *);
/*
 * Lines ("NAME has no value: reason") for the metrics of this interval
 * without a value whose reason the run has not given yet (a few at
 * most), for stderr when the output goes elsewhere.
 */
void		 export_news(struct export *, const struct engine_snapshot *,
		    struct strbuf *);
/* What the next interval will say about the change, or NULL. */
const char	*export_note(const struct export *);

/*
 * A run that ends with a summary (counting over a command): CSV has a
 * "summary" column after seq, and JSON a "summary" member, false for
 * each interval and true for what export_summary() writes, so that a
 * reader who averages the intervals leaves the summary out.  Call
 * before anything is written.  Text says so in its own heading.
 */
void		 export_with_summary(struct export *);
/* The run's summary, written as export_snapshot() writes an interval. */
void		 export_summary(struct export *, const struct engine_snapshot *,
		    uint64_t wall_ns, struct strbuf *);

/* Text that starts the output (the CSV header line); may append nothing. */
void		 export_begin(struct export *, struct strbuf *);
/* One interval, stamped with wall-clock time wall_ns (ns since 1970). */
void		 export_snapshot(struct export *, const struct engine_snapshot *,
		    uint64_t wall_ns, struct strbuf *);

/*
 * Which rows of a view read column col: those whose cell is not
 * ENG_ABSENT (a group that was not picked on an index leaves its columns
 * absent there, and a total covers only the rows that read them).
 * Returns the number of rows that do not; then *off is set to them and
 * *on to the others, as "chip 0" or "chips 0-3,6" ("" for none),
 * allocated.  Returns 0 and sets nothing when every row reads it.
 */
size_t		 export_cover(const struct engine *,
		    const struct engine_snapshot *, size_t view, size_t col,
		    char **off, char **on);
/*
 * Why a cell has no value because of the picks, or what its total
 * covers (allocated): "not picked on chip 0", "total of chip 1 only,
 * not picked on chip 0"; NULL when every row reads the column.
 */
char		*export_cover_note(const struct engine *,
		    const struct engine_snapshot *, size_t view, size_t row,
		    size_t col);

/*
 * One decimal prefix for a column whose largest magnitude is max: writes
 * the scaled unit ("MB/s" with max 10.2e3 gives "GB/s", "/s" gives "k/s")
 * to out and returns the number of thousands to divide by, or -1 for a
 * unit that takes no prefix (then each value carries its own suffix).
 */
int		 export_unit_scale(double max, const char *unit, char *out,
		    size_t outlen);
/* Room for a unit with its prefix in the functions below. */
#define EXPORT_UNIT_MAX	64
/*
 * export_unit_scale() for the n columns of one table, whose units are
 * unit[i] and largest magnitudes max[i] (0 when none has a value): the
 * columns of one unit family (MB/s and GB/s are both B/s) share the
 * prefix of the largest among them, so that they read side by side; a
 * column whose values would all read below 1 under it keeps its own.
 * Writes scale[i] and out[i] as export_unit_scale() does.  It parses the
 * units on every call: a table drawn again and again keeps them parsed
 * (export_units_new()).
 */
void		 export_unit_scales(size_t n, const char *const *unit,
		    const double *max, int *scale,
		    char (*out)[EXPORT_UNIT_MAX]);
/*
 * The units of a table's n columns, parsed once: each one's prefix, the
 * unit without it and its family, so that export_units_scale() or
 * export_view_scales() chooses the prefixes of an interval without
 * allocating or comparing a name.  The caller owns it and frees it with
 * export_units_free(); unit is copied.
 */
struct export_units;
struct export_units	*export_units_new(size_t n, const char *const *unit);
void		 export_units_free(struct export_units *);
/* export_unit_scales() for the units of u. */
void		 export_units_scale(const struct export_units *,
		    const double *max, int *scale,
		    char (*out)[EXPORT_UNIT_MAX]);
/*
 * One value with its unit, the prefix chosen for the value so that at
 * most three digits come before the point ("6.02 GB/s" for 6020 MB/s,
 * "45.2 %"); sep goes between the number and the unit.
 */
void		 export_value_unit(double, const char *unit, const char *sep,
		    struct strbuf *);
/*
 * A value in a column scaled by export_unit_scale() (no prefix letter:
 * the unit line has it), or with scale -1 in its own prefix ("1815M"),
 * as numfmt_si() spells it; right-aligned in width chars.
 */
void		 export_scaled(double, int scale, int width, struct strbuf *);
/* A cell's value as export_scaled() writes it, "~" before an estimate. */
void		 export_cell_scaled(const struct engine_cell *, int scale,
		    int width, struct strbuf *);
/*
 * export_units_scale() for the columns of a view, whose units u has (one
 * per column, in order): each column's largest magnitude among its rows
 * and total in s (none when s is NULL).  scale and out hold one entry
 * per column.  Allocates nothing: what it works on is u's.
 */
void		 export_view_scales(const struct engine *,
		    const struct engine_snapshot *, size_t view,
		    struct export_units *, int *scale,
		    char (*out)[EXPORT_UNIT_MAX]);
/*
 * The same for a screen that refreshes, so that a column's prefix holds
 * from one interval to the next: a prefix leaves at most three digits
 * before the point, and held (the scales taken last, -1: none; it may be
 * scale itself) is kept while the column's largest value reads from 0.1
 * to 9999 in it.
 */
void		 export_view_scales_held(const struct engine *,
		    const struct engine_snapshot *, size_t view,
		    struct export_units *, const int *held, int *scale,
		    char (*out)[EXPORT_UNIT_MAX]);
/* The shortest decimal that reads back as the same double ("null" if
 * not finite), always with a point or exponent. */
void		 export_number(double, struct strbuf *);

#endif /* HVTOP_EXPORT_H */
