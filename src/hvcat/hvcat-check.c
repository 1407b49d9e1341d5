/*
 * hvcat check: not written yet.
 */
#include "config.h"

#include <stdio.h>

#include "hvcat/hvcat.h"

int
hvcat_check(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "hvcat: 'check' is not available in this build\n");
	return (1);
}
