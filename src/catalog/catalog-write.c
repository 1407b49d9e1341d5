/*
 * Serialise a catalog model to the image the hypervisor publishes: page 0,
 * then the schema, event, group and formula sections on their pages, every
 * field big-endian (Linux, arch/powerpc/perf/hv-24x7-catalog.h).
 *
 * The writer is the parser's inverse for every catalog whose entries are
 * laid out the canonical way (each entry as short as its strings allow,
 * padded to 16 bytes; strings NUL-terminated and padded to an even length;
 * an empty string stored as its length alone), which is how the real
 * POWER8 catalogs are laid out.  Lengths, section pages and counts the
 * model leaves at 0 are computed; values the model sets are kept, so a
 * parsed catalog is written back byte for byte.
 *
 * Pure: no I/O.  It checks only what it needs to produce a well-formed
 * image (every length fits its field, sections fit their pages and the
 * catalog); what the entries mean (domains, slots, offsets) is the JSON
 * reader's and the parser's business.  Reserved bytes are written as 0.
 */
#include "config.h"

#include "catalog/catalog.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/be.h"
#include "util/hverr.h"
#include "util/xalloc.h"

/* Fixed parts, in bytes, up to the first string length. */
#define CW_EVENT_FIXED		0x14
#define CW_GROUP_FIXED		0x30
#define CW_SCHEMA_FIXED		0x10
#define CW_FIELD_SIZE		8
#define CW_FORMULA_FIXED	0x10
#define CW_ENTRY_ALIGN		16
/* The largest multiple of 16 a be16 length can hold. */
#define CW_ENTRY_MAX		0xfff0
#define CW_STRING_MAX		0xffff
/* Page offsets and lengths are be16, so nothing lies beyond this. */
#define CW_PAGES_MAX		0xffff

/* Page-0 offsets of the fields the writer fills. */
#define CW_P0_MAGIC		0x00
#define CW_P0_LENGTH		0x04
#define CW_P0_VERSION		0x08
#define CW_P0_BUILD_TIME	0x10
#define CW_P0_BUILD_TIME_LEN	16
#define CW_P0_SECTIONS		0x40
#define CW_P0_SECTION_SIZE	8
#define CW_P0_SUB_OFFSETS	0x60

static const char *const cw_section_keys[CATALOG_NSECTIONS] = {
	"schemas", "events", "groups", "formulas",
};

/* A string as the catalog stores it, not as the model prints it. */
#define CW_TEXT(e, field, i)	catalog_text_stored((e)->field, (e)->stored[i])

/*
 * Bytes a string field takes: its be16 length, then the text, a NUL and a
 * NUL more when that makes the length odd.  An empty (or absent) string is
 * the length alone, as real catalogs store it.  Returns 0 when the string
 * is too long for its length field.
 */
static size_t
cw_string_size(const char *s)
{
	size_t	 n;

	if (s == NULL || *s == '\0')
		return (2);
	n = strlen(s);
	if (n > CW_STRING_MAX)
		return (0);
	n = 2 + n + 1;
	n += n & 1;
	if (n > CW_STRING_MAX)
		return (0);
	return (n);
}

static uint8_t *
cw_put_string(uint8_t *p, const char *s)
{
	size_t	 n = cw_string_size(s);

	be16_put(p, (uint16_t)n);
	if (n > 2)
		memcpy(p + 2, s, strlen(s));	/* the rest is already 0 */
	return (p + n);
}

/*
 * Sum the string fields of an entry after fixed bytes; *what names the
 * one that does not fit.  Returns the total, or 0.
 */
static size_t
cw_strings_size(size_t fixed, const char *const *s, const char *const *names,
    size_t n, const char **what)
{
	size_t	 i, total = fixed, one;

	for (i = 0; i < n; i++) {
		if ((one = cw_string_size(s[i])) == 0) {
			*what = names[i];
			return (0);
		}
		total += one;
	}
	return (total);
}

static size_t
cw_round16(size_t n)
{
	return ((n + CW_ENTRY_ALIGN - 1) & ~(size_t)(CW_ENTRY_ALIGN - 1));
}

