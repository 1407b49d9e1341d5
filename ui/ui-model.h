/*
 * The terminal interface's model: which screen is shown, the lists and
 * their cursors, the filter, the picks, the latest snapshot and the value
 * history.  Shared by the curses-free parts (the live table, the catalog
 * lists, the renderers in view*.c) and the thin curses and readline layers
 * (crt.c, prompt.c, ui.c).  Nothing declared here needs curses.  Private
 * to ui/ (and its unit tests): the program calls ui/ui.h.
 */
#ifndef HVTOP_UI_MODEL_H
#define HVTOP_UI_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "export/export.h"
#include "model/frame-map.h"
#include "filter/filter.h"

struct engine_cell;
struct engine_snapshot;
struct engine_view;
struct lpar_key;
struct session;
struct settings;
struct strbuf;

enum ui_screen {
	UI_LIVE,
	UI_LPAR,		/* Partitions: a tab only while one is read */
	UI_FRAME,
	UI_EVENTS,
	UI_GROUPS,
	UI_FORMULAS,
	UI_HELP,
	UI_NSCREENS
};

/* Colour roles; crt.c maps them to attributes (colour or monochrome). */
enum ui_role {
	UI_R_NORMAL,
	UI_R_HEADER,		/* header lines */
	UI_R_SIM,		/* the SIMULATED tag */
	UI_R_TAB,
	UI_R_TAB_ON,
	UI_R_TITLE,		/* a table's title line */
	UI_R_COLHEAD,		/* column names and units */
	UI_R_SORTHEAD,		/* the sort column's name */
	UI_R_CURSOR,		/* the cursor row */
	UI_R_CELL,		/* the cursor cell */
	UI_R_TOTAL,
	UI_R_INVALID,		/* "-" and "?" */
	UI_R_ERROR,
	UI_R_WARN,
	UI_R_DIM,
	UI_R_SPARK,		/* sparkline levels '1'..'8' */
	UI_R_KEY,		/* a key in the function bar */
	UI_R_BAR,		/* the function bar */
	UI_R_PROMPT,
	UI_R_PICKED,
	UI_R_GOOD,
	UI_R_HEAT,		/* heat levels: UI_R_HEAT + 0 (cold) .. + 9 */
	UI_R_HEAT_LAST = UI_R_HEAT + FRAME_MAP_LEVELS - 1,
	UI_R_BRAILLE,		/* a chart's dot mask: U+2800 + the byte */
	UI_R_PLOT,		/* a chart's ASCII mark */
	UI_NROLES
};

/*
 * What the loop does after a key or a prompt's answer, besides the change
 * made to the model: a set of bits that ui.c acts on in one place.  The
 * screen is drawn again after every key whatever they say.
 */
#define UI_ACT_NONE	0x00U
#define UI_ACT_RELAYOUT	0x01U	/* the filter changed: lay the screens out */
#define UI_ACT_RESAMPLE	0x02U	/* take a sample now */
#define UI_ACT_PROMPT	0x04U	/* open the prompt ui.ask describes */
#define UI_ACT_REDRAW	0x08U	/* repaint the whole terminal */
#define UI_ACT_QUIT	0x10U
#define UI_ACT_SEEK	0x20U	/* jump in the replay: the loop takes the
				   samples (ui_run.seek says where) */

/* A scrollable list's position. */
struct ui_list {
	size_t		 cursor;	/* selectable row */
	size_t		 top;		/* first line shown */
	int		 sort;		/* column; -1 none */
	int		 reverse;
};

/* One entry of the Events, Groups or Formulas screen. */
struct ui_item {
	size_t		 index;		/* in the catalog, or the session's
					   metrics + n */
	const char	*name;
	const char	*desc;
	char		*lname;		/* lower-case copies for the filter */
	char		*ldesc;
	const char	*domain;	/* filter term: "chip", "core" ... */
	unsigned	 flags;		/* FILTER_FLAG_* */
	const char	**lgroups;	/* lower-case group names */
	size_t		 ngroups;
	uint64_t	 name_sig[FILTER_SIG_WORDS];	/* of lname */
	uint64_t	 desc_sig[FILTER_SIG_WORDS];	/* of ldesc */
};

