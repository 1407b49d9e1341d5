/*
 * The report of a run (hvtop report): time series kept per chart and
 * line, then one HTML page with the data as JSON and the charting library
 * inlined.  No I/O here: the caller reads the library and writes the page.
 */
#include "config.h"

#include "export/report.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "model/selection.h"
#include "util/hverr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define REPORT_NONE	((size_t)-1)

/* One line of a chart: a row of a view, or the view's total. */
struct report_line {
	char		*label;		/* "chip 3", "total" */
	int		 total;		/* the view's total: not drawn */
	double		*v;		/* per sample; NaN: no value */
	size_t		 n;		/* samples written, the rest NaN */
	size_t		 cap;
};

struct report_chart {
	char		*term;		/* "chip" */
	char		*group;		/* the pick, or "metrics" */
	char		*name;
	char		*unit;
	struct report_line *lines;	/* rows and the total, as met */
	size_t		 nlines;
};

struct report {
	char			*recording;	/* struct report_info's */
	char			*source;
	char			*frame;
	char			*catalog;
	char			*version;
	uint64_t		*t;		/* wall ns per sample */
	size_t			 nt, capt;
	struct report_chart	*charts;
	size_t			 ncharts;
	const struct engine	*e;
	/* Per bound view: [row * ncol + col] -> chart, and -> line. */
	size_t			**chart_of;
	size_t			**line_of;
	size_t			 nviews;
	/* The reader's lines when the recording is not whole. */
	char			**problems;
	size_t			 nproblems;
	int			 damaged;
};

static char *
report_strdup(const char *s)
{
	return (xstrdup(s != NULL ? s : ""));
}

struct report *
report_new(const struct report_info *info)
{
	struct report	*r;

	r = xcalloc(1, sizeof *r);
	r->recording = report_strdup(info->recording);
	r->source = report_strdup(info->source);
	r->frame = report_strdup(info->frame);
	r->catalog = report_strdup(info->catalog);
	r->version = report_strdup(info->version);
	return (r);
}

static void
report_unbind(struct report *r)
{
	size_t	 i;

	for (i = 0; i < r->nviews; i++) {
		free(r->chart_of[i]);
		free(r->line_of[i]);
	}
	free(r->chart_of);
	free(r->line_of);
	r->chart_of = r->line_of = NULL;
	r->nviews = 0;
	r->e = NULL;
}

void
report_free(struct report *r)
{
	struct report_chart	*c;
	size_t			 i, j;

	if (r == NULL)
		return;
	report_unbind(r);
	for (i = 0; i < r->ncharts; i++) {
		c = &r->charts[i];
		for (j = 0; j < c->nlines; j++) {
			free(c->lines[j].label);
			free(c->lines[j].v);
		}
		free(c->lines);
		free(c->term);
		free(c->group);
		free(c->name);
		free(c->unit);
	}
	free(r->charts);
	for (i = 0; i < r->nproblems; i++)
		free(r->problems[i]);
	free(r->problems);
	free(r->t);
	free(r->recording);
	free(r->source);
	free(r->frame);
	free(r->catalog);
	free(r->version);
	free(r);
}

/* The chart of (term, group, name, unit), made when new. */
static size_t
report_chart(struct report *r, const char *term, const char *group,
    const char *name, const char *unit)
{
	struct report_chart	*c;
	size_t			 i;

	for (i = 0; i < r->ncharts; i++) {
		c = &r->charts[i];
		if (strcmp(c->term, term) == 0 && strcmp(c->group, group) == 0 &&
		    strcmp(c->name, name) == 0 && strcmp(c->unit, unit) == 0)
			return (i);
	}
	r->charts = xreallocarray(r->charts, r->ncharts + 1,
	    sizeof *r->charts);
	c = &r->charts[r->ncharts];
	memset(c, 0, sizeof *c);
	c->term = xstrdup(term);
	c->group = xstrdup(group);
	c->name = xstrdup(name);
	c->unit = xstrdup(unit);
	return (r->ncharts++);
}

