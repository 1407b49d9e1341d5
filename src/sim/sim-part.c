/*
 * The partitions' virtual processors and where their work runs.  Each
 * partition has its home cores (sim_frame_place()); each vcpu has its
 * work (sim_part_vcpu_rates(): its workload as dispatched), and in
 * every second a share of that work runs on its home core, the rest on
 * another core of its home chip, another chip of its home node, or
 * another node.  The four shares sum
 * to 1: the VCPU domains 3-6 are four disjoint parts of a vcpu's counts
 * (docs/PARTITIONS.md says why).
 *
 * How much runs off the home core: a little for a partition packed into
 * one chip, more for one spread over a node, much for one spread over
 * nodes or sharing its home cores with another; more again when its home
 * chip is busy (the shared pool is contended) and when the partition runs
 * past its entitled capacity.  Where the rest goes follows the same
 * placement, pushed outwards by a busy home chip.  The partition a DPO
 * event names runs, until then, as if its memory had been left on
 * another node; from the first second at or after the event, as its
 * placement says.
 *
 * Pure: levels are hashes of the seed, integrals summed second by second
 * from the frame's start in the same order, so the same tb gives the
 * same bits whatever the order of calls.
 */
#include "config.h"

#include "sim/sim.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

/* The noise in a vcpu's off-home share: a key of the seed's hash. */
#define SIM_PART_NOISE	21

/* The share off the home core in a quiet frame, by placement. */
#define SIM_PART_DISPLACED 3		/* a row after the SIM_SPAN_* */
static const double sim_part_base[4] = {
	0.04,		/* SIM_SPAN_CHIP */
	0.12,		/* SIM_SPAN_NODE */
	0.45,		/* SIM_SPAN_FRAME */
	0.20,		/* displaced until DPO */
};
/* Where that share goes: another core of the home chip, node, remote. */
static const double sim_part_away[4][3] = {
	{ 0.80, 0.14, 0.06 },
	{ 0.50, 0.40, 0.10 },
	{ 0.20, 0.10, 0.70 },
	{ 0.25, 0.15, 0.60 },
};

struct sim_part_vcpu {
	int		 ready;
	uint64_t	 slot;		/* integrals at the start of slot */
	double		 acc[SIM_NWHERE][SIM_NCOMPONENTS];
	double		 rate[SIM_NCOMPONENTS];	/* during slot `slot` */
	double		 share[SIM_NWHERE];
	double		(*base)[SIM_NCOMPONENTS]; /* start='s, once asked */
};

struct sim_part_lpar {
	int		 placed;
	struct sim_place place;
	struct sim_part_vcpu *v;	/* frame.vcpus, once asked */
};

struct sim_part {
	struct sim_frame frame;
	const struct sim_workload *wl;
	uint64_t	 slot_tb;
	struct sim_part_lpar *lp;	/* frame.lpars */
};

struct sim_part *
sim_part_new(const struct sim_frame *f, const struct sim_workload *wl)
{
	struct sim_part	*p;

	p = xcalloc(1, sizeof *p);
	p->frame = *f;
	p->wl = wl;
	p->slot_tb = sim_workload_slot_tb(wl);
	p->lp = xcalloc(f->lpars, sizeof *p->lp);
	return (p);
}

void
sim_part_free(struct sim_part *p)
{
	unsigned	 l, v;

	if (p == NULL)
		return;
	for (l = 0; l < p->frame.lpars; l++) {
		if (p->lp[l].v == NULL)
			continue;
		for (v = 0; v < p->frame.vcpus; v++)
			free(p->lp[l].v[v].base);
		free(p->lp[l].v);
	}
	free(p->lp);
	free(p);
}

const struct sim_place *
sim_part_place(struct sim_part *p, unsigned lpar)
{
	struct sim_part_lpar	*lp = &p->lp[lpar];

	if (!lp->placed) {
		sim_frame_place(&p->frame, lpar, &lp->place);
		lp->placed = 1;
	}
	return (&lp->place);
}

