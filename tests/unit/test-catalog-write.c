/*
 * Unit tests for catalog_write(): hand-built models written and parsed
 * back, the lengths and pages it computes, its padding rules checked byte
 * by byte, the errors it gives, and the real POWER8 catalog written back
 * byte for byte from its parsed model.
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

#include "catalog/catalog.h"
#include "util/be.h"
#include "util/hverr.h"
#include "util/xalloc.h"

#include "fixture.h"

#define PAGE	CATALOG_PAGE_SIZE

/*
 * A small model: one core schema, three events (one with every string,
 * one with odd and even name lengths, one chip placeholder), one group,
 * one formula.  Every length, page and count is left 0 for the writer.
 */
static struct catalog *
model_new(void)
{
	struct catalog		*cat = xcalloc(1, sizeof *cat);
	struct catalog_schema	*sc;
	struct catalog_event	*ev;
	struct catalog_group	*gr;
	struct catalog_formula	*fo;
	int			 i;

	cat->version = 42;
	memcpy(cat->build_time, "20260102030405", 14);

	cat->nschemas = 1;
	cat->schemas = xcalloc(1, sizeof *cat->schemas);
	sc = &cat->schemas[0];
	sc->version = 1;
	sc->nfields = 5;
	sc->fields = xcalloc(5, sizeof *sc->fields);
	sc->fields[0] = (struct catalog_schema_field){ 48, 0, 8, 0 };
	sc->fields[1] = (struct catalog_schema_field){ 1, 8, 8, 0 };
	sc->fields[2] = (struct catalog_schema_field){ 2, 16, 8, 0 };
	sc->fields[3] = (struct catalog_schema_field){ 54, 24, 2, 0 };
	sc->fields[4] = (struct catalog_schema_field){ 49, 26, 6, 0 };

	cat->nevents = 3;
	cat->events = xcalloc(3, sizeof *cat->events);
	ev = &cat->events[0];
	ev->domain = 2;
	ev->record_offset = 0x40;
	ev->record_length = 32;
	ev->counter_offset = 8;
	ev->flags = CATALOG_FLAG_VERIFIED;
	ev->primary_group = 0;
	ev->group_count = 1;
	ev->formula = 0;
	ev->formula_raw = 0;
	ev->name = xstrdup("HPM_CYC");		/* 7 + NUL: even */
	ev->desc = xstrdup("Cycles");		/* 6 + NUL: padded */
	ev->long_desc = xstrdup("Every cycle, counted.");
	ev = &cat->events[1];
	ev->domain = 2;
	ev->record_offset = 0x40;
	ev->record_length = 32;
	ev->counter_offset = 16;
	ev->primary_group = 0;
	ev->group_count = 1;
	ev->formula = CATALOG_NONE;
	ev->formula_raw = 0xffff;
	ev->name = xstrdup("HPM_INST");
	ev->desc = xstrdup("");
	ev->long_desc = NULL;		/* absent is empty */
	ev = &cat->events[2];
	ev->domain = 1;
	ev->formula = CATALOG_NONE;
	ev->formula_raw = 0xffff;
	ev->primary_group = 0xffff;
	ev->name = xstrdup("PM_PLACEHOLDER");
	ev->desc = xstrdup("x");

	cat->ngroups = 1;
	cat->groups = xcalloc(1, sizeof *cat->groups);
	gr = &cat->groups[0];
	gr->domain = 2;
	gr->record_offset = 0x40;
	gr->record_length = 32;
	gr->schema = 0;
	gr->event_count = 2;
	for (i = 0; i < CATALOG_GROUP_SLOTS; i++)
		gr->events[i] = 0;
	gr->events[0] = 0;
	gr->events[1] = 1;
	gr->name = xstrdup("HPM_CYC");
	gr->desc = xstrdup("Cycles and instructions");

	cat->nformulas = 1;
	cat->formulas = xcalloc(1, sizeof *cat->formulas);
	fo = &cat->formulas[0];
	fo->flags = 4;
	fo->group = 0;
	fo->name = xstrdup("CPI");
	fo->desc = xstrdup("Cycles per instruction");
	fo->formula = xstrdup("HPM_CYC / HPM_INST");
	fo->unit = xstrdup("");
	return (cat);
}

static void
write_ok(const struct catalog *cat, uint8_t **out, size_t *len)
{
	char	*cause = NULL;
	void	*buf;
	int	 r;

	r = catalog_write(cat, &buf, len, &cause);
	if (r != 0)
		fail_msg("catalog_write: %s", cause);
	*out = buf;
}

