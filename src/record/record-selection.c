/*
 * Selections and preambles as the recording stores them: plain data with
 * owned strings, made from a selection, copied, compared and freed here.
 * A selection is compared pick by pick (kind, spec, domain, partition,
 * indices, event columns; for an @lpar pick each record's partition and
 * domain), which is what decides whether a replay can serve it.
 */
#include "config.h"

#include "record/record.h"

#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "model/selection.h"
#include "util/xalloc.h"

void
record_pick_init(struct record_pick *d, int kind, const char *spec,
    int domain, uint16_t lpar, const unsigned *indices, size_t nindices,
    size_t nevents)
{
	d->kind = kind;
	d->spec = xstrdup(spec);
	d->domain = domain;
	d->lpar = lpar;
	d->nindices = nindices;
	d->indices = xcalloc(nindices + 1, sizeof *d->indices);
	if (nindices > 0)
		memcpy(d->indices, indices, nindices * sizeof *d->indices);
	d->lpars = NULL;
	d->domains = NULL;
	d->places = 0;
	d->nevents = nevents;
	d->events = xcalloc(nevents + 1, sizeof *d->events);
}

/*
 * An @lpar pick's records as its counters give them: a record is one
 * (partition, vcpu, domain), its columns the pick's events.
 */
static void
record_pick_lpar(struct record_pick *d, const struct selection *sel,
    size_t i)
{
	const struct sel_pick		*s = &sel->picks[i];
	const struct sel_counter	*c;
	size_t				 end, n, r;

	end = i + 1 < sel->npicks ? sel->picks[i + 1].first :
	    sel->ncounters;
	n = s->nevents > 0 && end > s->first ? (end - s->first) /
	    s->nevents : 0;
	free(d->indices);
	d->indices = xcalloc(n + 1, sizeof *d->indices);
	d->lpars = xcalloc(n + 1, sizeof *d->lpars);
	d->domains = xcalloc(n + 1, sizeof *d->domains);
	d->nindices = n;
	for (r = 0; r < n; r++) {
		c = &sel->counters[s->first + r * s->nevents];
		d->indices[r] = c->index;
		d->lpars[r] = c->lpar;
		d->domains[r] = (uint8_t)c->domain;
		if (c->domain >= 3 && c->domain < 3 + SEL_NPLACES)
			d->places |= 1U << (c->domain - 3);
	}
	/* No counters (a partition without vcpus): what was asked. */
	if (n == 0)
		d->places = (s->places & 0xf) != 0 ? s->places & 0xf : 0xf;
}

static void
record_pick_lpar_copy(struct record_pick *d, const struct record_pick *s)
{
	if (s->lpars == NULL)
		return;
	d->lpars = xcalloc(s->nindices + 1, sizeof *d->lpars);
	d->domains = xcalloc(s->nindices + 1, sizeof *d->domains);
	if (s->nindices > 0) {
		memcpy(d->lpars, s->lpars, s->nindices * sizeof *d->lpars);
		memcpy(d->domains, s->domains, s->nindices);
	}
	d->places = s->places;
}

void
record_selection_from(struct record_selection *out,
    const struct selection *sel)
{
	const struct sel_pick	*s;
	struct record_pick	*d;
	size_t			 i, j;

	memset(out, 0, sizeof *out);
	out->picks = xcalloc(sel->npicks + 1, sizeof *out->picks);
	out->npicks = sel->npicks;
	for (i = 0; i < sel->npicks; i++) {
		s = &sel->picks[i];
		d = &out->picks[i];
		record_pick_init(d, s->kind == SEL_EVENT, s->spec, s->domain,
		    s->lpar, s->indices, s->nindices, s->nevents);
		if (s->domain == SEL_DOMAIN_LPAR)
			record_pick_lpar(d, sel, i);
		for (j = 0; j < s->nevents; j++)
			d->events[j] = xstrdup(s->events[j]->sysfs_name !=
			    NULL ? s->events[j]->sysfs_name :
			    s->events[j]->name);
		out->ncounters += d->nindices * s->nevents;
	}
	out->lpar_self = SEL_LPAR_SELF;
}

