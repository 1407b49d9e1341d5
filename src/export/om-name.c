/*
 * How the metrics endpoint names things, and how it writes text it did
 * not make: Prometheus base units for the units catalogs and metric files
 * write, metric family names that Prometheus' lint accepts, and label and
 * help text that is valid UTF-8 and escaped.  Pure: strings in, strings
 * out, so the fuzzer can feed it anything a catalog might hold.
 */
#include "config.h"

#include "export/om.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/strbuf.h"
#include "util/xalloc.h"

struct om_name_conv {
	const char	*text;		/* as catalogs and metric files write */
	const char	*base;		/* Prometheus base unit */
	double		 scale;		/* value in base units per unit */
};

/* Decimal prefixes as perf and IBM's catalogs use them; IEC ones too. */
static const struct om_name_conv om_units[] = {
	{ "%",		"ratio",		0.01 },
	{ "percent",	"ratio",		0.01 },
	{ "ratio",	"ratio",		1 },
	{ "/s",		"per_second",		1 },
	{ "1/s",	"per_second",		1 },
	{ "/sec",	"per_second",		1 },
	{ "per sec",	"per_second",		1 },
	{ "persec",	"per_second",		1 },
	{ "per second",	"per_second",		1 },
	{ "Hz",		"hertz",		1 },
	{ "kHz",	"hertz",		1e3 },
	{ "MHz",	"hertz",		1e6 },
	{ "GHz",	"hertz",		1e9 },
	{ "s",		"seconds",		1 },
	{ "sec",	"seconds",		1 },
	{ "seconds",	"seconds",		1 },
	{ "ms",		"seconds",		1e-3 },
	{ "us",		"seconds",		1e-6 },
	{ "ns",		"seconds",		1e-9 },
	{ "min",	"seconds",		60 },
	{ "B",		"bytes",		1 },
	{ "bytes",	"bytes",		1 },
	{ "KB",		"bytes",		1e3 },
	{ "MB",		"bytes",		1e6 },
	{ "GB",		"bytes",		1e9 },
	{ "TB",		"bytes",		1e12 },
	{ "KiB",	"bytes",		1024.0 },
	{ "MiB",	"bytes",		1048576.0 },
	{ "GiB",	"bytes",		1073741824.0 },
	{ "B/s",	"bytes_per_second",	1 },
	{ "bytes/s",	"bytes_per_second",	1 },
	{ "bytes/sec",	"bytes_per_second",	1 },
	{ "KB/s",	"bytes_per_second",	1e3 },
	{ "MB/s",	"bytes_per_second",	1e6 },
	{ "GB/s",	"bytes_per_second",	1e9 },
	{ "TB/s",	"bytes_per_second",	1e12 },
	{ "KiB/s",	"bytes_per_second",	1024.0 },
	{ "MiB/s",	"bytes_per_second",	1048576.0 },
	{ "GiB/s",	"bytes_per_second",	1073741824.0 },
};

/*
 * Words Prometheus' lint takes for an abbreviated unit or a metric type;
 * a name holding one as a word is refused by promtool check metrics.
 */
static const char *const om_lint_words[] = {
	"s", "ms", "us", "ns", "sec", "b", "kb", "mb", "gb", "tb", "pb",
	"m", "h", "d", "counter", "gauge", "histogram", "summary", "untyped",
};

/* Suffixes the formats keep for the samples of other types. */
static const char *const om_reserved_suffixes[] = {
	"total", "count", "sum", "bucket", "created", "info", "gcount",
	"gsum",
};

#define OM_NLINT	(sizeof om_lint_words / sizeof om_lint_words[0])
#define OM_NRESERVED	(sizeof om_reserved_suffixes / \
			    sizeof om_reserved_suffixes[0])

static int
om_name_in(const char *w, const char *const *list, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		if (strcmp(list[i], w) == 0)
			return (1);
	}
	return (0);
}

/* Words of a name or a unit, each allocated. */
struct om_name_words {
	char	**w;
	size_t	  n;
};

