/*
 * libFuzzer harness for the metrics endpoint's text rules: the input up
 * to the first NUL is a --serve argument, a metric name and a label or
 * help text; the rest, a unit.  The address parser must either succeed
 * or give a cause; a family name must be in Prometheus' form, free of
 * the words promtool's lint refuses and of doubled or outer underscores,
 * and end with its unit; a unit must be snake case; escaped text must be
 * valid UTF-8 without control characters, with every backslash (and
 * quote, when asked) escaped; read as Accept and Accept-Encoding headers,
 * the text gives a format and a yes or no.  Any violation aborts.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config/serve-addr.h"
#include "export/om.h"
#include "util/strbuf.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const char *const lint[] = {
	"s", "ms", "us", "ns", "sec", "b", "kb", "mb", "gb", "tb", "pb",
	"m", "h", "d", "counter", "gauge", "histogram", "summary", "untyped",
};

static void
check_words(const char *s)
{
	const char	*w, *end;
	size_t		 len, i;

	if (s[0] == '_' || s[strlen(s) - 1] == '_' || strstr(s, "__") != NULL)
		abort();
	for (w = s; ; w = end + 1) {
		end = strchr(w, '_');
		len = end != NULL ? (size_t)(end - w) : strlen(w);
		for (i = 0; i < sizeof lint / sizeof lint[0]; i++) {
			if (strlen(lint[i]) == len &&
			    strncmp(lint[i], w, len) == 0)
				abort();
		}
		if (end == NULL)
			break;
	}
}

/* Escaped text: UTF-8, no control characters, escapes well formed. */
static void
check_escaped(const char *s, int quote)
{
	const unsigned char	*p = (const unsigned char *)s;

	while (*p != '\0') {
		if (*p < 0x20 || *p == 0x7f)
			abort();
		if (*p == '\\') {
			if (p[1] != '\\' && !(quote && p[1] == '"'))
				abort();
			p += 2;
			continue;
		}
		if (*p == '"' && quote)
			abort();
		if (*p >= 0x80) {
			size_t	 n = *p >= 0xf0 ? 4 : *p >= 0xe0 ? 3 : 2;
			size_t	 i;

			if (*p < 0xc2 || *p > 0xf4)
				abort();
			for (i = 1; i < n; i++) {
				if ((p[i] & 0xc0) != 0x80)
					abort();
			}
			p += n;
			continue;
		}
		p++;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct serve_addr	 a;
	struct strbuf		 sb = { 0 };
	const uint8_t		*nul;
	char			*text, *unit, *u, *name, *w, *cause = NULL;
	size_t			 n;
	double			 scale;
	int			 fmt;

	if (size > 4096)
		return (0);
	nul = memchr(data, 0, size);
	n = nul != NULL ? (size_t)(nul - data) : size;
	text = strndup((const char *)data, n);
	unit = nul != NULL ? strndup((const char *)nul + 1,
	    size - n - 1) : strdup("");
	if (text == NULL || unit == NULL)
		abort();

	if (serve_addr_parse(text, &a, &cause) != 0) {
		if (cause == NULL)
			abort();
		free(cause);
	} else if (a.port > 65535 || strlen(a.host) >= sizeof a.host)
		abort();

	u = om_name_unit(unit, &scale);
	if (!(scale > 0))
		abort();
	if (u[0] != '\0') {
		if (strspn(u, "abcdefghijklmnopqrstuvwxyz0123456789_") !=
		    strlen(u))
			abort();
		check_words(u);
	}
	name = om_name_metric(text, u);
	if (!om_name_valid(name) || strncmp(name, "hvtop_metric", 12) != 0)
		abort();
	/* The first word may have joined the prefix ("hvtop_metricmb"). */
	if ((w = strchr(name + 12, '_')) != NULL)
		check_words(w + 1);
	if (u[0] != '\0' && (strlen(name) <= strlen(u) ||
	    strcmp(name + strlen(name) - strlen(u), u) != 0))
		abort();
	free(name);
	free(u);

	fmt = om_accept(text);
	if (fmt < -1 || fmt >= OM_NFORMATS)
		abort();
	fmt = om_accept_gzip(text);
	if (fmt != 0 && fmt != 1)
		abort();

	om_name_escape(text, 1, &sb);
	check_escaped(sb.s != NULL ? sb.s : "", 1);
	strbuf_reset(&sb);
	om_name_escape(text, 0, &sb);
	if (sb.s != NULL && strchr(sb.s, '"') == NULL &&
	    memchr(text, '"', n) != NULL)
		abort();
	strbuf_free(&sb);
	free(text);
	free(unit);
	return (0);
}
