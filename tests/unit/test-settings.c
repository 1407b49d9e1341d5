/*
 * Unit tests for hvtoprc: parsing (versions, comments, errors with line
 * and column), printing back, and the file side (paths from the
 * environment, atomic save into missing directories, load).
 */
#include "config.h"

#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "util/hverr.h"
#include "sys/settings-file.h"
#include "util/strbuf.h"

static void
test_parse(void **state)
{
	static const char text[] =
	    "# hvtop settings\n"
	    "config_version=1\n"
	    "\n"
	    "interval = 0.5 \n"
	    "pick=group:Memory_BW@chip:0-1\r\n"
	    "pick=group:PB_CYC:2\n"
	    "  # indented comment\n"
	    "sort.chip=Memory_BW_Chip";
	struct settings	*s;
	char		*cause = NULL;

	(void)state;
	assert_int_equal(settings_parse(text, strlen(text), &s, &cause), 0);
	assert_int_equal(s->version, 1);
	/* Comments and blank lines are entries kept as written. */
	assert_int_equal(s->nentries, 8);
	assert_int_equal(s->nnotes, 0);
	assert_string_equal(s->entries[0].key, "");
	assert_string_equal(s->entries[0].value, "# hvtop settings");
	assert_string_equal(settings_get(s, "interval"), "0.5");
	assert_string_equal(settings_get(s, "pick"), "group:PB_CYC:2");
	assert_string_equal(s->entries[4].value,
	    "group:Memory_BW@chip:0-1");
	assert_int_equal(s->entries[4].line, 5);
	assert_string_equal(settings_get(s, "sort.chip"), "Memory_BW_Chip");
	assert_null(settings_get(s, "nosuch"));
	settings_free(s);

	/* Empty text: an empty model at the current version. */
	assert_int_equal(settings_parse("", 0, &s, &cause), 0);
	assert_int_equal(s->version, SETTINGS_VERSION);
	assert_int_equal(s->nentries, 0);
	settings_free(s);
}

static void
test_errors(void **state)
{
	struct settings	*s;
	char		*cause = NULL;

	(void)state;
	assert_int_equal(settings_parse("interval=1\n", 11, &s, &cause),
	    -HV_EFORMAT);
	assert_non_null(strstr(cause, "line 1"));
	free(cause);
	assert_int_equal(settings_parse("config_version=2\n", 17, &s, &cause),
	    -HV_EVERSION);
	assert_non_null(strstr(cause, "newer"));
	free(cause);
	assert_int_equal(settings_parse("config_version=x\n", 17, &s, &cause),
	    -HV_EFORMAT);
	free(cause);
	/* Lines not understood are kept, with a note: LINE:COLUMN. */
	assert_int_equal(settings_parse("config_version=1\n\nBad=1\n", 24, &s,
	    &cause), 0);
	assert_int_equal(s->nnotes, 1);
	assert_string_equal(s->notes[0], "3:1: expected key=value with a key "
	    "of a-z, 0-9, '_', '.', '-'");
	settings_free(s);
	assert_int_equal(settings_parse("config_version=1\nkey value\n", 27,
	    &s, &cause), 0);
	assert_int_equal(s->nnotes, 1);
	assert_non_null(strstr(s->notes[0], "2:5: "));
	settings_free(s);
	/* Lines hvtop cannot read before any setting: not an hvtoprc, so
	 * refused rather than kept and later written into. */
	assert_int_equal(settings_parse("# mine\nexport FOO=bar\n", 22, &s,
	    &cause), -HV_EFORMAT);
	assert_non_null(strstr(cause, "2:8: "));
	assert_non_null(strstr(cause, "config_version"));
	free(cause);
	/* A NUL byte cannot be kept: the file is refused. */
	assert_int_equal(settings_parse("config_version=1\nk=a\0b\n", 23, &s,
	    &cause), -HV_EFORMAT);
	assert_non_null(strstr(cause, "line 2, column 4: a NUL byte"));
	free(cause);
}

