/*
 * The perf source: real counters through perf_event_open(2).  This is
 * its generic part, the same for every PMU: it loads the PMUs sysfs
 * describes, picks the variant that knows them (source-perf-int.h), opens
 * one fd per counter, grouped so that one read() of a group leader
 * returns the whole group (for hv_24x7 the kernel makes that one
 * H_GET_24X7_DATA), reads the groups and turns what they return into raw
 * values, scaling what the kernel multiplexed (source-perf-scale.c).
 * Nothing here asks which PMU it reads: the variant table says what
 * differs.
 *
 * No printing: problems travel as causes and in the sample's error
 * string.
 */
#include "config.h"

#include "source/source-perf-int.h"

#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "model/raw.h"
#include "model/selection.h"
#include "sys/file.h"
#include "sys/iowait.h"
#include "util/hverr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define PERF_PMU_DEFAULT	"hv_24x7"	/* what hvtop is for */
#define PERF_READ_HDR		3	/* nr, time_enabled, time_running */
#define PERF_CPUINFO_MAX	(16 * 1024 * 1024)
#define PERF_OPEN_TRIES		4	/* for an open answered EIO */
#define PERF_OPEN_PAUSE		1000000ULL	/* ns, doubled each time */

/* First match wins: the catch-all comes last. */
static const struct source_perf_variant *const source_perf_variants[] = {
	&source_perf_hv24x7,
	&source_perf_cpu,
};

char *
source_perf_cpuinfo(const struct source_perf *st, const char *key)
{
	const char	*p, *nl, *colon;
	char		*path, *c = NULL, *text, *value = NULL;
	void		*buf;
	size_t		 kl = strlen(key), len;

	path = xasprintf("%s/cpuinfo", st->proc_root);
	if (file_read(path, PERF_CPUINFO_MAX, &buf, &len, &c) != 0) {
		free(c);
		free(path);
		return (NULL);
	}
	free(path);
	text = buf;
	for (p = text; *p != '\0' && value == NULL; p = *nl == '\n' ?
	    nl + 1 : nl) {
		if ((nl = strchr(p, '\n')) == NULL)
			nl = p + strlen(p);
		if (strncmp(p, key, kl) != 0 || (p[kl] != ' ' &&
		    p[kl] != '\t' && p[kl] != ':') ||
		    (colon = memchr(p, ':', (size_t)(nl - p))) == NULL)
			continue;
		for (colon++; colon < nl && (*colon == ' ' || *colon == '\t');
		    colon++)
			;
		value = xstrndup(colon, (size_t)(nl - colon));
	}
	free(text);
	return (value);
}

struct pmu_listing *
source_perf_listings(const struct source_perf *st)
{
	struct pmu_listing	*ls;
	size_t			 i;

	ls = xcalloc(st->npmus + 1, sizeof *ls);
	for (i = 0; i < st->npmus; i++) {
		ls[i].name = st->pmus[i].name;
		ls[i].events = st->pmus[i].events;
		ls[i].nevents = st->pmus[i].nevents;
		ls[i].descs = st->pmus[i].descs;
		ls[i].units = st->pmus[i].units;
		ls[i].scales = st->pmus[i].scales;
	}
	return (ls);
}

static void
source_perf_close_fds(struct source_perf *st)
{
	size_t	 i;

	for (i = 0; i < st->nctr; i++) {
		if (st->ctr[i].fd >= 0)
			close(st->ctr[i].fd);
	}
	for (i = 0; i < st->ngroups; i++) {
		free(st->groups[i].members);
		source_perf_scale_clear(&st->groups[i].scale);
	}
	free(st->groups);
	free(st->ctr);
	free(st->readbuf);
	st->groups = NULL;
	st->ngroups = 0;
	st->ctr = NULL;
	st->nctr = 0;
	st->readbuf = NULL;
	st->readcap = 0;
	st->sel = NULL;
}

static void
source_perf_free(struct source_perf *st)
{
	size_t	 i;

	if (st == NULL)
		return;
	source_perf_close_fds(st);
	if (st->v != NULL && st->v->close != NULL)
		st->v->close(st);
	for (i = 0; i < st->npmus; i++)
		source_perf_sysfs_free(&st->pmus[i]);
	free(st->pmus);
	for (i = 0; i < st->nparams; i++)
		free(st->param_names[i]);
	free(st->param_names);
	free(st->params);
	free(st->cpus);
	catalog_free(st->model);
	free(st->sysfs_root);
	free(st->proc_root);
	free(st->cpu_hz_origin);
	free(st);
}

