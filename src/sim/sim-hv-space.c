/*
 * The simulated hypervisor's counter space: for each domain class, every
 * 8-byte word of every group record (and of every record an event names)
 * at its catalog offset, with its role (an accumulator, timing fields of
 * the record's schema, or a hole), the workload component it follows
 * and its scale.  What a counter counts is guessed from its event name
 * (cycles, instructions, memory lines, fabric traffic), so derived
 * metrics come out plausible.  Built once, when the hypervisor is made.
 *
 * Pure: randomness comes from the seed.
 */
#include "config.h"

#include "sim/sim-hv-int.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "util/xalloc.h"

static uint8_t
sim_hv_class(unsigned catdom)
{
	return (catdom == CATALOG_DOMAIN_CHIP ? SIM_CLASS_CHIP :
	    SIM_CLASS_CORE);
}

/* A uniform number in [lo, hi) fixed for (class, word). */
static double
sim_hv_jitter(const struct sim_hv *hv, unsigned class, uint32_t word,
    double lo, double hi)
{
	uint64_t	 h = sim_workload_hash(hv->cfg.seed, 11, class, word);

	return (lo + (hi - lo) * ((double)(h >> 11) *
	    (1.0 / 9007199254740992.0)));
}

static int
sim_hv_has(const char *name, const char *what)
{
	return (strstr(name, what) != NULL);
}

/* Bytes per counted unit for memory and fabric events. */
static double
sim_hv_block(const char *name, double dflt)
{
	if (sim_hv_has(name, "BYTES"))
		return (1);
	if (sim_hv_has(name, "256B"))
		return (256);
	if (sim_hv_has(name, "128B"))
		return (128);
	if (sim_hv_has(name, "64B"))
		return (64);
	if (sim_hv_has(name, "32B"))
		return (32);
	return (dflt);
}

/*
 * The clock a chip counter's cycles are of, in cycles a timebase tick:
 * a link's or a host bridge's own (what XBUS_Freq, ABUS_Freq and
 * PHB_Freq declare, and what the catalogs' formulas divide by), else the
 * nest's (PB_Freq).
 */
static double
sim_hv_clock(const struct sim_hv *hv, const char *name)
{
	double	 hz = (double)hv->frame.nest_hz;

	if (sim_hv_has(name, "XLINK"))
		hz = SIM_XBUS_HZ;
	else if (sim_hv_has(name, "ALINK"))
		hz = SIM_ABUS_HZ;
	else if (sim_hv_has(name, "PHB"))
		hz = SIM_PHB_HZ;
	return (hz / (double)hv->frame.tb_hz);
}

/*
 * Cycles a count of a nest cycle counter stands for.  POWER9 and later
 * step them once per 256 cycles: perf scales POWER10's PM_PAU_CYC by
 * 2.56e-7 GHz a count per second.  POWER9's PM_PB_CYC steps once per
 * 250: its catalog's PowerBUS_Frequency and perf's scale are 2.5e-7 GHz
 * a count, so PB_Freq reads as what it is.
 */
static double
sim_hv_cycle_step(const struct sim_hv *hv, const char *name)
{
	if (hv->cfg.interface < 2)
		return (1);
	return (strcmp(name, "PM_PB_CYC") == 0 ? 250 : 256);
}

/* The cycles of a 24x7 nest clock, ticking with time or idle. */
static void
sim_hv_classify_nest_cycles(const struct sim_hv *hv, const char *name,
    struct sim_hv_word *w)
{
	double	 clock = sim_hv_clock(hv, name);

	w->comp = SIM_C_TIME;
	w->scale = clock;
	/* Idle link or unit cycles follow the chip's idle time (summed over
	 * its cores). */
	if (sim_hv_has(name, "IDL")) {
		w->comp = SIM_C_IDLE;
		w->scale = clock / (double)hv->frame.cores_per_chip;
	}
	w->scale /= sim_hv_cycle_step(hv, name);
}

