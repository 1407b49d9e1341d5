/*
 * hvtop -b -- COMMAND [ARGS]: count over a command's life, as perf stat
 * -- COMMAND does.  The frame is sampled before the command starts, every
 * interval while it runs (printed with -d) and once it has ended; the
 * totals are one interval from each counter's first good read to its
 * last, computed by an engine of their own so that a failed read in
 * between loses nothing, whose totals sum what was counted, so that
 * every view counts the same events.  hvtop exits with the command's
 * status.
 *
 * Signals that would end hvtop go to the command instead: one typed at
 * the terminal reaches the command already (same process group), one
 * sent to hvtop alone is passed on.  hvtop ends when the command does.
 */
#include "config.h"

#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "session/session.h"
#include "export/export.h"
#include "hvtop.h"
#include "hvtop-loop.h"
#include "model/raw.h"
#include "sys/iowait.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static volatile sig_atomic_t hvtop_cmd_pid = -1;	/* the command */
static volatile sig_atomic_t hvtop_cmd_early;	/* a signal before it */

/* The signals passed on to the command. */
static const int hvtop_cmd_sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
#define HVTOP_CMD_NSIGS	(sizeof hvtop_cmd_sigs / sizeof hvtop_cmd_sigs[0])

/*
 * A signal sent to hvtop by another process goes on to the command; one
 * the kernel sent (typed at the terminal) reached the command already.
 */
static void
hvtop_cmd_on_signal(int sig, siginfo_t *si, void *uc)
{
	int	 saved = errno;

	(void)uc;
	/* Before the command runs the signal is kept (it is not run) and
	 * ends hvtop's own waits; so it does once the command has ended. */
	if (hvtop_cmd_pid <= 0) {
		if (hvtop_cmd_early == 0)
			hvtop_cmd_early = sig;
		iowait_stop(sig);
	}
	/* A stopped command holds a signal until it is continued: SIGCONT
	 * follows, as systemd sends it after SIGTERM. */
	if (hvtop_cmd_pid > 0 && si != NULL &&
	    (si->si_code == SI_USER || si->si_code == SI_QUEUE) &&
	    si->si_pid != hvtop_cmd_pid) {
		kill(hvtop_cmd_pid, sig);
		kill(hvtop_cmd_pid, SIGCONT);
	}
	errno = saved;
}

/* The command ended: wake the loop's sleep through its pipe. */
static void
hvtop_cmd_on_child(int sig)
{
	(void)sig;
	hvtop_loop_wake_up();
}

static void
hvtop_cmd_signals(void)
{
	struct sigaction sa;
	size_t		 i;

	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_sigaction = hvtop_cmd_on_signal;
	sa.sa_flags = SA_RESTART | SA_SIGINFO;
	for (i = 0; i < HVTOP_CMD_NSIGS; i++)
		sigaction(hvtop_cmd_sigs[i], &sa, NULL);
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = hvtop_cmd_on_child;
	sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
	/* A reader gone shows as EPIPE; the command keeps running. */
	signal(SIGPIPE, SIG_IGN);
}

/*
 * Start the command; the child restores what it inherits from hvtop and
 * reports a failed exec through a close-on-exec pipe.  0, or the status
 * a shell gives a command it cannot run (127 not found, 126 otherwise)
 * after saying why.
 */
