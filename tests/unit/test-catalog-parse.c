/*
 * Unit tests for the catalog parser, indexes, names and sysfs strings:
 * the real POWER8 catalog and the empty one (tests/data/catalog), the
 * real catalog cut at every offset, and generated catalogs broken one
 * field at a time.
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
#include "fixture.h"
#include "catalog-gen.h"
#include "util/be.h"
#include "util/hverr.h"
#include "util/xalloc.h"

static struct catalog *
parse_ok(const uint8_t *buf, size_t len, int iface)
{
	struct catalog	*cat = NULL;
	char		*cause = NULL;
	int		 rc;

	rc = catalog_parse(buf, len, iface, &cat, &cause);
	if (rc != 0)
		fail_msg("catalog_parse: %s", cause);
	assert_non_null(cat);
	return (cat);
}

/* The first diagnostic of severity sev whose text contains s. */
static const struct catalog_diag *
find_diag(const struct catalog *cat, int sev, const char *s)
{
	size_t	 i;

	for (i = 0; i < cat->ndiags; i++) {
		if ((int)cat->diags[i].severity == sev &&
		    strstr(cat->diags[i].msg, s) != NULL)
			return (&cat->diags[i]);
	}
	return (NULL);
}

static void
print_diags(const struct catalog *cat)
{
	size_t	 i;

	for (i = 0; i < cat->ndiags; i++)
		print_message("# 0x%zx %s %s\n", cat->diags[i].offset,
		    cat->diags[i].severity == CATALOG_ERROR ? "E" : "W",
		    cat->diags[i].msg);
}

/* Where page 0 put section id of a generated image. */
static size_t
section_start(const uint8_t *img, int id)
{
	return ((size_t)be16_get(img + CGEN_P0_SECTION(id)) * 4096);
}

/* A generated catalog with only events. */
static uint8_t *
events_only(struct cgen_buf *ev, size_t *len)
{
	struct cgen_buf *const secs[4] = { NULL, ev, NULL, NULL };

	return (cgen_catalog(secs, len));
}

/* ---- real data ---------------------------------------------------- */

static void
test_p8_catalog(void **state)
{
	const struct catalog_event	*ev;
	const struct catalog_group	*g;
	struct catalog			*cat;
	uint8_t				*buf;
	size_t				 len, i, reclen0 = 0;
	char				*s;

	(void)state;
	buf = fixture_read(FIXTURE_P8, &len);
	cat = parse_ok(buf, len, 0);
	print_diags(cat);
	assert_int_equal(cat->ndiags, 0);
	assert_int_equal(cat->magic, CATALOG_MAGIC);
	assert_int_equal(cat->length_pages, 64);
	assert_true(cat->version == 3);
	/* Page 0's version without a parse; too short to hold it. */
	{
		uint64_t	 v = 0;

		assert_int_equal(catalog_peek_version(buf, len, &v), 0);
		assert_true(v == 3);
		assert_int_equal(catalog_peek_version(buf, 15, &v),
		    -HV_ETRUNC);
	}
	assert_string_equal(cat->build_time, "20140120160033");
	assert_int_equal(cat->interface, 1);
	assert_int_equal(cat->interface_guessed, 1);
	assert_int_equal(cat->sections[CATALOG_EVENTS].page, 2);
	assert_int_equal(cat->sections[CATALOG_EVENTS].pages, 0x26);
	assert_int_equal(cat->sections[CATALOG_GROUPS].page, 0x28);
	assert_int_equal(cat->nschemas, 4);
	assert_int_equal(cat->nevents, 1246);
	assert_int_equal(cat->ngroups, 128);
	assert_int_equal(cat->nformulas, 0);

	/* Event 0 as decoded by hand in the ABI reference. */
	ev = &cat->events[0];
	assert_string_equal(ev->name, "HPM_0THRD_NON_IDLE_CCYC");
	assert_int_equal(ev->file_offset, 0x2000);
	assert_int_equal(ev->entry_length, 0x90);
	assert_int_equal(ev->domain, 2);
	assert_int_equal(ev->record_offset, 0xc0);
	assert_int_equal(ev->record_length, 0x40);
	assert_int_equal(ev->counter_offset, 0x20);
	assert_int_equal(ev->offset, 0xe0);
	assert_int_equal(ev->primary_group, 3);
	assert_int_equal(ev->group_count, 1);
	assert_int_equal(ev->formula, CATALOG_NONE);
	assert_string_equal(ev->long_desc, "");
	assert_true(strncmp(ev->desc, "Count of constant clock", 23) == 0);
	s = catalog_sysfs_string(ev, CATALOG_SYSFS_CURRENT);
	assert_string_equal(s, "domain=?,offset=0xe0,core=?,lpar=0x0");
	free(s);
	s = catalog_sysfs_string(ev, CATALOG_SYSFS_2014);
	assert_string_equal(s, "domain=0x2,offset=0xe0,starting_index=core,"
	    "lpar=sibling_guest_id");
	free(s);
	/* Linked through group 0's slot 1, not through primary_group. */
	assert_int_equal(ev->ngroups, 1);
	assert_int_equal(ev->groups[0], 0);

	/* The upstream parser's example: event 252 at 22064 bytes. */
	ev = catalog_find_event(cat, "HPM_TLBIE", 2);
	assert_non_null(ev);
	assert_int_equal(ev->index, 252);
	assert_int_equal(ev->file_offset, 0x2000 + 22064);
	assert_int_equal(ev->entry_length, 96);
	assert_int_equal(ev->offset, 0x358);

	/* Events 241 and 242 sit in slots 2 and 3 of every group. */
	assert_string_equal(cat->events[241].name, "HPM_NON_IDLE_INST");
	assert_int_equal(cat->events[241].ngroups, 128);
	assert_int_equal(cat->events[242].ngroups, 128);

	g = catalog_find_group(cat, "HPM_0THRD_NON_IDLE_CCYC");
	assert_non_null(g);
	assert_int_equal(g->file_offset, 0x28000);
	assert_int_equal(g->event_count, 4);
	assert_int_equal(g->events[0], CATALOG_SLOT_FREE);
	assert_int_equal(g->events[1], 0);
	assert_int_equal(g->record_offset, 0xc0);
	assert_ptr_equal(catalog_group_at(cat, 0), g);

	assert_int_equal(cat->schemas[0].nfields, 9);
	assert_int_equal(cat->schemas[0].fields[0].field,
	    CATALOG_FIELD_TIMEBASE_UPDATE);
	assert_int_equal(cat->schemas[1].fields[0].field, 55);
	assert_int_equal(cat->schemas[3].entry_length, 192);

	for (i = 0; i < cat->nevents; i++) {
		if (cat->events[i].skip == CATALOG_SKIP_RECLEN0)
			reclen0++;
		else
			assert_int_equal(cat->events[i].skip, 0);
	}
	assert_int_equal(reclen0, 993);
	catalog_free(cat);
	free(buf);
}

