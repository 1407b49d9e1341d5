/*
 * Unit tests for the names -g and -e take (src/engine/selection.c), against
 * the POWER9 catalog hvtop ships: a name in the wrong case, a name with a typo,
 * perf's hv_24x7/EVENT,chip=N/ spelling, and index lists whose numbers
 * do not fit.
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
#include "model/raw.h"
#include "model/selection.h"
#include "source/source.h"
#include "util/hverr.h"
#include "util/xalloc.h"

#include "fixture.h"

struct fixture {
	struct catalog		*cat;
	struct topology		 topo;
	struct selection	 sel;
};

static int
setup(void **state)
{
	struct fixture	*f;

	f = xcalloc(1, sizeof *f);
	f->cat = fixture_catalog_built(FIXTURE_P9, 2);
	fixture_topology(&f->topo, 2);
	*state = f;
	return (0);
}

static int
teardown(void **state)
{
	struct fixture	*f = *state;

	selection_clear(&f->sel);
	catalog_free(f->cat);
	free(f);
	return (0);
}

/* Add spec; fail the test with the cause when it is refused. */
static const struct sel_pick *
add(struct fixture *f, const char *spec, int event)
{
	char	*cause = NULL;

	if (selection_add(&f->sel, f->cat, &f->topo, spec, event,
	    &cause) != 0)
		fail_msg("%s: %s", spec, cause);
	return (&f->sel.picks[f->sel.npicks - 1]);
}

/* Add spec, expect error, return the cause (caller frees). */
static char *
refuse(struct fixture *f, const char *spec, int event, int error)
{
	char	*cause = NULL;

	assert_int_equal(selection_add(&f->sel, f->cat, &f->topo, spec,
	    event, &cause), error);
	assert_non_null(cause);
	return (cause);
}

static void
test_case(void **state)
{
	struct fixture		*f = *state;
	const struct sel_pick	*pk;

	pk = add(f, "pm_pb_cyc:1", 1);
	assert_string_equal(pk->events[0]->name, "PM_PB_CYC");
	assert_int_equal(pk->nindices, 1);
	pk = add(f, "memory_bw@chip", 0);
	assert_string_equal(pk->group->name, "Memory_BW");
	pk = add(f, "Cpm_Ccyc@core:3", 1);
	assert_string_equal(pk->events[0]->name, "CPM_CCYC");
	assert_int_equal(pk->indices[0], 3);
}

static void
test_did_you_mean(void **state)
{
	struct fixture	*f = *state;
	char		*cause;

	cause = refuse(f, "PM_PB_CYX", 1, -HV_ENOENT);
	assert_non_null(strstr(cause, "unknown event 'PM_PB_CYX': did you "
	    "mean PM_PB_CYC"));
	assert_non_null(strstr(cause, "hvtop --list events"));
	free(cause);
	cause = refuse(f, "Memory_BX", 0, -HV_ENOENT);
	assert_non_null(strstr(cause, "did you mean Memory_BW"));
	free(cause);
	/* Nothing close: no guess. */
	cause = refuse(f, "ZZZZZZZZZZZZZZZZ", 1, -HV_ENOENT);
	assert_null(strstr(cause, "did you mean"));
	free(cause);
	assert_int_equal(f->sel.npicks, 0);
}

static void
test_perf_spelling(void **state)
{
	struct fixture		*f = *state;
	const struct sel_pick	*pk;

	pk = add(f, "hv_24x7/PM_PB_CYC,chip=0/", 1);
	assert_string_equal(pk->events[0]->name, "PM_PB_CYC");
	assert_int_equal(pk->domain, CATALOG_DOMAIN_CHIP);
	assert_int_equal(pk->nindices, 1);
	assert_int_equal(pk->indices[0], 0);
	assert_string_equal(pk->spec, "hv_24x7/PM_PB_CYC,chip=0/");
	/* What the sysfs string says, with the ? filled in. */
	pk = add(f, "hv_24x7/PM_PB_CYC,domain=1,offset=0x18,chip=0x1,"
	    "lpar=0x0/", 1);
	assert_int_equal(pk->indices[0], 1);
	pk = add(f, "hv_24x7/CPM_CCYC,domain=2,core=3/", 1);
	assert_int_equal(pk->domain, CATALOG_DOMAIN_CORE);
	assert_int_equal(pk->indices[0], 3);
	/* No index term: every chip, as -e PM_PB_CYC. */
	pk = add(f, "hv_24x7/PM_PB_CYC", 1);
	assert_int_equal(pk->nindices, 2);
}