static const char *const cw_event_strings[] = {
	"name", "description", "long_description",
};
static const char *const cw_group_strings[] = { "name", "description" };
static const char *const cw_formula_strings[] = {
	"name", "description", "formula", "unit",
};

/*
 * The bytes entry i of a section needs, before padding.  Returns 0 with
 * *cause set when it cannot be stored at all.
 */
static size_t
cw_entry_need(const struct catalog *cat, int sec, size_t i, char **cause)
{
	const struct catalog_event	*ev;
	const struct catalog_group	*gr;
	const struct catalog_schema	*sc;
	const struct catalog_formula	*fo;
	const char			*s[4], *what = NULL;
	size_t				 need = 0;

	switch (sec) {
	case CATALOG_SCHEMAS:
		sc = &cat->schemas[i];
		if (sc->nfields > 0 && sc->fields == NULL) {
			*cause = xasprintf("schemas[%zu].fields: %u fields "
			    "claimed but none given", i, sc->nfields);
			return (0);
		}
		need = CW_SCHEMA_FIXED + (size_t)sc->nfields * CW_FIELD_SIZE;
		if (need > CW_ENTRY_MAX) {
			*cause = xasprintf("schemas[%zu].fields: %u fields do "
			    "not fit in one entry", i, sc->nfields);
			return (0);
		}
		return (need);
	case CATALOG_EVENTS:
		ev = &cat->events[i];
		if (ev->domain > 0xff) {
			*cause = xasprintf("events[%zu].domain: %s is no "
			    "catalog domain", i, catalog_domain_name(
			    ev->domain));
			return (0);
		}
		s[0] = CW_TEXT(ev, name, 0);
		s[1] = CW_TEXT(ev, desc, 1);
		s[2] = CW_TEXT(ev, long_desc, 2);
		need = cw_strings_size(CW_EVENT_FIXED, s, cw_event_strings, 3,
		    &what);
		break;
	case CATALOG_GROUPS:
		gr = &cat->groups[i];
		if (gr->domain > 0xff) {
			*cause = xasprintf("groups[%zu].domain: %s is no "
			    "catalog domain", i, catalog_domain_name(
			    gr->domain));
			return (0);
		}
		s[0] = CW_TEXT(gr, name, 0);
		s[1] = CW_TEXT(gr, desc, 1);
		need = cw_strings_size(CW_GROUP_FIXED, s, cw_group_strings, 2,
		    &what);
		break;
	case CATALOG_FORMULAS:
		fo = &cat->formulas[i];
		s[0] = CW_TEXT(fo, name, 0);
		s[1] = CW_TEXT(fo, desc, 1);
		s[2] = CW_TEXT(fo, formula, 2);
		s[3] = CW_TEXT(fo, unit, 3);
		need = cw_strings_size(CW_FORMULA_FIXED, s, cw_formula_strings,
		    4, &what);
		break;
	}
	if (need == 0) {
		*cause = xasprintf("%s[%zu].%s: too long for a catalog string "
		    "(at most %d bytes)", cw_section_keys[sec], i, what,
		    CW_STRING_MAX - 3);
		return (0);
	}
	if (need > CW_ENTRY_MAX) {
		*cause = xasprintf("%s[%zu]: its strings take %zu bytes, more "
		    "than an entry can hold (%d)", cw_section_keys[sec], i,
		    need, CW_ENTRY_MAX);
		return (0);
	}
	return (need);
}

static size_t
cw_count(const struct catalog *cat, int sec)
{
	switch (sec) {
	case CATALOG_SCHEMAS:
		return (cat->nschemas);
	case CATALOG_EVENTS:
		return (cat->nevents);
	case CATALOG_GROUPS:
		return (cat->ngroups);
	default:
		return (cat->nformulas);
	}
}

static uint16_t
cw_stored_length(const struct catalog *cat, int sec, size_t i)
{
	switch (sec) {
	case CATALOG_SCHEMAS:
		return (cat->schemas[i].entry_length);
	case CATALOG_EVENTS:
		return (cat->events[i].entry_length);
	case CATALOG_GROUPS:
		return (cat->groups[i].entry_length);
	default:
		return (cat->formulas[i].entry_length);
	}
}

