/*
 * The JSON form of a catalog model.  catalog_to_json() writes every field
 * the image needs to be rebuilt byte for byte; catalog_from_json() reads
 * it back, checking types, ranges and cross-references, and fills in what
 * a hand-written source may leave out (lengths, offsets, counts).  The
 * form is described key by key in catalogs/README.md.
 *
 * Core layer (jansson) but no I/O: the caller reads and writes files.
 * Errors name the JSON path ("groups[3].events[5]: ...") so a mistake in a
 * 1000-event source can be found without a debugger.
 *
 * Group slots: "events" lists the group's first event_count slots, an
 * event index (or, on input, an event name) or null for a free slot
 * (0xffff).  Slots after event_count are 0 in real catalogs and are left
 * out; should one hold something else, the list runs on to the last such
 * slot so nothing is lost.  Slots the list does not reach are written 0.
 */
#include "config.h"

#include "catalog/catalog-json.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "util/hverr.h"
#include "util/xalloc.h"

#define CJ_BUILD_TIME_LEN	16
#define CJ_NSUB_OFFSETS		6
#define CJ_U8			0xffU
#define CJ_U16			0xffffU
#define CJ_U32			0xffffffffU
/* Computed record lengths round up to this (POWER8 uses 64 and 128). */
#define CJ_RECORD_ALIGN		64
#define CJ_COUNTER_SIZE		8

static const char *const cj_section_keys[CATALOG_NSECTIONS] = {
	"schemas", "events", "groups", "formulas",
};

/* ---- model -> JSON ------------------------------------------------ */

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
		json_object_set_new(secs, cj_section_keys[k], o);
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

/* ---- JSON -> model ------------------------------------------------ */

/* A name and where it sits, sorted for lookups by name. */
struct cj_name {
	const char	*name;
	uint32_t	 index;
};

/* What an event entry gave, so the rest can be computed. */
#define CJ_EV_RECORD_OFFSET	0x01
#define CJ_EV_RECORD_LENGTH	0x02
#define CJ_EV_COUNTER_OFFSET	0x04
#define CJ_EV_OFFSET		0x08
#define CJ_EV_PRIMARY_GROUP	0x10
#define CJ_EV_GROUP_COUNT	0x20

struct cj {
	struct catalog	*cat;
	char		**cause;
	char		 where[64];	/* path of the object read */

	struct cj_name	*evnames;
	struct cj_name	*grnames;
	struct cj_name	*fonames;
	unsigned	*evgiven;	/* CJ_EV_* per event */
	uint32_t	*evoffset;	/* "offset" when given */
	const json_t	**evpgroup;	/* primary_group, by name */
	const json_t	**evformula;	/* formula_index, by name */
};

