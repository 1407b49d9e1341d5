/*
 * The simulated hypervisor: H_GET_24X7_CATALOG_PAGE and H_GET_24X7_DATA
 * over a simulated frame, as strict as a real hypervisor.  Every request
 * is checked before any result is written, and every refusal carries a
 * PAPR return code, a detailed_rc from the table in sim.h and the failing
 * request's index.
 *
 * The counter space of each domain and index is the catalog's: every
 * group record (and every record an event names) exists at its offset for
 * every chip, core and vcpu, laid out by the record's schema.  Counter
 * words hold 64-bit accumulators that change only at update ticks, like
 * the In-Memory Accumulators they model; each chip updates at its own
 * phase, with its cores.  The timing words of a record (timebase of the
 * last update, update count, measurement period, ...) are written where
 * the schema puts them.  What a counter counts is guessed from its event
 * name (cycles, instructions, memory lines, fabric traffic), so derived
 * metrics come out plausible.
 *
 * Pure: time is the tb argument of each call; randomness comes from the
 * seed.  Nothing here is shared between hypervisors.
 */
#include "config.h"

#include "sim/sim.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "util/be.h"
#include "util/hverr.h"
#include "util/xalloc.h"

#define SIM_CLASS_CHIP	1
#define SIM_CLASS_CORE	2
#define SIM_NCLASSES	3

enum sim_hv_role {
	SIM_W_HOLE,		/* not in the counter space */
	SIM_W_COUNTER,		/* an accumulator */
	SIM_W_FIELDS,		/* timing and status fields of the schema */
};

struct sim_hv_field {
	uint16_t	 field;		/* CATALOG_FIELD_* enum */
	uint8_t		 off;		/* byte in the word */
	uint8_t		 len;
};

#define SIM_HV_WORD_FIELDS 4

/* One 8-byte word of a domain class's counter space. */
struct sim_hv_word {
	uint8_t		 role;
	uint8_t		 comp;		/* enum sim_component */
	uint8_t		 nfields;
	struct sim_hv_field f[SIM_HV_WORD_FIELDS];
	double		 scale;		/* counts per component unit */
};

struct sim_hv_space {
	uint32_t	 nwords;
	struct sim_hv_word *w;
};

/* An entity's components at its latest update tick. */
struct sim_hv_cache {
	uint64_t	 tick;
	int		 valid;
	double		 c[SIM_NCOMPONENTS];
};

struct sim_hv {
	struct sim_config cfg;
	struct sim_frame frame;
	uint8_t		*image;
	size_t		 image_len;
	uint64_t	 pages;
	uint64_t	 version;
	struct sim_hv_space space[SIM_NCLASSES];
	struct sim_workload *wl;
	struct sim_part	*part;		/* the partitions' vcpus */
	uint64_t	 rng;
	uint64_t	 ncalls;
	uint64_t	 ndata;
	uint64_t	*phase;		/* per chip: update tick phase */
	uint32_t	*split;		/* per core: group 0's share / 65536 */
	struct sim_hv_cache *chipc;
	struct sim_hv_cache *corec;
	/* start=: components at the first data call, per chip and core. */
	int		 anchored;
	uint64_t	 tb0;
	struct sim_hv_cache *chipb;
	struct sim_hv_cache *coreb;
	hvsim_observer	*obs;
	void		*obsarg;
	uint64_t	 nobs;		/* values reported by this call */
	double		 vcomp[SIM_NCOMPONENTS]; /* the vcpu being filled */
};

/* One request, checked, with what it will return. */
struct sim_hv_req {
	struct hcall_request r;
	unsigned	 lpar0;		/* first partition */
	unsigned	 nlpars;
	unsigned	 ntg;		/* thread groups per index */
	size_t		 nelements;
};

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

	w->role = SIM_W_COUNTER;
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
		if (sp->w[i].role == SIM_W_HOLE)
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
		if (w->role != SIM_W_FIELDS) {
			memset(w, 0, sizeof *w);
			w->role = SIM_W_FIELDS;
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

static void
sim_hv_build(struct sim_hv *hv, const struct catalog *cat)
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
		if (at / 8 >= sp->nwords || sp->w[at / 8].role == SIM_W_HOLE)
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
		if (w->role == SIM_W_COUNTER)
			sim_hv_classify(hv, class, at / 8, ev->name, w);
	}
}