struct ui_items {
	struct ui_item	*v;
	size_t		 n;
	size_t		*shown;		/* filtered and sorted positions */
	size_t		 nshown;
};

/* Per engine view: what the live table shows. */
struct live_view {
	size_t		*cols;		/* engine columns shown */
	/* Per shown column: where its name starts to differ from the
	 * other shown names', which a cut of the name keeps. */
	size_t		*keep;
	size_t		 ncols;
	size_t		*order;		/* engine rows, display order */
	size_t		 nrows;		/* without the total */
	char		**rowpicks;	/* per engine row: its groups */
	size_t		 npicks;	/* picks of this view's domain */
	char		*title;
	int		 sort;		/* engine column; -1 = by index */
	int		 reverse;
	size_t		 col;		/* cursor column: position in cols */
	size_t		 left;		/* first shown position in cols */
	int		 colmax;	/* widest value column drawn */
	int		 twoline;	/* names take two header lines */
	int		 groupcol;	/* rows read different groups */
	/* Value history per (row, column), the total row last. */
	double		*hist;
	size_t		 hcols;
	/* Per engine column: its prefix (export_unit_scales()) and the
	 * unit with it, from the snapshot shown. */
	int		*scale;
	char		(*unit)[EXPORT_UNIT_MAX];
};

/* Values kept per cell: over 4 minutes at the default interval of 1 s,
 * 128 columns of a braille chart (2 samples a column).  Fewer where the
 * cells are so many that this would pass LIVE_HIST_BUDGET values, but
 * never fewer than the sparklines show: live_reset() picks the depth. */
#define LIVE_HIST	256
#define LIVE_SPARK	32		/* the sparklines' width, at most */
#define LIVE_HIST_BUDGET (4UL << 20)	/* values: 32 MiB of doubles */
#define LIVE_NDOMAINS	10		/* slots: live_slot() */

/* A line of the live table. */
enum live_kind { LIVE_TITLE, LIVE_HEAD, LIVE_HEAD2, LIVE_UNIT, LIVE_ROW,
    LIVE_TOTAL, LIVE_BLANK };
struct live_line {
	uint8_t		 kind;
	uint32_t	 view;
	uint32_t	 row;		/* position in order; nrows: total */
};

struct live {
	struct live_view *v;
	size_t		 nv;
	struct live_line *lines;
	size_t		 nlines;
	size_t		 hdepth;	/* history: values per cell */
	size_t		 hhead;		/* history: next slot */
	size_t		 hcount;	/* history: values stored */
	double		 htime[LIVE_HIST];	/* seconds of each sample */
	/* Sort column by name per domain, kept across rebuilds. */
	char		*sortname[LIVE_NDOMAINS];
	int		 sortrev[LIVE_NDOMAINS];
	size_t		 cursor_view;	/* where the cursor was */
	size_t		 cursor_row;
	struct strbuf	*scratch;
	int		 stale;		/* to be laid out again, which only
					   the fit step does (view_fit()) */
};

/*
 * The Frame screen: the metric shown as heat (by name, kept across
 * rebuilds), the cursor (a chip, or a core in it), and what its fit step
 * found for the current engine and size: where the metric and the chip
 * bars are in the engine's views, the layout, the largest bar values.
 */
struct ui_frame {
	char		*metric;	/* chosen with m; NULL: the default */
	unsigned	 chip;		/* cursor: this chip ... */
	long		 core;		/* ... or this core; -1: the chip */
	int		 colors;	/* the terminal's: 0, 8 or 256 */
	/* Found by the fit step. */
	long		 mview;		/* the metric's view, -1: none */
	size_t		 mcol;
	int		 mcore;		/* a core metric (else a chip's) */
	long		 cview;		/* the core view, -1: none */
	long		 chview;	/* the chip view, -1: none */
	long		*core_row;	/* per core of the frame: its row */
	size_t		 ncore_row;
	long		*chip_row;	/* per chip: its row */
	size_t		 nchip_row;
	size_t		 bar_col[FRAME_MAP_BARS];	/* in the chip view */
	const char	*bar_label[FRAME_MAP_BARS];
	int		 nbars;
	double		 bar_max[FRAME_MAP_BARS];	/* largest seen */
	uint64_t	 bar_seq;	/* snapshot they were taken from */
	double		 lo, hi;	/* the heat scale */
	int		 y0;		/* where the map starts */
	struct frame_map map;
};

