/*
 * Reading the JSON form of a catalog into a model: catalog_from_json()
 * checks every value's type and range (catalog-json-value.c) and every
 * cross-reference, resolves names given for indexes, and fills in what a
 * hand-written source may leave out (lengths, offsets, counts) from the
 * schemas and the groups holding each event.  Pure: jansson, no I/O.
 */
#include "config.h"

#include "catalog/catalog-json.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "catalog/catalog-json-int.h"
#include "util/hverr.h"
#include "util/xalloc.h"

static const char *
cj_event_name(const struct catalog *cat, size_t i)
{
	return (cat->events[i].name);
}

static const char *
cj_group_name(const struct catalog *cat, size_t i)
{
	return (cat->groups[i].name);
}

static const char *
cj_formula_name(const struct catalog *cat, size_t i)
{
	return (cat->formulas[i].name);
}

static const char *const cj_schema_keys[] = {
	"index", "descriptor", "version", "fields", "entry_length", NULL,
};
static const char *const cj_field_keys[] = {
	"enum", "name", "offset", "length", "flags", NULL,
};

/* A field enum from its name ("COUNTER3", "TIMEBASE_UPDATE"). */
static int
cj_field_enum(const char *name)
{
	unsigned	 e;

	for (e = 0; e <= CJ_U8; e++) {
		if (strcmp(catalog_field_name(e), "?") != 0 &&
		    strcmp(catalog_field_name(e), name) == 0)
			return ((int)e);
	}
	return (-1);
}

static int
cj_schema_field(struct cj *cj, const json_t *o, size_t s, size_t k,
    struct catalog_schema_field *f, unsigned *next)
{
	json_t		*v;
	uint64_t	 n;
	int		 r, e;

	catalog_json_value_where(cj, "schemas[%zu].fields[%zu]", s, k);
	if ((r = catalog_json_value_object(cj, o)) != 0 || (r =
	    catalog_json_value_keys(cj, o, cj_field_keys)) != 0)
		return (r);
	if ((r = catalog_json_value_uint(cj, o, "enum", CJ_U16, &n)) < 0)
		return (r);
	v = json_object_get(o, "name");
	if (v != NULL && !json_is_string(v))
		return (catalog_json_value_fail(cj, HV_EFORMAT, "name",
		    "expected a string"));
	if (r == 1) {
		/* The name is a reader's aid; "?" is an enum without one. */
		f->field = (uint16_t)n;
		if (v != NULL && strcmp(json_string_value(v), "?") != 0 &&
		    strcmp(json_string_value(v),
		    catalog_field_name(f->field)) != 0)
			return (catalog_json_value_fail(cj, HV_ERANGE, "name",
			    "\"%s\", but enum %u is %s", json_string_value(v),
			    f->field, catalog_field_name(f->field)));
	} else if (v == NULL)
		return (catalog_json_value_fail(cj, HV_EFORMAT, "enum",
		    "missing"));
	else if ((e = cj_field_enum(json_string_value(v))) < 0)
		return (catalog_json_value_fail(cj, HV_ENOENT, "name",
		    "no field is called \"%s\"", json_string_value(v)));
	else
		f->field = (uint16_t)e;
	/* A field left without offset follows the one before. */
	if ((r = catalog_json_value_uint(cj, o, "offset", CJ_U16, &n)) < 0)
		return (r);
	if (r == 1)
		f->offset = (uint16_t)n;
	else if (*next > CJ_U16)
		return (catalog_json_value_fail(cj, HV_ERANGE, "offset",
		    "%u would not fit", *next));
	else
		f->offset = (uint16_t)*next;
	f->length = CJ_COUNTER_SIZE;
	if ((r = catalog_json_value_uint(cj, o, "length", CJ_U16, &n)) < 0)
		return (r);
	if (r == 1)
		f->length = (uint16_t)n;
	if ((r = catalog_json_value_uint(cj, o, "flags", CJ_U16, &n)) < 0)
		return (r);
	if (r == 1)
		f->flags = (uint16_t)n;
	*next = (unsigned)f->offset + f->length;
	return (0);
}

