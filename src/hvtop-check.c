/*
 * hvtop --check: what this partition can and cannot see, one fact a
 * line ("ok", "FAIL" with the fix, or "info"), through the source's own
 * ops: the hv_24x7 PMU under --sysfs-root, the catalog it serves and its
 * version, perf_event_paranoid and CAP_PERFMON, whether other
 * partitions may be read (the HMC's "Allow performance information
 * collection") and which are.  It reads no counter.  The exit status is
 * 0 when a frame exporter has all it needs, 1 when something is missing.
 */
#include "config.h"

#include "hvtop.h"

#include <sys/stat.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "model/raw.h"
#include "source/source.h"
#include "sys/file.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define CAP_PERFMON_BIT		38
#define CAP_SYS_ADMIN_BIT	21

/* One line: "ok", "FAIL" or "info", the fact, and for a FAIL the fix. */
static void
hvtop_check_say(const char *tag, const char *fact, const char *fix)
{
	printf("%-5s %s\n", tag, fact);
	if (fix != NULL)
		printf("      fix: %s\n", fix);
}

/* A small file of /proc as text (caller frees), NULL when unreadable. */
static char *
hvtop_check_proc(const char *path)
{
	void	*buf;
	size_t	 len;
	char	*cause = NULL, *s;

	if (file_read(path, 64 * 1024, &buf, &len, &cause) != 0) {
		free(cause);
		return (NULL);
	}
	s = xmalloc(len + 1);
	memcpy(s, buf, len);
	s[len] = '\0';
	free(buf);
	return (s);
}

/* Whether the effective capabilities hold CAP_PERFMON or CAP_SYS_ADMIN. */
static int
hvtop_check_cap(void)
{
	unsigned long long	 eff = 0;
	char			*s, *p;

	if ((s = hvtop_check_proc("/proc/self/status")) == NULL)
		return (0);
	if ((p = strstr(s, "\nCapEff:")) != NULL)
		eff = strtoull(p + 8, NULL, 16);
	free(s);
	return ((eff >> CAP_PERFMON_BIT & 1) || (eff >> CAP_SYS_ADMIN_BIT & 1));
}

/* The perf source's /proc (-O proc_root=DIR, as it reads it), caller
 * frees. */
static char *
hvtop_check_proc_root(const char *args)
{
	const char	*p, *e;

	for (p = args; p != NULL && *p != '\0'; p = *e ? e + 1 : e) {
		if ((e = strchr(p, ',')) == NULL)
			e = p + strlen(p);
		if (strncmp(p, "proc_root=", 10) == 0)
			return (xstrndup(p + 10, (size_t)(e - p - 10)));
	}
	return (xstrdup("/proc"));
}

/* perf_event_paranoid and the capabilities: 0 when perf may open the
 * PMU's events, 1 when it may not. */
static int
hvtop_check_perm(const char *args)
{
	char	*s, *path, fact[160];
	int	 paranoid, cap;

	cap = geteuid() == 0 || hvtop_check_cap();
	s = hvtop_check_proc_root(args);
	path = xasprintf("%s/sys/kernel/perf_event_paranoid", s);
	free(s);
	s = hvtop_check_proc(path);
	free(path);
	paranoid = s != NULL ? atoi(s) : 2;
	snprintf(fact, sizeof fact, "kernel.perf_event_paranoid is %s%d; "
	    "%s", s != NULL ? "" : "unreadable, taken as ", paranoid,
	    cap ? "CAP_PERFMON (or root) held" : "no CAP_PERFMON");
	free(s);
	if (cap || paranoid <= 0) {
		hvtop_check_say("ok", fact, NULL);
		return (0);
	}
	hvtop_check_say("FAIL", fact, "run as root, give hvtop CAP_PERFMON "
	    "(hvtop-exporter.service does), or sysctl "
	    "kernel.perf_event_paranoid=0");
	return (1);
}

/* The catalog the source serves, and its version. */
static int
hvtop_check_catalog(struct source *src)
{
	struct catalog	*cat = NULL;
	const void	*buf;
	size_t		 len;
	char		*cause = NULL, *fact;
	int		 bad;

	if (src->ops->catalog(src, &buf, &len, &cause) != 0 ||
	    catalog_parse(buf, len, 0, &cat, &cause) != 0) {
		fact = xasprintf("catalog: %s", cause);
		hvtop_check_say("FAIL", fact, "a kernel whose hv_24x7 driver "
		    "exports the catalog (/sys/bus/event_source/devices/"
		    "hv_24x7/interface/catalog), or --catalog FILE");
		free(fact);
		free(cause);
		return (1);
	}
	bad = cat->nerrors > 0;
	fact = xasprintf("catalog version %llu, %zu bytes, %zu error%s",
	    (unsigned long long)cat->version, len, cat->nerrors,
	    cat->nerrors == 1 ? "" : "s");
	hvtop_check_say(bad ? "FAIL" : "ok", fact, bad ? "hvcat check "
	    "shows what is wrong; --catalog FILE gives another" : NULL);
	free(fact);
	catalog_free(cat);
	return (bad);
}

