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

/* Info on a recording (hvtop -w). */
int	hvcat_record_info(const char *path, const void *, size_t);
/* Check a recording: its problems on stderr, a verdict; 0 or 1. */
int	hvcat_record_check(const char *path, const void *, size_t);

#endif /* HVTOP_HVCAT_H */