/* hvcat sysfs --style 2014 must reproduce the kernel's listing. */
static int
cmp_lines(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

static void
test_p8_sysfs_2014(void **state)
{
	struct catalog_sysfs_entry	*v;
	struct catalog			*cat;
	uint8_t				*buf, *tsv;
	size_t				 len, tlen, n, i, nl = 0;
	char				**ours, **theirs, *p, *line;

	(void)state;
	buf = fixture_read(FIXTURE_P8, &len);
	tsv = fixture_data("sysfs", "sysfs-hv_24x7-events.tsv", &tlen);
	cat = parse_ok(buf, len, 0);
	n = catalog_sysfs_list(cat, CATALOG_SYSFS_2014, &v);
	assert_int_equal(n, 2258);
	ours = xcalloc(n, sizeof *ours);
	for (i = 0; i < n; i++)
		ours[i] = xasprintf("%s\t%s", v[i].name, v[i].value);
	theirs = xcalloc(n + 1, sizeof *theirs);
	tsv = xreallocarray(tsv, tlen + 1, 1);
	tsv[tlen] = '\0';
	for (p = (char *)tsv; (line = strsep(&p, "\n")) != NULL;) {
		if (*line == '\0')
			continue;
		assert_true(nl < n);
		theirs[nl++] = line;
	}
	assert_int_equal(nl, n);
	qsort(ours, n, sizeof *ours, cmp_lines);
	qsort(theirs, n, sizeof *theirs, cmp_lines);
	for (i = 0; i < n; i++)
		assert_string_equal(ours[i], theirs[i]);
	for (i = 0; i < n; i++)
		free(ours[i]);
	free(ours);
	free(theirs);
	catalog_sysfs_list_free(v, n);

	/* Today's kernels list only the 253 core events. */
	n = catalog_sysfs_list(cat, CATALOG_SYSFS_CURRENT, &v);
	assert_int_equal(n, 253);
	assert_string_equal(v[0].name, "HPM_0THRD_NON_IDLE_CCYC");
	assert_string_equal(v[0].value,
	    "domain=?,offset=0xe0,core=?,lpar=0x0");
	catalog_sysfs_list_free(v, n);
	catalog_free(cat);
	free(tsv);
	free(buf);
}

static void
test_empty_catalog(void **state)
{
	struct catalog_sysfs_entry	*v;
	struct catalog			*cat;
	uint8_t				*buf;
	size_t				 len;

	(void)state;
	buf = fixture_data("catalog", "empty_catalog.bin", &len);
	assert_int_equal(len, 65536);
	cat = parse_ok(buf, len, 0);
	print_diags(cat);
	assert_int_equal(cat->ndiags, 0);
	assert_true(cat->version == 2);
	assert_int_equal(cat->length_pages, 16);
	assert_int_equal(cat->nevents + cat->ngroups + cat->nschemas +
	    cat->nformulas, 0);
	assert_null(catalog_find_event(cat, "X", 0));
	assert_null(catalog_find_sysfs(cat, "X"));
	assert_null(catalog_find_group(cat, "X"));
	assert_null(catalog_find_formula(cat, "X"));
	assert_null(catalog_event_at(cat, 0));
	assert_int_equal(catalog_sysfs_list(cat, CATALOG_SYSFS_CURRENT, &v),
	    0);
	assert_null(v);
	catalog_free(cat);
	free(buf);
}

/*
 * Cut the real catalog at every offset of its first 0x3000 bytes and at
 * every 97th after: never a crash, always an error with an offset inside
 * the cut file, and exactly the entries that lie wholly before the cut
 * are kept, equal to the full catalog's.
 */
static size_t
entries_before(const struct catalog *full, int id, size_t cut)
{
	size_t	 i, n = 0, off, len;

	for (i = 0;; i++) {
		switch (id) {
		case CATALOG_EVENTS:
			if (i >= full->nevents)
				return (n);
			off = full->events[i].file_offset;
			len = full->events[i].entry_length;
			break;
		case CATALOG_GROUPS:
			if (i >= full->ngroups)
				return (n);
			off = full->groups[i].file_offset;
			len = full->groups[i].entry_length;
			break;
		default:
			if (i >= full->nschemas)
				return (n);
			off = full->schemas[i].file_offset;
			len = full->schemas[i].entry_length;
			break;
		}
		if (off + len > cut)
			return (n);
		n++;
	}
}

static void
check_cut(const struct catalog *full, const uint8_t *img, size_t cut)
{
	struct catalog	*cat = NULL;
	uint8_t		*copy;
	char		*cause = NULL;
	size_t		 i;
	int		 rc, found = 0;

	/* An exact-size copy, so that any overread is caught by ASan. */
	copy = xmalloc(cut > 0 ? cut : 1);
	memcpy(copy, img, cut);
	rc = catalog_parse(copy, cut, 0, &cat, &cause);
	if (cut < 0x60) {
		assert_int_equal(rc, -HV_ETRUNC);
		assert_null(cat);
		assert_non_null(strstr(cause, "offset 0x"));
		free(cause);
		free(copy);
		return;
	}
	assert_int_equal(rc, 0);
	if (cat->nerrors == 0)
		fail_msg("cut at 0x%zx: no error", cut);
	for (i = 0; i < cat->ndiags; i++) {
		assert_true(cat->diags[i].offset <= cut);
		if (cat->diags[i].severity == CATALOG_ERROR)
			found = 1;
	}
	assert_true(found);
	if (cat->nevents != entries_before(full, CATALOG_EVENTS, cut))
		fail_msg("cut at 0x%zx: %zu events, expected %zu", cut,
		    cat->nevents, entries_before(full, CATALOG_EVENTS, cut));
	assert_int_equal(cat->ngroups, entries_before(full, CATALOG_GROUPS,
	    cut));
	assert_int_equal(cat->nschemas, entries_before(full, CATALOG_SCHEMAS,
	    cut));
	for (i = 0; i < cat->nevents; i++) {
		assert_string_equal(cat->events[i].name, full->events[i].name);
		assert_int_equal(cat->events[i].offset,
		    full->events[i].offset);
	}
	assert_int_equal(cat->dropped[CATALOG_EVENTS] + cat->nevents, 1246);
	catalog_free(cat);
	free(copy);
}

static void
test_p8_truncated(void **state)
{
	struct catalog	*full;
	uint8_t		*buf;
	size_t		 len, cut;

	(void)state;
	buf = fixture_read(FIXTURE_P8, &len);
	full = parse_ok(buf, len, 0);
	for (cut = 0; cut < 0x3000; cut++)
		check_cut(full, buf, cut);
	for (; cut < len; cut += 97)
		check_cut(full, buf, cut);
	check_cut(full, buf, len - 1);
	catalog_free(full);
	free(buf);
}

/* ---- generated catalogs -------------------------------------------- */

static void
test_generated_roundtrip(void **state)
{
	static const uint16_t fields[3][4] = {
		{ CATALOG_FIELD_TIMEBASE_UPDATE, 0, 8, 0 },
		{ 1, 8, 8, 0 },
		{ 2, 16, 8, 0x5 },
	};
	struct cgen_buf	 sc = { 0 }, ev = { 0 }, gr = { 0 }, fo = { 0 };
	struct cgen_buf	*const secs[4] = { &sc, &ev, &gr, &fo };
	struct cgen_event e = { 0 };
	struct cgen_group g = { 0 };
	struct cgen_formula f = { 0 };
	const struct catalog_formula *cf;
	struct catalog	*cat;
	uint8_t		*img;
	size_t		 len, i;

	(void)state;
	cgen_schema(&sc, 0, 1, 3, fields);
	e.domain = 1;
	e.record_offset = 0x100;
	e.record_length = 24;
	e.counter_offset = 8;
	e.flags = CATALOG_FLAG_VERIFIED;
	e.formula_raw = 1;
	e.name = "PM_A";
	e.desc = "first";
	e.long_desc = "the first event";
	cgen_event(&ev, &e);
	e.counter_offset = 16;
	e.formula_raw = 0xffff;
	e.name = "PM_B";
	e.desc = "";
	e.long_desc = NULL;
	cgen_event(&ev, &e);
	g.domain = 1;
	g.record_offset = 0x100;
	g.record_length = 24;
	g.event_count = 3;
	g.slots[0] = 0;
	g.slots[1] = 1;
	g.slots[2] = CATALOG_SLOT_FREE;
	g.name = "GRP_AB";
	g.desc = "A and B";
	cgen_group(&gr, &g);
	f.name = "RATIO";
	f.desc = "A per B";
	f.formula = "PM_A PM_B /";
	f.unit = "1";
	f.flags = 0x4;
	f.group = 0;
	cgen_formula(&fo, &f);
	f.name = "TOTAL";
	f.formula = "PM_A + PM_B";
	f.unit = "events";
	cgen_formula(&fo, &f);
	img = cgen_catalog(secs, &len);
	cat = parse_ok(img, len, 0);
	print_diags(cat);
	assert_int_equal(cat->ndiags, 0);
	assert_int_equal(cat->nschemas, 1);
	assert_int_equal(cat->schemas[0].nfields, 3);
	assert_int_equal(cat->schemas[0].fields[2].flags, 0x5);
	assert_int_equal(cat->schemas[0].fields[2].offset, 16);
	assert_int_equal(cat->nevents, 2);
	assert_string_equal(cat->events[0].desc, "first");
	assert_string_equal(cat->events[0].long_desc, "the first event");
	assert_int_equal(cat->events[0].flags, CATALOG_FLAG_VERIFIED);
	assert_int_equal(cat->events[0].offset, 0x108);
	/* v0.17 formula index: 1 < 2 formulas; 0xffff is none. */
	assert_int_equal(cat->events[0].formula, 1);
	assert_int_equal(cat->events[1].formula, CATALOG_NONE);
	assert_int_equal(cat->events[1].formula_raw, 0xffff);
	for (i = 0; i < 2; i++) {
		assert_int_equal(cat->events[i].ngroups, 1);
		assert_int_equal(cat->events[i].groups[0], 0);
		assert_int_equal(cat->events[i].skip, 0);
	}
	assert_string_equal(cat->groups[0].desc, "A and B");
	cf = catalog_find_formula(cat, "TOTAL");
	assert_non_null(cf);
	assert_int_equal(cf->index, 1);
	assert_string_equal(cf->formula, "PM_A + PM_B");
	assert_string_equal(cf->unit, "events");
	assert_string_equal(cf->desc, "A per B");
	assert_int_equal(cf->flags, 0x4);
	assert_int_equal(cf->file_offset, section_start(img, 3) +
	    cat->formulas[0].entry_length);
	assert_null(catalog_find_formula(cat, "RATIO2"));
	catalog_free(cat);
	free(img);
	cgen_buf_free(&sc);
	cgen_buf_free(&ev);
	cgen_buf_free(&gr);
	cgen_buf_free(&fo);
}

/* The kernel's __N numbering: catalog order, from 1, listed events only. */
static void
test_duplicates(void **state)
{
	static const struct {
		const char	*name;
		uint8_t		 domain;
		uint16_t	 reclen;
		const char	*sysfs;
	} in[] = {
		{ "DUP", 2, 64, "DUP" },
		{ "DUP", 2, 0, "DUP__3" },	/* skipped: numbered last */
		{ "DUP", 2, 64, "DUP__1" },
		{ "OTHER", 2, 64, "OTHER" },
		{ "DUP", 2, 64, "DUP__2" },
		{ "DUP", 1, 64, "DUP" },	/* another domain */
	};
	struct cgen_buf	 ev = { 0 };
	struct cgen_event e = { 0 };
	const struct catalog_event *f;
	struct catalog	*cat;
	uint8_t		*img;
	size_t		 len, i;

	(void)state;
	for (i = 0; i < sizeof in / sizeof in[0]; i++) {
		e.name = in[i].name;
		e.domain = in[i].domain;
		e.record_length = in[i].reclen;
		cgen_event(&ev, &e);
	}
	img = events_only(&ev, &len);
	cat = parse_ok(img, len, 1);
	for (i = 0; i < sizeof in / sizeof in[0]; i++)
		assert_string_equal(cat->events[i].sysfs_name, in[i].sysfs);
	assert_ptr_equal(catalog_find_sysfs(cat, "DUP__2"), &cat->events[4]);
	assert_ptr_equal(catalog_find_sysfs(cat, "DUP__3"), &cat->events[1]);
	assert_ptr_equal(catalog_find_sysfs(cat, "DUP"), &cat->events[0]);
	assert_null(catalog_find_sysfs(cat, "DUP__4"));
	/* Identity is (name, domain). */
	assert_ptr_equal(catalog_find_event(cat, "DUP", 2), &cat->events[0]);
	assert_ptr_equal(catalog_find_event(cat, "DUP", 1), &cat->events[5]);
	assert_null(catalog_find_event(cat, "DUP", 3));
	assert_ptr_equal(catalog_find_event(cat, "DUP", 0), &cat->events[0]);
	assert_null(catalog_find_event(cat, "DUP", -1));
	assert_null(catalog_find_event(cat, "DU", 0));
	f = catalog_find_event(cat, "OTHER", 0);
	assert_non_null(f);
	assert_int_equal(f->index, 3);
	/* Two listed events named DUP in sysfs: the kernel cannot. */
	assert_non_null(find_diag(cat, CATALOG_WARNING, "also that of event"));
	catalog_free(cat);
	free(img);
	cgen_buf_free(&ev);
}

/* Domain 0 lookups prefer an event the kernel lists. */
static void
test_find_prefers_listed(void **state)
{
	struct cgen_buf	 ev = { 0 };
	struct cgen_event e = { 0 };
	struct catalog	*cat;
	uint8_t		*img;
	size_t		 len;

	(void)state;
	e.name = "X";
	e.domain = 1;
	cgen_event(&ev, &e);		/* record length 0: skipped */
	e.domain = 2;
	e.record_length = 64;
	cgen_event(&ev, &e);
	img = events_only(&ev, &len);
	cat = parse_ok(img, len, 0);
	assert_ptr_equal(catalog_find_event(cat, "X", 0), &cat->events[1]);
	assert_ptr_equal(catalog_find_event(cat, "X", 1), &cat->events[0]);
	catalog_free(cat);
	free(img);
	cgen_buf_free(&ev);
}

static void
test_skip_rules(void **state)
{
	static const struct {
		const char	*name;
		uint8_t		 domain;
		uint16_t	 reclen;
		unsigned	 skip1, skip2;	/* for interface 1, 2 */
	} in[] = {
		{ "CHIP", 1, 64, 0, 0 },
		{ "CORE", 2, 64, 0, 0 },
		{ "THREAD", 3, 64, CATALOG_SKIP_DOMAIN, 0 },
		{ "NODE", 6, 64, CATALOG_SKIP_DOMAIN, 0 },
		{ "SEVEN", 7, 64, CATALOG_SKIP_DOMAIN, CATALOG_SKIP_DOMAIN },
		{ "ZERO", 0, 64, CATALOG_SKIP_DOMAIN, CATALOG_SKIP_DOMAIN },
		{ "RESERVED_1", 2, 64, CATALOG_SKIP_RESERVED,
		    CATALOG_SKIP_RESERVED },
		{ "NOREC", 2, 0, CATALOG_SKIP_RECLEN0, CATALOG_SKIP_RECLEN0 },
		{ "RESERVEDX", 3, 0, CATALOG_SKIP_RESERVED |
		    CATALOG_SKIP_RECLEN0 | CATALOG_SKIP_DOMAIN,
		    CATALOG_SKIP_RESERVED | CATALOG_SKIP_RECLEN0 },
	};
	struct cgen_buf	 ev = { 0 };
	struct cgen_event e = { 0 };
	struct catalog	*cat;
	uint8_t		*img;
	size_t		 len, i;
	int		 iface;

	(void)state;
	for (i = 0; i < sizeof in / sizeof in[0]; i++) {
		e.name = in[i].name;
		e.domain = in[i].domain;
		e.record_length = in[i].reclen;
		cgen_event(&ev, &e);
	}
	img = events_only(&ev, &len);
	for (iface = 0; iface <= 2; iface++) {
		cat = parse_ok(img, len, iface);
		/* Domains 3-6 appear, so the guess is interface 2. */
		assert_int_equal(cat->interface, iface == 1 ? 1 : 2);
		assert_int_equal(cat->interface_guessed, iface == 0);
		assert_int_equal(cat->nevents, sizeof in / sizeof in[0]);
		for (i = 0; i < sizeof in / sizeof in[0]; i++)
			assert_int_equal(cat->events[i].skip,
			    iface == 1 ? in[i].skip1 : in[i].skip2);
		/* Domains outside 1-6 are worth a warning, not a drop. */
		assert_non_null(find_diag(cat, CATALOG_WARNING,
		    "domain 7 is not"));
		assert_non_null(find_diag(cat, CATALOG_WARNING,
		    "domain 0 is not"));
		assert_int_equal(cat->nerrors, 0);
		catalog_free(cat);
	}
	free(img);
	cgen_buf_free(&ev);
}

/* String lengths below 2 or past the entry drop the entry, not the rest. */
static void
test_bad_strings(void **state)
{
	static const struct {
		uint16_t	 nl, dl, ldl;
		const char	*msg;
	} bad[] = {
		{ 1, 0, 0, "name length 1 is less than 2" },
		{ 0xffff, 0, 0, "name of length 65535 runs past" },
		{ 0, 1, 0, "description length 1 is less than 2" },
		{ 0, 0, 0x400, "long description of length 1024 runs past" },
	};
	struct cgen_buf	 ev = { 0 };
	struct cgen_event e = { 0 };
	const struct catalog_diag *d;
	struct catalog	*cat;
	uint8_t		*img;
	size_t		 len, i, base, offs[4];
	char		 want[32];

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		memset(&e, 0, sizeof e);
		e.domain = 2;
		e.record_length = 64;
		e.name = "GOOD";
		cgen_event(&ev, &e);
		e.name = "BAD";
		e.name_len = bad[i].nl;
		e.desc_len = bad[i].dl;
		e.long_desc_len = bad[i].ldl;
		offs[i] = cgen_event(&ev, &e);
	}
	img = events_only(&ev, &len);
	base = section_start(img, CATALOG_EVENTS);
	cat = parse_ok(img, len, 0);
	print_diags(cat);
	assert_int_equal(cat->nevents, 4);
	assert_int_equal(cat->dropped[CATALOG_EVENTS], 4);
	assert_int_equal(cat->nerrors, 4);
	for (i = 0; i < cat->nevents; i++) {
		assert_string_equal(cat->events[i].name, "GOOD");
		assert_int_equal(cat->events[i].index, 2 * i);
	}
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		d = find_diag(cat, CATALOG_ERROR, bad[i].msg);
		if (d == NULL)
			fail_msg("no diagnostic \"%s\"", bad[i].msg);
		assert_non_null(strstr(d->msg, "entry dropped"));
		if (i <= 1) {
			snprintf(want, sizeof want, "event %zu:", 2 * i + 1);
			assert_non_null(strstr(d->msg, want));
		} else
			assert_non_null(strstr(d->msg, "(BAD)"));
		/* At the length field: 0x14, after the name, ... */
		switch (i) {
		case 0:
		case 1:
			assert_int_equal(d->offset, base + offs[i] + 0x14);
			break;
		case 2:
			assert_int_equal(d->offset, base + offs[i] + 0x14 + 6);
			break;
		case 3:
			assert_int_equal(d->offset,
			    base + offs[i] + 0x14 + 6 + 4);
			break;
		}
	}
	/* The dropped events' slots are gone from the position map. */
	assert_null(catalog_event_at(cat, 1));
	assert_ptr_equal(catalog_event_at(cat, 2), &cat->events[1]);
	catalog_free(cat);
	free(img);
	cgen_buf_free(&ev);
}

