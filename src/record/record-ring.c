/*
 * The ring's arithmetic (record-ring.h): segment names and their order,
 * what to remove to stay within a budget, sizes and times as a user
 * writes them, and the segments a window of time needs.  Civil dates
 * are computed here from day counts, not with the C library, so that
 * nothing depends on the time zone.
 */
#include "config.h"

#include "record/record-ring.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/hverr.h"
#include "util/xalloc.h"

#define NS	1000000000ULL

/* Days since 1970-01-01 of a proleptic Gregorian date. */
static int64_t
record_ring_days(int64_t y, unsigned m, unsigned d)
{
	int64_t		 era;
	unsigned	 yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return (era * 146097 + (int64_t)doe - 719468);
}

/* The date of a day count since 1970-01-01. */
static void
record_ring_civil(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
	int64_t		 era;
	unsigned	 doe, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = (unsigned)(z - era * 146097);
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = (int64_t)yoe + era * 400 + (*m <= 2);
}

void
record_ring_name(char *buf, size_t len, uint64_t wall_ns, uint64_t seq)
{
	uint64_t	 s = wall_ns / NS;
	int64_t		 y;
	unsigned	 m, d, sod = (unsigned)(s % 86400);

	record_ring_civil((int64_t)(s / 86400), &y, &m, &d);
	snprintf(buf, len, RECORD_RING_PREFIX "%04lld%02u%02uT%02u%02u%02uZ-"
	    "%06llu" RECORD_RING_SUFFIX, (long long)y, m, d, sod / 3600,
	    sod / 60 % 60, sod % 60, (unsigned long long)(seq % 1000000));
}

/* n decimal digits at p into *v; 0 when they are not all digits. */
static int
record_ring_digits(const char *p, unsigned n, unsigned *v)
{
	unsigned	 i;

	*v = 0;
	for (i = 0; i < n; i++) {
		if (!isdigit((unsigned char)p[i]))
			return (0);
		*v = *v * 10 + (unsigned)(p[i] - '0');
	}
	return (1);
}

/*
 * Wall ns of a date and time; 0 when a field is out of range (a day past
 * its month's last, a 60th second: a name or a time means one instant).
 */
static int
record_ring_join(unsigned y, unsigned mo, unsigned d, unsigned h,
    unsigned mi, unsigned s, uint64_t *out)
{
	int64_t	 first, next;

	/* Wall ns of 64 bits end in 2554. */
	if (y < 1970 || y > 2500 || mo < 1 || mo > 12 || d < 1 || h > 23 ||
	    mi > 59 || s > 59)
		return (0);
	first = record_ring_days(y, mo, 1);
	next = mo == 12 ? record_ring_days(y + 1, 1, 1) :
	    record_ring_days(y, mo + 1, 1);
	if ((int64_t)d > next - first)
		return (0);
	*out = ((uint64_t)(first + d - 1) * 86400 + h * 3600 + mi * 60 + s) *
	    NS;
	return (1);
}

int
record_ring_parse(const char *name, uint64_t *wall_ns, uint64_t *seq)
{
	const size_t	 plen = sizeof RECORD_RING_PREFIX - 1;
	const size_t	 slen = sizeof RECORD_RING_SUFFIX - 1;
	const char	*p = name, *t;
	unsigned	 y, mo, d, h, mi, s, hi, lo;
	size_t		 i;

	if (strncmp(p, RECORD_RING_PREFIX, plen) != 0)
		return (0);
	p += plen;
	if (!record_ring_digits(p, 4, &y) || !record_ring_digits(p + 4, 2,
	    &mo) || !record_ring_digits(p + 6, 2, &d) || p[8] != 'T' ||
	    !record_ring_digits(p + 9, 2, &h) || !record_ring_digits(p + 11,
	    2, &mi) || !record_ring_digits(p + 13, 2, &s) || p[15] != 'Z' ||
	    p[16] != '-' || !record_ring_digits(p + 17, 3, &hi) ||
	    !record_ring_digits(p + 20, 3, &lo))
		return (0);
	if (!record_ring_join(y, mo, d, h, mi, s, wall_ns))
		return (0);
	*seq = (uint64_t)hi * 1000 + lo;
	t = p + 23;
	if (strncmp(t, RECORD_RING_SUFFIX, slen) != 0)
		return (0);
	t += slen;
	if (*t == '\0')
		return (1);
	/* file_out's temporary name: six more characters after a dot. */
	if (*t != '.' || strlen(t) != 7)
		return (0);
	for (i = 1; i < 7; i++) {
		if (!isalnum((unsigned char)t[i]))
			return (0);
	}
	return (2);
}

static int
record_ring_cmp(const void *a, const void *b)
{
	const struct record_ring_seg	*x = a, *y = b;

	if (x->wall_ns != y->wall_ns)
		return (x->wall_ns < y->wall_ns ? -1 : 1);
	if (x->seq != y->seq)
		return (x->seq < y->seq ? -1 : 1);
	return (strcmp(x->name, y->name));
}

