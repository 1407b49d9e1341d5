/*
 * The expression scanner's steps that are not inline (lex.h): numbers,
 * spans of bytes, names with their escapes undone.  Never reads outside
 * [text, text + len).  Pure: no I/O, no allocation.
 */
#include "config.h"

#include "util/lex.h"

#include <stdint.h>
#include <string.h>

void
lex_init(struct lex *lx, const struct lex_lang *lang, const char *text,
    size_t len)
{
	lx->lang = lang;
	lx->text = text;
	lx->len = len;
	lx->pos = 0;
}

static int
lex_hexdigit(int c)
{
	return (lex_digit(c) || (c >= 'a' && c <= 'f') ||
	    (c >= 'A' && c <= 'F'));
}

/* Whether s[i] (inside the text) is a digit. */
#define LEX_DIGIT_AT(lx, i) \
	((i) < (lx)->len && lex_digit((unsigned char)(lx)->text[i]))

/*
 * Where the number that starts at i ends, by the language's rules: digits
 * with a point and an exponent, or 0x and hex digits.  What follows it is
 * for the language to judge ("2PB", "0x").
 */
size_t
lex_number_end(const struct lex *lx, size_t i)
{
	const char	*s = lx->text;
	unsigned	 num = lx->lang->num;
	size_t		 n;

	if ((num & LEX_NUM_HEX) && i + 1 < lx->len && s[i] == '0' &&
	    (s[i + 1] == 'x' || s[i + 1] == 'X')) {
		for (i += 2; i < lx->len &&
		    lex_hexdigit((unsigned char)s[i]); i++)
			continue;
		return (i);
	}
	while (LEX_DIGIT_AT(lx, i))
		i++;
	if (i < lx->len && s[i] == '.' &&
	    ((num & LEX_NUM_DOT) || LEX_DIGIT_AT(lx, i + 1)))
		i++;
	while (LEX_DIGIT_AT(lx, i))
		i++;
	if ((num & LEX_NUM_EXP) && i < lx->len &&
	    (s[i] == 'e' || s[i] == 'E')) {
		n = i + 1;
		if (n < lx->len && (s[n] == '+' || s[n] == '-'))
			n++;
		if (LEX_DIGIT_AT(lx, n)) {
			for (i = n; LEX_DIGIT_AT(lx, i); i++)
				continue;
		}
	}
	return (i);
}

/* The first byte from i on whose class has one of mask, or the end. */
size_t
lex_span(const struct lex *lx, size_t i, unsigned mask)
{
	while (i < lx->len &&
	    !(lx->lang->class[(unsigned char)lx->text[i]] & mask))
		i++;
	return (i);
}

/*
 * A name token's name, its escapes undone, into out: tok->namelen bytes,
 * no NUL.
 */
void
lex_unescape(const struct lex *lx, const struct lex_tok *tok, char *out)
{
	const char	*s = lx->text + tok->off;
	size_t		 n;

	if (lex_class(lx, tok->off) & LEX_SIGIL)
		s++;
	if (!tok->escaped) {
		memcpy(out, s, tok->namelen);
		return;
	}
	for (n = 0; n < tok->namelen; n++) {
		if (!(lx->lang->class[(unsigned char)*s] & LEX_NAME))
			s++;		/* the escape */
		*out++ = *s++;
	}
}
