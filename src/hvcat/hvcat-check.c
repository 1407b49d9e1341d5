/*
 * hvcat check: validate a catalog.  Every problem the parser found is on
 * stderr, offset first (hvcat_load prints them); then what only the whole
 * model shows: every formula is compiled against the catalog (unknown
 * names, syntax errors, a formula using itself), and group and formula
 * names must be unique, since they are looked up by name.  The verdict is
 * one line and the exit status: 0 valid (warnings allowed), 1 invalid, 2
 * usage.  hvcat build runs the same checks on what it builds.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "formula/formula.h"
#include "hvcat/hvcat.h"
#include "util/hverr.h"
#include "util/xalloc.h"

static const struct hvcat_opts hvcat_check_opts = {
	.usage = "usage: hvcat check [-i 0|1|2] FILE\n"
	    "FILE: a catalog, or a recording made with hvtop -w\n",
	.nargs = 1,
};

/*
 * A named constant of the frame: what hvtop's sources know (PB_Freq,
 * XBUS_Freq, ...: a *_Freq or *_FREQ name) or hvtop records (cpu_hz).
 */
static int
hvcat_check_is_const(const char *name)
{
	size_t	 n = strlen(name);

	return ((n > 5 && (strcmp(name + n - 5, "_Freq") == 0 ||
	    strcmp(name + n - 5, "_FREQ") == 0)) ||
	    strcmp(name, "cpu_hz") == 0);
}

/* Names in a catalog formula: its formulas, events, constants. */
struct hvcat_check_ctx {
	const struct catalog	*cat;
};

static int
hvcat_check_resolve(void *arg, const char *name, struct formula_ref *ref)
{
	const struct catalog		*cat =
	    ((struct hvcat_check_ctx *)arg)->cat;
	const struct catalog_formula	*fo;

	if ((fo = catalog_find_formula(cat, name)) != NULL &&
	    fo->formula != NULL && fo->formula[0] != '\0') {
		ref->kind = FORMULA_FORMULA;
		ref->text = fo->formula;
		return (0);
	}
	if (catalog_find_event(cat, name, 0) != NULL) {
		ref->kind = FORMULA_EVENT;
		return (0);
	}
	if (formula_compile_special(name) >= 0)
		return (-HV_ENOENT);	/* the compiler's own */
	if (hvcat_check_is_const(name)) {
		ref->kind = FORMULA_CONST;
		return (0);
	}
	ref->hint = xstrdup("no event or formula of the catalog has that "
	    "name, and it is no constant of the frame (NAME_Freq)");
	return (-HV_ENOENT);
}

/*
 * An RPN formula that leaves values under its result: they are ignored,
 * which is what the catalog format says, but rarely what its author
 * meant.  Says so on stderr and returns 1.
 */
static int
hvcat_check_leftover(const char *label, const struct catalog_formula *fo,
    const char *name)
{
	struct formula_ast	*ast;
	char			*cause = NULL;
	size_t			 n;

	if (formula_parse(fo->formula, FORMULA_AUTO, &ast, &cause) != 0) {
		free(cause);	/* it compiled, so this does not happen */
		return (0);
	}
	n = formula_ast_leftover(ast);
	formula_ast_free(ast);
	if (n == 0)
		return (0);
	fprintf(stderr, "hvcat: %s: offset 0x%zx: warning: formula %u (%s): "
	    "%zu value%s left under the result (x, the top of the stack), "
	    "ignored\n", label, fo->file_offset, fo->index, name, n,
	    n == 1 ? "" : "s");
	return (1);
}

/*
 * The checks that need the whole model, each problem on stderr as
 * "hvcat: LABEL: offset 0x...: error: formula 3 (NAME): ...".  Returns
 * the number of errors; adds the warnings to *nwarn when not NULL.
 */
