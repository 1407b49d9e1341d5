/*
 * What the export's files share: the export itself, bound to an engine,
 * and the answers every format gives alike (a cell's value, why it has
 * none).  Not for use outside src/export.
 */
#ifndef HVTOP_EXPORT_INT_H
#define HVTOP_EXPORT_INT_H

#include <stddef.h>
#include <stdint.h>

#include "engine/engine.h"
#include "engine/engine-lpar.h"
#include "export/export.h"
#include "util/htab.h"
#include "util/strbuf.h"

struct export_column {
	char		*name;		/* owned: engines come and go */
	char		*unit;
	char		*group;		/* perf's MetricGroup, or NULL */
	int		 width;		/* in text output */
};

#define EXPORT_TEXT_WIDTH	10	/* narrowest text column */
#define EXPORT_NONE		((size_t)-1)

/*
 * What the picks leave out of a column: which rows it reads comes from
 * the selection alone, so it is worked out once per engine.
 */
struct export_cover {
	char		*off;		/* rows not read, or NULL: all are */
	char		*on;		/* the others, "" for none */
	char		*note;		/* the total's: export_cover_note() */
};

/* What the export works out once per view of the engine it is bound to. */
struct export_view {
	char			**rownote;	/* "not picked on chip 0" */
	size_t			 nrownote;
	struct export_cover	*cover;		/* per column */
	size_t			 ncover;
	/*
	 * Whether cover holds whatever the sample: a metric that reads a
	 * picked event before one not picked has the status of the first
	 * when that fails, so then each interval works its cover out.
	 */
	int			 fixed;
	char			*covertext;	/* text: its "blank" lines */
	/* Text: its columns' units, and each interval's prefixes. */
	struct export_units	*units;
	int			*scale;
	char			(*unit)[EXPORT_UNIT_MAX];
};

struct export {
	int			 format;
	const struct engine	*e;
	struct export_info	 info;
	struct export_column	*cols;		/* union over the views */
	size_t			 ncols;
	size_t			 capcols;
	struct htab		 hash;		/* (name, unit) -> cols */
	size_t			**map;		/* [view][col] -> cols or NONE */
	struct export_view	*views;		/* [view] */
	size_t			 nmap;		/* views when made */
	int			 begun;
	uint64_t		 seq_base;	/* seq of the engines before */
	uint64_t		 last_seq;	/* the last seq written */
	char			*note;		/* for the next interval */
	char			**said;		/* export_news(): said already */
	size_t			 nsaid;
	double			*vals;		/* a CSV row's values, */
	uint8_t			*has;		/* kept from one interval
						   to the next */
	size_t			 nvals;
	int			 lpar_csv;	/* the CSV header has the
						   partition columns */
	int			 frame_csv;	/* ... and the frame's */
	int			 with_summary;	/* export_with_summary() */
	int			 summary;	/* ... and this is it */
};

/* export.c */
int	 export_value(const struct engine_cell *, double *);
char	*export_reason(const struct export *, const struct engine_snapshot *,
	    size_t view, size_t row, size_t col);
int	 export_reason_picks(const struct export *,
	    const struct engine_snapshot *, size_t view, size_t row,
	    size_t col, struct strbuf *);
void	 export_error(const struct export *, const struct engine_snapshot *,
	    struct strbuf *);

/* export-csv.c */
void	 export_csv_header(struct export *, struct strbuf *);
void	 export_csv(struct export *, const struct engine_snapshot *,
	    uint64_t seq, uint64_t wall_ns, struct strbuf *);

/* export-json.c */
void	 export_json(struct export *, const struct engine_snapshot *,
	    uint64_t seq, uint64_t wall_ns, struct strbuf *);

/* export-lpar.c: the partition views */
int	 export_is_lpar(const struct engine_view *);
/* A row's partition; its virtual processors (the total: all), 0 when
 * the view does not count them. */
unsigned export_lpar_of(const struct engine_view *, size_t row);
unsigned export_lpar_vcpus(const struct engine_view *, size_t row);
/* Why a placement's cell has no value, or that it is an estimate, into
 * *sb (reset first); returns whether there is anything to say. */
int	 export_place_reason(const struct engine_cell *, struct strbuf *);
void	 export_lpar_text(struct export *, const struct engine_snapshot *,
	    size_t view, struct strbuf *);
/*
 * The derived cell of row r of partition view i: value what (enum
 * engine_derived) of event column col and placement p where they apply.
 * A partition row's own (IPC, cores, the core cycles' shares off the
 * home chip and on a remote node) are the first EXPORT_LPAR_NDERIVED,
 * named by engine_derive_name() in CSV.  Never NULL.
 */
#define EXPORT_LPAR_NDERIVED	(ENG_DERIVE_REMOTE + 1)
const struct engine_cell *export_derived(const struct export *,
	    const struct engine_snapshot *, size_t view, size_t row, int what,
	    size_t col, size_t p);
/* Why shares of the partitions' view have no value: a line per reason. */
void	 export_lpar_text_reasons(const struct export *,
	    const struct engine_snapshot *, size_t view, struct strbuf *);

/* export-text.c */
/* A cell in text: blank when not picked, its mark, or its scaled value. */
void	 export_text_cell(const struct engine_cell *, int scale, int width,
	    struct strbuf *);
/* Whether reason is among the n said already. */
int	 export_said(const char *const *said, size_t n, const char *reason);
void	 export_text_bind(struct export *, size_t view);
void	 export_text_cover_lines(const struct export *, size_t view,
	    char *const *, char *const *, struct strbuf *);
void	 export_text(struct export *, const struct engine_snapshot *,
	    uint64_t wall_ns, struct strbuf *);

#endif /* HVTOP_EXPORT_INT_H */
