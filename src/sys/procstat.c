/*
 * process_* from the kernel: getrusage() for CPU time, getrlimit() for
 * the descriptor limit, /proc/self/statm (resident pages),
 * /proc/self/stat's start time in clock ticks after boot with
 * /proc/stat's btime, and the entries of /proc/self/fd.  Each file is
 * read whole into a NUL-terminated buffer of its own and its numbers
 * taken within it.
 */
#include "config.h"

#include "sys/procstat.h"

#include <sys/resource.h>
#include <sys/time.h>

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export/om.h"
#include "sys/file.h"

/* A small file as a string (caller frees), NULL when unreadable. */
static char *
procstat_text(const char *path)
{
	void	*buf;
	char	*cause = NULL, *s;
	size_t	 len;

	if (file_read(path, 64 * 1024, &buf, &len, &cause) != 0) {
		free(cause);
		return (NULL);
	}
	if ((s = realloc(buf, len + 1)) == NULL) {
		free(buf);
		return (NULL);
	}
	s[len] = '\0';
	return (s);
}

/* The n-th (from 0) space-separated number of s, or -1. */
static double
procstat_field(const char *s, int n)
{
	char			*end;
	unsigned long long	 v;

	for (; n > 0 && s != NULL; n--) {
		if ((s = strchr(s, ' ')) != NULL)
			s++;
	}
	if (s == NULL || *s < '0' || *s > '9')
		return (-1);
	v = strtoull(s, &end, 10);
	return (end == s ? -1 : (double)v);
}

/* When the process started, seconds since 1970, or -1. */
static double
procstat_start(void)
{
	char	*stat, *boot, *p;
	double	 ticks = -1, btime = -1;
	long	 hz = sysconf(_SC_CLK_TCK);

	if ((stat = procstat_text("/proc/self/stat")) != NULL &&
	    (p = strrchr(stat, ')')) != NULL && p[1] == ' ')
		/* After "(comm) ", state is field 3: starttime is 22. */
		ticks = procstat_field(p + 2, 22 - 3);
	free(stat);
	if ((boot = procstat_text("/proc/stat")) != NULL &&
	    (p = strstr(boot, "\nbtime ")) != NULL)
		btime = procstat_field(p + 7, 0);
	free(boot);
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
	char		*statm;
	double		 pages;
	long		 pagesize = sysconf(_SC_PAGESIZE);

	memset(p, 0, sizeof *p);
	if (getrusage(RUSAGE_SELF, &ru) != 0 ||
	    getrlimit(RLIMIT_NOFILE, &rl) != 0)
		return;
	statm = procstat_text("/proc/self/statm");
	pages = statm != NULL ? procstat_field(statm, 1) : -1;
	free(statm);
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
