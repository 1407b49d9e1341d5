/*
 * The filter's regex engine: what filter.c asks of a re: pattern before
 * and instead of regexec().  A pattern is refused when glibc's automaton
 * for it would grow too large; the literal every match must contain lets
 * most texts be skipped by a substring search; simple patterns are
 * matched without regexec().  Pure.
 */
#include "config.h"

#include "filter/filter-int.h"

#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "filter/filter.h"
#include "util/xalloc.h"

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
filter_regex_mul_cap(unsigned long a, unsigned long k)
{
	return (k != 0 && a > FILTER_MAX_NODES / k ? FILTER_MAX_NODES + 1 :
	    a * k);
}

/* What filter_regex_bounded() counts, with repetitions copied out. */
enum filter_regex_count {
	FILTER_C_NODES,		/* positions */
	FILTER_C_ANCHORS,	/* ^ $ \< \> \` \' */
	FILTER_C_WORDB,		/* \b \B */
	FILTER_NCOUNTS,
};

static const unsigned long filter_regex_count_max[FILTER_NCOUNTS] = {
	FILTER_MAX_NODES, FILTER_MAX_ANCHORS, FILTER_MAX_WORDB,
};

static const char *const filter_regex_count_why[FILTER_NCOUNTS] = {
	"more than " FILTER_STR(FILTER_MAX_NODES) " positions once "
	    "repetitions are copied out",
	"more than " FILTER_STR(FILTER_MAX_ANCHORS) " anchors (^ $ \\< \\>) "
	    "once repetitions are copied out",
	"more than " FILTER_STR(FILTER_MAX_WORDB) " word boundaries (\\b "
	    "\\B) once repetitions are copied out",
};

/* Add n to the counts at t: NULL, or why the pattern is refused. */
static const char *
filter_regex_count_add(unsigned long *t, const unsigned long *n)
{
	int	 c;

	for (c = 0; c < FILTER_NCOUNTS; c++) {
		t[c] += n[c];
		if (t[c] > filter_regex_count_max[c])
			return (filter_regex_count_why[c]);
	}
	return (NULL);
}

static const char *filter_regex_bracket_end(const char *);

/* A quantifier's least count: 0 for ? * and {0,n}; *loop set for * + and
 * {m,}.  *pp is moved to the quantifier's last character. */
static unsigned long
filter_regex_least(const char **pp, int *loop)
{
	const char	*p = *pp;
	unsigned long	 m = 0;

	*loop = *p == '*' || *p == '+';
	if (*p != '{')
		return (*p == '+' ? 1 : 0);
	while (*++p >= '0' && *p <= '9')
		m = m < 10000 ? m * 10 + (unsigned long)(*p - '0') : m;
	*loop = *p == ',' && p[1] == '}';
	while (*p != '\0' && *p != '}')
		p++;
	*pp = *p == '\0' ? p - 1 : p;
	return (m);
}

/*
 * Whether some loop (* + {m,}) repeats what can match the empty text
 * ((a*)*, (x?|^)+, ((a?){1,4}){2,}).  Such a loop is a cycle of empty
 * moves in glibc's automaton, whose closure it then computes again
 * along every path into the cycle, not once: nested counted or optional
 * groups around or inside it multiply the paths, so 29 bytes,
 * ((((a*)*){1,4}){1,4}){1,4}, take it minutes with fewer than 500
 * positions, which no count of positions sees.  Without such a loop
 * each closure is computed once.  Zero-width assertions (^ $ \b \< ...)
 * match the empty text.  Returns NULL, or why not (a constant).
 */
static const char *
filter_regex_empty_loop(const char *p)
{
	int	 branch[FILTER_MAX_DEPTH + 1];	/* the branch so far: empty? */
	int	 group[FILTER_MAX_DEPTH + 1];	/* an earlier branch empty? */
	unsigned long least;
	int	 d = 0, atom = -1, loop;	/* -1: no atom, else empty? */

	branch[0] = 1;
	group[0] = 0;
	for (; *p != '\0'; p++) {
		if (*p == '*' || *p == '+' || *p == '?' || *p == '{') {
			least = filter_regex_least(&p, &loop);
			if (loop && atom == 1)
				return ("a loop (* + {m,}) of what can match "
				    "nothing, as (a?)*: glibc can take "
				    "minutes to compile one");
			if (least == 0 && atom != -1)
				atom = 1;
			continue;
		}
		if (atom != -1)
			branch[d] &= atom != 0;
		atom = -1;
		if (*p == '(' && d < FILTER_MAX_DEPTH) {
			branch[++d] = 1;
			group[d] = 0;
		} else if (*p == '|') {
			group[d] |= branch[d];
			branch[d] = 1;
		} else if (*p == ')' && d > 0) {
			atom = group[d] | branch[d];
			d--;
		} else if (*p == '\\' && p[1] != '\0') {
			p++;
			atom = strchr("bB<>`'", *p) != NULL;
		} else if (*p == '[') {
			if ((p = filter_regex_bracket_end(p)) == NULL)
				return (NULL);	/* regcomp reports it */
			atom = 0;
		} else
			atom = *p == '^' || *p == '$';
	}
	return (NULL);
}

