/*
 * The sampling loop of hvtop's printing runs (see hvtop-loop.h) and the
 * pipe that wakes it.  The pipe is the one state it keeps: a signal
 * handler can reach nothing else.  It never samples or prints on its
 * own: the hooks do.
 */
#include "config.h"

#include "hvtop-loop.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <unistd.h>

#include "session/session.h"
#include "sys/iowait.h"
#include "util/strbuf.h"

static int	hvtop_loop_wake[2] = { -1, -1 };	/* written when it comes */

void
hvtop_loop_wake_init(void)
{
	if (pipe2(hvtop_loop_wake, O_CLOEXEC | O_NONBLOCK) == -1)
		hvtop_loop_wake[0] = hvtop_loop_wake[1] = -1;
}

void
hvtop_loop_wake_up(void)
{
	ssize_t	 n = 0;
	int	 saved = errno;

	/* A full pipe holds a wake-up already. */
	if (hvtop_loop_wake[1] != -1)
		n = write(hvtop_loop_wake[1], "", 1);
	(void)n;
	errno = saved;
}

void
hvtop_loop_wake_drain(void)
{
	char	 buf[64];

	while (hvtop_loop_wake[0] != -1 &&
	    read(hvtop_loop_wake[0], buf, sizeof buf) > 0)
		continue;
}

int
hvtop_loop_wake_fd(void)
{
	return (hvtop_loop_wake[0]);
}

int
hvtop_loop_flush(FILE *fp, struct strbuf *sb)
{
	int	 error;

	if (fflush(fp) != 0)
		return (-1);
	if (sb->len > 0 &&
	    (error = iowait_write(fileno(fp), sb->s, sb->len, NULL)) != 0) {
		errno = -error;
		return (-1);
	}
	strbuf_reset(sb);
	return (0);
}

uint64_t
hvtop_loop_step(struct session *s)
{
	return ((uint64_t)llround(session_interval(s) * 1e9));
}

/* The tick after next, or one from now when the run fell behind (or the
 * clock jumped ahead of it). */
static uint64_t
hvtop_loop_next(struct session *s, uint64_t next, uint64_t step)
{
	uint64_t	 now;

	next += step;
	now = session_now(s);
	if (next <= now || next - now > step)
		next = now + step;
	return (next);
}

int
hvtop_loop_run(struct session *s, uint64_t next,
    const struct hvtop_loop_hooks *h, void *arg)
{
	uint64_t	 step;
	int		 r;

	step = hvtop_loop_step(s);
	for (;;) {
		/* Asked before each sleep too: a signal that came while a
		 * hook drained the pipe left no wake-up. */
		if ((r = h->over(arg)) != 0)
			return (r);
		if (session_now(s) >= next) {
			if ((r = h->sample(arg)) != 0)
				return (r);
			next = hvtop_loop_next(s, next, step);
			continue;
		}
		if (session_sleep_until(s, next, hvtop_loop_wake_fd()) == 1 &&
		    h->woken != NULL)
			h->woken(arg);
	}
}