/*
 * The canonical length of entry i of section sec: the bytes it needs,
 * rounded up to 16.  Returns 0 when the entry cannot be stored.
 */
uint16_t
catalog_write_entry_length(const struct catalog *cat, int sec, size_t i)
{
	char	*cause = NULL;
	size_t	 need;

	if (sec < 0 || sec >= CATALOG_NSECTIONS || i >= cw_count(cat, sec))
		return (0);
	need = cw_entry_need(cat, sec, i, &cause);
	free(cause);
	return ((uint16_t)cw_round16(need));
}

/*
 * Decide every entry's length: the model's when set (it must hold the
 * entry and be a multiple of 16, so the output never needs the kernel's
 * "not divisible by 16" leniency), else the canonical one.
 */
static int
cw_lengths(const struct catalog *cat, int sec, uint16_t *lens, size_t *bytes,
    char **cause)
{
	size_t	 i, n = cw_count(cat, sec), need, total = 0;
	uint16_t stored;

	for (i = 0; i < n; i++) {
		if ((need = cw_entry_need(cat, sec, i, cause)) == 0)
			return (-HV_ERANGE);
		stored = cw_stored_length(cat, sec, i);
		if (stored == 0)
			lens[i] = (uint16_t)cw_round16(need);
		else if (stored < need) {
			*cause = xasprintf("%s[%zu].entry_length: %u is less "
			    "than the %zu bytes the entry needs",
			    cw_section_keys[sec], i, stored, need);
			return (-HV_ERANGE);
		} else if (stored % CW_ENTRY_ALIGN != 0) {
			*cause = xasprintf("%s[%zu].entry_length: %u is not a "
			    "multiple of %d", cw_section_keys[sec], i, stored,
			    CW_ENTRY_ALIGN);
			return (-HV_ERANGE);
		} else
			lens[i] = stored;
		total += lens[i];
	}
	*bytes = total;
	return (0);
}

/*
 * Place the sections.  A page of 0 means "after everything placed so
 * far" (page 0 itself is the header, so it is never a section's start),
 * pages 0 means "as many as the entries need", count 0 means "as many
 * entries as the model has".  Empty sections still get a page, as the
 * real catalogs' empty formula section does.
 */
static int
cw_place(const struct catalog *cat, const size_t *bytes,
    struct catalog_section *out, uint32_t *length_pages, char **cause)
{
	const struct catalog_section	*in;
	size_t				 need, n, next = 1, end, a, b;
	int				 s, t;

	for (s = 0; s < CATALOG_NSECTIONS; s++) {
		in = &cat->sections[s];
		n = cw_count(cat, s);
		if (n > 0xffff) {
			*cause = xasprintf("%s: %zu entries, more than page 0 "
			    "can count (65535)", cw_section_keys[s], n);
			return (-HV_ELIMIT);
		}
		if (in->count != 0 && in->count != n) {
			*cause = xasprintf("sections.%s.count: %u, but there "
			    "are %zu %s", cw_section_keys[s], in->count, n,
			    cw_section_keys[s]);
			return (-HV_ERANGE);
		}
		need = (bytes[s] + CATALOG_PAGE_SIZE - 1) / CATALOG_PAGE_SIZE;
		if (in->pages != 0 && in->pages < need) {
			*cause = xasprintf("sections.%s.pages: %u, but the "
			    "entries need %zu", cw_section_keys[s], in->pages,
			    need);
			return (-HV_ERANGE);
		}
		out[s].count = (uint16_t)n;
		out[s].pages = in->pages != 0 ? in->pages : (uint16_t)need;
		if (in->page != 0)
			out[s].page = in->page;
		else if (next > CW_PAGES_MAX) {
			*cause = xasprintf("sections.%s.page: no page left "
			    "below %d", cw_section_keys[s], CW_PAGES_MAX);
			return (-HV_ELIMIT);
		} else
			out[s].page = (uint16_t)next;
		end = (size_t)out[s].page + out[s].pages;
		if (end > next)
			next = end;
	}
	/* Sections holding pages must not share any. */
	for (s = 0; s < CATALOG_NSECTIONS; s++) {
		for (t = s + 1; t < CATALOG_NSECTIONS; t++) {
			if (out[s].pages == 0 || out[t].pages == 0)
				continue;
			a = out[s].page;
			b = out[t].page;
			if (a < b + out[t].pages && b < a + out[s].pages) {
				*cause = xasprintf("sections.%s: pages %zu-%zu "
				    "overlap sections.%s (pages %zu-%zu)",
				    cw_section_keys[s], a, a + out[s].pages - 1,
				    cw_section_keys[t], b,
				    b + out[t].pages - 1);
				return (-HV_ERANGE);
			}
		}
	}
	if (cat->length_pages == 0 && next > CW_PAGES_MAX) {
		*cause = xasprintf("length_pages: the sections need "
		    "%zu pages, more than the %d hvtop writes", next,
		    CW_PAGES_MAX);
		return (-HV_ELIMIT);
	} else if (cat->length_pages == 0)
		*length_pages = (uint32_t)next;
	else if (cat->length_pages < next) {
		*cause = xasprintf("length_pages: %u, but the sections need "
		    "%zu pages", cat->length_pages, next);
		return (-HV_ERANGE);
	} else if (cat->length_pages > CW_PAGES_MAX) {
		*cause = xasprintf("length_pages: %u, more than the %d pages "
		    "hvtop writes", cat->length_pages, CW_PAGES_MAX);
		return (-HV_ELIMIT);
	} else
		*length_pages = cat->length_pages;
	return (0);
}

