/*
 * Parse a 24x7 catalog image (shared ABI reference, section 1): page 0,
 * then the schema, event, group and formula sections it points at.  Pure:
 * the caller supplies the bytes, nothing is printed.
 *
 * Stricter than the kernel: every read is bounds-checked against the entry,
 * the section and the catalog (the kernel's own check is 20 bytes too
 * lenient); strings are copied up to their first NUL or their length,
 * never trusted to be terminated.  Stricter but more forgiving, too: where
 * the kernel stops at the first bad event, a bad entry here becomes a
 * diagnostic with its file offset and the entry is dropped, and the walk
 * goes on as long as the entry's length can be trusted to find the next
 * one.  The kernel's skip rules (record length 0, RESERVED names, domains
 * of another interface) do not drop anything: they only mark the event.
 */
#include "config.h"

#include "catalog/catalog.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog-index.h"
#include "util/be.h"
#include "util/hverr.h"
#include "util/xalloc.h"

/* Page 0. */
#define P0_MAGIC		0x00
#define P0_LENGTH		0x04
#define P0_VERSION		0x08
#define P0_BUILD_TIME		0x10
#define P0_BUILD_TIME_LEN	16
#define P0_SECTIONS		0x40	/* 4 x { offs, len, count, pad } */
#define P0_SECTION_SIZE		8
#define P0_KERNEL_SIZE		0x60	/* the kernel's struct ends here */
#define P0_SUB_OFFSETS		0x60	/* proposal v0.16: 6 x be32 */
#define P0_V016_SIZE		0x78

/* Event entry: fixed part, then name, description, long description. */
#define EV_FORMULA		0x02	/* reserved before proposal v0.17 */
#define EV_DOMAIN		0x04
#define EV_RECORD_OFFS		0x06
#define EV_RECORD_LEN		0x08
#define EV_COUNTER_OFFS		0x0a
#define EV_FLAGS		0x0c
#define EV_PRIMARY_GROUP	0x10
#define EV_GROUP_COUNT		0x12
#define EV_STRINGS		0x14
#define EV_MIN			(EV_STRINGS + 3 * 2)

/* Group entry: fixed part with 16 slots, then name and description. */
#define GR_FLAGS		0x04
#define GR_DOMAIN		0x08
#define GR_RECORD_OFFS		0x0a
#define GR_RECORD_LEN		0x0c
#define GR_SCHEMA		0x0e
#define GR_EVENT_COUNT		0x0f
#define GR_SLOTS		0x10
#define GR_STRINGS		0x30
#define GR_MIN			(GR_STRINGS + 2 * 2)

/* Schema entry: fixed part, then 8-byte field descriptors. */
#define SC_DESCRIPTOR		0x04
#define SC_VERSION		0x06
#define SC_NFIELDS		0x0e
#define SC_FIELDS		0x10
#define SC_FIELD_SIZE		8
#define SC_MIN			SC_FIELDS

/* Formula entry: fixed part, then name, description, formula, unit. */
#define FO_FLAGS		0x04
#define FO_GROUP		0x08
#define FO_STRINGS		0x10
#define FO_MIN			(FO_STRINGS + 4 * 2)
#define FO_FLAG_GROUPED		0x4

_Static_assert(P0_SECTIONS + P0_SECTION_SIZE * CATALOG_NSECTIONS ==
    P0_KERNEL_SIZE, "page 0 sections end where the kernel's struct does");
_Static_assert(P0_SUB_OFFSETS + 6 * 4 == P0_V016_SIZE,
    "six v0.16 sub-section offsets");
_Static_assert(EV_STRINGS == 0x14 && EV_MIN == 0x1a,
    "event name length at 0x14, fixed part 0x16 bytes");
_Static_assert(GR_SLOTS + 2 * CATALOG_GROUP_SLOTS == GR_STRINGS,
    "16 be16 group slots end at the group name");

/* Singular names for messages, and the smallest possible entry. */
static const char *const catalog_entry_names[CATALOG_NSECTIONS] = {
	"schema", "event", "group", "formula",
};
static const size_t catalog_entry_min[CATALOG_NSECTIONS] = {
	SC_MIN, EV_MIN, GR_MIN, FO_MIN,
};
static const char *const catalog_sub_names[6] = {
	"core events", "thread events", "chip events",
	"core groups", "thread groups", "chip groups",
};

struct catalog_pctx {
	const uint8_t	*buf;
	size_t		 limit;		/* min(file, declared length) */
	struct catalog	*cat;
	size_t		 diagcap;
	size_t		 sec_start[CATALOG_NSECTIONS];
	size_t		 sec_end[CATALOG_NSECTIONS];
	int		 sub_found[6];
	int		 escape;	/* a string holds more than
					   printable ASCII */
};

