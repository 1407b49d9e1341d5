/*
 * The simulated hypervisor's library API (sim/hvsim.h), as a hypervisor
 * emulator uses it: the catalog pages it serves are the image it was
 * given, the capability and module information calls answer what the
 * Linux drivers read at boot, and each request buffer kept in
 * tests/data/hcall/ gives the result bytes kept next to it.  Then what
 * hvtop's sim transport asks besides: the frame's shape and clocks, its
 * keys checked one by one, a catalog with problems served.
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

#include "hcall/hcall.h"
#include "sim/hvsim.h"
#include "util/be.h"
#include "util/xalloc.h"

#include "fixture.h"

/* What the result golden file was made with; changing it changes them. */
#define T_SPEC	"seed=4,sockets=2,chips_per_socket=1,cores=4," \
		"uptime_ms=1000"
#define T_TB	(512000000ULL * 3)	/* three seconds in */

/* A file of the source tree's tests/data/, or (top "build") the build's. */
static uint8_t *
read_file(const char *dir, const char *name, size_t *len)
{
	char	*path;
	uint8_t	*buf;

	if (strcmp(dir, "build") != 0)
		return (fixture_data(dir, name, len));
	path = fixture_build_path(name);
	buf = fixture_load(path, len);
	free(path);
	return (buf);
}

/* Hex bytes with '#' comments, as in tests/data/hcall/. */
static uint8_t *
read_hex(const char *name, size_t *len)
{
	uint8_t		*text, *out;
	char		*p, *end;
	size_t		 n, k = 0;
	unsigned long	 v;

	text = read_file("hcall", name, &n);
	out = xcalloc(1, n / 2 + 1);
	for (p = (char *)text; *p != '\0';) {
		if (*p == '#') {
			p += strcspn(p, "\n");
			continue;
		}
		if (*p == ' ' || *p == '\n' || *p == '\t') {
			p++;
			continue;
		}
		v = strtoul(p, &end, 16);
		if (end != p + 2 || v > 0xff)
			fail_msg("%s: bad byte at offset %td", name,
			    p - (char *)text);
		out[k++] = (uint8_t)v;
		p = end;
	}
	free(text);
	*len = k;
	return (out);
}

static struct hvsim *
p8_hvsim(const char *spec)
{
	struct hvsim	*s;
	uint8_t		*img;
	size_t		 len;
	char		*cause = NULL;

	img = read_file("catalog", "p8-catalog-v3.bin", &len);
	if (hvsim_new(spec, img, len, &s, &cause) != 0)
		fail_msg("hvsim_new: %s", cause);
	free(img);
	return (s);
}

static void
test_catalog_pages(void **state)
{
	struct hvsim	*s;
	uint8_t		*img, page[4096];
	size_t		 len, i;

	(void)state;
	s = p8_hvsim(T_SPEC);
	img = read_file("catalog", "p8-catalog-v3.bin", &len);
	assert_int_equal(hvsim_catalog_version(s), 3);
	/* Page 0 with version 0, as the driver asks first, then the rest. */
	assert_int_equal(hvsim_catalog_page(s, 0, 0, page, sizeof page),
	    H_SUCCESS);
	assert_memory_equal(page, img, sizeof page);
	for (i = 1; i < len / 4096; i++) {
		assert_int_equal(hvsim_catalog_page(s, 3, i, page,
		    sizeof page), H_SUCCESS);
		assert_memory_equal(page, img + i * 4096, sizeof page);
	}
	assert_int_equal(hvsim_catalog_page(s, 3, len / 4096, page,
	    sizeof page), H_P3);
	assert_int_equal(hvsim_catalog_page(s, 3, 0, page, 100),
	    H_PARAMETER);
	free(img);
	hvsim_free(s);
}

