/*
 * Selections and preambles as the recording stores them: plain data with
 * owned strings, made from a selection, copied, compared and freed here.
 * A selection is compared pick by pick (kind, spec, domain, partition,
 * indices, event columns), which is what decides whether a replay can
 * serve it.
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
	d->nevents = nevents;
	d->events = xcalloc(nevents + 1, sizeof *d->events);
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
		for (j = 0; j < s->nevents; j++)
			d->events[j] = xstrdup(s->events[j]->sysfs_name !=
			    NULL ? s->events[j]->sysfs_name :
			    s->events[j]->name);
		out->ncounters += s->nindices * s->nevents;
	}
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
		for (j = 0; j < s->nevents; j++)
			d->events[j] = xstrdup(s->events[j]);
	}
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
		for (j = 0; j < pk->nevents; j++)
			free(pk->events[j]);
		free(pk->events);
	}
	free(sel->picks);
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
