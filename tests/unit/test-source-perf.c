/*
 * Unit tests for the perf source: discovery on fake sysfs trees (PCP's
 * hv_24x7 and hv_gpci fixtures, and hvtop's own POWER8 tree with a small
 * catalog), the live-catalog checks and the checks made before any
 * syscall.  Real counters are tested in test-source-perf-real.c.
 */
#include "config.h"

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "catalog/catalog.h"
#include "model/selection.h"
#include "source/source-perf-int.h"
#include "source/source-perf.h"
#include "sys/file.h"
#include "util/hverr.h"
#include "util/xalloc.h"

#include "fixture.h"
#include "harness.h"

static char *
data_path(const char *rel)
{
	char	*sub, *path;

	sub = xasprintf("tests/data/sysfs/%s", rel);
	path = fixture_path(sub);
	free(sub);
	return (path);
}

/* ---- fake trees made at run time ------------------------------------ */

static void
tree_copy(const char *from, const char *to)
{
	DIR		*d;
	struct dirent	*de;
	struct stat	 sb;
	char		*a, *b, *cause = NULL;
	void		*buf;
	size_t		 len;

	assert_int_equal(mkdir(to, 0755), 0);
	assert_non_null(d = opendir(from));
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		a = xasprintf("%s/%s", from, de->d_name);
		b = xasprintf("%s/%s", to, de->d_name);
		assert_int_equal(stat(a, &sb), 0);
		if (S_ISDIR(sb.st_mode))
			tree_copy(a, b);
		else {
			assert_int_equal(file_read(a, 1 << 20, &buf, &len,
			    &cause), 0);
			assert_int_equal(file_write(b, buf, len, 0,
			    &cause), 0);
			free(buf);
		}
		free(a);
		free(b);
	}
	closedir(d);
}

static void
tree_put(const char *root, const char *rel, const char *text)
{
	char	*path, *cause = NULL;

	path = xasprintf("%s/%s", root, rel);
	if (file_write(path, text, strlen(text), 0, &cause) != 0)
		fail_msg("%s", cause);
	free(path);
}

static void
tree_remove(const char *path)
{
	DIR		*d;
	struct dirent	*de;
	char		*p;

	if ((d = opendir(path)) == NULL) {
		unlink(path);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		p = xasprintf("%s/%s", path, de->d_name);
		tree_remove(p);
		free(p);
	}
	closedir(d);
	rmdir(path);
}

/* A private copy of hvtop's POWER8 tree, to change files in. */
static char *
p8_copy(void)
{
	char	 tmpl[] = "/tmp/hvtop-test-perf-XXXXXX";
	char	*src, *dst;

	assert_non_null(mkdtemp(tmpl));
	src = data_path("hvtop-p8");
	dst = xasprintf("%s/t", tmpl);
	tree_copy(src, dst);
	free(src);
	return (dst);
}

static void
p8_free(char *dst)
{
	char	*slash;

	tree_remove(dst);
	if ((slash = strrchr(dst, '/')) != NULL) {
		*slash = '\0';
		rmdir(dst);
	}
	free(dst);
}

#define HV24X7_DIR "sys/bus/event_source/devices/hv_24x7"

/* ---- discovery ------------------------------------------------------- */

