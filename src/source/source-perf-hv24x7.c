/*
 * The perf source's hv_24x7 variant: what the generic fd-group reader
 * needs to know about the PowerVM 24x7 PMU.  The catalog is the live one
 * (interface/catalog, rechecked now and then through catalog_version); a
 * counter is encoded from its catalog event (domain, offset) and index
 * (chip, core or vcpu) through the PMU's format/ files and checked by the
 * kernel's own rules before any syscall; a group is as large as one
 * H_GET_24X7_DATA can carry; the topology is the frame's (interface/,
 * cpuinfo, SMT).  Every counter is opened on one CPU: the hypervisor
 * counts for the frame, not for the CPU the event sits on.
 *
 * Layouts and rules: Linux, arch/powerpc/perf/hv-24x7.c and
 * Documentation/ABI/testing/sysfs-bus-event_source-devices-hv_24x7.
 */
#include "config.h"

#include "source/source-perf-int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "hcall/hcall.h"
#include "model/frame-ident.h"
#include "model/hv-abi.h"
#include "model/selection.h"
#include "sys/iowait.h"
#include "sys/lparcfg-file.h"
#include "util/hverr.h"
#include "util/xalloc.h"

#define HV24X7_VERSION_CHECK_NS	(10ULL * 1000000000ULL)
#define HV24X7_NPARAMS		7
#define HV24X7_DENIED		"other partitions are not visible: allow " \
	"performance information collection for this partition on the HMC"

struct perf_hv24x7 {
	void		*catalog;	/* the live image */
	size_t		 catalog_size;
	uint64_t	 image_version;	/* the image's own */
	uint64_t	 catalog_version;
	int		 catalog_error;	/* why there is no image */
	char		*catalog_cause;
	uint64_t	 last_check;	/* when catalog_version was read */
	struct pmu_hv24x7_frame frame;	/* for the kernel's checks */
	struct perf_lpar_found lpars;	/* the partitions found */
	/* Partitions found before, which a topology handed out still
	 * points to: freed at the next topology call. */
	struct topo_lpar **retired;
	size_t		 nretired;
	uint64_t	 last_scan;	/* when a lost partition was looked for */
	int		 asked;		/* partitions were asked for: look
					   again when they may have changed */
	int		 denied_said;	/* the HMC message was given */
};

static int
source_perf_hv24x7_match(const struct source_perf_pmu *pmu)
{
	return (pmu->hv24x7);
}

/* The formats every hv_24x7 counter is encoded through. */
static int
source_perf_hv24x7_formats(const struct source_perf_pmu *pmu, char **cause)
{
	static const char *const need[] = { "domain", "offset", "lpar" };
	size_t			 i;

	for (i = 0; i < sizeof need / sizeof need[0]; i++) {
		if (pmu_format_find(pmu->formats, pmu->nformats,
		    need[i]) == NULL) {
			*cause = xasprintf("%s: no format/%s, so hv_24x7 "
			    "events cannot be encoded", pmu->dir, need[i]);
			return (-HV_ENOENT);
		}
	}
	return (0);
}

/* Online CPUs and threads per core, from sysfs. */
static void
source_perf_hv24x7_threads(const struct source_perf *st, size_t *online,
    unsigned *smt)
{
	char	*path, *c = NULL;
	int	*v = NULL;
	size_t	 n = 0;

	*online = 1;
	*smt = 1;
	path = xasprintf("%s/devices/system/cpu/online", st->sysfs_root);
	if (source_perf_sysfs_cpus(path, &v, &n, &c) == 0 && n > 0) {
		*online = n;
		free(path);
		path = xasprintf("%s/devices/system/cpu/cpu%d/topology/"
		    "thread_siblings_list", st->sysfs_root, v[0]);
		free(v);
		v = NULL;
		if (source_perf_sysfs_cpus(path, &v, &n, &c) == 0 && n > 0)
			*smt = (unsigned)n;
	}
	free(c);
	free(v);
	free(path);
}