static void
om_name_words_add(struct om_name_words *ws, struct strbuf *sb)
{
	ws->w = xreallocarray(ws->w, ws->n + 1, sizeof *ws->w);
	ws->w[ws->n++] = strbuf_detach(sb);
}

static void
om_name_words_free(struct om_name_words *ws)
{
	size_t	 i;

	for (i = 0; i < ws->n; i++)
		free(ws->w[i]);
	free(ws->w);
	ws->w = NULL;
	ws->n = 0;
}

/*
 * Append the lower-case alphanumeric words of s.  In a unit, "/" is the
 * word "per" and "%" "percent"; in a name they only separate words (the
 * unit says what "%" meant).  Returns the number of words added.
 */
static size_t
om_name_words_of(const char *s, int unit, struct om_name_words *ws)
{
	const unsigned char	*p;
	struct strbuf		 sb = { 0 };
	size_t			 n = ws->n;

	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')) {
			strbuf_addc(&sb, (char)*p);
			continue;
		}
		if (*p >= 'A' && *p <= 'Z') {
			strbuf_addc(&sb, (char)(*p | 0x20));
			continue;
		}
		if (sb.len > 0)
			om_name_words_add(ws, &sb);
		if (unit && (*p == '/' || *p == '%')) {
			strbuf_adds(&sb, *p == '/' ? "per" : "percent");
			om_name_words_add(ws, &sb);
		}
	}
	if (sb.len > 0)
		om_name_words_add(ws, &sb);
	return (ws->n - n);
}

/* Join word i and the word after it into word i. */
static void
om_name_words_merge(struct om_name_words *ws, size_t i)
{
	char	*m;

	m = xasprintf("%s%s", ws->w[i], ws->w[i + 1]);
	free(ws->w[i]);
	free(ws->w[i + 1]);
	ws->w[i] = m;
	memmove(&ws->w[i + 1], &ws->w[i + 2], (ws->n - i - 2) *
	    sizeof *ws->w);
	ws->n--;
}

/*
 * Join every word from index from on that Prometheus' lint takes for a
 * unit or a type to the word after it, or, when it is the last, to the
 * word before it (which may be before from, and is then left alone).  A
 * joined word is looked at again: "m" and "b" make "mb".  Returns 0, or
 * -1 when a lone lint word is left that has nothing to join.
 */
static int
om_name_words_join(struct om_name_words *ws, size_t from)
{
	size_t	 i;

	for (;;) {
		for (i = from; i < ws->n; i++) {
			if (om_name_in(ws->w[i], om_lint_words,
			    OM_NLINT))
				break;
		}
		if (i == ws->n)
			return (0);
		if (i + 1 < ws->n)
			om_name_words_merge(ws, i);
		else if (i > 0)
			om_name_words_merge(ws, i - 1);
		else
			return (-1);
	}
}

/*
 * A last word the formats keep for the samples of other types ("_total"
 * of a counter) is joined to the word before.  Returns 0, or -1 when it
 * is the only word.
 */
static int
om_name_words_unreserve(struct om_name_words *ws)
{
	if (ws->n == 0 || !om_name_in(ws->w[ws->n - 1],
	    om_reserved_suffixes, OM_NRESERVED))
		return (0);
	if (ws->n == 1)
		return (-1);
	om_name_words_merge(ws, ws->n - 2);
	return (0);
}

static char *
om_name_words_join_all(const struct om_name_words *ws)
{
	struct strbuf	 sb = { 0 };
	size_t		 i;

	for (i = 0; i < ws->n; i++) {
		if (i > 0)
			strbuf_addc(&sb, '_');
		strbuf_adds(&sb, ws->w[i]);
	}
	strbuf_adds(&sb, "");
	return (strbuf_detach(&sb));
}

