/*
 * A simulated PowerVM frame and its hypervisor's 24x7 interface: chips,
 * cores and SMT threads driven by a seeded workload, In-Memory
 * Accumulators that advance in steps, and the two hcalls hvtop needs,
 * H_GET_24X7_CATALOG_PAGE and H_GET_24X7_DATA, served from real buffers
 * as strictly as a real hypervisor would serve them.
 *
 * Pure: no clock and no I/O.  Time comes in with every call as a timebase
 * value (ticks since the frame started); randomness comes from the seed.
 * The same seed and the same sequence of (time, request) give the same
 * result bytes.  The catalog is given (model and image), never read here.
 */
#ifndef HVTOP_SIM_H
#define HVTOP_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "hcall/hcall.h"
#include "sim/hvsim.h"

struct catalog;

/*
 * The frame's link clocks (X-bus, A-bus, PCIe host bridges): what
 * XBUS_Freq, ABUS_Freq and PHB_Freq say, and what the links' cycle
 * counters count at.
 */
#define SIM_XBUS_HZ	4.8e9
#define SIM_ABUS_HZ	6.4e9
#define SIM_PHB_HZ	250e6
/* Virtual processors of all partitions together: the dispatcher keeps
 * about 460 bytes for each, so this bounds it near 30 MB. */
#define SIM_MAX_VCPUS_TOTAL	65536

/*
 * detailed_rc values written by the simulated hypervisor, with the r3
 * return code that goes with each.  PowerVM's own table is not public (the
 * 24x7 interface document is IBM-internal and Linux only logs the number),
 * so these values are hvtop's.  failing_request_ix names the offending
 * request, or is 0xff when the fault is in the buffer or its header.
 *
 * Checks run in this order: buffer lengths, busy, header, then each
 * request in turn (domain, permission, data, index, lpar, thread group),
 * and only when every request is good are results written.
 */
#define SIM_DRC_OK		0x0000	/* H_SUCCESS */
#define SIM_DRC_BUSY		0x0001	/* H_BUSY: try again (fault busy) */
#define SIM_DRC_SHORT		0x0002	/* H_SUCCESS, results cut short
					   (fault short-results) */
#define SIM_DRC_REQ_BUF_LEN	0x0100	/* H_P2: request buffer < 16 or
					   > 4096 bytes */
#define SIM_DRC_REQ_BUF_SHORT	0x0101	/* H_P2: shorter than header +
					   num_requests requests */
#define SIM_DRC_RES_BUF_LEN	0x0102	/* H_P4: result buffer < 32 or
					   > 4096 bytes */
#define SIM_DRC_VERSION		0x0200	/* H_PARAMETER: interface_version
					   not the one this frame speaks */
#define SIM_DRC_NO_REQUESTS	0x0201	/* H_PARAMETER: num_requests 0 */
#define SIM_DRC_TOO_MANY	0x0202	/* H_PARAMETER: more than 255 (v1)
					   or 127 (v2) requests */
#define SIM_DRC_RESERVED	0x0203	/* H_PARAMETER: reserved byte set */
#define SIM_DRC_DOMAIN		0x0300	/* H_PARAMETER: domain not 1-6 */
#define SIM_DRC_DOMAIN_EMPTY	0x0301	/* H_NOT_AVAILABLE: the catalog has
					   no counters in this domain */
#define SIM_DRC_OFFSET_ALIGN	0x0302	/* H_PARAMETER: data_offset not a
					   multiple of 8 */
#define SIM_DRC_DATA_SIZE	0x0303	/* H_PARAMETER: data_size 0 or not
					   a multiple of 8 */
#define SIM_DRC_OFFSET_RANGE	0x0304	/* H_PARAMETER: data_offset outside
					   the domain's counter space */
#define SIM_DRC_DATA_RANGE	0x0305	/* H_PARAMETER: data_offset +
					   data_size runs past it */
#define SIM_DRC_INDEX		0x0400	/* H_PARAMETER: starting_ix past the
					   last chip, core or vcpu */
#define SIM_DRC_INDEX_COUNT	0x0401	/* H_PARAMETER: max_ix 0 or past
					   the last index (0xffff in a
					   VCPU domain: every one from
					   starting_ix) */