/*
 * The Partitions screen: a row per partition of the partition view, or,
 * with a partition open, a row per virtual processor of it.  The fit step
 * finds the views and the cycles and instructions columns and orders the
 * rows (filter, sort); the cursor follows its partition across a sort.
 */
enum lpar_col {
	LPAR_C_ID,		/* partition id, or vcpu in an open one */
	LPAR_C_VCPUS,		/* vcpus seen; an open one: home core */
	LPAR_C_CYC,		/* cycles/s */
	LPAR_C_CORES,		/* cycles / core frequency */
	LPAR_C_INST,		/* instructions/s */
	LPAR_C_IPC,
	LPAR_C_OFFCHIP,		/* % of cycles off the home chip */
	LPAR_C_REMOTE,		/* % of cycles on a remote node */
	LPAR_NCOLS
};

struct ui_lpar {
	long		 view;		/* ENG_VIEW_LPAR's, -1: none */
	long		 vview;		/* ENG_VIEW_LPAR_VCPU's, -1: none */
	size_t		 cyc;		/* event columns, ENG_NONE: none */
	size_t		 inst;
	size_t		*order;		/* rows shown, in display order */
	size_t		 nrows;
	size_t		 cap;
	struct lpar_key	*keys;		/* sort values, cap of them */
	int		 sort;		/* enum lpar_col */
	int		 reverse;
	size_t		 cursor;	/* position in order */
	size_t		 top;
	unsigned	 cur_index;	/* the cursor row's engine index */
	int		 cur_set;
	int		 opened;	/* a partition is open: */
	unsigned	 open;		/* ... this one */
	size_t		 list_cursor;	/* the list's, kept while open */
	size_t		 list_top;
	char		 why[200];	/* why it failed */
};

/* A pick the user made (or the command line, or the settings). */
struct ui_pick {
	int		 event;		/* -e rather than -g */
	char		*spec;
};

struct ui {
	struct session	*ses;		/* what is shown */
	enum ui_screen	 screen;
	enum ui_screen	 back;		/* where help returns */
	int		 help_tabbed;	/* help came by Tab, not h */
	struct ui_list	 list[UI_NSCREENS];
	struct ui_items	 items[UI_NSCREENS];	/* catalog screens only */
	int		 detail;	/* the detail pane is shown */
	size_t		 detail_top;	/* its first line shown */

	char		*filter_text;
	struct filter	*filter;
	char		*filter_error;

	struct engine_snapshot *snap;	/* latest with seq > 0, owned */
	struct live	 live;
	struct ui_frame	 fr;
	struct ui_lpar	 lp;

	struct ui_pick	*picks;		/* what the user chose */
	size_t		 npicks;
	struct ui_pick	*overview;	/* what setup chose without picks */
	size_t		 noverview;
	char		**hidden;	/* live columns hidden, by name */
	size_t		 nhidden;

	int		 paused;
	double		 interval;		/* seconds */
	double		 cpu_pct;	/* hvtop's own CPU use */
	double		 age;		/* seconds since the snapshot */
	char		 host[64];
	int		 simulated;
	/* Replaying a recording: where, how fast, and whether it is over. */
	int		 replay;
	uint64_t	 replay_pos;	/* samples played */
	uint64_t	 replay_total;
	uint64_t	 replay_wall;	/* ns since 1970 of the sample shown */
	double		 replay_speed;
	int		 replay_end;
	char		 msg[256];	/* status message */
	int		 msg_role;

