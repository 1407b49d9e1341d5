/*
 * "%.Ng" without printf.  A normal double is m * 2^e2 with m < 2^53; its
 * N significant digits are v * 10^s rounded, for s = N - 1 - x where x is
 * v's decimal exponent.  Written as a fraction a / b of two 128-bit
 * integers, that is one division and an exact remainder, so rounding
 * (half to even, as glibc rounds in the default mode) is exact too.  When
 * a or b would not fit, snprintf() does it.  Pure.
 */
#include "config.h"

#include "util/numfmt.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef unsigned __int128 numfmt_u128;

/* Both halves of the fraction stay below 2^125, so 2 * r cannot wrap. */
#define NUMFMT_BITS	125

static const uint64_t numfmt_p10[20] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
	10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
	100000000000ULL, 1000000000000ULL, 10000000000000ULL,
	100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
	100000000000000000ULL, 1000000000000000000ULL,
	10000000000000000000ULL
};

/* 10^k for 0 <= k <= 38. */
static numfmt_u128
numfmt_pow10(int k)
{
	if (k <= 19)
		return (numfmt_p10[k]);
	return ((numfmt_u128)numfmt_p10[19] * numfmt_p10[k - 19]);
}

static int
numfmt_bitlen(numfmt_u128 x)
{
	uint64_t	hi = (uint64_t)(x >> 64), lo = (uint64_t)x;

	if (hi != 0)
		return (128 - __builtin_clzll(hi));
	return (lo != 0 ? 64 - __builtin_clzll(lo) : 0);
}

/*
 * m * 2^e2 * 10^s as a / b, with *pow2 set when b is a power of two.
 * Returns 0 when either would need NUMFMT_BITS bits or more.
 */
static int
numfmt_ratio(uint64_t m, int e2, int s, numfmt_u128 *a, numfmt_u128 *b,
    int *pow2)
{
	numfmt_u128	x = m, y = 1;

	if (s > 37 || s < -37)
		return (0);
	if (s >= 0)
		x *= numfmt_pow10(s);
	else
		y = numfmt_pow10(-s);
	if (numfmt_bitlen(x) >= NUMFMT_BITS)
		return (0);
	if (e2 >= 0) {
		if (numfmt_bitlen(x) + e2 >= NUMFMT_BITS)
			return (0);
		x <<= e2;
	} else {
		if (numfmt_bitlen(y) - e2 >= NUMFMT_BITS)
			return (0);
		y <<= -e2;
	}
	*a = x;
	*b = y;
	*pow2 = s >= 0;
	return (1);
}

static size_t
numfmt_libc(char *buf, double v, int prec)
{
	int	n;

	n = snprintf(buf, NUMFMT_G_MAX, "%.*g", prec, v);
	return (n > 0 && n < NUMFMT_G_MAX ? (size_t)n : 0);
}

/*
 * The nd significant digits d of a number of decimal exponent x, laid out
 * as %g does for precision prec: with an exponent when x < -4 or x >=
 * prec, else as a plain decimal.  Returns the end of what it wrote.
 */
static char *
numfmt_place(char *p, const char *d, int nd, int x, int prec)
{
	int	 i, ex;

	if (x < -4 || x >= prec) {
		*p++ = d[0];
		if (nd > 1) {
			*p++ = '.';
			memcpy(p, d + 1, (size_t)nd - 1);
			p += nd - 1;
		}
		*p++ = 'e';
		*p++ = x < 0 ? '-' : '+';
		ex = x < 0 ? -x : x;
		if (ex >= 100)
			*p++ = (char)('0' + ex / 100);
		*p++ = (char)('0' + ex / 10 % 10);
		*p++ = (char)('0' + ex % 10);
	} else if (x >= 0) {
		memcpy(p, d, (size_t)x + 1);
		p += x + 1;
		if (nd > x + 1) {
			*p++ = '.';
			memcpy(p, d + x + 1, (size_t)(nd - x - 1));
			p += nd - x - 1;
		}
	} else {
		*p++ = '0';
		*p++ = '.';
		for (i = 0; i < -x - 1; i++)
			*p++ = '0';
		memcpy(p, d, (size_t)nd);
		p += nd;
	}
	return (p);
}

size_t
numfmt_g(char *buf, double v, int prec)
{
	numfmt_u128	 a, b, q = 0, r = 0, top, low;
	uint64_t	 bits, m, w;
	char		 d[20], *p = buf;
	int		 e2, x, tries, pow2, nd, i;

	memcpy(&bits, &v, sizeof bits);
	e2 = (int)((bits >> 52) & 0x7ff);
	if (prec < 1 || prec > 17 || e2 == 0x7ff || (e2 == 0 && bits << 1 != 0))
		return (numfmt_libc(buf, v, prec));
	if (bits >> 63)
		*p++ = '-';
	if (bits << 1 == 0) {
		*p++ = '0';
		*p = '\0';
		return ((size_t)(p - buf));
	}
	m = (bits & ((1ULL << 52) - 1)) | (1ULL << 52);
	e2 -= 1075;
	/*
	 * v = m * 2^e2.  A whole number below 10^prec, as most rates of
	 * counts are, prints as its digits: no exponent, no point.
	 */
	if (e2 <= 4 && e2 >= -52 && (e2 >= 0 ||
	    (m & ((1ULL << -e2) - 1)) == 0)) {
		w = e2 >= 0 ? m << e2 : m >> -e2;
		if ((numfmt_u128)w < numfmt_pow10(prec))
			return ((size_t)(p - buf) + numfmt_u64(p, w));
	}
	/* v is in [2^(e2 + 52), 2^(e2 + 53)): x is this guess or one more. */
	x = (int)((e2 + 52) * 30103L / 100000L);
	if ((e2 + 52) * 30103L % 100000L < 0)
		x--;
	top = numfmt_pow10(prec);
	low = numfmt_pow10(prec - 1);
	for (tries = 0; tries < 3; tries++) {
		if (!numfmt_ratio(m, e2, prec - 1 - x, &a, &b, &pow2))
			return (numfmt_libc(buf, v, prec));
		if (pow2) {
			q = a >> (numfmt_bitlen(b) - 1);
			r = a & (b - 1);
		} else {
			q = a / b;
			r = a % b;
		}
		if (q >= top)
			x++;
		else if (q < low)
			x--;
		else
			break;
	}
	if (tries == 3)
		return (numfmt_libc(buf, v, prec));
	if (2 * r > b || (2 * r == b && (q & 1) != 0))
		q++;
	if (q == top) {
		q = low;
		x++;
	}
	/* q < 10^17 now: 64-bit divisions are much cheaper. */
	for (w = (uint64_t)q, i = prec - 1; i >= 0; i--) {
		d[i] = (char)('0' + (int)(w % 10));
		w /= 10;
	}
	for (nd = prec; nd > 1 && d[nd - 1] == '0'; nd--)
		continue;
	p = numfmt_place(p, d, nd, x, prec);
	*p = '\0';
	return ((size_t)(p - buf));
}

size_t
numfmt_u64(char *buf, uint64_t v)
{
	char	 d[20];
	size_t	 n = 0, i;

	do {
		d[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v != 0);
	for (i = 0; i < n; i++)
		buf[i] = d[n - 1 - i];
	buf[n] = '\0';
	return (n);
}
