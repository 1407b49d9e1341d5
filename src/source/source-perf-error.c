/*
 * What an errno from perf_event_open(2) means, said so that the user
 * knows what to change: the permission it takes (CAP_PERFMON,
 * perf_event_paranoid, a security policy), the file-descriptor limit, a
 * PMU the kernel does not have.  A variant that knows its PMU's rules
 * (hv_24x7's domains and the hypervisor's permission) is asked first.
 */
#include "config.h"

#include "source/source-perf-int.h"

#include <sys/resource.h>

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "model/selection.h"
#include "sys/file.h"
#include "util/xalloc.h"

/* /proc/sys/kernel/perf_event_paranoid, INT_MIN when unreadable. */
static int
source_perf_error_paranoid(const struct source_perf *st)
{
	char	*path, *c = NULL, *end;
	void	*buf;
	size_t	 len;
	long	 v;
	int	 r = INT_MIN;

	/* The value may be negative, which the uint reader refuses. */
	path = xasprintf("%s/sys/kernel/perf_event_paranoid", st->proc_root);
	if (file_read(path, 64, &buf, &len, &c) == 0) {
		v = strtol(buf, &end, 10);
		if (end != buf && v > INT_MIN && v < INT_MAX)
			r = (int)v;
		free(buf);
	}
	free(c);
	free(path);
	return (r);
}

static char *
source_perf_error_perm(const struct source_perf *st, int err,
    const char *what)
{
	int	 paranoid;

	paranoid = source_perf_error_paranoid(st);
	if (paranoid == INT_MIN)
		return (xasprintf("%s: %s: counting a whole CPU needs "
		    "CAP_PERFMON (or CAP_SYS_ADMIN), or "
		    "kernel.perf_event_paranoid at 0 or below (%s/sys/kernel/"
		    "perf_event_paranoid could not be read)", what,
		    strerror(err), st->proc_root));
	if (paranoid > 0)
		return (xasprintf("%s: %s: perf_event_paranoid is %d, and "
		    "counting a whole CPU needs it at 0 or below or "
		    "CAP_PERFMON (or CAP_SYS_ADMIN): run hvtop as root, give "
		    "it cap_perfmon (setcap cap_perfmon+ep), or run 'sysctl "
		    "kernel.perf_event_paranoid=0'", what, strerror(err),
		    paranoid));
	return (xasprintf("%s: %s although perf_event_paranoid is %d: a "
	    "security policy (SELinux, lockdown, a seccomp filter in a "
	    "container) refuses perf events", what, strerror(err), paranoid));
}

static char *
source_perf_error_fds(const struct source_perf *st, int err,
    const char *what)
{
	struct rlimit	 rl;
	size_t		 n = st->nopen;

	if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
		rl.rlim_cur = rl.rlim_max = 0;
	return (xasprintf("%s: %s: this selection needs %zu file "
	    "descriptors (one per distinct counter) besides hvtop's own, and "
	    "the limit is %llu (hard limit %llu): raise it (ulimit -n %zu) or select "
	    "fewer counters", what, strerror(err), n,
	    (unsigned long long)rl.rlim_cur, (unsigned long long)rl.rlim_max,
	    n + PERF_FD_SLACK));
}

/* The message for any PMU. */
static char *
source_perf_error_generic(const struct source_perf *st,
    const struct perf_counter *pc, int err, const char *what)
{
	switch (err) {
	case ENOENT:
	case ENODEV:
		return (xasprintf("%s: %s: the kernel has no PMU of type %d "
		    "for this event%s (is %s the sysfs of this machine?)",
		    what, strerror(err), pc->type, err == ENODEV ? " on this "
		    "CPU (offline, or not served there)" : "",
		    st->sysfs_root));
	case EACCES:
	case EPERM:
		return (source_perf_error_perm(st, err, what));
	case EMFILE:
	case ENFILE:
		return (source_perf_error_fds(st, err, what));
	case EINVAL:
		return (xasprintf("%s: %s: the kernel refused config=0x%llx "
		    "config1=0x%llx config2=0x%llx", what, strerror(err),
		    (unsigned long long)pc->cfg[0],
		    (unsigned long long)pc->cfg[1],
		    (unsigned long long)pc->cfg[2]));
	}
	return (xasprintf("%s: %s", what, strerror(err)));
}

char *
source_perf_error_open(const struct source_perf *st,
    const struct sel_counter *sc, const struct perf_counter *pc, int err)
{
	const char	*name = sc->event->sysfs_name;
	char		*what, *msg = NULL;

	if (name == NULL)
		name = sc->event->name;
	what = xasprintf("perf_event_open(%s/%s/ config=0x%llx config1=0x%llx,"
	    " cpu %d)", st->pmus[pc->pmu].name, name,
	    (unsigned long long)pc->cfg[0], (unsigned long long)pc->cfg[1],
	    pc->cpu);
	if (st->v->open_error != NULL)
		msg = st->v->open_error(st, sc, pc, err, what);
	if (msg == NULL)
		msg = source_perf_error_generic(st, pc, err, what);
	free(what);
	return (msg);
}