/*
 * Create a hypervisor.  See sim.h.
 */
int
sim_hv_new(const struct sim_config *cfg, const struct catalog *cat,
    const void *image, size_t image_len, struct sim_hv **out, char **cause)
{
	struct sim_hv	*hv;
	uint32_t	 npages;
	unsigned	 i;
	int		 error;

	*out = NULL;
	hv = xcalloc(1, sizeof *hv);
	hv->cfg = *cfg;
	if ((error = sim_frame_init(&hv->frame, cfg, cause)) != 0) {
		free(hv);
		return (error);
	}
	if (image != NULL && image_len > 0) {
		hv->image = xmalloc(image_len);
		memcpy(hv->image, image, image_len);
		hv->image_len = image_len;
		hv->pages = (image_len + HCALL_PAGE_SIZE - 1) / HCALL_PAGE_SIZE;
		/* Page 0 says how long the catalog is, and its version. */
		if (catalog_peek_pages(image, image_len, &npages) == 0 &&
		    npages != 0)
			hv->pages = npages;
		(void)catalog_peek_version(image, image_len, &hv->version);
	} else if (cat != NULL)
		hv->version = cat->version;
	if (cat != NULL)
		sim_hv_build(hv, cat);
	hv->wl = sim_workload_new(&hv->frame, cfg->seed, cfg->steady);
	hv->part = sim_part_new(&hv->frame, hv->wl);
	hv->rng = sim_workload_hash(cfg->seed, 12, 0, 0);
	hv->phase = xcalloc(hv->frame.nchips, sizeof *hv->phase);
	for (i = 0; i < hv->frame.nchips; i++)
		hv->phase[i] = sim_workload_hash(cfg->seed, 13, i, 0) %
		    hv->frame.update_tb;
	hv->split = xcalloc(hv->frame.ncores, sizeof *hv->split);
	for (i = 0; i < hv->frame.ncores; i++)
		hv->split[i] = 22938 + (uint32_t)(sim_workload_hash(cfg->seed,
		    14, i, 0) % 19661);	/* 35% to 65% */
	hv->chipc = xcalloc(hv->frame.nchips, sizeof *hv->chipc);
	hv->corec = xcalloc(hv->frame.ncores, sizeof *hv->corec);
	hv->chipb = xcalloc(hv->frame.nchips, sizeof *hv->chipb);
	hv->coreb = xcalloc(hv->frame.ncores, sizeof *hv->coreb);
	*out = hv;
	return (0);
}

void
sim_hv_free(struct sim_hv *hv)
{
	unsigned	 c;

	if (hv == NULL)
		return;
	for (c = 0; c < SIM_NCLASSES; c++)
		free(hv->space[c].w);
	sim_part_free(hv->part);
	sim_workload_free(hv->wl);
	free(hv->image);
	free(hv->phase);
	free(hv->split);
	free(hv->chipc);
	free(hv->corec);
	free(hv->chipb);
	free(hv->coreb);
	free(hv);
}

const struct sim_frame *
sim_hv_frame(const struct sim_hv *hv)
{
	return (&hv->frame);
}

uint64_t
sim_hv_catalog_version(const struct sim_hv *hv)
{
	return (hv->version);
}

int
sim_hv_privileged(const struct sim_hv *hv)
{
	return (!hv->cfg.faults.denied);
}

int
sim_hv_interface(const struct sim_hv *hv)
{
	return (hv->cfg.interface);
}

uint64_t
sim_hv_calls(const struct sim_hv *hv)
{
	return (hv->ncalls);
}

