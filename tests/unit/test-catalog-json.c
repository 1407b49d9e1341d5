/*
 * Unit tests for the JSON form of a catalog: model -> JSON -> model ->
 * bytes gives the bytes back (the real POWER8 catalog included), a
 * hand-written source gets its lengths and offsets computed, and bad
 * sources are refused with a cause naming the JSON path.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "catalog/catalog-json.h"
#include "catalog/catalog.h"
#include "util/hverr.h"
#include "util/xalloc.h"

#include "fixture.h"

/* JSON written with ' for " so the sources below stay readable. */
static json_t *
jq(const char *text)
{
	json_error_t	 jerr;
	json_t		*v;
	char		*s, *p;

	s = xstrdup(text);
	for (p = s; *p != '\0'; p++) {
		if (*p == '\'')
			*p = '"';
	}
	if ((v = json_loads(s, JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL,
	    &jerr)) == NULL)
		fail_msg("bad test JSON (%s): %s", jerr.text, s);
	free(s);
	return (v);
}

static struct catalog *
from_ok(const char *text)
{
	struct catalog	*cat;
	json_t		*v = jq(text);
	char		*cause = NULL;

	if (catalog_from_json(v, &cat, &cause) != 0)
		fail_msg("catalog_from_json: %s", cause);
	json_decref(v);
	return (cat);
}

/* A core schema with COUNTER1-4 after three 8-byte header fields. */
#define SCHEMA0 \
	"{'fields': [{'name': 'TIMEBASE_UPDATE'}, {'enum': 50}, " \
	"{'enum': 51}, {'enum': 1}, {'enum': 2}, {'enum': 3}, " \
	"{'enum': 4}, {'enum': 54, 'length': 2}, {'enum': 49, " \
	"'length': 6}]}"

/*
 * The shortest useful source: everything about where events live comes
 * from their group and its schema.
 */
static const char minimal[] =
    "{'version': 9, 'build_time': '20260101000000',"
    " 'schemas': [" SCHEMA0 "],"
    " 'events': ["
    "  {'name': 'CPM_CYC', 'domain': 2, 'formula_index': 'CPI'},"
    "  {'name': 'CPM_INST', 'domain': 2},"
    "  {'name': 'CPM_OTHER', 'domain': 2, 'description': 'second group'},"
    "  {'name': 'PM_CHIP', 'domain': 1, 'record_offset': 0,"
    "   'record_length': 0, 'offset': 0}],"
    " 'groups': ["
    "  {'name': 'G0', 'domain': 2, 'schema': 0,"
    "   'events': ['CPM_CYC', 'CPM_INST', null]},"
    "  {'name': 'G1', 'domain': 2, 'schema': 0,"
    "   'events': [2, 'CPM_CYC']}],"
    " 'formulas': [{'name': 'CPI', 'formula': 'CPM_CYC / CPM_INST',"
    "  'group': 'G0', 'flags': 4}]}";

static void
test_json_computed(void **state)
{
	struct catalog		*cat, *back;
	const struct catalog_schema *sc;
	void			*buf;
	char			*cause = NULL;
	size_t			 len, i;

	(void)state;
	cat = from_ok(minimal);
	sc = &cat->schemas[0];
	assert_int_equal(sc->descriptor, 0);
	assert_int_equal(sc->version, 1);
	assert_int_equal(sc->fields[0].field, 48);
	assert_int_equal(sc->fields[3].offset, 24);	/* after three */
	assert_int_equal(sc->fields[8].offset, 58);
	/* Records: the schema's 64 bytes, one after the other. */
	assert_int_equal(cat->groups[0].record_length, 64);
	assert_int_equal(cat->groups[0].record_offset, 0);
	assert_int_equal(cat->groups[1].record_offset, 64);
	assert_int_equal(cat->groups[0].event_count, 3);
	assert_int_equal(cat->groups[0].events[2], CATALOG_SLOT_FREE);
	assert_int_equal(cat->groups[0].events[3], 0);
	/* Slot k is COUNTERk+1; the first group holding an event wins. */
	assert_int_equal(cat->events[0].record_offset, 0);
	assert_int_equal(cat->events[0].counter_offset, 24);
	assert_int_equal(cat->events[0].group_count, 2);
	assert_int_equal(cat->events[0].primary_group, 0);
	assert_int_equal(cat->events[1].offset, 32);
	assert_int_equal(cat->events[2].offset, 64 + 24);
	assert_int_equal(cat->events[2].primary_group, 1);
	assert_int_equal(cat->events[3].primary_group, CATALOG_SLOT_FREE);
	assert_int_equal(cat->events[3].group_count, 0);
	assert_int_equal(cat->events[0].formula, 0);
	assert_int_equal(cat->events[0].formula_raw, 0);
	assert_int_equal(cat->events[1].formula, CATALOG_NONE);
	assert_int_equal(cat->events[1].formula_raw, 0xffff);
	assert_int_equal(cat->formulas[0].group, 0);
	assert_int_equal(cat->magic, CATALOG_MAGIC);
	/* The model is indexed like a parsed one. */
	assert_non_null(catalog_find_event(cat, "CPM_INST", 2));
	assert_non_null(catalog_find_group(cat, "G1"));
	/* Guessed: with domains 1 and 2 only, it looks like POWER8. */
	assert_int_equal(cat->interface, 1);

	if (catalog_write(cat, &buf, &len, &cause) != 0)
		fail_msg("catalog_write: %s", cause);
	assert_int_equal(catalog_parse(buf, len, 0, &back, &cause), 0);
	for (i = 0; i < back->ndiags; i++)
		print_message("# 0x%zx: %s\n", back->diags[i].offset,
		    back->diags[i].msg);
	assert_int_equal(back->ndiags, 0);
	assert_int_equal(back->nevents, 4);
	assert_int_equal(back->events[2].offset, 88);
	catalog_free(back);
	catalog_free(cat);
	free(buf);
}

