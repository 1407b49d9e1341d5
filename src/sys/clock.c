/*
 * Real and virtual clocks.  Nothing else in hvtop calls clock_gettime():
 * the engine and the sources are handed times, which keeps them testable.
 */
#include "config.h"

#include "sys/clock.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>

static uint64_t
clock_read(clockid_t id)
{
	struct timespec	 ts;

	clock_gettime(id, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec);
}

void
clock_init(struct hv_clock *c, int virtual_, uint64_t epoch)
{
	c->virtual_ = virtual_;
	c->now_ns = 0;
	c->last_ns = 0;
	c->start_ns = virtual_ ? 0 : clock_read(CLOCK_MONOTONIC);
	c->epoch_ns = virtual_ ? epoch : clock_read(CLOCK_REALTIME);
}

uint64_t
clock_now(struct hv_clock *c)
{
	uint64_t	 now;

	if (c->virtual_)
		return (c->now_ns);
	now = clock_read(CLOCK_MONOTONIC) - c->start_ns;
	/*
	 * A clock that steps back (faked time, a restored virtual machine)
	 * must neither wrap nor move time backwards: time stands where it
	 * was and goes on from there, so no wait is stretched by the step.
	 */
	if ((int64_t)(now - c->last_ns) < 0) {
		c->start_ns += now - c->last_ns;
		now = c->last_ns;
	}
	c->last_ns = now;
	return (now);
}

uint64_t
clock_wall(struct hv_clock *c, uint64_t t)
{
	return (c->epoch_ns + t);
}

/*
 * Sleep until t, or until fd becomes readable (a signal handler writes to
 * it), whichever comes first.  A signal that interrupts the wait without
 * writing to fd does not end it when there is an fd, and ends it when
 * there is none (fd -1): the caller looks at its flags then.  No path
 * sleeps longer than t less the clock's reading, and none restarts a
 * sleep the signal ended.  Returns 1 if fd is readable or a signal ended
 * a wait without fd, else 0.  A virtual clock moves to t unless fd is
 * readable already; without fd it only moves, making no system call.  A
 * wait that timed out at t ends there: one system call an interval, not
 * three (a second poll and a sleep until a time already past cost a
 * partition more than the rest of hvtop's interval).
 */
int
clock_sleep_until_fd(struct hv_clock *c, uint64_t t, int fd)
{
	struct pollfd	 pfd;
	struct timespec	 ts;
	uint64_t	 now, left;
	int		 n;

	if (c->virtual_ && fd < 0) {
		if (t > c->now_ns)
			c->now_ns = t;
		return (0);
	}
	pfd.fd = fd;
	pfd.events = POLLIN;
	for (;;) {
		pfd.revents = 0;
		now = clock_now(c);
		left = c->virtual_ || t <= now ? 0 : t - now;
		ts.tv_sec = (time_t)(left / 1000000000ULL);
		ts.tv_nsec = (long)(left % 1000000000ULL);
		n = ppoll(&pfd, 1, &ts, NULL);
		if (n > 0 && (pfd.revents & (POLLIN | POLLHUP)) != 0)
			return (1);
		if (n == -1 && errno == EINTR && fd < 0)
			return (1);
		if (n == -1 && errno != EINTR) {
			/* No poll: one plain sleep of what is left, which a
			 * signal ends. */
			if (left > 0)
				clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL);
			break;
		}
		if (left == 0)
			break;
		if (n == 0 && clock_now(c) >= t)
			return (0);
	}
	if (c->virtual_ && t > c->now_ns)
		c->now_ns = t;
	return (0);
}

uint64_t
clock_cpu_ns(void)
{
	return (clock_read(CLOCK_PROCESS_CPUTIME_ID));
}