/* Names used up to their length, never past it, NUL or not. */
static void
test_unterminated_strings(void **state)
{
	struct cgen_buf	 ev = { 0 };
	struct cgen_event e = { 0 };
	struct catalog	*cat;
	uint8_t		*img;
	size_t		 len;

	(void)state;
	e.domain = 2;
	e.record_length = 64;
	e.no_nul = 1;
	e.name = "ABCD";		/* even: no NUL, no pad */
	e.desc = "xy";
	e.long_desc = "long";
	cgen_event(&ev, &e);
	e.no_nul = 0;
	e.name = "NEXT";
	cgen_event(&ev, &e);
	img = events_only(&ev, &len);
	cat = parse_ok(img, len, 0);
	print_diags(cat);
	assert_int_equal(cat->ndiags, 0);
	assert_int_equal(cat->nevents, 2);
	assert_string_equal(cat->events[0].name, "ABCD");
	assert_string_equal(cat->events[0].desc, "xy");
	assert_string_equal(cat->events[0].long_desc, "long");
	assert_string_equal(cat->events[1].name, "NEXT");
	catalog_free(cat);
	free(img);
	cgen_buf_free(&ev);
}

/* Lengths that are not multiples of 16, and odd string offsets, warn. */
static void
test_length_and_alignment_warnings(void **state)
{
	struct cgen_buf	 ev = { 0 };
	struct cgen_event e = { 0 };
	const struct catalog_diag *d;
	struct catalog	*cat;
	uint8_t		*img, odd[0x30];
	size_t		 len, base, off1, off2;

	(void)state;
	e.domain = 2;
	e.record_length = 64;
	e.name = "A";
	e.length = 0x28;		/* enough, but not a multiple of 16 */
	cgen_event(&ev, &e);
	/* An odd name length puts the description length at an odd offset. */
	memset(odd, 0, sizeof odd);
	be16_put(odd, sizeof odd);
	odd[0x04] = 2;
	be16_put(odd + 0x08, 64);
	be16_put(odd + 0x14, 3);	/* "B" without a NUL: odd */
	odd[0x16] = 'B';
	be16_put(odd + 0x17, 2);
	be16_put(odd + 0x19, 2);
	off1 = cgen_raw(&ev, odd, sizeof odd, 1);
	e.length = 0;
	e.name = "C";
	e.record_offset = 0x44;		/* not 8-byte aligned */
	off2 = cgen_event(&ev, &e);
	img = events_only(&ev, &len);
	base = section_start(img, CATALOG_EVENTS);
	cat = parse_ok(img, len, 0);
	print_diags(cat);
	assert_int_equal(cat->nerrors, 0);
	assert_int_equal(cat->nevents, 3);
	assert_string_equal(cat->events[1].name, "B");
	assert_string_equal(cat->events[2].name, "C");
	d = find_diag(cat, CATALOG_WARNING, "length 40 is not a multiple of 16");
	assert_non_null(d);
	assert_int_equal(d->offset, base);
	d = find_diag(cat, CATALOG_WARNING,
	    "description length field is at an odd offset");
	assert_non_null(d);
	assert_int_equal(d->offset, base + off1 + 0x17);
	d = find_diag(cat, CATALOG_WARNING, "0x44 is not 8-byte aligned");
	assert_non_null(d);
	assert_int_equal(d->offset, base + off2 + 0x06);
	catalog_free(cat);
	free(img);
	cgen_buf_free(&ev);
}