/* Why a PMU is missing, and which ones this machine has. */
static char *
source_perf_absent(const struct source_perf *st, const char *name,
    const char *why)
{
	const struct source_perf_variant	*v;
	struct strbuf				 sb = { 0 };
	struct dirent				*de;
	DIR					*d;
	char					*dir;
	size_t					 n = 0, i;

	strbuf_adds(&sb, why);
	for (i = 0; i < sizeof source_perf_variants /
	    sizeof source_perf_variants[0]; i++) {
		v = source_perf_variants[i];
		if (v->absent != NULL && strcmp(v->name, name) == 0)
			strbuf_addf(&sb, " (%s)", v->absent);
	}
	dir = xasprintf("%s/bus/event_source/devices", st->sysfs_root);
	if ((d = opendir(dir)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			strbuf_addf(&sb, "%s%s", n++ == 0 ? "; PMUs here: " :
			    " ", de->d_name);
		}
		closedir(d);
	}
	free(dir);
	return (strbuf_detach(&sb));
}

/* The PMUs named in "NAME[+NAME]", from sysfs. */
static int
source_perf_load(struct source_perf *st, const char *names, char **cause)
{
	char	*copy, *name, *save = NULL, *c = NULL;
	int	 error = 0;

	copy = xstrdup(names);
	for (name = strtok_r(copy, "+", &save); name != NULL && error == 0;
	    name = strtok_r(NULL, "+", &save)) {
		st->pmus = xreallocarray(st->pmus, st->npmus + 1,
		    sizeof *st->pmus);
		error = source_perf_sysfs_load(st->sysfs_root, name,
		    &st->pmus[st->npmus], &c);
		if (error == -ENOENT) {
			*cause = source_perf_absent(st, name, c);
			free(c);
		} else if (error != 0)
			*cause = c;
		else
			st->npmus++;
		c = NULL;
	}
	free(copy);
	if (error == 0 && st->npmus == 0) {
		*cause = xstrdup("option pmu=: no PMU named");
		error = -HV_EUSAGE;
	}
	return (error);
}

/* The variant that serves the PMUs: the first that knows one of them. */
static int
source_perf_variant(struct source_perf *st, char **cause)
{
	const struct source_perf_variant	*v;
	size_t					 k, i;

	for (k = 0; k < sizeof source_perf_variants /
	    sizeof source_perf_variants[0] && st->v == NULL; k++) {
		v = source_perf_variants[k];
		for (i = 0; i < st->npmus && st->v == NULL; i++) {
			if (v->match(&st->pmus[i]))
				st->v = v;
		}
	}
	if (st->v->alone != NULL && st->npmus > 1) {
		*cause = xasprintf("%s cannot share a source with another "
		    "PMU: %s", st->v->name, st->v->alone);
		return (-HV_EUSAGE);
	}
	return (0);
}

static int
source_perf_open(struct source *src, const char *args, char **cause)
{
	struct source_perf	*st;
	char			*pmus = NULL, *cpus = NULL;
	int			 error;

	st = xcalloc(1, sizeof *st);
	st->sysfs_root = xstrdup("/sys");
	st->proc_root = xstrdup("/proc");
	st->lpar_lo = PERF_LPARS_DEFAULT_LO;
	st->lpar_hi = PERF_LPARS_DEFAULT_HI;
	st->lpar_gap = PERF_LPAR_GAP;
	if ((error = source_perf_opt_parse(st, args, &pmus, &cpus,
	    cause)) == 0 && (error = source_perf_load(st, pmus != NULL ?
	    pmus : PERF_PMU_DEFAULT, cause)) == 0 &&
	    (error = source_perf_variant(st, cause)) == 0 &&
	    (error = source_perf_opt_params(st, cause)) == 0 &&
	    (error = source_perf_opt_cpus(st, cpus, cause)) == 0)
		error = st->v->open(st, cause);
	free(pmus);
	free(cpus);
	if (error != 0) {
		source_perf_free(st);
		return (error);
	}
	free(src->label);
	src->label = st->v->label(st);
	/* One read(2) of a perf group per hypervisor call or CPU. */
	src->calls = "group reads";
	src->data = st;
	return (0);
}

