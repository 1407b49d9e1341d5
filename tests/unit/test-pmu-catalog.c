/*
 * Unit tests for src/pmu/pmu-catalog.c, the catalog model built from a
 * PMU's sysfs listing: per-CPU PMUs (events, offsets, descriptions,
 * groups of 16, several PMUs in one model, finding an event's PMU again)
 * and hv_24x7's own listing, checked against the real POWER8 catalog the
 * real listing was made from.  Linked with libhvpure.a alone: the strings
 * come from the test, never from sysfs.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "catalog/catalog.h"
#include "pmu/pmu.h"
#include "util/hverr.h"
#include "util/xalloc.h"

#include "fixture.h"

/* A listing under construction: events parsed from "NAME\tTERMS". */
struct listing {
	struct pmu_listing	 l;
	struct pmu_event	*events;
	char			**descs;
	char			**units;
	char			**scales;
	size_t			 n;
	size_t			 cap;
};

static void
listing_add(struct listing *ls, const char *name, const char *terms,
    const char *unit, const char *scale, const char *desc)
{
	char	*cause = NULL;

	if (ls->n == ls->cap) {
		ls->cap = ls->cap == 0 ? 16 : ls->cap * 2;
		ls->events = xreallocarray(ls->events, ls->cap,
		    sizeof *ls->events);
		ls->descs = xreallocarray(ls->descs, ls->cap,
		    sizeof *ls->descs);
		ls->units = xreallocarray(ls->units, ls->cap,
		    sizeof *ls->units);
		ls->scales = xreallocarray(ls->scales, ls->cap,
		    sizeof *ls->scales);
	}
	if (pmu_event_parse(name, terms, strlen(terms), &ls->events[ls->n],
	    &cause) != 0)
		fail_msg("%s: %s", name, cause);
	ls->units[ls->n] = unit != NULL ? xstrdup(unit) : NULL;
	ls->scales[ls->n] = scale != NULL ? xstrdup(scale) : NULL;
	ls->descs[ls->n] = desc != NULL ? xstrdup(desc) : NULL;
	ls->n++;
}

/* The listing as pmu_catalog_build() takes it. */
static const struct pmu_listing *
listing_done(struct listing *ls, const char *pmu)
{
	ls->l.name = pmu;
	ls->l.events = ls->events;
	ls->l.nevents = ls->n;
	ls->l.descs = ls->descs;
	ls->l.units = ls->units;
	ls->l.scales = ls->scales;
	return (&ls->l);
}

static void
listing_free(struct listing *ls)
{
	size_t	 i;

	for (i = 0; i < ls->n; i++) {
		pmu_event_clear(&ls->events[i]);
		free(ls->descs[i]);
		free(ls->units[i]);
		free(ls->scales[i]);
	}
	free(ls->events);
	free(ls->descs);
	free(ls->units);
	free(ls->scales);
	memset(ls, 0, sizeof *ls);
}

static void
test_event_text(void **state)
{
	static const char *const cases[][2] = {
		{ "domain=1,offset=0x80,chip=?,lpar=0x0",
		    "domain=0x1,offset=0x80,chip=?,lpar=0x0" },
		{ "domain=0x2,offset=0xe0,starting_index=core,"
		    "lpar=sibling_guest_id",
		    "domain=0x2,offset=0xe0,starting_index=core,"
		    "lpar=sibling_guest_id" },
		{ "event=0x3c,umask=0,edge", "event=0x3c,umask=0x0,edge=0x1" },
	};
	struct pmu_event	 ev;
	char			*text, *cause = NULL;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if (pmu_event_parse("e", cases[i][0], strlen(cases[i][0]), &ev,
		    &cause) != 0)
			fail_msg("%s: %s", cases[i][0], cause);
		text = pmu_event_text(&ev);
		assert_string_equal(text, cases[i][1]);
		free(text);
		pmu_event_clear(&ev);
	}
}

static void
test_hv24x7_event_domain(void **state)
{
	static const struct {
		const char	*terms;
		int		 domain;
	} cases[] = {
		{ "domain=1,offset=0x80,chip=?,lpar=0x0", 1 },
		{ "domain=0x5,offset=0xe0,starting_index=vcpu", 5 },
		/* A domain left to the caller: the index term says. */
		{ "domain=?,offset=0x98,core=?,lpar=0x0", 2 },
		{ "domain=?,offset=0x98,chip=?", 1 },
		{ "domain=?,offset=0x98,vcpu=?", 3 },
		{ "offset=0x98", 2 },
	};
	struct pmu_event	 ev;
	char			*cause = NULL;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if (pmu_event_parse("e", cases[i].terms,
		    strlen(cases[i].terms), &ev, &cause) != 0)
			fail_msg("%s: %s", cases[i].terms, cause);
		if (pmu_hv24x7_event_domain(&ev) != cases[i].domain)
			fail_msg("%s: domain %d, want %d", cases[i].terms,
			    pmu_hv24x7_event_domain(&ev), cases[i].domain);
		pmu_event_clear(&ev);
	}
}