static void
cw_write_schema(uint8_t *p, const struct catalog_schema *sc, uint16_t len)
{
	uint16_t	 i;

	be16_put(p, len);
	be16_put(p + 0x04, sc->descriptor);
	be16_put(p + 0x06, sc->version);
	be16_put(p + 0x0e, sc->nfields);
	p += CW_SCHEMA_FIXED;
	for (i = 0; i < sc->nfields; i++, p += CW_FIELD_SIZE) {
		be16_put(p, sc->fields[i].field);
		be16_put(p + 2, sc->fields[i].offset);
		be16_put(p + 4, sc->fields[i].length);
		be16_put(p + 6, sc->fields[i].flags);
	}
}

/*
 * Bytes 0x02-0x03 of an event: the v0.17 formula index when the model has
 * a valid one, else the bytes as they were stored (0 in catalogs older
 * than v0.17, 0xffff for "none" in newer ones).
 */
static uint16_t
cw_event_formula(const struct catalog *cat, const struct catalog_event *ev)
{
	if (ev->formula != CATALOG_NONE && ev->formula < cat->nformulas &&
	    ev->formula <= 0xffff)
		return ((uint16_t)ev->formula);
	return (ev->formula_raw);
}

static void
cw_write_event(uint8_t *p, const struct catalog *cat,
    const struct catalog_event *ev, uint16_t len)
{
	be16_put(p, len);
	be16_put(p + 0x02, cw_event_formula(cat, ev));
	p[0x04] = (uint8_t)ev->domain;
	be16_put(p + 0x06, ev->record_offset);
	be16_put(p + 0x08, ev->record_length);
	be16_put(p + 0x0a, ev->counter_offset);
	be32_put(p + 0x0c, ev->flags);
	be16_put(p + 0x10, ev->primary_group);
	be16_put(p + 0x12, ev->group_count);
	p = cw_put_string(p + CW_EVENT_FIXED, CW_TEXT(ev, name, 0));
	p = cw_put_string(p, CW_TEXT(ev, desc, 1));
	(void)cw_put_string(p, CW_TEXT(ev, long_desc, 2));
}

static void
cw_write_group(uint8_t *p, const struct catalog_group *gr, uint16_t len)
{
	int	 i;

	be16_put(p, len);
	be32_put(p + 0x04, gr->flags);
	p[0x08] = (uint8_t)gr->domain;
	be16_put(p + 0x0a, gr->record_offset);
	be16_put(p + 0x0c, gr->record_length);
	p[0x0e] = gr->schema;
	p[0x0f] = gr->event_count;
	for (i = 0; i < CATALOG_GROUP_SLOTS; i++)
		be16_put(p + 0x10 + 2 * i, gr->events[i]);
	p = cw_put_string(p + CW_GROUP_FIXED, CW_TEXT(gr, name, 0));
	(void)cw_put_string(p, CW_TEXT(gr, desc, 1));
}

