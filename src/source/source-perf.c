/*
 * The perf source: real counters through perf_event_open(2).  It finds a
 * PMU under sysfs, hands out its catalog (hv_24x7's live binary catalog,
 * or a model built from events/ for any other PMU), turns each selected
 * counter into perf_event_attr config words through the PMU's format/
 * files, and opens one fd per counter, grouped so that one read() of a
 * group leader returns the whole group: for hv_24x7 the kernel makes that
 * one H_GET_24X7_DATA.
 *
 * Every refusal the kernel can give is checked first where it can be
 * (src/pmu), and an errno that still comes back is turned into a message
 * that says what to change.  No printing: problems travel as causes and
 * in the sample's error string.
 */
#include "config.h"

#include "source/source-perf.h"

#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "engine/selection.h"
#include "util/file.h"
#include "util/hverr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define PERF_GROUP_MAX_DEFAULT	64
#define PERF_VERSION_CHECK_NS	(10ULL * 1000000000ULL)
#define PERF_FD_SLACK		32	/* fds the rest of hvtop may need */
#define PERF_READ_HDR		3	/* nr, time_enabled, time_running */

/* One selected counter. */
struct perf_counter {
	int		 fd;
	int		 cpu;
	int		 type;
	size_t		 pmu;		/* in st->pmus */
	size_t		 group;
	size_t		 slot;		/* position in the group's read */
	size_t		 key;		/* the CPU's first place in cpus */
	uint64_t	 cfg[PMU_CONFIG_WORDS];
};

/* One group: its leader's read returns every member. */
struct perf_group {
	int		 leader;	/* fd */
	int		 cpu;
	size_t		*members;	/* selection counter positions */
	size_t		 n;
};

struct source_perf {
	char		*sysfs_root;
	char		*proc_root;
	struct source_perf_pmu *pmus;
	size_t		 npmus;
	int		 hv24x7;
	int		*cpus;		/* where counters are opened */
	size_t		 ncpus;
	unsigned	 group_max;	/* 0: the PMU's own limit */
	int		 iface_opt;	/* interface= option, 0 when absent */

	char		**param_names;	/* NAME=VALUE options */
	struct pmu_param *params;
	size_t		 nparams;

	void		*catalog;	/* hv_24x7 image */
	size_t		 catalog_size;
	uint64_t	 catalog_version;
	int		 catalog_error;
	char		*catalog_cause;
	uint64_t	 last_check;	/* when catalog_version was read */

	struct catalog	*model;
	size_t		*model_pmu;	/* model event -> pmu */
	size_t		*model_ev;	/* model event -> event of that pmu */

	struct topology	 topo;
	struct pmu_hv24x7_frame frame;

	const struct selection *sel;
	struct perf_counter *ctr;
	size_t		 nctr;
	struct perf_group *groups;
	size_t		 ngroups;
	uint64_t	*readbuf;
	size_t		 readcap;	/* words */
};

static long
source_perf_syscall(struct perf_event_attr *attr, int cpu, int group_fd)
{
	return (syscall(SYS_perf_event_open, attr, -1, cpu, group_fd,
	    PERF_FLAG_FD_CLOEXEC));
}

/* /proc/sys/kernel/perf_event_paranoid, INT_MIN when unreadable. */
static int
source_perf_paranoid(const struct source_perf *st)
{
	char	*path, *c = NULL, *end;
	void	*buf;
	size_t	 len;
	long	 v;
	int	 r = INT_MIN;

	/* The value may be negative, which the uint reader refuses. */
	path = xasprintf("%s/sys/kernel/perf_event_paranoid", st->proc_root);
	if (file_read(path, 64, &buf, &len, &c) == 0) {
		v = strtol(buf, &end, 10);
		if (end != buf && v > INT_MIN && v < INT_MAX)
			r = (int)v;
		free(buf);
	}
	free(c);
	free(path);
	return (r);
}

/* "0-1,4" for the label. */
static char *
source_perf_cpus_text(const int *cpus, size_t n)
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

/* Split the option string; a piece without '=' continues a CPU list. */
static int
source_perf_options(struct source_perf *st, const char *args, char **pmus,
    char **cpus, char **cause)
{
	char		*copy, *tok, *save = NULL, *eq, *last = NULL, *end;
	char		**lastv = NULL;
	unsigned long	 v;
	int		 error = 0;

	if (args == NULL || *args == '\0')
		return (0);
	copy = xstrdup(args);
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		if ((eq = strchr(tok, '=')) == NULL) {
			if (lastv != NULL && lastv == cpus) {
				last = xasprintf("%s,%s", *cpus, tok);
				free(*cpus);
				*cpus = last;
				continue;
			}
			*cause = xasprintf("option '%s': expected KEY=VALUE",
			    tok);
			error = -HV_EUSAGE;
			break;
		}
		*eq++ = '\0';
		lastv = NULL;
		if (strcmp(tok, "sysfs_root") == 0) {
			free(st->sysfs_root);
			st->sysfs_root = xstrdup(eq);
		} else if (strcmp(tok, "proc_root") == 0) {
			free(st->proc_root);
			st->proc_root = xstrdup(eq);
		} else if (strcmp(tok, "pmu") == 0) {
			free(*pmus);
			*pmus = xstrdup(eq);
		} else if (strcmp(tok, "cpus") == 0) {
			free(*cpus);
			*cpus = xstrdup(eq);
			lastv = cpus;
		} else if (strcmp(tok, "group_max") == 0 ||
		    strcmp(tok, "interface") == 0) {
			errno = 0;
			v = strtoul(eq, &end, 10);
			if (*eq == '\0' || *end != '\0' || errno != 0 ||
			    v == 0 || v > 4096 || (tok[0] == 'i' && v > 2)) {
				*cause = xasprintf("option %s=%s: expected %s",
				    tok, eq, tok[0] == 'g' ? "a count from 1 "
				    "to 4096" : "1 or 2");
				error = -HV_EUSAGE;
				break;
			}
			if (tok[0] == 'g')
				st->group_max = (unsigned)v;
			else
				st->iface_opt = (int)v;
		} else {
			/* A value for an event's '?' parameter. */
			errno = 0;
			v = strtoul(eq, &end, 0);
			if (*eq == '\0' || *end != '\0' || errno != 0 ||
			    *eq == '-') {
				*cause = xasprintf("option '%s=%s': unknown "
				    "option, and not a number for a "
				    "parameter", tok, eq);
				error = -HV_EUSAGE;
				break;
			}
			st->param_names = xreallocarray(st->param_names,
			    st->nparams + 1, sizeof *st->param_names);
			st->params = xreallocarray(st->params,
			    st->nparams + 1, sizeof *st->params);
			st->param_names[st->nparams] = xstrdup(tok);
			st->params[st->nparams].name =
			    st->param_names[st->nparams];
			st->params[st->nparams].value = v;
			st->nparams++;
		}
	}
	free(copy);
	return (error);
}

