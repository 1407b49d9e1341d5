/*
 * Unit tests for the expression scanner (src/util/lex.c): a small
 * language of its own drives it, and each text's tokens are written out
 * as one line ("N:0:3 P:4:1 ...") and compared.  The languages that use
 * the scanner are tested through their parsers.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "util/lex.h"

/* Names of letters and '.', '\' escapes any letter or '+', '$x' names. */
#define T_NAME	(LEX_START | LEX_NAME | LEX_WORD | LEX_ESCAPED)
static const uint16_t test_class[256] = {
	[' '] = LEX_SPACE | LEX_STOP, ['|'] = LEX_SPACE | LEX_STOP,
	['$'] = LEX_SIGIL | LEX_WORD, ['+'] = LEX_PUNCT | LEX_WORD |
	LEX_ESCAPED, ['('] = LEX_PUNCT | LEX_STOP, [')'] = LEX_PUNCT,
	['.'] = LEX_NAME | LEX_WORD, ['0' ... '9'] = LEX_NAME | LEX_WORD,
	['A' ... 'Z'] = T_NAME, ['\\'] = LEX_ESCAPE | LEX_WORD,
	['a' ... 'z'] = T_NAME,
};

static const struct lex_lang test_plain = { .class = test_class };
static const struct lex_lang test_full = {
	.class = test_class,
	.num = LEX_NUM_HEX | LEX_NUM_EXP | LEX_NUM_DOT,
};

/* Every token of text as "KIND:OFF:LEN", names with their name. */
static char *
tokens(const struct lex_lang *lang, const char *text)
{
	static char	 out[512];
	struct lex	 lx;
	struct lex_tok	 t;
	char		 name[64];
	size_t		 o = 0;

	lex_init(&lx, lang, text, strlen(text));
	out[0] = '\0';
	for (;;) {
		lex_next(&lx, &t);
		if (t.kind == LEX_TOK_END)
			break;
		o += (size_t)snprintf(out + o, sizeof out - o, "%s%c:%zu:%zu",
		    o == 0 ? "" : " ", "ENMPO"[t.kind], t.off, t.len);
		if (t.kind == LEX_TOK_NAME) {
			lex_unescape(&lx, &t, name);
			name[t.namelen] = '\0';
			o += (size_t)snprintf(out + o, sizeof out - o, "=%s%s",
			    name, t.escaped ? "!" : "");
		}
		if (t.len == 0)
			break;		/* an empty name: the language's */
	}
	assert_int_equal(t.off <= strlen(text), 1);
	return (out);
}

static void
test_numbers(void **state)
{
	(void)state;
	assert_string_equal(tokens(&test_plain, "12 3.5"), "N:0:2 N:3:3");
	/* Without LEX_NUM_DOT a point needs digits on both sides. */
	assert_string_equal(tokens(&test_plain, "1. .5"),
	    "N:0:1 O:1:1 O:3:1 N:4:1");
	assert_string_equal(tokens(&test_full, "1. .5"), "N:0:2 N:3:2");
	assert_string_equal(tokens(&test_plain, "0x1F"), "N:0:1 M:1:3=x1F");
	assert_string_equal(tokens(&test_full, "0x1F 0x"), "N:0:4 N:5:2");
	/* An exponent needs its digits, else it is left to the language. */
	assert_string_equal(tokens(&test_full, "1e5 2E-3 4e"),
	    "N:0:3 N:4:4 N:9:1 M:10:1=e");
	assert_string_equal(tokens(&test_plain, "1e5"), "N:0:1 M:1:2=e5");
}

static void
test_names(void **state)
{
	(void)state;
	assert_string_equal(tokens(&test_plain, "ab.c+d"),
	    "M:0:4=ab.c P:4:1 M:5:1=d");
	assert_string_equal(tokens(&test_plain, "a\\+b"), "M:0:4=a+b!");
	/* An escape of nothing it may escape ends the name. */
	assert_string_equal(tokens(&test_plain, "a\\(b"),
	    "M:0:1=a O:1:1 P:2:1 M:3:1=b");
	assert_string_equal(tokens(&test_plain, "$xy $"),
	    "M:0:3=xy M:4:1=");
	assert_string_equal(tokens(&test_plain, "a|b (x)"),
	    "M:0:1=a M:2:1=b P:4:1 M:5:1=x P:6:1");
	assert_string_equal(tokens(&test_plain, ""), "");
}

static void
test_words(void **state)
{
	struct lex	 lx;
	struct lex_tok	 t;
	const char	*text = " ab+ x(y) |";

	(void)state;
	lex_init(&lx, &test_plain, text, strlen(text));
	assert_int_equal(lex_word(&lx, &t), SIZE_MAX);
	assert_int_equal(t.kind, LEX_TOK_NAME);
	assert_int_equal(t.off, 1);
	assert_int_equal(t.len, 3);
	/* The first byte that cannot be in a word. */
	assert_int_equal(lex_word(&lx, &t), 6);
	assert_int_equal(t.off, 5);
	assert_int_equal(t.len, 4);
	assert_int_equal(lex_word(&lx, &t), SIZE_MAX);
	assert_int_equal(t.kind, LEX_TOK_END);
	assert_int_equal(t.off, strlen(text));
}

static void
test_span(void **state)
{
	struct lex	 lx;
	const char	*text = "abc(d e";

	(void)state;
	lex_init(&lx, &test_plain, text, strlen(text));
	assert_int_equal(lex_span(&lx, 0, LEX_STOP), 3);
	assert_int_equal(lex_span(&lx, 4, LEX_STOP), 5);
	assert_int_equal(lex_span(&lx, 6, LEX_STOP), 7);
	assert_int_equal(lex_class(&lx, 7), 0);
	/* Nothing past the length is read: a text need not end in NUL. */
	lex_init(&lx, &test_full, "12345", 2);
	assert_int_equal(lex_number_end(&lx, 0), 2);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_span),
	};

	return (cmocka_run_group_tests_name("lex", tests, NULL, NULL));
}
