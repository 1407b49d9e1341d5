/*
 * The dispatcher: one account of the frame that both views read.  Every
 * second of frame time each virtual processor asks for core time (its
 * busy share of the second and a little idle before it cedes); the
 * dispatcher places that time on physical cores, and what a vcpu counts
 * on a core the core counts too.  A core's own counts are the sum of the
 * vcpus dispatched on it, the hypervisor's share, and idle time, so the
 * physical domains (1, 2) and the VCPU domains (3-6) cannot disagree.
 *
 * Where a vcpu runs, in turn, until its demand is met or the frame has
 * no room left:
 *   1. its home core, up to its share of the partition's entitlement;
 *   2. its home core again, with what that core has left (uncapped);
 *   3. the other cores of its home chip, from their idle capacity;
 *   4. one other chip of its home node, from its idle capacity;
 *   5. one chip in another node, from its idle capacity.
 * Each step serves every vcpu that asks at once, in proportion to what
 * it asks when the capacity is short, and spreads the time it serves
 * over the cores in proportion to their idle capacity: borrowing beyond
 * the entitlement takes only what the pool has idle, balanced across the
 * frame.  The other chip of the node and the chip of another node are
 * fixed per vcpu and spread the vcpus of a chip over every candidate,
 * so that each VCPU domain's part of a vcpu runs on one chip only and
 * steps with that chip's updates, as the cores it ran on do.
 *
 * The partition a DPO event names runs, until then, as if it had been
 * left on another node: most of the time it asks for is dispatched on
 * its chip there, ahead of what the others borrow (after their
 * entitlements).
 *
 * Pure: levels are hashes of the seed; the whole frame is integrated
 * second by second from its start in the same order, so the same time
 * gives the same bits whatever the order of calls.
 */
#include "config.h"

#include "sim/sim.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

#define SIM_LPAR_NONE		UINT32_MAX	/* no such chip */
/* The hypervisor's share of every core, and what it does there. */
#define SIM_LPAR_HYP		0.02
#define SIM_LPAR_HYP_IPC	0.5
#define SIM_LPAR_HYP_BPC	0.1		/* memory bytes per cycle */
/* A dispatched vcpu idles this share of its busy time before it cedes. */
#define SIM_LPAR_CEDE		0.05
/* Until DPO, the share of the displaced partition's time sent remote. */
#define SIM_LPAR_DISPLACED	0.8

struct sim_lpar_vcpu {
	uint32_t	 chip[SIM_NPLACES]; /* where each place runs */
	uint32_t	 home;		/* home core */
	double		 ent;		/* entitled share of a core */
	/* Integrals at the start of slot - 1; the rates of a fully served
	 * vcpu and the share of them served in each place, in slots
	 * slot - 1 (0) and slot (1). */
	double		 a0[SIM_NPLACES][SIM_NCOMPONENTS];
	double		 r[2][SIM_NCOMPONENTS];
	double		 x[2][SIM_NPLACES];
	double		(*base)[SIM_NCOMPONENTS]; /* start='s, once asked */
};

struct sim_lpar_core {
	double		 a0[SIM_NCOMPONENTS];
	double		 r[2][SIM_NCOMPONENTS];
};

struct sim_lpar {
	struct sim_frame frame;
	const struct sim_workload *wl;
	uint64_t	 slot_tb;
	uint64_t	 slot;		/* the last slot dispatched */
	size_t		 nv;		/* lpars x vcpus */
	struct sim_home *place;	/* per partition */
	struct sim_lpar_vcpu *v;
	struct sim_lpar_core *c;
	/* Scratch of one slot's dispatch. */
	double		*want;		/* per vcpu: time asked */
	double		*res;		/* ... not yet served */
	double		*hold;		/* ... kept for its remote chip */
	double		*ask;		/* per core or chip: time asked */
	double		*free;		/* per core: idle capacity */
	double		*fchip;		/* per chip: idle capacity */
	double		*ratio;		/* per core or chip: share served */
	double		(*rchip)[SIM_NCOMPONENTS]; /* per chip: served */
};

