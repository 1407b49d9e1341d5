/*
 * The endpoint's renderer: samples in, frames out, frames rendered as
 * OpenMetrics 1.0.0 or the Prometheus text format 0.0.4.  No I/O, no
 * clock, no globals beyond const tables: the server feeds it and the unit
 * tests drive it directly.
 *
 * A layout is what a frame's text is made of that does not change from
 * one sample to the next: every series' label set, already escaped, and
 * the metric families with their names, units and help.  It is built
 * again only when the engine is (a new selection, a catalog reload), and
 * is shared by every frame made from it.  A frame holds the values of one
 * sample and a reference to its layout, so it can be rendered in another
 * thread long after the engine it came from is gone.
 *
 * What a frame may show:
 * - a counter's value is the source's raw 64-bit accumulator, never a
 *   difference, so Prometheus' rate() needs no help;
 * - a counter never goes backwards between frames: a reading below the
 *   last one shown is left out (the kernel's failure path returns such
 *   readings), unless the next reading confirms it, which is a reset;
 * - the catalog version is a label of every counter, so a catalog change
 *   ends the old series and starts new ones: Prometheus never computes an
 *   increase across two catalogs;
 * - a metric's value is the engine's for the last interval, in base
 *   units; one without a value is left out, never shown as a number.
 */
#include "config.h"

#include "serve/serve.h"

#include <ctype.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalog/catalog.h"
#include "hcall/hcall.h"
#include "engine/engine.h"
#include "model/selection.h"
#include "model/raw.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* ---- formats ------------------------------------------------------- */

/* The quality a media range gives, from its parameters; -1 if malformed. */
static double
serve_accept_q(const char *p, const char *end)
{
	const char	*v;
	double		 q = 1.0;
	int		 digits;

	while ((p = memchr(p, ';', (size_t)(end - p))) != NULL) {
		p++;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (end - p < 2 || (p[0] != 'q' && p[0] != 'Q') || p[1] != '=')
			continue;
		v = p + 2;
		/* qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ) */
		if (v >= end || (*v != '0' && *v != '1'))
			return (-1);
		q = *v++ - '0';
		if (v < end && *v == '.') {
			for (v++, digits = 0; v < end && isdigit((unsigned char)
			    *v) && digits < 3; v++, digits++)
				q += (*v - '0') / (digits == 0 ? 10.0 :
				    digits == 1 ? 100.0 : 1000.0);
		}
		while (v < end && (*v == ' ' || *v == '\t'))
			v++;
		if ((v < end && *v != ';') || q > 1.0)
			return (-1);
	}
	return (q);
}

int
serve_om_accept(const char *accept)
{
	const char	*p, *end, *type;
	size_t		 tlen;
	double		 q, om = -1, text[3] = { -1, -1, -1 };
	int		 i;

	if (accept == NULL)
		return (SERVE_PROMETHEUS);
	for (p = accept; *p != '\0'; p = *end != '\0' ? end + 1 : end) {
		end = p + strcspn(p, ",");
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		type = p;
		tlen = strcspn(p, ";, \t");
		if ((q = serve_accept_q(type + tlen, end)) < 0)
			continue;
		/* The most specific range that names a type decides it. */
		if (tlen == 28 && strncasecmp(type,
		    "application/openmetrics-text", tlen) == 0)
			om = q > om ? q : om;
		else if (tlen == 10 && strncasecmp(type, "text/plain",
		    tlen) == 0)
			text[0] = q > text[0] ? q : text[0];
		else if (tlen == 6 && strncasecmp(type, "text/*", tlen) == 0)
			text[1] = q > text[1] ? q : text[1];
		else if (tlen == 3 && strncmp(type, "*/*", tlen) == 0)
			text[2] = q > text[2] ? q : text[2];
	}
	for (i = 0; i < 3 && text[i] < 0; i++)
		continue;
	q = i < 3 ? text[i] : -1;
	/* Prometheus asks for OpenMetrics first; curl and browsers don't. */
	if (om > 0 && om >= q)
		return (SERVE_OPENMETRICS);
	if (q > 0)
		return (SERVE_PROMETHEUS);
	/* The text format refused by name, anything else welcome. */
	if (om < 0 && text[2] > 0)
		return (SERVE_OPENMETRICS);
	/* Both refused by name (q=0): nothing fits.  Neither named: the
	 * default. */
	if (om == 0 || q == 0)
		return (-1);
	return (SERVE_PROMETHEUS);
}