void
record_ring_sort(struct record_ring_seg *v, size_t n)
{
	if (n > 1)
		qsort(v, n, sizeof *v, record_ring_cmp);
}

size_t
record_ring_excess(const struct record_ring_seg *v, size_t n,
    uint64_t budget, uint64_t reserve)
{
	uint64_t	 total = reserve;
	size_t		 i, k;

	for (i = 0; i < n; i++)
		total += v[i].bytes;
	for (k = 0; k < n && total > budget; k++)
		total -= v[k].bytes;
	return (k);
}

uint64_t
record_ring_segment_max(uint64_t budget)
{
	return (budget / RECORD_RING_PARTS);
}

int
record_ring_size_parse(const char *s, uint64_t *out, char **cause)
{
	const char	*p = s;
	uint64_t	 v = 0, mul = 1;
	int		 shift = 0;

	if (!isdigit((unsigned char)*p))
		goto bad;
	for (; isdigit((unsigned char)*p); p++) {
		if (v > (UINT64_MAX - 9) / 10)
			goto big;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	switch (toupper((unsigned char)*p)) {
	case 'K': shift = 10; break;
	case 'M': shift = 20; break;
	case 'G': shift = 30; break;
	case 'T': shift = 40; break;
	}
	if (shift != 0) {
		p++;
		if (*p == 'i')
			p++;
		if (toupper((unsigned char)*p) == 'B')
			p++;
	} else if (toupper((unsigned char)*p) == 'B')
		p++;
	if (*p != '\0')
		goto bad;
	mul <<= shift;
	if (v > UINT64_MAX / mul)
		goto big;
	*out = v * mul;
	return (0);
bad:
	*cause = xasprintf("\"%s\": not a size (a number of bytes, with K, M, "
	    "G or T for powers of 1024)", s);
	return (-HV_EFORMAT);
big:
	*cause = xasprintf("\"%s\": too large a size", s);
	return (-HV_ERANGE);
}

/* "-1h", "-30m", "-90s", "-2d", "now": *out, or 0 when not that form. */
static int
record_ring_relative(const char *s, uint64_t now_ns, uint64_t *out)
{
	const char	*p = s + 1;
	uint64_t	 v = 0, unit;

	if (strcmp(s, "now") == 0) {
		*out = now_ns;
		return (1);
	}
	if (*s != '-' || !isdigit((unsigned char)*p))
		return (0);
	for (; isdigit((unsigned char)*p) && v < 1000000000; p++)
		v = v * 10 + (uint64_t)(*p - '0');
	switch (*p) {
	case 's': unit = 1; break;
	case 'm': unit = 60; break;
	case 'h': unit = 3600; break;
	case 'd': unit = 86400; break;
	default: return (0);
	}
	if (p[1] != '\0')
		return (0);
	v *= unit * NS;
	*out = v < now_ns ? now_ns - v : 0;
	return (1);
}

int
record_ring_time_parse(const char *s, uint64_t now_ns, uint64_t *out,
    char **cause)
{
	unsigned	 y, mo, d, h = 0, mi = 0, sec = 0;
	const char	*p = s;

	if (record_ring_relative(s, now_ns, out))
		return (0);
	if (!record_ring_digits(p, 4, &y) || p[4] != '-' ||
	    !record_ring_digits(p + 5, 2, &mo) || p[7] != '-' ||
	    !record_ring_digits(p + 8, 2, &d))
		goto bad;
	p += 10;
	if (*p == 'T' || *p == ' ') {
		if (!record_ring_digits(p + 1, 2, &h) || p[3] != ':' ||
		    !record_ring_digits(p + 4, 2, &mi))
			goto bad;
		p += 6;
		if (*p == ':') {
			if (!record_ring_digits(p + 1, 2, &sec))
				goto bad;
			p += 3;
		}
		if (*p == 'Z')
			p++;
	}
	if (*p == '\0' && record_ring_join(y, mo, d, h, mi, sec, out))
		return (0);
bad:
	*cause = xasprintf("\"%s\": not a time (2026-12-02T03:12:00Z in UTC, "
	    "or -1h, -30m, -90s, -2d before now)", s);
	return (-HV_EFORMAT);
}

size_t
record_ring_window(const struct record_ring_seg *v, size_t n,
    uint64_t end_ns, uint64_t from, uint64_t to, size_t *first,
    size_t *last)
{
	uint64_t	 a, b;
	size_t		 i;

	*first = *last = 0;
	for (i = 0; i < n; i++) {
		a = v[i].wall_ns;
		b = i + 1 < n ? v[i + 1].wall_ns : end_ns;
		if (b < a)
			b = a;
		/* A segment's name is its start's second, floored. */
		if (b + NS <= from || a > to)
			continue;
		if (*last == 0)
			*first = i;
		*last = i + 1;
	}
	return (*last - *first);
}
