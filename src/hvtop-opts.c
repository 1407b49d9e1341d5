/*
 * hvtop's command line: one table of options, each with what it sets,
 * from which getopt_long()'s tables are made.  Usage errors exit 2 here
 * with a one-line reason and the usage; nothing is opened or read.
 */
#include "config.h"

#include <sys/stat.h>

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export/export.h"
#include "hvtop.h"
#include "record/record-ring.h"
#include "serve/serve.h"
#include "util/xalloc.h"

#define HVTOP_LONG_BASE	256	/* getopt values of long-only options */

static void
usage(FILE *fp)
{
	fprintf(fp,
"usage: hvtop [-bhV] [-d secs] [-n count] [-o FILE] [--format text|csv|json]\n"
"             [--source auto|perf|sim|replay:FILE] [-O KEY=VAL,...]...\n"
"             [--catalog FILE]\n"
"             [-g GROUP[@chip|@core|@vcpu|@lpar|@cpu][:LIST]]...\n"
"             [-e EVENT[@...][:LIST]]... [-m FILE]... [--const NAME=VALUE]...\n"
"             [--pmu NAME] [--sysfs-root DIR]\n"
"             [-w FILE [--force] | -w DIR --ring-size SIZE]\n"
"             [-r FILE | -r DIR [--from T] [--to T]] [--replay-speed X]\n"
"             [--serve ADDR:PORT [--user NAME] [--web-config FILE]\n"
"              [--serve-vcpus]]\n"
"             [--list [events|groups|formulas] [PATTERN]]\n"
"       hvtop --check [--source auto|perf|sim] [--sysfs-root DIR]\n"
"       hvtop -b [-d secs] [-o FILE] [--format ...] [-w FILE] [-g ...]...\n"
"             -- COMMAND [ARGS]\n"
"       hvtop report [-n count] [-m FILE]... [--const NAME=VALUE]...\n"
"             FILE.hvr|DIR [--from T] [--to T] -o PAGE.html\n");
}

