/*
 * Files of tests/data for the unit tests, found from $top_srcdir as make
 * check sets it (the working directory otherwise).
 */
#ifndef HVTOP_TEST_DATA_H
#define HVTOP_TEST_DATA_H

#include <stddef.h>

/* tests/data/DIR/NAME, whole; fails the test when it cannot be read.
 * The caller frees it. */
char	*test_data_read(const char *dir, const char *name, size_t *lenp);

#endif /* HVTOP_TEST_DATA_H */
