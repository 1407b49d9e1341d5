/*
 * The hv_24x7 PMU's rules, checked before perf_event_open() so that a bad
 * request gets a message saying what is wrong instead of a bare EINVAL,
 * EACCES or EIO: the kernel's h_24x7_event_init() checks (reserved bits,
 * domain 1-6, 8-byte offsets, the hypervisor's collect-privileged
 * permission), the frame's index limits, and how many counters one group
 * read (one H_GET_24X7_DATA) can carry, as Linux's
 * arch/powerpc/perf/hv-24x7.c decides them.  Pure: no I/O.
 */
#include "config.h"

#include "pmu/pmu.h"

#include <errno.h>
#include <stdlib.h>

#include "model/hv-abi.h"
#include "util/hverr.h"
#include "util/xalloc.h"

/* Kernel format fields (hv-24x7.c EVENT_DEFINE_RANGE_FORMAT). */
#define HV24X7_DOMAIN_MASK	0xfULL			/* config:0-3 */
#define HV24X7_RESERVED1	0xfff0ULL		/* config:4-15 */
#define HV24X7_INDEX_SHIFT	16			/* config:16-31 */
#define HV24X7_OFFSET_SHIFT	32			/* config:32-63 */
#define HV24X7_LPAR_MASK	0xffffULL		/* config1:0-15 */

/* The domains an events/ entry's index parameter implies. */
#define HV24X7_DOMAIN_CHIP		HV_DOMAIN_CHIP
#define HV24X7_DOMAIN_CORE		HV_DOMAIN_CORE
#define HV24X7_DOMAIN_VCPU_HOME_CORE	HV_DOMAIN_VCPU_HOME_CORE

/* Buffer sizes and limits are the hypervisor's ABI (model/hv-abi.h). */
#define HV24X7_DATA_SIZE	8	/* the kernel reads one counter */
#define HV24X7_THREAD_GROUPS	2	/* SMT8: two groups of four */

int
pmu_hv24x7_event_domain(const struct pmu_event *ev)
{
	const struct pmu_term	*t;

	if ((t = pmu_event_term(ev, "domain")) != NULL &&
	    t->kind == PMU_TERM_VALUE)
		return ((int)t->value);
	if (pmu_event_term(ev, "chip") != NULL)
		return (HV24X7_DOMAIN_CHIP);
	if (pmu_event_term(ev, "vcpu") != NULL)
		return (HV24X7_DOMAIN_VCPU_HOME_CORE);
	return (HV24X7_DOMAIN_CORE);
}

uint64_t
pmu_hv24x7_config(int domain, unsigned index, uint32_t offset)
{
	return (((uint64_t)domain & HV24X7_DOMAIN_MASK) |
	    ((uint64_t)(index & 0xffff) << HV24X7_INDEX_SHIFT) |
	    ((uint64_t)offset << HV24X7_OFFSET_SHIFT));
}

const char *
pmu_hv24x7_domain_name(int domain)
{
	static const char *const names[PMU_HV24X7_DOMAIN_MAX] = {
		NULL, "Physical Chip", "Physical Core", "VCPU Home Core",
		"VCPU Home Chip", "VCPU Home Node", "VCPU Remote Node"
	};

	if (domain < 1 || domain >= PMU_HV24X7_DOMAIN_MAX)
		return ("?");
	return (names[domain]);
}

