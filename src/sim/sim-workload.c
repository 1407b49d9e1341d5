/*
 * The simulated workload.  Time is cut into one-second slots; in each slot
 * every virtual processor has a load level drawn from the seed: its
 * partition's phase (changing every few seconds) plus the vcpu's own
 * phase and some noise give its utilisation; its own phases give
 * instructions per cycle, memory bytes per instruction, the share of
 * writes and the share of traffic that crosses to other chips.  Memory
 * and fabric traffic are products of those, so they follow the load.
 * What the cores count is what the dispatcher (sim-lpar.c) runs on them.
 *
 * Every level is a hash of (seed, what, where, when): nothing depends on
 * the order of calls.
 *
 * Pure: no clock (tb is passed in), no rand(): splitmix64 of the seed.
 */
#include "config.h"

#include "sim/sim.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

struct sim_workload {
	struct sim_frame frame;
	uint64_t	 seed;
	int		 steady;	/* every slot is slot 0 */
	uint64_t	 slot_tb;	/* one second of timebase */
};

/* What a level is for: part of every hash key. */
enum {
	SIM_WL_CHIP_LOAD = 1,
	SIM_WL_CORE_LOAD,
	SIM_WL_NOISE,
	SIM_WL_IPC,
	SIM_WL_BPI,
	SIM_WL_WRITE,
	SIM_WL_REMOTE,
	SIM_WL_LPAR,
};

uint64_t
sim_workload_hash(uint64_t seed, uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t	 z;

	z = seed ^ (a * 0xd6e8feb86659fd93ULL) ^ (b * 0x9e3779b97f4a7c15ULL) ^
	    (c * 0xc2b2ae3d27d4eb4fULL);
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	/* A second round: keys differ in few bits. */
	z += 0x9e3779b97f4a7c15ULL;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (z ^ (z >> 31));
}

/* A uniform number in [0, 1) for (what, where, when). */
static double
sim_workload_u(uint64_t seed, unsigned what, uint64_t where, uint64_t when)
{
	return ((double)(sim_workload_hash(seed, what, where, when) >> 11) *
	    (1.0 / 9007199254740992.0));
}

/* The load phase of a chip (or a partition's seed: of the partition). */
static double
sim_workload_phase(uint64_t seed, unsigned chip, uint64_t s)
{
	/* Chip phases last 5 s. */
	return (0.10 + 0.80 * sim_workload_u(seed, SIM_WL_CHIP_LOAD, chip,
	    s / 5));
}

/*
 * The rates of core during slot s, with seed; chip is the core's chip,
 * whose phase the core follows.
 */
static void
sim_workload_level_of(uint64_t seed, int steady, unsigned chip,
    unsigned core, uint64_t s, double r[SIM_NCOMPONENTS])
{
	double		 load, busy, ipc, bpi, wr, remote, mem;

	if (steady)
		s = 0;
	/* Core phases last 3 to 7 s. */
	load = sim_workload_phase(seed, chip, s);
	busy = load + 0.40 * (sim_workload_u(seed, SIM_WL_CORE_LOAD, core,
	    s / 3) - 0.5) + 0.10 * (sim_workload_u(seed, SIM_WL_NOISE, core,
	    s) - 0.5);
	if (busy < 0.02)
		busy = 0.02;
	if (busy > 0.98)
		busy = 0.98;
	/* Instructions stay below cycles: IPC per busy cycle < 1. */
	ipc = 0.30 + 0.65 * sim_workload_u(seed, SIM_WL_IPC, core, s / 4);
	/* Mostly cache-friendly, sometimes streaming: skewed low. */
	bpi = sim_workload_u(seed, SIM_WL_BPI, core, s / 6);
	bpi = 0.05 + 1.55 * bpi * bpi;
	wr = 0.20 + 0.40 * sim_workload_u(seed, SIM_WL_WRITE, core, s / 6);
	remote = 0.05 + 0.45 * sim_workload_u(seed, SIM_WL_REMOTE, chip,
	    s / 7);
	mem = busy * ipc * bpi;
	r[SIM_C_TIME] = 1;
	r[SIM_C_BUSY] = busy;
	r[SIM_C_IDLE] = 1 - busy;
	r[SIM_C_INST] = busy * ipc;
	r[SIM_C_MEMRD] = mem;
	r[SIM_C_MEMWR] = mem * wr;
	r[SIM_C_FABRIC] = mem * remote;
}

/*
 * A partition's own stream of levels: its vcpus are the cores of a chip
 * of their own, so they share the partition's phase as a chip's cores
 * share the chip's.
 */
static uint64_t
sim_workload_lpar_seed(const struct sim_workload *w, unsigned lpar)
{
	return (sim_workload_hash(w->seed, SIM_WL_LPAR, lpar, 0));
}

struct sim_workload *
sim_workload_new(const struct sim_frame *f, uint64_t seed, int steady)
{
	struct sim_workload	*w;

	w = xcalloc(1, sizeof *w);
	w->frame = *f;
	w->seed = seed;
	w->steady = steady;
	w->slot_tb = f->tb_hz;
	return (w);
}

void
sim_workload_free(struct sim_workload *w)
{
	free(w);
}

void
sim_workload_vcpu_rates(const struct sim_workload *w, unsigned lpar,
    unsigned vcpu, uint64_t tb, double out[SIM_NCOMPONENTS])
{
	sim_workload_level_of(sim_workload_lpar_seed(w, lpar), w->steady, 0,
	    vcpu, tb / w->slot_tb, out);
}

uint64_t
sim_workload_slot_tb(const struct sim_workload *w)
{
	return (w->slot_tb);
}
