/*
 * Real counters through perf_event_open(2) on the msr and software PMUs of
 * the machine running the tests: group reads, the time stamp counter's
 * rate, one read() per group, and the file-descriptor limit.  When the
 * kernel has no msr PMU or does not let this user count a whole CPU, the
 * whole program reports a TAP skip with the reason.
 */
#include "config.h"

#include <sys/resource.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "catalog/catalog.h"
#include "model/selection.h"
#include "source/source-perf.h"
#include "util/hverr.h"
#include "util/xalloc.h"

#include "harness.h"

/* ---- real counters --------------------------------------------------- */

static uint64_t
mono_ns(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec);
}

static void
pause_ms(long ms)
{
	struct timespec	 ts = { 0, ms * 1000000L };

	while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
		;
}

/*
 * Open and select on the running kernel.  Returns 0, or the error with
 * *why set (caller frees) when the machine cannot count.
 */
static int
real_try(struct source *src, const char *args, struct selection *sel,
    const char *const *picks, size_t npicks, char **why)
{
	const struct catalog	*model;
	struct topology		 t;
	char			*cause = NULL;
	size_t			 i;
	int			 error;

	memset(src, 0, sizeof *src);
	memset(sel, 0, sizeof *sel);
	src->ops = &source_perf_ops;
	if ((error = source_perf_ops.open(src, args, &cause)) != 0) {
		*why = cause;
		return (error);
	}
	assert_int_equal(source_perf_catalog_model(src, &model), 0);
	assert_int_equal(source_perf_ops.topology(src, &t, &cause), 0);
	for (i = 0; i < npicks; i++) {
		if (selection_add(sel, model, &t, picks[i], 1, &cause) != 0)
			fail_msg("%s", cause);
	}
	if ((error = source_perf_ops.select(src, sel, &cause)) != 0) {
		*why = cause;
		selection_clear(sel);
		source_perf_ops.close(src);
	}
	return (error);
}

/* The same, failing the test on any error. */
static void
real_open(struct source *src, const char *args, struct selection *sel,
    const char *const *picks, size_t npicks)
{
	char	*why = NULL;

	if (real_try(src, args, sel, picks, npicks, &why) != 0)
		fail_msg("%s", why);
}

static void
test_real_msr_tsc(void **state)
{
	static const char *const picks[] = { "tsc" };
	struct source		 src;
	struct selection	 sel;
	struct raw_sample	 a, b;
	uint64_t		 t0, t1, t2, t3, delta;
	double			 lo, hi;
	char			*cause = NULL;

	(void)state;
	real_open(&src, "pmu=msr", &sel, picks, 1);
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	/*
	 * Each read lies between two clock readings, so the counter's
	 * rate lies between delta over the outer span (t0..t3) and delta
	 * over the inner one (t1..t2), however long a busy machine keeps
	 * this process off the CPU.
	 */
	t0 = mono_ns();
	if (source_perf_ops.sample(&src, t0, &a, &cause) != 0)
		fail_msg("%s", cause);
	t1 = mono_ns();
	pause_ms(20);
	t2 = mono_ns();
	if (source_perf_ops.sample(&src, t2, &b, &cause) != 0)
		fail_msg("%s", cause);
	t3 = mono_ns();
	assert_int_equal(a.nvalues, 1);
	assert_int_equal(a.calls, 1);
	assert_int_equal(b.calls, 1);
	assert_int_equal(a.values[0].status, RAW_OK);
	assert_int_equal(b.values[0].status, RAW_OK);
	assert_string_equal(b.error, "");
	delta = b.values[0].value - a.values[0].value;
	/* A time stamp counter runs at a fixed rate of 0.1-10 GHz. */
	lo = (double)delta / (double)(t3 - t0);
	hi = (double)delta / (double)(t2 - t1);
	if (hi < 0.1 || lo > 10.0)
		fail_msg("TSC delta %llu over %llu..%llu ns is %.3f..%.3f GHz",
		    (unsigned long long)delta, (unsigned long long)(t2 - t1),
		    (unsigned long long)(t3 - t0), lo, hi);
	free(a.values);
	free(b.values);
	selection_clear(&sel);
	source_perf_ops.close(&src);
}

