/*
 * What the outputs and the Partitions screen derive from the partition
 * views (ENG_VIEW_LPAR, ENG_VIEW_LPAR_VCPU): where a row's counts were
 * made, which event columns are core cycles and instructions, and from
 * them IPC and cycles in cores.  Pure: answers from a snapshot.
 *
 * A derived value is a number or a mark ("-" or "?", as
 * engine_cell_mark() gives them) with the reason a user is told; it is
 * never NaN.
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

struct engine_lpar_value {
	double		 value;		/* when ok */
	int		 ok;
	const char	*mark;		/* !ok: "-" or "?" */
	const char	*reason;	/* !ok: why, static; ok: NULL */
};

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
/* What v's IPC divides by, as its column is headed: "IPC-NI" (per
 * non-idle cycle, when they are read) or "IPC" (per core cycle). */
const char	*engine_lpar_ipc_label(const struct engine_view *v);
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
 * Of event column col in a row (nrows: the total) of a partition view:
 * the fraction (0..1) counted off the home chip, (D5 + D6) / (D3 + D4 +
 * D5 + D6), and on a remote node, D6 / (D3 + ... + D6).  Not ok when a
 * placement was not read or has no value, or the sum is 0.  Returns
 * out->ok.
 */
int		 engine_lpar_off_chip(const struct engine *,
		    const struct engine_snapshot *, size_t view, size_t row,
		    size_t col, struct engine_lpar_value *out);
int		 engine_lpar_remote(const struct engine *,
		    const struct engine_snapshot *, size_t view, size_t row,
		    size_t col, struct engine_lpar_value *out);
/* The fraction (0..1) of column col's sum counted in placement p. */
int		 engine_lpar_place_share(const struct engine *,
		    const struct engine_snapshot *, size_t view, size_t row,
		    size_t col, size_t p, struct engine_lpar_value *out);
/* The row's instructions per cycle, from its summed placements. */
int		 engine_lpar_ipc(const struct engine *,
		    const struct engine_snapshot *, size_t view, size_t row,
		    struct engine_lpar_value *out);
/*
 * The row's cycles per second in cores: cycles/s divided by the core
 * frequency, the constant ENG_LPAR_FREQ ("?" when it is not known).
 */
int		 engine_lpar_cores(const struct engine *,
		    const struct engine_snapshot *, size_t view, size_t row,
		    struct engine_lpar_value *out);

#endif /* HVTOP_ENGINE_LPAR_H */
