/*
 * hvtoprc as text: parse it into an ordered list of lines (key=value
 * entries, and lines kept as written) and print it back.  Pure: the
 * caller reads and writes the file.  A line that is not key=value is kept
 * as written and noted with its line and column: the rest of the file
 * still applies, and writing the settings back loses nothing the user
 * wrote.  A file that cannot be read as settings at all (no
 * config_version first, a newer version, a NUL byte) fails the parse;
 * the caller neither uses nor overwrites it.
 */
#include "config.h"

#include "config/settings.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/hverr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct settings *
settings_new(void)
{
	struct settings	*s;

	s = xcalloc(1, sizeof *s);
	s->version = SETTINGS_VERSION;
	return (s);
}

void
settings_free(struct settings *s)
{
	size_t	 i;

	if (s == NULL)
		return;
	for (i = 0; i < s->nentries; i++) {
		free(s->entries[i].key);
		free(s->entries[i].value);
	}
	free(s->entries);
	for (i = 0; i < s->nnotes; i++)
		free(s->notes[i]);
	free(s->notes);
	free(s->path);
	free(s);
}

static int
settings_keychar(char c)
{
	return ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	    c == '_' || c == '.' || c == '-');
}

static int
settings_blank(char c)
{
	return (c == ' ' || c == '\t' || c == '\r');
}

/*
 * A value is written on one line: a newline in it becomes a space, and so
 * does a carriage return unless cr (a line kept as written keeps its own).
 */
static void
settings_oneline(char *value, int cr)
{
	char	*p;

	for (p = value; *p != '\0'; p++) {
		if (*p == '\n' || (*p == '\r' && cr))
			*p = ' ';
	}
}

/* Append an entry; a key of "" is a line kept as written. */
static void
settings_push(struct settings *s, char *key, char *value, unsigned line)
{
	settings_oneline(value, *key != '\0');
	s->entries = xreallocarray(s->entries, s->nentries + 1,
	    sizeof *s->entries);
	s->entries[s->nentries].key = key;
	s->entries[s->nentries].value = value;
	s->entries[s->nentries].line = line;
	s->nentries++;
}

/*
 * One line (without its newline): blank, a comment, or key=value.
 * Returns 1 with *key and *value set (caller frees), 0 for a comment or a
 * blank line, or -HV_EFORMAT with *cause ("LINE:COLUMN: why") set.
 */
static int
settings_line(const char *p, size_t len, unsigned line, char **key,
    char **value, char **cause)
{
	size_t	 i = 0, k0, k1, v0, v1;

	while (i < len && settings_blank(p[i]))
		i++;
	if (i == len || p[i] == '#')
		return (0);
	k0 = i;
	while (i < len && settings_keychar(p[i]))
		i++;
	k1 = i;
	while (i < len && settings_blank(p[i]))
		i++;
	if (k1 == k0 || i == len || p[i] != '=') {
		*cause = xasprintf("%u:%zu: expected key=value with a key of "
		    "a-z, 0-9, '_', '.', '-'", line, (k1 == k0 ? k0 : i) + 1);
		return (-HV_EFORMAT);
	}
	i++;
	while (i < len && settings_blank(p[i]))
		i++;
	v0 = i;
	v1 = len;
	while (v1 > v0 && settings_blank(p[v1 - 1]))
		v1--;
	*key = xstrndup(p + k0, k1 - k0);
	*value = xstrndup(p + v0, v1 - v0);
	return (1);
}

/* config_version's value: a decimal number from 1 up. */
static int
settings_version(const char *v, unsigned *out)
{
	unsigned long	 n = 0;

	if (*v == '\0')
		return (-1);
	for (; *v != '\0'; v++) {
		if (*v < '0' || *v > '9' || n > 100000)
			return (-1);
		n = n * 10 + (unsigned long)(*v - '0');
	}
	if (n == 0 || n > 100000)
		return (-1);
	*out = (unsigned)n;
	return (0);
}

/* The first setting must say the version, one this hvtop reads. */
static int
settings_first(struct settings *s, const char *key, const char *value,
    unsigned line, char **cause)
{
	if (strcmp(key, "config_version") != 0 ||
	    settings_version(value, &s->version) != 0) {
		*cause = xasprintf("line %u: the first setting must be "
		    "config_version=N (N from 1)", line);
		return (-HV_EFORMAT);
	}
	if (s->version > SETTINGS_VERSION) {
		*cause = xasprintf("line %u: config_version=%u was written by "
		    "a newer hvtop (this one reads %d)", line, s->version,
		    SETTINGS_VERSION);
		return (-HV_EVERSION);
	}
	return (0);
}