/* Every parameter option must mean something to some event or format. */
static int
source_perf_check_params(struct source_perf *st, char **cause)
{
	const struct source_perf_pmu	*pmu;
	const struct pmu_event		*ev;
	size_t				 i, p, e, t;
	int				 found;

	for (i = 0; i < st->nparams; i++) {
		found = 0;
		for (p = 0; p < st->npmus && !found; p++) {
			pmu = &st->pmus[p];
			if (pmu_format_find(pmu->formats, pmu->nformats,
			    st->params[i].name) != NULL)
				found = 1;
			for (e = 0; e < pmu->nevents && !found; e++) {
				ev = &pmu->events[e];
				for (t = 0; t < ev->nterms; t++) {
					if (ev->terms[t].kind ==
					    PMU_TERM_PARAM && strcmp(
					    ev->terms[t].param,
					    st->params[i].name) == 0)
						found = 1;
				}
			}
		}
		if (!found) {
			*cause = xasprintf("option '%s': no such option, and "
			    "no event of the PMU takes a parameter of that "
			    "name", st->params[i].name);
			return (-HV_EUSAGE);
		}
	}
	return (0);
}

/* The value of "key\t: value" in cpuinfo text, or NULL. */
static char *
source_perf_cpuinfo(const char *text, const char *key)
{
	const char	*p = text, *nl, *colon;
	size_t		 kl = strlen(key);

	while (*p != '\0') {
		nl = strchr(p, '\n');
		if (nl == NULL)
			nl = p + strlen(p);
		if (strncmp(p, key, kl) == 0 && (p[kl] == ' ' ||
		    p[kl] == '\t' || p[kl] == ':') &&
		    (colon = memchr(p, ':', (size_t)(nl - p))) != NULL) {
			colon++;
			while (colon < nl && (*colon == ' ' || *colon == '\t'))
				colon++;
			return (xstrndup(colon, (size_t)(nl - colon)));
		}
		p = *nl == '\n' ? nl + 1 : nl;
	}
	return (NULL);
}

/* Interface version, SMT width, virtual processors and timebase. */
static void
source_perf_frame(struct source_perf *st)
{
	const struct source_perf_pmu	*pmu = &st->pmus[0];
	struct topology			*t = &st->topo;
	struct catalog			*cat = NULL;
	char				*path, *c = NULL, *cpu, *tb;
	int				*v = NULL;
	size_t				 n = 0, online = 1, len;
	void				*buf;
	unsigned			 chipsps, coresper;

	memset(t, 0, sizeof *t);
	t->smt = 1;
	path = xasprintf("%s/devices/system/cpu/online", st->sysfs_root);
	if (source_perf_sysfs_cpus(path, &v, &n, &c) == 0 && n > 0) {
		online = n;
		free(path);
		path = xasprintf("%s/devices/system/cpu/cpu%d/topology/"
		    "thread_siblings_list", st->sysfs_root, v[0]);
		free(v);
		v = NULL;
		if (source_perf_sysfs_cpus(path, &v, &n, &c) == 0 && n > 0)
			t->smt = (unsigned)n;
	}
	free(c);
	free(v);
	free(path);

	t->interface = st->iface_opt;
	path = xasprintf("%s/cpuinfo", st->proc_root);
	c = NULL;
	if (file_read(path, 16 * 1024 * 1024, &buf, &len, &c) == 0) {
		cpu = source_perf_cpuinfo(buf, "cpu");
		if (t->interface == 0 && cpu != NULL &&
		    strncmp(cpu, "POWER", 5) == 0)
			/* The kernel: POWER8 only speaks v1, the rest v2. */
			t->interface = strncmp(cpu, "POWER8", 6) == 0 ? 1 : 2;
		tb = source_perf_cpuinfo(buf, "timebase");
		if (tb != NULL)
			t->timebase_hz = strtoull(tb, NULL, 10);
		free(cpu);
		free(tb);
		free(buf);
	}
	free(c);
	free(path);
	if (t->interface == 0 && st->catalog != NULL) {
		c = NULL;
		if (catalog_parse(st->catalog, st->catalog_size, 0, &cat,
		    &c) == 0)
			t->interface = cat->interface;
		catalog_free(cat);
		free(c);
	}
	if (t->interface == 0)
		t->interface = 2;

	t->sockets = pmu->sockets != 0 ? pmu->sockets : 1;
	chipsps = pmu->chipspersocket != 0 ? pmu->chipspersocket : 1;
	coresper = pmu->coresperchip != 0 ? pmu->coresperchip : 1;
	t->chips = t->sockets * chipsps;
	t->cores = t->chips * coresper;
	t->vcpus = (unsigned)(online / t->smt);
	if (t->vcpus == 0)
		t->vcpus = 1;
	t->privileged = pmu->collect_privileged != 0;

	st->frame.interface = t->interface;
	st->frame.aggregate = t->interface == 2 && t->smt == 8;
	/* Unknown sizes are left to the hypervisor to refuse. */
	st->frame.chips = pmu->sockets != 0 ? t->chips : 0;
	st->frame.cores = pmu->sockets != 0 && pmu->coresperchip != 0 ?
	    t->cores : 0;
	st->frame.vcpus = t->vcpus;
	st->frame.privileged = pmu->collect_privileged;
}

