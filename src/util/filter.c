/*
 * The filter bar's language: parse a text into terms once, then test each
 * item with plain substring searches (items carry lower-case texts) or a
 * compiled POSIX regex.  Pure: no I/O, no locale-dependent case folding
 * (ASCII only, so the result does not depend on the environment).
 */
#include "config.h"

#include "util/filter.h"

#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/hverr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define FILTER_MAX_TERMS	64
#define FILTER_MAX_TEXT		4096	/* bytes of filter text */
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

enum filter_key {
	FILTER_WORD,
	FILTER_NAME,
	FILTER_RE,
	FILTER_DOMAIN,
	FILTER_FLAG,
	FILTER_GROUP,
};

struct filter_term {
	enum filter_key	 key;
	int		 neg;
	char		*text;		/* lower case */
	unsigned	 flag;
	regex_t		*re;		/* allocated: terms move */
	struct filter_simple *simple;	/* a faster matcher, when possible */
	char		*lit;		/* a text every regex match contains */
	uint64_t	 sig[FILTER_SIG_WORDS];	/* of text, or of lit */
};

struct filter {
	struct filter_term *terms;
	size_t		 nterms;
};

static const struct {
	const char	*name;
	enum filter_key	 key;
} filter_keys[] = {
	{ "name",	FILTER_NAME },
	{ "re",		FILTER_RE },
	{ "domain",	FILTER_DOMAIN },
	{ "flag",	FILTER_FLAG },
	{ "group",	FILTER_GROUP },
};

static const struct {
	const char	*name;
	unsigned	 bit;
} filter_flags[] = {
	{ "verified",	FILTER_FLAG_VERIFIED },
	{ "unverified",	FILTER_FLAG_UNVERIFIED },
	{ "caveat",	FILTER_FLAG_CAVEAT },
	{ "broken",	FILTER_FLAG_BROKEN },
	{ "hidden",	FILTER_FLAG_HIDDEN },
	{ "picked",	FILTER_FLAG_PICKED },
};
#define FILTER_NFLAGS	(sizeof filter_flags / sizeof filter_flags[0])

const char *
filter_flag_name(unsigned bit)
{
	size_t	 i;

	for (i = 0; i < FILTER_NFLAGS; i++) {
		if (filter_flags[i].bit == bit)
			return (filter_flags[i].name);
	}
	return (NULL);
}

static char
filter_lower(char c)
{
	return (c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c);
}

static void
filter_lower_str(char *s)
{
	for (; *s != '\0'; s++)
		*s = filter_lower(*s);
}

static int
filter_space(char c)
{
	return (c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	    c == '\f' || c == '\v');
}

/* Does the key name equal word[0..len), ignoring ASCII case? */
static int
filter_keyeq(const char *name, const char *word, size_t len)
{
	size_t	 i;

	for (i = 0; i < len; i++) {
		if (name[i] == '\0' || name[i] != filter_lower(word[i]))
			return (0);
	}
	return (name[len] == '\0');
}

/* The flag a word names (a prefix, exact names first); 0 if none or many. */
static unsigned
filter_flag_lookup(const char *w)
{
	size_t		 i, len = strlen(w);
	unsigned	 bit = 0;
	int		 n = 0;

	for (i = 0; i < FILTER_NFLAGS; i++) {
		if (strcmp(filter_flags[i].name, w) == 0)
			return (filter_flags[i].bit);
		if (strncmp(filter_flags[i].name, w, len) == 0) {
			bit = filter_flags[i].bit;
			n++;
		}
	}
	return (n == 1 ? bit : 0);
}

/*
 * Positions glibc's automaton gets when a repetition is copied out: x{m,n}
 * and x{m,} hold max(m, n) and m + 1 copies of x, x* x+ x? about two.
 */
static unsigned long
filter_regex_copies(const char **pp)
{
	const char	*p = *pp;
	unsigned long	 b[2] = { 0, 0 };	/* {m,n} */
	int		 side = 0, upper = 0;

	if (*p != '{')
		return (2);
	while (*++p != '\0' && *p != '}') {
		if (*p == ',')
			side = 1;
		else if (*p >= '0' && *p <= '9') {
			upper |= side;
			if (b[side] <= FILTER_MAX_NODES)
				b[side] = b[side] * 10 +
				    (unsigned long)(*p - '0');
		}
	}
	*pp = *p == '\0' ? p - 1 : p;
	if (side && !upper)
		b[1] = b[0] + 1;
	b[1] = b[1] > b[0] ? b[1] : b[0];
	return (b[1] > 0 ? b[1] : 1);
}

