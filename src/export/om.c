/*
 * The endpoint's renderer: samples in, snapshots out, snapshots rendered as
 * OpenMetrics 1.0.0 or the Prometheus text format 0.0.4.  No I/O, no
 * clock, no globals beyond const tables: the server feeds it and the unit
 * tests drive it directly.
 *
 * A layout is what a snapshot's text is made of that does not change from
 * one sample to the next: every series' label set, already escaped, and
 * the metric families with their names, units and help.  It is built
 * again only when the engine is (a new selection, a catalog reload), and
 * is shared by every snapshot made from it.  A snapshot holds the values of one
 * sample and a reference to its layout, so it can be rendered in another
 * thread long after the engine it came from is gone.
 *
 * What a snapshot may show:
 * - a counter's value is the source's raw 64-bit accumulator, never a
 *   difference, so Prometheus' rate() needs no help;
 * - a counter never goes backwards between snapshots: a reading below the
 *   last one shown is left out (the kernel's failure path returns such
 *   readings), unless the next reading confirms it, which is a reset;
 * - the catalog version is a label of every counter, so a catalog change
 *   ends the old series and starts new ones: Prometheus never computes an
 *   increase across two catalogs;
 * - a metric's value is the engine's for the last interval, in base
 *   units; one without a value is left out, never shown as a number;
 * - a partition's counters are series of their own per partition, vcpu
 *   and placement, and nothing summed over them is exported.
 */
#include "config.h"

#include "export/om.h"

#include <ctype.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalog/catalog.h"
#include "export/om-int.h"
#include "engine/engine.h"
#include "engine/engine-lpar.h"
#include "model/selection.h"
#include "model/raw.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* ---- formats ------------------------------------------------------- */

/* The quality a media range gives, from its parameters; -1 if malformed. */
static double
om_accept_q(const char *p, const char *end)
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
om_accept(const char *accept)
{
	const char	*p, *end, *type;
	size_t		 tlen;
	double		 q, om = -1, text[3] = { -1, -1, -1 };
	int		 i;

	if (accept == NULL)
		return (OM_FMT_PROMETHEUS);
	for (p = accept; *p != '\0'; p = *end != '\0' ? end + 1 : end) {
		end = p + strcspn(p, ",");
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		type = p;
		tlen = strcspn(p, ";, \t");
		if ((q = om_accept_q(type + tlen, end)) < 0)
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
		return (OM_FMT_OPENMETRICS);
	if (q > 0)
		return (OM_FMT_PROMETHEUS);
	/* The text format refused by name, anything else welcome. */
	if (om < 0 && text[2] > 0)
		return (OM_FMT_OPENMETRICS);
	/* Both refused by name (q=0): nothing fits.  Neither named: the
	 * default. */
	if (om == 0 || q == 0)
		return (-1);
	return (OM_FMT_PROMETHEUS);
}

int
om_accept_gzip(const char *accept_encoding)
{
	const char	*p, *end, *c;
	size_t		 clen;
	double		 q, gzip = -1, any = -1;

	if (accept_encoding == NULL)
		return (0);
	for (p = accept_encoding; *p != '\0'; p = *end != '\0' ? end + 1 :
	    end) {
		end = p + strcspn(p, ",");
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		c = p;
		clen = strcspn(p, ";, \t");
		if ((q = om_accept_q(c + clen, end)) < 0)
			continue;
		if ((clen == 4 && strncasecmp(c, "gzip", clen) == 0) ||
		    (clen == 6 && strncasecmp(c, "x-gzip", clen) == 0))
			gzip = q > gzip ? q : gzip;
		else if (clen == 1 && *c == '*')
			any = q > any ? q : any;
	}
	/* Named, gzip's own quality decides; else "*" does. */
	return (gzip >= 0 ? gzip > 0 : any > 0);
}

const char *
om_content_type(int format)
{
	if (format == OM_FMT_OPENMETRICS)
		return ("application/openmetrics-text; version=1.0.0; "
		    "charset=utf-8");
	return ("text/plain; version=0.0.4; charset=utf-8");
}

static struct om_layout *
om_layout_ref(struct om_layout *l)
{
	atomic_fetch_add(&l->refs, 1);
	return (l);
}

static void
om_layout_unref(struct om_layout *l)
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
	free(l->sum_ks);
	strbuf_free(&l->flabel);
	strbuf_free(&l->text);
	free(l);
}

