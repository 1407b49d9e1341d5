/*
 * The one spelling of a number on every screen and in text output: at
 * most four digits before the point and a decimal prefix ("1815M",
 * "9.87k", "12.3", "42"), in a column's prefix or its own.  Live, the
 * Partitions and Frame screens, the charts and batch text all write
 * their numbers here, so that a value reads the same wherever it is
 * shown.  Pure.
 */
#ifndef HVTOP_NUMFMT_SI_H
#define HVTOP_NUMFMT_SI_H

#include <stddef.h>

/* Room for any result of numfmt_si(), with its NUL. */
#define NUMFMT_SI_MAX	32
/* The largest prefix, as a power of 1000: E. */
#define NUMFMT_SI_TOP	6
/* The magnitude from which a value reads in the next prefix: 9999.5 is
 * "10.00k", 9999.4 is "9999". */
#define NUMFMT_SI_LIMIT	9999.5
/* The same for a prefix that screens hold while their values change:
 * three digits, room to grow into the fourth before it must change. */
#define NUMFMT_SI_ROOM	999.5
/* What a number shows when it does not fit in its width. */
#define NUMFMT_SI_WIDE	"+"

/* numfmt_si() flags. */
#define NUMFMT_SI_BARE	0x1	/* no prefix letter: the unit says it */
#define NUMFMT_SI_GROW	0x2	/* a larger prefix than the column's when
				   its number does not fit the width (not
				   with NUMFMT_SI_BARE) */

/*
 * The prefix of a column whose largest magnitude is max: the smallest
 * power of 1000, at most top, that leaves it below limit
 * (NUMFMT_SI_LIMIT or NUMFMT_SI_ROOM).
 */
int	 numfmt_si_scale(double max, double limit, int top);

/*
 * v into buf (NUMFMT_SI_MAX bytes); returns the length.
 * In prefix 1000^scale when scale >= 0: v / 1000^scale with two
 * decimals below 10, one below 100, none from 100; a whole number in
 * no prefix without decimals, a small one (below 0.01) as "1.23e-03".
 * The prefix letter follows unless flags has NUMFMT_SI_BARE.
 * With scale < 0, in its own prefix: the smallest that leaves fewer
 * than five digits before the point, or "1.23e+21" past the largest.
 * NaN and infinities are "nan", "inf" and "-inf", never digits.
 * width > 0 is the most characters it may take: then fewer decimals,
 * and with scale < 0 or NUMFMT_SI_GROW a larger prefix while the value
 * reads 1 or more in it, when the number would not fit (rounded, never
 * cut), and NUMFMT_SI_WIDE when nothing fits.  No padding: the caller
 * aligns.
 */
size_t	 numfmt_si(char *buf, double v, int scale, int flags, int width);

#endif /* HVTOP_NUMFMT_SI_H */