static unsigned long
filter_mul_cap(unsigned long a, unsigned long k)
{
	return (k != 0 && a > FILTER_MAX_NODES / k ? FILTER_MAX_NODES + 1 :
	    a * k);
}

/* What filter_regex_bounded() counts, with repetitions copied out. */
enum filter_count {
	FILTER_C_NODES,		/* positions */
	FILTER_C_ANCHORS,	/* ^ $ \< \> \` \' */
	FILTER_C_WORDB,		/* \b \B */
	FILTER_NCOUNTS,
};

static const unsigned long filter_count_max[FILTER_NCOUNTS] = {
	FILTER_MAX_NODES, FILTER_MAX_ANCHORS, FILTER_MAX_WORDB,
};

static const char *const filter_count_why[FILTER_NCOUNTS] = {
	"more than " FILTER_STR(FILTER_MAX_NODES) " positions once "
	    "repetitions are copied out",
	"more than " FILTER_STR(FILTER_MAX_ANCHORS) " anchors (^ $ \\< \\>) "
	    "once repetitions are copied out",
	"more than " FILTER_STR(FILTER_MAX_WORDB) " word boundaries (\\b "
	    "\\B) once repetitions are copied out",
};

/* Add n to the counts at t: NULL, or why the pattern is refused. */
static const char *
filter_count_add(unsigned long *t, const unsigned long *n)
{
	int	 c;

	for (c = 0; c < FILTER_NCOUNTS; c++) {
		t[c] += n[c];
		if (t[c] > filter_count_max[c])
			return (filter_count_why[c]);
	}
	return (NULL);
}

/*
 * A regex that glibc would take a long time to compile or match is
 * refused: the filter is recompiled on every keystroke and matched on
 * every item.  glibc copies a repeated subexpression once per repetition,
 * so nested repetitions multiply: ((a?){128}){128} is 16,384 positions
 * and takes it 18 s and 2 GB.  The pattern's size with every repetition
 * copied out is capped, and so are the counted bounds' total and the
 * quantifiers; a quantifier may not follow another ("a++", undefined in
 * POSIX).  Anchors cost glibc more than positions, word boundaries far
 * more: \b written 64 times takes it 2 s to compile, (\b\b){80} 7 s,
 * ((^$^$^$^$^$^$^$^$){15}){15} 0.6 s; both are capped apart.  A
 * back-reference (\1 to \9) makes matching backtrack:
 * (.*)(.*)(.*)(.*)(.*)\5\4\3\2\1z takes glibc minutes and gigabytes on
 * one name, so none is taken.  Returns NULL, or why not (a constant).
 */