static void
catalog_vdiag(struct catalog_pctx *p, size_t off, enum catalog_severity sev,
    const char *fmt, va_list ap)
{
	struct catalog		*cat = p->cat;
	struct catalog_diag	*d;

	if (cat->ndiags == p->diagcap) {
		p->diagcap = p->diagcap == 0 ? 16 : p->diagcap * 2;
		cat->diags = xreallocarray(cat->diags, p->diagcap,
		    sizeof *cat->diags);
	}
	d = &cat->diags[cat->ndiags++];
	d->offset = off;
	d->severity = sev;
	d->msg = xvasprintf(fmt, ap);
	if (sev == CATALOG_ERROR)
		cat->nerrors++;
}

static void __attribute__((format(printf, 4, 5)))
catalog_diag(struct catalog_pctx *p, size_t off, enum catalog_severity sev,
    const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	catalog_vdiag(p, off, sev, fmt, ap);
	va_end(ap);
}

/*
 * A diagnostic about entry ix of section id, prefixed "event 12 (NAME): "
 * when the name is known.  Built only when needed: the common path of a
 * clean catalog formats nothing.
 */
static void __attribute__((format(printf, 7, 8)))
catalog_ediag(struct catalog_pctx *p, size_t off, enum catalog_severity sev,
    int id, uint32_t ix, const char *name, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg, *pname;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	if (name != NULL && *name != '\0') {
		pname = catalog_printable(name);
		catalog_diag(p, off, sev, "%s %u (%s): %s",
		    catalog_entry_names[id], ix, pname, msg);
		free(pname);
	} else
		catalog_diag(p, off, sev, "%s %u: %s", catalog_entry_names[id],
		    ix, msg);
	free(msg);
}

/*
 * Read the length-prefixed string at *pos inside the entry at eoff of
 * elen bytes.  The length counts its own two bytes, so 2 is the empty
 * string and less is malformed.  The copy stops at the first NUL.  Returns
 * 0 and advances *pos, or -1 after a diagnostic.  For a name (plain not
 * NULL), *plain says whether it holds only bytes that catalog_check_name()
 * lets by; the same pass finds the end and any byte to escape.
 */
static int
catalog_string(struct catalog_pctx *p, int id, uint32_t ix, const char *name,
    size_t eoff, size_t elen, size_t *pos, const char *what, char **out,
    int *plain)
{
	const char	*src;
	size_t		 at = eoff + *pos, n;
	unsigned	 sl;

	if (!be_fits(elen, *pos, 2)) {
		catalog_ediag(p, at, CATALOG_ERROR, id, ix, name,
		    "the %s length field lies past the entry's end at 0x%zx; "
		    "entry dropped", what, eoff + elen);
		return (-1);
	}
	if (at & 1)
		catalog_ediag(p, at, CATALOG_WARNING, id, ix, name,
		    "the %s length field is at an odd offset", what);
	sl = be16_get(p->buf + at);
	if (sl < 2) {
		catalog_ediag(p, at, CATALOG_ERROR, id, ix, name,
		    "%s length %u is less than 2 (it counts its own two "
		    "bytes); entry dropped", what, sl);
		return (-1);
	}
	if (!be_fits(elen, *pos, sl)) {
		catalog_ediag(p, at, CATALOG_ERROR, id, ix, name,
		    "%s of length %u runs past the entry's end at 0x%zx; "
		    "entry dropped", what, sl, eoff + elen);
		return (-1);
	}
	src = (const char *)p->buf + at + 2;
	n = catalog_text_ascii(src, sl - 2, plain != NULL);
	if (plain != NULL)
		*plain = n == sl - 2 || src[n] == '\0';
	if (n < sl - 2 && src[n] != '\0') {
		n = strnlen(src, sl - 2);
		if (catalog_text_ascii(src, n, 0) < n)
			p->escape = 1;
	}
	*out = xmalloc(n + 1);
	memcpy(*out, src, n);
	(*out)[n] = '\0';
	*pos += sl;
	return (0);
}

/* Warn about bytes in a name that no sysfs file name or listing wants. */
static void
catalog_check_name(struct catalog_pctx *p, int id, uint32_t ix,
    const char *name, size_t noff)
{
	const unsigned char	*c = (const unsigned char *)name;

	for (; *c != '\0'; c++) {
		if (*c <= 0x20 || *c >= 0x7f || *c == '/') {
			catalog_ediag(p, noff, CATALOG_WARNING, id, ix, name,
			    "name holds byte 0x%02x at position %zu", *c,
			    (size_t)(c - (const unsigned char *)name));
			return;
		}
	}
}

