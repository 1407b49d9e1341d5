/*
 * hvtop: a top-like monitor for the IBM PowerVM 24x7 hypervisor counters.
 * This file parses the command line, opens a source, builds the selection
 * and the engine, and runs either the batch loop or the terminal
 * interface.  It holds no counter logic of its own.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "engine/selection.h"
#include "export/export.h"
#include "hvtop.h"
#include "serve/serve.h"
#include "source/source-replay.h"
#include "source/source.h"
#include "util/clock.h"
#include "util/file.h"
#include "util/hverr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static volatile sig_atomic_t hvtop_stop;	/* the signal that stops */
static int	hvtop_wake[2] = { -1, -1 };	/* written when it comes */

static void
usage(FILE *fp)
{
	fprintf(fp,
"usage: hvtop [-bhV] [-d secs] [-n count] [-o FILE] [--format text|csv|json]\n"
"             [--source auto|perf|sim|replay:FILE] [-O KEY=VAL,...]...\n"
"             [--catalog FILE] [-g GROUP[@chip|@core|@vcpu|@cpu][:LIST]]...\n"
"             [-e EVENT[@...][:LIST]]... [-m FILE]... [--const NAME=VALUE]...\n"
"             [--pmu NAME] [--sysfs-root DIR]\n"
"             [-w FILE [--force]] [-r FILE] [--replay-speed X]\n"
"             [--serve ADDR:PORT]\n"
"             [--list [events|groups|formulas] [PATTERN]]\n");
}

static void
hvtop_usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "hvtop: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	usage(stderr);
	exit(2);
}

/*
 * A signal that ends the run: note it, and wake the batch loop's sleep
 * through the pipe, whichever thread the signal was delivered to.
 */
static void
hvtop_on_signal(int sig)
{
	ssize_t	 n = 0;
	int	 saved = errno;

	hvtop_stop = sig;
	/* A full pipe holds a wake-up already. */
	if (hvtop_wake[1] != -1)
		n = write(hvtop_wake[1], "", 1);
	(void)n;
	errno = saved;
}