const char *
serve_om_content_type(int format)
{
	if (format == SERVE_OPENMETRICS)
		return ("application/openmetrics-text; version=1.0.0; "
		    "charset=utf-8");
	return ("text/plain; version=0.0.4; charset=utf-8");
}

/* ---- text ---------------------------------------------------------- */

/* A finite double; an integer exactly. */
static void
serve_double(double v, struct strbuf *sb)
{
	char	 buf[32];
	int	 n;

	if (v == floor(v) && fabs(v) < 9007199254740992.0) {
		if (v < 0) {
			strbuf_addc(sb, '-');
			v = -v;
		}
		strbuf_addu64(sb, (uint64_t)v);
		return;
	}
	/*
	 * Fifteen significant digits: all a double holds for certain, and
	 * past the noise of the arithmetic that made the value
	 * (4086912000.0000005 shows as 4086912000).
	 */
	n = snprintf(buf, sizeof buf, "%.15g", v);
	strbuf_add(sb, buf, (size_t)n);
}

/* ---- layouts ------------------------------------------------------- */

struct serve_label {
	size_t		 off;		/* "{...}" in the layout's text */
	size_t		 len;
};

struct serve_counter {
	struct serve_label label;
	size_t		 k;		/* selection counter */
};

struct serve_tick {
	struct serve_label label;
	size_t		 first;		/* its counters in tick_ks */
	size_t		 n;
};

struct serve_family {
	char		*name;
	char		*unit;		/* "" for none */
	char		*help;
	size_t		 first;		/* its series in gauges */
	size_t		 n;
};

struct serve_gauge {
	struct serve_label label;
	size_t		 view;
	size_t		 cell;
	double		 scale;
};

struct serve_layout {
	atomic_uint		 refs;
	const struct engine	*engine;	/* identity only */
	unsigned		 generation;
	uint64_t		 catalog_version;
	char			*source;
	char			*source_label;
	uint64_t		 timebase_hz;
	struct strbuf		 text;
	struct serve_counter	*counters;
	size_t			 ncounters;
	struct serve_tick	*ticks;
	size_t			 nticks;
	size_t			*tick_ks;
	struct serve_family	*families;
	size_t			 nfamilies;
	struct serve_gauge	*gauges;
	size_t			 ngauges;
};

/* What was last shown for a counter (see serve_guard()). */
struct serve_guard {
	uint64_t	 last;
	uint64_t	 prev;
	uint8_t		 has_last;
	uint8_t		 has_prev;
};

struct serve_om {
	struct serve_info	 info;		/* its strings are these: */
	char			*source;
	char			*source_label;
	struct serve_layout	*layout;
	struct serve_guard	*cguard;	/* per layout counter */
	struct serve_guard	*tguard;	/* per layout tick */
	uint64_t		 samples;
	uint64_t		 failures;
	uint64_t		 calls;
	uint64_t		 reads[SERVE_NREASONS];
};

struct serve_health {
	uint64_t	 samples;
	uint64_t	 failures;
	uint64_t	 calls_total;
	uint64_t	 reads[SERVE_NREASONS];
	int		 have_sample;	/* the fields below are set */
	unsigned	 calls;
	unsigned	 naive_calls;
	size_t		 ncounters;
	double		 interval;
	double		 duration;
	double		 wall;
	uint64_t	 catalog_version;
};

struct serve_frame {
	struct serve_layout	*layout;
	uint64_t		*cval;
	uint8_t			*chas;
	uint64_t		*tval;
	uint8_t			*thas;
	double			*gval;
	uint8_t			*ghas;
	struct serve_health	 health;
};

static const char *const serve_reason_names[SERVE_NREASONS] = {
	"failed", "denied", "missing", "busy", "backwards",
};

static struct serve_layout *
serve_layout_ref(struct serve_layout *l)
{
	atomic_fetch_add(&l->refs, 1);
	return (l);
}

static void
serve_layout_unref(struct serve_layout *l)
{
	size_t	 i;

	if (l == NULL || atomic_fetch_sub(&l->refs, 1) != 1)
		return;
	for (i = 0; i < l->nfamilies; i++) {
		free(l->families[i].name);
		free(l->families[i].unit);
		free(l->families[i].help);
	}
	free(l->families);
	free(l->gauges);
	free(l->counters);
	free(l->ticks);
	free(l->tick_ks);
	free(l->source);
	free(l->source_label);
	strbuf_free(&l->text);
	free(l);
}

