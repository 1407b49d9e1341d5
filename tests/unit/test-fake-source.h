/*
 * A hand-made source for the interface's tests: the P8 catalog on 1 chip
 * x 4 cores, whose counters a test fills itself at each sample.
 */
#ifndef HVTOP_TEST_FAKE_SOURCE_H
#define HVTOP_TEST_FAKE_SOURCE_H

struct raw_sample;
struct source;

/* Fill rs (values, statuses, calls) for the n-th sample, n from 0. */
typedef void	(*fake_fill_fn)(struct raw_sample *rs, unsigned n);

/*
 * A source serving the catalog file at path, labelled label, whose n-th
 * sample is taken n seconds in and filled by fill.  The caller hands it
 * to a session, which closes it.  Aborts the test on failure.
 */
struct source	*fake_source_new(const char *path, const char *label,
		    fake_fill_fn fill);

#endif /* HVTOP_TEST_FAKE_SOURCE_H */