/* The terms of an event as sysfs writes them, for the model. */
static char *
source_perf_terms_text(const struct pmu_event *ev)
{
	struct strbuf	 sb = { 0 };
	size_t		 i;

	for (i = 0; i < ev->nterms; i++) {
		if (i > 0)
			strbuf_addc(&sb, ',');
		if (ev->terms[i].kind == PMU_TERM_PARAM)
			strbuf_addf(&sb, "%s=%s", ev->terms[i].name,
			    strcmp(ev->terms[i].param, ev->terms[i].name) ==
			    0 ? "?" : ev->terms[i].param);
		else
			strbuf_addf(&sb, "%s=0x%llx", ev->terms[i].name,
			    (unsigned long long)ev->terms[i].value);
	}
	return (strbuf_detach(&sb));
}

/* An hv_24x7 sysfs event's domain: fixed, or implied by its index. */
static int
source_perf_event_domain(const struct pmu_event *ev)
{
	const struct pmu_term	*t;

	if ((t = pmu_event_term(ev, "domain")) != NULL &&
	    t->kind == PMU_TERM_VALUE)
		return ((int)t->value);
	if (pmu_event_term(ev, "chip") != NULL)
		return (CATALOG_DOMAIN_CHIP);
	if (pmu_event_term(ev, "vcpu") != NULL)
		return (CATALOG_DOMAIN_VCPU_HOME_CORE);
	return (CATALOG_DOMAIN_CORE);
}

static void
source_perf_model(struct source_perf *st)
{
	struct catalog		*cat;
	struct catalog_event	*ce;
	struct catalog_group	*cg;
	const struct source_perf_pmu *pmu;
	const struct pmu_term	*t;
	char			*terms;
	size_t			 p, e, k = 0, total = 0, g;
	uint64_t		 off;

	for (p = 0; p < st->npmus; p++)
		total += st->pmus[p].nevents;
	cat = xcalloc(1, sizeof *cat);
	cat->magic = CATALOG_MAGIC;
	cat->interface = st->hv24x7 ? st->topo.interface : 2;
	if (total > 0) {
		cat->events = xcalloc(total, sizeof *cat->events);
		st->model_pmu = xcalloc(total, sizeof *st->model_pmu);
		st->model_ev = xcalloc(total, sizeof *st->model_ev);
	}
	for (p = 0; p < st->npmus; p++) {
		pmu = &st->pmus[p];
		for (e = 0; e < pmu->nevents; e++, k++) {
			ce = &cat->events[k];
			ce->index = (uint32_t)k;
			ce->name = xstrdup(pmu->events[e].name);
			terms = source_perf_terms_text(&pmu->events[e]);
			ce->desc = xasprintf("%s/%s/", pmu->name, terms);
			free(terms);
			if (pmu->units[e] != NULL || pmu->scales[e] != NULL)
				ce->long_desc = xasprintf("unit %s, scale %s",
				    pmu->units[e] != NULL ? pmu->units[e] :
				    "-", pmu->scales[e] != NULL ?
				    pmu->scales[e] : "1");
			else if (pmu->descs[e] != NULL)
				ce->long_desc = xstrdup(pmu->descs[e]);
			ce->record_length = 8;
			if (st->hv24x7) {
				ce->domain = (uint16_t)source_perf_event_domain(
				    &pmu->events[e]);
				t = pmu_event_term(&pmu->events[e], "offset");
				off = t != NULL && t->kind == PMU_TERM_VALUE ?
				    t->value : 0;
			} else {
				ce->domain = CATALOG_DOMAIN_CPU;
				off = 8 * (uint64_t)k;
			}
			ce->offset = (uint32_t)off;
			ce->record_offset = off <= 0xffff ? (uint16_t)off : 0;
			ce->counter_offset = (uint16_t)(off -
			    ce->record_offset);
			ce->formula = CATALOG_NONE;
			st->model_pmu[k] = p;
			st->model_ev[k] = e;
		}
	}
	cat->nevents = total;
	/* One group per 16 events of a PMU, so -g msr works too. */
	for (p = 0, k = 0; p < st->npmus && !st->hv24x7; p++) {
		pmu = &st->pmus[p];
		for (e = 0; e < pmu->nevents; e += CATALOG_GROUP_SLOTS) {
			cat->groups = xreallocarray(cat->groups,
			    cat->ngroups + 1, sizeof *cat->groups);
			cg = &cat->groups[cat->ngroups];
			memset(cg, 0, sizeof *cg);
			cg->index = (uint32_t)cat->ngroups;
			cg->name = e == 0 ? xstrdup(pmu->name) :
			    xasprintf("%s.%zu", pmu->name,
			    e / CATALOG_GROUP_SLOTS + 1);
			cg->desc = xasprintf("events of the %s PMU",
			    pmu->name);
			cg->domain = CATALOG_DOMAIN_CPU;
			cg->record_length = 8;
			for (g = 0; g < CATALOG_GROUP_SLOTS; g++)
				cg->events[g] = CATALOG_SLOT_FREE;
			for (g = 0; g < CATALOG_GROUP_SLOTS &&
			    e + g < pmu->nevents; g++)
				cg->events[g] = (uint16_t)(k + e + g);
			cg->event_count = (uint8_t)g;
			cat->ngroups++;
		}
		k += pmu->nevents;
	}
	catalog_reindex(cat);
	st->model = cat;
}

