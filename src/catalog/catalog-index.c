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
#include "util/xalloc.h"

/*
 * Section positions above this are not reachable through
 * catalog_event_at(): the parser's are below 65536 (a be16 count), and a
 * hand-built model with wild indexes must not make us allocate gigabytes.
 */
#define CATALOG_AT_MAX		(1U << 22)

/*
 * Open addressing, linear probing, at most half full.  A slot keeps the
 * key's pointer, so that a probe reads the slot and the string and
 * nothing else; for events the low 8 bits of the stored hash are the
 * domain, so (name, domain) and (name, any domain) are both one probe
 * sequence.
 */
struct catalog_hslot {
	const char	*key;		/* the model's own string */
	uint32_t	 hash;
	uint32_t	 ix;		/* position + 1; 0 = empty */
};

struct catalog_htab {
	struct catalog_hslot *v;
	size_t		 mask;
};

/*
 * Events are hashed by name and matched on (name, domain), so one table
 * answers both kinds of lookup: with linear probing and no deletions,
 * entries of one name are met in the order they were inserted, and the
 * events the kernel lists are inserted first.  The tables point into the
 * model's strings: change a name, then call catalog_reindex().
 */
struct catalog_index {
	struct catalog_htab by_key;	/* (name, domain) -> event */
	struct catalog_htab by_sysfs;	/* sysfs_name -> event */
	struct catalog_htab groups;	/* name -> group */
	struct catalog_htab formulas;	/* name -> formula */
	uint32_t	*event_at;	/* section index -> position + 1 */
	size_t		 nevent_at;
	uint32_t	*group_at;
	size_t		 ngroup_at;
	/* Listed events whose sysfs name an earlier one has: (it, that). */
	uint32_t	(*clash)[2];
	size_t		 nclash;
};

#define CATALOG_ANY_DOMAIN	(-1)
#define CATALOG_HASH_DOMAIN	0x1ffU	/* low bits of a stored hash: every
					   domain, CATALOG_DOMAIN_CPU too */

static const char *
catalog_nz(const char *s)
{
	return (s != NULL ? s : "");
}

/* FNV-1a with a final avalanche so that linear probing spreads well. */
static uint32_t
catalog_hash(const char *s)
{
	const unsigned char	*p;
	uint32_t		 h = 2166136261U;

	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		h ^= *p;
		h *= 16777619U;
	}
	h ^= h >> 16;
	h *= 0x85ebca6bU;
	h ^= h >> 13;
	return (h);
}

static void
catalog_htab_init(struct catalog_htab *t, size_t n)
{
	size_t	 cap = 16;

	while (cap < n * 2)
		cap *= 2;
	t->v = xcalloc(cap, sizeof *t->v);
	t->mask = cap - 1;
}

/*
 * The slot holding key (name, domain) in t, or the empty slot where it
 * would go.  h is catalog_hash(name); domain is 0 for tables that are not
 * of events, and CATALOG_ANY_DOMAIN matches every domain.
 */
static struct catalog_hslot *
catalog_htab_slot(const struct catalog_htab *t, uint32_t h, const char *name,
    int domain)
{
	struct catalog_hslot	*s;
	uint32_t		 want, mask;
	size_t			 i;

	mask = domain == CATALOG_ANY_DOMAIN ? ~CATALOG_HASH_DOMAIN : ~0U;
	want = (h & ~CATALOG_HASH_DOMAIN) | ((uint32_t)domain & mask &
	    CATALOG_HASH_DOMAIN);
	for (i = (h >> 8) & t->mask;; i = (i + 1) & t->mask) {
		s = &t->v[i];
		if (s->ix == 0)
			return (s);
		if (((s->hash ^ want) & mask) == 0 &&
		    strcmp(s->key, name) == 0)
			return (s);
	}
}

#define CATALOG_AHEAD		16	/* events fetched ahead */
#define CATALOG_FETCH_MIN	8192	/* events; fewer stay in cache */

/* Start fetching the slot where a probe for hash h begins. */
static void
catalog_htab_prefetch(const struct catalog_htab *t, uint32_t h)
{
	__builtin_prefetch(&t->v[(h >> 8) & t->mask]);
}

/*
 * Insert key (name, domain), whose name hashes to h, for position pos
 * unless the key is taken.  Returns the slot that holds the key.
 */
static struct catalog_hslot *
catalog_htab_add(struct catalog_htab *t, const char *name, int domain,
    uint32_t h, size_t pos)
{
	struct catalog_hslot	*s;

	s = catalog_htab_slot(t, h, name, domain);
	if (s->ix == 0) {
		s->key = name;
		s->hash = (h & ~CATALOG_HASH_DOMAIN) |
		    ((uint32_t)domain & CATALOG_HASH_DOMAIN);
		s->ix = (uint32_t)pos + 1;
	}
	return (s);
}

