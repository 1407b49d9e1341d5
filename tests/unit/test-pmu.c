/*
 * Unit tests for src/pmu: format/ and events/ strings, encoding into
 * config words exactly as the kernel's format files place the fields
 * (golden: every event of the real POWER8 sysfs listing), the hv_24x7
 * checks with their messages, group sizes and CPU lists.
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

#include "pmu/pmu.h"
#include "util/hverr.h"
#include "util/xalloc.h"

#include "fixture.h"

/* Parse "name\tcontents" pairs into formats; the hv_24x7 set by default. */
static size_t
formats_load(struct pmu_format *f, size_t max, const char *const *spec)
{
	const char	*tab;
	char		*name, *cause = NULL;
	size_t		 n = 0;

	for (; *spec != NULL && n < max; spec++) {
		tab = strchr(*spec, '\t');
		assert_non_null(tab);
		name = xstrndup(*spec, (size_t)(tab - *spec));
		if (pmu_format_parse(name, tab + 1, strlen(tab + 1), &f[n],
		    &cause) != 0)
			fail_msg("%s: %s", name, cause);
		free(name);
		n++;
	}
	return (n);
}

static void
formats_free(struct pmu_format *f, size_t n)
{
	while (n-- > 0)
		pmu_format_clear(&f[n]);
}

static const char *const hv24x7_current[] = {
	"domain\tconfig:0-3\n", "offset\tconfig:32-63\n",
	"chip\tconfig:16-31\n", "core\tconfig:16-31\n",
	"vcpu\tconfig:16-31\n", "lpar\tconfig1:0-15\n", NULL
};

static void
test_format_parse(void **state)
{
	struct pmu_format	 f;
	char			*cause = NULL;

	(void)state;
	assert_int_equal(pmu_format_parse("domain", "config:0-3\n", 11, &f,
	    &cause), 0);
	assert_string_equal(f.name, "domain");
	assert_int_equal(f.word, 0);
	assert_int_equal(f.nranges, 1);
	assert_int_equal(f.width, 4);
	assert_true(f.mask == 0xf);
	assert_true(pmu_format_max(&f) == 15);
	pmu_format_clear(&f);

	assert_int_equal(pmu_format_parse("lpar", "config1:0-15", 12, &f,
	    &cause), 0);
	assert_int_equal(f.word, 1);
	assert_true(f.mask == 0xffff);
	pmu_format_clear(&f);

	assert_int_equal(pmu_format_parse("edge", "config:18\n", 10, &f,
	    &cause), 0);
	assert_int_equal(f.width, 1);
	assert_true(f.mask == 1ULL << 18);
	pmu_format_clear(&f);

	assert_int_equal(pmu_format_parse("split", "config:0-7,32-35\n", 17,
	    &f, &cause), 0);
	assert_int_equal(f.nranges, 2);
	assert_int_equal(f.width, 12);
	assert_true(f.mask == 0xf000000ffULL);
	pmu_format_clear(&f);

	assert_int_equal(pmu_format_parse("all", "config2:0-63", 12, &f,
	    &cause), 0);
	assert_int_equal(f.word, 2);
	assert_true(pmu_format_max(&f) == UINT64_MAX);
	assert_true(f.mask == UINT64_MAX);
	pmu_format_clear(&f);
}

static void
test_format_errors(void **state)
{
	static const struct {
		const char	*text;
		int		 error;
		const char	*msg;
	} bad[] = {
		{ "config3:0", -HV_EFORMAT, "is not config, config1" },
		{ "config0-3", -HV_EFORMAT, "no ':'" },
		{ "config:", -HV_EFORMAT, "column 8: expected a bit" },
		{ "config:5-3", -HV_ERANGE, "runs backwards" },
		{ "config:0-64", -HV_EFORMAT, "column 10: expected the last" },
		{ "config:0-3,2-4", -HV_ERANGE, "overlap" },
		{ "config:1x", -HV_EFORMAT, "column 9: unexpected 'x'" },
		{ "config:1,", -HV_EFORMAT, "column 10" },
		{ "", -HV_EFORMAT, "no ':'" },
	};
	struct pmu_format	 f;
	char			*cause;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cause = NULL;
		assert_int_equal(pmu_format_parse("x", bad[i].text,
		    strlen(bad[i].text), &f, &cause), bad[i].error);
		assert_non_null(cause);
		if (strstr(cause, bad[i].msg) == NULL)
			fail_msg("'%s': got '%s', want '%s'", bad[i].text,
			    cause, bad[i].msg);
		free(cause);
	}
}