static void
source_perf_free(struct source_perf *st)
{
	size_t	 i;

	if (st == NULL)
		return;
	for (i = 0; i < st->npmus; i++)
		source_perf_sysfs_free(&st->pmus[i]);
	free(st->pmus);
	for (i = 0; i < st->nparams; i++)
		free(st->param_names[i]);
	free(st->param_names);
	free(st->params);
	free(st->cpus);
	free(st->catalog);
	free(st->catalog_cause);
	catalog_free(st->model);
	free(st->model_pmu);
	free(st->model_ev);
	free(st->sysfs_root);
	free(st->proc_root);
	free(st);
}

/* Which CPUs: cpumask's first (default), cpumask, all, or a list. */
static int
source_perf_choose_cpus(struct source_perf *st, const char *which,
    char **cause)
{
	const struct source_perf_pmu	*pmu = &st->pmus[0];
	char				*path, *c = NULL, *list;
	int				*online = NULL, error;
	size_t				 nonline = 0, i, j;

	if (which == NULL || strcmp(which, "first") == 0 ||
	    strcmp(which, "cpumask") == 0) {
		if (pmu->ncpumask == 0) {
			/* No cpumask: a CPU-wide PMU counts anywhere. */
			st->cpus = xcalloc(1, sizeof *st->cpus);
			st->ncpus = 1;
		} else {
			st->ncpus = which != NULL && which[1] == 'p' ?
			    pmu->ncpumask : 1;
			st->cpus = xreallocarray(NULL, st->ncpus,
			    sizeof *st->cpus);
			memcpy(st->cpus, pmu->cpumask, st->ncpus *
			    sizeof *st->cpus);
		}
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
	} else if ((error = pmu_cpulist_parse(which, strlen(which),
	    &st->cpus, &st->ncpus, &c)) != 0) {
		*cause = xasprintf("cpus=%s: %s", which, c);
		free(c);
		return (-HV_EUSAGE);
	}
	if (st->ncpus == 0) {
		*cause = xasprintf("cpus=%s: no CPU", which);
		return (-HV_EUSAGE);
	}
	/* The kernel says only EINVAL for a CPU that does not exist. */
	path = xasprintf("%s/devices/system/cpu/online", st->sysfs_root);
	if (source_perf_sysfs_cpus(path, &online, &nonline, &c) != 0) {
		free(c);
		c = NULL;
		nonline = 0;
	}
	free(path);
	for (i = 0; i < st->ncpus && nonline > 0; i++) {
		for (j = 0; j < nonline && online[j] != st->cpus[i]; j++)
			;
		if (j == nonline) {
			list = source_perf_cpus_text(online, nonline);
			*cause = xasprintf("cpus=%s: CPU %d is not online "
			    "(online: %s)", which, st->cpus[i], list);
			free(list);
			free(online);
			return (-HV_EUSAGE);
		}
	}
	free(online);
	return (0);
}

/* Why a PMU is missing, and which ones this machine has. */
static char *
source_perf_absent(const struct source_perf *st, const char *name,
    const char *why)
{
	struct strbuf	 sb = { 0 };
	struct dirent	*de;
	DIR		*d;
	char		*dir;
	size_t		 n = 0;

	strbuf_adds(&sb, why);
	if (strcmp(name, "hv_24x7") == 0)
		strbuf_adds(&sb, " (hv_24x7 exists only in PowerVM partitions "
		    "whose kernel has CONFIG_HV_PERF_CTRS)");
	dir = xasprintf("%s/bus/event_source/devices", st->sysfs_root);
	if ((d = opendir(dir)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			strbuf_addf(&sb, "%s%s", n++ == 0 ? "; PMUs here: " :
			    " ", de->d_name);
		}
		closedir(d);
	}
	free(dir);
	return (strbuf_detach(&sb));
}