/* A memory controller's reads or writes, in blocks. */
static void
sim_hv_classify_memory(const struct sim_hv *hv, unsigned class,
    uint32_t word, const char *name, struct sim_hv_word *w)
{
	double	 core = (double)hv->frame.core_hz / (double)hv->frame.tb_hz;

	w->comp = sim_hv_has(name, "WR") ? SIM_C_MEMWR : SIM_C_MEMRD;
	/* About a quarter each: 4 memory controllers. */
	w->scale = core * sim_hv_jitter(hv, class, word, 0.2, 0.3) /
	    sim_hv_block(name, 128);
	/*
	 * The 24x7 copies of the MCS dispatch counters step once per 128
	 * dispatches: perf scales them by 1.6e-2 MB a count, against
	 * 6.1e-5 MB (64 bytes) for the same events on the IMC PMU.
	 */
	if (sim_hv_has(name, "_DISP"))
		w->scale /= 128;
	/*
	 * POWER10's data block counters step once per 4096 blocks: perf
	 * scales a 128-byte read count by 0.524 MB and a 64-byte write count
	 * by 0.26 MB.
	 */
	if (sim_hv_has(name, "DATA_BLOCKS"))
		w->scale /= 4096;
}

/* Fabric, link, PCI and accelerator traffic, in transfers. */
static void
sim_hv_classify_fabric(const struct sim_hv *hv, unsigned class,
    uint32_t word, const char *name, struct sim_hv_word *w)
{
	double	 core = (double)hv->frame.core_hz / (double)hv->frame.tb_hz;

	w->comp = SIM_C_FABRIC;
	w->scale = core * sim_hv_jitter(hv, class, word, 0.1, 0.3) /
	    sim_hv_block(name, 32);
	/*
	 * POWER10's PCI transfer counters step once per 1024 32-byte
	 * transfers (perf: 3.28e-2 MB a count).
	 */
	if (sim_hv_has(name, "_32B_INOUT"))
		w->scale /= 1024;
	/*
	 * The internal PowerBus transfer counter steps once per 65536
	 * transfers on POWER9 and later (perf: 2.09 MB a count).
	 */
	if (hv->cfg.interface >= 2 && sim_hv_has(name, "PB_INT_DATA_XFER"))
		w->scale /= 65536;
}

/* A busy link's cycles: a share between lo and hi of its available ones. */
static void
sim_hv_classify_link(const struct sim_hv *hv, unsigned class, uint32_t word,
    const char *name, double lo, double hi, struct sim_hv_word *w)
{
	w->comp = SIM_C_BUSY;
	w->scale = sim_hv_clock(hv, name) /
	    (double)hv->frame.cores_per_chip *
	    sim_hv_jitter(hv, class, word, lo, hi) /
	    sim_hv_cycle_step(hv, name);
}

/* A chip's (nest) counter, by its name. */
static void
sim_hv_classify_chip(const struct sim_hv *hv, unsigned class, uint32_t word,
    const char *name, struct sim_hv_word *w)
{
	double	 core = (double)hv->frame.core_hz / (double)hv->frame.tb_hz;

	/*
	 * Link data cycles: a share of the link's busy cycles (UTIL), which
	 * are a share of its available cycles.  Link utilisation counts busy
	 * link cycles: it follows the chip's load, below the link's
	 * available cycles (a nest cycle counter).  POWER8's
	 * PM_XLINK0_OUT_DATA_CYC is such a share too, not the link's clock.
	 */
	if (sim_hv_has(name, "LINK") && sim_hv_has(name, "_DATA"))
		sim_hv_classify_link(hv, class, word, name, 0.05, 0.18, w);
	else if (sim_hv_has(name, "CYC"))
		sim_hv_classify_nest_cycles(hv, name, w);
	else if (sim_hv_has(name, "MCS") || sim_hv_has(name, "MEM") ||
	    sim_hv_has(name, "MBA") || sim_hv_has(name, "DRAM") ||
	    sim_hv_has(name, "_RD") || sim_hv_has(name, "_WR") ||
	    sim_hv_has(name, "READ") || sim_hv_has(name, "WRITE"))
		sim_hv_classify_memory(hv, class, word, name, w);
	else if (sim_hv_has(name, "UTIL"))
		sim_hv_classify_link(hv, class, word, name, 0.2, 0.45, w);
	else if (sim_hv_has(name, "RTY")) {
		/* Retries are a small share of the pumps they retry: at
		 * most a tenth of the fewest. */
		w->comp = SIM_C_FABRIC;
		w->scale = core * 0.1 / 32 * sim_hv_jitter(hv, class, word,
		    0.005, 0.1);
	} else if (sim_hv_has(name, "PB") || sim_hv_has(name, "LINK") ||
	    sim_hv_has(name, "PCI") || sim_hv_has(name, "NX") ||
	    sim_hv_has(name, "CAPP") || sim_hv_has(name, "FABRIC") ||
	    sim_hv_has(name, "DATA") || sim_hv_has(name, "XFER"))
		sim_hv_classify_fabric(hv, class, word, name, w);
	else
		w->scale = core * sim_hv_jitter(hv, class, word, 0.001, 0.02);
}