uint64_t
sim_hv_data_calls(const struct sim_hv *hv)
{
	return (hv->ndata);
}

/*
 * H_GET_24X7_CATALOG_PAGE.  See sim.h.
 */
long
sim_hv_catalog_page(struct sim_hv *hv, uint64_t version, uint64_t page,
    uint8_t *buf, size_t len)
{
	size_t	 off, n;

	hv->ncalls++;
	if (sim_fault_roll(&hv->rng, hv->cfg.faults.busy) &&
	    hv->ndata + 1 >= hv->cfg.faults.from)
		return (H_BUSY);
	if (len != HCALL_PAGE_SIZE)
		return (H_PARAMETER);
	if (hv->image == NULL)
		return (H_NOT_AVAILABLE);
	/* Page 0 tells the version; every later page must quote it. */
	if (page == 0 ? version != 0 : version != hv->version)
		return (H_P2);
	if (page >= hv->pages)
		return (H_P3);
	memset(buf, 0, len);
	off = (size_t)page * HCALL_PAGE_SIZE;
	if (off < hv->image_len) {
		n = hv->image_len - off;
		memcpy(buf, hv->image + off, n < len ? n : len);
	}
	if (page == 0)
		be64_put(buf + 8, hv->version);
	return (H_SUCCESS);
}

/* The last update tick of a chip at tb, and its timebase. */
static uint64_t
sim_hv_tick(const struct sim_hv *hv, unsigned chip, uint64_t tb,
    uint64_t *at)
{
	uint64_t	 u = hv->frame.update_tb, ph = hv->phase[chip], k;

	/* The frame ran for its uptime before hvtop's time 0. */
	tb = tb > UINT64_MAX - hv->frame.uptime_tb ? UINT64_MAX :
	    tb + hv->frame.uptime_tb;
	/* tb + ph cannot wrap for any tb a frame will see (2^64 ticks). */
	k = tb > UINT64_MAX - ph ? (UINT64_MAX - ph) / u : (tb + ph) / u;
	*at = k == 0 ? 0 : k * u - ph;
	return (k);
}

/* Components of a chip or core at its latest update. */
static const double *
sim_hv_components(struct sim_hv *hv, int chip_level, unsigned ix,
    uint64_t k, uint64_t at)
{
	struct sim_hv_cache	*c;

	c = chip_level ? &hv->chipc[ix] : &hv->corec[ix];
	if (!c->valid || c->tick != k) {
		if (chip_level)
			sim_workload_chip(hv->wl, ix, at, c->c);
		else
			sim_workload_core(hv->wl, ix, at, c->c);
		c->tick = k;
		c->valid = 1;
	}
	return (c->c);
}

/*
 * With start=, the components of a chip or core at its last update
 * before the first data call: what its counters count from.
 */
static const double *
sim_hv_base(struct sim_hv *hv, int chip_level, unsigned ix, unsigned chip)
{
	struct sim_hv_cache	*c;
	uint64_t		 at;

	c = chip_level ? &hv->chipb[ix] : &hv->coreb[ix];
	if (!c->valid) {
		c->tick = sim_hv_tick(hv, chip, hv->tb0, &at);
		if (chip_level)
			sim_workload_chip(hv->wl, ix, at, c->c);
		else
			sim_workload_core(hv->wl, ix, at, c->c);
		c->valid = 1;
	}
	return (c->c);
}

/* A non-negative double as a counter, wrapping at 2^64 like one. */
static uint64_t
sim_hv_u64(double x)
{
	const double	 two64 = 18446744073709551616.0;
	uint64_t	 q;

	if (!(x > 0))
		return (0);
	if (x >= two64) {
		q = (uint64_t)(x / two64);
		x -= (double)q * two64;
		if (x < 0 || x >= two64)
			return (0);
	}
	return ((uint64_t)x);
}

