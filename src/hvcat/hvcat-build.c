/*
 * hvcat build: not written yet.
 */
#include "config.h"

#include <stdio.h>

#include "hvcat/hvcat.h"

int
hvcat_build(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "hvcat: 'build' is not available in this build\n");
	return (1);
}
