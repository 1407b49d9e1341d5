/*
 * The strings a Linux PMU publishes under sysfs, and the rules that turn
 * them into perf_event_attr config words.
 *
 * format/NAME holds where a field lives ("config:0-3", "config1:0-15",
 * "config:7", "config:0-7,32-35"); events/NAME holds an event as terms
 * ("domain=1,offset=0xe0,chip=?,lpar=0x0", "event=0x3c,umask=0x00", a bare
 * "edge").  A term whose value is "?" is a parameter the user must supply;
 * the 2014 hv_24x7 kernel wrote the parameter's name instead
 * ("starting_index=core,lpar=sibling_guest_id").  The hv_24x7 rules are
 * the kernel's own checks in h_24x7_event_init(), applied before any
 * syscall so that a bad request gets a precise message.
 *
 * Pure: strings in, numbers and messages out.  No I/O, no syscalls: the
 * perf source reads the files and opens the events.
 */
#ifndef HVTOP_PMU_H
#define HVTOP_PMU_H

#include <stddef.h>
#include <stdint.h>

/* perf_event_attr words a format may name: config, config1, config2. */
#define PMU_CONFIG_WORDS	3
#define PMU_FORMAT_RANGES_MAX	8	/* "config:0-7,32-35" has 2 */

struct pmu_format_range {
	uint8_t		 lo;		/* first bit, 0..63 */
	uint8_t		 hi;		/* last bit, lo..63 */
};

struct pmu_format {
	char		*name;		/* the file name: "domain" */
	int		 word;		/* 0 config, 1 config1, 2 config2 */
	struct pmu_format_range ranges[PMU_FORMAT_RANGES_MAX];
	size_t		 nranges;	/* in the order written */
	unsigned	 width;		/* bits in all ranges, 1..64 */
	uint64_t	 mask;		/* those bits within the word */
};

/*
 * Parse the contents of format/NAME (trailing whitespace and newline
 * allowed).  Ranges may not overlap one another.  Returns 0 with *out
 * filled (clear with pmu_format_clear()), or -HV_EFORMAT / -HV_ERANGE with
 * *cause (caller frees) naming the column.
 */
int	 pmu_format_parse(const char *name, const char *text, size_t len,
	    struct pmu_format *out, char **cause);
void	 pmu_format_clear(struct pmu_format *);
/* The largest value the format holds: 2^width - 1. */
uint64_t pmu_format_max(const struct pmu_format *);
/*
 * Store value in cfg[] the way perf does: the value's low bit goes to the
 * lowest bit of the first range, and so on through the ranges in the order
 * written; bits of the format the value does not set are cleared.
 * Returns 0, or -HV_ERANGE with "value too big for format NAME (max N)".
 */
int	 pmu_format_encode(const struct pmu_format *, uint64_t value,
	    uint64_t cfg[PMU_CONFIG_WORDS], char **cause);
/* The inverse: the format's value inside cfg[]. */
uint64_t pmu_format_decode(const struct pmu_format *,
	    const uint64_t cfg[PMU_CONFIG_WORDS]);
/* By name; NULL when absent. */
const struct pmu_format *pmu_format_find(const struct pmu_format *,
	    size_t n, const char *name);

enum pmu_term_kind {
	PMU_TERM_VALUE,		/* name=NUMBER, or a bare name (= 1) */
	PMU_TERM_PARAM,		/* name=? or name=PARAMNAME */
};

struct pmu_term {
	char		*name;
	enum pmu_term_kind kind;
	uint64_t	 value;		/* PMU_TERM_VALUE */
	char		*param;		/* PMU_TERM_PARAM: "?" gives name */
};

struct pmu_event {
	char		*name;		/* the file name */
	struct pmu_term	*terms;
	size_t		 nterms;
};

/*
 * Parse the contents of events/NAME.  Values are decimal or 0x hex;
 * "?" or an identifier makes a parameter.  Returns 0 with *out filled
 * (clear with pmu_event_clear()), or -HV_EFORMAT with *cause naming the
 * column.
 */
int	 pmu_event_parse(const char *name, const char *text, size_t len,
	    struct pmu_event *out, char **cause);
void	 pmu_event_clear(struct pmu_event *);
/* The term of that name; NULL when absent. */
const struct pmu_term *pmu_event_term(const struct pmu_event *,
	    const char *name);
/* Nonzero when some term is a parameter. */
int	 pmu_event_has_params(const struct pmu_event *);
/*
 * The terms as sysfs writes them, for a description: values in hex
 * ("domain=0x1,offset=0x80"), a parameter as "chip=?" or, when it has a
 * name of its own, "starting_index=core".  Allocated (caller frees).
 */
char	*pmu_event_text(const struct pmu_event *);

struct pmu_param {
	const char	*name;
	uint64_t	 value;
};

/*
 * Build the config words of an event.  The event's terms are applied in
 * order; a parameter term takes the value of the param named like the
 * parameter ("?" names the term itself), else the param named like the
 * term.  Then every param naming a format that no parameter term used is
 * applied on top, replacing what the event set: that is how a caller
 * chooses the domain of a core event or its own partition's lpar.  Params
 * that name neither are ignored, so one list fits every event of a PMU.
 * Terms named config, config1 and config2 without a format set the whole
 * word.  cfg[] is zeroed first.  Returns 0, or -HV_ENOENT ("required
 * parameter 'chip' not specified", unknown term) or -HV_ERANGE (value too
 * big) with *cause (caller frees).
 */