/* floor(v * num / 2^shift), exactly, without 128 bits. */
static uint64_t
sim_hv_share(uint64_t v, uint64_t num, unsigned shift)
{
	uint64_t	 mask = ((uint64_t)1 << shift) - 1;

	return ((v >> shift) * num + (((v & mask) * num) >> shift));
}

static uint64_t
sim_hv_field_value(const struct sim_hv *hv, unsigned field, uint64_t k,
    uint64_t at)
{
	uint64_t	 u = hv->frame.update_tb;

	switch (field) {
	case CATALOG_FIELD_TIMEBASE_UPDATE:
	case CATALOG_FIELD_TIMEBASE_FENCE:
	case 56:			/* Time-Of-Day as the update ended */
		return (at);
	case 55:			/* Time-Of-Day as the update began */
		return (at > u / 64 ? at - u / 64 : 0);
	case CATALOG_FIELD_UPDATE_COUNT:
		return (k);
	case CATALOG_FIELD_MEASUREMENT_PERIOD:
	case CATALOG_FIELD_LAST_UPDATE_PERIOD:
		return (k == 0 ? 0 : u);
	case CATALOG_FIELD_ACCUM_MEASUREMENT_PERIOD:
		return (at);
	case CATALOG_FIELD_STATUS_FLAGS:
		return (0);
	}
	return (0);
}

/*
 * A vcpu's components in its domain's place, at its home chip's latest
 * update, and (start=) at the update before the first data call.
 */
static void
sim_hv_vcpu(struct sim_hv *hv, unsigned d, unsigned lpar, unsigned vcpu,
    unsigned chip, uint64_t at, const double **comp, const double **base)
{
	double		 now[SIM_NWHERE][SIM_NCOMPONENTS];
	unsigned	 where = d - HCALL_DOMAIN_VCPU_HOME_CORE;
	uint64_t	 at0;

	if (hv->cfg.start_set) {
		(void)sim_hv_tick(hv, chip, hv->tb0, &at0);
		*base = sim_part_vcpu_base(hv->part, lpar, vcpu, at0)[where];
	}
	sim_part_vcpu(hv->part, lpar, vcpu, at, now);
	memcpy(hv->vcomp, now[where], sizeof hv->vcomp);
	*comp = hv->vcomp;
}

/* Fill one element's data: size bytes of the space from off. */
static void
sim_hv_fill(struct sim_hv *hv, uint8_t *data, const struct sim_hv_req *q,
    unsigned lpar, unsigned index, unsigned tg, uint64_t tb)
{
	const struct hcall_request *r = &q->r;
	const struct sim_hv_space *sp;
	const struct sim_hv_word *w;
	const double		*comp, *base = NULL;
	struct hvsim_obs	 o;
	uint64_t		 k, at, v;
	unsigned		 chip, core = 0, i, j, nw, d = r->domain;
	int			 chip_level = d == HCALL_DOMAIN_CHIP;
	int			 vcpu = d >= HCALL_DOMAIN_VCPU_HOME_CORE;

	sp = &hv->space[chip_level ? SIM_CLASS_CHIP : SIM_CLASS_CORE];
	if (chip_level)
		chip = index;
	else {
		core = !vcpu ? index :
		    sim_part_home_core(hv->part, lpar, index);
		chip = sim_frame_core_chip(&hv->frame, core);
	}
	k = sim_hv_tick(hv, chip, tb, &at);
	if (vcpu)
		sim_hv_vcpu(hv, d, lpar, index, chip, at, &comp, &base);
	else {
		if (hv->cfg.start_set)
			base = sim_hv_base(hv, chip_level, chip_level ? chip :
			    core, chip);
		comp = sim_hv_components(hv, chip_level, chip_level ? chip :
		    core, k, at);
	}
	nw = r->data_size / 8;
	w = &sp->w[r->data_offset / 8];
	for (i = 0; i < nw; i++, w++, data += 8) {
		if (w->role == SIM_W_FIELDS) {
			memset(data, 0, 8);
			for (j = 0; j < w->nfields; j++)
				hcall_store(data + w->f[j].off, w->f[j].len,
				    sim_hv_field_value(hv, w->f[j].field, k,
				    at));
			continue;
		}
		v = sim_hv_u64(w->scale * comp[w->comp]);
		if (base != NULL)
			v -= sim_hv_u64(w->scale * base[w->comp]);
		if (hv->cfg.interface == 2 && !chip_level &&
		    hv->frame.thread_groups > 1) {
			/* Thread groups split the core's count exactly. */
			uint64_t t0 = sim_hv_share(v, hv->split[core], 16);

			v = tg == 0 ? t0 : v - t0;
		}
		if (base != NULL)
			v += hv->cfg.start;	/* modulo 2^64, as a counter */
		be64_put(data, v);
		if (hv->obs == NULL)
			continue;
		memset(&o, 0, sizeof o);
		o.kind = HVSIM_OBS_VALUE;
		o.call = hv->ndata;
		o.tb = tb;
		o.domain = d;
		o.lpar = lpar;
		o.index = index;
		o.tg = tg;
		o.offset = r->data_offset + 8 * i;
		o.value = v;
		o.update_tb = at;
		o.updates = k;
		hv->nobs++;
		hv->obs(hv->obsarg, &o);
	}
}