/* The chip a vcpu's work in a place runs on, fixed per vcpu. */
static void
sim_lpar_chips(const struct sim_frame *f, unsigned home, size_t i,
    uint32_t chip[SIM_NPLACES])
{
	unsigned	 h = sim_frame_core_chip(f, home);
	unsigned	 cpn = f->chips_per_node, node = h / cpn;

	chip[SIM_PLACE_HOME_CORE] = chip[SIM_PLACE_HOME_CHIP] = h;
	chip[SIM_PLACE_HOME_NODE] = cpn == 1 ? SIM_LPAR_NONE :
	    node * cpn + (h % cpn + 1 + (unsigned)(i % (cpn - 1))) % cpn;
	chip[SIM_PLACE_REMOTE_NODE] = f->nodes == 1 ? SIM_LPAR_NONE :
	    ((node + 1) * cpn + (unsigned)(i % (f->nchips - cpn))) %
	    f->nchips;
}

/* A partition's placement in turn: each rests on the one before. */
static void
sim_lpar_places(struct sim_lpar *p)
{
	const struct sim_frame	*f = &p->frame;
	size_t			 i;
	unsigned		 l, v;

	for (l = 0; l < f->lpars; l++) {
		sim_frame_place(f, l, &p->place[l]);
		for (v = 0; v < f->vcpus; v++) {
			i = (size_t)l * f->vcpus + v;
			p->v[i].home = (p->place[l].first + v %
			    p->place[l].ncores) % f->ncores;
			p->v[i].ent = p->place[l].entitled / f->vcpus;
			sim_lpar_chips(f, p->v[i].home, i, p->v[i].chip);
		}
	}
}

/*
 * Serve res[] of every vcpu from the idle capacity of the chip it runs
 * on in place w, in proportion to what each asks when the chip is short,
 * and spread what is served over the chip's cores by their idle
 * capacity.  A vcpu that holds time for its remote chip skips its home
 * node.
 */
static void
sim_lpar_serve(struct sim_lpar *p, unsigned w)
{
	const struct sim_frame	*f = &p->frame;
	struct sim_lpar_vcpu	*v;
	unsigned		 k, c, n, cpc = f->cores_per_chip;
	uint32_t		 ch;
	double			 s, share, used;
	size_t			 i;
	int			 asked = 0;

	memset(p->ask, 0, f->nchips * sizeof *p->ask);
	for (i = 0; i < p->nv; i++) {
		ch = p->v[i].chip[w];
		if (ch != SIM_LPAR_NONE && p->res[i] > 0 &&
		    !(w == SIM_PLACE_HOME_NODE && p->hold[i] > 0)) {
			p->ask[ch] += p->res[i];
			asked = 1;
		}
	}
	/* Often every vcpu is served by now. */
	if (!asked)
		return;
	for (k = 0; k < f->nchips; k++) {
		p->fchip[k] = 0;
		if (p->ask[k] <= 0)
			continue;
		memset(p->rchip[k], 0, sizeof p->rchip[k]);
		for (c = k * cpc; c < (k + 1) * cpc; c++)
			p->fchip[k] += p->free[c];
		p->ratio[k] = p->ask[k] > p->fchip[k] ? p->fchip[k] /
		    p->ask[k] : 1;
	}
	for (i = 0; i < p->nv; i++) {
		v = &p->v[i];
		ch = v->chip[w];
		if (ch == SIM_LPAR_NONE || p->res[i] <= 0 ||
		    (w == SIM_PLACE_HOME_NODE && p->hold[i] > 0))
			continue;
		s = p->res[i] * p->ratio[ch];
		p->res[i] -= s;
		v->x[1][w] += s / p->want[i];
		for (k = 0; k < SIM_NCOMPONENTS; k++)
			p->rchip[ch][k] += v->x[1][w] * v->r[1][k];
	}
	/* Only the chips asked: a big frame has many more. */
	for (k = 0; k < f->nchips; k++) {
		if (p->fchip[k] <= 0 || p->ask[k] <= 0)
			continue;
		for (c = k * cpc; c < (k + 1) * cpc; c++) {
			share = p->free[c] / p->fchip[k];
			used = p->ask[k] * p->ratio[k] * share;
			for (n = 0; n < SIM_NCOMPONENTS; n++)
				p->c[c].r[1][n] += p->rchip[k][n] * share;
			p->free[c] = p->free[c] > used ? p->free[c] - used :
			    0;
		}
	}
}

/*
 * What each vcpu asks in slot s: its rates as if fully served, the core
 * time that is (busy, and a little idle before it cedes), and the part
 * a displaced partition keeps for its remote chip.
 */