/* Expect catalog_write() to fail with code and a cause starting with want. */
static void
write_fails(const struct catalog *cat, int code, const char *want)
{
	char	*cause = NULL;
	void	*buf = (void *)1;
	size_t	 len = 1;

	assert_int_equal(catalog_write(cat, &buf, &len, &cause), code);
	assert_null(buf);
	assert_int_equal(len, 0);
	assert_non_null(cause);
	if (strncmp(cause, want, strlen(want)) != 0)
		fail_msg("cause \"%s\" does not start with \"%s\"", cause,
		    want);
	free(cause);
}

static struct catalog *
parse_ok(const uint8_t *buf, size_t len)
{
	struct catalog	*cat;
	char		*cause = NULL;
	size_t		 i;

	if (catalog_parse(buf, len, 0, &cat, &cause) != 0)
		fail_msg("catalog_parse: %s", cause);
	for (i = 0; i < cat->ndiags; i++)
		print_message("# diag 0x%zx: %s\n", cat->diags[i].offset,
		    cat->diags[i].msg);
	assert_int_equal(cat->ndiags, 0);
	return (cat);
}

/* Page 0, the computed layout and the entries come back as built. */
static void
test_write_roundtrip(void **state)
{
	struct catalog	*cat = model_new(), *back;
	uint8_t		*buf;
	size_t		 len;

	(void)state;
	write_ok(cat, &buf, &len);
	/* Header page, then one page per section, in section order. */
	assert_int_equal(len, 5 * PAGE);
	assert_memory_equal(buf, "24x7", 4);
	back = parse_ok(buf, len);
	assert_int_equal(back->length_pages, 5);
	assert_true(back->version == 42);
	assert_string_equal(back->build_time, "20260102030405");
	assert_int_equal(back->sections[CATALOG_SCHEMAS].page, 1);
	assert_int_equal(back->sections[CATALOG_EVENTS].page, 2);
	assert_int_equal(back->sections[CATALOG_GROUPS].page, 3);
	assert_int_equal(back->sections[CATALOG_FORMULAS].page, 4);
	assert_int_equal(back->sections[CATALOG_EVENTS].pages, 1);
	assert_int_equal(back->sections[CATALOG_EVENTS].count, 3);

	assert_int_equal(back->nschemas, 1);
	assert_int_equal(back->schemas[0].nfields, 5);
	assert_int_equal(back->schemas[0].fields[4].field, 49);
	assert_int_equal(back->schemas[0].fields[4].offset, 26);
	assert_int_equal(back->schemas[0].fields[4].length, 6);
	assert_int_equal(back->schemas[0].version, 1);

	assert_int_equal(back->nevents, 3);
	assert_string_equal(back->events[0].name, "HPM_CYC");
	assert_string_equal(back->events[0].desc, "Cycles");
	assert_string_equal(back->events[0].long_desc, "Every cycle, counted.");
	assert_int_equal(back->events[0].offset, 0x48);
	assert_int_equal(back->events[0].flags, CATALOG_FLAG_VERIFIED);
	assert_int_equal(back->events[0].formula, 0);
	assert_int_equal(back->events[1].formula_raw, 0xffff);
	assert_int_equal(back->events[1].formula, CATALOG_NONE);
	assert_string_equal(back->events[1].long_desc, "");
	assert_int_equal(back->events[2].domain, 1);
	assert_int_equal(back->events[2].skip, CATALOG_SKIP_RECLEN0);

	assert_int_equal(back->ngroups, 1);
	assert_string_equal(back->groups[0].desc, "Cycles and instructions");
	assert_int_equal(back->groups[0].event_count, 2);
	assert_int_equal(back->groups[0].events[1], 1);
	assert_int_equal(back->groups[0].events[2], 0);

	assert_int_equal(back->nformulas, 1);
	assert_string_equal(back->formulas[0].formula, "HPM_CYC / HPM_INST");
	assert_int_equal(back->formulas[0].flags, 4);
	assert_int_equal(back->formulas[0].group, 0);
	assert_string_equal(back->formulas[0].unit, "");

	catalog_free(back);
	catalog_free(cat);
	free(buf);
}

