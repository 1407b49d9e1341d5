/*
 * Whole-file reads, read-only maps and atomic writes: the only way
 * catalogs, metric files, settings and recordings reach the pure parsers.
 */
#ifndef HVTOP_FILE_H
#define HVTOP_FILE_H

#include <stddef.h>

/* A file mapped read-only (file_map()). */
struct file_map {
	void	*p;
	size_t	 len;
};

int	file_read(const char *, size_t, void **, size_t *, char **);
int	file_map(const char *, const void *, size_t, size_t, const char *,
	    struct file_map *, char **);
void	file_unmap(struct file_map *);
int	file_write_atomic(const char *, const void *, size_t, char **);
int	file_replace(const char *, const void *, size_t, char **);

#endif /* HVTOP_FILE_H */
