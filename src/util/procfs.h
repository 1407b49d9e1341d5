/*
 * The numbers hvtop takes from the kernel's process files for the
 * endpoint's process_* series: /proc/self/stat's start time,
 * /proc/stat's boot time and /proc/self/statm's resident pages.  Pure:
 * it parses bytes a caller read (src/sys/procstat.c), looking at none
 * past the length given and needing no NUL at their end.
 */
#ifndef HVTOP_PROCFS_H
#define HVTOP_PROCFS_H

#include <stddef.h>
#include <stdint.h>

/*
 * The n-th (from 0) of the fields buf[0..len) starts with, separated
 * by single spaces: a decimal number that fits in 64 bits, ended by a
 * space, a newline or the end.  Returns 0 with *v set, or -1 with
 * *cause set (caller frees) naming the field and its byte offset.
 */
int	 procfs_field(const char *buf, size_t len, unsigned n, uint64_t *v,
	    char **cause);

/*
 * /proc/self/stat's starttime (its field 22): the clock ticks after
 * boot when the process started.  The fields are counted from the last
 * ')' (the command's name, in parentheses, may hold spaces and
 * parentheses of its own), which a space must follow.  0 or -1 with
 * *cause set.
 */
int	 procfs_stat_start(const char *buf, size_t len, uint64_t *ticks,
	    char **cause);

/* /proc/stat's "btime N" line: the boot time, seconds since 1970.  0 or
 * -1 with *cause set. */
int	 procfs_btime(const char *buf, size_t len, uint64_t *btime,
	    char **cause);

/* /proc/self/statm's resident pages (its second field).  0 or -1 with
 * *cause set. */
int	 procfs_statm_resident(const char *buf, size_t len, uint64_t *pages,
	    char **cause);

#endif /* HVTOP_PROCFS_H */