static void
sim_lpar_demand(struct sim_lpar *p, uint64_t s)
{
	const struct sim_frame	*f = &p->frame;
	struct sim_lpar_vcpu	*v;
	uint64_t		 tb = s * p->slot_tb;
	double			*r, busy;
	unsigned		 l, vc;
	size_t			 i;
	int			 away;

	for (l = 0, i = 0; l < f->lpars; l++) {
		away = f->dpo && l == f->dpo_lpar && tb < f->dpo_tb &&
		    f->nodes > 1;
		for (vc = 0; vc < f->vcpus; vc++, i++) {
			v = &p->v[i];
			r = v->r[1];
			sim_workload_vcpu_rates(p->wl, l, vc, tb, r);
			busy = r[SIM_C_BUSY];
			r[SIM_C_TIME] = busy * (1 + SIM_LPAR_CEDE);
			if (r[SIM_C_TIME] > 1)
				r[SIM_C_TIME] = 1;
			r[SIM_C_IDLE] = r[SIM_C_TIME] - busy;
			p->want[i] = r[SIM_C_TIME];
			p->hold[i] = away ? p->want[i] * SIM_LPAR_DISPLACED : 0;
			memset(v->x[1], 0, sizeof v->x[1]);
		}
	}
}

/*
 * Home cores first: each vcpu's entitled share, in proportion when a
 * core's vcpus are entitled to more than it has.  x holds the time
 * served at home, until sim_lpar_uncapped().
 */
static void
sim_lpar_entitled(struct sim_lpar *p)
{
	const struct sim_frame	*f = &p->frame;
	double			 g, cap = 1 - SIM_LPAR_HYP;
	unsigned		 c;
	size_t			 i;

	memset(p->ask, 0, f->ncores * sizeof *p->ask);
	for (i = 0; i < p->nv; i++) {
		g = p->want[i] - p->hold[i];
		p->res[i] = g < p->v[i].ent ? g : p->v[i].ent;
		p->ask[p->v[i].home] += p->res[i];
	}
	for (c = 0; c < f->ncores; c++) {
		p->ratio[c] = p->ask[c] > cap ? cap / p->ask[c] : 1;
		p->free[c] = cap - p->ask[c] * p->ratio[c];
		if (p->free[c] < 0)
			p->free[c] = 0;
	}
	for (i = 0; i < p->nv; i++)
		p->v[i].x[1][SIM_PLACE_HOME_CORE] = p->res[i] *
		    p->ratio[p->v[i].home];
}

/* Then, uncapped, what each home core has left for its own vcpus. */
static void
sim_lpar_uncapped(struct sim_lpar *p)
{
	const struct sim_frame	*f = &p->frame;
	struct sim_lpar_vcpu	*v;
	double			 s;
	unsigned		 c, k;
	size_t			 i;

	memset(p->ask, 0, f->ncores * sizeof *p->ask);
	for (i = 0; i < p->nv; i++) {
		v = &p->v[i];
		p->res[i] = p->want[i] - p->hold[i] -
		    v->x[1][SIM_PLACE_HOME_CORE];
		if (p->res[i] < 0)
			p->res[i] = 0;
		p->ask[v->home] += p->res[i];
	}
	for (c = 0; c < f->ncores; c++) {
		p->ratio[c] = p->ask[c] > p->free[c] ? p->free[c] /
		    p->ask[c] : 1;
		p->free[c] -= p->ask[c] * p->ratio[c];
		if (p->free[c] < 0)
			p->free[c] = 0;
	}
	for (i = 0; i < p->nv; i++) {
		v = &p->v[i];
		s = p->res[i] * p->ratio[v->home];
		p->res[i] -= s;
		v->x[1][SIM_PLACE_HOME_CORE] =
		    (v->x[1][SIM_PLACE_HOME_CORE] + s) / p->want[i];
		for (k = 0; k < SIM_NCOMPONENTS; k++)
			p->c[v->home].r[1][k] += v->x[1][SIM_PLACE_HOME_CORE] *
			    v->r[1][k];
	}
}