static void
test_format_encode(void **state)
{
	struct pmu_format	 f;
	uint64_t		 cfg[PMU_CONFIG_WORDS] = { 0, 0, 0 };
	char			*cause = NULL;

	(void)state;
	assert_int_equal(pmu_format_parse("split", "config:0-7,32-35", 16,
	    &f, &cause), 0);
	/* Low value bits go to the first range, the rest to the second. */
	assert_int_equal(pmu_format_encode(&f, 0xabc, cfg, &cause), 0);
	assert_true(cfg[0] == (0xbcULL | 0xaULL << 32));
	assert_true(pmu_format_decode(&f, cfg) == 0xabc);
	/* Encoding again replaces the field and leaves other bits alone. */
	cfg[0] |= 1ULL << 20;
	assert_int_equal(pmu_format_encode(&f, 0x101, cfg, &cause), 0);
	assert_true(cfg[0] == (0x01ULL | 1ULL << 20 | 0x1ULL << 32));
	assert_int_equal(pmu_format_encode(&f, 0xfff, cfg, &cause), 0);
	assert_int_equal(pmu_format_encode(&f, 0x1000, cfg, &cause),
	    -HV_ERANGE);
	assert_string_equal(cause, "value 0x1000 too big for format split "
	    "(max 4095)");
	free(cause);
	pmu_format_clear(&f);
}

static void
test_event_parse(void **state)
{
	struct pmu_event	 ev;
	const struct pmu_term	*t;
	char			*cause = NULL;
	const char		*s;

	(void)state;
	s = "domain=1,offset=0xe0,chip=?,lpar=0x0\n";
	assert_int_equal(pmu_event_parse("PM_X", s, strlen(s), &ev, &cause),
	    0);
	assert_int_equal(ev.nterms, 4);
	assert_string_equal(ev.terms[0].name, "domain");
	assert_int_equal(ev.terms[0].kind, PMU_TERM_VALUE);
	assert_true(ev.terms[0].value == 1);
	assert_true(ev.terms[1].value == 0xe0);
	assert_int_equal(ev.terms[2].kind, PMU_TERM_PARAM);
	assert_string_equal(ev.terms[2].param, "chip");
	assert_true(pmu_event_has_params(&ev));
	t = pmu_event_term(&ev, "lpar");
	assert_non_null(t);
	assert_true(t->value == 0);
	assert_null(pmu_event_term(&ev, "core"));
	pmu_event_clear(&ev);

	s = "event=0x3c,umask=0x00,any,cmask=12";
	assert_int_equal(pmu_event_parse("cyc", s, strlen(s), &ev, &cause), 0);
	assert_int_equal(ev.nterms, 4);
	assert_true(ev.terms[2].value == 1);
	assert_true(ev.terms[3].value == 12);
	assert_false(pmu_event_has_params(&ev));
	pmu_event_clear(&ev);

	/* The 2014 kernel named the parameter instead of writing '?'. */
	s = "domain=0x2,offset=0x98,starting_index=core,lpar=sibling_guest_id";
	assert_int_equal(pmu_event_parse("HPM_CCYC", s, strlen(s), &ev,
	    &cause), 0);
	assert_int_equal(ev.terms[2].kind, PMU_TERM_PARAM);
	assert_string_equal(ev.terms[2].param, "core");
	assert_string_equal(ev.terms[3].param, "sibling_guest_id");
	pmu_event_clear(&ev);

	s = "event=0x00";
	assert_int_equal(pmu_event_parse("tsc", s, strlen(s), &ev, &cause), 0);
	assert_true(ev.terms[0].value == 0);
	pmu_event_clear(&ev);
}

