/*
 * What the engine's files share: the engine itself, and the names of
 * columns, definitions and constants to indexes.  Not for use outside
 * src/engine.
 */
#ifndef HVTOP_ENGINE_INT_H
#define HVTOP_ENGINE_INT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/engine-lpar.h"
#include "model/raw.h"
#include "util/arena.h"
#include "util/htab.h"

/*
 * What a partition view derives reads (engine-derive.c), known once
 * the view is built: which columns, and whether its total would set
 * parts of rows that read different things against each other.
 */
struct engine_derive_view {
	struct engine_lpar_cols	 cols;
	size_t			 ipc_cycles;	/* what IPC divides by: the
						   non-idle cycles, or the
						   core cycles */
	int			 ipc_uneven;	/* some row reads one of those
						   and instructions, not
						   both */
	uint8_t			*uneven;	/* per event column: some row
						   reads some of its
						   placements, not all */
};

/* A column's placements in a row, as its shares read them. */
struct engine_derive_sum {
	double			 all;		/* their sum */
	uint8_t			 status;	/* the first's without a
						   value, else ENG_OK */
};

struct engine_const {
	char		*name;
	double		 value;
};

struct engine {
	const struct catalog	*cat;
	const struct selection	*sel;
	uint64_t		 tb_hz;

	struct engine_view	*views;
	size_t			 nviews;

	struct engine_const	*consts;
	size_t			 nconsts;
	size_t			 capconsts;
	double			*const_values;	/* formula env, by slot */
	struct htab		 constnames;	/* name -> slot */

	/* The metrics' names, units, texts and event columns. */
	struct arena		 mem;

	/* Per selection counter: the baseline. */
	uint64_t		*prev;
	uint64_t		*prev_tb;
	uint64_t		*prev_now;
	uint32_t		*state;		/* ENG_ST_* */
	/* Without record timebases: each counter's record and virtual
	 * processor (the first counter of each), and which of them moved
	 * in the sample being read (ENG_MOVED_*, engine-moved.c). */
	size_t			*rec;
	size_t			*vrec;
	uint8_t			*moved;
	uint64_t		 last_now;
	uint64_t		 seq;		/* of the next sample */
	int			 counting;	/* engine_count_whole() */

	/* Scratch for evaluation, sized for the widest view. */
	double			*scratch;
	double			*csecs;		/* each cell's seconds */
	double			*norm;		/* counts over the total's */
	double			*sums;
	uint8_t			*mixed;		/* per row: cells of several
						   spans */

	/* The partition views' indexes (ENG_NONE: none), and the seconds
	 * of the virtual processors' cells, made before the views' turn. */
	size_t			 lpar_view;
	size_t			 vcpu_view;
	double			*vcpu_csecs;
	double			 vcpu_tsecs;
	/* What the two derive: lpar_view's, then vcpu_view's. */
	struct engine_derive_view derive[2];
	struct engine_derive_sum *derive_sums;	/* per event column */
	size_t			 derive_hz;	/* ENG_LPAR_FREQ's slot */
};

/*
 * Names to indexes, built once: a formula's names are looked up in the
 * view's columns, the definitions and the constants, and a file may hold
 * 200,000 of each.  The first index added for a name stays.  Here: the
 * index of name, or ENG_NONE.
 */
static inline size_t
engine_names_get(const struct htab *t, const char *name)
{
	const struct htab_slot	*s;
	struct htab_probe	 p;

	htab_probe(t, htab_hash_str(name), HTAB_ALL, &p);
	while ((s = htab_next(&p)) != NULL)
		if (strcmp(s->key, name) == 0)
			return (s->val);
	return (ENG_NONE);
}

/* Adds name (which must outlive the table) unless it is there. */
static inline void
engine_names_add(struct htab *t, const char *name, size_t val)
{
	const struct htab_slot	*s;
	struct htab_probe	 p;

	htab_probe(t, htab_hash_str(name), HTAB_ALL, &p);
	while ((s = htab_next(&p)) != NULL)
		if (strcmp(s->key, name) == 0)
			return;
	htab_put(t, &p, name, (uint32_t)val);
}

/*
 * A counter's state, in one word as a refresh reads it 192,000 times:
 * whether it has a baseline, whether it was read at all (even failed),
 * and the sample its baseline was read in, modulo 2^30 (a span is the
 * difference of two, a few samples).
 */