static void
cw_write_formula(uint8_t *p, const struct catalog_formula *fo, uint16_t len)
{
	be16_put(p, len);
	be32_put(p + 0x04, fo->flags);
	be16_put(p + 0x08, fo->group);
	p = cw_put_string(p + CW_FORMULA_FIXED, CW_TEXT(fo, name, 0));
	p = cw_put_string(p, CW_TEXT(fo, desc, 1));
	p = cw_put_string(p, CW_TEXT(fo, formula, 2));
	(void)cw_put_string(p, CW_TEXT(fo, unit, 3));
}

static void
cw_write_page0(uint8_t *p, const struct catalog *cat, uint32_t length_pages,
    const struct catalog_section *sec)
{
	int	 s;

	be32_put(p + CW_P0_MAGIC, cat->magic != 0 ? cat->magic :
	    CATALOG_MAGIC);
	be32_put(p + CW_P0_LENGTH, length_pages);
	be64_put(p + CW_P0_VERSION, cat->version);
	memcpy(p + CW_P0_BUILD_TIME, cat->build_time,
	    strnlen(cat->build_time, CW_P0_BUILD_TIME_LEN));
	for (s = 0; s < CATALOG_NSECTIONS; s++) {
		be16_put(p + CW_P0_SECTIONS + CW_P0_SECTION_SIZE * s,
		    sec[s].page);
		be16_put(p + CW_P0_SECTIONS + CW_P0_SECTION_SIZE * s + 2,
		    sec[s].pages);
		be16_put(p + CW_P0_SECTIONS + CW_P0_SECTION_SIZE * s + 4,
		    sec[s].count);
	}
	for (s = 0; s < 6; s++)
		be32_put(p + CW_P0_SUB_OFFSETS + 4 * s, cat->sub_offsets[s]);
}

int
catalog_write(const struct catalog *cat, void **out, size_t *len,
    char **cause)
{
	struct catalog_section	 sec[CATALOG_NSECTIONS];
	uint16_t		*lens[CATALOG_NSECTIONS] = { NULL };
	size_t			 bytes[CATALOG_NSECTIONS], n, i, size;
	uint32_t		 length_pages;
	uint8_t			*buf = NULL, *p;
	int			 s, error;

	*out = NULL;
	*len = 0;
	for (s = 0; s < CATALOG_NSECTIONS; s++) {
		n = cw_count(cat, s);
		lens[s] = xcalloc(n == 0 ? 1 : n, sizeof *lens[s]);
		if ((error = cw_lengths(cat, s, lens[s], &bytes[s],
		    cause)) != 0)
			goto fail;
	}
	memset(sec, 0, sizeof sec);
	if ((error = cw_place(cat, bytes, sec, &length_pages, cause)) != 0)
		goto fail;

	size = (size_t)length_pages * CATALOG_PAGE_SIZE;
	buf = xcalloc(size, 1);
	cw_write_page0(buf, cat, length_pages, sec);
	for (s = 0; s < CATALOG_NSECTIONS; s++) {
		p = buf + (size_t)sec[s].page * CATALOG_PAGE_SIZE;
		for (i = 0; i < cw_count(cat, s); i++) {
			switch (s) {
			case CATALOG_SCHEMAS:
				cw_write_schema(p, &cat->schemas[i],
				    lens[s][i]);
				break;
			case CATALOG_EVENTS:
				cw_write_event(p, cat, &cat->events[i],
				    lens[s][i]);
				break;
			case CATALOG_GROUPS:
				cw_write_group(p, &cat->groups[i], lens[s][i]);
				break;
			case CATALOG_FORMULAS:
				cw_write_formula(p, &cat->formulas[i],
				    lens[s][i]);
				break;
			}
			p += lens[s][i];
		}
	}
	for (s = 0; s < CATALOG_NSECTIONS; s++)
		free(lens[s]);
	*out = buf;
	*len = size;
	return (0);
fail:
	for (s = 0; s < CATALOG_NSECTIONS; s++)
		free(lens[s]);
	free(buf);
	return (error);
}
