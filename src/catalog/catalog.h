/*
 * The 24x7 catalog model: page 0, schemas, events, groups and formulas as
 * the hypervisor publishes them (big-endian, 4096-byte pages), plus the
 * indexes hvtop needs.  Pure: catalog_parse() takes bytes and returns a
 * model; catalog_write() takes a model and returns bytes.  No I/O.
 *
 * Layouts: Linux, arch/powerpc/perf/hv-24x7-catalog.h (page 0 and the
 * entries) and hv-24x7-domains.h (the domains).
 */
#ifndef HVTOP_CATALOG_H
#define HVTOP_CATALOG_H

#include <stddef.h>
#include <stdint.h>

#define CATALOG_PAGE_SIZE	4096
#define CATALOG_MAGIC		0x32347837U	/* "24x7" */
#define CATALOG_GROUP_SLOTS	16
#define CATALOG_SLOT_FREE	0xffff
#define CATALOG_NONE		0xffffffffU	/* absent index or offset */

/* Domains as the catalog and the hcall interface number them. */
enum catalog_domain {
	CATALOG_DOMAIN_CHIP = 1,		/* physical chip */
	CATALOG_DOMAIN_CORE = 2,		/* physical core */
	CATALOG_DOMAIN_VCPU_HOME_CORE = 3,	/* "thread" in proposal v0.16 */
	CATALOG_DOMAIN_VCPU_HOME_CHIP = 4,
	CATALOG_DOMAIN_VCPU_HOME_NODE = 5,
	CATALOG_DOMAIN_VCPU_REMOTE_NODE = 6,
	/* Not the hypervisor's: a CPU as perf counts it, for the events of
	 * PMUs other than hv_24x7 in a source's catalog model.  Above a
	 * byte, so that no catalog or hcall can carry it. */
	CATALOG_DOMAIN_CPU = 0x100,
};
#define CATALOG_DOMAIN_MAX	7	/* first invalid value in a catalog */

enum catalog_section_id {
	CATALOG_SCHEMAS,
	CATALOG_EVENTS,
	CATALOG_GROUPS,
	CATALOG_FORMULAS,
	CATALOG_NSECTIONS
};

/* One 8-byte page-0 section descriptor, in pages as stored. */
struct catalog_section {
	uint16_t	 page;		/* offset in 4096-byte pages */
	uint16_t	 pages;		/* length in pages */
	uint16_t	 count;		/* entries claimed */
};

/* Why the kernel would not create a sysfs event for an entry. */
#define CATALOG_SKIP_RECLEN0	0x1	/* group record length is 0 */
#define CATALOG_SKIP_RESERVED	0x2	/* name starts with RESERVED */
#define CATALOG_SKIP_DOMAIN	0x4	/* domain invalid for the interface */

/* Event flags word (state of verification). */
#define CATALOG_FLAG_VERIFIED	0x1
#define CATALOG_FLAG_UNVERIFIED	0x2
#define CATALOG_FLAG_CAVEAT	0x4
#define CATALOG_FLAG_BROKEN	0x8

/*
 * Catalog strings are untrusted bytes, so the text the model hands out is
 * safe to print: catalog_reindex() (and so catalog_parse()) escapes every
 * C0 and C1 control, DEL and byte not part of valid UTF-8 as \xNN (see
 * catalog_text_escape()).  When that changed a string, the bytes as
 * stored are kept in the entry's stored[] (else NULL), in the order the
 * entry stores its strings, for catalog_write() and the JSON form; no one
 * else should print them.
 */
#define CATALOG_EVENT_NSTRINGS	3	/* name, desc, long_desc */
#define CATALOG_GROUP_NSTRINGS	2	/* name, desc */
#define CATALOG_FORMULA_NSTRINGS 4	/* name, desc, formula, unit */