/* The line labelled so in chart c, made when new. */
static size_t
report_line(struct report *r, size_t c, const char *label, int total)
{
	struct report_chart	*ch = &r->charts[c];
	size_t			 i;

	for (i = 0; i < ch->nlines; i++)
		if (strcmp(ch->lines[i].label, label) == 0)
			return (i);
	ch->lines = xreallocarray(ch->lines, ch->nlines + 1,
	    sizeof *ch->lines);
	memset(&ch->lines[ch->nlines], 0, sizeof ch->lines[ch->nlines]);
	ch->lines[ch->nlines].label = xstrdup(label);
	ch->lines[ch->nlines].total = total;
	return (ch->nlines++);
}

void
report_bind(struct report *r, const struct engine *e,
    const struct selection *sel)
{
	const struct engine_view	*v;
	const char			*group, *name, *unit;
	size_t				 i, j, row, ncol, c, pick;
	char				*label;

	report_unbind(r);
	r->e = e;
	r->nviews = engine_nviews(e);
	r->chart_of = xcalloc(r->nviews + 1, sizeof *r->chart_of);
	r->line_of = xcalloc(r->nviews + 1, sizeof *r->line_of);
	for (i = 0; i < r->nviews; i++) {
		v = engine_view(e, i);
		ncol = v->nevents + v->nmetrics;
		r->chart_of[i] = xcalloc((v->nrows + 1) * ncol + 1,
		    sizeof **r->chart_of);
		r->line_of[i] = xcalloc((v->nrows + 1) * ncol + 1,
		    sizeof **r->line_of);
		for (j = 0; j < ncol; j++) {
			if (j < v->nevents) {
				pick = v->pick_of[j];
				group = sel != NULL && pick < sel->npicks ?
				    sel->picks[pick].name : "events";
				name = v->events[j]->name;
				unit = "/s";
			} else {
				group = "metrics";
				name = v->metrics[j - v->nevents].name;
				unit = v->metrics[j - v->nevents].unit;
			}
			c = report_chart(r, v->term, group, name, unit);
			for (row = 0; row <= v->nrows; row++) {
				label = row == v->nrows ? xstrdup("total") :
				    xasprintf("%s %u", v->term,
				    v->indices[row]);
				r->chart_of[i][row * ncol + j] = c;
				r->line_of[i][row * ncol + j] =
				    report_line(r, c, label, row == v->nrows);
				free(label);
			}
		}
	}
}

/* Value k of a line, NaN for the samples before it. */
static void
report_put(struct report_line *l, size_t k, double v)
{
	if (k >= l->cap) {
		l->cap = l->cap == 0 ? 64 : l->cap;
		while (l->cap <= k)
			l->cap *= 2;
		l->v = xreallocarray(l->v, l->cap, sizeof *l->v);
	}
	while (l->n < k)
		l->v[l->n++] = NAN;
	l->v[k] = v;
	l->n = k + 1;
}

void
report_add(struct report *r, const struct engine_snapshot *s,
    uint64_t wall_ns)
{
	const struct engine_view	*v;
	const struct engine_cell	*cell;
	size_t				 i, j, row, ncol, k, at;
	double				 val;

	if (s->seq == 0 || r->e == NULL)
		return;
	if (r->nt == r->capt) {
		r->capt = r->capt == 0 ? 64 : r->capt * 2;
		r->t = xreallocarray(r->t, r->capt, sizeof *r->t);
	}
	k = r->nt++;
	r->t[k] = wall_ns;
	for (i = 0; i < r->nviews && i < s->nviews; i++) {
		v = engine_view(r->e, i);
		ncol = v->nevents + v->nmetrics;
		for (row = 0; row <= v->nrows; row++) {
			for (j = 0; j < ncol; j++) {
				cell = engine_cell(r->e, s, i, row, j);
				if (cell == NULL || cell->status == ENG_ABSENT)
					continue;
				/* No value is no value, never a number. */
				val = cell->status == ENG_OK &&
				    isfinite(cell->value) ? cell->value : NAN;
				at = row * ncol + j;
				report_put(&r->charts[r->chart_of[i][at]].
				    lines[r->line_of[i][at]], k, val);
			}
		}
	}
}

