/*
 * hvtop: a top-like monitor for the IBM PowerVM 24x7 hypervisor counters.
 * This file opens the source the command line names, starts a session on
 * it (src/session/session.h), prints what the session has to say, and runs
 * --list, the batch loop or the terminal interface.  It holds no counter
 * logic of its own.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine.h"
#include "session/session.h"
#include "export/export.h"
#include "hvtop.h"
#include "hvtop-loop.h"
#include "model/raw.h"
#include "source/source.h"
#include "sys/file-out.h"
#include "sys/iowait.h"
#include "ui/ui.h"
#include "util/hverr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static volatile sig_atomic_t hvtop_stop;	/* the signal that stops */
static volatile sig_atomic_t hvtop_loading;	/* nothing to save yet */
static volatile sig_atomic_t hvtop_hup_reloads;	/* -b --serve */
static volatile sig_atomic_t hvtop_reload;	/* SIGHUP came then */

/*
 * A signal that ends the run: note it, and wake the batch loop's sleep
 * through the pipe, whichever thread the signal was delivered to.
 */
static void
hvtop_on_signal(int sig)
{
	/*
	 * A service is told to reload with SIGHUP (systemctl reload): it
	 * never ends a -b --serve run, even one still starting, which
	 * reads its web configuration again once it samples.
	 */
	if (sig == SIGHUP && hvtop_hup_reloads) {
		hvtop_reload = 1;
		hvtop_loop_wake_up();
		return;
	}
	/* Loading the metric files has nothing to close and checks no
	 * flag: the signal ends it as if there were no handler. */
	if (hvtop_loading) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	hvtop_stop = sig;
	/* A write or read that waits (a FIFO nobody reads) ends too. */
	iowait_stop(sig);
	hvtop_loop_wake_up();
}

static void
hvtop_signals(void)
{
	struct sigaction sa;

	hvtop_loop_wake_init();
	(void)iowait_init();
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = hvtop_on_signal;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/*
 * In batch mode a reader that closes the pipe (hvtop -b | head) stops the
 * run as SIGTERM does, so that the recording is closed; main() then dies
 * of the SIGPIPE, as a program writing to a closed pipe does.
 */
static void
hvtop_batch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = hvtop_on_signal;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGPIPE, &sa, NULL);
}

const char *
hvtop_frame(const struct session *s, char *buf, size_t size)
{
	const struct frame_ident	*fi = &session_topology(s)->ident;

	if (!frame_ident_known(fi))
		return (NULL);
	return (frame_ident_mtms(fi, buf, size));
}

/* What the batch loop keeps from one interval to the next. */
struct hvtop_batch {
	struct session		*s;
	const struct hvtop_opts	*o;
	FILE			*fp;
	struct export		*x;
	struct export_info	 info;
	char			 frame[HVTOP_FRAME_MAX];
	struct strbuf		 sb;
	struct strbuf		 news;
	int			 quiet;	/* -b --serve without -o */
	long			 printed;
};

/* One snapshot out: problems to stderr when the output is elsewhere. */
static void
hvtop_batch_one(struct hvtop_batch *b, const struct engine_snapshot *snap)
{
	int	 aside = b->fp != stdout || b->quiet;
	char	*line, *nl;

	if (snap->seq == 0)
		return;
	if (snap->error[0] != '\0' && aside)
		fprintf(stderr, "hvtop: interval %llu: %s\n",
		    (unsigned long long)snap->seq, snap->error);
	if (aside) {
		export_news(b->x, snap, &b->news);
		for (line = b->news.s; line != NULL && *line != '\0';
		    line = nl + 1) {
			nl = strchr(line, '\n');
			fprintf(stderr, "hvtop: interval %llu: %.*s\n",
			    (unsigned long long)snap->seq, (int)(nl - line),
			    line);
		}
		strbuf_reset(&b->news);
	}
	if (!b->quiet)
		export_snapshot(b->x, snap, session_wall(b->s, snap->now),
		    &b->sb);
	b->printed++;
}

/*
 * One interval: sample, follow a new engine, print.  0 to go on, 1 when
 * the run ends well (a replay played to its end, a reader gone), or an
 * exit status + 1.
 */
