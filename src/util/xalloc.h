/*
 * Allocation that cannot fail.  Out of memory aborts (the UI's SIGABRT
 * handler restores the terminal first); a zero size is a caller bug.
 */
#ifndef HVTOP_XALLOC_H
#define HVTOP_XALLOC_H

#include <stdarg.h>
#include <stddef.h>

/*
 * Hidden: GNU readline defines and calls its own xmalloc, and a program's
 * exported definition would replace it inside the library (this one aborts
 * on a zero size where readline's does not).  Hidden names stay in hvtop.
 */
#pragma GCC visibility push(hidden)
void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
char	*xstrndup(const char *, size_t);
char	*xasprintf(const char *, ...) __attribute__((format(printf, 1, 2)));
char	*xvasprintf(const char *, va_list) __attribute__((format(printf, 1, 0)));
#pragma GCC visibility pop

#endif /* HVTOP_XALLOC_H */