	/* The prompt line, while one is open. */
	int		 prompt;
	const char	*prompt_label;
	const char	*prompt_text;
	int		 prompt_point;	/* cursor byte offset in text */
	char		 prompt_hint[160];
	/* The prompt asked for with UI_ACT_PROMPT. */
	int		 ask;		/* enum prompt_kind */
	char		 ask_label[256];
	char		*ask_init;	/* text to start with, or NULL */
	int		 ask_names;	/* Tab completes pick names only */

	int		 utf8;
	int		 chart;		/* enum chart_mode of the charts */
	int		 sparkcol;	/* the sparkline column is shown */
};

/* ---- live.c: the live table (no curses) ---------------------------- */

/* Rebuild for the current engine (after a reselect or reload). */
int	 live_slot(int domain);
int	 live_slot_domain(int slot);
/* A slot's name in the settings file: "chip", "core", "lpar_vcpu" ... */
const char *live_slot_name(int slot);
void	 live_reset(struct ui *);
/* Record a new snapshot (the one shown) in the history; take its prefixes. */
void	 live_push(struct ui *, const struct engine_snapshot *);
/*
 * Recompute columns (filter, hidden), row order (sort) and lines.  The
 * fit step does it (view_fit()) when live.stale says that a snapshot, a
 * key or a new engine changed what the table shows: nothing else lays
 * the table out.
 */
void	 live_layout(struct ui *);
void	 live_free(struct live *);
/* The cursor's line, view and engine row (nrows: total); -1 if none. */
int	 live_cursor(const struct ui *, size_t *view, size_t *row);
/* Move the cursor by n selectable rows (negative: up). */
void	 live_move(struct ui *, long n);
/* History of a cell, oldest first, NaN where missing; returns count. */
size_t	 live_history(const struct ui *, size_t view, size_t row,
	    size_t col, double *out, size_t max);
/*
 * The ages in seconds of the samples live_history() returns (the newest
 * is 0), oldest first; returns count.
 */
size_t	 live_ages(const struct ui *, double *out, size_t max);
/* Text of a cell value in width characters. */
void	 live_format(const struct ui *, size_t view, size_t row, size_t col,
	    int width, char *buf, size_t len, int *role);
/* Move the sort column of the cursor's view by dir (-1/+1). */
void	 live_sort_step(struct ui *, int dir);
const char *live_col_name(const struct ui *, size_t view, size_t col);
const char *live_col_unit(const struct ui *, size_t view, size_t col);
/*
 * The unit a column's values are shown in: its unit with the one prefix
 * of the column ("GB/s" for a column of MB/s that reaches 13.5k).
 */
const char *live_col_shown_unit(const struct ui *, size_t view, size_t col);
/* The thousands a column's values are divided by; -1: a unit that takes
 * no prefix (each value carries its own suffix). */
int	 live_col_scale(const struct ui *, size_t view, size_t col);

/*
 * What a view's rows are, for heads and messages: its domain's term, or
 * "lpar" and "lpar vcpu" for the partition views, whose row indices are
 * ids and "lpar << 16 | vcpu"; live_terms() appends the plural.
 */
const char *live_term(const struct engine_view *);
void	 live_terms(const struct engine_view *, struct strbuf *);
/* Row r in the index column: "3"; "self"; "   2    5" (lpar, vcpu). */
void	 live_row_label(const struct engine_view *, size_t r, char *buf,
	    size_t len);
/* Row r in a message: "chip 3", "lpar 2", "lpar 2 vcpu 5". */
void	 live_row_name(const struct engine_view *, size_t r, char *buf,
	    size_t len);

/*
 * Put the Live cursor on a row of a view (engine row; nrows: the total);
 * -1 when that row is not shown (filtered out).
 */
int	 live_goto(struct ui *, size_t view, size_t row);

/* ---- frame.c: the Frame screen's model (no curses) ----------------- */

/*
 * Find the metric, the bars and the rows in the current engine, the heat
 * scale and the largest bar values, and lay the boxes out in the rows
 * y0..y1 of a width; clamp the cursor.
 */
void	 frame_fit(struct ui *, int width, int y0, int y1);
/* A cell's value (view, row: -1 for none); -1 when it has none. */
int	 frame_value(const struct ui *, long view, long row, size_t col,
	    double *);