#define SIM_DRC_LPAR		0x0402	/* H_PARAMETER: no such partition */
#define SIM_DRC_LPAR_COUNT	0x0403	/* H_PARAMETER: max_num_lpars 0 or
					   past the last partition */
#define SIM_DRC_TG		0x0404	/* H_PARAMETER: thread group past
					   the last (v2) */
#define SIM_DRC_TG_COUNT	0x0405	/* H_PARAMETER: max_num_thread_groups
					   0 or past the last (v2) */
#define SIM_DRC_NOT_PRIVILEGED	0x0500	/* H_AUTHORITY: physical domain, or
					   an explicit lpar, without the
					   "collect privileged" permission
					   (fault denied) */
#define SIM_DRC_LPAR_ZERO	0x0501	/* H_PERMISSION: lpar 0 asked for
					   by a partition other than 0 */
#define SIM_DRC_RESULT_FULL	0x0600	/* H_P4: results do not fit the
					   result buffer; those that fit
					   are written */

/*
 * H_GET_24X7_CATALOG_PAGE has no result buffer, so only r3 says what went
 * wrong: H_PARAMETER (buffer not 4096 bytes), H_P2 (page 0 asked with a
 * version other than 0, or a later page with a version other than the
 * current one), H_P3 (page past the catalog), H_NOT_AVAILABLE (no image),
 * H_BUSY (fault busy).
 */

/* Faults injected on purpose; all off by default. */
struct sim_faults {
	double		 busy;		/* busy:P, chance of H_BUSY per call */
	int		 denied;	/* denied: no "collect privileged" */
	uint64_t	 version_change_at; /* version-change@N: catalog
					   version + 1 from the Nth
					   H_GET_24X7_DATA call; 0 never */
	double		 short_results;	/* short-results[:P]: chance that a
					   good call returns only part */
	uint64_t	 from;		/* from@N: busy and short results
					   only from the Nth H_GET_24X7_DATA
					   call on (so that a partition's
					   events open); 0 from the first */
};

struct sim_config {
	unsigned	 sockets;
	unsigned	 chips_per_socket;
	unsigned	 cores_per_chip;
	unsigned	 smt;		/* threads per core: 1, 2, 4 or 8 */
	unsigned	 lpars;		/* partitions on the frame */
	unsigned	 lpar_id;	/* the partition hvtop runs in */
	unsigned	 vcpus;		/* virtual processors per partition */
	unsigned	 nodes;		/* drawers the sockets are spread
					   over; 0: 2 when sockets are even,
					   else 1 */
	int		 dpo;		/* a DPO event is due */
	int		 dpo_set;	/* dpo= given */
	unsigned	 dpo_lpar;	/* the partition DPO moves home */
	uint64_t	 dpo_s;		/* at this second of hvtop's time */
	uint64_t	 seed;
	uint64_t	 tb_hz;		/* timebase frequency */
	uint64_t	 core_hz;	/* core clock */
	uint64_t	 nest_hz;	/* fabric (PowerBus) clock */
	uint32_t	 update_us;	/* accumulator update period */
	uint64_t	 uptime_ms;	/* how long the frame ran before */
	int		 interface;	/* hcall interface version, 1 or 2 */
	uint64_t	 cec_cfg;	/* cec_cfg_instance_id */
	int		 steady;	/* every rate constant (steady=1) */
	int		 start_set;	/* start= given */
	uint64_t	 start;		/* counters read this at the first
					   H_GET_24X7_DATA call */
	struct sim_faults faults;
	/* Who the frame is: model=, serial=, name= (sim-ident.c). */
	char		 model[32];
	char		 serial[32];
	char		 name[64];
};

/* The frame's shape, derived from a config. */
struct sim_frame {
	unsigned	 sockets;
	unsigned	 chips_per_socket;
	unsigned	 cores_per_chip;
	unsigned	 smt;
	unsigned	 nchips;
	unsigned	 ncores;
	unsigned	 nodes;
	unsigned	 chips_per_node;
	unsigned	 thread_groups;	/* per core: 2 for SMT8, else 1 */
	unsigned	 lpars;
	unsigned	 lpar_id;
	unsigned	 vcpus;
	int		 dpo;		/* a DPO event is due */
	unsigned	 dpo_lpar;
	uint64_t	 dpo_tb;	/* its frame timebase */
	uint64_t	 tb_hz;
	uint64_t	 core_hz;
	uint64_t	 nest_hz;
	uint64_t	 update_tb;	/* update period in timebase ticks */
	uint64_t	 uptime_tb;	/* frame timebase when time 0 is seen */
};