static int
cj_schemas(struct cj *cj, const json_t *root)
{
	struct catalog		*cat = cj->cat;
	struct catalog_schema	*sc;
	json_t			*a, *o, *fa;
	uint64_t		 n;
	size_t			 i, k;
	unsigned		 next;
	int			 r;

	cj->where[0] = '\0';
	if ((a = catalog_json_value_array(cj, root, "schemas", &r)) == NULL)
		return (r);
	cat->nschemas = json_array_size(a);
	if (cat->nschemas > CJ_U8 + 1U) {
		/* Groups name their schema in one byte. */
		return (catalog_json_value_fail(cj, HV_ELIMIT, "schemas",
		    "%zu schemas, more than a group can name (256)",
		    cat->nschemas));
	}
	cat->schemas = xcalloc(cat->nschemas == 0 ? 1 : cat->nschemas,
	    sizeof *cat->schemas);
	for (i = 0; i < cat->nschemas; i++) {
		sc = &cat->schemas[i];
		sc->index = (uint32_t)i;
		o = json_array_get(a, i);
		catalog_json_value_where(cj, "schemas[%zu]", i);
		if ((r = catalog_json_value_object(cj, o)) != 0 ||
		    (r = catalog_json_value_keys(cj, o,
		    cj_schema_keys)) != 0 ||
		    (r = catalog_json_value_check_index(cj, o, i)) != 0)
			return (r);
		sc->descriptor = (uint16_t)i;
		if ((r = catalog_json_value_uint(cj, o, "descriptor",
		    CJ_U16, &n)) < 0)
			return (r);
		if (r == 1)
			sc->descriptor = (uint16_t)n;
		sc->version = 1;
		if ((r = catalog_json_value_uint(cj, o, "version",
		    CJ_U16, &n)) < 0)
			return (r);
		if (r == 1)
			sc->version = (uint16_t)n;
		if ((r = catalog_json_value_uint(cj, o, "entry_length",
		    CJ_U16, &n)) < 0)
			return (r);
		if (r == 1)
			sc->entry_length = (uint16_t)n;
		if ((fa = catalog_json_value_array(cj, o, "fields",
		    &r)) == NULL)
			return (r != 0 ? r : catalog_json_value_fail(cj,
			    HV_EFORMAT, "fields", "missing"));
		if (json_array_size(fa) > CJ_U16)
			return (catalog_json_value_fail(cj, HV_ELIMIT,
			    "fields", "too many"));
		sc->nfields = (uint16_t)json_array_size(fa);
		sc->fields = xcalloc(sc->nfields == 0 ? 1 : sc->nfields,
		    sizeof *sc->fields);
		next = 0;
		for (k = 0; k < sc->nfields; k++) {
			if ((r = cj_schema_field(cj, json_array_get(fa, k), i,
			    k, &sc->fields[k], &next)) != 0)
				return (r);
		}
	}
	return (0);
}

static const char *const cj_event_keys[] = {
	"index", "name", "domain", "record_offset", "record_length",
	"counter_offset", "offset", "flags", "primary_group", "group_count",
	"formula_index", "description", "long_description", "entry_length",
	NULL,
};

/* A domain hvtop can request: 1..6. */
static int
cj_domain(struct cj *cj, const json_t *o, uint16_t *out)
{
	uint64_t	 n;
	int		 r;

	if ((r = catalog_json_value_need_uint(cj, o, "domain", CJ_U8,
	    &n)) != 0)
		return (r);
	if (n == 0 || n >= CATALOG_DOMAIN_MAX)
		return (catalog_json_value_fail(cj, HV_ERANGE, "domain",
		    "%" PRIu64 " is not a domain (1-%d)", n,
		    CATALOG_DOMAIN_MAX - 1));
	*out = (uint16_t)n;
	return (0);
}

/*
 * Optional u16 members of an event; *given collects which were there.
 * Returns 0 or a negative error.
 */
static int
cj_u16_member(struct cj *cj, const json_t *o, const char *key, unsigned bit,
    unsigned *given, uint16_t *out)
{
	uint64_t	 n;
	int		 r;

	if ((r = catalog_json_value_uint(cj, o, key, CJ_U16, &n)) < 0)
		return (r);
	if (r == 1) {
		*out = (uint16_t)n;
		*given |= bit;
	}
	return (0);
}