/* Writing a parsed model again gives the same bytes. */
static void
test_write_idempotent(void **state)
{
	struct catalog	*cat = model_new(), *back;
	uint8_t		*a, *b;
	size_t		 alen, blen;

	(void)state;
	write_ok(cat, &a, &alen);
	back = parse_ok(a, alen);
	write_ok(back, &b, &blen);
	assert_int_equal(alen, blen);
	assert_memory_equal(a, b, alen);
	catalog_free(back);
	catalog_free(cat);
	free(a);
	free(b);
}

/*
 * The canonical layout, byte by byte: strings are the text, a NUL, and a
 * NUL more to make the length even; an empty string is its length alone;
 * the entry is padded with zeros to a multiple of 16.
 */
static void
test_write_padding(void **state)
{
	struct catalog	*cat = model_new();
	uint8_t		*buf, *e;
	size_t		 len, pos;

	(void)state;
	write_ok(cat, &buf, &len);

	/* Event 0: 0x14 fixed, "HPM_CYC\0" (2+8), "Cycles\0\0" (2+8),
	 * "Every cycle, counted.\0" (2+22) = 0x40, a multiple of 16. */
	e = buf + 2 * PAGE;
	assert_int_equal(be16_get(e), 0x40);
	assert_int_equal(be16_get(e + 0x02), 0);	/* formula 0 */
	assert_int_equal(e[0x04], 2);
	assert_int_equal(be16_get(e + 0x06), 0x40);
	assert_int_equal(be16_get(e + 0x0a), 8);
	assert_int_equal(be32_get(e + 0x0c), CATALOG_FLAG_VERIFIED);
	assert_int_equal(be16_get(e + 0x14), 10);
	assert_memory_equal(e + 0x16, "HPM_CYC\0", 8);
	assert_int_equal(be16_get(e + 0x1e), 10);
	assert_memory_equal(e + 0x20, "Cycles\0\0", 8);
	assert_int_equal(be16_get(e + 0x28), 24);
	assert_memory_equal(e + 0x2a, "Every cycle, counted.\0", 22);

	/* Event 1: 0x14 + "HPM_INST\0\0" (2+10) + 2 + 2 = 0x24 -> 0x30. */
	e += 0x40;
	assert_int_equal(be16_get(e), 0x30);
	assert_int_equal(be16_get(e + 0x02), 0xffff);
	assert_int_equal(be16_get(e + 0x14), 12);
	assert_memory_equal(e + 0x16, "HPM_INST\0\0", 10);
	assert_int_equal(be16_get(e + 0x20), 2);	/* empty: no NUL */
	assert_int_equal(be16_get(e + 0x22), 2);
	for (pos = 0x24; pos < 0x30; pos++)
		assert_int_equal(e[pos], 0);

	/* Event 2: "x\0" is even already. */
	e += 0x30;
	assert_int_equal(be16_get(e + 0x14), 2 + 16);
	assert_int_equal(be16_get(e + 0x14 + 18), 4);
	assert_memory_equal(e + 0x14 + 20, "x\0", 2);

	/* Schema: 16 + 5 * 8 = 56 -> 64. */
	e = buf + PAGE;
	assert_int_equal(be16_get(e), 64);
	assert_int_equal(be16_get(e + 0x0e), 5);
	assert_int_equal(be16_get(e + 0x10 + 8 * 3), 54);
	assert_int_equal(be16_get(e + 0x10 + 8 * 3 + 4), 2);

	/* Group: 0x30 + "HPM_CYC\0" (10) + 24-byte description -> 0x60. */
	e = buf + 3 * PAGE;
	assert_int_equal(be16_get(e), 0x60);
	assert_int_equal(e[0x08], 2);
	assert_int_equal(e[0x0f], 2);
	assert_int_equal(be16_get(e + 0x10), 0);
	assert_int_equal(be16_get(e + 0x12), 1);
	assert_int_equal(be16_get(e + 0x30), 10);

	/* Formula: flags, group, then four strings; "" is 2 bytes. */
	e = buf + 4 * PAGE;
	assert_int_equal(be32_get(e + 0x04), 4);
	assert_int_equal(be16_get(e + 0x08), 0);
	assert_int_equal(be16_get(e + 0x10), 6);
	assert_memory_equal(e + 0x12, "CPI\0", 4);

	/* Reserved bytes of page 0 stay 0, the magic is filled in. */
	assert_int_equal(be32_get(buf), CATALOG_MAGIC);
	for (pos = 0x20; pos < 0x40; pos++)
		assert_int_equal(buf[pos], 0);
	for (pos = 0x60; pos < PAGE; pos++)
		assert_int_equal(buf[pos], 0);
	assert_int_equal(catalog_write_entry_length(cat, CATALOG_EVENTS, 1),
	    0x30);
	assert_int_equal(catalog_write_entry_length(cat, CATALOG_EVENTS, 3),
	    0);
	catalog_free(cat);
	free(buf);
}

