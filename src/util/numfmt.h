/*
 * Numbers as printf's "%.Ng" prints them, byte for byte, without going
 * through printf: a CSV interval of 200,000 metrics prints 600,000 of
 * them, and glibc's exact conversion (big-number arithmetic for every
 * value) was a quarter of hvtop's start-up.  Values whose exact decimal
 * form fits in 128-bit arithmetic (every normal double from about 1e-20
 * to 1e21 at 12 digits) are converted here; the rest, and NaN, infinity
 * and subnormals, go to snprintf().  Pure.
 */
#ifndef HVTOP_NUMFMT_H
#define HVTOP_NUMFMT_H

#include <stddef.h>
#include <stdint.h>

/* Longest result: sign, 17 digits, point, "e-308", NUL. */
#define NUMFMT_G_MAX	32

/*
 * Write v as snprintf(buf, NUMFMT_G_MAX, "%.*g", prec, v) would, in the C
 * locale, for 1 <= prec <= 17.  buf has NUMFMT_G_MAX bytes; returns the
 * length (without the NUL).
 */
size_t	 numfmt_g(char *buf, double v, int prec);
/* v as "%llu" prints it, into buf of NUMFMT_G_MAX bytes; the length. */
size_t	 numfmt_u64(char *buf, uint64_t v);

#endif /* HVTOP_NUMFMT_H */
