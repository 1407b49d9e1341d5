/*
 * hvcat_load: not written yet.
 */
#include "config.h"

#include <stdio.h>

#include "hvcat/hvcat.h"

int
hvcat_load(const char *path, int iface, struct catalog **out)
{
	(void)iface;
	(void)out;
	fprintf(stderr, "hvcat: %s: cannot load catalogs in this build\n",
	    path);
	return (1);
}