struct catalog_event {
	uint32_t	 index;		/* position in the event section */
	size_t		 file_offset;	/* byte offset of the entry */
	uint16_t	 entry_length;	/* bytes, as stored */
	uint16_t	 formula_raw;	/* bytes 0x02-0x03 as stored */
	uint32_t	 formula;	/* v0.17 formula index or CATALOG_NONE */
	uint16_t	 domain;	/* a catalog's byte, or DOMAIN_CPU */
	uint16_t	 record_offset;	/* group record offset in the domain */
	uint16_t	 record_length;
	uint16_t	 counter_offset; /* from the start of the record */
	uint32_t	 offset;	/* record_offset + counter_offset */
	uint32_t	 flags;
	uint16_t	 primary_group;	/* as stored; real catalogs misuse it */
	uint16_t	 group_count;	/* as stored */
	char		*name;		/* catalog name, NUL-terminated copy */
	char		*sysfs_name;	/* name, plus __N for a duplicate */
	char		*desc;
	char		*long_desc;
	/* Strings as stored, where the text above had to be escaped. */
	char		*stored[CATALOG_EVENT_NSTRINGS];
	unsigned	 skip;		/* CATALOG_SKIP_* or 0 */
	uint32_t	*groups;	/* groups with a slot naming this event */
	size_t		 ngroups;
};

struct catalog_group {
	uint32_t	 index;
	size_t		 file_offset;
	uint16_t	 entry_length;
	uint32_t	 flags;
	uint16_t	 domain;	/* a catalog's byte, or DOMAIN_CPU */
	uint16_t	 record_offset;
	uint16_t	 record_length;
	uint8_t		 schema;
	uint8_t		 event_count;
	uint16_t	 events[CATALOG_GROUP_SLOTS]; /* CATALOG_SLOT_FREE */
	char		*name;
	char		*desc;
	char		*stored[CATALOG_GROUP_NSTRINGS];
};

/* Schema field enums (GRS_*); 55 and 56 appear in real data, unnamed. */
#define CATALOG_FIELD_COUNTER_MAX	31
#define CATALOG_FIELD_TIMEBASE_UPDATE	48
#define CATALOG_FIELD_TIMEBASE_FENCE	49
#define CATALOG_FIELD_UPDATE_COUNT	50
#define CATALOG_FIELD_MEASUREMENT_PERIOD 51
#define CATALOG_FIELD_ACCUM_MEASUREMENT_PERIOD 52
#define CATALOG_FIELD_LAST_UPDATE_PERIOD 53
#define CATALOG_FIELD_STATUS_FLAGS	54

struct catalog_schema_field {
	uint16_t	 field;		/* CATALOG_FIELD_* or counter 1..31 */
	uint16_t	 offset;	/* in the group record */
	uint16_t	 length;	/* bytes */
	uint16_t	 flags;
};

struct catalog_schema {
	uint32_t	 index;
	size_t		 file_offset;
	uint16_t	 entry_length;
	uint16_t	 descriptor;
	uint16_t	 version;
	uint16_t	 nfields;
	struct catalog_schema_field *fields;
};

struct catalog_formula {
	uint32_t	 index;
	size_t		 file_offset;
	uint16_t	 entry_length;
	uint32_t	 flags;
	uint16_t	 group;
	char		*name;
	char		*desc;
	char		*formula;	/* text as stored: RPN or infix */
	char		*unit;
	char		*stored[CATALOG_FORMULA_NSTRINGS];
};

enum catalog_severity {
	CATALOG_WARNING,	/* suspicious but the data is still trusted */
	CATALOG_ERROR,		/* something was dropped */
};

/* A problem found while parsing, located by its byte offset. */
struct catalog_diag {
	size_t		 offset;
	enum catalog_severity severity;
	char		*msg;
};

struct catalog_index;		/* private hash tables */

struct catalog {
	uint32_t	 magic;
	uint32_t	 length_pages;
	uint64_t	 version;
	char		 build_time[17]; /* NUL-terminated copy of 16 bytes */
	struct catalog_section sections[CATALOG_NSECTIONS];
	uint32_t	 sub_offsets[6]; /* v0.16 page-0 0x60..0x77, raw */
	int		 interface;	/* 1 or 2: decides valid domains */
	int		 interface_guessed; /* 1 when parse got iface 0 */
	size_t		 size;		/* bytes parsed */
	/* Entries page 0 claims but the model lacks (dropped or lost). */
	size_t		 dropped[CATALOG_NSECTIONS];

	struct catalog_schema *schemas;
	size_t		 nschemas;
	struct catalog_event *events;
	size_t		 nevents;
	struct catalog_group *groups;
	size_t		 ngroups;
	struct catalog_formula *formulas;
	size_t		 nformulas;

