/*
 * Whole-file reads and atomic writes: the only way catalogs, metric files
 * and settings reach the pure parsers.
 */
#ifndef HVTOP_FILE_H
#define HVTOP_FILE_H

#include <stddef.h>

int	file_read(const char *, size_t, void **, size_t *, char **);
int	file_write_atomic(const char *, const void *, size_t, char **);

#endif /* HVTOP_FILE_H */