static int
hvtop_batch_step(void *arg)
{
	struct hvtop_batch	*b = arg;
	struct session_result	 res;
	char			*cause = NULL;

	if (session_sample(b->s, &res, &cause) != 0) {
		/* A replay that has played every sample is done. */
		if (!res.done)
			fprintf(stderr, "hvtop: %s\n", cause);
		free(cause);
		return (res.done ? 1 : 2);
	}
	if (res.changed & SESSION_CHANGED_ENGINE) {
		/* A new engine: the same output goes on. */
		b->info.catalog = session_catalog_label(b->s);
		export_rebind(b->x, session_engine(b->s), &b->info);
		if (export_note(b->x) != NULL)
			fprintf(stderr, "hvtop: %s\n", export_note(b->x));
	}
	hvtop_batch_one(b, res.snap);
	session_recycle(b->s, res.snap);
	if (hvtop_loop_flush(b->fp, &b->sb) != 0) {
		/* A reader that went away ends the run quietly. */
		if (errno == EPIPE || hvtop_stop != 0)
			return (1);
		fprintf(stderr, "hvtop: %s: %s\n", b->fp == stdout ?
		    "writing standard output" : b->o->output,
		    strerror(errno));
		return (2);
	}
	return (b->o->count > 0 && b->printed >= b->o->count ? 1 : 0);
}

/* A signal ends the run. */
static int
hvtop_batch_over(void *arg)
{
	(void)arg;
	return (hvtop_stop != 0);
}

/* SIGHUP in a -b --serve run: read --web-config again (a bad one
 * leaves the endpoint as it was, and says why), or say that there is
 * nothing to read; serving goes on either way. */
static void
hvtop_batch_woken(void *arg)
{
	struct hvtop_batch	*b = arg;
	char			*cause = NULL;

	/* Drained first: a SIGHUP from here on wakes the next sleep. */
	hvtop_loop_wake_drain();
	if (hvtop_stop || !hvtop_reload)
		return;
	hvtop_reload = 0;
	if (b->o->web_config == NULL)
		fprintf(stderr, "hvtop: SIGHUP: nothing to read again "
		    "(no --web-config); still serving\n");
	else if (session_web_reload(b->s, &cause) != 0) {
		fprintf(stderr, "hvtop: SIGHUP: %s; the web configuration in "
		    "use is unchanged\n", cause);
		free(cause);
	} else
		fprintf(stderr, "hvtop: SIGHUP: %s read again\n",
		    b->o->web_config);
}

static const struct hvtop_loop_hooks hvtop_batch_hooks = {
	.over = hvtop_batch_over,
	.sample = hvtop_batch_step,
	.woken = hvtop_batch_woken,
};

/*
 * Sample every interval and print each one, -n times (forever without
 * -n).  The first sample only sets the baselines.  Returns the exit status.
 */
static int
hvtop_batch(struct session *s, const struct hvtop_opts *o, FILE *fp)
{
	struct session_replay	 rp;
	struct hvtop_batch	 b;
	char			*fail;
	int			 status = 0, r;

	hvtop_batch_signals();
	memset(&b, 0, sizeof b);
	b.s = s;
	b.o = o;
	b.fp = fp;
	b.quiet = o->serve != NULL && o->output == NULL;
	b.info.source = session_label(s);
	b.info.catalog = session_catalog_label(s);
	b.info.calls = session_calls_word(s);
	b.info.frame = hvtop_frame(s, b.frame, sizeof b.frame);
	b.x = export_new(o->format, session_engine(s), &b.info);
	r = hvtop_loop_run(s, session_now(s), &hvtop_batch_hooks, &b);
	status = r > 1 ? r - 1 : 0;
	if ((fail = session_record_failure(s)) != NULL) {
		fprintf(stderr, "hvtop: %s\n", fail);
		free(fail);
		status = 1;
	}
	/* What could be read was printed; the damage makes it a failure. */
	if (status == 0 && session_replay(s, &rp) && rp.damaged) {
		fprintf(stderr, "hvtop: the recording is damaged (see above); "
		    "the intervals that could be read were printed\n");
		status = 1;
	}
	strbuf_free(&b.sb);
	strbuf_free(&b.news);
	export_free(b.x);
	return (status);
}

/* ---- starting ------------------------------------------------------ */

/* clock=virtual in the -O/--sim list, the last clock= winning as every
 * other key does. */
static int
hvtop_virtual_clock(const char *args)
{
	const char	*p = args;
	int		 virt = 0;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, "clock=", 6) == 0)
			virt = strncmp(p + 6, "virtual", 7) == 0 &&
			    (p[13] == ',' || p[13] == '\0');
		if ((p = strchr(p, ',')) != NULL)
			p++;
	}
	return (virt);
}

