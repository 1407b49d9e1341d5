/*
 * events/NAME files: an event as comma-separated terms, and the config
 * words it stands for once its parameters are known.  A term is
 * NAME=NUMBER (decimal or 0x hex), a bare NAME (the value 1, like perf's
 * "edge"), NAME=? (a parameter the user supplies, as current kernels
 * write) or NAME=PARAMNAME (the 2014 hv_24x7 kernel's
 * "starting_index=core").  Pure: no I/O.
 */
#include "config.h"

#include "pmu/pmu.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "util/hverr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static int
pmu_event_isident(int c, int first)
{
	if (isalpha(c) || c == '_')
		return (1);
	return (!first && (isdigit(c) || c == '-'));
}

/* Parse a number at [p, end): 0x hex or decimal, no overflow. */
static int
pmu_event_number(const char *p, const char *end, uint64_t *out)
{
	uint64_t	 v = 0;
	unsigned	 d, base = 10;

	if (end - p > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	if (p == end)
		return (-1);
	for (; p < end; p++) {
		if (isdigit((unsigned char)*p))
			d = (unsigned)(*p - '0');
		else if (base == 16 && isxdigit((unsigned char)*p))
			d = (unsigned)(tolower((unsigned char)*p) - 'a' + 10);
		else
			return (-1);
		if (v > (UINT64_MAX - d) / base)
			return (-2);
		v = v * base + d;
	}
	*out = v;
	return (0);
}

/*
 * The value [vs, ve) of term t, within the event's text: '?', a
 * parameter's name or a number.  Returns 0, or -1 with *cause set.
 */
static int
pmu_event_value(const char *name, const char *text, struct pmu_term *t,
    const char *vs, const char *ve, char **cause)
{
	const char	*q;
	int		 r;

	if (ve - vs == 1 && *vs == '?') {
		t->kind = PMU_TERM_PARAM;
		t->param = xstrdup(t->name);
	} else if (vs < ve && pmu_event_isident((unsigned char)*vs, 1)) {
		for (q = vs; q < ve; q++) {
			if (!pmu_event_isident((unsigned char)*q, 0))
				break;
		}
		if (q != ve) {
			*cause = xasprintf("event '%s', column %zu: bad "
			    "parameter name", name, (size_t)(q - text) + 1);
			return (-1);
		}
		t->kind = PMU_TERM_PARAM;
		t->param = xstrndup(vs, (size_t)(ve - vs));
	} else {
		t->kind = PMU_TERM_VALUE;
		r = pmu_event_number(vs, ve, &t->value);
		if (r != 0) {
			*cause = xasprintf("event '%s', column %zu: %s '%.*s'",
			    name, (size_t)(vs - text) + 1, r == -2 ?
			    "number does not fit in 64 bits:" : "expected a "
			    "number, '?' or a parameter name, found",
			    (int)(ve - vs), vs);
			return (-1);
		}
	}
	return (0);
}

int
pmu_event_parse(const char *name, const char *text, size_t len,
    struct pmu_event *out, char **cause)
{
	const char	*p = text, *end = text + len, *ts, *te, *vs;
	struct pmu_term	*t;
	size_t		 cap = 0;

	memset(out, 0, sizeof *out);
	while (end > text && (isspace((unsigned char)end[-1]) ||
	    end[-1] == '\0'))
		end--;
	if (p == end) {
		*cause = xasprintf("event '%s': no terms", name);
		return (-HV_EFORMAT);
	}
	for (;;) {
		ts = p;
		if (p == end || !pmu_event_isident((unsigned char)*p, 1)) {
			*cause = xasprintf("event '%s', column %zu: expected "
			    "a term name", name, (size_t)(p - text) + 1);
			goto fail;
		}
		while (p < end && pmu_event_isident((unsigned char)*p, 0))
			p++;
		te = p;
		if (out->nterms == cap) {
			cap = cap == 0 ? 8 : cap * 2;
			out->terms = xreallocarray(out->terms, cap,
			    sizeof *out->terms);
		}
		t = &out->terms[out->nterms];
		memset(t, 0, sizeof *t);
		t->name = xstrndup(ts, (size_t)(te - ts));
		out->nterms++;
		if (p < end && *p == '=') {
			vs = ++p;
			while (p < end && *p != ',')
				p++;
			if (pmu_event_value(name, text, t, vs, p, cause) != 0)
				goto fail;
		} else {
			/* A bare term is a flag: perf sets it to 1. */
			t->kind = PMU_TERM_VALUE;
			t->value = 1;
		}
		if (p == end)
			break;
		if (*p != ',') {
			*cause = xasprintf("event '%s', column %zu: unexpected "
			    "'%c'", name, (size_t)(p - text) + 1,
			    isprint((unsigned char)*p) ? *p : '?');
			goto fail;
		}
		p++;
	}
	out->name = xstrdup(name);
	return (0);
fail:
	pmu_event_clear(out);
	return (-HV_EFORMAT);
}

void
pmu_event_clear(struct pmu_event *ev)
{
	size_t	 i;

	if (ev == NULL)
		return;
	for (i = 0; i < ev->nterms; i++) {
		free(ev->terms[i].name);
		free(ev->terms[i].param);
	}
	free(ev->terms);
	free(ev->name);
	memset(ev, 0, sizeof *ev);
}

const struct pmu_term *
pmu_event_term(const struct pmu_event *ev, const char *name)
{
	size_t	 i;

	for (i = 0; i < ev->nterms; i++) {
		if (strcmp(ev->terms[i].name, name) == 0)
			return (&ev->terms[i]);
	}
	return (NULL);
}

int
pmu_event_has_params(const struct pmu_event *ev)
{
	size_t	 i;

	for (i = 0; i < ev->nterms; i++) {
		if (ev->terms[i].kind == PMU_TERM_PARAM)
			return (1);
	}
	return (0);
}

char *
pmu_event_text(const struct pmu_event *ev)
{
	const struct pmu_term	*t;
	struct strbuf		 sb = { 0 };
	size_t			 i;

	for (i = 0; i < ev->nterms; i++) {
		t = &ev->terms[i];
		if (i > 0)
			strbuf_addc(&sb, ',');
		if (t->kind == PMU_TERM_PARAM)
			strbuf_addf(&sb, "%s=%s", t->name,
			    strcmp(t->param, t->name) == 0 ? "?" : t->param);
		else
			strbuf_addf(&sb, "%s=0x%llx", t->name,
			    (unsigned long long)t->value);
	}
	return (strbuf_detach(&sb));
}

static const struct pmu_param *
pmu_event_param(const struct pmu_param *params, size_t n, const char *name)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		if (strcmp(params[i].name, name) == 0)
			return (&params[i]);
	}
	return (NULL);
}

