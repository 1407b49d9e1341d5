/*
 * hvcat dump: everything the model holds, as readable text (page 0, every
 * schema, event, group and formula with its file offset, then the
 * diagnostics), or as the JSON form that hvcat build reads.  Strings from
 * the catalog are escaped so that every line stays one line.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "catalog/catalog.h"
#include "catalog/catalog-json.h"
#include "hvcat/hvcat.h"

/* --json, -j. */
static int
hvcat_dump_opt(void *arg, int ch, const char *val)
{
	(void)ch;
	(void)val;
	*(int *)arg = 1;
	return (0);
}

/*
 * The dump shows a string's bytes as stored, each escaped once: the model's
 * text is already escaped, and escaping it again would double every \\.
 */
#define HVCAT_DUMP_RAW(e, field, i) \
	catalog_text_stored((e)->field, (e)->stored[i])

/* Print label and an escaped, quoted catalog string. */
static void
hvcat_dump_str(const char *label, const char *s)
{
	char	*p;

	p = catalog_printable(s != NULL ? s : "");
	printf("  %-16s \"%s\"\n", label, p);
	free(p);
}

static void
hvcat_dump_page0(const char *path, const struct catalog *cat)
{
	size_t	 i;
	int	 id;

	printf("catalog %s\n", path);
	printf("  %-16s 0x%08x\n", "magic", cat->magic);
	printf("  %-16s %u pages\n", "length", cat->length_pages);
	printf("  %-16s %llu\n", "version", (unsigned long long)cat->version);
	hvcat_dump_str("build time", cat->build_time);
	printf("  %-16s %d%s\n", "interface", cat->interface,
	    cat->interface_guessed ? " (guessed)" : "");
	for (id = 0; id < CATALOG_NSECTIONS; id++)
		printf("  %-16s page 0x%x, %u pages, %u entries\n",
		    catalog_section_name(id), cat->sections[id].page,
		    cat->sections[id].pages, cat->sections[id].count);
	printf("  %-16s", "v0.16 offsets");
	for (i = 0; i < 6; i++)
		printf(" 0x%x", cat->sub_offsets[i]);
	printf("\n");
}

static void
hvcat_dump_schema(const struct catalog_schema *s)
{
	const struct catalog_schema_field *f;
	const char	*name;
	size_t		 i;

	printf("\nschema %u at 0x%zx, length %u\n", s->index, s->file_offset,
	    s->entry_length);
	printf("  %-16s %u\n", "descriptor", s->descriptor);
	printf("  %-16s %u\n", "version", s->version);
	printf("  %-16s %u\n", "fields", s->nfields);
	for (i = 0; i < s->nfields; i++) {
		f = &s->fields[i];
		name = catalog_field_name(f->field);
		if (strcmp(name, "?") == 0)
			printf("  field %-10zu enum %u", i, f->field);
		else
			printf("  field %-10zu %s (%u)", i, name, f->field);
		printf(", offset %u, length %u, flags 0x%x\n", f->offset,
		    f->length, f->flags);
	}
}

static void
hvcat_dump_event(const struct catalog *cat, const struct catalog_event *ev)
{
	const struct catalog_group *g;
	char		*p, *s;
	size_t		 i;

	p = catalog_printable(HVCAT_DUMP_RAW(ev, name, 0));
	printf("\nevent %u at 0x%zx, length %u: %s\n", ev->index,
	    ev->file_offset, ev->entry_length, p);
	free(p);
	p = catalog_printable(ev->sysfs_name != NULL ? ev->sysfs_name : "");
	s = catalog_sysfs_string(ev, CATALOG_SYSFS_CURRENT);
	printf("  %-16s %s %s\n", "sysfs", p, s);
	free(p);
	free(s);
	printf("  %-16s %u (%s)\n", "domain", ev->domain,
	    catalog_domain_name(ev->domain));
	printf("  %-16s 0x%x (group record 0x%x, length %u; counter 0x%x)\n",
	    "offset", ev->offset, ev->record_offset, ev->record_length,
	    ev->counter_offset);
	printf("  %-16s 0x%x\n", "flags", ev->flags);
	if (ev->formula == CATALOG_NONE)
		printf("  %-16s none (stored 0x%x)\n", "formula",
		    ev->formula_raw);
	else
		printf("  %-16s %u\n", "formula", ev->formula);
	printf("  %-16s %u, group count %u (as stored)\n", "primary group",
	    ev->primary_group, ev->group_count);
	printf("  %-16s", "groups");
	for (i = 0; i < ev->ngroups; i++) {
		g = &cat->groups[ev->groups[i]];
		p = catalog_printable(HVCAT_DUMP_RAW(g, name, 0));
		printf("%s %u %s", i == 0 ? "" : ",", g->index, p);
		free(p);
	}
	printf("%s\n", ev->ngroups == 0 ? " none" : "");
	if (ev->skip == 0)
		printf("  %-16s no\n", "skipped");
	else
		printf("  %-16s yes:%s%s%s\n", "skipped",
		    ev->skip & CATALOG_SKIP_RECLEN0 ?
		    " group record length 0" : "",
		    ev->skip & CATALOG_SKIP_RESERVED ? " RESERVED name" : "",
		    ev->skip & CATALOG_SKIP_DOMAIN ?
		    " domain not valid for the interface" : "");
	hvcat_dump_str("description", HVCAT_DUMP_RAW(ev, desc, 1));
	hvcat_dump_str("long description",
	    HVCAT_DUMP_RAW(ev, long_desc, 2));
}

