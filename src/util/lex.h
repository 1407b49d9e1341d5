/*
 * One scanner for hvtop's expression languages: the catalog formulas (RPN
 * and infix), PAPI's derived-event formulas and perf's MetricExpr.  A
 * language is a table of character classes and a few number rules; the
 * scanner cuts text into numbers, names, punctuation and the bytes it
 * cannot place, with their offsets, and says nothing about them: what is
 * an error, and how a message shows its column, is the language's.  Pure:
 * no I/O, no allocation.
 */
#ifndef HVTOP_LEX_H
#define HVTOP_LEX_H

#include <stddef.h>
#include <stdint.h>

/* Character classes, a language's table holds them by byte. */
#define LEX_SPACE	0x001	/* skipped between tokens */
#define LEX_START	0x002	/* starts a name */
#define LEX_NAME	0x004	/* continues a name */
#define LEX_PUNCT	0x008	/* a token of one byte: operator, comma */
#define LEX_ESCAPE	0x010	/* puts the next byte into a name */
#define LEX_ESCAPED	0x020	/* may follow the escape */
#define LEX_SIGIL	0x040	/* opens a name, not part of it: "#x" */
#define LEX_WORD	0x080	/* may be in a word (lex_word()) */
#define LEX_STOP	0x100	/* ends what lex_span() skips */

/* Number rules. */
#define LEX_NUM_HEX	0x01	/* 0x and hex digits */
#define LEX_NUM_EXP	0x02	/* an exponent: e, a sign, digits */
#define LEX_NUM_DOT	0x04	/* ".5" and "1."; else '.' only between
				   digits */

struct lex_lang {
	const uint16_t	*class;		/* 256 entries */
	unsigned	 num;		/* LEX_NUM_* */
};

enum lex_kind {
	LEX_TOK_END,
	LEX_TOK_NUM,
	LEX_TOK_NAME,
	LEX_TOK_PUNCT,
	LEX_TOK_OTHER,			/* one byte of no token */
};

struct lex_tok {
	enum lex_kind	 kind;
	size_t		 off;		/* byte offset in the text */
	size_t		 len;		/* bytes of source */
	int		 c;		/* the first byte */
	size_t		 namelen;	/* NAME: bytes once unescaped */
	int		 escaped;	/* NAME: holds an escape */
};

/* The text is len bytes; nothing past them is read. */
struct lex {
	const struct lex_lang *lang;
	const char	*text;
	size_t		 len;
	size_t		 pos;		/* next byte to scan */
};

void	 lex_init(struct lex *, const struct lex_lang *, const char *,
	    size_t);
size_t	 lex_span(const struct lex *, size_t, unsigned);
size_t	 lex_number_end(const struct lex *, size_t);
void	 lex_unescape(const struct lex *, const struct lex_tok *, char *);

/* The class of byte i, 0 past the end. */
static inline unsigned
lex_class(const struct lex *lx, size_t i)
{
	return (i < lx->len ?
	    lx->lang->class[(unsigned char)lx->text[i]] : 0);
}

static inline int
lex_digit(int c)
{
	return ((unsigned)c - '0' < 10);
}

/*
 * The scanner's steps are inline: the languages call them once a token,
 * and formulas are scanned again and again (a file of 200,000 metrics has
 * each lexed several times).  Each looks a byte's class up once.
 *
 * The name at i (after its sigil): name bytes, and escapes followed by a
 * byte they may escape.  An escape that escapes nothing ends it.  A
 * LEX_START byte must be LEX_NAME or LEX_ESCAPE.
 */
static inline size_t
lex_name_end(const struct lex *lx, size_t i, struct lex_tok *tok)
{
	const uint16_t	*cls = lx->lang->class;
	const char	*s = lx->text;
	size_t		 n = 0, len = lx->len;
	unsigned	 c;

	tok->escaped = 0;
	while (i < len) {
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
static inline void
lex_next(struct lex *lx, struct lex_tok *tok)
{
	const char	*s = lx->text;
	size_t		 i = lx->pos, n = lx->len, end;
	unsigned	 cls;
	int		 c;

	while (i < n && (lx->lang->class[(unsigned char)s[i]] & LEX_SPACE))
		i++;
	tok->off = i;
	tok->namelen = 0;
	tok->escaped = 0;
	if (i >= n) {
		tok->kind = LEX_TOK_END;
		tok->len = 0;
		tok->c = 0;
		lx->pos = i;
		return;
	}
	c = (unsigned char)s[i];
	tok->c = c;
	cls = lx->lang->class[c];
	if (lex_digit(c) || (c == '.' && (lx->lang->num & LEX_NUM_DOT) &&
	    i + 1 < n && lex_digit((unsigned char)s[i + 1]))) {
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
static inline size_t
lex_word(struct lex *lx, struct lex_tok *tok)
{
	const uint16_t	*cls = lx->lang->class;
	const char	*s = lx->text;
	size_t		 i = lx->pos, n = lx->len, start, bad;
	unsigned	 c, all = LEX_WORD;

	while (i < n && (cls[(unsigned char)s[i]] & LEX_SPACE))
		i++;
	tok->off = start = i;
	tok->escaped = 0;
	if (i >= n) {
		tok->kind = LEX_TOK_END;
		tok->len = tok->namelen = 0;
		tok->c = 0;
		lx->pos = i;
		return (SIZE_MAX);
	}
	/* Most words are good: the bad byte is looked for afterwards. */
	for (; i < n && !((c = cls[(unsigned char)s[i]]) & LEX_SPACE); i++)
		all &= c;
	tok->kind = LEX_TOK_NAME;
	tok->c = (unsigned char)s[start];
	tok->len = tok->namelen = i - start;
	lx->pos = i;
	if (all & LEX_WORD)
		return (SIZE_MAX);
	for (bad = start; cls[(unsigned char)s[bad]] & LEX_WORD; bad++)
		continue;
	return (bad);
}

/* Columns in messages count from 1. */
static inline unsigned long
lex_col(size_t off)
{
	return ((unsigned long)off + 1);
}

#endif /* HVTOP_LEX_H */