/* model -> JSON -> model -> bytes == model -> bytes. */
static void
roundtrip_bytes(const struct catalog *cat, const void *want, size_t wlen)
{
	struct catalog	*back;
	json_t		*j, *again;
	void		*buf;
	char		*text, *cause = NULL;
	size_t		 len;

	j = catalog_to_json(cat);
	/* Through text, as hvcat dump and hvcat build meet. */
	text = json_dumps(j, JSON_INDENT(1));
	again = json_loads(text, JSON_REJECT_DUPLICATES, NULL);
	assert_non_null(again);
	if (catalog_from_json(again, &back, &cause) != 0)
		fail_msg("catalog_from_json: %s", cause);
	if (catalog_write(back, &buf, &len, &cause) != 0)
		fail_msg("catalog_write: %s", cause);
	assert_int_equal(len, wlen);
	assert_memory_equal(buf, want, len);
	free(buf);
	free(text);
	json_decref(again);
	json_decref(j);
	catalog_free(back);
}

static void
test_json_roundtrip_built(void **state)
{
	struct catalog	*cat;
	void		*buf;
	char		*cause = NULL;
	size_t		 len;

	(void)state;
	cat = from_ok(minimal);
	/* Odd corners the form must carry. */
	cat->version = UINT64_MAX;
	cat->groups[1].events[5] = 3;		/* after event_count */
	cat->groups[1].entry_length = 0x100;	/* not canonical */
	cat->sub_offsets[0] = 0x10;
	cat->events[3].formula_raw = 7;		/* no such formula */
	cat->events[3].formula = CATALOG_NONE;
	if (catalog_write(cat, &buf, &len, &cause) != 0)
		fail_msg("catalog_write: %s", cause);
	roundtrip_bytes(cat, buf, len);
	free(buf);
	catalog_free(cat);
}

static void
test_json_shape(void **state)
{
	struct catalog	*cat;
	json_t		*j, *g, *ev;

	(void)state;
	cat = from_ok(minimal);
	cat->groups[1].events[5] = 3;
	cat->version = UINT64_MAX;
	j = catalog_to_json(cat);
	assert_string_equal(json_string_value(json_object_get(j, "version")),
	    "18446744073709551615");
	assert_null(json_object_get(j, "sub_offsets"));
	g = json_array_get(json_object_get(j, "groups"), 0);
	/* Free slots are null; slots past event_count are left out. */
	assert_int_equal(json_array_size(json_object_get(g, "events")), 3);
	assert_true(json_is_null(json_array_get(json_object_get(g, "events"),
	    2)));
	assert_null(json_object_get(g, "entry_length"));
	g = json_array_get(json_object_get(j, "groups"), 1);
	assert_int_equal(json_array_size(json_object_get(g, "events")), 6);
	ev = json_array_get(json_object_get(j, "events"), 1);
	assert_true(json_is_null(json_object_get(ev, "formula_index")));
	assert_int_equal(json_integer_value(json_object_get(ev, "offset")),
	    32);
	assert_string_equal(json_string_value(json_object_get(json_array_get(
	    json_object_get(json_array_get(json_object_get(j, "schemas"), 0),
	    "fields"), 3), "name")), "COUNTER1");
	json_decref(j);
	catalog_free(cat);
}