static int
catalog_parse_schema(struct catalog_pctx *p, size_t off, size_t elen,
    uint32_t ix)
{
	struct catalog		*cat = p->cat;
	struct catalog_schema	*s;
	struct catalog_schema_field *f;
	const uint8_t		*e = p->buf + off;
	size_t			 i, need;
	unsigned		 n;

	n = be16_get(e + SC_NFIELDS);
	need = SC_FIELDS + (size_t)n * SC_FIELD_SIZE;
	if (need > elen) {
		catalog_ediag(p, off + SC_NFIELDS, CATALOG_ERROR,
		    CATALOG_SCHEMAS, ix, NULL, "%u fields need %zu bytes but "
		    "the entry has %zu; entry dropped", n, need, elen);
		return (-1);
	}
	s = &cat->schemas[cat->nschemas++];
	memset(s, 0, sizeof *s);
	s->index = ix;
	s->file_offset = off;
	s->entry_length = (uint16_t)elen;
	s->descriptor = be16_get(e + SC_DESCRIPTOR);
	s->version = be16_get(e + SC_VERSION);
	s->nfields = (uint16_t)n;
	if (n > 0)
		s->fields = xcalloc(n, sizeof *s->fields);
	for (i = 0; i < n; i++) {
		f = &s->fields[i];
		f->field = be16_get(e + SC_FIELDS + i * SC_FIELD_SIZE);
		f->offset = be16_get(e + SC_FIELDS + i * SC_FIELD_SIZE + 2);
		f->length = be16_get(e + SC_FIELDS + i * SC_FIELD_SIZE + 4);
		f->flags = be16_get(e + SC_FIELDS + i * SC_FIELD_SIZE + 6);
		/* 55 and 56 are in real catalogs, though nothing names them. */
		if (strcmp(catalog_field_name(f->field), "?") != 0 ||
		    f->field == 55 || f->field == 56)
			continue;
		catalog_ediag(p, off + SC_FIELDS + i * SC_FIELD_SIZE,
		    CATALOG_WARNING, CATALOG_SCHEMAS, ix, NULL,
		    "field %zu has the unknown enum %u", i, f->field);
	}
	return (0);
}

static void
catalog_event_clear(struct catalog_event *ev)
{
	size_t	 i;

	free(ev->name);
	free(ev->sysfs_name);
	free(ev->desc);
	free(ev->long_desc);
	free(ev->groups);
	for (i = 0; i < CATALOG_EVENT_NSTRINGS; i++)
		free(ev->stored[i]);
}

/*
 * What an event's fixed fields say that a reader should know: a formula
 * index or a domain out of range, a counter that is not where a reader
 * can find it.  Warnings only: the event stays usable as far as it goes.
 */
static void
catalog_check_event(struct catalog_pctx *p, size_t off, uint32_t ix,
    struct catalog_event *ev)
{
	unsigned	 nformulas;

	/*
	 * Proposal v0.17 made bytes 0x02-0x03 a formula index; older
	 * catalogs hold 0 there, so only an index below the formula count
	 * means anything.
	 */
	nformulas = p->cat->sections[CATALOG_FORMULAS].count;
	ev->formula = CATALOG_NONE;
	if (ev->formula_raw < nformulas)
		ev->formula = ev->formula_raw;
	else if (nformulas > 0 && ev->formula_raw != 0xffff)
		catalog_ediag(p, off + EV_FORMULA, CATALOG_WARNING,
		    CATALOG_EVENTS, ix, ev->name, "formula index %u is not "
		    "below the formula count %u; ignored", ev->formula_raw,
		    nformulas);

	if (ev->domain < CATALOG_DOMAIN_CHIP || ev->domain >= CATALOG_DOMAIN_MAX)
		catalog_ediag(p, off + EV_DOMAIN, CATALOG_WARNING,
		    CATALOG_EVENTS, ix, ev->name, "domain %u is not a 24x7 "
		    "domain (1-6)", ev->domain);
	if (ev->record_offset % 8 != 0)
		catalog_ediag(p, off + EV_RECORD_OFFS, CATALOG_WARNING,
		    CATALOG_EVENTS, ix, ev->name, "group record offset 0x%x "
		    "is not 8-byte aligned", ev->record_offset);
	else if (ev->offset % 8 != 0)
		catalog_ediag(p, off + EV_COUNTER_OFFS, CATALOG_WARNING,
		    CATALOG_EVENTS, ix, ev->name, "counter offset 0x%x makes "
		    "offset 0x%x, which is not 8-byte aligned",
		    ev->counter_offset, ev->offset);
	if (ev->record_length != 0 &&
	    (uint32_t)ev->counter_offset + 8 > ev->record_length)
		catalog_ediag(p, off + EV_COUNTER_OFFS, CATALOG_WARNING,
		    CATALOG_EVENTS, ix, ev->name, "counter offset 0x%x lies "
		    "outside its %u-byte group record", ev->counter_offset,
		    ev->record_length);
}