/* Dispatch slot s into the rates of index 1 of every vcpu and core. */
static void
sim_lpar_dispatch_slot(struct sim_lpar *p, uint64_t s)
{
	const struct sim_frame	*f = &p->frame;
	double			*r;
	unsigned		 c;
	size_t			 i;

	sim_lpar_demand(p, s);
	for (c = 0; c < f->ncores; c++) {
		r = p->c[c].r[1];
		memset(r, 0, SIM_NCOMPONENTS * sizeof r[0]);
		r[SIM_C_BUSY] = SIM_LPAR_HYP;
		r[SIM_C_INST] = SIM_LPAR_HYP * SIM_LPAR_HYP_IPC;
		r[SIM_C_MEMRD] = SIM_LPAR_HYP * SIM_LPAR_HYP_BPC;
		r[SIM_C_MEMWR] = r[SIM_C_MEMRD] * 0.3;
		r[SIM_C_FABRIC] = r[SIM_C_MEMRD] * 0.1;
	}
	sim_lpar_entitled(p);
	/* A displaced partition's time where it was left, ahead of what
	 * the others borrow. */
	for (i = 0; i < p->nv; i++)
		p->res[i] = p->hold[i];
	sim_lpar_serve(p, SIM_PLACE_REMOTE_NODE);
	sim_lpar_uncapped(p);
	sim_lpar_serve(p, SIM_PLACE_HOME_CHIP);
	sim_lpar_serve(p, SIM_PLACE_HOME_NODE);
	for (i = 0; i < p->nv; i++)
		if (p->hold[i] > 0)
			p->res[i] += p->hold[i] - p->v[i].x[1]
			    [SIM_PLACE_REMOTE_NODE] * p->want[i];
	sim_lpar_serve(p, SIM_PLACE_REMOTE_NODE);
	/* A core's clock runs all the time; what no thread ran is idle. */
	for (c = 0; c < f->ncores; c++) {
		r = p->c[c].r[1];
		r[SIM_C_TIME] = 1;
		r[SIM_C_IDLE] = r[SIM_C_BUSY] < 1 ? 1 - r[SIM_C_BUSY] : 0;
	}
}

/* Start again from the frame's start: slot 0 dispatched, nothing yet. */
static void
sim_lpar_reset(struct sim_lpar *p)
{
	size_t		 i;
	unsigned	 c;

	for (i = 0; i < p->nv; i++) {
		memset(p->v[i].a0, 0, sizeof p->v[i].a0);
		memset(p->v[i].r[0], 0, sizeof p->v[i].r[0]);
		memset(p->v[i].x[0], 0, sizeof p->v[i].x[0]);
	}
	for (c = 0; c < p->frame.ncores; c++)
		memset(&p->c[c], 0, sizeof p->c[c]);
	p->slot = 0;
	sim_lpar_dispatch_slot(p, 0);
}

/* Move on one slot: the integrals take the slot before, in order. */
static void
sim_lpar_step(struct sim_lpar *p)
{
	struct sim_lpar_vcpu	*v;
	struct sim_lpar_core	*c;
	double			 t = (double)p->slot_tb;
	unsigned		 w, k, n;
	size_t			 i;

	for (i = 0; i < p->nv; i++) {
		v = &p->v[i];
		for (w = 0; w < SIM_NPLACES; w++)
			for (k = 0; k < SIM_NCOMPONENTS; k++)
				v->a0[w][k] += v->x[0][w] * v->r[0][k] * t;
		memcpy(v->r[0], v->r[1], sizeof v->r[0]);
		memcpy(v->x[0], v->x[1], sizeof v->x[0]);
	}
	for (n = 0; n < p->frame.ncores; n++) {
		c = &p->c[n];
		for (k = 0; k < SIM_NCOMPONENTS; k++)
			c->a0[k] += c->r[0][k] * t;
		memcpy(c->r[0], c->r[1], sizeof c->r[0]);
	}
	p->slot++;
	sim_lpar_dispatch_slot(p, p->slot);
}

/*
 * Have the slot of tb or the one after it dispatched; returns which of
 * the two rate indexes holds the slot of tb (0: the slot before), with
 * the ticks from that slot's start in *dt.  A chip's last update is at
 * most one update period before the time asked, so with periods up to
 * a second every read falls in these two slots; a longer period can
 * ask further back, which sums again from 0 (the same bits, slower).
 */
static int
sim_lpar_at(struct sim_lpar *p, uint64_t tb, double *dt)
{
	uint64_t	 start = p->slot * p->slot_tb, s;

	if (tb >= start && tb - start < p->slot_tb) {
		*dt = (double)(tb - start);
		return (1);
	}
	if (tb < start && p->slot > 0 && start - tb <= p->slot_tb) {
		*dt = (double)(tb - (start - p->slot_tb));
		return (0);
	}
	s = tb / p->slot_tb;
	if (s + 1 < p->slot)
		sim_lpar_reset(p);	/* back in time: sum again from 0 */
	while (p->slot < s)
		sim_lpar_step(p);
	*dt = (double)(tb % p->slot_tb);
	return (s == p->slot);
}

