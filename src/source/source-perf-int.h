/*
 * Inside the perf source.  The generic part (source-perf.c: options,
 * perf_event_open(2), groups, reads, scaling) knows nothing of any one
 * kind of PMU: what differs between hv_24x7 and every other PMU lives in
 * a const variant table (struct source_perf_variant), the way libpfm4
 * describes each PMU with a table of fields and callbacks.
 *
 *	source-perf.c		the ops table and the fd-group reader
 *	source-perf-opt.c	the option string and the CPUs to count on
 *	source-perf-error.c	what an errno of perf_event_open() means
 *	source-perf-scale.c	group reads into raw values (multiplexing)
 *	source-perf-sysfs.c	reading a PMU's sysfs directory
 *	source-perf-hv24x7.c	the hv_24x7 variant: the live catalog,
 *				chip/core/vcpu indices, the hcall limits
 *	source-perf-lpar.c	finding the frame's partitions by opening
 *				events (hv_24x7)
 *	source-perf-cpu.c	the variant for every other PMU: a catalog
 *				model from events/, one index per CPU
 */
#ifndef HVTOP_SOURCE_PERF_INT_H
#define HVTOP_SOURCE_PERF_INT_H

#include <stddef.h>
#include <stdint.h>

#include "source/source-perf.h"

struct sel_counter;

#define PERF_GROUP_MAX_DEFAULT	64
#define PERF_FD_SLACK		32	/* fds the rest of hvtop may need */
#define PERF_LPARS_DEFAULT_LO	1	/* the ids probed: lpars=1-254 */
#define PERF_LPARS_DEFAULT_HI	254
#define PERF_LPAR_VCPUS_MAX	256	/* a partition's vcpus looked for */
#define PERF_LPAR_GAP		16	/* without lpars=: ids in a row that
					   may be missing before the scan
					   stops */

/* One selected counter. */
struct perf_counter {
	int		 fd;
	int		 cpu;
	int		 type;
	size_t		 pmu;		/* in st->pmus */
	size_t		 group;
	size_t		 slot;		/* position in the group's read */
	size_t		 key;		/* counters of one key share groups */
	size_t		 twin;		/* the counter opened for this one, or
					   PERF_NO_TWIN: two picks that hold
					   the same event read it once */
	uint64_t	 cfg[PMU_CONFIG_WORDS];
};

#define PERF_NO_TWIN	SIZE_MAX

/* One group: its leader's read returns every member. */
struct perf_group {
	int		 leader;	/* fd */
	int		 cpu;
	size_t		*members;	/* selection counter positions */
	size_t		 n;
	struct source_perf_scale scale;
	struct source_perf_clock clock;	/* its reads' times */
};

struct source_perf;

/*
 * What one kind of PMU adds to the generic reader.  Callbacks marked
 * optional may be NULL.
 */
struct source_perf_variant {
	const char	*name;		/* its PMU's, or what it serves */
	/* Optional: why a PMU of that name may be missing. */
	const char	*absent;
	/* Whether this variant serves a PMU sysfs describes. */
	int		(*match)(const struct source_perf_pmu *);
	/* Why it cannot share a source with other PMUs; NULL: it can. */
	const char	*alone;
	/*
	 * With the PMUs loaded, the options parsed and the CPUs chosen:
	 * check the PMU, read what the variant needs, and set st->topo,
	 * st->model and st->vdata.
	 */
	int		(*open)(struct source_perf *, char **cause);
	/* The header label (allocated). */
	char		*(*label)(const struct source_perf *);
	/* Optional: the catalog image; by default there is none. */
	int		(*catalog)(struct source_perf *, const void **,
			    size_t *, char **cause);
	/* Config words, PMU, type, CPU and group key of one counter. */
	int		(*encode)(struct source_perf *,
			    const struct sel_counter *, struct perf_counter *,
			    char **cause);
	/*
	 * Optional: how many of the n counters order[0..n) (positions in
	 * st->ctr, in open order) one group read can carry; at least 1.
	 * By default PERF_GROUP_MAX_DEFAULT.
	 */
	size_t		(*group_fit)(const struct source_perf *,
			    const size_t *order, size_t n);
	/*
	 * Optional: a message for errno err from perf_event_open() that
	 * knows this PMU's rules, or NULL for the generic one; what names
	 * the call.
	 */
	char		*(*open_error)(const struct source_perf *,
			    const struct sel_counter *,
			    const struct perf_counter *, int err,
			    const char *what);
	/* Optional: said after a group read that failed with EIO. */
	const char	*eio_hint;
	/* Optional: the topology st->topo is handed out. */
	void		(*topology)(struct source_perf *);
	/* Optional: find the frame's partitions into st->topo now, and
	 * again by itself from then on (the source op partitions). */
	void		(*partitions)(struct source_perf *);
	/* Optional: the read of group i failed with err (rs->error says
	 * so already). */
	void		(*read_failed)(struct source_perf *, size_t i, int err,
			    struct raw_sample *);
	/* Optional: once per sample, before the reads. */
	void		(*sample)(struct source_perf *, uint64_t now,
			    struct raw_sample *);
	/* Optional: free st->vdata. */
	void		(*close)(struct source_perf *);
};

