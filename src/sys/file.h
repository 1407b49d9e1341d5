/*
 * Whole-file reads, read-only maps and whole-file writes: the only way
 * catalogs, metric files, settings and recordings reach the pure parsers,
 * and the way a page, a catalog image or the settings leave hvtop
 * (file_write(): the writer of file-out.h, flags FILE_OUT_*).
 */
#ifndef HVTOP_FILE_H
#define HVTOP_FILE_H

#include <stddef.h>

#include "sys/file-out.h"

/* A file mapped read-only (file_map()). */
struct file_map {
	void	*p;
	size_t	 len;
};

int	file_read(const char *, size_t, void **, size_t *, char **);
int	file_map(const char *, const void *, size_t, size_t, const char *,
	    struct file_map *, char **);
void	file_unmap(struct file_map *);
int	file_write(const char *, const void *, size_t, int, char **);

#endif /* HVTOP_FILE_H */