static struct serve_layout *
serve_layout_empty(const struct serve_info *info)
{
	struct serve_layout	*l;

	l = xcalloc(1, sizeof *l);
	atomic_init(&l->refs, 1);
	l->source = xstrdup(info->source != NULL ? info->source : "");
	l->source_label = xstrdup(info->source_label != NULL ?
	    info->source_label : "");
	l->timebase_hz = info->timebase_hz;
	strbuf_adds(&l->text, "");
	return (l);
}

/* Open a label set in the layout's text. */
static size_t
serve_label_begin(struct serve_layout *l)
{
	strbuf_addc(&l->text, '{');
	return (l->text.len - 1);
}

static void
serve_label_add(struct serve_layout *l, const char *name, const char *value)
{
	if (l->text.s[l->text.len - 1] != '{')
		strbuf_addc(&l->text, ',');
	strbuf_adds(&l->text, name);
	strbuf_add(&l->text, "=\"", 2);
	serve_name_escape(value, 1, &l->text);
	strbuf_addc(&l->text, '"');
}

static struct serve_label
serve_label_end(struct serve_layout *l, size_t off)
{
	struct serve_label	 lb;

	strbuf_addc(&l->text, '}');
	lb.off = off;
	lb.len = l->text.len - off;
	return (lb);
}

/* The labels saying where: domain and index ("total" for the total). */
static void
serve_label_where(struct serve_layout *l, const struct engine_view *v,
    size_t r)
{
	char	 buf[16];

	serve_label_add(l, "domain", catalog_domain_suffix_2014(v->domain));
	if (r < v->nrows)
		snprintf(buf, sizeof buf, "%u", v->indices[r]);
	else
		snprintf(buf, sizeof buf, "total");
	serve_label_add(l, v->term, buf);
}

/* A metric of a view, placed in its family (made on first use). */
struct serve_mref {
	size_t		 family;
	size_t		 view;
	size_t		 metric;
	double		 scale;
};

static size_t
serve_layout_family(struct serve_layout *l, const struct engine_metric *m,
    double *scale)
{
	char	*unit, *name;
	size_t	 i;

	unit = serve_name_unit(m->unit, scale);
	name = serve_name_metric(m->name, unit);
	for (i = 0; i < l->nfamilies; i++) {
		if (strcmp(l->families[i].name, name) == 0) {
			free(name);
			free(unit);
			return (i);
		}
	}
	l->families = xreallocarray(l->families, l->nfamilies + 1,
	    sizeof *l->families);
	memset(&l->families[l->nfamilies], 0, sizeof *l->families);
	l->families[l->nfamilies].name = name;
	l->families[l->nfamilies].unit = unit;
	if (m->desc != NULL && m->desc[0] != '\0')
		l->families[l->nfamilies].help = xstrdup(m->desc);
	else
		l->families[l->nfamilies].help = xasprintf("%s, computed "
		    "over hvtop's last interval", m->name);
	return (l->nfamilies++);
}

static int
serve_cmp_mref(const void *a, const void *b)
{
	const struct serve_mref	*x = a, *y = b;

	if (x->family != y->family)
		return (x->family < y->family ? -1 : 1);
	if (x->view != y->view)
		return (x->view < y->view ? -1 : 1);
	return (x->metric < y->metric ? -1 : x->metric > y->metric);
}