/* Lengths, pages and counts the model sets are kept. */
static void
test_write_explicit(void **state)
{
	struct catalog	*cat = model_new(), *back;
	uint8_t		*buf;
	size_t		 len;

	(void)state;
	cat->events[1].entry_length = 0x80;		/* room to spare */
	cat->sections[CATALOG_EVENTS].page = 3;
	cat->sections[CATALOG_EVENTS].pages = 2;	/* more than needed */
	cat->sections[CATALOG_GROUPS].page = 7;
	cat->length_pages = 10;
	cat->sub_offsets[2] = 0xffffffff;
	write_ok(cat, &buf, &len);
	assert_int_equal(len, 10 * PAGE);
	back = parse_ok(buf, len);
	assert_int_equal(back->events[1].entry_length, 0x80);
	assert_int_equal(back->events[2].file_offset, 3 * PAGE + 0x40 + 0x80);
	assert_int_equal(back->sections[CATALOG_SCHEMAS].page, 1);
	assert_int_equal(back->sections[CATALOG_EVENTS].page, 3);
	assert_int_equal(back->sections[CATALOG_EVENTS].pages, 2);
	assert_int_equal(back->sections[CATALOG_GROUPS].page, 7);
	/* Computed placement goes after everything placed before. */
	assert_int_equal(back->sections[CATALOG_FORMULAS].page, 8);
	assert_int_equal(back->sub_offsets[2], 0xffffffff);
	catalog_free(back);
	free(buf);
	catalog_free(cat);
}

/* An empty model is page 0 and empty sections, and parses cleanly. */
static void
test_write_empty(void **state)
{
	struct catalog	 cat;
	struct catalog	*back;
	uint8_t		*buf;
	size_t		 len;

	(void)state;
	memset(&cat, 0, sizeof cat);
	memcpy(cat.build_time, "20131212141410", 14);
	write_ok(&cat, &buf, &len);
	assert_int_equal(len, PAGE);
	back = parse_ok(buf, len);
	assert_int_equal(back->nevents, 0);
	assert_int_equal(back->sections[CATALOG_EVENTS].count, 0);
	assert_int_equal(back->sections[CATALOG_EVENTS].pages, 0);
	catalog_free(back);
	free(buf);
}

/* Section contents that span pages, and many entries. */
static void
test_write_many(void **state)
{
	struct catalog	*cat = xcalloc(1, sizeof *cat), *back;
	uint8_t		*buf;
	size_t		 len, i;
	char		 name[32];

	(void)state;
	memcpy(cat->build_time, "20260102030405", 14);
	cat->nevents = 1000;
	cat->events = xcalloc(cat->nevents, sizeof *cat->events);
	for (i = 0; i < cat->nevents; i++) {
		snprintf(name, sizeof name, "PM_EVENT_%zu", i);
		cat->events[i].name = xstrdup(name);
		cat->events[i].domain = 1;
		cat->events[i].record_length = 128;
		cat->events[i].record_offset = (uint16_t)(i / 8 * 128);
		cat->events[i].counter_offset = (uint16_t)(24 + i % 8 * 8);
		cat->events[i].formula = CATALOG_NONE;
		cat->events[i].formula_raw = 0xffff;
	}
	write_ok(cat, &buf, &len);
	/* "PM_EVENT_nnn\0\0" makes 0x14 + 16 + 4 = 40 -> 48 bytes. */
	assert_int_equal(len, (1 + (1000 * 48 + PAGE - 1) / PAGE) * PAGE);
	back = parse_ok(buf, len);
	assert_int_equal(back->nevents, 1000);
	assert_string_equal(back->events[999].name, "PM_EVENT_999");
	assert_int_equal(back->events[999].offset, 124 * 128 + 24 + 7 * 8);
	catalog_free(back);
	free(buf);
	catalog_free(cat);
}

