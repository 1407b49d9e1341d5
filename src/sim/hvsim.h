/*
 * The simulated PowerVM hypervisor as a library, for programs that answer
 * a partition's hypervisor calls: hvtop's sim transport, and a hypervisor
 * emulator whose guest runs the real Linux hv_24x7 driver.  It takes the
 * bytes the partition passed and returns the bytes and the return code
 * PowerVM would, for the calls the 24x7 and GPCI drivers make:
 *
 *   H_GET_24X7_CATALOG_PAGE (0xF078)  hvsim_catalog_page()
 *   H_GET_24X7_DATA (0xF07C)          hvsim_data()
 *   H_GET_PERF_COUNTER_INFO (0xF080)  hvsim_perf_counter_info()
 *   RTAS ibm,get-system-parameter 43  hvsim_module_info()
 *
 * Pure and self-contained: no I/O, no clock, no globals.  The caller
 * reads the catalog file and passes its bytes, and passes the partition's
 * timebase with every data call.  The same spec, catalog and sequence of
 * (timebase, request) give the same result bytes.  Not thread-safe: one
 * caller at a time per hypervisor.
 */
#ifndef HVTOP_HVSIM_H
#define HVTOP_HVSIM_H

#include <stddef.h>
#include <stdint.h>

#define HVSIM_OPCODE_CATALOG_PAGE	0xf078
#define HVSIM_OPCODE_DATA		0xf07c
#define HVSIM_OPCODE_PERF_COUNTER_INFO	0xf080
#define HVSIM_RTAS_PROCESSOR_MODULE_INFO 43	/* system parameter token */

/* H_GET_PERF_COUNTER_INFO: the one request the drivers make at boot. */
#define HVSIM_GPCI_SYSTEM_CAPABILITIES	0x40
#define HVSIM_GPCI_PARAMS_SIZE		0x20	/* header before the data */
#define HVSIM_GPCI_CAPS_SIZE		0x10	/* the 0x40 request's data */

struct hvsim;

/*
 * A hypervisor for the frame that spec describes, with the keys hvtop's
 * --sim takes for the frame (sockets, chips_per_socket, nodes, cores,
 * smt, lpars, lpar, vcpus, dpo, seed, tb_hz, core_hz, nest_hz,
 * update_ms, update_us, uptime_ms, interface, cec, steady, start,
 * faults; see hvtop(1)), joined by commas; NULL or "" for the defaults.
 * nodes=N spreads the sockets over N drawers (by default 2 when the
 * sockets are even, else 1); dpo=LPAR@SECONDS has a Dynamic Platform
 * Optimizer move partition LPAR home at that second of the partition's
 * timebase (by default 3@30 when there is a partition 3; dpo=none for
 * never).  Partitions' vcpus are placed and dispatched as
 * docs/PARTITIONS.md describes.  catalog
 * holds a 24x7 catalog image (copied).  Without interface= in spec, the catalog decides.
 * Returns 0 with *out set (free with hvsim_free()), or a negative code
 * with *cause set (caller frees): an unknown key, a bad value, a catalog
 * that does not parse.
 */
int	 hvsim_new(const char *spec, const void *catalog, size_t catalog_len,
	    struct hvsim **out, char **cause);
void	 hvsim_free(struct hvsim *);

/*
 * hvsim_new() for a program that shows a catalog's problems itself (hvtop
 * with --sim catalog=FILE): with HVSIM_ANY_CATALOG in flags, a catalog
 * with problems is served as it stands, its counter space made of the
 * entries that can be trusted, instead of refused.  name (may be NULL)
 * names the catalog in messages about it ("catalog" when NULL).
 */
#define HVSIM_ANY_CATALOG	0x1
int	 hvsim_new_flags(const char *spec, const void *catalog,
	    size_t catalog_len, const char *name, unsigned flags,
	    struct hvsim **out, char **cause);

/*
 * Check the keys and values of a spec as hvsim_new() reads them, without
 * building a frame (whether the keys together make one is checked by
 * hvsim_new()): for a program that takes them among options of its own,
 * so a bad one is reported where it stands.  Returns 0, or a negative
 * code with *cause set (caller frees).
 */
int	 hvsim_spec_check(const char *spec, char **cause);

/*
 * Whether the keys of a spec, each already checked, make a frame
 * together (lpar below lpars, indexes within 16 bits ...).  Returns 0,
 * or a negative code with *cause set (caller frees).
 */
int	 hvsim_spec_frame_check(const char *spec, char **cause);

/* The spec's keys, for a message that lists them. */
#define HVSIM_SPEC_KEYS	"sockets, chips, chips_per_socket, nodes, cores, " \
	"smt, lpars, lpar, vcpus, dpo, seed, tb_hz, core_hz, nest_hz, " \
	"update_ms, update_us, uptime_ms, interface, cec, steady, start, " \
	"faults, model, serial, name, collect"

/*
 * H_GET_24X7_CATALOG_PAGE: page page of catalog version version into buf
 * (len must be 4096).  Returns r3.
 */
long	 hvsim_catalog_page(struct hvsim *, uint64_t version, uint64_t page,
	    uint8_t *buf, size_t len);

