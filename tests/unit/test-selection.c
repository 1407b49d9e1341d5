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
#include "model/selection.h"
#include "source/source.h"
#include "sys/file.h"
#include "util/hverr.h"

struct fixture {
	struct catalog		*cat;
	struct topology		 topo;
	struct selection	 sel;
};

static int
setup(void **state)
{
	struct fixture	*f;
	void		*buf;
	size_t		 len;
	char		*path, *cause = NULL;
	const char	*top = getenv("top_builddir");

	f = calloc(1, sizeof *f);
	if (asprintf(&path, "%s/catalogs/power9.bin",
	    top != NULL ? top : ".") < 0)
		return (-1);
	if (file_read(path, 1 << 24, &buf, &len, &cause) != 0) {
		print_error("%s\n", cause);
		return (-1);
	}
	free(path);
	if (catalog_parse(buf, len, 2, &f->cat, &cause) != 0)
		return (-1);
	free(buf);
	f->topo.chips = 2;
	f->topo.cores = 4;
	f->topo.vcpus = 8;
	f->topo.interface = 2;
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
	};

	return (cmocka_run_group_tests_name("selection", tests, NULL, NULL));
}
