/*
 * The perf source: counters through perf_event_open(2) on a PMU that
 * sysfs describes.  For hv_24x7 the catalog is the live one
 * (interface/catalog) and one group read is one H_GET_24X7_DATA; any other
 * PMU (msr, software, an uncore PMU) gets a catalog model built from its
 * events/ directory so that selecting events by name works the same.
 * source-perf-int.h says which file holds which part.
 *
 * Options (the source's "key=value,..." argument string):
 *	sysfs_root=DIR	where bus/event_source/devices is (default /sys)
 *	proc_root=DIR	where sys/kernel/perf_event_paranoid and cpuinfo
 *			are (default /proc)
 *	pmu=NAME[+NAME]	the PMU (default hv_24x7); several non-24x7 PMUs
 *			may be joined with '+' and then share groups
 *	cpus=WHICH	first (default: the first CPU of cpumask, else CPU
 *			0), cpumask (every CPU of cpumask), all (every
 *			online CPU) or a list like 0-3,8
 *	group_max=N	counters per group read for PMUs other than hv_24x7
 *			(default 64; hv_24x7 follows the hcall limits and
 *			N can only lower them)
 *	interface=1|2	the hcall interface (default: POWER8 in cpuinfo
 *			gives 1, another POWER 2, else a guess from the
 *			catalog)
 *	lpars=LO-HI	the partition ids hv_24x7 looks for, every one
 *			(default 1-254, stopping 16 ids past the last
 *			found; none for none)
 *	NAME=VALUE	a value for the '?' parameter NAME of an event
 *			(e.g. phys_processor_idx=3 on hv_gpci)
 */
#ifndef HVTOP_SOURCE_PERF_H
#define HVTOP_SOURCE_PERF_H

#include <stddef.h>
#include <stdint.h>

#include "pmu/pmu.h"
#include "source/source.h"

struct catalog;

extern const struct source_ops source_perf_ops;

/*
 * The catalog model of the open PMU(s), built from sysfs: one catalog
 * event per events/ file (plus the kernel's fixed software events for the
 * "software" PMU, which has no events/ directory), in name order, all in
 * domain 1, with record offset 8 x position and record length 8 (so no
 * event is hidden as a placeholder).  A counter's index i means the i-th
 * CPU of the cpus option, so the index range is the number of CPUs
 * chosen: 1 by default.  One catalog group per PMU holds its first 16
 * events ("msr"; "NAME.2" and on for more).  Descriptions are the event's
 * sysfs string and its .unit/.scale.  For hv_24x7 the model is built the
 * same way from its events/ listing (domain and offset from each string)
 * and serves when the binary catalog cannot be read.  The source keeps
 * ownership; the model lives until close.  Returns 0 or -HV_ENOENT.
 */
int	 source_perf_catalog_model(struct source *, const struct catalog **);

/* What sysfs says about one PMU. */
struct source_perf_pmu {
	char		*name;
	char		*dir;		/* .../bus/event_source/devices/NAME */
	int		 type;		/* perf_event_attr.type */
	int		*cpumask;	/* NULL when the PMU has no cpumask */
	size_t		 ncpumask;
	struct pmu_format *formats;
	size_t		 nformats;
	struct pmu_event *events;	/* sorted by name */
	size_t		 nevents;
	char		**descs;	/* per event: event_descs/ or NULL */
	char		**units;	/* per event: NAME.unit or NULL */
	char		**scales;	/* per event: NAME.scale or NULL */
	int		 builtin;	/* the kernel's fixed event list */
	char		**warnings;	/* files skipped, and why */
	size_t		 nwarnings;

	/* hv_24x7 only (interface/ and hv_gpci/interface/). */
	int		 hv24x7;	/* interface/catalog exists */
	uint64_t	 catalog_len;	/* 0 when the file is absent */
	uint64_t	 catalog_version;
	unsigned	 sockets;	/* 0 when absent */
	unsigned	 chipspersocket;
	unsigned	 coresperchip;
	char		*domains;	/* interface/domains text */
	int		 collect_privileged; /* 1, 0 or -1 unknown */
};

