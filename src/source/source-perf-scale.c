/*
 * Group reads into raw values.  When the kernel has more counters than a
 * PMU can count at once it multiplexes the groups: each runs for part of
 * the time, and its read says for how long (time_running) out of how long
 * it was enabled (time_enabled).  Such a count is scaled up to the whole
 * interval and handed on marked as an estimate (RAW_SCALED, with the
 * share counted), so that no output shows it as a measurement.  A group
 * that did not run has no value; nothing is made up for it.
 *
 * No syscalls: the reader hands in the words read(2) returned, which is
 * also how the tests drive it.
 */
#include "config.h"

#include "source/source-perf.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

#define SCALE_HDR	3	/* nr, time_enabled, time_running */
#define SCALE_MAX	((UINT64_C(1) << 63) - 1)	/* a delta's limit */

void
source_perf_scale_init(struct source_perf_scale *sc, size_t n)
{
	memset(sc, 0, sizeof *sc);
	sc->n = n;
	sc->count = xcalloc(n + 1, sizeof *sc->count);
	sc->value = xcalloc(n + 1, sizeof *sc->value);
}

void
source_perf_scale_clear(struct source_perf_scale *sc)
{
	if (sc == NULL)
		return;
	free(sc->count);
	free(sc->value);
	memset(sc, 0, sizeof *sc);
}

/* The share of an interval counted, in percent: 1-99 when partial. */
static unsigned
source_perf_scale_percent(uint64_t enabled, uint64_t running)
{
	unsigned __int128	 p;

	if (running >= enabled)
		return (100);
	if (running == 0)
		return (0);
	p = (unsigned __int128)running * 100 / enabled;
	return (p < 1 ? 1 : p > 99 ? 99 : (unsigned)p);
}

/* d counted over running, scaled to enabled; at most SCALE_MAX. */
static uint64_t
source_perf_scale_up(uint64_t d, uint64_t enabled, uint64_t running)
{
	unsigned __int128	 v;

	v = (unsigned __int128)d * enabled / running;
	return (v > SCALE_MAX ? SCALE_MAX : (uint64_t)v);
}

/*
 * The next value of counter j: its count scaled on the first read, else
 * the value before moved by the interval's scaled delta.  A delta of 2^63
 * or more is a count that went backwards (the hv_24x7 kernel's failure
 * path); it stays backwards so that the engine discards it.
 */
static uint64_t
source_perf_scale_next(struct source_perf_scale *sc, size_t j, uint64_t v,
    uint64_t enabled, uint64_t running, unsigned pct)
{
	uint64_t	 d;

	if (!sc->started)
		return (pct == 100 ? v : source_perf_scale_up(v, enabled,
		    running));
	d = v - sc->count[j];		/* modulo 2^64 */
	if (pct == 100)
		return (sc->value[j] + d);
	if (d <= SCALE_MAX)
		return (sc->value[j] + source_perf_scale_up(d, enabled,
		    running));
	return (sc->value[j] - source_perf_scale_up(-d, enabled, running));
}

uint64_t
source_perf_clock(struct source_perf_clock *c, uint64_t now,
    uint64_t enabled)
{
	uint64_t	 t, last = c->last;

	c->last = enabled;
	if (c->set && enabled > last) {
		t = c->now + (enabled - c->enabled);
		if (t <= now + SOURCE_PERF_CLOCK_SLACK &&
		    t + SOURCE_PERF_CLOCK_SLACK >= now)
			return (t);
	}
	c->now = now;
	c->enabled = enabled;
	c->set = 1;
	return (now);
}

unsigned
source_perf_scale(struct source_perf_scale *sc, const uint64_t *words,
    size_t nwords, const size_t *members, struct raw_value *values)
{
	struct raw_value	*rv;
	uint64_t		 enabled = 0, running = 0, den, drun;
	size_t			 j, nr = 0;
	unsigned		 pct;

	if (nwords >= SCALE_HDR) {
		nr = words[0] < nwords - SCALE_HDR ? words[0] :
		    nwords - SCALE_HDR;
		enabled = words[1];
		running = words[2];
	}
	sc->nr = nr = nr < sc->n ? nr : sc->n;
	den = sc->started ? enabled - sc->enabled : enabled;
	drun = sc->started ? running - sc->running : running;
	pct = nr == 0 || running == 0 ? 0 :
	    source_perf_scale_percent(den, drun);
	for (j = 0; j < sc->n; j++) {
		rv = &values[members[j]];
		rv->timebase = 0;
		rv->counted = 0;
		rv->value = 0;
		rv->status = RAW_MISSING;
		if (j >= nr || running == 0)
			continue;
		if (pct > 0) {
			rv->value = source_perf_scale_next(sc, j,
			    words[SCALE_HDR + j], den, drun, pct);
			rv->status = pct == 100 ? RAW_OK : RAW_SCALED;
			rv->counted = pct == 100 ? 0 : (uint8_t)pct;
			sc->value[j] = rv->value;
		}
		sc->count[j] = words[SCALE_HDR + j];
	}
	if (nr > 0 && running > 0) {
		sc->enabled = enabled;
		sc->running = running;
		sc->started = 1;
	}
	return (pct);
}