extern const struct source_perf_variant source_perf_hv24x7;
extern const struct source_perf_variant source_perf_cpu;

struct source_perf {
	const struct source_perf_variant *v;
	void		*vdata;		/* the variant's own state */
	char		*sysfs_root;
	char		*proc_root;
	struct source_perf_pmu *pmus;
	size_t		 npmus;
	int		*cpus;		/* where counters are opened */
	size_t		 ncpus;
	unsigned	 group_max;	/* 0: the PMU's own limit */
	int		 iface_opt;	/* interface= option, 0 when absent */
	uint16_t	 lpar_lo;	/* lpars= option: the partition ids */
	uint16_t	 lpar_hi;	/* probed; lo 0: none */
	unsigned	 lpar_gap;	/* 0: every id of the range */

	char		**param_names;	/* NAME=VALUE options */
	struct pmu_param *params;
	size_t		 nparams;

	struct catalog	*model;
	struct topology	 topo;
	struct topology	 handed;	/* what the last topology call gave:
					   a sample that changes the
					   partitions says so */

	const struct selection *sel;
	struct perf_counter *ctr;
	size_t		 nctr;
	size_t		 nopen;		/* of them opened: no twins */
	struct perf_group *groups;
	size_t		 ngroups;
	uint64_t	*readbuf;
	size_t		 readcap;	/* words */
	int		 sampled;	/* a group of these was read */

	int		 consts_read;	/* source-perf-const.c, once */
	double		 cpu_hz;
	char		*cpu_hz_origin;	/* the file it came from, or NULL */
};

/* source-perf-opt.c */
int	 source_perf_opt_parse(struct source_perf *, const char *args,
	    char **pmus, char **cpus, char **cause);
int	 source_perf_opt_params(const struct source_perf *, char **cause);
int	 source_perf_opt_cpus(struct source_perf *, const char *which,
	    char **cause);
/* "0-1,4" (allocated). */
char	*source_perf_opt_cpus_text(const int *cpus, size_t n);

/* source-perf-error.c: the message for err from perf_event_open(). */
char	*source_perf_error_open(const struct source_perf *,
	    const struct sel_counter *, const struct perf_counter *, int err);

/* source-perf-const.c: a named constant of the frame and the file it
 * came from (owned by st), or -HV_ENOENT. */
int	 source_perf_const_get(struct source_perf *, const char *name,
	    double *v, const char **origin);

/* source-perf-lpar.c */
/*
 * One probe: open the hv_24x7 event of domain 3 for vcpu of lpar and
 * close it.  Returns 0 when it opened, else its errno.
 */
typedef int	(*perf_lpar_probe)(void *arg, uint16_t lpar, unsigned vcpu);

struct perf_lpar_scan {
	perf_lpar_probe	 probe;
	void		*arg;
	uint16_t	 lo, hi;	/* the ids probed; lo 0: none */
	unsigned	 gap;		/* stop after this many missing ids
					   in a row (0: never) */
	unsigned	 maxvcpus;	/* the most vcpus looked for */
	int		 privileged;	/* collect_privileged: 1, 0, -1 */
	/* Optional: wait ns before a probe answered busy (EBUSY, EAGAIN)
	 * is made again; NULL: again at once. */
	void		(*pause)(void *arg, uint64_t ns);
};

struct perf_lpar_found {
	struct topo_lpar *lpars;	/* ids ascending */
	size_t		 nlpars;
	int		 denied;	/* only this partition answers */
	unsigned	 refused;	/* ids refused with EACCES/EPERM */
	unsigned	 probes;	/* events opened */
	unsigned	 busy;		/* probes answered busy */
	int		 gave_up;	/* one stayed busy: the list may
					   lack partitions */
};

/*
 * Which partitions answer: this one first (as 0xffff; if it does not,
 * nothing is found), then each id lo..hi (up to gap ids in a row past
 * the last that answered), then each found partition's vcpus.  A probe
 * answered busy is made again, PERF_LPAR_TRIES times at most, after a
 * wait that doubles from 1 ms up to 100 ms.  Without the permission (privileged 0), or when no id answers
 * while this partition does, *out says denied and lists none.  Clear
 * *out with source_perf_lpar_found_free().
 */
void	 source_perf_lpar_scan(const struct perf_lpar_scan *,
	    struct perf_lpar_found *out);
void	 source_perf_lpar_found_free(struct perf_lpar_found *);
/* This partition's id from proc_root/powerpc/lparcfg, else 0xffff. */
uint16_t source_perf_lpar_self(const struct source_perf *);

/* source-perf.c */
/* An fd for counter pc in group_fd's group (-1: a new, disabled
 * leader), or -1 with errno set. */
int	 source_perf_fd_open(const struct perf_counter *, int group_fd);
/* The value of "key : value" in proc_root/cpuinfo, or NULL (allocated). */
char	*source_perf_cpuinfo(const struct source_perf *, const char *key);
/* The listings of st->pmus, for pmu_catalog_build() (caller frees). */
struct pmu_listing *source_perf_listings(const struct source_perf *);

#endif /* HVTOP_SOURCE_PERF_INT_H */
