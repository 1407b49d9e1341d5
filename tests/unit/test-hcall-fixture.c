/*
 * Test catalogs for the hcall and simulator tests; see the header.  The
 * image is written here, independently of catalog_write(), following the
 * entry layouts of the ABI reference (section 1).
 */
#include "config.h"

#include "test-hcall-fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "util/be.h"
#include "util/xalloc.h"

#define TFIX_PAGE	4096

struct tfix_sec {
	uint8_t		*p;
	size_t		 len;
	unsigned	 count;
};

static uint8_t *
tfix_grow(struct tfix_sec *s, size_t n)
{
	uint8_t	*p;

	s->p = xreallocarray(s->p, s->len + n, 1);
	p = s->p + s->len;
	memset(p, 0, n);
	s->len += n;
	return (p);
}

/* A length-prefixed string: be16 length (counting itself), text, NUL. */
static size_t
tfix_str(uint8_t *p, const char *s)
{
	size_t	 n = strlen(s) + 1;

	n += n % 2;
	be16_put(p, (uint16_t)(n + 2));
	memcpy(p + 2, s, strlen(s));
	return (n + 2);
}

static size_t
tfix_pad16(size_t n)
{
	return ((n + 15) & ~(size_t)15);
}

static void
tfix_schema(struct tfix_sec *s, uint16_t desc, unsigned n,
    const uint16_t (*f)[3])
{
	size_t		 len = tfix_pad16(0x10 + 8 * n), i;
	uint8_t		*p = tfix_grow(s, len);

	be16_put(p, (uint16_t)len);
	be16_put(p + 4, desc);
	be16_put(p + 6, 1);
	be16_put(p + 0x0e, (uint16_t)n);
	for (i = 0; i < n; i++) {
		be16_put(p + 0x10 + 8 * i, f[i][0]);
		be16_put(p + 0x12 + 8 * i, f[i][1]);
		be16_put(p + 0x14 + 8 * i, f[i][2]);
	}
	s->count++;
}

static void
tfix_event(struct tfix_sec *s, uint8_t domain, uint16_t roff, uint16_t rlen,
    uint16_t coff, uint16_t group, const char *name)
{
	uint8_t	 tmp[512];
	size_t	 n;

	memset(tmp, 0, sizeof tmp);
	be16_put(tmp + 2, 0xffff);
	tmp[4] = domain;
	be16_put(tmp + 6, roff);
	be16_put(tmp + 8, rlen);
	be16_put(tmp + 0x0a, coff);
	be16_put(tmp + 0x10, group);
	be16_put(tmp + 0x12, group == 0xffff ? 0 : 1);
	n = 0x14;
	n += tfix_str(tmp + n, name);
	n += tfix_str(tmp + n, "");	/* description */
	n += tfix_str(tmp + n, "");	/* detailed description */
	n = tfix_pad16(n);
	be16_put(tmp, (uint16_t)n);
	memcpy(tfix_grow(s, n), tmp, n);
	s->count++;
}

static void
tfix_group(struct tfix_sec *s, uint8_t domain, uint16_t roff, uint16_t rlen,
    uint8_t schema, unsigned first, unsigned n, const char *name)
{
	uint8_t	 tmp[256];
	size_t	 len, i;

	memset(tmp, 0, sizeof tmp);
	tmp[8] = domain;
	be16_put(tmp + 0x0a, roff);
	be16_put(tmp + 0x0c, rlen);
	tmp[0x0e] = schema;
	tmp[0x0f] = (uint8_t)n;
	for (i = 0; i < 16; i++)
		be16_put(tmp + 0x10 + 2 * i, i < n ?
		    (uint16_t)(first + i) : 0xffff);
	len = 0x30;
	len += tfix_str(tmp + len, name);
	len += tfix_str(tmp + len, "");
	len = tfix_pad16(len);
	be16_put(tmp, (uint16_t)len);
	memcpy(tfix_grow(s, len), tmp, len);
	s->count++;
}