static int
cj_event(struct cj *cj, const json_t *o, size_t i)
{
	struct catalog_event	*ev = &cj->cat->events[i];
	json_t			*v;
	uint64_t		 n;
	int			 r;

	catalog_json_value_where(cj, "events[%zu]", i);
	ev->index = (uint32_t)i;
	if ((r = catalog_json_value_object(cj, o)) != 0 ||
	    (r = catalog_json_value_keys(cj, o, cj_event_keys)) != 0 ||
	    (r = catalog_json_value_check_index(cj, o, i)) != 0 ||
	    (r = catalog_json_value_string(cj, o, "name", 1,
	    &ev->name)) != 0 ||
	    (r = cj_domain(cj, o, &ev->domain)) != 0 ||
	    (r = cj_u16_member(cj, o, "record_offset", CJ_EV_RECORD_OFFSET,
	    &cj->evgiven[i], &ev->record_offset)) != 0 ||
	    (r = cj_u16_member(cj, o, "record_length", CJ_EV_RECORD_LENGTH,
	    &cj->evgiven[i], &ev->record_length)) != 0 ||
	    (r = cj_u16_member(cj, o, "counter_offset", CJ_EV_COUNTER_OFFSET,
	    &cj->evgiven[i], &ev->counter_offset)) != 0 ||
	    (r = cj_u16_member(cj, o, "group_count", CJ_EV_GROUP_COUNT,
	    &cj->evgiven[i], &ev->group_count)) != 0 ||
	    (r = cj_u16_member(cj, o, "entry_length", 0, &cj->evgiven[i],
	    &ev->entry_length)) != 0 ||
	    (r = catalog_json_value_string(cj, o, "description", 0,
	    &ev->desc)) != 0 ||
	    (r = catalog_json_value_string(cj, o, "long_description", 0,
	    &ev->long_desc)) != 0)
		return (r);
	if ((r = catalog_json_value_uint(cj, o, "offset", 2 * CJ_U16, &n)) < 0)
		return (r);
	if (r == 1) {
		cj->evoffset[i] = (uint32_t)n;
		cj->evgiven[i] |= CJ_EV_OFFSET;
	}
	if ((r = catalog_json_value_uint(cj, o, "flags", CJ_U32, &n)) < 0)
		return (r);
	ev->flags = r == 1 ? (uint32_t)n : 0;

	/* Names are resolved once every section is read. */
	v = json_object_get(o, "primary_group");
	if (v != NULL && json_is_string(v)) {
		cj->evpgroup[i] = v;
		cj->evgiven[i] |= CJ_EV_PRIMARY_GROUP;
	} else if ((r = cj_u16_member(cj, o, "primary_group",
	    CJ_EV_PRIMARY_GROUP, &cj->evgiven[i], &ev->primary_group)) != 0)
		return (r);
	v = json_object_get(o, "formula_index");
	ev->formula_raw = CATALOG_SLOT_FREE;
	if (v != NULL && json_is_string(v))
		cj->evformula[i] = v;
	else if ((r = catalog_json_value_uint(cj, o, "formula_index",
	    CJ_U16, &n)) < 0)
		return (r);
	else if (r == 1)
		ev->formula_raw = (uint16_t)n;
	return (0);
}

static int
cj_events(struct cj *cj, const json_t *root)
{
	struct catalog	*cat = cj->cat;
	json_t		*a;
	size_t		 i, n;
	int		 r;

	cj->where[0] = '\0';
	if ((a = catalog_json_value_array(cj, root, "events", &r)) ==
	    NULL && r != 0)
		return (r);
	n = a == NULL ? 0 : json_array_size(a);
	cat->nevents = n;
	cat->events = xcalloc(n == 0 ? 1 : n, sizeof *cat->events);
	cj->evgiven = xcalloc(n == 0 ? 1 : n, sizeof *cj->evgiven);
	cj->evoffset = xcalloc(n == 0 ? 1 : n, sizeof *cj->evoffset);
	cj->evpgroup = xcalloc(n == 0 ? 1 : n, sizeof *cj->evpgroup);
	cj->evformula = xcalloc(n == 0 ? 1 : n, sizeof *cj->evformula);
	for (i = 0; i < n; i++) {
		if ((r = cj_event(cj, json_array_get(a, i), i)) != 0)
			return (r);
	}
	cj->evnames = catalog_json_value_names_sort(n, cj_event_name, cat);
	return (0);
}

static const char *const cj_group_keys[] = {
	"index", "name", "description", "flags", "domain", "record_offset",
	"record_length", "schema", "event_count", "events", "entry_length",
	NULL,
};

/* The offset of COUNTERn in a schema, or -1. */
static int
cj_counter_offset(const struct catalog_schema *sc, unsigned n)
{
	uint16_t	 k;

	for (k = 0; k < sc->nfields; k++) {
		if (sc->fields[k].field == n)
			return (sc->fields[k].offset);
	}
	return (-1);
}

/* Where a schema's fields end, rounded up to CJ_RECORD_ALIGN. */
static unsigned
cj_schema_record_length(const struct catalog_schema *sc)
{
	unsigned	 end = 0, e;
	uint16_t	 k;

	for (k = 0; k < sc->nfields; k++) {
		e = (unsigned)sc->fields[k].offset + sc->fields[k].length;
		if (e > end)
			end = e;
	}
	return ((end + CJ_RECORD_ALIGN - 1) / CJ_RECORD_ALIGN *
	    CJ_RECORD_ALIGN);
}