int
settings_parse(const char *text, size_t len, struct settings **out,
    char **cause)
{
	struct settings	*s;
	const char	*p = text, *nl, *nul;
	size_t		 rest = len, n;
	unsigned	 line = 0;
	char		*key, *value, *why;
	int		 r, seen = 0;

	s = settings_new();
	while (rest > 0) {
		line++;
		nl = memchr(p, '\n', rest);
		n = nl != NULL ? (size_t)(nl - p) : rest;
		/* A line that cannot be a C string cannot be kept. */
		if ((nul = memchr(p, '\0', n)) != NULL) {
			*cause = xasprintf("line %u, column %zu: a NUL byte",
			    line, (size_t)(nul - p) + 1);
			r = -HV_EFORMAT;
			goto fail;
		}
		if (s->nentries == SETTINGS_MAX_ENTRIES) {
			*cause = xasprintf("line %u: more than %d lines",
			    line, SETTINGS_MAX_ENTRIES);
			r = -HV_ELIMIT;
			goto fail;
		}
		why = NULL;
		r = settings_line(p, n, line, &key, &value, &why);
		if (r < 0 && !seen) {
			/* Not an hvtoprc, so never one to write into. */
			*cause = xasprintf("%s (the first setting must be "
			    "config_version=N)", why);
			free(why);
			goto fail;
		}
		if (r <= 0) {
			/* Kept as written; a line not understood is said. */
			settings_push(s, xstrdup(""), xstrndup(p, n), line);
			if (why != NULL) {
				s->notes = xreallocarray(s->notes,
				    s->nnotes + 1, sizeof *s->notes);
				s->notes[s->nnotes++] = why;
			}
		} else if (!seen) {
			seen = 1;
			r = settings_first(s, key, value, line, cause);
			free(value);
			if (r != 0) {
				free(key);
				goto fail;
			}
			settings_push(s, key, xasprintf("%u", s->version),
			    line);
		} else
			settings_push(s, key, value, line);
		p += n;
		rest -= n;
		if (nl != NULL) {
			p++;
			rest--;
		}
	}
	if (!seen)
		s->version = SETTINGS_VERSION;
	*out = s;
	return (0);
fail:
	settings_free(s);
	return (r);
}

const char *
settings_get(const struct settings *s, const char *key)
{
	size_t	 i;

	if (s == NULL)
		return (NULL);
	for (i = s->nentries; i > 0; i--) {
		if (strcmp(s->entries[i - 1].key, key) == 0)
			return (s->entries[i - 1].value);
	}
	return (NULL);
}

void
settings_add(struct settings *s, const char *key, const char *value)
{
	settings_push(s, xstrdup(key), xstrdup(value), 0);
}

/* Drop every entry of key from entries[from] on, keeping the order. */
static void
settings_drop(struct settings *s, const char *key, size_t from)
{
	size_t	 i, n = from;

	for (i = from; i < s->nentries; i++) {
		if (strcmp(s->entries[i].key, key) == 0) {
			free(s->entries[i].key);
			free(s->entries[i].value);
			continue;
		}
		s->entries[n++] = s->entries[i];
	}
	s->nentries = n;
}

void
settings_remove(struct settings *s, const char *key)
{
	settings_drop(s, key, 0);
}

void
settings_set(struct settings *s, const char *key, const char *value)
{
	size_t	 i;

	for (i = 0; i < s->nentries; i++) {
		if (strcmp(s->entries[i].key, key) == 0)
			break;
	}
	if (i == s->nentries) {
		settings_add(s, key, value);
		return;
	}
	/* In place: a comment above the line stays above it. */
	free(s->entries[i].value);
	s->entries[i].value = xstrdup(value);
	settings_oneline(s->entries[i].value, 1);
	settings_drop(s, key, i + 1);
}

void
settings_format(const struct settings *s, struct strbuf *sb)
{
	const struct settings_entry	*e;
	size_t				 i;
	int				 version = 0, keys = 0;

	for (i = 0; i < s->nentries; i++) {
		version |= strcmp(s->entries[i].key, "config_version") == 0;
		keys |= *s->entries[i].key != '\0';
	}
	/* Settings need their version first; comments alone do not. */
	if (keys && !version)
		strbuf_addf(sb, "config_version=%d\n", SETTINGS_VERSION);
	for (i = 0; i < s->nentries; i++) {
		e = &s->entries[i];
		if (*e->key == '\0')
			strbuf_addf(sb, "%s\n", e->value);
		else if (strcmp(e->key, "config_version") == 0 && version) {
			/* The first says this hvtop's version. */
			strbuf_addf(sb, "config_version=%d\n",
			    SETTINGS_VERSION);
			version = 0;
		} else
			strbuf_addf(sb, "%s=%s\n", e->key, e->value);
	}
}

int
settings_interval(const struct settings *s, double *secs, char **cause)
{
	const struct settings_entry	*e = NULL;
	const char			*why;
	char				*end;
	double				 d;
	size_t				 i;

	for (i = s != NULL ? s->nentries : 0; i > 0; i--) {
		if (strcmp(s->entries[i - 1].key, "interval") == 0) {
			e = &s->entries[i - 1];
			break;
		}
	}
	if (e == NULL)
		return (0);
	errno = 0;
	d = strtod(e->value, &end);
	if (end == e->value || *end != '\0' || isnan(d))
		why = "not a number of seconds";
	else if (d < SETTINGS_INTERVAL_MIN)
		why = "shorter than 0.01 s";
	else if (d > SETTINGS_INTERVAL_MAX || errno == ERANGE)
		why = "longer than 86400 s";
	else {
		*secs = d;
		return (1);
	}
	*cause = xasprintf("%s:%u: interval=%s: %s; the default is used",
	    s->path != NULL ? s->path : "hvtoprc", e->line, e->value, why);
	return (d < SETTINGS_INTERVAL_MIN || d > SETTINGS_INTERVAL_MAX ?
	    -HV_ERANGE : -HV_EFORMAT);
}