int
source_perf_catalog_model(struct source *src, const struct catalog **out)
{
	struct source_perf	*st = src->data;

	*out = NULL;
	if (st == NULL || st->model == NULL)
		return (-HV_ENOENT);
	*out = st->model;
	return (0);
}

static int
source_perf_catalog(struct source *src, const void **out, size_t *len,
    char **cause)
{
	struct source_perf	*st = src->data;

	*out = NULL;
	*len = 0;
	if (st->v->catalog == NULL) {
		*cause = xasprintf("PMU %s has no 24x7 catalog: its events "
		    "come from sysfs (the catalog model)", st->pmus[0].name);
		return (-HV_ENOENT);
	}
	return (st->v->catalog(st, out, len, cause));
}

static int
source_perf_topology(struct source *src, struct topology *t, char **cause)
{
	struct source_perf	*st = src->data;

	(void)cause;
	if (st->v->topology != NULL)
		st->v->topology(st);
	*t = st->handed = st->topo;
	return (0);
}

static int
source_perf_partitions(struct source *src, char **cause)
{
	struct source_perf	*st = src->data;

	(void)cause;
	if (st->v->partitions != NULL)
		st->v->partitions(st);
	return (0);
}

/* ---- groups ---------------------------------------------------------- */

/* Raise the soft fd limit to the hard one when the selection needs it. */
static void
source_perf_fd_limit(size_t need)
{
	struct rlimit	 rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return;
	if (rl.rlim_cur != RLIM_INFINITY &&
	    rl.rlim_cur < (rlim_t)(need + PERF_FD_SLACK) &&
	    rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
	}
}

int
source_perf_fd_open(const struct perf_counter *pc, int group_fd)
{
	struct perf_event_attr	 attr;
	long			 fd;

	memset(&attr, 0, sizeof attr);
	attr.size = sizeof attr;
	attr.type = (uint32_t)pc->type;
	attr.config = pc->cfg[0];
	attr.config1 = pc->cfg[1];
	attr.config2 = pc->cfg[2];
	/* Counting only: no sampling, no exclude bits (hv_24x7 refuses
	 * them), and a group leader's read returns the whole group. */
	attr.read_format = PERF_FORMAT_GROUP |
	    PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	/* A sibling that joins a running group is not scheduled until the
	 * group is, which never happens without multiplexing: start the
	 * leader disabled and enable the whole group once it is built. */
	attr.disabled = group_fd == -1;
	fd = syscall(SYS_perf_event_open, &attr, -1, pc->cpu, group_fd,
	    PERF_FLAG_FD_CLOEXEC);
	return (fd < 0 ? -1 : (int)fd);
}

/*
 * perf_event_open() of pc, made again when it fails with EIO: hv_24x7's
 * test read at open turns a busy hypervisor into EIO, and a busy answer
 * says nothing about the event.  A signal that ends the run ends the
 * waits.
 */
static int
source_perf_fd_open_again(const struct perf_counter *pc, int group_fd)
{
	uint64_t	 ns = PERF_OPEN_PAUSE;
	unsigned	 tries;
	int		 fd, err;

	for (tries = 1; ; tries++) {
		if ((fd = source_perf_fd_open(pc, group_fd)) >= 0)
			return (fd);
		err = errno;
		if (err != EIO || tries >= PERF_OPEN_TRIES ||
		    iowait_sleep(ns) != 0) {
			errno = err;
			return (-1);
		}
		ns *= 2;
	}
}

struct perf_order {
	size_t		 key;
	size_t		 i;
};

static int
source_perf_order_cmp(const void *a, const void *b)
{
	const struct perf_order	*x = a, *y = b;

	if (x->key != y->key)
		return (x->key < y->key ? -1 : 1);
	return (x->i < y->i ? -1 : x->i > y->i);
}

/* A counter's place in the order of what it counts. */
struct perf_what {
	int		 type;
	int		 cpu;
	uint64_t	 cfg[PMU_CONFIG_WORDS];
	size_t		 i;
};

