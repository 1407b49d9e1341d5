/*
 * Inside the hcall client: the state source-hcall.c (the catalog, the
 * plan, the samples) and source-hcall-lpar.c (finding the frame's
 * partitions) share.
 */
#ifndef HVTOP_SOURCE_HCALL_INT_H
#define HVTOP_SOURCE_HCALL_INT_H

#include <stddef.h>
#include <stdint.h>

#include "hcall/hcall.h"
#include "model/raw.h"

struct catalog;
struct selection;
struct transport_ops;

#define SOURCE_HCALL_TRIES	20	/* for a busy catalog page, or a
					   busy call looking for partitions */

/*
 * Where a buffer's value goes, in the order plan->byval lists them: a
 * refresh of many counters then reads one small entry per value rather
 * than the map and the plan's value.
 */
struct source_hcall_dest {
	size_t			 counter;	/* or SOURCE_HCALL_UNMAPPED */
	uint32_t		 value;		/* plan value */
	uint32_t		 record;	/* its record, or HCALL_NONE */
};

struct source_hcall {
	const struct transport_ops *tp;
	void			*tc;		/* the transport's */
	struct topology		 topo;
	struct hcall_topology	 htopo;

	uint8_t			*image;		/* as fetched by hcalls */
	size_t			 image_len;
	struct catalog		*cat;		/* parsed from the image */
	struct catalog		*planned;	/* the one the plan points
						   into (cat, or an older) */
	uint64_t		 version;	/* as the hypervisor last
						   said it */

	const struct selection	*sel;
	struct hcall_plan	*plan;
	size_t			*map;		/* plan value -> counter */
	struct source_hcall_dest *dest;	/* per plan->byval entry */
	int			 covered;	/* each counter mapped once */
	uint64_t		*vals;
	uint8_t			*valid;
	struct hcall_record_sample *recs;
	uint8_t			 req[HCALL_BUF_SIZE];
	uint8_t			 res[HCALL_BUF_SIZE];
	struct hcall_resbuf	 rb;

	/*
	 * The partitions, once asked for (source_hcall_partitions()): those
	 * the last topology call handed out, and those found since, which
	 * the next one hands out.  A new array exactly when they changed.
	 */
	size_t			*item_pick;	/* planner item -> pick */
	size_t			 nitems;
	int			 lpars_on;
	struct topo_lpar	*lpars;
	struct topo_lpar	*fresh;
	size_t			 nfresh;
	int			 fresh_denied;
	int			 fresh_set;	/* fresh* hold a result */
	int			 denied_said;
	int			 sampled;	/* a sample was taken: the
						   next is the first shown */
	int			 lost;		/* a listed partition did not
						   answer: look again */
	unsigned		 busy;		/* busy answers to the last
						   look for partitions */
	int			 gave_up;	/* it stayed busy */
	uint64_t		 tb;		/* of the last data call */
};

/* Whether rc is a busy answer, short or long. */
int	 source_hcall_busy(long rc);
/* The wait in ns before asking a busy hypervisor again (source-hcall.c). */
uint64_t source_hcall_backoff(long rc, unsigned tries);

/*
 * Look for the frame's partitions; the result waits in s->fresh for the
 * next topology call (source-hcall-lpar.c).
 */
void	 source_hcall_lpar_discover(struct source_hcall *s);

#endif /* HVTOP_SOURCE_HCALL_INT_H */