static void
test_format(void **state)
{
	struct settings	*s, *t;
	struct strbuf	 sb = { 0 };
	char		*cause = NULL;

	(void)state;
	s = settings_new();
	settings_add(s, "pick", "group:A:0-1");
	settings_add(s, "pick", "group:B:2");
	settings_set(s, "interval", "2");
	settings_set(s, "interval", "0.25");
	settings_add(s, "note", "two\nlines");
	settings_format(s, &sb);
	assert_string_equal(sb.s, "config_version=1\npick=group:A:0-1\n"
	    "pick=group:B:2\ninterval=0.25\nnote=two lines\n");
	/* Round trip. */
	assert_int_equal(settings_parse(sb.s, sb.len, &t, &cause), 0);
	assert_int_equal(t->nentries, 5);
	assert_string_equal(settings_get(t, "interval"), "0.25");
	settings_remove(t, "pick");
	assert_int_equal(t->nentries, 3);
	assert_null(settings_get(t, "pick"));
	settings_free(t);
	settings_free(s);
	strbuf_free(&sb);
}

static void
test_file(void **state)
{
	struct settings	*s, *t;
	struct stat	 st;
	char		 dir[] = "/tmp/hvtop-settings.XXXXXX", *path, *p;
	char		*cause = NULL;
	mode_t		 mask;

	(void)state;
	assert_non_null(mkdtemp(dir));
	path = NULL;
	assert_true(asprintf(&path, "%s/a/b/hvtoprc", dir) > 0);
	setenv("HVTOP_CONFIG", path, 1);
	p = settings_file_path();
	assert_string_equal(p, path);
	free(p);
	p = settings_file_history_path();
	assert_non_null(strstr(p, "/a/b/history"));
	free(p);

	/* Missing file: nothing, no error. */
	assert_int_equal(settings_file_load(path, &s, &cause), 0);
	assert_null(s);
	s = settings_new();
	settings_add(s, "pick", "group:X");
	/* A new file gets the mode the umask gives, as any new file. */
	mask = umask(022);
	assert_int_equal(settings_file_save(path, s, &cause), 0);
	(void)umask(mask);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0644);
	assert_int_equal(settings_file_load(path, &t, &cause), 0);
	assert_string_equal(settings_get(t, "pick"), "group:X");
	settings_free(t);
	settings_free(s);

	unsetenv("HVTOP_CONFIG");
	setenv("XDG_CONFIG_HOME", "/cfg", 1);
	setenv("XDG_STATE_HOME", "/state", 1);
	p = settings_file_path();
	assert_string_equal(p, "/cfg/hvtop/hvtoprc");
	free(p);
	p = settings_file_history_path();
	assert_string_equal(p, "/state/hvtop/history");
	free(p);

	unlink(path);
	p = strrchr(path, '/');
	*p = '\0';
	rmdir(path);
	p = strrchr(path, '/');
	*p = '\0';
	rmdir(path);
	rmdir(dir);
	free(path);
}

/* Parse text or fail the test. */
static struct settings *
parse(const char *text)
{
	struct settings	*s = NULL;
	char		*cause = NULL;

	if (settings_parse(text, strlen(text), &s, &cause) != 0)
		fail_msg("%s", cause);
	return (s);
}

static void
test_interval(void **state)
{
	static const struct {
		const char	*value;
		int		 error;
		const char	*says;
	} bad[] = {
		{ "nan", -HV_EFORMAT, "hvtoprc:2: interval=nan: not a number "
		    "of seconds; the default is used" },
		{ "0.001", -HV_ERANGE, "hvtoprc:2: interval=0.001: shorter "
		    "than 0.01 s; the default is used" },
		{ "1e400", -HV_ERANGE, "hvtoprc:2: interval=1e400: longer "
		    "than 86400 s; the default is used" },
		{ "inf", -HV_ERANGE, "longer than 86400 s" },
		{ "2s", -HV_EFORMAT, "interval=2s: not a number" },
	};
	struct settings	*s;
	char		*text, *cause = NULL;
	double		 d = 0;
	size_t		 i;

	(void)state;
	s = parse("config_version=1\n");
	assert_int_equal(settings_interval(s, &d, &cause), 0);
	settings_free(s);
	/* The last one wins, as settings_get() says. */
	s = parse("config_version=1\ninterval=nan\ninterval=2.5\n");
	assert_int_equal(settings_interval(s, &d, &cause), 1);
	assert_true(d == 2.5);
	settings_free(s);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_true(asprintf(&text, "config_version=1\ninterval=%s\n",
		    bad[i].value) > 0);
		s = parse(text);
		cause = NULL;
		assert_int_equal(settings_interval(s, &d, &cause),
		    bad[i].error);
		if (cause == NULL || strstr(cause, bad[i].says) == NULL)
			fail_msg("interval=%s: '%s' does not say '%s'",
			    bad[i].value, cause, bad[i].says);
		free(cause);
		settings_free(s);
		free(text);
	}
}