static int
catalog_parse_event(struct catalog_pctx *p, size_t off, size_t elen,
    uint32_t ix)
{
	struct catalog		*cat = p->cat;
	struct catalog_event	*ev;
	const uint8_t		*e = p->buf + off;
	size_t			 pos = EV_STRINGS;
	int			 plain;

	ev = &cat->events[cat->nevents];
	memset(ev, 0, sizeof *ev);
	if (catalog_string(p, CATALOG_EVENTS, ix, NULL, off, elen, &pos,
	    "name", &ev->name, &plain) != 0)
		goto drop;
	if (catalog_string(p, CATALOG_EVENTS, ix, ev->name, off, elen, &pos,
	    "description", &ev->desc, NULL) != 0 ||
	    catalog_string(p, CATALOG_EVENTS, ix, ev->name, off, elen, &pos,
	    "long description", &ev->long_desc, NULL) != 0)
		goto drop;
	if (ev->name[0] == '\0') {
		catalog_ediag(p, off + EV_STRINGS, CATALOG_ERROR,
		    CATALOG_EVENTS, ix, NULL, "the name is empty; entry "
		    "dropped");
		goto drop;
	}
	if (!plain)
		catalog_check_name(p, CATALOG_EVENTS, ix, ev->name,
		    off + EV_STRINGS + 2);

	ev->index = ix;
	ev->file_offset = off;
	ev->entry_length = (uint16_t)elen;
	ev->formula_raw = be16_get(e + EV_FORMULA);
	ev->domain = e[EV_DOMAIN];
	ev->record_offset = be16_get(e + EV_RECORD_OFFS);
	ev->record_length = be16_get(e + EV_RECORD_LEN);
	ev->counter_offset = be16_get(e + EV_COUNTER_OFFS);
	ev->offset = (uint32_t)ev->record_offset + ev->counter_offset;
	ev->flags = be32_get(e + EV_FLAGS);
	ev->primary_group = be16_get(e + EV_PRIMARY_GROUP);
	ev->group_count = be16_get(e + EV_GROUP_COUNT);

	catalog_check_event(p, off, ix, ev);
	cat->nevents++;
	return (0);
drop:
	catalog_event_clear(ev);
	memset(ev, 0, sizeof *ev);
	return (-1);
}

static int
catalog_parse_group(struct catalog_pctx *p, size_t off, size_t elen,
    uint32_t ix)
{
	struct catalog		*cat = p->cat;
	struct catalog_group	*g;
	const uint8_t		*e = p->buf + off;
	size_t			 pos = GR_STRINGS, i;
	int			 plain;

	g = &cat->groups[cat->ngroups];
	memset(g, 0, sizeof *g);
	if (catalog_string(p, CATALOG_GROUPS, ix, NULL, off, elen, &pos,
	    "name", &g->name, &plain) != 0 ||
	    catalog_string(p, CATALOG_GROUPS, ix, g->name, off, elen, &pos,
	    "description", &g->desc, NULL) != 0) {
		free(g->name);
		free(g->desc);
		memset(g, 0, sizeof *g);
		return (-1);
	}
	if (g->name[0] == '\0')
		catalog_ediag(p, off + GR_STRINGS, CATALOG_WARNING,
		    CATALOG_GROUPS, ix, NULL, "the name is empty");
	else if (!plain)
		catalog_check_name(p, CATALOG_GROUPS, ix, g->name,
		    off + GR_STRINGS + 2);
	g->index = ix;
	g->file_offset = off;
	g->entry_length = (uint16_t)elen;
	g->flags = be32_get(e + GR_FLAGS);
	g->domain = e[GR_DOMAIN];
	g->record_offset = be16_get(e + GR_RECORD_OFFS);
	g->record_length = be16_get(e + GR_RECORD_LEN);
	g->schema = e[GR_SCHEMA];
	g->event_count = e[GR_EVENT_COUNT];
	for (i = 0; i < CATALOG_GROUP_SLOTS; i++)
		g->events[i] = be16_get(e + GR_SLOTS + 2 * i);
	if (g->event_count == 0 || g->event_count > CATALOG_GROUP_SLOTS)
		catalog_ediag(p, off + GR_EVENT_COUNT, CATALOG_WARNING,
		    CATALOG_GROUPS, ix, g->name, "event count %u is not "
		    "1-%d", g->event_count, CATALOG_GROUP_SLOTS);
	if (g->schema >= cat->sections[CATALOG_SCHEMAS].count)
		catalog_ediag(p, off + GR_SCHEMA, CATALOG_WARNING,
		    CATALOG_GROUPS, ix, g->name, "schema %u is not below the "
		    "schema count %u", g->schema,
		    cat->sections[CATALOG_SCHEMAS].count);
	if (g->record_offset % 8 != 0)
		catalog_ediag(p, off + GR_RECORD_OFFS, CATALOG_WARNING,
		    CATALOG_GROUPS, ix, g->name, "group record offset 0x%x "
		    "is not 8-byte aligned", g->record_offset);
	cat->ngroups++;
	return (0);
}

