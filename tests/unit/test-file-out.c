/*
 * The one writer of output files (sys/file-out.h): what each kind of
 * name becomes.  Device nodes are made here, in a folder of the test's
 * own (root only; the system's /dev is never touched).
 */
#include "config.h"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "sys/file.h"
#include "sys/file-out.h"
#include "util/hverr.h"

static char	*dir;

static int
setup(void **state)
{
	const char	*tmp = getenv("TMPDIR");

	(void)state;
	if (asprintf(&dir, "%s/hvtop-file-out.XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp") < 0 ||
	    mkdtemp(dir) == NULL)
		return (-1);
	return (0);
}

/* Remove what a test left in the folder (no subfolder deeper than one). */
static int
teardown(void **state)
{
	char	*cmd;
	int	 rc;

	(void)state;
	if (asprintf(&cmd, "rm -rf '%s'", dir) < 0)
		return (-1);
	rc = system(cmd);
	free(cmd);
	free(dir);
	return (rc == 0 ? 0 : -1);
}

static char *
at(const char *name)
{
	static char	 buf[4][4096];
	static int	 i;

	i = (i + 1) % 4;
	snprintf(buf[i], sizeof buf[i], "%s/%s", dir, name);
	return (buf[i]);
}

static void
put(const char *path, const char *text)
{
	FILE	*fp;

	assert_non_null(fp = fopen(path, "w"));
	assert_int_equal(fputs(text, fp) >= 0, 1);
	assert_int_equal(fclose(fp), 0);
}