static void
test_perf_refused(void **state)
{
	static const struct {
		const char	*spec;
		int		 error;
		const char	*says;
	} t[] = {
		{ "hv_24x7/PM_PB_CYC,chip=?/", -HV_EFORMAT, "chip=?: give "
		    "a number" },
		{ "hv_24x7/PM_PB_CYC,chip=70000/", -HV_ERANGE, "chip=70000: "
		    "out of range" },
		{ "hv_24x7/PM_PB_CYC,chip=2/", -HV_ERANGE, "index 2 is out "
		    "of range" },
		{ "hv_24x7/PM_PB_CYC,domain=4,chip=0/", -HV_ERANGE,
		    "domain=4 (VCPU Home Chip) cannot be mapped" },
		{ "hv_24x7/PM_PB_CYC,domain=9/", -HV_ERANGE, "domain=9: "
		    "perf's domains are 1 to 6" },
		{ "hv_24x7/PM_PB_CYC,offset=0x20/", -HV_ERANGE, "offset=0x20 "
		    "is not where PM_PB_CYC is (0x18)" },
		{ "hv_24x7/PM_PB_CYC,foo=1/", -HV_EFORMAT, "unknown term "
		    "'foo'" },
		{ "hv_24x7/CPM_CCYC,chip=1/", -HV_ERANGE, "chip=1 does not "
		    "fit: the catalog counts CPM_CCYC per core" },
		{ "hv_24x7/CPM_CCYC,domain=3,vcpu=1,lpar=5/", -HV_ERANGE,
		    "lpar=5 cannot be mapped" },
		{ "hv_24x7/PM_PB_CYC,domain=2,core=1/", -HV_ERANGE,
		    "domain=2 does not fit" },
		{ "hv_24x7/PM_PB_CYX,chip=0/", -HV_ENOENT, "did you mean "
		    "PM_PB_CYC" },
		{ "hv_24x7//", -HV_EFORMAT, "no event name" },
	};
	struct fixture	*f = *state;
	char		*cause;
	size_t		 i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		cause = refuse(f, t[i].spec, 1, t[i].error);
		if (strstr(cause, t[i].says) == NULL)
			fail_msg("%s: '%s' does not say '%s'", t[i].spec,
			    cause, t[i].says);
		free(cause);
	}
	assert_int_equal(f->sel.npicks, 0);
}

static void
test_index_as_typed(void **state)
{
	struct fixture	*f = *state;
	unsigned	*v = NULL;
	size_t		 n;
	char		*cause = NULL;

	assert_int_equal(selection_parse_indices("18446744073709551616", 2,
	    &v, &n, &cause), -HV_ERANGE);
	assert_non_null(strstr(cause, "index 18446744073709551616 is out of "
	    "range: this frame has 2 (0-1)"));
	free(cause);
	assert_int_equal(selection_parse_indices("0-99999999999999999999",
	    2, &v, &n, &cause), -HV_ERANGE);
	assert_non_null(strstr(cause, "index 99999999999999999999 is"));
	free(cause);
	assert_int_equal(selection_parse_indices("1-0", 2, &v, &n, &cause),
	    -HV_EFORMAT);
	assert_non_null(strstr(cause, "range 1-0 runs backwards"));
	free(cause);
	(void)f;
}

/* The frame of the partition tests: 1 (this one), 2 and 3. */
static const struct topo_lpar frame_lpars[] = {
	{ 1, 4, 0x10001 }, { 2, 2, 0x10002 }, { 3, 3, 0x10003 },
};

static void
frame(struct fixture *f)
{
	f->topo.lpars = frame_lpars;
	f->topo.nlpars = 3;
	f->topo.lpar_self = 1;
}

/* Counter k of the selection. */
static void
counter_is(const struct fixture *f, size_t k, int domain, unsigned index,
    uint16_t lpar, size_t column)
{
	const struct sel_counter *c = &f->sel.counters[k];

	assert_int_equal(c->domain, domain);
	assert_int_equal(c->index, index);
	assert_int_equal(c->lpar, lpar);
	assert_int_equal(c->column, column);
}