char *
om_name_unit(const char *unit, double *scale)
{
	struct om_name_words	 ws = { NULL, 0 };
	char			*t, *u;
	size_t			 i, len;

	*scale = 1;
	if (unit == NULL)
		return (xstrdup(""));
	while (*unit == ' ')
		unit++;
	len = strlen(unit);
	while (len > 0 && unit[len - 1] == ' ')
		len--;
	for (i = 0; i < sizeof om_units / sizeof om_units[0]; i++) {
		if (strlen(om_units[i].text) == len &&
		    strncasecmp(om_units[i].text, unit, len) == 0) {
			*scale = om_units[i].scale;
			return (xstrdup(om_units[i].base));
		}
	}
	/* Not a unit hvtop knows: its words, kept clear of the lint; none
	 * rather than a name promtool refuses. */
	t = xstrndup(unit, len);
	om_name_words_of(t, 1, &ws);
	free(t);
	if (ws.n == 0 || om_name_words_join(&ws, 0) != 0 ||
	    om_name_words_unreserve(&ws) != 0) {
		om_name_words_free(&ws);
		return (xstrdup(""));
	}
	u = om_name_words_join_all(&ws);
	om_name_words_free(&ws);
	return (u);
}

#define OM_METRIC_PREFIX	"hvtop_metric"

char *
om_name_metric(const char *name, const char *unit)
{
	struct om_name_words	 ws = { NULL, 0 };
	struct strbuf		 sb = { 0 };
	char			*n;
	size_t			 ulen;

	strbuf_adds(&sb, OM_METRIC_PREFIX);
	om_name_words_add(&ws, &sb);
	if (om_name_words_of(name, 0, &ws) == 0) {
		strbuf_adds(&sb, "unnamed");
		om_name_words_add(&ws, &sb);
	}
	om_name_words_join(&ws, 1);
	if (unit == NULL || unit[0] == '\0')
		om_name_words_unreserve(&ws);
	n = om_name_words_join_all(&ws);
	om_name_words_free(&ws);
	if (unit == NULL || unit[0] == '\0')
		return (n);
	/* Not twice: a name that already ends in its unit keeps it. */
	strbuf_adds(&sb, n);
	free(n);
	ulen = strlen(unit);
	if (sb.len < ulen + 1 || strcmp(sb.s + sb.len - ulen, unit) != 0 ||
	    sb.s[sb.len - ulen - 1] != '_') {
		strbuf_addc(&sb, '_');
		strbuf_adds(&sb, unit);
	}
	return (strbuf_detach(&sb));
}

int
om_name_valid(const char *s)
{
	const char	*p;

	if (s[0] == '\0' || (s[0] >= '0' && s[0] <= '9'))
		return (0);
	for (p = s; *p != '\0'; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || *p == '_' || *p == ':'))
			return (0);
	}
	return (1);
}

/*
 * Length of the valid UTF-8 sequence at p (at most n bytes), 0 when the
 * bytes there are not one: such bytes are shown as '?'.
 */
static size_t
om_name_utf8(const unsigned char *p, size_t n)
{
	size_t	 len, i;

	if (p[0] < 0x80)
		return (1);
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4;
	else
		return (0);
	if (len > n)
		return (0);
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return (0);
	}
	/* No overlong forms, surrogates or code points past U+10FFFF. */
	if ((p[0] == 0xe0 && p[1] < 0xa0) || (p[0] == 0xed && p[1] >= 0xa0) ||
	    (p[0] == 0xf0 && p[1] < 0x90) || (p[0] == 0xf4 && p[1] >= 0x90))
		return (0);
	return (len);
}

void
om_name_escape(const char *s, int quote, struct strbuf *sb)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 n = strlen(s), len;

	while (n > 0) {
		if ((len = om_name_utf8(p, n)) == 0) {
			strbuf_addc(sb, '?');
			p++;
			n--;
			continue;
		}
		if (len == 1 && (*p < 0x20 || *p == 0x7f))
			strbuf_addc(sb, ' ');
		else if (*p == '\\')
			strbuf_add(sb, "\\\\", 2);
		else if (*p == '"' && quote)
			strbuf_add(sb, "\\\"", 2);
		else
			strbuf_add(sb, (const char *)p, len);
		p += len;
		n -= len;
	}
}