static int
catalog_parse_formula(struct catalog_pctx *p, size_t off, size_t elen,
    uint32_t ix)
{
	struct catalog		*cat = p->cat;
	struct catalog_formula	*f;
	const uint8_t		*e = p->buf + off;
	size_t			 pos = FO_STRINGS;
	int			 plain;

	f = &cat->formulas[cat->nformulas];
	memset(f, 0, sizeof *f);
	if (catalog_string(p, CATALOG_FORMULAS, ix, NULL, off, elen, &pos,
	    "name", &f->name, &plain) != 0 ||
	    catalog_string(p, CATALOG_FORMULAS, ix, f->name, off, elen, &pos,
	    "description", &f->desc, NULL) != 0 ||
	    catalog_string(p, CATALOG_FORMULAS, ix, f->name, off, elen, &pos,
	    "formula", &f->formula, NULL) != 0 ||
	    catalog_string(p, CATALOG_FORMULAS, ix, f->name, off, elen, &pos,
	    "unit", &f->unit, NULL) != 0)
		goto drop;
	if (f->name[0] == '\0') {
		catalog_ediag(p, off + FO_STRINGS, CATALOG_ERROR,
		    CATALOG_FORMULAS, ix, NULL, "the name is empty; entry "
		    "dropped");
		goto drop;
	}
	if (!plain)
		catalog_check_name(p, CATALOG_FORMULAS, ix, f->name,
		    off + FO_STRINGS + 2);
	f->index = ix;
	f->file_offset = off;
	f->entry_length = (uint16_t)elen;
	f->flags = be32_get(e + FO_FLAGS);
	f->group = be16_get(e + FO_GROUP);
	if ((f->flags & FO_FLAG_GROUPED) &&
	    f->group >= cat->sections[CATALOG_GROUPS].count)
		catalog_ediag(p, off + FO_GROUP, CATALOG_WARNING,
		    CATALOG_FORMULAS, ix, f->name, "group %u is not below "
		    "the group count %u", f->group,
		    cat->sections[CATALOG_GROUPS].count);
	cat->nformulas++;
	return (0);
drop:
	free(f->name);
	free(f->desc);
	free(f->formula);
	free(f->unit);
	memset(f, 0, sizeof *f);
	return (-1);
}

/* Does a v0.16 sub-section offset point at this entry? */
static void
catalog_sub_mark(struct catalog_pctx *p, int id, size_t rel)
{
	size_t	 i, first;

	first = id == CATALOG_EVENTS ? 0 : 3;
	for (i = first; i < first + 3; i++) {
		if (p->cat->sub_offsets[i] == rel)
			p->sub_found[i] = 1;
	}
}

/* Room for up to cap entries of section id. */
static void
catalog_walk_alloc(struct catalog *cat, int id, size_t cap)
{
	switch (id) {
	case CATALOG_SCHEMAS:
		cat->schemas = xcalloc(cap, sizeof *cat->schemas);
		break;
	case CATALOG_EVENTS:
		cat->events = xcalloc(cap, sizeof *cat->events);
		break;
	case CATALOG_GROUPS:
		cat->groups = xcalloc(cap, sizeof *cat->groups);
		break;
	case CATALOG_FORMULAS:
		cat->formulas = xcalloc(cap, sizeof *cat->formulas);
		break;
	}
}

/* One entry of section id, by the parser of its kind. */
static int
catalog_parse_entry(struct catalog_pctx *p, int id, size_t off, size_t elen,
    uint32_t ix)
{
	switch (id) {
	case CATALOG_SCHEMAS:
		return (catalog_parse_schema(p, off, elen, ix));
	case CATALOG_EVENTS:
		return (catalog_parse_event(p, off, elen, ix));
	case CATALOG_GROUPS:
		return (catalog_parse_group(p, off, elen, ix));
	default:
		return (catalog_parse_formula(p, off, elen, ix));
	}
}

/*
 * Walk the entries of section id between start and end.  An entry whose
 * length cannot be trusted ends the walk: without it the next entry cannot
 * be found, so everything after it is lost and the message says how much.
 */
static void
catalog_walk(struct catalog_pctx *p, int id)
{
	struct catalog	*cat = p->cat;
	const char	*what = catalog_entry_names[id];
	size_t		 start = p->sec_start[id], end = p->sec_end[id];
	size_t		 off, elen, min, cap;
	unsigned	 count, i;

	count = cat->sections[id].count;
	min = catalog_entry_min[id];
	/* No more entries can fit than the smallest entry allows. */
	cap = (end - start) / min;
	if (cap > count)
		cap = count;
	if (cap > 0)
		catalog_walk_alloc(cat, id, cap);

	off = start;
	for (i = 0; i < count; i++) {
		if (!be_fits(end, off, 2)) {
			catalog_diag(p, off, CATALOG_ERROR, "%s section: the "
			    "section ends at 0x%zx after %u of %u entries; "
			    "%u %s lost", catalog_section_name(id), end, i,
			    count, count - i, catalog_section_name(id));
			break;
		}
		elen = be16_get(p->buf + off);
		if (elen < min) {
			catalog_diag(p, off, CATALOG_ERROR, "%s %u: length %zu "
			    "is less than the %zu bytes of the smallest %s, so "
			    "the next entry cannot be found; %u of %u %s "
			    "lost", what, i, elen, min, what, count - i, count,
			    catalog_section_name(id));
			break;
		}
		if (!be_fits(end, off, elen)) {
			catalog_diag(p, off, CATALOG_ERROR, "%s %u: length %zu "
			    "runs past the end of the %s section at 0x%zx; "
			    "%u of %u %s lost", what, i, elen,
			    catalog_section_name(id), end, count - i, count,
			    catalog_section_name(id));
			break;
		}
		if (elen % 16 != 0)
			catalog_diag(p, off, CATALOG_WARNING, "%s %u: length "
			    "%zu is not a multiple of 16", what, i, elen);
		if (id == CATALOG_EVENTS || id == CATALOG_GROUPS)
			catalog_sub_mark(p, id, off - start);
		if (catalog_parse_entry(p, id, off, elen, i) != 0)
			cat->dropped[id]++;
		off += elen;
	}
	cat->dropped[id] += count - i;
}