/* A length that cannot be trusted ends the walk and says what was lost. */
static void
test_broken_entry_length(void **state)
{
	static const struct {
		uint16_t	 length;
		const char	*msg;
	} cases[] = {
		{ 0, "length 0 is less than the 26 bytes" },
		{ 0x10, "length 16 is less than the 26 bytes" },
		{ 0xfff0, "length 65520 runs past the end of the events section" },
	};
	struct cgen_buf	 ev;
	struct cgen_event e = { 0 };
	const struct catalog_diag *d;
	struct catalog	*cat;
	uint8_t		*img;
	size_t		 len, i, j, base, off = 0;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		memset(&ev, 0, sizeof ev);
		for (j = 0; j < 5; j++) {
			memset(&e, 0, sizeof e);
			e.domain = 2;
			e.record_length = 64;
			e.name = "E";
			if (j == 2)
				off = cgen_event(&ev, &e);
			else
				cgen_event(&ev, &e);
		}
		img = events_only(&ev, &len);
		base = section_start(img, CATALOG_EVENTS);
		be16_put(img + base + off, cases[i].length);
		cat = parse_ok(img, len, 0);
		print_diags(cat);
		assert_int_equal(cat->nevents, 2);
		assert_int_equal(cat->dropped[CATALOG_EVENTS], 3);
		d = find_diag(cat, CATALOG_ERROR, cases[i].msg);
		if (d == NULL)
			fail_msg("no diagnostic \"%s\"", cases[i].msg);
		assert_int_equal(d->offset, base + off);
		assert_non_null(strstr(d->msg, "3 of 5 events lost"));
		catalog_free(cat);
		free(img);
		cgen_buf_free(&ev);
	}
}