/* Resolve one slot: an index, an event name, or null. */
static int
cj_slot(struct cj *cj, const json_t *v, size_t k, uint8_t domain,
    uint16_t *out)
{
	const struct catalog	*cat = cj->cat;
	char			 key[16];
	size_t			 p, n = cat->nevents;
	json_int_t		 x;

	snprintf(key, sizeof key, "events[%zu]", k);
	if (json_is_null(v)) {
		*out = CATALOG_SLOT_FREE;
		return (0);
	}
	if (json_is_string(v)) {
		/* Events are (name, domain): take the one in this domain. */
		p = catalog_json_value_names_find(cj->evnames, n,
		    json_string_value(v));
		for (; p < n && strcmp(cj->evnames[p].name,
		    json_string_value(v)) == 0; p++) {
			if (cat->events[cj->evnames[p].index].domain == domain)
				break;
		}
		if (p >= n || strcmp(cj->evnames[p].name,
		    json_string_value(v)) != 0)
			return (catalog_json_value_fail(cj, HV_ENOENT, key,
			    "no event \"%s\" in domain %u",
			    json_string_value(v), domain));
		*out = (uint16_t)cj->evnames[p].index;
		return (0);
	}
	if (!json_is_integer(v))
		return (catalog_json_value_fail(cj, HV_EFORMAT, key,
		    "expected an event index, an event name or null"));
	x = json_integer_value(v);
	if (x < 0 || (uint64_t)x >= n || x >= CATALOG_SLOT_FREE)
		return (catalog_json_value_fail(cj, HV_ERANGE, key,
		    "%lld is not an event (there are %zu)", (long long)x, n));
	*out = (uint16_t)x;
	return (0);
}

/*
 * A group's record: its length, from the schema when not given, and its
 * offset, after the group before it in its domain when not given.
 */
static int
cj_group_record(struct cj *cj, const json_t *o, struct catalog_group *gr,
    const struct catalog_schema *sc, unsigned *next)
{
	uint64_t	 n;
	int		 r;

	if ((r = catalog_json_value_uint(cj, o, "record_length",
	    CJ_U16, &n)) < 0)
		return (r);
	if (r == 1)
		gr->record_length = (uint16_t)n;
	else if ((n = cj_schema_record_length(sc)) == 0 || n > CJ_U16)
		return (catalog_json_value_fail(cj, HV_EFORMAT,
		    "record_length",
		    "not given, and schema %u gives no length", gr->schema));
	else
		gr->record_length = (uint16_t)n;
	/* A group left without offset follows the one before it. */
	if ((r = catalog_json_value_uint(cj, o, "record_offset",
	    CJ_U16, &n)) < 0)
		return (r);
	if (r == 1)
		gr->record_offset = (uint16_t)n;
	else if (next[gr->domain] > CJ_U16)
		return (catalog_json_value_fail(cj, HV_ERANGE, "record_offset",
		    "the next free offset, %u, does not fit",
		    next[gr->domain]));
	else
		gr->record_offset = (uint16_t)next[gr->domain];
	if (gr->record_offset % 8 != 0)
		return (catalog_json_value_fail(cj, HV_ERANGE, "record_offset",
		    "%u is not 8-byte aligned", gr->record_offset));
	n = ((unsigned)gr->record_offset + gr->record_length + 7) & ~7U;
	if (n > next[gr->domain])
		next[gr->domain] = (unsigned)n;
	return (0);
}

/*
 * A group's event slots and how many count: each counted one an event
 * of the group's domain with a COUNTER field in the schema.
 */
static int
cj_group_events(struct cj *cj, const json_t *o, struct catalog_group *gr,
    const struct catalog_schema *sc)
{
	struct catalog_event	*ev;
	json_t			*a;
	uint64_t		 n;
	size_t			 k, nslots;
	char			 key[16];
	int			 r;

	if ((a = catalog_json_value_array(cj, o, "events", &r)) == NULL)
		return (r != 0 ? r : catalog_json_value_fail(cj, HV_EFORMAT,
		    "events", "missing"));
	nslots = json_array_size(a);
	if (nslots > CATALOG_GROUP_SLOTS)
		return (catalog_json_value_fail(cj, HV_ELIMIT, "events",
		    "%zu slots, but a group has %d", nslots,
		    CATALOG_GROUP_SLOTS));
	if ((r = catalog_json_value_uint(cj, o, "event_count",
	    CATALOG_GROUP_SLOTS, &n)) < 0)
		return (r);
	if (r == 0)
		n = nslots;
	else if (n > nslots)
		return (catalog_json_value_fail(cj, HV_ERANGE, "event_count",
		    "%" PRIu64 ", but \"events\" lists %zu slots", n, nslots));
	gr->event_count = (uint8_t)n;
	for (k = 0; k < nslots; k++) {
		if ((r = cj_slot(cj, json_array_get(a, k), k, gr->domain,
		    &gr->events[k])) != 0)
			return (r);
		if (k >= gr->event_count ||
		    gr->events[k] == CATALOG_SLOT_FREE)
			continue;
		snprintf(key, sizeof key, "events[%zu]", k);
		ev = &cj->cat->events[gr->events[k]];
		if (ev->domain != gr->domain)
			return (catalog_json_value_fail(cj, HV_ERANGE, key,
			    "event %u (%s) is in domain %u, the group in "
			    "domain %u", gr->events[k], ev->name, ev->domain,
			    gr->domain));
		/* Slot k is counter k+1 of the group's record. */
		if (cj_counter_offset(sc, (unsigned)k + 1) < 0)
			return (catalog_json_value_fail(cj, HV_ERANGE, key,
			    "schema %u has no COUNTER%zu field for this slot",
			    gr->schema, k + 1));
	}
	return (0);
}