static const char *
filter_regex_bounded(const char *p)
{
	unsigned long	 tot[FILTER_MAX_DEPTH + 1][FILTER_NCOUNTS];
	unsigned long	 last[FILTER_MAX_DEPTH + 1][FILTER_NCOUNTS];
	unsigned long	 more[FILTER_NCOUNTS], sum = 0, k;
	const char	*q, *why;
	int		 quants = 0, groups = 0, after = 0, close = 0, d = 0;
	int		 c, kind;

	memset(tot[0], 0, sizeof tot[0]);
	memset(last[0], 0, sizeof last[0]);
	for (; *p != '\0'; p++) {
		if (*p == '*' || *p == '+' || *p == '?' || *p == '{') {
			if (after)
				return ("a quantifier after another");
			if (++quants > FILTER_MAX_QUANTS)
				return ("more than " FILTER_STR(
				    FILTER_MAX_QUANTS) " quantifiers");
			/* Each quantified group may double the automaton. */
			if (close && ++groups > FILTER_MAX_QGROUPS)
				return ("more than " FILTER_STR(
				    FILTER_MAX_QGROUPS) " quantified groups");
			after = 1;
			close = 0;
			q = p;
			k = filter_regex_copies(&p);
			if (*q == '{') {
				sum += k;
				if (sum > FILTER_MAX_REPEAT)
					return ("counted repetitions over "
					    FILTER_STR(FILTER_MAX_REPEAT)
					    " in all");
			}
			for (c = 0; c < FILTER_NCOUNTS; c++) {
				more[c] = filter_mul_cap(last[d][c], k - 1);
				last[d][c] = filter_mul_cap(last[d][c], k);
			}
			if ((why = filter_count_add(tot[d], more)) != NULL)
				return (why);
			continue;
		}
		after = close = 0;
		if (*p == '(') {
			if (d == FILTER_MAX_DEPTH)
				return ("groups nested more than "
				    FILTER_STR(FILTER_MAX_DEPTH) " deep");
			d++;
			memset(tot[d], 0, sizeof tot[d]);
			memset(last[d], 0, sizeof last[d]);
			continue;
		}
		if (*p == '|') {
			memset(last[d], 0, sizeof last[d]);
			continue;
		}
		kind = FILTER_C_NODES;
		if (*p == ')' && d > 0) {
			memcpy(last[d - 1], tot[d], sizeof last[d - 1]);
			last[d - 1][FILTER_C_NODES]++;
			d--;
			close = 1;
			/* The group as one atom: added below. */
			if ((why = filter_count_add(tot[d], last[d])) != NULL)
				return (why);
			continue;
		} else if (*p == '\\' && p[1] >= '1' && p[1] <= '9') {
			return ("a back-reference (\\1 to \\9): matching "
			    "one can take minutes");
		} else if (*p == '\\' && p[1] != '\0') {
			p++;
			if (*p == 'b' || *p == 'B')
				kind = FILTER_C_WORDB;
			else if (*p == '<' || *p == '>' || *p == '`' ||
			    *p == '\'')
				kind = FILTER_C_ANCHORS;
		} else if (*p == '[') {
			/* Quantifier characters are plain inside brackets. */
			p++;
			if (*p == '^')
				p++;
			if (*p == ']')
				p++;
			while (*p != '\0' && *p != ']')
				p++;
			if (*p == '\0')
				return (NULL);	/* regcomp reports it */
		} else if (*p == '^' || *p == '$')
			kind = FILTER_C_ANCHORS;
		memset(last[d], 0, sizeof last[d]);
		last[d][FILTER_C_NODES] = 1;
		last[d][kind] = 1;
		if ((why = filter_count_add(tot[d], last[d])) != NULL)
			return (why);
	}
	return (NULL);
}

/*
 * The ']' that closes the bracket expression opening at p, or NULL: a
 * leading ']' (after an optional '^') is a member, and "[:", "[." and
 * "[=" open classes that end with ":]", ".]" and "=]".
 */
static const char *
filter_bracket_end(const char *p)
{
	char	 c;

	p++;
	if (*p == '^')
		p++;
	if (*p == ']')
		p++;
	while (*p != '\0' && *p != ']') {
		if (*p == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
			c = p[1];
			for (p += 2; *p != '\0' && !(*p == c && p[1] == ']');
			    p++)
				;
			if (*p == '\0')
				return (NULL);
			p++;
		}
		p++;
	}
	return (*p == '\0' ? NULL : p);
}

/* The ')' that closes the group opening at p, or NULL. */
static const char *
filter_regex_group_end(const char *p)
{
	int	 depth = 0;

	for (; *p != '\0'; p++) {
		if (*p == '\\' && p[1] != '\0') {
			p++;
			continue;
		}
		if (*p == '[') {
			if ((p = filter_bracket_end(p)) == NULL)
				return (NULL);
			continue;
		}
		if (*p == '(')
			depth++;
		else if (*p == ')' && --depth == 0)
			return (p);
	}
	return (NULL);
}

/*
 * Whether a pattern is plain ASCII.  What bytes above 0x7f mean (and
 * how they fold case) depends on the locale, which only regexec() knows,
 * so the fast paths leave such patterns to it.
 */
static int
filter_ascii(const char *p)
{
	for (; *p != '\0'; p++) {
		if ((unsigned char)*p > 0x7f)
			return (0);
	}
	return (1);
}

/*
 * Whether a pattern's top level is one branch the literal scan can
 * read: no '|' outside groups, every bracket expression closed, and no
 * ')' without its '('.
 */
static int
filter_regex_one_branch(const char *p)
{
	const char	*q;
	int		 depth = 0;

	for (q = p; *q != '\0'; q++) {
		if (*q == '\\' && q[1] != '\0')
			q++;
		else if (*q == '[') {
			if ((q = filter_bracket_end(q)) == NULL)
				return (0);
		} else if (*q == '(')
			depth++;
		else if (*q == ')') {
			/* An unmatched ')' is a plain character to glibc:
			 * then nesting says nothing; give up. */
			if (--depth < 0)
				return (0);
		} else if (*q == '|' && depth == 0)
			return (0);
	}
	return (1);
}