#define ENG_ST_BASE		1U
#define ENG_ST_SEEN		2U
#define ENG_ST_SEQ(st)		((st) >> 2)
#define ENG_ST(seq)	((uint32_t)(seq) << 2 | ENG_ST_BASE | ENG_ST_SEEN)
#define ENG_ST_SEQ_MASK		0x3fffffffU

#define ENG_MOVED_RECORD	1U
#define ENG_MOVED_VCPU		2U

void	engine_moved_build(struct engine *);
void	engine_moved_free(struct engine *);
void	engine_moved_scan(struct engine *, const struct raw_sample *);

/*
 * Whether counter k, read the same as its baseline without a record
 * timebase, counted a real zero: its record was updated (another of its
 * counters moved), or it still reads 0 and its virtual processor's
 * records were.
 */
static inline int
engine_moved_zero(const struct engine *e, size_t k, uint64_t value)
{
	return ((e->moved[e->rec[k]] & ENG_MOVED_RECORD) ||
	    (value == 0 && (e->moved[e->vrec[k]] & ENG_MOVED_VCPU)));
}

/*
 * The one place where a delta is taken, and a counter's: inline, as a
 * refresh takes one per counter (192,000 for a large frame's
 * partitions) from engine-update.c and engine-lpar.c.
 */
static inline uint64_t
engine_delta_of(uint64_t prev, uint64_t cur, int *backwards)
{
	uint64_t	 d;

	d = cur - prev;		/* unsigned: modulo 2^64 */
	*backwards = d >= (UINT64_C(1) << 63);
	return (*backwards ? 0 : d);
}

/* A raw status as a cell's: raw_reason() decides, this renames. */
static inline uint8_t
engine_raw_status(uint8_t raw)
{
	static const uint8_t	 eng[RAW_NSTATUS] = {
		[RAW_OK] = ENG_OK,
		[RAW_FAILED] = ENG_FAILED,
		[RAW_DENIED] = ENG_DENIED,
		[RAW_MISSING] = ENG_MISSING,
		[RAW_BUSY] = ENG_BUSY,
		[RAW_SCALED] = ENG_OK,
	};

	/* The common case without a call. */
	if (raw == RAW_OK)
		return (ENG_OK);
	return (eng[raw_reason(raw)]);
}

/*
 * One counter: its delta, the seconds it covers, and its status.  A read
 * that failed (the hypervisor busy, the result short) has no value for
 * its interval but keeps the baseline: the accumulator went on counting,
 * so the next good read's delta covers both intervals, measured from the
 * last good read.  A backwards read drops the baseline, so the next good
 * read only starts a new one (ENG_RESTART: said as such, not as a first
 * sample).  A counter whose record was not updated keeps its baseline
 * too.  With record timebases, a rate is only ever computed between two
 * distinct updates of the record; never over the host clock.  *span is
 * the number of samples the delta covers, from its baseline's (1 for
 * one interval; more after reads that failed), so that a metric can
 * tell operands of one interval from those of another.
 */
static inline uint8_t
engine_counter(struct engine *e, size_t k, const struct raw_value *rv,
    uint64_t now, double *delta, double *secs, uint16_t *span)
{
	uint64_t	 d;
	uint32_t	 nseq, old = e->state[k];
	uint32_t	 cur = (uint32_t)(e->seq - 1) & ENG_ST_SEQ_MASK;
	int		 back;
	uint8_t		 st;

	*delta = *secs = 0;
	*span = 0;
	e->state[k] = old | ENG_ST_SEEN;
	if ((st = engine_raw_status(rv->status)) != ENG_OK)
		return (st);
	if (!(old & ENG_ST_BASE)) {
		e->prev[k] = rv->value;
		e->prev_tb[k] = rv->timebase;
		e->prev_now[k] = now;
		e->state[k] = ENG_ST(cur);
		return (old & ENG_ST_SEEN ? ENG_RESTART : ENG_NOBASE);
	}
	if (e->tb_hz != 0 && rv->timebase != 0 && e->prev_tb[k] != 0) {
		if (rv->timebase == e->prev_tb[k])
			return (ENG_STALE);
		if (rv->timebase < e->prev_tb[k]) {
			e->state[k] = ENG_ST_SEEN;
			return (ENG_BACKWARDS);
		}
		*secs = (double)(rv->timebase - e->prev_tb[k]) /
		    (double)e->tb_hz;
	} else if (e->tb_hz != 0 && (rv->timebase != 0 ||
	    e->prev_tb[k] != 0 || (rv->value == e->prev[k] &&
	    !engine_moved_zero(e, k, rv->value)))) {
		/*
		 * A record timebase of 0 is a record the hypervisor has not
		 * updated yet.  Its first update (or a record that started
		 * over) only sets the baseline: what it counted before is
		 * over no known time.  A rate needs two distinct updates.
		 */
		if (rv->timebase != 0 || e->prev_tb[k] != 0) {
			e->prev[k] = rv->value;
			e->prev_tb[k] = rv->timebase;
			e->prev_now[k] = now;
			e->state[k] = ENG_ST(cur);
		}
		return (ENG_NOTYET);
	} else
		/* Counts that move with no timebase: the record has none,
		 * and the host clock is all there is. */
		*secs = (double)(now - e->prev_now[k]) / 1e9;
	d = engine_delta_of(e->prev[k], rv->value, &back);
	if (back) {
		e->state[k] = ENG_ST_SEEN;
		return (ENG_BACKWARDS);
	}
	e->prev[k] = rv->value;
	e->prev_tb[k] = rv->timebase;
	e->prev_now[k] = now;
	nseq = (cur - ENG_ST_SEQ(old)) & ENG_ST_SEQ_MASK;
	e->state[k] = ENG_ST(cur);
	if (*secs <= 0)
		return (ENG_STALE);
	*delta = (double)d;
	*span = nseq < UINT16_MAX ? (uint16_t)nseq : UINT16_MAX;
	return (ENG_OK);
}