/* More entries claimed than the section holds. */
static void
test_count_overrun(void **state)
{
	struct cgen_buf	 ev = { 0 };
	struct cgen_event e = { 0 };
	const struct catalog_diag *d;
	struct catalog	*cat;
	uint8_t		*img;
	size_t		 len, base, i;

	(void)state;
	/* 32 entries of 128 bytes fill the page exactly. */
	for (i = 0; i < 32; i++) {
		e.domain = 2;
		e.record_length = 64;
		e.name = "FILL";
		e.length = 128;
		cgen_event(&ev, &e);
	}
	img = events_only(&ev, &len);
	base = section_start(img, CATALOG_EVENTS);
	be16_put(img + CGEN_P0_SECTION(CATALOG_EVENTS) + 4, 40);
	cat = parse_ok(img, len, 0);
	print_diags(cat);
	assert_int_equal(cat->nevents, 32);
	assert_int_equal(cat->dropped[CATALOG_EVENTS], 8);
	d = find_diag(cat, CATALOG_ERROR, "after 32 of 40 entries; 8 events "
	    "lost");
	assert_non_null(d);
	assert_int_equal(d->offset, base + 4096);
	catalog_free(cat);

	/* Claimed count far above what follows: zeros end the walk. */
	be16_put(img + CGEN_P0_SECTION(CATALOG_EVENTS) + 2, 2);
	img = xreallocarray(img, len + 4096, 1);
	memset(img + len, 0, 4096);
	be32_put(img + CGEN_P0_LENGTH, (uint32_t)(len + 4096) / 4096);
	be16_put(img + CGEN_P0_SECTION(CATALOG_EVENTS) + 4, 65535);
	cat = parse_ok(img, len + 4096, 0);
	assert_int_equal(cat->nevents, 32);
	assert_int_equal(cat->dropped[CATALOG_EVENTS], 65535 - 32);
	d = find_diag(cat, CATALOG_ERROR, "event 32: length 0");
	assert_non_null(d);
	assert_non_null(strstr(d->msg, "65503 of 65535 events lost"));
	catalog_free(cat);
	free(img);
	cgen_buf_free(&ev);
}

/* Sections outside the catalog, cut by its end, empty or on page 0. */
static void
test_sections_outside(void **state)
{
	struct cgen_buf	 ev = { 0 }, gr = { 0 };
	struct cgen_buf	*const secs[4] = { NULL, &ev, &gr, NULL };
	struct cgen_event e = { 0 };
	struct cgen_group g = { 0 };
	const struct catalog_diag *d;
	struct catalog	*cat;
	uint8_t		*img;
	size_t		 len, i;

	(void)state;
	for (i = 0; i < 40; i++) {
		e.domain = 2;
		e.record_length = 64;
		e.name = "EV";
		e.length = 128;
		cgen_event(&ev, &e);	/* 40 x 128 bytes: 2 pages */
	}
	g.domain = 2;
	g.event_count = 1;
	g.name = "G";
	cgen_group(&gr, &g);
	img = cgen_catalog(secs, &len);
	assert_int_equal(len, 4 * 4096);

	/* Events at page 9 of a 4-page catalog. */
	be16_put(img + CGEN_P0_SECTION(CATALOG_EVENTS), 9);
	cat = parse_ok(img, len, 0);
	d = find_diag(cat, CATALOG_ERROR, "events section (pages 0x9-0xa) "
	    "lies outside the catalog");
	assert_non_null(d);
	assert_int_equal(d->offset, CGEN_P0_SECTION(CATALOG_EVENTS));
	assert_int_equal(cat->nevents, 0);
	assert_int_equal(cat->dropped[CATALOG_EVENTS], 40);
	assert_int_equal(cat->ngroups, 1);
	/* The group's slot 0 names event 0, which is not there. */
	assert_non_null(find_diag(cat, CATALOG_WARNING, "which was dropped"));
	catalog_free(cat);

	/* Events on pages 2-3 share page 3 with the groups. */
	be16_put(img + CGEN_P0_SECTION(CATALOG_EVENTS), 2);
	cat = parse_ok(img, len, 0);
	d = find_diag(cat, CATALOG_WARNING, "groups section (pages 0x3-0x3) "
	    "overlaps the events section (pages 0x2-0x3)");
	assert_non_null(d);
	assert_int_equal(d->offset, CGEN_P0_SECTION(CATALOG_GROUPS));
	catalog_free(cat);

	/* A catalog of 2 pages keeps only page 1 of the events. */
	be16_put(img + CGEN_P0_SECTION(CATALOG_EVENTS), 1);
	be32_put(img + CGEN_P0_LENGTH, 2);
	cat = parse_ok(img, 2 * 4096, 0);
	print_diags(cat);
	d = find_diag(cat, CATALOG_ERROR, "events section (bytes "
	    "0x1000-0x2fff) is cut short by the end");
	assert_non_null(d);
	assert_int_equal(d->offset, 2 * 4096);
	assert_int_equal(cat->nevents, 32);	/* 32 x 128 bytes fit */
	d = find_diag(cat, CATALOG_ERROR, "after 32 of 40 entries; 8 events "
	    "lost");
	assert_non_null(d);
	assert_int_equal(d->offset, 2 * 4096);
	assert_non_null(find_diag(cat, CATALOG_ERROR, "groups section (pages "
	    "0x3-0x3) lies outside the catalog"));
	catalog_free(cat);
	be32_put(img + CGEN_P0_LENGTH, 4);

	/* Entries claimed in 0 pages; a section on page 0. */
	be16_put(img + CGEN_P0_SECTION(CATALOG_EVENTS), 1);
	be16_put(img + CGEN_P0_SECTION(CATALOG_EVENTS) + 2, 0);
	be16_put(img + CGEN_P0_SECTION(CATALOG_GROUPS), 0);
	cat = parse_ok(img, len, 0);
	assert_non_null(find_diag(cat, CATALOG_ERROR, "claims 40 entries in "
	    "0 pages"));
	assert_non_null(find_diag(cat, CATALOG_ERROR, "groups section starts "
	    "at page 0"));
	assert_int_equal(cat->nevents + cat->ngroups, 0);
	catalog_free(cat);
	free(img);
	cgen_buf_free(&ev);
	cgen_buf_free(&gr);
}

