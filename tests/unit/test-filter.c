/*
 * Unit tests for the filter bar's language (src/filter/): words,
 * quotes, keys, regex, negation, errors with columns, and the limits.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "filter/filter.h"
#include "util/hverr.h"

static const char *const mem_groups[] = { "memory_bw", "pb_cyc_group" };

static const struct filter_item mem_bw = {
	.name = "memory_bw_chip",
	.desc = "memory bandwidth of the chip, read and write",
	.domain = "chip",
	.flags = FILTER_FLAG_VERIFIED | FILTER_FLAG_PICKED,
	.groups = mem_groups,
	.ngroups = 2,
};

static const struct filter_item core_cyc = {
	.name = "pm_run_cyc",
	.desc = "cycles while the run latch is set",
	.domain = "core",
	.flags = FILTER_FLAG_CAVEAT,
};

static const struct filter_item vcpu = {
	.name = "pm_vcpu_disp",
	.desc = NULL,
	.domain = "vcpu_home_core",
	.flags = FILTER_FLAG_HIDDEN,
};

/* Does text parse and match item? -1 when it does not parse. */
static int
m(const char *text, const struct filter_item *it)
{
	struct filter	*f;
	char		*cause = NULL;
	int		 r;

	if (filter_parse(text, &f, &cause) != 0) {
		free(cause);
		return (-1);
	}
	r = filter_match(f, it);
	filter_free(f);
	return (r);
}

static void
test_words(void **state)
{
	(void)state;
	assert_int_equal(m("", &mem_bw), 1);
	assert_int_equal(m("   \t ", &core_cyc), 1);
	assert_int_equal(m("memory", &mem_bw), 1);
	assert_int_equal(m("MEMORY", &mem_bw), 1);	/* case-insensitive */
	assert_int_equal(m("bandwidth", &mem_bw), 1);	/* description */
	assert_int_equal(m("memory cyc", &mem_bw), 0);	/* AND */
	assert_int_equal(m("memory chip", &mem_bw), 1);
	assert_int_equal(m("cyc", &core_cyc), 1);
	assert_int_equal(m("anything", &vcpu), 0);	/* NULL desc */
	assert_int_equal(m("\"bandwidth of\"", &mem_bw), 1);
	assert_int_equal(m("\"of bandwidth\"", &mem_bw), 0);
	assert_int_equal(m("ba\"ndwidth o\"f", &mem_bw), 1);
}

static void
test_keys(void **state)
{
	(void)state;
	assert_int_equal(m("name:bandwidth", &mem_bw), 0);
	assert_int_equal(m("name:bw", &mem_bw), 1);
	assert_int_equal(m("domain:chip", &mem_bw), 1);
	assert_int_equal(m("domain:chip", &core_cyc), 0);
	assert_int_equal(m("domain:vcpu", &vcpu), 1);	/* a prefix */
	assert_int_equal(m("DOMAIN:CORE", &core_cyc), 1);
	assert_int_equal(m("flag:verified", &mem_bw), 1);
	assert_int_equal(m("flag:ver", &mem_bw), 1);
	assert_int_equal(m("flag:unverified", &mem_bw), 0);
	assert_int_equal(m("flag:caveat", &core_cyc), 1);
	assert_int_equal(m("flag:picked", &mem_bw), 1);
	assert_int_equal(m("flag:hidden", &vcpu), 1);
	assert_int_equal(m("group:pb_cyc", &mem_bw), 1);
	assert_int_equal(m("group:mem", &core_cyc), 0);
	/* An unknown key is part of an ordinary word. */
	assert_int_equal(m("chip,", &mem_bw), 1);
	assert_int_equal(m("chip:x", &mem_bw), 0);
}

static void
test_regex_negation(void **state)
{
	(void)state;
	assert_int_equal(m("re:^memory_.*_chip$", &mem_bw), 1);
	assert_int_equal(m("re:^MEMORY", &mem_bw), 1);
	assert_int_equal(m("re:^pm_", &mem_bw), 0);
	assert_int_equal(m("re:run nosuch", &core_cyc), 0);	/* two terms */
	assert_int_equal(m("re:\"run latch\"", &core_cyc), 1);
	assert_int_equal(m("!memory", &mem_bw), 0);
	assert_int_equal(m("!memory", &core_cyc), 1);
	assert_int_equal(m("!!memory", &mem_bw), 1);
	assert_int_equal(m("!re:^pm_ chip", &mem_bw), 1);
	assert_int_equal(m("!domain:chip", &core_cyc), 1);
	assert_int_equal(m("!flag:caveat", &core_cyc), 0);
	assert_int_equal(m("re:a|b", &core_cyc), 1);
}