static void
test_boot_calls(void **state)
{
	struct hvsim	*s;
	uint8_t		 gpci[HVSIM_GPCI_PARAMS_SIZE + HVSIM_GPCI_CAPS_SIZE];
	uint8_t		 mod[16];

	(void)state;
	s = p8_hvsim(T_SPEC);
	memset(gpci, 0, sizeof gpci);
	be32_put(gpci, HVSIM_GPCI_SYSTEM_CAPABILITIES);
	be32_put(gpci + 4, 0xffffffff);
	assert_int_equal(hvsim_perf_counter_info(s, gpci, sizeof gpci),
	    H_SUCCESS);
	assert_int_equal(gpci[HVSIM_GPCI_PARAMS_SIZE], 1); /* privileged */
	assert_int_equal(gpci[HVSIM_GPCI_PARAMS_SIZE + 1] & 0x80, 0x80);
	/* A request this frame does not answer. */
	be32_put(gpci, 0xd0);
	assert_int_equal(hvsim_perf_counter_info(s, gpci, sizeof gpci),
	    H_PARAMETER);
	assert_int_equal(hvsim_module_info(s, mod, sizeof mod), 10);
	assert_int_equal(be16_get(mod), 8);
	assert_int_equal(be16_get(mod + 4), 2);		/* sockets */
	assert_int_equal(be16_get(mod + 6), 1);		/* chips per socket */
	assert_int_equal(be16_get(mod + 8), 4);		/* cores per chip */
	assert_int_equal(hvsim_module_info(s, mod, 9), -1);
	assert_int_equal(hvsim_chips(s), 2);
	assert_int_equal(hvsim_cores(s), 8);
	hvsim_free(s);

	/* Without "collect privileged", the drivers learn it here. */
	s = p8_hvsim(T_SPEC ",faults=denied");
	be32_put(gpci, HVSIM_GPCI_SYSTEM_CAPABILITIES);
	assert_int_equal(hvsim_perf_counter_info(s, gpci, sizeof gpci),
	    H_SUCCESS);
	assert_int_equal(gpci[HVSIM_GPCI_PARAMS_SIZE], 0);
	hvsim_free(s);
}

/*
 * Request buffers kept in tests/data/hcall/ and the result bytes kept
 * next to them: the whole result buffer is the golden prefix, then zeros.
 */
static void
test_data_golden(void **state)
{
	static const struct {
		const char	*dir;		/* of the catalog */
		const char	*catalog;
		const char	*name;		/* NAME.req, NAME.res */
		long		 rc;
	} rows[] = {
		{ "catalog", "p8-catalog-v3.bin", "p8-two-requests", H_SUCCESS },
		{ "build", "catalogs/power9.bin", "p9-three-domains",
		  H_SUCCESS },
		{ "build", "catalogs/power9.bin", "p9-bad-domain", H_PARAMETER },
	};
	struct hvsim	*s;
	uint8_t		*img, *req, *want, res[4096];
	size_t		 i, k, len, reqlen, wantlen;
	char		*name, *cause = NULL;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		img = read_file(rows[i].dir, rows[i].catalog, &len);
		if (hvsim_new(T_SPEC, img, len, &s, &cause) != 0)
			fail_msg("%s: hvsim_new: %s", rows[i].name, cause);
		free(img);
		name = xasprintf("%s.req", rows[i].name);
		req = read_hex(name, &reqlen);
		free(name);
		name = xasprintf("%s.res", rows[i].name);
		want = read_hex(name, &wantlen);
		free(name);
		memset(res, 0xa5, sizeof res);
		assert_int_equal(hvsim_data(s, T_TB, req, reqlen, res,
		    sizeof res), rows[i].rc);
		assert_true(wantlen >= 32 && wantlen <= sizeof res);
		assert_memory_equal(res, want, wantlen);
		for (k = wantlen; k < sizeof res; k++)
			if (res[k] != 0)
				fail_msg("%s: byte 0x%zx is 0x%02x after the "
				    "golden bytes", rows[i].name, k, res[k]);
		assert_int_equal(hvsim_data_calls(s), 1);
		free(req);
		free(want);
		hvsim_free(s);
	}
}

static void
test_bad_input(void **state)
{
	struct hvsim	*s;
	uint8_t		*img;
	size_t		 len;
	char		*cause = NULL;

	(void)state;
	img = read_file("catalog", "p8-catalog-v3.bin", &len);
	assert_int_not_equal(hvsim_new("chips=2,nosuch=1", img, len, &s,
	    &cause), 0);
	assert_null(s);
	assert_non_null(strstr(cause, "nosuch"));
	free(cause);
	cause = NULL;
	/* Not a catalog: no magic. */
	memset(img, 0, 4096);
	assert_int_not_equal(hvsim_new(NULL, img, 4096, &s, &cause), 0);
	assert_null(s);
	assert_non_null(strstr(cause, "catalog"));
	free(cause);
	free(img);
}

