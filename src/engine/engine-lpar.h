/*
 * What the partition views (ENG_VIEW_LPAR, ENG_VIEW_LPAR_VCPU) hold
 * beside their sums: where a row's counts were made, which event
 * columns are core cycles and instructions, and the values the engine
 * derives from them each sample (IPC, cycles in cores, shares), cells
 * of the view's rows after its metrics.  Pure.
 *
 * A derived cell is a number, or no number with a status and the reason
 * a user is told (engine_derive_reason(), engine_explain()) and a mark
 * ("-" or "?", engine_cell_mark()); it is never NaN.
 */
#ifndef HVTOP_ENGINE_LPAR_H
#define HVTOP_ENGINE_LPAR_H

#include <stddef.h>

#include "engine/engine.h"

/* The constant giving the core frequency in Hz, for "cores". */
#define ENG_LPAR_FREQ	"CPU_Freq"

/* The placements, in the order of engine_place_cell()'s p. */
#define ENG_PLACE_HOME_CORE	0	/* domain 3 */
#define ENG_PLACE_HOME_CHIP	1	/* domain 4 */
#define ENG_PLACE_HOME_NODE	2	/* domain 5 */
#define ENG_PLACE_REMOTE_NODE	3	/* domain 6 */

/* The event columns of a partition view, ENG_NONE when it has none. */
struct engine_lpar_cols {
	size_t		 cycles;	/* core cycles (CPM_CCYC, PM_CYC ...) */
	size_t		 insts;		/* instructions (PM_INST_CMPL ...) */
	size_t		 nonidle;	/* non-idle cycles (CPM_NON_IDLE_PCYC) */
};

/* The placement's name: "home_core", "home_chip", "home_node",
 * "remote_node"; NULL past SEL_NPLACES. */
const char	*engine_place_name(size_t p);

/* Whether an event's name is one of core cycles, of instructions, of
 * non-idle cycles. */
int		 engine_lpar_is_cycles(const char *name);
int		 engine_lpar_is_insts(const char *name);
int		 engine_lpar_is_nonidle(const char *name);
/* v's cycles and instructions columns (the first of each). */
void		 engine_lpar_cols(const struct engine_view *v,
		    struct engine_lpar_cols *);

/* The index of the engine's view of domain (ENG_VIEW_LPAR or
 * ENG_VIEW_LPAR_VCPU ...), or ENG_NONE. */
size_t		 engine_view_find(const struct engine *, int domain);
/* The row of partition lpar in an ENG_VIEW_LPAR view, or ENG_NONE. */
size_t		 engine_lpar_row(const struct engine_view *, unsigned lpar);
/*
 * The rows of partition lpar's virtual processors in an
 * ENG_VIEW_LPAR_VCPU view: *first and *n (0 when it has none).
 */
void		 engine_lpar_vcpu_rows(const struct engine_view *,
		    unsigned lpar, size_t *first, size_t *n);

/*
 * What a partition view derives, in the order of its cells: a row's
 * values (one cell each), an event column's (one per event column), or
 * an event column's per placement (nplaces per event column).  Shares
 * are fractions (0..1) of the column's sum over the four placements;
 * the total row's are of the total's sums.  Computed in each sample
 * (engine-derive.c), with the constants as they are then.
 */
enum engine_derived {
	ENG_DERIVE_IPC,		/* row: instructions per cycle, per
				   non-idle cycle where those are read */
	ENG_DERIVE_CORES,	/* row: core cycles/s over ENG_LPAR_FREQ,
				   "?" while it is not known */
	ENG_DERIVE_OFF_CHIP,	/* row: the core cycles' share counted off
				   the home chip, (D5 + D6) / (D3 + ... +
				   D6); "?" when none are read */
	ENG_DERIVE_REMOTE,	/* row: theirs on a remote node, D6 / (D3 +
				   ... + D6) */
	ENG_DERIVE_EV_OFF_CHIP,	/* event column: its share off the home
				   chip */
	ENG_DERIVE_EV_REMOTE,	/* event column: its share on a remote
				   node */
	ENG_DERIVE_PLACE,	/* event column, placement: its share of
				   the column's sum */
	ENG_NDERIVED
};

/* The value's name: "ipc", "cores", "off_home_chip", "remote_node" (the
 * rows' and the event columns'), "share"; NULL past ENG_NDERIVED. */
const char	*engine_derive_name(int what);
/*
 * The column (for engine_cell() and engine_explain()) of derived value
 * what, of event column col and placement p where they apply (else
 * ignored), in v; ENG_NONE when v derives nothing or col or p is past
 * its columns.
 */
size_t		 engine_derive_col(const struct engine_view *v, int what,
		    size_t col, size_t p);
/* What v's IPC divides by, as its column is headed: "IPC-NI" (per
 * non-idle cycle, when they are read) or "IPC" (per core cycle). */
const char	*engine_derive_ipc_label(const struct engine_view *v);
/* Why derived cell c has no number, for a user: a constant string; NULL
 * when it has one. */
const char	*engine_derive_reason(const struct engine_cell *c);

#endif /* HVTOP_ENGINE_LPAR_H */