/* msr with 18 events (two groups) and software with one, in one model. */
static void
test_build_cpu(void **state)
{
	struct listing			 msr = { 0 }, sw = { 0 };
	struct pmu_listing		 ls[2];
	struct catalog			*cat;
	const struct catalog_event	*ev;
	const struct catalog_group	*g;
	char				 name[32], terms[32];
	size_t				 i, p, e;

	(void)state;
	listing_add(&msr, "aperf", "event=0x01", NULL, NULL, NULL);
	listing_add(&msr, "mperf", "event=0x02", "MHz", NULL, NULL);
	listing_add(&msr, "tsc", "event=0x00", NULL, "0.5", "time stamp");
	for (i = 3; i < 18; i++) {
		snprintf(name, sizeof name, "x%02zu", i);
		snprintf(terms, sizeof terms, "event=0x%zx", i + 0x10);
		listing_add(&msr, name, terms, NULL, NULL, i == 5 ?
		    "the fifth" : NULL);
	}
	listing_add(&sw, "cpu-clock", "config=0", NULL, NULL, NULL);
	ls[0] = *listing_done(&msr, "msr");
	ls[1] = *listing_done(&sw, "software");
	cat = pmu_catalog_build(ls, 2, PMU_CATALOG_CPU, 2);

	assert_true(cat->magic == CATALOG_MAGIC);
	assert_int_equal(cat->interface, 2);
	assert_int_equal(cat->nevents, 19);
	for (i = 0; i < cat->nevents; i++) {
		ev = &cat->events[i];
		assert_int_equal(ev->index, i);
		assert_int_equal(ev->domain, CATALOG_DOMAIN_CPU);
		assert_int_equal(ev->offset, 8 * i);
		assert_int_equal(ev->record_offset, 8 * i);
		assert_int_equal(ev->counter_offset, 0);
		assert_int_equal(ev->record_length, 8);
		assert_true(ev->formula == CATALOG_NONE);
		/* Nothing is hidden as a placeholder. */
		assert_int_equal(ev->skip, 0);
	}
	/* Listing order, then name order: found by sysfs name. */
	for (i = 0; i < cat->nevents; i++) {
		ev = catalog_find_sysfs(cat, i < 18 ? msr.events[i].name :
		    "cpu-clock");
		assert_non_null(ev);
		assert_int_equal(ev->index, i);
		/* And by (name, domain), and by name in any domain. */
		assert_ptr_equal(catalog_find_event(cat, ev->name,
		    CATALOG_DOMAIN_CPU), ev);
		assert_ptr_equal(catalog_find_event(cat, ev->name, 0), ev);
	}
	ev = &cat->events[2];
	assert_string_equal(ev->name, "tsc");
	assert_string_equal(ev->desc, "msr/event=0x0/");
	/* .unit and .scale win over event_descs/. */
	assert_string_equal(ev->long_desc, "unit -, scale 0.5");
	assert_string_equal(cat->events[1].long_desc, "unit MHz, scale 1");
	assert_string_equal(cat->events[5].long_desc, "the fifth");
	assert_null(cat->events[0].long_desc);
	assert_string_equal(cat->events[18].desc, "software/config=0x0/");

	/* One group per PMU and 16 events. */
	assert_int_equal(cat->ngroups, 3);
	g = catalog_find_group(cat, "msr");
	assert_non_null(g);
	assert_int_equal(g->event_count, 16);
	assert_int_equal(g->domain, CATALOG_DOMAIN_CPU);
	assert_string_equal(g->desc, "events of the msr PMU");
	assert_int_equal(g->events[15], 15);
	g = catalog_find_group(cat, "msr.2");
	assert_non_null(g);
	assert_int_equal(g->event_count, 2);
	assert_int_equal(g->events[0], 16);
	assert_int_equal(g->events[1], 17);
	assert_int_equal(g->events[2], CATALOG_SLOT_FREE);
	g = catalog_find_group(cat, "software");
	assert_non_null(g);
	assert_int_equal(g->event_count, 1);
	assert_int_equal(g->events[0], 18);

	/* Each model event finds its PMU and event again. */
	assert_int_equal(pmu_catalog_locate(ls, 2, 17, &p, &e), 0);
	assert_int_equal(p, 0);
	assert_int_equal(e, 17);
	assert_int_equal(pmu_catalog_locate(ls, 2, 18, &p, &e), 0);
	assert_int_equal(p, 1);
	assert_int_equal(e, 0);
	assert_int_equal(pmu_catalog_locate(ls, 2, 19, &p, &e), -HV_ENOENT);
	catalog_free(cat);
	listing_free(&msr);
	listing_free(&sw);
}

