/*
 * The replay's "go to" text: see seekspec.h.  Digits are read by hand so
 * that every field is range-checked and every error names its column.
 */
#include "config.h"

#include "util/seekspec.h"

#include <stddef.h>
#include <string.h>

#include "util/hverr.h"
#include "util/xalloc.h"

#define NS	1000000000ULL
#define DAY	86400ULL

/* n digits at *p into *v; 0, or -1 when they are not all digits. */
static int
seekspec_digits(const char **p, size_t n, unsigned *v)
{
	size_t	 i;

	*v = 0;
	for (i = 0; i < n; i++) {
		if ((*p)[i] < '0' || (*p)[i] > '9')
			return (-1);
		*v = *v * 10 + (unsigned)((*p)[i] - '0');
	}
	*p += n;
	return (0);
}

static int
seekspec_error(const char *s, const char *at, const char *what,
    char **cause)
{
	*cause = xasprintf("column %zu: %s (give a sample number, +SECONDS, "
	    "HH:MM[:SS] or YYYY-MM-DDTHH:MM[:SS], UTC)", (size_t)(at - s) + 1,
	    what);
	return (-HV_EFORMAT);
}

/* "HH:MM[:SS]" at *p: seconds into the day. */
static int
seekspec_clock(const char *s, const char **p, uint64_t *secs, char **cause)
{
	const char	*at = *p;
	unsigned	 h, m, sec = 0;

	if (seekspec_digits(p, 2, &h) != 0 || h > 23)
		return (seekspec_error(s, at, "expected an hour 00-23",
		    cause));
	if (**p != ':')
		return (seekspec_error(s, *p, "expected ':'", cause));
	at = ++*p;
	if (seekspec_digits(p, 2, &m) != 0 || m > 59)
		return (seekspec_error(s, at, "expected minutes 00-59",
		    cause));
	if (**p == ':') {
		at = ++*p;
		if (seekspec_digits(p, 2, &sec) != 0 || sec > 60)
			return (seekspec_error(s, at, "expected seconds "
			    "00-60", cause));
	}
	*secs = (uint64_t)h * 3600 + m * 60 + sec;
	return (0);
}

/* Days since 1970-01-01 of a proleptic Gregorian date. */
static int64_t
seekspec_days(int y, unsigned m, unsigned d)
{
	int64_t		 era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return (era * 146097 + doe - 719468);
}

/* A date and time, YYYY-MM-DD[T ]HH:MM[:SS][Z], at *pp, in UTC. */
static int
seekspec_date(const char *s, const char **pp, uint64_t *ns, char **cause)
{
	static const unsigned mdays[12] = { 31, 29, 31, 30, 31, 30, 31, 31,
	    30, 31, 30, 31 };
	const char	*p = *pp, *at;
	uint64_t	 secs;
	unsigned	 y, mo, d;
	int64_t		 days;

	at = p;
	if (seekspec_digits(&p, 4, &y) != 0 || y < 1970)
		return (seekspec_error(s, at, "expected a year from "
		    "1970", cause));
	at = ++p;
	if (seekspec_digits(&p, 2, &mo) != 0 || mo < 1 || mo > 12)
		return (seekspec_error(s, at, "expected a month 01-12",
		    cause));
	if (*p != '-')
		return (seekspec_error(s, p, "expected '-'", cause));
	at = ++p;
	if (seekspec_digits(&p, 2, &d) != 0 || d < 1 ||
	    d > mdays[mo - 1] || (mo == 2 && d == 29 && (y % 4 != 0 ||
	    (y % 100 == 0 && y % 400 != 0))))
		return (seekspec_error(s, at, "expected a day of that "
		    "month", cause));
	if (*p != 'T' && *p != ' ')
		return (seekspec_error(s, p, "expected 'T' or a space "
		    "before the time", cause));
	p++;
	if (seekspec_clock(s, &p, &secs, cause) != 0)
		return (-HV_EFORMAT);
	if (*p == 'Z')
		p++;
	days = seekspec_days((int)y, mo, d);
	*ns = ((uint64_t)days * DAY + secs) * NS;
	*pp = p;
	return (0);
}

int
seekspec_parse(const char *s, uint64_t first_wall, struct seekspec *out,
    char **cause)
{
	const char	*p = s;
	uint64_t	 v = 0, frac = 0, scale = NS, secs;
	size_t		 n;

	while (*p == ' ')
		p++;
	if (*p == '\0')
		return (seekspec_error(s, p, "nothing given", cause));
	n = strspn(p, "0123456789");
	if (*p == '+') {
		/* An offset in seconds, fractions allowed. */
		p++;
		if ((n = strspn(p, "0123456789")) == 0 || n > 9)
			return (seekspec_error(s, p, "expected seconds after "
			    "'+'", cause));
		for (; n > 0; n--, p++)
			v = v * 10 + (uint64_t)(*p - '0');
		if (*p == '.') {
			for (p++; *p >= '0' && *p <= '9'; p++) {
				if (scale > 1) {
					scale /= 10;
					frac += (uint64_t)(*p - '0') * scale;
				}
			}
		}
		out->kind = SEEKSPEC_WALL;
		out->value = first_wall + v * NS + frac;
	} else if (n == 2 && p[2] == ':') {
		if (seekspec_clock(s, &p, &secs, cause) != 0)
			return (-HV_EFORMAT);
		out->kind = SEEKSPEC_WALL;
		out->value = first_wall / (DAY * NS) * (DAY * NS) + secs * NS;
	} else if (n == 4 && p[4] == '-') {
		if (seekspec_date(s, &p, &out->value, cause) != 0)
			return (-HV_EFORMAT);
		out->kind = SEEKSPEC_WALL;
	} else if (n > 0 && n <= 18) {
		for (; n > 0; n--, p++)
			v = v * 10 + (uint64_t)(*p - '0');
		out->kind = SEEKSPEC_SAMPLE;
		out->value = v;
	} else
		return (seekspec_error(s, p, "not a sample number or a time",
		    cause));
	while (*p == ' ')
		p++;
	if (*p != '\0')
		return (seekspec_error(s, p, "unexpected text", cause));
	return (0);
}