int
pmu_hv24x7_check(const char *name, const uint64_t cfg[PMU_CONFIG_WORDS],
    const struct pmu_hv24x7_frame *fr, char **cause)
{
	const char	*what = name != NULL ? name : "hv_24x7 event";
	const char	*term;
	uint64_t	 offset, lpar;
	unsigned	 index, limit;
	int		 domain;

	if ((cfg[0] & HV24X7_RESERVED1) != 0 ||
	    (cfg[1] & ~HV24X7_LPAR_MASK) != 0 || cfg[2] != 0) {
		*cause = xasprintf("%s: reserved bits set (config bits 4-15 "
		    "= 0x%llx, config1 bits 16-63 = 0x%llx, config2 = "
		    "0x%llx); the kernel refuses the event", what,
		    (unsigned long long)((cfg[0] & HV24X7_RESERVED1) >> 4),
		    (unsigned long long)(cfg[1] >> 16),
		    (unsigned long long)cfg[2]);
		return (-HV_EFORMAT);
	}
	domain = (int)(cfg[0] & HV24X7_DOMAIN_MASK);
	index = (unsigned)((cfg[0] >> HV24X7_INDEX_SHIFT) & 0xffff);
	offset = cfg[0] >> HV24X7_OFFSET_SHIFT;
	lpar = cfg[1] & HV24X7_LPAR_MASK;
	if (domain == 0 || domain >= PMU_HV24X7_DOMAIN_MAX) {
		*cause = xasprintf("%s: invalid domain %d: hv_24x7 domains "
		    "are 1 (Physical Chip) to 6 (VCPU Remote Node)", what,
		    domain);
		return (-HV_ERANGE);
	}
	if (offset % 8 != 0) {
		*cause = xasprintf("%s: offset 0x%llx is not a multiple of 8 "
		    "(counters are 8-byte aligned)", what,
		    (unsigned long long)offset);
		return (-HV_ERANGE);
	}
	if (domain == 1) {
		limit = fr->chips;
		term = "chip";
	} else if (domain == 2) {
		limit = fr->cores;
		term = "core";
	} else {
		limit = fr->vcpus;
		term = "vcpu";
	}
	if (limit != 0 && index >= limit) {
		*cause = xasprintf("%s: %s index %u is out of range for "
		    "domain %d (%s): %s %u %s%s (0-%u)", what, term, index,
		    domain, pmu_hv24x7_domain_name(domain),
		    domain <= 2 ? "the frame has" : "this partition has",
		    limit, term, limit == 1 ? "" : "s", limit - 1);
		return (-HV_ERANGE);
	}
	if (fr->privileged == 0 && domain <= 2) {
		*cause = xasprintf("%s: domain %d (%s) counts for the whole "
		    "frame, and the hypervisor lets this partition read only "
		    "its own counters (hv_gpci/interface/collect_privileged "
		    "is 0): on the HMC, enable \"Allow performance "
		    "information collection\" in this partition's "
		    "properties, or watch the same event in a VCPU domain "
		    "(@vcpu)", what, domain,
		    pmu_hv24x7_domain_name(domain));
		return (-EACCES);
	}
	if (fr->privileged == 0 && lpar != HV_LPAR_SELF) {
		*cause = xasprintf("%s: lpar 0x%llx is not this partition "
		    "(0xffff), and the hypervisor lets this partition read "
		    "only its own counters (hv_gpci/interface/"
		    "collect_privileged is 0): on the HMC, enable \"Allow "
		    "performance information collection\" in this "
		    "partition's properties", what, (unsigned long long)lpar);
		return (-EACCES);
	}
	return (0);
}

unsigned
pmu_hv24x7_result_bytes(const struct pmu_hv24x7_frame *fr, int domain)
{
	if (fr->interface == 1)
		return (HV_RESULT_SIZE + HV_ELEM_V1_SIZE +
		    HV24X7_DATA_SIZE);
	/* The kernel asks for every thread group of core and VCPU domains
	 * on SMT8 v2 machines and sums the elements. */
	if (fr->aggregate && domain >= 2)
		return (HV_RESULT_SIZE + HV24X7_THREAD_GROUPS *
		    (HV_ELEM_V2_SIZE + HV24X7_DATA_SIZE));
	return (HV_RESULT_SIZE + HV_ELEM_V2_SIZE + HV24X7_DATA_SIZE);
}

unsigned
pmu_hv24x7_max_requests(const struct pmu_hv24x7_frame *fr)
{
	return (hv_abi_max_requests(fr->interface == 1 ? 1 : 2));
}

size_t
pmu_hv24x7_group_fit(const struct pmu_hv24x7_frame *fr, const int *domains,
    size_t n)
{
	size_t		 k, room = HV_BUF_SIZE - HV_RES_HDR_SIZE;
	size_t		 used = 0, rb;
	unsigned	 max = pmu_hv24x7_max_requests(fr);

	for (k = 0; k < n && k < max; k++) {
		rb = pmu_hv24x7_result_bytes(fr, domains[k]);
		if (used + rb > room)
			break;
		used += rb;
	}
	return (n > 0 && k == 0 ? 1 : k);
}