/*
 * Read bus/event_source/devices/NAME under root: type, cpumask, format/,
 * events/ (with .unit, .scale and event_descs/), interface/ and
 * hv_gpci/interface/collect_privileged.  A file that does not parse is
 * skipped with a line in warnings.  Returns 0 (clear with
 * source_perf_sysfs_free()) or -ENOENT / -errno / -HV_EFORMAT with *cause.
 */
int	 source_perf_sysfs_load(const char *root, const char *name,
	    struct source_perf_pmu *, char **cause);
void	 source_perf_sysfs_free(struct source_perf_pmu *);

/*
 * Read interface/catalog page by page with pread (short reads are
 * normal), checking catalog_len and catalog_version before and after and
 * against page 0; a version change while reading starts again (three
 * tries).  Returns 0 with *out (caller frees), *len and *version, or
 * -errno / -HV_EVERSION / -HV_ETRUNC with *cause.
 */
int	 source_perf_sysfs_catalog(const struct source_perf_pmu *,
	    void **out, size_t *len, uint64_t *version, char **cause);

/*
 * What one perf group's reads leave for the next, to turn counts into raw
 * values.  A group the kernel multiplexed counted for only part of each
 * interval (time_running < time_enabled); its counts are scaled to the
 * whole interval, interval by interval as perf stat -I does, and handed
 * on as RAW_SCALED: an accumulator of estimates that moves by each
 * interval's scaled count.  A group that was never multiplexed hands on
 * its counts unchanged, as RAW_OK.
 */
struct source_perf_scale {
	size_t		 n;		/* counters in the group */
	uint64_t	*count;		/* per counter: its count last read */
	uint64_t	*value;		/* per counter: the value handed on */
	uint64_t	 enabled;	/* time_enabled last read */
	uint64_t	 running;	/* time_running last read */
	int		 started;	/* the group has run: the above hold */
	size_t		 nr;		/* counters the last read returned */
};

void	 source_perf_scale_init(struct source_perf_scale *, size_t n);
void	 source_perf_scale_clear(struct source_perf_scale *);
/*
 * One group read: words are what read(2) of the leader returned with
 * PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
 * PERF_FORMAT_TOTAL_TIME_RUNNING (nr, time_enabled, time_running, then nr
 * counts in group order); values[members[j]] receives counter j.  The
 * first read scales by the times since the group was enabled, later ones
 * by the times since the read before.  Returns the percent of the
 * interval the group counted: 100 when it was not multiplexed (RAW_OK),
 * 1-99 when it was (RAW_SCALED, counted set), 0 when it did not run (its
 * counters RAW_MISSING: there is nothing to scale).  Counters the read did
 * not return are RAW_MISSING; sc->nr says how many it did.
 */
unsigned source_perf_scale(struct source_perf_scale *sc,
	    const uint64_t *words, size_t nwords, const size_t *members,
	    struct raw_value *values);

/*
 * A sample's time on the kernel's clock.  The time a sample is given is
 * taken before its reads, and how long those take varies (under load, or
 * in an emulated partition, by a percent of an interval); the counts
 * belong to the moment of the read, which time_enabled tells: ns since
 * the group was enabled, as of the read.  Anchored at a group's first
 * read, the sample's time is that anchor moved by time_enabled's
 * progress, so that an interval is exactly the kernel's time between two
 * reads of the group.
 */
struct source_perf_clock {
	uint64_t	 now;		/* the anchor: host time ... */
	uint64_t	 enabled;	/* ... and time_enabled read then */
	uint64_t	 last;		/* time_enabled of the read before */
	int		 set;
};

/* Beyond this from the host's time, the kernel's is not used (ns). */
#define SOURCE_PERF_CLOCK_SLACK	UINT64_C(1000000000)

/*
 * The time of a read whose group said enabled, given the host time now
 * taken before it.  A clock that did not move, went back or strayed more
 * than SOURCE_PERF_CLOCK_SLACK from now is anchored again, and now is
 * the answer.
 */
uint64_t source_perf_clock(struct source_perf_clock *, uint64_t now,
	    uint64_t enabled);

/* An unsigned number in a text file (decimal or 0x hex). */
int	 source_perf_sysfs_uint(const char *path, uint64_t *, char **cause);
/* A CPU list file (cpumask, online). */
int	 source_perf_sysfs_cpus(const char *path, int **cpus, size_t *n,
	    char **cause);

#endif /* HVTOP_SOURCE_PERF_H */
