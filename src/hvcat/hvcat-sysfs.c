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

/* --style, -s: the listing's style. */
static int
hvcat_sysfs_opt(void *arg, int ch, const char *val)
{
	int	*style = arg;

	(void)ch;
	if (strcmp(val, "current") == 0)
		*style = CATALOG_SYSFS_CURRENT;
	else if (strcmp(val, "2014") == 0)
		*style = CATALOG_SYSFS_2014;
	else {
		fprintf(stderr, "hvcat: style must be current or 2014, not "
		    "'%s'\n", val);
		return (2);
	}
	return (0);
}

int
hvcat_sysfs(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "style", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 }
	};
	struct hvcat_opts	 o = {
		.usage = "usage: hvcat sysfs [--style current|2014] "
		    "[-i 0|1|2] FILE\n",
		.shortopts = "s:",
		.longopts = longopts,
		.nargs = 1,
		.opt = hvcat_sysfs_opt,
	};
	struct catalog_sysfs_entry *v;
	struct catalog		*cat;
	char			*name, **av;
	size_t			 i, n;
	int			 iface, style = CATALOG_SYSFS_CURRENT, rc;

	o.arg = &style;
	if ((rc = hvcat_opts(&o, argc, argv, &iface, &av)) >= 0)
		return (rc);
	if (hvcat_load(av[0], iface, &cat) != 0)
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
