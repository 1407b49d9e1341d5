/*
 * Numbers with a decimal prefix, one spelling for every screen and for
 * text output (numfmt-si.h).  A number is a form (digits with d
 * decimals in prefix i, or an exponent), tried from the most precise to
 * the least until it fits its width.  Pure.
 */
#include "config.h"

#include "util/numfmt-si.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const char numfmt_si_prefix[NUMFMT_SI_TOP + 2] = "\0kMGTPE";

int
numfmt_si_scale(double max, double limit, int top)
{
	int	 s = 0;

	max = fabs(max);
	while (isfinite(max) && max >= limit && s < top) {
		max /= 1000;
		s++;
	}
	return (s);
}

/* Two decimals below 10, one below 100, none from 100. */
static int
numfmt_si_decimals(double a)
{
	return (a < 10 ? 2 : a < 100 ? 1 : 0);
}

/* v with d decimals and the letter of prefix i (none: 0); its length,
 * or NUMFMT_SI_MAX when it would not fit in buf. */
static size_t
numfmt_si_digits(char *buf, double v, int d, int i)
{
	int	 n;

	n = snprintf(buf, NUMFMT_SI_MAX, "%.*f", d, v);
	if (n < 0 || n + 2 > NUMFMT_SI_MAX)
		return (NUMFMT_SI_MAX);
	if (i > 0 && numfmt_si_prefix[i] != '\0') {
		buf[n++] = numfmt_si_prefix[i];
		buf[n] = '\0';
	}
	return ((size_t)n);
}

/* v as "1.23e+21" with d decimals. */
static size_t
numfmt_si_exp(char *buf, double v, int d)
{
	int	 n;

	n = snprintf(buf, NUMFMT_SI_MAX, "%.*e", d, v);
	return (n < 0 || n >= NUMFMT_SI_MAX ? NUMFMT_SI_MAX : (size_t)n);
}

static size_t
numfmt_si_copy(char *buf, const char *s)
{
	size_t	 n = strlen(s);

	memcpy(buf, s, n + 1);
	return (n);
}

/* Fits in width (0: any)? */
static int
numfmt_si_fits(size_t n, int width)
{
	return (n < NUMFMT_SI_MAX && (width <= 0 || n <= (size_t)width));
}

/* The exponent form with 2, 1, 0 decimals, the first that fits. */
static size_t
numfmt_si_exp_fit(char *buf, double v, int width)
{
	size_t	 n;
	int	 d;

	for (d = 2; d >= 0; d--)
		if (numfmt_si_fits(n = numfmt_si_exp(buf, v, d), width))
			return (n);
	return (numfmt_si_copy(buf, NUMFMT_SI_WIDE));
}

/*
 * v in prefix i (v already divided), from d decimals down, then with
 * grow in larger prefixes where it reads 1 or more: the first that
 * fits; 0 when none does.
 */
static size_t
numfmt_si_fixed_fit(char *buf, double v, int i, int d, int letter,
    int grow, int width)
{
	size_t	 n;

	for (;;) {
		for (; d >= 0; d--) {
			n = numfmt_si_digits(buf, v, d, letter ? i : 0);
			if (numfmt_si_fits(n, width))
				return (n);
		}
		if (!grow || i >= NUMFMT_SI_TOP || fabs(v) < 1000)
			return (0);
		v /= 1000;
		i++;
		d = numfmt_si_decimals(fabs(v));
	}
}

/* numfmt_si() with scale < 0: v's own prefix. */
static size_t
numfmt_si_own(char *buf, double v, int width)
{
	double	 a = fabs(v), orig = v;
	size_t	 n;
	int	 i = 0;

	while (a >= NUMFMT_SI_LIMIT && i < NUMFMT_SI_TOP) {
		a /= 1000;
		v /= 1000;
		i++;
	}
	/* Past the last prefix: the exponent says it, not 30 digits. */
	if (a >= NUMFMT_SI_LIMIT)
		return (numfmt_si_exp_fit(buf, orig, width));
	if (i == 0 && a != 0 && a < 0.01)
		return (numfmt_si_exp_fit(buf, v, width));
	n = numfmt_si_fixed_fit(buf, v, i, i == 0 && a == floor(a) ? 0 :
	    numfmt_si_decimals(a), 1, 1, width);
	return (n > 0 ? n : numfmt_si_copy(buf, NUMFMT_SI_WIDE));
}

size_t
numfmt_si(char *buf, double v, int scale, int flags, int width)
{
	size_t	 n;
	double	 a, orig = v;
	int	 i, letter = !(flags & NUMFMT_SI_BARE);

	if (!isfinite(v)) {
		n = numfmt_si_copy(buf, isnan(v) ? "nan" : v < 0 ? "-inf" :
		    "inf");
		return (numfmt_si_fits(n, width) ? n :
		    numfmt_si_copy(buf, NUMFMT_SI_WIDE));
	}
	if (scale < 0)
		return (numfmt_si_own(buf, v, width));
	if (scale > NUMFMT_SI_TOP)
		scale = NUMFMT_SI_TOP;
	for (i = 0; i < scale; i++)
		v /= 1000;
	a = fabs(v);
	if (scale == 0 && a != 0 && a < 0.01)
		return (numfmt_si_exp_fit(buf, v, width));
	n = numfmt_si_fixed_fit(buf, v, scale, scale == 0 && a == floor(a) ?
	    0 : numfmt_si_decimals(a), letter,
	    letter && (flags & NUMFMT_SI_GROW) != 0, width);
	if (n > 0)
		return (n);
	/* More digits than a buffer holds: only an exponent can say it,
	 * in the column's prefix when the unit line names it. */
	if (width <= 0)
		return (numfmt_si_exp_fit(buf, letter ? orig : v, 0));
	return (numfmt_si_copy(buf, NUMFMT_SI_WIDE));
}