/* Nest event names that drive the simulator's classes. */
static const char *const tfix_chip_names[] = {
	"PM_PB_CYC", "PM_PB_INT_DATA_XFER", "PM_PB_EXT_DATA_XFER",
	"PM_PB_RTY", "PM_PAU_CYC", "PM_PCI0_32B_INOUT", "PM_PCI1_32B_INOUT",
	"PM_NX_CYC",
	"PM_MCS_128B_RD_DATA_BLOCKS_MC0_CHAN01",
	"PM_MCS_128B_RD_DATA_BLOCKS_MC1_CHAN01",
	"PM_MCS_128B_RD_DATA_BLOCKS_MC2_CHAN01",
	"PM_MCS_128B_RD_DATA_BLOCKS_MC3_CHAN01",
	"PM_MCS_64B_WR_DATA_BLOCKS_MC0_CHAN01",
	"PM_MCS_64B_WR_DATA_BLOCKS_MC1_CHAN01",
	"PM_MCS_64B_WR_DATA_BLOCKS_MC2_CHAN01",
	"PM_MCS_64B_WR_DATA_BLOCKS_MC3_CHAN01",
	"PM_XLINK0_OUT_ODD_TOTAL_UTIL", "PM_XLINK0_OUT_EVEN_TOTAL_UTIL",
	"PM_XLINK0_OUT_ODD_DATA", "PM_XLINK0_OUT_EVEN_DATA",
	"PM_XLINK0_OUT_ODD_AVLBL_CYCLES", "PM_XLINK0_OUT_EVEN_AVLBL_CYCLES",
	"PM_XLINK1_OUT_ODD_TOTAL_UTIL", "PM_XLINK1_OUT_EVEN_TOTAL_UTIL",
};

static const char *const tfix_core_names[] = {
	"HPM_CCYC", "HPM_INST", "HPM_NON_IDLE_PCYC", "HPM_IDLE_PCYC",
	"HPM_CS_FROM_MEM_LOCAL", "HPM_CS_FROM_L4_MEM", "HPM_CS_L1_MISS",
	"HPM_CS_DTLB_MISS", "HPM_CS_GRP_CMPL", "HPM_CS_PPC_DISP",
	"HPM_CS_INST", "HPM_CS_PCYC",
};