static int
cj_group(struct cj *cj, const json_t *o, size_t i, unsigned *next)
{
	struct catalog		*cat = cj->cat;
	struct catalog_group	*gr = &cat->groups[i];
	uint64_t		 n;
	int			 r;

	catalog_json_value_where(cj, "groups[%zu]", i);
	gr->index = (uint32_t)i;
	if ((r = catalog_json_value_object(cj, o)) != 0 ||
	    (r = catalog_json_value_keys(cj, o, cj_group_keys)) != 0 ||
	    (r = catalog_json_value_check_index(cj, o, i)) != 0 ||
	    (r = catalog_json_value_string(cj, o, "name", 1,
	    &gr->name)) != 0 ||
	    (r = catalog_json_value_string(cj, o, "description", 0,
	    &gr->desc)) != 0 ||
	    (r = cj_domain(cj, o, &gr->domain)) != 0)
		return (r);
	if ((r = catalog_json_value_uint(cj, o, "flags", CJ_U32, &n)) < 0)
		return (r);
	gr->flags = r == 1 ? (uint32_t)n : 0;
	if ((r = catalog_json_value_uint(cj, o, "entry_length",
	    CJ_U16, &n)) < 0)
		return (r);
	gr->entry_length = r == 1 ? (uint16_t)n : 0;
	if ((r = catalog_json_value_need_uint(cj, o, "schema", CJ_U8,
	    &n)) != 0)
		return (r);
	if (n >= cat->nschemas)
		return (catalog_json_value_fail(cj, HV_ERANGE, "schema",
		    "%" PRIu64 ", but there are %zu schemas", n,
		    cat->nschemas));
	gr->schema = (uint8_t)n;
	if ((r = cj_group_record(cj, o, gr, &cat->schemas[n], next)) != 0)
		return (r);
	return (cj_group_events(cj, o, gr, &cat->schemas[n]));
}

static int
cj_groups(struct cj *cj, const json_t *root)
{
	struct catalog	*cat = cj->cat;
	json_t		*a;
	unsigned	 next[CATALOG_DOMAIN_MAX] = { 0 };
	size_t		 i, n;
	int		 r;

	cj->where[0] = '\0';
	if ((a = catalog_json_value_array(cj, root, "groups", &r)) ==
	    NULL && r != 0)
		return (r);
	n = a == NULL ? 0 : json_array_size(a);
	cat->ngroups = n;
	cat->groups = xcalloc(n == 0 ? 1 : n, sizeof *cat->groups);
	for (i = 0; i < n; i++) {
		if ((r = cj_group(cj, json_array_get(a, i), i, next)) != 0)
			return (r);
	}
	cj->grnames = catalog_json_value_names_sort(n, cj_group_name, cat);
	return (0);
}

static const char *const cj_formula_keys[] = {
	"index", "name", "description", "formula", "unit", "flags", "group",
	"entry_length", NULL,
};

/* A group given as index, name or null (0xffff). */
static int
cj_group_ref(struct cj *cj, const json_t *o, const char *key, uint16_t *out)
{
	const struct catalog	*cat = cj->cat;
	json_t			*v = json_object_get(o, key);
	size_t			 p;
	uint64_t		 n;
	int			 r;

	if (v != NULL && json_is_string(v)) {
		p = catalog_json_value_names_find(cj->grnames, cat->ngroups,
		    json_string_value(v));
		if (p >= cat->ngroups)
			return (catalog_json_value_fail(cj, HV_ENOENT, key,
			    "no group \"%s\"", json_string_value(v)));
		*out = (uint16_t)cj->grnames[p].index;
		return (0);
	}
	if ((r = catalog_json_value_uint(cj, o, key, CJ_U16, &n)) < 0)
		return (r);
	if (r == 0) {
		*out = CATALOG_SLOT_FREE;
		return (0);
	}
	/*
	 * An index is stored as it is, like the parser keeps it: a formula's
	 * group that is no group is the parser's warning, not an error, so
	 * that a catalog hvcat check calls valid builds from its dump.
	 */
	(void)cat;
	*out = (uint16_t)n;
	return (0);
}