/* The ']' of the bracket expression at q, in a pattern known closed. */
static const char *
filter_regex_bracket_skip(const char *q)
{
	char	 c;

	q++;
	if (*q == '^')
		q++;
	if (*q == ']')
		q++;
	while (*q != ']') {
		if (*q == '[' && (q[1] == ':' || q[1] == '.' || q[1] == '=')) {
			c = q[1];
			for (q += 2; !(*q == c && q[1] == ']'); q++)
				;
			q++;
		}
		q++;
	}
	return (q);
}

/* Keep run as the best so far when it is longer. */
static void
filter_regex_keep(char *best, size_t *nb, const char *run, size_t n)
{
	if (n > *nb) {
		memcpy(best, run, n);
		*nb = n;
	}
}

/*
 * The longest run of plain characters that every match of an extended
 * regex must contain, lower-cased, or NULL when none is certain.  Only a
 * pattern without a top-level '|' is looked at; anything unusual ends a
 * run.  The run lets most entries be rejected by strstr() before the
 * comparatively slow regexec() runs, which keeps a keystroke in the filter
 * bar cheap on a large catalog.
 */
static char *
filter_regex_literal(const char *p)
{
	const char	*q;
	char		 run[FILTER_MAX_REGEX + 1], best[FILTER_MAX_REGEX + 1];
	size_t		 n = 0, nb = 0;
	char		 c;

	if (!filter_ascii(p) || !filter_regex_one_branch(p))
		return (NULL);
	for (q = p; *q != '\0'; q++) {
		c = *q;
		if (c == '\\' && q[1] != '\0' &&
		    strchr(FILTER_RE_SPECIAL, q[1]) != NULL) {
			c = *++q;
		} else if (c == '\\' && q[1] != '\0') {
			/* \w, \<, \' ...: not a plain character. */
			q++;
			filter_regex_keep(best, &nb, run, n);
			n = 0;
			continue;
		} else if (c == '\\' || c == '.' || c == '[' || c == '(' ||
		    c == ')' || c == '^' || c == '$' || c == '|' ||
		    c == '*' || c == '+' || c == '?' || c == '{') {
			/* A quantifier makes the last character optional
			 * (or repeated): the run ends before or after it. */
			if ((c == '*' || c == '?' || c == '{') && n > 0)
				n--;
			filter_regex_keep(best, &nb, run, n);
			n = 0;
			if (c == '[')
				q = filter_regex_bracket_skip(q);
			else if (c == '{') {
				while (*q != '\0' && *q != '}')
					q++;
				if (*q == '\0')
					break;
			} else if (c == '(') {
				/* A group may hold alternatives or be made
				 * optional: nothing in it is certain. */
				if ((q = filter_regex_group_end(q)) == NULL)
					break;
			}
			continue;
		}
		run[n++] = filter_lower(c);
	}
	filter_regex_keep(best, &nb, run, n);
	if (nb == 0)
		return (NULL);
	return (xstrndup(best, nb));
}

/*
 * A matcher for the regexes people type into a filter bar: characters,
 * '.', bracket expressions without classes, the quantifiers ? * +, and
 * ^ and $ at the ends.  For those it gives the same answer as regexec()
 * (only whether there is a match is asked, so POSIX's leftmost-longest
 * rule does not matter) without regexec()'s per-call allocation, which
 * dominates on short catalog names.  Anything else (groups, alternation,
 * counted repetition, classes, back-slash words) is left to regexec(); so
 * is a match that takes more than FILTER_SIMPLE_STEPS steps.
 */
#define FILTER_SIMPLE_TOKS	64
#define FILTER_SIMPLE_STEPS	20000
#define FILTER_SIMPLE_LOOPS	2	/* unbounded quantifiers allowed */

enum { FS_ONE, FS_OPT, FS_STAR, FS_PLUS };

struct filter_tok {
	uint8_t		 quant;
	uint8_t		 set[32];	/* bytes it matches */
};

struct filter_simple {
	struct filter_tok tok[FILTER_SIMPLE_TOKS];
	size_t		 n;
	int		 bol;
	int		 eol;
};

static void
filter_set_add(uint8_t *set, unsigned c)
{
	c = (unsigned char)filter_lower((char)c);
	set[c / 8] |= (uint8_t)(1U << (c % 8));
}

