/*
 * A transport carries the exact PAPR buffers of the 24x7 hcalls to a
 * hypervisor and back, and nothing else: the hcall client source
 * (source-hcall.c) plans the requests, encodes them, decodes what comes
 * back and takes the values out, the same code over every transport.
 *
 * The two hcalls are the transport's whole traffic.  Besides them a
 * transport has what a partition learns from its platform rather than
 * from those hcalls:
 *   open, close	a transport owns its hypervisor (the simulated one, a
 *			device for a real one) and says what it is: the
 *			label keeps a simulated screen from being taken for
 *			a real one;
 *   topology		the frame's shape the planner checks indexes against
 *			and the partition's timebase frequency (RTAS module
 *			information, the GPCI capabilities, the device tree
 *			on a real partition);
 *   constant		the frame's named clocks catalog formulas use.
 * Time needs no operation but one: H_GET_24X7_DATA is made at a partition
 * timebase, which the client derives from its clock and the topology's
 * timebase frequency; a transport to a real hypervisor ignores it.  The
 * wait before a busy hypervisor is asked again is the transport's
 * (pause).
 */
#ifndef HVTOP_TRANSPORT_H
#define HVTOP_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>

struct topology;

struct transport_ops {
	const char	*name;
	/*
	 * Open with the source's "key=value,..." arguments (may be NULL).
	 * Returns 0 with *ctx and *label (a "SIMULATED ..." header text;
	 * the caller frees it) set, or a negative code with *cause set
	 * (caller frees).
	 */
	int		(*open)(const char *args, void **ctx, char **label,
			    char **cause);
	/* H_GET_24X7_CATALOG_PAGE into buf (len 4096).  Returns r3. */
	long		(*catalog_page)(void *, uint64_t version, uint64_t page,
			    uint8_t *buf, size_t len);
	/*
	 * H_GET_24X7_DATA at partition timebase tb: reqlen request bytes
	 * in, reslen result bytes out.  Returns r3.
	 */
	long		(*data)(void *, uint64_t tb, const uint8_t *req,
			    size_t reqlen, uint8_t *res, size_t reslen);
	/* The frame and partition; 0 or a negative code with *cause. */
	int		(*topology)(void *, struct topology *, char **cause);
	/* A named constant of the frame (PB_Freq ...): 0, or -HV_ENOENT. */
	int		(*constant)(void *, const char *, double *);
	/*
	 * Optional: wait ns before a busy hypervisor is asked again (NULL:
	 * ask again at once).  The wait is the transport's, so that a
	 * simulated hypervisor need not cost real time.
	 */
	void		(*pause)(void *, uint64_t ns);
	void		(*close)(void *);
};

/* The simulated PowerVM (sim/hvsim.h). */
extern const struct transport_ops transport_sim_ops;

#endif /* HVTOP_TRANSPORT_H */
