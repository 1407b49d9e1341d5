/*
 * hvcat: the catalog tool.  One function per command, each in its own
 * file (hvcat-<command>.c); each returns the process exit status:
 * 0 ok, 1 invalid input or failure, 2 usage error.
 */
#ifndef HVTOP_HVCAT_H
#define HVTOP_HVCAT_H

#include <stddef.h>

struct catalog;

int	hvcat_info(int, char **);
int	hvcat_check(int, char **);
int	hvcat_dump(int, char **);
int	hvcat_sysfs(int, char **);
int	hvcat_build(int, char **);
int	hvcat_eval(int, char **);

/*
 * Shared by the commands: load and parse a catalog file (a path, or one of
 * the names of the shipped catalogs: power8, power9, power10).  Problems
 * are printed to stderr, offset first.  Returns 0 with *out set, or 1.
 */
int	hvcat_load(const char *, int iface, struct catalog **out);
/* The same, but a recording comes back as bytes in *rec (*out NULL). */
int	hvcat_load_any(const char *, int iface, struct catalog **out,
	    void **rec, size_t *reclen);
/* The largest recording hvcat reads. */
#define HVCAT_RECORD_MAX	((size_t)1 << 34)
/*
 * Read a regular file of known size whole, after its first bytes say
 * whether it is a recording; 1 after a message.
 */
int	hvcat_read(const char *, void **out, size_t *len, int *is_record);

/*
 * What hvcat check finds beyond the parser (formulas that do not compile
 * against the catalog, duplicate group or formula names), printed to
 * stderr with label, and formulas that leave values under their result
 * (warnings, added to *nwarn when not NULL); returns the number of errors.
 */
size_t	hvcat_check_model(const char *label, const struct catalog *,
	    size_t *nwarn);

/* The argument of -i: 0 (guess), 1 or 2; -1 after a message. */
int	hvcat_interface(const char *);

/*
 * A command's options (hvcat-opts.c): -h and -i are everyone's; shortopts
 * and longopts (NULL-terminated, at most five) are the command's own, and
 * opt() gets each of them with its argument, returning 0 or the exit
 * status to leave with.
 */
struct option;
struct hvcat_opts {
	const char		*usage;		/* whole lines */
	const char		*shortopts;	/* getopt's, or NULL */
	const struct option	*longopts;	/* or NULL */
	int			 nargs;		/* operands, exactly */
	int			(*opt)(void *arg, int ch, const char *val);
	void			*arg;
};
/*
 * Read argv's options.  Returns -1 with *iface (0 if -i was not given)
 * and *operands (nargs of them) when the command goes on, or the exit
 * status: 0 after -h, 2 after a usage error (said), or what opt()
 * returned.
 */
int	hvcat_opts(const struct hvcat_opts *, int argc, char **argv,
	    int *iface, char ***operands);
/* The usage to stderr; returns 2. */
int	hvcat_opts_usage(const struct hvcat_opts *);

/* Info on a recording (hvtop -w). */
int	hvcat_record_info(const char *path, const void *, size_t);
/* Check a recording: its problems on stderr, a verdict; 0 or 1. */
int	hvcat_record_check(const char *path, const void *, size_t);
/* hvcat info DIR: a ring's segments (hvcat-ring.c). */
int	hvcat_ring_info(const char *dir);

#endif /* HVTOP_HVCAT_H */