static int
source_perf_open(struct source *src, const char *args, char **cause)
{
	static const char *const need[] = { "domain", "offset", "lpar" };
	struct source_perf	*st;
	char			*pmus = NULL, *cpus = NULL, *name, *save = NULL;
	char			*c = NULL, *list;
	size_t			 i;
	int			 error;

	st = xcalloc(1, sizeof *st);
	st->sysfs_root = xstrdup("/sys");
	st->proc_root = xstrdup("/proc");
	if ((error = source_perf_options(st, args, &pmus, &cpus,
	    cause)) != 0)
		goto fail;
	if (pmus == NULL)
		pmus = xstrdup("hv_24x7");
	for (name = strtok_r(pmus, "+", &save); name != NULL;
	    name = strtok_r(NULL, "+", &save)) {
		st->pmus = xreallocarray(st->pmus, st->npmus + 1,
		    sizeof *st->pmus);
		error = source_perf_sysfs_load(st->sysfs_root, name,
		    &st->pmus[st->npmus], &c);
		if (error == -ENOENT) {
			*cause = source_perf_absent(st, name, c);
			free(c);
			goto fail;
		}
		if (error != 0) {
			*cause = c;
			goto fail;
		}
		c = NULL;
		st->npmus++;
	}
	if (st->npmus == 0) {
		*cause = xstrdup("option pmu=: no PMU named");
		error = -HV_EUSAGE;
		goto fail;
	}
	for (i = 0; i < st->npmus; i++) {
		if (st->pmus[i].hv24x7)
			st->hv24x7 = 1;
	}
	if (st->hv24x7 && st->npmus > 1) {
		*cause = xstrdup("hv_24x7 cannot share a source with another "
		    "PMU: its catalog describes it alone");
		error = -HV_EUSAGE;
		goto fail;
	}
	if ((error = source_perf_check_params(st, cause)) != 0)
		goto fail;
	if ((error = source_perf_choose_cpus(st, cpus, cause)) != 0)
		goto fail;

	if (st->hv24x7) {
		for (i = 0; i < sizeof need / sizeof need[0]; i++) {
			if (pmu_format_find(st->pmus[0].formats,
			    st->pmus[0].nformats, need[i]) == NULL) {
				*cause = xasprintf("%s: no format/%s, so "
				    "hv_24x7 events cannot be encoded",
				    st->pmus[0].dir, need[i]);
				error = -HV_ENOENT;
				goto fail;
			}
		}
		error = source_perf_sysfs_catalog(&st->pmus[0], &st->catalog,
		    &st->catalog_size, &st->catalog_version, &c);
		if (error != 0) {
			/* Kept for the catalog op; the model still serves. */
			st->catalog_error = error;
			st->catalog_cause = c;
			st->catalog_version = st->pmus[0].catalog_version;
		}
	}
	source_perf_frame(st);
	if (!st->hv24x7) {
		/* Each chosen CPU is one index of every event; there is no
		 * hypervisor interface behind it. */
		st->topo.sockets = 1;
		st->topo.chips = st->topo.cores = (unsigned)st->ncpus;
		st->topo.vcpus = (unsigned)st->ncpus;
		st->topo.smt = 1;
		st->topo.interface = 0;
		st->topo.privileged = 1;
	}
	source_perf_model(st);

	list = source_perf_cpus_text(st->cpus, st->ncpus);
	free(src->label);
	if (st->hv24x7)
		/* Every hv_24x7 counter is opened on the first CPU. */
		src->label = xasprintf("perf %s, cpu %d, catalog v%llu",
		    st->pmus[0].name, st->cpus[0],
		    (unsigned long long)st->catalog_version);
	else
		src->label = xasprintf("perf %s, cpu%s %s", pmus,
		    st->ncpus == 1 ? "" : "s", list);
	free(list);
	free(pmus);
	free(cpus);
	/* One read(2) of a perf group per hypervisor call or CPU. */
	src->calls = "group reads";
	src->data = st;
	return (0);
fail:
	free(pmus);
	free(cpus);
	source_perf_free(st);
	return (error);
}

int
source_perf_catalog_model(struct source *src, const struct catalog **out)
{
	struct source_perf	*st = src->data;

	*out = NULL;
	if (st == NULL || st->model == NULL)
		return (-HV_ENOENT);
	*out = st->model;
	return (0);
}

static int
source_perf_catalog(struct source *src, const void **out, size_t *len,
    char **cause)
{
	struct source_perf	*st = src->data;

	*out = NULL;
	*len = 0;
	if (!st->hv24x7) {
		*cause = xasprintf("PMU %s has no 24x7 catalog: its events "
		    "come from sysfs (the catalog model)", st->pmus[0].name);
		return (-HV_ENOENT);
	}
	if (st->catalog == NULL) {
		*cause = xstrdup(st->catalog_cause != NULL ?
		    st->catalog_cause : "the catalog could not be read");
		return (st->catalog_error != 0 ? st->catalog_error :
		    -HV_ENOENT);
	}
	*out = st->catalog;
	*len = st->catalog_size;
	return (0);
}

static int
source_perf_topology(struct source *src, struct topology *t, char **cause)
{
	struct source_perf	*st = src->data;

	(void)cause;
	*t = st->topo;
	return (0);
}

static void
source_perf_close_fds(struct source_perf *st)
{
	size_t	 i;

	for (i = 0; i < st->nctr; i++) {
		if (st->ctr[i].fd >= 0)
			close(st->ctr[i].fd);
	}
	for (i = 0; i < st->ngroups; i++)
		free(st->groups[i].members);
	free(st->groups);
	free(st->ctr);
	free(st->readbuf);
	st->groups = NULL;
	st->ngroups = 0;
	st->ctr = NULL;
	st->nctr = 0;
	st->readbuf = NULL;
	st->readcap = 0;
	st->sel = NULL;
}

/* Config words and CPU of one selected counter. */
static int
source_perf_encode(struct source_perf *st, const struct sel_counter *sc,
    struct perf_counter *pc, char **cause)
{
	const struct catalog_event	*me = NULL;
	const struct source_perf_pmu	*pmu;
	const struct pmu_event		*ev;
	struct pmu_param		 hv[7];
	struct pmu_event		 none;
	const char			*name = sc->event->sysfs_name;
	char				*c = NULL;
	size_t				 i;
	int				 error;

	if (name == NULL)
		name = sc->event->name;
	if (st->hv24x7) {
		pc->key = 0;
		pmu = &st->pmus[0];
		hv[0].name = "domain";
		hv[0].value = (uint64_t)sc->domain;
		hv[1].name = "offset";
		hv[1].value = sc->event->offset;
		hv[2].name = "lpar";
		hv[2].value = sc->lpar;
		hv[3].name = "chip";
		hv[4].name = "core";
		hv[5].name = "vcpu";
		hv[6].name = "starting_index";
		hv[3].value = hv[4].value = hv[5].value = hv[6].value =
		    sc->index;
		memset(&none, 0, sizeof none);
		pc->pmu = 0;
		pc->type = pmu->type;
		pc->cpu = st->cpus[0];
		/* The index must land somewhere, or every index is 0. */
		if (pmu_format_find(pmu->formats, pmu->nformats, "chip") ==
		    NULL && pmu_format_find(pmu->formats, pmu->nformats,
		    "starting_index") == NULL) {
			*cause = xasprintf("%s: no format/chip or "
			    "format/starting_index for the index", pmu->dir);
			return (-HV_ENOENT);
		}
		none.name = xstrdup(name);
		error = pmu_event_encode(&none, pmu->formats, pmu->nformats,
		    hv, 7, pc->cfg, cause);
		free(none.name);
		if (error != 0)
			return (error);
		return (pmu_hv24x7_check(name, pc->cfg, &st->frame, cause));
	}