/*
 * The bracket expression at p[*ip] into t's set, *ip moved past its
 * ']'.  Returns -1 for what only regexec() gets right: classes, an open
 * bracket, a range that depends on the collation order.
 */
static int
filter_simple_bracket(struct filter_tok *t, const char *p, size_t len,
    size_t *ip)
{
	size_t		 i = *ip + 1;
	unsigned	 lo, hi;
	int		 neg, j;

	neg = i < len && p[i] == '^';
	if (neg)
		i++;
	if (i < len && p[i] == ']')
		filter_set_add(t->set, (unsigned char)p[i++]);
	while (i < len && p[i] != ']') {
		if (p[i] == '[' && i + 1 < len && (p[i + 1] == ':' ||
		    p[i + 1] == '.' || p[i + 1] == '='))
			return (-1);
		lo = (unsigned char)p[i++];
		hi = lo;
		if (i + 1 < len && p[i] == '-' && p[i + 1] != ']') {
			hi = (unsigned char)p[i + 1];
			i += 2;
		}
		/* Ranges within one class of letters or digits, in
		 * order, only: others depend on the collation order. */
		if (hi != lo && !(lo < hi &&
		    ((lo >= 'a' && hi <= 'z') ||
		    (lo >= 'A' && lo <= 'Z' && hi <= 'Z') ||
		    (lo >= '0' && lo <= '9' && hi <= '9'))))
			return (-1);
		for (; lo <= hi; lo++)
			filter_set_add(t->set, lo);
	}
	if (i >= len)
		return (-1);
	*ip = i + 1;
	if (neg) {
		for (j = 0; j < 32; j++)
			t->set[j] = (uint8_t)~t->set[j];
		t->set[0] &= (uint8_t)~1U;
	}
	return (0);
}

static struct filter_simple *
filter_simple_compile(const char *p)
{
	struct filter_simple	*fs;
	struct filter_tok	*t;
	size_t			 len = strlen(p), i = 0;
	unsigned		 c;
	int			 loops = 0;

	if (!filter_ascii(p))
		return (NULL);
	fs = xcalloc(1, sizeof *fs);
	if (i < len && p[i] == '^') {
		fs->bol = 1;
		i++;
	}
	if (len > i && p[len - 1] == '$' && (len < 2 || p[len - 2] != '\\')) {
		fs->eol = 1;
		len--;
	}
	while (i < len) {
		c = (unsigned char)p[i];
		if (c == '?' || c == '*' || c == '+') {
			if (fs->n == 0 || fs->tok[fs->n - 1].quant != FS_ONE)
				goto unsupported;
			fs->tok[fs->n - 1].quant = c == '?' ? FS_OPT :
			    c == '*' ? FS_STAR : FS_PLUS;
			if (c != '?' && ++loops > FILTER_SIMPLE_LOOPS)
				goto unsupported;
			i++;
			continue;
		}
		if (fs->n == FILTER_SIMPLE_TOKS)
			goto unsupported;
		t = &fs->tok[fs->n++];
		t->quant = FS_ONE;
		if (c == '.') {
			memset(t->set, 0xff, sizeof t->set);
			t->set[0] &= (uint8_t)~1U;	/* never NUL */
			i++;
		} else if (c == '[') {
			if (filter_simple_bracket(t, p, len, &i) != 0)
				goto unsupported;
		} else if (c == '\\') {
			if (i + 1 >= len)
				goto unsupported;
			c = (unsigned char)p[i + 1];
			/* Only escaped specials are plain: glibc gives
			 * \< \> \` \' \w \b ... meanings of their own. */
			if (strchr(FILTER_RE_SPECIAL, (int)c) == NULL)
				goto unsupported;
			filter_set_add(t->set, c);
			i += 2;
		} else if (c == '(' || c == ')' || c == '|' || c == '{' ||
		    c == '^' || c == '$' || c >= 0x80)
			goto unsupported;
		else {
			filter_set_add(t->set, c);
			i++;
		}
	}
	return (fs);
unsupported:
	free(fs);
	return (NULL);
}

/*
 * Does token t take the byte at s?  1, 0, or -1 for a byte above 0x7f met
 * by '.' or a negated set: in a UTF-8 locale regexec() reads a whole
 * character there, so the answer is left to it.
 */
static int
filter_tok_has(const struct filter_tok *t, const char *s)
{
	unsigned	 c = (unsigned char)*s;

	if (c == 0)
		return (0);
	if ((t->set[c / 8] & (1U << (c % 8))) == 0)
		return (0);
	return (c >= 0x80 ? -1 : 1);
}