static int
cj_formula(struct cj *cj, const json_t *o, size_t i)
{
	struct catalog_formula	*fo = &cj->cat->formulas[i];
	uint64_t		 n;
	int			 r;

	catalog_json_value_where(cj, "formulas[%zu]", i);
	fo->index = (uint32_t)i;
	if ((r = catalog_json_value_object(cj, o)) != 0 ||
	    (r = catalog_json_value_keys(cj, o, cj_formula_keys)) != 0 ||
	    (r = catalog_json_value_check_index(cj, o, i)) != 0 ||
	    (r = catalog_json_value_string(cj, o, "name", 1,
	    &fo->name)) != 0 ||
	    (r = catalog_json_value_string(cj, o, "description", 0,
	    &fo->desc)) != 0 ||
	    (r = catalog_json_value_string(cj, o, "formula", 0,
	    &fo->formula)) != 0 ||
	    (r = catalog_json_value_string(cj, o, "unit", 0,
	    &fo->unit)) != 0 ||
	    (r = cj_group_ref(cj, o, "group", &fo->group)) != 0)
		return (r);
	if ((r = catalog_json_value_uint(cj, o, "flags", CJ_U32, &n)) < 0)
		return (r);
	fo->flags = r == 1 ? (uint32_t)n : 0;
	if ((r = catalog_json_value_uint(cj, o, "entry_length",
	    CJ_U16, &n)) < 0)
		return (r);
	fo->entry_length = r == 1 ? (uint16_t)n : 0;
	return (0);
}

static int
cj_formulas(struct cj *cj, const json_t *root)
{
	struct catalog	*cat = cj->cat;
	json_t		*a;
	size_t		 i, n;
	int		 r;

	cj->where[0] = '\0';
	if ((a = catalog_json_value_array(cj, root, "formulas", &r)) ==
	    NULL && r != 0)
		return (r);
	n = a == NULL ? 0 : json_array_size(a);
	cat->nformulas = n;
	cat->formulas = xcalloc(n == 0 ? 1 : n, sizeof *cat->formulas);
	for (i = 0; i < n; i++) {
		if ((r = cj_formula(cj, json_array_get(a, i), i)) != 0)
			return (r);
	}
	cj->fonames = catalog_json_value_names_sort(n, cj_formula_name, cat);
	return (0);
}

/*
 * The first group holding event i and the slot it has there, or NULL;
 * *count is how many groups hold it.
 */
static const struct catalog_group *
cj_event_first(const struct catalog *cat, size_t i, int *slot,
    unsigned *count)
{
	const struct catalog_group *gr, *first = NULL;
	size_t			 g;
	int			 k, held;

	*slot = -1;
	*count = 0;
	for (g = 0; g < cat->ngroups; g++) {
		gr = &cat->groups[g];
		for (k = 0, held = 0; k < gr->event_count; k++) {
			if (gr->events[k] != i)
				continue;
			if (first == NULL) {
				first = gr;
				*slot = k;
			}
			held = 1;
		}
		*count += held;
	}
	return (first);
}

/*
 * An event's record and counter offset, each given, taken from the
 * first group holding it (slot k is COUNTERk+1 of the group's schema),
 * or, for the counter, from the absolute offset; then checked.
 */
static int
cj_event_place(struct cj *cj, size_t i, const struct catalog_group *first,
    int slot)
{
	struct catalog_event	*ev = &cj->cat->events[i];
	unsigned		 given = cj->evgiven[i];
	long			 off;

	if (!(given & CJ_EV_RECORD_OFFSET)) {
		if (first == NULL)
			return (catalog_json_value_fail(cj, HV_EFORMAT,
			    "record_offset",
			    "not given, and no group holds the event"));
		ev->record_offset = first->record_offset;
	}
	if (!(given & CJ_EV_RECORD_LENGTH)) {
		if (first == NULL)
			return (catalog_json_value_fail(cj, HV_EFORMAT,
			    "record_length",
			    "not given, and no group holds the event"));
		ev->record_length = first->record_length;
	}
	if (given & CJ_EV_COUNTER_OFFSET) {
		if ((given & CJ_EV_OFFSET) && cj->evoffset[i] !=
		    (uint32_t)ev->record_offset + ev->counter_offset)
			return (catalog_json_value_fail(cj, HV_ERANGE,
			    "offset",
			    "%u, but record_offset + counter_offset is %u",
			    cj->evoffset[i], (unsigned)ev->record_offset +
			    ev->counter_offset));
	} else if (given & CJ_EV_OFFSET) {
		off = (long)cj->evoffset[i] - ev->record_offset;
		if (off < 0 || off > (long)CJ_U16)
			return (catalog_json_value_fail(cj, HV_ERANGE,
			    "offset",
			    "%u cannot be reached from record_offset %u",
			    cj->evoffset[i], ev->record_offset));
		ev->counter_offset = (uint16_t)off;
	} else if (first == NULL)
		return (catalog_json_value_fail(cj, HV_EFORMAT,
		    "counter_offset",
		    "not given, and no group holds the event"));
	else
		ev->counter_offset = (uint16_t)cj_counter_offset(
		    &cj->cat->schemas[first->schema], (unsigned)slot + 1);
	ev->offset = (uint32_t)ev->record_offset + ev->counter_offset;
	if (ev->record_offset % 8 != 0)
		return (catalog_json_value_fail(cj, HV_ERANGE, "record_offset",
		    "%u is not 8-byte aligned", ev->record_offset));
	if (ev->record_length != 0 && (unsigned)ev->counter_offset +
	    CJ_COUNTER_SIZE > ev->record_length)
		return (catalog_json_value_fail(cj, HV_ERANGE,
		    "counter_offset",
		    "%u: the counter ends after the %u-byte record",
		    ev->counter_offset, ev->record_length));
	return (0);
}

