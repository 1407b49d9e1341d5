/*
 * Allocation that cannot fail.  Out of memory aborts (the UI's SIGABRT
 * handler restores the terminal first); a zero size is a caller bug.
 */
#ifndef HVTOP_XALLOC_H
#define HVTOP_XALLOC_H

#include <stdarg.h>
#include <stddef.h>

void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xreallocarray(void *, size_t, size_t);
/*
 * n elements of size bytes that the caller will fill soon, uninitialised
 * (free() releases them).  A large block is aligned for huge pages and
 * asks for them, where the system gives them on request (Linux's
 * transparent huge pages in madvise mode): filling 200 MB then takes a
 * hundred page faults instead of 50,000, each of which costs several
 * microseconds on a virtual machine.  Small ones are xmalloc()'s.
 */
void	*xmalloc_huge(size_t, size_t);
char	*xstrdup(const char *);
char	*xstrndup(const char *, size_t);
char	*xasprintf(const char *, ...) __attribute__((format(printf, 1, 2)));
char	*xvasprintf(const char *, va_list) __attribute__((format(printf, 1, 0)));

#endif /* HVTOP_XALLOC_H */