/*
 * Who the frame is, and the capabilities the endpoint serves as
 * hvtop_capability, from the same facts (frame_ident_caps()).
 */
static void
hvtop_check_caps(const struct topology *t, int catalog)
{
	struct frame_caps	 c;
	const char		*name;
	char			 mtms[80], *fact;
	size_t			 i;
	int			 on;

	fact = xasprintf("frame %s, partition %d%s%s%s, from %s",
	    frame_ident_mtms(&t->ident, mtms, sizeof mtms), t->ident.lpar_id,
	    t->ident.lpar_name[0] != '\0' ? " (" : "", t->ident.lpar_name,
	    t->ident.lpar_name[0] != '\0' ? ")" : "",
	    t->ident.from != FRAME_FROM_NONE ? frame_ident_from(&t->ident) :
	    "neither lparcfg nor the device tree");
	hvtop_check_say("info", fact, NULL);
	free(fact);
	frame_ident_caps(t, catalog, &c);
	for (i = 0; (name = frame_ident_cap(&c, i, &on)) != NULL; i++) {
		fact = xasprintf("capability %s: %s", name, on ? "yes" : "no");
		hvtop_check_say("info", fact, NULL);
		free(fact);
	}
}

/* The frame, and the partitions this one may read. */
static int
hvtop_check_frame(struct source *src, int catalog)
{
	struct topology	 t;
	struct strbuf	 sb = { 0 };
	char		*cause = NULL, *fact;
	size_t		 i;

	if (src->ops->partitions != NULL &&
	    src->ops->partitions(src, &cause) != 0) {
		free(cause);
		cause = NULL;
	}
	memset(&t, 0, sizeof t);
	if (src->ops->topology(src, &t, &cause) != 0) {
		fact = xasprintf("topology: %s", cause);
		hvtop_check_say("FAIL", fact, NULL);
		free(fact);
		free(cause);
		return (1);
	}
	fact = xasprintf("frame: %u chips, %u cores, SMT%u; this partition "
	    "has %u vcpus", t.chips, t.cores, t.smt, t.vcpus);
	hvtop_check_say("ok", fact, NULL);
	free(fact);
	hvtop_check_caps(&t, catalog);
	if (!t.privileged) {
		hvtop_check_say("FAIL", "the physical chips and cores may not "
		    "be read", "on the HMC, the partition's properties, "
		    "\"Allow performance information collection\"");
		return (1);
	}
	for (i = 0; i < t.nlpars; i++)
		strbuf_addf(&sb, "%s%u", i > 0 ? "," : "", t.lpars[i].id);
	if (t.lpars_denied || t.nlpars <= 1) {
		hvtop_check_say("FAIL", t.lpars_denied ? "other partitions "
		    "may not be read: this partition alone" : "no other "
		    "partition answered the domain 3 probe", "on the HMC, "
		    "the partition's properties, \"Allow performance "
		    "information collection\"");
		strbuf_free(&sb);
		return (1);
	}
	fact = xasprintf("%zu partitions visible: %s", t.nlpars, sb.s);
	hvtop_check_say("ok", fact, NULL);
	free(fact);
	strbuf_free(&sb);
	return (0);
}

static int
hvtop_check_all(const struct hvtop_opts *o)
{
	struct source	*src;
	struct stat	 sb;
	char		*path, *fact, *cause = NULL;
	int		 sim, bad = 0, cat_bad;

	sim = strcmp(o->source, "sim") == 0;
	if (!sim) {
		path = xasprintf("%s/bus/event_source/devices/%s",
		    o->sysfs_root, o->pmu != NULL ? o->pmu : "hv_24x7");
		if (stat(path, &sb) != 0) {
			fact = xasprintf("no hv_24x7 PMU: %s is missing", path);
			hvtop_check_say("FAIL", fact, "run on a PowerVM "
			    "partition whose kernel has the hv_24x7 driver "
			    "(CONFIG_HV_24X7=y; modprobe hv_24x7), or "
			    "--source sim for the simulated frame");
			free(fact);
			free(path);
			hvtop_check_perm(o->source_args);
			return (1);
		}
		fact = xasprintf("hv_24x7 PMU: %s", path);
		hvtop_check_say("ok", fact, NULL);
		free(fact);
		free(path);
		bad |= hvtop_check_perm(o->source_args);
	}
	if (source_open(sim ? "sim" : o->source, o->source_args,
	    o->sysfs_root, &src, &cause) != 0) {
		fact = xasprintf("source: %s", cause);
		hvtop_check_say("FAIL", fact, NULL);
		free(fact);
		free(cause);
		return (1);
	}
	fact = xasprintf("source %s: %s", src->ops->name,
	    src->label != NULL ? src->label : "");
	hvtop_check_say(sim ? "info" : "ok", fact, NULL);
	free(fact);
	cat_bad = hvtop_check_catalog(src);
	bad |= cat_bad;
	bad |= hvtop_check_frame(src, !cat_bad);
	source_close(src);
	return (bad ? 1 : 0);
}

int
hvtop_check(struct hvtop_opts *o)
{
	int	 status;

	status = hvtop_check_all(o);
	hvtop_free_opts(o);
	return (status);
}