/* The hcall interface: the option, else cpuinfo, else the catalog. */
static int
source_perf_hv24x7_interface(const struct source_perf *st,
    const struct perf_hv24x7 *hv)
{
	struct catalog	*cat = NULL;
	char		*cpu, *c = NULL;
	int		 iface = st->iface_opt;

	if (iface == 0 && (cpu = source_perf_cpuinfo(st, "cpu")) != NULL) {
		/* The kernel: POWER8 only speaks v1, the rest v2. */
		if (strncmp(cpu, "POWER", 5) == 0)
			iface = strncmp(cpu, "POWER8", 6) == 0 ? 1 : 2;
		free(cpu);
	}
	if (iface == 0 && hv->catalog != NULL) {
		if (catalog_parse(hv->catalog, hv->catalog_size, 0, &cat,
		    &c) == 0)
			iface = cat->interface;
		catalog_free(cat);
		free(c);
	}
	return (iface != 0 ? iface : 2);
}

/* The frame: interface/ sizes, SMT, virtual processors, timebase. */
static void
source_perf_hv24x7_topology(struct source_perf *st, struct perf_hv24x7 *hv)
{
	const struct source_perf_pmu	*pmu = &st->pmus[0];
	struct topology			*t = &st->topo;
	char				*tb;
	size_t				 online;

	memset(t, 0, sizeof *t);
	source_perf_hv24x7_threads(st, &online, &t->smt);
	t->interface = source_perf_hv24x7_interface(st, hv);
	if ((tb = source_perf_cpuinfo(st, "timebase")) != NULL)
		t->timebase_hz = strtoull(tb, NULL, 10);
	free(tb);
	t->sockets = pmu->sockets != 0 ? pmu->sockets : 1;
	t->chips = t->sockets * (pmu->chipspersocket != 0 ?
	    pmu->chipspersocket : 1);
	t->cores = t->chips * (pmu->coresperchip != 0 ?
	    pmu->coresperchip : 1);
	t->vcpus = (unsigned)(online / t->smt);
	if (t->vcpus == 0)
		t->vcpus = 1;
	t->privileged = pmu->collect_privileged != 0;

	hv->frame.interface = t->interface;
	hv->frame.aggregate = t->interface == 2 && t->smt == 8;
	/* Unknown sizes are left to the hypervisor to refuse. */
	hv->frame.chips = pmu->sockets != 0 ? t->chips : 0;
	hv->frame.cores = pmu->sockets != 0 && pmu->coresperchip != 0 ?
	    t->cores : 0;
	hv->frame.vcpus = t->vcpus;
	hv->frame.privileged = pmu->collect_privileged;
}

/* Config words of one event, through the PMU's own format/ files. */
static int
source_perf_hv24x7_config(const struct source_perf *st, const char *name,
    int domain, uint64_t offset, uint16_t lpar, unsigned index,
    uint64_t cfg[PMU_CONFIG_WORDS], char **cause)
{
	const struct source_perf_pmu	*pmu = &st->pmus[0];
	struct pmu_param		 p[HV24X7_NPARAMS] = {
		{ "domain", (uint64_t)domain },
		{ "offset", offset },
		{ "lpar", lpar },
		{ "chip", index },
		{ "core", index },
		{ "vcpu", index },
		{ "starting_index", index },
	};
	struct pmu_event		 none;
	int				 error;

	/* The index must land somewhere, or every index is 0. */
	if (pmu_format_find(pmu->formats, pmu->nformats, "chip") == NULL &&
	    pmu_format_find(pmu->formats, pmu->nformats,
	    "starting_index") == NULL) {
		*cause = xasprintf("%s: no format/chip or "
		    "format/starting_index for the index", pmu->dir);
		return (-HV_ENOENT);
	}
	/* An event of no terms: the params say it all. */
	memset(&none, 0, sizeof none);
	none.name = xstrdup(name);
	error = pmu_event_encode(&none, pmu->formats, pmu->nformats, p,
	    HV24X7_NPARAMS, cfg, cause);
	free(none.name);
	return (error);
}

/* A probe's event: the model's first core event, by its sysfs name. */
struct perf_hv24x7_probe {
	struct source_perf		*st;
	const struct catalog_event	*ev;
};

