/*
 * The simulated hypervisor's state, shared by the call handlers
 * (sim-hv.c) and the counter space they read (sim-hv-space.c): each
 * domain class's words, what each word counts and where a record's
 * timing fields sit.  Pure.
 */
#ifndef HVTOP_SIM_HV_INT_H
#define HVTOP_SIM_HV_INT_H

#include <stddef.h>
#include <stdint.h>

#include "sim/sim.h"

struct catalog;

#define SIM_CLASS_CHIP	1
#define SIM_CLASS_CORE	2
#define SIM_NCLASSES	3

enum sim_hv_role {
	SIM_WORD_HOLE,		/* not in the counter space */
	SIM_WORD_COUNTER,	/* an accumulator */
	SIM_WORD_FIELDS,	/* timing and status fields */
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
	struct sim_lpar	*lpars;		/* the partitions' vcpus */
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

/* sim-hv-space.c: lay out hv's counter space from the catalog's group
 * records and the records its events name, and say what each word
 * counts. */
void	 sim_hv_space_build(struct sim_hv *, const struct catalog *);

#endif /* HVTOP_SIM_HV_INT_H */