void
report_incomplete(struct report *r, int damaged, const char *line)
{
	r->problems = xreallocarray(r->problems, r->nproblems + 1,
	    sizeof *r->problems);
	r->problems[r->nproblems++] = report_strdup(line);
	r->damaged |= damaged != 0;
}

size_t
report_nsamples(const struct report *r)
{
	return (r->nt);
}

size_t
report_ncharts(const struct report *r)
{
	return (r->ncharts);
}

const char *
report_chart_name(const struct report *r, size_t c)
{
	return (r->charts[c].name);
}

const char *
report_chart_unit(const struct report *r, size_t c)
{
	return (r->charts[c].unit);
}

size_t
report_nlines(const struct report *r, size_t c)
{
	return (r->charts[c].nlines);
}

const char *
report_line_label(const struct report *r, size_t c, size_t line)
{
	return (r->charts[c].lines[line].label);
}

static int
report_cmp(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return (x < y ? -1 : x > y);
}

void
report_stats(const struct report *r, size_t c, size_t line,
    struct report_stats *st)
{
	const struct report_line	*l = &r->charts[c].lines[line];
	double				*sorted, sum = 0;
	size_t				 i, n = 0, rank;

	memset(st, 0, sizeof *st);
	st->min = st->mean = st->p95 = st->max = NAN;
	sorted = xcalloc(l->n + 1, sizeof *sorted);
	for (i = 0; i < l->n; i++) {
		if (isnan(l->v[i]))
			continue;
		sorted[n++] = l->v[i];
		sum += l->v[i];
	}
	st->n = n;
	st->missing = r->nt - n;
	if (n > 0) {
		qsort(sorted, n, sizeof *sorted, report_cmp);
		st->min = sorted[0];
		st->max = sorted[n - 1];
		st->mean = sum / (double)n;
		/* Nearest rank: the smallest value with 95 % at or below. */
		rank = (size_t)ceil(0.95 * (double)n);
		st->p95 = sorted[rank > 0 ? rank - 1 : 0];
	}
	free(sorted);
}

/* ---- the page ------------------------------------------------------ */

/* Text for HTML content and attribute values. */
static void
report_html_str(const char *s, struct strbuf *sb)
{
	for (; *s != '\0'; s++) {
		switch (*s) {
		case '&':
			strbuf_adds(sb, "&amp;");
			break;
		case '<':
			strbuf_adds(sb, "&lt;");
			break;
		case '>':
			strbuf_adds(sb, "&gt;");
			break;
		case '"':
			strbuf_adds(sb, "&quot;");
			break;
		case '\'':
			strbuf_adds(sb, "&#39;");
			break;
		default:
			strbuf_addc(sb, *s);
			break;
		}
	}
}

/*
 * A JSON string that is safe inside a <script> element: no '<', '>' or
 * '&' (nothing can close the element or open a comment), and no U+2028
 * or U+2029, which older JavaScript reads as line ends.
 */
static void
report_js_str(const char *s, struct strbuf *sb)
{
	const unsigned char	*p = (const unsigned char *)s;

	strbuf_addc(sb, '"');
	for (; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			strbuf_addf(sb, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f || *p == '<' || *p == '>' ||
		    *p == '&')
			strbuf_addf(sb, "\\u%04x", *p);
		else if (p[0] == 0xe2 && p[1] == 0x80 &&
		    (p[2] == 0xa8 || p[2] == 0xa9)) {
			strbuf_addf(sb, "\\u%04x", 0x2000 + (p[2] - 0xa8 + 0x28));
			p += 2;
		} else
			strbuf_addc(sb, (char)*p);
	}
	strbuf_addc(sb, '"');
}

/* A number of the table: the digits CSV output gives. */
static void
report_num(double v, struct strbuf *sb)
{
	if (isnan(v))
		strbuf_adds(sb, "-");
	else
		strbuf_addf(sb, "%.12g", v);
}

/* Whether text inlined into a <TAG> element could end it early ("</TAG",
 * in any case) or holds a NUL byte. */