/* Cell c rests on cell from: an estimate makes c one too. */
void	engine_estimate_from(struct engine_cell *, const struct engine_cell *);

/* qsort's order of unsigned ints. */
int	engine_cmp_unsigned(const void *, const void *);
/* Where index is, or would go, in v's sorted rows (nrows if past them). */
size_t	engine_row_of(const struct engine_view *, unsigned index);

/*
 * engine-lpar.c: the partition views, built after the others; their
 * cells in a snapshot (the placements' after the view's own); each
 * sample's event cells of the virtual processors' view, before any
 * view's turn, then of a partition view in its turn (returning the
 * total's seconds); their placements' totals.
 */
void	engine_lpar_build(struct engine *);
size_t	engine_lpar_ncells(const struct engine_view *);
void	engine_lpar_vcpu_events(struct engine *, struct engine_snapshot *,
	    const struct raw_sample *);
double	engine_lpar_events(struct engine *, struct engine_snapshot *,
	    size_t);
void	engine_lpar_place_totals(const struct engine *,
	    struct engine_snapshot *, size_t);

/*
 * engine-derive.c: the values a partition view derives, built after its
 * counters and computed row by row as the sums are made, the total's
 * after the totals; the reasons of those without a
 * value (ENG_NOVALUE), after enum formula_reason's, and their marks.
 */
enum engine_derive_why {
	ENG_DR_FIRST = 32,
	ENG_DR_NOCYCLES = ENG_DR_FIRST,
	ENG_DR_NOINSTS,
	ENG_DR_NOFREQ,
	ENG_DR_UNEVEN_IPC,
	ENG_DR_UNEVEN_PLACES,
	ENG_DR_PLACES,
	ENG_DR_NOTHING,
	ENG_DR_UNREAD,
	ENG_DR_NOTFINITE,
	ENG_DR_END
};
void	engine_derive_build(struct engine *);
void	engine_derive_free(struct engine *);
/* Row r's (nrows: the total's) derived cells of partition view i, as
 * soon as its sums and their placements' are made. */
void	engine_derive_row(struct engine *, struct engine_snapshot *, size_t,
	    size_t r);
/* "?" or "-" for a reason of enum engine_derive_why, else NULL. */
const char *engine_derive_mark(unsigned);

/* Where a partition view's derived cells start in its snapshot cells. */
static inline size_t
engine_derive_first(const struct engine_view *v)
{
	return ((v->nrows + 1) * (v->nevents + v->nmetrics) +
	    (v->nrows + 1) * v->nevents * v->nplaces);
}

/* The slot of constant name, added (with no value) when new. */
size_t	engine_const_slot(struct engine *, const char *);
/*
 * Compile the catalog's formulas and then defs into metrics of every view
 * that can compute them; what no view can goes to *skipped, if asked.
 */
void	engine_metric_build(struct engine *, const struct engine_metric_def *,
	    size_t, char ***, size_t *);

#endif /* HVTOP_ENGINE_INT_H */
