/*
 * frame_ident: which frame and which partition hvtop runs in, as the
 * kernel publishes them (/proc/powerpc/lparcfg and the device tree's
 * ibm,partition-name) or as the simulator is told (--sim model=,
 * serial=, name=).  Pure: it parses bytes a caller read.
 *
 * The frame is named the way the HMC names it, MODEL*SERIAL
 * ("9080-M9S*21A1B2C"), its machine type-model and serial number.
 */
#ifndef HVTOP_FRAME_IDENT_H
#define HVTOP_FRAME_IDENT_H

#include <stddef.h>

#define FRAME_IDENT_MODEL_MAX	32	/* bytes with the NUL */
#define FRAME_IDENT_SERIAL_MAX	32
#define FRAME_IDENT_NAME_MAX	128

/* Where the identity came from. */
#define FRAME_FROM_NONE		0	/* nowhere: not known */
#define FRAME_FROM_LPARCFG	1	/* /proc/powerpc/lparcfg */
#define FRAME_FROM_DTREE	2	/* the device tree's root node */
#define FRAME_FROM_SIM		3	/* the simulator's keys */

/* Whether the partition's processors are shared or dedicated. */
#define FRAME_MODE_UNKNOWN	0
#define FRAME_MODE_SHARED	1
#define FRAME_MODE_DEDICATED	2

struct frame_ident {
	char		 model[FRAME_IDENT_MODEL_MAX];	/* "9080-M9S", "" */
	char		 serial[FRAME_IDENT_SERIAL_MAX];	/* "21A1B2C" */
	char		 name[FRAME_IDENT_NAME_MAX];	/* the frame's name,
							   "" unknown */
	char		 lpar_name[FRAME_IDENT_NAME_MAX];	/* "" unknown */
	int		 lpar_id;	/* -1 unknown */
	int		 mode;		/* FRAME_MODE_* */
	long		 entitled;	/* entitled capacity in hundredths
					   of a processor, -1 unknown */
	int		 from;		/* FRAME_FROM_* */
};

/* Nothing known: every field empty, -1 or unknown. */
void	 frame_ident_init(struct frame_ident *);

/*
 * Read lparcfg's text (len bytes, need not end in NUL) into fi: the
 * lines key=value, of which system_type ("IBM,9080-M9S"),
 * serial_number ("IBM,0221A1B2C"), partition_id,
 * shared_processor_mode (0 or 1) and partition_entitled_capacity are
 * kept; other keys and the first line ("lparcfg 1.9") are skipped.
 * Fields lparcfg does not give are left as they are.  Returns 0, or -1
 * with *cause set (caller frees) saying what is wrong and on which line:
 * a NUL byte, a line over 1024 bytes, a kept key twice, a value that is
 * not what the key takes.
 */
int	 frame_ident_lparcfg(struct frame_ident *, const char *buf,
	    size_t len, char **cause);

/*
 * Read the device tree's ibm,partition-name (len bytes: the name, then
 * a NUL) into fi->lpar_name.  Returns 0, or -1 with *cause set: empty,
 * no NUL at the end, a NUL or a control character inside, too long.
 */
int	 frame_ident_partition_name(struct frame_ident *, const char *buf,
	    size_t len, char **cause);

/*
 * Read one property of the device tree's root node, the ones the
 * kernel's lparcfg takes its first lines from when it has one: prop
 * "model" (lparcfg's system_type, "IBM,9080-M9S"), "system-id"
 * (serial_number, "IBM,0221A1B2C"), both strings ending in a NUL and
 * kept the way lparcfg's values are; "ibm,partition-no" (partition_id),
 * one 4-byte big-endian cell; "ibm,partition-name" as
 * frame_ident_partition_name().  Returns 0, or -1 with *cause set
 * saying which property and what is wrong with it; an unknown prop is
 * refused.  The field is left as it is on an error.
 */
int	 frame_ident_dt(struct frame_ident *, const char *prop,
	    const char *buf, size_t len, char **cause);
/* Where the identity came from, "lparcfg", "device tree", "simulator"
 * or "nowhere". */
const char *frame_ident_from(const struct frame_ident *);

/*
 * A serial or model as given to the simulator: 1 to 31 of [A-Za-z0-9]
 * (a model may also have '-').  Returns 0, or -1 with *cause set.
 */
int	 frame_ident_check(const char *what, const char *value, int model,
	    char **cause);

/* Whether the frame is known: a model and a serial. */
int	 frame_ident_known(const struct frame_ident *);
/*
 * The frame's MODEL*SERIAL into buf (size bytes, at least 64), or
 * "unknown" when it is not known.  Returns buf.
 */
char	*frame_ident_mtms(const struct frame_ident *, char *buf, size_t size);

/*
 * What this partition can see, the facts hvtop --check prints and the
 * endpoint's hvtop_capability series: counters readable at all (pmu),
 * the physical chips and cores (frame: the HMC's "Allow performance
 * information collection"), other partitions, a usable catalog.
 */
struct frame_caps {
	int	 pmu;
	int	 frame;
	int	 partitions;
	int	 catalog;
};
#define FRAME_NCAPS	4

struct topology;
/* The capabilities of a source that opened with topology t; catalog:
 * whether its catalog parsed without errors. */
void	 frame_ident_caps(const struct topology *t, int catalog,
	    struct frame_caps *);
/* Capability i's name ("pmu", "frame", "partitions", "catalog") and
 * value; NULL past FRAME_NCAPS. */
const char *frame_ident_cap(const struct frame_caps *, size_t i, int *on);

#endif /* HVTOP_FRAME_IDENT_H */
