/*
 * libFuzzer harness for the sysfs PMU strings: format/ bit ranges,
 * events/ terms and CPU lists, then encoding and the hv_24x7 checks on
 * whatever parsed.  The first byte picks the parser; the rest is the
 * file's contents.  What must hold whatever the input: a parse succeeds
 * exactly when no cause is set, a format's width is its mask's bit count,
 * every value up to the format's maximum survives encode and decode, and
 * one group never holds more than the hcall buffers carry.  Any
 * violation aborts.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/hv-abi.h"
#include "pmu/pmu.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char *const fuzz_formats[][2] = {
	{ "domain", "config:0-3" }, { "offset", "config:32-63" },
	{ "chip", "config:16-31" }, { "core", "config:16-31" },
	{ "vcpu", "config:16-31" }, { "lpar", "config1:0-15" },
	{ "starting_index", "config:16-31" }, { "request", "config2:0-31" },
	{ "split", "config1:16-23,40-47" },
};
#define FUZZ_NFORMATS (sizeof fuzz_formats / sizeof fuzz_formats[0])

static void
fuzz_cause(int error, char *cause)
{
	if ((error == 0) != (cause == NULL))
		abort();
	if (cause != NULL && strlen(cause) == 0)
		abort();
	free(cause);
}

static void
fuzz_format(const char *s, size_t n, uint64_t seed)
{
	struct pmu_format	 f;
	uint64_t		 cfg[PMU_CONFIG_WORDS] = { 0, 0, 0 };
	uint64_t		 max, v;
	char			*cause = NULL;
	int			 error;

	error = pmu_format_parse("f", s, n, &f, &cause);
	fuzz_cause(error, cause);
	if (error != 0)
		return;
	if (f.width == 0 || f.width > 64 ||
	    (unsigned)__builtin_popcountll(f.mask) != f.width ||
	    f.word < 0 || f.word >= PMU_CONFIG_WORDS)
		abort();
	max = pmu_format_max(&f);
	v = seed & max;
	cause = NULL;
	if (pmu_format_encode(&f, v, cfg, &cause) != 0)
		abort();
	if (pmu_format_decode(&f, cfg) != v || (cfg[f.word] & ~f.mask) != 0)
		abort();
	if (pmu_format_encode(&f, max, cfg, &cause) != 0 ||
	    pmu_format_decode(&f, cfg) != max || cfg[f.word] != f.mask)
		abort();
	if (max != UINT64_MAX) {
		error = pmu_format_encode(&f, max + 1, cfg, &cause);
		if (error == 0)
			abort();
		fuzz_cause(error, cause);
	}
	pmu_format_clear(&f);
}

static void
fuzz_event(const char *s, size_t n)
{
	struct pmu_format	 f[FUZZ_NFORMATS];
	struct pmu_event	 ev;
	struct pmu_param	 p[5] = {
		{ "domain", 2 }, { "core", 1 }, { "chip", 1 }, { "lpar", 3 },
		{ "sibling_guest_id", 0xffff }
	};
	struct pmu_hv24x7_frame	 fr = { 2, 1, 4, 40, 8, 0 };
	uint64_t		 cfg[PMU_CONFIG_WORDS];
	char			*cause = NULL;
	size_t			 i;
	int			 error;

	error = pmu_event_parse("e", s, n, &ev, &cause);
	fuzz_cause(error, cause);
	if (error != 0)
		return;
	if (ev.nterms == 0)
		abort();
	for (i = 0; i < ev.nterms; i++) {
		if (ev.terms[i].name[0] == '\0' ||
		    (ev.terms[i].kind == PMU_TERM_PARAM) !=
		    (ev.terms[i].param != NULL))
			abort();
		if (pmu_event_term(&ev, ev.terms[i].name) == NULL)
			abort();
	}
	for (i = 0; i < FUZZ_NFORMATS; i++) {
		if (pmu_format_parse(fuzz_formats[i][0], fuzz_formats[i][1],
		    strlen(fuzz_formats[i][1]), &f[i], &cause) != 0)
			abort();
	}
	cause = NULL;
	error = pmu_event_encode(&ev, f, FUZZ_NFORMATS, p, 5, cfg, &cause);
	fuzz_cause(error, cause);
	if (error == 0) {
		cause = NULL;
		fuzz_cause(pmu_hv24x7_check("e", cfg, &fr, &cause), cause);
	}
	for (i = 0; i < FUZZ_NFORMATS; i++)
		pmu_format_clear(&f[i]);
	pmu_event_clear(&ev);
}

static void
fuzz_cpus(const char *s, size_t n)
{
	int	*v;
	size_t	 nv;
	char	*cause = NULL;
	int	 error;

	error = pmu_cpulist_parse(s, n, &v, &nv, &cause);
	fuzz_cause(error, cause);
	if (error != 0)
		return;
	if (nv > PMU_CPUS_MAX || (nv == 0) != (v == NULL))
		abort();
	free(v);
}

static void
fuzz_groups(const uint8_t *d, size_t n)
{
	struct pmu_hv24x7_frame	 fr;
	int			 dom[512];
	size_t			 i, k, bytes = 0;

	if (n > 512)
		n = 512;
	for (i = 0; i < n; i++)
		dom[i] = 1 + d[i] % 6;
	fr.interface = n > 0 && (d[0] & 1) ? 1 : 2;
	fr.aggregate = n > 0 && (d[0] & 2);
	k = pmu_hv24x7_group_fit(&fr, dom, n);
	if (k > n || (n > 0 && k == 0) ||
	    k > pmu_hv24x7_max_requests(&fr))
		abort();
	for (i = 0; i < k; i++)
		bytes += pmu_hv24x7_result_bytes(&fr, dom[i]);
	if (bytes > HV_BUF_SIZE - HV_RES_HDR_SIZE)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char	*s = (const char *)data + 1;
	uint64_t	 seed = 0;
	size_t		 i;

	if (size == 0)
		return (0);
	for (i = 1; i < size && i < 9; i++)
		seed = seed << 8 | data[i];
	switch (data[0] % 4) {
	case 0:
		fuzz_format(s, size - 1, seed * 0x9e3779b97f4a7c15ULL);
		break;
	case 1:
		fuzz_event(s, size - 1);
		break;
	case 2:
		fuzz_cpus(s, size - 1);
		break;
	default:
		fuzz_groups(data + 1, size - 1);
		break;
	}
	return (0);
}
