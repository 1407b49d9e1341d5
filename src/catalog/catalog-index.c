/*
 * What a catalog model derives from its entries: the interface version
 * when it must be guessed, the kernel's skip rules, sysfs names with the
 * kernel's __N suffix for duplicate (name, domain) pairs, the event ->
 * group links from the groups' slots, and O(1) lookup tables.  Pure: no
 * I/O.  It reports nothing: the parser checks the entries and says what is
 * wrong; this file only makes the model searchable.
 */
#include "config.h"

#include "catalog/catalog.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog-index.h"
#include "util/htab.h"
#include "util/xalloc.h"

/*
 * Section positions above this are not reachable through
 * catalog_event_at(): the parser's are below 65536 (a be16 count), and a
 * hand-built model with wild indexes must not make us allocate gigabytes.
 */
#define CATALOG_AT_MAX		(1U << 22)

/*
 * Events are hashed by name and matched on (name, domain), so one table
 * answers both kinds of lookup: the hash's tag bits hold the domain, and
 * a lookup in any domain masks them out.  Entries of one name are met in
 * the order they were inserted, and the events the kernel lists are
 * inserted first.  The tables hold positions and the keys are the
 * model's strings: change a name, then call catalog_reindex().
 */
struct catalog_index {
	struct htab	 by_key;	/* (name, domain) -> event */
	struct htab	 by_sysfs;	/* sysfs_name -> event */
	struct htab	 groups;	/* name -> group */
	struct htab	 formulas;	/* name -> formula */
	uint32_t	*event_at;	/* section index -> position + 1 */
	size_t		 nevent_at;
	uint32_t	*group_at;
	size_t		 ngroup_at;
	/* Listed events whose sysfs name an earlier one has: (it, that). */
	uint32_t	(*clash)[2];
	size_t		 nclash;
};

#define CATALOG_ANY_DOMAIN	(-1)
#define CATALOG_AHEAD		16	/* events fetched ahead */
#define CATALOG_FETCH_MIN	8192	/* events; fewer stay in cache */

static const char *
catalog_nz(const char *s)
{
	return (s != NULL ? s : "");
}

/*
 * An event's hash in by_key: its name's, tagged with its domain.  Every
 * domain fits the tag (a catalog's byte, or CATALOG_DOMAIN_CPU), so a
 * stored hash that matches in full matches the domain.
 */
static uint32_t
catalog_key_hash(uint32_t h, int domain)
{
	return ((h & ~HTAB_TAG) | ((uint32_t)domain & HTAB_TAG));
}

/*
 * The event of (name, domain) in by_key, or HTAB_NONE with p at its end.
 * h is htab_hash_str(name); CATALOG_ANY_DOMAIN matches every domain.
 */
static uint32_t
catalog_key_find(const struct htab *t, struct htab_probe *p, uint32_t h,
    const char *name, int domain)
{
	const struct htab_slot	*s;

	if (domain == CATALOG_ANY_DOMAIN)
		htab_probe(t, h, ~HTAB_TAG, p);
	else
		htab_probe(t, catalog_key_hash(h, domain), HTAB_ALL, p);
	while ((s = htab_next(p)) != NULL)
		if (strcmp(s->key, name) == 0)
			return (s->val);
	return (HTAB_NONE);
}

/*
 * The value of name in t, whose keys are names, or HTAB_NONE with p at
 * its end.  h is htab_hash_str(name).
 */
static uint32_t
catalog_name_find(const struct htab *t, struct htab_probe *p, uint32_t h,
    const char *name)
{
	const struct htab_slot	*s;

	htab_probe(t, h, HTAB_ALL, p);
	while ((s = htab_next(p)) != NULL)
		if (strcmp(s->key, name) == 0)
			return (s->val);
	return (HTAB_NONE);
}

static void
catalog_index_free(struct catalog_index *ix)
{
	if (ix == NULL)
		return;
	htab_free(&ix->by_key);
	htab_free(&ix->by_sysfs);
	htab_free(&ix->groups);
	htab_free(&ix->formulas);
	free(ix->event_at);
	free(ix->group_at);
	free(ix->clash);
	free(ix);
}

/*
 * The hcall interface a catalog is served with, when nothing says (see
 * catalog.h).  A catalog holds no interface number, so the events tell:
 * an event of a VCPU domain (3-6) with a group record can only be read
 * through interface 2; VCPU events without one are POWER8's thread
 * placeholders, and a catalog whose chip events all lack a group record
 * is POWER8's first (2014) one: interface 1.  Anything else is taken for
 * POWER9 or later, interface 2.
 */
