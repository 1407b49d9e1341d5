/*
 * --web-config FILE: who may scrape, in the file Prometheus' exporters
 * share (exporter-toolkit's web-config.yml).  Only the part hvtop uses is
 * read, a small subset of YAML: at the top, tls_server_config: (its keys
 * are serve-tlscfg.c's), http_server_config: with headers:, and
 * basic_auth_users: mapping a user to a bcrypt hash; block mappings
 * indented by spaces, two levels deep, a block list of plain or quoted
 * scalars ("- NAME" lines), comments.  Anything else is refused with its
 * line and column
 * rather than skipped: a setting hvtop would ignore is one the reader
 * believes protects the endpoint.  Pure: the caller reads the file.
 */
#include "config.h"

#include "config/serve-webcfg.h"

#include <stdlib.h>
#include <string.h>

#include "config/serve-tlscfg.h"
#include "util/hverr.h"
#include "util/xalloc.h"

/* One line's key and value, each a copy. */
struct webcfg_line {
	size_t		 lineno;
	size_t		 indent;
	int		 item;		/* "- value": key is NULL */
	char		*key;
	char		*value;		/* NULL: nothing after the colon */
};

static int
webcfg_fail(char **cause, size_t line, size_t col, int error,
    const char *what)
{
	*cause = xasprintf("line %zu, column %zu: %s", line, col, what);
	return (error);
}

/*
 * A scalar at s (len bytes, trailing spaces and comment already cut):
 * plain, 'single' ('' is a quote) or "double" (\" and \\ only).
 */
static int
webcfg_scalar(const char *s, size_t len, size_t line, size_t col,
    char **out, char **cause)
{
	char	*v;
	size_t	 i, n = 0;
	char	 q;

	if (len == 0 || (s[0] != '\'' && s[0] != '"')) {
		if (len > 0 && strchr("&*!|>%@`{[", s[0]) != NULL)
			return (webcfg_fail(cause, line, col, -HV_EFORMAT,
			    "anchors, tags, block and flow values are not "
			    "read here: write a plain or quoted string"));
		*out = xstrndup(s, len);
		return (0);
	}
	q = s[0];
	v = xcalloc(1, len);
	for (i = 1; i < len; i++) {
		if (s[i] == q && q == '\'' && i + 1 < len && s[i + 1] == '\'') {
			v[n++] = '\'';
			i++;
		} else if (s[i] == q) {
			break;
		} else if (s[i] == '\\' && q == '"') {
			if (i + 1 >= len || (s[i + 1] != '"' &&
			    s[i + 1] != '\\')) {
				free(v);
				return (webcfg_fail(cause, line, col + i,
				    -HV_EFORMAT, "only \\\" and \\\\ are "
				    "read in a double-quoted string"));
			}
			v[n++] = s[++i];
		} else
			v[n++] = s[i];
	}
	if (i >= len || i + 1 != len) {
		free(v);
		return (webcfg_fail(cause, line, col + (i >= len ? 0 : i + 1),
		    -HV_EFORMAT, i >= len ? "the quoted string does not end "
		    "on its line" : "text after the closing quote"));
	}
	*out = v;
	return (0);
}

/* The end of the text on a line: before a comment (a # at the start or
 * after a space, outside quotes), without trailing spaces. */
static size_t
webcfg_text_end(const char *s, size_t len)
{
	size_t	 i, end;
	char	 q = 0;

	for (i = 0; i < len; i++) {
		if (q != 0) {
			if (s[i] == '\\' && q == '"' && i + 1 < len)
				i++;
			else if (s[i] == q)
				q = 0;
		} else if (s[i] == '\'' || s[i] == '"') {
			q = s[i];
		} else if (s[i] == '#' && (i == 0 || s[i - 1] == ' '))
			break;
	}
	end = i;
	while (end > 0 && s[end - 1] == ' ')
		end--;
	return (end);
}

/* A line holds no NUL byte and no control character but a tab. */
static int
webcfg_chars(const char *s, size_t len, size_t lineno, char **cause)
{
	size_t	 i;

	for (i = 0; i < len; i++) {
		if (s[i] == '\0')
			return (webcfg_fail(cause, lineno, i + 1, -HV_EFORMAT,
			    "a NUL byte"));
		if ((unsigned char)s[i] < 0x20 && s[i] != '\t')
			return (webcfg_fail(cause, lineno, i + 1, -HV_EFORMAT,
			    "a control character"));
	}
	return (0);
}

