/*
 * CPU lists as the kernel prints them (cpumap_print_to_pagebuf with
 * list=true): "0", "0-3", "0,8,16-23", then a newline.  A PMU's cpumask
 * says which CPU its events must be opened on; devices/system/cpu/online
 * says which CPUs exist.  Pure: no I/O.
 */
#include "config.h"

#include "pmu/pmu.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/hverr.h"
#include "util/xalloc.h"

static int
pmu_cpulist_number(const char **pp, const char *end, long *out)
{
	const char	*p = *pp;
	long		 v = 0;

	if (p == end || !isdigit((unsigned char)*p))
		return (-1);
	while (p < end && isdigit((unsigned char)*p)) {
		v = v * 10 + (*p - '0');
		if (v >= PMU_CPUS_MAX * 16L)
			return (-2);
		p++;
	}
	*pp = p;
	*out = v;
	return (0);
}

int
pmu_cpulist_parse(const char *text, size_t len, int **out, size_t *n,
    char **cause)
{
	const char	*p = text, *end = text + len, *at;
	int		*v = NULL;
	size_t		 nv = 0, cap = 0;
	long		 lo, hi, c;
	int		 r;

	*out = NULL;
	*n = 0;
	while (end > text && (isspace((unsigned char)end[-1]) ||
	    end[-1] == '\0'))
		end--;
	if (p == end)
		return (0);
	for (;;) {
		at = p;
		if ((r = pmu_cpulist_number(&p, end, &lo)) != 0)
			goto bad;
		hi = lo;
		if (p < end && *p == '-') {
			p++;
			at = p;
			if ((r = pmu_cpulist_number(&p, end, &hi)) != 0)
				goto bad;
			if (hi < lo) {
				*cause = xasprintf("CPU list, column %zu: "
				    "range %ld-%ld runs backwards",
				    (size_t)(at - text) + 1, lo, hi);
				free(v);
				return (-HV_ERANGE);
			}
		}
		if (hi - lo + 1 > (long)(PMU_CPUS_MAX - nv)) {
			*cause = xasprintf("CPU list, column %zu: more than "
			    "%d CPUs", (size_t)(at - text) + 1, PMU_CPUS_MAX);
			free(v);
			return (-HV_ERANGE);
		}
		for (c = lo; c <= hi; c++) {
			if (nv == cap) {
				cap = cap == 0 ? 16 : cap * 2;
				v = xreallocarray(v, cap, sizeof *v);
			}
			v[nv++] = (int)c;
		}
		if (p == end)
			break;
		if (*p != ',') {
			at = p;
			r = -1;
			goto bad;
		}
		p++;
	}
	*out = v;
	*n = nv;
	return (0);
bad:
	*cause = xasprintf("CPU list, column %zu: %s",
	    (size_t)(at - text) + 1, r == -2 ? "CPU number too large" :
	    "expected a CPU number");
	free(v);
	return (r == -2 ? -HV_ERANGE : -HV_EFORMAT);
}
