/*
 * The JSON form of a catalog model.  catalog_to_json() writes every field
 * the image needs to be rebuilt byte for byte; catalog_from_json()
 * (catalog-json-read.c) reads it back, checking types, ranges and
 * cross-references, and fills in what a hand-written source may leave
 * out (lengths, offsets, counts).  The form is described key by key in
 * catalogs/README.md.
 *
 * Pure (jansson, no I/O): the caller reads and writes files.
 *
 * Group slots: "events" lists the group's first event_count slots, an
 * event index (or, on input, an event name) or null for a free slot
 * (0xffff).  Slots after event_count are 0 in real catalogs and are left
 * out; should one hold something else, the list runs on to the last such
 * slot so nothing is lost.  Slots the list does not reach are written 0.
 */
#include "config.h"

#include "catalog/catalog-json.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "catalog/catalog-json-int.h"
#include "util/xalloc.h"

const char *const catalog_json_section_keys[CATALOG_NSECTIONS] = {
	"schemas", "events", "groups", "formulas",
};

/*
 * A JSON string for catalog text.  Catalog strings are bytes; JSON wants
 * UTF-8, so in the (never seen) case of invalid UTF-8 every byte above
 * 0x7f becomes U+FFFD rather than the dump failing.
 */
static json_t *
cj_text(const char *s)
{
	json_t		*v;
	char		*fixed, *q;
	const char	*p;

	if (s == NULL)
		s = "";
	if ((v = json_string(s)) != NULL)
		return (v);
	fixed = xmalloc(strlen(s) * 3 + 1);
	for (p = s, q = fixed; *p != '\0'; p++) {
		if ((unsigned char)*p < 0x80)
			*q++ = *p;
		else {
			memcpy(q, "\xef\xbf\xbd", 3);
			q += 3;
		}
	}
	*q = '\0';
	v = json_string(fixed);
	free(fixed);
	return (v);
}

/*
 * The JSON string for a string of an entry: the bytes as stored, so that
 * the JSON builds the image it came from, when they are UTF-8 (JSON
 * escapes their controls); else the text the model prints.
 */
static json_t *
cj_stored(const char *text, const char *stored)
{
	json_t	*v;

	stored = catalog_text_stored(text, stored);
	if (stored != text && (v = json_string(stored)) != NULL)
		return (v);
	return (cj_text(text));
}

static json_t *
cj_index16(uint16_t v)
{
	return (v == CATALOG_SLOT_FREE ? json_null() : json_integer(v));
}

/*
 * entry_length of groups, schemas and formulas appears only when it is not
 * the canonical one (0 in the model means canonical too).
 */
static void
cj_entry_length(json_t *o, const struct catalog *cat, int sec, size_t i,
    uint16_t stored)
{
	if (stored != 0 && stored != catalog_write_entry_length(cat, sec, i))
		json_object_set_new(o, "entry_length", json_integer(stored));
}

static json_t *
cj_event_json(const struct catalog *cat, size_t i)
{
	const struct catalog_event	*ev = &cat->events[i];
	json_t				*o = json_object();

	json_object_set_new(o, "index", json_integer(ev->index));
	json_object_set_new(o, "name", cj_stored(ev->name, ev->stored[0]));
	json_object_set_new(o, "domain", json_integer(ev->domain));
	json_object_set_new(o, "record_offset",
	    json_integer(ev->record_offset));
	json_object_set_new(o, "record_length",
	    json_integer(ev->record_length));
	json_object_set_new(o, "counter_offset",
	    json_integer(ev->counter_offset));
	json_object_set_new(o, "offset", json_integer(
	    (json_int_t)ev->record_offset + ev->counter_offset));
	json_object_set_new(o, "flags", json_integer(ev->flags));
	json_object_set_new(o, "primary_group",
	    json_integer(ev->primary_group));
	json_object_set_new(o, "group_count", json_integer(ev->group_count));
	/* The bytes as stored: 0 in old catalogs does not mean formula 0. */
	json_object_set_new(o, "formula_index", cj_index16(ev->formula_raw));
	json_object_set_new(o, "description",
	    cj_stored(ev->desc, ev->stored[1]));
	json_object_set_new(o, "long_description",
	    cj_stored(ev->long_desc, ev->stored[2]));
	/* Events always carry it: the length the image has or will have. */
	json_object_set_new(o, "entry_length", json_integer(
	    ev->entry_length != 0 ? ev->entry_length :
	    catalog_write_entry_length(cat, CATALOG_EVENTS, i)));
	return (o);
}


static json_t *
cj_group_json(const struct catalog *cat, size_t i)
{
	const struct catalog_group	*gr = &cat->groups[i];
	json_t				*o = json_object(), *a;
	int				 n, k;

	json_object_set_new(o, "index", json_integer(gr->index));
	json_object_set_new(o, "name", cj_stored(gr->name, gr->stored[0]));
	json_object_set_new(o, "description",
	    cj_stored(gr->desc, gr->stored[1]));
	json_object_set_new(o, "flags", json_integer(gr->flags));
	json_object_set_new(o, "domain", json_integer(gr->domain));
	json_object_set_new(o, "record_offset",
	    json_integer(gr->record_offset));
	json_object_set_new(o, "record_length",
	    json_integer(gr->record_length));
	json_object_set_new(o, "schema", json_integer(gr->schema));
	json_object_set_new(o, "event_count", json_integer(gr->event_count));
	n = gr->event_count < CATALOG_GROUP_SLOTS ? gr->event_count :
	    CATALOG_GROUP_SLOTS;
	for (k = n; k < CATALOG_GROUP_SLOTS; k++) {
		if (gr->events[k] != 0)
			n = k + 1;
	}
	a = json_array();
	for (k = 0; k < n; k++)
		json_array_append_new(a, cj_index16(gr->events[k]));
	json_object_set_new(o, "events", a);
	cj_entry_length(o, cat, CATALOG_GROUPS, i, gr->entry_length);
	return (o);
}