/* Write the header of a refused call, if there is room for one. */
static long
sim_hv_refuse(struct sim_hv *hv, uint8_t *res, size_t reslen, int version,
    long rc, uint32_t drc, unsigned failing)
{
	struct hcall_rwriter	 w;

	if (reslen >= HCALL_RES_HDR_SIZE && reslen <= HCALL_BUF_SIZE) {
		hcall_encode_result_begin(&w, res, reslen, version);
		hcall_encode_result_status(&w, (uint8_t)failing, drc,
		    hv->cfg.cec_cfg, hv->version);
		hcall_encode_result_end(&w);
	}
	return (rc);
}

/* Whether a request names another partition than the caller's. */
static int
sim_hv_explicit_lpar(const struct hcall_request *r)
{
	return (r->domain >= HCALL_DOMAIN_VCPU_HOME_CORE &&
	    r->lpar != HCALL_LPAR_SELF);
}

/* The domain, the permission, and where the data lies in the domain. */
static long
sim_hv_check_data(const struct sim_hv *hv, const struct hcall_request *r,
    uint32_t *drc)
{
	const struct sim_hv_space *sp;
	uint32_t		 i, first, nw;

	if (r->domain < 1 || r->domain >= HCALL_DOMAIN_MAX) {
		*drc = SIM_DRC_DOMAIN;
		return (H_PARAMETER);
	}
	if (hv->cfg.faults.denied &&
	    (r->domain <= HCALL_DOMAIN_CORE || sim_hv_explicit_lpar(r))) {
		*drc = SIM_DRC_NOT_PRIVILEGED;
		return (H_AUTHORITY);
	}
	sp = &hv->space[r->domain == HCALL_DOMAIN_CHIP ? SIM_CLASS_CHIP :
	    SIM_CLASS_CORE];
	if (sp->nwords == 0) {
		*drc = SIM_DRC_DOMAIN_EMPTY;
		return (H_NOT_AVAILABLE);
	}
	if (r->data_offset % 8 != 0) {
		*drc = SIM_DRC_OFFSET_ALIGN;
		return (H_PARAMETER);
	}
	if (r->data_size == 0 || r->data_size % 8 != 0) {
		*drc = SIM_DRC_DATA_SIZE;
		return (H_PARAMETER);
	}
	first = r->data_offset / 8;
	nw = r->data_size / 8;
	if (first >= sp->nwords || sp->w[first].role == SIM_W_HOLE) {
		*drc = SIM_DRC_OFFSET_RANGE;
		return (H_PARAMETER);
	}
	for (i = 1; i < nw; i++) {
		if (first + i >= sp->nwords ||
		    sp->w[first + i].role == SIM_W_HOLE) {
			*drc = SIM_DRC_DATA_RANGE;
			return (H_PARAMETER);
		}
	}
	return (H_SUCCESS);
}

