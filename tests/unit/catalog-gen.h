/*
 * A small generator of catalog images for the catalog tests and
 * benchmark: entries laid out as real catalogs lay them out (strings
 * NUL-terminated and padded to even length, entries padded to 16 bytes),
 * with knobs to break each field on purpose.  Independent of
 * catalog_write(), so that the parser is not tested against the code it
 * is meant to check.
 */
#ifndef HVTOP_CATALOG_GEN_H
#define HVTOP_CATALOG_GEN_H

#include <stddef.h>
#include <stdint.h>

/* A growable byte buffer holding the entries of one section. */
struct cgen_buf {
	uint8_t		*p;
	size_t		 len;
	size_t		 cap;
	unsigned	 count;		/* entries appended */
};

struct cgen_event {
	uint8_t		 domain;
	uint16_t	 formula_raw;
	uint16_t	 record_offset;
	uint16_t	 record_length;
	uint16_t	 counter_offset;
	uint32_t	 flags;
	uint16_t	 primary_group;
	uint16_t	 group_count;
	const char	*name;
	const char	*desc;
	const char	*long_desc;
	/* Overrides: 0 = computed.  */
	uint16_t	 length;	/* whole entry */
	uint16_t	 name_len;	/* the stored length fields */
	uint16_t	 desc_len;
	uint16_t	 long_desc_len;
	int		 no_nul;	/* store strings without their NUL */
};

struct cgen_group {
	uint8_t		 domain;
	uint32_t	 flags;
	uint16_t	 record_offset;
	uint16_t	 record_length;
	uint8_t		 schema;
	uint8_t		 event_count;
	uint16_t	 slots[16];
	const char	*name;
	const char	*desc;
	uint16_t	 length;
};

struct cgen_formula {
	uint32_t	 flags;
	uint16_t	 group;
	const char	*name;
	const char	*desc;
	const char	*formula;
	const char	*unit;
	uint16_t	 length;
};

/* Append one entry; returns its offset in the section buffer. */
size_t	 cgen_event(struct cgen_buf *, const struct cgen_event *);
size_t	 cgen_group(struct cgen_buf *, const struct cgen_group *);
size_t	 cgen_formula(struct cgen_buf *, const struct cgen_formula *);
/* fields: n x { enum, offset, length, flags } */
size_t	 cgen_schema(struct cgen_buf *, uint16_t descriptor, uint16_t version,
	    unsigned n, const uint16_t (*fields)[4]);
/* Raw bytes (for hand-broken entries); counts as one entry if count. */
size_t	 cgen_raw(struct cgen_buf *, const void *, size_t, int count);

/*
 * Lay out page 0 and the four sections (schemas, events, groups,
 * formulas; NULL = empty), each starting on a page of its own, and fill
 * page 0's descriptors and length.  Returns a malloc'd image; *len is its
 * size.
 */
uint8_t	*cgen_catalog(struct cgen_buf *const sections[4], size_t *len);

void	 cgen_buf_free(struct cgen_buf *);

/* Page 0 field offsets, for tests that break them. */
#define CGEN_P0_LENGTH		0x04
#define CGEN_P0_SECTION(i)	(0x40 + 8 * (i))

#endif /* HVTOP_CATALOG_GEN_H */