static void
serve_layout_metrics(struct serve_layout *l, const struct engine *e)
{
	const struct engine_view	*v, *w;
	const struct engine_metric	*m;
	struct serve_mref		*refs = NULL;
	struct serve_gauge		*g;
	struct serve_family		*f;
	size_t				 i, j, n = 0, r, off, a, ncol;
	int				 dup;

	for (i = 0; i < engine_nviews(e); i++) {
		v = engine_view(e, i);
		for (j = 0; j < v->nmetrics; j++) {
			refs = xreallocarray(refs, n + 1, sizeof *refs);
			refs[n].view = i;
			refs[n].metric = j;
			refs[n].family = serve_layout_family(l, &v->metrics[j],
			    &refs[n].scale);
			n++;
		}
	}
	if (n > 0)
		qsort(refs, n, sizeof *refs, serve_cmp_mref);
	for (i = 0; i < n; i++) {
		v = engine_view(e, refs[i].view);
		m = &v->metrics[refs[i].metric];
		f = &l->families[refs[i].family];
		/* The same name twice in a view (a file repeating a catalog
		 * formula) would be the same series twice: the first wins. */
		dup = 0;
		for (a = i; a > 0 && refs[a - 1].family == refs[i].family;
		    a--) {
			w = engine_view(e, refs[a - 1].view);
			if (refs[a - 1].view == refs[i].view && strcmp(
			    w->metrics[refs[a - 1].metric].name, m->name) == 0)
				dup = 1;
		}
		if (dup)
			continue;
		if (f->n == 0)
			f->first = l->ngauges;
		ncol = v->nevents + v->nmetrics;
		l->gauges = xreallocarray(l->gauges, l->ngauges + v->nrows + 1,
		    sizeof *l->gauges);
		/* No total row: it would be a series of the same family, and
		 * summing the family would count every row twice.  PromQL
		 * sums the rows itself. */
		for (r = 0; r < v->nrows; r++) {
			g = &l->gauges[l->ngauges++];
			off = serve_label_begin(l);
			serve_label_add(l, "metric", m->name);
			serve_label_where(l, v, r);
			g->label = serve_label_end(l, off);
			g->view = refs[i].view;
			g->cell = r * ncol + v->nevents + refs[i].metric;
			g->scale = refs[i].scale;
			f->n++;
		}
	}
	free(refs);
}

static struct serve_layout *
serve_layout_new(const struct serve_info *info, const struct serve_sample *s)
{
	const struct engine_view	*v;
	const struct sel_counter	*sc;
	struct serve_layout		*l;
	struct serve_counter		*c;
	struct serve_tick		*t;
	size_t				 i, r, col, k, off;
	char				 buf[32], lp[8];

	l = serve_layout_empty(info);
	l->engine = s->engine;
	l->generation = s->generation;
	l->catalog_version = s->catalog_version;
	snprintf(buf, sizeof buf, "%llu",
	    (unsigned long long)s->catalog_version);
	for (i = 0; i < engine_nviews(s->engine); i++) {
		v = engine_view(s->engine, i);
		for (r = 0; r < v->nrows; r++) {
			l->ticks = xreallocarray(l->ticks, l->nticks + 1,
			    sizeof *l->ticks);
			t = &l->ticks[l->nticks++];
			off = serve_label_begin(l);
			serve_label_where(l, v, r);
			t->label = serve_label_end(l, off);
			t->first = l->ncounters;
			t->n = 0;
			for (col = 0; col < v->nevents; col++) {
				k = v->counter[r * v->nevents + col];
				if (k == ENG_NONE || k >= s->sel->ncounters)
					continue;
				sc = &s->sel->counters[k];
				l->counters = xreallocarray(l->counters,
				    l->ncounters + 1, sizeof *l->counters);
				c = &l->counters[l->ncounters++];
				c->k = k;
				off = serve_label_begin(l);
				serve_label_add(l, "event",
				    v->events[col]->sysfs_name != NULL ?
				    v->events[col]->sysfs_name :
				    v->events[col]->name);
				serve_label_where(l, v, r);
				if (sc->lpar == HCALL_LPAR_SELF)
					snprintf(lp, sizeof lp, "self");
				else
					snprintf(lp, sizeof lp, "%u",
					    (unsigned)sc->lpar);
				serve_label_add(l, "lpar", lp);
				serve_label_add(l, "catalog_version", buf);
				c->label = serve_label_end(l, off);
				t->n++;
			}
		}
	}
	/* A row's timebase comes from the first of its counters that has
	 * one; the counters are listed per row in the order above. */
	l->tick_ks = xcalloc(l->ncounters + 1, sizeof *l->tick_ks);
	for (i = 0; i < l->ncounters; i++)
		l->tick_ks[i] = l->counters[i].k;
	serve_layout_metrics(l, s->engine);
	return (l);
}

/* ---- guards -------------------------------------------------------- */

/*
 * Whether a reading may be shown after what was shown before.  A reading
 * at or above the last one shown is.  One below it is not, unless the
 * reading before was below too and this one does not go below that: two
 * readings in a row that agree are a counter that restarted, and
 * Prometheus reads the drop as the reset it is.
 */
static int
serve_guard(struct serve_guard *g, uint64_t cur)
{
	if (!g->has_last || cur >= g->last ||
	    (g->has_prev && g->prev < g->last && g->prev <= cur)) {
		g->last = g->prev = cur;
		g->has_last = g->has_prev = 1;
		return (1);
	}
	g->prev = cur;
	g->has_prev = 1;
	return (0);
}

struct serve_key {
	const char	*s;
	size_t		 len;
	size_t		 i;
};

