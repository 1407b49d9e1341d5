/*
 * format/NAME files: where a named field lives in perf_event_attr's config
 * words, and moving values in and out of it.  The grammar is the kernel's
 * (PMU_FORMAT_ATTR): "config:0-3", "config1:0-15", "config:7",
 * "config:0-7,32-35", then a newline.  Pure: no I/O.
 */
#include "config.h"

#include "pmu/pmu.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/hverr.h"
#include "util/xalloc.h"

static const char *const pmu_format_words[PMU_CONFIG_WORDS] = {
	"config", "config1", "config2"
};

/* Read a decimal bit number at *pp; -1 when there is none or it is > 63. */
static int
pmu_format_bit(const char **pp, const char *end)
{
	const char	*p = *pp;
	int		 v = 0;

	if (p == end || !isdigit((unsigned char)*p))
		return (-1);
	while (p < end && isdigit((unsigned char)*p)) {
		v = v * 10 + (*p - '0');
		if (v > 63)
			return (-1);
		p++;
	}
	*pp = p;
	return (v);
}

/* One bit range, N or N-M, at *pp; *pp moves past it. */
static int
pmu_format_range(const char *name, const char *text, const char **pp,
    const char *end, int *lop, int *hip, char **cause)
{
	int	 lo, hi;

	if ((lo = pmu_format_bit(pp, end)) < 0) {
		*cause = xasprintf("format '%s', column %zu: expected "
		    "a bit number 0-63", name, (size_t)(*pp - text) + 1);
		return (-HV_EFORMAT);
	}
	hi = lo;
	if (*pp < end && **pp == '-') {
		(*pp)++;
		if ((hi = pmu_format_bit(pp, end)) < 0) {
			*cause = xasprintf("format '%s', column %zu: "
			    "expected the last bit, 0-63", name,
			    (size_t)(*pp - text) + 1);
			return (-HV_EFORMAT);
		}
		if (hi < lo) {
			*cause = xasprintf("format '%s': bit range "
			    "%d-%d runs backwards", name, lo, hi);
			return (-HV_ERANGE);
		}
	}
	*lop = lo;
	*hip = hi;
	return (0);
}

int
pmu_format_parse(const char *name, const char *text, size_t len,
    struct pmu_format *out, char **cause)
{
	const char	*p = text, *end = text + len, *colon;
	size_t		 wl, i;
	uint64_t	 m;
	int		 lo, hi, w, error;

	memset(out, 0, sizeof *out);
	/* The kernel ends the line with a newline; sysfs may pad. */
	while (end > text && (isspace((unsigned char)end[-1]) ||
	    end[-1] == '\0'))
		end--;
	if ((colon = memchr(text, ':', (size_t)(end - text))) == NULL) {
		*cause = xasprintf("format '%s': expected config:BITS, found "
		    "no ':'", name);
		return (-HV_EFORMAT);
	}
	wl = (size_t)(colon - text);
	w = -1;
	for (i = 0; i < PMU_CONFIG_WORDS; i++) {
		if (strlen(pmu_format_words[i]) == wl &&
		    memcmp(text, pmu_format_words[i], wl) == 0)
			w = (int)i;
	}
	if (w < 0) {
		*cause = xasprintf("format '%s', column 1: '%.*s' is not "
		    "config, config1 or config2", name, (int)wl, text);
		return (-HV_EFORMAT);
	}
	out->word = w;
	p = colon + 1;
	for (;;) {
		if (out->nranges == PMU_FORMAT_RANGES_MAX) {
			*cause = xasprintf("format '%s', column %zu: more "
			    "than %d bit ranges", name,
			    (size_t)(p - text) + 1, PMU_FORMAT_RANGES_MAX);
			return (-HV_ERANGE);
		}
		if ((error = pmu_format_range(name, text, &p, end, &lo, &hi,
		    cause)) != 0)
			return (error);
		m = (hi == 63 ? ~0ULL : (1ULL << (hi + 1)) - 1) &
		    ~((1ULL << lo) - 1);
		if ((out->mask & m) != 0) {
			*cause = xasprintf("format '%s': bits %d-%d overlap "
			    "an earlier range", name, lo, hi);
			return (-HV_ERANGE);
		}
		out->mask |= m;
		out->ranges[out->nranges].lo = (uint8_t)lo;
		out->ranges[out->nranges].hi = (uint8_t)hi;
		out->nranges++;
		out->width += (unsigned)(hi - lo + 1);
		if (p == end)
			break;
		if (*p != ',') {
			*cause = xasprintf("format '%s', column %zu: "
			    "unexpected '%c'", name, (size_t)(p - text) + 1,
			    isprint((unsigned char)*p) ? *p : '?');
			return (-HV_EFORMAT);
		}
		p++;
	}
	out->name = xstrdup(name);
	return (0);
}

void
pmu_format_clear(struct pmu_format *f)
{
	if (f == NULL)
		return;
	free(f->name);
	memset(f, 0, sizeof *f);
}

uint64_t
pmu_format_max(const struct pmu_format *f)
{
	if (f->width >= 64)
		return (~0ULL);
	return ((1ULL << f->width) - 1);
}

int
pmu_format_encode(const struct pmu_format *f, uint64_t value,
    uint64_t cfg[PMU_CONFIG_WORDS], char **cause)
{
	uint64_t	 w;
	size_t		 i;
	unsigned	 b, vbit = 0;

	if (value > pmu_format_max(f)) {
		*cause = xasprintf("value 0x%llx too big for format %s (max "
		    "%llu)", (unsigned long long)value, f->name,
		    (unsigned long long)pmu_format_max(f));
		return (-HV_ERANGE);
	}
	w = cfg[f->word] & ~f->mask;
	for (i = 0; i < f->nranges; i++) {
		for (b = f->ranges[i].lo; b <= f->ranges[i].hi; b++, vbit++) {
			if ((value >> vbit) & 1)
				w |= 1ULL << b;
		}
	}
	cfg[f->word] = w;
	return (0);
}

uint64_t
pmu_format_decode(const struct pmu_format *f,
    const uint64_t cfg[PMU_CONFIG_WORDS])
{
	uint64_t	 v = 0;
	size_t		 i;
	unsigned	 b, vbit = 0;

	for (i = 0; i < f->nranges; i++) {
		for (b = f->ranges[i].lo; b <= f->ranges[i].hi; b++, vbit++) {
			if ((cfg[f->word] >> b) & 1)
				v |= 1ULL << vbit;
		}
	}
	return (v);
}

const struct pmu_format *
pmu_format_find(const struct pmu_format *fmts, size_t n, const char *name)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		if (fmts[i].name != NULL && strcmp(fmts[i].name, name) == 0)
			return (&fmts[i]);
	}
	return (NULL);
}