/*
 * What hvtop does not understand survives a write: comments, blank lines,
 * keys of a newer hvtop, lines that are not key=value, in their places;
 * a value set is set where its line is.
 */
static void
test_keep(void **state)
{
	static const char text[] =
	    "# my hvtop\n"
	    "config_version=1\n"
	    "\n"
	    "# how often\n"
	    "interval=0.7\n"
	    "future.key=something new\n"
	    "this is not a setting\r\n"
	    "pick=group:A\n"
	    "interval=0.9\n"
	    "  # the end\n";
	static const char want[] =
	    "# my hvtop\n"
	    "config_version=1\n"
	    "\n"
	    "# how often\n"
	    "interval=2\n"
	    "future.key=something new\n"
	    "this is not a setting\r\n"
	    "  # the end\n"
	    "pick=group:B\n";
	struct settings	*s;
	struct strbuf	 sb = { 0 };
	char		*cause = NULL;

	(void)state;
	assert_int_equal(settings_parse(text, strlen(text), &s, &cause), 0);
	assert_int_equal(s->nnotes, 1);
	assert_non_null(strstr(s->notes[0], "7:6: expected key=value"));
	assert_string_equal(settings_get(s, "interval"), "0.9");
	/* Unchanged, the text comes back byte for byte. */
	settings_format(s, &sb);
	assert_string_equal(sb.s, text);
	strbuf_reset(&sb);
	settings_set(s, "interval", "2");
	settings_remove(s, "pick");
	settings_add(s, "pick", "group:B");
	settings_format(s, &sb);
	assert_string_equal(sb.s, want);
	strbuf_free(&sb);
	settings_free(s);

	/* Comments before config_version stay before it. */
	s = parse("# first\n\nconfig_version=1\nx=1\n");
	settings_format(s, &sb);
	assert_string_equal(sb.s, "# first\n\nconfig_version=1\nx=1\n");
	strbuf_free(&sb);
	settings_free(s);
}

