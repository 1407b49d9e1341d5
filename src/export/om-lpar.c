/*
 * The partitions in the exposition: their counters, summed over each
 * partition's virtual processors by default (a series per partition,
 * placement and event) or one per virtual processor (--serve-vcpus),
 * and the gauges of each partition the engine derives (cycles per
 * second, cores, IPC, the shares off the home chip and on a remote
 * node).  A sum is of the hypervisor's accumulators, so it is a
 * counter too; it is left out of a sample when one of its parts has
 * no value.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "engine/engine-lpar.h"
#include "export/om-int.h"
#include "model/selection.h"
#include "util/xalloc.h"

/* A row's partition and virtual processor as labels. */
static void
om_lpar_label_vcpu(struct om_layout *l, unsigned index)
{
	char	 buf[8];

	om_label_lpar(l, ENG_ROW_LPAR(index));
	snprintf(buf, sizeof buf, "%u", (unsigned)ENG_ROW_VCPU(index));
	om_label_add(l, "vcpu", buf);
}

static const char *
om_lpar_event(const struct engine_view *v, size_t col)
{
	return (v->events[col]->sysfs_name != NULL ?
	    v->events[col]->sysfs_name : v->events[col]->name);
}

/* Per virtual processor: a series per vcpu, placement and event. */
static void
om_lpar_vcpus(struct om_layout *l, const struct om_sample *s,
    const struct engine_view *v, const char *version)
{
	struct om_counter	*c;
	struct om_tick		*t;
	size_t			 r, col, p, k, off;

	for (r = 0; r < v->nrows; r++) {
		t = om_layout_tick(l);
		off = om_label_begin(l);
		om_lpar_label_vcpu(l, v->indices[r]);
		t->label = om_label_end(l, off);
		t->first = l->ncounters;
		t->n = 0;
		for (col = 0; col < v->nevents; col++) {
			for (p = 0; p < v->nplaces && p < SEL_NPLACES; p++) {
				k = v->place_counter[(r * v->nevents + col) *
				    v->nplaces + p];
				if (k == ENG_NONE || k >= s->sel->ncounters)
					continue;
				c = om_layout_counter(l);
				c->k = k;
				c->n = 1;
				off = om_label_begin(l);
				om_label_add(l, "event", om_lpar_event(v, col));
				om_label_add(l, "domain",
				    catalog_domain_suffix_2014(3 + (int)p));
				om_lpar_label_vcpu(l, v->indices[r]);
				om_label_add(l, "placement",
				    engine_place_name(p));
				om_label_add(l, "catalog_version", version);
				c->label = om_label_end(l, off);
				t->n++;
			}
		}
	}
}

/* The counters of rows [r0, r1) at col and p into sum_ks; how many. */
static size_t
om_lpar_gather(struct om_layout *l, const struct om_sample *s,
    const struct engine_view *v, size_t r0, size_t r1, size_t col, size_t p)
{
	size_t	 r, k, n = 0;

	for (r = r0; r < r1; r++) {
		k = v->place_counter[(r * v->nevents + col) * v->nplaces + p];
		if (k == ENG_NONE || k >= s->sel->ncounters)
			continue;
		l->sum_ks = xreallocarray(l->sum_ks, l->nsum_ks + 1,
		    sizeof *l->sum_ks);
		l->sum_ks[l->nsum_ks++] = k;
		n++;
	}
	return (n);
}

/* Summed: a series per partition, placement and event, no ticks. */
static void
om_lpar_sums(struct om_layout *l, const struct om_sample *s,
    const struct engine_view *v, const char *version)
{
	struct om_counter	*c;
	size_t			 r0, r1, col, p, first, n, off;
	unsigned		 lpar;

	for (r0 = 0; r0 < v->nrows; r0 = r1) {
		lpar = ENG_ROW_LPAR(v->indices[r0]);
		for (r1 = r0; r1 < v->nrows &&
		    ENG_ROW_LPAR(v->indices[r1]) == lpar; r1++)
			continue;
		for (col = 0; col < v->nevents; col++) {
			for (p = 0; p < v->nplaces && p < SEL_NPLACES; p++) {
				first = l->nsum_ks;
				if ((n = om_lpar_gather(l, s, v, r0, r1, col,
				    p)) == 0)
					continue;
				c = om_layout_counter(l);
				c->k = l->sum_ks[first];
				c->first = first;
				c->n = n;
				c->lazy = 1;
				off = om_label_begin(l);
				om_label_add(l, "event", om_lpar_event(v, col));
				om_label_add(l, "domain",
				    catalog_domain_suffix_2014(3 + (int)p));
				om_label_lpar(l, lpar);
				om_label_add(l, "placement",
				    engine_place_name(p));
				om_label_add(l, "catalog_version", version);
				c->label = om_label_end(l, off);
			}
		}
	}
}