/* What a program that embeds the hypervisor asks of the frame. */
static void
test_frame(void **state)
{
	struct hvsim	*s;
	double		 v;

	(void)state;
	s = p8_hvsim(T_SPEC ",smt=4,vcpus=6,nest_hz=1800000000");
	assert_int_equal(hvsim_interface(s), 1);	/* the catalog says */
	assert_int_equal(hvsim_smt(s), 4);
	assert_int_equal(hvsim_vcpus(s), 6);
	assert_int_equal(hvsim_constant(s, "PB_Freq", &v), 0);
	assert_true(v == 1.8e9);
	assert_int_equal(hvsim_constant(s, "PB_FREQ", &v), 0);
	assert_true(v == 1.8e9);
	assert_int_equal(hvsim_constant(s, "CPU_Freq", &v), 0);
	assert_true(v == 3.8e9);
	assert_int_equal(hvsim_constant(s, "XBUS_Freq", &v), 0);
	assert_true(v == 4.8e9);
	assert_int_equal(hvsim_constant(s, "ABUS_Freq", &v), 0);
	assert_int_equal(hvsim_constant(s, "PHB_Freq", &v), 0);
	assert_true(v == 250e6);
	assert_int_equal(hvsim_constant(s, "NO_Freq", &v), -1);
	hvsim_free(s);
	s = p8_hvsim("interface=2");
	assert_int_equal(hvsim_interface(s), 2);	/* the spec says */
	assert_int_equal(hvsim_smt(s), 8);
	hvsim_free(s);
}

/* Keys checked one by one, as a program with options of its own does. */
static void
test_spec_check(void **state)
{
	char	*cause = NULL;

	(void)state;
	assert_int_equal(hvsim_spec_check(NULL, &cause), 0);
	assert_int_equal(hvsim_spec_check("", &cause), 0);
	assert_int_equal(hvsim_spec_check("seed=3,faults=busy:0.5+denied",
	    &cause), 0);
	/* lpars=1 leaves no partition for lpar=1: that is the frame's to
	 * say, when it is built. */
	assert_int_equal(hvsim_spec_check("lpars=1", &cause), 0);
	assert_int_not_equal(hvsim_spec_check("seed=x", &cause), 0);
	assert_string_equal(cause, "sim seed=x: not a number");
	free(cause);
	cause = NULL;
	assert_int_not_equal(hvsim_spec_check("smt=2,nosuch=1", &cause), 0);
	assert_non_null(strstr(cause, "nosuch"));
	free(cause);
}

/*
 * A catalog with problems: refused by hvsim_new(), served as far as it
 * can be trusted with HVSIM_ANY_CATALOG, and named in messages.
 */
static void
test_catalog_problems(void **state)
{
	struct hvsim	*s;
	uint8_t		*img, page[4096];
	size_t		 len;
	char		*cause = NULL;

	(void)state;
	img = read_file("catalog", "p8-catalog-v3.bin", &len);
	img[0] = 0;				/* magic */
	assert_int_not_equal(hvsim_new_flags(T_SPEC, img, len, "p8.bin", 0,
	    &s, &cause), 0);
	assert_null(s);
	assert_non_null(strstr(cause, "p8.bin: offset 0x0: magic"));
	free(cause);
	cause = NULL;
	assert_int_equal(hvsim_new_flags(T_SPEC, img, len, "p8.bin",
	    HVSIM_ANY_CATALOG, &s, &cause), 0);
	assert_int_equal(hvsim_catalog_page(s, 0, 0, page, sizeof page),
	    H_SUCCESS);
	assert_memory_equal(page, img, sizeof page);
	hvsim_free(s);
	/* Too short to parse at all: refused either way, named. */
	assert_int_not_equal(hvsim_new_flags(T_SPEC, img, 64, "p8.bin",
	    HVSIM_ANY_CATALOG, &s, &cause), 0);
	assert_non_null(strstr(cause, "p8.bin: offset 0x40"));
	free(cause);
	free(img);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_catalog_pages),
		cmocka_unit_test(test_boot_calls),
		cmocka_unit_test(test_data_golden),
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_frame),
		cmocka_unit_test(test_spec_check),
		cmocka_unit_test(test_catalog_problems),
	};

	return (cmocka_run_group_tests_name("hvsim", tests, NULL, NULL));
}