static int
source_perf_hv24x7_probe(void *arg, uint16_t lpar, unsigned vcpu)
{
	struct perf_hv24x7_probe	*pr = arg;
	struct perf_counter		 pc;
	const char			*name = pr->ev->sysfs_name;
	char				*c = NULL;
	int				 fd;

	if (name == NULL)
		name = pr->ev->name;
	memset(&pc, 0, sizeof pc);
	pc.type = pr->st->pmus[0].type;
	pc.cpu = pr->st->cpus[0];
	if (source_perf_hv24x7_config(pr->st, name, HV_DOMAIN_VCPU_HOME_CORE,
	    pr->ev->offset, lpar, vcpu, pc.cfg, &c) != 0) {
		free(c);
		return (EINVAL);
	}
	/* The open is the question: the kernel's test call answers it. */
	if ((fd = source_perf_fd_open(&pc, -1)) < 0)
		return (errno != 0 ? errno : EIO);
	close(fd);
	return (0);
}

/* The wait between two probes answered busy; a signal that ends the
 * run ends it. */
static void
source_perf_hv24x7_pause(void *arg, uint64_t ns)
{
	(void)arg;
	(void)iowait_sleep(ns);
}

/*
 * Which partitions the frame has, into st->topo.  Only interface 2 has
 * the VCPU domains; a model without a core event has nothing to probe.
 */
static void
source_perf_hv24x7_discover(struct source_perf *st, struct perf_hv24x7 *hv)
{
	struct perf_hv24x7_probe	 pr;
	struct perf_lpar_scan		 sc;
	struct topology			*t = &st->topo;
	size_t				 i;

	if (hv->lpars.lpars != NULL) {
		hv->retired = xreallocarray(hv->retired, hv->nretired + 1,
		    sizeof *hv->retired);
		hv->retired[hv->nretired++] = hv->lpars.lpars;
		hv->lpars.lpars = NULL;
	}
	source_perf_lpar_found_free(&hv->lpars);
	t->lpars = NULL;
	t->nlpars = 0;
	t->lpars_denied = 0;
	t->lpar_self = source_perf_lpar_self(st);
	if (t->interface != 2 || st->model == NULL)
		return;
	memset(&pr, 0, sizeof pr);
	pr.st = st;
	for (i = 0; i < st->model->nevents && pr.ev == NULL; i++) {
		if (st->model->events[i].domain == HV_DOMAIN_CORE)
			pr.ev = &st->model->events[i];
	}
	if (pr.ev == NULL)
		return;
	memset(&sc, 0, sizeof sc);
	sc.probe = source_perf_hv24x7_probe;
	sc.pause = source_perf_hv24x7_pause;
	sc.arg = &pr;
	sc.lo = st->lpar_lo;
	sc.hi = st->lpar_hi;
	sc.gap = st->lpar_gap;
	sc.maxvcpus = PERF_LPAR_VCPUS_MAX;
	sc.privileged = st->pmus[0].collect_privileged;
	source_perf_lpar_scan(&sc, &hv->lpars);
	t->lpars = hv->lpars.lpars;
	t->nlpars = hv->lpars.nlpars;
	t->lpars_denied = hv->lpars.denied;
}

/* What the last topology pointed to is no longer handed out. */
static void
source_perf_hv24x7_retire(struct source_perf *st)
{
	struct perf_hv24x7	*hv = st->vdata;
	size_t			 i;

	for (i = 0; i < hv->nretired; i++)
		free(hv->retired[i]);
	free(hv->retired);
	hv->retired = NULL;
	hv->nretired = 0;
}