static void
hvcat_dump_group(const struct catalog *cat, const struct catalog_group *g)
{
	const struct catalog_event *ev;
	char		*p;
	size_t		 i;

	p = catalog_printable(HVCAT_DUMP_RAW(g, name, 0));
	printf("\ngroup %u at 0x%zx, length %u: %s\n", g->index,
	    g->file_offset, g->entry_length, p);
	free(p);
	printf("  %-16s %u (%s)\n", "domain", g->domain,
	    catalog_domain_name(g->domain));
	printf("  %-16s 0x%x, length %u\n", "group record", g->record_offset,
	    g->record_length);
	printf("  %-16s %u\n", "schema", g->schema);
	printf("  %-16s 0x%x\n", "flags", g->flags);
	printf("  %-16s %u\n", "event count", g->event_count);
	for (i = 0; i < CATALOG_GROUP_SLOTS && i < g->event_count; i++) {
		if (g->events[i] == CATALOG_SLOT_FREE) {
			printf("  slot %-11zu free\n", i);
			continue;
		}
		ev = catalog_event_at(cat, g->events[i]);
		p = catalog_printable(ev != NULL ?
		    HVCAT_DUMP_RAW(ev, name, 0) : "?");
		printf("  slot %-11zu event %u %s\n", i, g->events[i], p);
		free(p);
	}
	hvcat_dump_str("description", HVCAT_DUMP_RAW(g, desc, 1));
}

static void
hvcat_dump_formula(const struct catalog_formula *f)
{
	char	*p;

	p = catalog_printable(HVCAT_DUMP_RAW(f, name, 0));
	printf("\nformula %u at 0x%zx, length %u: %s\n", f->index,
	    f->file_offset, f->entry_length, p);
	free(p);
	printf("  %-16s 0x%x\n", "flags", f->flags);
	printf("  %-16s %u\n", "group", f->group);
	hvcat_dump_str("formula", HVCAT_DUMP_RAW(f, formula, 2));
	hvcat_dump_str("unit", HVCAT_DUMP_RAW(f, unit, 3));
	hvcat_dump_str("description", HVCAT_DUMP_RAW(f, desc, 1));
}

static void
hvcat_dump_text(const char *path, const struct catalog *cat)
{
	size_t	 i;

	hvcat_dump_page0(path, cat);
	for (i = 0; i < cat->nschemas; i++)
		hvcat_dump_schema(&cat->schemas[i]);
	for (i = 0; i < cat->nevents; i++)
		hvcat_dump_event(cat, &cat->events[i]);
	for (i = 0; i < cat->ngroups; i++)
		hvcat_dump_group(cat, &cat->groups[i]);
	for (i = 0; i < cat->nformulas; i++)
		hvcat_dump_formula(&cat->formulas[i]);
	printf("\ndiagnostics %zu\n", cat->ndiags);
	for (i = 0; i < cat->ndiags; i++)
		printf("  offset 0x%zx: %s: %s\n", cat->diags[i].offset,
		    cat->diags[i].severity == CATALOG_ERROR ? "error" :
		    "warning", cat->diags[i].msg);
}

/*
 * The JSON form is the one hvcat build reads back.  It keeps the strings'
 * bytes as stored, so it is written ASCII only: a control character in a
 * catalog string reaches the terminal as a JSON escape (\u001b, \u009b,
 * \u007f), never as itself.  Real catalogs are ASCII, so their dump is the
 * same either way.
 */
static int
hvcat_dump_json(const struct catalog *cat)
{
	json_t	*j;
	char	*s, *p;

	if ((j = catalog_to_json(cat)) == NULL) {
		fprintf(stderr, "hvcat: cannot convert the catalog to JSON\n");
		return (1);
	}
	s = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
	    JSON_ENSURE_ASCII);
	json_decref(j);
	if (s == NULL) {
		fprintf(stderr, "hvcat: cannot write JSON\n");
		return (1);
	}
	/* jansson leaves DEL as it is; outside strings there is none. */
	for (p = s; *p != '\0'; p++) {
		if (*p == 0x7f)
			fputs("\\u007f", stdout);
		else
			putchar(*p);
	}
	free(s);
	printf("\n");
	return (0);
}

int
hvcat_dump(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 }
	};
	struct hvcat_opts	 o = {
		.usage = "usage: hvcat dump [--json] [-i 0|1|2] FILE\n",
		.shortopts = "j",
		.longopts = longopts,
		.nargs = 1,
		.opt = hvcat_dump_opt,
	};
	struct catalog		*cat;
	char			**av;
	int			 iface, json = 0, rc;

	o.arg = &json;
	if ((rc = hvcat_opts(&o, argc, argv, &iface, &av)) >= 0)
		return (rc);
	if (hvcat_load(av[0], iface, &cat) != 0)
		return (1);
	if (json)
		rc = hvcat_dump_json(cat);
	else {
		hvcat_dump_text(av[0], cat);
		rc = 0;
	}
	if (rc == 0 && cat->nerrors != 0)
		rc = 1;
	catalog_free(cat);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("hvcat: stdout");
		return (1);
	}
	return (rc);
}