static void
test_event_errors(void **state)
{
	static const struct {
		const char	*text;
		const char	*msg;
	} bad[] = {
		{ "", "no terms" },
		{ "\n", "no terms" },
		{ "domain=", "column 8: expected a number" },
		{ "domain=0xzz", "column 8: expected a number" },
		{ "=1", "column 1: expected a term name" },
		{ "a=1,,b=2", "column 5: expected a term name" },
		{ "a=99999999999999999999", "does not fit in 64 bits" },
		{ "a=0x1ffffffffffffffff", "does not fit in 64 bits" },
		{ "a=core!", "column 7: bad parameter name" },
		{ "a b", "column 2: unexpected ' '" },
		{ "0x1", "column 1: expected a term name" },
	};
	struct pmu_event	 ev;
	char			*cause;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cause = NULL;
		assert_int_equal(pmu_event_parse("e", bad[i].text,
		    strlen(bad[i].text), &ev, &cause), -HV_EFORMAT);
		assert_non_null(cause);
		if (strstr(cause, bad[i].msg) == NULL)
			fail_msg("'%s': got '%s', want '%s'", bad[i].text,
			    cause, bad[i].msg);
		assert_null(ev.terms);
		free(cause);
	}
}

static int
encode(const char *text, const struct pmu_format *f, size_t nf,
    const struct pmu_param *p, size_t np, uint64_t cfg[PMU_CONFIG_WORDS],
    char **cause)
{
	struct pmu_event	 ev;
	int			 error;

	if ((error = pmu_event_parse("ev", text, strlen(text), &ev,
	    cause)) != 0)
		return (error);
	error = pmu_event_encode(&ev, f, nf, p, np, cfg, cause);
	pmu_event_clear(&ev);
	return (error);
}

static void
test_event_encode(void **state)
{
	struct pmu_format	 f[8];
	struct pmu_param	 p[4];
	uint64_t		 cfg[PMU_CONFIG_WORDS];
	char			*cause = NULL;
	size_t			 nf;

	(void)state;
	nf = formats_load(f, 8, hv24x7_current);
	/* The reference's example: HPM_CCYC on physical core 1. */
	p[0].name = "domain";
	p[0].value = 2;
	p[1].name = "core";
	p[1].value = 1;
	assert_int_equal(encode("domain=?,offset=0x98,core=?,lpar=0x0", f, nf,
	    p, 2, cfg, &cause), 0);
	assert_true(cfg[0] == 0x0000009800010002ULL);
	assert_true(cfg[1] == 0);
	assert_true(cfg[2] == 0);
	/* The same counter for vcpu 0 of this partition: the caller's lpar
	 * replaces the listing's lpar=0x0. */
	p[0].value = 3;
	p[1].value = 0;
	p[2].name = "lpar";
	p[2].value = 0xffff;
	assert_int_equal(encode("domain=?,offset=0x98,core=?,lpar=0x0", f, nf,
	    p, 3, cfg, &cause), 0);
	assert_true(cfg[0] == 0x0000009800000003ULL);
	assert_true(cfg[1] == 0xffff);
	/* PM_PB_CYC (the ABI document's example) on chip 1. */
	p[0].name = "chip";
	p[0].value = 1;
	assert_int_equal(encode("domain=1,offset=0x80,chip=?,lpar=0x0", f, nf,
	    p, 1, cfg, &cause), 0);
	assert_true(cfg[0] == 0x0000008000010001ULL);

	/* Missing and oversized values. */
	assert_int_equal(encode("domain=1,offset=0x80,chip=?,lpar=0x0", f, nf,
	    NULL, 0, cfg, &cause), -HV_ENOENT);
	assert_string_equal(cause, "event 'ev': required parameter 'chip' "
	    "not specified");
	free(cause);
	p[0].value = 0x10000;
	assert_int_equal(encode("domain=1,offset=0x80,chip=?,lpar=0x0", f, nf,
	    p, 1, cfg, &cause), -HV_ERANGE);
	assert_string_equal(cause, "event 'ev': value 0x10000 too big for "
	    "format chip (max 65535)");
	free(cause);
	/* perf refuses domain=16: it does not fit the 4-bit field. */
	assert_int_equal(encode("domain=16,offset=0x80", f, nf, NULL, 0, cfg,
	    &cause), -HV_ERANGE);
	assert_non_null(strstr(cause, "too big for format domain (max 15)"));
	free(cause);
	assert_int_equal(encode("domain=1,bogus=3", f, nf, NULL, 0, cfg,
	    &cause), -HV_ENOENT);
	assert_non_null(strstr(cause, "term 'bogus' names no format"));
	free(cause);
	/* Raw words without formats. */
	assert_int_equal(encode("config=0x12,config1=7,config2=9", NULL, 0,
	    NULL, 0, cfg, &cause), 0);
	assert_true(cfg[0] == 0x12 && cfg[1] == 7 && cfg[2] == 9);
	formats_free(f, nf);
}

