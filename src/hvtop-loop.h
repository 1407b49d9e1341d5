/*
 * The sampling loop of hvtop's printing runs: the batch loop (hvtop -b,
 * hvtop.c) and counting over a command (hvtop -b -- CMD,
 * hvtop-command.c).  It keeps the tick, sleeps on the session's clock
 * and wakes through a pipe that signal handlers write to; what a run
 * does at each tick, when it is over and what a wake-up means are the
 * run's own, handed in as hooks.  It prints nothing itself.
 */
#ifndef HVTOP_HVTOP_LOOP_H
#define HVTOP_HVTOP_LOOP_H

#include <stdint.h>
#include <stdio.h>

struct session;
struct strbuf;

/*
 * The wake-up pipe, made by main() before anything else: a signal
 * handler writes to it so that the loop sleeping in session_sleep_until()
 * on its read end wakes.  hvtop_loop_wake_init() makes it (a pipe that
 * cannot be made leaves it -1); hvtop_loop_wake_up() is async-signal-safe
 * and keeps errno; hvtop_loop_wake_drain() reads every wake-up pending;
 * hvtop_loop_wake_fd() is the read end, -1 when there is no pipe.
 */
void	 hvtop_loop_wake_init(void);
void	 hvtop_loop_wake_up(void);
void	 hvtop_loop_wake_drain(void);
int	 hvtop_loop_wake_fd(void);

/* Write all of sb to fp past its buffer, in a write that a signal ends
 * (a pipe nobody reads); 0 (sb emptied), or -1 with errno set. */
int	 hvtop_loop_flush(FILE *, struct strbuf *);

/* The session's interval (-d) in nanoseconds of its clock. */
uint64_t hvtop_loop_step(struct session *);

/*
 * What a run does in the loop, each with the run's arg.  over() is asked
 * before every sample and every sleep; sample() is called once a tick;
 * woken(), which may be NULL, when a sleep ended through the pipe.
 * over() and sample() return 0 to go on, anything else to end the loop
 * with that value.
 */
struct hvtop_loop_hooks {
	int	(*over)(void *);
	int	(*sample)(void *);
	void	(*woken)(void *);
};

/*
 * Sample at next and then every session_interval() seconds until a hook
 * ends the loop; a wake-up before the tick samples nothing.  After a
 * stall (SIGSTOP, a slow read) the next tick is one from now: catching
 * up would be a burst of back-to-back samples of empty intervals.
 * Returns the value the hook ended the loop with.
 */
int	 hvtop_loop_run(struct session *, uint64_t next,
	    const struct hvtop_loop_hooks *, void *);

#endif /* HVTOP_HVTOP_LOOP_H */