struct sim_lpar *
sim_lpar_new(const struct sim_frame *f, const struct sim_workload *wl)
{
	struct sim_lpar	*p;
	size_t		 n = f->nchips > f->ncores ? f->nchips : f->ncores;

	p = xcalloc(1, sizeof *p);
	p->frame = *f;
	p->wl = wl;
	p->slot_tb = sim_workload_slot_tb(wl);
	p->nv = (size_t)f->lpars * f->vcpus;
	p->place = xcalloc(f->lpars, sizeof *p->place);
	p->v = xcalloc(p->nv, sizeof *p->v);
	p->c = xcalloc(f->ncores, sizeof *p->c);
	p->want = xcalloc(p->nv, sizeof *p->want);
	p->res = xcalloc(p->nv, sizeof *p->res);
	p->hold = xcalloc(p->nv, sizeof *p->hold);
	p->ask = xcalloc(n, sizeof *p->ask);
	p->ratio = xcalloc(n, sizeof *p->ratio);
	p->free = xcalloc(f->ncores, sizeof *p->free);
	p->fchip = xcalloc(f->nchips, sizeof *p->fchip);
	p->rchip = xcalloc(f->nchips, sizeof *p->rchip);
	sim_lpar_places(p);
	sim_lpar_reset(p);
	return (p);
}

void
sim_lpar_free(struct sim_lpar *p)
{
	size_t	 i;

	if (p == NULL)
		return;
	for (i = 0; i < p->nv; i++)
		free(p->v[i].base);
	free(p->place);
	free(p->v);
	free(p->c);
	free(p->want);
	free(p->res);
	free(p->hold);
	free(p->ask);
	free(p->ratio);
	free(p->free);
	free(p->fchip);
	free(p->rchip);
	free(p);
}

void
sim_lpar_dpo(struct sim_lpar *p, uint64_t tb)
{
	uint64_t	 s = tb / p->slot_tb, at;

	if (s < p->slot)
		s = p->slot;
	if (s >= UINT64_MAX / p->slot_tb - 1)
		return;		/* past every second there is */
	at = (s + 1) * p->slot_tb;
	if (at < p->frame.dpo_tb)
		p->frame.dpo_tb = at;
}

const struct sim_home *
sim_lpar_place(struct sim_lpar *p, unsigned lpar)
{
	return (&p->place[lpar]);
}

static struct sim_lpar_vcpu *
sim_lpar_get(struct sim_lpar *p, unsigned lpar, unsigned vcpu)
{
	return (&p->v[(size_t)lpar * p->frame.vcpus + vcpu]);
}

unsigned
sim_lpar_home_core(struct sim_lpar *p, unsigned lpar, unsigned vcpu)
{
	return (sim_lpar_get(p, lpar, vcpu)->home);
}

unsigned
sim_lpar_place_chip(struct sim_lpar *p, unsigned lpar, unsigned vcpu,
    unsigned place)
{
	uint32_t	 ch = sim_lpar_get(p, lpar, vcpu)->chip[place];

	return (ch == SIM_LPAR_NONE ? sim_lpar_get(p, lpar, vcpu)->
	    chip[SIM_PLACE_HOME_CORE] : ch);
}

void
sim_lpar_shares(struct sim_lpar *p, unsigned lpar, unsigned vcpu,
    uint64_t tb, double share[SIM_NPLACES])
{
	struct sim_lpar_vcpu	*v = sim_lpar_get(p, lpar, vcpu);
	double			 dt;
	int			 j = sim_lpar_at(p, tb, &dt);
	unsigned		 w;

	for (w = 0; w < SIM_NPLACES; w++)
		share[w] = v->x[j][w];
}

void
sim_lpar_vcpu_rates(struct sim_lpar *p, unsigned lpar, unsigned vcpu,
    uint64_t tb, double out[SIM_NCOMPONENTS])
{
	struct sim_lpar_vcpu	*v = sim_lpar_get(p, lpar, vcpu);
	double			 dt;
	int			 j = sim_lpar_at(p, tb, &dt);
	unsigned		 w, k;

	for (k = 0; k < SIM_NCOMPONENTS; k++) {
		out[k] = 0;
		for (w = 0; w < SIM_NPLACES; w++)
			out[k] += v->x[j][w] * v->r[j][k];
	}
}