size_t
hvcat_check_model(const char *label, const struct catalog *cat,
    size_t *nwarn)
{
	const struct catalog_formula	*fo;
	const struct catalog_group	*gr;
	struct hvcat_check_ctx		 ctx = { cat };
	struct formula			*f;
	char				*cause, *name, *other;
	size_t				 i, nerr = 0;

	for (i = 0; i < cat->ngroups; i++) {
		gr = &cat->groups[i];
		if (gr->name == NULL || gr->name[0] == '\0' ||
		    catalog_find_group(cat, gr->name) == gr)
			continue;
		name = catalog_printable(gr->name);
		fprintf(stderr, "hvcat: %s: offset 0x%zx: error: group %u "
		    "(%s): group %u has the same name, so only that one can "
		    "be picked\n", label, gr->file_offset, gr->index, name,
		    catalog_find_group(cat, gr->name)->index);
		free(name);
		nerr++;
	}
	for (i = 0; i < cat->nformulas; i++) {
		fo = &cat->formulas[i];
		name = catalog_printable(fo->name);
		if (catalog_find_formula(cat, fo->name) != fo) {
			fprintf(stderr, "hvcat: %s: offset 0x%zx: error: "
			    "formula %u (%s): formula %u has the same name, "
			    "so only that one can be used\n", label,
			    fo->file_offset, fo->index, name,
			    catalog_find_formula(cat, fo->name)->index);
			nerr++;
		}
		cause = NULL;
		if (fo->formula == NULL || fo->formula[0] == '\0') {
			fprintf(stderr, "hvcat: %s: offset 0x%zx: error: "
			    "formula %u (%s): the formula text is empty\n",
			    label, fo->file_offset, fo->index, name);
			nerr++;
		} else if (formula_compile(fo->formula, FORMULA_AUTO, fo->name,
		    hvcat_check_resolve, &ctx, &f, &cause) != 0) {
			other = catalog_printable(cause);
			fprintf(stderr, "hvcat: %s: offset 0x%zx: error: "
			    "formula %u (%s): %s\n", label, fo->file_offset,
			    fo->index, name, other);
			free(other);
			free(cause);
			nerr++;
		} else {
			formula_free(f);
			if (hvcat_check_leftover(label, fo, name) && nwarn)
				(*nwarn)++;
		}
		free(name);
	}
	return (nerr);
}

static void
hvcat_check_valid(const char *path, const struct catalog *cat,
    size_t more_warnings)
{
	size_t	 i, skipped = 0, warnings = cat->ndiags + more_warnings;

	if (cat->nschemas == 0 && cat->nevents == 0 && cat->ngroups == 0 &&
	    cat->nformulas == 0) {
		printf("%s: valid and empty: catalog version %llu has no "
		    "schemas, events, groups or formulas", path,
		    (unsigned long long)cat->version);
	} else {
		for (i = 0; i < cat->nevents; i++)
			if (cat->events[i].skip != 0)
				skipped++;
		printf("%s: valid: catalog version %llu, %zu schemas, %zu "
		    "events (%zu listed by the kernel, %zu skipped), %zu "
		    "groups, %zu formulas", path,
		    (unsigned long long)cat->version, cat->nschemas,
		    cat->nevents, cat->nevents - skipped, skipped,
		    cat->ngroups, cat->nformulas);
	}
	if (warnings > 0)
		printf("; %zu warning%s", warnings, warnings == 1 ? "" : "s");
	printf("\n");
}

static void
hvcat_check_invalid(const char *path, const struct catalog *cat,
    size_t more)
{
	size_t	 warnings = cat->ndiags - cat->nerrors, lost = 0;
	size_t	 nerr = cat->nerrors + more;
	int	 id;

	fprintf(stderr, "hvcat: %s: invalid: %zu error%s, %zu warning%s",
	    path, nerr, nerr == 1 ? "" : "s", warnings,
	    warnings == 1 ? "" : "s");
	for (id = 0; id < CATALOG_NSECTIONS; id++) {
		if (cat->dropped[id] == 0)
			continue;
		fprintf(stderr, "%s %zu %s", lost++ == 0 ? "; missing:" : ",",
		    cat->dropped[id], catalog_section_name(id));
	}
	fprintf(stderr, "\n");
}

int
hvcat_check(int argc, char **argv)
{
	struct catalog	*cat;
	void		*buf;
	char		**av;
	size_t		 len, more, nwarn = 0;
	int		 ch, iface;

	if ((ch = hvcat_opts(&hvcat_check_opts, argc, argv, &iface, &av)) >= 0)
		return (ch);
	if (hvcat_load_any(av[0], iface, &cat, &buf, &len) != 0)
		return (1);
	if (cat == NULL) {
		ch = hvcat_record_check(av[0], buf, len);
		free(buf);
		return (ch);
	}
	more = hvcat_check_model(av[0], cat, &nwarn);
	if (cat->nerrors == 0 && more == 0)
		hvcat_check_valid(av[0], cat, nwarn);
	else
		hvcat_check_invalid(av[0], cat, more);
	ch = cat->nerrors == 0 && more == 0 ? 0 : 1;
	catalog_free(cat);
	return (ch);
}