/* The indexes and partitions asked for; sets q->lpar0 and q->nlpars. */
static long
sim_hv_check_lpars(const struct sim_hv *hv, struct sim_hv_req *q,
    uint32_t *drc)
{
	const struct sim_frame	*f = &hv->frame;
	const struct hcall_request *r = &q->r;
	uint32_t		 count;

	count = r->domain == HCALL_DOMAIN_CHIP ? f->nchips :
	    r->domain == HCALL_DOMAIN_CORE ? f->ncores : f->vcpus;
	if (r->index >= count) {
		*drc = SIM_DRC_INDEX;
		return (H_PARAMETER);
	}
	if (r->max_ix == 0 || (uint32_t)r->index + r->max_ix > count) {
		*drc = SIM_DRC_INDEX_COUNT;
		return (H_PARAMETER);
	}
	q->lpar0 = f->lpar_id;
	q->nlpars = 1;
	if (!sim_hv_explicit_lpar(r))
		return (H_SUCCESS);
	if (r->lpar >= f->lpars) {
		*drc = SIM_DRC_LPAR;
		return (H_PARAMETER);
	}
	if (r->lpar == 0 && f->lpar_id != 0) {
		*drc = SIM_DRC_LPAR_ZERO;
		return (H_PERMISSION);
	}
	q->lpar0 = r->lpar;
	if (r->max_lpars == HCALL_LPARS_ALL)
		q->nlpars = f->lpars - r->lpar;
	else if (r->max_lpars == 0 ||
	    (uint32_t)r->lpar + r->max_lpars > f->lpars) {
		*drc = SIM_DRC_LPAR_COUNT;
		return (H_PARAMETER);
	} else
		q->nlpars = r->max_lpars;
	return (H_SUCCESS);
}

/* The thread groups asked for (v2 core and vcpu domains); sets q->ntg. */
static long
sim_hv_check_tg(const struct sim_hv *hv, int version, struct sim_hv_req *q,
    uint32_t *drc)
{
	const struct sim_frame	*f = &hv->frame;
	const struct hcall_request *r = &q->r;

	q->ntg = 1;
	if (version != 2 || r->domain < HCALL_DOMAIN_CORE)
		return (H_SUCCESS);
	if (r->tg >= f->thread_groups) {
		*drc = SIM_DRC_TG;
		return (H_PARAMETER);
	}
	if (r->max_tg == HCALL_TG_ALL)
		q->ntg = f->thread_groups - r->tg;
	else if (r->max_tg == 0 ||
	    (unsigned)r->tg + r->max_tg > f->thread_groups) {
		*drc = SIM_DRC_TG_COUNT;
		return (H_PARAMETER);
	} else
		q->ntg = r->max_tg;
	return (H_SUCCESS);
}

/*
 * Judge a decoded request, in the order of the table in sim.h, and work
 * out what it returns.  Returns H_SUCCESS or the return code, with *drc
 * set.
 */
static long
sim_hv_check(struct sim_hv *hv, int version, struct sim_hv_req *q,
    uint32_t *drc)
{
	long	 rc;

	if ((rc = sim_hv_check_data(hv, &q->r, drc)) != H_SUCCESS ||
	    (rc = sim_hv_check_lpars(hv, q, drc)) != H_SUCCESS ||
	    (rc = sim_hv_check_tg(hv, version, q, drc)) != H_SUCCESS)
		return (rc);
	q->nelements = (size_t)q->nlpars * q->r.max_ix * q->ntg;
	*drc = SIM_DRC_OK;
	return (H_SUCCESS);
}