int
catalog_guess_interface(const struct catalog *cat)
{
	const struct catalog_event	*ev;
	size_t				 i, chip = 0, chip_reclen0 = 0;
	int				 vcpu_reclen0 = 0;

	for (i = 0; i < cat->nevents; i++) {
		ev = &cat->events[i];
		if (ev->domain >= CATALOG_DOMAIN_VCPU_HOME_CORE &&
		    ev->domain < CATALOG_DOMAIN_MAX) {
			if (ev->record_length != 0)
				return (2);
			vcpu_reclen0 = 1;
		} else if (ev->domain == CATALOG_DOMAIN_CHIP) {
			chip++;
			if (ev->record_length == 0)
				chip_reclen0++;
		}
	}
	if (vcpu_reclen0 || (chip > 0 && chip_reclen0 == chip))
		return (1);
	return (2);
}

/* The kernel's rules in create_events_from_catalog(). */
static unsigned
catalog_skip(const struct catalog_event *ev, int iface)
{
	unsigned	 skip = 0;
	int		 maxdom;

	if (ev->record_length == 0)
		skip |= CATALOG_SKIP_RECLEN0;
	if (ev->name != NULL && strncmp(ev->name, "RESERVED", 8) == 0)
		skip |= CATALOG_SKIP_RESERVED;
	maxdom = iface == 1 ? CATALOG_DOMAIN_CORE :
	    CATALOG_DOMAIN_VCPU_REMOTE_NODE;
	/* perf's CPU is only in a source's model of another PMU (no
	 * catalog's byte can hold it), where the kernel's rules do not
	 * apply. */
	if ((ev->domain < CATALOG_DOMAIN_CHIP || ev->domain > maxdom) &&
	    ev->domain != CATALOG_DOMAIN_CPU)
		skip |= CATALOG_SKIP_DOMAIN;
	return (skip);
}

/*
 * Map section positions (ixs[i] for model position i) to model positions
 * + 1; the first claim wins.  Returns the map (caller frees) and its size.
 */
static uint32_t *
catalog_at_build(const uint32_t *ixs, size_t n, size_t *nout)
{
	uint32_t	*at;
	size_t		 i, max = 0;

	for (i = 0; i < n; i++) {
		if (ixs[i] < CATALOG_AT_MAX && ixs[i] + 1 > max)
			max = ixs[i] + 1;
	}
	*nout = max;
	if (max == 0)
		return (NULL);
	at = xcalloc(max, sizeof *at);
	for (i = 0; i < n; i++) {
		if (ixs[i] < CATALOG_AT_MAX && at[ixs[i]] == 0)
			at[ixs[i]] = (uint32_t)i + 1;
	}
	return (at);
}

/*
 * Give every event a sysfs name: the kernel numbers the second and later
 * events of one (name, domain) NAME__1, NAME__2 ... in catalog order,
 * counting only the events it lists.  Skipped events are numbered after
 * them so that every event still has a unique name to be found by.
 */
static void
catalog_index_names(struct catalog *cat, struct catalog_index *ix)
{
	struct catalog_event	*ev;
	struct htab_probe	 p;
	uint32_t		*ct, *hs, v;
	size_t			 i, pass, stop;

	ct = xcalloc(cat->nevents, sizeof *ct);
	/*
	 * Each name is hashed once, first; a bare sysfs name shares the
	 * hash.  Knowing the hashes ahead, each loop fetches the slot it
	 * will probe CATALOG_AHEAD events on, and the name it will copy: in
	 * a big catalog nearly every probe is a cache miss, and the misses
	 * then overlap.  A small one stays in the cache: no fetching.
	 */
	stop = cat->nevents >= CATALOG_FETCH_MIN ?
	    cat->nevents - CATALOG_AHEAD : 0;
	hs = xcalloc(cat->nevents, sizeof *hs);
	for (i = 0; i < cat->nevents; i++) {
		if (i < stop)
			__builtin_prefetch(cat->events[i + CATALOG_AHEAD].name);
		hs[i] = htab_hash_str(catalog_nz(cat->events[i].name));
	}
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < cat->nevents; i++) {
			if (i < stop) {
				htab_prefetch(&ix->by_key,
				    hs[i + CATALOG_AHEAD]);
				__builtin_prefetch(
				    cat->events[i + CATALOG_AHEAD].name);
			}
			ev = &cat->events[i];
			if ((ev->skip == 0) != (pass == 0))
				continue;
			free(ev->sysfs_name);
			ev->sysfs_name = NULL;
			v = catalog_key_find(&ix->by_key, &p, hs[i],
			    catalog_nz(ev->name), ev->domain);
			if (v == HTAB_NONE) {
				htab_put(&ix->by_key, &p, catalog_nz(ev->name),
				    (uint32_t)i);
				ev->sysfs_name = xstrdup(catalog_nz(ev->name));
			} else {
				ev->sysfs_name = xasprintf("%s__%u",
				    catalog_nz(ev->name), ++ct[v]);
				hs[i] = htab_hash_str(ev->sysfs_name);
			}
		}
	}
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < cat->nevents; i++) {
			if (i < stop)
				htab_prefetch(&ix->by_sysfs,
				    hs[i + CATALOG_AHEAD]);
			if ((cat->events[i].skip == 0) != (pass == 0))
				continue;
			v = catalog_name_find(&ix->by_sysfs, &p, hs[i],
			    cat->events[i].sysfs_name);
			if (v == HTAB_NONE) {
				htab_put(&ix->by_sysfs, &p,
				    cat->events[i].sysfs_name, (uint32_t)i);
				continue;
			}
			if (pass != 0)
				continue;
			/* Rare: a list grown one at a time will do. */
			ix->clash = xreallocarray(ix->clash, ix->nclash + 1,
			    sizeof *ix->clash);
			ix->clash[ix->nclash][0] = (uint32_t)i;
			ix->clash[ix->nclash++][1] = v;
		}
	}
	free(hs);
	free(ct);
}

