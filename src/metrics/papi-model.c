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

/* ASCII only, like the parser: the locale must not change a match. */
static int
papi_model_casecmp(const char *a, const char *b)
{
	int	 ca, cb;

	for (;; a++, b++) {
		ca = (unsigned char)*a;
		cb = (unsigned char)*b;
		if (ca >= 'A' && ca <= 'Z')
			ca += 'a' - 'A';
		if (cb >= 'A' && cb <= 'Z')
			cb += 'a' - 'A';
		if (ca != cb || ca == '\0')
			return (ca - cb);
	}
}

void
papi_model_free(struct papi_model *m)
{
	struct papi_event	*ev;
	size_t			 i, j;

	if (m == NULL)
		return;
	for (i = 0; i < m->nsections; i++) {
		for (j = 0; j < m->sections[i].npmus; j++) {
			free(m->sections[i].pmus[j].name);
			free(m->sections[i].pmus[j].component);
		}
		free(m->sections[i].pmus);
	}
	free(m->sections);
	for (i = 0; i < m->nevents; i++) {
		ev = &m->events[i];
		free(ev->name);
		free(ev->ident);
		for (j = 0; j < ev->nbases; j++) {
			free(ev->bases[j].name);
			free(ev->bases[j].ident);
		}
		free(ev->bases);
		free(ev->formula);
		free(ev->expr);
		free(ev->ldesc);
		free(ev->sdesc);
		free(ev->note);
	}
	free(m->events);
	for (i = 0; i < m->nidents; i++) {
		free(m->idents[i].ident);
		free(m->idents[i].name);
	}
	free(m->idents);
	free(m->byname);
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
		if (papi_model_casecmp(s->pmus[i].name, pmu) == 0)
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
 * The range [*lo, *hi) of m->byname holding name (no case), found by
 * binary search: byname is sorted by name, then by event index.
 */
static void
papi_model_range(const struct papi_model *m, const char *name, size_t *lo,
    size_t *hi)
{
	size_t	 a, b, mid;

	a = 0;
	b = m->nevents;
	while (a < b) {
		mid = a + (b - a) / 2;
		if (papi_model_casecmp(m->events[m->byname[mid]].name,
		    name) < 0)
			a = mid + 1;
		else
			b = mid;
	}
	*lo = a;
	b = m->nevents;
	while (a < b) {
		mid = a + (b - a) / 2;
		if (papi_model_casecmp(m->events[m->byname[mid]].name,
		    name) <= 0)
			a = mid + 1;
		else
			b = mid;
	}
	*hi = a;
}

/* The last event called name before index before, in a section for pmu. */
static const struct papi_event *
papi_model_last(const struct papi_model *m, const char *pmu,
    const char *name, size_t before)
{
	const struct papi_event	*ev;
	size_t			 lo, hi, a, b, mid;

	papi_model_range(m, name, &lo, &hi);
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
	return (papi_model_last(m, pmu, name, m->nevents));
}

const struct papi_event *
papi_model_resolve(const struct papi_model *m, const char *pmu,
    const struct papi_event *ev, size_t i)
{
	if (i >= ev->nbases || ev->bases[i].name_id == PAPI_NONE)
		return (NULL);
	return (papi_model_last(m, pmu, ev->bases[i].name, ev->index));
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
