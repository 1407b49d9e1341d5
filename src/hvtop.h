/*
 * The hvtop program: what only the command-line program does.  Options
 * (hvtop-opts.c), --list (hvtop-list.c), --check (hvtop-check.c),
 * counting over a command (hvtop-command.c), the batch loop and main()
 * (hvtop.c); the sampling loop those two share is hvtop-loop.h's.
 * Sampling, the catalog, the selection and the engine are the session's
 * (src/session/session.h); the screens are ui/'s.
 */
#ifndef HVTOP_HVTOP_H
#define HVTOP_HVTOP_H

#include <sys/types.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct session;

struct hvtop_opts {
	int		 batch;
	double		 interval;		/* seconds */
	int		 interval_set;	/* -d was given */
	long		 count;		/* -1: forever */
	const char	*output;
	int		 format;	/* enum export_format */
	const char	*source;
	char		*source_args;	/* -O and --sim, joined by commas */
	const char	*catalog;
	const char	*list;		/* events, groups, formulas or all */
	int		 list_bare;	/* --list without =KIND */
	const char	*pattern;
	int		 check;		/* --check */
	const char	*pmu;
	const char	*sysfs_root;
	int		 no_color;
	char		**groups;
	size_t		 ngroups;
	char		**events;
	size_t		 nevents;
	char		**metric_files;
	size_t		 nmetric_files;
	char		**consts;	/* NAME=VALUE */
	size_t		 nconsts;
	const char	*record;	/* -w FILE */
	int		 force;		/* --force: -w may write over a file */
	uint64_t	 ring;		/* --ring-size: -w DIR's budget, 0 */
	double		 replay_speed;	/* --replay-speed, 0: not given */
	char		*replay_spec;	/* "replay:FILE" for -r FILE */
	const char	*serve;		/* --serve ADDR:PORT */
	const char	*user;		/* --user NAME */
	const char	*web_config;	/* --web-config FILE */
	int		 serve_vcpus;	/* --serve-vcpus */
	int		 report_cmd;	/* hvtop report ... */
	const char	*report;	/* its FILE: the recording */
	char		**cmd;		/* -- COMMAND [ARGS]: NULL-ended */
	size_t		 ncmd;
};

/* Parse the command line into *o; a usage error exits 2, -h and -V 0. */
void	 hvtop_parse(struct hvtop_opts *, int argc, char **argv);
/* -w FILE: refuse what would lose a recording (exits 2). */
void	 hvtop_check_record(const struct hvtop_opts *);
void	 hvtop_free_opts(struct hvtop_opts *);

/* --check: what this partition can see, a fact a line; the exit status
 * (0 all a frame exporter needs is there, 1 something is missing).  It
 * is the whole run: it frees the options (hvtop_free_opts) too. */
int	 hvtop_check(struct hvtop_opts *);
/* --list KIND [PATTERN] (KIND "all": each under its heading); the exit
 * status: 2 when a pattern given without a kind matches nothing. */
int	 hvtop_list(const struct session *, const char *kind,
	    const char *pattern, FILE *);

/* hvtop report: replay the session's recording into o->output, an HTML
 * page (hvtop-report.c); the exit status. */
int	 hvtop_report(struct session *, const struct hvtop_opts *);

/*
 * hvtop -b -- COMMAND: run the command, sample while it runs, print the
 * counts and rates over its whole life (and each interval with -d); the
 * exit status: the command's, 128 + a signal that killed it, 127 or 126
 * when it could not be run, 1 when hvtop itself failed (hvtop-command.c).
 * The counts go to fp (-o, opened by main(); closed here unless stdout).
 */
int	 hvtop_command(struct session *, const struct hvtop_opts *, FILE *);
/*
 * The frame's MODEL*SERIAL for batch output, into buf (size bytes, at
 * least 64), or NULL when the source does not know it.
 */
#define HVTOP_FRAME_MAX	80
const char *hvtop_frame(const struct session *, char *buf, size_t size);

/* --user NAME (hvtop-user.c): who hvtop becomes once its files and
 * socket are open. */
struct hvtop_user {
	char		*name;
	uid_t		 uid;
	gid_t		 gid;
};

/* Check that hvtop can become NAME (it runs as root, NAME exists and is
 * not uid 0): 0, or -1 and why in *cause. */
int	 hvtop_user_lookup(const char *name, struct hvtop_user *,
	    char **cause);
/* Become the user for good: its groups, gid and uid, no capabilities,
 * checked afterwards; 0, or -1 and why in *cause. */
int	 hvtop_user_drop(const struct hvtop_user *, char **cause);
void	 hvtop_user_free(struct hvtop_user *);

#endif /* HVTOP_HVTOP_H */
