/*
 * The recording format (docs/FORMAT-recording.md): a versioned preamble
 * (the source's label, the topology, the catalog bytes and the selection)
 * followed by an append-only stream of records.  Each record has the
 * smallest header its data allows: a 32-bit compact header (type and a
 * truncated timestamp), a 64-bit normal header (type, size, 32-bit
 * timestamp) or a full header (type, size, 64-bit timestamp).  Heartbeats
 * carry the full timestamp, a sync marker and a CRC-32; they are where a
 * reader picks up again after damage, and where the counter predictors
 * start afresh.  Counter values are stored as the residuals of a
 * prediction from earlier samples and from the other counters of the same
 * record, range-coded with adaptive models.
 *
 * Pure: the writer appends bytes to a caller's buffer and the reader takes
 * bytes; neither does I/O, reads a clock or prints.  The file behind -w
 * is src/session/session-record.c; the replay source is
 * src/source/source-replay.c.
 */
#ifndef HVTOP_RECORD_H
#define HVTOP_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "model/raw.h"

struct selection;
struct topology;

/* The file header: magic, version, timestamp geometry (16 bytes). */
#define RECORD_MAGIC		"\x89HVR\r\n\x1a\n"
#define RECORD_MAGIC_LEN	8
#define RECORD_VERSION		3	/* written */
#define RECORD_VERSION_2	2	/* read too */
#define RECORD_VERSION_3	3
#define RECORD_FILE_HEADER	16

/*
 * Timestamps are nanoseconds of the recording host's monotonic clock.
 * Headers drop the low tb_shift bits (granularity 2^tb_shift ns) and keep
 * compact_bits (compact header) or 32 bits (normal header) of the rest.
 */
#define RECORD_TB_SHIFT		20	/* 1.048576 ms */
#define RECORD_COMPACT_BITS	27	/* wraps after 2^47 ns, 39 hours */
#define RECORD_COMPACT_MAX	27
#define RECORD_NORMAL_BITS	32

/* Record types.  Persisted: never renumber. */
enum record_type {
	RECORD_T_SAMPLE = 1,		/* one read of every counter */
	RECORD_T_HEARTBEAT = 2,		/* full time, sync marker, counts */
	RECORD_T_META = 3,		/* label, topology, clock, constants */
	RECORD_T_CATALOG = 4,		/* the catalog image */
	RECORD_T_SELECT = 5,		/* the selection */
	RECORD_T_END = 6,		/* the writer closed the file */
	RECORD_T_FRAME = 7,		/* the frame's and partition's identity */
};

/* Heartbeat payload: marker, counts, generations, offsets (56 bytes). */
#define RECORD_SYNC		"\xfeHVRSYN\xc5"
#define RECORD_SYNC_LEN		8
#define RECORD_HEARTBEAT_PAYLOAD 56

/*
 * A sample is written and read as a source passes it on: struct raw_sample
 * (model/raw.h), statuses < 8.  A recording keeps a value's status, not
 * how much of the interval a scaled value counted: a read sample's
 * counted is 0.
 */
#define RECORD_ERROR_MAX	256
_Static_assert(RECORD_ERROR_MAX == sizeof(((struct raw_sample *)0)->error),
    "a recorded error text is a raw sample's");

/*
 * One pick of the selection as written: counters of a pick are stored
 * index-major, one counter per event column for each index.
 */
struct record_pick {
	int		 kind;		/* 0 group (-g), 1 event (-e) */
	char		*spec;		/* as the user wrote it */
	int		 domain;	/* hcall domain, or SEL_DOMAIN_LPAR */
	uint16_t	 lpar;
	unsigned	*indices;	/* @lpar: each record's vcpu */
	size_t		 nindices;	/* @lpar: records (partition, vcpu,
					   placement) */
	/*
	 * @lpar picks only (else NULL and 0): each record's partition and
	 * domain (3..6), and the placements read (bit p: domain 3 + p).
	 */
	uint16_t	*lpars;
	uint8_t		*domains;
	unsigned	 places;
	char		**events;	/* sysfs names of the columns */
	size_t		 nevents;
};

struct record_selection {
	struct record_pick *picks;
	size_t		 npicks;
	size_t		 ncounters;	/* sum of nindices * nevents */
	/*
	 * The topology's partitions the @lpar picks were made from; kept
	 * only when there is such a pick (else NULL, 0, SEL_LPAR_SELF, 0).
	 */
	struct topo_lpar *lpars;
	size_t		 nlpars;
	uint16_t	 lpar_self;
	int		 lpars_denied;
};