	if ((me = catalog_find_sysfs(st->model, name)) == NULL)
		me = catalog_find_event(st->model, sc->event->name, 0);
	if (me == NULL || me->index >= st->model->nevents) {
		*cause = xasprintf("event '%s' is not one of %s's", name,
		    st->pmus[0].name);
		return (-HV_ENOENT);
	}
	pc->pmu = st->model_pmu[me->index];
	pmu = &st->pmus[pc->pmu];
	ev = &pmu->events[st->model_ev[me->index]];
	if (sc->index >= st->ncpus) {
		*cause = xasprintf("%s: index %u is out of range: %zu CPU%s "
		    "chosen (cpus option)", name, sc->index, st->ncpus,
		    st->ncpus == 1 ? "" : "s");
		return (-HV_ERANGE);
	}
	pc->cpu = st->cpus[sc->index];
	/* Counters of one CPU share groups, even if the list repeats it. */
	for (i = 0; i < sc->index && st->cpus[i] != pc->cpu; i++)
		;
	pc->key = i;
	pc->type = pmu->type;
	error = pmu_event_encode(ev, pmu->formats, pmu->nformats, st->params,
	    st->nparams, pc->cfg, &c);
	if (error == -HV_ENOENT && pmu_event_has_params(ev)) {
		*cause = xasprintf("%s (give it with -O NAME=VALUE)", c);
		free(c);
	} else if (error != 0)
		*cause = c;
	return (error);
}

/* The message for an errno from perf_event_open(). */
static char *
source_perf_open_error(struct source_perf *st, const struct sel_counter *sc,
    const struct perf_counter *pc, int err)
{
	const struct source_perf_pmu	*pmu = &st->pmus[pc->pmu];
	struct pmu_hv24x7_frame		 fr;
	struct rlimit			 rl;
	const char			*name = sc->event->sysfs_name;
	char				*what, *msg, *c = NULL;
	int				 paranoid, domain;

	if (name == NULL)
		name = sc->event->name;
	what = xasprintf("perf_event_open(%s/%s/ config=0x%llx config1=0x%llx,"
	    " cpu %d)", pmu->name, name, (unsigned long long)pc->cfg[0],
	    (unsigned long long)pc->cfg[1], pc->cpu);
	domain = (int)(pc->cfg[0] & 0xf);
	switch (err) {
	case ENOENT:
	case ENODEV:
		msg = xasprintf("%s: %s: the kernel has no PMU of type %d for "
		    "this event%s (is %s the sysfs of this machine?)", what,
		    strerror(err), pc->type, err == ENODEV ? " on this CPU "
		    "(offline, or not served there)" : "", st->sysfs_root);
		break;
	case EACCES:
	case EPERM:
		if (st->hv24x7 && pmu->collect_privileged != 1 &&
		    (domain <= 2 || sc->lpar != PMU_HV24X7_LPAR_SELF)) {
			fr = st->frame;
			fr.privileged = 0;
			fr.chips = fr.cores = fr.vcpus = 0;
			if (pmu_hv24x7_check(name, pc->cfg, &fr, &c) != 0) {
				msg = xasprintf("%s: %s: %s", what,
				    strerror(err), c);
				free(c);
				break;
			}
			free(c);
		}
		paranoid = source_perf_paranoid(st);
		if (paranoid == INT_MIN)
			msg = xasprintf("%s: %s: counting a whole CPU needs "
			    "CAP_PERFMON (or CAP_SYS_ADMIN), or "
			    "kernel.perf_event_paranoid at 0 or below (%s/sys/"
			    "kernel/perf_event_paranoid could not be read)",
			    what, strerror(err), st->proc_root);
		else if (paranoid > 0)
			msg = xasprintf("%s: %s: perf_event_paranoid is %d, "
			    "and counting a whole CPU needs it at 0 or below "
			    "or CAP_PERFMON (or CAP_SYS_ADMIN): run hvtop as "
			    "root, give it cap_perfmon (setcap cap_perfmon+ep),"
			    " or run 'sysctl kernel.perf_event_paranoid=0'",
			    what, strerror(err), paranoid);
		else
			msg = xasprintf("%s: %s although perf_event_paranoid "
			    "is %d: a security policy (SELinux, lockdown, a "
			    "seccomp filter in a container) refuses perf "
			    "events", what, strerror(err), paranoid);
		break;
	case EIO:
		if (st->hv24x7) {
			msg = xasprintf("%s: %s: the hypervisor refused the "
			    "kernel's test read of domain %d (%s), index %u, "
			    "offset 0x%llx: the index is probably beyond this "
			    "%s's %ss, or the offset outside the counter "
			    "space (dmesg shows the hcall's return code)",
			    what, strerror(err), domain,
			    pmu_hv24x7_domain_name(domain), sc->index,
			    (unsigned long long)(pc->cfg[0] >> 32),
			    domain <= 2 ? "frame" : "partition",
			    domain == 1 ? "chip" : domain == 2 ? "core" :
			    "vcpu");
			break;
		}
		msg = xasprintf("%s: %s", what, strerror(err));
		break;
	case EMFILE:
	case ENFILE:
		if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
			rl.rlim_cur = rl.rlim_max = 0;
		msg = xasprintf("%s: %s: this selection needs %zu file "
		    "descriptors (one per counter) besides hvtop's own, and "
		    "the limit is %llu (hard limit %llu): raise it (ulimit -n "
		    "%zu) or select fewer counters", what, strerror(err),
		    st->sel->ncounters, (unsigned long long)rl.rlim_cur,
		    (unsigned long long)rl.rlim_max,
		    st->sel->ncounters + PERF_FD_SLACK);
		break;
	case EINVAL:
		if (st->hv24x7) {
			fr = st->frame;
			fr.privileged = 1;
			if (pmu_hv24x7_check(name, pc->cfg, &fr, &c) != 0) {
				msg = xasprintf("%s: %s: %s", what,
				    strerror(err), c);
				free(c);
				break;
			}
			free(c);
		}
		msg = xasprintf("%s: %s: the kernel refused config=0x%llx "
		    "config1=0x%llx config2=0x%llx", what, strerror(err),
		    (unsigned long long)pc->cfg[0],
		    (unsigned long long)pc->cfg[1],
		    (unsigned long long)pc->cfg[2]);
		break;
	default:
		msg = xasprintf("%s: %s", what, strerror(err));
		break;
	}
	free(what);
	return (msg);
}