static int
source_perf_what_cmp(const void *a, const void *b)
{
	const struct perf_what	*x = a, *y = b;
	int			 c;

	if (x->type != y->type)
		return (x->type < y->type ? -1 : 1);
	if (x->cpu != y->cpu)
		return (x->cpu < y->cpu ? -1 : 1);
	if ((c = memcmp(x->cfg, y->cfg, sizeof x->cfg)) != 0)
		return (c);
	return (x->i < y->i ? -1 : x->i > y->i);
}

/*
 * A counter the selection holds twice (two groups of the catalog share
 * an event) is opened once: the later ones are its twins, given its
 * value at each read, so that the hypervisor is not asked twice.
 */
static void
source_perf_twins(struct source_perf *st)
{
	struct perf_what	*w;
	size_t			 i, n = st->nctr, first = 0;

	w = xreallocarray(NULL, n, sizeof *w);
	for (i = 0; i < n; i++) {
		w[i].type = st->ctr[i].type;
		w[i].cpu = st->ctr[i].cpu;
		memcpy(w[i].cfg, st->ctr[i].cfg, sizeof w[i].cfg);
		w[i].i = i;
		st->ctr[i].twin = PERF_NO_TWIN;
	}
	qsort(w, n, sizeof *w, source_perf_what_cmp);
	for (i = 1; i < n; i++) {
		if (w[i].type == w[first].type && w[i].cpu == w[first].cpu &&
		    memcmp(w[i].cfg, w[first].cfg, sizeof w[i].cfg) == 0)
			st->ctr[w[i].i].twin = w[first].i;
		else
			first = i;
	}
	free(w);
}

/*
 * Open order: key by key (a group lives on one CPU), and within a key in
 * selection order, twins left out.  Returns positions in st->ctr (caller
 * frees) and their number in *np.
 */
static size_t *
source_perf_order(const struct source_perf *st, size_t *np)
{
	struct perf_order	*sorted;
	size_t			*order, i, n = st->nctr, m = 0;

	sorted = xreallocarray(NULL, n, sizeof *sorted);
	for (i = 0; i < n; i++) {
		sorted[i].key = st->ctr[i].key;
		sorted[i].i = i;
	}
	qsort(sorted, n, sizeof *sorted, source_perf_order_cmp);
	order = xreallocarray(NULL, n, sizeof *order);
	for (i = 0; i < n; i++)
		if (st->ctr[sorted[i].i].twin == PERF_NO_TWIN)
			order[m++] = sorted[i].i;
	free(sorted);
	*np = m;
	return (order);
}

/* Counters a group starting at order[0] may take. */
static size_t
source_perf_group_fit(const struct source_perf *st, const size_t *order,
    size_t n)
{
	size_t	 fit = PERF_GROUP_MAX_DEFAULT;

	if (st->v->group_fit != NULL)
		fit = st->v->group_fit(st, order, n);
	if (st->group_max != 0 && st->group_max < fit)
		fit = st->group_max;
	return (fit > 0 ? fit : 1);
}

static struct perf_group *
source_perf_group_new(struct source_perf *st, int leader, int cpu)
{
	struct perf_group	*g;

	st->groups = xreallocarray(st->groups, st->ngroups + 1,
	    sizeof *st->groups);
	g = &st->groups[st->ngroups++];
	memset(g, 0, sizeof *g);
	g->leader = leader;
	g->cpu = cpu;
	return (g);
}

/* Counter k (a position in st->ctr) joins group g with fd. */
static void
source_perf_group_join(struct source_perf *st, struct perf_group *g,
    size_t k, int fd)
{
	struct perf_counter	*pc = &st->ctr[k];

	pc->fd = fd;
	pc->group = (size_t)(g - st->groups);
	pc->slot = g->n;
	g->members = xreallocarray(g->members, g->n + 1, sizeof *g->members);
	g->members[g->n++] = k;
}

/* perf_event_open() of counter k failed with err: say why. */
static int
source_perf_open_failed(struct source_perf *st, size_t k, int err,
    char **cause)
{
	*cause = source_perf_error_open(st, &st->sel->counters[k],
	    &st->ctr[k], err);
	return (-err);
}

