/*
 * Real and virtual clocks.  Nothing else in hvtop calls clock_gettime():
 * the engine and the sources are handed times, which keeps them testable.
 */
#include "config.h"

#include "util/clock.h"

#include <errno.h>
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
	c->start_ns = virtual_ ? 0 : clock_read(CLOCK_MONOTONIC);
	c->epoch_ns = virtual_ ? epoch : clock_read(CLOCK_REALTIME);
}

uint64_t
clock_now(struct hv_clock *c)
{
	if (c->virtual_)
		return (c->now_ns);
	return (clock_read(CLOCK_MONOTONIC) - c->start_ns);
}

uint64_t
clock_wall(struct hv_clock *c, uint64_t t)
{
	return (c->epoch_ns + t);
}

void
clock_sleep_until(struct hv_clock *c, uint64_t t)
{
	struct timespec	 ts;
	uint64_t	 abs;

	if (c->virtual_) {
		if (t > c->now_ns)
			c->now_ns = t;
		return;
	}
	abs = c->start_ns + t;
	ts.tv_sec = (time_t)(abs / 1000000000ULL);
	ts.tv_nsec = (long)(abs % 1000000000ULL);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	    EINTR)
		;
}

uint64_t
clock_cpu_ns(void)
{
	return (clock_read(CLOCK_PROCESS_CPUTIME_ID));
}