static size_t
catalog_htab_find(const struct catalog_htab *t, const char *name, int domain)
{
	const struct catalog_hslot	*s;

	if (t->v == NULL || name == NULL)
		return (SIZE_MAX);
	s = catalog_htab_slot(t, catalog_hash(name), name, domain);
	return (s->ix == 0 ? SIZE_MAX : s->ix - 1);
}

static void
catalog_index_free(struct catalog_index *ix)
{
	if (ix == NULL)
		return;
	free(ix->by_key.v);
	free(ix->by_sysfs.v);
	free(ix->groups.v);
	free(ix->formulas.v);
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
	struct catalog_hslot	*s;
	uint32_t		*ct, *hs;
	size_t			 i, pass, first, stop;

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
		hs[i] = catalog_hash(catalog_nz(cat->events[i].name));
	}
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < cat->nevents; i++) {
			if (i < stop) {
				catalog_htab_prefetch(&ix->by_key,
				    hs[i + CATALOG_AHEAD]);
				__builtin_prefetch(
				    cat->events[i + CATALOG_AHEAD].name);
			}
			ev = &cat->events[i];
			if ((ev->skip == 0) != (pass == 0))
				continue;
			free(ev->sysfs_name);
			s = catalog_htab_add(&ix->by_key, catalog_nz(ev->name),
			    ev->domain, hs[i], i);
			first = s->ix - 1;
			if (first == i)
				ev->sysfs_name = xstrdup(catalog_nz(ev->name));
			else {
				ev->sysfs_name = xasprintf("%s__%u",
				    catalog_nz(ev->name), ++ct[first]);
				hs[i] = catalog_hash(ev->sysfs_name);
			}
		}
	}
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < cat->nevents; i++) {
			if (i < stop)
				catalog_htab_prefetch(&ix->by_sysfs,
				    hs[i + CATALOG_AHEAD]);
			if ((cat->events[i].skip == 0) != (pass == 0))
				continue;
			s = catalog_htab_add(&ix->by_sysfs,
			    cat->events[i].sysfs_name, 0, hs[i], i);
			if (pass != 0 || s->ix - 1 == i)
				continue;
			/* Rare: a list grown one at a time will do. */
			ix->clash = xreallocarray(ix->clash, ix->nclash + 1,
			    sizeof *ix->clash);
			ix->clash[ix->nclash][0] = (uint32_t)i;
			ix->clash[ix->nclash++][1] = s->ix - 1;
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
		catalog_htab_init(&ix->by_key, cat->nevents);
		catalog_htab_init(&ix->by_sysfs, cat->nevents);
		catalog_index_names(cat, ix);
	}
	if (cat->ngroups > 0) {
		catalog_htab_init(&ix->groups, cat->ngroups);
		for (i = 0; i < cat->ngroups; i++)
			catalog_htab_add(&ix->groups,
			    catalog_nz(cat->groups[i].name), 0,
			    catalog_hash(catalog_nz(cat->groups[i].name)), i);
	}
	if (cat->nformulas > 0) {
		catalog_htab_init(&ix->formulas, cat->nformulas);
		for (i = 0; i < cat->nformulas; i++)
			catalog_htab_add(&ix->formulas,
			    catalog_nz(cat->formulas[i].name), 0,
			    catalog_hash(catalog_nz(cat->formulas[i].name)), i);
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
	size_t	 i;

	if (cat->index == NULL)
		return (NULL);
	if (domain < 0 || domain > CATALOG_DOMAIN_CPU)
		return (NULL);
	i = catalog_htab_find(&cat->index->by_key, name,
	    domain == 0 ? CATALOG_ANY_DOMAIN : domain);
	return (i == SIZE_MAX ? NULL : &cat->events[i]);
}

const struct catalog_event *
catalog_find_sysfs(const struct catalog *cat, const char *sysfs_name)
{
	size_t	 i;

	if (cat->index == NULL)
		return (NULL);
	i = catalog_htab_find(&cat->index->by_sysfs, sysfs_name, 0);
	return (i == SIZE_MAX ? NULL : &cat->events[i]);
}

const struct catalog_group *
catalog_find_group(const struct catalog *cat, const char *name)
{
	size_t	 i;

	if (cat->index == NULL)
		return (NULL);
	i = catalog_htab_find(&cat->index->groups, name, 0);
	return (i == SIZE_MAX ? NULL : &cat->groups[i]);
}

const struct catalog_formula *
catalog_find_formula(const struct catalog *cat, const char *name)
{
	size_t	 i;

	if (cat->index == NULL)
		return (NULL);
	i = catalog_htab_find(&cat->index->formulas, name, 0);
	return (i == SIZE_MAX ? NULL : &cat->formulas[i]);
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