/* The PCP fake trees' hv_gpci layout: fields in config and config1. */
static void
test_event_encode_gpci(void **state)
{
	static const char *const gpci[] = {
		"counter_info_version\tconfig1:16-23", "length\tconfig1:24-31",
		"offset\tconfig1:32-63", "request\tconfig:0-31",
		"phys_processor_idx\tconfig:32-63",
		"secondary_index\tconfig1:0-15", NULL
	};
	struct pmu_format	 f[8];
	struct pmu_param	 p;
	uint64_t		 cfg[PMU_CONFIG_WORDS];
	char			*cause = NULL;
	size_t			 nf;

	(void)state;
	nf = formats_load(f, 8, gpci);
	p.name = "phys_processor_idx";
	p.value = 3;
	assert_int_equal(encode("request=0x94,phys_processor_idx=?,"
	    "counter_info_version=0x8,length=8,offset=0x8", f, nf, &p, 1,
	    cfg, &cause), 0);
	assert_true(cfg[0] == (0x94ULL | 3ULL << 32));
	assert_true(cfg[1] == (8ULL << 16 | 8ULL << 24 | 8ULL << 32));
	formats_free(f, nf);
}

/* Tab-separated sysfs listing, "name<TAB>contents" per line. */
static FILE *
data_open(const char *name)
{
	char	*path, *rel;
	FILE	*fp;

	rel = xasprintf("tests/data/sysfs/%s", name);
	path = fixture_path(rel);
	free(rel);
	fp = fopen(path, "r");
	if (fp == NULL)
		fail_msg("%s: %s", path, strerror(errno));
	free(path);
	return (fp);
}

/*
 * Golden: every event of the real POWER8 listing (2014 kernel, 2258
 * entries) encodes, with the formats from the same machine, to the config
 * the kernel builds from the string's own numbers: domain | index << 16 |
 * offset << 32, and lpar in config1.  The same offsets written the way
 * current kernels write them encode to the same words.
 */
