/*
 * hvcat: inspect, check and build 24x7 catalogs.  This file only picks the
 * command; each command lives in hvcat-<command>.c.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "hvcat/hvcat.h"

static const struct hvcat_cmd {
	const char	*name;
	int		(*fn)(int, char **);
	const char	*usage;
} hvcat_cmds[] = {
	{ "info",  hvcat_info,  "info FILE|DIR" },
	{ "check", hvcat_check, "check FILE" },
	{ "dump",  hvcat_dump,  "dump [--json] FILE" },
	{ "sysfs", hvcat_sysfs, "sysfs [--style current|2014] FILE" },
	{ "build", hvcat_build, "build SRC.json -o FILE" },
	{ "eval",  hvcat_eval,
	    "eval [-v] [--catalog FILE] [--rpn|--infix] EXPR [NAME=VALUE]..." },
};

static void
usage(FILE *fp)
{
	size_t	 i;

	fprintf(fp, "usage:");
	for (i = 0; i < sizeof hvcat_cmds / sizeof hvcat_cmds[0]; i++)
		fprintf(fp, "%s hvcat %s\n", i == 0 ? "" : "      ",
		    hvcat_cmds[i].usage);
	fprintf(fp, "       hvcat --version\n");
}

int
main(int argc, char **argv)
{
	size_t	 i;

	if (argc < 2) {
		usage(stderr);
		return (2);
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		usage(stdout);
		return (0);
	}
	if (strcmp(argv[1], "-V") == 0 || strcmp(argv[1], "--version") == 0) {
		printf("hvcat (hvtop) %s\n", PACKAGE_VERSION);
		return (0);
	}
	for (i = 0; i < sizeof hvcat_cmds / sizeof hvcat_cmds[0]; i++) {
		if (strcmp(argv[1], hvcat_cmds[i].name) == 0)
			return (hvcat_cmds[i].fn(argc - 1, argv + 1));
	}
	fprintf(stderr, "hvcat: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return (2);
}
