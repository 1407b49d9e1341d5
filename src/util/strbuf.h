/*
 * A growable NUL-terminated string.  Zero-initialise, append, then take
 * the string with strbuf_detach() or release it with strbuf_free().
 */
#ifndef HVTOP_STRBUF_H
#define HVTOP_STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

struct strbuf {
	char	*s;
	size_t	 len;
	size_t	 cap;
};

void	 strbuf_add(struct strbuf *, const char *, size_t);
void	 strbuf_adds(struct strbuf *, const char *);
void	 strbuf_addc(struct strbuf *, char);
void	 strbuf_addf(struct strbuf *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
void	 strbuf_vaddf(struct strbuf *, const char *, va_list)
	    __attribute__((format(printf, 2, 0)));
/* v in decimal, as "%llu" prints it. */
void	 strbuf_addu64(struct strbuf *, uint64_t);
/* A wall-clock time (ns since 1970) as ISO 8601 UTC, "2026-01-01T10:32:05Z",
 * with milliseconds before the Z when ms is nonzero. */
void	 strbuf_addtime(struct strbuf *, uint64_t ns, int ms);
void	 strbuf_reset(struct strbuf *);
char	*strbuf_detach(struct strbuf *);
void	 strbuf_free(struct strbuf *);

#endif /* HVTOP_STRBUF_H */