static void
test_golden_p8_listing(void **state)
{
	struct pmu_format	 f[8], g[8];
	struct pmu_param	 p[5];
	struct pmu_event	 ev;
	uint64_t		 cfg[PMU_CONFIG_WORDS], want;
	char			 line[512], cur[128], *tab, *cause = NULL;
	char			*owned[8];
	const char		*spec[8];
	unsigned		 domain, offset, index;
	size_t			 nf = 0, ng, n = 0, ncur = 0;
	FILE			*fp;

	(void)state;
	fp = data_open("sysfs-hv_24x7-format-interface.tsv");
	while (fgets(line, sizeof line, fp) != NULL) {
		if (strncmp(line, "format/", 7) != 0)
			continue;
		owned[nf] = xstrdup(line + 7);
		spec[nf] = owned[nf];
		nf++;
		assert_true(nf < 8);
	}
	fclose(fp);
	spec[nf] = NULL;
	nf = formats_load(f, 8, spec);
	assert_int_equal(nf, 4);
	while (nf-- > 0)
		free(owned[nf]);
	nf = 4;
	ng = formats_load(g, 8, hv24x7_current);

	fp = data_open("sysfs-hv_24x7-events.tsv");
	while (fgets(line, sizeof line, fp) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		assert_non_null(tab = strchr(line, '\t'));
		*tab++ = '\0';
		/* The oracle: the string's own numbers. */
		assert_int_equal(sscanf(tab, "domain=0x%x,offset=0x%x",
		    &domain, &offset), 2);
		assert_int_equal(pmu_event_parse(line, tab, strlen(tab), &ev,
		    &cause), 0);
		for (index = 0; index < 3; index++) {
			p[0].name = "core";
			p[1].name = "vcpu";
			p[2].name = "chip";
			p[0].value = p[1].value = p[2].value = index;
			p[3].name = "sibling_guest_id";
			p[3].value = domain <= 2 ? 0 : 0xffff;
			if (pmu_event_encode(&ev, f, nf, p, 4, cfg,
			    &cause) != 0)
				fail_msg("%s: %s", line, cause);
			want = (uint64_t)domain | (uint64_t)index << 16 |
			    (uint64_t)offset << 32;
			if (cfg[0] != want || cfg[1] != p[3].value ||
			    cfg[2] != 0)
				fail_msg("%s index %u: config 0x%llx, want "
				    "0x%llx", line, index,
				    (unsigned long long)cfg[0],
				    (unsigned long long)want);
		}
		pmu_event_clear(&ev);
		n++;

		/* Current kernels: chip events fix the domain, core events
		 * leave it to the caller. */
		if (domain == 1)
			snprintf(cur, sizeof cur, "domain=1,offset=0x%x,"
			    "chip=?,lpar=0x0", offset);
		else if (domain == 2)
			snprintf(cur, sizeof cur, "domain=?,offset=0x%x,"
			    "core=?,lpar=0x0", offset);
		else
			continue;
		p[0].name = "domain";
		p[0].value = domain;
		p[1].name = domain == 1 ? "chip" : "core";
		p[1].value = 5;
		assert_int_equal(encode(cur, g, ng, p, 2, cfg, &cause), 0);
		want = (uint64_t)domain | 5ULL << 16 | (uint64_t)offset << 32;
		assert_true(cfg[0] == want);
		assert_true(cfg[1] == 0);
		ncur++;
	}
	fclose(fp);
	assert_int_equal(n, 2258);
	assert_int_equal(ncur, 993 + 253);

	/* HPM_CCYC from the listing itself, on physical core 1. */
	{
		const char *s = "domain=0x2,offset=0x98,starting_index=core,"
		    "lpar=sibling_guest_id";
		p[0].name = "core";
		p[0].value = 1;
		p[1].name = "lpar";
		p[1].value = 0;
		assert_int_equal(encode(s, f, nf, p, 2, cfg, &cause), 0);
		assert_true(cfg[0] == 0x0000009800010002ULL);
		assert_true(cfg[1] == 0);
	}
	formats_free(f, nf);
	formats_free(g, ng);
}

static int
check(uint64_t c0, uint64_t c1, uint64_t c2,
    const struct pmu_hv24x7_frame *fr, char **cause)
{
	uint64_t	 cfg[PMU_CONFIG_WORDS];

	cfg[0] = c0;
	cfg[1] = c1;
	cfg[2] = c2;
	*cause = NULL;
	return (pmu_hv24x7_check("HPM_CCYC", cfg, fr, cause));
}

static void
expect(int got, int want, char *cause, const char *msg)
{
	if (got != want)
		fail_msg("got %d, want %d (%s)", got, want,
		    cause != NULL ? cause : "no message");
	if (msg != NULL && (cause == NULL || strstr(cause, msg) == NULL))
		fail_msg("got '%s', want '%s'", cause != NULL ? cause :
		    "no message", msg);
	free(cause);
}

/* Call first, then look at the cause it set. */
#define EXPECT(call, want, msg) do {					\
	int r_ = (call);						\
	expect(r_, (want), cause, (msg));				\
} while (0)