struct record_topology {
	unsigned	 sockets;
	unsigned	 chips;
	unsigned	 cores;
	unsigned	 smt;
	unsigned	 vcpus;
	int		 interface;
	int		 privileged;
	uint64_t	 timebase_hz;
};

struct record_constant {
	char		*name;
	double		 value;
};

/* What the preamble says about the run. */
struct record_meta {
	char		*label;		/* the source's label */
	char		*writer;	/* "hvtop 0.1.0" */
	uint64_t	 epoch_ns;	/* wall-clock ns since 1970 at time 0 */
	uint64_t	 interval_ns;	/* the sampling interval asked for */
	struct record_topology topo;
	struct record_constant *consts;	/* named constants of the frame */
	size_t		 nconsts;
	/*
	 * Who the frame and the partition are: written as a FRAME record
	 * after the preamble when from is not FRAME_FROM_NONE (a zeroed
	 * meta writes none).  A reader sets it from that record, and to
	 * frame_ident_init()'s unknown when there is none.
	 */
	struct frame_ident frame;
};

/*
 * Fill d with copies of spec and the indices and room for nevents event
 * names (NULL until the caller sets them, with strings d then owns).
 */
void	 record_pick_init(struct record_pick *d, int kind, const char *spec,
	    int domain, uint16_t lpar, const unsigned *indices, size_t nindices,
	    size_t nevents);
/*
 * The selection as a recording stores it (picks with their spec strings,
 * indices and event columns by sysfs name), into *out (caller frees with
 * record_selection_free()).
 */
void	 record_selection_from(struct record_selection *out,
	    const struct selection *);
/*
 * Keep the topology's partitions with a selection that has an @lpar pick
 * (a replay rebuilds the picks from them); nothing otherwise.
 */
void	 record_selection_topology(struct record_selection *,
	    const struct topology *);
/* Whether a selection has an @lpar pick. */
int	 record_selection_has_lpar(const struct record_selection *);
/* Deep copies and comparison of selections; free releases the contents. */
void	 record_selection_copy(struct record_selection *,
	    const struct record_selection *);
void	 record_selection_free(struct record_selection *);
/* 0 when equal, else the index of the first differing pick plus one
 * (a pick only one of them has counts as differing). */
size_t	 record_selection_compare(const struct record_selection *,
	    const struct record_selection *);
void	 record_meta_free(struct record_meta *);

/* A growable byte buffer the writer appends to. */
struct record_buf {
	uint8_t		*p;
	size_t		 len;
	size_t		 cap;
};

void	 record_buf_reset(struct record_buf *);
void	 record_buf_free(struct record_buf *);

/* ---- writer -------------------------------------------------------- */

struct record_writer_opts {
	unsigned	 tb_shift;	/* <= 32 */
	unsigned	 compact_bits;	/* 1..27 */
	unsigned	 keyframe_samples; /* heartbeat at least every N */
	size_t		 keyframe_bytes;	/* ... or every N bytes */
	unsigned	 format;	/* RECORD_VERSION_2 or _3 */
};

/* Defaults: RECORD_TB_SHIFT, RECORD_COMPACT_BITS, 512 samples, 1 MiB. */
void	 record_write_defaults(struct record_writer_opts *);

struct record_writer;

/*
 * A writer with opts (NULL: the defaults).  Returns the writer (caller
 * frees with record_write_free()); the options are checked, out-of-range
 * ones are clamped.
 */
struct record_writer *record_write_new(const struct record_writer_opts *);
void	 record_write_free(struct record_writer *);

/*
 * The preamble: file header, META, CATALOG and SELECT records, appended
 * to out.  The writer copies what it needs.  Returns 0, or -HV_EUSAGE /
 * -HV_ELIMIT with *cause set (caller frees).
 */
int	 record_write_begin(struct record_writer *, const struct record_meta *,
	    const void *catalog, size_t catalog_len,
	    const struct record_selection *, uint64_t now,
	    struct record_buf *out, char **cause);

/*
 * One sample (nvalues must be the selection's counter count); a
 * heartbeat goes first when one is due.  Returns 0, or -HV_EUSAGE with
 * *cause set.
 */