/*
 * Defaults: a POWER9-like two-socket frame, two chips per socket, 6 SMT8
 * cores per chip, 512 MHz timebase, 3.8 GHz cores, 2 GHz fabric,
 * accumulators updated every 10 ms, up for a minute before time 0,
 * interface v2, 4 partitions of 16 vcpus, hvtop in partition 1, seed 1,
 * no faults; the sockets in 2 nodes when even, DPO moving partition 3
 * home 30 s after time 0.
 */
void	 sim_config_defaults(struct sim_config *);

/*
 * Set one key (sockets, chips (= sockets), chips_per_socket, nodes, cores,
 * smt, lpars, lpar, vcpus, dpo, seed, tb_hz, core_hz, nest_hz, update_ms,
 * update_us, uptime_ms, interface, cec, steady, start, faults, model,
 * serial, name, collect).  collect=0 is the HMC's "Allow performance
 * information collection" off: faults=denied.
 * dpo=LPAR@SECONDS moves partition LPAR home at that second of hvtop's
 * time (dpo=none: never).
 * steady=1 holds every vcpu's load at its first second's.  start=N (or
 * start=-N for 2^64 - N) makes every counter read N at the first
 * H_GET_24X7_DATA call and count on from there, so a value near 2^64
 * wraps soon after.  Returns 0, or -HV_ENOENT (unknown
 * key) / -HV_ERANGE / -HV_EFORMAT with *cause set (caller frees).
 */
int	 sim_config_set(struct sim_config *, const char *key, const char *val,
	    char **cause);

/* Set "key=val,key=val,..." in turn; errors as sim_config_set(). */
int	 sim_config_parse(struct sim_config *, const char *spec,
	    char **cause);

/*
 * Derive the frame from a config, checking it is coherent.  Returns 0, or
 * -HV_ERANGE with *cause set (caller frees).
 */
int	 sim_frame_init(struct sim_frame *, const struct sim_config *,
	    char **cause);

/* Index counts and thread groups, as the planner wants them. */
void	 sim_frame_topology(const struct sim_frame *,
	    struct hcall_topology *);

/*
 * Where a partition's home cores are.  Partitions are placed in the order
 * of their numbers, each by its entitled capacity (the number of its
 * vcpus does not count, as for a shared processor partition): after the
 * one before, moved on to the next chip when it fits in a chip but not
 * in what is left of this one, else to the next node when it fits in a
 * node.  Past the last core placement starts again at the first, on
 * cores already entitled to others.
 */
#define SIM_SPAN_CHIP	0		/* home cores in one chip */
#define SIM_SPAN_NODE	1		/* in one node */
#define SIM_SPAN_FRAME	2		/* across nodes */
struct sim_home {
	double		 entitled;	/* processing units */
	unsigned	 first;		/* home cores first .. first + n - 1, */
	unsigned	 ncores;	/* modulo the frame's cores */
	int		 span;		/* SIM_SPAN_* */
	int		 crowded;	/* shares home cores with another */
};
void	 sim_frame_place(const struct sim_frame *, unsigned lpar,
	    struct sim_home *);

/* The chip and node of a core, and the home core of a partition's vcpu. */
unsigned sim_frame_core_chip(const struct sim_frame *, unsigned core);
unsigned sim_frame_core_node(const struct sim_frame *, unsigned core);
unsigned sim_frame_vcpu_core(const struct sim_frame *, unsigned lpar,
	    unsigned vcpu);

/*
 * Faults: "busy:P", "denied", "version-change@N", "short-results" or
 * "short-results:P", "from@N", several joined with '+'.  Adds to *f.  Returns 0, or
 * -HV_EFORMAT with *cause set (caller frees).
 */
/*
 * The frame's identity keys (sim-ident.c): the defaults, and model=,
 * serial=, name=, collect=; -HV_ENOENT for another key (no *cause).
 */
void	 sim_ident_defaults(struct sim_config *);
int	 sim_ident_set(struct sim_config *, const char *key, const char *val,
	    char **cause);