	struct catalog_diag *diags;
	size_t		 ndiags;
	size_t		 nerrors;	/* diags of CATALOG_ERROR severity */

	struct catalog_index *index;
};

/*
 * Parse a catalog image for hcall interface version iface (1 = POWER8,
 * 2 = POWER9 and later; 0 guesses from the catalog's domains).  Does no
 * I/O: buf may be freed after the call.  Bad entries become diagnostics and
 * everything that can still be trusted is kept, so 0 is returned whenever
 * page 0 could be read; check cat->nerrors.  Returns 0 with *out set
 * (caller frees with catalog_free()), or a negative HV_E* code with *cause
 * set (caller frees).
 */
int	 catalog_parse(const void *buf, size_t len, int iface,
	    struct catalog **out, char **cause);
void	 catalog_free(struct catalog *);
/* The version page 0 of an image states, without parsing the rest:
 * 0, or -HV_ETRUNC when len cannot hold it. */
int	 catalog_peek_version(const void *buf, size_t len, uint64_t *version);
/* The length in 4096-byte pages page 0 states, the same way. */
int	 catalog_peek_pages(const void *buf, size_t len, uint32_t *pages);

/*
 * Recompute what the parser derives from the entries: the interface
 * version when cat->interface is 0 (guessed from the domains), each
 * event's skip flags, sysfs_name (the kernel's __N numbering of duplicate
 * (name, domain) pairs, in catalog order, counting only events the kernel
 * lists; skipped duplicates continue the count), groups/ngroups (from the
 * groups' slots below event_count, never from primary_group), and the
 * lookup tables; and it escapes every string that is not safe to print
 * (see catalog_text_escape()), keeping its bytes in the entry's stored[].
 * Call it after building or changing a model by hand;
 * catalog_parse() already does.  Replaces any sysfs_name and groups set
 * before.
 */
void	 catalog_reindex(struct catalog *);

/*
 * The hcall interface version (1 or 2) a catalog is served with when
 * nothing else says: what catalog_parse() with interface 0 sets, what
 * hvcat info prints and what hvtop's simulator and perf source use.
 * POWER8's catalogs give 1, POWER9's and later ones 2.
 */
int	 catalog_guess_interface(const struct catalog *);

/*
 * O(1) lookups; NULL when absent.  Name lookups are exact.  With domain 0,
 * catalog_find_event() returns the first event of that name the kernel
 * would list, else the first of that name.  catalog_event.groups holds
 * positions in cat->groups.
 */
const struct catalog_event *catalog_find_event(const struct catalog *,
	    const char *name, int domain);	/* domain 0 = any */
const struct catalog_event *catalog_find_sysfs(const struct catalog *,
	    const char *sysfs_name);
const struct catalog_group *catalog_find_group(const struct catalog *,
	    const char *name);
const struct catalog_formula *catalog_find_formula(const struct catalog *,
	    const char *name);
/* By position in the section as stored (what group slots name). */
const struct catalog_event *catalog_event_at(const struct catalog *,
	    uint32_t index);
const struct catalog_group *catalog_group_at(const struct catalog *,
	    uint32_t index);

/* Constant names; "?" for unknown values. */
const char	*catalog_domain_name(int);	/* "Physical Chip" ... */
const char	*catalog_domain_index_term(int);	/* "chip" "core" "vcpu" */
const char	*catalog_field_name(unsigned);	/* "COUNTER3" "TIMEBASE_UPDATE" */
const char	*catalog_section_name(int);	/* "schemas" "events" ... */
const char	*catalog_domain_suffix_2014(int); /* "phys_chip" ... */
/*
 * A copy of s safe to print on one line: bytes below 0x20, 0x7f and above
 * and the backslash are written as \xNN or \\.  Caller frees.
 */
char		*catalog_printable(const char *s);
/*
 * Catalog text safe to print: C0 controls, DEL, C1 controls (raw or as
 * UTF-8) and bytes not part of valid UTF-8 are written \xNN; valid UTF-8
 * and the backslash stay.  catalog_text_escape() returns NULL when s is
 * already safe, else the escaped copy (caller frees).
 */