/* -h: the usage, then the options people use most, one line each. */
static void
help(FILE *fp)
{
	usage(fp);
	fprintf(fp, "\n"
"  -b, --batch            print each interval instead of the screens\n"
"  -d, --delay SECS       the interval (0.01 to 86400, default 1)\n"
"  -n, --iterations N     stop after N intervals\n"
"  -o, --output FILE      batch output to FILE (.txt, .csv, .json)\n"
"      --format FMT       text, csv or json\n"
"  -g, --group GROUP      a catalog group, on all or some chips or cores\n"
"                         (GROUP@chip:0-1, GROUP@core:0,3), or per vcpu\n"
"                         of the frame's partitions (GROUP@lpar:1-3)\n"
"  -e, --event EVENT      one event (EVENT@chip:0, hv_24x7/EVENT,chip=0/)\n"
"  -m, --metrics FILE     derived metrics (PAPI CSV or perf's JSON)\n"
"      --const NAME=VAL   a constant the formulas use (PB_Freq=2e9)\n"
"      --list [KIND] [PATTERN]\n"
"                         events, groups or formulas, like perf list\n"
"      --check            what this partition can see, and the fix for\n"
"                         what it cannot (exit 1)\n"
"      --source SRC       auto, perf, sim or replay:FILE\n"
"      --sim KEY=VAL,...  the simulated frame (cores=, seed=, catalog=,\n"
"                         clock=virtual, faults= ...); same as -O\n"
"      --catalog FILE     the catalog the simulated frame serves\n"
"  -w, --write FILE       record the run (--force to write over FILE)\n"
"      --ring-size SIZE   -w names a directory kept within SIZE (K, M, G)\n"
"  -r, --replay FILE      replay a recording\n"
"      --from T, --to T   -r DIR: the window of the ring (ISO 8601 UTC,\n"
"                         or -1h, -30m back from its last sample)\n"
"      --serve ADDR:PORT  serve OpenMetrics for Prometheus\n"
"      --user NAME        started as root: serve as NAME once the counters\n"
"                         are open\n"
"      --web-config FILE  TLS and Basic auth for --serve (SIGHUP reloads)\n"
"      --serve-vcpus      serve partitions per virtual processor, not summed\n"
"      --no-color         draw the screens without colour\n"
"  -h, --help             this help\n"
"  -V, --version          the version\n"
"  -- COMMAND [ARGS]      run COMMAND and count over its life, like\n"
"                         perf stat; exits with its status\n"
"\n"
"See hvtop(1) for every option, the keys and the screens.\n");
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

/* ---- what each option sets ----------------------------------------- */

struct hvtop_option {
	const char	*name;		/* --name */
	int		 ch;		/* -c, or 0 for a long name only */
	int		 has_arg;
	void		(*set)(struct hvtop_opts *, const struct hvtop_option *,
			    const char *);
	size_t		 off;		/* the field set, for the generic */
	size_t		 noff;		/* a list's count */
};

#define HVTOP_FIELD(o, off, type)	((type *)(void *)((char *)(o) + (off)))

static void
hvtop_set_flag(struct hvtop_opts *o, const struct hvtop_option *op,
    const char *arg)
{
	(void)arg;
	*HVTOP_FIELD(o, op->off, int) = 1;
}

static void
hvtop_set_string(struct hvtop_opts *o, const struct hvtop_option *op,
    const char *arg)
{
	*HVTOP_FIELD(o, op->off, const char *) = arg;
}

static void
hvtop_add(char ***v, size_t *n, const char *s)
{
	*v = xreallocarray(*v, *n + 1, sizeof **v);
	(*v)[(*n)++] = xstrdup(s);
}

static void
hvtop_set_list(struct hvtop_opts *o, const struct hvtop_option *op,
    const char *arg)
{
	hvtop_add(HVTOP_FIELD(o, op->off, char **),
	    HVTOP_FIELD(o, op->noff, size_t), arg);
}

static void
hvtop_set_delay(struct hvtop_opts *o, const struct hvtop_option *op,
    const char *arg)
{
	char	*end;

	(void)op;
	errno = 0;
	o->delay = strtod(arg, &end);
	o->delay_set = 1;
	if (errno != 0 || *end != '\0' || !(o->delay >= 0.01) ||
	    o->delay > 86400)
		hvtop_usage_error("-d %s: the interval must be a number of "
		    "seconds from 0.01 to 86400", arg);
}

static void
hvtop_set_count(struct hvtop_opts *o, const struct hvtop_option *op,
    const char *arg)
{
	char	*end;

	(void)op;
	errno = 0;
	o->count = strtol(arg, &end, 10);
	if (*end != '\0' || end == arg)
		hvtop_usage_error("-n %s: expected a count of at least 1", arg);
	if (errno == ERANGE && o->count > 0)
		hvtop_usage_error("%s", xasprintf("-n %s: out of range: the "
		    "largest count is %ld (leave -n out to run until stopped)",
		    arg, LONG_MAX));
	if (errno != 0 || o->count < 1)
		hvtop_usage_error("-n %s: expected a count of at least 1", arg);
}

/* -O and --sim: repeatable, later options add to earlier ones. */
static void
hvtop_set_source_args(struct hvtop_opts *o, const struct hvtop_option *op,
    const char *arg)
{
	char	*old = o->source_args;

	(void)op;
	o->source_args = old == NULL ? xstrdup(arg) :
	    xasprintf("%s,%s", old, arg);
	free(old);
}

static void
hvtop_set_format(struct hvtop_opts *o, const struct hvtop_option *op,
    const char *arg)
{
	(void)op;
	if ((o->format = export_format_parse(arg)) < 0)
		hvtop_usage_error("--format %s: use text, csv or json", arg);
}

static int
hvtop_list_kind(const char *s)
{
	return (strcmp(s, "events") == 0 || strcmp(s, "groups") == 0 ||
	    strcmp(s, "formulas") == 0);
}

/* --list=KIND; --list KIND is looked at after the options. */
static void
hvtop_set_list_kind(struct hvtop_opts *o, const struct hvtop_option *op,
    const char *arg)
{
	(void)op;
	o->list = arg;
	o->list_bare = arg == NULL;
	if (arg != NULL && !hvtop_list_kind(arg))
		hvtop_usage_error("--list %s: use events, groups or formulas "
		    "(or nothing for all three)", arg);
}

/* --const NAME=VALUE: a name and a finite number. */
static void
hvtop_set_const(struct hvtop_opts *o, const struct hvtop_option *op,
    const char *arg)
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
	hvtop_set_list(o, op, arg);
}

static void
hvtop_set_replay(struct hvtop_opts *o, const struct hvtop_option *op,
    const char *arg)
{
	(void)op;
	free(o->replay_spec);
	o->replay_spec = xasprintf("replay:%s", arg);
	o->source = o->replay_spec;
}

