/*
 * Benchmark: the perf source against perf stat -I on the same real events
 * (msr/tsc and the software cpu-clock on every CPU), the same interval
 * (200 ms) and the same duration (4 s), in one run.  A small driver opens
 * the source through its own API, samples at the interval, formats the
 * values to /dev/null like a batch writer would, and measures its CPU time
 * in the steady state (intervals 3 to 18 of 20), perf stat running at the
 * same time as a child.  Both CPU times are the kernel's exact run time
 * of every thread (/proc/PID/task/N/schedstat); where that file is
 * missing, the driver's getrusage() is compared with perf stat's wait4()
 * time less that of a short run (its start-up and exit).
 *
 * Figures (one run):
 *	perf.cpu_per_interval_ratio	hvtop's CPU per interval / perf's
 *	perf.hvtop_cpu_per_interval	us of CPU per interval
 *	perf.stat_cpu_per_interval	us of CPU per interval, perf stat
 *	perf.reads_per_interval		read() calls per interval (groups)
 *	perf.stat_fds			counters perf stat reads per interval
 *	perf.sample_us			median of 2000 back-to-back samples
 * When perf stat cannot count here, only the hvtop figures are printed and
 * the reason goes to stderr; without perf events at all the benchmark
 * exits BENCH_SKIP.  A smoke run samples three short intervals and
 * leaves perf stat out.
 */
#include "config.h"

#include <sys/resource.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "model/selection.h"
#include "source/source-perf.h"
#include "tests/bench/bench.h"

#define INTERVAL_MS	200
#define LONG_MS		4000
#define SHORT_MS	400
#define SAMPLES		2000
#define WINDOW_FIRST	3	/* steady state: after perf's start-up */
#define WINDOW_LAST	18	/* and before its exit */

/* Run time of every thread of pid, in us; -1 when unknown. */
static double
sched_us(pid_t pid)
{
	char			 path[128], buf[128];
	unsigned long long	 ns, total = 0;
	FILE			*f;
	int			 tid, found = 0;
	char			 dir[48];
	struct dirent		*de;
	DIR			*d;

	snprintf(dir, sizeof dir, "/proc/%d/task", (int)pid);
	if ((d = opendir(dir)) == NULL)
		return (-1);
	while ((de = readdir(d)) != NULL) {
		if ((tid = atoi(de->d_name)) <= 0)
			continue;
		snprintf(path, sizeof path, "%s/%d/schedstat", dir, tid);
		if ((f = fopen(path, "r")) == NULL)
			continue;
		if (fgets(buf, sizeof buf, f) != NULL &&
		    sscanf(buf, "%llu", &ns) == 1) {
			total += ns;
			found = 1;
		}
		fclose(f);
	}
	closedir(d);
	return (found ? total / 1e3 : -1);
}

static uint64_t
mono_ns(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec);
}

static double
rusage_us(const struct rusage *ru)
{
	return (ru->ru_utime.tv_sec * 1e6 + ru->ru_utime.tv_usec +
	    ru->ru_stime.tv_sec * 1e6 + ru->ru_stime.tv_usec);
}

/* perf stat -a -I INTERVAL for ms milliseconds, started in a child. */
static pid_t
stat_start(unsigned ms)
{
	char	 secs[32], ival[16];
	pid_t	 pid;
	int	 fd;

	snprintf(secs, sizeof secs, "%.3f", ms / 1000.0);
	snprintf(ival, sizeof ival, "%d", INTERVAL_MS);
	if ((pid = fork()) != 0)
		return (pid);
	if ((fd = open("/dev/null", O_RDWR)) >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
	}
	execlp("perf", "perf", "stat", "-a", "-x,", "-I", ival, "-o",
	    "/dev/null", "-e", "msr/tsc/,cpu-clock", "--", "sleep", secs,
	    (char *)NULL);
	_exit(127);
}

/* The child's CPU time in us, or -1 when it failed. */
static double
stat_wait(pid_t pid)
{
	struct rusage	 ru;
	int		 status;

	if (pid < 0 || wait4(pid, &status, 0, &ru) != pid)
		return (-1);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		return (-1);
	return (rusage_us(&ru));
}