int	 pmu_event_encode(const struct pmu_event *,
	    const struct pmu_format *, size_t nformats,
	    const struct pmu_param *, size_t nparams,
	    uint64_t cfg[PMU_CONFIG_WORDS], char **cause);

/*
 * The hv_24x7 PMU, as the kernel's h_24x7_event_init() sees it; privileged
 * is hv_gpci/interface/collect_privileged.
 */
#define PMU_HV24X7_DOMAIN_MAX	7	/* first invalid domain */

struct pmu_hv24x7_frame {
	int		 interface;	/* hcall interface, 1 or 2 */
	int		 aggregate;	/* v2 on SMT8: thread groups summed */
	unsigned	 chips;		/* index limits; 0: not checked */
	unsigned	 cores;
	unsigned	 vcpus;
	int		 privileged;	/* 1, 0, or -1: unknown */
};

/*
 * The domain of an hv_24x7 events/ entry: its domain term, else the one
 * its index parameter implies (chip: 1, vcpu: 3, otherwise core: 2).
 */
int	 pmu_hv24x7_event_domain(const struct pmu_event *);
/* config from the three fields, as the kernel's format files place them. */
uint64_t pmu_hv24x7_config(int domain, unsigned index, uint32_t offset);
/* "Physical Chip" ... "VCPU Remote Node"; "?" otherwise. */
const char *pmu_hv24x7_domain_name(int domain);

/*
 * Apply the kernel's checks (reserved bits, domain 1-6, offset alignment,
 * permission) and the frame's index limits to an event about to be
 * opened; name (may be NULL) is used in the message.  Returns 0,
 * -HV_EFORMAT (reserved bits), -HV_ERANGE (domain, offset, index) or
 * -EACCES (the partition may not read this; the message names the HMC
 * setting) with *cause (caller frees).
 */
int	 pmu_hv24x7_check(const char *name,
	    const uint64_t cfg[PMU_CONFIG_WORDS],
	    const struct pmu_hv24x7_frame *, char **cause);

/*
 * Bytes one counter of this domain takes in the 4096-byte result buffer:
 * a result header and one element per thread group returned.
 */
unsigned pmu_hv24x7_result_bytes(const struct pmu_hv24x7_frame *,
	    int domain);
/* Requests one hcall may carry: 255 on v1, 127 on v2. */
unsigned pmu_hv24x7_max_requests(const struct pmu_hv24x7_frame *);
/*
 * How many counters of these domains, taken in order from the first, fit
 * in one group read (one hcall): both the request count and the result
 * bytes must fit.  POWER8 gives 169, v2 127, v2 SMT8 core domains 72.
 * Returns at least 1 when n > 0.
 */
size_t	 pmu_hv24x7_group_fit(const struct pmu_hv24x7_frame *,
	    const int *domains, size_t n);

/*
 * A kernel CPU list ("0-3,8,10-11\n", as in cpumask and online) into CPU
 * numbers, ascending as written.  An empty list gives n = 0 and *out NULL.
 * At most PMU_CPUS_MAX CPUs.  Returns 0 with *out (caller frees), or
 * -HV_EFORMAT / -HV_ERANGE with *cause naming the column.
 */
#define PMU_CPUS_MAX		65536
int	 pmu_cpulist_parse(const char *text, size_t len, int **out,
	    size_t *n, char **cause);

/*
 * A catalog model from sysfs listings, for a PMU that has no binary
 * catalog (any PMU but hv_24x7), or for hv_24x7 when its catalog cannot be
 * read.  The listings are what the perf source read and parsed: this code
 * reads nothing.
 */
struct catalog;

/* One PMU's events/ directory, already read and parsed. */
struct pmu_listing {
	const char		*name;		/* the PMU: "msr" */
	const struct pmu_event	*events;	/* in name order */
	size_t			 nevents;
	/* Per event, each may be NULL, as may the arrays: */
	char *const		*descs;		/* event_descs/NAME */
	char *const		*units;		/* events/NAME.unit */
	char *const		*scales;	/* events/NAME.scale */
};

enum pmu_catalog_kind {
	/*
	 * Counted per CPU: every event in CATALOG_DOMAIN_CPU at offset 8 x
	 * its position in the model, and one group per PMU and 16 events
	 * ("msr"; "msr.2" and on for more), so -g works too.
	 */
	PMU_CATALOG_CPU,
	/* hv_24x7's own listing: domain and offset from each event's
	 * terms (pmu_hv24x7_event_domain()), no groups. */
	PMU_CATALOG_HV24X7,
};

/*
 * The model of n listings: their events in listing order, then name order
 * (event k of the model is found with pmu_catalog_locate()), each with
 * record length 8 (so no event is hidden as a placeholder), no formula,
 * desc "PMU/TERMS/" (pmu_event_text()) and long_desc "unit U, scale S" or
 * the event_descs/ text.  interface is the model's hcall interface (2 for
 * a per-CPU PMU).  Returns the model, reindexed (caller frees with
 * catalog_free()).
 */
struct catalog *pmu_catalog_build(const struct pmu_listing *, size_t n,
	    enum pmu_catalog_kind, int interface);
/*
 * Which listing (*p) and event of it (*e) event k of such a model is.
 * Returns 0, or -HV_ENOENT when k is past the last event.
 */
int	 pmu_catalog_locate(const struct pmu_listing *, size_t n, size_t k,
	    size_t *p, size_t *e);

#endif /* HVTOP_PMU_H */
