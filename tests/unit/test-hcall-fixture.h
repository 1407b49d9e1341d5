/*
 * Test catalogs for the hcall and simulator tests and the hcall benchmark:
 * a POWER9-like catalog image (chip groups of 8 counters under a chip
 * schema, core groups of 4 counters under the core schema of the real
 * POWER8 catalog), written byte by byte here and parsed with
 * catalog_parse(), so the model and the image agree.
 */
#ifndef HVTOP_TEST_HCALL_FIXTURE_H
#define HVTOP_TEST_HCALL_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

struct catalog;

struct tfix {
	uint8_t		*image;
	size_t		 len;
	struct catalog	*cat;
	unsigned	 chip_groups;	/* groups 0 .. chip_groups - 1 */
	unsigned	 core_groups;	/* then the core groups */
	unsigned	 chip_events;	/* events 0 .. chip_events - 1 */
	unsigned	 core_events;	/* then the core events */
};

/* Chip and core record placement in the fixture catalogs. */
#define TFIX_CHIP_REC(g)	(0x80U * (g))	/* 104 bytes each */
#define TFIX_CHIP_RECLEN	104
#define TFIX_CORE_REC(g)	(0xc0U + 0x40U * (g))	/* 64 bytes each */
#define TFIX_CORE_RECLEN	64
#define TFIX_VERSION		7

/*
 * Build and parse a catalog with chip_groups x 8 chip events and
 * core_groups x 4 core events, plus extra_core event-only core records
 * (no group) at 0x800 + 0x40 * i.  Aborts the test program on failure.
 */
void	 tfix_build(struct tfix *, unsigned chip_groups,
	    unsigned core_groups, unsigned extra_core);
void	 tfix_free(struct tfix *);

/* Parse "02 01 00 ..." (spaces and newlines ignored) into buf. */
size_t	 tfix_hex(const char *, uint8_t *buf, size_t len);

/* Read a file under $top_srcdir (or .); NULL if absent.  Caller frees. */
uint8_t	*tfix_read(const char *rel, size_t *len);

#endif /* HVTOP_TEST_HCALL_FIXTURE_H */