/* A core's (or thread's) counter, by its name. */
static void
sim_hv_classify_core(const struct sim_hv *hv, unsigned class, uint32_t word,
    const char *name, struct sim_hv_word *w)
{
	double	 core = (double)hv->frame.core_hz / (double)hv->frame.tb_hz;

	if (sim_hv_has(name, "32MHZ")) {
		/* The 32 MHz time-calibration clock: all of it, or the
		 * share of it the core spent busy in kernel or user mode. */
		w->comp = SIM_C_TIME;
		w->scale = 32e6 / (double)hv->frame.tb_hz;
		if (sim_hv_has(name, "KERNEL") || sim_hv_has(name, "USER")) {
			w->comp = SIM_C_BUSY;
			w->scale *= sim_hv_has(name, "KERNEL") ? 0.25 : 0.75;
		}
	} else if (sim_hv_has(name, "CYC") || sim_hv_has(name, "PURR")) {
		if ((sim_hv_has(name, "IDLE") && !sim_hv_has(name,
		    "NON_IDLE")) || sim_hv_has(name, "0THRD"))
			w->comp = SIM_C_IDLE;
		else if (sim_hv_has(name, "NON_IDLE") ||
		    sim_hv_has(name, "PCYC") || sim_hv_has(name, "PURR") ||
		    sim_hv_has(name, "BUSY") || sim_hv_has(name, "RUN"))
			w->comp = SIM_C_BUSY;
		else
			w->comp = SIM_C_TIME;
		w->scale = core;
	} else if (sim_hv_has(name, "INST")) {
		w->scale = core;
	} else if (sim_hv_has(name, "CMPL") || sim_hv_has(name, "DISP") ||
	    sim_hv_has(name, "FIN")) {
		w->scale = core * sim_hv_jitter(hv, class, word, 0.5, 1.0);
	} else if (sim_hv_has(name, "FROM_MEM") ||
	    sim_hv_has(name, "FROM_L4") || sim_hv_has(name, "FROM_DMEM") ||
	    sim_hv_has(name, "FROM_RMEM")) {
		w->comp = SIM_C_MEMRD;
		w->scale = core * sim_hv_jitter(hv, class, word, 0.3, 1.0) /
		    sim_hv_block(name, 128);
	} else if (sim_hv_has(name, "MISS") || sim_hv_has(name, "RELOAD") ||
	    sim_hv_has(name, "FROM_")) {
		w->scale = core * sim_hv_jitter(hv, class, word, 0.002, 0.05);
	} else
		w->scale = core * sim_hv_jitter(hv, class, word, 0.01, 0.3);
}

/*
 * What a counter counts, from its event name (NULL for a word no event
 * names), as a component and a scale from component units (timebase
 * ticks of activity) to counts.
 */
static void
sim_hv_classify(const struct sim_hv *hv, unsigned class, uint32_t word,
    const char *name, struct sim_hv_word *w)
{
	double	 core = (double)hv->frame.core_hz / (double)hv->frame.tb_hz;

	w->role = SIM_WORD_COUNTER;
	w->comp = SIM_C_INST;
	if (name == NULL)
		w->scale = core * sim_hv_jitter(hv, class, word, 0.01, 0.2);
	else if (class == SIM_CLASS_CHIP)
		sim_hv_classify_chip(hv, class, word, name, w);
	else
		sim_hv_classify_core(hv, class, word, name, w);
}

/* Grow a class's space to hold end bytes. */
static void
sim_hv_grow(struct sim_hv_space *sp, uint32_t end)
{
	uint32_t	 n = (end + 7) / 8;

	if (n <= sp->nwords)
		return;
	sp->w = xreallocarray(sp->w, n, sizeof *sp->w);
	memset(sp->w + sp->nwords, 0, (n - sp->nwords) * sizeof *sp->w);
	sp->nwords = n;
}

