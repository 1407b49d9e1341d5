/*
 * process_* from the kernel: getrusage() for CPU time, getrlimit() for
 * the descriptor limit, /proc/self/statm (resident pages),
 * /proc/self/stat's start time in clock ticks after boot with
 * /proc/stat's btime, and the entries of /proc/self/fd.  Each file is
 * read whole and its numbers taken within its length by the pure
 * parsers of util/procfs.h.
 */
#include "config.h"

#include "sys/procstat.h"

#include <sys/resource.h>
#include <sys/time.h>

#include <dirent.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export/om.h"
#include "sys/file.h"
#include "util/procfs.h"

/*
 * One number of a small file, parse() taking it from the bytes: -1 when
 * the file cannot be read or does not hold it (the endpoint then leaves
 * process_* out, whatever the cause).
 */
static double
procstat_number(const char *path, int (*parse)(const char *, size_t,
    uint64_t *, char **))
{
	void		*buf;
	char		*cause = NULL;
	size_t		 len;
	uint64_t	 v;
	int		 error;

	if (file_read(path, 64 * 1024, &buf, &len, &cause) != 0) {
		free(cause);
		return (-1);
	}
	error = parse(buf, len, &v, &cause);
	free(buf);
	free(cause);
	return (error == 0 ? (double)v : -1);
}

/* When the process started, seconds since 1970, or -1. */
static double
procstat_start(void)
{
	double	 ticks, btime;
	long	 hz = sysconf(_SC_CLK_TCK);

	ticks = procstat_number("/proc/self/stat", procfs_stat_start);
	btime = procstat_number("/proc/stat", procfs_btime);
	if (ticks < 0 || btime < 0 || hz <= 0)
		return (-1);
	return (btime + ticks / (double)hz);
}

static double
procstat_fds(void)
{
	DIR		*d;
	struct dirent	*de;
	double		 n = 0;

	if ((d = opendir("/proc/self/fd")) == NULL)
		return (-1);
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] != '.')
			n++;
	}
	closedir(d);
	/* Less the one the listing itself holds open. */
	return (n > 0 ? n - 1 : 0);
}

void
procstat_read(struct om_process *p, double *start)
{
	struct rusage	 ru;
	struct rlimit	 rl;
	double		 pages;
	long		 pagesize = sysconf(_SC_PAGESIZE);

	memset(p, 0, sizeof *p);
	if (getrusage(RUSAGE_SELF, &ru) != 0 ||
	    getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return;
	pages = procstat_number("/proc/self/statm", procfs_statm_resident);
	p->cpu_seconds = (double)ru.ru_utime.tv_sec + (double)ru.ru_stime.
	    tv_sec + (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
	p->resident_bytes = pages * (double)pagesize;
	/* A constant of the process: /proc/stat is read once, not at every
	 * sample. */
	if (*start < 0)
		*start = procstat_start();
	p->start_time = *start;
	p->open_fds = procstat_fds();
	p->max_fds = rl.rlim_cur == RLIM_INFINITY ? -1 : (double)rl.rlim_cur;
	p->has = pages >= 0 && p->start_time >= 0 && p->open_fds >= 0 &&
	    p->max_fds >= 0 && pagesize > 0;
}
