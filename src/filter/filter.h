/*
 * The filter language of the terminal interface's filter bar, shared by
 * every list it filters (catalog events, groups, formulas and the columns
 * of the live tables).  Pure: text in, a compiled filter out; matching
 * reads only the item it is handed.
 *
 * A filter is a list of terms separated by white space, all of which must
 * hold (AND).  A term is:
 *
 *	WORD		a case-insensitive substring of the name or description
 *	"TWO WORDS"	the same, with spaces (double quotes)
 *	name:WORD	a substring of the name only
 *	re:REGEX	a POSIX extended regular expression, case-insensitive,
 *			matched against the name and the description
 *	domain:WORD	the domain ("chip", "core", "vcpu_home_core" ...)
 *			starts with WORD
 *	flag:WORD	the item has that flag (verified, unverified, caveat,
 *			broken, hidden, picked; any unambiguous prefix)
 *	group:WORD	a substring of a group the item belongs to
 *	!TERM		the term must not hold
 *
 * A word with a colon whose prefix is not one of the keys above is an
 * ordinary word.  Matching is a plain substring search because items carry
 * lower-case copies of their texts (see struct filter_item).
 */
#ifndef HVTOP_FILTER_H
#define HVTOP_FILTER_H

#include <stddef.h>
#include <stdint.h>

#define FILTER_FLAG_VERIFIED	0x01
#define FILTER_FLAG_UNVERIFIED	0x02
#define FILTER_FLAG_CAVEAT	0x04
#define FILTER_FLAG_BROKEN	0x08
#define FILTER_FLAG_HIDDEN	0x10	/* an entry the kernel would not list */
#define FILTER_FLAG_PICKED	0x20	/* in the current selection */

/*
 * A signature of a text: one bit per hashed pair of adjacent characters.
 * A text whose signature lacks a bit of a word's signature cannot contain
 * the word, which lets a filter skip most entries of a large catalog
 * without looking at their texts.
 */
#define FILTER_SIG_WORDS	4
/* OR the pairs of text (lower case) into sig. */
void	 filter_sig_add(uint64_t *sig, const char *text);

/*
 * What a term is tested against.  Texts must be lower case (ASCII): the
 * caller keeps lowered copies so that matching is a plain substring
 * search.  Any pointer may be NULL (an empty text).  sig, when not NULL,
 * is filter_sig_add() of name and desc (FILTER_SIG_WORDS words).
 */
struct filter_item {
	const char		*name;
	const char		*desc;
	const char		*domain;
	unsigned		 flags;		/* FILTER_FLAG_* */
	const char *const	*groups;
	size_t			 ngroups;
	const uint64_t		*name_sig;
	const uint64_t		*desc_sig;
};

struct filter;

/*
 * Compile a filter text (NUL-terminated).  An empty or blank text gives a
 * filter that matches everything.  Returns 0 with *out set (caller frees
 * with filter_free()), or -HV_EFORMAT / -HV_ELIMIT with *cause set to a
 * message that names the 1-based column of the bad term (caller frees).
 */
int	 filter_parse(const char *text, struct filter **out, char **cause);
void	 filter_free(struct filter *);

/* Nonzero when every term holds for the item. */
int	 filter_match(const struct filter *, const struct filter_item *);

/* Nonzero when the filter has no term (it matches everything). */
int	 filter_empty(const struct filter *);

/*
 * The FILTER_FLAG_* bits that the filter's non-negated flag: terms ask
 * for (a list hides entries flagged hidden unless flag:hidden is asked).
 */
unsigned filter_flags_wanted(const struct filter *);

/*
 * For tests and fuzzing: whether the shortcuts taken for a regex agree
 * with regexec() for pattern (REG_EXTENDED | REG_ICASE) on text (lower
 * case): the literal every match must contain is in text when it matches,
 * and the fast path for simple patterns gives the same answer.  1: they
 * agree (or do not apply); 0: they do not; -1: not a pattern
 * filter_parse() would take.
 */
int	 filter_regex_agrees(const char *pattern, const char *text);

/* "verified" ... for one FILTER_FLAG_* bit; NULL for others. */
const char *filter_flag_name(unsigned);

#endif /* HVTOP_FILTER_H */