static struct om_layout *
om_layout_empty(const struct om_info *info)
{
	struct om_layout	*l;
	char			 buf[80];

	l = xcalloc(1, sizeof *l);
	atomic_init(&l->refs, 1);
	l->source = xstrdup(info->source != NULL ? info->source : "");
	l->source_label = xstrdup(info->source_label != NULL ?
	    info->source_label : "");
	l->timebase_hz = info->timebase_hz;
	l->ident = info->ident;
	l->lpar_self = info->lpar_self;
	l->per_vcpu = info->per_vcpu;
	frame_ident_mtms(&l->ident, buf, sizeof buf);
	strbuf_adds(&l->flabel, "frame=\"");
	om_name_escape(buf, 1, &l->flabel);
	strbuf_addc(&l->flabel, '"');
	strbuf_adds(&l->text, "");
	return (l);
}

/* Open a label set in the layout's text. */
/*
 * One more tick or counter of the layout.  The arrays grow by half again
 * each time: a frame of 1,000 partitions lays out hundreds of thousands
 * of counters, and growing one at a time copied the array each time
 * (quadratic where realloc cannot grow in place, as under ASan).
 */
struct om_tick *
om_layout_tick(struct om_layout *l)
{
	if (l->nticks == l->ticks_cap) {
		l->ticks_cap = l->ticks_cap < 16 ? 16 : l->ticks_cap / 2 * 3;
		l->ticks = xreallocarray(l->ticks, l->ticks_cap,
		    sizeof *l->ticks);
	}
	return (&l->ticks[l->nticks++]);
}

struct om_counter *
om_layout_counter(struct om_layout *l)
{
	if (l->ncounters == l->counters_cap) {
		l->counters_cap = l->counters_cap < 16 ? 16 :
		    l->counters_cap / 2 * 3;
		l->counters = xreallocarray(l->counters, l->counters_cap,
		    sizeof *l->counters);
	}
	memset(&l->counters[l->ncounters], 0, sizeof *l->counters);
	return (&l->counters[l->ncounters++]);
}

size_t
om_label_begin(struct om_layout *l)
{
	size_t	 off = l->text.len;

	strbuf_addc(&l->text, '{');
	strbuf_add(&l->text, l->flabel.s, l->flabel.len);
	return (off);
}

void
om_label_add(struct om_layout *l, const char *name, const char *value)
{
	if (l->text.s[l->text.len - 1] != '{')
		strbuf_addc(&l->text, ',');
	strbuf_adds(&l->text, name);
	strbuf_add(&l->text, "=\"", 2);
	om_name_escape(value, 1, &l->text);
	strbuf_addc(&l->text, '"');
}

struct om_label
om_label_end(struct om_layout *l, size_t off)
{
	struct om_label	 lb;

	strbuf_addc(&l->text, '}');
	lb.off = off;
	lb.len = l->text.len - off;
	return (lb);
}

/* The labels saying where: domain and index ("total" for the total). */
static void
om_label_where(struct om_layout *l, const struct engine_view *v,
    size_t r)
{
	char	 buf[16];

	om_label_add(l, "domain", catalog_domain_suffix_2014(v->domain));
	if (r < v->nrows)
		snprintf(buf, sizeof buf, "%u", v->indices[r]);
	else
		snprintf(buf, sizeof buf, "total");
	om_label_add(l, v->term, buf);
}

/* A partition's id as a label value: "self" when it is not known. */
void
om_label_lpar(struct om_layout *l, unsigned lpar)
{
	char	 buf[8];

	if (lpar == SEL_LPAR_SELF)
		lpar = l->lpar_self;
	if (lpar == SEL_LPAR_SELF)
		snprintf(buf, sizeof buf, "self");
	else
		snprintf(buf, sizeof buf, "%u", lpar);
	om_label_add(l, "lpar", buf);
}