static int
serve_cmp_key(const void *a, const void *b)
{
	const struct serve_key	*x = a, *y = b;
	int			 c;

	c = memcmp(x->s, y->s, x->len < y->len ? x->len : y->len);
	if (c != 0)
		return (c);
	return (x->len < y->len ? -1 : x->len > y->len);
}

/*
 * Guards for a new layout's series, kept from the old layout's series of
 * the same labels: a new selection does not forget what was shown.
 */
static struct serve_guard *
serve_guards_carry(const struct serve_layout *ol, const struct serve_guard *og,
    const void *oseries, size_t on, const struct serve_layout *nl,
    const void *nseries, size_t nn, size_t stride)
{
	const struct serve_label	*lb;
	struct serve_guard		*ng;
	struct serve_key		*keys, key, *hit;
	size_t				 i;

	ng = xcalloc(nn + 1, sizeof *ng);
	if (on == 0 || nn == 0 || og == NULL)
		return (ng);
	keys = xcalloc(on, sizeof *keys);
	for (i = 0; i < on; i++) {
		lb = (const struct serve_label *)((const char *)oseries +
		    i * stride);
		keys[i].s = ol->text.s + lb->off;
		keys[i].len = lb->len;
		keys[i].i = i;
	}
	qsort(keys, on, sizeof *keys, serve_cmp_key);
	for (i = 0; i < nn; i++) {
		lb = (const struct serve_label *)((const char *)nseries +
		    i * stride);
		key.s = nl->text.s + lb->off;
		key.len = lb->len;
		hit = bsearch(&key, keys, on, sizeof *keys, serve_cmp_key);
		if (hit != NULL)
			ng[i] = og[hit->i];
	}
	free(keys);
	return (ng);
}

/* ---- the sampler's side -------------------------------------------- */

struct serve_om *
serve_om_new(const struct serve_info *info)
{
	struct serve_om	*om;

	om = xcalloc(1, sizeof *om);
	om->layout = serve_layout_empty(info);
	/* Copies of its own: layouts come and go. */
	om->source = xstrdup(om->layout->source);
	om->source_label = xstrdup(om->layout->source_label);
	om->info.source = om->source;
	om->info.source_label = om->source_label;
	om->info.timebase_hz = info->timebase_hz;
	return (om);
}

void
serve_om_free(struct serve_om *om)
{
	if (om == NULL)
		return;
	serve_layout_unref(om->layout);
	free(om->source);
	free(om->source_label);
	free(om->cguard);
	free(om->tguard);
	free(om);
}

void
serve_om_failed(struct serve_om *om)
{
	om->failures++;
}

/* A new layout when the engine changed; the guards follow it. */
static void
serve_om_relayout(struct serve_om *om, const struct serve_sample *s)
{
	struct serve_layout	*ol = om->layout, *nl;
	struct serve_guard	*cg, *tg;

	if (ol->engine == s->engine && ol->generation == s->generation &&
	    ol->catalog_version == s->catalog_version)
		return;
	nl = serve_layout_new(&om->info, s);
	cg = serve_guards_carry(ol, om->cguard, ol->counters, ol->ncounters,
	    nl, nl->counters, nl->ncounters, sizeof *nl->counters);
	tg = serve_guards_carry(ol, om->tguard, ol->ticks, ol->nticks,
	    nl, nl->ticks, nl->nticks, sizeof *nl->ticks);
	free(om->cguard);
	free(om->tguard);
	om->cguard = cg;
	om->tguard = tg;
	/* Frames still being served keep the old layout alive. */
	serve_layout_unref(ol);
	om->layout = nl;
}

/* Why a reading has no value: raw_reason() decides, this renames. */
static int
serve_reason(uint8_t status)
{
	static const int	 reason[RAW_NSTATUS] = {
		[RAW_FAILED] = SERVE_R_FAILED,
		[RAW_DENIED] = SERVE_R_DENIED,
		[RAW_MISSING] = SERVE_R_MISSING,
		[RAW_BUSY] = SERVE_R_BUSY,
	};

	return (reason[raw_reason(status)]);
}

