/*
 * What the report's files share: the series a report keeps, which
 * report.c collects and report-html.c lays out.  Not for use outside
 * src/export.
 */
#ifndef HVTOP_REPORT_INT_H
#define HVTOP_REPORT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"

#define REPORT_NONE	((size_t)-1)
/* The partition charts: cycles/s, IPC, % off home chip, % remote. */
#define REPORT_NLPAR	4

/* One line of a chart: a row of a view, or the view's total. */
struct report_line {
	char		*label;		/* "chip 3", "total" */
	int		 total;		/* the view's total: not drawn */
	double		*v;		/* per sample; NaN: no value */
	size_t		 n;		/* samples written, the rest NaN */
	size_t		 cap;
};

struct report_chart {
	char		*term;		/* "chip" */
	char		*group;		/* the pick; a metric's events' */
	char		*name;
	char		*unit;
	int		 metric;	/* a metric, not an event's rate */
	size_t		 pick;		/* the order: the pick's place, */
	size_t		 breadth;	/* how many counters it reads */
	struct report_line *lines;	/* rows and the total, as met */
	size_t		 nlines;
};

struct report {
	char			*recording;	/* struct report_info's */
	char			*source;
	char			*frame;
	char			*catalog;
	char			*version;
	uint64_t		*t;		/* wall ns per sample */
	size_t			 nt, capt;
	struct report_chart	*charts;
	size_t			 ncharts;
	const struct engine	*e;
	/* Per bound view: [row * ncol + col] -> chart, and -> line;
	 * REPORT_NONE for a cell no chart shows. */
	size_t			**chart_of;
	size_t			**line_of;
	size_t			 nviews;
	/*
	 * The per-partition view's charts (engine-lpar.h's values): the
	 * view (REPORT_NONE without one), its cycles column, the charts
	 * and each row's line in them (row nrows the total).
	 */
	size_t			 lview;
	size_t			 lcyc;
	size_t			 lchart[REPORT_NLPAR];
	size_t			*lline;		/* [row * REPORT_NLPAR + m] */
	/* The gaps of a ring's window: the interval that marks each, and
	 * the replay's words for it. */
	size_t			*gap_at;
	char			**gap_text;
	size_t			 ngaps;
	/* The reader's lines when the recording is not whole. */
	char			**problems;
	size_t			 nproblems;
	int			 damaged;
};

#endif /* HVTOP_REPORT_INT_H */
