/*
 * Inside src/metrics: how names compare and hash.  Names compare without
 * case, in ASCII only, so that the locale never changes what a file
 * means; the parser's tables and the model's name lookup hash alike.
 */
#ifndef HVTOP_PAPI_INT_H
#define HVTOP_PAPI_INT_H

#include <stdint.h>

static inline int
papi_lower(int c)
{
	return ((c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c);
}

static inline int
papi_casecmp(const char *a, const char *b)
{
	int	 ca, cb;

	for (;; a++, b++) {
		ca = papi_lower((unsigned char)*a);
		cb = papi_lower((unsigned char)*b);
		if (ca != cb || ca == '\0')
			return (ca - cb);
	}
}

/* FNV-1a of the name in lower case. */
static inline uint64_t
papi_hash_nocase(const char *s)
{
	uint64_t	 h = 14695981039346656037ULL;

	for (; *s != '\0'; s++) {
		h ^= (uint64_t)papi_lower((unsigned char)*s);
		h *= 1099511628211ULL;
	}
	return (h);
}

/* FNV-1a of the name as it is. */
static inline uint64_t
papi_hash(const char *s)
{
	uint64_t	 h = 14695981039346656037ULL;

	for (; *s != '\0'; s++) {
		h ^= (uint64_t)(unsigned char)*s;
		h *= 1099511628211ULL;
	}
	return (h);
}

#endif /* HVTOP_PAPI_INT_H */