int	 sim_fault_parse(struct sim_faults *f, const char *spec,
	    char **cause);
/* Advance the fault dice in *state; true with probability p. */
int	 sim_fault_roll(uint64_t *state, double p);

/*
 * The workload: per virtual processor, seeded load phases (utilisation,
 * instructions per cycle, memory bytes per instruction, write share,
 * remote share) that follow its partition's phase as a chip's cores
 * would.  What the physical cores count is what the dispatcher
 * (sim_lpar_*) runs on them.
 */
enum sim_component {
	SIM_C_TIME,		/* ticks */
	SIM_C_BUSY,		/* busy ticks */
	SIM_C_IDLE,		/* idle ticks */
	SIM_C_INST,		/* busy ticks x instructions per cycle */
	SIM_C_MEMRD,		/* x memory bytes read per cycle */
	SIM_C_MEMWR,		/* x memory bytes written per cycle */
	SIM_C_FABRIC,		/* x bytes moved between chips per cycle */
	SIM_NCOMPONENTS
};

struct sim_workload;

/*
 * Returns a workload (caller frees with sim_workload_free()).  A steady
 * one keeps the levels of its first second for ever, so that every rate
 * is the same over any window.
 */
struct sim_workload *sim_workload_new(const struct sim_frame *,
	    uint64_t seed, int steady);
void	 sim_workload_free(struct sim_workload *);
/*
 * A vcpu's rates at tb as if it ran the whole second it asks for (time
 * is 1, busy its share of it), from a stream of the partition's own in
 * which the partition is a chip and its vcpus the cores; one slot (a
 * second) in ticks.
 */
void	 sim_workload_vcpu_rates(const struct sim_workload *, unsigned lpar,
	    unsigned vcpu, uint64_t tb, double out[SIM_NCOMPONENTS]);
uint64_t sim_workload_slot_tb(const struct sim_workload *);
/* A 64-bit hash of the seed and three keys (splitmix64). */
uint64_t sim_workload_hash(uint64_t seed, uint64_t a, uint64_t b,
	    uint64_t c);

/*
 * The dispatcher: the partitions' virtual processors on the physical
 * cores, one account that both views read.  Every second each vcpu asks
 * for core time; it is served on its home core up to its share of the
 * entitlement, then from idle capacity only: its home core, the other
 * cores of its home chip, one other chip of its home node, one chip of
 * another node (each fixed per vcpu).  A core counts what the vcpus
 * dispatched on it did, the hypervisor's share and idle time; a vcpu's
 * four places (domains 3-6, disjoint) are where its time was served.
 * The whole frame is integrated second by second from its start.
 */
enum sim_place {
	SIM_PLACE_HOME_CORE,	/* domain 3 */
	SIM_PLACE_HOME_CHIP,	/* domain 4: another core of the home chip */
	SIM_PLACE_HOME_NODE,	/* domain 5: another chip of the home node */
	SIM_PLACE_REMOTE_NODE,	/* domain 6: another node */
	SIM_NPLACES
};

struct sim_lpar;

struct sim_lpar *sim_lpar_new(const struct sim_frame *,
	    const struct sim_workload *);
void	 sim_lpar_free(struct sim_lpar *);
/*
 * The DPO event now rather than at its second: the partition moves home
 * from the first second that starts after frame timebase tb and after
 * every second already dispatched, so that what was served stays as it
 * was; never later than it was due.
 */
void	 sim_lpar_dpo(struct sim_lpar *, uint64_t tb);
/* A partition's placement. */
const struct sim_home *sim_lpar_place(struct sim_lpar *, unsigned lpar);
unsigned sim_lpar_home_core(struct sim_lpar *, unsigned lpar,
	    unsigned vcpu);
/*
 * The chip a vcpu's work in a place runs on (its home chip when the
 * frame has no such place): the place's counts step with its updates.
 */
unsigned sim_lpar_place_chip(struct sim_lpar *, unsigned lpar,
	    unsigned vcpu, unsigned place);
/*
 * The share of a vcpu's asked time served in each place during the slot
 * of tb (their sum is at most 1: the rest waited).
 */
void	 sim_lpar_shares(struct sim_lpar *, unsigned lpar, unsigned vcpu,
	    uint64_t tb, double share[SIM_NPLACES]);