/* A list's item, "- value", its dash at s[i]. */
static int
webcfg_item(const char *s, size_t i, size_t end, struct webcfg_line *l,
    char **cause)
{
	size_t	 k;

	l->item = 1;
	for (k = i + 1; k < end && s[k] == ' '; k++)
		continue;
	if (k == end)
		return (webcfg_fail(cause, l->lineno, i + 1, -HV_EFORMAT,
		    "an empty list item"));
	return (webcfg_scalar(s + k, end - k, l->lineno, k + 1, &l->value,
	    cause));
}

/* One "key: value" line; 1 for a line with nothing on it. */
static int
webcfg_line(const char *s, size_t len, size_t lineno, struct webcfg_line *l,
    char **cause)
{
	size_t	 i, end, k;
	int	 error;

	memset(l, 0, sizeof l[0]);
	l->lineno = lineno;
	if ((error = webcfg_chars(s, len, lineno, cause)) != 0)
		return (error);
	for (i = 0; i < len && s[i] == ' '; i++)
		continue;
	if (i < len && s[i] == '\t')
		return (webcfg_fail(cause, lineno, i + 1, -HV_EFORMAT,
		    "a tab in the indentation (YAML indents with spaces)"));
	end = webcfg_text_end(s, len);
	if (i >= end)
		return (1);
	if (i == 0 && end == 3 && memcmp(s, "---", 3) == 0)
		return (1);
	l->indent = i;
	if (s[i] == '-' && (i + 1 == end || s[i + 1] == ' '))
		return (webcfg_item(s, i, end, l, cause));
	if (s[i] == '\'' || s[i] == '"') {
		/* A quoted key: up to its closing quote. */
		for (k = i + 1; k < end; k++) {
			if (s[k] == '\\' && s[i] == '"' && k + 1 < end)
				k++;
			else if (s[k] == '\'' && s[i] == '\'' &&
			    k + 1 < end && s[k + 1] == '\'')
				k++;
			else if (s[k] == s[i])
				break;
		}
		if (k >= end)
			return (webcfg_fail(cause, lineno, i + 1, -HV_EFORMAT,
			    "the quoted key does not end on its line"));
		if ((error = webcfg_scalar(s + i, k + 1 - i, lineno, i + 1,
		    &l->key, cause)) != 0)
			return (error);
		k++;
		if (k >= end || s[k] != ':' || l->key[0] == '\0') {
			free(l->key);
			l->key = NULL;
			return (webcfg_fail(cause, lineno, k >= end ||
			    s[k] != ':' ? k + 1 : i + 1, -HV_EFORMAT,
			    k >= end || s[k] != ':' ? "expected a colon "
			    "after the key" : "an empty key"));
		}
	} else {
		for (k = i; k < end && s[k] != ':'; k++) {
			if (s[k] == ' ' || s[k] == '\t')
				return (webcfg_fail(cause, lineno, k + 1,
				    -HV_EFORMAT, "expected a key (a name "
				    "without spaces, or quoted) and a colon"));
		}
		if (k >= end || k == i)
			return (webcfg_fail(cause, lineno, k + 1, -HV_EFORMAT,
			    k == i ? "an empty key" : "expected a colon after "
			    "the key"));
		l->key = xstrndup(s + i, k - i);
	}
	if (k + 1 < end && s[k + 1] != ' ') {
		free(l->key);
		l->key = NULL;
		return (webcfg_fail(cause, lineno, k + 2, -HV_EFORMAT,
		    "expected a space after the colon"));
	}
	for (k++; k < end && s[k] == ' '; k++)
		continue;
	if (k < end && (error = webcfg_scalar(s + k, end - k, lineno, k + 1,
	    &l->value, cause)) != 0) {
		free(l->key);
		l->key = NULL;
		return (error);
	}
	return (0);
}

/* A bcrypt hash as crypt(3) writes it: $2a$, $2b$ or $2y$, a two-digit
 * cost, $, then 53 characters of its base64.  The cost is checked apart
 * (webcfg_user). */
static int
webcfg_bcrypt(const char *h)
{
	size_t	 i;

	if (strlen(h) != 60 || h[0] != '$' || h[1] != '2' ||
	    strchr("aby", h[2]) == NULL || h[2] == '\0' || h[3] != '$' ||
	    h[4] < '0' || h[4] > '9' || h[5] < '0' || h[5] > '9' ||
	    h[6] != '$')
		return (0);
	for (i = 7; i < 60; i++) {
		if (strchr("./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuv"
		    "wxyz0123456789", h[i]) == NULL || h[i] == '\0')
			return (0);
	}
	return (1);
}