/*
 * Check a section descriptor against the catalog and clip it to what is
 * there.  Returns 0 when the section may be walked.
 */
static int
catalog_section_check(struct catalog_pctx *p, int id)
{
	struct catalog		*cat = p->cat;
	struct catalog_section	*s = &cat->sections[id];
	size_t			 doff = P0_SECTIONS + P0_SECTION_SIZE * id;
	uint64_t		 start, end;
	const char		*name = catalog_section_name(id);

	start = (uint64_t)s->page * CATALOG_PAGE_SIZE;
	end = start + (uint64_t)s->pages * CATALOG_PAGE_SIZE;
	if (s->count == 0)
		return (-1);
	if (s->pages == 0) {
		catalog_diag(p, doff, CATALOG_ERROR, "%s section claims %u "
		    "entries in 0 pages; all lost", name, s->count);
		cat->dropped[id] = s->count;
		return (-1);
	}
	if (s->page == 0) {
		catalog_diag(p, doff, CATALOG_ERROR, "%s section starts at "
		    "page 0, the header; all %u entries lost", name, s->count);
		cat->dropped[id] = s->count;
		return (-1);
	}
	if (start >= p->limit) {
		catalog_diag(p, doff, CATALOG_ERROR, "%s section (pages "
		    "0x%x-0x%x) lies outside the catalog, which ends at 0x%zx; "
		    "all %u entries lost", name, s->page,
		    s->page + s->pages - 1, p->limit, s->count);
		cat->dropped[id] = s->count;
		return (-1);
	}
	if (end > p->limit) {
		catalog_diag(p, p->limit, CATALOG_ERROR, "%s section (bytes "
		    "0x%llx-0x%llx) is cut short by the end of the catalog",
		    name, (unsigned long long)start,
		    (unsigned long long)end - 1);
		end = p->limit;
	}
	p->sec_start[id] = (size_t)start;
	p->sec_end[id] = (size_t)end;
	return (0);
}

/* Sections that share bytes cannot both be right. */
static void
catalog_overlaps(struct catalog_pctx *p, const int *walk)
{
	struct catalog_section	*a, *b;
	int			 i, j;

	for (i = 0; i < CATALOG_NSECTIONS; i++) {
		for (j = i + 1; j < CATALOG_NSECTIONS; j++) {
			if (!walk[i] || !walk[j])
				continue;
			a = &p->cat->sections[i];
			b = &p->cat->sections[j];
			if ((uint32_t)a->page + a->pages <= b->page ||
			    (uint32_t)b->page + b->pages <= a->page)
				continue;
			catalog_diag(p, P0_SECTIONS + P0_SECTION_SIZE * j,
			    CATALOG_WARNING, "%s section (pages 0x%x-0x%x) "
			    "overlaps the %s section (pages 0x%x-0x%x)",
			    catalog_section_name(j), b->page,
			    b->page + b->pages - 1, catalog_section_name(i),
			    a->page, a->page + a->pages - 1);
		}
	}
}

int
catalog_peek_version(const void *buf, size_t len, uint64_t *version)
{
	if (!be_fits(len, P0_VERSION, 8))
		return (-HV_ETRUNC);
	*version = be64_get((const uint8_t *)buf + P0_VERSION);
	return (0);
}

int
catalog_peek_pages(const void *buf, size_t len, uint32_t *pages)
{
	if (!be_fits(len, P0_LENGTH, 4))
		return (-HV_ETRUNC);
	*pages = be32_get((const uint8_t *)buf + P0_LENGTH);
	return (0);
}