/* A vcpu's rates in the slot of tb, as dispatched; a core's. */
void	 sim_lpar_vcpu_rates(struct sim_lpar *, unsigned lpar, unsigned vcpu,
	    uint64_t tb, double out[SIM_NCOMPONENTS]);
void	 sim_lpar_core_rates(struct sim_lpar *, unsigned core, uint64_t tb,
	    double out[SIM_NCOMPONENTS]);
/*
 * Integrals from 0 to frame timebase tb: of a vcpu's components per
 * place (summed over the places they are the vcpu's whole), of one
 * place, of a core, of a chip (its cores; its time once).  Asking a
 * time more than a second before the latest one asked sums again from
 * 0, so tb should count from the frame's start.
 */
void	 sim_lpar_vcpu(struct sim_lpar *, unsigned lpar, unsigned vcpu,
	    uint64_t tb, double out[SIM_NPLACES][SIM_NCOMPONENTS]);
void	 sim_lpar_vcpu_place(struct sim_lpar *, unsigned lpar, unsigned vcpu,
	    unsigned place, uint64_t tb, double out[SIM_NCOMPONENTS]);
void	 sim_lpar_core(struct sim_lpar *, unsigned core, uint64_t tb,
	    double out[SIM_NCOMPONENTS]);
void	 sim_lpar_chip(struct sim_lpar *, unsigned chip, uint64_t tb,
	    double out[SIM_NCOMPONENTS]);
/* A place's integrals at tb, taken once and kept (start='s base). */
const double *sim_lpar_vcpu_base(struct sim_lpar *, unsigned lpar,
	    unsigned vcpu, unsigned place, uint64_t tb);

/* The simulated hypervisor. */
struct sim_hv;

/*
 * Create a hypervisor for a config, serving the catalog cat (its groups,
 * schemas and events define the counter space of every domain and index)
 * and, for H_GET_24X7_CATALOG_PAGE, the image bytes it was parsed from
 * (copied; may be NULL, then catalog pages are H_NOT_AVAILABLE).  cat is
 * only read during the call.  Returns 0 with *out (caller frees with
 * sim_hv_free()), or a negative HV_E* code with *cause set (caller frees).
 */
int	 sim_hv_new(const struct sim_config *, const struct catalog *cat,
	    const void *image, size_t image_len, struct sim_hv **out,
	    char **cause);
void	 sim_hv_free(struct sim_hv *);

const struct sim_frame *sim_hv_frame(const struct sim_hv *);
/* The catalog version served now (changes with version-change@N). */
uint64_t sim_hv_catalog_version(const struct sim_hv *);
/* Whether the partition may collect physical and other-lpar data. */
int	 sim_hv_privileged(const struct sim_hv *);
/* The hcall interface version it speaks, 1 or 2. */
int	 sim_hv_interface(const struct sim_hv *);

/*
 * H_GET_24X7_CATALOG_PAGE: copy page number page of the catalog into
 * buf (len must be 4096).  Returns the PAPR return code (r3).
 */
long	 sim_hv_catalog_page(struct sim_hv *, uint64_t version,
	    uint64_t page, uint8_t *buf, size_t len);

/*
 * H_GET_24X7_DATA at timebase tb: read the request buffer (reqlen bytes),
 * write the result buffer (reslen bytes).  Returns the PAPR return code
 * (r3); detailed_rc and failing_request_ix are in the result header
 * whenever the result buffer is at least 32 bytes.
 */
long	 sim_hv_data(struct sim_hv *, uint64_t tb, const uint8_t *req,
	    size_t reqlen, uint8_t *res, size_t reslen);

/*
 * Report what each H_GET_24X7_DATA call returns to fn (NULL stops): see
 * hvsim_observe().
 */
void	 sim_hv_observe(struct sim_hv *, hvsim_observer *fn, void *arg);

/* Calls served so far (both hcalls), and H_GET_24X7_DATA calls. */
uint64_t sim_hv_calls(const struct sim_hv *);
uint64_t sim_hv_data_calls(const struct sim_hv *);
/* sim_lpar_dpo() at partition timebase tb; -HV_ENOENT when the frame
 * has no DPO event due. */
int	 sim_hv_dpo(struct sim_hv *, uint64_t tb);

#endif /* HVTOP_SIM_H */
