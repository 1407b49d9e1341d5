/*
 * The hcall client source over a transport of the test's own: a thin
 * wrapper of the simulated hypervisor (sim/hvsim.h) that logs every call
 * and can answer a catalog page busy.  It checks what the client must do
 * with nothing but two buffer-moving calls: fetch the catalog as the
 * kernel does (page 0 with version 0, then every page with the version
 * page 0 states, a busy page asked again), read a selection at the
 * partition timebase its clock gives, say why a refused call failed, and
 * follow a catalog version change reported in a result buffer.
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
#include "hcall/hcall.h"
#include "sim/hvsim.h"
#include "source/source-hcall.h"
#include "source/source.h"
#include "source/transport.h"
#include "sys/file.h"
#include "util/hverr.h"
#include "util/xalloc.h"

#include "fixture.h"

#define T_BUSY_PAGE	2	/* answered busy twice before it is served */
#define T_LOG		256

static struct t_transport *t_last;	/* the one opened last */

struct t_transport {
	struct hvsim	*hv;
	int		 busy;		/* busy answers left for T_BUSY_PAGE */
	size_t		 npages;	/* catalog page calls */
	uint64_t	 versions[T_LOG], pages[T_LOG];
	size_t		 ndata;
	uint64_t	 last_tb;
	size_t		 last_reqlen, last_reslen;
};

static int
t_open(const char *args, void **ctx, char **label, char **cause)
{
	struct t_transport	*t;
	char			*path;
	void			*img;
	size_t			 len;
	int			 error;

	path = fixture_path(FIXTURE_P8);
	error = file_read(path, 1 << 20, &img, &len, cause);
	free(path);
	if (error != 0)
		return (error);
	t = xcalloc(1, sizeof *t);
	t->busy = 2;
	error = hvsim_new(args, img, len, &t->hv, cause);
	free(img);
	if (error != 0) {
		free(t);
		return (error);
	}
	*ctx = t;
	t_last = t;
	*label = xstrdup("test transport");
	return (0);
}

static long
t_catalog_page(void *ctx, uint64_t version, uint64_t page, uint8_t *buf,
    size_t len)
{
	struct t_transport	*t = ctx;

	if (t->npages < T_LOG) {
		t->versions[t->npages] = version;
		t->pages[t->npages] = page;
	}
	t->npages++;
	if (page == T_BUSY_PAGE && t->busy > 0) {
		t->busy--;
		return (H_BUSY);
	}
	return (hvsim_catalog_page(t->hv, version, page, buf, len));
}

static long
t_data(void *ctx, uint64_t tb, const uint8_t *req, size_t reqlen,
    uint8_t *res, size_t reslen)
{
	struct t_transport	*t = ctx;

	t->ndata++;
	t->last_tb = tb;
	t->last_reqlen = reqlen;
	t->last_reslen = reslen;
	return (hvsim_data(t->hv, tb, req, reqlen, res, reslen));
}

static int
t_topology(void *ctx, struct topology *topo, char **cause)
{
	struct t_transport	*t = ctx;

	(void)cause;
	memset(topo, 0, sizeof *topo);
	topo->sockets = 2;
	topo->chips = hvsim_chips(t->hv);
	topo->cores = hvsim_cores(t->hv);
	topo->smt = hvsim_smt(t->hv);
	topo->vcpus = hvsim_vcpus(t->hv);
	topo->interface = hvsim_interface(t->hv);
	topo->privileged = 1;
	topo->timebase_hz = hvsim_tb_hz(t->hv);
	return (0);
}

static int
t_constant(void *ctx, const char *name, double *v)
{
	struct t_transport	*t = ctx;

	return (hvsim_constant(t->hv, name, v) == 0 ? 0 : -HV_ENOENT);
}

static void
t_close(void *ctx)
{
	struct t_transport	*t = ctx;

	hvsim_free(t->hv);
	free(t);
}

static const struct transport_ops t_ops = {
	.name = "test",
	.open = t_open,
	.catalog_page = t_catalog_page,
	.data = t_data,
	.topology = t_topology,
	.constant = t_constant,
	.close = t_close,
};

/* A client, its catalog as it fetched it, and a selection of spec. */
struct t_client {
	struct source	*src;
	struct t_transport *t;
	struct topology	 topo;
	struct catalog	*cat;
	struct selection sel;
	struct raw_sample rs;
};

static void
t_client_open(struct t_client *c, const char *args, const char *spec)
{
	const void	*img;
	size_t		 len;
	char		*cause = NULL;

	memset(c, 0, sizeof *c);
	c->src = xcalloc(1, sizeof *c->src);
	c->src->ops = &source_hcall_ops;
	if (source_hcall_open(c->src, &t_ops, args, &cause) != 0)
		fail_msg("open: %s", cause);
	c->t = t_last;
	assert_string_equal(c->src->label, "test transport");
	assert_int_equal(c->src->ops->topology(c->src, &c->topo, &cause), 0);
	assert_int_equal(c->src->ops->catalog(c->src, &img, &len, &cause), 0);
	if (catalog_parse(img, len, c->topo.interface, &c->cat, &cause) != 0)
		fail_msg("parse: %s", cause);
	if (selection_add(&c->sel, c->cat, &c->topo, spec, 0, &cause) != 0)
		fail_msg("%s: %s", spec, cause);
	if (c->src->ops->select(c->src, &c->sel, &cause) != 0)
		fail_msg("select: %s", cause);
	c->rs.values = xcalloc(c->sel.ncounters, sizeof *c->rs.values);
	c->rs.nvalues = c->sel.ncounters;
}

static void
t_client_close(struct t_client *c)
{
	source_close(c->src);
	selection_clear(&c->sel);
	catalog_free(c->cat);
	free(c->rs.values);
}