static void
test_errors(void **state)
{
	struct filter	*f;
	char		*cause = NULL, big[5000];
	size_t		 i;

	(void)state;
	assert_int_equal(filter_parse("ok \"open", &f, &cause), -HV_EFORMAT);
	assert_non_null(strstr(cause, "column 4"));
	free(cause);
	assert_int_equal(filter_parse("a re:[", &f, &cause), -HV_EFORMAT);
	assert_non_null(strstr(cause, "column 3"));
	free(cause);
	assert_int_equal(filter_parse("re:", &f, &cause), -HV_EFORMAT);
	free(cause);
	assert_int_equal(filter_parse("x !", &f, &cause), -HV_EFORMAT);
	assert_non_null(strstr(cause, "column 3"));
	free(cause);
	assert_int_equal(filter_parse("flag:nosuch", &f, &cause), -HV_EFORMAT);
	assert_non_null(strstr(cause, "verified"));
	free(cause);
	/* "flag:" needs a value; "flag:v" is fine, "flag:x" is not. */
	assert_int_equal(filter_parse("flag:", &f, &cause), -HV_EFORMAT);
	free(cause);
	assert_int_equal(filter_parse("re:(a{200}){200}", &f, &cause),
	    -HV_ELIMIT);
	free(cause);
	assert_int_equal(filter_parse("re:b+++", &f, &cause), -HV_ELIMIT);
	free(cause);
	/*
	 * Nested repetitions multiply: glibc took 18 s and 2 GB to compile
	 * the first, 4 s and 540 MB the second.  Their sums of bounds are
	 * small; the copied-out size is not.
	 */
	assert_int_equal(filter_parse("re:((a?){128}){128}", &f, &cause),
	    -HV_ELIMIT);
	assert_non_null(strstr(cause, "column 1"));
	free(cause);
	assert_int_equal(filter_parse("x re:((((a{40}){40}){40}){40})", &f,
	    &cause), -HV_ELIMIT);
	assert_non_null(strstr(cause, "column 3"));
	free(cause);
	assert_int_equal(filter_parse("re:(a|b|c){9}((x?){2}y){500}", &f,
	    &cause), -HV_ELIMIT);
	free(cause);
	/* What fits stays allowed. */
	assert_int_equal(filter_parse("re:((a?){32}){32}", &f, &cause), 0);
	filter_free(f);
	assert_int_equal(filter_parse("re:(pm_(rd|wr)_[0-9]{2}){3}", &f,
	    &cause), 0);
	filter_free(f);
	assert_int_equal(filter_parse("re:(((((((a)+)+)+)+)+)+)+", &f,
	    &cause), -HV_ELIMIT);
	free(cause);
	for (i = 0; i < sizeof big - 1; i++)
		big[i] = i % 2 ? ' ' : 'a';
	big[sizeof big - 1] = '\0';
	assert_int_equal(filter_parse(big, &f, &cause), -HV_ELIMIT);
	free(cause);
	big[200] = '\0';	/* 100 terms */
	assert_int_equal(filter_parse(big, &f, &cause), -HV_ELIMIT);
	free(cause);
}

/*
 * Back-references make glibc backtrack: the first took it 100 % CPU and
 * 877 MB without end on one name, three groups 20 s a keystroke.  They
 * are refused, and each limit says which it is.
 */