static int
hvtop_cmd_start(char **cmd, pid_t *pid)
{
	sigset_t	 none, sigs, old;
	ssize_t		 n;
	size_t		 i;
	int		 fds[2], err = 0, early;

	if (pipe2(fds, O_CLOEXEC) == -1) {
		fprintf(stderr, "hvtop: pipe: %s\n", strerror(errno));
		return (126);
	}
	fflush(NULL);
	/* From the last look at a signal that came first until the pid is
	 * known, a signal waits, and then goes on to the command. */
	sigemptyset(&sigs);
	for (i = 0; i < HVTOP_CMD_NSIGS; i++)
		sigaddset(&sigs, hvtop_cmd_sigs[i]);
	sigprocmask(SIG_BLOCK, &sigs, &old);
	if ((early = hvtop_cmd_early) != 0 ||
	    (early = iowait_stopped()) != 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		close(fds[0]);
		close(fds[1]);
		fprintf(stderr, "hvtop: SIG%s before %s started: not run\n",
		    sigabbrev_np(early), cmd[0]);
		*pid = -1;
		return (128 + early);
	}
	if ((*pid = fork()) == -1) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		fprintf(stderr, "hvtop: fork: %s\n", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return (126);
	}
	if (*pid == 0) {
		for (i = 0; i < HVTOP_CMD_NSIGS; i++)
			signal(hvtop_cmd_sigs[i], SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		close(fds[0]);
		execvp(cmd[0], cmd);
		err = errno;
		n = write(fds[1], &err, sizeof err);
		(void)n;
		_exit(err == ENOENT ? 127 : 126);
	}
	hvtop_cmd_pid = *pid;
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(fds[1]);
	do
		n = read(fds[0], &err, sizeof err);
	while (n == -1 && errno == EINTR);
	close(fds[0]);
	if (n != (ssize_t)sizeof err)
		return (0);
	fprintf(stderr, "hvtop: %s: %s\n", cmd[0], strerror(err));
	waitpid(*pid, NULL, 0);
	hvtop_cmd_pid = -1;
	return (err == ENOENT ? 127 : 126);
}

/* The command's status as a shell gives it; -1 while it runs. */
static int
hvtop_cmd_reap(pid_t pid)
{
	pid_t	 r;
	int	 st;

	do
		r = waitpid(pid, &st, WNOHANG);
	while (r == -1 && errno == EINTR);
	if (r != pid)
		return (-1);
	hvtop_cmd_pid = -1;
	if (WIFSIGNALED(st))
		return (128 + WTERMSIG(st));
	return (WEXITSTATUS(st));
}

/* ---- the totals ---------------------------------------------------- */

/* Each counter's first and last good read, and the engine over them. */
struct hvtop_span {
	struct engine		*e;
	struct raw_sample	 first;
	struct raw_sample	 last;
	uint8_t			*have;		/* per counter: good reads, 0-2 */
	int			 started;
	uint64_t		 since;		/* when the span starts */
	unsigned		 calls;		/* reads made over it */
	unsigned		 naive_calls;
};

static void
hvtop_span_free(struct hvtop_span *sp)
{
	engine_free(sp->e);
	raw_sample_free(&sp->first);
	raw_sample_free(&sp->last);
	free(sp->have);
	memset(sp, 0, sizeof *sp);
}

/* An engine like the session's, with its constants: the span starts. */
static void
hvtop_span_new(struct hvtop_span *sp, struct session *s)
{
	size_t	 n = session_raw(s)->nvalues;

	hvtop_span_free(sp);
	sp->e = session_engine_new(s);
	/* Counts as counted, the same in every view. */
	engine_count_whole(sp->e, 1);
	raw_sample_size(&sp->first, n);
	raw_sample_size(&sp->last, n);
	sp->have = xcalloc(n + 1, sizeof *sp->have);
}

/* Keep the good reads of the session's last sample. */
static void
hvtop_span_take(struct hvtop_span *sp, struct session *s)
{
	const struct raw_sample	*rs = session_raw(s);
	size_t			 k;

	if (!sp->started)
		sp->first.now = rs->now;
	sp->started = 1;
	sp->last.now = rs->now;
	sp->calls += rs->calls;
	sp->naive_calls += rs->naive_calls;
	for (k = 0; k < rs->nvalues && k < sp->first.nvalues; k++) {
		if (raw_reason(rs->values[k].status) != RAW_OK)
			continue;
		if (!sp->have[k])
			sp->first.values[k] = rs->values[k];
		if (sp->have[k] < 2)
			sp->have[k]++;
		sp->last.values[k] = rs->values[k];
	}
}

/* The span as one interval; caller frees. */
static struct engine_snapshot *
hvtop_span_snapshot(struct hvtop_span *sp)
{
	struct engine_snapshot	*snap;
	size_t			 k;

	/* A counter not read well twice has no span: it says why. */
	for (k = 0; k < sp->first.nvalues; k++) {
		if (sp->have[k] < 2)
			sp->first.values[k].status =
			    sp->last.values[k].status = RAW_FAILED;
	}
	engine_snapshot_free(engine_update(sp->e, &sp->first));
	snap = engine_update(sp->e, &sp->last);
	snap->seq = 1;
	snap->calls = sp->calls;
	snap->naive_calls = sp->naive_calls;
	return (snap);
}

/* ---- the run ------------------------------------------------------- */

struct hvtop_cmd {
	struct session		*s;
	const struct hvtop_opts	*o;
	FILE			*fp;
	struct export		*x;
	struct export_info	 info;
	char			 frame[HVTOP_FRAME_MAX];
	struct strbuf		 sb;
	struct hvtop_span	 span;
	uint64_t		 printed;
	pid_t			 pid;		/* the command */
	int			 failed;	/* hvtop could not go on */
};

/* Write out sb; 0 or -1 (a reader gone, a full disk: said once). */
static int
hvtop_cmd_flush(struct hvtop_cmd *c)
{
	if (hvtop_loop_flush(c->fp, &c->sb) == 0)
		return (0);
	if (!c->failed && errno != EPIPE)
		fprintf(stderr, "hvtop: writing output: %s\n",
		    strerror(errno));
	c->failed = 1;
	strbuf_reset(&c->sb);
	return (-1);
}

/*
 * One sample: kept for the totals, printed with -d.  A new engine (a
 * catalog reload) starts the totals again from there.  0, or -1 when
 * the source failed (said).
 */
static int
hvtop_cmd_sample(struct hvtop_cmd *c, int print)
{
	struct session_result	 res;
	struct engine_snapshot	*snap;
	char			*cause = NULL;

	if (session_sample(c->s, &res, &cause) != 0) {
		fprintf(stderr, "hvtop: %s\n", cause);
		free(cause);
		c->failed = 1;
		return (-1);
	}
	snap = res.snap;
	if (res.changed & SESSION_CHANGED_ENGINE) {
		c->info.catalog = session_catalog_label(c->s);
		export_rebind(c->x, session_engine(c->s), &c->info);
		fprintf(stderr, "hvtop: the catalog or the selection changed "
		    "while the command ran: the totals count from here on\n");
		hvtop_span_new(&c->span, c->s);
		c->span.since = session_now(c->s);
	}
	hvtop_span_take(&c->span, c->s);
	if (print && snap->seq > 0 && !c->failed) {
		export_snapshot(c->x, snap, session_wall(c->s, snap->now),
		    &c->sb);
		c->printed++;
		hvtop_cmd_flush(c);
	}
	session_recycle(c->s, snap);
	return (0);
}

/* 'CMD ARGS', quoted as a shell would need where it must be. */
static void
hvtop_cmd_words(char **cmd, struct strbuf *sb)
{
	const char	*p;
	size_t		 i;

	for (i = 0; cmd[i] != NULL; i++) {
		if (i > 0)
			strbuf_addc(sb, ' ');
		if (cmd[i][0] != '\0' &&
		    strpbrk(cmd[i], " \t\n'\"\\$`*?[]{}()<>|&;#~") == NULL) {
			strbuf_adds(sb, cmd[i]);
			continue;
		}
		strbuf_addc(sb, '\'');
		for (p = cmd[i]; *p != '\0'; p++) {
			if (*p == '\'')
				strbuf_adds(sb, "'\\''");
			else
				strbuf_addc(sb, *p);
		}
		strbuf_addc(sb, '\'');
	}
}

/*
 * The totals: in text, perf stat's heading and a count per event of each
 * domain's total row under the rates; in CSV and JSON, one more interval
 * whose interval_s is the command's life (seq 1 without -d, the next seq
 * with it).
 */
static void
hvtop_cmd_totals(struct hvtop_cmd *c, int status, uint64_t elapsed)
{
	const struct engine_view	*v;
	const struct engine_cell	*cell;
	struct engine_snapshot		*snap;
	size_t				 i, j;
	int				 text = c->o->format == EXPORT_TEXT;

	snap = hvtop_span_snapshot(&c->span);
	snap->now = session_now(c->s);
	/* Its seq follows the intervals printed. */
	export_rebind(c->x, c->span.e, &c->info);
	if (text) {
		strbuf_adds(&c->sb, "\n Counter totals for '");
		hvtop_cmd_words(c->o->cmd, &c->sb);
		strbuf_addf(&c->sb, "'%s:\n\n", c->span.since > 0 ?
		    " (since the catalog changed)" : "");
	}
	export_summary(c->x, snap, session_wall(c->s, snap->now), &c->sb);
	for (i = 0; text && i < engine_nviews(c->span.e); i++) {
		v = engine_view(c->span.e, i);
		for (j = 0; j < v->nevents; j++) {
			cell = engine_cell(c->span.e, snap, i, v->nrows, j);
			if (cell->status == ENG_OK)
				strbuf_addf(&c->sb, "%20.0f", cell->delta);
			else
				strbuf_addf(&c->sb, "%20s", "-");
			strbuf_addf(&c->sb, "      %s (%s total)",
			    v->events[j]->name, v->term);
			if (cell->status != ENG_OK)
				strbuf_addf(&c->sb, ": %s",
				    engine_status_name(cell->status));
			strbuf_addc(&c->sb, '\n');
		}
	}
	if (text) {
		strbuf_addf(&c->sb, "\n%20.9f seconds time elapsed\n",
		    (double)elapsed / 1e9);
		if (status > 128)
			strbuf_addf(&c->sb, "%20s the command was killed by "
			    "signal %d (%s)\n", "", status - 128,
			    strsignal(status - 128));
		else if (status != 0)
			strbuf_addf(&c->sb, "%20s the command exited %d\n", "",
			    status);
	}
	engine_snapshot_free(snap);
	hvtop_cmd_flush(c);
}

/*
 * The reads the totals start and end with: a read the hypervisor was too
 * busy for (or that failed) is tried again, a few times 20 ms apart, so
 * that the totals span the command's whole life.
 */
static void
hvtop_cmd_settle(struct hvtop_cmd *c)
{
	const struct raw_sample	*rs;
	size_t			 k, tries;
	int			 again;

	for (tries = 0; tries < 8 && !c->failed; tries++) {
		rs = session_raw(c->s);
		again = 0;
		for (k = 0; k < rs->nvalues && !again; k++)
			again = raw_reason(rs->values[k].status) ==
			    RAW_BUSY || raw_reason(rs->values[k].status) ==
			    RAW_FAILED;
		if (!again)
			return;
		session_sleep_until(c->s, session_now(c->s) + 20000000, -1);
		hvtop_cmd_sample(c, 0);
	}
}

/* The command's end ends the loop, with its status + 1. */
static int
hvtop_cmd_over(void *arg)
{
	struct hvtop_cmd	*c = arg;
	int			 status;

	return ((status = hvtop_cmd_reap(c->pid)) >= 0 ? status + 1 : 0);
}

/* Every interval while the command runs, printed with -d.  A source
 * that failed still waits for the command. */
static int
hvtop_cmd_tick(void *arg)
{
	struct hvtop_cmd	*c = arg;

	if (!c->failed)
		hvtop_cmd_sample(c, c->o->interval_set);
	return (0);
}

/* The command ended (SIGCHLD) or a signal came: over() looks. */
static void
hvtop_cmd_woken(void *arg)
{
	(void)arg;
	hvtop_loop_wake_drain();
}

static const struct hvtop_loop_hooks hvtop_cmd_hooks = {
	.over = hvtop_cmd_over,
	.sample = hvtop_cmd_tick,
	.woken = hvtop_cmd_woken,
};

int
hvtop_command(struct session *s, const struct hvtop_opts *o, FILE *fp)
{
	struct hvtop_cmd	 c;
	uint64_t		 t0 = 0;
	int			 status = -1, r;

	memset(&c, 0, sizeof c);
	c.s = s;
	c.o = o;
	c.fp = fp;
	/* Without the loop's pipe the command's end would be seen only at
	 * the next interval, and its time elapsed with it. */
	if (hvtop_loop_wake_fd() == -1) {
		fprintf(stderr, "hvtop: -- %s: no pipe to learn of the "
		    "command's end through\n", o->cmd[0]);
		status = 1;
		goto out;
	}
	hvtop_cmd_signals();
	c.info.source = session_label(s);
	c.info.catalog = session_catalog_label(s);
	c.info.calls = session_calls_word(s);
	c.info.frame = hvtop_frame(s, c.frame, sizeof c.frame);
	c.x = export_new(o->format, session_engine(s), &c.info);
	/* The totals' row says it is no interval. */
	export_with_summary(c.x);
	hvtop_span_new(&c.span, s);
	/* The baseline, then the command. */
	if (hvtop_cmd_sample(&c, 0) != 0) {
		status = 1;
		goto out;
	}
	hvtop_cmd_settle(&c);
	t0 = session_now(s);
	if ((r = hvtop_cmd_start(o->cmd, &c.pid)) != 0) {
		status = r;
		goto out;
	}
	/* The first tick is one from the command's start. */
	status = hvtop_loop_run(s, t0 + hvtop_loop_step(s), &hvtop_cmd_hooks,
	    &c) - 1;
	t0 = session_now(s) - t0;
	if (!c.failed && hvtop_cmd_sample(&c, 0) == 0) {
		hvtop_cmd_settle(&c);
		hvtop_cmd_totals(&c, status, t0);
	}
	if (c.failed)
		status = 1;
out:
	hvtop_span_free(&c.span);
	strbuf_free(&c.sb);
	export_free(c.x);
	return (status);
}