/* One fd per counter, in open order, grouped per CPU up to the fit. */
static int
source_perf_groups_open(struct source_perf *st, const size_t *order,
    size_t n, char **cause)
{
	struct perf_counter	*pc;
	struct perf_group	*g = NULL;
	size_t			 i, limit = 0;
	int			 fd = -1;

	for (i = 0; i < n; i++) {
		pc = &st->ctr[order[i]];
		if (g != NULL && (g->cpu != pc->cpu || g->n >= limit))
			g = NULL;
		if (g != NULL && (fd = source_perf_fd_open_again(pc,
		    g->leader)) < 0) {
			/* Some PMUs cannot share a group with others:
			 * such a counter starts a group of its own. */
			if (errno != EINVAL ||
			    pc->type == st->ctr[g->members[0]].type)
				return (source_perf_open_failed(st, order[i],
				    errno, cause));
			g = NULL;
		}
		if (g == NULL) {
			if ((fd = source_perf_fd_open_again(pc, -1)) < 0)
				return (source_perf_open_failed(st, order[i],
				    errno, cause));
			g = source_perf_group_new(st, fd, pc->cpu);
			limit = source_perf_group_fit(st, order + i, n - i);
		}
		source_perf_group_join(st, g, order[i], fd);
	}
	return (0);
}

/* Start every group counting, and size the read buffer. */
static int
source_perf_groups_enable(struct source_perf *st, char **cause)
{
	struct perf_group	*g;
	size_t			 i, maxn = 0;
	int			 err;

	for (i = 0; i < st->ngroups; i++) {
		g = &st->groups[i];
		source_perf_scale_init(&g->scale, g->n);
		if (g->n > maxn)
			maxn = g->n;
		if (ioctl(g->leader, PERF_EVENT_IOC_ENABLE, 0) == -1) {
			err = errno;
			*cause = xasprintf("enabling group %zu of %zu (cpu "
			    "%d): %s", i + 1, st->ngroups, g->cpu,
			    strerror(err));
			return (-err);
		}
	}
	st->readcap = PERF_READ_HDR + maxn;
	st->readbuf = xreallocarray(NULL, st->readcap, sizeof *st->readbuf);
	return (0);
}

static int
source_perf_select(struct source *src, const struct selection *sel,
    char **cause)
{
	struct source_perf	*st = src->data;
	size_t			*order, i, n, nopen;
	int			 error = 0;

	source_perf_close_fds(st);
	if (sel == NULL || sel->ncounters == 0)
		return (0);
	n = sel->ncounters;
	st->sel = sel;
	st->ctr = xcalloc(n, sizeof *st->ctr);
	st->nctr = n;
	for (i = 0; i < n; i++)
		st->ctr[i].fd = -1;
	for (i = 0; i < n && error == 0; i++)
		error = st->v->encode(st, &sel->counters[i], &st->ctr[i],
		    cause);
	if (error == 0) {
		source_perf_twins(st);
		order = source_perf_order(st, &nopen);
		st->nopen = nopen;
		source_perf_fd_limit(nopen);
		error = source_perf_groups_open(st, order, nopen, cause);
		free(order);
		st->sampled = 0;
	}
	if (error == 0)
		error = source_perf_groups_enable(st, cause);
	if (error != 0)
		source_perf_close_fds(st);
	return (error);
}

/* ---- reads ----------------------------------------------------------- */

/* A read of group i failed with err: its counters have no value. */
static void
source_perf_read_failed(const struct source_perf *st, size_t i, int err,
    struct raw_sample *rs)
{
	const struct perf_group	*g = &st->groups[i];
	struct raw_value	*rv;
	uint8_t			 status;
	size_t			 j;

	status = err == EACCES || err == EPERM ? RAW_DENIED :
	    err == EBUSY || err == EAGAIN ? RAW_BUSY : RAW_FAILED;
	for (j = 0; j < g->n; j++) {
		rv = &rs->values[g->members[j]];
		memset(rv, 0, sizeof *rv);
		rv->status = status;
	}
	snprintf(rs->error, sizeof rs->error, "group %zu of %zu (%zu "
	    "counters, cpu %d): read: %s%s", i + 1, st->ngroups, g->n, g->cpu,
	    strerror(err), err == EIO && st->v->eio_hint != NULL ?
	    st->v->eio_hint : "");
}