/* Raise the soft fd limit to the hard one when the selection needs it. */
static void
source_perf_fd_limit(size_t need)
{
	struct rlimit	 rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return;
	if (rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < (rlim_t)(need + PERF_FD_SLACK) &&
	    rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static int
source_perf_open_one(struct perf_counter *pc, int group_fd)
{
	struct perf_event_attr	 attr;
	long			 fd;

	memset(&attr, 0, sizeof attr);
	attr.size = sizeof attr;
	attr.type = (uint32_t)pc->type;
	attr.config = pc->cfg[0];
	attr.config1 = pc->cfg[1];
	attr.config2 = pc->cfg[2];
	/* Counting only: no sampling, no exclude bits (hv_24x7 refuses
	 * them), and a group leader's read returns the whole group. */
	attr.read_format = PERF_FORMAT_GROUP |
	    PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	/* A sibling that joins a running group is not scheduled until the
	 * group is, which never happens without multiplexing: start the
	 * leader disabled and enable the whole group once it is built. */
	attr.disabled = group_fd == -1;
	fd = source_perf_syscall(&attr, pc->cpu, group_fd);
	return (fd < 0 ? -1 : (int)fd);
}

static void
source_perf_group_add(struct perf_group *g, size_t m)
{
	g->members = xreallocarray(g->members, g->n + 1, sizeof *g->members);
	g->members[g->n++] = m;
}

struct perf_order {
	size_t		 key;
	size_t		 i;
};

static int
source_perf_order_cmp(const void *a, const void *b)
{
	const struct perf_order	*x = a, *y = b;

	if (x->key != y->key)
		return (x->key < y->key ? -1 : 1);
	return (x->i < y->i ? -1 : x->i > y->i);
}

static int
source_perf_select(struct source *src, const struct selection *sel,
    char **cause)
{
	struct source_perf	*st = src->data;
	struct perf_counter	*pc;
	struct perf_group	*g = NULL;
	struct perf_order	*sorted;
	size_t			*order, i, k, n, limit = 0, maxn = 0;
	int			*domains = NULL, fd, err, error = 0;

	source_perf_close_fds(st);
	if (sel == NULL || sel->ncounters == 0)
		return (0);
	n = sel->ncounters;
	st->sel = sel;
	st->ctr = xcalloc(n, sizeof *st->ctr);
	st->nctr = n;
	for (i = 0; i < n; i++)
		st->ctr[i].fd = -1;
	for (i = 0; i < n; i++) {
		error = source_perf_encode(st, &sel->counters[i], &st->ctr[i],
		    cause);
		if (error != 0)
			goto fail;
	}

	/* Open order: CPU by CPU (a group lives on one CPU), and within a
	 * CPU in selection order. */
	sorted = xreallocarray(NULL, n, sizeof *sorted);
	for (i = 0; i < n; i++) {
		sorted[i].key = st->ctr[i].key;
		sorted[i].i = i;
	}
	qsort(sorted, n, sizeof *sorted, source_perf_order_cmp);
	order = xreallocarray(NULL, n, sizeof *order);
	for (i = 0; i < n; i++)
		order[i] = sorted[i].i;
	free(sorted);
	k = n;
	if (st->hv24x7) {
		domains = xreallocarray(NULL, n, sizeof *domains);
		for (i = 0; i < n; i++)
			domains[i] = (int)(st->ctr[order[i]].cfg[0] & 0xf);
	}
	source_perf_fd_limit(n);

	for (i = 0; i < k; i++) {
		pc = &st->ctr[order[i]];
		if (g != NULL && (g->cpu != pc->cpu || g->n >= limit))
			g = NULL;
		fd = -1;
		if (g != NULL) {
			fd = source_perf_open_one(pc, g->leader);
			/* Some PMUs cannot share a group with others:
			 * start a group of its own. */
			if (fd < 0 && errno == EINVAL &&
			    pc->type != st->ctr[g->members[0]].type)
				g = NULL;
			else if (fd < 0)
				goto open_failed;
		}
		if (g == NULL) {
			if ((fd = source_perf_open_one(pc, -1)) < 0)
				goto open_failed;
			st->groups = xreallocarray(st->groups,
			    st->ngroups + 1, sizeof *st->groups);
			g = &st->groups[st->ngroups++];
			memset(g, 0, sizeof *g);
			g->leader = fd;
			g->cpu = pc->cpu;
			if (st->hv24x7)
				limit = pmu_hv24x7_group_fit(&st->frame,
				    domains + i, k - i);
			else
				limit = PERF_GROUP_MAX_DEFAULT;
			if (st->group_max != 0 && st->group_max < limit)
				limit = st->group_max;
		}
		pc->fd = fd;
		pc->group = st->ngroups - 1;
		pc->slot = g->n;
		source_perf_group_add(g, order[i]);
		if (g->n > maxn)
			maxn = g->n;
		continue;
open_failed:
		err = errno;
		*cause = source_perf_open_error(st, &sel->counters[order[i]],
		    pc, err);
		error = -err;
		free(order);
		free(domains);
		goto fail;
	}
	free(order);
	free(domains);
	for (i = 0; i < st->ngroups; i++) {
		if (ioctl(st->groups[i].leader, PERF_EVENT_IOC_ENABLE, 0) ==
		    -1) {
			err = errno;
			*cause = xasprintf("enabling group %zu of %zu (cpu "
			    "%d): %s", i + 1, st->ngroups,
			    st->groups[i].cpu, strerror(err));
			error = -err;
			goto fail;
		}
	}
	st->readcap = PERF_READ_HDR + maxn;
	st->readbuf = xreallocarray(NULL, st->readcap, sizeof *st->readbuf);
	return (0);
fail:
	source_perf_close_fds(st);
	return (error);
}

/* Recheck the live catalog version now and then (it costs an hcall). */
static void
source_perf_version_check(struct source_perf *st, uint64_t now,
    struct raw_sample *rs)
{
	char		*path, *c = NULL;
	uint64_t	 v;

	if (st->last_check != 0 && now - st->last_check <
	    PERF_VERSION_CHECK_NS) {
		rs->catalog_version = st->catalog_version;
		return;
	}
	st->last_check = now != 0 ? now : 1;
	path = xasprintf("%s/interface/catalog_version", st->pmus[0].dir);
	if (source_perf_sysfs_uint(path, &v, &c) == 0 &&
	    v != st->catalog_version) {
		snprintf(rs->error, sizeof rs->error, "the catalog changed "
		    "from version %llu to %llu", (unsigned long long)
		    st->catalog_version, (unsigned long long)v);
		st->catalog_version = v;
	}
	free(c);
	free(path);
	rs->catalog_version = st->catalog_version;
}

static int
source_perf_sample(struct source *src, uint64_t now, struct raw_sample *rs,
    char **cause)
{
	struct source_perf	*st = src->data;
	struct perf_group	*g;
	struct raw_value	*rv;
	uint64_t		 enabled, running, v, nr;
	size_t			 i, j, n = st->nctr, failed = 0, words;
	ssize_t			 r;
	uint8_t			 status;
	int			 err = 0;
	unsigned __int128	 scaled;

	rs->now = now;
	rs->calls = 0;
	rs->naive_calls = (unsigned)n;
	rs->error[0] = '\0';
	rs->catalog_version = 0;
	if (n > 0 && (rs->values == NULL || rs->nvalues < n))
		rs->values = xreallocarray(rs->values, n, sizeof *rs->values);
	rs->nvalues = n;
	if (st->hv24x7)
		source_perf_version_check(st, now, rs);

	for (i = 0; i < st->ngroups; i++) {
		g = &st->groups[i];
		rs->calls++;
		do
			r = read(g->leader, st->readbuf, (PERF_READ_HDR +
			    g->n) * sizeof *st->readbuf);
		while (r == -1 && errno == EINTR);
		if (r == -1) {
			err = errno;
			status = err == EACCES || err == EPERM ?
			    RAW_DENIED : err == EBUSY || err == EAGAIN ?
			    RAW_BUSY : RAW_FAILED;
			for (j = 0; j < g->n; j++) {
				rv = &rs->values[g->members[j]];
				rv->value = 0;
				rv->timebase = 0;
				rv->status = status;
			}
			failed++;
			snprintf(rs->error, sizeof rs->error, "group %zu of "
			    "%zu (%zu counters, cpu %d): read: %s%s", i + 1,
			    st->ngroups, g->n, g->cpu, strerror(err),
			    st->hv24x7 && err == EIO ? " (the hypervisor "
			    "refused H_GET_24X7_DATA; dmesg shows why)" : "");
			continue;
		}
		words = (size_t)r / sizeof *st->readbuf;
		nr = words < PERF_READ_HDR ? 0 : st->readbuf[0];
		if (words >= PERF_READ_HDR && nr > words - PERF_READ_HDR)
			nr = words - PERF_READ_HDR;
		enabled = nr > 0 ? st->readbuf[1] : 0;
		running = nr > 0 ? st->readbuf[2] : 0;
		for (j = 0; j < g->n; j++) {
			rv = &rs->values[g->members[j]];
			rv->timebase = 0;
			if (j >= nr || running == 0) {
				rv->value = 0;
				rv->status = RAW_MISSING;
				continue;
			}
			v = st->readbuf[PERF_READ_HDR + j];
			if (running < enabled) {
				/* Multiplexed: estimate the whole period. */
				scaled = (unsigned __int128)v * enabled /
				    running;
				v = scaled > UINT64_MAX ? UINT64_MAX :
				    (uint64_t)scaled;
			}
			rv->value = v;
			rv->status = RAW_OK;
		}
		if (nr > 0 && running < enabled && rs->error[0] == '\0')
			snprintf(rs->error, sizeof rs->error, "group %zu "
			    "counted %.0f%% of the time; its values are "
			    "scaled", i + 1, running == 0 ? 0.0 :
			    100.0 * (double)running / (double)enabled);
		if (nr < g->n && rs->error[0] == '\0')
			snprintf(rs->error, sizeof rs->error, "group %zu "
			    "returned %llu of %zu counters", i + 1,
			    (unsigned long long)nr, g->n);
	}
	if (st->ngroups > 0 && failed == st->ngroups) {
		*cause = xstrdup(rs->error);
		return (-err);
	}
	return (0);
}

static int
source_perf_constant(struct source *src, const char *name, double *out)
{
	(void)src;
	(void)name;
	*out = 0;
	return (-HV_ENOENT);
}

static void
source_perf_close(struct source *src)
{
	struct source_perf	*st = src->data;

	if (st != NULL) {
		source_perf_close_fds(st);
		source_perf_free(st);
	}
	src->data = NULL;
	free(src->label);
	src->label = NULL;
}

const struct source_ops source_perf_ops = {
	.name = "perf",
	.open = source_perf_open,
	.catalog = source_perf_catalog,
	.topology = source_perf_topology,
	.select = source_perf_select,
	.sample = source_perf_sample,
	.model = source_perf_catalog_model,
	.constant = source_perf_constant,
	.close = source_perf_close,
};
