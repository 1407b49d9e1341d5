/*
 * Unit tests for the key table (ui/keys.c): no key is claimed twice on a
 * screen in a mode, every entry is documented, and the manual page's KEYS
 * and REPLAY KEYS sections list exactly the keys of the table, spelled as
 * the help screen spells them.  The manual's prose is written by hand;
 * this is what keeps it from drifting away from the program.  Keys that
 * need no session are dispatched to see what they ask of the loop.
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

#include "filter/filter.h"
#include "ui/crt.h"
#include "ui/keys.h"
#include "ui/prompt.h"
#include "ui/ui-run.h"
#include "util/xalloc.h"

#ifndef HVTOP_MAN_PAGE
#error HVTOP_MAN_PAGE names hvtop.1.in
#endif

#define MAN_MAX	64

/* The key headings of the manual page's sections (names as in the table). */
struct man_keys {
	char	*keys[MAN_MAX];
	size_t	 n;
	char	*replay[MAN_MAX];
	size_t	 nreplay;
};

static void
test_table_unique(void **state)
{
	static const unsigned modes[] = { KEYS_MONITOR, KEYS_REPLAY };
	const struct keys_entry	*e, *found;
	unsigned		 where;
	size_t			 i, j;
	int			 s, m, bad = 0;

	(void)state;
	for (s = 0; s < UI_NSCREENS; s++) {
		for (m = 0; m < 2; m++) {
			where = (1U << s) | modes[m];
			for (i = 0; i < keys_count; i++) {
				e = &keys_table[i];
				if (!keys_applies(e->where, where))
					continue;
				for (j = 0; j < KEYS_MAX && e->key[j] != 0;
				    j++) {
					found = keys_find(e->key[j], where);
					if (found == e)
						continue;
					print_error("key %d (%s) claimed by %s "
					    "and %s on screen %d\n", e->key[j],
					    e->names, found->names, e->names,
					    s);
					bad = 1;
				}
			}
		}
	}
	assert_int_equal(bad, 0);
}

static void
test_table_documented(void **state)
{
	const struct keys_entry	*e;
	size_t			 i;

	(void)state;
	for (i = 0; i < keys_count; i++) {
		e = &keys_table[i];
		assert_non_null(e->fn);
		assert_true(e->key[0] != 0);
		assert_non_null(e->names);
		assert_non_null(e->help);
		assert_true(e->section < KEYS_NSECTIONS);
		assert_true((e->where & KEYS_SCREENS) != 0);
		assert_true((e->where & KEYS_MODES) != 0);
		if (e->bar != 0) {
			assert_non_null(e->bar_key);
			assert_non_null(e->bar_label);
		}
	}
}

/*
 * A heading as the reader sees it: the arguments of .B or .BR joined
 * (quotes removed), \- and \e as - and \.  Allocated.
 */
static char *
man_heading(const char *line)
{
	char	*out, *p;
	int	 quoted = 0;

	if (strncmp(line, ".BR ", 4) == 0)
		line += 4;
	else if (strncmp(line, ".B ", 3) == 0)
		line += 3;
	out = p = xmalloc(strlen(line) + 1);
	for (; *line != '\0' && *line != '\n'; line++) {
		if (*line == '"')
			quoted = !quoted;
		else if (*line == ' ' && !quoted)
			continue;
		else if (line[0] == '\\' && (line[1] == '-' || line[1] == 'e')) {
			*p++ = line[1] == '-' ? '-' : '\\';
			line++;
		} else
			*p++ = *line;
	}
	*p = '\0';
	return (out);
}

static void
man_read(struct man_keys *mk)
{
	FILE	*fp;
	char	 line[1024];
	int	 section = 0, heading = 0;

	memset(mk, 0, sizeof *mk);
	fp = fopen(HVTOP_MAN_PAGE, "r");
	assert_non_null(fp);
	while (fgets(line, sizeof line, fp) != NULL) {
		if (strncmp(line, ".SH ", 4) == 0 ||
		    strncmp(line, ".SS ", 4) == 0) {
			section = strcmp(line, ".SH KEYS\n") == 0 ? 1 :
			    strcmp(line, ".SS REPLAY KEYS\n") == 0 ? 2 : 0;
			continue;
		}
		if (section != 0 && strcmp(line, ".TP\n") == 0) {
			heading = 1;
			continue;
		}
		if (!heading)
			continue;
		heading = 0;
		if (section == 1 && mk->n < MAN_MAX)
			mk->keys[mk->n++] = man_heading(line);
		else if (section == 2 && mk->nreplay < MAN_MAX)
			mk->replay[mk->nreplay++] = man_heading(line);
	}
	fclose(fp);
}

