/*
 * hvcat sysfs: the hv_24x7 events/ listing a kernel would create from a
 * catalog, one "NAME<TAB>STRING" line per file, in catalog order.  The
 * current style is what kernels since 2015 show; the 2014 style is the
 * early development kernel's (domain suffixes, starting_index=).  What is
 * listed is decided by catalog_sysfs_list(), not here.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "hvcat/hvcat.h"

static void
hvcat_sysfs_usage(FILE *fp)
{
	fprintf(fp, "usage: hvcat sysfs [--style current|2014] [-i 0|1|2] "
	    "FILE\n");
}

int
hvcat_sysfs(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "style", required_argument, NULL, 's' },
		{ "interface", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct catalog_sysfs_entry *v;
	struct catalog	*cat;
	char		*name;
	size_t		 i, n;
	int		 ch, iface = 0, style = CATALOG_SYSFS_CURRENT, rc;

	optind = 1;
	while ((ch = getopt_long(argc, argv, "hi:s:", longopts, NULL)) != -1) {
		switch (ch) {
		case 's':
			if (strcmp(optarg, "current") == 0)
				style = CATALOG_SYSFS_CURRENT;
			else if (strcmp(optarg, "2014") == 0)
				style = CATALOG_SYSFS_2014;
			else {
				fprintf(stderr, "hvcat: style must be current "
				    "or 2014, not '%s'\n", optarg);
				return (2);
			}
			break;
		case 'i':
			if ((iface = hvcat_interface(optarg)) < 0)
				return (2);
			break;
		case 'h':
			hvcat_sysfs_usage(stdout);
			return (0);
		default:
			hvcat_sysfs_usage(stderr);
			return (2);
		}
	}
	if (argc - optind != 1) {
		hvcat_sysfs_usage(stderr);
		return (2);
	}
	if (hvcat_load(argv[optind], iface, &cat) != 0)
		return (1);
	n = catalog_sysfs_list(cat, style, &v);
	for (i = 0; i < n; i++) {
		/* A name with a tab or newline would break the listing. */
		name = catalog_printable(v[i].name);
		printf("%s\t%s\n", name, v[i].value);
		free(name);
	}
	catalog_sysfs_list_free(v, n);
	rc = cat->nerrors == 0 ? 0 : 1;
	catalog_free(cat);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("hvcat: stdout");
		return (1);
	}
	return (rc);
}
