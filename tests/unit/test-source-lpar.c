/*
 * The hcall source finding the frame's partitions against the simulated
 * hypervisor: the partitions partition 1 sees (partition 0 is the
 * hypervisor's and refused), a frame of a thousand, a partition the HMC
 * does not allow to see the others, an @lpar selection read with every
 * value where it belongs, a partition that goes away, and a hypervisor
 * busy while they are looked for: asked again until it answers, and when
 * it never does, said so, with no list of this partition alone.
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
#include "hcall/hcall.h"
#include "model/raw.h"
#include "model/selection.h"
#include "source/source-hcall.h"
#include "source/source.h"
#include "source/transport.h"
#include "util/hverr.h"
#include "util/xalloc.h"

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
	/* Said once, in the first interval shown: the second sample. */
	assert_null(strstr(rs.error, "HMC"));
	assert_int_equal(t.src->ops->sample(t.src, 2000000000ULL, &rs,
	    &cause), 0);
	assert_non_null(strstr(rs.error, "allow performance information "
	    "collection for this partition on the HMC"));
	rs.error[0] = '\0';
	assert_int_equal(t.src->ops->sample(t.src, 3000000000ULL, &rs,
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

/*
 * A transport over the simulated one where partition 3 can go away: a
 * request naming it, or all from one before it, is refused as the
 * simulator refuses a partition it does not have.
 */
struct t_gone {
	void		*sim;
	int		 gone;
};

static struct t_gone *t_gone_last;

static int
t_gone_open(const char *args, void **ctx, char **label, char **cause)
{
	struct t_gone	*g;
	int		 error;

	g = xcalloc(1, sizeof *g);
	if ((error = transport_sim_ops.open(args, &g->sim, label,
	    cause)) != 0) {
		free(g);
		return (error);
	}
	*ctx = t_gone_last = g;
	return (0);
}

static long
t_gone_page(void *ctx, uint64_t version, uint64_t page, uint8_t *buf,
    size_t len)
{
	struct t_gone	*g = ctx;

	return (transport_sim_ops.catalog_page(g->sim, version, page, buf,
	    len));
}

static long
t_gone_data(void *ctx, uint64_t tb, const uint8_t *req, size_t reqlen,
    uint8_t *res, size_t reslen)
{
	struct t_gone		*g = ctx;
	struct hcall_reqbuf	 rq;
	struct hcall_rwriter	 w;
	const struct hcall_request *r;
	char			*cause = NULL;
	unsigned		 i;

	if (g->gone && hcall_decode_request(req, reqlen, &rq, &cause) == 0) {
		for (i = 0; i < rq.nrequests; i++) {
			r = &rq.req[i];
			if (r->domain < HCALL_DOMAIN_VCPU_HOME_CORE ||
			    r->lpar == HCALL_LPAR_SELF || r->lpar > 3 ||
			    (r->max_lpars != HCALL_LPARS_ALL &&
			    r->lpar + r->max_lpars <= 3))
				continue;
			hcall_encode_result_begin(&w, res, reslen, rq.version);
			hcall_encode_result_status(&w, (uint8_t)i, 0x0402, 0,
			    0);
			hcall_encode_result_end(&w);
			return (H_PARAMETER);
		}
	}
	free(cause);
	return (transport_sim_ops.data(g->sim, tb, req, reqlen, res, reslen));
}

static int
t_gone_topology(void *ctx, struct topology *t, char **cause)
{
	struct t_gone	*g = ctx;

	return (transport_sim_ops.topology(g->sim, t, cause));
}

static int
t_gone_constant(void *ctx, const char *name, double *v)
{
	struct t_gone	*g = ctx;

	return (transport_sim_ops.constant(g->sim, name, v));
}

static void
t_gone_close(void *ctx)
{
	struct t_gone	*g = ctx;

	transport_sim_ops.close(g->sim);
	free(g);
}

static const struct transport_ops t_gone_ops = {
	.name = "gone",
	.open = t_gone_open,
	.catalog_page = t_gone_page,
	.data = t_gone_data,
	.topology = t_gone_topology,
	.constant = t_gone_constant,
	.close = t_gone_close,
};

static void
test_gone(void **state)
{
	struct source		*src;
	struct topology		 topo, now;
	struct catalog		*cat;
	struct selection	 sel;
	struct raw_sample	 rs;
	const void		*img;
	const char		*top = getenv("top_builddir");
	size_t			 len, k;
	char			*cause = NULL, *args;

	(void)state;
	if (asprintf(&args, "clock=virtual,catalog=%s/catalogs/power9.bin",
	    top != NULL ? top : ".") < 0)
		fail();
	src = xcalloc(1, sizeof *src);
	src->ops = &source_hcall_ops;
	if (source_hcall_open(src, &t_gone_ops, args, &cause) != 0)
		fail_msg("open: %s", cause);
	free(args);
	assert_int_equal(src->ops->partitions(src, &cause), 0);
	assert_int_equal(src->ops->topology(src, &topo, &cause), 0);
	assert_int_equal(topo.nlpars, 3);
	assert_int_equal(src->ops->catalog(src, &img, &len, &cause), 0);
	assert_int_equal(catalog_parse(img, len, topo.interface, &cat,
	    &cause), 0);
	memset(&sel, 0, sizeof sel);
	memset(&rs, 0, sizeof rs);
	assert_int_equal(selection_add(&sel, cat, &topo, "CPM_CCYC@lpar", 1,
	    &cause), 0);
	raw_sample_size(&rs, sel.ncounters);
	assert_int_equal(src->ops->select(src, &sel, &cause), 0);
	assert_int_equal(src->ops->sample(src, 1000000000ULL, &rs, &cause),
	    0);
	/* Nothing changed: the sample says so, and the list is the same. */
	assert_false(rs.lpars_changed);
	assert_int_equal(src->ops->topology(src, &now, &cause), 0);
	assert_ptr_equal(now.lpars, topo.lpars);
	/* Partition 3 goes: its reads fail, the source looks again. */
	t_gone_last->gone = 1;
	assert_int_equal(src->ops->sample(src, 2000000000ULL, &rs, &cause),
	    0);
	for (k = 0; k < sel.ncounters; k++) {
		if (sel.counters[k].lpar == 3)
			assert_int_not_equal(rs.values[k].status, RAW_OK);
	}
	/* The sample that found them says so. */
	assert_true(rs.lpars_changed);
	assert_int_equal(src->ops->topology(src, &now, &cause), 0);
	assert_ptr_not_equal(now.lpars, topo.lpars);
	assert_true(now.nlpars < 3);
	for (k = 0; k < now.nlpars; k++)
		assert_int_not_equal(now.lpars[k].id, 3);
	raw_sample_free(&rs);
	selection_clear(&sel);
	catalog_free(cat);
	source_close(src);
}

/* Open the simulated frame with args; the partitions are not asked. */
static struct source *
t_open_quiet(const char *args)
{
	const char	*top = getenv("top_builddir");
	struct source	*src;
	char		*cause = NULL, *full;

	if (asprintf(&full, "%s,catalog=%s/catalogs/power9.bin", args,
	    top != NULL ? top : ".") < 0)
		fail();
	if (source_open("sim", full, "/nonexistent", &src, &cause) != 0)
		fail_msg("open %s: %s", full, cause);
	free(full);
	return (src);
}

static void
test_busy(void **state)
{
	static const char *const seeds[] = { "1", "2", "3", "4", "5", "6" };
	struct topology	 topo;
	struct source	*src;
	struct t_open	 t;
	char		*cause = NULL, args[128];
	size_t		 i;

	(void)state;
	/* Busy 4 calls in 10: every seed finds all five others. */
	for (i = 0; i < sizeof seeds / sizeof seeds[0]; i++) {
		snprintf(args, sizeof args, "clock=virtual,lpars=6,seed=%s,"
		    "faults=busy:0.4", seeds[i]);
		t_open(&t, args);
		assert_int_equal(t.topo.nlpars, 5);
		assert_int_equal(t.topo.lpars[1].id, 2);
		t_close(&t);
	}
	/* This partition answers, then every call is busy: said so, and
	 * no list of this partition alone. */
	src = t_open_quiet("clock=virtual,lpars=6,faults=busy:1+from@2");
	assert_int_equal(src->ops->partitions(src, &cause), -EBUSY);
	assert_non_null(cause);
	assert_non_null(strstr(cause, "still busy"));
	free(cause);
	cause = NULL;
	assert_int_equal(src->ops->topology(src, &topo, &cause), 0);
	assert_int_equal(topo.nlpars, 0);
	source_close(src);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_frame),
		cmocka_unit_test(test_thousand),
		cmocka_unit_test(test_denied),
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_gone),
		cmocka_unit_test(test_busy),
	};

	return (cmocka_run_group_tests_name("source-lpar", tests, NULL,
	    NULL));
}