static int
man_has(char *const *v, size_t n, const char *names)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		if (strcmp(v[i], names) == 0)
			return (1);
	}
	return (0);
}

static void
test_man_page(void **state)
{
	const struct keys_entry	*e;
	struct man_keys		 mk;
	size_t			 i, j;
	int			 bad = 0, replay, found;

	(void)state;
	man_read(&mk);
	assert_true(mk.n > 10);
	assert_true(mk.nreplay > 3);
	/* Every key of the table is in the manual's section... */
	for (i = 0; i < keys_count; i++) {
		e = &keys_table[i];
		replay = e->section == KEYS_S_REPLAY;
		if (!man_has(replay ? mk.replay : mk.keys, replay ? mk.nreplay :
		    mk.n, e->names)) {
			print_error("%s is not in the manual's %s\n", e->names,
			    replay ? "REPLAY KEYS" : "KEYS");
			bad = 1;
		}
	}
	/* ... and the manual names no key the table does not have. */
	for (i = 0; i < mk.n + mk.nreplay; i++) {
		replay = i >= mk.n;
		found = 0;
		for (j = 0; j < keys_count && !found; j++) {
			e = &keys_table[j];
			found = (e->section == KEYS_S_REPLAY) == replay &&
			    strcmp(e->names, replay ? mk.replay[i - mk.n] :
			    mk.keys[i]) == 0;
		}
		if (!found) {
			print_error("the manual's %s has %s, the key table "
			    "does not\n", replay ? "REPLAY KEYS" : "KEYS",
			    replay ? mk.replay[i - mk.n] : mk.keys[i]);
			bad = 1;
		}
	}
	for (i = 0; i < mk.n; i++)
		free(mk.keys[i]);
	for (i = 0; i < mk.nreplay; i++)
		free(mk.replay[i]);
	assert_int_equal(bad, 0);
}