static int
source_perf_hv24x7_open(struct source_perf *st, char **cause)
{
	struct perf_hv24x7	*hv;
	struct pmu_listing	*ls;
	char			*c = NULL;
	int			 error;

	if ((error = source_perf_hv24x7_formats(&st->pmus[0], cause)) != 0)
		return (error);
	hv = xcalloc(1, sizeof *hv);
	st->vdata = hv;
	error = source_perf_sysfs_catalog(&st->pmus[0], &hv->catalog,
	    &hv->catalog_size, &hv->catalog_version, &c);
	hv->image_version = hv->catalog_version;
	if (error != 0) {
		/* Kept for the catalog op; the model still serves. */
		hv->catalog_error = error;
		hv->catalog_cause = c;
		hv->catalog_version = st->pmus[0].catalog_version;
	}
	source_perf_hv24x7_topology(st, hv);
	ls = source_perf_listings(st);
	st->model = pmu_catalog_build(ls, 1, PMU_CATALOG_HV24X7,
	    st->topo.interface);
	free(ls);
	/* Partitions are looked for when asked: a probe per id costs a
	 * hypervisor call that a run without @lpar picks need not make. */
	st->topo.lpar_self = source_perf_lpar_self(st);
	frame_ident_init(&st->topo.ident);
	(void)lparcfg_file_read(st->proc_root, &st->topo.ident, NULL);
	return (0);
}

static void
source_perf_hv24x7_partitions(struct source_perf *st)
{
	struct perf_hv24x7	*hv = st->vdata;

	if (hv->asked)
		return;
	hv->asked = 1;
	source_perf_hv24x7_discover(st, hv);
}

static char *
source_perf_hv24x7_label(const struct source_perf *st)
{
	const struct perf_hv24x7	*hv = st->vdata;

	/*
	 * Every hv_24x7 counter is opened on the first CPU.  The catalog's
	 * version is the session's to show when it has the image; without
	 * it (events from sysfs) only this label can say it.
	 */
	if (hv->catalog != NULL)
		return (xasprintf("perf %s, cpu %d", st->pmus[0].name,
		    st->cpus[0]));
	return (xasprintf("perf %s, cpu %d, catalog v%llu", st->pmus[0].name,
	    st->cpus[0], (unsigned long long)hv->catalog_version));
}

static int
source_perf_hv24x7_catalog(struct source_perf *st, const void **out,
    size_t *len, char **cause)
{
	struct perf_hv24x7	*hv = st->vdata;
	void			*img;
	size_t			 n;
	uint64_t		 v;
	char			*path, *c = NULL;
	int			 error;

	if (hv->catalog == NULL) {
		*cause = xstrdup(hv->catalog_cause != NULL ?
		    hv->catalog_cause : "the catalog could not be read");
		return (hv->catalog_error != 0 ? hv->catalog_error :
		    -HV_ENOENT);
	}
	/*
	 * After a version change the session asks for the catalog again:
	 * the image read at open is the old one, so read the live one.
	 * interface/ is readable by anyone, a run that changed user too.
	 */
	path = xasprintf("%s/interface/catalog_version", st->pmus[0].dir);
	if (source_perf_sysfs_uint(path, &v, &c) == 0 &&
	    v != hv->image_version) {
		if ((error = source_perf_sysfs_catalog(&st->pmus[0], &img,
		    &n, &v, cause)) != 0) {
			free(path);
			return (error);
		}
		free(hv->catalog);
		hv->catalog = img;
		hv->catalog_size = n;
		hv->image_version = hv->catalog_version = v;
		/* A new catalog may come with partitions moved or gone. */
		if (hv->asked)
			source_perf_hv24x7_discover(st, hv);
	}
	free(c);
	free(path);
	*out = hv->catalog;
	*len = hv->catalog_size;
	return (0);
}

/* The catalog event and index, through the PMU's own format/ files. */
static int
source_perf_hv24x7_encode(struct source_perf *st,
    const struct sel_counter *sc, struct perf_counter *pc, char **cause)
{
	const struct perf_hv24x7	*hv = st->vdata;
	const struct topo_lpar		*l;
	struct pmu_hv24x7_frame		 fr = hv->frame;
	const char			*name = sc->event->sysfs_name;
	int				 error;

	if (name == NULL)
		name = sc->event->name;
	pc->key = 0;
	pc->pmu = 0;
	pc->type = st->pmus[0].type;
	pc->cpu = st->cpus[0];
	if ((error = source_perf_hv24x7_config(st, name, sc->domain,
	    sc->event->offset, sc->lpar, sc->index, pc->cfg, cause)) != 0)
		return (error);
	/* Another partition has the vcpus the scan found (none known: the
	 * kernel's test call decides). */
	if (sc->domain >= HV_DOMAIN_VCPU_HOME_CORE &&
	    sc->lpar != HCALL_LPAR_SELF)
		fr.vcpus = (l = topo_lpar_find(hv->lpars.lpars,
		    hv->lpars.nlpars, sc->lpar)) != NULL ? l->vcpus : 0;
	return (pmu_hv24x7_check(name, pc->cfg, &fr, cause));
}