static void
hvtop_signals(void)
{
	struct sigaction sa;

	if (pipe2(hvtop_wake, O_CLOEXEC | O_NONBLOCK) == -1)
		hvtop_wake[0] = hvtop_wake[1] = -1;
	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = hvtop_on_signal;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/*
 * -w FILE never writes over the recording being replayed (the same file
 * under any name) and, without --force, over any existing file: a
 * recording is not lost to a slip of the keyboard.  Devices and pipes
 * (/dev/null, a FIFO) are not files that can be lost.
 */
static void
hvtop_check_record(const struct hvtop_opts *o)
{
	struct stat	 w, r;
	const char	*replay;

	if (o->record == NULL || stat(o->record, &w) == -1)
		return;
	if (strncmp(o->source, "replay:", 7) == 0) {
		replay = o->source + 7;
		if (stat(replay, &r) == 0 && r.st_dev == w.st_dev &&
		    r.st_ino == w.st_ino)
			hvtop_usage_error("-w %s: that is the recording being "
			    "replayed; write the new one under another name",
			    o->record);
	}
	if (S_ISREG(w.st_mode) && !o->force)
		hvtop_usage_error("-w %s: the file exists; give another "
		    "name, or --force to write over it", o->record);
}

enum {
	OPT_SOURCE = 256,
	OPT_SIM,
	OPT_CATALOG,
	OPT_FORMAT,
	OPT_LIST,
	OPT_CONST,
	OPT_PMU,
	OPT_SYSFS_ROOT,
	OPT_NO_COLOR,
	OPT_REPLAY_SPEED,
	OPT_SERVE,
	OPT_FORCE,
};

static void
hvtop_add(char ***v, size_t *n, const char *s)
{
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	(*v)[(*n)++] = xstrdup(s);
}

static int
hvtop_list_kind(const char *s)
{
	return (strcmp(s, "events") == 0 || strcmp(s, "groups") == 0 ||
	    strcmp(s, "formulas") == 0);
}

/* --const NAME=VALUE: a name and a finite number, or exit 2. */
static void
hvtop_parse_const(const char *arg)
{
	const char	*eq;
	char		*end;
	double		 v;

	if ((eq = strchr(arg, '=')) == NULL || eq == arg)
		hvtop_usage_error("--const %s: expected NAME=VALUE", arg);
	errno = 0;
	v = strtod(eq + 1, &end);
	if (end == eq + 1 || *end != '\0')
		hvtop_usage_error("--const %s: the value is not a number", arg);
	if (!isfinite(v) || errno == ERANGE)
		hvtop_usage_error("%s", xasprintf("--const %s: the value must "
		    "be a finite number, not %s", arg, isnan(v) ? "NaN" :
		    errno == ERANGE ? "one out of range" : "infinity"));
}

static void
hvtop_parse(struct hvtop_opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "batch",	no_argument,		NULL, 'b' },
		{ "delay",	required_argument,	NULL, 'd' },
		{ "iterations",	required_argument,	NULL, 'n' },
		{ "output",	required_argument,	NULL, 'o' },
		{ "group",	required_argument,	NULL, 'g' },
		{ "event",	required_argument,	NULL, 'e' },
		{ "metrics",	required_argument,	NULL, 'm' },
		{ "help",	no_argument,		NULL, 'h' },
		{ "version",	no_argument,		NULL, 'V' },
		{ "source",	required_argument,	NULL, OPT_SOURCE },
		{ "sim",	required_argument,	NULL, OPT_SIM },
		{ "source-opt",	required_argument,	NULL, 'O' },
		{ "catalog",	required_argument,	NULL, OPT_CATALOG },
		{ "format",	required_argument,	NULL, OPT_FORMAT },
		{ "list",	optional_argument,	NULL, OPT_LIST },
		{ "const",	required_argument,	NULL, OPT_CONST },
		{ "pmu",	required_argument,	NULL, OPT_PMU },
		{ "sysfs-root",	required_argument,	NULL, OPT_SYSFS_ROOT },
		{ "no-color",	no_argument,		NULL, OPT_NO_COLOR },
		{ "write",	required_argument,	NULL, 'w' },
		{ "replay",	required_argument,	NULL, 'r' },
		{ "replay-speed", required_argument, NULL, OPT_REPLAY_SPEED },
		{ "serve",	required_argument,	NULL, OPT_SERVE },
		{ "force",	no_argument,		NULL, OPT_FORCE },
		{ NULL,		0,			NULL, 0 }
	};
	/* getopt's own messages say "hvtop:", not the path it ran as. */
	static char	 progname[] = "hvtop";
	struct serve_addr sa;
	char	*end, *cause, **av;
	const char *dot;
	int	 ch, list_bare = 0;

	memset(o, 0, sizeof *o);
	o->delay = 1.0;
	o->count = -1;
	o->format = -1;
	o->source = "auto";
	o->sysfs_root = "/sys";
	av = xcalloc((size_t)argc + 1, sizeof *av);
	memcpy(av, argv, (size_t)argc * sizeof *av);
	av[0] = progname;
	while ((ch = getopt_long(argc, av, "bd:e:g:hm:n:O:o:r:Vw:", longopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'b':
			o->batch = 1;
			break;
		case 'd':
			errno = 0;
			o->delay = strtod(optarg, &end);
			o->delay_set = 1;
			if (errno != 0 || *end != '\0' || !(o->delay >= 0.01) ||
			    o->delay > 86400)
				hvtop_usage_error("-d %s: the interval must "
				    "be a number of seconds from 0.01 to "
				    "86400", optarg);
			break;
		case 'n':
			errno = 0;
			o->count = strtol(optarg, &end, 10);
			if (*end != '\0' || end == optarg)
				hvtop_usage_error("-n %s: expected a count of "
				    "at least 1", optarg);
			if (errno == ERANGE && o->count > 0)
				hvtop_usage_error("%s", xasprintf("-n %s: out "
				    "of range: the largest count is %ld (leave "
				    "-n out to run until stopped)", optarg,
				    LONG_MAX));
			if (errno != 0 || o->count < 1)
				hvtop_usage_error("-n %s: expected a count of "
				    "at least 1", optarg);
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'g':
			hvtop_add(&o->groups, &o->ngroups, optarg);
			break;
		case 'e':
			hvtop_add(&o->events, &o->nevents, optarg);
			break;
		case 'm':
			hvtop_add(&o->metric_files, &o->nmetric_files, optarg);
			break;
		case 'h':
			usage(stdout);
			exit(0);
		case 'V':
			printf("hvtop %s\n", PACKAGE_VERSION);
			exit(0);
		case OPT_SOURCE:
			o->source = optarg;
			break;
		case OPT_SIM:
		case 'O':
			/* Repeatable: later options add to earlier ones. */
			end = o->source_args;
			o->source_args = end == NULL ? xstrdup(optarg) :
			    xasprintf("%s,%s", end, optarg);
			free(end);
			break;
		case OPT_CATALOG:
			o->catalog = optarg;
			break;
		case OPT_FORMAT:
			if ((o->format = export_format_parse(optarg)) < 0)
				hvtop_usage_error("--format %s: use text, csv "
				    "or json", optarg);
			break;
		case OPT_LIST:
			/* --list=KIND; --list KIND is looked at below. */
			o->list = optarg;
			list_bare = optarg == NULL;
			if (optarg != NULL && !hvtop_list_kind(optarg))
				hvtop_usage_error("--list %s: use events, "
				    "groups or formulas (or nothing for all "
				    "three)", optarg);
			break;
		case OPT_CONST:
			hvtop_parse_const(optarg);
			hvtop_add(&o->consts, &o->nconsts, optarg);
			break;
		case OPT_PMU:
			o->pmu = optarg;
			break;
		case OPT_SYSFS_ROOT:
			o->sysfs_root = optarg;
			break;
		case OPT_NO_COLOR:
			o->no_color = 1;
			break;
		case 'w':
			o->record = optarg;
			break;
		case OPT_FORCE:
			o->force = 1;
			break;
		case 'r':
			free(o->replay_spec);
			o->replay_spec = xasprintf("replay:%s", optarg);
			o->source = o->replay_spec;
			break;
		case OPT_REPLAY_SPEED:
			errno = 0;
			o->replay_speed = strtod(optarg, &end);
			if (errno != 0 || *end != '\0' ||
			    !(o->replay_speed > 0) || o->replay_speed > 1e6)
				hvtop_usage_error("--replay-speed %s: expected "
				    "a factor above 0 (2 plays twice as fast)",
				    optarg);
			break;
		case OPT_SERVE:
			if (serve_addr_parse(optarg, &sa, &cause) != 0)
				hvtop_usage_error("--serve %s", cause);
			o->serve = optarg;
			break;
		default:
			usage(stderr);
			exit(2);
		}
	}
	if (o->replay_speed > 0 && strncmp(o->source, "replay:", 7) != 0)
		hvtop_usage_error("%s", "--replay-speed: only a replay "
		    "(-r FILE) has a speed");
	if (list_bare) {
		/* The words that follow: [KIND] [PATTERN]. */
		if (optind < argc && hvtop_list_kind(av[optind]))
			o->list = av[optind++];
		else
			o->list = "all";
	}
	if (o->list != NULL && optind < argc)
		o->pattern = av[optind++];
	if (optind != argc)
		hvtop_usage_error("unexpected argument '%s'", av[optind]);
	free(av);
	if (o->format < 0 && o->output != NULL && strcmp(o->output, "-") != 0 &&
	    (dot = strrchr(o->output, '.')) != NULL &&
	    strchr(dot, '/') == NULL &&
	    export_format_from_path(o->output) < 0)
		hvtop_usage_error("%s", (end = xasprintf("-o %s: unknown "
		    "suffix '%s': use .txt, .csv or .json, or give --format",
		    o->output, dot)));
	if (o->format < 0)
		o->format = o->output != NULL ?
		    export_format_from_path(o->output) : EXPORT_TEXT;
	if (o->format < 0)
		o->format = EXPORT_TEXT;
	if (o->output != NULL && o->list == NULL)
		o->batch = 1;
	if (!o->batch && o->list == NULL && !isatty(STDOUT_FILENO))
		o->batch = 1;
}

