/*
 * The expression scanner (lex.h).  Each step looks a byte's class up in
 * the language's table once: formulas are scanned again and again (a
 * file of 200,000 metrics has each lexed several times).  Never reads
 * outside [text, text + len).  Pure: no I/O, no allocation.
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

static void
lex_skip(struct lex *lx)
{
	while (lx->pos < lx->len && (lx->lang->class[(unsigned char)
	    lx->text[lx->pos]] & LEX_SPACE))
		lx->pos++;
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

/*
 * The name at i (after its sigil): name bytes, and escapes followed by a
 * byte they may escape.  An escape that escapes nothing ends it.
 */
static size_t
lex_name_end(const struct lex *lx, size_t i, struct lex_tok *tok)
{
	const uint16_t	*cls = lx->lang->class;
	const char	*s = lx->text;
	size_t		 n = 0;
	unsigned	 c;

	while (i < lx->len) {
		c = cls[(unsigned char)s[i]];
		if (c & LEX_NAME)
			i++;
		else if ((c & LEX_ESCAPE) && (lex_class(lx, i + 1) &
		    LEX_ESCAPED)) {
			i += 2;
			tok->escaped = 1;
		} else
			break;
		n++;
	}
	tok->namelen = n;
	return (i);
}

/*
 * The next token from lx->pos, white space skipped first: at the end a
 * LEX_TOK_END token at the text's end.  A number starts with a digit (or,
 * with LEX_NUM_DOT, a point and a digit); a name with a LEX_START or
 * LEX_SIGIL byte, and may be empty (a sigil alone, an escape of nothing):
 * the language refuses it.
 */
void
lex_next(struct lex *lx, struct lex_tok *tok)
{
	size_t		 i, end;
	unsigned	 cls;
	int		 c;

	memset(tok, 0, sizeof *tok);
	lex_skip(lx);
	i = lx->pos;
	tok->off = i;
	if (i >= lx->len) {
		tok->kind = LEX_TOK_END;
		return;
	}
	c = (unsigned char)lx->text[i];
	tok->c = c;
	cls = lx->lang->class[c];
	if (lex_digit(c) || (c == '.' && (lx->lang->num & LEX_NUM_DOT) &&
	    LEX_DIGIT_AT(lx, i + 1))) {
		tok->kind = LEX_TOK_NUM;
		end = lex_number_end(lx, i);
	} else if (cls & LEX_SIGIL) {
		tok->kind = LEX_TOK_NAME;
		end = lex_name_end(lx, i + 1, tok);
	} else if (cls & LEX_START) {
		tok->kind = LEX_TOK_NAME;
		end = lex_name_end(lx, i, tok);
	} else {
		tok->kind = cls & LEX_PUNCT ? LEX_TOK_PUNCT : LEX_TOK_OTHER;
		end = i + 1;
	}
	tok->len = end - i;
	lx->pos = end;
}

/*
 * The next word: everything up to white space (RPN's tokens), as a
 * LEX_TOK_NAME token with no escapes, or LEX_TOK_END.  Returns the offset
 * of its first byte that is not LEX_WORD, or SIZE_MAX when every one is.
 */
size_t
lex_word(struct lex *lx, struct lex_tok *tok)
{
	const uint16_t	*cls = lx->lang->class;
	const char	*s;
	size_t		 n = 0, bad;
	unsigned	 c, all = LEX_WORD;

	memset(tok, 0, sizeof *tok);
	lex_skip(lx);
	tok->off = lx->pos;
	if (lx->pos >= lx->len) {
		tok->kind = LEX_TOK_END;
		return (SIZE_MAX);
	}
	s = lx->text + lx->pos;
	/* Most words are good: the bad byte is looked for afterwards. */
	for (; lx->pos + n < lx->len &&
	    !((c = cls[(unsigned char)s[n]]) & LEX_SPACE); n++)
		all &= c;
	tok->kind = LEX_TOK_NAME;
	tok->c = (unsigned char)s[0];
	tok->len = tok->namelen = n;
	lx->pos += n;
	if (all & LEX_WORD)
		return (SIZE_MAX);
	for (bad = 0; cls[(unsigned char)s[bad]] & LEX_WORD; bad++)
		continue;
	return (tok->off + bad);
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