static int
report_unsafe(const char *s, size_t len, const char *tag)
{
	size_t	 i, j, tlen = strlen(tag);

	for (i = 0; i < len; i++) {
		if (s[i] == '\0')
			return (1);
		if (s[i] != '<' || i + 2 + tlen > len || s[i + 1] != '/')
			continue;
		for (j = 0; j < tlen; j++)
			if (tolower((unsigned char)s[i + 2 + j]) != tag[j])
				break;
		if (j == tlen)
			return (1);
	}
	return (0);
}

static const char report_style[] =
"body{font-family:sans-serif;margin:1em 2em;color:#222}\n"
"table{border-collapse:collapse}\n"
"th,td{padding:2px 8px;text-align:left;border-bottom:1px solid #ddd}\n"
"td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
".charts{display:flex;flex-wrap:wrap;gap:1em}\n"
".box{width:560px}\n"
".box h4{margin:.5em 0 .2em;font-size:95%;overflow-wrap:anywhere}\n"
".chart{width:560px;height:240px}\n"
".legend{font-size:80%;min-height:1.2em}\n"
"#errors{color:#b00}\n"
".incomplete{border:2px solid #b00;background:#fff3f0;padding:.2em 1em;"
"margin:0 0 1em}\n"
".incomplete ul{margin:.3em 0;font-family:monospace}\n";

/*
 * Records every script error into #errors, before anything else runs, so
 * that a page that failed says so in its own DOM.
 */
static const char report_catch[] =
"window.hvtopErrors=[];\n"
"window.onerror=function(m,src,line){\n"
" window.hvtopErrors.push(m+' (line '+line+')');\n"
" var e=document.getElementById('errors');\n"
" if(e)e.textContent=window.hvtopErrors.join('\\n');\n"
"};\n";

/*
 * Builds the charts from the JSON.  A line of an hour at 1 s has more
 * points than a chart has pixels, and the browser would spend seconds on
 * them: where a span has many, each of about 200 buckets gives its
 * lowest and highest value in the order they came, so peaks stay, and a
 * row of null between them where the bucket has a gap, so gaps stay.  A
 * zoom rebuilds the rows with the window at that resolution (every
 * interval once it holds few) and the rest coarser, for panning.  A null
 * is drawn as a gap (connectSeparatedPoints off).
 */
static const char report_draw[] =
"(function(){\n"
" var d=JSON.parse(document.getElementById('hvtop-data').textContent);\n"
" var t=d.t,n=t.length,drawn=0;\n"
" function lower(x){var a=0,b=n,m;\n"
"  while(a<b){m=(a+b)>>1;if(t[m]<x)a=m+1;else b=m;}return a;}\n"
" function rows(v,a,b,nb,out){\n"
"  var m=v.length,k,j,q,s,e,r,x,lo,hi,il,ih,gap,first,second,any,g;\n"
"  if(b-a<=3*nb){\n"
"   for(k=a;k<b;k++){r=[new Date(t[k])];\n"
"    for(j=0;j<m;j++)r.push(v[j][k]);out.push(r);}\n"
"   return;\n"
"  }\n"
"  for(q=0;q<nb;q++){\n"
"   s=a+Math.floor((b-a)*q/nb);e=a+Math.floor((b-a)*(q+1)/nb);\n"
"   first=[];second=[];gap=[];any=false;\n"
"   for(j=0;j<m;j++){\n"
"    lo=Infinity;hi=-Infinity;il=-1;ih=-1;gap[j]=false;\n"
"    for(k=s;k<e;k++){x=v[j][k];\n"
"     if(x===null){gap[j]=true;continue;}\n"
"     if(x<lo){lo=x;il=k;}if(x>hi){hi=x;ih=k;}}\n"
"    if(il<0){first[j]=second[j]=null;gap[j]=false;}\n"
"    else if(il<=ih){first[j]=lo;second[j]=hi;}\n"
"    else{first[j]=hi;second[j]=lo;}\n"
"    if(gap[j])any=true;\n"
"   }\n"
"   out.push([new Date(t[s])].concat(first));\n"
"   if(any){g=[new Date(t[s+((e-s)>>1)])];\n"
"    for(j=0;j<m;j++)g.push(gap[j]?null:second[j]);out.push(g);}\n"
"   out.push([new Date(t[e-1])].concat(second));\n"
"  }\n"
" }\n"
" function build(v,lo,hi){var out=[],a,b;\n"
"  if(lo===undefined){rows(v,0,n,200,out);return out;}\n"
"  a=Math.max(lower(lo)-1,0);b=Math.min(lower(hi)+1,n);\n"
"  rows(v,0,a,50,out);rows(v,a,b,200,out);rows(v,b,n,50,out);\n"
"  return out;\n"
" }\n"
" d.charts.forEach(function(c,i){\n"
"  var v=c.values,busy=false;\n"
"  var el=document.getElementById('chart-'+i);\n"
"  if(n===0){el.textContent='no samples';return;}\n"
"  new Dygraph(el,build(v),{labels:['time'].concat(c.lines),\n"
"   ylabel:c.unit,connectSeparatedPoints:false,labelsKMB:true,\n"
"   legend:'always',labelsDiv:document.getElementById('legend-'+i),\n"
"   labelsUTC:true,axisLabelFontSize:12,\n"
"   axes:{x:{axisLabelWidth:64}},\n"
"   zoomCallback:function(lo,hi){\n"
"    if(busy)return;busy=true;\n"
"    if(lo<=t[0]&&hi>=t[n-1])this.updateOptions({file:build(v),\n"
"     dateWindow:null});\n"
"    else this.updateOptions({file:build(v,lo,hi),dateWindow:[lo,hi]});\n"
"    busy=false;\n"
"   }});\n"
"  drawn++;\n"
" });\n"
" document.body.setAttribute('data-charts-drawn',String(drawn));\n"
" document.body.setAttribute('data-drawn-ms',\n"
"  String(Math.round(performance.now())));\n"
"})();\n";

