/*
 * The hcall source finding the frame's partitions against the simulated
 * hypervisor: the partitions partition 1 sees (partition 0 is the
 * hypervisor's and refused), a frame of a thousand, a partition the HMC
 * does not allow to see the others, and an @lpar selection read with
 * every value where it belongs.
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

struct t_open {
	struct source	*src;
	struct topology	 topo;
	struct catalog	*cat;
};

/* Open the simulated frame with args and ask for its partitions. */
static void
t_open(struct t_open *t, const char *args)
{
	const void	*img;
	const char	*top = getenv("top_builddir");
	size_t		 len;
	char		*cause = NULL, *full;

	memset(t, 0, sizeof *t);
	/* The POWER9 catalog the build made. */
	if (asprintf(&full, "%s,catalog=%s/catalogs/power9.bin", args,
	    top != NULL ? top : ".") < 0)
		fail();
	if (source_open("sim", full, "/nonexistent", &t->src, &cause) != 0)
		fail_msg("open %s: %s", full, cause);
	free(full);
	assert_int_equal(t->src->ops->topology(t->src, &t->topo, &cause), 0);
	assert_null(t->topo.lpars);
	assert_int_equal(t->topo.nlpars, 0);
	assert_non_null(t->src->ops->partitions);
	assert_int_equal(t->src->ops->partitions(t->src, &cause), 0);
	assert_int_equal(t->src->ops->topology(t->src, &t->topo, &cause), 0);
	assert_int_equal(t->src->ops->catalog(t->src, &img, &len, &cause), 0);
	if (catalog_parse(img, len, t->topo.interface, &t->cat, &cause) != 0)
		fail_msg("catalog: %s", cause);
}

static void
t_close(struct t_open *t)
{
	catalog_free(t->cat);
	source_close(t->src);
}

static void
test_default_frame(void **state)
{
	struct t_open	 t;
	size_t		 i;

	(void)state;
	t_open(&t, "clock=virtual");
	assert_int_equal(t.topo.lpar_self, 1);
	assert_int_equal(t.topo.lpars_denied, 0);
	/* Four partitions; 0 is refused to any other. */
	assert_int_equal(t.topo.nlpars, 3);
	for (i = 0; i < 3; i++) {
		assert_int_equal(t.topo.lpars[i].id, i + 1);
		assert_int_equal(t.topo.lpars[i].vcpus, t.topo.vcpus);
		assert_int_not_equal(t.topo.lpars[i].cfg, 0);
	}
	t_close(&t);
}

static void
test_thousand(void **state)
{
	struct t_open	 t;
	size_t		 i;

	(void)state;
	t_open(&t, "clock=virtual,lpars=1000,vcpus=16");
	assert_int_equal(t.topo.nlpars, 999);
	for (i = 0; i < t.topo.nlpars; i++) {
		assert_int_equal(t.topo.lpars[i].id, i + 1);
		assert_int_equal(t.topo.lpars[i].vcpus, 16);
	}
	t_close(&t);
	/* More virtual processors than a result buffer holds. */
	t_open(&t, "clock=virtual,lpars=3,vcpus=400");
	assert_int_equal(t.topo.nlpars, 2);
	assert_int_equal(t.topo.lpars[0].vcpus, 400);
	assert_int_equal(t.topo.lpars[1].vcpus, 400);
	t_close(&t);
}

/* Read sel twice; every value is there. */
static void
t_read(struct t_open *t, const struct selection *sel, struct raw_sample *rs)
{
	char	*cause = NULL;
	size_t	 k, n;

	raw_sample_size(rs, sel->ncounters);
	if (t->src->ops->select(t->src, sel, &cause) != 0)
		fail_msg("select: %s", cause);
	for (n = 0; n < 2; n++) {
		rs->error[0] = '\0';
		assert_int_equal(t->src->ops->sample(t->src,
		    (n + 1) * 1000000000ULL, rs, &cause), 0);
		for (k = 0; k < sel->ncounters; k++) {
			if (rs->values[k].status != RAW_OK)
				fail_msg("counter %zu (lpar %u, domain %d, "
				    "vcpu %u): status %d (%s)", k,
				    sel->counters[k].lpar,
				    sel->counters[k].domain,
				    sel->counters[k].index,
				    rs->values[k].status, rs->error);
		}
	}
}