/* msr and software share one group per CPU: one read() per CPU. */
static void
test_real_msr_software_all_cpus(void **state)
{
	static const char *const picks[] = { "tsc", "cpu-clock",
	    "context-switches" };
	struct source		 src;
	struct selection	 sel;
	struct raw_sample	 a, b;
	struct topology		 t;
	uint64_t		 t0, t1, d;
	size_t			 i;
	const char		*name;
	char			*cause = NULL;

	(void)state;
	if (access("/sys/bus/event_source/devices/software", F_OK) != 0) {
		/* A skip() would read as a failure to automake's TAP
		 * driver; say why and count msr alone. */
		print_message("# no software PMU under /sys: msr only\n");
		real_open(&src, "pmu=msr,cpus=all", &sel, picks, 1);
		selection_clear(&sel);
		source_perf_ops.close(&src);
		return;
	}
	real_open(&src, "pmu=msr+software,cpus=all", &sel, picks, 3);
	assert_int_equal(source_perf_ops.topology(&src, &t, &cause), 0);
	assert_int_equal(sel.ncounters, 3 * t.chips);
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	/* As above: a's reads follow t0, b's precede t1. */
	t0 = mono_ns();
	if (source_perf_ops.sample(&src, t0, &a, &cause) != 0)
		fail_msg("%s", cause);
	pause_ms(20);
	if (source_perf_ops.sample(&src, mono_ns(), &b, &cause) != 0)
		fail_msg("%s", cause);
	t1 = mono_ns();
	assert_int_equal(b.calls, t.chips);
	assert_int_equal(b.naive_calls, sel.ncounters);
	for (i = 0; i < sel.ncounters; i++) {
		assert_int_equal(b.values[i].status, RAW_OK);
		d = b.values[i].value - a.values[i].value;
		name = sel.counters[i].event->name;
		/* cpu-clock counts ns while the counter is enabled, and
		 * both reads lie between t0 and t1. */
		if (strcmp(name, "cpu-clock") == 0 && (d == 0 ||
		    d > (t1 - t0) + 1000000))
			fail_msg("cpu-clock delta %llu over %llu ns",
			    (unsigned long long)d,
			    (unsigned long long)(t1 - t0));
		if (strcmp(name, "tsc") == 0 && d == 0)
			fail_msg("tsc did not move on index %u",
			    sel.counters[i].index);
	}
	free(a.values);
	free(b.values);
	selection_clear(&sel);
	source_perf_ops.close(&src);

	/* group_max splits the groups. */
	real_open(&src, "pmu=msr+software,group_max=2", &sel, picks, 3);
	memset(&a, 0, sizeof a);
	if (source_perf_ops.sample(&src, mono_ns(), &a, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(a.calls, 2);
	free(a.values);
	selection_clear(&sel);
	source_perf_ops.close(&src);
}

/* The descriptors open in this process, from 0 up to the first free
 * one past the highest open below 1024. */
static unsigned
fd_open_now(void)
{
	unsigned	 fd, n = 0;

	for (fd = 0; fd < 1024; fd++)
		if (fcntl((int)fd, F_GETFD) != -1)
			n = fd + 1;
	return (n);
}

/*
 * Select n counters under two fd limits; report both outcomes.  The
 * second limit leaves room for four more descriptors: fewer than the
 * selection's ten.
 */
static ssize_t
fd_child(char *msg, size_t size, const char *const *picks, size_t n)
{
	const struct catalog	*model;
	struct source		 src;
	struct selection	 sel;
	struct topology		 t;
	struct rlimit		 rl;
	char			*cause = NULL;
	size_t			 i, len;
	unsigned		 low = fd_open_now() + 4;
	int			 r = -1, pass;

	len = 0;
	for (pass = 0; pass < 2; pass++) {
		rl.rlim_cur = pass == 0 ? 16 : low;
		rl.rlim_max = pass == 0 ? 256 : low;
		if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
			break;
		memset(&src, 0, sizeof src);
		memset(&sel, 0, sizeof sel);
		if (source_perf_ops.open(&src, "pmu=msr+software", &cause) != 0)
			break;
		source_perf_catalog_model(&src, &model);
		source_perf_ops.topology(&src, &t, &cause);
		for (i = 0; i < n; i++)
			selection_add(&sel, model, &t, picks[i], 1, &cause);
		free(cause);
		cause = NULL;
		r = source_perf_ops.select(&src, &sel, &cause);
		getrlimit(RLIMIT_NOFILE, &rl);
		if (pass == 0)
			len += (size_t)snprintf(msg + len, size - len,
			    "raised %d %llu\n", r,
			    (unsigned long long)rl.rlim_cur);
		else
			len += (size_t)snprintf(msg + len, size - len,
			    "%d %s\nlimit %u\n", r, cause != NULL ? cause :
			    "", low);
		free(cause);
		cause = NULL;
		selection_clear(&sel);
		source_perf_ops.close(&src);
	}
	return ((ssize_t)len);
}

/*
 * Out of descriptors: in a child, so the limits can be lowered for
 * good.  A soft limit below the hard one is raised by itself; a hard
 * limit too low gives a message that says how many are needed: one per
 * distinct counter, a counter picked twice opened once.
 */
static void
test_real_fd_limit(void **state)
{
	static const char *const picks[] = {
		"tsc", "alignment-faults", "context-switches", "cpu-clock",
		"cpu-migrations", "emulation-faults", "major-faults",
		"minor-faults", "page-faults", "task-clock", "tsc", "cpu-clock",
	};
	pid_t			 pid;
	int			 status, p[2], fd;
	char			 msg[1024], want[128];
	ssize_t			 n;
	size_t			 got;
	unsigned		 low;
	const char		*at;

	(void)state;
	if (access("/sys/bus/event_source/devices/software", F_OK) != 0) {
		print_message("# no software PMU under /sys: no fd test\n");
		return;
	}
	assert_int_equal(pipe(p), 0);
	if ((pid = fork()) == 0) {
		/* The pipe at 3, and nothing inherited above it, so that
		 * the child knows what its limits leave. */
		if (p[1] != 3 && dup2(p[1], 3) != 3)
			_exit(2);
		for (fd = 4; fd < 1024; fd++)
			(void)close(fd);
		if (p[0] != 3)
			(void)close(p[0]);
		n = fd_child(msg, sizeof msg, picks,
		    sizeof picks / sizeof picks[0]);
		if (write(3, msg, (size_t)n) < 0)
			_exit(2);
		_exit(0);
	}
	close(p[1]);
	memset(msg, 0, sizeof msg);
	got = 0;
	while (got < sizeof msg - 1 &&
	    (n = read(p[0], msg + got, sizeof msg - 1 - got)) > 0)
		got += (size_t)n;
	close(p[0]);
	waitpid(pid, &status, 0);
	must_contain(msg, "raised 0 256\n");
	must_contain(msg, "\n-24 ");
	must_contain(msg, "this selection needs 10 file descriptors");
	if ((at = strstr(msg, "\nlimit ")) == NULL ||
	    sscanf(at, "\nlimit %u", &low) != 1)
		fail_msg("no limit in '%s'", msg);
	snprintf(want, sizeof want, "the limit is %u (hard limit %u)", low,
	    low);
	must_contain(msg, want);
}

int
main(void)
{
	static const char *const tsc[] = { "tsc" };
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_msr_tsc),
		cmocka_unit_test(test_real_msr_software_all_cpus),
		cmocka_unit_test(test_real_fd_limit),
	};
	struct source		 src;
	struct selection	 sel;
	char			*why = NULL;
	int			 error;

	/* Can this machine count at all?  If not, skip with the reason. */
	error = real_try(&src, "pmu=msr", &sel, tsc, 1, &why);
	if (error == -ENOENT || error == -ENODEV || error == -EACCES ||
	    error == -EPERM || error == -ENOSYS) {
		printf("1..0 # SKIP %s\n", why);
		free(why);
		return (0);
	}
	if (error == 0) {
		selection_clear(&sel);
		source_perf_ops.close(&src);
	}
	free(why);
	return (cmocka_run_group_tests_name("source-perf-real", tests, NULL,
	    NULL));
}
