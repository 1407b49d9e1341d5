/*
 * The simulated frame's shape: sockets, chips, cores, SMT threads,
 * partitions and clocks, derived from a config (sim-config.c) and checked
 * to make one frame.  Pure: arithmetic only.
 */
#include "config.h"

#include "sim/sim.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "util/hverr.h"
#include "util/xalloc.h"

/* The partitions: their count, size and the DPO event's partition. */
static int
sim_frame_lpars(struct sim_frame *f, const struct sim_config *cfg,
    char **cause)
{
	if (cfg->lpars == 0 || cfg->lpar_id >= cfg->lpars) {
		/* Either key may be a default the user never typed. */
		*cause = xasprintf("sim lpars=%u leaves no partition lpar=%u "
		    "for hvtop to run in: give an lpar below %u (the defaults "
		    "are lpars=4, lpar=1)", cfg->lpars, cfg->lpar_id,
		    cfg->lpars);
		return (-HV_ERANGE);
	}
	if (cfg->lpars > 0xffff || cfg->vcpus == 0 || cfg->vcpus > 0xffff) {
		*cause = xasprintf("sim: %u partitions of %u vcpus: out of "
		    "range", cfg->lpars, cfg->vcpus);
		return (-HV_ERANGE);
	}
	if ((uint64_t)cfg->lpars * cfg->vcpus > SIM_MAX_VCPUS_TOTAL) {
		*cause = xasprintf("sim lpars=%u,vcpus=%u: %llu virtual "
		    "processors, more than the %u a simulated frame holds",
		    cfg->lpars, cfg->vcpus,
		    (unsigned long long)cfg->lpars * cfg->vcpus,
		    SIM_MAX_VCPUS_TOTAL);
		return (-HV_ERANGE);
	}
	f->lpars = cfg->lpars;
	f->lpar_id = cfg->lpar_id;
	f->vcpus = cfg->vcpus;
	/* The default event names partition 3, which a frame may lack. */
	if (cfg->dpo && cfg->dpo_set && cfg->dpo_lpar >= cfg->lpars) {
		*cause = xasprintf("sim dpo=%u@%llu: no partition %u (lpars=%u)",
		    cfg->dpo_lpar, (unsigned long long)cfg->dpo_s,
		    cfg->dpo_lpar, cfg->lpars);
		return (-HV_ERANGE);
	}
	/* A steady frame keeps its rates unless a DPO is asked for. */
	f->dpo = cfg->dpo && cfg->dpo_lpar < cfg->lpars &&
	    (!cfg->steady || cfg->dpo_set);
	f->dpo_lpar = cfg->dpo_lpar;
	return (0);
}

/* The interface version, and the clocks in timebase ticks. */
static int
sim_frame_clocks(struct sim_frame *f, const struct sim_config *cfg,
    char **cause)
{
	uint64_t	 upd;

	if (cfg->interface != 1 && cfg->interface != 2) {
		*cause = xasprintf("sim interface=%d: must be 1 or 2",
		    cfg->interface);
		return (-HV_ERANGE);
	}
	if (cfg->tb_hz == 0 || cfg->core_hz == 0 || cfg->nest_hz == 0 ||
	    cfg->update_us == 0) {
		*cause = xstrdup("sim: clocks and update period must not be "
		    "0");
		return (-HV_ERANGE);
	}
	f->tb_hz = cfg->tb_hz;
	f->core_hz = cfg->core_hz;
	f->nest_hz = cfg->nest_hz;
	upd = cfg->tb_hz / 1000000 * cfg->update_us +
	    cfg->tb_hz % 1000000 * cfg->update_us / 1000000;
	f->update_tb = upd == 0 ? 1 : upd;
	f->uptime_tb = cfg->tb_hz / 1000 * cfg->uptime_ms +
	    cfg->tb_hz % 1000 * cfg->uptime_ms / 1000;
	f->dpo_tb = f->uptime_tb + cfg->dpo_s * cfg->tb_hz;
	return (0);
}