/* Each error names the field, as the JSON form spells it. */
static void
test_write_errors(void **state)
{
	struct catalog	*cat;
	char		*big;

	(void)state;
	cat = model_new();
	cat->events[1].entry_length = 0x20;
	write_fails(cat, -HV_ERANGE, "events[1].entry_length: 32 is less");
	cat->events[1].entry_length = 0x38;
	write_fails(cat, -HV_ERANGE, "events[1].entry_length: 56 is not a "
	    "multiple of 16");
	catalog_free(cat);

	cat = model_new();
	big = xcalloc(70000, 1);
	memset(big, 'A', 69999);
	free(cat->formulas[0].desc);
	cat->formulas[0].desc = big;
	write_fails(cat, -HV_ERANGE, "formulas[0].description: too long");
	big[65530] = '\0';
	write_fails(cat, -HV_ERANGE, "formulas[0]: its strings take");
	catalog_free(cat);

	cat = model_new();
	cat->sections[CATALOG_EVENTS].count = 4;
	write_fails(cat, -HV_ERANGE, "sections.events.count: 4, but there "
	    "are 3 events");
	cat->sections[CATALOG_EVENTS].count = 3;
	cat->sections[CATALOG_EVENTS].page = 1;
	write_fails(cat, -HV_ERANGE, "sections.schemas: pages 1-1 overlap "
	    "sections.events");
	cat->sections[CATALOG_EVENTS].page = 0;
	cat->length_pages = 4;
	write_fails(cat, -HV_ERANGE, "length_pages: 4, but the sections need "
	    "5 pages");
	cat->length_pages = 0x10000;
	write_fails(cat, -HV_ELIMIT, "length_pages: 65536, more than");
	cat->length_pages = 0;
	cat->sections[CATALOG_FORMULAS].page = 0xffff;
	cat->sections[CATALOG_FORMULAS].pages = 1;
	write_fails(cat, -HV_ELIMIT, "length_pages: the sections need 65536");
	catalog_free(cat);

	cat = model_new();
	cat->schemas[0].nfields = 9000;
	write_fails(cat, -HV_ERANGE, "schemas[0].fields: 9000 fields do not "
	    "fit");
	cat->schemas[0].nfields = 5;
	free(cat->schemas[0].fields);
	cat->schemas[0].fields = NULL;
	write_fails(cat, -HV_ERANGE, "schemas[0].fields: 5 fields claimed");
	catalog_free(cat);

	cat = xcalloc(1, sizeof *cat);
	cat->nevents = 0x10000;
	cat->events = xcalloc(cat->nevents, sizeof *cat->events);
	write_fails(cat, -HV_ELIMIT, "events: 65536 entries");
	catalog_free(cat);
}

/* A section whose entries need more pages than it was given. */
static void
test_write_section_too_small(void **state)
{
	struct catalog	*cat = model_new();
	size_t		 i;

	(void)state;
	for (i = 0; i < cat->nevents; i++)
		cat->events[i].entry_length = 0xfff0;
	/* 3 * 0xfff0 bytes need 48 pages. */
	cat->sections[CATALOG_EVENTS].pages = 47;
	write_fails(cat, -HV_ERANGE, "sections.events.pages: 47, but the "
	    "entries need 48");
	catalog_free(cat);
}

/* The real POWER8 catalog: parsed, then written, gives the same bytes. */
static void
test_write_p8_v3(void **state)
{
	struct catalog	*cat;
	uint8_t		*orig, *buf;
	size_t		 olen, len;
	char		*cause;

	(void)state;
	orig = fixture_read(FIXTURE_P8, &olen);
	assert_int_equal(olen, 262144);
	assert_int_equal(catalog_parse(orig, olen, 1, &cat, &cause), 0);
	assert_int_equal(cat->nerrors, 0);
	write_ok(cat, &buf, &len);
	assert_int_equal(len, olen);
	assert_memory_equal(buf, orig, olen);
	catalog_free(cat);
	free(buf);
	free(orig);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_write_roundtrip),
		cmocka_unit_test(test_write_idempotent),
		cmocka_unit_test(test_write_padding),
		cmocka_unit_test(test_write_explicit),
		cmocka_unit_test(test_write_empty),
		cmocka_unit_test(test_write_many),
		cmocka_unit_test(test_write_errors),
		cmocka_unit_test(test_write_section_too_small),
		cmocka_unit_test(test_write_p8_v3),
	};

	return (cmocka_run_group_tests_name("catalog-write", tests, NULL,
	    NULL));
}
