/*
 * What the filter language (filter.c) and its regex engine
 * (filter-regex.c) share.  Not for use outside src/filter.
 */
#ifndef HVTOP_FILTER_INT_H
#define HVTOP_FILTER_INT_H

#define FILTER_MAX_REGEX	256	/* bytes of one pattern */
#define FILTER_MAX_REPEAT	256	/* sum of {m,n} bounds in a pattern */
#define FILTER_MAX_QUANTS	32	/* quantifiers in a pattern */
#define FILTER_MAX_QGROUPS	6	/* quantified groups in a pattern */
#define FILTER_MAX_NODES	4096	/* positions, repetitions copied out */
#define FILTER_MAX_DEPTH	32	/* nested groups in a pattern */
#define FILTER_MAX_ANCHORS	1024	/* ^ $ \< \> ..., copied out */
#define FILTER_MAX_WORDB	32	/* \b \B, copied out */
#define FILTER_STR1(x)		#x
#define FILTER_STR(x)		FILTER_STR1(x)
/* Characters that an escape makes plain in an extended regex. */
#define FILTER_RE_SPECIAL	".[]()*+?{}|^$\\"

struct filter_regex_simple;

/* ASCII only, so a filter does not depend on the locale. */
static inline char
filter_lower(char c)
{
	return (c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c);
}

/* Why glibc's automaton for a pattern would be too large, or NULL. */
const char	*filter_regex_bounded(const char *);
/* A text every match of the pattern contains (caller frees), or NULL. */
char		*filter_regex_literal(const char *);
/* A matcher for a simple pattern (caller frees), or NULL. */
struct filter_regex_simple *filter_regex_simple_compile(const char *);
/* 1 or 0, or -1: too many steps, ask regexec(). */
int		 filter_regex_simple_match(const struct filter_regex_simple *,
		    const char *);

#endif /* HVTOP_FILTER_INT_H */