static void
test_lpar_group(void **state)
{
	struct fixture		*f = *state;
	const struct sel_pick	*pk;

	frame(f);
	assert_string_equal(selection_domain_term(SEL_DOMAIN_LPAR), "lpar");
	assert_int_equal(selection_domain_size(&f->topo, SEL_DOMAIN_LPAR), 3);
	pk = add(f, "CPM_32MHZ_CYC@lpar", 0);
	assert_int_equal(pk->domain, SEL_DOMAIN_LPAR);
	assert_int_equal(pk->places, 0xf);
	assert_null(pk->lpars);
	assert_null(pk->indices);
	assert_int_equal(pk->first, 0);
	/* (4 + 2 + 3) vcpus, 4 places, every event of the group. */
	assert_int_equal(f->sel.ncounters, 9 * 4 * pk->nevents);
	counter_is(f, 0, 3, 0, 1, 0);
	counter_is(f, 1, 3, 0, 1, 1);
	counter_is(f, pk->nevents, 4, 0, 1, 0);
	counter_is(f, 4 * pk->nevents, 3, 1, 1, 0);
	counter_is(f, 16 * pk->nevents, 3, 0, 2, 0);
	counter_is(f, 9 * 4 * pk->nevents - 1, 6, 2, 3, pk->nevents - 1);
	pk = add(f, "CPM_CCYC@lpar:3,2", 1);
	assert_int_equal(pk->nlpars, 2);
	assert_int_equal(pk->lpars[0], 2);
	assert_int_equal(pk->lpars[1], 3);
	assert_int_equal(pk->nevents, 1);
	assert_int_equal(f->sel.ncounters - pk->first, (2 + 3) * 4);
	counter_is(f, pk->first, 3, 0, 2, 0);
	counter_is(f, pk->first + 8, 3, 0, 3, 0);
	pk = add(f, "CPM_CCYC@lpar:1-2", 1);
	assert_int_equal(pk->nlpars, 2);
}

static void
test_lpar_alone(void **state)
{
	struct fixture		*f = *state;
	const struct sel_pick	*pk;
	char			*cause;

	/* No partitions listed: this one alone, as "own". */
	pk = add(f, "CPM_CCYC@lpar", 1);
	assert_int_equal(f->sel.ncounters, 8 * 4);
	counter_is(f, 0, 3, 0, SEL_LPAR_SELF, 0);
	counter_is(f, 31, 6, 7, SEL_LPAR_SELF, 0);
	(void)pk;
	/* Denied: this one alone, and its id may be named. */
	frame(f);
	f->topo.lpars_denied = 1;
	assert_int_equal(selection_domain_size(&f->topo, SEL_DOMAIN_LPAR), 1);
	pk = add(f, "CPM_CCYC@lpar:1", 1);
	assert_null(pk->lpars);
	assert_int_equal(f->sel.ncounters - pk->first, 8 * 4);
	counter_is(f, pk->first, 3, 0, SEL_LPAR_SELF, 0);
	cause = refuse(f, "CPM_CCYC@lpar:2", 1, -HV_ERANGE);
	assert_non_null(strstr(cause, "partition 2 cannot be mapped"));
	assert_non_null(strstr(cause, "allow performance information "
	    "collection for this partition on the HMC"));
	free(cause);
}

static void
test_lpar_refused(void **state)
{
	static const struct {
		const char	*spec;
		int		 event, error;
		const char	*says;
	} t[] = {
		{ "CPM_CCYC@lpar:7", 1, -HV_ERANGE, "partition 7 cannot be "
		    "mapped: the frame has no partition 7 (it has 1-3)" },
		{ "CPM_CCYC@lpar:2,9", 1, -HV_ERANGE, "no partition 9" },
		{ "CPM_CCYC@lpar:x", 1, -HV_EFORMAT, "expected a number" },
		{ "PM_PB_CYC@lpar", 1, -HV_ERANGE, "'@lpar' does not fit: "
		    "the catalog counts PM_PB_CYC per chip" },
		{ "Memory_BW@lpar", 0, -HV_ERANGE, "'@lpar' does not fit" },
		{ "CPM_CCYX@lpar", 1, -HV_ENOENT, "did you mean CPM_CCYC" },
		{ "hv_24x7/CPM_CCYC,domain=4,lpar=9,core=0/", 1, -HV_ERANGE,
		    "lpar=9 cannot be mapped: the frame has no partition 9 "
		    "(it has 1-3)" },
		{ "hv_24x7/CPM_CCYC,domain=4,lpar=2,core=2/", 1, -HV_ERANGE,
		    "virtual processor 2 is out of range: the partition has "
		    "2 (0-1)" },
		{ "hv_24x7/PM_PB_CYC,domain=6,chip=0/", 1, -HV_ERANGE,
		    "domain=6 (VCPU Remote Node) cannot be mapped" },
	};
	struct fixture	*f = *state;
	char		*cause;
	size_t		 i;

	frame(f);
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		cause = refuse(f, t[i].spec, t[i].event, t[i].error);
		if (strstr(cause, t[i].says) == NULL)
			fail_msg("%s: '%s' does not say '%s'", t[i].spec,
			    cause, t[i].says);
		free(cause);
	}
	assert_int_equal(f->sel.npicks, 0);
	f->topo.interface = 1;
	cause = refuse(f, "CPM_CCYC@lpar", 1, -HV_ERANGE);
	assert_non_null(strstr(cause, "need hcall interface 2"));
	free(cause);
}