static void
test_page0_problems(void **state)
{
	struct cgen_buf	 ev = { 0 };
	struct cgen_event e = { 0 };
	struct catalog	*cat = NULL;
	uint8_t		*img;
	char		*cause = NULL;
	size_t		 len;

	(void)state;
	e.domain = 2;
	e.record_length = 64;
	e.name = "E";
	cgen_event(&ev, &e);
	img = events_only(&ev, &len);

	/* Too short for page 0's fields. */
	assert_int_equal(catalog_parse(img, 0x5f, 0, &cat, &cause),
	    -HV_ETRUNC);
	assert_null(cat);
	assert_string_equal(cause, "offset 0x5f: the catalog ends after 95 "
	    "bytes; its header needs 96");
	free(cause);
	cause = NULL;
	assert_int_equal(catalog_parse(img, len, 3, &cat, &cause),
	    -HV_EUSAGE);
	free(cause);

	/* Declared shorter than the file: the rest is ignored. */
	img = xreallocarray(img, len + 100, 1);
	memset(img + len, 0xee, 100);
	cat = parse_ok(img, len + 100, 0);
	assert_int_equal(cat->nerrors, 0);
	assert_int_equal(cat->size, len);
	assert_non_null(find_diag(cat, CATALOG_WARNING, "100 bytes after"));
	catalog_free(cat);

	/* Wrong magic, zero length, odd time stamp. */
	be32_put(img, 0x12345678);
	be32_put(img + CGEN_P0_LENGTH, 0);
	memcpy(img + 0x10, "yesterday\0\0\0\0\0\0\0", 16);
	cat = parse_ok(img, len, 0);
	assert_non_null(find_diag(cat, CATALOG_ERROR, "magic is 0x12345678"));
	assert_non_null(find_diag(cat, CATALOG_ERROR, "length is 0 pages"));
	assert_non_null(find_diag(cat, CATALOG_WARNING, "\"yesterday\""));
	assert_string_equal(cat->build_time, "yesterday");
	/* Entries are still read: everything else can be trusted. */
	assert_int_equal(cat->nevents, 1);
	catalog_free(cat);
	free(img);
	cgen_buf_free(&ev);
}

/* Proposal v0.16 sub-section offsets and the v0.17 formula index. */
static void
test_proposal_fields(void **state)
{
	struct cgen_buf	 ev = { 0 }, fo = { 0 };
	struct cgen_buf	*const secs[4] = { NULL, &ev, NULL, &fo };
	struct cgen_event e = { 0 };
	struct cgen_formula f = { 0 };
	const struct catalog_diag *d;
	struct catalog	*cat;
	uint8_t		*img;
	size_t		 len, off1;

	(void)state;
	e.domain = 2;
	e.record_length = 64;
	e.name = "A";
	e.formula_raw = 0;
	cgen_event(&ev, &e);
	e.name = "B";
	e.formula_raw = 2;		/* only 2 formulas: out of range */
	off1 = cgen_event(&ev, &e);
	f.name = "F0";
	cgen_formula(&fo, &f);
	f.name = "F1";
	cgen_formula(&fo, &f);
	img = cgen_catalog(secs, &len);
	be32_put(img + 0x60, (uint32_t)off1);	/* core events: entry 1 */
	be32_put(img + 0x64, CATALOG_NONE);	/* thread events: none */
	be32_put(img + 0x68, 0x30);		/* chip events: mid-entry */
	cat = parse_ok(img, len, 0);
	print_diags(cat);
	assert_int_equal(cat->sub_offsets[0], off1);
	assert_int_equal(cat->sub_offsets[1], CATALOG_NONE);
	assert_int_equal(cat->sub_offsets[3], 0);
	d = find_diag(cat, CATALOG_WARNING, "offset to the chip events, 0x30");
	assert_non_null(d);
	assert_int_equal(d->offset, 0x68);
	assert_null(find_diag(cat, CATALOG_WARNING, "core events"));
	assert_int_equal(cat->events[0].formula, 0);
	assert_int_equal(cat->events[1].formula, CATALOG_NONE);
	assert_non_null(find_diag(cat, CATALOG_WARNING, "formula index 2 is "
	    "not below the formula count 2"));
	assert_int_equal(cat->nerrors, 0);
	catalog_free(cat);
	free(img);
	cgen_buf_free(&ev);
	cgen_buf_free(&fo);
}

static void
test_group_slots(void **state)
{
	struct cgen_buf	 ev = { 0 }, gr = { 0 };
	struct cgen_buf	*const secs[4] = { NULL, &ev, &gr, NULL };
	struct cgen_event e = { 0 };
	struct cgen_group g = { 0 };
	struct catalog	*cat;
	uint8_t		*img;
	size_t		 len, i;

	(void)state;
	for (i = 0; i < 4; i++) {
		e.domain = 2;
		e.record_length = 64;
		e.name = i == 0 ? "E0" : i == 1 ? "E1" : i == 2 ? "E2" : "E3";
		cgen_event(&ev, &e);
	}
	/* Slots past event_count are ignored, whatever they hold. */
	g.domain = 2;
	g.name = "G0";
	g.event_count = 3;
	g.slots[0] = CATALOG_SLOT_FREE;
	g.slots[1] = 1;
	g.slots[2] = 2;
	g.slots[3] = 3;
	cgen_group(&gr, &g);
	g.name = "G1";
	g.event_count = 4;
	g.slots[0] = 2;
	g.slots[1] = 9;			/* no such event */
	g.slots[2] = 2;			/* twice in one group */
	g.slots[3] = CATALOG_SLOT_FREE;
	cgen_group(&gr, &g);
	g.name = "G2";
	g.domain = 1;			/* events of domain 2 in a chip group */
	g.event_count = 20;		/* more than 16 slots */
	g.schema = 3;
	memset(g.slots, 0, sizeof g.slots);
	cgen_group(&gr, &g);
	img = cgen_catalog(secs, &len);
	cat = parse_ok(img, len, 0);
	print_diags(cat);
	assert_int_equal(cat->nerrors, 0);
	assert_int_equal(cat->events[0].ngroups, 1);
	assert_int_equal(cat->events[0].groups[0], 2);
	assert_int_equal(cat->events[1].ngroups, 1);
	assert_int_equal(cat->events[2].ngroups, 2);
	assert_int_equal(cat->events[2].groups[0], 0);
	assert_int_equal(cat->events[2].groups[1], 1);
	assert_int_equal(cat->events[3].ngroups, 0);
	assert_non_null(find_diag(cat, CATALOG_WARNING, "slot 1 names event "
	    "9, not below the event count 4"));
	assert_non_null(find_diag(cat, CATALOG_WARNING, "event count 20 is "
	    "not 1-16"));
	assert_non_null(find_diag(cat, CATALOG_WARNING, "schema 3 is not "
	    "below the schema count 0"));
	assert_non_null(find_diag(cat, CATALOG_WARNING, "but the group is of "
	    "domain 1"));
	assert_ptr_equal(catalog_find_group(cat, "G1"), &cat->groups[1]);
	assert_null(catalog_find_group(cat, "G3"));
	assert_ptr_equal(catalog_group_at(cat, 2), &cat->groups[2]);
	assert_null(catalog_group_at(cat, 3));
	catalog_free(cat);
	free(img);
	cgen_buf_free(&ev);
	cgen_buf_free(&gr);
}

static void
test_schema_and_formula_problems(void **state)
{
	static const uint16_t fields[2][4] = {
		{ 55, 0, 8, 0 },
		{ 99, 8, 8, 0 },
	};
	struct cgen_buf	 sc = { 0 }, fo = { 0 };
	struct cgen_buf	*const secs[4] = { &sc, NULL, NULL, &fo };
	struct cgen_formula f = { 0 };
	struct catalog	*cat;
	uint8_t		*img, bad[0x20];
	size_t		 len;

	(void)state;
	cgen_schema(&sc, 1, 1, 2, fields);
	memset(bad, 0, sizeof bad);
	be16_put(bad, sizeof bad);
	be16_put(bad + 0x0e, 3);	/* 3 fields need 0x28 bytes */
	cgen_raw(&sc, bad, sizeof bad, 1);
	cgen_schema(&sc, 2, 1, 1, fields);
	f.name = "";
	f.formula = "1";
	cgen_formula(&fo, &f);
	f.name = "OK";
	f.flags = 0x4;
	f.group = 7;
	cgen_formula(&fo, &f);
	img = cgen_catalog(secs, &len);
	cat = parse_ok(img, len, 0);
	print_diags(cat);
	assert_int_equal(cat->nschemas, 2);
	assert_int_equal(cat->schemas[1].descriptor, 2);
	assert_non_null(find_diag(cat, CATALOG_ERROR, "3 fields need 40 bytes"));
	assert_non_null(find_diag(cat, CATALOG_WARNING, "unknown enum 99"));
	assert_null(find_diag(cat, CATALOG_WARNING, "unknown enum 55"));
	assert_int_equal(cat->nformulas, 1);
	assert_string_equal(cat->formulas[0].name, "OK");
	assert_int_equal(cat->formulas[0].index, 1);
	assert_non_null(find_diag(cat, CATALOG_ERROR, "formula 0: the name "
	    "is empty"));
	assert_non_null(find_diag(cat, CATALOG_WARNING, "group 7 is not below "
	    "the group count 0"));
	assert_int_equal(cat->nerrors, 2);
	assert_int_equal(cat->dropped[CATALOG_SCHEMAS], 1);
	assert_int_equal(cat->dropped[CATALOG_FORMULAS], 1);
	catalog_free(cat);
	free(img);
	cgen_buf_free(&sc);
	cgen_buf_free(&fo);
}

