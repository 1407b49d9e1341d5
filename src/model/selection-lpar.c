/*
 * @lpar picks: the partitions a pick names, checked against the ones the
 * frame lists, and their counters, per virtual processor and placement.
 * A file of its own because partitions are a seam of their own: the
 * frame's list, this partition read alone and the ids a user types are
 * checked here, while selection.c resolves names and the other domains.
 * No I/O: every problem comes back as a cause the caller prints.
 */
#include "config.h"

#include "model/selection-int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "model/raw.h"
#include "model/selection.h"
#include "util/hverr.h"
#include "util/xalloc.h"

/* The ids of the n partitions at l as "1-3,7" (caller frees). */
static char *
selection_lpar_list(const struct topo_lpar *l, size_t n)
{
	char	*s = xstrdup(""), *t;
	size_t	 i, j;

	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && l[j].id == l[j - 1].id + 1; j++)
			continue;
		if (j - i == 1)
			t = xasprintf("%s%s%u", s, i > 0 ? "," : "", l[i].id);
		else
			t = xasprintf("%s%s%u-%u", s, i > 0 ? "," : "",
			    l[i].id, l[j - 1].id);
		free(s);
		s = t;
	}
	return (s);
}

/* Partition id in the topology's list, or NULL. */
static const struct topo_lpar *
selection_lpar_find(const struct topology *topo, uint16_t id)
{
	return (topo_lpar_find(topo->lpars, topo->nlpars, id));
}

/* Whether only this partition can be read: none listed, or denied. */
static int
selection_lpar_alone(const struct topology *topo)
{
	return (topo->nlpars == 0 || topo->lpars == NULL ||
	    topo->lpars_denied);
}

/*
 * Check partition id (as the user named it: what, e.g. "lpar=2" or
 * "partition 2") against the frame.  Returns 0 with *self set when it
 * is this partition read alone, or -HV_ERANGE with *cause set.
 */
static int
selection_lpar_check(const struct topology *topo, uint16_t id,
    const char *what, int *self, char **cause)
{
	char	*list;

	*self = 0;
	if (id == SEL_LPAR_SELF || (selection_lpar_alone(topo) &&
	    id == topo->lpar_self)) {
		*self = selection_lpar_alone(topo) ||
		    topo->lpar_self == SEL_LPAR_SELF ||
		    selection_lpar_find(topo, topo->lpar_self) == NULL;
		return (0);
	}
	if (topo->lpars_denied) {
		*cause = xasprintf("%s cannot be mapped: other partitions are "
		    "not visible from this one; allow performance information "
		    "collection for this partition on the HMC", what);
		return (-HV_ERANGE);
	}
	if (selection_lpar_alone(topo)) {
		*cause = xasprintf("%s cannot be mapped: no partitions of the "
		    "frame are known here, only this one (lpar=0xffff)", what);
		return (-HV_ERANGE);
	}
	if (selection_lpar_find(topo, id) == NULL) {
		list = selection_lpar_list(topo->lpars, topo->nlpars);
		*cause = xasprintf("%s cannot be mapped: the frame has no "
		    "partition %u (it has %s)", what, id, list);
		free(list);
		return (-HV_ERANGE);
	}
	return (0);
}

static int
selection_lpar_id_cmp(const void *a, const void *b)
{
	uint16_t	 x = *(const uint16_t *)a, y = *(const uint16_t *)b;

	return (x < y ? -1 : x > y);
}

/*
 * The partitions of pk from ask, checked: pk->lpars (NULL for every one
 * listed) and *self when this partition is read alone.
 */
static int
selection_lpar_resolve(struct sel_pick *pk, const struct topology *topo,
    const struct sel_lpar_ask *ask, int *self, char **cause)
{
	char		*what;
	size_t		 i, n;
	uint16_t	 id;
	int		 error, one, alone = 0;

	*self = selection_lpar_alone(topo);
	if (ask->ids == NULL)
		return (0);
	pk->lpars = xreallocarray(NULL, ask->nids, sizeof *pk->lpars);
	for (i = n = 0; i < ask->nids; i++) {
		id = ask->ids[i];
		what = ask->said != NULL ? xstrdup(ask->said) :
		    xasprintf("partition %u", id);
		error = selection_lpar_check(topo, id, what, &one, cause);
		free(what);
		if (error != 0)
			return (error);
		if (one)
			alone = 1;
		else
			pk->lpars[n++] = id == SEL_LPAR_SELF ?
			    topo->lpar_self : id;
	}
	if (alone) {
		/* This partition, read as "own": the only one there is. */
		free(pk->lpars);
		pk->lpars = NULL;
		*self = 1;
		return (0);
	}
	qsort(pk->lpars, n, sizeof *pk->lpars, selection_lpar_id_cmp);
	for (i = pk->nlpars = 0; i < n; i++) {
		if (pk->nlpars == 0 || pk->lpars[pk->nlpars - 1] != pk->lpars[i])
			pk->lpars[pk->nlpars++] = pk->lpars[i];
	}
	return (0);
}

