/*
 * The session's recording (hvtop -w FILE): the preamble when the file is
 * opened, one record per sample, selection changes and catalog reloads
 * as they happen, an END record when it is closed.  This is where the
 * bytes of the pure writer (src/record/record.h) meet write(2) and
 * fdatasync(2).  It is handed plain data (the catalog bytes, the label,
 * the constants): it never asks a source.
 */
#ifndef HVTOP_SESSION_RECORD_H
#define HVTOP_SESSION_RECORD_H

#include <stddef.h>
#include <stdint.h>

struct raw_sample;
struct record_constant;
struct record_writer_opts;
struct selection;
struct topology;

struct session_record;

/* What a recording starts with.  Everything is the caller's and is
 * copied: it need not outlive session_record_open(). */
struct session_record_params {
	const char	*path;
	const char	*label;		/* the source's, for the header */
	const void	*catalog;	/* the catalog image */
	size_t		 catalog_len;
	const struct topology *topo;
	const struct selection *sel;
	/* The named constants, in order; a later one of a name replaces
	 * an earlier one: the frame's, then the values the run's formulas
	 * used, so that a replay computes what the run did. */
	const struct record_constant *consts;
	size_t		 nconsts;
	uint64_t	 epoch_ns;	/* wall-clock ns since 1970 at time 0 */
	uint64_t	 interval_ns;	/* the sampling interval */
	uint64_t	 now;		/* the clock's time now */
	const struct record_writer_opts *opts;	/* NULL: the defaults */
	/* A ring's budget: path is a directory of segments (session-ring.h)
	 * kept within it; 0: path is one file. */
	uint64_t	 ring;
};

/*
 * Create (or replace) p->path and write the preamble.  Returns 0 with
 * *out (caller closes with session_record_close()), or a negative code
 * with *cause set (caller frees).
 */
int	 session_record_open(const struct session_record_params *p,
	    struct session_record **out, char **cause);

/*
 * Append a sample, a new selection, or a reloaded catalog.  Samples are
 * written in small batches (see session-record.c); the others at once.
 * Returns 0 or -errno / -HV_E* with *cause set; after a failed write
 * nothing more is written.
 */
int	 session_record_sample(struct session_record *,
	    const struct raw_sample *, char **cause);
int	 session_record_select(struct session_record *,
	    const struct selection *, char **cause);
int	 session_record_catalog(struct session_record *, const void *,
	    size_t, char **cause);
/*
 * The topology the next selections are made from (copied): an @lpar
 * pick is recorded with its partitions.
 */
void	 session_record_topology(struct session_record *,
	    const struct topology *);

/*
 * After a failed write: the -errno of the failure, the samples the file
 * holds whole and the time of the last of them (as the source stamped
 * it).  0 while every write succeeded.
 */
int	 session_record_error(const struct session_record *,
	    uint64_t *samples, uint64_t *now);

/* Whether the recording is a ring, which a failure stops without
 * stopping the run. */
int	 session_record_ring(const struct session_record *);

/* Bytes recorded so far (written or about to be). */
uint64_t session_record_bytes(const struct session_record *);

/* Write the END record, make the file durable and close it; frees the
 * recording (NULL is fine).  Returns 0 or -errno with *cause set. */
int	 session_record_close(struct session_record *, char **cause);

#endif /* HVTOP_SESSION_RECORD_H */
