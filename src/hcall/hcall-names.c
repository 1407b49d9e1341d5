/*
 * Names and sizes of the hcall interface: PAPR return codes, performance
 * domains, wire layouts and their fields.  Pure: const tables only.
 */
#include "config.h"

#include "hcall/hcall.h"

#include <stddef.h>

const struct hcall_field hcall_fields[] = {
#define HCALL_LAYOUT(id, size, what)
#define HCALL_FIELD(id, name, off, len) { HCALL_L_##id, #name, off, len },
#define HCALL_END(id)
#include "hcall/hcall-layout.def"
#undef HCALL_LAYOUT
#undef HCALL_FIELD
#undef HCALL_END
};
const size_t hcall_nfields = sizeof hcall_fields / sizeof hcall_fields[0];

static const char *const hcall_layout_names[HCALL_NLAYOUTS] = {
#define HCALL_LAYOUT(id, size, what) what,
#define HCALL_FIELD(id, name, off, len)
#define HCALL_END(id)
#include "hcall/hcall-layout.def"
#undef HCALL_LAYOUT
#undef HCALL_FIELD
#undef HCALL_END
};

static const struct {
	long		 rc;
	const char	*name;
} hcall_rc_names[] = {
	{ H_SUCCESS, "H_SUCCESS" },
	{ H_BUSY, "H_BUSY" },
	{ H_CLOSED, "H_CLOSED" },
	{ H_NOT_AVAILABLE, "H_NOT_AVAILABLE" },
	{ H_CONSTRAINED, "H_CONSTRAINED" },
	{ H_PARTIAL, "H_PARTIAL" },
	{ H_HARDWARE, "H_HARDWARE" },
	{ H_FUNCTION, "H_FUNCTION" },
	{ H_PRIVILEGE, "H_PRIVILEGE" },
	{ H_PARAMETER, "H_PARAMETER" },
	{ H_NO_MEM, "H_NO_MEM" },
	{ H_AUTHORITY, "H_AUTHORITY" },
	{ H_PERMISSION, "H_PERMISSION" },
	{ H_RESOURCE, "H_RESOURCE" },
	{ H_ABORTED, "H_ABORTED" },
	{ H_P2, "H_P2" },
	{ H_P3, "H_P3" },
	{ H_P4, "H_P4" },
	{ H_P5, "H_P5" },
	{ H_P6, "H_P6" },
	{ H_P7, "H_P7" },
	{ H_P8, "H_P8" },
	{ H_P9, "H_P9" },
	{ H_TOO_BIG, "H_TOO_BIG" },
	{ H_UNSUPPORTED, "H_UNSUPPORTED" },
	{ H_BAD_DATA, "H_BAD_DATA" },
	{ H_STATE, "H_STATE" },
	{ H_OUTPUT_BUFFER_TOO_SMALL, "H_OUTPUT_BUFFER_TOO_SMALL" },
	{ H_LONG_BUSY_ORDER_1_MSEC, "H_LONG_BUSY_ORDER_1_MSEC" },
	{ H_LONG_BUSY_ORDER_10_MSEC, "H_LONG_BUSY_ORDER_10_MSEC" },
	{ H_LONG_BUSY_ORDER_100_MSEC, "H_LONG_BUSY_ORDER_100_MSEC" },
	{ H_LONG_BUSY_ORDER_1_SEC, "H_LONG_BUSY_ORDER_1_SEC" },
	{ H_LONG_BUSY_ORDER_10_SEC, "H_LONG_BUSY_ORDER_10_SEC" },
	{ H_LONG_BUSY_ORDER_100_SEC, "H_LONG_BUSY_ORDER_100_SEC" },
};

/* The kernel's interface/domains text and index terms. */
static const char *const hcall_domain_names[HCALL_DOMAIN_MAX] = {
	NULL, "Physical Chip", "Physical Core", "VCPU Home Core",
	"VCPU Home Chip", "VCPU Home Node", "VCPU Remote Node",
};

const char *
hcall_rc_name(long rc)
{
	size_t	 i;

	for (i = 0; i < sizeof hcall_rc_names / sizeof hcall_rc_names[0]; i++)
		if (hcall_rc_names[i].rc == rc)
			return (hcall_rc_names[i].name);
	return ("?");
}

const char *
hcall_domain_name(int domain)
{
	if (domain <= 0 || domain >= HCALL_DOMAIN_MAX)
		return ("?");
	return (hcall_domain_names[domain]);
}

const char *
hcall_domain_term(int domain)
{
	switch (domain) {
	case HCALL_DOMAIN_CHIP:
		return ("chip");
	case HCALL_DOMAIN_CORE:
		return ("core");
	case HCALL_DOMAIN_VCPU_HOME_CORE:
	case HCALL_DOMAIN_VCPU_HOME_CHIP:
	case HCALL_DOMAIN_VCPU_HOME_NODE:
	case HCALL_DOMAIN_VCPU_REMOTE_NODE:
		return ("vcpu");
	}
	return ("?");
}

const char *
hcall_layout_name(enum hcall_layout_id id)
{
	if ((unsigned)id >= HCALL_NLAYOUTS)
		return ("?");
	return (hcall_layout_names[id]);
}

const char *
hcall_field_name(enum hcall_layout_id id, size_t off)
{
	size_t	 i;

	for (i = 0; i < hcall_nfields; i++) {
		if (hcall_fields[i].layout != id)
			continue;
		if (off >= hcall_fields[i].offset && off <
		    (size_t)hcall_fields[i].offset + hcall_fields[i].length)
			return (hcall_fields[i].name);
	}
	return ("?");
}

size_t
hcall_request_size(int version)
{
	switch (version) {
	case 1:
		return (HCALL_REQ_V1_SIZE);
	case 2:
		return (HCALL_REQ_V2_SIZE);
	}
	return (0);
}

size_t
hcall_element_header_size(int version)
{
	switch (version) {
	case 1:
		return (HCALL_ELEM_V1_SIZE);
	case 2:
		return (HCALL_ELEM_V2_SIZE);
	}
	return (0);
}

unsigned
hcall_max_requests(int version)
{
	return (hv_abi_max_requests(version));
}