/*
 * Copy out the repetition at *pp of the atom whose counts are last,
 * adding the copies to tot and a counted bound to *sum; *pp is moved to
 * the quantifier's last character.  Returns NULL, or why not.
 */
static const char *
filter_regex_repeat(const char **pp, unsigned long *sum, unsigned long *last,
    unsigned long *tot)
{
	unsigned long	 more[FILTER_NCOUNTS], k;
	const char	*q = *pp;
	int		 c;

	k = filter_regex_copies(pp);
	if (*q == '{') {
		*sum += k;
		if (*sum > FILTER_MAX_REPEAT)
			return ("counted repetitions over "
			    FILTER_STR(FILTER_MAX_REPEAT) " in all");
	}
	for (c = 0; c < FILTER_NCOUNTS; c++) {
		more[c] = filter_regex_mul_cap(last[c], k - 1);
		last[c] = filter_regex_mul_cap(last[c], k);
	}
	return (filter_regex_count_add(tot, more));
}

/*
 * What the atom at *pp counts as (FILTER_C_*), moving *pp to its last
 * character; or -1 with *why: a refusal, or NULL for a bracket left open,
 * which regcomp reports.
 */
static int
filter_regex_atom(const char **pp, const char **why)
{
	const char	*p = *pp;
	int		 kind = FILTER_C_NODES;

	if (*p == '\\' && p[1] >= '1' && p[1] <= '9') {
		*why = "a back-reference (\\1 to \\9): matching one can "
		    "take minutes";
		return (-1);
	} else if (*p == '\\' && p[1] != '\0') {
		p++;
		if (*p == 'b' || *p == 'B')
			kind = FILTER_C_WORDB;
		else if (*p == '<' || *p == '>' || *p == '`' || *p == '\'')
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
		if (*p == '\0') {
			*why = NULL;
			return (-1);
		}
	} else if (*p == '^' || *p == '$')
		kind = FILTER_C_ANCHORS;
	*pp = p;
	return (kind);
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
 * ((^$^$^$^$^$^$^$^$){15}){15} 0.6 s; both are capped apart.  With
 * alternatives beside them a repeated group of anchors grows glibc's
 * automaton by the square: ((^$||||||||||||||||||||||||||^$){22}) takes
 * it 7 GB, so ^ or $ and | in one repeated group are refused.  A
 * back-reference (\1 to \9) makes matching backtrack:
 * (.*)(.*)(.*)(.*)(.*)\5\4\3\2\1z takes glibc minutes and gigabytes on
 * one name, so none is taken.  Returns NULL, or why not (a constant).
 */
const char *
filter_regex_bounded(const char *p)
{
	unsigned long	 tot[FILTER_MAX_DEPTH + 1][FILTER_NCOUNTS];
	unsigned long	 last[FILTER_MAX_DEPTH + 1][FILTER_NCOUNTS];
	unsigned long	 sum = 0;
	const char	*start = p, *why;
	int		 alt[FILTER_MAX_DEPTH + 1];	/* a '|' inside */
	int		 quants = 0, groups = 0, after = 0, close = 0, d = 0;
	int		 kind, last_alt = 0;

	memset(tot[0], 0, sizeof tot[0]);
	memset(last[0], 0, sizeof last[0]);
	alt[0] = 0;
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
			if (close && last_alt &&
			    last[d][FILTER_C_ANCHORS] != 0)
				return ("anchors (^ $) and alternatives (|) "
				    "in one repeated group");
			after = 1;
			close = 0;
			why = filter_regex_repeat(&p, &sum, last[d], tot[d]);
			if (why != NULL)
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
			alt[d] = 0;
			continue;
		}
		if (*p == '|') {
			memset(last[d], 0, sizeof last[d]);
			alt[d] = 1;
			continue;
		}
		if (*p == ')' && d > 0) {
			memcpy(last[d - 1], tot[d], sizeof last[d - 1]);
			last[d - 1][FILTER_C_NODES]++;
			last_alt = alt[d];
			d--;
			alt[d] |= last_alt;
			close = 1;
			/* The group as one atom: added below. */
			if ((why = filter_regex_count_add(tot[d], last[d])) != NULL)
				return (why);
			continue;
		}
		if ((kind = filter_regex_atom(&p, &why)) == -1)
			return (why);
		memset(last[d], 0, sizeof last[d]);
		last[d][FILTER_C_NODES] = 1;
		last[d][kind] = 1;
		if ((why = filter_regex_count_add(tot[d], last[d])) != NULL)
			return (why);
	}
	return (filter_regex_empty_loop(start));
}

/*
 * The ']' that closes the bracket expression opening at p, or NULL: a
 * leading ']' (after an optional '^') is a member, and "[:", "[." and
 * "[=" open classes that end with ":]", ".]" and "=]".
 */