/* Writing follows a symbolic link and keeps the file's mode. */
static void
test_replace(void **state)
{
	struct settings	*s, *t;
	struct stat	 st;
	const char	*tmp = getenv("TMPDIR");
	char		*dir, *target, *link, *cause = NULL;

	(void)state;
	assert_true(asprintf(&dir, "%s/hvtop-settings.XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp") > 0);
	assert_non_null(mkdtemp(dir));
	assert_true(asprintf(&target, "%s/dotfiles-hvtoprc", dir) > 0);
	assert_true(asprintf(&link, "%s/hvtoprc", dir) > 0);
	s = settings_new();
	settings_add(s, "pick", "group:X");
	assert_int_equal(settings_file_save(target, s, &cause), 0);
	assert_int_equal(chmod(target, 0444), 0);
	assert_int_equal(symlink("dotfiles-hvtoprc", link), 0);
	settings_set(s, "pick", "group:Y");
	assert_int_equal(settings_file_save(link, s, &cause), 0);
	/* The link is a link still, and the file it names has changed. */
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(stat(target, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0444);
	assert_int_equal(settings_file_load(target, &t, &cause), 0);
	assert_string_equal(settings_get(t, "pick"), "group:Y");
	settings_free(t);
	/* A link to nothing creates the file it names, and stays a link. */
	unlink(target);
	assert_int_equal(settings_file_save(link, s, &cause), 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(settings_file_load(target, &t, &cause), 0);
	assert_string_equal(settings_get(t, "pick"), "group:Y");
	settings_free(t);
	settings_free(s);
	unlink(target);
	unlink(link);
	rmdir(dir);
	free(link);
	free(target);
	free(dir);
}

/* A FIFO or a directory where hvtoprc should be: refused at once. */
static void
test_not_regular(void **state)
{
	struct settings	*s = NULL;
	const char	*tmp = getenv("TMPDIR");
	char		*dir, *path, *cause = NULL;
	double		 d;

	(void)state;
	assert_true(asprintf(&dir, "%s/hvtop-settings.XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp") > 0);
	assert_non_null(mkdtemp(dir));
	assert_true(asprintf(&path, "%s/hvtoprc", dir) > 0);
	assert_int_equal(mkfifo(path, 0600), 0);
	/* Opening a FIFO for reading waits for a writer: never here. */
	alarm(10);
	assert_int_equal(settings_file_load(path, &s, &cause), -HV_EFORMAT);
	alarm(0);
	assert_null(s);
	assert_non_null(strstr(cause, "hvtoprc: not a regular file (a "
	    "pipe)"));
	free(cause);
	unlink(path);
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_equal(settings_file_load(path, &s, &cause), -HV_EFORMAT);
	assert_non_null(strstr(cause, "not a regular file (a directory)"));
	free(cause);
	rmdir(path);

	/* A file read names itself in what settings_interval() says. */
	s = settings_new();
	settings_add(s, "interval", "0.001");
	assert_int_equal(settings_file_save(path, s, &cause), 0);
	settings_free(s);
	assert_int_equal(settings_file_load(path, &s, &cause), 0);
	assert_int_equal(settings_interval(s, &d, &cause), -HV_ERANGE);
	assert_non_null(strstr(cause, "/hvtoprc:2: interval=0.001"));
	free(cause);
	settings_free(s);
	unlink(path);
	rmdir(dir);
	free(path);
	free(dir);
}

/* Save (W) over what is not a regular file: refused, the node kept. */
static void
save_refused(const char *path, mode_t type, const char *why)
{
	struct settings	*s;
	struct stat	 st;
	char		*cause = NULL;

	s = settings_new();
	settings_add(s, "pick", "group:X");
	assert_true(settings_file_save(path, s, &cause) < 0);
	assert_non_null(strstr(cause, why));
	free(cause);
	settings_free(s);
	assert_int_equal(lstat(path, &st), 0);
	assert_int_equal(st.st_mode & S_IFMT, type);
}

static void
test_save_not_regular(void **state)
{
	struct stat	 st;
	const char	*tmp = getenv("TMPDIR");
	char		*dir, *path, *link;

	(void)state;
	assert_true(asprintf(&dir, "%s/hvtop-settings.XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp") > 0);
	assert_non_null(mkdtemp(dir));
	assert_true(asprintf(&path, "%s/hvtoprc", dir) > 0);
	assert_true(asprintf(&link, "%s/link", dir) > 0);
	/* Writing a FIFO would wait for a reader: refused at once. */
	assert_int_equal(mkfifo(path, 0600), 0);
	alarm(30);
	save_refused(path, S_IFIFO, "hvtoprc: a FIFO, not a regular file");
	/* Through a link too, which stays a link. */
	assert_int_equal(symlink("hvtoprc", link), 0);
	save_refused(link, S_IFLNK, "link: a FIFO, not a regular file");
	alarm(0);
	assert_int_equal(stat(link, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	unlink(path);
	/* A device of our own, as /dev/null is (root only). */
	if (mknod(path, S_IFCHR | 0600, makedev(1, 3)) == 0) {
		save_refused(path, S_IFCHR, "hvtoprc: a device, not a "
		    "regular file");
		assert_int_equal(stat(path, &st), 0);
		assert_int_equal(major(st.st_rdev), 1);
		assert_int_equal(minor(st.st_rdev), 3);
		unlink(path);
	} else
		fprintf(stderr, "# not root: no device node made\n");
	unlink(link);
	rmdir(dir);
	free(link);
	free(path);
	free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_interval),
		cmocka_unit_test(test_not_regular),
		cmocka_unit_test(test_keep),
		cmocka_unit_test(test_replace),
		cmocka_unit_test(test_save_not_regular),
	};

	return (cmocka_run_group_tests_name("settings", tests, NULL, NULL));
}