static void
t_sample(struct t_client *c, uint64_t now)
{
	char	*cause = NULL;

	c->rs.error[0] = '\0';
	if (c->src->ops->sample(c->src, now, &c->rs, &cause) != 0)
		fail_msg("sample: %s", cause);
}

/* The catalog, fetched as the kernel fetches it, is the file's. */
static void
test_catalog_fetch(void **state)
{
	struct t_client	 c;
	const void	*img;
	size_t		 len, i, k;
	char		*cause = NULL;

	(void)state;
	t_client_open(&c, "seed=2", "HPM_0THRD_NON_IDLE_CCYC:0-3");
	assert_int_equal(c.src->ops->catalog(c.src, &img, &len, &cause), 0);
	assert_int_equal(len, 64 * 4096);
	assert_int_equal(c.cat->version, 3);
	/* Page 0 with version 0; then 1 to 63 with version 3, page 2
	 * three times (busy twice). */
	assert_int_equal(c.t->npages, 64 + 2);
	assert_true(c.t->versions[0] == 0 && c.t->pages[0] == 0);
	for (i = 1, k = 1; i < c.t->npages; i++) {
		assert_true(c.t->versions[i] == 3);
		assert_true(c.t->pages[i] == k);
		if (!(k == T_BUSY_PAGE && i < 4))
			k++;
	}
	assert_int_equal(k, 64);
	t_client_close(&c);
}

/* Two samples: every counter read, growing, at the clock's timebase. */
static void
test_sample(void **state)
{
	struct t_client	 c;
	uint64_t	*first;
	double		 v;
	size_t		 k;

	(void)state;
	t_client_open(&c, "seed=2,cores=4", "HPM_0THRD_NON_IDLE_CCYC:0-3");
	assert_int_equal(c.rs.nvalues, 4 * 3);
	t_sample(&c, 1000000000);
	assert_int_equal(c.rs.calls, c.t->ndata);
	assert_true(c.rs.calls >= 1);
	assert_int_equal(c.rs.naive_calls, c.rs.nvalues);
	assert_true(c.t->last_tb == 512000000 + 1);
	assert_int_equal(c.t->last_reqlen, HCALL_BUF_SIZE);
	assert_int_equal(c.t->last_reslen, HCALL_BUF_SIZE);
	assert_true(c.rs.catalog_version == 3);
	first = xcalloc(c.rs.nvalues, sizeof *first);
	for (k = 0; k < c.rs.nvalues; k++) {
		if (c.rs.values[k].status != RAW_OK)
			fail_msg("value %zu: status %u: %s", k,
			    c.rs.values[k].status, c.rs.error);
		assert_true(c.rs.values[k].timebase != 0);
		first[k] = c.rs.values[k].value;
	}
	t_sample(&c, 2000000000);
	assert_true(c.t->last_tb == 1024000000 + 1);
	for (k = 0; k < c.rs.nvalues; k++) {
		assert_int_equal(c.rs.values[k].status, RAW_OK);
		assert_true(c.rs.values[k].value > first[k]);
	}
	assert_int_equal(c.src->ops->constant(c.src, "PB_Freq", &v), 0);
	assert_true(v == 2e9);
	assert_int_equal(c.src->ops->constant(c.src, "NOPE", &v),
	    -HV_ENOENT);
	free(first);
	t_client_close(&c);
}

/* A refused call: its values say why, and so does the sample. */
static void
test_refused(void **state)
{
	struct t_client	 c;
	size_t		 k;

	(void)state;
	t_client_open(&c, "seed=2,faults=denied",
	    "HPM_0THRD_NON_IDLE_CCYC:0-3");
	t_sample(&c, 1000000000);
	for (k = 0; k < c.rs.nvalues; k++)
		assert_int_equal(c.rs.values[k].status, RAW_DENIED);
	assert_non_null(strstr(c.rs.error, "H_GET_24X7_DATA: H_AUTHORITY "
	    "(-10), detailed_rc 0x500, failing request 0"));
	assert_non_null(strstr(c.rs.error, "on the HMC"));
	t_client_close(&c);
}

/*
 * The version a result buffer reports is the sample's, and the next
 * catalog asked for is fetched again under it.
 */
static void
test_version_change(void **state)
{
	struct t_client	 c;
	const void	*img;
	size_t		 len, before;
	uint64_t	 v;
	char		*cause = NULL;

	(void)state;
	t_client_open(&c, "seed=2,faults=version-change@2",
	    "HPM_0THRD_NON_IDLE_CCYC:0-3");
	t_sample(&c, 1000000000);
	assert_true(c.rs.catalog_version == 3);
	before = c.t->npages;
	assert_int_equal(c.src->ops->catalog(c.src, &img, &len, &cause), 0);
	assert_int_equal(c.t->npages, before);	/* nothing changed yet */
	t_sample(&c, 2000000000);
	assert_true(c.rs.catalog_version == 4);
	assert_int_equal(c.src->ops->catalog(c.src, &img, &len, &cause), 0);
	assert_int_equal(c.t->npages, before + 64);
	assert_int_equal(catalog_peek_version(img, len, &v), 0);
	assert_true(v == 4);
	/* The selection against the new catalog reads as before. */
	assert_int_equal(c.src->ops->select(c.src, &c.sel, &cause), 0);
	t_sample(&c, 3000000000);
	assert_true(c.rs.catalog_version == 4);
	assert_int_equal(c.rs.values[0].status, RAW_OK);
	t_client_close(&c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_catalog_fetch),
		cmocka_unit_test(test_sample),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_version_change),
	};

	return (cmocka_run_group_tests_name("source-hcall", tests, NULL,
	    NULL));
}
