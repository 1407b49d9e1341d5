/*
 * The one place hvtop reads time.  A clock is real (CLOCK_MONOTONIC plus a
 * wall-clock origin for timestamps) or virtual (time moves only when the
 * program sleeps, so a batch run of a thousand intervals takes no time and
 * prints the same bytes every run).
 */
#ifndef HVTOP_CLOCK_H
#define HVTOP_CLOCK_H

#include <stdint.h>

struct hv_clock {
	int		 virtual_;	/* nonzero: time moves only by sleeping */
	uint64_t	 now_ns;	/* virtual: current time */
	uint64_t	 epoch_ns;	/* wall-clock time at now_ns == start */
	uint64_t	 start_ns;	/* monotonic time at creation */
	uint64_t	 last_ns;	/* real: the latest reading, which the
					 * next never goes below */
};

/* virtual_: start at epoch (ns since 1970), which timestamps use. */
void		 clock_init(struct hv_clock *, int virtual_, uint64_t epoch);
uint64_t	 clock_now(struct hv_clock *);	/* ns since creation */
uint64_t	 clock_wall(struct hv_clock *, uint64_t); /* ns since 1970 */
/* Sleep until t, or until the fd (-1: none) is readable: 1 then, or when
 * a signal ended a sleep without fd, else 0 (clock.c). */
int		 clock_sleep_until_fd(struct hv_clock *, uint64_t, int);
uint64_t	 clock_cpu_ns(void);		/* this process's CPU time */

#endif /* HVTOP_CLOCK_H */