/* Match toks at s: 1, 0, or -1 when unsure or *steps ran out. */
static int
filter_simple_here(const struct filter_simple *fs, size_t k, const char *s,
    long *steps)
{
	const struct filter_tok	*t;
	int			 r, h;

	for (;;) {
		if (--*steps < 0)
			return (-1);
		if (k == fs->n)
			return (!fs->eol || *s == '\0');
		t = &fs->tok[k];
		switch (t->quant) {
		case FS_ONE:
			if ((h = filter_tok_has(t, s)) <= 0)
				return (h);
			k++;
			s++;
			continue;
		case FS_OPT:
			if ((h = filter_tok_has(t, s)) < 0)
				return (h);
			if (h && (r = filter_simple_here(fs, k + 1, s + 1,
			    steps)) != 0)
				return (r);
			k++;
			continue;
		case FS_PLUS:
			if ((h = filter_tok_has(t, s)) <= 0)
				return (h);
			s++;
			/* FALLTHROUGH */
		case FS_STAR:
			for (;;) {
				if ((r = filter_simple_here(fs, k + 1, s,
				    steps)) != 0)
					return (r);
				if ((h = filter_tok_has(t, s)) <= 0)
					return (h);
				s++;
			}
		}
		return (0);
	}
}

/* 1 match, 0 none, -1 too much work (ask regexec). */
static int
filter_simple_match(const struct filter_simple *fs, const char *s)
{
	long	 steps = FILTER_SIMPLE_STEPS;
	int	 r;

	if (fs->bol)
		return (filter_simple_here(fs, 0, s, &steps));
	for (;; s++) {
		if ((r = filter_simple_here(fs, 0, s, &steps)) != 0)
			return (r);
		if (*s == '\0')
			return (0);
	}
}

static void
filter_term_free(struct filter_term *t)
{
	free(t->lit);
	free(t->text);
	if (t->re != NULL) {
		regfree(t->re);
		free(t->re);
	}
	free(t->simple);
}

void
filter_free(struct filter *f)
{
	size_t	 i;

	if (f == NULL)
		return;
	for (i = 0; i < f->nterms; i++)
		filter_term_free(&f->terms[i]);
	free(f->terms);
	free(f);
}

int
filter_empty(const struct filter *f)
{
	return (f == NULL || f->nterms == 0);
}

unsigned
filter_flags_wanted(const struct filter *f)
{
	unsigned	 bits = 0;
	size_t		 i;

	for (i = 0; f != NULL && i < f->nterms; i++) {
		if (f->terms[i].key == FILTER_FLAG && !f->terms[i].neg)
			bits |= f->terms[i].flag;
	}
	return (bits);
}

/*
 * Read one term starting at text[*pos] (not white space).  Quotes group
 * and are removed; inside them \" is a quote.  Returns 0 with *word set
 * (caller frees), or -HV_EFORMAT with *cause.
 */
static int
filter_read_word(const char *text, size_t *pos, char **word, char **cause)
{
	struct strbuf	 sb = { 0 };
	size_t		 i = *pos, open = 0;
	int		 quoted = 0;

	while (text[i] != '\0' && (quoted || !filter_space(text[i]))) {
		if (text[i] == '"') {
			quoted = !quoted;
			open = i;
			i++;
			continue;
		}
		if (quoted && text[i] == '\\' && text[i + 1] == '"') {
			strbuf_addc(&sb, '"');
			i += 2;
			continue;
		}
		strbuf_addc(&sb, text[i++]);
	}
	if (quoted) {
		strbuf_free(&sb);
		*cause = xasprintf("unterminated quote (column %zu)", open + 1);
		return (-HV_EFORMAT);
	}
	*word = sb.s != NULL ? strbuf_detach(&sb) : xstrdup("");
	*pos = i;
	return (0);
}

