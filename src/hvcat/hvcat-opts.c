/*
 * The options every hvcat command reads alike: -h (--help) prints the
 * usage to stdout and exits 0; -i (--interface) takes 0, 1 or 2; an
 * unknown option or a wrong number of operands prints the usage to stderr
 * and exits 2.  A command names only its own options, which go to its
 * callback in the order given.  hvcat eval reads its options by hand (an
 * expression may start with '-') and does not come here.
 */
#include "config.h"

#include "hvcat/hvcat.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

/* Room for -h, -i, a command's own options and the terminator. */
#define HVCAT_OPTS_LONG		8
#define HVCAT_OPTS_SHORT	16

/* The usage to stderr; returns the usage error's exit status, 2. */
int
hvcat_opts_usage(const struct hvcat_opts *o)
{
	fputs(o->usage, stderr);
	return (2);
}

int
hvcat_opts(const struct hvcat_opts *o, int argc, char **argv, int *iface,
    char ***operands)
{
	static const struct option common[] = {
		{ "interface", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
	};
	struct option	 lo[HVCAT_OPTS_LONG];
	char		 so[HVCAT_OPTS_SHORT] = "hi:";
	size_t		 n, i;
	int		 ch, rc;

	memcpy(lo, common, sizeof common);
	n = sizeof common / sizeof common[0];
	for (i = 0; o->longopts != NULL && o->longopts[i].name != NULL &&
	    n < HVCAT_OPTS_LONG - 1; i++)
		lo[n++] = o->longopts[i];
	memset(&lo[n], 0, sizeof lo[n]);
	if (o->shortopts != NULL)
		strncat(so, o->shortopts, sizeof so - strlen(so) - 1);

	*iface = 0;
	optind = 1;
	while ((ch = getopt_long(argc, argv, so, lo, NULL)) != -1) {
		switch (ch) {
		case 'i':
			if ((*iface = hvcat_interface(optarg)) < 0)
				return (2);
			break;
		case 'h':
			fputs(o->usage, stdout);
			return (0);
		case '?':
		case ':':
			return (hvcat_opts_usage(o));
		default:
			if (o->opt == NULL)
				return (hvcat_opts_usage(o));
			if ((rc = o->opt(o->arg, ch, optarg)) != 0)
				return (rc);
			break;
		}
	}
	if (argc - optind != o->nargs)
		return (hvcat_opts_usage(o));
	*operands = argv + optind;
	return (-1);
}