static int
cj_fail(struct cj *cj, int code, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Set *cause to "PATH.KEY: message"; returns -code. */
static int
cj_fail(struct cj *cj, int code, const char *key, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	if (key == NULL)
		*cj->cause = xasprintf("%s: %s",
		    cj->where[0] != '\0' ? cj->where : "top level", msg);
	else if (cj->where[0] == '\0')
		*cj->cause = xasprintf("%s: %s", key, msg);
	else
		*cj->cause = xasprintf("%s.%s: %s", cj->where, key, msg);
	free(msg);
	return (-code);
}

static void
cj_where(struct cj *cj, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
cj_where(struct cj *cj, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	vsnprintf(cj->where, sizeof cj->where, fmt, ap);
	va_end(ap);
}

/* Every key of obj must be one of keys (or "comment"). */
static int
cj_keys(struct cj *cj, const json_t *obj, const char *const *keys)
{
	const char	*key;
	json_t		*v;
	size_t		 i;

	json_object_foreach((json_t *)(uintptr_t)obj, key, v) {
		if (strcmp(key, "comment") == 0)
			continue;
		for (i = 0; keys[i] != NULL; i++) {
			if (strcmp(key, keys[i]) == 0)
				break;
		}
		if (keys[i] == NULL)
			return (cj_fail(cj, HV_EFORMAT, NULL,
			    "unknown key \"%s\"", key));
	}
	return (0);
}

/*
 * An unsigned integer member no larger than max.  Returns 1 when present
 * (*out set), 0 when absent or null, or a negative error.
 */
static int
cj_uint(struct cj *cj, const json_t *obj, const char *key, uint64_t max,
    uint64_t *out)
{
	json_t		*v = json_object_get(obj, key);
	json_int_t	 n;

	*out = 0;
	if (v == NULL || json_is_null(v))
		return (0);
	if (!json_is_integer(v))
		return (cj_fail(cj, HV_EFORMAT, key, "expected an integer"));
	n = json_integer_value(v);
	if (n < 0 || (uint64_t)n > max)
		return (cj_fail(cj, HV_ERANGE, key,
		    "%lld is out of range (0-%" PRIu64 ")", (long long)n, max));
	*out = (uint64_t)n;
	return (1);
}

/* As cj_uint(), but the member must be there. */
static int
cj_need_uint(struct cj *cj, const json_t *obj, const char *key, uint64_t max,
    uint64_t *out)
{
	int	 r;

	if ((r = cj_uint(cj, obj, key, max, out)) == 0)
		return (cj_fail(cj, HV_EFORMAT, key, "missing"));
	return (r < 0 ? r : 0);
}

/*
 * The first C0 or C1 control character or DEL in UTF-8 text s, as its code
 * point << 16 | its byte position (capped), or -1 when there is none.
 */
static int
cj_control(const char *s)
{
	const unsigned char	*p;
	size_t			 at;

	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		at = (size_t)(p - (const unsigned char *)s);
		if (at > 0xffff)
			at = 0xffff;
		if (*p < 0x20 || *p == 0x7f)
			return ((int)(*p << 16 | at));
		if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			return ((int)(p[1] << 16 | at));
	}
	return (-1);
}

/*
 * A string member, copied to *out (caller frees); "" when absent and not
 * required.  Catalog strings are NUL-terminated, so a NUL is refused.
 */
static int
cj_string(struct cj *cj, const json_t *obj, const char *key, int required,
    char **out)
{
	json_t	*v = json_object_get(obj, key);
	int	 bad;

	if (v == NULL) {
		if (required)
			return (cj_fail(cj, HV_EFORMAT, key, "missing"));
		*out = xstrdup("");
		return (0);
	}
	if (!json_is_string(v))
		return (cj_fail(cj, HV_EFORMAT, key, "expected a string"));
	if (strlen(json_string_value(v)) != json_string_length(v))
		return (cj_fail(cj, HV_EFORMAT, key, "contains a NUL"));
	if (required && json_string_length(v) == 0)
		return (cj_fail(cj, HV_EFORMAT, key, "empty"));
	/* Names are printed everywhere; a control character is an attack. */
	if (strcmp(key, "name") == 0 &&
	    (bad = cj_control(json_string_value(v))) >= 0)
		return (cj_fail(cj, HV_EFORMAT, key, "holds the control "
		    "character U+%04X at byte %d", (unsigned)bad >> 16,
		    bad & 0xffff));
	*out = xstrdup(json_string_value(v));
	return (0);
}

static int
cj_name_cmp(const void *a, const void *b)
{
	const struct cj_name	*x = a, *y = b;
	int			 c;

	if ((c = strcmp(x->name, y->name)) != 0)
		return (c);
	return (x->index < y->index ? -1 : x->index > y->index);
}

static struct cj_name *
cj_names_sort(size_t n, const char *(*get)(const struct catalog *, size_t),
    const struct catalog *cat)
{
	struct cj_name	*v;
	size_t		 i;

	v = xcalloc(n == 0 ? 1 : n, sizeof *v);
	for (i = 0; i < n; i++) {
		v[i].name = get(cat, i);
		v[i].index = (uint32_t)i;
	}
	qsort(v, n, sizeof *v, cj_name_cmp);
	return (v);
}

/* The first position in the sorted v whose name is name, or n. */
static size_t
cj_names_find(const struct cj_name *v, size_t n, const char *name)
{
	size_t	 lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (strcmp(v[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (lo < n && strcmp(v[lo].name, name) == 0 ? lo : n);
}

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

/* The index member, when given, must say where the entry is. */
static int
cj_check_index(struct cj *cj, const json_t *o, size_t i)
{
	uint64_t	 v;
	int		 r;

	if ((r = cj_uint(cj, o, "index", CJ_U32, &v)) < 0)
		return (r);
	if (r == 1 && v != i)
		return (cj_fail(cj, HV_ERANGE, "index", "%" PRIu64 ", but the "
		    "entry is number %zu of its list", v, i));
	return (0);
}

/* The array member key, or NULL with *error set when it is not one. */
static json_t *
cj_array(struct cj *cj, const json_t *obj, const char *key, int *error)
{
	json_t	*v = json_object_get(obj, key);

	*error = 0;
	if (v == NULL)
		return (NULL);
	if (!json_is_array(v)) {
		*error = cj_fail(cj, HV_EFORMAT, key, "expected an array");
		return (NULL);
	}
	return (v);
}

static int
cj_object(struct cj *cj, const json_t *v)
{
	if (!json_is_object(v))
		return (cj_fail(cj, HV_EFORMAT, NULL, "expected an object"));
	return (0);
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

	cj_where(cj, "schemas[%zu].fields[%zu]", s, k);
	if ((r = cj_object(cj, o)) != 0 || (r = cj_keys(cj, o,
	    cj_field_keys)) != 0)
		return (r);
	if ((r = cj_uint(cj, o, "enum", CJ_U16, &n)) < 0)
		return (r);
	v = json_object_get(o, "name");
	if (v != NULL && !json_is_string(v))
		return (cj_fail(cj, HV_EFORMAT, "name", "expected a string"));
	if (r == 1) {
		/* The name is a reader's aid; "?" is an enum without one. */
		f->field = (uint16_t)n;
		if (v != NULL && strcmp(json_string_value(v), "?") != 0 &&
		    strcmp(json_string_value(v),
		    catalog_field_name(f->field)) != 0)
			return (cj_fail(cj, HV_ERANGE, "name", "\"%s\", but "
			    "enum %u is %s", json_string_value(v), f->field,
			    catalog_field_name(f->field)));
	} else if (v == NULL)
		return (cj_fail(cj, HV_EFORMAT, "enum", "missing"));
	else if ((e = cj_field_enum(json_string_value(v))) < 0)
		return (cj_fail(cj, HV_ENOENT, "name", "no field is called "
		    "\"%s\"", json_string_value(v)));
	else
		f->field = (uint16_t)e;
	/* A field left without offset follows the one before. */
	if ((r = cj_uint(cj, o, "offset", CJ_U16, &n)) < 0)
		return (r);
	if (r == 1)
		f->offset = (uint16_t)n;
	else if (*next > CJ_U16)
		return (cj_fail(cj, HV_ERANGE, "offset", "%u would not fit",
		    *next));
	else
		f->offset = (uint16_t)*next;
	f->length = CJ_COUNTER_SIZE;
	if ((r = cj_uint(cj, o, "length", CJ_U16, &n)) < 0)
		return (r);
	if (r == 1)
		f->length = (uint16_t)n;
	if ((r = cj_uint(cj, o, "flags", CJ_U16, &n)) < 0)
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
	if ((a = cj_array(cj, root, "schemas", &r)) == NULL)
		return (r);
	cat->nschemas = json_array_size(a);
	if (cat->nschemas > CJ_U8 + 1U) {
		/* Groups name their schema in one byte. */
		return (cj_fail(cj, HV_ELIMIT, "schemas", "%zu schemas, more "
		    "than a group can name (256)", cat->nschemas));
	}
	cat->schemas = xcalloc(cat->nschemas == 0 ? 1 : cat->nschemas,
	    sizeof *cat->schemas);
	for (i = 0; i < cat->nschemas; i++) {
		sc = &cat->schemas[i];
		sc->index = (uint32_t)i;
		o = json_array_get(a, i);
		cj_where(cj, "schemas[%zu]", i);
		if ((r = cj_object(cj, o)) != 0 ||
		    (r = cj_keys(cj, o, cj_schema_keys)) != 0 ||
		    (r = cj_check_index(cj, o, i)) != 0)
			return (r);
		sc->descriptor = (uint16_t)i;
		if ((r = cj_uint(cj, o, "descriptor", CJ_U16, &n)) < 0)
			return (r);
		if (r == 1)
			sc->descriptor = (uint16_t)n;
		sc->version = 1;
		if ((r = cj_uint(cj, o, "version", CJ_U16, &n)) < 0)
			return (r);
		if (r == 1)
			sc->version = (uint16_t)n;
		if ((r = cj_uint(cj, o, "entry_length", CJ_U16, &n)) < 0)
			return (r);
		if (r == 1)
			sc->entry_length = (uint16_t)n;
		if ((fa = cj_array(cj, o, "fields", &r)) == NULL)
			return (r != 0 ? r : cj_fail(cj, HV_EFORMAT, "fields",
			    "missing"));
		if (json_array_size(fa) > CJ_U16)
			return (cj_fail(cj, HV_ELIMIT, "fields", "too many"));
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

	if ((r = cj_need_uint(cj, o, "domain", CJ_U8, &n)) != 0)
		return (r);
	if (n == 0 || n >= CATALOG_DOMAIN_MAX)
		return (cj_fail(cj, HV_ERANGE, "domain", "%" PRIu64 " is not "
		    "a domain (1-%d)", n, CATALOG_DOMAIN_MAX - 1));
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

	if ((r = cj_uint(cj, o, key, CJ_U16, &n)) < 0)
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

	cj_where(cj, "events[%zu]", i);
	ev->index = (uint32_t)i;
	if ((r = cj_object(cj, o)) != 0 ||
	    (r = cj_keys(cj, o, cj_event_keys)) != 0 ||
	    (r = cj_check_index(cj, o, i)) != 0 ||
	    (r = cj_string(cj, o, "name", 1, &ev->name)) != 0 ||
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
	    (r = cj_string(cj, o, "description", 0, &ev->desc)) != 0 ||
	    (r = cj_string(cj, o, "long_description", 0,
	    &ev->long_desc)) != 0)
		return (r);
	if ((r = cj_uint(cj, o, "offset", 2 * CJ_U16, &n)) < 0)
		return (r);
	if (r == 1) {
		cj->evoffset[i] = (uint32_t)n;
		cj->evgiven[i] |= CJ_EV_OFFSET;
	}
	if ((r = cj_uint(cj, o, "flags", CJ_U32, &n)) < 0)
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
	else if ((r = cj_uint(cj, o, "formula_index", CJ_U16, &n)) < 0)
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
	if ((a = cj_array(cj, root, "events", &r)) == NULL && r != 0)
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
	cj->evnames = cj_names_sort(n, cj_event_name, cat);
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
		p = cj_names_find(cj->evnames, n, json_string_value(v));
		for (; p < n && strcmp(cj->evnames[p].name,
		    json_string_value(v)) == 0; p++) {
			if (cat->events[cj->evnames[p].index].domain == domain)
				break;
		}
		if (p >= n || strcmp(cj->evnames[p].name,
		    json_string_value(v)) != 0)
			return (cj_fail(cj, HV_ENOENT, key, "no event \"%s\" "
			    "in domain %u", json_string_value(v), domain));
		*out = (uint16_t)cj->evnames[p].index;
		return (0);
	}
	if (!json_is_integer(v))
		return (cj_fail(cj, HV_EFORMAT, key, "expected an event index, "
		    "an event name or null"));
	x = json_integer_value(v);
	if (x < 0 || (uint64_t)x >= n || x >= CATALOG_SLOT_FREE)
		return (cj_fail(cj, HV_ERANGE, key, "%lld is not an event "
		    "(there are %zu)", (long long)x, n));
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

	if ((r = cj_uint(cj, o, "record_length", CJ_U16, &n)) < 0)
		return (r);
	if (r == 1)
		gr->record_length = (uint16_t)n;
	else if ((n = cj_schema_record_length(sc)) == 0 || n > CJ_U16)
		return (cj_fail(cj, HV_EFORMAT, "record_length", "not given, "
		    "and schema %u gives no length", gr->schema));
	else
		gr->record_length = (uint16_t)n;
	/* A group left without offset follows the one before it. */
	if ((r = cj_uint(cj, o, "record_offset", CJ_U16, &n)) < 0)
		return (r);
	if (r == 1)
		gr->record_offset = (uint16_t)n;
	else if (next[gr->domain] > CJ_U16)
		return (cj_fail(cj, HV_ERANGE, "record_offset", "the next free "
		    "offset, %u, does not fit", next[gr->domain]));
	else
		gr->record_offset = (uint16_t)next[gr->domain];
	if (gr->record_offset % 8 != 0)
		return (cj_fail(cj, HV_ERANGE, "record_offset", "%u is not "
		    "8-byte aligned", gr->record_offset));
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

	if ((a = cj_array(cj, o, "events", &r)) == NULL)
		return (r != 0 ? r : cj_fail(cj, HV_EFORMAT, "events",
		    "missing"));
	nslots = json_array_size(a);
	if (nslots > CATALOG_GROUP_SLOTS)
		return (cj_fail(cj, HV_ELIMIT, "events", "%zu slots, but a "
		    "group has %d", nslots, CATALOG_GROUP_SLOTS));
	if ((r = cj_uint(cj, o, "event_count", CATALOG_GROUP_SLOTS, &n)) < 0)
		return (r);
	if (r == 0)
		n = nslots;
	else if (n > nslots)
		return (cj_fail(cj, HV_ERANGE, "event_count", "%" PRIu64 ", "
		    "but \"events\" lists %zu slots", n, nslots));
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
			return (cj_fail(cj, HV_ERANGE, key, "event %u (%s) is "
			    "in domain %u, the group in domain %u",
			    gr->events[k], ev->name, ev->domain, gr->domain));
		/* Slot k is counter k+1 of the group's record. */
		if (cj_counter_offset(sc, (unsigned)k + 1) < 0)
			return (cj_fail(cj, HV_ERANGE, key, "schema %u has no "
			    "COUNTER%zu field for this slot", gr->schema,
			    k + 1));
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

	cj_where(cj, "groups[%zu]", i);
	gr->index = (uint32_t)i;
	if ((r = cj_object(cj, o)) != 0 ||
	    (r = cj_keys(cj, o, cj_group_keys)) != 0 ||
	    (r = cj_check_index(cj, o, i)) != 0 ||
	    (r = cj_string(cj, o, "name", 1, &gr->name)) != 0 ||
	    (r = cj_string(cj, o, "description", 0, &gr->desc)) != 0 ||
	    (r = cj_domain(cj, o, &gr->domain)) != 0)
		return (r);
	if ((r = cj_uint(cj, o, "flags", CJ_U32, &n)) < 0)
		return (r);
	gr->flags = r == 1 ? (uint32_t)n : 0;
	if ((r = cj_uint(cj, o, "entry_length", CJ_U16, &n)) < 0)
		return (r);
	gr->entry_length = r == 1 ? (uint16_t)n : 0;
	if ((r = cj_need_uint(cj, o, "schema", CJ_U8, &n)) != 0)
		return (r);
	if (n >= cat->nschemas)
		return (cj_fail(cj, HV_ERANGE, "schema", "%" PRIu64 ", but "
		    "there are %zu schemas", n, cat->nschemas));
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
	if ((a = cj_array(cj, root, "groups", &r)) == NULL && r != 0)
		return (r);
	n = a == NULL ? 0 : json_array_size(a);
	cat->ngroups = n;
	cat->groups = xcalloc(n == 0 ? 1 : n, sizeof *cat->groups);
	for (i = 0; i < n; i++) {
		if ((r = cj_group(cj, json_array_get(a, i), i, next)) != 0)
			return (r);
	}
	cj->grnames = cj_names_sort(n, cj_group_name, cat);
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
		p = cj_names_find(cj->grnames, cat->ngroups,
		    json_string_value(v));
		if (p >= cat->ngroups)
			return (cj_fail(cj, HV_ENOENT, key, "no group \"%s\"",
			    json_string_value(v)));
		*out = (uint16_t)cj->grnames[p].index;
		return (0);
	}
	if ((r = cj_uint(cj, o, key, CJ_U16, &n)) < 0)
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

	cj_where(cj, "formulas[%zu]", i);
	fo->index = (uint32_t)i;
	if ((r = cj_object(cj, o)) != 0 ||
	    (r = cj_keys(cj, o, cj_formula_keys)) != 0 ||
	    (r = cj_check_index(cj, o, i)) != 0 ||
	    (r = cj_string(cj, o, "name", 1, &fo->name)) != 0 ||
	    (r = cj_string(cj, o, "description", 0, &fo->desc)) != 0 ||
	    (r = cj_string(cj, o, "formula", 0, &fo->formula)) != 0 ||
	    (r = cj_string(cj, o, "unit", 0, &fo->unit)) != 0 ||
	    (r = cj_group_ref(cj, o, "group", &fo->group)) != 0)
		return (r);
	if ((r = cj_uint(cj, o, "flags", CJ_U32, &n)) < 0)
		return (r);
	fo->flags = r == 1 ? (uint32_t)n : 0;
	if ((r = cj_uint(cj, o, "entry_length", CJ_U16, &n)) < 0)
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
	if ((a = cj_array(cj, root, "formulas", &r)) == NULL && r != 0)
		return (r);
	n = a == NULL ? 0 : json_array_size(a);
	cat->nformulas = n;
	cat->formulas = xcalloc(n == 0 ? 1 : n, sizeof *cat->formulas);
	for (i = 0; i < n; i++) {
		if ((r = cj_formula(cj, json_array_get(a, i), i)) != 0)
			return (r);
	}
	cj->fonames = cj_names_sort(n, cj_formula_name, cat);
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
			return (cj_fail(cj, HV_EFORMAT, "record_offset", "not "
			    "given, and no group holds the event"));
		ev->record_offset = first->record_offset;
	}
	if (!(given & CJ_EV_RECORD_LENGTH)) {
		if (first == NULL)
			return (cj_fail(cj, HV_EFORMAT, "record_length", "not "
			    "given, and no group holds the event"));
		ev->record_length = first->record_length;
	}
	if (given & CJ_EV_COUNTER_OFFSET) {
		if ((given & CJ_EV_OFFSET) && cj->evoffset[i] !=
		    (uint32_t)ev->record_offset + ev->counter_offset)
			return (cj_fail(cj, HV_ERANGE, "offset", "%u, but "
			    "record_offset + counter_offset is %u",
			    cj->evoffset[i],
			    (unsigned)ev->record_offset + ev->counter_offset));
	} else if (given & CJ_EV_OFFSET) {
		off = (long)cj->evoffset[i] - ev->record_offset;
		if (off < 0 || off > (long)CJ_U16)
			return (cj_fail(cj, HV_ERANGE, "offset", "%u cannot be "
			    "reached from record_offset %u", cj->evoffset[i],
			    ev->record_offset));
		ev->counter_offset = (uint16_t)off;
	} else if (first == NULL)
		return (cj_fail(cj, HV_EFORMAT, "counter_offset", "not given, "
		    "and no group holds the event"));
	else
		ev->counter_offset = (uint16_t)cj_counter_offset(
		    &cj->cat->schemas[first->schema], (unsigned)slot + 1);
	ev->offset = (uint32_t)ev->record_offset + ev->counter_offset;
	if (ev->record_offset % 8 != 0)
		return (cj_fail(cj, HV_ERANGE, "record_offset", "%u is not "
		    "8-byte aligned", ev->record_offset));
	if (ev->record_length != 0 && (unsigned)ev->counter_offset +
	    CJ_COUNTER_SIZE > ev->record_length)
		return (cj_fail(cj, HV_ERANGE, "counter_offset", "%u: the "
		    "counter ends after the %u-byte record",
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
	cj_where(cj, "events[%zu]", i);
	if ((r = cj_event_place(cj, i, first, slot)) != 0)
		return (r);
	if (!(given & CJ_EV_GROUP_COUNT))
		ev->group_count = (uint16_t)count;
	if (cj->evpgroup[i] != NULL) {
		if ((p = cj_names_find(cj->grnames, cat->ngroups,
		    json_string_value(cj->evpgroup[i]))) >= cat->ngroups)
			return (cj_fail(cj, HV_ENOENT, "primary_group", "no "
			    "group \"%s\"",
			    json_string_value(cj->evpgroup[i])));
		ev->primary_group = (uint16_t)cj->grnames[p].index;
	} else if (!(given & CJ_EV_PRIMARY_GROUP))
		ev->primary_group = first == NULL ? CATALOG_SLOT_FREE :
		    (uint16_t)first->index;
	if (cj->evformula[i] != NULL) {
		if ((p = cj_names_find(cj->fonames, cat->nformulas,
		    json_string_value(cj->evformula[i]))) >= cat->nformulas)
			return (cj_fail(cj, HV_ENOENT, "formula_index", "no "
			    "formula \"%s\"",
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
	cj_where(cj, "sections");
	if ((r = cj_object(cj, secs)) != 0 ||
	    (r = cj_keys(cj, secs, cj_sections_keys)) != 0)
		return (r);
	for (s = 0; s < CATALOG_NSECTIONS; s++) {
		if ((o = json_object_get(secs, cj_section_keys[s])) == NULL)
			continue;
		cj_where(cj, "sections.%s", cj_section_keys[s]);
		if ((r = cj_object(cj, o)) != 0 ||
		    (r = cj_keys(cj, o, cj_section_member_keys)) != 0)
			return (r);
		if ((r = cj_uint(cj, o, "page", CJ_U16, &n)) < 0)
			return (r);
		cj->cat->sections[s].page = r == 1 ? (uint16_t)n : 0;
		if ((r = cj_uint(cj, o, "pages", CJ_U16, &n)) < 0)
			return (r);
		cj->cat->sections[s].pages = r == 1 ? (uint16_t)n : 0;
		if ((r = cj_uint(cj, o, "count", CJ_U16, &n)) < 0)
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
	if ((r = cj_uint(cj, root, "magic", CJ_U32, &n)) < 0)
		return (r);
	cat->magic = r == 1 ? (uint32_t)n : CATALOG_MAGIC;
	if ((r = cj_uint(cj, root, "length_pages", CJ_U32, &n)) < 0)
		return (r);
	cat->length_pages = r == 1 ? (uint32_t)n : 0;
	/* JSON integers stop at 2^63; larger versions travel as strings. */
	v = json_object_get(root, "version");
	if (v != NULL && json_is_string(v)) {
		errno = 0;
		cat->version = strtoull(json_string_value(v), &end, 0);
		if (errno != 0 || *end != '\0' || end ==
		    json_string_value(v) || json_string_value(v)[0] == '-')
			return (cj_fail(cj, HV_EFORMAT, "version", "\"%s\" is "
			    "not a number", json_string_value(v)));
	} else if ((r = cj_uint(cj, root, "version", INT64_MAX, &n)) < 0)
		return (r);
	else
		cat->version = r == 1 ? n : 0;
	if ((v = json_object_get(root, "build_time")) != NULL) {
		if (!json_is_string(v))
			return (cj_fail(cj, HV_EFORMAT, "build_time",
			    "expected a string"));
		if (json_string_length(v) > CJ_BUILD_TIME_LEN ||
		    strlen(json_string_value(v)) != json_string_length(v))
			return (cj_fail(cj, HV_ERANGE, "build_time", "at most "
			    "%d bytes, no NUL", CJ_BUILD_TIME_LEN));
		memcpy(cat->build_time, json_string_value(v),
		    json_string_length(v));
	}
	if ((v = cj_array(cj, root, "sub_offsets", &r)) != NULL) {
		if (json_array_size(v) != CJ_NSUB_OFFSETS)
			return (cj_fail(cj, HV_EFORMAT, "sub_offsets",
			    "expected %d integers", CJ_NSUB_OFFSETS));
		for (k = 0; k < CJ_NSUB_OFFSETS; k++) {
			if (!json_is_integer(json_array_get(v, k)) ||
			    json_integer_value(json_array_get(v, k)) < 0 ||
			    json_integer_value(json_array_get(v, k)) > CJ_U32)
				return (cj_fail(cj, HV_ERANGE, "sub_offsets",
				    "element %zu is not a 32-bit unsigned "
				    "integer", k));
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
	if ((r = cj_object(&cj, root)) != 0 ||
	    (r = cj_keys(&cj, root, cj_root_keys)) != 0 ||
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
