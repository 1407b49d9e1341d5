/*
 * The SIGBUS guard for mapped files (mapguard.h).  A handful of ranges at
 * most: hvtop maps one recording at a time, hvcat one file.
 */
#include "config.h"

#include "sys/mapguard.h"

#include <sys/mman.h>

#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#define MAPGUARD_MAX	4

struct mapguard_range {
	volatile uintptr_t	 lo;	/* 0: free */
	volatile uintptr_t	 hi;
	volatile sig_atomic_t	 hit;
};

static struct mapguard_range	 mapguard_ranges[MAPGUARD_MAX];
static struct sigaction		 mapguard_old;
static volatile uintptr_t	 mapguard_page;	/* 0 until installed */

int
mapguard_fault(void *addr)
{
	uintptr_t	 a = (uintptr_t)addr, page;
	size_t		 i;

	if (mapguard_page == 0)
		return (0);
	for (i = 0; i < MAPGUARD_MAX; i++) {
		if (mapguard_ranges[i].lo == 0 || a < mapguard_ranges[i].lo ||
		    a >= mapguard_ranges[i].hi)
			continue;
		page = a & ~(mapguard_page - 1);
		if (mmap((void *)page, mapguard_page, PROT_READ,
		    MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
		    MAP_FAILED)
			return (0);
		mapguard_ranges[i].hit = 1;
		return (1);
	}
	return (0);
}

static void
mapguard_on_sigbus(int sig, siginfo_t *si, void *ctx)
{
	if (mapguard_fault(si->si_addr))
		return;
	/* Not ours: whoever handled it before, or the default. */
	if ((mapguard_old.sa_flags & SA_SIGINFO) &&
	    mapguard_old.sa_sigaction != NULL) {
		mapguard_old.sa_sigaction(sig, si, ctx);
		return;
	}
	if (!(mapguard_old.sa_flags & SA_SIGINFO) &&
	    mapguard_old.sa_handler != SIG_DFL &&
	    mapguard_old.sa_handler != SIG_IGN) {
		mapguard_old.sa_handler(sig);
		return;
	}
	/* The faulting access runs again and ends the process. */
	signal(SIGBUS, SIG_DFL);
}

int
mapguard_add(const void *p, size_t len)
{
	struct sigaction	 sa;
	size_t			 i;

	if (p == NULL || len == 0)
		return (0);
	if (mapguard_page == 0) {
		memset(&sa, 0, sizeof sa);
		sigemptyset(&sa.sa_mask);
		sa.sa_sigaction = mapguard_on_sigbus;
		sa.sa_flags = SA_SIGINFO;
		if (sigaction(SIGBUS, &sa, &mapguard_old) == -1)
			return (-1);
		mapguard_page = (uintptr_t)sysconf(_SC_PAGESIZE);
	}
	for (i = 0; i < MAPGUARD_MAX; i++) {
		if (mapguard_ranges[i].lo != 0)
			continue;
		mapguard_ranges[i].hit = 0;
		mapguard_ranges[i].hi = (uintptr_t)p + len;
		mapguard_ranges[i].lo = (uintptr_t)p;
		return (0);
	}
	return (-1);
}

void
mapguard_remove(const void *p)
{
	size_t	 i;

	for (i = 0; i < MAPGUARD_MAX; i++) {
		if (mapguard_ranges[i].lo == (uintptr_t)p)
			mapguard_ranges[i].lo = 0;
	}
}

int
mapguard_hit(const void *p)
{
	size_t	 i;

	for (i = 0; i < MAPGUARD_MAX; i++) {
		if (mapguard_ranges[i].lo == (uintptr_t)p)
			return (mapguard_ranges[i].hit);
	}
	return (0);
}