/* Diagnostics come in offset order. */
static void
test_diag_order(void **state)
{
	struct cgen_buf	 ev = { 0 };
	struct cgen_event e = { 0 };
	struct catalog	*cat;
	uint8_t		*img;
	size_t		 len, i;

	(void)state;
	for (i = 0; i < 20; i++) {
		e.domain = 9;
		e.record_length = 64;
		e.record_offset = 4;
		e.name = "W";
		cgen_event(&ev, &e);
	}
	img = events_only(&ev, &len);
	be32_put(img, 0);
	cat = parse_ok(img, len, 0);
	assert_true(cat->ndiags >= 40);
	for (i = 1; i < cat->ndiags; i++)
		assert_true(cat->diags[i - 1].offset <= cat->diags[i].offset);
	assert_int_equal(cat->diags[0].offset, 0);
	catalog_free(cat);
	free(img);
	cgen_buf_free(&ev);
}

/* A model built by hand becomes searchable with catalog_reindex(). */
static void
test_reindex_by_hand(void **state)
{
	struct catalog	*cat;
	size_t		 i;

	(void)state;
	cat = xcalloc(1, sizeof *cat);
	cat->nevents = 3;
	cat->events = xcalloc(3, sizeof *cat->events);
	for (i = 0; i < 3; i++) {
		cat->events[i].index = (uint32_t)i;
		cat->events[i].domain = 4;
		cat->events[i].record_length = 64;
		cat->events[i].name = xstrdup(i == 2 ? "Y" : "X");
		cat->events[i].sysfs_name = xstrdup("stale");
	}
	cat->ngroups = 1;
	cat->groups = xcalloc(1, sizeof *cat->groups);
	cat->groups[0].name = xstrdup("G");
	cat->groups[0].event_count = 2;
	cat->groups[0].events[0] = 2;
	cat->groups[0].events[1] = CATALOG_SLOT_FREE;
	catalog_reindex(cat);
	assert_int_equal(cat->interface, 2);
	assert_string_equal(cat->events[1].sysfs_name, "X__1");
	assert_ptr_equal(catalog_find_sysfs(cat, "X__1"), &cat->events[1]);
	assert_int_equal(cat->events[2].ngroups, 1);
	/* Twice is fine: nothing leaks, nothing doubles. */
	catalog_reindex(cat);
	assert_int_equal(cat->events[2].ngroups, 1);
	assert_string_equal(cat->events[1].sysfs_name, "X__1");
	catalog_free(cat);
}

static void
test_names(void **state)
{
	char	*s;

	(void)state;
	assert_string_equal(catalog_domain_name(1), "Physical Chip");
	assert_string_equal(catalog_domain_name(6), "VCPU Remote Node");
	assert_string_equal(catalog_domain_name(0), "?");
	assert_string_equal(catalog_domain_name(7), "?");
	assert_string_equal(catalog_domain_name(-1), "?");
	assert_string_equal(catalog_domain_index_term(1), "chip");
	assert_string_equal(catalog_domain_index_term(2), "core");
	assert_string_equal(catalog_domain_index_term(5), "vcpu");
	assert_string_equal(catalog_domain_suffix_2014(4), "vcpu_home_chip");
	assert_string_equal(catalog_field_name(3), "COUNTER3");
	assert_string_equal(catalog_field_name(31), "COUNTER31");
	assert_string_equal(catalog_field_name(32), "?");
	assert_string_equal(catalog_field_name(0), "?");
	assert_string_equal(catalog_field_name(48), "TIMEBASE_UPDATE");
	assert_string_equal(catalog_field_name(54), "STATUS_FLAGS");
	assert_string_equal(catalog_field_name(55), "?");
	assert_string_equal(catalog_section_name(CATALOG_GROUPS), "groups");
	assert_string_equal(catalog_section_name(9), "?");
	s = catalog_printable("a\tb\\c\xff");
	assert_string_equal(s, "a\\x09b\\\\c\\xff");
	free(s);
}

static void
test_sysfs_strings(void **state)
{
	struct catalog_event	 ev;
	char			*s;

	(void)state;
	memset(&ev, 0, sizeof ev);
	ev.offset = 0x358;
	ev.domain = 1;
	s = catalog_sysfs_string(&ev, CATALOG_SYSFS_CURRENT);
	assert_string_equal(s, "domain=1,offset=0x358,chip=?,lpar=0x0");
	free(s);
	s = catalog_sysfs_string(&ev, CATALOG_SYSFS_2014);
	assert_string_equal(s, "domain=0x1,offset=0x358,starting_index=chip,"
	    "lpar=sibling_guest_id");
	free(s);
	ev.domain = 3;
	s = catalog_sysfs_string(&ev, CATALOG_SYSFS_CURRENT);
	assert_string_equal(s, "domain=?,offset=0x358,vcpu=?,lpar=?");
	free(s);
	s = catalog_sysfs_string_domain(&ev, CATALOG_SYSFS_2014, 6);
	assert_string_equal(s, "domain=0x6,offset=0x358,starting_index=vcpu,"
	    "lpar=sibling_guest_id");
	free(s);
	/* As the kernel: every other domain takes the VCPU form. */
	ev.domain = 9;
	s = catalog_sysfs_string(&ev, CATALOG_SYSFS_CURRENT);
	assert_string_equal(s, "domain=?,offset=0x358,vcpu=?,lpar=?");
	free(s);
}

/* The 2014 listing of catalog domains 3-6 and of RESERVED names. */
static void
test_sysfs_list_2014(void **state)
{
	struct catalog_sysfs_entry *v;
	struct cgen_buf	 ev = { 0 };
	struct cgen_event e = { 0 };
	struct catalog	*cat;
	uint8_t		*img;
	size_t		 len, n;

	(void)state;
	e.record_length = 64;
	e.domain = 3;
	e.name = "THR";
	cgen_event(&ev, &e);
	e.domain = 2;
	e.name = "RESERVED_X";
	cgen_event(&ev, &e);
	e.domain = 8;
	e.name = "BAD";
	cgen_event(&ev, &e);
	img = events_only(&ev, &len);
	cat = parse_ok(img, len, 1);
	n = catalog_sysfs_list(cat, CATALOG_SYSFS_2014, &v);
	assert_int_equal(n, 1);
	assert_string_equal(v[0].name, "THR__vcpu_home_core");
	assert_int_equal(v[0].domain, 3);
	catalog_sysfs_list_free(v, n);
	/* Interface 1 skips domain 3 today. */
	n = catalog_sysfs_list(cat, CATALOG_SYSFS_CURRENT, &v);
	assert_int_equal(n, 0);
	catalog_sysfs_list_free(v, n);
	catalog_free(cat);
	free(img);
	cgen_buf_free(&ev);
}

