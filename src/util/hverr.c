/*
 * Names for the HV_E* codes.  Pure: no I/O; -errno values are left to the
 * caller's strerror().
 */
#include "config.h"

#include "util/hverr.h"

#include <stddef.h>

/*
 * Return a short constant description of a negative or positive HV_E* code,
 * or NULL when the code is not one of ours (an errno value).
 */
const char *
hv_strerror(int error)
{
	if (error < 0)
		error = -error;
	switch (error) {
	case 0:
		return ("success");
	case HV_EFORMAT:
		return ("malformed input");
	case HV_ETRUNC:
		return ("truncated input");
	case HV_ERANGE:
		return ("value out of range");
	case HV_ENOENT:
		return ("unknown name");
	case HV_ELIMIT:
		return ("interface limit exceeded");
	case HV_EHCALL:
		return ("hypervisor call failed");
	case HV_ENOVALUE:
		return ("no value");
	case HV_ECYCLE:
		return ("definition cycle");
	case HV_EVERSION:
		return ("version mismatch");
	case HV_EUSAGE:
		return ("invalid request");
	}
	return (NULL);
}

char *
hv_printable(char *s)
{
	unsigned char	*p;

	for (p = (unsigned char *)s; *p != '\0'; p++)
		if (*p < 0x20 || *p >= 0x7f)
			*p = '?';
	return (s);
}