static void
test_hv24x7_check(void **state)
{
	struct pmu_hv24x7_frame	 fr = { 1, 0, 2, 20, 2, 1 };
	char			*cause;

	(void)state;
	EXPECT(check(pmu_hv24x7_config(2, 1, 0x98), 0, 0, &fr, &cause), 0,
	    NULL);
	assert_true(pmu_hv24x7_config(2, 1, 0x98) == 0x0000009800010002ULL);
	EXPECT(check(pmu_hv24x7_config(0, 0, 0x98), 0, 0, &fr, &cause),
	    -HV_ERANGE, "HPM_CCYC: invalid domain 0: hv_24x7 domains "
	    "are 1 (Physical Chip) to 6 (VCPU Remote Node)");
	EXPECT(check(pmu_hv24x7_config(7, 0, 0x98), 0, 0, &fr, &cause),
	    -HV_ERANGE, "invalid domain 7");
	EXPECT(check(pmu_hv24x7_config(15, 0, 0x98), 0, 0, &fr, &cause),
	    -HV_ERANGE, "invalid domain 15");
	EXPECT(check(pmu_hv24x7_config(2, 0, 0x9c), 0, 0, &fr, &cause),
	    -HV_ERANGE, "offset 0x9c is not a multiple of 8");
	EXPECT(check(pmu_hv24x7_config(2, 0, 0x98) | 0x10, 0, 0, &fr, &cause),
	    -HV_EFORMAT, "reserved bits set (config bits 4-15 = 0x1,");
	EXPECT(check(pmu_hv24x7_config(2, 0, 0x98), 0x10000, 0, &fr, &cause),
	    -HV_EFORMAT, "config1 bits 16-63 = 0x1,");
	EXPECT(check(pmu_hv24x7_config(2, 0, 0x98), 0, 4, &fr, &cause),
	    -HV_EFORMAT, "config2 = 0x4)");
	EXPECT(check(pmu_hv24x7_config(1, 2, 0x80), 0, 0, &fr, &cause),
	    -HV_ERANGE, "HPM_CCYC: chip index 2 is out of range for "
	    "domain 1 (Physical Chip): the frame has 2 chips (0-1)");
	EXPECT(check(pmu_hv24x7_config(2, 20, 0x98), 0, 0, &fr, &cause),
	    -HV_ERANGE, "core index 20 is out of range");
	EXPECT(check(pmu_hv24x7_config(3, 2, 0x98), 0xffff, 0, &fr, &cause),
	    -HV_ERANGE, "vcpu index 2 is out of range for domain 3 "
	    "(VCPU Home Core): this partition has 2 vcpus (0-1)");
	EXPECT(check(pmu_hv24x7_config(3, 1, 0x98), 0xffff, 0, &fr, &cause),
	    0, NULL);

	/* Without the hypervisor's permission. */
	fr.privileged = 0;
	EXPECT(check(pmu_hv24x7_config(2, 1, 0x98), 0, 0, &fr, &cause),
	    -EACCES, "domain 2 (Physical Core) counts for the whole "
	    "frame");
	EXPECT(check(pmu_hv24x7_config(1, 1, 0x80), 0xffff, 0, &fr, &cause),
	    -EACCES, "enable \"Allow performance information "
	    "collection\"");
	EXPECT(check(pmu_hv24x7_config(3, 1, 0x98), 0x5, 0, &fr, &cause),
	    -EACCES, "lpar 0x5 is not this partition (0xffff)");
	EXPECT(check(pmu_hv24x7_config(3, 1, 0x98), 0, 0, &fr, &cause),
	    -EACCES, "Allow performance information collection");
	EXPECT(check(pmu_hv24x7_config(3, 1, 0x98), 0xffff, 0, &fr, &cause),
	    0, NULL);
	/* Unknown permission (no hv_gpci): left to the kernel. */
	fr.privileged = -1;
	EXPECT(check(pmu_hv24x7_config(2, 1, 0x98), 0, 0, &fr, &cause), 0,
	    NULL);
	/* Unknown sizes are not checked. */
	fr.chips = fr.cores = fr.vcpus = 0;
	EXPECT(check(pmu_hv24x7_config(1, 999, 0x80), 0, 0, &fr, &cause), 0,
	    NULL);

	assert_string_equal(pmu_hv24x7_domain_name(6), "VCPU Remote Node");
	assert_string_equal(pmu_hv24x7_domain_name(0), "?");
	assert_string_equal(pmu_hv24x7_domain_name(7), "?");
}