static int
webcfg_user(struct serve_webcfg *c, struct webcfg_line *l, char **cause)
{
	size_t	 i;
	int	 cost;

	if (l->item)
		return (webcfg_fail(cause, l->lineno, l->indent + 1,
		    -HV_EFORMAT, "a list where a mapping is expected"));
	if (l->value == NULL || !webcfg_bcrypt(l->value))
		return (webcfg_fail(cause, l->lineno, l->indent + 1,
		    -HV_EFORMAT, "a user's password must be a bcrypt hash "
		    "($2b$, $2y$ or $2a$, as htpasswd -B writes)"));
	/* crypt(3) fails on any other cost: the user could never log in, and
	 * the failure would look like a wrong password. */
	cost = (l->value[4] - '0') * 10 + (l->value[5] - '0');
	if (cost < SERVE_WEBCFG_MINCOST || cost > SERVE_WEBCFG_MAXCOST)
		return (webcfg_fail(cause, l->lineno, l->indent + 1,
		    -HV_EFORMAT, cost < SERVE_WEBCFG_MINCOST ?
		    "the bcrypt cost is below 4, which crypt(3) refuses" :
		    "the bcrypt cost is above 31, which crypt(3) refuses"));
	if (c->nusers >= SERVE_WEBCFG_MAXUSERS)
		return (webcfg_fail(cause, l->lineno, l->indent + 1,
		    -HV_ELIMIT, "too many users"));
	for (i = 0; i < c->nusers; i++) {
		if (strcmp(c->users[i].name, l->key) == 0)
			return (webcfg_fail(cause, l->lineno, l->indent + 1,
			    -HV_EFORMAT, "this user is named twice"));
	}
	if (strchr(l->key, ':') != NULL)
		return (webcfg_fail(cause, l->lineno, l->indent + 1,
		    -HV_EFORMAT, "a user name cannot hold a colon"));
	c->users = xreallocarray(c->users, c->nusers + 1, sizeof c->users[0]);
	c->users[c->nusers].name = l->key;
	c->users[c->nusers].hash = l->value;
	c->nusers++;
	l->key = l->value = NULL;
	return (0);
}

/* A key of tls_server_config (section 1) or http_server_config (3). */
static int
webcfg_tls(struct serve_webcfg *c, struct webcfg_line *l, int section,
    int *sub, char **cause)
{
	const char	*why;

	if (l->item)
		return (webcfg_fail(cause, l->lineno, l->indent + 1,
		    -HV_EFORMAT, "a list where a mapping is expected"));
	if ((why = serve_tlscfg_key(c, section == 3, l->key, &l->value,
	    sub)) != NULL)
		return (webcfg_fail(cause, l->lineno, l->indent + 1,
		    -HV_EFORMAT, why));
	return (0);
}

/* A line of what a key opened: a cipher suite, or a header. */
static int
webcfg_sub(struct serve_webcfg *c, struct webcfg_line *l, int sub,
    char **cause)
{
	const char	*why;

	if (sub == SERVE_TLSCFG_CIPHERS)
		why = !l->item ? "expected a list item (- NAME)" :
		    serve_tlscfg_cipher(c, l->value);
	else if (sub == SERVE_TLSCFG_HEADERS)
		why = l->item ? "a list where a mapping is expected" :
		    c->nheaders >= 64 ? "too many headers" :
		    serve_tlscfg_header(c, &l->key, &l->value);
	else
		why = "the indentation differs from the line above";
	return (why == NULL ? 0 : webcfg_fail(cause, l->lineno, l->indent + 1,
	    -HV_EFORMAT, why));
}

/* A top-level key; *section: 1 tls_server_config, 2 basic_auth_users,
 * 3 http_server_config. */
static int
webcfg_top(struct serve_webcfg *c, const struct webcfg_line *l,
    int *section, unsigned *seen, char **cause)
{
	if (l->item)
		return (webcfg_fail(cause, l->lineno, 1, -HV_EFORMAT,
		    "a list where a mapping is expected"));
	if (strcmp(l->key, "tls_server_config") == 0)
		*section = 1;
	else if (strcmp(l->key, "basic_auth_users") == 0)
		*section = 2;
	else if (strcmp(l->key, "http_server_config") == 0)
		*section = 3;
	else
		return (webcfg_fail(cause, l->lineno, 1, -HV_EFORMAT,
		    "hvtop reads tls_server_config, http_server_config and "
		    "basic_auth_users, nothing else"));
	if (*seen & (1u << *section))
		return (webcfg_fail(cause, l->lineno, 1, -HV_EFORMAT,
		    "this key is given twice"));
	*seen |= 1u << *section;
	if (l->value != NULL && strcmp(l->value, "") != 0)
		return (webcfg_fail(cause, l->lineno, strlen(l->key) + 3,
		    -HV_EFORMAT, "expected the mapping on the lines below"));
	(void)c;
	return (0);
}