void
tfix_build(struct tfix *f, unsigned chip_groups, unsigned core_groups,
    unsigned extra_core)
{
	/* The real POWER8 core schema 0 and a chip schema like its 1. */
	static const uint16_t core_schema[][3] = {
		{ 48, 0, 8 }, { 50, 8, 8 }, { 51, 16, 8 }, { 1, 24, 8 },
		{ 2, 32, 8 }, { 3, 40, 8 }, { 4, 48, 8 }, { 54, 56, 2 },
		{ 49, 58, 6 },
	};
	static const uint16_t chip_schema[][3] = {
		{ 55, 0, 8 }, { 50, 8, 8 }, { 51, 16, 8 }, { 1, 24, 8 },
		{ 2, 32, 8 }, { 3, 40, 8 }, { 4, 48, 8 }, { 53, 56, 8 },
		{ 5, 64, 8 }, { 6, 72, 8 }, { 7, 80, 8 }, { 8, 88, 8 },
		{ 56, 96, 8 },
	};
	static const uint16_t chip_slot_off[8] = {
		24, 32, 40, 48, 64, 72, 80, 88 };
	struct tfix_sec	 sec[3];
	size_t		 page[3], pages[3], next = 1, i, j, ev;
	char		 name[64], *cause = NULL;
	uint8_t		*img;

	memset(f, 0, sizeof *f);
	memset(sec, 0, sizeof sec);
	f->chip_groups = chip_groups;
	f->core_groups = core_groups;
	tfix_schema(&sec[0], 0, 9, core_schema);
	tfix_schema(&sec[0], 1, 13, chip_schema);

	ev = 0;
	for (i = 0; i < chip_groups; i++) {
		for (j = 0; j < 8; j++, ev++) {
			if (ev < sizeof tfix_chip_names / sizeof
			    tfix_chip_names[0])
				snprintf(name, sizeof name, "%s",
				    tfix_chip_names[ev]);
			else
				snprintf(name, sizeof name,
				    "PM_NEST_EVT_%zu_%zu", i, j);
			tfix_event(&sec[1], 1, (uint16_t)TFIX_CHIP_REC(i),
			    TFIX_CHIP_RECLEN, chip_slot_off[j], (uint16_t)i,
			    name);
		}
		snprintf(name, sizeof name, "CHIP_GROUP_%zu", i);
		tfix_group(&sec[2], 1, (uint16_t)TFIX_CHIP_REC(i),
		    TFIX_CHIP_RECLEN, 1, (unsigned)(ev - 8), 8, name);
	}
	f->chip_events = (unsigned)ev;
	for (i = 0; i < core_groups; i++) {
		for (j = 0; j < 4; j++, ev++) {
			if (ev - f->chip_events < sizeof tfix_core_names /
			    sizeof tfix_core_names[0])
				snprintf(name, sizeof name, "%s",
				    tfix_core_names[ev - f->chip_events]);
			else
				snprintf(name, sizeof name, "HPM_EVT_%zu_%zu",
				    i, j);
			tfix_event(&sec[1], 2, (uint16_t)TFIX_CORE_REC(i),
			    TFIX_CORE_RECLEN, (uint16_t)(24 + 8 * j),
			    (uint16_t)(chip_groups + i), name);
		}
		snprintf(name, sizeof name, "CORE_GROUP_%zu", i);
		tfix_group(&sec[2], 2, (uint16_t)TFIX_CORE_REC(i),
		    TFIX_CORE_RECLEN, 0, (unsigned)(ev - 4), 4, name);
	}
	for (i = 0; i < extra_core; i++, ev++) {
		snprintf(name, sizeof name, "HPM_EXTRA_%zu_INST", i);
		tfix_event(&sec[1], 2, (uint16_t)(0x800 + 0x40 * i),
		    TFIX_CORE_RECLEN, 24, 0xffff, name);
	}
	f->core_events = (unsigned)ev - f->chip_events;

	for (i = 0; i < 3; i++) {
		page[i] = next;
		pages[i] = (sec[i].len + TFIX_PAGE - 1) / TFIX_PAGE;
		next += pages[i];
	}
	img = xcalloc(next, TFIX_PAGE);
	be32_put(img, 0x32347837);
	be32_put(img + 4, (uint32_t)next);
	be64_put(img + 8, TFIX_VERSION);
	memcpy(img + 0x10, "20240101120000", 14);
	for (i = 0; i < 3; i++) {
		be16_put(img + 0x40 + 8 * i, (uint16_t)page[i]);
		be16_put(img + 0x42 + 8 * i, (uint16_t)pages[i]);
		be16_put(img + 0x44 + 8 * i, (uint16_t)sec[i].count);
		if (sec[i].len > 0)
			memcpy(img + page[i] * TFIX_PAGE, sec[i].p,
			    sec[i].len);
		free(sec[i].p);
	}
	f->image = img;
	f->len = next * TFIX_PAGE;
	if (catalog_parse(f->image, f->len, 2, &f->cat, &cause) != 0 ||
	    f->cat->nerrors != 0) {
		fprintf(stderr, "fixture catalog does not parse: %s\n",
		    cause != NULL ? cause : f->cat->diags[0].msg);
		abort();
	}
}

void
tfix_free(struct tfix *f)
{
	catalog_free(f->cat);
	free(f->image);
	memset(f, 0, sizeof *f);
}

size_t
tfix_hex(const char *s, uint8_t *buf, size_t len)
{
	size_t	 n = 0;
	int	 hi = -1, d;

	for (; *s != '\0'; s++) {
		if (*s >= '0' && *s <= '9')
			d = *s - '0';
		else if (*s >= 'a' && *s <= 'f')
			d = *s - 'a' + 10;
		else if (*s >= 'A' && *s <= 'F')
			d = *s - 'A' + 10;
		else
			continue;
		if (hi < 0)
			hi = d;
		else {
			if (n < len)
				buf[n] = (uint8_t)(hi << 4 | d);
			n++;
			hi = -1;
		}
	}
	return (n);
}

uint8_t *
tfix_read(const char *rel, size_t *len)
{
	const char	*top = getenv("top_srcdir");
	char		 path[4096];
	FILE		*fp;
	uint8_t		*buf = NULL;
	size_t		 cap = 0, n;

	snprintf(path, sizeof path, "%s/%s", top != NULL ? top : ".", rel);
	if ((fp = fopen(path, "rb")) == NULL)
		return (NULL);
	*len = 0;
	for (;;) {
		if (*len == cap) {
			cap = cap == 0 ? 65536 : cap * 2;
			buf = xreallocarray(buf, cap, 1);
		}
		n = fread(buf + *len, 1, cap - *len, fp);
		if (n == 0)
			break;
		*len += n;
	}
	fclose(fp);
	return (buf);
}