/* Catalog text that is not UTF-8 still dumps. */
static void
test_json_not_utf8(void **state)
{
	struct catalog	*cat;
	json_t		*j, *ev;

	(void)state;
	cat = from_ok(minimal);
	free(cat->events[1].desc);
	cat->events[1].desc = xstrdup("bad \xff byte");
	j = catalog_to_json(cat);
	ev = json_array_get(json_object_get(j, "events"), 1);
	assert_string_equal(json_string_value(json_object_get(ev,
	    "description")), "bad \xef\xbf\xbd byte");
	json_decref(j);
	catalog_free(cat);
}

static void
test_json_p8_v3(void **state)
{
	struct catalog	*cat;
	uint8_t		*orig;
	size_t		 olen;
	char		*cause;

	(void)state;
	orig = fixture_read(FIXTURE_P8, &olen);
	assert_int_equal(catalog_parse(orig, olen, 1, &cat, &cause), 0);
	assert_int_equal(cat->nerrors, 0);
	roundtrip_bytes(cat, orig, olen);
	catalog_free(cat);
	free(orig);
}

/* One bad source and the start of the cause it must give. */
struct bad_case {
	int		 code;
	const char	*json;
	const char	*cause;
};

#define EV1	"'events': [{'name': 'A', 'domain': 1, 'record_offset': 0," \
		" 'record_length': 128, 'counter_offset': 24}]"
#define SC1	"'schemas': [" SCHEMA0 "]"