int	 record_write_sample(struct record_writer *,
	    const struct raw_sample *, struct record_buf *out,
	    char **cause);

/* A new selection or catalog from now on.  Returns 0 or -HV_ELIMIT. */
int	 record_write_select(struct record_writer *,
	    const struct record_selection *, struct record_buf *out,
	    char **cause);
int	 record_write_catalog(struct record_writer *, const void *, size_t,
	    struct record_buf *out, char **cause);

/* The END record: the file was closed on purpose. */
void	 record_write_end(struct record_writer *, struct record_buf *out);

/* Counts so far: records and samples. */
uint64_t record_write_records(const struct record_writer *);
uint64_t record_write_samples(const struct record_writer *);

/* ---- reader -------------------------------------------------------- */

enum record_event_kind {
	RECORD_EV_EOF = 0,		/* no more records */
	RECORD_EV_SAMPLE,
	RECORD_EV_SELECT,
	RECORD_EV_CATALOG,
	RECORD_EV_END,			/* the writer's END record */
};

struct record_event {
	int		 kind;		/* enum record_event_kind */
	uint64_t	 offset;	/* of the record in the file */
	uint64_t	 time;		/* ns; a sample's exact time */
	const struct raw_sample *sample;	/* the reader owns it */
};

enum record_diag_kind {
	RECORD_DIAG_CORRUPT = 1,	/* resynchronised on a heartbeat */
	RECORD_DIAG_TORN,		/* the file ends inside a record */
	RECORD_DIAG_GARBAGE,		/* damage with no heartbeat after */
	RECORD_DIAG_LOST,		/* a selection or catalog was lost */
	RECORD_DIAG_UNCLOSED,		/* no END record */
};

/* Something wrong with the file, where, and what it cost. */
struct record_diag {
	int		 kind;		/* enum record_diag_kind */
	uint64_t	 offset;	/* where the problem starts */
	uint64_t	 length;	/* bytes skipped */
	uint64_t	 records;	/* records lost (0 when unknown) */
	uint64_t	 samples;	/* samples lost (0 when unknown) */
	char		 text[192];
};

#define RECORD_DIAG_MAX		64	/* kept; more are only counted */

struct record_stats {
	uint64_t	 records;	/* decoded */
	uint64_t	 samples;	/* delivered */
	uint64_t	 dropped_records;
	uint64_t	 dropped_samples;
	uint64_t	 skipped_bytes;
	uint64_t	 heartbeats;
	size_t		 ndiags;	/* including those not kept */
	int		 clean_end;	/* the END record was read */
};

struct record_reader;

/*
 * Read a recording held in buf (len bytes; not copied: it must outlive
 * the reader).  Checks the file header and the preamble: every record of
 * it must be whole and intact.  Returns 0 with *out (caller frees with
 * record_read_free()), or -HV_EFORMAT / -HV_ETRUNC / -HV_EVERSION with
 * *cause naming the byte offset (caller frees).
 */
/* Whether buf starts like a recording (the magic; nothing more checked). */
int	 record_read_is(const void *buf, size_t len);
int	 record_read_open(const void *buf, size_t len,
	    struct record_reader **out, char **cause);
void	 record_read_free(struct record_reader *);

/*
 * The next event.  Damage is never fatal: a bad record is reported as a
 * diagnostic and the reader goes on at the next heartbeat, or stops at
 * the end of the file.  The event's sample stays valid until the next
 * call.  Returns ev->kind.
 */
int	 record_read_next(struct record_reader *, struct record_event *);

/* Back to the first record after the preamble (diagnostics are kept). */
void	 record_read_rewind(struct record_reader *);

/* The state as of the last event returned (the reader owns them). */
const struct record_meta *record_read_meta(const struct record_reader *);
const struct record_selection *record_read_selection(
	    const struct record_reader *);
const void	*record_read_catalog(const struct record_reader *, size_t *);
/* Bumped whenever the selection or the catalog changes. */
unsigned record_read_changes(const struct record_reader *);
unsigned record_read_tb_shift(const struct record_reader *);
unsigned record_read_compact_bits(const struct record_reader *);

void	 record_read_stats(const struct record_reader *,
	    struct record_stats *);
const struct record_diag *record_read_diag(const struct record_reader *,
	    size_t);

#endif /* HVTOP_RECORD_H */
