/*
 * The segments of a ring directory (record-ring.h names them), as its
 * writer (session-ring.c) and its readers (hvcat info DIR, the replay of
 * a window) see them.
 */
#ifndef HVTOP_RING_DIR_H
#define HVTOP_RING_DIR_H

#include <stddef.h>

struct record_ring_seg;

#define RING_DIR_TIDY	0x1	/* remove what is left under a temporary
				   name (the writer, when it opens) */

/*
 * The closed or current segments of dir that are regular files (a
 * symbolic link or a device under a segment's name is not one), oldest
 * first, with their sizes, into *out (free(3) it) and their count into
 * *count.  With RING_DIR_TIDY, a regular file under a segment's
 * temporary name (a writer killed before it named it) is removed.
 * Returns 0, or -errno with *cause set (caller frees) when dir cannot be
 * read.
 */
int	 ring_dir_scan(const char *dir, int flags,
	    struct record_ring_seg **out, size_t *count, char **cause);

/*
 * ring_dir_scan() for a reader: the segments' count.  0 with
 * *cause set when dir cannot be read, 0 with *cause NULL when it holds
 * no segment.
 */
size_t	 ring_dir_list(const char *dir, struct record_ring_seg **out,
	    char **cause);

#endif /* HVTOP_RING_DIR_H */
