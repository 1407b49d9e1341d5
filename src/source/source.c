/*
 * The source registry and "--source auto": perf when the hv_24x7 PMU
 * exists, otherwise the simulated frame (and the label says so).
 */
#include "config.h"

#include "source/source.h"

#include <sys/stat.h>

#include <stdlib.h>
#include <string.h>

#include "source/source-perf.h"
#include "source/source-replay.h"
#include "util/hverr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const struct source_ops *const source_registry[] = {
	&source_sim_ops,
	&source_perf_ops,
	NULL
};

static const struct source_ops *
source_find(const char *name)
{
	const struct source_ops *const	*p;

	for (p = source_registry; *p != NULL; p++) {
		if (strcmp((*p)->name, name) == 0)
			return (*p);
	}
	return (NULL);
}

/* Whether the hv_24x7 PMU is under sysfs_root. */
static int
source_have_hv24x7(const char *sysfs_root)
{
	struct stat	 sb;
	char		*path;
	int		 ok;

	path = xasprintf("%s/bus/event_source/devices/hv_24x7/type",
	    sysfs_root);
	ok = stat(path, &sb) == 0;
	free(path);
	return (ok);
}

int
source_open(const char *spec, const char *args, const char *sysfs_root,
    struct source **out, char **cause)
{
	const struct source_ops	*ops;
	struct source		*src;
	struct strbuf		 sb = { 0 };
	const char		*name = spec;
	int			 error, autosel = 0;

	*out = NULL;
	if (strcmp(spec, "auto") == 0) {
		autosel = 1;
		name = source_have_hv24x7(sysfs_root) ? "perf" : "sim";
	} else if (strncmp(spec, "replay:", 7) == 0) {
		src = xcalloc(1, sizeof *src);
		src->ops = &source_replay_ops;
		if ((error = source_replay_open(src, spec + 7, args,
		    cause)) != 0) {
			source_close(src);
			return (error);
		}
		*out = src;
		return (0);
	}
	if ((ops = source_find(name)) == NULL) {
		*cause = xasprintf("unknown source '%s': use auto, perf, sim "
		    "or replay:FILE", spec);
		return (-HV_EUSAGE);
	}
	if (strcmp(name, "perf") == 0) {
		strbuf_addf(&sb, "sysfs_root=%s", sysfs_root);
		if (args != NULL && *args != '\0')
			strbuf_addf(&sb, ",%s", args);
		args = sb.s;
	}
	src = xcalloc(1, sizeof *src);
	src->ops = ops;
	error = ops->open(src, args, cause);
	strbuf_free(&sb);
	if (error != 0) {
		source_close(src);
		return (error);
	}
	if (src->label == NULL)
		src->label = xstrdup(ops->name);
	if (src->calls == NULL)
		src->calls = "hcalls";
	if (autosel && strcmp(name, "sim") == 0) {
		char *l = xasprintf("%s (no hv_24x7 PMU here)", src->label);

		free(src->label);
		src->label = l;
	}
	*out = src;
	return (0);
}

void
source_close(struct source *src)
{
	if (src == NULL)
		return;
	if (src->ops != NULL && src->ops->close != NULL)
		src->ops->close(src);
	free(src->label);
	free(src);
}

const struct source_control *
source_control(struct source *src)
{
	if (src == NULL || src->ops->control == NULL)
		return (NULL);
	return (src->ops->control(src));
}