/* A partition view: its counters and gauges are om-lpar.c's. */
static int
om_view_lpar(const struct engine_view *v)
{
	return (v->domain == ENG_VIEW_LPAR || v->domain == ENG_VIEW_LPAR_VCPU);
}

/* A metric of a view, placed in its family (made on first use). */
struct om_mref {
	size_t		 family;
	size_t		 view;
	size_t		 metric;
	double		 scale;
};

static size_t
om_layout_family(struct om_layout *l, const struct engine_metric *m,
    double *scale)
{
	char	*unit, *name;
	size_t	 i;

	unit = om_name_unit(m->unit, scale);
	name = om_name_metric(m->name, unit);
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
om_cmp_mref(const void *a, const void *b)
{
	const struct om_mref	*x = a, *y = b;

	if (x->family != y->family)
		return (x->family < y->family ? -1 : 1);
	if (x->view != y->view)
		return (x->view < y->view ? -1 : 1);
	return (x->metric < y->metric ? -1 : x->metric > y->metric);
}

static void
om_layout_metrics(struct om_layout *l, const struct engine *e)
{
	const struct engine_view	*v, *w;
	const struct engine_metric	*m;
	struct om_mref			*refs = NULL;
	struct om_gauge			*g;
	struct om_family		*f;
	size_t				 i, j, n = 0, r, off, a, ncol;
	int				 dup;

	for (i = 0; i < engine_nviews(e); i++) {
		v = engine_view(e, i);
		if (om_view_lpar(v))
			continue;
		for (j = 0; j < v->nmetrics; j++) {
			refs = xreallocarray(refs, n + 1, sizeof *refs);
			refs[n].view = i;
			refs[n].metric = j;
			refs[n].family = om_layout_family(l, &v->metrics[j],
			    &refs[n].scale);
			n++;
		}
	}
	if (n > 0)
		qsort(refs, n, sizeof *refs, om_cmp_mref);
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
			off = om_label_begin(l);
			om_label_add(l, "metric", m->name);
			om_label_where(l, v, r);
			g->label = om_label_end(l, off);
			g->view = refs[i].view;
			g->cell = r * ncol + v->nevents + refs[i].metric;
			g->scale = refs[i].scale;
			f->n++;
		}
	}
	free(refs);
}