static void
report_head(const struct report *r, const char *css, size_t csslen,
    struct strbuf *sb)
{
	strbuf_adds(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	    "<meta charset=\"utf-8\">\n<title>hvtop report: ");
	report_html_str(r->recording, sb);
	if (r->nproblems > 0)
		strbuf_adds(sb, " (incomplete)");
	strbuf_adds(sb, "</title>\n<style>\n");
	strbuf_add(sb, css, csslen);
	strbuf_adds(sb, "\n");
	strbuf_adds(sb, report_style);
	strbuf_adds(sb, "</style>\n<script>\n");
	strbuf_adds(sb, report_catch);
	strbuf_adds(sb, "</script>\n</head>\n<body>\n<h1>hvtop report</h1>\n");
}

/*
 * Before anything else: a recording that was not read to its end says so,
 * where the page ends and the reader's own words on where the file does.
 */
static void
report_partial(const struct report *r, struct strbuf *sb)
{
	size_t	 i;

	if (r->nproblems == 0)
		return;
	strbuf_adds(sb, "<div id=\"incomplete\" class=\"incomplete\" "
	    "role=\"alert\">\n<p><strong>Incomplete recording.</strong> ");
	strbuf_adds(sb, r->damaged ? "Parts of the file could not be read: "
	    "this page holds only the intervals that could." :
	    "The file ends before its writer closed it (a run killed, or a "
	    "copy taken while it was written): this page ends where the "
	    "file does.");
	if (r->nt > 0) {
		strbuf_addf(sb, "  Its last interval is number %zu, at ", r->nt);
		strbuf_addtime(sb, r->t[r->nt - 1], 1);
		strbuf_adds(sb, ".");
	} else
		strbuf_adds(sb, "  It holds no interval.");
	strbuf_adds(sb, "</p>\n<ul>\n");
	for (i = 0; i < r->nproblems; i++) {
		strbuf_adds(sb, "<li>");
		report_html_str(r->problems[i], sb);
		strbuf_adds(sb, "</li>\n");
	}
	strbuf_adds(sb, "</ul>\n</div>\n");
}

/* One row of the "where from" table. */
static void
report_about_row(const char *th, const char *td, struct strbuf *sb)
{
	strbuf_adds(sb, "<tr><th>");
	strbuf_adds(sb, th);
	strbuf_adds(sb, "</th><td>");
	report_html_str(td, sb);
	strbuf_adds(sb, "</td></tr>\n");
}