/* The value shown as heat on core n of chip (a chip metric: the
 * chip's); -1 when there is none. */
int	 frame_core_value(const struct ui *, unsigned core, unsigned chip,
	    double *);
/* Whether the heat metric is read on core n of chip at all: a core
 * whose group is not picked there has no value and no failure. */
int	 frame_core_picked(const struct ui *, unsigned core, unsigned chip);
/* The metric shown as heat and its unit ("" when none). */
const char *frame_metric_name(const struct ui *);
const char *frame_metric_unit(const struct ui *);
/* The unit of chip bar b ("" when none). */
const char *frame_bar_unit(const struct ui *, int b);

/* Use the metric named (NULL or "": the default); -1 when none is read
 * by that name on chips or cores. */
int	 frame_set_metric(struct ui *, const char *name);
/* The names m completes: the chip and core columns; allocated array of
 * allocated names (caller frees both). */
char	**frame_metric_names(const struct ui *, size_t *n);
/* Move the cursor: dx along the cores, dy by chips. */
void	 frame_move(struct ui *, int dx, int dy);
/* The Live row of the cursor's core or chip; -1 with a reason in buf. */
int	 frame_live_row(const struct ui *, size_t *view, size_t *row,
	    char *buf, size_t len);
void	 frame_free(struct ui_frame *);

/* ---- lpar.c: the Partitions screen's model (no curses) -------------- */

/* Find the views and columns, order the rows, clamp the cursor. */
void	 lpar_fit(struct ui *, int rows);
/* Whether a partition view is read. */
int	 lpar_read(const struct ui *);
/* Whether the Partitions screen has a tab: one is read, or it is shown. */
int	 lpar_shown(const struct ui *);
/*
 * A cell of the list (the open partition's vcpus when lp.opened):
 * 0 with *v, or -1 with *mark ("-", "?") when it has no value.
 */
int	 lpar_value(const struct ui *, size_t row, int col, double *v,
	    const char **mark);
/* The share of the cycles of placement p (0..3) of a row; -1: none. */
int	 lpar_place(const struct ui *, size_t row, size_t p, double *v);
/* Why a cell has no value, for a user; allocated or NULL. */
char	*lpar_explain(const struct ui *, size_t row, int col);
/* The engine row of the cursor; -1 when there is none. */
int	 lpar_cursor(const struct ui *, size_t *row);
void	 lpar_move(struct ui *, long n);
void	 lpar_sort_step(struct ui *, int dir);
void	 lpar_reverse(struct ui *);
/* Open the cursor's partition (-1: none); close it, the cursor kept. */
int	 lpar_open(struct ui *);
int	 lpar_close(struct ui *);
const char *lpar_col_name(const struct ui *, int col);
/* A column's name in the partitions' head, for the settings file. */
const char *lpar_sort_name(int col);
/* The core group read by partition when none is picked, or NULL. */
const char *lpar_default_group(const struct ui *);
/* The engine views changed: forget what the fit step found. */
void	 lpar_reset(struct ui *);
void	 lpar_free(struct ui_lpar *);

/* ---- view-catalog-items.c: the catalog lists (no curses) ---------- */

void	 view_catalog_items_build(struct ui *);
void	 view_catalog_items_free(struct ui *);
/* Filter and sort one screen's list again. */
void	 view_catalog_items_layout(struct ui *, enum ui_screen);
/* Update the picked flags from the selection. */
void	 view_catalog_items_mark_picked(struct ui *);
int	 view_catalog_items_ncols(enum ui_screen);
const char *view_catalog_items_col_name(enum ui_screen, int);
/* The item under the cursor, or NULL. */
const struct ui_item *view_catalog_items_cursor(const struct ui *,
	    enum ui_screen);
/* Where a group or event is picked ("chip 0-1, 4"); allocated or NULL. */
char	*view_catalog_items_picked_where(const struct ui *, const char *name,
	    int event);
/* Compact index list: "0-3,8". Allocated. */
char	*view_catalog_items_indices(const unsigned *, size_t);

#endif /* HVTOP_UI_MODEL_H */
