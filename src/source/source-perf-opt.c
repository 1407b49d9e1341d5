/*
 * The perf source's option string ("sysfs_root=DIR,pmu=msr,cpus=0-3,
 * chip=1", see source-perf.h) and the CPUs its counters are opened on.
 * Options mean the same for every kind of PMU; a NAME=VALUE that is no
 * option must be a parameter some event or format of the PMUs takes.
 */
#include "config.h"

#include "source/source-perf-int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/hverr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

char *
source_perf_opt_cpus_text(const int *cpus, size_t n)
{
	struct strbuf	 sb = { 0 };
	size_t		 i, j;

	for (i = 0; i < n; i = j + 1) {
		for (j = i; j + 1 < n && cpus[j + 1] == cpus[j] + 1; j++)
			;
		if (sb.len > 0)
			strbuf_addc(&sb, ',');
		if (j == i)
			strbuf_addf(&sb, "%d", cpus[i]);
		else
			strbuf_addf(&sb, "%d-%d", cpus[i], cpus[j]);
	}
	return (strbuf_detach(&sb));
}

/* group_max=N (1-4096) or interface=1|2. */
static int
source_perf_opt_number(struct source_perf *st, const char *key,
    const char *val, char **cause)
{
	unsigned long	 v;
	char		*end;
	int		 group = strcmp(key, "group_max") == 0;

	errno = 0;
	v = strtoul(val, &end, 10);
	if (*val == '\0' || *end != '\0' || errno != 0 || v == 0 ||
	    v > (group ? 4096 : 2)) {
		*cause = xasprintf("option %s=%s: expected %s", key, val,
		    group ? "a count from 1 to 4096" : "1 or 2");
		return (-HV_EUSAGE);
	}
	if (group)
		st->group_max = (unsigned)v;
	else
		st->iface_opt = (int)v;
	return (0);
}

/* lpars=LO-HI, lpars=N or lpars=none: the partition ids probed. */
static int
source_perf_opt_lpars(struct source_perf *st, const char *val, char **cause)
{
	unsigned long	 lo, hi;
	char		*end;

	/* A range given is probed whole. */
	st->lpar_gap = 0;
	if (strcmp(val, "none") == 0) {
		st->lpar_lo = st->lpar_hi = 0;
		return (0);
	}
	errno = 0;
	lo = strtoul(val, &end, 10);
	hi = lo;
	if (end != val && *end == '-' && end[1] >= '0' && end[1] <= '9')
		hi = strtoul(end + 1, &end, 10);
	/* 0 is refused to all but partition 0, 0xffff means "this one". */
	if (*val < '0' || *val > '9' || *end != '\0' || errno != 0 ||
	    lo == 0 || hi < lo || hi >= 0xffff) {
		*cause = xasprintf("option lpars=%s: expected partition ids "
		    "LO-HI from 1 to 65534 (default %d-%d), or none", val,
		    PERF_LPARS_DEFAULT_LO, PERF_LPARS_DEFAULT_HI);
		return (-HV_EUSAGE);
	}
	st->lpar_lo = (uint16_t)lo;
	st->lpar_hi = (uint16_t)hi;
	return (0);
}

/* NAME=VALUE: a value for an event's '?' parameter NAME. */
static int
source_perf_opt_param(struct source_perf *st, const char *key,
    const char *val, char **cause)
{
	unsigned long	 v;
	char		*end;

	errno = 0;
	v = strtoul(val, &end, 0);
	if (*val == '\0' || *end != '\0' || errno != 0 || *val == '-') {
		*cause = xasprintf("option '%s=%s': unknown option, and not a "
		    "number for a parameter", key, val);
		return (-HV_EUSAGE);
	}
	st->param_names = xreallocarray(st->param_names, st->nparams + 1,
	    sizeof *st->param_names);
	st->params = xreallocarray(st->params, st->nparams + 1,
	    sizeof *st->params);
	st->param_names[st->nparams] = xstrdup(key);
	st->params[st->nparams].name = st->param_names[st->nparams];
	st->params[st->nparams].value = v;
	st->nparams++;
	return (0);
}

/* One KEY=VALUE; a string option replaces what *dst held. */
static int
source_perf_opt_one(struct source_perf *st, const char *key,
    const char *val, char **pmus, char **cpus, char **cause)
{
	char	**dst = NULL;

	if (strcmp(key, "sysfs_root") == 0)
		dst = &st->sysfs_root;
	else if (strcmp(key, "proc_root") == 0)
		dst = &st->proc_root;
	else if (strcmp(key, "pmu") == 0)
		dst = pmus;
	else if (strcmp(key, "cpus") == 0)
		dst = cpus;
	else if (strcmp(key, "group_max") == 0 ||
	    strcmp(key, "interface") == 0)
		return (source_perf_opt_number(st, key, val, cause));
	else if (strcmp(key, "lpars") == 0)
		return (source_perf_opt_lpars(st, val, cause));
	else if (strcmp(key, "clock") == 0) {
		/* Real counters move with real time, and nothing else. */
		if (strcmp(val, "real") == 0)
			return (0);
		*cause = xasprintf("option clock=%s: only the simulated frame "
		    "(--source sim) has a virtual clock; perf counts in real "
		    "time (clock=real)", val);
		return (-HV_EUSAGE);
	}
	else
		return (source_perf_opt_param(st, key, val, cause));
	free(*dst);
	*dst = xstrdup(val);
	return (0);
}