static void
hvtop_set_replay_speed(struct hvtop_opts *o, const struct hvtop_option *op,
    const char *arg)
{
	char	*end;

	(void)op;
	errno = 0;
	o->replay_speed = strtod(arg, &end);
	if (errno != 0 || *end != '\0' || !(o->replay_speed > 0) ||
	    o->replay_speed > 1e6)
		hvtop_usage_error("--replay-speed %s: expected a factor above "
		    "0 (2 plays twice as fast)", arg);
}

/* --from T, --to T: handed to the replay of a ring as from=T, to=T. */
static void
hvtop_set_window(struct hvtop_opts *o, const struct hvtop_option *op,
    const char *arg)
{
	char	*kv;

	if (strchr(arg, ',') != NULL || *arg == '\0')
		hvtop_usage_error("--from/--to %s: not a time", arg);
	kv = xasprintf("%s=%s", op->name, arg);
	hvtop_set_source_args(o, op, kv);
	free(kv);
}

static void
hvtop_set_ring_size(struct hvtop_opts *o, const struct hvtop_option *op,
    const char *arg)
{
	char	*cause;

	(void)op;
	if (record_ring_size_parse(arg, &o->ring, &cause) != 0)
		hvtop_usage_error("--ring-size: %s", cause);
	if (o->ring < RECORD_RING_MIN)
		hvtop_usage_error("--ring-size %s: a ring takes at least "
		    "64K", arg);
}

static void
hvtop_set_serve(struct hvtop_opts *o, const struct hvtop_option *op,
    const char *arg)
{
	struct serve_addr	 sa;
	char			*cause;

	(void)op;
	if (serve_addr_parse(arg, &sa, &cause) != 0)
		hvtop_usage_error("--serve %s", cause);
	o->serve = arg;
}

/* Exit 0 when what went to standard output was written, else say why
 * and exit 1: a full disk or a closed pipe is not success. */
static void
hvtop_exit_written(void)
{
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "hvtop: writing standard output: %s\n",
		    strerror(errno));
		exit(1);
	}
	exit(0);
}

static void
hvtop_help(struct hvtop_opts *o, const struct hvtop_option *op,
    const char *arg)
{
	(void)o;
	(void)op;
	(void)arg;
	help(stdout);
	hvtop_exit_written();
}

static void
hvtop_version(struct hvtop_opts *o, const struct hvtop_option *op,
    const char *arg)
{
	(void)o;
	(void)op;
	(void)arg;
	printf("hvtop %s\n", PACKAGE_VERSION);
	hvtop_exit_written();
}

#define OFF(f)		offsetof(struct hvtop_opts, f)
#define FLAG(nm, c, f)	{ nm, c, no_argument, hvtop_set_flag, OFF(f), 0 }
#define STRING(nm, c, f) { nm, c, required_argument, hvtop_set_string, \
			    OFF(f), 0 }