/* As many as one H_GET_24X7_DATA can carry: requests and result bytes. */
static size_t
source_perf_hv24x7_group_fit(const struct source_perf *st,
    const size_t *order, size_t n)
{
	const struct perf_hv24x7	*hv = st->vdata;
	int				*domains;
	size_t				 i, fit;

	if (n > pmu_hv24x7_max_requests(&hv->frame))
		n = pmu_hv24x7_max_requests(&hv->frame);
	domains = xreallocarray(NULL, n + 1, sizeof *domains);
	for (i = 0; i < n; i++)
		domains[i] = (int)(st->ctr[order[i]].cfg[0] & 0xf);
	fit = pmu_hv24x7_group_fit(&hv->frame, domains, n);
	free(domains);
	return (fit);
}

/*
 * The kernel's refusals that hv_24x7's rules explain: EACCES/EPERM for a
 * physical domain or another partition without the hypervisor's
 * permission, EIO for the hypervisor refusing the kernel's test read,
 * EINVAL for a check the kernel makes.  NULL for the generic message.
 */
static char *
source_perf_hv24x7_open_error(const struct source_perf *st,
    const struct sel_counter *sc, const struct perf_counter *pc, int err,
    const char *what)
{
	const struct perf_hv24x7	*hv = st->vdata;
	struct pmu_hv24x7_frame		 fr = hv->frame;
	const char			*name = sc->event->sysfs_name;
	char				*c = NULL, *msg = NULL;
	int				 domain = (int)(pc->cfg[0] & 0xf);

	if (name == NULL)
		name = sc->event->name;
	if (err == EIO)
		return (xasprintf("%s: %s: the hypervisor refused the kernel's "
		    "test read of domain %d (%s), index %u, offset 0x%llx: "
		    "the index is probably beyond this %s's %ss, or the offset "
		    "outside the counter space (dmesg shows the hcall's return "
		    "code)", what, strerror(err), domain,
		    pmu_hv24x7_domain_name(domain), sc->index,
		    (unsigned long long)(pc->cfg[0] >> 32),
		    domain <= 2 ? "frame" : "partition", domain == 1 ? "chip" :
		    domain == 2 ? "core" : "vcpu"));
	if ((err == EACCES || err == EPERM) &&
	    st->pmus[0].collect_privileged != 1 &&
	    (domain <= 2 || sc->lpar != HCALL_LPAR_SELF)) {
		fr.privileged = 0;
		fr.chips = fr.cores = fr.vcpus = 0;
	} else if (err == EINVAL)
		fr.privileged = 1;
	else
		return (NULL);
	if (pmu_hv24x7_check(name, pc->cfg, &fr, &c) != 0)
		msg = xasprintf("%s: %s: %s", what, strerror(err), c);
	free(c);
	return (msg);
}

/* Recheck the live catalog version now and then (it costs an hcall). */
static void
source_perf_hv24x7_version(struct source_perf *st, uint64_t now,
    struct raw_sample *rs)
{
	struct perf_hv24x7	*hv = st->vdata;
	char			*path, *c = NULL;
	uint64_t		 v;

	if (hv->last_check != 0 && now - hv->last_check <
	    HV24X7_VERSION_CHECK_NS) {
		rs->catalog_version = hv->catalog_version;
		return;
	}
	hv->last_check = now != 0 ? now : 1;
	path = xasprintf("%s/interface/catalog_version", st->pmus[0].dir);
	if (source_perf_sysfs_uint(path, &v, &c) == 0 &&
	    v != hv->catalog_version) {
		snprintf(rs->error, sizeof rs->error, "the catalog changed "
		    "from version %llu to %llu", (unsigned long long)
		    hv->catalog_version, (unsigned long long)v);
		hv->catalog_version = v;
	}
	free(c);
	free(path);
	rs->catalog_version = hv->catalog_version;
}

