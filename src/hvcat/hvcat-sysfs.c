/*
 * hvcat sysfs: not written yet.
 */
#include "config.h"

#include <stdio.h>

#include "hvcat/hvcat.h"

int
hvcat_sysfs(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "hvcat: 'sysfs' is not available in this build\n");
	return (1);
}