/* Lay one record into its class's space, shaped by schema (or -1). */
static void
sim_hv_record(struct sim_hv *hv, const struct catalog *cat, unsigned class,
    uint32_t off, uint32_t len, int schema)
{
	struct sim_hv_space		*sp = &hv->space[class];
	const struct catalog_schema	*s;
	const struct catalog_schema_field *f;
	struct sim_hv_word		*w;
	uint32_t			 i, at, end;
	size_t				 k;

	/* Records start on words; a ragged end still covers its word. */
	off -= off % 8;
	end = off + len;
	sim_hv_grow(sp, end);
	for (i = off / 8; i < (end + 7) / 8; i++) {
		if (sp->w[i].role == SIM_WORD_HOLE)
			sim_hv_classify(hv, class, i, NULL, &sp->w[i]);
	}
	if (schema < 0 || (size_t)schema >= cat->nschemas)
		return;
	s = &cat->schemas[schema];
	for (k = 0; k < s->nfields; k++) {
		f = &s->fields[k];
		if (f->field <= CATALOG_FIELD_COUNTER_MAX || f->length == 0)
			continue;
		at = off + f->offset;
		if (at >= end)
			continue;
		w = &sp->w[at / 8];
		if (w->role != SIM_WORD_FIELDS) {
			memset(w, 0, sizeof *w);
			w->role = SIM_WORD_FIELDS;
		}
		if (w->nfields == SIM_HV_WORD_FIELDS)
			continue;
		w->f[w->nfields].field = f->field;
		w->f[w->nfields].off = (uint8_t)(at % 8);
		w->f[w->nfields].len = (uint8_t)(f->length < 8 - at % 8 ?
		    f->length : 8 - at % 8);
		w->nfields++;
	}
}

/* The schema of a group record at (class, off), else of one as long. */
static int
sim_hv_schema(const struct catalog *cat, unsigned class, uint32_t off,
    uint32_t len)
{
	const struct catalog_group	*g;
	size_t				 i;
	int				 same_len = -1;

	for (i = 0; i < cat->ngroups; i++) {
		g = &cat->groups[i];
		if (sim_hv_class(g->domain) != class ||
		    g->schema >= cat->nschemas)
			continue;
		if (g->record_offset == off)
			return (g->schema);
		if (same_len < 0 && g->record_length == len)
			same_len = g->schema;
	}
	return (same_len);
}

void
sim_hv_space_build(struct sim_hv *hv, const struct catalog *cat)
{
	const struct catalog_group	*g;
	const struct catalog_event	*ev;
	struct sim_hv_space		*sp;
	struct sim_hv_word		*w;
	uint32_t			 at;
	unsigned			 class;
	size_t				 i;

	for (i = 0; i < cat->ngroups; i++) {
		g = &cat->groups[i];
		if (g->record_length == 0)
			continue;
		sim_hv_record(hv, cat, sim_hv_class(g->domain),
		    g->record_offset, g->record_length,
		    g->schema < cat->nschemas ? g->schema : -1);
	}
	for (i = 0; i < cat->nevents; i++) {
		ev = &cat->events[i];
		if (ev->record_length == 0)
			continue;
		class = sim_hv_class(ev->domain);
		sp = &hv->space[class];
		at = ev->record_offset;
		/* Records no group names still get a schema if one fits. */
		if (at / 8 >= sp->nwords || sp->w[at / 8].role == SIM_WORD_HOLE)
			sim_hv_record(hv, cat, class, ev->record_offset,
			    ev->record_length, sim_hv_schema(cat, class,
			    ev->record_offset, ev->record_length));
	}
	/* Name each event's word after it. */
	for (i = 0; i < cat->nevents; i++) {
		ev = &cat->events[i];
		if (ev->record_length == 0 || ev->name == NULL)
			continue;
		class = sim_hv_class(ev->domain);
		sp = &hv->space[class];
		at = (uint32_t)ev->record_offset + ev->counter_offset;
		if (at % 8 != 0 || at / 8 >= sp->nwords)
			continue;
		w = &sp->w[at / 8];
		if (w->role == SIM_WORD_COUNTER)
			sim_hv_classify(hv, class, at / 8, ev->name, w);
	}
}