/* Where the parse is: the section, what its last key opened, and the
 * indentation of each level (0 until seen). */
struct webcfg_state {
	int		 section;
	int		 sub;
	size_t		 indent1, indent2;
	unsigned	 seen;
};

static int
webcfg_dispatch(struct serve_webcfg *c, struct webcfg_line *l,
    struct webcfg_state *st, char **cause)
{
	if (l->indent == 0) {
		st->indent1 = st->indent2 = 0;
		st->sub = SERVE_TLSCFG_NONE;
		return (webcfg_top(c, l, &st->section, &st->seen, cause));
	}
	if (st->section == 0)
		return (webcfg_fail(cause, l->lineno, 1, -HV_EFORMAT,
		    "an indented line with no key above it"));
	if (st->indent1 == 0 || l->indent == st->indent1) {
		st->indent1 = l->indent;
		st->indent2 = 0;
		st->sub = SERVE_TLSCFG_NONE;
		return (st->section == 2 ? webcfg_user(c, l, cause) :
		    webcfg_tls(c, l, st->section, &st->sub, cause));
	}
	if (st->sub != SERVE_TLSCFG_NONE && l->indent > st->indent1 &&
	    (st->indent2 == 0 || l->indent == st->indent2)) {
		st->indent2 = l->indent;
		return (webcfg_sub(c, l, st->sub, cause));
	}
	return (webcfg_fail(cause, l->lineno, l->indent + 1, -HV_EFORMAT,
	    "the indentation differs from the line above (a key's lines "
	    "below it are indented alike)"));
}

/* What the keys say together, once all are read. */
static int
webcfg_whole(struct serve_webcfg *c, const struct webcfg_state *st,
    size_t lineno, char **cause)
{
	char	*why;
	int	 error;

	if ((c->cert_file == NULL) != (c->key_file == NULL))
		return (webcfg_fail(cause, lineno, 1, -HV_EFORMAT,
		    "tls_server_config needs both cert_file and key_file"));
	if ((st->seen & 2) && c->cert_file == NULL)
		return (webcfg_fail(cause, lineno, 1, -HV_EFORMAT,
		    "tls_server_config needs cert_file and key_file"));
	if ((why = serve_tlscfg_check(c)) != NULL) {
		error = webcfg_fail(cause, lineno, 1, -HV_EFORMAT, why);
		free(why);
		return (error);
	}
	return (0);
}

int
serve_webcfg_parse(const char *buf, size_t len, struct serve_webcfg **out,
    char **cause)
{
	struct serve_webcfg	*c;
	struct webcfg_line	 l;
	struct webcfg_state	 st;
	const char		*p, *nl, *end = buf + len;
	size_t			 lineno = 0, n;
	int			 r, error = 0;

	*out = NULL;
	if (len > SERVE_WEBCFG_MAXLEN) {
		*cause = xasprintf("%zu bytes, more than the %d a web "
		    "configuration may have", len, SERVE_WEBCFG_MAXLEN);
		return (-HV_ELIMIT);
	}
	memset(&st, 0, sizeof st);
	c = xcalloc(1, sizeof *c);
	c->prefer_server = -1;
	for (p = buf; p < end && error == 0; p = nl + 1) {
		lineno++;
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		n = (size_t)(nl - p);
		if (n > 0 && p[n - 1] == '\r')
			n--;
		if ((r = webcfg_line(p, n, lineno, &l, cause)) < 0) {
			error = r;
			break;
		}
		if (r == 1)
			continue;
		error = webcfg_dispatch(c, &l, &st, cause);
		free(l.key);
		free(l.value);
	}
	if (error == 0)
		error = webcfg_whole(c, &st, lineno, cause);
	if (error != 0) {
		serve_webcfg_free(c);
		return (error);
	}
	*out = c;
	return (0);
}

void
serve_webcfg_free(struct serve_webcfg *c)
{
	size_t	 i;

	if (c == NULL)
		return;
	for (i = 0; i < c->nusers; i++) {
		free(c->users[i].name);
		free(c->users[i].hash);
	}
	free(c->users);
	for (i = 0; i < c->nheaders; i++) {
		free(c->headers[i].name);
		free(c->headers[i].value);
	}
	free(c->headers);
	free(c->cert_file);
	free(c->key_file);
	free(c->client_ca_file);
	free(c);
}