void
om_lpar_layout(struct om_layout *l, const struct om_sample *s, size_t view,
    const char *version)
{
	const struct engine_view	*v = engine_view(s->engine, view);

	if (v->domain != ENG_VIEW_LPAR_VCPU || v->place_counter == NULL)
		return;
	if (l->per_vcpu)
		om_lpar_vcpus(l, s, v, version);
	else
		om_lpar_sums(l, s, v, version);
}

/* The partition gauges: family name, unit, help, what they show. */
static const struct {
	const char	*name;
	const char	*unit;
	const char	*help;
	int		 what;		/* ENG_DERIVE_*, or -1: cycles */
} om_lpar_families[] = {
	{ "hvtop_lpar_cycles_per_second", "", "Core cycles per second "
	    "of the partition, all its virtual processors, over hvtop's "
	    "last interval", -1 },
	{ "hvtop_lpar_cores", "", "Cores the partition used: its core "
	    "cycles per second over the core clock", ENG_DERIVE_CORES },
	{ "hvtop_lpar_ipc", "", "Instructions per cycle of the partition",
	    ENG_DERIVE_IPC },
	{ "hvtop_lpar_off_home_chip_ratio", "ratio", "Share of the "
	    "partition's core cycles counted off its home chip",
	    ENG_DERIVE_OFF_CHIP },
	{ "hvtop_lpar_remote_ratio", "ratio", "Share of the partition's "
	    "core cycles counted on a remote node", ENG_DERIVE_REMOTE },
};

static struct om_family *
om_lpar_family(struct om_layout *l, size_t i)
{
	struct om_family	*f;

	l->families = xreallocarray(l->families, l->nfamilies + 1,
	    sizeof *l->families);
	f = &l->families[l->nfamilies++];
	memset(f, 0, sizeof *f);
	f->name = xstrdup(om_lpar_families[i].name);
	f->unit = xstrdup(om_lpar_families[i].unit);
	f->help = xstrdup(om_lpar_families[i].help);
	f->first = l->ngauges;
	return (f);
}

void
om_lpar_gauges(struct om_layout *l, const struct om_sample *s)
{
	const struct engine_view	*v;
	const struct engine_cell	*cell;
	struct engine_lpar_cols		 cols;
	struct om_family		*f;
	struct om_gauge			*g;
	size_t				 view, i, r, col, off;

	if ((view = engine_view_find(s->engine, ENG_VIEW_LPAR)) == ENG_NONE)
		return;
	v = engine_view(s->engine, view);
	engine_lpar_cols(v, &cols);
	if (cols.cycles == ENG_NONE)
		return;
	for (i = 0; i < sizeof om_lpar_families / sizeof
	    om_lpar_families[0]; i++) {
		col = om_lpar_families[i].what < 0 ? cols.cycles :
		    engine_derive_col(v, om_lpar_families[i].what, 0, 0);
		if (col == ENG_NONE)
			continue;
		f = om_lpar_family(l, i);
		l->gauges = xreallocarray(l->gauges, l->ngauges + v->nrows + 1,
		    sizeof *l->gauges);
		for (r = 0; r < v->nrows; r++) {
			cell = engine_cell(s->engine, s->snap, view, r, col);
			if (cell == NULL)
				continue;
			g = &l->gauges[l->ngauges++];
			off = om_label_begin(l);
			om_label_lpar(l, v->indices[r]);
			g->label = om_label_end(l, off);
			g->view = view;
			g->cell = (size_t)(cell - s->snap->cells[view]);
			g->scale = 1;
			f->n++;
		}
	}
}