unsigned
sim_part_home_core(struct sim_part *p, unsigned lpar, unsigned vcpu)
{
	const struct sim_place	*pl = sim_part_place(p, lpar);

	return ((pl->first + vcpu % pl->ncores) % p->frame.ncores);
}

static double
sim_part_clamp(double x, double lo, double hi)
{
	return (x < lo ? lo : x > hi ? hi : x);
}

void
sim_part_shares(struct sim_part *p, unsigned lpar, unsigned vcpu,
    uint64_t tb, double share[SIM_NWHERE])
{
	const struct sim_frame	*f = &p->frame;
	const struct sim_place	*pl = sim_part_place(p, lpar);
	uint64_t		 t0 = tb - tb % p->slot_tb;
	unsigned		 chip, row;
	double			 base, cont, demand, over, off, wc, wn, wr, r0;

	chip = sim_frame_core_chip(f, sim_part_home_core(p, lpar, vcpu));
	row = (unsigned)pl->span;
	if (f->dpo && lpar == f->dpo_lpar && t0 < f->dpo_tb)
		row = SIM_PART_DISPLACED;
	base = sim_part_base[row] + (pl->crowded ? 0.15 : 0);
	/* A busy home chip: the shared pool has no core free there. */
	cont = sim_part_clamp((sim_workload_chip_load(p->wl, chip, t0) -
	    0.5) / 0.4, 0, 1);
	/* Capacity past the entitlement is taken where it is idle. */
	demand = sim_workload_lpar_load(p->wl, lpar, t0) * f->vcpus;
	over = demand > pl->entitled ? (demand - pl->entitled) / demand : 0;
	off = base + (1 - base) * (0.30 * cont + 0.15 * over) + 0.04 *
	    (sim_workload_uniform(p->wl, SIM_PART_NOISE,
	    (uint64_t)lpar << 16 | vcpu, t0) - 0.5);
	off = sim_part_clamp(off, 0.005, 0.95);
	r0 = sim_part_away[row][2];
	wr = r0 + (1 - r0) * 0.25 * cont;
	wc = sim_part_away[row][0] * (1 - wr) / (1 - r0);
	wn = sim_part_away[row][1] * (1 - wr) / (1 - r0);
	/* No place of a kind on this frame: nothing runs there. */
	if (f->cores_per_chip == 1)
		wc = 0;
	if (f->chips_per_node == 1)
		wn = 0;
	if (f->nodes == 1)
		wr = 0;
	if (wc + wn + wr == 0) {
		off = 0;
		wc = 1;
	}
	share[SIM_W_HOME_CORE] = 1 - off;
	share[SIM_W_HOME_CHIP] = off * wc / (wc + wn + wr);
	share[SIM_W_HOME_NODE] = off * wn / (wc + wn + wr);
	share[SIM_W_REMOTE_NODE] = off * wr / (wc + wn + wr);
}

double
sim_part_dispatch(struct sim_part *p, unsigned lpar, unsigned vcpu,
    uint64_t tb)
{
	const struct sim_frame	*f = &p->frame;
	const struct sim_place	*pl = sim_part_place(p, lpar);
	uint64_t		 t0 = tb - tb % p->slot_tb;
	unsigned		 chip;
	double			 demand, cont, cap;

	chip = sim_frame_core_chip(f, sim_part_home_core(p, lpar, vcpu));
	cont = sim_part_clamp((sim_workload_chip_load(p->wl, chip, t0) -
	    0.5) / 0.4, 0, 1);
	demand = sim_workload_lpar_load(p->wl, lpar, t0) * f->vcpus;
	/* The entitlement, and half the rest of the vcpus when the pool
	 * around the home chip has cores to spare. */
	cap = pl->entitled + (1 - cont) * 0.5 * ((double)f->vcpus -
	    pl->entitled);
	if (cap < 0.01)
		cap = 0.01;
	return (demand > cap ? cap / demand : 1);
}