static void
test_sysfs_pcp_core(void **state)
{
	struct source_perf_pmu	 pmu;
	char			*root, *cause = NULL;
	const struct pmu_term	*t;

	(void)state;
	root = data_path("pcp-core");
	if (source_perf_sysfs_load(root, "pmu1", &pmu, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(pmu.type, 0);
	assert_null(pmu.cpumask);
	assert_int_equal(pmu.nformats, 6);
	assert_int_equal(pmu.nevents, 6);
	assert_int_equal(pmu.nwarnings, 0);
	assert_false(pmu.hv24x7);
	assert_int_equal(pmu.collect_privileged, -1);
	assert_string_equal(pmu.events[0].name, "event1");
	assert_string_equal(pmu.events[5].name, "event6");
	t = pmu_event_term(&pmu.events[5], "offset");
	assert_non_null(t);
	assert_true(t->value == 0x98);
	assert_int_equal(pmu_event_term(&pmu.events[5], "core")->kind,
	    PMU_TERM_PARAM);
	assert_non_null(pmu_format_find(pmu.formats, pmu.nformats, "lpar"));
	assert_int_equal(pmu_format_find(pmu.formats, pmu.nformats,
	    "lpar")->word, 1);
	source_perf_sysfs_free(&pmu);

	/* Absent PMU. */
	assert_int_equal(source_perf_sysfs_load(root, "hv_24x7", &pmu,
	    &cause), -ENOENT);
	must_contain(cause, "no PMU 'hv_24x7'");
	free(cause);
	cause = NULL;
	assert_int_equal(source_perf_sysfs_load(root, "../x", &pmu, &cause),
	    -HV_EUSAGE);
	free(cause);
	free(root);
}

static void
test_sysfs_pcp_gpci(void **state)
{
	struct source_perf_pmu	 pmu;
	char			*root, *cause = NULL;
	size_t			 i;

	(void)state;
	root = data_path("pcp-hvgpci");
	if (source_perf_sysfs_load(root, "pmu1", &pmu, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(pmu.nformats, 10);
	assert_int_equal(pmu.nevents, 8);
	for (i = 0; i < pmu.nevents; i++)
		assert_true(pmu_event_has_params(&pmu.events[i]));
	source_perf_sysfs_free(&pmu);
	free(root);
}

static void
test_open_pcp_multinode(void **state)
{
	struct source		 src;
	struct selection	 sel;
	const struct catalog	*model;
	const void		*img;
	struct topology		 topo;
	size_t			 len;
	char			*root, *args, *cause = NULL;

	(void)state;
	root = data_path("pcp-multinode");
	memset(&src, 0, sizeof src);
	src.ops = &source_perf_ops;
	args = xasprintf("sysfs_root=%s,pmu=pmu1,chip=1", root);
	if (source_perf_ops.open(&src, args, &cause) != 0)
		fail_msg("%s", cause);
	free(args);
	assert_string_equal(src.label, "perf pmu1, cpu 0");
	assert_string_equal(src.calls, "group reads");
	assert_int_equal(source_perf_ops.catalog(&src, &img, &len, &cause),
	    -HV_ENOENT);
	must_contain(cause, "no 24x7 catalog");
	free(cause);
	assert_int_equal(source_perf_catalog_model(&src, &model), 0);
	assert_int_equal(model->nevents, 2);
	assert_string_equal(model->events[0].name, "bar");
	assert_string_equal(model->events[0].desc,
	    "pmu1/domain=0x1,offset=0x80,chip=?,lpar=0x0/");
	/* A PMU other than hv_24x7 counts per CPU. */
	assert_int_equal(model->events[1].domain, CATALOG_DOMAIN_CPU);
	assert_int_equal(model->groups[0].domain, CATALOG_DOMAIN_CPU);
	assert_int_equal(model->events[1].skip, 0);
	assert_non_null(catalog_find_event(model, "foo", 0));
	assert_int_equal(model->ngroups, 1);
	assert_non_null(catalog_find_group(model, "pmu1"));
	assert_int_equal(model->groups[0].event_count, 2);
	assert_int_equal(source_perf_ops.topology(&src, &topo, &cause), 0);
	assert_int_equal(topo.chips, 1);
	source_perf_ops.close(&src);
	assert_null(src.label);

	/* A '?' parameter nobody gave stops select before any syscall. */
	args = xasprintf("sysfs_root=%s,pmu=pmu1", root);
	if (source_perf_ops.open(&src, args, &cause) != 0)
		fail_msg("%s", cause);
	free(args);
	assert_int_equal(source_perf_catalog_model(&src, &model), 0);
	assert_int_equal(source_perf_ops.topology(&src, &topo, &cause), 0);
	memset(&sel, 0, sizeof sel);
	assert_int_equal(selection_add(&sel, model, &topo, "foo@chip", 1,
	    &cause), -HV_ERANGE);
	must_contain(cause, "counts this per cpu");
	free(cause);
	cause = NULL;
	if (selection_add(&sel, model, &topo, "foo@cpu:0", 1, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(sel.picks[0].domain, CATALOG_DOMAIN_CPU);
	assert_string_equal(selection_domain_term(sel.picks[0].domain),
	    "cpu");
	selection_clear(&sel);
	if (selection_add(&sel, model, &topo, "foo", 1, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(source_perf_ops.select(&src, &sel, &cause),
	    -HV_ENOENT);
	assert_string_equal(cause, "event 'foo': required parameter 'chip' "
	    "not specified (give it with -O NAME=VALUE)");
	free(cause);
	cause = NULL;
	/* An index beyond the chosen CPUs. */
	sel.counters[0].index = 1;
	assert_int_equal(source_perf_ops.select(&src, &sel, &cause),
	    -HV_ERANGE);
	assert_string_equal(cause, "foo: index 1 is out of range: 1 CPU "
	    "chosen (cpus option)");
	free(cause);
	cause = NULL;
	selection_clear(&sel);
	source_perf_ops.close(&src);

	/* Options that mean nothing are refused by name. */
	args = xasprintf("sysfs_root=%s,pmu=pmu1,bogus=1", root);
	assert_int_equal(source_perf_ops.open(&src, args, &cause),
	    -HV_EUSAGE);
	must_contain(cause, "option 'bogus': no such option");
	free(cause);
	free(args);
	args = xasprintf("sysfs_root=%s,pmu=pmu1,frobnicate", root);
	assert_int_equal(source_perf_ops.open(&src, args, &cause),
	    -HV_EUSAGE);
	must_contain(cause, "option 'frobnicate': expected KEY=VALUE");
	free(cause);
	free(args);
	args = xasprintf("sysfs_root=%s,pmu=pmu1,group_max=0", root);
	assert_int_equal(source_perf_ops.open(&src, args, &cause),
	    -HV_EUSAGE);
	free(cause);
	free(args);
	args = xasprintf("sysfs_root=%s,pmu=nope", root);
	assert_int_equal(source_perf_ops.open(&src, args, &cause), -ENOENT);
	must_contain(cause, "no PMU 'nope'");
	must_contain(cause, "; PMUs here: pmu1");
	free(cause);
	free(args);
	args = xasprintf("sysfs_root=%s", root);
	assert_int_equal(source_perf_ops.open(&src, args, &cause), -ENOENT);
	must_contain(cause, "no PMU 'hv_24x7'");
	must_contain(cause, "exists only in PowerVM partitions");
	free(cause);
	free(args);
	free(root);
}

static void
test_sysfs_p8(void **state)
{
	struct source_perf_pmu	 pmu;
	struct catalog		*cat;
	char			*root, *path, *cause = NULL;
	void			*img, *file;
	size_t			 len, flen;
	uint64_t		 version;

	(void)state;
	root = data_path("hvtop-p8/sys");
	if (source_perf_sysfs_load(root, "hv_24x7", &pmu, &cause) != 0)
		fail_msg("%s", cause);
	assert_true(pmu.hv24x7);
	assert_int_equal(pmu.type, 6);
	assert_int_equal(pmu.ncpumask, 1);
	assert_int_equal(pmu.cpumask[0], 0);
	assert_int_equal(pmu.nformats, 6);
	assert_int_equal(pmu.nevents, 8);
	assert_true(pmu.catalog_len == 16384);
	assert_true(pmu.catalog_version == 5);
	assert_int_equal(pmu.sockets, 2);
	assert_int_equal(pmu.chipspersocket, 1);
	assert_int_equal(pmu.coresperchip, 10);
	assert_int_equal(pmu.collect_privileged, 0);
	must_contain(pmu.domains, "6: VCPU Remote Node");
	assert_string_equal(pmu.events[0].name, "HPM_CCYC");
	assert_string_equal(pmu.descs[0], "Cycles counted at a constant rate");
	assert_null(pmu.descs[2]);

	/* The live catalog, page by page, is the file. */
	if (source_perf_sysfs_catalog(&pmu, &img, &len, &version,
	    &cause) != 0)
		fail_msg("%s", cause);
	path = xasprintf("%s/bus/event_source/devices/hv_24x7/interface/"
	    "catalog", root);
	assert_int_equal(file_read(path, 1 << 20, &file, &flen, &cause), 0);
	assert_int_equal(len, flen);
	assert_memory_equal(img, file, len);
	assert_true(version == 5);
	assert_int_equal(catalog_parse(img, len, 0, &cat, &cause), 0);
	assert_int_equal(cat->nevents, 9);
	assert_int_equal(cat->ngroups, 2);
	assert_int_equal(cat->nerrors, 0);
	assert_true(catalog_find_event(cat, "HPM_CCYC", 0)->offset == 0x98);
	assert_true(catalog_find_event(cat, "PM_PB_CYC", 0)->offset == 0x80);
	catalog_free(cat);
	free(file);
	free(img);
	free(path);
	source_perf_sysfs_free(&pmu);
	free(root);
}

/* The catalog's length and version are checked against page 0. */
static void
test_sysfs_p8_catalog_checks(void **state)
{
	struct source_perf_pmu	 pmu;
	char			*root, *sys, *cause = NULL;
	void			*img;
	size_t			 len;
	uint64_t		 version;

	(void)state;
	root = p8_copy();
	sys = xasprintf("%s/sys", root);
	tree_put(root, HV24X7_DIR "/interface/catalog_len", "20480\n");
	assert_int_equal(source_perf_sysfs_load(sys, "hv_24x7", &pmu,
	    &cause), 0);
	assert_int_equal(source_perf_sysfs_catalog(&pmu, &img, &len,
	    &version, &cause), -HV_ETRUNC);
	must_contain(cause, "ends after 16384 bytes, but catalog_len says "
	    "20480");
	free(cause);
	cause = NULL;
	source_perf_sysfs_free(&pmu);

	tree_put(root, HV24X7_DIR "/interface/catalog_len", "16384\n");
	tree_put(root, HV24X7_DIR "/interface/catalog_version", "6\n");
	assert_int_equal(source_perf_sysfs_load(sys, "hv_24x7", &pmu,
	    &cause), 0);
	assert_int_equal(source_perf_sysfs_catalog(&pmu, &img, &len,
	    &version, &cause), -HV_EVERSION);
	must_contain(cause, "page 0 says version 5 and 16384 bytes, but "
	    "catalog_version says 6");
	free(cause);
	cause = NULL;
	source_perf_sysfs_free(&pmu);

	/* Without catalog_len the file is read to its end. */
	tree_put(root, HV24X7_DIR "/interface/catalog_version", "5\n");
	tree_put(root, HV24X7_DIR "/interface/catalog_len", "");
	assert_int_equal(source_perf_sysfs_load(sys, "hv_24x7", &pmu,
	    &cause), 0);
	assert_true(pmu.catalog_len == 0);
	assert_int_equal(source_perf_sysfs_catalog(&pmu, &img, &len,
	    &version, &cause), 0);
	assert_int_equal(len, 16384);
	free(img);
	source_perf_sysfs_free(&pmu);
	free(sys);
	p8_free(root);
}

static int
p8_open(struct source *src, const char *root, const char *extra,
    char **cause)
{
	char	*args;
	int	 error;

	memset(src, 0, sizeof *src);
	src->ops = &source_perf_ops;
	args = xasprintf("sysfs_root=%s/sys,proc_root=%s/proc%s%s", root,
	    root, extra != NULL ? "," : "", extra != NULL ? extra : "");
	error = source_perf_ops.open(src, args, cause);
	free(args);
	return (error);
}

static void
test_open_p8(void **state)
{
	struct source		 src;
	struct topology		 t;
	struct catalog		*cat;
	struct selection	 sel;
	const struct catalog	*model;
	const void		*img;
	size_t			 len;
	char			*root, *cause = NULL;

	(void)state;
	root = data_path("hvtop-p8");
	if (p8_open(&src, root, NULL, &cause) != 0)
		fail_msg("%s", cause);
	assert_string_equal(src.label, "perf hv_24x7, cpu 0");
	assert_int_equal(source_perf_ops.topology(&src, &t, &cause), 0);
	assert_int_equal(t.interface, 1);	/* POWER8E in cpuinfo */
	assert_int_equal(t.smt, 8);
	assert_int_equal(t.vcpus, 2);
	assert_int_equal(t.sockets, 2);
	assert_int_equal(t.chips, 2);
	assert_int_equal(t.cores, 20);
	assert_int_equal(t.privileged, 0);
	assert_true(t.timebase_hz == 512000000);
	assert_int_equal(source_perf_ops.catalog(&src, &img, &len, &cause),
	    0);
	assert_int_equal(len, 16384);

	/* The model from events/ mirrors the listing. */
	assert_int_equal(source_perf_catalog_model(&src, &model), 0);
	assert_int_equal(model->nevents, 8);
	assert_int_equal(catalog_find_event(model, "PM_PB_CYC", 0)->domain, 1);
	assert_int_equal(catalog_find_event(model, "HPM_CCYC", 0)->domain, 2);
	assert_true(catalog_find_event(model, "HPM_CCYC", 0)->offset == 0x98);

	/* Physical domains without the hypervisor's permission fail before
	 * any syscall, naming the HMC setting. */
	assert_int_equal(catalog_parse(img, len, 1, &cat, &cause), 0);
	memset(&sel, 0, sizeof sel);
	if (selection_add(&sel, cat, &t, "HPM_CCYC@core:1", 1, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(source_perf_ops.select(&src, &sel, &cause), -EACCES);
	must_contain(cause, "HPM_CCYC: domain 2 (Physical Core) counts for "
	    "the whole frame");
	must_contain(cause, "\"Allow performance information collection\"");
	free(cause);
	cause = NULL;
	selection_clear(&sel);

	/* An index beyond the frame, set by hand (the selection itself
	 * keeps VCPU domains to interface 2). */
	memset(&sel, 0, sizeof sel);
	t.interface = 2;
	if (selection_add(&sel, cat, &t, "HPM_CCYC@vcpu:1", 1, &cause) != 0)
		fail_msg("%s", cause);
	sel.counters[0].index = 2;
	assert_int_equal(source_perf_ops.select(&src, &sel, &cause),
	    -HV_ERANGE);
	must_contain(cause, "vcpu index 2 is out of range for domain 3 "
	    "(VCPU Home Core): this partition has 2 vcpus (0-1)");
	free(cause);
	cause = NULL;
	/* Another partition's counters need the same permission. */
	sel.counters[0].index = 1;
	sel.counters[0].lpar = 7;
	assert_int_equal(source_perf_ops.select(&src, &sel, &cause), -EACCES);
	must_contain(cause, "lpar 0x7 is not this partition");
	free(cause);
	cause = NULL;
	selection_clear(&sel);
	catalog_free(cat);
	source_perf_ops.close(&src);

	/* A CPU list continues past commas; CPUs must be online. */
	if (p8_open(&src, root, "cpus=3,5,group_max=8", &cause) != 0)
		fail_msg("%s", cause);
	assert_string_equal(src.label, "perf hv_24x7, cpu 3");
	source_perf_ops.close(&src);

	/* Without the catalog's image only the label says its version. */
	tree_put(root, HV24X7_DIR "/interface/catalog_version", "6\n");
	if (p8_open(&src, root, NULL, &cause) != 0)
		fail_msg("%s", cause);
	assert_string_equal(src.label, "perf hv_24x7, cpu 0, catalog v6");
	source_perf_ops.close(&src);
	tree_put(root, HV24X7_DIR "/interface/catalog_version", "5\n");
	assert_int_equal(p8_open(&src, root, "cpus=2-3,16", &cause),
	    -HV_EUSAGE);
	assert_string_equal(cause, "cpus=2-3,16: CPU 16 is not online "
	    "(online: 0-15)");
	free(cause);
	free(root);
}

/*
 * A catalog version change: the session asks for the catalog again, and
 * gets the live one, not the image read at open.  A catalog that cannot
 * be read then says why.
 */
static void
test_open_p8_version_change(void **state)
{
	struct source	 src;
	const void	*img;
	size_t		 len;
	uint64_t	 version;
	char		*root, *path, *cause = NULL;
	void		*buf;
	size_t		 n;

	(void)state;
	root = p8_copy();
	if (p8_open(&src, root, NULL, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(source_perf_ops.catalog(&src, &img, &len, &cause),
	    0);
	assert_int_equal(catalog_peek_version(img, len, &version), 0);
	assert_true(version == 5);

	/* Version 6: page 0's version field (bytes 8-15) and sysfs. */
	path = xasprintf("%s/%s/interface/catalog", root, HV24X7_DIR);
	assert_int_equal(file_read(path, 1 << 20, &buf, &n, &cause), 0);
	((unsigned char *)buf)[15] = 6;
	assert_int_equal(file_write(path, buf, n, 0, &cause), 0);
	tree_put(root, HV24X7_DIR "/interface/catalog_version", "6\n");
	assert_int_equal(source_perf_ops.catalog(&src, &img, &len, &cause),
	    0);
	assert_int_equal(len, 16384);
	assert_int_equal(catalog_peek_version(img, len, &version), 0);
	assert_true(version == 6);

	/* Version 7 in sysfs alone: page 0 disagrees, which is said. */
	tree_put(root, HV24X7_DIR "/interface/catalog_version", "7\n");
	assert_int_equal(source_perf_ops.catalog(&src, &img, &len, &cause),
	    -HV_EVERSION);
	must_contain(cause, "page 0 says version 6");
	free(cause);
	source_perf_ops.close(&src);
	free(buf);
	free(path);
	p8_free(root);
}

/*
 * The processor clock a partition reads by itself: the device tree's
 * 64-bit ibm,extended-clock-frequency, else cpuinfo's clock; the bus
 * clocks it cannot learn stay unknown.
 */
static void
test_constants(void **state)
{
	static const unsigned char hz[8] = {
		0, 0, 0, 0, 0xd0, 0x9d, 0xc3, 0x00,	/* 3,500,000,000 */
	};
	struct source	 src;
	const char	*origin;
	char		*root, *cause = NULL, *dir, *path;
	double		 v;
	FILE		*f;

	(void)state;
	root = p8_copy();
	if (p8_open(&src, root, NULL, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(source_perf_ops.constant(&src, "CPU_Freq", &v), 0);
	assert_true(v == 3425e6);
	origin = source_perf_ops.constant_origin(&src, "cpu_hz");
	path = xasprintf("%s/proc/cpuinfo clock", root);
	assert_string_equal(origin, path);
	free(path);
	assert_int_equal(source_perf_ops.constant(&src, "PB_Freq", &v),
	    -HV_ENOENT);
	assert_null(source_perf_ops.constant_origin(&src, "PB_Freq"));
	source_perf_ops.close(&src);

	dir = xasprintf("%s/proc/device-tree", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	free(dir);
	dir = xasprintf("%s/proc/device-tree/cpus", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	free(dir);
	dir = xasprintf("%s/proc/device-tree/cpus/PowerPC,POWER8@0", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	path = xasprintf("%s/ibm,extended-clock-frequency", dir);
	assert_non_null(f = fopen(path, "wb"));
	assert_int_equal(fwrite(hz, 1, sizeof hz, f), sizeof hz);
	fclose(f);
	if (p8_open(&src, root, NULL, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(source_perf_ops.constant(&src, "cpu_hz", &v), 0);
	assert_true(v == 3.5e9);
	assert_string_equal(source_perf_ops.constant_origin(&src, "CPU_Freq"),
	    path);
	source_perf_ops.close(&src);
	free(path);
	free(dir);
	p8_free(root);
}

/*
 * A PMU type no kernel has: the fake tree passes every check, and the
 * syscall's ENOENT becomes a message.  With permission, a physical core
 * event is encoded as the reference says.
 */
static void
test_open_p8_enoent(void **state)
{
	struct source		 src;
	struct topology		 t;
	struct catalog		*cat;
	struct selection	 sel;
	const void		*img;
	size_t			 len;
	char			*root, *cause = NULL;
	int			 error;

	(void)state;
	root = p8_copy();
	tree_put(root, HV24X7_DIR "/type", "2000000000\n");
	tree_put(root, "sys/bus/event_source/devices/hv_gpci/interface/"
	    "collect_privileged", "1\n");
	if (p8_open(&src, root, NULL, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(source_perf_ops.topology(&src, &t, &cause), 0);
	assert_int_equal(t.privileged, 1);
	assert_int_equal(source_perf_ops.catalog(&src, &img, &len, &cause),
	    0);
	assert_int_equal(catalog_parse(img, len, 1, &cat, &cause), 0);
	memset(&sel, 0, sizeof sel);
	if (selection_add(&sel, cat, &t, "HPM_CCYC@core:1", 1, &cause) != 0)
		fail_msg("%s", cause);
	error = source_perf_ops.select(&src, &sel, &cause);
	must_contain(cause, "perf_event_open(hv_24x7/HPM_CCYC/ "
	    "config=0x9800010002 config1=0xffff, cpu 0)");
	/* Without CAP_PERFMON the kernel refuses before it looks for the
	 * PMU; the message then quotes the tree's perf_event_paranoid. */
	if (error == -EACCES || error == -EPERM)
		must_contain(cause, "perf_event_paranoid is 2, and counting "
		    "a whole CPU needs it at 0 or below or CAP_PERFMON");
	else {
		assert_int_equal(error, -ENOENT);
		must_contain(cause, "the kernel has no PMU of type "
		    "2000000000");
	}
	free(cause);
	selection_clear(&sel);
	catalog_free(cat);
	source_perf_ops.close(&src);

	/* interface=2 overrides cpuinfo. */
	if (p8_open(&src, root, "interface=2", &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(source_perf_ops.topology(&src, &t, &cause), 0);
	assert_int_equal(t.interface, 2);
	source_perf_ops.close(&src);
	p8_free(root);
}

/* ---- partitions ------------------------------------------------------ */

/*
 * A frame for the scan: partition i has vcpus[i] virtual processors (0:
 * none), and ids other than this partition's are refused with err when
 * err is set.
 */
struct fake_frame {
	unsigned	 vcpus[8];
	int		 self_ok;
	int		 err;
	unsigned	 probes;
	unsigned	 busy_every;	/* every Nth probe is EBUSY (0: none) */
	unsigned	 pauses;
	uint64_t	 paused_ns;	/* the longest pause asked for */
};

static void
fake_pause(void *arg, uint64_t ns)
{
	struct fake_frame	*f = arg;

	f->pauses++;
	if (ns > f->paused_ns)
		f->paused_ns = ns;
}

static int
fake_probe(void *arg, uint16_t lpar, unsigned vcpu)
{
	struct fake_frame	*f = arg;

	f->probes++;
	if (f->busy_every != 0 && f->probes % f->busy_every != 0)
		return (EBUSY);
	if (lpar == SEL_LPAR_SELF)
		return (f->self_ok && vcpu < f->vcpus[1] ? 0 : EIO);
	if (f->err != 0)
		return (f->err);
	if (lpar >= 8 || vcpu >= f->vcpus[lpar])
		return (EIO);
	return (0);
}

static void
fake_scan_gap(struct fake_frame *f, uint16_t lo, uint16_t hi, unsigned gap,
    int privileged, struct perf_lpar_found *out)
{
	struct perf_lpar_scan	 sc;

	memset(&sc, 0, sizeof sc);
	sc.probe = fake_probe;
	sc.arg = f;
	sc.lo = lo;
	sc.hi = hi;
	sc.gap = gap;
	sc.maxvcpus = PERF_LPAR_VCPUS_MAX;
	sc.privileged = privileged;
	source_perf_lpar_scan(&sc, out);
}

static void
fake_scan(struct fake_frame *f, uint16_t lo, uint16_t hi, int privileged,
    struct perf_lpar_found *out)
{
	struct perf_lpar_scan	 sc;

	memset(&sc, 0, sizeof sc);
	sc.probe = fake_probe;
	sc.arg = f;
	sc.lo = lo;
	sc.hi = hi;
	sc.maxvcpus = PERF_LPAR_VCPUS_MAX;
	sc.privileged = privileged;
	sc.pause = fake_pause;
	source_perf_lpar_scan(&sc, out);
}

/*
 * A hypervisor busy for two probes in three: the scan asks again, with
 * waits that grow to at most 100 ms, and finds what a quiet one shows;
 * busy for good, it says it gave up and claims no denial.
 */
static void
test_lpar_scan_busy(void **state)
{
	struct fake_frame	 f;
	struct perf_lpar_found	 out;

	(void)state;
	memset(&f, 0, sizeof f);
	f.self_ok = 1;
	f.vcpus[1] = 16;
	f.vcpus[2] = 16;
	f.vcpus[3] = 3;
	f.busy_every = 3;
	fake_scan(&f, 1, 7, -1, &out);
	assert_int_equal(out.nlpars, 3);
	assert_int_equal(out.lpars[1].id, 2);
	assert_int_equal(out.lpars[2].vcpus, 3);
	assert_int_equal(out.gave_up, 0);
	assert_true(out.busy > 0);
	assert_true(f.pauses > 0);
	assert_true(f.paused_ns >= 1000000ULL &&
	    f.paused_ns <= 100000000ULL);
	source_perf_lpar_found_free(&out);
	/* Busy for good after this partition answered. */
	memset(&f, 0, sizeof f);
	f.self_ok = 1;
	f.vcpus[1] = 4;
	f.vcpus[2] = 4;
	fake_scan(&f, 1, 1, -1, &out);
	source_perf_lpar_found_free(&out);
	f.err = EBUSY;
	f.probes = f.pauses = 0;
	fake_scan(&f, 2, 3, -1, &out);
	assert_int_equal(out.gave_up, 1);
	assert_int_equal(out.denied, 0);
	assert_int_equal(out.nlpars, 0);
	assert_true(f.paused_ns <= 100000000ULL);
	source_perf_lpar_found_free(&out);
}

/*
 * The scan finds exactly the partitions that answer, with their vcpus,
 * in a bounded number of opens; without the permission only this
 * partition answers, and that is said.
 */
static void
test_lpar_scan(void **state)
{
	struct fake_frame	 f;
	struct perf_lpar_found	 out;

	(void)state;
	/* Partitions 1-3 of 16, 16 and 3 vcpus; 5 of 1; 0 is never asked. */
	memset(&f, 0, sizeof f);
	f.self_ok = 1;
	f.vcpus[0] = 4;
	f.vcpus[1] = 16;
	f.vcpus[2] = 16;
	f.vcpus[3] = 3;
	f.vcpus[5] = 1;
	fake_scan(&f, PERF_LPARS_DEFAULT_LO, PERF_LPARS_DEFAULT_HI, -1, &out);
	assert_int_equal(out.nlpars, 4);
	assert_int_equal(out.denied, 0);
	assert_int_equal(out.lpars[0].id, 1);
	assert_int_equal(out.lpars[0].vcpus, 16);
	assert_int_equal(out.lpars[1].id, 2);
	assert_int_equal(out.lpars[1].vcpus, 16);
	assert_int_equal(out.lpars[2].id, 3);
	assert_int_equal(out.lpars[2].vcpus, 3);
	assert_int_equal(out.lpars[3].id, 5);
	assert_int_equal(out.lpars[3].vcpus, 1);
	assert_null(topo_lpar_find(out.lpars, out.nlpars, 4));
	assert_int_equal(topo_lpar_find(out.lpars, out.nlpars, 3)->vcpus, 3);
	/* One open for this partition, one per id, a few per partition. */
	assert_int_equal(out.probes, f.probes);
	assert_true(out.probes <= 1 + 254 + 4 * 2 * 9);
	source_perf_lpar_found_free(&out);

	/* By default the scan stops a gap past the last id found. */
	f.probes = 0;
	fake_scan_gap(&f, 1, 254, PERF_LPAR_GAP, -1, &out);
	assert_int_equal(out.nlpars, 4);
	assert_int_equal(out.lpars[3].id, 5);
	assert_int_equal(f.probes, out.probes);
	/* This partition, ids 1-5 and 32 more, the vcpus of 4 partitions. */
	assert_true(out.probes <= 1 + 5 + PERF_LPAR_GAP + 4 * 2 * 9);
	source_perf_lpar_found_free(&out);
	fake_scan_gap(&f, 1, 254, 1, -1, &out);
	assert_int_equal(out.nlpars, 3);
	source_perf_lpar_found_free(&out);

	/* The next partition's count is guessed from the one before: two
	 * opens when right, and the right count when wrong. */
	{
		static const unsigned pairs[][2] = { { 16, 16 }, { 16, 3 },
		    { 4, 40 }, { 256, 300 }, { 1, 7 }, { 7, 1 },
		    { 255, 256 }, { 300, 255 } };
		size_t	 k;

		for (k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
			memset(&f, 0, sizeof f);
			f.self_ok = 1;
			f.vcpus[1] = pairs[k][0];
			f.vcpus[2] = pairs[k][1];
			fake_scan(&f, 1, 2, 1, &out);
			assert_int_equal(out.nlpars, 2);
			assert_int_equal(out.lpars[0].vcpus, pairs[k][0] > 256 ?
			    256 : pairs[k][0]);
			assert_int_equal(out.lpars[1].vcpus, pairs[k][1] > 256 ?
			    256 : pairs[k][1]);
			if (pairs[k][0] == pairs[k][1])
				assert_int_equal(out.probes, 1 + 2 + 8 + 2);
			source_perf_lpar_found_free(&out);
		}
		memset(&f, 0, sizeof f);
		f.self_ok = 1;
		f.vcpus[0] = 4;
		f.vcpus[1] = 16;
		f.vcpus[2] = 16;
		f.vcpus[3] = 3;
		f.vcpus[5] = 1;
	}

	/* A range of one id; a partition of more vcpus than looked for. */
	f.vcpus[2] = 300;
	fake_scan(&f, 2, 2, 1, &out);
	assert_int_equal(out.nlpars, 1);
	assert_int_equal(out.lpars[0].vcpus, PERF_LPAR_VCPUS_MAX);
	source_perf_lpar_found_free(&out);

	/* Other ids refused while this partition answers: denied. */
	f.err = EACCES;
	fake_scan(&f, 1, 254, -1, &out);
	assert_int_equal(out.nlpars, 0);
	assert_null(out.lpars);
	assert_int_equal(out.denied, 1);
	assert_int_equal(out.refused, 254);
	source_perf_lpar_found_free(&out);

	/* No permission: nothing is opened at all. */
	f.probes = 0;
	fake_scan(&f, 1, 254, 0, &out);
	assert_int_equal(out.denied, 1);
	assert_int_equal(f.probes, 0);
	source_perf_lpar_found_free(&out);

	/* This partition does not answer: no VCPU domains, not denied. */
	f.err = 0;
	f.self_ok = 0;
	fake_scan(&f, 1, 254, 1, &out);
	assert_int_equal(out.nlpars, 0);
	assert_int_equal(out.denied, 0);
	assert_int_equal(out.probes, 1);
	source_perf_lpar_found_free(&out);

	/* lpars=none */
	f.self_ok = 1;
	fake_scan(&f, 0, 0, 1, &out);
	assert_int_equal(out.probes, 0);
	assert_int_equal(out.denied, 0);
}

/*
 * The source on a tree of interface 2 without the permission: lparcfg
 * names this partition, no other is looked for, and the option lpars=
 * is checked.
 */
static void
test_open_lpars(void **state)
{
	struct source	 src;
	struct topology	 t;
	char		*root, *dir, *cause = NULL;

	(void)state;
	root = p8_copy();
	dir = xasprintf("%s/proc/powerpc", root);
	assert_int_equal(mkdir(dir, 0755), 0);
	free(dir);
	tree_put(root, "proc/powerpc/lparcfg", "lparcfg 1.9\n"
	    "serial_number=IBM,0278A1234\npartition_id=5\nR4=0x2\n");
	if (p8_open(&src, root, "interface=2", &cause) != 0)
		fail_msg("%s", cause);
	/* Partitions are looked for when asked. */
	assert_int_equal(source_perf_ops.partitions(&src, &cause), 0);
	assert_int_equal(source_perf_ops.topology(&src, &t, &cause), 0);
	assert_int_equal(t.lpar_self, 5);
	assert_int_equal(t.lpars_denied, 1);
	assert_int_equal(t.nlpars, 0);
	assert_null(t.lpars);
	source_perf_ops.close(&src);

	/* Interface 1 has no VCPU domains: nothing is looked for. */
	tree_put(root, "proc/powerpc/lparcfg", "partition_id=x\n");
	if (p8_open(&src, root, "lpars=1-3", &cause) != 0)
		fail_msg("%s", cause);
	/* Partitions are looked for when asked. */
	assert_int_equal(source_perf_ops.partitions(&src, &cause), 0);
	assert_int_equal(source_perf_ops.topology(&src, &t, &cause), 0);
	assert_int_equal(t.lpar_self, SEL_LPAR_SELF);
	assert_int_equal(t.lpars_denied, 0);
	source_perf_ops.close(&src);

	assert_int_equal(p8_open(&src, root, "lpars=0-3", &cause),
	    -HV_EUSAGE);
	assert_string_equal(cause, "option lpars=0-3: expected partition ids "
	    "LO-HI from 1 to 65534 (default 1-254), or none");
	free(cause);
	cause = NULL;
	assert_int_equal(p8_open(&src, root, "lpars=3-1", &cause),
	    -HV_EUSAGE);
	free(cause);
	cause = NULL;
	assert_int_equal(p8_open(&src, root, "lpars=1-65535", &cause),
	    -HV_EUSAGE);
	free(cause);
	if (p8_open(&src, root, "lpars=none,interface=2", &cause) != 0)
		fail_msg("%s", cause);
	/* Partitions are looked for when asked. */
	assert_int_equal(source_perf_ops.partitions(&src, &cause), 0);
	assert_int_equal(source_perf_ops.topology(&src, &t, &cause), 0);
	assert_int_equal(t.lpars_denied, 0);
	source_perf_ops.close(&src);
	p8_free(root);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sysfs_pcp_core),
		cmocka_unit_test(test_sysfs_pcp_gpci),
		cmocka_unit_test(test_open_pcp_multinode),
		cmocka_unit_test(test_sysfs_p8),
		cmocka_unit_test(test_sysfs_p8_catalog_checks),
		cmocka_unit_test(test_open_p8),
		cmocka_unit_test(test_open_p8_enoent),
		cmocka_unit_test(test_open_p8_version_change),
		cmocka_unit_test(test_constants),
		cmocka_unit_test(test_lpar_scan),
		cmocka_unit_test(test_lpar_scan_busy),
		cmocka_unit_test(test_open_lpars),
	};

	return (cmocka_run_group_tests_name("source-perf", tests, NULL,
	    NULL));
}