/*
 * Fill in what an event left out from the first group holding it: its
 * record, its counter, how many groups hold it and which is first.
 * Resolve names given for the primary group and the formula.
 */
static int
cj_event_derive(struct cj *cj, size_t i)
{
	struct catalog		*cat = cj->cat;
	struct catalog_event	*ev = &cat->events[i];
	const struct catalog_group *first;
	unsigned		 given = cj->evgiven[i], count;
	size_t			 p;
	int			 slot, r;

	first = cj_event_first(cat, i, &slot, &count);
	catalog_json_value_where(cj, "events[%zu]", i);
	if ((r = cj_event_place(cj, i, first, slot)) != 0)
		return (r);
	if (!(given & CJ_EV_GROUP_COUNT))
		ev->group_count = (uint16_t)count;
	if (cj->evpgroup[i] != NULL) {
		if ((p = catalog_json_value_names_find(cj->grnames,
		    cat->ngroups, json_string_value(cj->evpgroup[i]))) >=
		    cat->ngroups)
			return (catalog_json_value_fail(cj, HV_ENOENT,
			    "primary_group", "no group \"%s\"",
			    json_string_value(cj->evpgroup[i])));
		ev->primary_group = (uint16_t)cj->grnames[p].index;
	} else if (!(given & CJ_EV_PRIMARY_GROUP))
		ev->primary_group = first == NULL ? CATALOG_SLOT_FREE :
		    (uint16_t)first->index;
	if (cj->evformula[i] != NULL) {
		if ((p = catalog_json_value_names_find(cj->fonames,
		    cat->nformulas, json_string_value(cj->evformula[i]))) >=
		    cat->nformulas)
			return (catalog_json_value_fail(cj, HV_ENOENT,
			    "formula_index", "no formula \"%s\"",
			    json_string_value(cj->evformula[i])));
		ev->formula_raw = (uint16_t)cj->fonames[p].index;
	}
	/* Bytes 0x02-0x03 index a formula only when one is there. */
	ev->formula = ev->formula_raw < cat->nformulas ? ev->formula_raw :
	    CATALOG_NONE;
	return (0);
}

static const char *const cj_root_keys[] = {
	"magic", "length_pages", "version", "build_time", "sections",
	"sub_offsets", "events", "groups", "schemas", "formulas", NULL,
};
static const char *const cj_sections_keys[] = {
	"schemas", "events", "groups", "formulas", NULL,
};
static const char *const cj_section_member_keys[] = {
	"page", "pages", "count", NULL,
};

static int
cj_sections(struct cj *cj, const json_t *root)
{
	json_t		*secs, *o;
	uint64_t	 n;
	int		 s, r;

	if ((secs = json_object_get(root, "sections")) == NULL)
		return (0);
	catalog_json_value_where(cj, "sections");
	if ((r = catalog_json_value_object(cj, secs)) != 0 ||
	    (r = catalog_json_value_keys(cj, secs, cj_sections_keys)) != 0)
		return (r);
	for (s = 0; s < CATALOG_NSECTIONS; s++) {
		if ((o = json_object_get(secs,
		    catalog_json_section_keys[s])) == NULL)
			continue;
		catalog_json_value_where(cj, "sections.%s",
		    catalog_json_section_keys[s]);
		if ((r = catalog_json_value_object(cj, o)) != 0 ||
		    (r = catalog_json_value_keys(cj, o,
		    cj_section_member_keys)) != 0)
			return (r);
		if ((r = catalog_json_value_uint(cj, o, "page",
		    CJ_U16, &n)) < 0)
			return (r);
		cj->cat->sections[s].page = r == 1 ? (uint16_t)n : 0;
		if ((r = catalog_json_value_uint(cj, o, "pages",
		    CJ_U16, &n)) < 0)
			return (r);
		cj->cat->sections[s].pages = r == 1 ? (uint16_t)n : 0;
		if ((r = catalog_json_value_uint(cj, o, "count",
		    CJ_U16, &n)) < 0)
			return (r);
		cj->cat->sections[s].count = r == 1 ? (uint16_t)n : 0;
	}
	return (0);
}