char		*catalog_text_escape(const char *s);
int		 catalog_text_is_safe(const char *s);
/*
 * How many of the len bytes at s are printable ASCII before one is not,
 * or, for a name, before one is not or is a space or a '/'.
 */
size_t		 catalog_text_ascii(const char *s, size_t len, int name);
/* Escape *text in place, keeping the bytes it had in *stored. */
void		 catalog_text_sanitize(char **text, char **stored);
/* The bytes to store for text: stored when text is still its escape. */
const char	*catalog_text_stored(const char *text, const char *stored);

/*
 * The sysfs string the kernel shows for an event, without the newline:
 * "domain=1,offset=0xe0,chip=?,lpar=0x0".  style 2014 gives the early
 * kernel's form.  Returns an allocated string (caller frees).
 */
enum catalog_sysfs_style { CATALOG_SYSFS_CURRENT, CATALOG_SYSFS_2014 };
char	*catalog_sysfs_string(const struct catalog_event *, int style);
/* The same for the event read in another hcall domain (1..6). */
char	*catalog_sysfs_string_domain(const struct catalog_event *, int style,
	    int domain);

/*
 * The whole events/ listing a kernel would create.  Current style: one
 * entry per event the kernel lists (skip == 0), named by sysfs_name.
 * Style 2014: the early kernel's listing, which kept events whose group
 * record length is 0 (POWER8's chip placeholders) and knew no interface
 * versions; RESERVED names are still left out.  A chip event becomes NAME__phys_chip; a core event becomes NAME
 * (domain 2) plus NAME__vcpu_home_core, __vcpu_home_chip,
 * __vcpu_home_node and __vcpu_remote_node (domains 3-6); an event of
 * catalog domain 3-6 becomes NAME__<that domain's suffix>.  Entries come
 * in catalog order.  Returns the count; *out (caller frees with
 * catalog_sysfs_list_free()) is NULL when it is 0.
 */
struct catalog_sysfs_entry {
	char		*name;
	char		*value;
	const struct catalog_event *event;
	int		 domain;	/* hcall domain of this entry */
};
size_t	 catalog_sysfs_list(const struct catalog *, int style,
	    struct catalog_sysfs_entry **out);
void	 catalog_sysfs_list_free(struct catalog_sysfs_entry *, size_t);

/*
 * Serialise a model to a canonical catalog image: entries padded to 16
 * bytes, strings NUL-terminated and padded to even length, sections
 * page-aligned; fields the model leaves at 0 (entry lengths, offsets,
 * section pages) are computed.  Returns 0 with *out (caller frees) and
 * *len set, or a negative HV_E* code with *cause set.
 */
int	 catalog_write(const struct catalog *, void **out, size_t *len,
	    char **cause);
/*
 * The length catalog_write() gives entry i of section sec (an
 * enum catalog_section_id) when the model leaves it 0: the bytes the
 * entry needs, rounded up to 16.  0 when the entry cannot be written.
 * The JSON form uses it to leave canonical lengths out.
 */
uint16_t catalog_write_entry_length(const struct catalog *, int sec,
	    size_t i);

/*
 * The event in slot i of a group, or NULL for a free slot, a slot past the
 * group's event_count (real catalogs leave those 0, which is not "event
 * 0"), or an index of no event the parser kept.
 */
static inline const struct catalog_event *
catalog_group_event(const struct catalog *cat, const struct catalog_group *g,
    size_t i)
{
	if (i >= CATALOG_GROUP_SLOTS || i >= g->event_count ||
	    g->events[i] == CATALOG_SLOT_FREE)
		return (NULL);
	/* Slots hold section indexes; dropped entries shift positions. */
	return (catalog_event_at(cat, g->events[i]));
}

/*
 * A group's events: the slots that name an event.  A free slot (or one
 * naming no event the parser kept) is a counter of the record that no
 * event describes; it is not an event, so "N events" everywhere counts
 * what a pick of the group reads.
 */
static inline size_t
catalog_group_nevents(const struct catalog *cat, const struct catalog_group *g)
{
	size_t	 i, n = 0;

	for (i = 0; i < CATALOG_GROUP_SLOTS; i++) {
		if (catalog_group_event(cat, g, i) != NULL)
			n++;
	}
	return (n);
}

#endif /* HVTOP_CATALOG_H */