/* Read group i into rs.  Returns 0, or the errno of a failed read. */
static int
source_perf_read_group(struct source_perf *st, size_t i,
    struct raw_sample *rs)
{
	struct perf_group	*g = &st->groups[i];
	ssize_t			 r;
	unsigned		 pct;
	int			 err;

	do
		r = read(g->leader, st->readbuf, (PERF_READ_HDR + g->n) *
		    sizeof *st->readbuf);
	while (r == -1 && errno == EINTR);
	if (r == -1) {
		err = errno;
		source_perf_read_failed(st, i, err, rs);
		if (st->v->read_failed != NULL)
			st->v->read_failed(st, i, err, rs);
		return (err != 0 ? err : EIO);
	}
	pct = source_perf_scale(&g->scale, st->readbuf,
	    (size_t)r / sizeof *st->readbuf, g->members, rs->values);
	if (rs->error[0] != '\0')
		return (0);
	if (g->scale.nr < g->n)
		snprintf(rs->error, sizeof rs->error, "group %zu returned %zu "
		    "of %zu counters", i + 1, g->scale.nr, g->n);
	else if (pct == 0)
		snprintf(rs->error, sizeof rs->error, "group %zu of %zu (cpu "
		    "%d) did not run in this interval (time_running did not "
		    "move): its %zu counters have no value", i + 1,
		    st->ngroups, g->cpu, g->n);
	return (0);
}

static int
source_perf_sample(struct source *src, uint64_t now, struct raw_sample *rs,
    char **cause)
{
	struct source_perf	*st = src->data;
	struct perf_group	*g;
	size_t			 i, n = st->nctr, failed = 0;
	int			 err, last = 0, timed = 0;

	rs->now = now;
	rs->calls = 0;
	rs->naive_calls = (unsigned)n;
	rs->error[0] = '\0';
	rs->catalog_version = 0;
	raw_sample_size(rs, n);
	if (st->v->sample != NULL)
		st->v->sample(st, now, rs);
	for (i = 0; i < st->ngroups; i++) {
		rs->calls++;
		g = &st->groups[i];
		if ((err = source_perf_read_group(st, i, rs)) != 0) {
			last = err;
			failed++;
		} else if (!timed && g->scale.started && g->scale.nr > 0) {
			/* The sample is as old as its first good read. */
			rs->now = source_perf_clock(&g->clock, now,
			    g->scale.enabled);
			timed = 1;
		}
	}
	for (i = 0; i < n; i++)
		if (st->ctr[i].twin != PERF_NO_TWIN)
			rs->values[i] = rs->values[st->ctr[i].twin];
	/* A read that no longer answers found the partitions again. */
	rs->lpars_changed = st->topo.lpars != st->handed.lpars ||
	    st->topo.nlpars != st->handed.nlpars ||
	    st->topo.lpars_denied != st->handed.lpars_denied;
	/*
	 * No group read at all: the run cannot start.  Once one has been
	 * read, a read that fails everywhere (hv_24x7 turns a busy
	 * hypervisor into EIO) is an interval without values, with the
	 * error as the reason.
	 */
	if (st->ngroups > 0 && failed == st->ngroups && !st->sampled) {
		*cause = xstrdup(rs->error);
		return (-last);
	}
	if (failed < st->ngroups)
		st->sampled = 1;
	return (0);
}

static int
source_perf_constant(struct source *src, const char *name, double *out)
{
	return (source_perf_const_get(src->data, name, out, NULL));
}

static const char *
source_perf_constant_origin(struct source *src, const char *name)
{
	const char	*origin = NULL;
	double		 v;

	if (source_perf_const_get(src->data, name, &v, &origin) != 0)
		return (NULL);
	return (origin);
}

static void
source_perf_close(struct source *src)
{
	source_perf_free(src->data);
	src->data = NULL;
	free(src->label);
	src->label = NULL;
}

const struct source_ops source_perf_ops = {
	.name = "perf",
	.open = source_perf_open,
	.catalog = source_perf_catalog,
	.topology = source_perf_topology,
	.partitions = source_perf_partitions,
	.select = source_perf_select,
	.sample = source_perf_sample,
	.model = source_perf_catalog_model,
	.constant = source_perf_constant,
	.constant_origin = source_perf_constant_origin,
	.close = source_perf_close,
};