/* The partitions an @lpar pick reads, in order: id and vcpus each. */
static size_t
selection_lpar_each(const struct sel_pick *pk, const struct topology *topo,
    int self, size_t i, uint16_t *id, unsigned *vcpus)
{
	const struct topo_lpar	*l;

	if (self) {
		*id = SEL_LPAR_SELF;
		*vcpus = topo->vcpus;
		return (1);
	}
	if (pk->lpars != NULL) {
		if (i < pk->nlpars) {
			*id = pk->lpars[i];
			l = selection_lpar_find(topo, *id);
			*vcpus = l != NULL ? l->vcpus : 0;
		}
		return (pk->nlpars);
	}
	if (i < topo->nlpars) {
		*id = topo->lpars[i].id;
		*vcpus = topo->lpars[i].vcpus;
	}
	return (topo->nlpars);
}

/*
 * Append an @lpar pick and its counters: for each partition, each of its
 * virtual processors, each place, each event column.
 */
static void
selection_lpar_add_pick(struct selection *sel, struct sel_pick *pk,
    const struct topology *topo, int self)
{
	size_t		 i, n, j, k = sel->ncounters, total = 0;
	unsigned	 vcpus = 0, v, p, first, last;
	uint16_t	 id = 0;

	n = selection_lpar_each(pk, topo, self, 0, &id, &vcpus);
	for (i = 0; i < n; i++) {
		selection_lpar_each(pk, topo, self, i, &id, &vcpus);
		total += pk->indices != NULL ? pk->nindices : vcpus;
	}
	for (p = 0, j = 0; p < SEL_NPLACES; p++)
		j += (pk->places >> p) & 1;
	total *= j * pk->nevents;
	sel->counters = xreallocarray(sel->counters, sel->ncounters + total,
	    sizeof *sel->counters);
	for (i = 0; i < n; i++) {
		selection_lpar_each(pk, topo, self, i, &id, &vcpus);
		first = pk->indices != NULL ? pk->indices[0] : 0;
		last = pk->indices != NULL ? pk->indices[0] + 1 : vcpus;
		for (v = first; v < last; v++) {
			for (p = 0; p < SEL_NPLACES; p++) {
				if (!(pk->places & (1U << p)))
					continue;
				for (j = 0; j < pk->nevents; j++, k++) {
					sel->counters[k].event = pk->events[j];
					sel->counters[k].domain = (int)(p +
					    CATALOG_DOMAIN_VCPU_HOME_CORE);
					sel->counters[k].index = v;
					sel->counters[k].lpar = id;
					sel->counters[k].pick = sel->npicks;
					sel->counters[k].column = j;
				}
			}
		}
	}
	sel->ncounters = k;
	sel->picks = xreallocarray(sel->picks, sel->npicks + 1,
	    sizeof *sel->picks);
	sel->picks[sel->npicks++] = *pk;
}

/*
 * An @lpar pick: a core event or group per virtual processor of
 * partitions, in the placements asked.  spec is kept as written.
 */
