/*
 * The directory of a ring recording (hvtop -w DIR --ring-size SIZE): its
 * segments as listed when the recording starts and as they are closed,
 * the removal of the oldest to stay within the budget, and the names of
 * new segments.  The arithmetic is src/record/record-ring.c's; this is
 * where it meets opendir(3), unlink(2) and fsync(2) of the directory.
 */
#ifndef HVTOP_SESSION_RING_H
#define HVTOP_SESSION_RING_H

#include <stddef.h>
#include <stdint.h>

struct session_ring;

/*
 * Open dir (created, 0750, when missing) as a ring of budget bytes: list
 * its segments and remove what a killed writer left half made.  Returns
 * 0 with *out (caller frees with session_ring_free()), or -errno /
 * -HV_ERANGE with *cause set (caller frees).
 */
int	 session_ring_open(const char *dir, uint64_t budget,
	    struct session_ring **out, char **cause);
void	 session_ring_free(struct session_ring *);

/* The path of the next segment, for its start (wall ns); caller frees. */
char	*session_ring_next(struct session_ring *, uint64_t wall_ns);
/* The segment last named by session_ring_next() was closed at bytes. */
void	 session_ring_add(struct session_ring *, uint64_t bytes);
/*
 * Remove the oldest closed segments until they, current bytes and
 * reserve bytes fit in the budget.  Returns the number removed.
 */
size_t	 session_ring_trim(struct session_ring *, uint64_t current,
	    uint64_t reserve);
/* Remove the oldest closed segment: 0, or -ENOENT when there is none. */
int	 session_ring_drop(struct session_ring *);

uint64_t session_ring_budget(const struct session_ring *);
/* The size at which a segment ends. */
uint64_t session_ring_segment_max(const struct session_ring *);

#endif /* HVTOP_SESSION_RING_H */