/* Fill each event's groups[] from the slots below each group's count. */
static void
catalog_index_links(struct catalog *cat, struct catalog_index *ix)
{
	struct catalog_group	*g;
	struct catalog_event	*ev;
	size_t			 i, gi, s, nslots, pass;
	uint16_t		 slot;

	for (i = 0; i < cat->nevents; i++) {
		free(cat->events[i].groups);
		cat->events[i].groups = NULL;
		cat->events[i].ngroups = 0;
	}
	/* Pass 0 counts, pass 1 fills. */
	for (pass = 0; pass < 2; pass++) {
		for (gi = 0; gi < cat->ngroups; gi++) {
			g = &cat->groups[gi];
			nslots = g->event_count < CATALOG_GROUP_SLOTS ?
			    g->event_count : CATALOG_GROUP_SLOTS;
			for (s = 0; s < nslots; s++) {
				slot = g->events[s];
				if (slot == CATALOG_SLOT_FREE ||
				    slot >= ix->nevent_at ||
				    ix->event_at[slot] == 0)
					continue;
				ev = &cat->events[ix->event_at[slot] - 1];
				if (pass == 0) {
					ev->ngroups++;
					continue;
				}
				/* One event in two slots of a group: once. */
				if (ev->ngroups > 0 &&
				    ev->groups[ev->ngroups - 1] == gi)
					continue;
				ev->groups[ev->ngroups++] = (uint32_t)gi;
			}
		}
		if (pass != 0)
			break;
		for (i = 0; i < cat->nevents; i++) {
			ev = &cat->events[i];
			if (ev->ngroups > 0)
				ev->groups = xcalloc(ev->ngroups,
				    sizeof *ev->groups);
			ev->ngroups = 0;
		}
	}
}

/* Make every string of the model safe to print (catalog_text_escape()). */
static void
catalog_sanitize(struct catalog *cat)
{
	struct catalog_event	*ev;
	struct catalog_group	*gr;
	struct catalog_formula	*fo;
	size_t			 i;

	for (i = 0; i < cat->nevents; i++) {
		ev = &cat->events[i];
		catalog_text_sanitize(&ev->name, &ev->stored[0]);
		catalog_text_sanitize(&ev->desc, &ev->stored[1]);
		catalog_text_sanitize(&ev->long_desc, &ev->stored[2]);
	}
	for (i = 0; i < cat->ngroups; i++) {
		gr = &cat->groups[i];
		catalog_text_sanitize(&gr->name, &gr->stored[0]);
		catalog_text_sanitize(&gr->desc, &gr->stored[1]);
	}
	for (i = 0; i < cat->nformulas; i++) {
		fo = &cat->formulas[i];
		catalog_text_sanitize(&fo->name, &fo->stored[0]);
		catalog_text_sanitize(&fo->desc, &fo->stored[1]);
		catalog_text_sanitize(&fo->formula, &fo->stored[2]);
		catalog_text_sanitize(&fo->unit, &fo->stored[3]);
	}
}

void
catalog_reindex(struct catalog *cat)
{
	catalog_reindex_escape(cat, 1);
}