/* Catalog text is made safe to print; valid UTF-8 and backslashes stay. */
static void
test_text_escape(void **state)
{
	static const struct {
		const char	*in, *out;	/* out NULL: already safe */
	} v[] = {
		{ "PM_PB_CYC", NULL },
		{ "a\\b", NULL },
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", NULL },
		{ "", NULL },
		{ "\x1b]0;x\x07", "\\x1b]0;x\\x07" },
		{ "a\tb\nc\rd\x7f", "a\\x09b\\x0ac\\x0dd\\x7f" },
		/* C1: a lone byte, and U+009B in UTF-8. */
		{ "\x9b" "2J", "\\x9b2J" },
		{ "\xc2\x9b" "1m \xc2\x85", "\\xc2\\x9b1m \\xc2\\x85" },
		/* Invalid UTF-8: overlong, surrogate, cut, out of range. */
		{ "\xc0\xaf", "\\xc0\\xaf" },
		{ "\xed\xa0\x80", "\\xed\\xa0\\x80" },
		{ "x\xe2\x82", "x\\xe2\\x82" },
		{ "\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80" },
		{ "\xff\xfe", "\\xff\\xfe" },
		/* U+00A0 is no control. */
		{ "\xc2\xa0", NULL },
	};
	size_t	 i;
	char	*s;

	(void)state;
	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		s = catalog_text_escape(v[i].in);
		if (v[i].out == NULL) {
			assert_null(s);
			assert_true(catalog_text_is_safe(v[i].in));
		} else {
			assert_non_null(s);
			assert_string_equal(s, v[i].out);
			assert_false(catalog_text_is_safe(v[i].in));
			assert_true(catalog_text_is_safe(s));
		}
		free(s);
	}
	assert_null(catalog_text_escape(NULL));
}

/* Overwrite the start of the first NUL-terminated string old with new. */
static void
patch_string(uint8_t *buf, size_t len, const char *old, const char *new)
{
	size_t	 n = strlen(old) + 1, i;

	assert_true(strlen(new) <= strlen(old));
	for (i = 0; i + n <= len; i++) {
		if (memcmp(buf + i, old, n) == 0) {
			memcpy(buf + i, new, strlen(new));
			return;
		}
	}
	fail_msg("no string %s", old);
}

#define HOSTILE_NAME	"\x1b]0;PWND\x07" "ABCDEFGHIJKLMN"
#define HOSTILE_TEXT	"\\x1b]0;PWND\\x07ABCDEFGHIJKLMN"

/*
 * A catalog whose strings hold escape sequences: the model hands out
 * escaped text, finds events by it, and writes the bytes as stored.
 */
static void
test_hostile_strings(void **state)
{
	struct catalog			*cat, *back;
	const struct catalog_event	*ev;
	uint8_t				*buf;
	void				*img, *img2;
	char				*cause = NULL;
	size_t				 len, ilen, ilen2, i;

	(void)state;
	buf = fixture_read(FIXTURE_P8, &len);
	patch_string(buf, len, "HPM_1THRD_NON_IDLE_CCYC",
	    HOSTILE_NAME);
	patch_string(buf, len, "Count of constant clock transitions when "
	    "exactly one qualified thread is executing non-idle code",
	    "\x9b" "2J\xc2\x9b" "1m\xff okay\t\n");
	cat = parse_ok(buf, len, 1);
	ev = catalog_find_event(cat, HOSTILE_TEXT, 0);
	assert_non_null(ev);
	assert_string_equal(ev->desc, "\\x9b2J\\xc2\\x9b1m\\xff okay\\x09\\x0a"
	    "nt clock transitions when exactly one qualified thread "
	    "is executing non-idle code");
	assert_non_null(ev->stored[0]);
	assert_string_equal(ev->stored[0], HOSTILE_NAME);
	assert_null(ev->stored[2]);
	assert_non_null(catalog_find_sysfs(cat, ev->sysfs_name));
	for (i = 0; i < cat->nevents; i++) {
		assert_true(catalog_text_is_safe(cat->events[i].name));
		assert_true(catalog_text_is_safe(cat->events[i].desc));
		assert_true(catalog_text_is_safe(cat->events[i].sysfs_name));
	}
	/* Indexing again changes nothing. */
	catalog_reindex(cat);
	assert_string_equal(ev->name, HOSTILE_TEXT);
	assert_string_equal(ev->stored[0], HOSTILE_NAME);

	/* The writer stores the bytes the catalog had. */
	assert_int_equal(catalog_write(cat, &img, &ilen, &cause), 0);
	assert_non_null(memmem(img, ilen, HOSTILE_NAME, 23));
	back = parse_ok(img, ilen, 1);
	assert_non_null(catalog_find_event(back, HOSTILE_TEXT, 0));
	assert_int_equal(catalog_write(back, &img2, &ilen2, &cause), 0);
	assert_int_equal(ilen, ilen2);
	assert_memory_equal(img, img2, ilen);

	/* A name changed by hand is written as it now is. */
	free(img2);
	i = (size_t)(ev - cat->events);
	free(cat->events[i].name);
	cat->events[i].name = xstrdup("HPM_1THRD_NON_IDLE_CYX");
	assert_int_equal(catalog_write(cat, &img2, &ilen2, &cause), 0);
	assert_non_null(memmem(img2, ilen2, "HPM_1THRD_NON_IDLE_CYX", 22));
	assert_null(memmem(img2, ilen2, HOSTILE_NAME, 23));
	free(img2);
	catalog_free(back);
	catalog_free(cat);
	free(img);
	free(buf);
}

/* hvcat, the simulator and perf guess one interface from the events. */
static void
test_guess_interface(void **state)
{
	struct catalog	*cat;
	uint8_t		*buf;
	size_t		 len, i;

	(void)state;
	/* POWER8's first catalog: chip events without group records. */
	buf = fixture_read(FIXTURE_P8, &len);
	cat = parse_ok(buf, len, 0);
	assert_int_equal(cat->interface, 1);
	assert_int_equal(cat->interface_guessed, 1);
	assert_int_equal(catalog_guess_interface(cat), 1);
	/* Chip events with records and no VCPU events: POWER9 and later. */
	for (i = 0; i < cat->nevents; i++)
		cat->events[i].record_length = 64;
	assert_int_equal(catalog_guess_interface(cat), 2);
	/* VCPU placeholders without a record: POWER8's thread events. */
	cat->events[0].domain = CATALOG_DOMAIN_VCPU_HOME_CORE;
	cat->events[0].record_length = 0;
	assert_int_equal(catalog_guess_interface(cat), 1);
	/* A VCPU event with a record can only be interface 2. */
	cat->events[1].domain = CATALOG_DOMAIN_VCPU_HOME_CHIP;
	assert_int_equal(catalog_guess_interface(cat), 2);
	catalog_free(cat);
	free(buf);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_p8_catalog),
		cmocka_unit_test(test_p8_sysfs_2014),
		cmocka_unit_test(test_empty_catalog),
		cmocka_unit_test(test_p8_truncated),
		cmocka_unit_test(test_generated_roundtrip),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_find_prefers_listed),
		cmocka_unit_test(test_skip_rules),
		cmocka_unit_test(test_bad_strings),
		cmocka_unit_test(test_unterminated_strings),
		cmocka_unit_test(test_length_and_alignment_warnings),
		cmocka_unit_test(test_broken_entry_length),
		cmocka_unit_test(test_count_overrun),
		cmocka_unit_test(test_sections_outside),
		cmocka_unit_test(test_page0_problems),
		cmocka_unit_test(test_proposal_fields),
		cmocka_unit_test(test_group_slots),
		cmocka_unit_test(test_schema_and_formula_problems),
		cmocka_unit_test(test_diag_order),
		cmocka_unit_test(test_reindex_by_hand),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_sysfs_strings),
		cmocka_unit_test(test_sysfs_list_2014),
		cmocka_unit_test(test_text_escape),
		cmocka_unit_test(test_hostile_strings),
		cmocka_unit_test(test_guess_interface),
	};

	return (cmocka_run_group_tests_name("catalog-parse", tests, NULL,
	    NULL));
}