int
selection_lpar_add(struct selection *sel, const struct catalog *cat,
    const struct topology *topo, const char *spec,
    const struct sel_lpar_ask *ask, char **cause)
{
	struct sel_pick		 pk;
	size_t			 i, n;
	unsigned		 vcpus = 0;
	uint16_t		 id = 0;
	int			 cd, self, error;

	memset(&pk, 0, sizeof pk);
	pk.spec = xstrdup(spec);
	pk.name = xstrdup(ask->name);
	pk.kind = ask->event != NULL ? SEL_EVENT : SEL_GROUP;
	pk.domain = SEL_DOMAIN_LPAR;
	pk.lpar = SEL_LPAR_SELF;
	pk.places = ask->places;
	cd = ask->event != NULL ? ask->event->domain : ask->group->domain;
	if (cd == CATALOG_DOMAIN_CHIP || cd == CATALOG_DOMAIN_CPU) {
		*cause = xasprintf("'@lpar' does not fit: the catalog counts "
		    "%s per %s; partitions are read with core events",
		    pk.name, selection_domain_term(cd));
		error = -HV_ERANGE;
	} else if (topo->interface < 2) {
		*cause = xasprintf("%s: virtual-processor domains need hcall "
		    "interface 2 (POWER9 or later)", spec);
		error = -HV_ERANGE;
	} else
		error = selection_lpar_resolve(&pk, topo, ask, &self, cause);
	if (error == 0)
		error = selection_add_events(&pk, cat, ask->event, ask->group,
		    cause);
	if (error == 0 && ask->vcpu != NULL) {
		pk.indices = xmalloc(sizeof *pk.indices);
		pk.indices[0] = *ask->vcpu;
		pk.nindices = 1;
		n = selection_lpar_each(&pk, topo, self, 0, &id, &vcpus);
		for (i = 0; i < n && error == 0; i++) {
			selection_lpar_each(&pk, topo, self, i, &id, &vcpus);
			if (*ask->vcpu >= vcpus && vcpus == 0) {
				*cause = xasprintf("virtual processor %u is "
				    "out of range: the partition has none",
				    *ask->vcpu);
				error = -HV_ERANGE;
			} else if (*ask->vcpu >= vcpus) {
				*cause = xasprintf("virtual processor %u is "
				    "out of range: the partition has %u "
				    "(0-%u)", *ask->vcpu, vcpus, vcpus - 1);
				error = -HV_ERANGE;
			}
		}
	}
	if (error == 0 && ask->vcpu == NULL) {
		/* A pick with no counters is refused, as elsewhere. */
		n = selection_lpar_each(&pk, topo, self, 0, &id, &vcpus);
		for (i = 0, vcpus = 0; i < n && vcpus == 0; i++)
			selection_lpar_each(&pk, topo, self, i, &id, &vcpus);
		if (vcpus == 0) {
			*cause = xasprintf("%s: %s no virtual processors",
			    spec, self ? "this partition has" : n == 1 ?
			    "the partition has" : "the partitions have");
			error = -HV_ERANGE;
		}
	}
	if (error != 0) {
		selection_pick_free(&pk);
		return (error);
	}
	pk.first = sel->ncounters;
	selection_lpar_add_pick(sel, &pk, topo, self);
	return (0);
}

/* A partition id past the ABI's last: the partitions the frame has in
 * place of the index list's count of indices. */
static void
selection_lpar_range(const struct topology *topo, char **cause)
{
	const char	*end = strstr(*cause, " is out of range");
	char		*list, *t;

	list = selection_lpar_alone(topo) ? xstrdup("none known here but "
	    "this one") : selection_lpar_list(topo->lpars, topo->nlpars);
	t = xasprintf("%.*s is out of range: partition ids run 0-%u, and "
	    "the frame has %s", end != NULL ? (int)(end - *cause) :
	    (int)strlen(*cause), *cause, SEL_LPAR_SELF - 1, list);
	free(list);
	free(*cause);
	*cause = t;
}

/* "NAME@lpar[:LIST]": every partition, or those of LIST, in all four
 * placements. */
int
selection_lpar_add_at(struct selection *sel, const struct catalog *cat,
    const struct topology *topo, const char *spec, const char *name,
    const struct catalog_event *ev, const struct catalog_group *gr,
    const char *colon, char **cause)
{
	struct sel_lpar_ask	 ask;
	unsigned		*v = NULL;
	uint16_t		*ids = NULL;
	size_t			 n = 0, i;
	int			 error;

	memset(&ask, 0, sizeof ask);
	ask.event = ev;
	ask.group = ev != NULL ? NULL : gr;
	ask.name = name;
	ask.places = (1U << SEL_NPLACES) - 1;
	if (colon != NULL) {
		if ((error = selection_parse_indices(colon + 1, SEL_LPAR_SELF,
		    &v, &n, cause)) != 0) {
			if (error == -HV_ERANGE)
				selection_lpar_range(topo, cause);
			return (error);
		}
		ids = xreallocarray(NULL, n, sizeof *ids);
		for (i = 0; i < n; i++)
			ids[i] = (uint16_t)v[i];
		free(v);
		ask.ids = ids;
		ask.nids = n;
	}
	error = selection_lpar_add(sel, cat, topo, spec, &ask, cause);
	free(ids);
	return (error);
}