static void
serve_om_values(struct serve_om *om, struct serve_frame *f,
    const struct serve_sample *s)
{
	const struct serve_layout	*l = f->layout;
	const struct raw_sample		*rs = s->rs;
	const struct raw_value		*rv = NULL;
	const struct engine_snapshot	*snap = s->snap;
	const struct serve_gauge	*g;
	const struct engine_cell	*c;
	const struct serve_tick		*t;
	size_t				 i, j, k;
	double				 v;

	for (i = 0; i < rs->nvalues; i++) {
		if (raw_reason(rs->values[i].status) != RAW_OK)
			om->reads[serve_reason(rs->values[i].status)]++;
	}
	for (i = 0; i < l->ncounters; i++) {
		k = l->counters[i].k;
		if (k >= rs->nvalues ||
		    raw_reason(rs->values[k].status) != RAW_OK)
			continue;
		if (serve_guard(&om->cguard[i], rs->values[k].value)) {
			f->cval[i] = rs->values[k].value;
			f->chas[i] = 1;
		} else
			om->reads[SERVE_R_BACKWARDS]++;
	}
	for (i = 0; i < l->nticks; i++) {
		t = &l->ticks[i];
		for (j = 0; j < t->n; j++) {
			k = l->tick_ks[t->first + j];
			if (k >= rs->nvalues)
				continue;
			rv = &rs->values[k];
			if (raw_reason(rv->status) == RAW_OK &&
			    rv->timebase != 0)
				break;
		}
		if (j == t->n)
			continue;
		if (serve_guard(&om->tguard[i], rv->timebase)) {
			f->tval[i] = rv->timebase;
			f->thas[i] = 1;
		}
	}
	for (i = 0; i < l->ngauges; i++) {
		g = &l->gauges[i];
		if (g->view >= snap->nviews || g->cell >= snap->ncells[g->view])
			continue;
		c = &snap->cells[g->view][g->cell];
		if (c->status != ENG_OK || !isfinite(c->value))
			continue;
		v = c->value * g->scale;
		if (!isfinite(v))
			continue;
		f->gval[i] = v;
		f->ghas[i] = 1;
	}
}

struct serve_frame *
serve_om_frame(struct serve_om *om, const struct serve_sample *s)
{
	struct serve_frame	*f;
	struct serve_layout	*l;
	struct serve_health	*h;

	if (s != NULL)
		serve_om_relayout(om, s);
	l = om->layout;
	f = xcalloc(1, sizeof *f);
	f->layout = serve_layout_ref(l);
	f->cval = xcalloc(l->ncounters + 1, sizeof *f->cval);
	f->chas = xcalloc(l->ncounters + 1, 1);
	f->tval = xcalloc(l->nticks + 1, sizeof *f->tval);
	f->thas = xcalloc(l->nticks + 1, 1);
	f->gval = xcalloc(l->ngauges + 1, sizeof *f->gval);
	f->ghas = xcalloc(l->ngauges + 1, 1);
	h = &f->health;
	if (s != NULL) {
		serve_om_values(om, f, s);
		om->samples++;
		om->calls += s->rs->calls;
		h->have_sample = 1;
		h->calls = s->rs->calls;
		h->naive_calls = s->rs->naive_calls;
		h->ncounters = s->sel->ncounters;
		h->interval = s->snap->seq > 0 ? s->snap->interval : 0;
		h->duration = (double)s->duration_ns / 1e9;
		h->wall = (double)s->wall_ns / 1e9;
		h->catalog_version = s->catalog_version;
	}
	h->samples = om->samples;
	h->failures = om->failures;
	h->calls_total = om->calls;
	memcpy(h->reads, om->reads, sizeof h->reads);
	return (f);
}

void
serve_om_frame_free(struct serve_frame *f)
{
	if (f == NULL)
		return;
	serve_layout_unref(f->layout);
	free(f->cval);
	free(f->chas);
	free(f->tval);
	free(f->thas);
	free(f->gval);
	free(f->ghas);
	free(f);
}

/* ---- rendering ----------------------------------------------------- */

enum serve_type {
	SERVE_T_COUNTER,
	SERVE_T_GAUGE,
	SERVE_T_INFO,
};

/*
 * A family's metadata.  OpenMetrics names the family without the suffix
 * its samples carry ("_total", "_info") and has a UNIT line; the text
 * format names it as its samples and has neither, and lets HELP escape
 * only backslash and newline.
 */