static void
test_lpar_perf(void **state)
{
	struct fixture		*f = *state;
	const struct sel_pick	*pk;

	frame(f);
	pk = add(f, "hv_24x7/CPM_CCYC,domain=4,lpar=2,core=1/", 1);
	assert_int_equal(pk->domain, SEL_DOMAIN_LPAR);
	assert_string_equal(pk->spec,
	    "hv_24x7/CPM_CCYC,domain=4,lpar=2,core=1/");
	assert_int_equal(pk->places, 1U << 1);
	assert_int_equal(pk->nlpars, 1);
	assert_int_equal(pk->lpars[0], 2);
	assert_int_equal(pk->nindices, 1);
	assert_int_equal(pk->indices[0], 1);
	assert_int_equal(f->sel.ncounters, 1);
	counter_is(f, 0, 4, 1, 2, 0);
	/* vcpu= as well, and the domain from the term. */
	pk = add(f, "hv_24x7/CPM_CCYC,domain=6,lpar=3,vcpu=2/", 1);
	counter_is(f, pk->first, 6, 2, 3, 0);
	pk = add(f, "hv_24x7/CPM_CCYC,vcpu=0,lpar=3/", 1);
	assert_int_equal(pk->places, 1);
	counter_is(f, pk->first, 3, 0, 3, 0);
	/* No lpar, or 0xffff: this partition, by its id. */
	pk = add(f, "hv_24x7/CPM_CCYC,domain=5,core=3/", 1);
	counter_is(f, pk->first, 5, 3, 1, 0);
	pk = add(f, "hv_24x7/CPM_CCYC,domain=3,lpar=0xffff,core=0/", 1);
	counter_is(f, pk->first, 3, 0, 1, 0);
	/* No index: every virtual processor of the partition. */
	pk = add(f, "hv_24x7/CPM_CCYC,domain=3,lpar=3/", 1);
	assert_int_equal(f->sel.ncounters - pk->first, 3);
	/* vcpu= alone is the @vcpu pick it always was. */
	pk = add(f, "hv_24x7/CPM_CCYC,vcpu=1/", 1);
	assert_int_equal(pk->domain, CATALOG_DOMAIN_VCPU_HOME_CORE);
	assert_null(pk->lpars);
	pk = add(f, "CPM_CCYC@vcpu:2", 1);
	assert_int_equal(pk->domain, CATALOG_DOMAIN_VCPU_HOME_CORE);
	assert_int_equal(f->sel.counters[pk->first].lpar, SEL_LPAR_SELF);
}

/*
 * Partitions without virtual processors: a pick that would read no
 * counter at all is refused (it used to abort allocating none), one
 * that reads others' is kept without them.
 */
static void
test_lpar_no_vcpus(void **state)
{
	static const struct topo_lpar empty[] = {
		{ 1, 4, 0x10001 }, { 2, 0, 0x10002 }, { 3, 3, 0x10003 },
	};
	struct fixture		*f = *state;
	const struct sel_pick	*pk;
	char			*cause;

	f->topo.lpars = empty;
	f->topo.nlpars = 3;
	f->topo.lpar_self = 1;
	cause = refuse(f, "CPM_CCYC@lpar:2", 1, -HV_ERANGE);
	assert_string_equal(cause, "CPM_CCYC@lpar:2: the partition has no "
	    "virtual processors");
	free(cause);
	cause = refuse(f, "hv_24x7/CPM_CCYC,domain=4,lpar=2,core=0/", 1,
	    -HV_ERANGE);
	assert_string_equal(cause, "virtual processor 0 is out of range: "
	    "the partition has none");
	free(cause);
	assert_int_equal(f->sel.npicks, 0);
	pk = add(f, "CPM_CCYC@lpar:2-3", 1);
	assert_int_equal(f->sel.ncounters - pk->first, 3 * SEL_NPLACES);
	counter_is(f, pk->first, 3, 0, 3, 0);

	/* Only this partition visible, and it shows none. */
	f->topo.lpars_denied = 1;
	f->topo.vcpus = 0;
	cause = refuse(f, "CPM_32MHZ_CYC@lpar", 0, -HV_ERANGE);
	assert_string_equal(cause, "CPM_32MHZ_CYC@lpar: this partition has "
	    "no virtual processors");
	free(cause);
	assert_int_equal(f->sel.npicks, 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_case, setup, teardown),
		cmocka_unit_test_setup_teardown(test_did_you_mean, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_perf_spelling, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_perf_refused, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_index_as_typed, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_lpar_group, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_lpar_alone, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_lpar_refused, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_lpar_perf, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_lpar_no_vcpus, setup,
		    teardown),
	};

	return (cmocka_run_group_tests_name("selection", tests, NULL, NULL));
}