static const struct bad_case bad_cases[] = {
	{ HV_EFORMAT, "[]", "top level: expected an object" },
	{ HV_EFORMAT, "{'bogus': 1}", "top level: unknown key \"bogus\"" },
	{ HV_EFORMAT, "{'events': {}}", "events: expected an array" },
	{ HV_EFORMAT, "{'events': [7]}", "events[0]: expected an object" },
	{ HV_EFORMAT, "{'events': [{'name': 5, 'domain': 1}]}",
	    "events[0].name: expected a string" },
	{ HV_EFORMAT, "{'events': [{'domain': 1}]}",
	    "events[0].name: missing" },
	{ HV_EFORMAT, "{'events': [{'name': '', 'domain': 1}]}",
	    "events[0].name: empty" },
	{ HV_EFORMAT, "{'events': [{'name': 'A\\u0000B', 'domain': 1}]}",
	    "events[0].name: contains a NUL" },
	{ HV_EFORMAT, "{'events': [{'name': 'A'}]}",
	    "events[0].domain: missing" },
	{ HV_ERANGE, "{'events': [{'name': 'A', 'domain': 7}]}",
	    "events[0].domain: 7 is not a domain (1-6)" },
	{ HV_ERANGE, "{'events': [{'name': 'A', 'domain': 1,"
	    " 'record_offset': 70000}]}",
	    "events[0].record_offset: 70000 is out of range (0-65535)" },
	{ HV_EFORMAT, "{'events': [{'name': 'A', 'domain': 1,"
	    " 'flags': 1.5}]}", "events[0].flags: expected an integer" },
	{ HV_EFORMAT, "{'events': [{'name': 'A', 'domain': 1, 'nmae': 1}]}",
	    "events[0]: unknown key \"nmae\"" },
	{ HV_ERANGE, "{'events': [{'index': 0, 'name': 'A', 'domain': 1},"
	    " {'index': 5, 'name': 'B', 'domain': 1}]}",
	    "events[1].index: 5, but the entry is number 1 of its list" },
	{ HV_EFORMAT, "{'events': [{'name': 'A', 'domain': 1}]}",
	    "events[0].record_offset: not given, and no group holds" },
	{ HV_ERANGE, "{'events': [{'name': 'A', 'domain': 1,"
	    " 'record_offset': 8, 'record_length': 64, 'counter_offset': 8,"
	    " 'offset': 24}]}",
	    "events[0].offset: 24, but record_offset + counter_offset is 16" },
	{ HV_ERANGE, "{'events': [{'name': 'A', 'domain': 1,"
	    " 'record_offset': 12, 'record_length': 64, 'counter_offset': 8}]}",
	    "events[0].record_offset: 12 is not 8-byte aligned" },
	{ HV_ERANGE, "{'events': [{'name': 'A', 'domain': 1,"
	    " 'record_offset': 0, 'record_length': 64, 'counter_offset': 64}]}",
	    "events[0].counter_offset: 64: the counter ends after the 64-byte "
	    "record" },
	{ HV_ERANGE, "{" EV1 ", 'groups': [{'name': 'G', 'domain': 1,"
	    " 'schema': 3, 'events': [0]}], " SC1 "}",
	    "groups[0].schema: 3, but there are 1 schemas" },
	{ HV_EFORMAT, "{" EV1 ", 'groups': [{'name': 'G', 'domain': 1,"
	    " 'events': [0]}], " SC1 "}", "groups[0].schema: missing" },
	{ HV_ENOENT, "{" EV1 ", 'groups': [{'name': 'G', 'domain': 1,"
	    " 'schema': 0, 'events': ['A', 'X']}], " SC1 "}",
	    "groups[0].events[1]: no event \"X\" in domain 1" },
	{ HV_ENOENT, "{" EV1 ", 'groups': [{'name': 'G', 'domain': 2,"
	    " 'schema': 0, 'events': ['A']}], " SC1 "}",
	    "groups[0].events[0]: no event \"A\" in domain 2" },
	{ HV_ERANGE, "{" EV1 ", 'groups': [{'name': 'G', 'domain': 2,"
	    " 'schema': 0, 'events': [0]}], " SC1 "}",
	    "groups[0].events[0]: event 0 (A) is in domain 1, the group in "
	    "domain 2" },
	{ HV_ERANGE, "{" EV1 ", 'groups': [{'name': 'G', 'domain': 1,"
	    " 'schema': 0, 'events': [9]}], " SC1 "}",
	    "groups[0].events[0]: 9 is not an event (there are 1)" },
	{ HV_EFORMAT, "{" EV1 ", 'groups': [{'name': 'G', 'domain': 1,"
	    " 'schema': 0, 'events': [true]}], " SC1 "}",
	    "groups[0].events[0]: expected an event index, an event name or "
	    "null" },
	{ HV_ELIMIT, "{" EV1 ", 'groups': [{'name': 'G', 'domain': 1,"
	    " 'schema': 0, 'events': [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]}], "
	    SC1 "}", "groups[0].events: 17 slots, but a group has 16" },
	{ HV_ERANGE, "{" EV1 ", 'groups': [{'name': 'G', 'domain': 1,"
	    " 'schema': 0, 'event_count': 3, 'events': [0, null]}], " SC1 "}",
	    "groups[0].event_count: 3, but \"events\" lists 2 slots" },
	{ HV_ERANGE, "{" EV1 ", 'groups': [{'name': 'G', 'domain': 1,"
	    " 'schema': 0, 'events': [null, null, null, null, 0]}], " SC1 "}",
	    "groups[0].events[4]: schema 0 has no COUNTER5 field for this "
	    "slot" },
	{ HV_ERANGE, "{" EV1 ", 'groups': [{'name': 'G', 'domain': 1,"
	    " 'schema': 0, 'record_offset': 4, 'events': [0]}], " SC1 "}",
	    "groups[0].record_offset: 4 is not 8-byte aligned" },
	{ HV_EFORMAT, "{'schemas': [{'fields': []}], 'groups': [{'name': 'G',"
	    " 'domain': 1, 'schema': 0, 'events': []}]}",
	    "groups[0].record_length: not given, and schema 0 gives no "
	    "length" },
	{ HV_ENOENT, "{'schemas': [{'fields': [{'name': 'FOO'}]}]}",
	    "schemas[0].fields[0].name: no field is called \"FOO\"" },
	{ HV_ERANGE, "{'schemas': [{'fields': [{'enum': 2, 'name': "
	    "'COUNTER1'}]}]}",
	    "schemas[0].fields[0].name: \"COUNTER1\", but enum 2 is COUNTER2" },
	{ HV_EFORMAT, "{'schemas': [{'fields': [{'enum': 2, 'name': 2}]}]}",
	    "schemas[0].fields[0].name: expected a string" },
	{ HV_EFORMAT, "{'schemas': [{'fields': [{'length': 8}]}]}",
	    "schemas[0].fields[0].enum: missing" },
	{ HV_EFORMAT, "{'schemas': [{'version': 1}]}",
	    "schemas[0].fields: missing" },
	{ HV_ENOENT, "{" EV1 ", 'formulas': [{'name': 'F', 'group': 'nope'}]}",
	    "formulas[0].group: no group \"nope\"" },
	{ HV_EFORMAT, "{'formulas': [{'name': 'F', 'formula': ['A']}]}",
	    "formulas[0].formula: expected a string" },
	{ HV_ENOENT, "{'events': [{'name': 'A', 'domain': 1, 'record_offset':"
	    " 0, 'record_length': 0, 'counter_offset': 0, 'formula_index':"
	    " 'F'}]}", "events[0].formula_index: no formula \"F\"" },
	{ HV_ENOENT, "{'events': [{'name': 'A', 'domain': 1, 'record_offset':"
	    " 0, 'record_length': 0, 'counter_offset': 0, 'primary_group':"
	    " 'G'}]}", "events[0].primary_group: no group \"G\"" },
	{ HV_ERANGE, "{'build_time': '20260101000000000'}",
	    "build_time: at most 16 bytes" },
	{ HV_EFORMAT, "{'version': 'abc'}",
	    "version: \"abc\" is not a number" },
	{ HV_EFORMAT, "{'version': '-1'}", "version: \"-1\" is not a number" },
	{ HV_ERANGE, "{'version': -1}", "version: -1 is out of range" },
	{ HV_ERANGE, "{'magic': 4294967296}", "magic: 4294967296 is out of "
	    "range (0-4294967295)" },
	{ HV_EFORMAT, "{'sections': {'events': {'page': 'x'}}}",
	    "sections.events.page: expected an integer" },
	{ HV_EFORMAT, "{'sections': {'event': {}}}",
	    "sections: unknown key \"event\"" },
	{ HV_EFORMAT, "{'sub_offsets': [1, 2]}",
	    "sub_offsets: expected 6 integers" },
};

