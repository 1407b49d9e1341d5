/*
 * The one lister of a ring's segments (sys/ring-dir.h), on a directory
 * of the test's own: regular files under a segment's name, oldest
 * first, with their sizes; a symbolic link, a directory or another name
 * left out; a temporary name removed only when the writer asks, and only
 * when it is a regular file.
 */
#include "config.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include "record/record-ring.h"
#include "sys/ring-dir.h"

#define SEG1	"hvtop-20261202T021200Z-000001.hvrec"
#define SEG2	"hvtop-20261202T031200Z-000002.hvrec"
#define LINK3	"hvtop-20261202T041200Z-000003.hvrec"
#define TMP4	"hvtop-20261202T051200Z-000004.hvrec.Ab12xZ"
#define LTMP5	"hvtop-20261202T061200Z-000005.hvrec.Cd34yW"
#define DIR6	"hvtop-20261202T071200Z-000006.hvrec"

struct fixture {
	char	 dir[64];
};

static void
put(const char *dir, const char *name, size_t n)
{
	char	 path[256], buf[64];
	int	 fd;

	memset(buf, 'x', sizeof buf);
	snprintf(path, sizeof path, "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd != -1);
	assert_true(write(fd, buf, n) == (ssize_t)n);
	close(fd);
}

static int
there(const char *dir, const char *name)
{
	char		 path[256];
	struct stat	 st;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	return (lstat(path, &st) == 0);
}

static int
setup(void **state)
{
	struct fixture	*f = calloc(1, sizeof *f);
	char		 path[256];

	snprintf(f->dir, sizeof f->dir, "%s/hvtop-ringdir.XXXXXX",
	    getenv("TMPDIR") != NULL && strlen(getenv("TMPDIR")) < 30 ?
	    getenv("TMPDIR") : "/tmp");
	if (mkdtemp(f->dir) == NULL)
		return (-1);
	put(f->dir, SEG2, 10);
	put(f->dir, SEG1, 5);
	put(f->dir, TMP4, 7);
	put(f->dir, "notes.txt", 3);
	snprintf(path, sizeof path, "%s/%s", f->dir, LINK3);
	if (symlink(SEG1, path) != 0)
		return (-1);
	snprintf(path, sizeof path, "%s/%s", f->dir, LTMP5);
	if (symlink(SEG1, path) != 0)
		return (-1);
	snprintf(path, sizeof path, "%s/%s", f->dir, DIR6);
	if (mkdir(path, 0700) != 0)
		return (-1);
	*state = f;
	return (0);
}

static int
teardown(void **state)
{
	struct fixture	*f = *state;
	const char	*names[] = { SEG1, SEG2, LINK3, TMP4, LTMP5,
			    "notes.txt" };
	char		 path[256];
	size_t		 i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		snprintf(path, sizeof path, "%s/%s", f->dir, names[i]);
		(void)unlink(path);
	}
	snprintf(path, sizeof path, "%s/%s", f->dir, DIR6);
	(void)rmdir(path);
	(void)rmdir(f->dir);
	free(f);
	return (0);
}

/* The two regular segments, oldest first. */
static void
check_two(const struct record_ring_seg *v, size_t n)
{
	assert_int_equal(n, 2);
	assert_string_equal(v[0].name, SEG1);
	assert_int_equal(v[0].seq, 1);
	assert_int_equal(v[0].bytes, 5);
	assert_string_equal(v[1].name, SEG2);
	assert_int_equal(v[1].bytes, 10);
}

static void
test_reader(void **state)
{
	struct fixture		*f = *state;
	struct record_ring_seg	*v;
	char			*cause = NULL;
	size_t			 n;

	assert_int_equal(ring_dir_scan(f->dir, 0, &v, &n, &cause), 0);
	check_two(v, n);
	free(v);
	n = ring_dir_list(f->dir, &v, &cause);
	assert_null(cause);
	check_two(v, n);
	free(v);
	/* A reader leaves what a killed writer left. */
	assert_true(there(f->dir, TMP4));
	assert_true(there(f->dir, LTMP5));
}

static void
test_writer(void **state)
{
	struct fixture		*f = *state;
	struct record_ring_seg	*v;
	char			*cause = NULL;
	size_t			 n;

	assert_int_equal(ring_dir_scan(f->dir, RING_DIR_TIDY, &v, &n,
	    &cause), 0);
	check_two(v, n);
	free(v);
	/* The half-made segment goes; a link under such a name is not
	 * one, and neither it nor what it points to is touched. */
	assert_false(there(f->dir, TMP4));
	assert_true(there(f->dir, LTMP5));
	assert_true(there(f->dir, LINK3));
	assert_true(there(f->dir, SEG1));
	assert_true(there(f->dir, DIR6));
}

static void
test_missing(void **state)
{
	struct fixture		*f = *state;
	struct record_ring_seg	*v;
	char			 path[256];
	char			*cause = NULL;
	size_t			 n;

	snprintf(path, sizeof path, "%s/none", f->dir);
	assert_int_equal(ring_dir_scan(path, 0, &v, &n, &cause), -ENOENT);
	assert_non_null(cause);
	assert_non_null(strstr(cause, "none"));
	assert_int_equal(n, 0);
	free(cause);
	cause = NULL;
	assert_int_equal(ring_dir_list(path, &v, &cause), 0);
	assert_non_null(cause);
	free(cause);
	/* An empty directory: no segment, and no cause. */
	snprintf(path, sizeof path, "%s/%s", f->dir, DIR6);
	cause = NULL;
	assert_int_equal(ring_dir_list(path, &v, &cause), 0);
	assert_null(cause);
	free(v);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_reader, setup, teardown),
		cmocka_unit_test_setup_teardown(test_writer, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing, setup,
		    teardown),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
