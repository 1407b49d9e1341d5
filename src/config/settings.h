/*
 * The settings file, hvtoprc: "key=value" lines, the first of which is
 * config_version=N.  Blank lines and lines starting with '#' are comments.
 * Keys are lower-case words ([a-z0-9_.-]); a key may repeat (pick=...).
 * What hvtop does not understand is kept: a key it does not know (from a
 * newer hvtop), a comment, a line that is not key=value (with a note
 * that names it), all written back as they were.
 * Values are stored by name (groups, columns), never by number, so a file
 * stays valid when a catalog is reordered.
 *
 * settings.c is pure (text in, model out, model to text); settings-file.c
 * finds, reads and atomically writes the file.  The file is written only
 * when the user asks (the interface's W key), never on exit.
 */
#ifndef HVTOP_SETTINGS_H
#define HVTOP_SETTINGS_H

#include <stddef.h>

#define SETTINGS_VERSION	1	/* the newest config_version read */
#define SETTINGS_MAX_ENTRIES	4096
#define SETTINGS_MAX_SIZE	(1 << 20)	/* bytes of a file */

struct strbuf;

/*
 * A line of the file.  A key of no characters ("", never a valid key) is
 * a line kept as written, in value: a comment, a blank line, or a line
 * that is not key=value.  config_version is an entry too, where the file
 * had it; settings_format() writes the current version there.
 */
struct settings_entry {
	char		*key;
	char		*value;
	unsigned	 line;		/* 1-based; 0 when added in memory */
};

struct settings {
	char		*path;		/* the file read, or NULL */
	unsigned	 version;
	struct settings_entry *entries;
	size_t		 nentries;
	char		**notes;	/* "LINE:COLUMN: why" of kept lines */
	size_t		 nnotes;
};

/* An empty model at SETTINGS_VERSION (caller frees). */
struct settings	*settings_new(void);
void		 settings_free(struct settings *);

/*
 * Parse len bytes of text (need not be NUL-terminated).  A line that is
 * not key=value is kept as written, with a note in notes.  Returns 0 with
 * *out set (caller frees), or -HV_EFORMAT (no config_version=N first, or
 * a NUL byte; the message names the line and column), -HV_EVERSION
 * (written by a newer hvtop) or -HV_ELIMIT, with *cause set (caller
 * frees).
 */
int		 settings_parse(const char *text, size_t len,
		    struct settings **out, char **cause);

/* The last value of key, or NULL. */
const char	*settings_get(const struct settings *, const char *key);
/* Append key=value; a newline in value becomes a space. */
void		 settings_add(struct settings *, const char *key,
		    const char *value);
/* Set the first entry of key to value and remove the others; add one
 * when there is none. */
void		 settings_set(struct settings *, const char *key,
		    const char *value);
/* Remove every entry of key. */
void		 settings_remove(struct settings *, const char *key);

/*
 * The interval key, in seconds (SETTINGS_INTERVAL_MIN to _MAX).  Returns
 * 1 with *secs set, 0 when the key is absent, or -HV_EFORMAT/-HV_ERANGE
 * with *cause (caller frees) saying "FILE:LINE: interval=V: why; the
 * default is used".
 */
#define SETTINGS_INTERVAL_MIN	0.01
#define SETTINGS_INTERVAL_MAX	86400.0
int		 settings_interval(const struct settings *, double *secs,
		    char **cause);

/* The file text: the entries in order, config_version where it was (first
 * when it was not there), the lines kept as written as they were. */
void		 settings_format(const struct settings *, struct strbuf *);

#endif /* HVTOP_SETTINGS_H */