static void
test_hv24x7_group_fit(void **state)
{
	struct pmu_hv24x7_frame	 v1 = { 1, 0, 0, 0, 0, 1 };
	struct pmu_hv24x7_frame	 v2 = { 2, 0, 0, 0, 0, 1 };
	struct pmu_hv24x7_frame	 smt8 = { 2, 1, 0, 0, 0, 1 };
	int			 core[300], chip[300], mix[300];
	size_t			 i;

	(void)state;
	for (i = 0; i < 300; i++) {
		core[i] = 2;
		chip[i] = 1;
		mix[i] = i % 2 ? 3 : 1;
	}
	assert_int_equal(pmu_hv24x7_max_requests(&v1), 255);
	assert_int_equal(pmu_hv24x7_max_requests(&v2), 127);
	assert_int_equal(pmu_hv24x7_result_bytes(&v1, 2), 24);
	assert_int_equal(pmu_hv24x7_result_bytes(&v2, 2), 32);
	assert_int_equal(pmu_hv24x7_result_bytes(&smt8, 2), 56);
	assert_int_equal(pmu_hv24x7_result_bytes(&smt8, 1), 32);
	/* The limits of the reference, section 3.3. */
	assert_int_equal(pmu_hv24x7_group_fit(&v1, core, 300), 169);
	assert_int_equal(pmu_hv24x7_group_fit(&v2, core, 300), 127);
	assert_int_equal(pmu_hv24x7_group_fit(&smt8, core, 300), 72);
	assert_int_equal(pmu_hv24x7_group_fit(&smt8, chip, 300), 127);
	/* Half chip (32 bytes), half VCPU (56): 4064 / 44 = 92. */
	assert_int_equal(pmu_hv24x7_group_fit(&smt8, mix, 300), 92);
	assert_int_equal(pmu_hv24x7_group_fit(&v1, core, 5), 5);
	assert_int_equal(pmu_hv24x7_group_fit(&v1, core, 0), 0);
}

static void
test_cpulist(void **state)
{
	static const struct {
		const char	*text;
		int		 error;
		const char	*msg;
	} bad[] = {
		{ "3-1", -HV_ERANGE, "column 3: range 3-1 runs backwards" },
		{ "0,,1", -HV_EFORMAT, "column 3: expected a CPU number" },
		{ "a", -HV_EFORMAT, "column 1" },
		{ "1-", -HV_EFORMAT, "column 3" },
		{ "0;1", -HV_EFORMAT, "column 2" },
		{ "99999999999", -HV_ERANGE, "too large" },
		{ "0-1000000", -HV_ERANGE, "more than 65536 CPUs" },
	};
	int	*v;
	size_t	 n, i;
	char	*cause = NULL;

	(void)state;
	assert_int_equal(pmu_cpulist_parse("0-3,8,10-11\n", 12, &v, &n,
	    &cause), 0);
	assert_int_equal(n, 7);
	assert_int_equal(v[0], 0);
	assert_int_equal(v[3], 3);
	assert_int_equal(v[4], 8);
	assert_int_equal(v[6], 11);
	free(v);
	assert_int_equal(pmu_cpulist_parse("0\n", 2, &v, &n, &cause), 0);
	assert_int_equal(n, 1);
	assert_int_equal(v[0], 0);
	free(v);
	assert_int_equal(pmu_cpulist_parse("\n", 1, &v, &n, &cause), 0);
	assert_int_equal(n, 0);
	assert_null(v);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cause = NULL;
		assert_int_equal(pmu_cpulist_parse(bad[i].text,
		    strlen(bad[i].text), &v, &n, &cause), bad[i].error);
		if (cause == NULL || strstr(cause, bad[i].msg) == NULL)
			fail_msg("'%s': got '%s', want '%s'", bad[i].text,
			    cause != NULL ? cause : "", bad[i].msg);
		free(cause);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_format_parse),
		cmocka_unit_test(test_format_errors),
		cmocka_unit_test(test_format_encode),
		cmocka_unit_test(test_event_parse),
		cmocka_unit_test(test_event_errors),
		cmocka_unit_test(test_event_encode),
		cmocka_unit_test(test_event_encode_gpci),
		cmocka_unit_test(test_golden_p8_listing),
		cmocka_unit_test(test_hv24x7_check),
		cmocka_unit_test(test_hv24x7_group_fit),
		cmocka_unit_test(test_cpulist),
	};

	return (cmocka_run_group_tests_name("pmu", tests, NULL, NULL));
}