/* Split the option string; a piece without '=' continues a CPU list. */
int
source_perf_opt_parse(struct source_perf *st, const char *args, char **pmus,
    char **cpus, char **cause)
{
	char	*copy, *tok, *save = NULL, *eq, *joined;
	int	 error = 0, in_cpus = 0;

	if (args == NULL || *args == '\0')
		return (0);
	copy = xstrdup(args);
	for (tok = strtok_r(copy, ",", &save); tok != NULL && error == 0;
	    tok = strtok_r(NULL, ",", &save)) {
		if ((eq = strchr(tok, '=')) == NULL && in_cpus) {
			joined = xasprintf("%s,%s", *cpus, tok);
			free(*cpus);
			*cpus = joined;
		} else if (eq == NULL) {
			*cause = xasprintf("option '%s': expected KEY=VALUE",
			    tok);
			error = -HV_EUSAGE;
		} else {
			*eq++ = '\0';
			in_cpus = strcmp(tok, "cpus") == 0;
			error = source_perf_opt_one(st, tok, eq, pmus, cpus,
			    cause);
		}
	}
	free(copy);
	return (error);
}

/* Whether some format or some event's parameter of a PMU is named so. */
static int
source_perf_opt_known(const struct source_perf_pmu *pmu, const char *name)
{
	const struct pmu_event	*ev;
	size_t			 e, t;

	if (pmu_format_find(pmu->formats, pmu->nformats, name) != NULL)
		return (1);
	for (e = 0; e < pmu->nevents; e++) {
		ev = &pmu->events[e];
		for (t = 0; t < ev->nterms; t++) {
			if (ev->terms[t].kind == PMU_TERM_PARAM &&
			    strcmp(ev->terms[t].param, name) == 0)
				return (1);
		}
	}
	return (0);
}

/* Every parameter option must mean something to some event or format. */
int
source_perf_opt_params(const struct source_perf *st, char **cause)
{
	size_t	 i, p;

	for (i = 0; i < st->nparams; i++) {
		for (p = 0; p < st->npmus; p++) {
			if (source_perf_opt_known(&st->pmus[p],
			    st->params[i].name))
				break;
		}
		if (p == st->npmus) {
			*cause = xasprintf("option '%s': no such option, and "
			    "no event of the PMU takes a parameter of that "
			    "name", st->params[i].name);
			return (-HV_EUSAGE);
		}
	}
	return (0);
}

/* The first CPU of the first PMU's cpumask (or all of it), else CPU 0. */
static void
source_perf_opt_cpumask(struct source_perf *st, int all)
{
	const struct source_perf_pmu	*pmu = &st->pmus[0];

	if (pmu->ncpumask == 0) {
		/* No cpumask: a CPU-wide PMU counts anywhere. */
		st->cpus = xcalloc(1, sizeof *st->cpus);
		st->ncpus = 1;
		return;
	}
	st->ncpus = all ? pmu->ncpumask : 1;
	st->cpus = xreallocarray(NULL, st->ncpus, sizeof *st->cpus);
	memcpy(st->cpus, pmu->cpumask, st->ncpus * sizeof *st->cpus);
}

/* The kernel says only EINVAL for a CPU that does not exist: check. */
static int
source_perf_opt_online(const struct source_perf *st, const char *which,
    char **cause)
{
	char	*path, *c = NULL, *list;
	int	*online = NULL, error = 0;
	size_t	 nonline = 0, i, j;

	path = xasprintf("%s/devices/system/cpu/online", st->sysfs_root);
	if (source_perf_sysfs_cpus(path, &online, &nonline, &c) != 0)
		nonline = 0;
	free(c);
	free(path);
	for (i = 0; i < st->ncpus && nonline > 0 && error == 0; i++) {
		for (j = 0; j < nonline && online[j] != st->cpus[i]; j++)
			;
		if (j < nonline)
			continue;
		list = source_perf_opt_cpus_text(online, nonline);
		*cause = xasprintf("cpus=%s: CPU %d is not online (online: "
		    "%s)", which, st->cpus[i], list);
		free(list);
		error = -HV_EUSAGE;
	}
	free(online);
	return (error);
}

/* Which CPUs: cpumask's first (default), cpumask, all, or a list. */
int
source_perf_opt_cpus(struct source_perf *st, const char *which,
    char **cause)
{
	char	*path, *c = NULL;
	int	 error;

	if (which == NULL || strcmp(which, "first") == 0 ||
	    strcmp(which, "cpumask") == 0) {
		source_perf_opt_cpumask(st, which != NULL && which[1] == 'p');
		return (0);
	}
	if (strcmp(which, "all") == 0) {
		path = xasprintf("%s/devices/system/cpu/online",
		    st->sysfs_root);
		error = source_perf_sysfs_cpus(path, &st->cpus, &st->ncpus,
		    &c);
		free(path);
		if (error != 0) {
			*cause = xasprintf("cpus=all: %s", c);
			free(c);
			return (error);
		}
	} else if (pmu_cpulist_parse(which, strlen(which), &st->cpus,
	    &st->ncpus, &c) != 0) {
		*cause = xasprintf("cpus=%s: %s", which, c);
		free(c);
		return (-HV_EUSAGE);
	}
	if (st->ncpus == 0) {
		*cause = xasprintf("cpus=%s: no CPU", which);
		return (-HV_EUSAGE);
	}
	return (source_perf_opt_online(st, which, cause));
}