static json_t *
cj_schema_json(const struct catalog *cat, size_t i)
{
	const struct catalog_schema	*sc = &cat->schemas[i];
	json_t				*o = json_object(), *a, *f;
	uint16_t			 k;

	json_object_set_new(o, "index", json_integer(sc->index));
	json_object_set_new(o, "descriptor", json_integer(sc->descriptor));
	json_object_set_new(o, "version", json_integer(sc->version));
	a = json_array();
	for (k = 0; k < sc->nfields; k++) {
		f = json_object();
		json_object_set_new(f, "enum",
		    json_integer(sc->fields[k].field));
		json_object_set_new(f, "name",
		    json_string(catalog_field_name(sc->fields[k].field)));
		json_object_set_new(f, "offset",
		    json_integer(sc->fields[k].offset));
		json_object_set_new(f, "length",
		    json_integer(sc->fields[k].length));
		json_object_set_new(f, "flags",
		    json_integer(sc->fields[k].flags));
		json_array_append_new(a, f);
	}
	json_object_set_new(o, "fields", a);
	cj_entry_length(o, cat, CATALOG_SCHEMAS, i, sc->entry_length);
	return (o);
}

static json_t *
cj_formula_json(const struct catalog *cat, size_t i)
{
	const struct catalog_formula	*fo = &cat->formulas[i];
	json_t				*o = json_object();

	json_object_set_new(o, "index", json_integer(fo->index));
	json_object_set_new(o, "name", cj_stored(fo->name, fo->stored[0]));
	json_object_set_new(o, "description",
	    cj_stored(fo->desc, fo->stored[1]));
	json_object_set_new(o, "formula",
	    cj_stored(fo->formula, fo->stored[2]));
	json_object_set_new(o, "unit", cj_stored(fo->unit, fo->stored[3]));
	json_object_set_new(o, "flags", json_integer(fo->flags));
	json_object_set_new(o, "group", cj_index16(fo->group));
	cj_entry_length(o, cat, CATALOG_FORMULAS, i, fo->entry_length);
	return (o);
}

json_t *
catalog_to_json(const struct catalog *cat)
{
	json_t	*root = json_object(), *secs, *o, *a;
	char	 bt[CJ_BUILD_TIME_LEN + 1], *s;
	size_t	 i;
	int	 k, any;

	json_object_set_new(root, "magic", json_integer(cat->magic));
	json_object_set_new(root, "length_pages",
	    json_integer(cat->length_pages));
	if (cat->version <= INT64_MAX)
		json_object_set_new(root, "version",
		    json_integer((json_int_t)cat->version));
	else {
		s = xasprintf("%" PRIu64, cat->version);
		json_object_set_new(root, "version", json_string(s));
		free(s);
	}
	memcpy(bt, cat->build_time, CJ_BUILD_TIME_LEN);
	bt[CJ_BUILD_TIME_LEN] = '\0';
	json_object_set_new(root, "build_time", cj_text(bt));

	secs = json_object();
	for (k = 0; k < CATALOG_NSECTIONS; k++) {
		o = json_object();
		json_object_set_new(o, "page",
		    json_integer(cat->sections[k].page));
		json_object_set_new(o, "pages",
		    json_integer(cat->sections[k].pages));
		json_object_set_new(o, "count",
		    json_integer(cat->sections[k].count));
		json_object_set_new(secs, catalog_json_section_keys[k], o);
	}
	json_object_set_new(root, "sections", secs);

	/* Proposal v0.16 sub-section offsets: only when a catalog has any. */
	for (k = 0, any = 0; k < CJ_NSUB_OFFSETS; k++)
		any |= cat->sub_offsets[k] != 0;
	if (any) {
		a = json_array();
		for (k = 0; k < CJ_NSUB_OFFSETS; k++)
			json_array_append_new(a,
			    json_integer(cat->sub_offsets[k]));
		json_object_set_new(root, "sub_offsets", a);
	}

	a = json_array();
	for (i = 0; i < cat->nevents; i++)
		json_array_append_new(a, cj_event_json(cat, i));
	json_object_set_new(root, "events", a);
	a = json_array();
	for (i = 0; i < cat->ngroups; i++)
		json_array_append_new(a, cj_group_json(cat, i));
	json_object_set_new(root, "groups", a);
	a = json_array();
	for (i = 0; i < cat->nschemas; i++)
		json_array_append_new(a, cj_schema_json(cat, i));
	json_object_set_new(root, "schemas", a);
	a = json_array();
	for (i = 0; i < cat->nformulas; i++)
		json_array_append_new(a, cj_formula_json(cat, i));
	json_object_set_new(root, "formulas", a);
	return (root);
}
