/*
 * Resolving picks (-g, -e) against the catalog and the topology.  No I/O:
 * every problem comes back as a cause the caller prints.
 */
#include "config.h"

#include "engine/selection.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "source/source.h"
#include "util/hverr.h"
#include "util/xalloc.h"

unsigned
selection_domain_size(const struct topology *topo, int domain)
{
	switch (domain) {
	case CATALOG_DOMAIN_CHIP:
		return (topo->chips);
	case CATALOG_DOMAIN_CORE:
		return (topo->cores);
	case CATALOG_DOMAIN_VCPU_HOME_CORE:
	case CATALOG_DOMAIN_VCPU_HOME_CHIP:
	case CATALOG_DOMAIN_VCPU_HOME_NODE:
	case CATALOG_DOMAIN_VCPU_REMOTE_NODE:
	case CATALOG_DOMAIN_CPU:
		return (topo->vcpus);
	}
	return (0);
}

const char *
selection_domain_term(int domain)
{
	switch (domain) {
	case CATALOG_DOMAIN_CHIP:
		return ("chip");
	case CATALOG_DOMAIN_CORE:
		return ("core");
	case CATALOG_DOMAIN_CPU:
		return ("cpu");
	}
	return ("vcpu");
}

int
selection_pick_domain(int cd)
{
	if (cd == CATALOG_DOMAIN_CHIP || cd == CATALOG_DOMAIN_CPU)
		return (cd);
	return (CATALOG_DOMAIN_CORE);
}

int
selection_parse_indices(const char *s, unsigned max, unsigned **out,
    size_t *n, char **cause)
{
	const char	*p = s;
	unsigned	*v = NULL;
	unsigned long	 lo, hi, i;
	size_t		 nv = 0, cap = 0;
	char		*end;

	*out = NULL;
	*n = 0;
	for (;;) {
		if (!isdigit((unsigned char)*p)) {
			*cause = xasprintf("index list '%s', column %zu: "
			    "expected a number", s, (size_t)(p - s) + 1);
			goto fail;
		}
		lo = hi = strtoul(p, &end, 10);
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p)) {
				*cause = xasprintf("index list '%s', column "
				    "%zu: expected the end of a range", s,
				    (size_t)(p - s) + 1);
				goto fail;
			}
			hi = strtoul(p, &end, 10);
			p = end;
			if (hi < lo) {
				*cause = xasprintf("index list '%s': range "
				    "%lu-%lu runs backwards", s, lo, hi);
				goto fail;
			}
		}
		if (hi >= max) {
			*cause = xasprintf("index %lu is out of range: this "
			    "frame has %u (0-%u)", hi, max, max - 1);
			free(v);
			return (-HV_ERANGE);
		}
		for (i = lo; i <= hi; i++) {
			if (nv == cap) {
				cap = cap == 0 ? 16 : cap * 2;
				v = xreallocarray(v, cap, sizeof *v);
			}
			v[nv++] = (unsigned)i;
		}
		if (*p == '\0')
			break;
		if (*p != ',') {
			*cause = xasprintf("index list '%s', column %zu: "
			    "unexpected '%c'", s, (size_t)(p - s) + 1, *p);
			goto fail;
		}
		p++;
	}
	*out = v;
	*n = nv;
	return (0);
fail:
	free(v);
	return (-HV_EFORMAT);
}

/* Parse "@chip" / "@core" / "@vcpu" / "@cpu" into a domain for catalog
 * domain cd. */
static int
selection_domain(const char *at, size_t len, int cd, int *domain,
    char **cause)
{
	if (len == 0) {
		*domain = cd;
		return (0);
	}
	if (len == 4 && strncmp(at, "chip", 4) == 0)
		*domain = CATALOG_DOMAIN_CHIP;
	else if (len == 4 && strncmp(at, "core", 4) == 0)
		*domain = CATALOG_DOMAIN_CORE;
	else if (len == 4 && strncmp(at, "vcpu", 4) == 0)
		*domain = CATALOG_DOMAIN_VCPU_HOME_CORE;
	else if (len == 3 && strncmp(at, "cpu", 3) == 0)
		*domain = CATALOG_DOMAIN_CPU;
	else {
		*cause = xasprintf("unknown domain '@%.*s': use @chip, @core, "
		    "@vcpu or (for PMUs other than hv_24x7) @cpu", (int)len,
		    at);
		return (-HV_EFORMAT);
	}
	/* Chip events are only counted per chip, other PMUs' per CPU; core
	 * events per core or as seen from a virtual processor. */
	if ((cd == CATALOG_DOMAIN_CHIP) != (*domain == CATALOG_DOMAIN_CHIP) ||
	    (cd == CATALOG_DOMAIN_CPU) != (*domain == CATALOG_DOMAIN_CPU)) {
		*cause = xasprintf("'@%.*s' does not fit: the catalog counts "
		    "this per %s", (int)len, at, selection_domain_term(cd));
		return (-HV_ERANGE);
	}
	return (0);
}

