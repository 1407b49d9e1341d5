/*
 * hvcat check: validate a catalog.  Every problem the parser found is on
 * stderr, offset first (hvcat_load prints them); the verdict is one line
 * and the exit status: 0 valid (warnings allowed), 1 invalid, 2 usage.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "catalog/catalog.h"
#include "hvcat/hvcat.h"

static void
hvcat_check_usage(FILE *fp)
{
	fprintf(fp, "usage: hvcat check [-i 0|1|2] FILE\n");
}

static void
hvcat_check_valid(const char *path, const struct catalog *cat)
{
	size_t	 i, skipped = 0, warnings = cat->ndiags;

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
hvcat_check_invalid(const char *path, const struct catalog *cat)
{
	size_t	 warnings = cat->ndiags - cat->nerrors, lost = 0;
	int	 id;

	fprintf(stderr, "hvcat: %s: invalid: %zu error%s, %zu warning%s",
	    path, cat->nerrors, cat->nerrors == 1 ? "" : "s", warnings,
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
	static const struct option longopts[] = {
		{ "interface", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct catalog	*cat;
	int		 ch, iface = 0;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "hi:", longopts, NULL)) != -1) {
		switch (ch) {
		case 'i':
			if ((iface = hvcat_interface(optarg)) < 0)
				return (2);
			break;
		case 'h':
			hvcat_check_usage(stdout);
			return (0);
		default:
			hvcat_check_usage(stderr);
			return (2);
		}
	}
	if (argc - optind != 1) {
		hvcat_check_usage(stderr);
		return (2);
	}
	if (hvcat_load(argv[optind], iface, &cat) != 0)
		return (1);
	if (cat->nerrors == 0)
		hvcat_check_valid(argv[optind], cat);
	else
		hvcat_check_invalid(argv[optind], cat);
	ch = cat->nerrors == 0 ? 0 : 1;
	catalog_free(cat);
	return (ch);
}
