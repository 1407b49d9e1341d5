/*
 * The parser checks each string once, as it copies it, for bytes that
 * need escaping (and a name for bytes its check warns about), a word at
 * a time: a byte to escape anywhere in any string, at any place in a
 * word or in a short last one, must still be found and escaped, and a
 * name holding a space or a '/' still warned about.
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

#include "catalog/catalog.h"
#include "catalog-gen.h"
#include "util/xalloc.h"

static const unsigned char bad_text[] = { 0x00, 0x01, 0x1b, 0x1f, 0x7f,
    0x80, 0x9b, 0xc2, 0xff };

/* Every length to 40, a bad byte at every place: the first is found. */
static void
test_ascii_every_place(void **state)
{
	char		 buf[48];
	size_t		 len, at, k;

	(void)state;
	for (len = 0; len <= 40; len++) {
		memset(buf, 'a', sizeof buf);
		assert_int_equal(catalog_text_ascii(buf, len, 0), len);
		assert_int_equal(catalog_text_ascii(buf, len, 1), len);
		for (at = 0; at < len; at++) {
			for (k = 0; k < sizeof bad_text; k++) {
				memset(buf, 'a', sizeof buf);
				buf[at] = (char)bad_text[k];
				/* A later bad byte changes nothing. */
				if (at + 3 < len)
					buf[at + 3] = '\x01';
				assert_int_equal(catalog_text_ascii(buf, len,
				    0), at);
				assert_int_equal(catalog_text_ascii(buf, len,
				    1), at);
			}
			memset(buf, 'a', sizeof buf);
			buf[at] = ' ';
			assert_int_equal(catalog_text_ascii(buf, len, 0), len);
			assert_int_equal(catalog_text_ascii(buf, len, 1), at);
			buf[at] = '/';
			assert_int_equal(catalog_text_ascii(buf, len, 0), len);
			assert_int_equal(catalog_text_ascii(buf, len, 1), at);
		}
	}
}

/* Every printable ASCII byte passes, in each place of a word. */
static void
test_ascii_printable(void **state)
{
	char		 buf[16];
	unsigned	 c;
	size_t		 at;

	(void)state;
	for (c = 0x20; c < 0x7f; c++) {
		for (at = 0; at < sizeof buf; at++) {
			memset(buf, 'Z', sizeof buf);
			buf[at] = (char)c;
			assert_int_equal(catalog_text_ascii(buf, sizeof buf, 0),
			    sizeof buf);
			assert_int_equal(catalog_text_ascii(buf, sizeof buf, 1),
			    c == ' ' || c == '/' ? at : sizeof buf);
		}
	}
}

/* A catalog of one event and one group with the strings given. */
static struct catalog *
parse_one(const char *name, const char *desc, const char *gname)
{
	struct cgen_buf		 ev = { 0 }, gr = { 0 };
	struct cgen_buf *const	 secs[4] = { NULL, &ev, &gr, NULL };
	struct cgen_event	 e;
	struct cgen_group	 g;
	struct catalog		*cat;
	uint8_t			*img;
	char			*cause = NULL;
	size_t			 len;

	memset(&e, 0, sizeof e);
	e.domain = 2;
	e.record_length = 64;
	e.counter_offset = 24;
	e.name = name;
	e.desc = desc;
	e.long_desc = desc;
	cgen_event(&ev, &e);
	memset(&g, 0, sizeof g);
	g.domain = 2;
	g.record_length = 64;
	g.event_count = 1;
	g.name = gname;
	g.desc = desc;
	cgen_group(&gr, &g);
	img = cgen_catalog(secs, &len);
	if (catalog_parse(img, len, 2, &cat, &cause) != 0)
		fail_msg("catalog_parse: %s", cause);
	cgen_buf_free(&ev);
	cgen_buf_free(&gr);
	free(img);
	return (cat);
}

static int
has_warning(const struct catalog *cat, const char *s)
{
	size_t	 i;

	for (i = 0; i < cat->ndiags; i++) {
		if (cat->diags[i].severity == CATALOG_WARNING &&
		    strstr(cat->diags[i].msg, s) != NULL)
			return (1);
	}
	return (0);
}

/* ESC at each place of a name and of a description: escaped, kept. */
static void
test_parse_escape_anywhere(void **state)
{
	const char	*plain = "PM_A_RATHER_LONG_EVENT_NAME_FOR_WORDS";
	char		 s[64], want[80];
	struct catalog	*cat;
	size_t		 at, n = strlen(plain);

	(void)state;
	for (at = 0; at < n; at++) {
		snprintf(s, sizeof s, "%s", plain);
		s[at] = '\x1b';
		snprintf(want, sizeof want, "%.*s\\x1b%s", (int)at, plain,
		    plain + at + 1);

		cat = parse_one(s, "plain", "G");
		assert_int_equal(cat->nevents, 1);
		assert_string_equal(cat->events[0].name, want);
		assert_non_null(cat->events[0].stored[0]);
		assert_string_equal(cat->events[0].stored[0], s);
		assert_null(cat->events[0].stored[1]);
		assert_true(has_warning(cat, "name holds byte 0x1b"));
		catalog_free(cat);

		cat = parse_one(plain, s, s);
		assert_string_equal(cat->events[0].name, plain);
		assert_null(cat->events[0].stored[0]);
		assert_string_equal(cat->events[0].desc, want);
		assert_string_equal(cat->events[0].long_desc, want);
		assert_string_equal(cat->groups[0].name, want);
		assert_string_equal(cat->groups[0].desc, want);
		assert_string_equal(cat->events[0].stored[1], s);
		assert_string_equal(cat->groups[0].stored[0], s);
		catalog_free(cat);
	}
}

/* A space or a '/' in a name: warned about, nothing escaped. */
static void
test_parse_name_warnings(void **state)
{
	char		 s[32];
	struct catalog	*cat;
	size_t		 at;

	(void)state;
	for (at = 0; at < 19; at++) {
		snprintf(s, sizeof s, "PM_EVENT_NAME_ABCDE");
		s[at] = at % 2 ? ' ' : '/';
		cat = parse_one(s, "a description", "G");
		assert_string_equal(cat->events[0].name, s);
		assert_null(cat->events[0].stored[0]);
		assert_true(has_warning(cat, at % 2 ? "name holds byte 0x20" :
		    "name holds byte 0x2f"));
		catalog_free(cat);
	}
	cat = parse_one("PM_EVENT_NAME_ABCDE", "a / description", "G");
	assert_false(has_warning(cat, "name holds"));
	catalog_free(cat);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ascii_every_place),
		cmocka_unit_test(test_ascii_printable),
		cmocka_unit_test(test_parse_escape_anywhere),
		cmocka_unit_test(test_parse_name_warnings),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