/* The source the command line names, with its arguments. */
static int
hvtop_open_source(const struct hvtop_opts *o, struct source **src,
    char **cause)
{
	struct strbuf	 args = { 0 };
	int		 error;

	if (o->source_args != NULL)
		strbuf_adds(&args, o->source_args);
	if (o->catalog != NULL)
		strbuf_addf(&args, "%scatalog=%s", args.len ? "," : "",
		    o->catalog);
	if (o->pmu != NULL)
		strbuf_addf(&args, "%spmu=%s", args.len ? "," : "", o->pmu);
	error = source_open(o->source, args.s, o->sysfs_root, src, cause);
	strbuf_free(&args);
	return (error);
}

static void
hvtop_session_opts(const struct hvtop_opts *o, struct source *src,
    struct session_opts *so)
{
	memset(so, 0, sizeof *so);
	so->src = src;
	so->virtual_clock = hvtop_virtual_clock(o->source_args);
	so->batch = o->batch;
	so->interval = o->interval;
	so->interval_set = o->interval_set;
	so->replay_speed = o->replay_speed;
	so->groups = o->groups;
	so->ngroups = o->ngroups;
	so->events = o->events;
	so->nevents = o->nevents;
	so->metric_files = o->metric_files;
	so->nmetric_files = o->nmetric_files;
	so->consts = o->consts;
	so->nconsts = o->nconsts;
	so->record = o->record;
	so->ring = o->ring;
	so->serve = o->serve;
	so->web_config = o->web_config;
	so->serve_vcpus = o->serve_vcpus;
}

/* Print what the session said since *shown; a failure last, as the exit
 * status it makes: a usage error 2, anything else 1. */
static int
hvtop_said(const struct session *s, size_t *shown, int error, char *cause)
{
	for (; *shown < session_nnotices(s); (*shown)++)
		fprintf(stderr, "hvtop: %s\n", session_notice(s, *shown));
	if (error == 0)
		return (0);
	fprintf(stderr, "hvtop: %s\n", cause != NULL ? cause :
	    "cannot start");
	free(cause);
	return (error == -HV_EUSAGE ? 2 : 1);
}

/* Open the source and start the session on it (for --list, only as far
 * as the catalog and the metrics).  Returns the exit status. */
static int
hvtop_start(const struct hvtop_opts *o, struct session **s)
{
	struct session_opts	 so;
	struct source		*src;
	struct strbuf		 sb;
	size_t			 shown = 0, i;
	char			*cause = NULL;
	int			 error;

	*s = NULL;
	/* A virtual clock never waits: serving forever would be a busy
	 * loop of intervals no scraper can follow. */
	if (o->batch && o->serve != NULL && o->count < 0 &&
	    hvtop_virtual_clock(o->source_args)) {
		fprintf(stderr, "hvtop: --serve with clock=virtual needs -n "
		    "COUNT: a virtual clock does not wait between intervals\n");
		return (2);
	}
	/* Said before -o is opened, so that the refusal leaves it be. */
	if (o->ncmd > 0 && hvtop_virtual_clock(o->source_args)) {
		fprintf(stderr, "hvtop: -- %s: a command runs in real time; "
		    "leave clock=virtual out\n", o->cmd[0]);
		return (2);
	}
	if ((error = hvtop_open_source(o, &src, &cause)) != 0) {
		fprintf(stderr, "hvtop: %s\n", cause);
		free(cause);
		/* Options the source cannot use (an unknown --sim key, a
		 * value out of range, one a replay cannot follow). */
		return (error == -HV_EUSAGE ? 2 : 1);
	}
	hvtop_session_opts(o, src, &so);
	hvtop_loading = 1;
	error = session_open(s, &so, &cause);
	hvtop_loading = 0;
	if (error != 0)
		return (hvtop_said(*s, &shown, error, cause));
	hvtop_said(*s, &shown, 0, NULL);
	/*
	 * The screens show these themselves; elsewhere they go to stderr,
	 * in one write: stderr is unbuffered, and a file of many metrics
	 * can have as many problems.
	 */
	memset(&sb, 0, sizeof sb);
	for (i = 0; (o->batch || o->list != NULL) &&
	    i < session_nproblems(*s); i++)
		strbuf_addf(&sb, "hvtop: %s\n", session_problem(*s, i));
	hvtop_loop_flush(stderr, &sb);
	strbuf_free(&sb);
	if (o->list != NULL)
		return (0);
	error = session_start(*s, &cause);
	return (hvtop_said(*s, &shown, error, cause));
}

/* Once the recording is closed, end as the signal that stopped the run
 * (SIGTERM, SIGINT, SIGHUP, a closed pipe) says: the exit status is the
 * signal's. */
static void
hvtop_die_of_stop(void)
{
	if (hvtop_stop == 0)
		return;
	fflush(NULL);
	signal(hvtop_stop, SIG_DFL);
	raise(hvtop_stop);
}