static struct om_layout *
om_layout_new(const struct om_info *info, const struct om_sample *s)
{
	const struct engine_view	*v;
	const struct sel_counter	*sc;
	struct om_layout		*l;
	struct om_counter		*c;
	struct om_tick			*t;
	size_t				 i, r, col, k, off;
	char				 buf[32];

	l = om_layout_empty(info);
	l->engine = s->engine;
	l->generation = s->generation;
	l->catalog_version = s->catalog_version;
	snprintf(buf, sizeof buf, "%llu",
	    (unsigned long long)s->catalog_version);
	for (i = 0; i < engine_nviews(s->engine); i++) {
		v = engine_view(s->engine, i);
		if (om_view_lpar(v)) {
			om_lpar_layout(l, s, i, buf);
			continue;
		}
		for (r = 0; r < v->nrows; r++) {
			t = om_layout_tick(l);
			off = om_label_begin(l);
			om_label_where(l, v, r);
			t->label = om_label_end(l, off);
			t->first = l->ncounters;
			t->n = 0;
			for (col = 0; col < v->nevents; col++) {
				k = v->counter[r * v->nevents + col];
				if (k == ENG_NONE || k >= s->sel->ncounters)
					continue;
				sc = &s->sel->counters[k];
				c = om_layout_counter(l);
				c->k = k;
				off = om_label_begin(l);
				om_label_add(l, "event",
				    v->events[col]->sysfs_name != NULL ?
				    v->events[col]->sysfs_name :
				    v->events[col]->name);
				om_label_where(l, v, r);
				/* A chip or core is the frame's, no
				 * partition's. */
				if (v->domain >= 3 && v->domain <= 6)
					om_label_lpar(l, sc->lpar);
				om_label_add(l, "catalog_version", buf);
				c->label = om_label_end(l, off);
				t->n++;
			}
		}
	}
	/* A row's timebase comes from the first of its counters that has
	 * one; the counters are listed per row in the order above. */
	l->tick_ks = xcalloc(l->ncounters + 1, sizeof *l->tick_ks);
	for (i = 0; i < l->ncounters; i++)
		l->tick_ks[i] = l->counters[i].k;
	om_layout_metrics(l, s->engine);
	om_lpar_gauges(l, s);
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
om_guard(struct om_guard *g, uint64_t cur)
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

struct om_key {
	const char	*s;
	size_t		 len;
	size_t		 i;
};

static int
om_cmp_key(const void *a, const void *b)
{
	const struct om_key	*x = a, *y = b;
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
static struct om_guard *
om_guards_carry(const struct om_layout *ol, const struct om_guard *og,
    const void *oseries, size_t on, const struct om_layout *nl,
    const void *nseries, size_t nn, size_t stride)
{
	const struct om_label	*lb;
	struct om_guard		*ng;
	struct om_key		*keys, key, *hit;
	size_t			 i;

	ng = xcalloc(nn + 1, sizeof *ng);
	if (on == 0 || nn == 0 || og == NULL)
		return (ng);
	keys = xcalloc(on, sizeof *keys);
	for (i = 0; i < on; i++) {
		lb = (const struct om_label *)((const char *)oseries +
		    i * stride);
		keys[i].s = ol->text.s + lb->off;
		keys[i].len = lb->len;
		keys[i].i = i;
	}
	qsort(keys, on, sizeof *keys, om_cmp_key);
	for (i = 0; i < nn; i++) {
		lb = (const struct om_label *)((const char *)nseries +
		    i * stride);
		key.s = nl->text.s + lb->off;
		key.len = lb->len;
		hit = bsearch(&key, keys, on, sizeof *keys, om_cmp_key);
		if (hit != NULL)
			ng[i] = og[hit->i];
	}
	free(keys);
	return (ng);
}

/* ---- the sampler's side -------------------------------------------- */

struct om *
om_new(const struct om_info *info)
{
	struct om	*om;

	om = xcalloc(1, sizeof *om);
	om->layout = om_layout_empty(info);
	/* Copies of its own: layouts come and go. */
	om->source = xstrdup(om->layout->source);
	om->source_label = xstrdup(om->layout->source_label);
	om->info.source = om->source;
	om->info.source_label = om->source_label;
	om->info.timebase_hz = info->timebase_hz;
	om->info.ident = info->ident;
	om->info.lpar_self = info->lpar_self;
	om->info.per_vcpu = info->per_vcpu;
	om->caps = info->caps;
	return (om);
}

void
om_free(struct om *om)
{
	if (om == NULL)
		return;
	om_layout_unref(om->layout);
	free(om->source);
	free(om->source_label);
	free(om->cguard);
	free(om->tguard);
	free(om);
}

void
om_failed(struct om *om)
{
	om->failures++;
}

/* A new layout when the engine changed; the guards follow it. */
static void
om_relayout(struct om *om, const struct om_sample *s)
{
	struct om_layout	*ol = om->layout, *nl;
	struct om_guard		*cg, *tg;

	if (ol->engine == s->engine && ol->generation == s->generation &&
	    ol->catalog_version == s->catalog_version)
		return;
	nl = om_layout_new(&om->info, s);
	cg = om_guards_carry(ol, om->cguard, ol->counters, ol->ncounters,
	    nl, nl->counters, nl->ncounters, sizeof *nl->counters);
	tg = om_guards_carry(ol, om->tguard, ol->ticks, ol->nticks,
	    nl, nl->ticks, nl->nticks, sizeof *nl->ticks);
	free(om->cguard);
	free(om->tguard);
	om->cguard = cg;
	om->tguard = tg;
	/* Frames still being served keep the old layout alive. */
	om_layout_unref(ol);
	om->layout = nl;
}

/* Why a reading has no value: raw_reason() decides, this renames. */
static int
om_reason_of(uint8_t status)
{
	static const int	 reason[RAW_NSTATUS] = {
		[RAW_FAILED] = OM_R_FAILED,
		[RAW_DENIED] = OM_R_DENIED,
		[RAW_MISSING] = OM_R_MISSING,
		[RAW_BUSY] = OM_R_BUSY,
	};

	return (reason[raw_reason(status)]);
}

/* A counter's reading, or a sum's (every part has a value); 0 if none. */
static int
om_value(const struct om_layout *l, const struct om_counter *c,
    const struct raw_sample *rs, uint64_t *out)
{
	size_t	 j, k;

	if (c->n <= 1) {
		if (c->k >= rs->nvalues ||
		    raw_reason(rs->values[c->k].status) != RAW_OK)
			return (0);
		*out = rs->values[c->k].value;
		return (1);
	}
	/* Accumulators wrap at 2^64; their sum does as one. */
	*out = 0;
	for (j = 0; j < c->n; j++) {
		k = l->sum_ks[c->first + j];
		if (k >= rs->nvalues ||
		    raw_reason(rs->values[k].status) != RAW_OK)
			return (0);
		*out += rs->values[k].value;
	}
	return (1);
}

static void
om_values(struct om *om, struct om_snapshot *f,
    const struct om_sample *s)
{
	const struct om_layout		*l = f->layout;
	const struct raw_sample		*rs = s->rs;
	const struct raw_value		*rv = NULL;
	const struct engine_snapshot	*snap = s->snap;
	const struct om_gauge		*g;
	const struct engine_cell	*c;
	const struct om_tick		*t;
	size_t				 i, j, k;
	uint64_t			 sum;
	double				 v;

	for (i = 0; i < rs->nvalues; i++) {
		if (raw_reason(rs->values[i].status) != RAW_OK)
			om->reads[om_reason_of(rs->values[i].status)]++;
	}
	for (i = 0; i < l->ncounters; i++) {
		if (!om_value(l, &l->counters[i], rs, &sum))
			continue;
		/* A placement a partition never ran in costs no series. */
		if (l->counters[i].lazy && sum == 0 &&
		    !om->cguard[i].has_last)
			continue;
		if (om_guard(&om->cguard[i], sum)) {
			f->cval[i] = sum;
			f->chas[i] = 1;
		} else
			om->reads[OM_R_BACKWARDS]++;
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
		if (om_guard(&om->tguard[i], rv->timebase)) {
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

struct om_snapshot *
om_snapshot(struct om *om, const struct om_sample *s)
{
	struct om_snapshot		*f;
	struct om_layout	*l;
	struct om_health	*h;

	if (s != NULL)
		om_relayout(om, s);
	l = om->layout;
	f = xcalloc(1, sizeof *f);
	f->layout = om_layout_ref(l);
	f->cval = xcalloc(l->ncounters + 1, sizeof *f->cval);
	f->chas = xcalloc(l->ncounters + 1, 1);
	f->tval = xcalloc(l->nticks + 1, sizeof *f->tval);
	f->thas = xcalloc(l->nticks + 1, 1);
	f->gval = xcalloc(l->ngauges + 1, sizeof *f->gval);
	f->ghas = xcalloc(l->ngauges + 1, 1);
	h = &f->health;
	if (s != NULL && s->caps != NULL)
		om->caps = *s->caps;
	if (s != NULL && s->process != NULL)
		om->process = *s->process;
	h->caps = om->caps;
	h->process = om->process;
	if (s != NULL) {
		om_values(om, f, s);
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
om_snapshot_free(struct om_snapshot *f)
{
	if (f == NULL)
		return;
	om_layout_unref(f->layout);
	free(f->cval);
	free(f->chas);
	free(f->tval);
	free(f->thas);
	free(f->gval);
	free(f->ghas);
	free(f);
}