static void
catalog_page0(struct catalog_pctx *p, size_t len)
{
	struct catalog	*cat = p->cat;
	const uint8_t	*b = p->buf;
	uint64_t	 declared;
	size_t		 i;
	unsigned	 c;
	int		 ok;

	cat->magic = be32_get(b + P0_MAGIC);
	cat->length_pages = be32_get(b + P0_LENGTH);
	cat->version = be64_get(b + P0_VERSION);
	for (i = 0; i < P0_BUILD_TIME_LEN && b[P0_BUILD_TIME + i] != 0; i++) {
		c = b[P0_BUILD_TIME + i];
		cat->build_time[i] = c < 0x20 || c >= 0x7f ? '?' : (char)c;
	}
	cat->build_time[i] = '\0';
	for (i = 0; i < CATALOG_NSECTIONS; i++) {
		cat->sections[i].page = be16_get(b + P0_SECTIONS +
		    P0_SECTION_SIZE * i);
		cat->sections[i].pages = be16_get(b + P0_SECTIONS +
		    P0_SECTION_SIZE * i + 2);
		cat->sections[i].count = be16_get(b + P0_SECTIONS +
		    P0_SECTION_SIZE * i + 4);
	}
	for (i = 0; i < 6; i++)
		cat->sub_offsets[i] = be_fits(len, P0_SUB_OFFSETS + 4 * i, 4) ?
		    be32_get(b + P0_SUB_OFFSETS + 4 * i) : 0;

	if (cat->magic != CATALOG_MAGIC)
		catalog_diag(p, P0_MAGIC, CATALOG_ERROR, "magic is 0x%08x, "
		    "not 0x%08x (\"24x7\")", cat->magic, CATALOG_MAGIC);

	declared = (uint64_t)cat->length_pages * CATALOG_PAGE_SIZE;
	p->limit = len;
	if (cat->length_pages == 0)
		catalog_diag(p, P0_LENGTH, CATALOG_ERROR, "the catalog length "
		    "is 0 pages");
	else if (declared > len)
		catalog_diag(p, len, CATALOG_ERROR, "the catalog ends here, "
		    "but page 0 says it is %u pages (0x%llx bytes)",
		    cat->length_pages, (unsigned long long)declared);
	else if (declared < len) {
		catalog_diag(p, (size_t)declared, CATALOG_WARNING, "%zu bytes "
		    "after the catalog's length of %u pages are ignored",
		    len - (size_t)declared, cat->length_pages);
		p->limit = (size_t)declared;
	}

	ok = strlen(cat->build_time) == 14;
	for (i = 0; ok && i < 14; i++)
		ok = cat->build_time[i] >= '0' && cat->build_time[i] <= '9';
	if (!ok)
		catalog_diag(p, P0_BUILD_TIME, CATALOG_WARNING, "build time "
		    "stamp \"%s\" is not YYYYMMDDHHMMSS", cat->build_time);
}

/* v0.16 offsets are relative to their section; 0 and ~0 mean absent. */
static void
catalog_sub_check(struct catalog_pctx *p)
{
	struct catalog	*cat = p->cat;
	size_t		 i;
	int		 id;
	uint32_t	 v;

	for (i = 0; i < 6; i++) {
		v = cat->sub_offsets[i];
		if (v == 0 || v == CATALOG_NONE || p->sub_found[i])
			continue;
		id = i < 3 ? CATALOG_EVENTS : CATALOG_GROUPS;
		catalog_diag(p, P0_SUB_OFFSETS + 4 * i, CATALOG_WARNING,
		    "the offset to the %s, 0x%x, is not the start of an entry "
		    "of the %s section", catalog_sub_names[i], v,
		    catalog_section_name(id));
	}
}

/* Group slots name events by their position in the event section. */
static void
catalog_slot_check(struct catalog_pctx *p)
{
	struct catalog			*cat = p->cat;
	const struct catalog_group	*g;
	const struct catalog_event	*ev;
	size_t				 gi, s, nslots;
	unsigned			 slot, nev;
	char				*pname;

	nev = cat->sections[CATALOG_EVENTS].count;
	for (gi = 0; gi < cat->ngroups; gi++) {
		g = &cat->groups[gi];
		nslots = g->event_count < CATALOG_GROUP_SLOTS ?
		    g->event_count : CATALOG_GROUP_SLOTS;
		for (s = 0; s < nslots; s++) {
			slot = g->events[s];
			if (slot == CATALOG_SLOT_FREE)
				continue;
			if (slot >= nev) {
				catalog_ediag(p, g->file_offset + GR_SLOTS +
				    2 * s, CATALOG_WARNING, CATALOG_GROUPS,
				    g->index, g->name, "slot %zu names event "
				    "%u, not below the event count %u", s,
				    slot, nev);
				continue;
			}
			if ((ev = catalog_event_at(cat, slot)) == NULL) {
				catalog_ediag(p, g->file_offset + GR_SLOTS +
				    2 * s, CATALOG_WARNING, CATALOG_GROUPS,
				    g->index, g->name, "slot %zu names event "
				    "%u, which was dropped", s, slot);
				continue;
			}
			if (ev->domain == g->domain)
				continue;
			/* Every name in a message is escaped. */
			pname = catalog_printable(ev->name);
			catalog_ediag(p, g->file_offset + GR_SLOTS + 2 * s,
			    CATALOG_WARNING, CATALOG_GROUPS, g->index, g->name,
			    "slot %zu names event %u (%s) of domain %u, but "
			    "the group is of domain %u", s, slot, pname,
			    ev->domain, g->domain);
			free(pname);
		}
	}
}