int
record_selection_has_lpar(const struct record_selection *sel)
{
	size_t	 i;

	for (i = 0; i < sel->npicks; i++) {
		if (sel->picks[i].lpars != NULL)
			return (1);
	}
	return (0);
}

static void
record_selection_set_lpars(struct record_selection *dst,
    const struct topo_lpar *lpars, size_t n, uint16_t self, int denied)
{
	free(dst->lpars);
	dst->lpars = xcalloc(n + 1, sizeof *dst->lpars);
	if (n > 0)
		memcpy(dst->lpars, lpars, n * sizeof *dst->lpars);
	dst->nlpars = n;
	dst->lpar_self = self;
	dst->lpars_denied = denied != 0;
}

void
record_selection_topology(struct record_selection *sel,
    const struct topology *t)
{
	if (t == NULL || !record_selection_has_lpar(sel))
		return;
	record_selection_set_lpars(sel, t->lpars, t->lpars != NULL ?
	    t->nlpars : 0, t->lpar_self, t->lpars_denied);
}

void
record_selection_copy(struct record_selection *dst,
    const struct record_selection *src)
{
	const struct record_pick	*s;
	struct record_pick		*d;
	size_t				 i, j;

	memset(dst, 0, sizeof *dst);
	dst->picks = xcalloc(src->npicks + 1, sizeof *dst->picks);
	dst->npicks = src->npicks;
	dst->ncounters = src->ncounters;
	for (i = 0; i < src->npicks; i++) {
		s = &src->picks[i];
		d = &dst->picks[i];
		record_pick_init(d, s->kind, s->spec, s->domain, s->lpar,
		    s->indices, s->nindices, s->nevents);
		record_pick_lpar_copy(d, s);
		for (j = 0; j < s->nevents; j++)
			d->events[j] = xstrdup(s->events[j]);
	}
	dst->lpar_self = src->lpar_self;
	if (src->lpars != NULL)
		record_selection_set_lpars(dst, src->lpars, src->nlpars,
		    src->lpar_self, src->lpars_denied);
}

void
record_selection_free(struct record_selection *sel)
{
	struct record_pick	*pk;
	size_t			 i, j;

	if (sel == NULL)
		return;
	for (i = 0; i < sel->npicks; i++) {
		pk = &sel->picks[i];
		free(pk->spec);
		free(pk->indices);
		free(pk->lpars);
		free(pk->domains);
		for (j = 0; j < pk->nevents; j++)
			free(pk->events[j]);
		free(pk->events);
	}
	free(sel->picks);
	free(sel->lpars);
	memset(sel, 0, sizeof *sel);
}

static int
record_selection_same(const struct record_pick *a,
    const struct record_pick *b)
{
	size_t	 j;

	if (a->kind != b->kind || a->domain != b->domain ||
	    a->lpar != b->lpar || a->nindices != b->nindices ||
	    a->nevents != b->nevents || strcmp(a->spec, b->spec) != 0)
		return (0);
	if (a->nindices > 0 && memcmp(a->indices, b->indices,
	    a->nindices * sizeof *a->indices) != 0)
		return (0);
	if ((a->lpars == NULL) != (b->lpars == NULL) || a->places != b->places)
		return (0);
	if (a->lpars != NULL && a->nindices > 0 && (memcmp(a->lpars,
	    b->lpars, a->nindices * sizeof *a->lpars) != 0 ||
	    memcmp(a->domains, b->domains, a->nindices) != 0))
		return (0);
	for (j = 0; j < a->nevents; j++) {
		if (strcmp(a->events[j], b->events[j]) != 0)
			return (0);
	}
	return (1);
}

size_t
record_selection_compare(const struct record_selection *a,
    const struct record_selection *b)
{
	size_t	 i, n = a->npicks < b->npicks ? a->npicks : b->npicks;

	for (i = 0; i < n; i++) {
		if (!record_selection_same(&a->picks[i], &b->picks[i]))
			return (i + 1);
	}
	if (a->npicks != b->npicks)
		return (n + 1);
	return (0);
}

void
record_meta_free(struct record_meta *m)
{
	size_t	 i;

	if (m == NULL)
		return;
	free(m->label);
	free(m->writer);
	for (i = 0; i < m->nconsts; i++)
		free(m->consts[i].name);
	free(m->consts);
	memset(m, 0, sizeof *m);
}