static void
report_about(const struct report *r, struct strbuf *sb)
{
	struct strbuf	 t = { 0 };

	strbuf_adds(sb, "<table class=\"about\">\n");
	report_about_row("recording", r->recording, sb);
	report_about_row("source", r->source, sb);
	report_about_row("frame", r->frame, sb);
	report_about_row("catalog", r->catalog, sb);
	if (r->nt > 0) {
		strbuf_addtime(&t, r->t[0], 1);
		strbuf_adds(&t, " to ");
		strbuf_addtime(&t, r->t[r->nt - 1], 1);
		report_about_row("time", t.s, sb);
	}
	strbuf_reset(&t);
	strbuf_addf(&t, "%zu", r->nt);
	report_about_row("intervals", t.s, sb);
	strbuf_reset(&t);
	strbuf_addf(&t, "hvtop %s", r->version);
	report_about_row("made by", t.s, sb);
	strbuf_free(&t);
	strbuf_adds(sb, "</table>\n<p>Drag across a chart to zoom in, "
	    "shift-drag to pan, double-click to zoom out.  A gap in a line "
	    "is an interval without a value.  Where a chart has more "
	    "intervals than room, each point pair is the lowest and highest "
	    "value of a few intervals; zoom in to see every interval.  The "
	    "table covers every interval.</p>\n"
	    "<pre id=\"errors\"></pre>\n");
}

/* A heading per domain and group, a chart box per chart. */
static void
report_charts(const struct report *r, struct strbuf *sb)
{
	const struct report_chart	*c, *prev = NULL;
	size_t				 i;

	for (i = 0; i < r->ncharts; i++) {
		c = &r->charts[i];
		if (prev == NULL || strcmp(prev->term, c->term) != 0 ||
		    strcmp(prev->group, c->group) != 0) {
			if (prev != NULL)
				strbuf_adds(sb, "</div>\n");
			strbuf_adds(sb, "<h2>");
			report_html_str(c->group, sb);
			strbuf_adds(sb, " by ");
			report_html_str(c->term, sb);
			strbuf_adds(sb, "</h2>\n<div class=\"charts\">\n");
		}
		strbuf_adds(sb, "<div class=\"box\"><h4>");
		report_html_str(c->name, sb);
		if (c->unit[0] != '\0') {
			strbuf_adds(sb, " [");
			report_html_str(c->unit, sb);
			strbuf_adds(sb, "]");
		}
		strbuf_addf(sb, "</h4><div class=\"chart\" id=\"chart-%zu\" "
		    "data-name=\"", i);
		report_html_str(c->name, sb);
		strbuf_addf(sb, "\"></div><div class=\"legend\" "
		    "id=\"legend-%zu\"></div></div>\n", i);
		prev = c;
	}
	if (prev != NULL)
		strbuf_adds(sb, "</div>\n");
}

static void
report_summary(const struct report *r, struct strbuf *sb)
{
	const struct report_chart	*c;
	struct report_stats		 st;
	size_t				 i, j;

	strbuf_adds(sb, "<h2>Summary</h2>\n<table class=\"summary\">\n"
	    "<tr><th>group</th><th>name</th><th>unit</th><th>row</th>"
	    "<th>min</th><th>mean</th><th>p95</th><th>max</th>"
	    "<th>missing</th></tr>\n");
	for (i = 0; i < r->ncharts; i++) {
		c = &r->charts[i];
		for (j = 0; j < c->nlines; j++) {
			report_stats(r, i, j, &st);
			strbuf_adds(sb, "<tr><td>");
			report_html_str(c->group, sb);
			strbuf_adds(sb, "</td><td>");
			report_html_str(c->name, sb);
			strbuf_adds(sb, "</td><td>");
			report_html_str(c->unit, sb);
			strbuf_adds(sb, "</td><td>");
			report_html_str(c->lines[j].label, sb);
			strbuf_adds(sb, "</td><td class=\"n\">");
			report_num(st.min, sb);
			strbuf_adds(sb, "</td><td class=\"n\">");
			report_num(st.mean, sb);
			strbuf_adds(sb, "</td><td class=\"n\">");
			report_num(st.p95, sb);
			strbuf_adds(sb, "</td><td class=\"n\">");
			report_num(st.max, sb);
			strbuf_addf(sb, "</td><td class=\"n\">%zu</td></tr>\n",
			    st.missing);
		}
	}
	strbuf_adds(sb, "</table>\n");
}

