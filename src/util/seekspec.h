/*
 * Where to go in a replay, as a user types it: a sample number ("120"),
 * an offset from the first sample ("+90", "+1.5"), a time of day on the
 * first sample's date ("10:32", "10:32:05"), or a date and time
 * ("2026-01-01T10:32:05", a space or a trailing Z allowed).  Times are
 * UTC, as hvtop prints them.  Pure: no I/O, no clock.
 */
#ifndef HVTOP_SEEKSPEC_H
#define HVTOP_SEEKSPEC_H

#include <stdint.h>

enum seekspec_kind {
	SEEKSPEC_SAMPLE = 1,	/* value: a sample number */
	SEEKSPEC_WALL,		/* value: ns since 1970 */
};

struct seekspec {
	int		 kind;		/* enum seekspec_kind */
	uint64_t	 value;
};

/*
 * Parse s; first_wall is the wall-clock time (ns since 1970) of the
 * recording's first sample, which offsets and times of day are taken
 * from.  Returns 0, or -HV_EFORMAT with *cause naming the column
 * (caller frees).
 */
int	 seekspec_parse(const char *s, uint64_t first_wall,
	    struct seekspec *out, char **cause);

#endif /* HVTOP_SEEKSPEC_H */
