/*
 * The planner's working state, shared by its files: hcall-plan.c (the
 * selection checked and expanded into wants, values placed),
 * hcall-plan-spans.c (the wants of one record into reads) and
 * hcall-plan-pack.c (reads into requests and buffers).  Pure.
 */
#ifndef HVTOP_HCALL_PLAN_INT_H
#define HVTOP_HCALL_PLAN_INT_H

#include <stddef.h>
#include <stdint.h>

#include "hcall/hcall.h"

struct catalog;

#define HCALL_PLAN_NOREC	0xffffffffU	/* counter outside any record */

/* A group record known from the catalog, by domain class. */
struct hcall_plan_rec {
	uint8_t		 class;		/* 1 chip, 2 core and vcpu */
	uint32_t	 offset;
	uint32_t	 length;
	int		 schema;
};

/* One counter at one index. */
struct hcall_plan_want {
	uint8_t		 domain;
	uint16_t	 lpar;
	uint16_t	 index;
	uint32_t	 offset;	/* counter byte offset in the domain */
	uint32_t	 rec_offset;	/* HCALL_PLAN_NOREC when unknown */
	uint32_t	 rec_length;
	int		 schema;
	uint32_t	 value;		/* its hcall_value */
	uint32_t	 read;		/* the read that covers it */
};

/* One span of one record (or of loose counters) at one index. */
struct hcall_plan_read {
	uint8_t		 domain;
	uint16_t	 lpar;
	uint16_t	 index;
	uint32_t	 offset;
	uint32_t	 size;
	uint32_t	 buffer;
	uint8_t		 request;
	uint16_t	 element;
};

struct hcall_plan_ctx {
	const struct hcall_selection *sel;
	const struct catalog *cat;
	int		 version;
	size_t		 ehdr;		/* element header bytes */
	unsigned	 ntg;		/* thread groups per core (v2) */
	size_t		 result_size;
	unsigned	 max_requests;
	uint32_t	 max_span[HCALL_DOMAIN_MAX];
	int		 multi_index;
	unsigned	 fields;
	int		 whole;
	const struct hcall_topology *topo;

	struct hcall_plan_rec *recs;
	size_t		 nrecs;
	struct hcall_plan_want *wants;
	size_t		 nwants;
	uint32_t	*order;		/* wants sorted by read key */
	struct hcall_plan_read *reads;
	size_t		 nreads;
	size_t		 reads_cap;
	uint32_t	(*recread)[3];	/* per record: read of each field */
};

/* hcall-plan.c */
/* Elements per index in a result: thread groups on v2 core domains. */
unsigned hcall_plan_nel(const struct hcall_plan_ctx *, unsigned domain);
/* The schema field at a role, as a record-relative offset, or -1. */
long	 hcall_plan_field(const struct catalog *, int schema, unsigned role,
	    uint32_t rec_len);

/* hcall-plan-spans.c: the reads of the n wants ix[] of one record at one
 * index, and its entry in plan->records through *recno. */
void	 hcall_plan_spans(struct hcall_plan_ctx *, const uint32_t *ix,
	    size_t n, struct hcall_plan *, uint32_t *recno);

/* hcall-plan-pack.c: the sorted reads into plan's buffers, and the
 * naive plan's counts for comparison. */
void	 hcall_plan_pack(struct hcall_plan_ctx *, struct hcall_plan *);
void	 hcall_plan_pack_naive(struct hcall_plan_ctx *, struct hcall_plan *);

#endif /* HVTOP_HCALL_PLAN_INT_H */
