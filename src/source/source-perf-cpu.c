/*
 * The perf source's variant for every PMU but hv_24x7 (msr, software, an
 * uncore PMU; several may be joined with '+'): PMUs that count per CPU.
 * There is no catalog image: the catalog is a model built from each PMU's
 * events/ listing (src/pmu/pmu-catalog.c), and a counter's index i is the
 * i-th CPU of the cpus option (by default the first of the PMU's
 * cpumask).  An event is encoded from its own events/ terms and the
 * NAME=VALUE options; counters of one CPU share groups.
 */
#include "config.h"

#include "source/source-perf-int.h"

#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "model/selection.h"
#include "util/hverr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct perf_cpu {
	struct pmu_listing *listings;	/* of st->pmus, for the model */
};

static int
source_perf_cpu_match(const struct source_perf_pmu *pmu)
{
	(void)pmu;
	return (1);
}

static int
source_perf_cpu_open(struct source_perf *st, char **cause)
{
	struct perf_cpu	*pc;
	char		*tb;

	(void)cause;
	/* Each chosen CPU is one index of every event; there is no
	 * hypervisor interface behind it. */
	memset(&st->topo, 0, sizeof st->topo);
	st->topo.sockets = 1;
	st->topo.chips = st->topo.cores = (unsigned)st->ncpus;
	st->topo.vcpus = (unsigned)st->ncpus;
	st->topo.smt = 1;
	st->topo.privileged = 1;
	if ((tb = source_perf_cpuinfo(st, "timebase")) != NULL)
		st->topo.timebase_hz = strtoull(tb, NULL, 10);
	free(tb);
	pc = xcalloc(1, sizeof *pc);
	pc->listings = source_perf_listings(st);
	st->vdata = pc;
	st->model = pmu_catalog_build(pc->listings, st->npmus,
	    PMU_CATALOG_CPU, 2);
	return (0);
}

static char *
source_perf_cpu_label(const struct source_perf *st)
{
	struct strbuf	 sb = { 0 };
	char		*list;
	size_t		 i;

	strbuf_adds(&sb, "perf ");
	for (i = 0; i < st->npmus; i++)
		strbuf_addf(&sb, "%s%s", i > 0 ? "+" : "", st->pmus[i].name);
	list = source_perf_opt_cpus_text(st->cpus, st->ncpus);
	strbuf_addf(&sb, ", cpu%s %s", st->ncpus == 1 ? "" : "s", list);
	free(list);
	return (strbuf_detach(&sb));
}

/* The model's event, its PMU and CPU, through the event's own terms. */
static int
source_perf_cpu_encode(struct source_perf *st, const struct sel_counter *sc,
    struct perf_counter *pc, char **cause)
{
	const struct perf_cpu		*cpu = st->vdata;
	const struct catalog_event	*me;
	const struct source_perf_pmu	*pmu;
	const struct pmu_event		*ev;
	const char			*name = sc->event->sysfs_name;
	char				*c = NULL;
	size_t				 i, e;
	int				 error;

	if (name == NULL)
		name = sc->event->name;
	if ((me = catalog_find_sysfs(st->model, name)) == NULL)
		me = catalog_find_event(st->model, sc->event->name, 0);
	if (me == NULL || pmu_catalog_locate(cpu->listings, st->npmus,
	    me->index, &pc->pmu, &e) != 0) {
		*cause = xasprintf("event '%s' is not one of %s's", name,
		    st->pmus[0].name);
		return (-HV_ENOENT);
	}
	pmu = &st->pmus[pc->pmu];
	ev = &pmu->events[e];
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

static void
source_perf_cpu_close(struct source_perf *st)
{
	struct perf_cpu	*pc = st->vdata;

	if (pc == NULL)
		return;
	free(pc->listings);
	free(pc);
	st->vdata = NULL;
}

const struct source_perf_variant source_perf_cpu = {
	.name = "per-cpu",
	.match = source_perf_cpu_match,
	.alone = NULL,
	.open = source_perf_cpu_open,
	.label = source_perf_cpu_label,
	.encode = source_perf_cpu_encode,
	.close = source_perf_cpu_close,
};