static int
cj_header(struct cj *cj, const json_t *root)
{
	struct catalog	*cat = cj->cat;
	json_t		*v;
	uint64_t	 n;
	char		*end;
	size_t		 k;
	int		 r;

	cj->where[0] = '\0';
	if ((r = catalog_json_value_uint(cj, root, "magic", CJ_U32, &n)) < 0)
		return (r);
	cat->magic = r == 1 ? (uint32_t)n : CATALOG_MAGIC;
	if ((r = catalog_json_value_uint(cj, root, "length_pages",
	    CJ_U32, &n)) < 0)
		return (r);
	cat->length_pages = r == 1 ? (uint32_t)n : 0;
	/* JSON integers stop at 2^63; larger versions travel as strings. */
	v = json_object_get(root, "version");
	if (v != NULL && json_is_string(v)) {
		errno = 0;
		cat->version = strtoull(json_string_value(v), &end, 0);
		if (errno != 0 || *end != '\0' || end ==
		    json_string_value(v) || json_string_value(v)[0] == '-')
			return (catalog_json_value_fail(cj, HV_EFORMAT,
			    "version", "\"%s\" is not a number",
			    json_string_value(v)));
	} else if ((r = catalog_json_value_uint(cj, root, "version",
	    INT64_MAX, &n)) < 0)
		return (r);
	else
		cat->version = r == 1 ? n : 0;
	if ((v = json_object_get(root, "build_time")) != NULL) {
		if (!json_is_string(v))
			return (catalog_json_value_fail(cj, HV_EFORMAT,
			    "build_time", "expected a string"));
		if (json_string_length(v) > CJ_BUILD_TIME_LEN ||
		    strlen(json_string_value(v)) != json_string_length(v))
			return (catalog_json_value_fail(cj, HV_ERANGE,
			    "build_time", "at most %d bytes, no NUL",
			    CJ_BUILD_TIME_LEN));
		memcpy(cat->build_time, json_string_value(v),
		    json_string_length(v));
	}
	if ((v = catalog_json_value_array(cj, root, "sub_offsets",
	    &r)) != NULL) {
		if (json_array_size(v) != CJ_NSUB_OFFSETS)
			return (catalog_json_value_fail(cj, HV_EFORMAT,
			    "sub_offsets", "expected %d integers",
			    CJ_NSUB_OFFSETS));
		for (k = 0; k < CJ_NSUB_OFFSETS; k++) {
			if (!json_is_integer(json_array_get(v, k)) ||
			    json_integer_value(json_array_get(v, k)) < 0 ||
			    json_integer_value(json_array_get(v, k)) > CJ_U32)
				return (catalog_json_value_fail(cj, HV_ERANGE,
				    "sub_offsets", "element %zu is not a "
				    "32-bit unsigned integer", k));
			cat->sub_offsets[k] = (uint32_t)json_integer_value(
			    json_array_get(v, k));
		}
	} else if (r != 0)
		return (r);
	return (cj_sections(cj, root));
}

int
catalog_from_json(const json_t *root, struct catalog **out, char **cause)
{
	struct cj	 cj;
	size_t		 i;
	int		 r;

	*out = NULL;
	memset(&cj, 0, sizeof cj);
	cj.cause = cause;
	cj.cat = xcalloc(1, sizeof *cj.cat);
	if ((r = catalog_json_value_object(&cj, root)) != 0 ||
	    (r = catalog_json_value_keys(&cj, root, cj_root_keys)) != 0 ||
	    (r = cj_header(&cj, root)) != 0 ||
	    (r = cj_schemas(&cj, root)) != 0 ||
	    (r = cj_events(&cj, root)) != 0 ||
	    (r = cj_groups(&cj, root)) != 0 ||
	    (r = cj_formulas(&cj, root)) != 0)
		goto done;
	for (i = 0; i < cj.cat->nevents; i++) {
		if ((r = cj_event_derive(&cj, i)) != 0)
			goto done;
	}
	catalog_reindex(cj.cat);
	*out = cj.cat;
	cj.cat = NULL;
done:
	catalog_free(cj.cat);
	free(cj.evnames);
	free(cj.grnames);
	free(cj.fonames);
	free(cj.evgiven);
	free(cj.evoffset);
	free(cj.evpgroup);
	free(cj.evformula);
	return (r);
}