/*
 * H_GET_24X7_DATA at partition timebase tb: read reqlen request bytes,
 * write reslen result bytes (both at most 4096).  Returns r3; the result
 * header carries detailed_rc and failing_request_ix.
 */
long	 hvsim_data(struct hvsim *, uint64_t tb, const uint8_t *req,
	    size_t reqlen, uint8_t *res, size_t reslen);

/*
 * The Dynamic Platform Optimizer's move now, for a caller that decides
 * when (hvtop's --sim dpo_file=): the partition dpo= names moves home
 * from the frame's first second that starts after partition timebase tb
 * and after every second already served, if that is before the second
 * it was due at.  What was served before stays as it was, and from
 * then on the same timebase gives the same bytes.  Returns 0, or
 * -HV_ENOENT when the frame has no DPO event due (dpo=none, no such
 * partition, or steady=1 without dpo=); a tb of UINT64_MAX only asks
 * that.
 */
int	 hvsim_dpo(struct hvsim *, uint64_t tb);

/*
 * H_GET_PERF_COUNTER_INFO on the len bytes at buf (the 32-byte params
 * header, then the data area), answered in place.  Request 0x40 (system
 * performance capabilities) writes perf_collect_privileged (0 with
 * faults=denied) and a capability mask; other requests return
 * H_PARAMETER with detail_rc set, as for a counter this frame lacks.
 */
long	 hvsim_perf_counter_info(struct hvsim *, uint8_t *buf, size_t len);

/*
 * RTAS ibm,get-system-parameter PROCESSOR_MODULE_INFO into buf: be16
 * length, then be16 module types (1), sockets, chips per socket, cores
 * per chip.  Returns the bytes written, or -1 when len is too small.
 */
int	 hvsim_module_info(const struct hvsim *, uint8_t *buf, size_t len);

/* The frame's timebase frequency, and its counts. */
uint64_t hvsim_tb_hz(const struct hvsim *);
unsigned hvsim_chips(const struct hvsim *);
unsigned hvsim_cores(const struct hvsim *);
uint64_t hvsim_catalog_version(const struct hvsim *);
/* Threads per core (1, 2, 4, 8), and the partition's virtual processors. */
unsigned hvsim_smt(const struct hvsim *);
unsigned hvsim_vcpus(const struct hvsim *);
/*
 * Who the frame and the partition are, as lparcfg and the device tree
 * would tell the partition: model=, serial=, name= of the spec (by
 * default 9080-M9S, SIMFRAME1, sim), the partition's id, "lparN" as its
 * name, shared processors with an entitlement of one per vcpu.
 */
struct frame_ident;
void	 hvsim_ident(const struct hvsim *, struct frame_ident *);
/* The hcall interface version the frame speaks: 1 (POWER8) or 2. */
int	 hvsim_interface(const struct hvsim *);

/*
 * A named clock of the frame, in Hz, for catalog formulas that use one:
 * PB_Freq (also PB_FREQ; the fabric), CPU_Freq (also cpu_hz; the cores),
 * XBUS_Freq, ABUS_Freq, PHB_Freq (links and PCIe host bridges).  Returns
 * 0 with *value set, or -1 for a name the frame does not know.
 */
int	 hvsim_constant(const struct hvsim *, const char *name,
	    double *value);

/*
 * The hypervisor's own account of what it returned, for a program that
 * checks a partition's readings against it.  For every counter word an
 * H_GET_24X7_DATA call writes into the result buffer, one
 * HVSIM_OBS_VALUE (timing words of a record are not counters and are not
 * reported); then, for every call, good or refused, one HVSIM_OBS_CALL.
 * A call that is cut short (faults=short-results) reports only the words
 * it wrote.
 */
#define HVSIM_OBS_VALUE	1
#define HVSIM_OBS_CALL	2
struct hvsim_obs {
	int		 kind;		/* HVSIM_OBS_VALUE or _CALL */
	uint64_t	 call;		/* the call's number, from 1 */
	uint64_t	 tb;		/* the partition timebase it came at */
	/* HVSIM_OBS_CALL: r3, detailed_rc, the catalog version returned, and
	   how many values the call reported. */
	long		 rc;
	uint32_t	 drc;
	uint64_t	 version;
	uint64_t	 nvalues;
	/* HVSIM_OBS_VALUE: which counter (domain 1-6, partition, chip, core
	   or vcpu index, thread group, byte offset in the domain's counter
	   space), the value written, and its record's last update: the
	   frame timebase the record carries, and its update count (0: not
	   updated yet). */
	unsigned	 domain;
	unsigned	 lpar;
	unsigned	 index;
	unsigned	 tg;
	uint32_t	 offset;
	uint64_t	 value;
	uint64_t	 update_tb;
	uint64_t	 updates;
};
typedef void	 hvsim_observer(void *arg, const struct hvsim_obs *);

/* Send every call's account to fn with arg; NULL stops. */
void	 hvsim_observe(struct hvsim *, hvsim_observer *fn, void *arg);

/* Calls served so far: every call, and H_GET_24X7_DATA alone. */
uint64_t hvsim_calls(const struct hvsim *);
uint64_t hvsim_data_calls(const struct hvsim *);

#endif /* HVTOP_HVSIM_H */
