/*
 * A ring of recordings (docs/FORMAT-recording.md, "The ring"): a
 * directory of segments, each a complete recording with its own
 * preamble, named by the wall-clock second it starts and a sequence
 * number so that the names sort by time.  The directory's size is held
 * within a budget by removing the oldest segments; a segment ends at an
 * eighth of the budget or after an hour, whichever comes first.
 *
 * Pure: names, sizes, times and the choice of segments, computed from
 * what the caller lists.  The directory itself (listing, removing,
 * writing) is src/session/session-ring.c's.
 */
#ifndef HVTOP_RECORD_RING_H
#define HVTOP_RECORD_RING_H

#include <stddef.h>
#include <stdint.h>

#define RECORD_RING_PREFIX	"hvtop-"
#define RECORD_RING_SUFFIX	".hvrec"
/* "hvtop-20261202T031200Z-000123.hvrec" and a NUL, with room to spare. */
#define RECORD_RING_NAME_MAX	64
#define RECORD_RING_PARTS	8	/* segments a budget is cut into */
#define RECORD_RING_SPAN_NS	3600000000000ULL	/* an hour */
#define RECORD_RING_MIN		65536	/* the smallest budget */

/* One segment as listed: its name's time and number, and its size. */
struct record_ring_seg {
	char		 name[RECORD_RING_NAME_MAX];
	uint64_t	 wall_ns;	/* from the name: the second it began */
	uint64_t	 seq;
	uint64_t	 bytes;
};

/* The segment name for a start time (wall ns since 1970) and number. */
void	 record_ring_name(char *buf, size_t len, uint64_t wall_ns,
	    uint64_t seq);
/*
 * Whether name is a segment's: 1 with *wall_ns and *seq set, 2 when it
 * is a segment's name plus the ".XXXXXX" of a file being written (left
 * by a writer that was killed), else 0.
 */
int	 record_ring_parse(const char *name, uint64_t *wall_ns,
	    uint64_t *seq);
/* Oldest first: by time, then number. */
void	 record_ring_sort(struct record_ring_seg *, size_t);
/*
 * How many of the oldest segments (sorted) must go so that the rest plus
 * reserve bytes fit in budget (never more than n).
 */
size_t	 record_ring_excess(const struct record_ring_seg *, size_t n,
	    uint64_t budget, uint64_t reserve);
/* The size at which a segment ends for a budget. */
uint64_t record_ring_segment_max(uint64_t budget);

/*
 * A size with an optional K, M, G or T suffix (powers of 1024, with or
 * without a trailing "B" or "iB").  Returns 0 with *out, or -HV_EFORMAT
 * / -HV_ERANGE with *cause set (caller frees).
 */
int	 record_ring_size_parse(const char *, uint64_t *out, char **cause);

/*
 * A time: ISO 8601 UTC ("2026-12-02T03:12:00Z", seconds and the Z
 * optional, a space for the T allowed, a date alone is its midnight) or
 * relative to now_ns ("-1h", "-30m", "-90s", "-2d", "now").  Wall ns
 * since 1970 into *out; 0 or -HV_EFORMAT with *cause set.
 */
int	 record_ring_time_parse(const char *, uint64_t now_ns, uint64_t *out,
	    char **cause);

/*
 * The segments (sorted, each spanning from its start to the next one's,
 * the last to end_ns) that overlap [from, to]: [*first, *last).  Returns
 * the count.
 */
size_t	 record_ring_window(const struct record_ring_seg *, size_t n,
	    uint64_t end_ns, uint64_t from, uint64_t to, size_t *first,
	    size_t *last);

#endif /* HVTOP_RECORD_RING_H */
