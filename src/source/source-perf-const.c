/*
 * The frame's named constants a partition can learn by itself, for the
 * perf source: the processor clock (CPU_Freq, and cpu_hz, PAPI's '#'),
 * from the device tree the hypervisor hands the partition, else from
 * /proc/cpuinfo.  Read once, on first use, under proc_root (tests point
 * it at a fake tree).  What a partition cannot learn (the PowerBus, X-,
 * A-link and PCIe host bridge clocks: PB_Freq, XBUS_Freq, ABUS_Freq,
 * PHB_Freq) is left unknown here, so formulas naming them show '?' until
 * --const gives them: docs/PERF-METRICS.md says why.
 */
#include "config.h"

#include "source/source-perf.h"

#include <sys/types.h>

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "source/source-perf-int.h"
#include "util/be.h"
#include "sys/file.h"
#include "util/hverr.h"
#include "util/xalloc.h"

static int
source_perf_const_cmp(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

/* A device-tree property of 4 or 8 bytes, big-endian, as a number. */
static int
source_perf_const_prop(const char *path, double *v)
{
	void	*buf;
	char	*cause = NULL;
	size_t	 len;
	int	 ok = 0;

	if (file_read(path, 64, &buf, &len, &cause) != 0) {
		free(cause);
		return (0);
	}
	if (len == 8 && be64_get(buf) != 0) {
		*v = (double)be64_get(buf);
		ok = 1;
	} else if (len == 4 && be32_get(buf) != 0) {
		*v = (double)be32_get(buf);
		ok = 1;
	}
	free(buf);
	return (ok);
}

/*
 * The clock of the first processor node (by name) of
 * proc_root/device-tree/cpus that has one: ibm,extended-clock-frequency
 * (64 bits), else clock-frequency.  *origin gets the file (allocated).
 */
static int
source_perf_const_dt(const struct source_perf *st, double *v, char **origin)
{
	static const char *const props[] = {
		"ibm,extended-clock-frequency", "clock-frequency",
	};
	struct dirent	*de;
	DIR		*d;
	char		*dir, **names = NULL, *path;
	size_t		 n = 0, i, j;
	int		 found = 0;

	dir = xasprintf("%s/device-tree/cpus", st->proc_root);
	if ((d = opendir(dir)) == NULL) {
		free(dir);
		return (0);
	}
	while ((de = readdir(d)) != NULL && n < 4096) {
		if (strchr(de->d_name, '@') == NULL)
			continue;
		names = xreallocarray(names, n + 1, sizeof *names);
		names[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof *names, source_perf_const_cmp);
	for (i = 0; i < n && !found; i++) {
		for (j = 0; j < 2 && !found; j++) {
			path = xasprintf("%s/%s/%s", dir, names[i], props[j]);
			if ((found = source_perf_const_prop(path, v)))
				*origin = path;
			else
				free(path);
		}
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(dir);
	return (found);
}

/* cpuinfo's "clock : 3450.000000MHz". */
static int
source_perf_const_cpuinfo(const struct source_perf *st, double *v,
    char **origin)
{
	char	*text, *end;
	double	 x;

	if ((text = source_perf_cpuinfo(st, "clock")) == NULL)
		return (0);
	x = strtod(text, &end);
	if (end == text || !isfinite(x) || x <= 0) {
		free(text);
		return (0);
	}
	if (strncmp(end, "MHz", 3) == 0)
		x *= 1e6;
	else if (strncmp(end, "GHz", 3) == 0)
		x *= 1e9;
	free(text);
	*v = x;
	*origin = xasprintf("%s/cpuinfo clock", st->proc_root);
	return (1);
}

static void
source_perf_const_read(struct source_perf *st)
{
	st->consts_read = 1;
	if (!source_perf_const_dt(st, &st->cpu_hz, &st->cpu_hz_origin) &&
	    !source_perf_const_cpuinfo(st, &st->cpu_hz, &st->cpu_hz_origin))
		st->cpu_hz = 0;
}

int
source_perf_const_get(struct source_perf *st, const char *name, double *v,
    const char **origin)
{
	if (!st->consts_read)
		source_perf_const_read(st);
	if ((strcmp(name, "CPU_Freq") == 0 || strcmp(name, "cpu_hz") == 0) &&
	    st->cpu_hz_origin != NULL) {
		*v = st->cpu_hz;
		if (origin != NULL)
			*origin = st->cpu_hz_origin;
		return (0);
	}
	*v = 0;
	return (-HV_ENOENT);
}