/* The text of path, in a static buffer. */
static const char *
got(const char *path)
{
	static char	 buf[256];
	FILE		*fp;
	size_t		 n;

	assert_non_null(fp = fopen(path, "r"));
	n = fread(buf, 1, sizeof buf - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return (buf);
}

static void
write_ok(const char *path, const char *text, int flags)
{
	char	*cause = NULL;
	int	 error;

	error = file_write(path, text, strlen(text), flags, &cause);
	if (error != 0)
		fail_msg("%s: %s", path, cause);
}

/* file_write() fails with code, a cause holding why. */
static void
write_fails(const char *path, int flags, int code, const char *why)
{
	char	*cause = NULL;

	assert_int_equal(file_write(path, "x\n", 2, flags, &cause), code);
	assert_non_null(cause);
	if (strstr(cause, why) == NULL)
		fail_msg("cause \"%s\" does not say \"%s\"", cause, why);
	free(cause);
}

static mode_t
type(const char *path)
{
	struct stat	 st;

	assert_int_equal(lstat(path, &st), 0);
	return (st.st_mode & S_IFMT);
}

/* Names in the folder: no temporary file is left behind. */
static int
entries(void)
{
	DIR		*d;
	struct dirent	*e;
	int		 n = 0;

	assert_non_null(d = opendir(dir));
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(d);
	return (n);
}

/* A new file gets 0666 less the umask. */
static void
test_new_umask(void **state)
{
	struct stat	 st;
	mode_t		 mask;

	(void)state;
	mask = umask(022);
	write_ok(at("a"), "a\n", 0);
	(void)umask(077);
	write_ok(at("b"), "b\n", 0);
	(void)umask(mask);
	assert_int_equal(stat(at("a"), &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_int_equal(stat(at("b"), &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_string_equal(got(at("b")), "b\n");
}

/* A regular file is replaced by a new one (a hard link keeps the old
 * text), keeps its mode, and leaves no temporary file. */
static void
test_replace(void **state)
{
	struct stat	 before, after;

	(void)state;
	put(at("f"), "old\n");
	assert_int_equal(chmod(at("f"), 0640), 0);
	assert_int_equal(link(at("f"), at("f.old")), 0);
	assert_int_equal(stat(at("f"), &before), 0);
	write_ok(at("f"), "new\n", 0);
	assert_int_equal(stat(at("f"), &after), 0);
	assert_string_equal(got(at("f")), "new\n");
	assert_string_equal(got(at("f.old")), "old\n");
	assert_true(after.st_ino != before.st_ino);
	assert_int_equal(after.st_mode & 07777, 0640);
	assert_int_equal(entries(), 2);
}

/* As root, a replaced file keeps its owner too. */
static void
test_owner(void **state)
{
	struct stat	 st;

	(void)state;
	if (geteuid() != 0)
		skip();
	put(at("o"), "old\n");
	assert_int_equal(chown(at("o"), 4321, 4322), 0);
	write_ok(at("o"), "new\n", 0);
	assert_int_equal(stat(at("o"), &st), 0);
	assert_int_equal(st.st_uid, 4321);
	assert_int_equal(st.st_gid, 4322);
}

/* Links are followed, each from its own folder; the links stay. */
static void
test_links(void **state)
{
	struct stat	 st;
	mode_t		 mask;

	(void)state;
	assert_int_equal(mkdir(at("sub"), 0700), 0);
	put(at("t"), "old\n");
	assert_int_equal(symlink("../t", at("sub/l2")), 0);
	assert_int_equal(symlink("sub/l2", at("l1")), 0);
	write_ok(at("l1"), "new\n", 0);
	assert_int_equal(type(at("l1")), S_IFLNK);
	assert_int_equal(type(at("sub/l2")), S_IFLNK);
	assert_int_equal(type(at("t")), S_IFREG);
	assert_string_equal(got(at("t")), "new\n");
	/* A chain to nothing creates its end, with the umask's mode. */
	assert_int_equal(symlink("d2", at("d1")), 0);
	assert_int_equal(symlink(at("made"), at("d2")), 0);
	mask = umask(027);
	write_ok(at("d1"), "made\n", 0);
	(void)umask(mask);
	assert_int_equal(type(at("d1")), S_IFLNK);
	assert_int_equal(type(at("d2")), S_IFLNK);
	assert_string_equal(got(at("made")), "made\n");
	assert_int_equal(stat(at("made"), &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	/* A link into a folder that is not there: said so, nothing made. */
	assert_int_equal(symlink("nowhere/x", at("lost")), 0);
	write_fails(at("lost"), 0, -ENOENT, "lost (a link to ");
	/* A loop of links ends. */
	assert_int_equal(symlink("lb", at("la")), 0);
	assert_int_equal(symlink("la", at("lb")), 0);
	write_fails(at("la"), 0, -ELOOP, "la: ");
	assert_int_equal(entries(), 9);
}

/* A FIFO is written where it is, to its reader. */
static void
test_fifo(void **state)
{
	char	 buf[64];
	pid_t	 pid;
	ssize_t	 n;
	int	 status, fd, out;

	(void)state;
	assert_int_equal(mkfifo(at("p"), 0600), 0);
	pid = fork();
	assert_true(pid != -1);
	if (pid == 0) {
		/* The reader: copy what comes to a file. */
		alarm(60);
		if ((fd = open(at("p"), O_RDONLY)) == -1 ||
		    (out = open(at("read"), O_WRONLY | O_CREAT, 0600)) == -1)
			_exit(1);
		while ((n = read(fd, buf, sizeof buf)) > 0)
			if (write(out, buf, (size_t)n) != n)
				_exit(1);
		_exit(n == 0 && close(out) == 0 ? 0 : 1);
	}
	alarm(60);
	write_ok(at("p"), "through the FIFO\n", 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	alarm(0);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_string_equal(got(at("read")), "through the FIFO\n");
	assert_int_equal(type(at("p")), S_IFIFO);
	/* Where only a regular file will do, a FIFO is refused unopened. */
	write_fails(at("p"), FILE_OUT_REGULAR, -HV_EUSAGE,
	    "p: a FIFO, not a regular file; left as it is");
	assert_int_equal(type(at("p")), S_IFIFO);
}

/* A socket and a directory are refused and left as they are. */
static void
test_refused(void **state)
{
	struct sockaddr_un	 sun;
	int			 fd;

	(void)state;
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	snprintf(sun.sun_path, sizeof sun.sun_path, "%s", at("s"));
	assert_true((fd = socket(AF_UNIX, SOCK_STREAM, 0)) != -1);
	assert_int_equal(bind(fd, (struct sockaddr *)&sun, sizeof sun), 0);
	write_fails(at("s"), 0, -HV_EUSAGE, "s: a socket, which hvtop "
	    "does not write to; left as it is");
	assert_int_equal(type(at("s")), S_IFSOCK);
	close(fd);
	assert_int_equal(mkdir(at("d"), 0700), 0);
	write_fails(at("d"), 0, -EISDIR, "d: a directory");
	assert_int_equal(type(at("d")), S_IFDIR);
	write_fails("", 0, -ENOENT, "an empty file name");
}

/* Devices of the test's own: /dev/full's numbers give the disk-full
 * error, /dev/null's take the text, a block device is refused; each
 * node is the same node afterwards. */
static void
test_devices(void **state)
{
	struct stat	 st;

	(void)state;
	if (geteuid() != 0)
		skip();
	assert_int_equal(mknod(at("full"), S_IFCHR | 0666, makedev(1, 7)), 0);
	assert_int_equal(mknod(at("null"), S_IFCHR | 0666, makedev(1, 3)), 0);
	assert_int_equal(mknod(at("blk"), S_IFBLK | 0600, makedev(7, 0)), 0);
	assert_int_equal(symlink("null", at("tonull")), 0);
	write_fails(at("full"), 0, -ENOSPC, "full: No space left on device");
	write_ok(at("null"), "gone\n", 0);
	write_ok(at("tonull"), "gone\n", 0);
	write_fails(at("blk"), 0, -HV_EUSAGE, "blk: a block device");
	assert_int_equal(lstat(at("full"), &st), 0);
	assert_true(S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 7));
	assert_int_equal(lstat(at("null"), &st), 0);
	assert_true(S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3));
	assert_int_equal(lstat(at("blk"), &st), 0);
	assert_true(S_ISBLK(st.st_mode) && st.st_rdev == makedev(7, 0));
	assert_int_equal(type(at("tonull")), S_IFLNK);
	assert_int_equal(entries(), 4);
}

/* An output given up leaves the old file whole; one put in place early
 * (a stream) holds the new file from then on. */
static void
test_abort_place(void **state)
{
	struct file_out	 out;
	char		*cause = NULL;

	(void)state;
	put(at("f"), "old\n");
	assert_int_equal(file_out_open(at("f"), 0, &out, &cause), 0);
	assert_int_equal(file_out_write(&out, "half", 4, &cause), 0);
	file_out_abort(&out);
	assert_string_equal(got(at("f")), "old\n");
	assert_int_equal(entries(), 1);
	assert_int_equal(file_out_open(at("f"), 0, &out, &cause), 0);
	assert_int_equal(file_out_write(&out, "new\n", 4, &cause), 0);
	assert_string_equal(got(at("f")), "old\n");
	assert_int_equal(file_out_place(&out, &cause), 0);
	assert_string_equal(got(at("f")), "new\n");
	assert_int_equal(file_out_write(&out, "more\n", 5, &cause), 0);
	assert_int_equal(file_out_commit(&out, &cause), 0);
	assert_string_equal(got(at("f")), "new\nmore\n");
	assert_int_equal(entries(), 1);
	/* "-" is standard output when asked, a name otherwise. */
	assert_int_equal(file_out_open("-", FILE_OUT_DASH, &out, &cause), 0);
	assert_int_equal(out.kind, FILE_OUT_STDOUT);
	assert_int_equal(out.fd, STDOUT_FILENO);
	file_out_abort(&out);
	assert_true(fcntl(STDOUT_FILENO, F_GETFD) != -1);
}

/* A descriptor named as one is written at its own offset, with its own
 * O_APPEND: the file behind it is neither replaced nor cut short. */
static void
test_fdname(void **state)
{
	struct stat	 before, after;
	char		 name[64];
	int		 fd;

	(void)state;
	put(at("log"), "old\n");
	assert_int_equal(stat(at("log"), &before), 0);
	assert_true((fd = open(at("log"), O_WRONLY | O_APPEND)) != -1);
	snprintf(name, sizeof name, "/dev/fd/%d", fd);
	write_ok(name, "new\n", 0);
	snprintf(name, sizeof name, "/proc/self/fd/%d", fd);
	write_ok(name, "more\n", 0);
	close(fd);
	assert_int_equal(stat(at("log"), &after), 0);
	assert_true(after.st_ino == before.st_ino);
	assert_string_equal(got(at("log")), "old\nnew\nmore\n");
	/* A descriptor that is not open is said so. */
	write_fails("/dev/fd/987", 0, -EBADF, "/dev/fd/987: Bad file");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_new_umask, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_replace, setup, teardown),
		cmocka_unit_test_setup_teardown(test_owner, setup, teardown),
		cmocka_unit_test_setup_teardown(test_links, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fifo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(test_devices, setup, teardown),
		cmocka_unit_test_setup_teardown(test_abort_place, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_fdname, setup, teardown),
	};

	return (cmocka_run_group_tests_name("file-out", tests, NULL, NULL));
}