int
sim_frame_init(struct sim_frame *f, const struct sim_config *cfg,
    char **cause)
{
	int	 error;

	memset(f, 0, sizeof *f);
	if (cfg->sockets == 0 || cfg->chips_per_socket == 0 ||
	    cfg->cores_per_chip == 0) {
		*cause = xstrdup("sim: a frame needs at least one socket, chip "
		    "and core");
		return (-HV_ERANGE);
	}
	if (cfg->smt != 1 && cfg->smt != 2 && cfg->smt != 4 && cfg->smt != 8) {
		*cause = xasprintf("sim smt=%u: must be 1, 2, 4 or 8",
		    cfg->smt);
		return (-HV_ERANGE);
	}
	f->sockets = cfg->sockets;
	f->chips_per_socket = cfg->chips_per_socket;
	f->cores_per_chip = cfg->cores_per_chip;
	f->nchips = cfg->sockets * cfg->chips_per_socket;
	f->ncores = f->nchips * cfg->cores_per_chip;
	if (f->nchips > 0x10000 || f->ncores > 0x10000) {
		*cause = xasprintf("sim: %u chips, %u cores: indexes are 16 "
		    "bits", f->nchips, f->ncores);
		return (-HV_ERANGE);
	}
	/* By default two drawers, so that partitions can be remote. */
	f->nodes = cfg->nodes != 0 ? cfg->nodes : cfg->sockets % 2 == 0 ? 2 :
	    1;
	if (f->nodes > cfg->sockets || cfg->sockets % f->nodes != 0) {
		*cause = xasprintf("sim nodes=%u: must divide sockets=%u",
		    f->nodes, cfg->sockets);
		return (-HV_ERANGE);
	}
	f->chips_per_node = f->nchips / f->nodes;
	f->smt = cfg->smt;
	/* An SMT8 core is two SMT4 thread groups (interface v2). */
	f->thread_groups = cfg->smt == 8 ? 2 : 1;
	if ((error = sim_frame_lpars(f, cfg, cause)) != 0)
		return (error);
	return (sim_frame_clocks(f, cfg, cause));
}

void
sim_frame_topology(const struct sim_frame *f, struct hcall_topology *t)
{
	unsigned	 d;

	memset(t, 0, sizeof *t);
	t->count[HCALL_DOMAIN_CHIP] = f->nchips;
	t->count[HCALL_DOMAIN_CORE] = f->ncores;
	for (d = HCALL_DOMAIN_VCPU_HOME_CORE; d < HCALL_DOMAIN_MAX; d++)
		t->count[d] = f->vcpus;
	t->thread_groups = f->thread_groups;
}

unsigned
sim_frame_core_chip(const struct sim_frame *f, unsigned core)
{
	return (core / f->cores_per_chip);
}

unsigned
sim_frame_core_node(const struct sim_frame *f, unsigned core)
{
	return (sim_frame_core_chip(f, core) / f->chips_per_node);
}

/*
 * A partition's entitled capacity: a share of its vcpus that depends on
 * its number, in sixteenths (a small, a middle-sized, a large and a small
 * partition in turn).  The default frame's 24 cores hold its four
 * partitions' 22 units with two cores' worth left in the pool.
 */
static double
sim_frame_entitled(const struct sim_frame *f, unsigned lpar)
{
	static const unsigned	 sixteenths[] = { 2, 4, 13, 3 };

	return ((double)f->vcpus * sixteenths[lpar % 4] / 16);
}

static unsigned
sim_frame_span(const struct sim_frame *f, unsigned first, unsigned n)
{
	unsigned	 last = (first + n - 1) % f->ncores;

	first %= f->ncores;
	if (n > f->ncores - first) {
		/* Round the end of the frame: through every chip between. */
		return (f->nchips == 1 ? SIM_SPAN_CHIP : f->nodes == 1 ?
		    SIM_SPAN_NODE : SIM_SPAN_FRAME);
	}
	if (sim_frame_core_chip(f, first) == sim_frame_core_chip(f, last))
		return (SIM_SPAN_CHIP);
	if (sim_frame_core_node(f, first) == sim_frame_core_node(f, last))
		return (SIM_SPAN_NODE);
	return (SIM_SPAN_FRAME);
}

void
sim_frame_place(const struct sim_frame *f, unsigned lpar,
    struct sim_home *p)
{
	uint64_t	 at = 0, n = 1, off, chip_left, node_left;
	unsigned	 cpc = f->cores_per_chip;
	unsigned	 cpn = cpc * f->chips_per_node;
	unsigned	 q;
	double		 e = 0;

	for (q = 0; q <= lpar; q++) {
		if (q > 0)
			at += n;
		e = sim_frame_entitled(f, q);
		n = (uint64_t)e + ((double)(uint64_t)e < e);
		if (n == 0)
			n = 1;
		if (n > f->ncores)
			n = f->ncores;
		off = at % f->ncores;
		chip_left = cpc - off % cpc;
		node_left = cpn - off % cpn;
		if (n > chip_left && n <= cpc)
			at += chip_left;
		else if (n > node_left && n <= cpn)
			at += node_left;
	}
	p->entitled = e;
	p->first = (unsigned)(at % f->ncores);
	p->ncores = (unsigned)n;
	p->span = sim_frame_span(f, p->first, p->ncores);
	p->crowded = at + n > f->ncores;
}

/* A partition's vcpus take its home cores in turn. */
unsigned
sim_frame_vcpu_core(const struct sim_frame *f, unsigned lpar, unsigned vcpu)
{
	struct sim_home	 p;

	sim_frame_place(f, lpar, &p);
	return ((p.first + vcpu % p.ncores) % f->ncores);
}