/* No events, no per-event arrays: an empty model, not a crash. */
static void
test_build_empty(void **state)
{
	struct pmu_listing	 l;
	struct catalog		*cat;
	size_t			 p, e;

	(void)state;
	memset(&l, 0, sizeof l);
	l.name = "breakpoint";
	cat = pmu_catalog_build(&l, 1, PMU_CATALOG_CPU, 2);
	assert_int_equal(cat->nevents, 0);
	assert_int_equal(cat->ngroups, 0);
	catalog_free(cat);
	cat = pmu_catalog_build(NULL, 0, PMU_CATALOG_HV24X7, 1);
	assert_int_equal(cat->nevents, 0);
	assert_int_equal(cat->interface, 1);
	catalog_free(cat);
	assert_int_equal(pmu_catalog_locate(&l, 1, 0, &p, &e), -HV_ENOENT);
}

/*
 * The real POWER8 hv_24x7 listing (2014 kernel) as a model: every entry's
 * domain and offset are those of the real catalog the kernel listed it
 * from (its vcpu domains derived from the core events).
 */
static void
test_build_hv24x7_golden(void **state)
{
	struct listing			 l = { 0 };
	struct catalog			*model, *real;
	const struct catalog_event	*me, *re;
	char				*text, *line, *next, *tab;
	char				*cause = NULL;
	const char			*dup;
	char				 base[128];
	void				*img;
	size_t				 len, i, n;
	int				 domain;

	(void)state;
	text = fixture_data("sysfs", "sysfs-hv_24x7-events.tsv", &len);
	for (line = text; *line != '\0'; line = next) {
		next = line + strcspn(line, "\n");
		if (*next == '\n')
			*next++ = '\0';
		assert_non_null(tab = strchr(line, '\t'));
		*tab++ = '\0';
		listing_add(&l, line, tab, NULL, NULL, NULL);
	}
	free(text);
	model = pmu_catalog_build(listing_done(&l, "hv_24x7"), 1,
	    PMU_CATALOG_HV24X7, 1);
	assert_int_equal(model->nevents, 2258);
	assert_int_equal(model->ngroups, 0);
	assert_int_equal(model->interface, 1);

	img = fixture_read(FIXTURE_P8, &len);
	if (catalog_parse(img, len, 1, &real, &cause) != 0)
		fail_msg("%s", cause);
	for (i = 0; i < model->nevents; i++) {
		me = &model->events[i];
		assert_true(me->domain >= 1 && me->domain <= 6);
		/* vcpu domains are kept, marked: POWER8 speaks v1. */
		assert_true(me->skip == 0 || me->domain > 2);
		/* The 2014 kernel named vcpu domains NAME__vcpu_...: */
		dup = strstr(me->name, "__");
		n = dup != NULL ? (size_t)(dup - me->name) : strlen(me->name);
		assert_true(n < sizeof base);
		memcpy(base, me->name, n);
		base[n] = '\0';
		domain = me->domain <= 2 ? me->domain : CATALOG_DOMAIN_CORE;
		re = catalog_find_event(real, base, domain);
		if (re == NULL)
			fail_msg("%s: no %s in domain %d of the catalog",
			    me->name, base, domain);
		if (re->offset != me->offset)
			fail_msg("%s: offset 0x%x, the catalog says 0x%x",
			    me->name, me->offset, re->offset);
	}
	assert_string_equal(catalog_find_sysfs(model, "HPM_CCYC")->desc,
	    "hv_24x7/domain=0x2,offset=0x98,starting_index=core,"
	    "lpar=sibling_guest_id/");
	catalog_free(real);
	free(img);
	catalog_free(model);
	listing_free(&l);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_event_text),
		cmocka_unit_test(test_hv24x7_event_domain),
		cmocka_unit_test(test_build_cpu),
		cmocka_unit_test(test_build_empty),
		cmocka_unit_test(test_build_hv24x7_golden),
	};

	return (cmocka_run_group_tests_name("pmu-catalog", tests, NULL,
	    NULL));
}