/* Fill t from a word (negation already removed); col for messages. */
static int
filter_term_make(struct filter_term *t, char *word, size_t col,
    char **cause)
{
	const char	*colon, *val = word, *why;
	char		 buf[128];
	size_t		 i, klen;
	int		 error;

	t->key = FILTER_WORD;
	if ((colon = strchr(word, ':')) != NULL) {
		klen = (size_t)(colon - word);
		for (i = 0; i < sizeof filter_keys / sizeof filter_keys[0];
		    i++) {
			if (filter_keyeq(filter_keys[i].name, word, klen)) {
				t->key = filter_keys[i].key;
				val = colon + 1;
				break;
			}
		}
	}
	if (*val == '\0') {
		*cause = xasprintf("%s needs a value (column %zu)",
		    t->key == FILTER_WORD ? "an empty word" : word, col);
		return (-HV_EFORMAT);
	}
	switch (t->key) {
	case FILTER_RE:
		if (strlen(val) > FILTER_MAX_REGEX) {
			*cause = xasprintf("regex longer than %d bytes "
			    "(column %zu)", FILTER_MAX_REGEX, col);
			return (-HV_ELIMIT);
		}
		if ((why = filter_regex_bounded(val)) != NULL) {
			*cause = xasprintf("regex refused: %s (column %zu)",
			    why, col);
			return (-HV_ELIMIT);
		}
		t->re = xmalloc(sizeof *t->re);
		error = regcomp(t->re, val, REG_EXTENDED | REG_ICASE |
		    REG_NOSUB);
		if (error != 0) {
			regerror(error, t->re, buf, sizeof buf);
			regfree(t->re);
			free(t->re);
			t->re = NULL;
			*cause = xasprintf("regex %s: %s (column %zu)", val,
			    buf, col);
			return (-HV_EFORMAT);
		}
		t->simple = filter_simple_compile(val);
		t->lit = filter_regex_literal(val);
		if (t->lit != NULL)
			filter_sig_add(t->sig, t->lit);
		break;
	case FILTER_FLAG:
		t->text = xstrdup(val);
		filter_lower_str(t->text);
		if ((t->flag = filter_flag_lookup(t->text)) == 0) {
			*cause = xasprintf("flag:%s: use verified, unverified, "
			    "caveat, broken, hidden or picked (column %zu)",
			    val, col);
			return (-HV_EFORMAT);
		}
		return (0);
	default:
		break;
	}
	t->text = xstrdup(val);
	filter_lower_str(t->text);
	if (t->key == FILTER_WORD || t->key == FILTER_NAME)
		filter_sig_add(t->sig, t->text);
	return (0);
}

/* Regex terms last: AND does not care, and the others are cheaper. */
static void
filter_order(struct filter *f)
{
	struct filter_term	 t;
	size_t			 i, j;

	for (i = 1; i < f->nterms; i++) {
		t = f->terms[i];
		for (j = i; j > 0 && f->terms[j - 1].key == FILTER_RE &&
		    t.key != FILTER_RE; j--)
			f->terms[j] = f->terms[j - 1];
		f->terms[j] = t;
	}
}

int
filter_parse(const char *text, struct filter **out, char **cause)
{
	struct filter		*f;
	struct filter_term	*t;
	size_t			 pos = 0, col;
	char			*word;
	int			 neg, error;

	if (strlen(text) > FILTER_MAX_TEXT) {
		*cause = xasprintf("filter longer than %d bytes",
		    FILTER_MAX_TEXT);
		return (-HV_ELIMIT);
	}
	f = xcalloc(1, sizeof *f);
	for (;;) {
		while (filter_space(text[pos]))
			pos++;
		if (text[pos] == '\0')
			break;
		col = pos + 1;
		neg = 0;
		while (text[pos] == '!') {
			neg = !neg;
			pos++;
		}
		if (text[pos] == '\0' || filter_space(text[pos])) {
			*cause = xasprintf("! needs a term after it (column "
			    "%zu)", col);
			error = -HV_EFORMAT;
			goto fail;
		}
		if (f->nterms == FILTER_MAX_TERMS) {
			*cause = xasprintf("more than %d terms (column %zu)",
			    FILTER_MAX_TERMS, col);
			error = -HV_ELIMIT;
			goto fail;
		}
		if ((error = filter_read_word(text, &pos, &word, cause)) != 0)
			goto fail;
		f->terms = xreallocarray(f->terms, f->nterms + 1,
		    sizeof *f->terms);
		t = &f->terms[f->nterms];
		memset(t, 0, sizeof *t);
		t->neg = neg;
		error = filter_term_make(t, word, col, cause);
		free(word);
		if (error != 0) {
			filter_term_free(t);
			goto fail;
		}
		f->nterms++;
	}
	filter_order(f);
	*out = f;
	return (0);
fail:
	filter_free(f);
	return (error);
}