/* Whether the selection reads partitions (a pick "@lpar"). */
static int
source_perf_hv24x7_reads_lpars(const struct source_perf *st)
{
	size_t	 i;

	for (i = 0; st->sel != NULL && i < st->sel->npicks; i++) {
		if (st->sel->picks[i].domain == SEL_DOMAIN_LPAR)
			return (1);
	}
	return (0);
}

/*
 * Once per sample: the catalog version now and then, and once, in the
 * first interval shown, why no other partition is read.
 */
static void
source_perf_hv24x7_sample(struct source_perf *st, uint64_t now,
    struct raw_sample *rs)
{
	struct perf_hv24x7	*hv = st->vdata;

	source_perf_hv24x7_version(st, now, rs);
	if (st->topo.lpars_denied && !hv->denied_said && st->sampled &&
	    rs->error[0] == '\0' && source_perf_hv24x7_reads_lpars(st)) {
		snprintf(rs->error, sizeof rs->error, "%s", HV24X7_DENIED);
		hv->denied_said = 1;
	}
}

/*
 * A group read the hypervisor refused: when it reads another partition
 * that no longer answers (removed, or moved out of reach), find the
 * partitions again, at most every HV24X7_VERSION_CHECK_NS.
 */
static void
source_perf_hv24x7_read_failed(struct source_perf *st, size_t i, int err,
    struct raw_sample *rs)
{
	struct perf_hv24x7		*hv = st->vdata;
	struct perf_hv24x7_probe	 pr;
	const struct perf_group		*g = &st->groups[i];
	const struct sel_counter	*sc;
	size_t				 j, len;
	uint16_t			 last = HCALL_LPAR_SELF;

	if (err != EIO || (hv->last_scan != 0 && rs->now - hv->last_scan <
	    HV24X7_VERSION_CHECK_NS))
		return;
	memset(&pr, 0, sizeof pr);
	pr.st = st;
	for (j = 0; j < g->n; j++) {
		sc = &st->sel->counters[g->members[j]];
		if (sc->domain < HV_DOMAIN_VCPU_HOME_CORE ||
		    sc->lpar == HCALL_LPAR_SELF || sc->lpar == last)
			continue;
		last = sc->lpar;
		pr.ev = sc->event;
		if (source_perf_hv24x7_probe(&pr, sc->lpar, 0) == 0)
			continue;
		hv->last_scan = rs->now != 0 ? rs->now : 1;
		source_perf_hv24x7_discover(st, hv);
		len = strlen(rs->error);
		snprintf(rs->error + len, sizeof rs->error - len, "%s"
		    "partition %u no longer answers: %zu partitions found "
		    "again", len > 0 ? "; " : "", (unsigned)sc->lpar,
		    st->topo.nlpars);
		return;
	}
}

static void
source_perf_hv24x7_close(struct source_perf *st)
{
	struct perf_hv24x7	*hv = st->vdata;

	if (hv == NULL)
		return;
	free(hv->catalog);
	free(hv->catalog_cause);
	source_perf_hv24x7_retire(st);
	source_perf_lpar_found_free(&hv->lpars);
	free(hv);
	st->vdata = NULL;
}

const struct source_perf_variant source_perf_hv24x7 = {
	.name = "hv_24x7",
	.absent = "hv_24x7 exists only in PowerVM partitions whose kernel has "
	    "CONFIG_HV_PERF_CTRS",
	.match = source_perf_hv24x7_match,
	.alone = "its catalog describes it alone",
	.open = source_perf_hv24x7_open,
	.label = source_perf_hv24x7_label,
	.catalog = source_perf_hv24x7_catalog,
	.encode = source_perf_hv24x7_encode,
	.group_fit = source_perf_hv24x7_group_fit,
	.open_error = source_perf_hv24x7_open_error,
	.eio_hint = " (the hypervisor refused H_GET_24X7_DATA; dmesg shows "
	    "why)",
	.topology = source_perf_hv24x7_retire,
	.partitions = source_perf_hv24x7_partitions,
	.read_failed = source_perf_hv24x7_read_failed,
	.sample = source_perf_hv24x7_sample,
	.close = source_perf_hv24x7_close,
};
