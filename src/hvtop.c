/*
 * hvtop: a top-like monitor for the IBM PowerVM 24x7 hypervisor counters.
 * This file parses the command line and hands over to the engine and the
 * terminal interface; it holds no logic of its own.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
usage(FILE *fp)
{
	fprintf(fp,
"usage: hvtop [-bhV] [-d secs] [-n count] [--source auto|perf|sim|replay:FILE]\n"
"             [--catalog FILE] [--sim KEY=VAL,...] [-g GROUP[@chip|@core][:LIST]]\n"
"             [-e EVENT] [-m FILE] [-o FILE] [--format text|csv|json]\n"
"             [--list events|groups|formulas [PATTERN]]\n");
}

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help",	no_argument,	NULL, 'h' },
		{ "version",	no_argument,	NULL, 'V' },
		{ NULL,		0,		NULL, 0 }
	};
	int	 ch;

	while ((ch = getopt_long(argc, argv, "hV", longopts, NULL)) != -1) {
		switch (ch) {
		case 'h':
			usage(stdout);
			return (0);
		case 'V':
			printf("hvtop %s\n", PACKAGE_VERSION);
			return (0);
		default:
			usage(stderr);
			return (2);
		}
	}
	if (optind != argc) {
		fprintf(stderr, "hvtop: unexpected argument '%s'\n", argv[optind]);
		usage(stderr);
		return (2);
	}
	fprintf(stderr, "hvtop: no counter source is available yet\n");
	return (1);
}