/* Set one term's value: through its format, or a whole raw word. */
static int
pmu_event_set(const char *evname, const char *term, uint64_t value,
    const struct pmu_format *fmts, size_t nfmts,
    uint64_t cfg[PMU_CONFIG_WORDS], char **cause)
{
	const struct pmu_format	*f;
	char			*c = NULL;
	int			 error;

	if ((f = pmu_format_find(fmts, nfmts, term)) != NULL) {
		if ((error = pmu_format_encode(f, value, cfg, &c)) != 0) {
			*cause = xasprintf("event '%s': %s", evname, c);
			free(c);
		}
		return (error);
	}
	if (strcmp(term, "config") == 0)
		cfg[0] = value;
	else if (strcmp(term, "config1") == 0)
		cfg[1] = value;
	else if (strcmp(term, "config2") == 0)
		cfg[2] = value;
	else {
		*cause = xasprintf("event '%s': term '%s' names no format of "
		    "this PMU", evname, term);
		return (-HV_ENOENT);
	}
	return (0);
}

int
pmu_event_encode(const struct pmu_event *ev, const struct pmu_format *fmts,
    size_t nfmts, const struct pmu_param *params, size_t nparams,
    uint64_t cfg[PMU_CONFIG_WORDS], char **cause)
{
	const struct pmu_term	*t;
	const struct pmu_param	*pp;
	unsigned char		*used;
	size_t			 i;
	int			 error = 0;

	memset(cfg, 0, PMU_CONFIG_WORDS * sizeof *cfg);
	used = nparams == 0 ? NULL : xcalloc(nparams, 1);
	for (i = 0; i < ev->nterms; i++) {
		t = &ev->terms[i];
		if (t->kind == PMU_TERM_VALUE) {
			error = pmu_event_set(ev->name, t->name, t->value,
			    fmts, nfmts, cfg, cause);
			if (error != 0)
				goto out;
			continue;
		}
		pp = pmu_event_param(params, nparams, t->param);
		if (pp == NULL)
			pp = pmu_event_param(params, nparams, t->name);
		if (pp == NULL) {
			*cause = xasprintf("event '%s': required parameter "
			    "'%s' not specified", ev->name, t->param);
			error = -HV_ENOENT;
			goto out;
		}
		used[pp - params] = 1;
		error = pmu_event_set(ev->name, t->name, pp->value, fmts,
		    nfmts, cfg, cause);
		if (error != 0)
			goto out;
	}
	/* Caller's fields on top of the event's own (perf: later wins). */
	for (i = 0; i < nparams; i++) {
		if (used[i] ||
		    pmu_format_find(fmts, nfmts, params[i].name) == NULL)
			continue;
		error = pmu_event_set(ev->name, params[i].name,
		    params[i].value, fmts, nfmts, cfg, cause);
		if (error != 0)
			goto out;
	}
out:
	free(used);
	return (error);
}