/* What a key asks of the loop: the loop does it, the key does not. */
static void
test_dispatch_actions(void **state)
{
	struct ui_run	 r;
	struct ui	*ui = &r.ui;
	struct ui_note	 n = { 0 };

	(void)state;
	memset(&r, 0, sizeof r);
	clock_init(&r.rt, 0, 0);
	ui->screen = UI_LIVE;
	ui->interval = 2;

	assert_int_equal(keys_dispatch(&r, 'q', &n), UI_ACT_QUIT);
	assert_int_equal(r.quit, 0);
	assert_int_equal(keys_dispatch(&r, CRT_KEY_F10, &n), UI_ACT_QUIT);
	assert_int_equal(keys_dispatch(&r, 12, &n), UI_ACT_REDRAW);
	assert_int_equal(keys_dispatch(&r, ' ', &n), UI_ACT_RESAMPLE);
	assert_int_equal(r.sample_now, 0);
	/* A key bound nowhere does nothing. */
	assert_int_equal(keys_dispatch(&r, 'Q', &n), UI_ACT_NONE);
	assert_int_equal(n.role, UI_R_WARN);
	assert_string_equal(n.text, "'Q' is not a key of hvtop (h lists the "
	    "keys)");

	/* Pausing asks for nothing; resuming for a sample. */
	assert_int_equal(keys_dispatch(&r, 'p', &n), UI_ACT_NONE);
	assert_int_equal(ui->paused, 1);
	assert_string_equal(n.text, "paused (p resumes)");
	assert_int_equal(keys_dispatch(&r, 'p', &n), UI_ACT_RESAMPLE);
	assert_int_equal(ui->paused, 0);

	/* Moving between screens is the model's alone. */
	assert_int_equal(keys_dispatch(&r, 'h', &n), UI_ACT_NONE);
	assert_int_equal(ui->screen, UI_HELP);
	assert_int_equal(keys_dispatch(&r, 27, &n), UI_ACT_NONE);
	assert_int_equal(ui->screen, UI_LIVE);

	/* A page is what the height the loop gave leaves for a list; the
	 * keys never ask the terminal. */
	ui->screen = UI_HELP;
	r.rows = 30;
	assert_int_equal(keys_dispatch(&r, CRT_KEY_NPAGE, &n), UI_ACT_NONE);
	assert_int_equal(ui->list[UI_HELP].top, 20);
	r.rows = 5;
	assert_int_equal(keys_dispatch(&r, CRT_KEY_NPAGE, &n), UI_ACT_NONE);
	assert_int_equal(ui->list[UI_HELP].top, 22);
	ui->list[UI_HELP].top = 0;
	ui->screen = UI_LIVE;

	/* Prompts are described, not opened. */
	assert_int_equal(keys_dispatch(&r, 'd', &n), UI_ACT_PROMPT);
	assert_int_equal(ui->ask, PROMPT_INTERVAL);
	assert_string_equal(ui->ask_label, "interval in seconds (now 2): ");
	assert_null(ui->ask_init);
	assert_int_equal(keys_dispatch(&r, 'g', &n), UI_ACT_PROMPT);
	assert_int_equal(ui->ask, PROMPT_PICK);
	assert_int_equal(ui->ask_names, 1);
	assert_int_equal(ui->prompt, 0);

	/* A filter set: / starts from it, = clears it and asks for a
	 * layout. */
	ui->filter_text = xstrdup("cycles");
	assert_int_equal(keys_dispatch(&r, '/', &n), UI_ACT_PROMPT);
	assert_int_equal(ui->ask, PROMPT_FILTER);
	assert_string_equal(ui->ask_label, "filter: ");
	assert_string_equal(ui->ask_init, "cycles ");
	assert_string_equal(r.filter_before, "cycles");
	assert_int_equal(keys_dispatch(&r, '=', &n), UI_ACT_RELAYOUT);
	assert_string_equal(ui->filter_text, "");

	/* A replay steps by sampling, until its end. */
	ui->replay = 1;
	assert_int_equal(keys_dispatch(&r, ']', &n), UI_ACT_RESAMPLE);
	ui->replay_end = 1;
	assert_int_equal(keys_dispatch(&r, ']', &n), UI_ACT_NONE);
	assert_string_equal(n.text, "end of the recording");
	assert_int_equal(keys_dispatch(&r, 'G', &n), UI_ACT_PROMPT);
	assert_int_equal(ui->ask, PROMPT_GOTO);
	/* A jump is asked of the loop, which makes it and samples. */
	ui->replay_pos = 50;
	ui->replay_total = 100;
	assert_int_equal(keys_dispatch(&r, '{', &n), UI_ACT_SEEK);
	assert_true(r.seek.index == 38 && r.seek.back && !r.seek.on);
	assert_int_equal(ui->replay_end, 0);
	assert_int_equal(keys_dispatch(&r, '}', &n), UI_ACT_SEEK);
	assert_true(r.seek.index == 58 && !r.seek.back && !r.seek.on);
	assert_int_equal(keys_dispatch(&r, '[', &n), UI_ACT_SEEK);
	assert_true(r.seek.index == 47 && r.seek.back);
	ui->replay_pos = 2;
	assert_int_equal(keys_dispatch(&r, '[', &n), UI_ACT_NONE);
	assert_string_equal(n.text, "at the start of the recording");
	/* What the keys say is the loop's to show. */
	assert_string_equal(ui->msg, "");

	filter_free(ui->filter);
	free(ui->filter_text);
	free(ui->filter_error);
	free(ui->ask_init);
	free(r.filter_before);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_unique),
		cmocka_unit_test(test_table_documented),
		cmocka_unit_test(test_man_page),
		cmocka_unit_test(test_dispatch_actions),
	};

	return (cmocka_run_group_tests_name("ui-keys", tests, NULL, NULL));
}
