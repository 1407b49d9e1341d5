/*
 * The process's own figures for the endpoint's process_* series: CPU
 * time, resident memory, start time, open and allowed descriptors, as
 * Prometheus' client libraries read them on Linux.
 */
#ifndef HVTOP_PROCSTAT_H
#define HVTOP_PROCSTAT_H

struct om_process;

/* Fill p; p->has is 0 when /proc could not tell.  *start keeps the
 * process's start time between calls: -1 before the first. */
void	 procstat_read(struct om_process *p, double *start);

#endif /* HVTOP_PROCSTAT_H */
