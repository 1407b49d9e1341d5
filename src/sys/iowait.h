/*
 * Waits that a signal ends.  A file can block hvtop for ever: a FIFO
 * nobody opens or reads (-o, -w, stdout into a reader that never reads),
 * a FIFO planted where a sysfs file or a web configuration should be.
 * A signal handler that ends the run calls iowait_stop(); it writes a
 * byte to a pipe that is never drained, and every wait here polls that
 * pipe beside its file, so it ends at once, whichever thread the signal
 * was delivered to and however close to the wait it came.  After the
 * stop nothing waits: what can go at once still goes (closing a
 * recording), what would wait fails with -EINTR.
 *
 * The second module below ui/ with mutable globals: a signal handler
 * can only find its state there.
 */
#ifndef HVTOP_IOWAIT_H
#define HVTOP_IOWAIT_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>

/* The pipe, once, before the handlers are installed: 0 or -errno.
 * Without it the waits below still work but no signal ends them. */
int	 iowait_init(void);
/* A handler's call: the run ends with sig.  Async-signal-safe. */
void	 iowait_stop(int);
/* The signal passed to iowait_stop(), or 0. */
int	 iowait_stopped(void);
/* Until fd is ready for events (POLLIN, POLLOUT), or the stop: 0 or
 * -EINTR (stopped), -errno. */
int	 iowait_fd(int, short);
/* ns nanoseconds (rounded up to a millisecond), or less when stopped:
 * 0, or -EINTR (stopped). */
int	 iowait_sleep(uint64_t);
/* open(2) that does not wait for the other end of a FIFO for ever:
 * the fd (blocking, close-on-exec), or -errno (-EINTR: stopped). */
int	 iowait_open(const char *, int, mode_t);
/* All len bytes to fd: 0, or -errno (-EINTR: stopped, -EPIPE ...);
 * *done (when not NULL) says how many went either way. */
int	 iowait_write(int, const void *, size_t, size_t *);
/* The same for an fd the caller knows to be a regular file or not
 * (reg), which spares an fstat(2) a call. */
int	 iowait_write_kind(int, int reg, const void *, size_t, size_t *);
/* One read(2) or pread(2) once fd is readable: bytes, 0 at the end, or
 * -errno (-EINTR: stopped). */
ssize_t	 iowait_read(int, void *, size_t);
ssize_t	 iowait_pread(int, void *, size_t, off_t);

#endif /* HVTOP_IOWAIT_H */
