/*
 * Waits that a signal ends (iowait.h): every wait is a poll(2) of the
 * file and of the stop pipe, which iowait_stop() writes and nothing
 * drains, so a stop that comes just before a wait ends it too.
 */
#include "config.h"

#include "sys/iowait.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <unistd.h>

#define IOWAIT_FIFO_MS	50	/* how often a reader of a FIFO is looked for */

static volatile sig_atomic_t	 iowait_sig;
static int			 iowait_pipe[2] = { -1, -1 };

int
iowait_init(void)
{
	if (iowait_pipe[0] != -1)
		return (0);
	if (pipe2(iowait_pipe, O_CLOEXEC | O_NONBLOCK) == -1) {
		iowait_pipe[0] = iowait_pipe[1] = -1;
		return (-errno);
	}
	return (0);
}

void
iowait_stop(int sig)
{
	ssize_t	 n = 0;
	int	 saved = errno;

	if (iowait_sig == 0)
		iowait_sig = sig;
	/* A full pipe is readable already. */
	if (iowait_pipe[1] != -1)
		n = write(iowait_pipe[1], "", 1);
	(void)n;
	errno = saved;
}

int
iowait_stopped(void)
{
	return (iowait_sig);
}

/* poll(2) of fd (or none, -1) and the stop pipe for ms (-1: no end).
 * 1 when fd is ready, 0 when the time is up, -EINTR when stopped. */
static int
iowait_poll(int fd, short events, int ms)
{
	struct pollfd	 pfd[2];
	int		 n;

	for (;;) {
		pfd[0].fd = fd;
		pfd[0].events = events;
		pfd[0].revents = 0;
		pfd[1].fd = iowait_pipe[0];
		pfd[1].events = POLLIN;
		pfd[1].revents = 0;
		/* After the stop nothing waits. */
		n = poll(pfd, 2, iowait_sig != 0 ? 0 : ms);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			return (-errno);
		if (pfd[0].revents != 0)
			return (1);
		if (pfd[1].revents != 0 || (n == 0 && iowait_sig != 0))
			return (-EINTR);
		if (n == 0)
			return (0);
	}
}

int
iowait_fd(int fd, short events)
{
	int	 r;

	while ((r = iowait_poll(fd, events, -1)) == 0)
		continue;
	return (r < 0 ? r : 0);
}

int
iowait_sleep(uint64_t ns)
{
	uint64_t	 ms = (ns + 999999) / 1000000;

	if (ms > INT_MAX)
		ms = INT_MAX;
	return (iowait_poll(-1, 0, (int)ms) < 0 ? -EINTR : 0);
}

/*
 * A FIFO opened for writing without O_NONBLOCK waits for a reader inside
 * open(2), where no poll can see a signal; with O_NONBLOCK it fails with
 * ENXIO until one comes, and the kernel tells nobody when it does: look
 * again every IOWAIT_FIFO_MS.  Reading, O_NONBLOCK opens at once.
 */
int
iowait_open(const char *path, int flags, mode_t mode)
{
	struct stat	 st;
	int		 fd, fl, r;

	for (;;) {
		fd = open(path, flags | O_NONBLOCK | O_CLOEXEC, mode);
		if (fd != -1)
			break;
		if (errno == EINTR)
			continue;
		if (errno != ENXIO || (flags & O_ACCMODE) != O_WRONLY ||
		    stat(path, &st) == -1 || !S_ISFIFO(st.st_mode))
			return (-errno);
		if ((r = iowait_poll(-1, 0, IOWAIT_FIFO_MS)) < 0)
			return (r);
	}
	/* The waits here poll; plain reads and writes block as asked. */
	if (!(flags & O_NONBLOCK) && (fl = fcntl(fd, F_GETFL)) != -1)
		(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return (fd);
}

/*
 * A regular file never makes a write wait.  Anything else (a pipe, a
 * FIFO, a terminal, a socket) is polled first, and once it has room a
 * write of PIPE_BUF bytes does not block even on a blocking fd.
 */
int
iowait_write(int fd, const void *data, size_t len, size_t *done)
{
	struct stat	 st;

	return (iowait_write_kind(fd, fstat(fd, &st) == 0 &&
	    S_ISREG(st.st_mode), data, len, done));
}

int
iowait_write_kind(int fd, int reg, const void *data, size_t len,
    size_t *done)
{
	const char	*p = data;
	size_t		 chunk;
	ssize_t		 w;
	int		 error;

	error = 0;
	while (len > 0 && error == 0) {
		if (!reg && (error = iowait_fd(fd, POLLOUT)) != 0)
			break;
		chunk = reg || len < PIPE_BUF ? len : PIPE_BUF;
		w = write(fd, p, chunk);
		if (w == -1 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (w == -1) {
			error = -errno;
			break;
		}
		p += w;
		len -= (size_t)w;
	}
	if (done != NULL)
		*done = (size_t)(p - (const char *)data);
	return (error);
}

/* One read at off (-1: where the fd stands) once fd is readable; a
 * regular file is always readable, and costs no poll. */
static ssize_t
iowait_read_at(int fd, void *buf, size_t len, off_t off)
{
	struct stat	 st;
	ssize_t		 r;
	int		 reg, error;

	reg = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
	for (;;) {
		if (!reg && (error = iowait_fd(fd, POLLIN)) != 0)
			return (error);
		r = off < 0 ? read(fd, buf, len) : pread(fd, buf, len, off);
		if (r >= 0)
			return (r);
		if (errno != EINTR && errno != EAGAIN)
			return (-errno);
	}
}

ssize_t
iowait_read(int fd, void *buf, size_t len)
{
	return (iowait_read_at(fd, buf, len, -1));
}

ssize_t
iowait_pread(int fd, void *buf, size_t len, off_t off)
{
	return (iowait_read_at(fd, buf, len, off < 0 ? 0 : off));
}
