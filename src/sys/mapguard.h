/*
 * Mapped files that shrink.  Reading a page of a mapping past the end of
 * its file raises SIGBUS, and a recording being replayed can be cut short
 * under hvtop (truncated in place by another program).  mapguard keeps
 * the ranges file_map() made; on SIGBUS inside one it maps a page of
 * zeros where the file's page was and notes it, so the reader sees bytes
 * that fail its checks and says where, instead of the program dying.  A
 * SIGBUS anywhere else goes to the handler that was there before.
 *
 * The one module below ui/ with mutable globals: a signal handler can
 * only find its state there.
 */
#ifndef HVTOP_MAPGUARD_H
#define HVTOP_MAPGUARD_H

#include <stddef.h>

/* Guard [p, p + len) until mapguard_remove(p); 0, or -1 when full. */
int	 mapguard_add(const void *p, size_t len);
void	 mapguard_remove(const void *p);
/* Whether a page of the mapping at p was replaced by zeros. */
int	 mapguard_hit(const void *p);
/*
 * For another SIGBUS handler (the terminal interface's): 1 when addr was
 * in a guarded range and is now readable, 0 when the signal is not ours.
 * Async-signal-safe.
 */
int	 mapguard_fault(void *addr);

#endif /* HVTOP_MAPGUARD_H */