static void
hvtop_free_opts(struct hvtop_opts *o)
{
	size_t	 i;

	for (i = 0; i < o->ngroups; i++)
		free(o->groups[i]);
	for (i = 0; i < o->nevents; i++)
		free(o->events[i]);
	for (i = 0; i < o->nmetric_files; i++)
		free(o->metric_files[i]);
	for (i = 0; i < o->nconsts; i++)
		free(o->consts[i]);
	free(o->groups);
	free(o->events);
	free(o->metric_files);
	free(o->consts);
	free(o->replay_spec);
	free(o->source_args);
}

/* Write all of sb to fp; 0 or -1 (errno set). */
static int
hvtop_flush(FILE *fp, struct strbuf *sb)
{
	if (sb->len > 0 && fwrite(sb->s, 1, sb->len, fp) != sb->len)
		return (-1);
	strbuf_reset(sb);
	return (fflush(fp) == 0 ? 0 : -1);
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

/*
 * Sample every interval and print each one, -n times (forever without
 * -n).  The first sample only sets the baselines.  Returns the exit status.
 */
static int
hvtop_batch(struct hvtop *h)
{
	struct engine_snapshot	*snap;
	struct raw_sample	 rs;
	struct strbuf		 sb = { 0 }, news = { 0 };
	struct export		*x;
	struct export_info	 info;
	FILE			*fp = stdout;
	uint64_t		 next, step;
	unsigned		 gen;
	char			*cause = NULL, *line;
	long			 printed = 0;
	int			 status = 0, quiet;

	hvtop_batch_signals();
	if (h->opts.output != NULL &&
	    strcmp(h->opts.output, "-") != 0 &&
	    (fp = fopen(h->opts.output, "w")) == NULL) {
		fprintf(stderr, "hvtop: %s: %s\n", h->opts.output,
		    strerror(errno));
		return (1);
	}
	/* -b --serve without -o: the endpoint is the output. */
	quiet = h->serve != NULL && h->opts.output == NULL;
	info.source = h->src->label;
	info.catalog = h->catalog_label;
	info.calls = hvtop_calls_word(h);
	x = export_new(h->opts.format, h->engine, &info);
	gen = h->generation;
	memset(&rs, 0, sizeof rs);
	rs.values = xcalloc(h->sel.ncounters + 1, sizeof *rs.values);
	rs.nvalues = h->sel.ncounters;
	step = (uint64_t)llround(h->opts.delay * 1e9);
	next = clock_now(&h->clock);
	while (!hvtop_stop) {
		if (hvtop_sample(h, &rs, &snap, &cause) != 0) {
			/* A replay that has played every sample is done. */
			if (source_replay_done(h->src)) {
				free(cause);
				break;
			}
			fprintf(stderr, "hvtop: %s\n", cause);
			free(cause);
			status = 1;
			break;
		}
		if (gen != h->generation) {
			/* A new engine: the same output goes on. */
			info.catalog = h->catalog_label;
			export_rebind(x, h->engine, &info);
			if (export_note(x) != NULL)
				fprintf(stderr, "hvtop: %s\n", export_note(x));
			gen = h->generation;
		}
		/* Problems also go to stderr when the output is a file. */
		if (snap->seq > 0 && snap->error[0] != '\0' &&
		    (fp != stdout || quiet))
			fprintf(stderr, "hvtop: interval %llu: %s\n",
			    (unsigned long long)snap->seq, snap->error);
		if (snap->seq > 0 && (fp != stdout || quiet)) {
			export_news(x, snap, &news);
			for (line = news.s; line != NULL && *line != '\0';
			    line = strchr(line, '\n') + 1)
				fprintf(stderr, "hvtop: interval %llu: %.*s\n",
				    (unsigned long long)snap->seq,
				    (int)(strchr(line, '\n') - line), line);
			strbuf_reset(&news);
		}
		if (snap->seq > 0) {
			if (!quiet)
				export_snapshot(x, snap,
				    clock_wall(&h->clock, snap->now), &sb);
			printed++;
		}
		hvtop_recycle(h, snap);
		if (hvtop_flush(fp, &sb) != 0) {
			/* A reader that went away ends the run quietly. */
			if (errno == EPIPE || hvtop_stop != 0)
				break;
			fprintf(stderr, "hvtop: writing output: %s\n",
			    strerror(errno));
			status = 1;
			break;
		}
		if (h->opts.count > 0 && printed >= h->opts.count)
			break;
		next += step;
		clock_sleep_until_fd(&h->clock, next, hvtop_wake[0]);
	}
	if (fp != stdout && fclose(fp) != 0) {
		fprintf(stderr, "hvtop: %s: %s\n", h->opts.output,
		    strerror(errno));
		status = 1;
	}
	/* What could be read was printed; the damage makes it a failure. */
	if (status == 0 && source_replay_damaged(h->src)) {
		fprintf(stderr, "hvtop: the recording is damaged (see above); "
		    "the intervals that could be read were printed\n");
		status = 1;
	}
	free(rs.values);
	strbuf_free(&sb);
	strbuf_free(&news);
	export_free(x);
	return (status);
}

int
main(int argc, char **argv)
{
	struct hvtop	 h;
	int		 status;

	memset(&h, 0, sizeof h);
	hvtop_parse(&h.opts, argc, argv);
	hvtop_check_record(&h.opts);
	hvtop_signals();

	if ((status = hvtop_setup(&h)) != 0)
		goto out;
	if (h.opts.list != NULL)
		status = hvtop_list(&h, stdout);
	else if (h.opts.batch)
		status = hvtop_batch(&h);
	else
		status = hvtop_interactive(&h);
out:
	hvtop_teardown(&h);
	hvtop_free_opts(&h.opts);
	if (hvtop_stop == SIGPIPE) {
		/* The recording is closed; end as the closed pipe says. */
		fflush(NULL);
		signal(SIGPIPE, SIG_DFL);
		raise(SIGPIPE);
	}
	return (status);
}