void
sim_part_vcpu_rates(struct sim_part *p, unsigned lpar, unsigned vcpu,
    uint64_t tb, double r[SIM_NCOMPONENTS])
{
	double		 busy, k;
	unsigned	 c;

	sim_workload_vcpu_rates(p->wl, lpar, vcpu, tb, r);
	/*
	 * A shared processor's vcpu is dispatched only while it has work
	 * (an idle one cedes its core) and the pool lets it run: its
	 * ticks are its busy time (and a little idle time before it
	 * cedes), cut back when the partition wants more than it is
	 * entitled to and can borrow.
	 */
	k = sim_part_dispatch(p, lpar, vcpu, tb);
	busy = r[SIM_C_BUSY];
	for (c = 0; c < SIM_NCOMPONENTS; c++)
		r[c] *= k;
	r[SIM_C_BUSY] = busy * k;
	r[SIM_C_IDLE] = 0.05 * busy * k;
	r[SIM_C_TIME] = r[SIM_C_BUSY] + r[SIM_C_IDLE];
}

static void
sim_part_level(struct sim_part *p, unsigned lpar, unsigned vcpu,
    struct sim_part_vcpu *v)
{
	uint64_t	 tb = v->slot * p->slot_tb;

	sim_part_vcpu_rates(p, lpar, vcpu, tb, v->rate);
	sim_part_shares(p, lpar, vcpu, tb, v->share);
}

static struct sim_part_vcpu *
sim_part_get(struct sim_part *p, unsigned lpar, unsigned vcpu)
{
	struct sim_part_lpar	*lp = &p->lp[lpar];
	struct sim_part_vcpu	*v;

	if (lp->v == NULL)
		lp->v = xcalloc(p->frame.vcpus, sizeof *lp->v);
	v = &lp->v[vcpu];
	if (!v->ready) {
		sim_part_level(p, lpar, vcpu, v);
		v->ready = 1;
	}
	return (v);
}

void
sim_part_vcpu(struct sim_part *p, unsigned lpar, unsigned vcpu, uint64_t tb,
    double out[SIM_NWHERE][SIM_NCOMPONENTS])
{
	struct sim_part_vcpu	*v = sim_part_get(p, lpar, vcpu);
	uint64_t		 s = tb / p->slot_tb;
	double			 dt;
	unsigned		 w, k;

	if (s < v->slot) {
		/* Back in time: sum again from 0, in the same order. */
		memset(v->acc, 0, sizeof v->acc);
		v->slot = 0;
		sim_part_level(p, lpar, vcpu, v);
	}
	while (v->slot < s) {
		for (w = 0; w < SIM_NWHERE; w++)
			for (k = 0; k < SIM_NCOMPONENTS; k++)
				v->acc[w][k] += v->rate[k] * v->share[w] *
				    (double)p->slot_tb;
		v->slot++;
		sim_part_level(p, lpar, vcpu, v);
	}
	dt = (double)(tb - s * p->slot_tb);
	for (w = 0; w < SIM_NWHERE; w++)
		for (k = 0; k < SIM_NCOMPONENTS; k++)
			out[w][k] = v->acc[w][k] + v->rate[k] * v->share[w] *
			    dt;
}

const double (*
sim_part_vcpu_base(struct sim_part *p, unsigned lpar, unsigned vcpu,
    uint64_t tb))[SIM_NCOMPONENTS]
{
	struct sim_part_vcpu	*v = sim_part_get(p, lpar, vcpu);

	if (v->base == NULL) {
		v->base = xcalloc(SIM_NWHERE, sizeof *v->base);
		sim_part_vcpu(p, lpar, vcpu, tb, v->base);
	}
	return ((const double (*)[SIM_NCOMPONENTS])v->base);
}