/* A list in f, its count in nf ("n" and the field's name). */
#define LIST(nm, c, f)	{ nm, c, required_argument, hvtop_set_list, \
			    OFF(f), OFF(n ## f) }
#define ARG(nm, c, fn)	{ nm, c, required_argument, fn, 0, 0 }
#define NOARG(nm, c, fn) { nm, c, no_argument, fn, 0, 0 }

static const struct hvtop_option hvtop_options[] = {
	FLAG("batch", 'b', batch),
	ARG("delay", 'd', hvtop_set_delay),
	ARG("iterations", 'n', hvtop_set_count),
	STRING("output", 'o', output),
	LIST("group", 'g', groups),
	LIST("event", 'e', events),
	LIST("metrics", 'm', metric_files),
	NOARG("help", 'h', hvtop_help),
	NOARG("version", 'V', hvtop_version),
	STRING("source", 0, source),
	ARG("sim", 0, hvtop_set_source_args),
	ARG("source-opt", 'O', hvtop_set_source_args),
	STRING("catalog", 0, catalog),
	ARG("format", 0, hvtop_set_format),
	{ "list", 0, optional_argument, hvtop_set_list_kind, 0, 0 },
	{ "const", 0, required_argument, hvtop_set_const, OFF(consts),
	    OFF(nconsts) },	/* checked, then a list */
	STRING("pmu", 0, pmu),
	STRING("sysfs-root", 0, sysfs_root),
	FLAG("no-color", 0, no_color),
	STRING("write", 'w', record),
	ARG("replay", 'r', hvtop_set_replay),
	ARG("replay-speed", 0, hvtop_set_replay_speed),
	ARG("from", 0, hvtop_set_window),
	ARG("to", 0, hvtop_set_window),
	ARG("ring-size", 0, hvtop_set_ring_size),
	ARG("serve", 0, hvtop_set_serve),
	STRING("user", 0, user),
	STRING("web-config", 0, web_config),
	FLAG("serve-vcpus", 0, serve_vcpus),
	FLAG("force", 0, force),
	FLAG("check", 0, check),
};
#define HVTOP_NOPTIONS	(sizeof hvtop_options / sizeof hvtop_options[0])

/* getopt_long()'s tables, from hvtop_options. */
static void
hvtop_getopt_tables(struct option *longopts, char *shortopts)
{
	const struct hvtop_option	*op;
	size_t				 i;

	/* Words in order, with the options: see hvtop_parse(). */
	*shortopts++ = '-';
	for (i = 0; i < HVTOP_NOPTIONS; i++) {
		op = &hvtop_options[i];
		longopts[i].name = op->name;
		longopts[i].has_arg = op->has_arg;
		longopts[i].flag = NULL;
		longopts[i].val = op->ch != 0 ? op->ch :
		    HVTOP_LONG_BASE + (int)i;
		if (op->ch == 0)
			continue;
		*shortopts++ = (char)op->ch;
		if (op->has_arg == required_argument)
			*shortopts++ = ':';
	}
	memset(&longopts[i], 0, sizeof longopts[i]);
	*shortopts = '\0';
}

static const struct hvtop_option *
hvtop_option_of(int val)
{
	size_t	 i;

	if (val >= HVTOP_LONG_BASE &&
	    (size_t)(val - HVTOP_LONG_BASE) < HVTOP_NOPTIONS)
		return (&hvtop_options[val - HVTOP_LONG_BASE]);
	for (i = 0; i < HVTOP_NOPTIONS; i++) {
		if (hvtop_options[i].ch != 0 && hvtop_options[i].ch == val)
			return (&hvtop_options[i]);
	}
	return (NULL);
}

/* ---- after the options --------------------------------------------- */

/*
 * hvtop report: one recording in, one page out; the options that choose
 * another source, output or pacing have no place in it.
 */
static void
hvtop_parse_report(struct hvtop_opts *o, int argc, char **av)
{
	if (strcmp(o->source, "auto") != 0)
		hvtop_usage_error("%s", "report: the recording is the source; "
		    "name it after the options, without -r or --source");
	if (o->record != NULL || o->serve != NULL || o->list != NULL ||
	    o->format >= 0 || o->replay_speed > 0)
		hvtop_usage_error("%s", "report: -w, --serve, --list, --format "
		    "and --replay-speed do not apply to a report");
	if (optind >= argc)
		hvtop_usage_error("%s", "report: name the recording (FILE.hvr)");
	if (optind + 1 < argc)
		hvtop_usage_error("unexpected argument '%s'", av[optind + 1]);
	if (o->output == NULL)
		hvtop_usage_error("%s", xasprintf("report %s: say where the "
		    "page goes with -o PAGE.html", av[optind]));
	o->report = av[optind++];
	o->replay_spec = xasprintf("replay:%s", o->report);
	o->source = o->replay_spec;
	/* A batch replay: as fast as it reads, on a virtual clock. */
	o->batch = 1;
}

/*
 * -- COMMAND: a run over a command's life, in batch mode; the options
 * that choose another length or another run have no place in it.
 */
static void
hvtop_parse_command(struct hvtop_opts *o)
{
	if (o->report_cmd)
		hvtop_usage_error("%s", "report: a report replays a recording; "
		    "it runs no command");
	if (o->list != NULL || o->list_bare)
		hvtop_usage_error("%s", "--list: lists the catalog; it runs no "
		    "command");
	if (strncmp(o->source, "replay:", 7) == 0)
		hvtop_usage_error("%s", "-- COMMAND: a replay's counts are "
		    "recorded ones; count over a command on a live source");
	if (o->count > 0)
		hvtop_usage_error("%s", "-n: the command's life decides how "
		    "long hvtop counts; leave -n out");
	o->batch = 1;
}

/* The words after the options: --list's [KIND] [PATTERN], nothing else. */
static void
hvtop_parse_words(struct hvtop_opts *o, int argc, char **av)
{
	if (o->ncmd > 0)
		hvtop_parse_command(o);
	if (o->user != NULL && o->serve == NULL)
		hvtop_usage_error("%s", "--user: only a --serve run changes "
		    "user (root opens the counters, the user serves them)");
	if (o->serve_vcpus && o->serve == NULL)
		hvtop_usage_error("%s", "--serve-vcpus: how --serve shows "
		    "partitions; give --serve too");
	if (o->web_config != NULL && o->serve == NULL)
		hvtop_usage_error("%s", "--web-config: says who may scrape "
		    "--serve's endpoint; give --serve too");
	if (o->report_cmd) {
		hvtop_parse_report(o, argc, av);
		return;
	}
	if (o->replay_speed > 0 && strncmp(o->source, "replay:", 7) != 0)
		hvtop_usage_error("%s", "--replay-speed: only a replay "
		    "(-r FILE) has a speed");
	if (o->list_bare) {
		if (optind < argc && hvtop_list_kind(av[optind]))
			o->list = av[optind++];
		else
			o->list = "all";
	}
	if (o->list != NULL && optind < argc)
		o->pattern = av[optind++];
	if (optind != argc)
		hvtop_usage_error("unexpected argument '%s'", av[optind]);
}

/* The output's format from --format or -o's suffix; where it goes
 * decides between batch and the screen. */
static void
hvtop_parse_output(struct hvtop_opts *o)
{
	const char	*dot;

	if (o->report_cmd)
		return;
	if (o->format < 0 && o->output != NULL &&
	    strcmp(o->output, "-") != 0 &&
	    (dot = strrchr(o->output, '.')) != NULL &&
	    strchr(dot, '/') == NULL && export_format_from_path(o->output) < 0)
		hvtop_usage_error("%s", xasprintf("-o %s: unknown suffix '%s': "
		    "use .txt, .csv or .json, or give --format", o->output,
		    dot));
	if (o->format < 0 && o->output != NULL)
		o->format = export_format_from_path(o->output);
	if (o->format < 0)
		o->format = EXPORT_TEXT;
	if (o->output != NULL && o->list == NULL)
		o->batch = 1;
	if (!o->batch && o->list == NULL && !isatty(STDOUT_FILENO))
		o->batch = 1;
}

void
hvtop_parse(struct hvtop_opts *o, int argc, char **argv)
{
	static struct option		 longopts[HVTOP_NOPTIONS + 1];
	static char			 shortopts[2 * HVTOP_NOPTIONS + 2];
	/* getopt's own messages say "hvtop:", not the path it ran as. */
	static char			 progname[] = "hvtop";
	const struct hvtop_option	*op;
	char				**av, **words;
	int				 ch, nwords = 0;

	memset(o, 0, sizeof *o);
	o->delay = 1.0;
	o->count = -1;
	o->format = -1;
	o->source = "auto";
	o->sysfs_root = "/sys";
	hvtop_getopt_tables(longopts, shortopts);
	/* "hvtop report ...": the same options after the word. */
	if (argc > 1 && strcmp(argv[1], "report") == 0) {
		o->report_cmd = 1;
		argv++;
		argc--;
	}
	av = xcalloc((size_t)argc + 1, sizeof *av);
	memcpy(av, argv, (size_t)argc * sizeof *av);
	av[0] = progname;
	/*
	 * Words come back in order (shortopts starts with '-'), so that
	 * what follows "--" is known apart from the words before it: the
	 * command to run.
	 */
	words = xcalloc((size_t)argc + 1, sizeof *words);
	words[nwords++] = progname;
	while ((ch = getopt_long(argc, av, shortopts, longopts, NULL)) != -1) {
		if (ch == 1) {
			words[nwords++] = optarg;
			continue;
		}
		if ((op = hvtop_option_of(ch)) == NULL) {
			usage(stderr);
			exit(2);
		}
		op->set(o, op, optarg);
	}
	if (optind < argc) {
		o->ncmd = (size_t)(argc - optind);
		o->cmd = xcalloc(o->ncmd + 1, sizeof *o->cmd);
		memcpy(o->cmd, av + optind, o->ncmd * sizeof *o->cmd);
	}
	optind = 1;
	hvtop_parse_words(o, nwords, words);
	free(words);
	free(av);
	hvtop_parse_output(o);
}

void
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
	free(o->cmd);
}

/*
 * -w FILE never writes over the recording being replayed (the same file
 * under any name) and, without --force, over any existing file: a
 * recording is not lost to a slip of the keyboard.  Devices and pipes
 * (/dev/null, a FIFO) are not files that can be lost.
 */
void
hvtop_check_record(const struct hvtop_opts *o)
{
	struct stat	 w, r;
	const char	*replay;

	if (o->ring != 0 && o->record == NULL)
		hvtop_usage_error("%s", "--ring-size: name the directory "
		    "with -w DIR");
	/* A ring adds segments of its own names beside what is there. */
	if (o->ring != 0 || o->record == NULL || stat(o->record, &w) == -1)
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