static unsigned
filter_sig_bit(unsigned char a, unsigned char b)
{
	return (((a * 0x9e37U) ^ (b * 0x7f4bU) ^ (a >> 3)) %
	    (FILTER_SIG_WORDS * 64));
}

void
filter_sig_add(uint64_t *sig, const char *text)
{
	const unsigned char	*p = (const unsigned char *)text;
	unsigned		 bit;

	if (p == NULL)
		return;
	for (; p[0] != '\0' && p[1] != '\0'; p++) {
		bit = filter_sig_bit(p[0], p[1]);
		sig[bit / 64] |= UINT64_C(1) << (bit % 64);
	}
}

/* Can a text with signature have contain what t looks for? */
static int
filter_sig_may(const struct filter_term *t, const uint64_t *have)
{
	size_t	 i;

	if (have == NULL)
		return (1);
	for (i = 0; i < FILTER_SIG_WORDS; i++) {
		if ((t->sig[i] & ~have[i]) != 0)
			return (0);
	}
	return (1);
}

/*
 * strstr() for short needles in short texts: find the first character
 * with strchr() (vectorised in the C library) and compare the rest.  On
 * catalog names and descriptions this is several times faster than
 * strstr(), whose setup costs more than the search.
 */
static int
filter_has(const char *hay, const char *needle)
{
	const char	*p = hay;
	size_t		 n;

	if (hay == NULL)
		return (0);
	if (needle[0] == '\0')
		return (1);
	n = strlen(needle + 1);
	while ((p = strchr(p, needle[0])) != NULL) {
		if (strncmp(p + 1, needle + 1, n) == 0)
			return (1);
		p++;
	}
	return (0);
}

static int
filter_re(const struct filter_term *t, const char *hay, const uint64_t *sig)
{
	int	 r;

	if (hay == NULL)
		return (0);
	if (t->lit != NULL && (!filter_sig_may(t, sig) ||
	    !filter_has(hay, t->lit)))
		return (0);
	if (t->simple != NULL) {
		r = filter_simple_match(t->simple, hay);
		if (r >= 0)
			return (r);
	}
	return (regexec(t->re, hay, 0, NULL, 0) == 0);
}

static int
filter_term_match(const struct filter_term *t, const struct filter_item *it)
{
	size_t	 i;

	switch (t->key) {
	case FILTER_WORD:
		return ((filter_sig_may(t, it->name_sig) &&
		    filter_has(it->name, t->text)) ||
		    (filter_sig_may(t, it->desc_sig) &&
		    filter_has(it->desc, t->text)));
	case FILTER_NAME:
		return (filter_sig_may(t, it->name_sig) &&
		    filter_has(it->name, t->text));
	case FILTER_RE:
		return (filter_re(t, it->name, it->name_sig) ||
		    filter_re(t, it->desc, it->desc_sig));
	case FILTER_DOMAIN:
		return (it->domain != NULL &&
		    strncmp(it->domain, t->text, strlen(t->text)) == 0);
	case FILTER_FLAG:
		return ((it->flags & t->flag) != 0);
	case FILTER_GROUP:
		for (i = 0; i < it->ngroups; i++) {
			if (filter_has(it->groups[i], t->text))
				return (1);
		}
		return (0);
	}
	return (0);
}

int
filter_match(const struct filter *f, const struct filter_item *it)
{
	size_t	 i;

	if (f == NULL)
		return (1);
	for (i = 0; i < f->nterms; i++) {
		if (filter_term_match(&f->terms[i], it) == f->terms[i].neg)
			return (0);
	}
	return (1);
}

int
filter_regex_agrees(const char *pattern, const char *text)
{
	struct filter_simple	*fs;
	regex_t			 re;
	char			*lit;
	int			 a, b;

	if (filter_regex_bounded(pattern) != NULL || strlen(pattern) >
	    FILTER_MAX_REGEX)
		return (-1);
	if (regcomp(&re, pattern, REG_EXTENDED | REG_ICASE | REG_NOSUB) != 0)
		return (-1);
	a = regexec(&re, text, 0, NULL, 0) == 0;
	regfree(&re);
	/* A match contains the literal the prefilter looks for. */
	if (a && (lit = filter_regex_literal(pattern)) != NULL) {
		b = filter_has(text, lit);
		free(lit);
		if (!b)
			return (0);
	}
	if ((fs = filter_simple_compile(pattern)) == NULL)
		return (1);
	b = filter_simple_match(fs, text);
	free(fs);
	return (b < 0 || a == b);
}
