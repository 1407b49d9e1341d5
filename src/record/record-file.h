/*
 * Recording to a file (hvtop -w FILE): the preamble when the file is
 * opened, one record per sample, selection changes and catalog reloads
 * as they happen, an END record when it is closed.  Core: this is where
 * the bytes of the pure writer meet write(2) and fdatasync(2).
 */
#ifndef HVTOP_RECORD_FILE_H
#define HVTOP_RECORD_FILE_H

#include <stddef.h>
#include <stdint.h>

struct raw_sample;
struct record_constant;
struct record_selection;
struct record_writer_opts;
struct selection;
struct source;
struct topology;

struct record_file;

/*
 * Create (or truncate) path and write the preamble: the source's label,
 * topology, catalog and named constants, the selection, the wall-clock
 * epoch of time 0 and the sampling interval.  consts are nconsts values
 * that replace or add to the source's constants: the values the run's
 * formulas used, so that a replay computes what the run did (the caller
 * decides them; this only records).  opts may be NULL (the defaults).
 * Returns 0 with *out (caller closes with record_file_close()), or a
 * negative code with *cause set (caller frees).
 */
int	 record_file_open(const char *path, struct source *,
	    const struct topology *, const struct selection *,
	    const struct record_constant *consts, size_t nconsts,
	    uint64_t epoch_ns, uint64_t interval_ns, uint64_t now,
	    const struct record_writer_opts *, struct record_file **out,
	    char **cause);

/*
 * Append a sample, a new selection, or a reloaded catalog.  Samples are
 * written in small batches (see record-file.c); the others at once.
 * Returns 0 or -errno / -HV_E* with *cause set; after a failed write
 * nothing more is written.
 */
int	 record_file_sample(struct record_file *, const struct raw_sample *,
	    char **cause);
int	 record_file_select(struct record_file *, const struct selection *,
	    char **cause);
int	 record_file_catalog(struct record_file *, const void *, size_t,
	    char **cause);

/*
 * After a failed write: the -errno of the failure, the samples the file
 * holds whole and the time of the last of them (as the source stamped
 * it).  0 while every write succeeded.
 */
int	 record_file_failed(const struct record_file *, uint64_t *samples,
	    uint64_t *now);

/* Bytes recorded so far (written or about to be). */
uint64_t record_file_bytes(const struct record_file *);

/* Write the END record, make the file durable and close it; frees rf
 * (NULL is fine).  Returns 0 or -errno with *cause set. */
int	 record_file_close(struct record_file *, char **cause);

#endif /* HVTOP_RECORD_FILE_H */
