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
void	 lex_next(struct lex *, struct lex_tok *);
size_t	 lex_word(struct lex *, struct lex_tok *);
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

/* Columns in messages count from 1. */
static inline unsigned long
lex_col(size_t off)
{
	return ((unsigned long)off + 1);
}

#endif /* HVTOP_LEX_H */