static void
selection_pick_free(struct sel_pick *p)
{
	free(p->spec);
	free(p->name);
	free(p->indices);
	free(p->events);
}

int
selection_add(struct selection *sel, const struct catalog *cat,
    const struct topology *topo, const char *spec, int event, char **cause)
{
	struct sel_pick			 pk;
	const struct catalog_event	*ev = NULL;
	const struct catalog_group	*gr = NULL;
	const char			*at, *colon, *end;
	size_t				 i, j, k, n;
	unsigned			 size;
	int				 cd, error;

	memset(&pk, 0, sizeof pk);
	colon = strchr(spec, ':');
	end = colon != NULL ? colon : spec + strlen(spec);
	at = memchr(spec, '@', (size_t)(end - spec));
	pk.name = xstrndup(spec, (size_t)((at != NULL ? at : end) - spec));
	pk.spec = xstrdup(spec);
	pk.lpar = SEL_LPAR_SELF;
	pk.kind = event ? SEL_EVENT : SEL_GROUP;
	if (event) {
		if ((ev = catalog_find_event(cat, pk.name, 0)) == NULL)
			ev = catalog_find_sysfs(cat, pk.name);
		if (ev == NULL) {
			*cause = xasprintf("unknown event '%s' (hvtop --list "
			    "events shows them)", pk.name);
			error = -HV_ENOENT;
			goto fail;
		}
		cd = ev->domain;
	} else {
		if ((gr = catalog_find_group(cat, pk.name)) == NULL) {
			*cause = xasprintf("unknown group '%s' (hvtop --list "
			    "groups shows them)", pk.name);
			error = -HV_ENOENT;
			goto fail;
		}
		cd = gr->domain;
	}
	cd = selection_pick_domain(cd);
	error = selection_domain(at != NULL ? at + 1 : "",
	    at != NULL ? (size_t)(end - at - 1) : 0, cd, &pk.domain, cause);
	if (error != 0)
		goto fail;
	if (topo->interface < 2 && pk.domain > CATALOG_DOMAIN_CORE &&
	    pk.domain != CATALOG_DOMAIN_CPU) {
		*cause = xasprintf("%s: virtual-processor domains need hcall "
		    "interface 2 (POWER9 or later)", spec);
		error = -HV_ERANGE;
		goto fail;
	}
	size = selection_domain_size(topo, pk.domain);
	if (size == 0) {
		*cause = xasprintf("%s: the frame has no %s", spec,
		    selection_domain_term(pk.domain));
		error = -HV_ERANGE;
		goto fail;
	}
	if (colon != NULL) {
		error = selection_parse_indices(colon + 1, size, &pk.indices,
		    &pk.nindices, cause);
		if (error != 0)
			goto fail;
	} else {
		pk.indices = xreallocarray(NULL, size, sizeof *pk.indices);
		for (i = 0; i < size; i++)
			pk.indices[i] = (unsigned)i;
		pk.nindices = size;
	}

	if (ev != NULL) {
		pk.events = xmalloc(sizeof *pk.events);
		pk.events[0] = ev;
		pk.nevents = 1;
	} else {
		pk.events = xreallocarray(NULL, CATALOG_GROUP_SLOTS,
		    sizeof *pk.events);
		for (i = 0; i < CATALOG_GROUP_SLOTS; i++) {
			if ((ev = catalog_group_event(cat, gr, i)) != NULL)
				pk.events[pk.nevents++] = ev;
		}
		ev = NULL;
		if (pk.nevents == 0) {
			*cause = xasprintf("group '%s' has no events",
			    gr->name);
			error = -HV_ENOENT;
			goto fail;
		}
		pk.group = gr;
	}

	pk.first = sel->ncounters;
	n = sel->ncounters + pk.nindices * pk.nevents;
	sel->counters = xreallocarray(sel->counters, n,
	    sizeof *sel->counters);
	k = sel->ncounters;
	for (i = 0; i < pk.nindices; i++) {
		for (j = 0; j < pk.nevents; j++, k++) {
			sel->counters[k].event = pk.events[j];
			sel->counters[k].domain = pk.domain;
			sel->counters[k].index = pk.indices[i];
			sel->counters[k].lpar = pk.lpar;
			sel->counters[k].pick = sel->npicks;
			sel->counters[k].column = j;
		}
	}
	sel->ncounters = n;
	sel->picks = xreallocarray(sel->picks, sel->npicks + 1,
	    sizeof *sel->picks);
	sel->picks[sel->npicks++] = pk;
	return (0);
fail:
	selection_pick_free(&pk);
	return (error);
}

void
selection_clear(struct selection *sel)
{
	size_t	 i;

	for (i = 0; i < sel->npicks; i++)
		selection_pick_free(&sel->picks[i]);
	free(sel->picks);
	free(sel->counters);
	memset(sel, 0, sizeof *sel);
}