static void
test_denied(void **state)
{
	struct t_open		 t;
	struct selection	 sel;
	struct raw_sample	 rs;
	char			*cause = NULL;

	(void)state;
	t_open(&t, "clock=virtual,faults=denied");
	assert_int_equal(t.topo.lpars_denied, 1);
	assert_int_equal(t.topo.nlpars, 1);
	assert_int_equal(t.topo.lpars[0].id, 1);
	assert_int_equal(t.topo.lpars[0].vcpus, t.topo.vcpus);
	/* This partition alone, still in all four placements. */
	memset(&sel, 0, sizeof sel);
	memset(&rs, 0, sizeof rs);
	assert_int_equal(selection_add(&sel, t.cat, &t.topo, "CPM_CCYC@lpar",
	    1, &cause), 0);
	assert_int_equal(sel.ncounters, 4 * t.topo.vcpus);
	assert_int_equal(sel.counters[0].lpar, SEL_LPAR_SELF);
	raw_sample_size(&rs, sel.ncounters);
	assert_int_equal(t.src->ops->select(t.src, &sel, &cause), 0);
	assert_int_equal(t.src->ops->sample(t.src, 1000000000ULL, &rs,
	    &cause), 0);
	/* Said once. */
	assert_non_null(strstr(rs.error, "allow performance information "
	    "collection for this partition on the HMC"));
	rs.error[0] = '\0';
	assert_int_equal(t.src->ops->sample(t.src, 2000000000ULL, &rs,
	    &cause), 0);
	assert_null(strstr(rs.error, "HMC"));
	assert_int_equal(rs.values[0].status, RAW_OK);
	raw_sample_free(&rs);
	selection_clear(&sel);
	t_close(&t);
}

static void
test_read(void **state)
{
	struct t_open		 t;
	struct selection	 sel;
	struct raw_sample	 rs;
	const struct sel_counter *c;
	char			*cause = NULL;
	size_t			 k, ncyc = 0;

	(void)state;
	t_open(&t, "clock=virtual");
	memset(&sel, 0, sizeof sel);
	memset(&rs, 0, sizeof rs);
	/* A plain pick first: its values still come in order. */
	assert_int_equal(selection_add(&sel, t.cat, &t.topo, "PM_PB_CYC", 1,
	    &cause), 0);
	assert_int_equal(selection_add(&sel, t.cat, &t.topo,
	    "CPM_32MHZ_CYC@lpar", 0, &cause), 0);
	assert_int_equal(selection_add(&sel, t.cat, &t.topo,
	    "hv_24x7/CPM_CCYC,domain=5,lpar=3,core=2/", 1, &cause), 0);
	assert_int_equal(selection_add(&sel, t.cat, &t.topo,
	    "CPM_CCYC@lpar:2", 1, &cause), 0);
	t_read(&t, &sel, &rs);
	/* Each partition's cycles, in every place, count. */
	for (k = 0; k < sel.ncounters; k++) {
		c = &sel.counters[k];
		if (c->lpar == SEL_LPAR_SELF ||
		    strcmp(c->event->name, "CPM_CCYC") != 0)
			continue;
		ncyc++;
	}
	assert_int_equal(ncyc, 3 * t.topo.vcpus * 4 + 1 +
	    t.topo.vcpus * 4);
	assert_true(rs.calls > 0);
	raw_sample_free(&rs);
	selection_clear(&sel);
	t_close(&t);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_frame),
		cmocka_unit_test(test_thousand),
		cmocka_unit_test(test_denied),
		cmocka_unit_test(test_read),
	};

	return (cmocka_run_group_tests_name("source-lpar", tests, NULL,
	    NULL));
}