/*
 * Put the diagnostics in offset order, keeping the order they were found
 * in among equal offsets (a stable merge sort: qsort() is not stable).
 */
static void
catalog_diag_sort(struct catalog *cat)
{
	struct catalog_diag	*a = cat->diags, *tmp, *src, *dst, *t;
	size_t			 n = cat->ndiags, w, lo, mid, hi, i, j, k;

	if (n < 2)
		return;
	tmp = xcalloc(n, sizeof *tmp);
	src = a;
	dst = tmp;
	for (w = 1; w < n; w *= 2) {
		for (lo = 0; lo < n; lo += 2 * w) {
			mid = lo + w < n ? lo + w : n;
			hi = lo + 2 * w < n ? lo + 2 * w : n;
			i = lo;
			j = mid;
			for (k = lo; k < hi; k++) {
				if (i < mid && (j >= hi ||
				    src[i].offset <= src[j].offset))
					dst[k] = src[i++];
				else
					dst[k] = src[j++];
			}
		}
		t = src;
		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, n * sizeof *a);
	free(tmp);
}

/* Two listed events with one sysfs name: the kernel cannot make both. */
static void
catalog_sysfs_check(struct catalog_pctx *p)
{
	struct catalog			*cat = p->cat;
	const struct catalog_event	*ev, *first;
	size_t				 i, k, f;

	for (k = 0; (i = catalog_index_clash(cat, k, &f)) != SIZE_MAX; k++) {
		ev = &cat->events[i];
		first = &cat->events[f];
		catalog_ediag(p, ev->file_offset + EV_STRINGS, CATALOG_WARNING,
		    CATALOG_EVENTS, ev->index, ev->name, "its sysfs name %s "
		    "is also that of event %u (domain %u)", ev->sysfs_name,
		    first->index, first->domain);
	}
}

/*
 * Parse a catalog image; see catalog.h.  Returns 0 with *out set (caller
 * frees with catalog_free()) whenever page 0 could be read, even if
 * entries were dropped (cat->nerrors says so), or -HV_ETRUNC or
 * -HV_EUSAGE with *cause set (caller frees).
 */
int
catalog_parse(const void *buf, size_t len, int iface, struct catalog **out,
    char **cause)
{
	struct catalog_pctx	 p;
	struct catalog		*cat;
	int			 walk[CATALOG_NSECTIONS], i;

	*out = NULL;
	if (iface < 0 || iface > 2) {
		*cause = xasprintf("interface version %d is not 0 (guess), 1 "
		    "or 2", iface);
		return (-HV_EUSAGE);
	}
	if (len < P0_KERNEL_SIZE) {
		*cause = xasprintf("offset 0x%zx: the catalog ends after %zu "
		    "bytes; its header needs %d", len, len, P0_KERNEL_SIZE);
		return (-HV_ETRUNC);
	}

	memset(&p, 0, sizeof p);
	p.buf = buf;
	p.cat = cat = xcalloc(1, sizeof *cat);
	catalog_page0(&p, len);
	cat->size = p.limit;

	for (i = 0; i < CATALOG_NSECTIONS; i++)
		walk[i] = catalog_section_check(&p, i) == 0;
	catalog_overlaps(&p, walk);
	for (i = 0; i < CATALOG_NSECTIONS; i++) {
		if (walk[i])
			catalog_walk(&p, i);
	}
	catalog_sub_check(&p);

	cat->interface = iface;
	catalog_reindex_escape(cat, p.escape);
	catalog_slot_check(&p);
	catalog_sysfs_check(&p);
	catalog_diag_sort(cat);
	*out = cat;
	return (0);
}

void
catalog_free(struct catalog *cat)
{
	size_t	 i, k;

	if (cat == NULL)
		return;
	for (i = 0; i < cat->nschemas; i++)
		free(cat->schemas[i].fields);
	free(cat->schemas);
	for (i = 0; i < cat->nevents; i++)
		catalog_event_clear(&cat->events[i]);
	free(cat->events);
	for (i = 0; i < cat->ngroups; i++) {
		free(cat->groups[i].name);
		free(cat->groups[i].desc);
		for (k = 0; k < CATALOG_GROUP_NSTRINGS; k++)
			free(cat->groups[i].stored[k]);
	}
	free(cat->groups);
	for (i = 0; i < cat->nformulas; i++) {
		free(cat->formulas[i].name);
		free(cat->formulas[i].desc);
		free(cat->formulas[i].formula);
		free(cat->formulas[i].unit);
		for (k = 0; k < CATALOG_FORMULA_NSTRINGS; k++)
			free(cat->formulas[i].stored[k]);
	}
	free(cat->formulas);
	for (i = 0; i < cat->ndiags; i++)
		free(cat->diags[i].msg);
	free(cat->diags);
	catalog_index_release(cat);
	free(cat);
}