/* -o opened with the rest, before the change of user, and put in place
 * at once: it is written as the run goes.  Returns the exit status. */
static int
hvtop_open_output(const struct hvtop_opts *o, struct file_out *out,
    FILE **fp)
{
	char	*cause = NULL;

	if (o->batch && o->list == NULL && o->report == NULL &&
	    o->output != NULL && strcmp(o->output, "-") != 0 &&
	    (file_out_open(o->output, 0, out, &cause) != 0 ||
	    file_out_place(out, &cause) != 0 ||
	    (*fp = file_out_fp(out, &cause)) == NULL)) {
		fprintf(stderr, "hvtop: %s\n", cause);
		free(cause);
		file_out_abort(out);
		return (1);
	}
	return (0);
}

/* The run the options ask for, to its end.  Returns the exit status. */
static int
hvtop_run(struct session *s, const struct hvtop_opts *o, FILE *fp)
{
	struct ui_opts	 uo;

	if (o->list != NULL)
		return (hvtop_list(s, o->list, o->pattern, stdout));
	if (o->report != NULL)
		return (hvtop_report(s, o));
	if (o->ncmd > 0)
		return (hvtop_command(s, o, fp));
	if (o->batch)
		return (hvtop_batch(s, o, fp));
	uo.interval_set = o->interval_set;
	uo.picked = o->ngroups > 0 || o->nevents > 0;
	uo.no_color = o->no_color;
	return (ui_main(s, &uo));
}

int
main(int argc, char **argv)
{
	struct hvtop_opts	 o;
	struct session		*s;
	struct hvtop_user	 user;
	struct file_out		 out = { .fd = -1 };
	FILE			*fp = stdout;
	char			*cause = NULL;
	int			 status;

	hvtop_parse(&o, argc, argv);
	if (o.check)
		return (hvtop_check(&o));
	hvtop_check_record(&o);
	hvtop_signals();
	/* As top does on a terminal that cannot hold a screen: print. */
	if (!o.batch && o.list == NULL && o.report == NULL &&
	    !ui_capable(&cause)) {
		fprintf(stderr, "hvtop: %s: batch output instead of the "
		    "screens (-b); Ctrl-C ends it\n", cause);
		free(cause);
		cause = NULL;
		o.batch = 1;
	}
	/* Without --serve, SIGHUP ends a batch run as SIGTERM does: as for
	 * top or perf stat, there is nothing it could read again.  A
	 * command's run passes it on to the command. */
	hvtop_hup_reloads = o.batch && o.serve != NULL && o.ncmd == 0;

	/* Before anything is opened: a user hvtop cannot become is no
	 * reason to touch the counters. */
	memset(&user, 0, sizeof user);
	if (o.user != NULL && hvtop_user_lookup(o.user, &user, &cause) != 0) {
		fprintf(stderr, "hvtop: %s\n", cause);
		free(cause);
		hvtop_free_opts(&o);
		return (1);
	}
	/* A signal while it starts ends the run before it runs. */
	if ((status = hvtop_start(&o, &s)) != 0 || hvtop_stop != 0)
		goto out;
	if ((status = hvtop_open_output(&o, &out, &fp)) != 0)
		goto out;
	if (user.name != NULL) {
		if (hvtop_user_drop(&user, &cause) != 0) {
			fprintf(stderr, "hvtop: %s\n", cause);
			free(cause);
			cause = NULL;
			status = 1;
			file_out_abort(&out);
			goto out;
		}
		fprintf(stderr, "hvtop: running as %s (uid %lu, gid %lu) "
		    "from now on\n", user.name, (unsigned long)user.uid,
		    (unsigned long)user.gid);
	}
	status = hvtop_run(s, &o, fp);
	if (out.kind != FILE_OUT_NONE && file_out_commit(&out, &cause) != 0) {
		fprintf(stderr, "hvtop: %s\n", cause);
		free(cause);
		cause = NULL;
		status = 1;
	}
	/* A source reopened after the change (a new catalog) was opened
	 * without root: say so beside its error. */
	if (status != 0 && user.name != NULL)
		fprintf(stderr, "hvtop: note: hvtop ran as %s (--user) since "
		    "it started; what it opened again later, it opened "
		    "without root's rights\n", user.name);
out:
	if (session_close(s, &cause) != 0) {
		fprintf(stderr, "hvtop: %s\n", cause);
		free(cause);
	}
	hvtop_user_free(&user);
	hvtop_free_opts(&o);
	hvtop_die_of_stop();
	return (status);
}