static void
serve_meta(struct strbuf *sb, int format, int type, const char *base,
    const char *unit, const char *help)
{
	static const char *const om_types[] = { "counter", "gauge", "info" };
	static const char *const suffix[] = { "_total", "", "_info" };

	if (format == SERVE_OPENMETRICS) {
		strbuf_add(sb, "# TYPE ", 7);
		strbuf_adds(sb, base);
		strbuf_addc(sb, ' ');
		strbuf_adds(sb, om_types[type]);
		strbuf_addc(sb, '\n');
		if (unit != NULL && unit[0] != '\0') {
			strbuf_add(sb, "# UNIT ", 7);
			strbuf_adds(sb, base);
			strbuf_addc(sb, ' ');
			strbuf_adds(sb, unit);
			strbuf_addc(sb, '\n');
		}
		strbuf_add(sb, "# HELP ", 7);
		strbuf_adds(sb, base);
		strbuf_addc(sb, ' ');
		serve_name_escape(help, 1, sb);
		strbuf_addc(sb, '\n');
		return;
	}
	strbuf_add(sb, "# HELP ", 7);
	strbuf_adds(sb, base);
	strbuf_adds(sb, suffix[type]);
	strbuf_addc(sb, ' ');
	serve_name_escape(help, 0, sb);
	strbuf_add(sb, "\n# TYPE ", 8);
	strbuf_adds(sb, base);
	strbuf_adds(sb, suffix[type]);
	strbuf_adds(sb, type == SERVE_T_COUNTER ? " counter\n" : " gauge\n");
}

static void
serve_line(struct strbuf *sb, const char *name, size_t nlen,
    const struct serve_layout *l, const struct serve_label *lb)
{
	strbuf_add(sb, name, nlen);
	if (lb != NULL)
		strbuf_add(sb, l->text.s + lb->off, lb->len);
	strbuf_addc(sb, ' ');
}

static void
serve_health_u64(struct strbuf *sb, int format, int type, const char *base,
    const char *help, uint64_t v)
{
	serve_meta(sb, format, type, base, NULL, help);
	strbuf_adds(sb, base);
	strbuf_adds(sb, type == SERVE_T_COUNTER ? "_total " : " ");
	strbuf_addu64(sb, v);
	strbuf_addc(sb, '\n');
}

static void
serve_health_double(struct strbuf *sb, int format, const char *base,
    const char *unit, const char *help, double v)
{
	serve_meta(sb, format, SERVE_T_GAUGE, base, unit, help);
	strbuf_adds(sb, base);
	strbuf_addc(sb, ' ');
	serve_double(v, sb);
	strbuf_addc(sb, '\n');
}

static void
serve_render_health(const struct serve_frame *f, int format,
    struct strbuf *sb)
{
	const struct serve_health	*h = &f->health;
	const struct serve_layout	*l = f->layout;
	size_t				 i;

	serve_health_u64(sb, format, SERVE_T_COUNTER, "hvtop_samples",
	    "Samples hvtop has taken, the first (which only sets the "
	    "baselines) included", h->samples);
	serve_health_u64(sb, format, SERVE_T_COUNTER, "hvtop_sample_failures",
	    "Samples that failed as a whole (counted once the next one "
	    "succeeds)", h->failures);
	serve_meta(sb, format, SERVE_T_COUNTER, "hvtop_read_failures", NULL,
	    "Counter readings without a value, by reason: failed, denied "
	    "(no permission), missing (not in the result), busy (the "
	    "hypervisor was busy), backwards (below the value shown before)");
	for (i = 0; i < SERVE_NREASONS; i++) {
		strbuf_adds(sb, "hvtop_read_failures_total{reason=\"");
		strbuf_adds(sb, serve_reason_names[i]);
		strbuf_add(sb, "\"} ", 3);
		strbuf_addu64(sb, h->reads[i]);
		strbuf_addc(sb, '\n');
	}
	serve_health_u64(sb, format, SERVE_T_COUNTER, "hvtop_calls",
	    "Hypervisor calls (perf: group reads) made by every refresh",
	    h->calls_total);
	if (h->have_sample) {
		serve_health_u64(sb, format, SERVE_T_GAUGE,
		    "hvtop_refresh_calls", "Hypervisor calls (perf: group "
		    "reads) the last refresh made", h->calls);
		serve_health_u64(sb, format, SERVE_T_GAUGE,
		    "hvtop_refresh_naive_calls", "Calls the last refresh "
		    "would have made reading one counter per call",
		    h->naive_calls);
		serve_health_u64(sb, format, SERVE_T_GAUGE,
		    "hvtop_selected_counters", "Counters read by every "
		    "refresh", h->ncounters);
		serve_health_double(sb, format,
		    "hvtop_refresh_duration_seconds", "seconds",
		    "How long the last refresh took: the reads and the "
		    "engine's update", h->duration);
		if (h->interval > 0)
			serve_health_double(sb, format,
			    "hvtop_interval_seconds", "seconds",
			    "The interval the metric values cover",
			    h->interval);
		serve_health_double(sb, format,
		    "hvtop_last_sample_timestamp_seconds", "seconds",
		    "When the last sample was taken, in seconds since 1970 "
		    "(the recording's time in a replay)", h->wall);
		serve_health_u64(sb, format, SERVE_T_GAUGE,
		    "hvtop_catalog_version", "Version of the 24x7 catalog "
		    "in use", h->catalog_version);
	}
	if (l->timebase_hz != 0)
		serve_health_double(sb, format,
		    "hvtop_timebase_frequency_hertz", "hertz", "Frequency of "
		    "the hypervisor's timebase", (double)l->timebase_hz);
	serve_meta(sb, format, SERVE_T_INFO, "hvtop_source", NULL,
	    "Where the counters come from: perf (the hv_24x7 PMU), sim (the "
	    "simulated frame) or replay (a recording)");
	strbuf_adds(sb, "hvtop_source_info{source=\"");
	serve_name_escape(l->source, 1, sb);
	strbuf_adds(sb, "\",description=\"");
	serve_name_escape(l->source_label, 1, sb);
	strbuf_add(sb, "\"} 1\n", 5);
	serve_meta(sb, format, SERVE_T_INFO, "hvtop_build", NULL,
	    "The hvtop program serving these metrics");
	strbuf_adds(sb, "hvtop_build_info{version=\"" PACKAGE_VERSION
	    "\"} 1\n");
}