/* Write the elements of one request, at most max of them. */
static void
sim_hv_elements(struct sim_hv *hv, struct hcall_rwriter *w,
    const struct sim_hv_req *q, size_t max, uint64_t tb)
{
	const struct hcall_request *r = &q->r;
	uint8_t			*data;
	unsigned		 l, x, t, lpar;
	size_t			 n = 0;
	int			 vcpu;

	vcpu = r->domain >= HCALL_DOMAIN_VCPU_HOME_CORE;
	for (l = 0; l < q->nlpars; l++) {
		lpar = q->lpar0 + l;
		for (x = 0; x < r->max_ix; x++) {
			for (t = 0; t < q->ntg; t++) {
				if (n++ == max)
					return;
				data = hcall_encode_result_element(w,
				    vcpu ? (uint16_t)lpar : 0,
				    (uint16_t)(r->index + x),
				    vcpu ? 0x10000U + lpar : 0xffffffffU,
				    (uint8_t)(r->tg + t));
				if (data == NULL)
					return;	/* checked before: cannot be */
				sim_hv_fill(hv, data, q, lpar, r->index + x,
				    r->tg + t, tb);
			}
		}
	}
}

/*
 * Decode the request buffer with the hcall module's decoder and judge
 * each request in turn, in the order of the table in sim.h: the header,
 * then each request's reserved bytes and fields.  Returns H_SUCCESS with
 * *n requests in q[], or the return code with *drc and *failing set.
 */
static long
sim_hv_requests(struct sim_hv *hv, const uint8_t *req, size_t reqlen,
    struct sim_hv_req *q, unsigned *n, uint32_t *drc, unsigned *failing)
{
	unsigned	 i;
	char		*cause = NULL;
	int		 version, error;
	long		 rc;

	*failing = 0xff;
	error = hcall_decode_request_header(req, reqlen, &version, n, &cause);
	free(cause);
	cause = NULL;
	if (version != hv->cfg.interface) {
		*drc = SIM_DRC_VERSION;
		return (H_PARAMETER);
	}
	switch (error) {
	case 0:
		break;
	case -HV_EFORMAT:
		*drc = SIM_DRC_RESERVED;
		return (H_PARAMETER);
	case -HV_ELIMIT:
		*drc = SIM_DRC_TOO_MANY;
		return (H_PARAMETER);
	default:
		*drc = SIM_DRC_REQ_BUF_SHORT;
		return (H_P2);
	}
	if (*n == 0) {
		*drc = SIM_DRC_NO_REQUESTS;
		return (H_PARAMETER);
	}
	for (i = 0; i < *n; i++) {
		*failing = i;
		memset(&q[i], 0, sizeof q[i]);
		if (hcall_decode_request_at(req, reqlen, version, i, &q[i].r,
		    &cause) != 0) {
			free(cause);
			*drc = SIM_DRC_RESERVED;
			return (H_PARAMETER);
		}
		if ((rc = sim_hv_check(hv, version, &q[i], drc)) != H_SUCCESS)
			return (rc);
	}
	*drc = SIM_DRC_OK;
	return (H_SUCCESS);
}

/*
 * Write the results of n good requests; cut short (half the results, the
 * next one partly) when cut.  Returns H_SUCCESS, or H_P4 when they do not
 * fit (those that fit are written).
 */
static long
sim_hv_results(struct sim_hv *hv, uint64_t tb, const struct sim_hv_req *q,
    unsigned n, int cut, uint8_t *res, size_t reslen)
{
	struct hcall_rwriter	 w;
	size_t			 need, keep = n, half = 0;
	int			 version = hv->cfg.interface;
	unsigned		 i;

	if (cut) {
		keep = n / 2;
		half = q[keep].nelements > 1 ? q[keep].nelements / 2 : 0;
	}
	hcall_encode_result_begin(&w, res, reslen, version);
	for (i = 0; i < n; i++) {
		if (i > keep || (i == keep && half == 0))
			break;
		need = hcall_result_bytes(version, i == keep ? half :
		    q[i].nelements, q[i].r.data_size);
		if (!be_fits(reslen, w.off, need)) {
			hcall_encode_result_end(&w);
			hcall_encode_result_status(&w, (uint8_t)i,
			    SIM_DRC_RESULT_FULL, hv->cfg.cec_cfg, hv->version);
			return (H_P4);
		}
		hcall_encode_result_open(&w, (uint8_t)i, q[i].r.data_size);
		sim_hv_elements(hv, &w, &q[i], i == keep ? half :
		    q[i].nelements, tb);
		hcall_encode_result_close(&w, i != keep);
	}
	hcall_encode_result_end(&w);
	if (cut)
		hcall_encode_result_status(&w, (uint8_t)keep, SIM_DRC_SHORT,
		    hv->cfg.cec_cfg, hv->version);
	else
		hcall_encode_result_status(&w, 0, SIM_DRC_OK, hv->cfg.cec_cfg,
		    hv->version);
	return (H_SUCCESS);
}

