/*
 * Who the simulated frame is: its model and serial (the frame label a
 * fleet tells frames apart by), its name, and whether the HMC lets the
 * partition see the rest of the frame.  Two runs with the same model,
 * serial, seed and shape are the same frame.  Pure.
 */
#include "config.h"

#include "sim/sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/frame-ident.h"
#include "util/hverr.h"
#include "util/xalloc.h"

void
sim_ident_defaults(struct sim_config *cfg)
{
	snprintf(cfg->model, sizeof cfg->model, "%s", "9080-M9S");
	snprintf(cfg->serial, sizeof cfg->serial, "%s", "SIMFRAME1");
	snprintf(cfg->name, sizeof cfg->name, "%s", "sim");
}

/* A frame name: 1 to 63 printable ASCII bytes, no comma or quote. */
static int
sim_ident_name(struct sim_config *cfg, const char *val, char **cause)
{
	size_t	 i, n = strlen(val);

	for (i = 0; i < n; i++) {
		if (val[i] < 0x21 || val[i] > 0x7e || val[i] == '"' ||
		    val[i] == '\\')
			break;
	}
	if (n == 0 || n >= sizeof cfg->name || i < n) {
		*cause = xasprintf("sim name=%s: must be 1 to 63 printable "
		    "characters, no space, quote or backslash", val);
		return (-HV_EFORMAT);
	}
	memcpy(cfg->name, val, n + 1);
	return (0);
}

int
sim_ident_set(struct sim_config *cfg, const char *key, const char *val,
    char **cause)
{
	char	*why = NULL;
	int	 model;

	if (strcmp(key, "name") == 0)
		return (sim_ident_name(cfg, val, cause));
	if (strcmp(key, "collect") == 0) {
		if (strcmp(val, "0") != 0 && strcmp(val, "1") != 0) {
			*cause = xasprintf("sim collect=%s: must be 0 or 1",
			    val);
			return (-HV_ERANGE);
		}
		/* The HMC's permission off: the partition reads itself
		 * only, as with faults=denied. */
		cfg->faults.denied = val[0] == '0';
		return (0);
	}
	if (strcmp(key, "model") != 0 && strcmp(key, "serial") != 0)
		return (-HV_ENOENT);
	model = key[0] == 'm';
	if (frame_ident_check(key, val, model, &why) != 0) {
		*cause = xasprintf("sim %s", why);
		free(why);
		return (-HV_EFORMAT);
	}
	if (model)
		snprintf(cfg->model, sizeof cfg->model, "%s", val);
	else
		snprintf(cfg->serial, sizeof cfg->serial, "%s", val);
	return (0);
}
