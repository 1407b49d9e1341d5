/*
 * Facts of the hypervisor's 24x7 ABI that more than the hcall codec
 * needs: buffer and layout sizes, how many requests one H_GET_24X7_DATA
 * may carry per interface version, the performance domains and the
 * own-partition index.  The codec (hcall/) lays buffers out with them;
 * the kernel model (pmu/) judges what one perf group read can carry with
 * them, without the codec.  Pure: constants only.
 *
 * Layouts: PAPR's H_GET_24X7_DATA, as Linux declares it in
 * arch/powerpc/perf/hv-24x7.h; the fields of each layout are in
 * hcall-layout.def, in the hcall folder.
 */
#ifndef HVTOP_MODEL_HV_ABI_H
#define HVTOP_MODEL_HV_ABI_H

/* Neither buffer may cross a 4 KiB boundary, so neither is larger. */
#define HV_BUF_SIZE		4096
#define HV_PAGE_SIZE		4096	/* one catalog page */

/* Layout sizes, by interface version where they differ. */
#define HV_REQ_HDR_SIZE		16	/* request buffer header */
#define HV_REQ_V1_SIZE		16	/* one request (v1) */
#define HV_REQ_V2_SIZE		32	/* one request (v2) */
#define HV_RES_HDR_SIZE		32	/* result buffer header */
#define HV_RESULT_SIZE		8	/* one result's header */
#define HV_ELEM_V1_SIZE		8	/* one element's header (v1) */
#define HV_ELEM_V2_SIZE		16	/* one element's header (v2) */

#define HV_MAX_REQUESTS_V1	255	/* (4096 - 16) / 16; num_requests u8 */
#define HV_MAX_REQUESTS_V2	127	/* (4096 - 16) / 32 */
/* Elements with the minimum 8 data bytes (v1) filling a result buffer. */
#define HV_MAX_ELEMENTS		254	/* (4096 - 32) / (8 + 8) */
#define HV_MAX_RESULTS		255	/* num_results is u8 */

#define HV_LPAR_SELF		0xffff	/* starting_lpar_ix: own partition */

/* Performance domains (the catalog and the kernel use the same numbers). */
#define HV_DOMAIN_CHIP		1
#define HV_DOMAIN_CORE		2
#define HV_DOMAIN_VCPU_HOME_CORE 3
#define HV_DOMAIN_VCPU_HOME_CHIP 4
#define HV_DOMAIN_VCPU_HOME_NODE 5
#define HV_DOMAIN_VCPU_REMOTE_NODE 6
#define HV_DOMAIN_MAX		7	/* first invalid value */

/* Requests one call may carry: 255 on v1, 127 on v2, 0 on no version. */
static inline unsigned
hv_abi_max_requests(int version)
{
	switch (version) {
	case 1:
		return (HV_MAX_REQUESTS_V1);
	case 2:
		return (HV_MAX_REQUESTS_V2);
	}
	return (0);
}

#endif /* HVTOP_MODEL_HV_ABI_H */
