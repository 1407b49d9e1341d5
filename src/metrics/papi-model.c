/*
 * Questions asked of a parsed PAPI event-definition model: which sections
 * apply to a PMU, which event a name means there, what a base event name
 * refers to, what an expression identifier stands for.  Pure; the model
 * is never changed here.
 */
#include "config.h"

#include "metrics/papi.h"

#include <stdlib.h>
#include <string.h>

#include "metrics/papi-int.h"
#include "util/arena.h"

static const char *const papi_model_types[PAPI_NTYPES] = {
	[PAPI_TYPE_NOT_DERIVED] = "NOT_DERIVED",
	[PAPI_TYPE_ADD] = "DERIVED_ADD",
	[PAPI_TYPE_PS] = "DERIVED_PS",
	[PAPI_TYPE_ADD_PS] = "DERIVED_ADD_PS",
	[PAPI_TYPE_CMPD] = "DERIVED_CMPD",
	[PAPI_TYPE_SUB] = "DERIVED_SUB",
	[PAPI_TYPE_POSTFIX] = "DERIVED_POSTFIX",
	[PAPI_TYPE_INFIX] = "DERIVED_INFIX",
};

void
papi_model_free(struct papi_model *m)
{
	size_t	 i;

	if (m == NULL)
		return;
	/* Names, identifiers, texts and base lists are in the arena. */
	for (i = 0; i < m->nsections; i++)
		free(m->sections[i].pmus);
	free(m->sections);
	free(m->events);
	free(m->idents);
	free(m->byname);
	free(m->namerange);
	free(m->nametab);
	arena_free(&m->mem);
	for (i = 0; i < m->ndiags; i++) {
		free(m->diags[i].message);
		free(m->diags[i].text);
	}
	free(m->diags);
	free(m);
}

const char *
papi_model_type_name(enum papi_type t)
{
	if ((unsigned)t >= PAPI_NTYPES)
		return ("?");
	return (papi_model_types[t]);
}

const char *
papi_model_kind_name(enum papi_kind k)
{
	return (k == PAPI_KIND_PRESET ? "PRESET" : "EVENT");
}

int
papi_model_matches(const struct papi_section *s, const char *pmu)
{
	size_t	 i;

	if (pmu == NULL || s->npmus == 0)
		return (1);
	for (i = 0; i < s->npmus; i++) {
		if (papi_casecmp(s->pmus[i].name, pmu) == 0)
			return (1);
	}
	return (0);
}

size_t
papi_model_match(const struct papi_model *m, const char *pmu,
    size_t *sections, size_t max)
{
	size_t	 i, n = 0;

	for (i = 0; i < m->nsections; i++) {
		if (!papi_model_matches(&m->sections[i], pmu))
			continue;
		if (n < max)
			sections[n] = i;
		n++;
	}
	return (n);
}

/*
 * The range [*lo, *hi) of m->byname holding name (no case), empty when no
 * event has that name: the name's id comes from the hash table the parser
 * built, in constant time.
 */
static void
papi_model_range(const struct papi_model *m, const char *name, size_t *lo,
    size_t *hi)
{
	size_t		 i, mask, id;

	*lo = *hi = 0;
	if (m->nametabcap == 0)
		return;
	mask = m->nametabcap - 1;
	for (i = papi_hash_nocase(name) & mask; m->nametab[i] != 0;
	    i = (i + 1) & mask) {
		id = m->nametab[i] - 1;
		if (papi_casecmp(m->events[m->byname[m->namerange[2 *
		    id]]].name, name) == 0) {
			*lo = m->namerange[2 * id];
			*hi = m->namerange[2 * id + 1];
			return;
		}
	}
}

/* The last event in [lo, hi) of byname before index before, for pmu. */
static const struct papi_event *
papi_model_last(const struct papi_model *m, const char *pmu, size_t lo,
    size_t hi, size_t before)
{
	const struct papi_event	*ev;
	size_t			 a, b, mid;

	/* Within the range, indexes ascend: skip those >= before. */
	a = lo;
	b = hi;
	while (a < b) {
		mid = a + (b - a) / 2;
		if (m->byname[mid] < before)
			a = mid + 1;
		else
			b = mid;
	}
	while (a > lo) {
		ev = &m->events[m->byname[--a]];
		if (papi_model_matches(&m->sections[ev->section], pmu))
			return (ev);
	}
	return (NULL);
}

const struct papi_event *
papi_model_find(const struct papi_model *m, const char *pmu,
    const char *name)
{
	size_t	 lo, hi;

	papi_model_range(m, name, &lo, &hi);
	return (papi_model_last(m, pmu, lo, hi, m->nevents));
}

const struct papi_event *
papi_model_resolve(const struct papi_model *m, const char *pmu,
    const struct papi_event *ev, size_t i)
{
	size_t	 id;

	if (i >= ev->nbases || (id = ev->bases[i].name_id) == PAPI_NONE ||
	    id >= m->nnames)
		return (NULL);
	return (papi_model_last(m, pmu, m->namerange[2 * id],
	    m->namerange[2 * id + 1], ev->index));
}

const char *
papi_model_ident_name(const struct papi_model *m, const char *ident)
{
	size_t	 a, b, mid;
	int	 r;

	a = 0;
	b = m->nidents;
	while (a < b) {
		mid = a + (b - a) / 2;
		if ((r = strcmp(m->idents[mid].ident, ident)) == 0)
			return (m->idents[mid].name);
		if (r < 0)
			a = mid + 1;
		else
			b = mid;
	}
	return (NULL);
}