static const char *
filter_regex_bracket_end(const char *p)
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
			if ((p = filter_regex_bracket_end(p)) == NULL)
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
filter_regex_ascii(const char *p)
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
			if ((q = filter_regex_bracket_end(q)) == NULL)
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
char *
filter_regex_literal(const char *p)
{
	const char	*q;
	char		 run[FILTER_MAX_REGEX + 1], best[FILTER_MAX_REGEX + 1];
	size_t		 n = 0, nb = 0;
	char		 c;

	if (!filter_regex_ascii(p) || !filter_regex_one_branch(p))
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

struct filter_regex_tok {
	uint8_t		 quant;
	uint8_t		 set[32];	/* bytes it matches */
};

struct filter_regex_simple {
	struct filter_regex_tok tok[FILTER_SIMPLE_TOKS];
	size_t		 n;
	int		 bol;
	int		 eol;
};

static void
filter_regex_set_add(uint8_t *set, unsigned c)
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
filter_regex_simple_bracket(struct filter_regex_tok *t, const char *p,
    size_t len,
    size_t *ip)
{
	size_t		 i = *ip + 1;
	unsigned	 lo, hi;
	int		 neg, j;

	neg = i < len && p[i] == '^';
	if (neg)
		i++;
	if (i < len && p[i] == ']')
		filter_regex_set_add(t->set, (unsigned char)p[i++]);
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
			filter_regex_set_add(t->set, lo);
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

struct filter_regex_simple *
filter_regex_simple_compile(const char *p)
{
	struct filter_regex_simple	*fs;
	struct filter_regex_tok		*t;
	size_t				 len = strlen(p), i = 0;
	unsigned			 c;
	int				 loops = 0;

	if (!filter_regex_ascii(p))
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
			if (filter_regex_simple_bracket(t, p, len, &i) != 0)
				goto unsupported;
		} else if (c == '\\') {
			if (i + 1 >= len)
				goto unsupported;
			c = (unsigned char)p[i + 1];
			/* Only escaped specials are plain: glibc gives
			 * \< \> \` \' \w \b ... meanings of their own. */
			if (strchr(FILTER_RE_SPECIAL, (int)c) == NULL)
				goto unsupported;
			filter_regex_set_add(t->set, c);
			i += 2;
		} else if (c == '(' || c == ')' || c == '|' || c == '{' ||
		    c == '^' || c == '$' || c >= 0x80)
			goto unsupported;
		else {
			filter_regex_set_add(t->set, c);
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
filter_regex_tok_has(const struct filter_regex_tok *t, const char *s)
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
filter_regex_simple_here(const struct filter_regex_simple *fs, size_t k,
    const char *s,
    long *steps)
{
	const struct filter_regex_tok	*t;
	int				 r, h;

	for (;;) {
		if (--*steps < 0)
			return (-1);
		if (k == fs->n)
			return (!fs->eol || *s == '\0');
		t = &fs->tok[k];
		switch (t->quant) {
		case FS_ONE:
			if ((h = filter_regex_tok_has(t, s)) <= 0)
				return (h);
			k++;
			s++;
			continue;
		case FS_OPT:
			if ((h = filter_regex_tok_has(t, s)) < 0)
				return (h);
			if (h && (r = filter_regex_simple_here(fs, k + 1, s + 1,
			    steps)) != 0)
				return (r);
			k++;
			continue;
		case FS_PLUS:
			if ((h = filter_regex_tok_has(t, s)) <= 0)
				return (h);
			s++;
			/* FALLTHROUGH */
		case FS_STAR:
			for (;;) {
				if ((r = filter_regex_simple_here(fs, k + 1, s,
				    steps)) != 0)
					return (r);
				if ((h = filter_regex_tok_has(t, s)) <= 0)
					return (h);
				s++;
			}
		}
		return (0);
	}
}

/* 1 match, 0 none, -1 too much work (ask regexec). */
int
filter_regex_simple_match(const struct filter_regex_simple *fs, const char *s)
{
	long	 steps = FILTER_SIMPLE_STEPS;
	int	 r;

	if (fs->bol)
		return (filter_regex_simple_here(fs, 0, s, &steps));
	for (;; s++) {
		if ((r = filter_regex_simple_here(fs, 0, s, &steps)) != 0)
			return (r);
		if (*s == '\0')
			return (0);
	}
}

int
filter_regex_agrees(const char *pattern, const char *text)
{
	struct filter_regex_simple	*fs;
	regex_t				 re;
	char				*lit;
	int				 a, b;

	if (filter_regex_bounded(pattern) != NULL || strlen(pattern) >
	    FILTER_MAX_REGEX)
		return (-1);
	if (regcomp(&re, pattern, REG_EXTENDED | REG_ICASE | REG_NOSUB) != 0)
		return (-1);
	a = regexec(&re, text, 0, NULL, 0) == 0;
	regfree(&re);
	/* A match contains the literal the prefilter looks for. */
	if (a && (lit = filter_regex_literal(pattern)) != NULL) {
		b = strstr(text, lit) != NULL;
		free(lit);
		if (!b)
			return (0);
	}
	if ((fs = filter_regex_simple_compile(pattern)) == NULL)
		return (1);
	b = filter_regex_simple_match(fs, text);
	free(fs);
	return (b < 0 || a == b);
}