int
main(void)
{
	static const char *const picks[] = { "tsc", "cpu-clock" };
	static double	 cost[SAMPLES];
	const struct catalog *model;
	struct source	 src;
	struct selection sel;
	struct topology	 t;
	struct raw_sample rs;
	struct rusage	 r0, r1;
	struct timespec	 ts;
	uint64_t	 start, next, t0;
	double		 mine, stat_long, stat_short, stat_iv, mine_iv;
	double		 m0 = -1, m1 = -1, p0 = -1, p1 = -1;
	unsigned	 intervals = LONG_MS / INTERVAL_MS, i, reads = 0;
	unsigned	 ival_ms = INTERVAL_MS;
	size_t		 samples = bench_iters(SAMPLES);
	size_t		 k;
	char		*cause = NULL, line[256];
	pid_t		 pid;
	int		 devnull;

	memset(&src, 0, sizeof src);
	memset(&sel, 0, sizeof sel);
	memset(&rs, 0, sizeof rs);
	src.ops = &source_perf_ops;
	if (source_perf_ops.open(&src, "pmu=msr+software,cpus=all",
	    &cause) != 0) {
		fprintf(stderr, "bench-perf: %s\n", cause);
		return (BENCH_SKIP);
	}
	source_perf_catalog_model(&src, &model);
	source_perf_ops.topology(&src, &t, &cause);
	for (k = 0; k < 2; k++) {
		if (selection_add(&sel, model, &t, picks[k], 1, &cause) != 0) {
			fprintf(stderr, "bench-perf: %s\n", cause);
			return (1);
		}
	}
	if (source_perf_ops.select(&src, &sel, &cause) != 0) {
		fprintf(stderr, "bench-perf: %s\n", cause);
		return (1);
	}
	devnull = open("/dev/null", O_WRONLY);

	if (bench_smoke()) {
		intervals = 3;
		ival_ms = 1;
		stat_short = -1;
		pid = -1;
	} else {
		/* perf stat's start-up and exit, with two intervals. */
		stat_short = stat_wait(stat_start(SHORT_MS));
		/* Both at once, the same events, interval and duration. */
		pid = stat_start(LONG_MS);
	}
	getrusage(RUSAGE_SELF, &r0);
	start = mono_ns();
	for (i = 1; i <= intervals; i++) {
		next = start + (uint64_t)i * ival_ms * 1000000ULL;
		ts.tv_sec = (time_t)(next / 1000000000ULL);
		ts.tv_nsec = (long)(next % 1000000000ULL);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts,
		    NULL) == EINTR)
			;
		if (source_perf_ops.sample(&src, mono_ns(), &rs,
		    &cause) != 0) {
			fprintf(stderr, "bench-perf: %s\n", cause);
			return (1);
		}
		reads += rs.calls;
		if (i == WINDOW_FIRST || i == WINDOW_LAST) {
			/* Ours first: reading perf's counts against us. */
			if (i == WINDOW_FIRST)
				m0 = sched_us(getpid());
			else
				m1 = sched_us(getpid());
			if (i == WINDOW_FIRST)
				p0 = sched_us(pid);
			else
				p1 = sched_us(pid);
		}
		for (k = 0; k < rs.nvalues; k++) {
			int n = snprintf(line, sizeof line, "%u %s %u %llu\n",
			    i, sel.counters[k].event->name,
			    sel.counters[k].index,
			    (unsigned long long)rs.values[k].value);
			if (devnull >= 0 && write(devnull, line,
			    (size_t)n) < 0)
				break;
		}
	}
	getrusage(RUSAGE_SELF, &r1);
	stat_long = stat_wait(pid);
	mine = rusage_us(&r1) - rusage_us(&r0);
	mine_iv = mine / intervals;
	stat_iv = -1;
	if (m0 >= 0 && m1 >= 0 && p0 >= 0 && p1 >= 0 && stat_long >= 0) {
		mine_iv = (m1 - m0) / (WINDOW_LAST - WINDOW_FIRST);
		stat_iv = (p1 - p0) / (WINDOW_LAST - WINDOW_FIRST);
	} else if (stat_long >= 0 && stat_short >= 0) {
		stat_iv = (stat_long - stat_short) /
		    (intervals - SHORT_MS / INTERVAL_MS);
		if (stat_iv <= 0)
			stat_iv = stat_long / intervals;
	}

	/* The cost of one sample, back to back. */
	for (i = 0; i < samples; i++) {
		t0 = mono_ns();
		source_perf_ops.sample(&src, t0, &rs, &cause);
		cost[i] = (mono_ns() - t0) / 1e3;
	}
	qsort(cost, samples, sizeof cost[0], bench_cmp_double);

	printf("perf.hvtop_cpu_per_interval %.1f us\n", mine_iv);
	printf("perf.reads_per_interval %.1f calls\n",
	    (double)reads / intervals);
	printf("perf.sample_us %.2f us\n", cost[samples / 2]);
	if (bench_smoke()) {
		;	/* perf stat was left out */
	} else if (stat_iv <= 0) {
		fprintf(stderr, "bench-perf: perf stat -a -e "
		    "msr/tsc/,cpu-clock could not count here (not installed, "
		    "or not allowed): only hvtop's figures are printed\n");
	} else {
		printf("perf.stat_cpu_per_interval %.1f us\n", stat_iv);
		printf("perf.stat_fds %zu fds\n", sel.ncounters);
		printf("perf.cpu_per_interval_ratio %.3f ratio\n",
		    mine_iv / stat_iv);
	}
	if (devnull >= 0)
		close(devnull);
	free(rs.values);
	selection_clear(&sel);
	source_perf_ops.close(&src);
	return (0);
}