void
sim_hv_observe(struct sim_hv *hv, hvsim_observer *fn, void *arg)
{
	hv->obs = fn;
	hv->obsarg = arg;
}

static long
sim_hv_data_call(struct sim_hv *hv, uint64_t tb, const uint8_t *req,
    size_t reqlen, uint8_t *res, size_t reslen)
{
	struct sim_hv_req	 q[HCALL_MAX_REQUESTS_V1];
	unsigned		 n, failing;
	uint32_t		 drc;
	long			 rc;
	int			 version = hv->cfg.interface, busy, cut;

	hv->ncalls++;
	hv->ndata++;
	if (hv->cfg.start_set && !hv->anchored) {
		hv->anchored = 1;
		hv->tb0 = tb;
	}
	if (hv->cfg.faults.version_change_at != 0 &&
	    hv->ndata == hv->cfg.faults.version_change_at)
		hv->version++;
	/* Both dice roll on every call so one fault never shifts another. */
	busy = sim_fault_roll(&hv->rng, hv->cfg.faults.busy);
	cut = sim_fault_roll(&hv->rng, hv->cfg.faults.short_results);
	if (hv->ndata < hv->cfg.faults.from)
		busy = cut = 0;

	/* The hcall's arguments first: where the buffers are, how long. */
	if (reslen < HCALL_RES_HDR_SIZE || reslen > HCALL_BUF_SIZE)
		return (sim_hv_refuse(hv, res, reslen, version, H_P4,
		    SIM_DRC_RES_BUF_LEN, 0xff));
	if (reqlen < HCALL_REQ_HDR_SIZE || reqlen > HCALL_BUF_SIZE)
		return (sim_hv_refuse(hv, res, reslen, version, H_P2,
		    SIM_DRC_REQ_BUF_LEN, 0xff));
	if (busy)
		return (sim_hv_refuse(hv, res, reslen, version, H_BUSY,
		    SIM_DRC_BUSY, 0xff));
	rc = sim_hv_requests(hv, req, reqlen, q, &n, &drc, &failing);
	if (rc != H_SUCCESS)
		return (sim_hv_refuse(hv, res, reslen, version, rc, drc,
		    failing));
	return (sim_hv_results(hv, tb, q, n, cut, res, reslen));
}

/*
 * H_GET_24X7_DATA.  See sim.h.
 */
long
sim_hv_data(struct sim_hv *hv, uint64_t tb, const uint8_t *req, size_t reqlen,
    uint8_t *res, size_t reslen)
{
	struct hvsim_obs	 o;
	long			 rc;

	hv->nobs = 0;
	rc = sim_hv_data_call(hv, tb, req, reqlen, res, reslen);
	if (hv->obs != NULL) {
		memset(&o, 0, sizeof o);
		o.kind = HVSIM_OBS_CALL;
		o.call = hv->ndata;
		o.tb = tb;
		o.rc = rc;
		o.drc = reslen >= HCALL_RES_HDR_SIZE ?
		    (uint32_t)HCALL_GET(RES_HDR, detailed_rc, res) : 0;
		o.version = hv->version;
		o.nvalues = hv->nobs;
		hv->obs(hv->obsarg, &o);
	}
	return (rc);
}