/* The series as JSON: times in ms since 1970, null for no value. */
static void
report_data(const struct report *r, struct strbuf *sb)
{
	const struct report_chart	*c;
	const struct report_line	*l;
	size_t				 i, j, k, n;

	strbuf_adds(sb, "{\"t\":[");
	for (k = 0; k < r->nt; k++)
		strbuf_addf(sb, "%s%llu", k > 0 ? "," : "",
		    (unsigned long long)(r->t[k] / 1000000));
	strbuf_adds(sb, "],\n\"charts\":[");
	for (i = 0; i < r->ncharts; i++) {
		c = &r->charts[i];
		strbuf_adds(sb, i > 0 ? ",\n{\"name\":" : "{\"name\":");
		report_js_str(c->name, sb);
		strbuf_adds(sb, ",\"unit\":");
		report_js_str(c->unit, sb);
		/* The total is in the table; the charts draw the rows. */
		strbuf_adds(sb, ",\"lines\":[");
		for (j = 0, n = 0; j < c->nlines; j++) {
			if (c->lines[j].total)
				continue;
			if (n++ > 0)
				strbuf_addc(sb, ',');
			report_js_str(c->lines[j].label, sb);
		}
		strbuf_adds(sb, "],\"values\":[");
		for (j = 0, n = 0; j < c->nlines; j++) {
			l = &c->lines[j];
			if (l->total)
				continue;
			strbuf_adds(sb, n++ > 0 ? ",[" : "[");
			for (k = 0; k < r->nt; k++) {
				if (k > 0)
					strbuf_addc(sb, ',');
				if (k >= l->n || isnan(l->v[k]))
					strbuf_adds(sb, "null");
				else
					strbuf_addf(sb, "%.12g", l->v[k]);
			}
			strbuf_addc(sb, ']');
		}
		strbuf_adds(sb, "]}");
	}
	strbuf_adds(sb, "]}");
}

/*
 * The length of a library's text without its closing source map comment,
 * which points at a file beside the library that the page does not have.
 */
static size_t
report_unmapped(const char *s, size_t len)
{
	size_t	 end = len, i;

	while (end > 0 && (s[end - 1] == '\n' || s[end - 1] == '\r' ||
	    s[end - 1] == ' '))
		end--;
	for (i = end; i > 0 && s[i - 1] != '\n'; i--)
		continue;
	if (i > 0 && end - i > 21 && (memcmp(s + i, "//# sourceMappingURL=",
	    21) == 0 || memcmp(s + i, "/*# sourceMappingURL=", 21) == 0))
		return (i);
	return (len);
}

int
report_html(const struct report *r, const char *js, size_t jslen,
    const char *css, size_t csslen, struct strbuf *sb, char **cause)
{
	if (report_unsafe(js, jslen, "script") ||
	    report_unsafe(css, csslen, "style")) {
		*cause = xstrdup("the charting library holds \"</script\", "
		    "\"</style\" or a NUL byte: it cannot be inlined into "
		    "the page");
		return (-HV_EFORMAT);
	}
	jslen = report_unmapped(js, jslen);
	csslen = report_unmapped(css, csslen);
	report_head(r, css, csslen, sb);
	report_partial(r, sb);
	report_about(r, sb);
	report_charts(r, sb);
	report_summary(r, sb);
	strbuf_adds(sb, "<script>\n");
	strbuf_add(sb, js, jslen);
	strbuf_adds(sb, "\n</script>\n<script type=\"application/json\" "
	    "id=\"hvtop-data\">");
	report_data(r, sb);
	strbuf_adds(sb, "</script>\n<script>\n");
	strbuf_adds(sb, report_draw);
	strbuf_adds(sb, "</script>\n</body>\n</html>\n");
	return (0);
}