static int
serve_any(const uint8_t *has, size_t n)
{
	return (n > 0 && memchr(has, 1, n) != NULL);
}

void
serve_om_render(const struct serve_frame *f, int format, struct strbuf *sb)
{
	static const char	 ev[] = "hvtop_events_total";
	static const char	 tb[] = "hvtop_timebase_ticks_total";
	const struct serve_layout *l = f->layout;
	const struct serve_family *fam;
	size_t			 i, j, nlen, need;

	/* Room for all of it at once: growing by doubling would copy the
	 * text over and over. */
	need = sb->len + l->text.len + 4096 + 40 * (l->ncounters +
	    l->nticks) + 64 * l->ngauges + 1024 * l->nfamilies;
	if (need > sb->cap) {
		sb->s = xreallocarray(sb->s, need, 1);
		sb->cap = need;
	}
	if (serve_any(f->chas, l->ncounters)) {
		serve_meta(sb, format, SERVE_T_COUNTER, "hvtop_events", NULL,
		    "The raw 64-bit accumulator of a 24x7 event, as the "
		    "hypervisor keeps it; rate() gives events per second");
		for (i = 0; i < l->ncounters; i++) {
			if (!f->chas[i])
				continue;
			serve_line(sb, ev, sizeof ev - 1, l,
			    &l->counters[i].label);
			strbuf_addu64(sb, f->cval[i]);
			strbuf_addc(sb, '\n');
		}
	}
	if (serve_any(f->thas, l->nticks)) {
		serve_meta(sb, format, SERVE_T_COUNTER, "hvtop_timebase_ticks",
		    NULL, "The hypervisor's timebase in the counter records "
		    "of a chip or core; divide by "
		    "hvtop_timebase_frequency_hertz for seconds");
		for (i = 0; i < l->nticks; i++) {
			if (!f->thas[i])
				continue;
			serve_line(sb, tb, sizeof tb - 1, l,
			    &l->ticks[i].label);
			strbuf_addu64(sb, f->tval[i]);
			strbuf_addc(sb, '\n');
		}
	}
	for (i = 0; i < l->nfamilies; i++) {
		fam = &l->families[i];
		if (!serve_any(f->ghas + fam->first, fam->n))
			continue;
		serve_meta(sb, format, SERVE_T_GAUGE, fam->name, fam->unit,
		    fam->help);
		nlen = strlen(fam->name);
		for (j = fam->first; j < fam->first + fam->n; j++) {
			if (!f->ghas[j])
				continue;
			serve_line(sb, fam->name, nlen, l,
			    &l->gauges[j].label);
			serve_double(f->gval[j], sb);
			strbuf_addc(sb, '\n');
		}
	}
	serve_render_health(f, format, sb);
	if (format == SERVE_OPENMETRICS)
		strbuf_add(sb, "# EOF\n", 6);
}
