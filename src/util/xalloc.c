/*
 * Allocation wrappers.  Pure: they abort on failure instead of reporting,
 * because no caller could do anything better than stop.
 */
#include "config.h"

#include "util/xalloc.h"

#include <sys/mman.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *
xmalloc(size_t size)
{
	void	*p;

	if (size == 0 || (p = malloc(size)) == NULL)
		abort();
	return (p);
}

void *
xcalloc(size_t n, size_t size)
{
	void	*p;

	if (n == 0 || size == 0 || (p = calloc(n, size)) == NULL)
		abort();
	return (p);
}

void *
xreallocarray(void *old, size_t n, size_t size)
{
	void	*p;

	if (n == 0 || size == 0 || n > SIZE_MAX / size)
		abort();
	if ((p = realloc(old, n * size)) == NULL)
		abort();
	return (p);
}

/* Below this, huge pages would mostly be waste. */
#define XALLOC_HUGE_MIN		(4U << 20)
#define XALLOC_HUGE_ALIGN	(2U << 20)

void *
xmalloc_huge(size_t n, size_t size)
{
	void	*p;
	size_t	 len;

	if (n == 0 || size == 0 || n > SIZE_MAX / size)
		abort();
	len = n * size;
	if (len < XALLOC_HUGE_MIN)
		return (xmalloc(len));
	if (posix_memalign(&p, XALLOC_HUGE_ALIGN, len) != 0)
		abort();
#ifdef MADV_HUGEPAGE
	/* Only a hint: where the system says no, pages stay small. */
	(void)madvise(p, len, MADV_HUGEPAGE);
#endif
	return (p);
}

char *
xstrdup(const char *s)
{
	return (xstrndup(s, strlen(s)));
}

/* Copy at most len bytes of s, stopping at a NUL, and terminate. */
char *
xstrndup(const char *s, size_t len)
{
	char	*p;
	size_t	 n;

	n = strnlen(s, len);
	p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return (p);
}

char *
xvasprintf(const char *fmt, va_list ap)
{
	va_list	 aq;
	char	*p;
	int	 n;

	va_copy(aq, ap);
	n = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (n < 0)
		abort();
	p = xmalloc((size_t)n + 1);
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	return (p);
}

char *
xasprintf(const char *fmt, ...)
{
	va_list	 ap;
	char	*p;

	va_start(ap, fmt);
	p = xvasprintf(fmt, ap);
	va_end(ap);
	return (p);
}