void
sim_lpar_core_rates(struct sim_lpar *p, unsigned core, uint64_t tb,
    double out[SIM_NCOMPONENTS])
{
	double	 dt;
	int	 j = sim_lpar_at(p, tb, &dt);

	memcpy(out, p->c[core].r[j], SIM_NCOMPONENTS * sizeof out[0]);
}

/* A vcpu's integrals in one place at tb, the slot of tb dispatched. */
static void
sim_lpar_place_at(struct sim_lpar *p, struct sim_lpar_vcpu *v, unsigned w,
    double dt, int j, double out[SIM_NCOMPONENTS])
{
	double		 t = (double)p->slot_tb;
	unsigned	 k;

	for (k = 0; k < SIM_NCOMPONENTS; k++) {
		out[k] = v->a0[w][k];
		if (j)
			out[k] = out[k] + v->x[0][w] * v->r[0][k] * t +
			    v->x[1][w] * v->r[1][k] * dt;
		else
			out[k] = out[k] + v->x[0][w] * v->r[0][k] * dt;
	}
}

void
sim_lpar_vcpu_place(struct sim_lpar *p, unsigned lpar, unsigned vcpu,
    unsigned place, uint64_t tb, double out[SIM_NCOMPONENTS])
{
	struct sim_lpar_vcpu	*v = sim_lpar_get(p, lpar, vcpu);
	double			 dt;
	int			 j = sim_lpar_at(p, tb, &dt);

	sim_lpar_place_at(p, v, place, dt, j, out);
}

void
sim_lpar_vcpu(struct sim_lpar *p, unsigned lpar, unsigned vcpu, uint64_t tb,
    double out[SIM_NPLACES][SIM_NCOMPONENTS])
{
	struct sim_lpar_vcpu	*v = sim_lpar_get(p, lpar, vcpu);
	double			 dt;
	int			 j = sim_lpar_at(p, tb, &dt);
	unsigned		 w;

	for (w = 0; w < SIM_NPLACES; w++)
		sim_lpar_place_at(p, v, w, dt, j, out[w]);
}

void
sim_lpar_core(struct sim_lpar *p, unsigned core, uint64_t tb,
    double out[SIM_NCOMPONENTS])
{
	struct sim_lpar_core	*c = &p->c[core];
	double			 t = (double)p->slot_tb, dt;
	int			 j = sim_lpar_at(p, tb, &dt);
	unsigned		 k;

	for (k = 0; k < SIM_NCOMPONENTS; k++) {
		if (j)
			out[k] = c->a0[k] + c->r[0][k] * t + c->r[1][k] * dt;
		else
			out[k] = c->a0[k] + c->r[0][k] * dt;
	}
}

void
sim_lpar_chip(struct sim_lpar *p, unsigned chip, uint64_t tb,
    double out[SIM_NCOMPONENTS])
{
	double		 one[SIM_NCOMPONENTS];
	unsigned	 i, k, cpc = p->frame.cores_per_chip;

	memset(out, 0, SIM_NCOMPONENTS * sizeof out[0]);
	for (i = 0; i < cpc; i++) {
		sim_lpar_core(p, chip * cpc + i, tb, one);
		for (k = 0; k < SIM_NCOMPONENTS; k++)
			out[k] += one[k];
	}
	/* A chip's clock runs once, not once per core. */
	out[SIM_C_TIME] = (double)tb;
}

const double *
sim_lpar_vcpu_base(struct sim_lpar *p, unsigned lpar, unsigned vcpu,
    unsigned place, uint64_t tb)
{
	struct sim_lpar_vcpu	*v = sim_lpar_get(p, lpar, vcpu);
	unsigned		 w;

	/* A time integral is never negative: -1 marks one not taken. */
	if (v->base == NULL) {
		v->base = xcalloc(SIM_NPLACES, sizeof *v->base);
		for (w = 0; w < SIM_NPLACES; w++)
			v->base[w][SIM_C_TIME] = -1;
	}
	if (v->base[place][SIM_C_TIME] < 0)
		sim_lpar_vcpu_place(p, lpar, vcpu, place, tb, v->base[place]);
	return (v->base[place]);
}