static void
test_regex_refused(void **state)
{
	static const struct {
		const char	*text;
		const char	*why;
	} cases[] = {
		{ "re:(.*)(.*)(.*)(.*)(.*)\\5\\4\\3\\2\\1z",
		    "regex refused: a back-reference (\\1 to \\9): matching "
		    "one can take minutes (column 1)" },
		{ "x re:(a)\\1", "back-reference" },
		{ "re:(.*)(.*)(.*)\\3\\2\\1", "back-reference" },
		{ "re:((((((((((((((((((((((((((((((((((((((((a"
		    "))))))))))))))))))))))))))))))))))))))))",
		    "regex refused: groups nested more than 32 deep "
		    "(column 1)" },
		{ "re:b+++", "a quantifier after another" },
		{ "re:((a?){128}){128}", "positions once repetitions are "
		    "copied out" },
		{ "re:(a{200}){200}", "counted repetitions over 256" },
		{ "re:(((((((a)+)+)+)+)+)+)+", "more than 6 quantified "
		    "groups" },
		/* glibc: 7 s, 8.5 s, 0.6 s and 0.1 s to compile. */
		{ "re:(\\b\\b){80}", "regex refused: more than 32 word "
		    "boundaries (\\b \\B) once repetitions are copied out "
		    "(column 1)" },
		{ "re:((\\b\\<\\>){40}){4}", "word boundaries" },
		{ "re:((^$^$^$^$^$^$^$^$){15}){15}", "more than 1024 anchors" },
		{ "re:((a?$$$$$$$$$$$){128}){1}8", "more than 1024 anchors" },
		/* glibc: 7 GB to compile (found by the fuzzer). */
		{ "re:((^$||||||||||||||||||||||||||^$^$^$^$^$^$^$)){22})",
		    "regex refused: anchors (^ $) and alternatives (|) in one "
		    "repeated group (column 1)" },
		{ "re:(^a|b)+", "anchors (^ $) and alternatives" },
		/* A loop of what can match nothing; with nested counts
		 * glibc takes minutes to compile one of under 500
		 * positions. */
		{ "re:(x|)+", "regex refused: a loop (* + {m,}) of what can "
		    "match nothing, as (a?)*: glibc can take minutes to "
		    "compile one (column 1)" },
		{ "re:((((a*)*){1,4}){1,4}){1,4}", "a loop" },
		{ "re:((((a?){1,4}){1,4}){1,4}){2,}", "a loop" },
		{ "re:((((a?){1,4}){1,4}){1,4})*", "a loop" },
		{ "re:(x|y?)*", "a loop" },
		{ "re:(\\<)+", "a loop" },
		{ "re:(^)*", "a loop" },
		{ "re:()*", "a loop" },
	};
	struct filter	*f = NULL;
	char		*cause = NULL, big[300];
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_int_equal(filter_parse(cases[i].text, &f, &cause),
		    -HV_ELIMIT);
		if (strstr(cause, cases[i].why) == NULL)
			fail_msg("%s: %s", cases[i].text, cause);
		free(cause);
		cause = NULL;
	}
	/* Within the bounds. */
	assert_int_equal(filter_parse("re:(\\B\\B){16} re:\\<pm\\>",
	    &f, &cause), 0);
	filter_free(f);
	assert_int_equal(filter_parse("re:((^$^$^$^$^$^$^$^$){8}){8}", &f,
	    &cause), 0);
	filter_free(f);
	/* Anchors and alternatives apart are fine. */
	assert_int_equal(filter_parse("re:^(a|b)+$ re:(^a|b$) re:(^a)+",
	    &f, &cause), 0);
	filter_free(f);
	/* A loop of what matches at least one character is fine. */
	assert_int_equal(filter_parse("re:(a?b)* re:(a+)* re:(\\bpm)+ "
	    "re:[)]* re:(a[)]?){2,} re:((((a?){1,4}){1,4}){1,4}){1,4}", &f,
	    &cause), 0);
	filter_free(f);
	/* A backslash and a digit in brackets is no back-reference. */
	assert_int_equal(filter_parse("re:[\\1]x", &f, &cause), 0);
	filter_free(f);
	assert_int_equal(filter_parse("re:a\\.1", &f, &cause), 0);
	filter_free(f);
	memset(big, 'a', sizeof big - 1);
	memcpy(big, "re:", 3);
	big[sizeof big - 1] = '\0';
	assert_int_equal(filter_parse(big, &f, &cause), -HV_ELIMIT);
	assert_string_equal(cause, "regex longer than 256 bytes (column 1)");
	free(cause);
}

/* The fast path for simple patterns answers as regexec() does. */
static void
test_regex_fast(void **state)
{
	static const char *const pats[] = { "_0[0-4]", "^pm_", "cyc$",
	    "^pm_.*_cyc$", "m+e?m", "[^a-z]", "[]x]", "[a-]", "a.c", "\\.",
	    "x*", "^$", "pm_(rd|wr)", "[[:digit:]]", "\\w+", "a{2}",
	    "^[A-Z]+_[0-9]", "b+a*", "\\'", "a\\>", "\\<p", "\\`p", "ab)|x", "(a|b)c", NULL };
	static const char *const texts[] = { "", "pm_run_cyc", "pm_01_02", "x",
	    "bc", "ab)",
	    "memory_bw_chip", "a.c", "abc", "x]", "-", "mm", "pm_rd_x",
	    "pm_mem_l3_cyc", NULL };
	size_t	 i, j;

	(void)state;
	for (i = 0; pats[i] != NULL; i++) {
		for (j = 0; texts[j] != NULL; j++)
			assert_int_equal(filter_regex_agrees(pats[i],
			    texts[j]), 1);
	}
	assert_int_equal(filter_regex_agrees("[", "x"), -1);
	assert_int_equal(m("re:^pm_.*_cyc$", &core_cyc), 1);
	assert_int_equal(m("re:^pm_.*_inst$", &core_cyc), 0);
	assert_int_equal(m("re:^[a-z]+_[a-z]+_chip$", &mem_bw), 1);
}

static void
test_flags_wanted(void **state)
{
	struct filter	*f;
	char		*cause = NULL;

	(void)state;
	assert_int_equal(filter_parse("flag:hidden x !flag:broken", &f,
	    &cause), 0);
	assert_int_equal(filter_flags_wanted(f), FILTER_FLAG_HIDDEN);
	assert_false(filter_empty(f));
	filter_free(f);
	assert_int_equal(filter_parse("  ", &f, &cause), 0);
	assert_true(filter_empty(f));
	assert_int_equal(filter_flags_wanted(f), 0);
	filter_free(f);
	assert_true(filter_empty(NULL));
	assert_int_equal(filter_match(NULL, &mem_bw), 1);
	assert_string_equal(filter_flag_name(FILTER_FLAG_CAVEAT), "caveat");
	assert_null(filter_flag_name(0x1000));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_words),
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_regex_negation),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_regex_refused),
		cmocka_unit_test(test_regex_fast),
		cmocka_unit_test(test_flags_wanted),
	};

	return (cmocka_run_group_tests_name("filter", tests, NULL, NULL));
}
