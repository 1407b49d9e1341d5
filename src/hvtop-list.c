/*
 * hvtop --list events|groups|formulas [PATTERN]: the catalog and the
 * metric files as text, for the shell.  A pattern with * ? [ is a glob,
 * anything else a substring; both ignore case.
 */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "session/session.h"
#include "formula/formula.h"
#include "hvtop.h"
#include "util/xalloc.h"

static int
hvtop_list_match(const char *pattern, const char *name)
{
	if (pattern == NULL)
		return (1);
	if (strpbrk(pattern, "*?[") != NULL)
		return (fnmatch(pattern, name, FNM_CASEFOLD) == 0);
	return (strcasestr(name, pattern) != NULL);
}

static void
hvtop_list_event(FILE *fp, const struct catalog_event *ev)
{
	char	*s;

	if (ev->domain == CATALOG_DOMAIN_CPU) {
		/* Another PMU's: its own terms, as perf writes the event
		 * (the description). */
		fprintf(fp, "  %-48s [%s]\n", ev->sysfs_name,
		    catalog_domain_name(ev->domain));
		fprintf(fp, "       %s\n", ev->desc);
		if (ev->long_desc != NULL)
			fprintf(fp, "       %s\n", ev->long_desc);
		return;
	}
	s = catalog_sysfs_string(ev, CATALOG_SYSFS_CURRENT);
	fprintf(fp, "  hv_24x7/%-40s [%s]\n", ev->sysfs_name,
	    catalog_domain_name(ev->domain));
	fprintf(fp, "       %s\n", s);
	if (ev->desc != NULL && ev->desc[0] != '\0')
		fprintf(fp, "       %s\n", ev->desc);
	free(s);
}

static size_t
hvtop_list_events(const struct catalog *cat, const char *pattern, FILE *fp)
{
	size_t	 i, n = 0;

	for (i = 0; i < cat->nevents; i++) {
		if (cat->events[i].skip == 0 &&
		    hvtop_list_match(pattern, cat->events[i].sysfs_name)) {
			hvtop_list_event(fp, &cat->events[i]);
			n++;
		}
	}
	return (n);
}

static size_t
hvtop_list_groups(const struct catalog *cat, const char *pattern, FILE *fp)
{
	const struct catalog_group	*g;
	const struct catalog_event	*ev;
	size_t				 i, j, n = 0;

	for (i = 0; i < cat->ngroups; i++) {
		g = &cat->groups[i];
		if (!hvtop_list_match(pattern, g->name))
			continue;
		n++;
		fprintf(fp, "  %-40s [%s, %zu events, record 0x%x+%u]\n",
		    g->name, catalog_domain_name(g->domain),
		    catalog_group_nevents(cat, g), g->record_offset,
		    g->record_length);
		for (j = 0; j < CATALOG_GROUP_SLOTS; j++) {
			if ((ev = catalog_group_event(cat, g, j)) != NULL)
				fprintf(fp, "       %s\n", ev->sysfs_name);
		}
	}
	return (n);
}

static void
hvtop_list_formula(FILE *fp, const char *name, const char *text,
    const char *unit, const char *desc, const char *origin)
{
	char	*infix, *cause;

	if (formula_print_convert(text, FORMULA_AUTO, FORMULA_INFIX, &infix,
	    &cause) != 0) {
		free(cause);
		infix = xstrdup(text);
	}
	fprintf(fp, "  %-40s [%s] (%s)\n", name, unit != NULL &&
	    unit[0] != '\0' ? unit : "no unit", origin);
	fprintf(fp, "       %s\n", infix);
	if (desc != NULL && desc[0] != '\0')
		fprintf(fp, "       %s\n", desc);
	free(infix);
}

/* The metric files' definitions, then the catalog's formulas. */
static size_t
hvtop_list_formulas(const struct session *s, const char *pattern, FILE *fp)
{
	const struct catalog		*cat = session_catalog(s);
	const struct engine_metric_def	*d = session_metrics(s);
	const struct catalog_formula	*f;
	size_t				 i, n = 0;

	for (i = 0; i < session_nmetrics(s); i++) {
		if (hvtop_list_match(pattern, d[i].name)) {
			hvtop_list_formula(fp, d[i].name, d[i].text,
			    d[i].unit, d[i].desc, d[i].origin);
			n++;
		}
	}
	for (i = 0; i < cat->nformulas; i++) {
		f = &cat->formulas[i];
		if (f->name != NULL && f->formula != NULL &&
		    hvtop_list_match(pattern, f->name)) {
			hvtop_list_formula(fp, f->name, f->formula, f->unit,
			    f->desc, "catalog");
			n++;
		}
	}
	return (n);
}

/*
 * One kind's entries into fp under its heading (when head is not NULL),
 * or nothing when none matches: an empty heading answers nothing.
 */
static size_t
hvtop_list_section(const struct session *s, int kind, const char *head,
    const char *pattern, FILE *fp)
{
	char	*text = NULL;
	size_t	 len = 0, n;
	FILE	*sec;

	if ((sec = open_memstream(&text, &len)) == NULL)
		return (0);
	if (kind == 0)
		n = hvtop_list_events(session_catalog(s), pattern, sec);
	else if (kind == 1)
		n = hvtop_list_groups(session_catalog(s), pattern, sec);
	else
		n = hvtop_list_formulas(s, pattern, sec);
	if (fclose(sec) != 0)
		n = 0;
	if (n > 0) {
		if (head != NULL)
			fprintf(fp, "%s%s:\n", ftell(fp) > 0 ? "\n" : "",
			    head);
		fwrite(text, 1, len, fp);
	}
	free(text);
	return (n);
}

int
hvtop_list(const struct session *s, const char *kind, const char *pattern,
    FILE *out)
{
	static const char *const kinds[] = { "events", "groups",
	    "formulas" };
	static const char *const heads[] = { "Events (-e)", "Groups (-g)",
	    "Formulas (metrics)" };
	int	 all = strcmp(kind, "all") == 0, k;
	char	*text = NULL;
	size_t	 len = 0, n = 0;
	FILE	*fp;

	/* Held until it is known that something matched. */
	if ((fp = open_memstream(&text, &len)) == NULL)
		return (1);
	for (k = 0; k < 3; k++) {
		if (all || strcmp(kind, kinds[k]) == 0)
			n += hvtop_list_section(s, k, all ? heads[k] : NULL,
			    pattern, fp);
	}
	if (fclose(fp) != 0) {
		free(text);
		return (1);
	}
	/*
	 * A word after --list that is no kind is a pattern; one that
	 * matches nothing at all is more likely a kind mistyped than a
	 * search: say so rather than print empty headings.
	 */
	if (all && pattern != NULL && n == 0) {
		fprintf(stderr, "hvtop: --list %s: not a kind (events, groups "
		    "or formulas), and no event, group or formula matches it "
		    "as a pattern\n", pattern);
		free(text);
		return (2);
	}
	/* Nothing matched: say so and fail, as grep does. */
	if (n == 0) {
		if (pattern != NULL)
			fprintf(stderr, "hvtop: --list %s: nothing matches "
			    "\"%s\"\n", kind, pattern);
		else
			fprintf(stderr, "hvtop: --list %s: the catalog and "
			    "the metric files have none\n", kind);
		free(text);
		return (1);
	}
	fwrite(text, 1, len, out);
	free(text);
	if (ferror(out) || fflush(out) != 0) {
		fprintf(stderr, "hvtop: writing the list: %s\n",
		    strerror(errno));
		return (1);
	}
	return (0);
}