static void
test_json_bad(void **state)
{
	struct catalog	*cat;
	json_t		*v;
	char		*cause;
	size_t		 i;
	int		 r;

	(void)state;
	for (i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
		v = jq(bad_cases[i].json);
		cause = NULL;
		cat = (struct catalog *)1;
		r = catalog_from_json(v, &cat, &cause);
		if (r == 0)
			fail_msg("case %zu accepted: %s", i, bad_cases[i].json);
		assert_null(cat);
		if (strncmp(cause, bad_cases[i].cause,
		    strlen(bad_cases[i].cause)) != 0)
			fail_msg("case %zu: cause \"%s\", want \"%s\"", i,
			    cause, bad_cases[i].cause);
		assert_int_equal(r, -bad_cases[i].code);
		free(cause);
		json_decref(v);
	}
}

/* What a minimal source leaves out, the comment key, empty lists. */
static void
test_json_defaults(void **state)
{
	struct catalog	*cat;

	(void)state;
	cat = from_ok("{'comment': 'hvtop test', 'events': []}");
	assert_int_equal(cat->nevents, 0);
	assert_int_equal(cat->nschemas, 0);
	assert_true(cat->version == 0);
	assert_int_equal(cat->magic, CATALOG_MAGIC);
	catalog_free(cat);
	cat = from_ok("{'version': '0x10', 'magic': 1}");
	assert_true(cat->version == 16);
	assert_int_equal(cat->magic, 1);
	catalog_free(cat);
}

/*
 * A formula's group index that names no group is kept as stored, as the
 * parser keeps it (a warning there), so what hvcat check accepts builds.
 */
static void
test_json_formula_group_kept(void **state)
{
	struct catalog	*cat, *back;
	void		*img;
	char		*cause = NULL;
	size_t		 len, i;
	int		 warned = 0;

	(void)state;
	cat = from_ok("{" EV1 ", 'formulas': [{'name': 'F', 'group': 95, "
	    "'flags': 4}]}");
	assert_int_equal(cat->formulas[0].group, 95);
	assert_int_equal(catalog_write(cat, &img, &len, &cause), 0);
	assert_int_equal(catalog_parse(img, len, 0, &back, &cause), 0);
	assert_int_equal(back->nerrors, 0);
	assert_int_equal(back->formulas[0].group, 95);
	for (i = 0; i < back->ndiags; i++)
		if (strstr(back->diags[i].msg, "group 95 is not below the "
		    "group count 0") != NULL)
			warned = 1;
	assert_true(warned);
	catalog_free(back);
	catalog_free(cat);
	free(img);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_computed),
		cmocka_unit_test(test_json_roundtrip_built),
		cmocka_unit_test(test_json_shape),
		cmocka_unit_test(test_json_not_utf8),
		cmocka_unit_test(test_json_p8_v3),
		cmocka_unit_test(test_json_bad),
		cmocka_unit_test(test_json_defaults),
		cmocka_unit_test(test_json_formula_group_kept),
	};

	return (cmocka_run_group_tests_name("catalog-json", tests, NULL,
	    NULL));
}
