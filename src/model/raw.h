/*
 * The raw data every layer above the sources shares: the frame's shape
 * (topology) and one read of the selected counters (raw sample), with the
 * one rule for what a raw value's status means.  Sources fill these, the
 * engine and the OpenMetrics renderer read them; nothing here knows where
 * the values came from.  Pure: no I/O.
 */
#ifndef HVTOP_MODEL_RAW_H
#define HVTOP_MODEL_RAW_H

#include <stddef.h>
#include <stdint.h>

#include "model/frame-ident.h"

/*
 * A partition of the frame, as the VCPU domains (3 to 6) show it.  cfg
 * changes when the partition is reconfigured or moved; a reader that
 * sees it change starts the partition's baselines again.
 */
struct topo_lpar {
	uint16_t	 id;		/* lpar_ix */
	uint16_t	 vcpus;		/* virtual processors seen: 0 .. vcpus-1 */
	uint32_t	 cfg;		/* lpar_cfg_instance_id */
};

/* The frame as a source sees it. */
struct topology {
	unsigned	 sockets;
	unsigned	 chips;		/* in the frame */
	unsigned	 cores;		/* in the frame */
	unsigned	 smt;		/* threads per core */
	unsigned	 vcpus;		/* virtual processors of this partition */
	int		 interface;	/* hcall interface version, 1 or 2;
					   0: a PMU other than hv_24x7 */
	int		 privileged;	/* physical domains may be read */
	uint64_t	 timebase_hz;	/* timebase frequency */
	/*
	 * The partitions found, ids ascending; owned by the source and
	 * valid until its next topology call or close.  NULL and 0 when
	 * the source found none (no VCPU domains, or not looked for).
	 */
	const struct topo_lpar *lpars;
	size_t		 nlpars;
	uint16_t	 lpar_self;	/* this partition's id; 0xffff when
					   not known */
	int		 lpars_denied;	/* other partitions may not be read:
					   the HMC's "Allow performance
					   information collection" is off */
	struct frame_ident ident;	/* who the frame and partition are;
					   zeroed: unknown (see
					   frame_ident_known()) */
};

/*
 * Whether a raw value may be used, and if not why.  RAW_OK and RAW_SCALED
 * carry a value; the others do not.  RAW_SCALED is an estimate: perf
 * multiplexed the counter (its group ran for only part of the interval,
 * time_running < time_enabled), so the source scaled the interval's count
 * up to the whole interval, and value moved by that estimate; counted
 * says how much of the interval was counted.  A group that did not run in
 * the interval has no value at all (RAW_MISSING).
 */
enum raw_status {
	RAW_OK = 0,
	RAW_FAILED,		/* the read failed (see the sample's error) */
	RAW_DENIED,		/* no permission for this domain */
	RAW_MISSING,		/* the result did not carry this counter */
	RAW_BUSY,		/* the hypervisor was busy; try again */
	RAW_SCALED,		/* a value, estimated from part of the
				   interval */
	RAW_NSTATUS
};

struct raw_value {
	uint64_t	 value;		/* 64-bit accumulator */
	uint64_t	 timebase;	/* record timebase, 0 when none */
	uint8_t		 status;	/* enum raw_status */
	uint8_t		 counted;	/* RAW_SCALED: percent of the interval
					   counted, 1-99; 0 when not known (a
					   recording keeps only the status) */
};

/*
 * The one rule for reading a status byte, for every user of raw values
 * (the engine, the OpenMetrics endpoint): RAW_OK when the value may be
 * used (RAW_OK, RAW_SCALED), else why not: RAW_FAILED, RAW_DENIED,
 * RAW_MISSING or RAW_BUSY.  A byte no source writes is RAW_FAILED.
 */
enum raw_status raw_reason(uint8_t status);

/* One read of every selected counter, in selection order. */
struct raw_sample {
	uint64_t	 now;		/* host time of the read, ns */
	struct raw_value *values;	/* selection->ncounters entries */
	size_t		 nvalues;
	size_t		 cap;		/* entries allocated, >= nvalues */
	unsigned	 calls;		/* hcalls or group reads made */
	unsigned	 naive_calls;	/* one per counter and index */
	uint64_t	 catalog_version;	/* as reported, 0 when unknown */
	int		 lpars_changed;	/* the source's partitions changed
					   with this read: its next topology
					   call lists them */
	char		 error[256];	/* last problem, "" when none */
};

/*
 * How the error of the sample that marks a gap in a ring's window starts
 * (source-replay-ring.c): "gap: nothing was recorded from A to B".  What
 * reports the error as it is (the text, CSV and JSON outputs) needs
 * nothing more; the report page lists the gaps by it.
 */
#define RAW_GAP_PREFIX	"gap: "

/*
 * Size rs for n values: the array grows when it must, never shrinks; the
 * values it had keep their contents and new ones are zero.  rs->values
 * is owned by rs; raw_sample_free() releases it.
 */
void		raw_sample_size(struct raw_sample *rs, size_t n);
/* Partition id in a list of n with ids ascending, or NULL. */
const struct topo_lpar *topo_lpar_find(const struct topo_lpar *, size_t n,
		    uint16_t id);

/* Release rs's values and leave rs empty; a NULL rs is a no-op. */
void		raw_sample_free(struct raw_sample *rs);

#endif /* HVTOP_MODEL_RAW_H */
