/*
 * The segments of a ring directory (record-ring.h names them), as its
 * readers see them: hvcat info DIR and the replay of a window.
 */
#ifndef HVTOP_RING_DIR_H
#define HVTOP_RING_DIR_H

#include <stddef.h>

struct record_ring_seg;

/*
 * The closed or current segments of dir that are regular files (a
 * symbolic link or a device under a segment's name is not one), oldest
 * first, with their sizes, into *out (free(3) it); their count.  0 with
 * *cause set when dir cannot be read, 0 with *cause NULL when it holds
 * no segment.
 */
size_t	 ring_dir_list(const char *dir, struct record_ring_seg **out,
	    char **cause);

#endif /* HVTOP_RING_DIR_H */