void
catalog_reindex_escape(struct catalog *cat, int escape)
{
	struct catalog_index	*ix;
	struct htab_probe	 p;
	const char		*name;
	uint32_t		*ixs;
	size_t			 i, n;

	if (escape)
		catalog_sanitize(cat);
	catalog_index_free(cat->index);
	cat->index = ix = xcalloc(1, sizeof *ix);

	if (cat->interface != 1 && cat->interface != 2) {
		cat->interface = catalog_guess_interface(cat);
		cat->interface_guessed = 1;
	}
	for (i = 0; i < cat->nevents; i++)
		cat->events[i].skip = catalog_skip(&cat->events[i],
		    cat->interface);

	n = cat->nevents > cat->ngroups ? cat->nevents : cat->ngroups;
	ixs = xcalloc(n > 0 ? n : 1, sizeof *ixs);
	for (i = 0; i < cat->nevents; i++)
		ixs[i] = cat->events[i].index;
	ix->event_at = catalog_at_build(ixs, cat->nevents, &ix->nevent_at);
	for (i = 0; i < cat->ngroups; i++)
		ixs[i] = cat->groups[i].index;
	ix->group_at = catalog_at_build(ixs, cat->ngroups, &ix->ngroup_at);
	free(ixs);

	if (cat->nevents > 0) {
		htab_init(&ix->by_key, cat->nevents);
		htab_init(&ix->by_sysfs, cat->nevents);
		catalog_index_names(cat, ix);
	}
	/* The first of a name is found. */
	if (cat->ngroups > 0) {
		htab_init(&ix->groups, cat->ngroups);
		for (i = 0; i < cat->ngroups; i++) {
			name = catalog_nz(cat->groups[i].name);
			if (catalog_name_find(&ix->groups, &p,
			    htab_hash_str(name), name) == HTAB_NONE)
				htab_put(&ix->groups, &p, name, (uint32_t)i);
		}
	}
	if (cat->nformulas > 0) {
		htab_init(&ix->formulas, cat->nformulas);
		for (i = 0; i < cat->nformulas; i++) {
			name = catalog_nz(cat->formulas[i].name);
			if (catalog_name_find(&ix->formulas, &p,
			    htab_hash_str(name), name) == HTAB_NONE)
				htab_put(&ix->formulas, &p, name, (uint32_t)i);
		}
	}
	catalog_index_links(cat, ix);
}

size_t
catalog_index_clash(const struct catalog *cat, size_t k, size_t *first)
{
	const struct catalog_index	*ix = cat->index;

	if (ix == NULL || k >= ix->nclash)
		return (SIZE_MAX);
	*first = ix->clash[k][1];
	return (ix->clash[k][0]);
}

/* Release the tables; catalog_free() calls this. */
void
catalog_index_release(struct catalog *cat)
{
	catalog_index_free(cat->index);
	cat->index = NULL;
}

const struct catalog_event *
catalog_find_event(const struct catalog *cat, const char *name, int domain)
{
	struct htab_probe	 p;
	uint32_t		 v;

	if (cat->index == NULL || name == NULL)
		return (NULL);
	if (domain < 0 || domain > CATALOG_DOMAIN_CPU)
		return (NULL);
	v = catalog_key_find(&cat->index->by_key, &p, htab_hash_str(name),
	    name, domain == 0 ? CATALOG_ANY_DOMAIN : domain);
	return (v == HTAB_NONE ? NULL : &cat->events[v]);
}

const struct catalog_event *
catalog_find_sysfs(const struct catalog *cat, const char *sysfs_name)
{
	struct htab_probe	 p;
	uint32_t		 v;

	if (cat->index == NULL || sysfs_name == NULL)
		return (NULL);
	v = catalog_name_find(&cat->index->by_sysfs, &p,
	    htab_hash_str(sysfs_name), sysfs_name);
	return (v == HTAB_NONE ? NULL : &cat->events[v]);
}

const struct catalog_group *
catalog_find_group(const struct catalog *cat, const char *name)
{
	struct htab_probe	 p;
	uint32_t		 v;

	if (cat->index == NULL || name == NULL)
		return (NULL);
	v = catalog_name_find(&cat->index->groups, &p, htab_hash_str(name),
	    name);
	return (v == HTAB_NONE ? NULL : &cat->groups[v]);
}

const struct catalog_formula *
catalog_find_formula(const struct catalog *cat, const char *name)
{
	struct htab_probe	 p;
	uint32_t		 v;

	if (cat->index == NULL || name == NULL)
		return (NULL);
	v = catalog_name_find(&cat->index->formulas, &p,
	    htab_hash_str(name), name);
	return (v == HTAB_NONE ? NULL : &cat->formulas[v]);
}

const struct catalog_event *
catalog_event_at(const struct catalog *cat, uint32_t index)
{
	const struct catalog_index	*ix = cat->index;

	if (ix == NULL || index >= ix->nevent_at || ix->event_at[index] == 0)
		return (NULL);
	return (&cat->events[ix->event_at[index] - 1]);
}

const struct catalog_group *
catalog_group_at(const struct catalog *cat, uint32_t index)
{
	const struct catalog_index	*ix = cat->index;

	if (ix == NULL || index >= ix->ngroup_at || ix->group_at[index] == 0)
		return (NULL);
	return (&cat->groups[ix->group_at[index] - 1]);
}
