/*
 * The filter bar's language: parse a text into terms once, then test each
 * item with plain substring searches (items carry lower-case texts) or a
 * compiled POSIX regex.  Pure: no I/O, no locale-dependent case folding
 * (ASCII only, so the result does not depend on the environment).
 */
#include "config.h"

#include "filter/filter.h"

#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "filter/filter-int.h"
#include "util/hverr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define FILTER_MAX_TERMS	64
#define FILTER_MAX_TEXT		4096	/* bytes of filter text */

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
	struct filter_regex_simple *simple;	/* a faster matcher, when possible */
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
		t->simple = filter_regex_simple_compile(val);
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
		r = filter_regex_simple_match(t->simple, hay);
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
