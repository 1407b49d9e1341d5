/*
 * A catalog model from a PMU's sysfs listing (its events/ entries, their
 * .unit and .scale files and event_descs/), so that a PMU without a 24x7
 * catalog is browsed and selected by name like hv_24x7.  What differs
 * between kinds of PMU (where an event's domain and offset come from,
 * whether it gets groups) is one row of a table, not a branch.
 *
 * Pure: the perf source reads the files; this builds the model from the
 * parsed strings.  No I/O.
 */
#include "config.h"

#include "pmu/pmu.h"

#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "util/hverr.h"
#include "util/xalloc.h"

#define PMU_CATALOG_RECORD	8	/* bytes per counter in the model */

/* How one kind of PMU places its events in the model. */
struct pmu_catalog_rules {
	/* The domain and counter offset of event e, model event k. */
	void	(*place)(const struct pmu_event *e, size_t k,
		    uint16_t *domain, uint64_t *offset);
	int	 groups;	/* a group per PMU and 16 events */
};

static void
pmu_catalog_place_cpu(const struct pmu_event *e, size_t k, uint16_t *domain,
    uint64_t *offset)
{
	(void)e;
	*domain = CATALOG_DOMAIN_CPU;
	*offset = PMU_CATALOG_RECORD * (uint64_t)k;
}

static void
pmu_catalog_place_hv24x7(const struct pmu_event *e, size_t k,
    uint16_t *domain, uint64_t *offset)
{
	const struct pmu_term	*t;

	(void)k;
	*domain = (uint16_t)pmu_hv24x7_event_domain(e);
	t = pmu_event_term(e, "offset");
	*offset = t != NULL && t->kind == PMU_TERM_VALUE ? t->value : 0;
}

static const struct pmu_catalog_rules pmu_catalog_rules[] = {
	[PMU_CATALOG_CPU] = { pmu_catalog_place_cpu, 1 },
	[PMU_CATALOG_HV24X7] = { pmu_catalog_place_hv24x7, 0 },
};

static const char *
pmu_catalog_at(char *const *v, size_t i)
{
	return (v != NULL ? v[i] : NULL);
}

/* Event e of listing l as model event k. */
static void
pmu_catalog_event(const struct pmu_catalog_rules *r,
    const struct pmu_listing *l, size_t e, size_t k, struct catalog_event *ce)
{
	const char	*unit, *scale, *desc;
	char		*terms;
	uint64_t	 off;

	unit = pmu_catalog_at(l->units, e);
	scale = pmu_catalog_at(l->scales, e);
	desc = pmu_catalog_at(l->descs, e);
	ce->index = (uint32_t)k;
	ce->name = xstrdup(l->events[e].name);
	terms = pmu_event_text(&l->events[e]);
	ce->desc = xasprintf("%s/%s/", l->name, terms);
	free(terms);
	if (unit != NULL || scale != NULL)
		ce->long_desc = xasprintf("unit %s, scale %s",
		    unit != NULL ? unit : "-", scale != NULL ? scale : "1");
	else if (desc != NULL)
		ce->long_desc = xstrdup(desc);
	ce->record_length = PMU_CATALOG_RECORD;
	r->place(&l->events[e], k, &ce->domain, &off);
	ce->offset = (uint32_t)off;
	ce->record_offset = off <= 0xffff ? (uint16_t)off : 0;
	ce->counter_offset = (uint16_t)(off - ce->record_offset);
	ce->formula = CATALOG_NONE;
}

/* The groups of listing l, whose first event is model event k. */
static void
pmu_catalog_groups(struct catalog *cat, const struct pmu_listing *l,
    size_t k)
{
	struct catalog_group	*cg;
	size_t			 e, g;

	for (e = 0; e < l->nevents; e += CATALOG_GROUP_SLOTS) {
		cat->groups = xreallocarray(cat->groups, cat->ngroups + 1,
		    sizeof *cat->groups);
		cg = &cat->groups[cat->ngroups];
		memset(cg, 0, sizeof *cg);
		cg->index = (uint32_t)cat->ngroups;
		cg->name = e == 0 ? xstrdup(l->name) : xasprintf("%s.%zu",
		    l->name, e / CATALOG_GROUP_SLOTS + 1);
		cg->desc = xasprintf("events of the %s PMU", l->name);
		cg->domain = CATALOG_DOMAIN_CPU;
		cg->record_length = PMU_CATALOG_RECORD;
		for (g = 0; g < CATALOG_GROUP_SLOTS; g++)
			cg->events[g] = CATALOG_SLOT_FREE;
		for (g = 0; g < CATALOG_GROUP_SLOTS && e + g < l->nevents; g++)
			cg->events[g] = (uint16_t)(k + e + g);
		cg->event_count = (uint8_t)g;
		cat->ngroups++;
	}
}

struct catalog *
pmu_catalog_build(const struct pmu_listing *ls, size_t n,
    enum pmu_catalog_kind kind, int interface)
{
	const struct pmu_catalog_rules	*r = &pmu_catalog_rules[kind];
	struct catalog			*cat;
	size_t				 p, e, k, total = 0;

	for (p = 0; p < n; p++)
		total += ls[p].nevents;
	cat = xcalloc(1, sizeof *cat);
	cat->magic = CATALOG_MAGIC;
	cat->interface = interface;
	if (total > 0)
		cat->events = xcalloc(total, sizeof *cat->events);
	for (p = 0, k = 0; p < n; p++) {
		for (e = 0; e < ls[p].nevents; e++, k++)
			pmu_catalog_event(r, &ls[p], e, k, &cat->events[k]);
	}
	cat->nevents = total;
	for (p = 0, k = 0; p < n && r->groups; p++) {
		pmu_catalog_groups(cat, &ls[p], k);
		k += ls[p].nevents;
	}
	catalog_reindex(cat);
	return (cat);
}

int
pmu_catalog_locate(const struct pmu_listing *ls, size_t n, size_t k,
    size_t *p, size_t *e)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		if (k < ls[i].nevents) {
			*p = i;
			*e = k;
			return (0);
		}
		k -= ls[i].nevents;
	}
	return (-HV_ENOENT);
}
