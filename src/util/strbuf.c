/*
 * Growable strings for messages, dumps and exported text.  Pure.
 */
#include "config.h"

#include "util/strbuf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/numfmt.h"
#include "util/xalloc.h"

static void
strbuf_grow(struct strbuf *sb, size_t more)
{
	size_t	 need;

	need = sb->len + more + 1;
	if (need <= sb->cap)
		return;
	if (sb->cap == 0)
		sb->cap = 64;
	while (sb->cap < need)
		sb->cap *= 2;
	sb->s = xreallocarray(sb->s, sb->cap, 1);
}

void
strbuf_add(struct strbuf *sb, const char *p, size_t n)
{
	strbuf_grow(sb, n);
	if (n != 0)
		memcpy(sb->s + sb->len, p, n);
	sb->len += n;
	sb->s[sb->len] = '\0';
}

void
strbuf_adds(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void
strbuf_addc(struct strbuf *sb, char c)
{
	strbuf_add(sb, &c, 1);
}

/*
 * Formatted straight into the free room, which is usually enough (a
 * buffer reused for rows of numbers): formatting a double costs far more
 * than anything else here, so it is done twice only when the text did not
 * fit.
 */
void
strbuf_vaddf(struct strbuf *sb, const char *fmt, va_list ap)
{
	va_list	 aq;
	size_t	 room;
	int	 n;

	if (sb->cap - sb->len < 64)
		strbuf_grow(sb, 64);
	room = sb->cap - sb->len;
	va_copy(aq, ap);
	n = vsnprintf(sb->s + sb->len, room, fmt, aq);
	va_end(aq);
	if (n < 0)
		abort();
	if ((size_t)n >= room) {
		strbuf_grow(sb, (size_t)n);
		vsnprintf(sb->s + sb->len, (size_t)n + 1, fmt, ap);
	}
	sb->len += (size_t)n;
}

void
strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

/* Rows and scrapes print counters by the thousand: no printf. */
void
strbuf_addu64(struct strbuf *sb, uint64_t v)
{
	char	 buf[NUMFMT_G_MAX];

	strbuf_add(sb, buf, numfmt_u64(buf, v));
}

/* The n last digits of v at p, zero-padded; the end. */
static char *
strbuf_digits(char *p, unsigned v, int n)
{
	int	 i;

	for (i = n - 1; i >= 0; i--, v /= 10)
		p[i] = (char)('0' + v % 10);
	return (p + n);
}

/*
 * Batch output stamps every row: the digits are laid out by hand, as
 * "%04d-%02d-%02dT%02d:%02d:%02d" would print them, at a tenth of
 * printf's cost.  The year always has four digits: 2^64 ns from 1970
 * end in 2554, and a 32-bit time_t holds no year outside 1901..2038.
 */
_Static_assert(UINT64_MAX / 1000000000ULL < 253402300800ULL,
    "ns since 1970 in a uint64_t end before the year 10000");

void
strbuf_addtime(struct strbuf *sb, uint64_t ns, int ms)
{
	time_t		 t = (time_t)(ns / 1000000000ULL);
	struct tm	 tm;
	char		 buf[32], *p = buf;

	if (gmtime_r(&t, &tm) == NULL) {
		strbuf_adds(sb, "?");
		return;
	}
	p = strbuf_digits(p, (unsigned)(tm.tm_year + 1900), 4);
	*p++ = '-';
	p = strbuf_digits(p, (unsigned)tm.tm_mon + 1, 2);
	*p++ = '-';
	p = strbuf_digits(p, (unsigned)tm.tm_mday, 2);
	*p++ = 'T';
	p = strbuf_digits(p, (unsigned)tm.tm_hour, 2);
	*p++ = ':';
	p = strbuf_digits(p, (unsigned)tm.tm_min, 2);
	*p++ = ':';
	p = strbuf_digits(p, (unsigned)tm.tm_sec, 2);
	if (ms) {
		*p++ = '.';
		p = strbuf_digits(p, (unsigned)(ns % 1000000000ULL /
		    1000000ULL), 3);
	}
	*p++ = 'Z';
	strbuf_add(sb, buf, (size_t)(p - buf));
}

void
strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->s != NULL)
		sb->s[0] = '\0';
}

/* Hand the string to the caller (never NULL); the buffer is left empty. */
char *
strbuf_detach(struct strbuf *sb)
{
	char	*s;

	if (sb->s == NULL)
		s = xstrdup("");
	else
		s = sb->s;
	sb->s = NULL;
	sb->len = sb->cap = 0;
	return (s);
}

void
strbuf_free(struct strbuf *sb)
{
	free(sb->s);
	sb->s = NULL;
	sb->len = sb->cap = 0;
}
