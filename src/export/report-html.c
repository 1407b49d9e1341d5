/*
 * The report's page: one HTML file with the series as JSON, a summary
 * table per chart and the charting library inlined, safe to open from
 * anywhere (every string escaped for where it goes).  No I/O.
 */
#include "config.h"

#include "export/report.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"
#include "export/report-int.h"
#include "util/hverr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

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

/*
 * A cell of the table: the value as the screens show it, in the chart's
 * scaled unit (export_scaled(): "1.77" in G/s), and the digits the CSV
 * gives in its title (shown on hover) and in data-v.
 */
static void
report_num(double v, int scale, struct strbuf *sb)
{
	if (isnan(v)) {
		strbuf_adds(sb, "<td class=\"n\">-</td>");
		return;
	}
	strbuf_addf(sb, "<td class=\"n\" data-v=\"%.12g\" title=\"%.12g\">",
	    v, v);
	export_scaled(v, scale, 0, sb);
	strbuf_adds(sb, "</td>");
}

/*
 * One decimal prefix per chart, as a column of the text screen has one:
 * from the largest value of its table rows (the total's, mostly), so that
 * its rows compare by eye.  The number of thousands to divide by, or -1
 * for a unit without prefixes; the scaled unit in out.
 */
static int
report_scale(const struct report *r, size_t c, const struct report_stats *st,
    char *out, size_t outlen)
{
	double	 max = 0;
	size_t	 j;

	for (j = 0; j < r->charts[c].nlines; j++)
		if (st[j].n > 0)
			max = fmax(max, fmax(fabs(st[j].min),
			    fabs(st[j].max)));
	return (export_unit_scale(max, r->charts[c].unit, out, outlen));
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
"td{white-space:nowrap}\n"
"td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}\n"
"h2{margin:1em 0 .3em}\n"
"h3{margin:.8em 0 .2em}\n"
".charts{display:grid;gap:.5em 1.5em;\n"
" grid-template-columns:repeat(auto-fit,minmax(min(100%,480px),1fr))}\n"
".box{min-width:0}\n"
".box h4{margin:.5em 0 .2em;font-size:95%;overflow-wrap:anywhere}\n"
".chart{width:100%;height:260px}\n"
".legend{font-size:80%;min-height:2.6em;line-height:1.3em}\n"
".legend .li{margin-right:.8em;white-space:nowrap}\n"
".legend .hl{background:#eef;font-weight:bold}\n"
".legend .quiet{color:#666}\n"
"#errors{color:#b00}\n"
".incomplete{border:2px solid #b00;background:#fff3f0;padding:.2em 1em;"
"margin:0 0 1em}\n"
".incomplete ul{margin:.3em 0;font-family:monospace}\n"
".gaps{border:2px solid #a60;background:#fff8e6;padding:.2em 1em;"
"margin:0 0 1em}\n"
".gaps ul{margin:.3em 0;font-family:monospace}\n";

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
 *
 * Numbers are written as the text screen writes them: in the chart's
 * scaled unit (scaled(), as export_scaled(); "1.77" G/s), or with a
 * prefix of their own where the unit takes none (human(), as
 * numfmt_si() in its own prefix).  With 24 cores a legend of every line
 * is a wall of text that moves the page as it changes: a chart of more than
 * TOP + 1 lines names the TOP highest (by the run's mean, or at the
 * point under the mouse) and counts the others, and the line under the
 * mouse is drawn bold, the others faded, and named first.  The graphs
 * are kept in window.hvtopGraphs.
 */
static const char report_draw[] =
"(function(){\n"
" var d=JSON.parse(document.getElementById('hvtop-data').textContent);\n"
" var t=d.t,n=t.length,drawn=0,TOP=5;\n"
" window.hvtopGraphs=[];\n"
" function human(v){var a=Math.abs(v),i=0,s,x=v,S=' kMGTPE';\n"
"  if(v===null||v===undefined||isNaN(v))return '-';\n"
"  if(!isFinite(v))return v<0?'-inf':'inf';\n"
"  while(a>=9999.5&&i<S.length-1){a/=1000;x/=1000;i++;}\n"
"  if(a>=9999.5)return v.toExponential(2);\n"
"  if(i===0&&a!==0&&a<0.01)return x.toExponential(2);\n"
"  if(i===0&&a===Math.floor(a))s=x.toFixed(0);\n"
"  else s=x.toFixed(a<10?2:a<100?1:0);\n"
"  return i>0?s+S.charAt(i):s;}\n"
" function scaled(v,sc){var a;\n"
"  if(v===null||v===undefined||isNaN(v))return '-';\n"
"  v/=Math.pow(1000,sc);a=Math.abs(v);\n"
"  if(sc===0&&a===Math.floor(a))return v.toFixed(0);\n"
"  if(sc===0&&a!==0&&a<0.01)return v.toExponential(2);\n"
"  return v.toFixed(a<10?2:a<100?1:0);}\n"
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
" function mean(a){var s=0,k=0,j;\n"
"  for(j=0;j<a.length;j++)if(a[j]!==null){s+=a[j];k++;}\n"
"  return k?s/k:null;}\n"
" function item(x,val){\n"
"  return '<span class=\"li'+(x.isHighlighted?' hl':'')+'\">'+\n"
"   '<b style=\"color:'+x.color+'\">'+x.dashHTML+' '+x.labelHTML+'</b>'+\n"
"   (val===undefined?'':'&#160;'+val)+'</span>';}\n"
" function legend(means,fmt,unit){return function(data){\n"
"  var s=data.series,out=[],list,hl=null,rest,lo,hi,j,head;\n"
"  var hover=data.x!==undefined;\n"
"  if(s.length<=TOP+1){\n"
"   for(j=0;j<s.length;j++)out.push(item(s[j],\n"
"    hover?fmt(s[j].y):undefined));\n"
"   return (hover?data.xHTML+' '+unit+': ':'')+out.join(' ');\n"
"  }\n"
"  list=[];\n"
"  for(j=0;j<s.length;j++){\n"
"   var y=hover?s[j].y:means[j],e={s:s[j],y:y};\n"
"   if(y===undefined||y===null||isNaN(y))continue;\n"
"   list.push(e);if(hover&&s[j].isHighlighted)hl=e;\n"
"  }\n"
"  list.sort(function(a,b){return b.y-a.y;});\n"
"  if(hl){list.splice(list.indexOf(hl),1);list.unshift(hl);}\n"
"  for(j=0;j<list.length&&j<TOP;j++)out.push(item(list[j].s,\n"
"   fmt(list[j].y)));\n"
"  rest=list.slice(TOP);lo=Infinity;hi=-Infinity;\n"
"  for(j=0;j<rest.length;j++){lo=Math.min(lo,rest[j].y);\n"
"   hi=Math.max(hi,rest[j].y);}\n"
"  head=hover?data.xHTML+' '+unit+(hl?':':', highest:'):\n"
"   s.length+' lines, highest mean '+unit+':';\n"
"  return head+' '+out.join(' ')+' <span class=\"quiet\">'+\n"
"   (rest.length?rest.length+' other'+(rest.length>1?'s':'')+' '+\n"
"    fmt(lo)+' to '+fmt(hi):'')+\n"
"   (s.length-list.length?', '+(s.length-list.length)+' without a value':'')+\n"
"   (hover?'':'; point at a line to pick it out')+'</span>';\n"
" };}\n"
" d.charts.forEach(function(c,i){\n"
"  var v=c.values,busy=false,g,f=Math.pow(1000,c.scale);\n"
"  var fmt=c.scale<0?human:function(x){return scaled(x,c.scale);};\n"
"  var tick=c.scale<0?human:\n"
"   function(x){return String(Number((x/f).toPrecision(3)));};\n"
"  var el=document.getElementById('chart-'+i);\n"
"  if(n===0){el.textContent='no samples';return;}\n"
"  g=new Dygraph(el,build(v),{labels:['time'].concat(c.lines),\n"
"   ylabel:c.sunit,connectSeparatedPoints:false,\n"
"   legend:'always',labelsDiv:document.getElementById('legend-'+i),\n"
"   legendFormatter:legend(v.map(mean),fmt,c.sunit),\n"
"   highlightSeriesOpts:{strokeWidth:2.5,highlightCircleSize:4},\n"
"   highlightSeriesBackgroundAlpha:0.3,\n"
"   labelsUTC:true,axisLabelFontSize:12,\n"
"   axes:{x:{axisLabelWidth:64},\n"
"    y:{valueFormatter:fmt,axisLabelFormatter:tick}},\n"
"   zoomCallback:function(lo,hi){\n"
"    if(busy)return;busy=true;\n"
"    if(lo<=t[0]&&hi>=t[n-1])this.updateOptions({file:build(v),\n"
"     dateWindow:null});\n"
"    else this.updateOptions({file:build(v,lo,hi),dateWindow:[lo,hi]});\n"
"    busy=false;\n"
"   }});\n"
"  window.hvtopGraphs[i]=g;\n"
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

/* A length of time, in the unit that suits it. */
static void
report_span(uint64_t ns, struct strbuf *sb)
{
	double	 s = (double)ns / 1e9;

	if (s < 120)
		strbuf_addf(sb, "%.1f s", s);
	else if (s < 7200)
		strbuf_addf(sb, "%.1f min", s / 60);
	else
		strbuf_addf(sb, "%.1f h", s / 3600);
}

/*
 * Where a ring's window spans a time the recorder was not running (a
 * restart): each gap in the words of the text replay, with its interval
 * and how long it lasted, from the interval before it to the one after.
 */
static void
report_gaps(const struct report *r, struct strbuf *sb)
{
	size_t	 i, k;

	if (r->ngaps == 0)
		return;
	strbuf_addf(sb, "<div id=\"gaps\" class=\"gaps\">\n<p><strong>%zu "
	    "gap%s.</strong> Nothing was recorded for a while (the recorder "
	    "was not running): no interval spans a gap, and the lines of the "
	    "charts break there.</p>\n<ul>\n", r->ngaps,
	    r->ngaps == 1 ? "" : "s");
	for (i = 0; i < r->ngaps; i++) {
		k = r->gap_at[i];
		strbuf_addf(sb, "<li data-interval=\"%zu\">", k + 1);
		report_html_str(r->gap_text[i], sb);
		if (k > 0 && k + 1 < r->nt && r->t[k + 1] > r->t[k - 1]) {
			strbuf_adds(sb, " (");
			report_span(r->t[k + 1] - r->t[k - 1], sb);
			strbuf_adds(sb, ")");
		}
		strbuf_addf(sb, ", at interval %zu</li>\n", k + 1);
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
	    "value of a few intervals; zoom in to see every interval.  "
	    "Point at a line to pick it out: it is drawn bold and named "
	    "first in the legend below the chart, which names the highest "
	    "lines and counts the others.  The table covers every "
	    "interval.</p>\n"
	    "<pre id=\"errors\"></pre>\n");
}

/*
 * A chart's place on the page: metrics first (what a reader looks at
 * first: Memory_BW's bandwidth before its dispatch counts), then the
 * events' rates; each in the order of the picks; in a pick the metrics
 * that read more of its counters first (a total before its parts), then
 * as met.
 */
struct report_place {
	int	 counts;		/* 0 a metric, 1 an event */
	size_t	 pick;
	size_t	 breadth;
	size_t	 chart;
};

static int
report_place_cmp(const void *a, const void *b)
{
	const struct report_place	*x = a, *y = b;

	if (x->counts != y->counts)
		return (x->counts - y->counts);
	if (x->pick != y->pick)
		return (x->pick < y->pick ? -1 : 1);
	if (x->breadth != y->breadth)
		return (x->breadth > y->breadth ? -1 : 1);
	return (x->chart < y->chart ? -1 : x->chart > y->chart);
}

/* The charts in page order (caller frees). */
static size_t *
report_order(const struct report *r)
{
	struct report_place	*p;
	size_t			*order, i;

	p = xcalloc(r->ncharts + 1, sizeof *p);
	order = xcalloc(r->ncharts + 1, sizeof *order);
	for (i = 0; i < r->ncharts; i++) {
		p[i].counts = !r->charts[i].metric;
		p[i].pick = r->charts[i].pick;
		p[i].breadth = r->charts[i].breadth;
		p[i].chart = i;
	}
	qsort(p, r->ncharts, sizeof *p, report_place_cmp);
	for (i = 0; i < r->ncharts; i++)
		order[i] = p[i].chart;
	free(p);
	return (order);
}

/* What the page shows of each chart, worked out once (the stats sort
 * every line): by chart, its summary rows, prefix and scaled unit. */
struct report_layout {
	size_t			 *order;
	struct report_stats	**st;
	int			 *scale;
	char			(*unit)[32];
};

static void
report_layout_new(const struct report *r, struct report_layout *lay)
{
	size_t	 c, j;

	lay->order = report_order(r);
	lay->st = xcalloc(r->ncharts + 1, sizeof *lay->st);
	lay->scale = xcalloc(r->ncharts + 1, sizeof *lay->scale);
	lay->unit = xcalloc(r->ncharts + 1, sizeof *lay->unit);
	for (c = 0; c < r->ncharts; c++) {
		lay->st[c] = xcalloc(r->charts[c].nlines + 1,
		    sizeof **lay->st);
		for (j = 0; j < r->charts[c].nlines; j++)
			report_stats(r, c, j, &lay->st[c][j]);
		lay->scale[c] = report_scale(r, c, lay->st[c], lay->unit[c],
		    sizeof lay->unit[c]);
	}
}

static void
report_layout_free(const struct report *r, struct report_layout *lay)
{
	size_t	 c;

	for (c = 0; c < r->ncharts; c++)
		free(lay->st[c]);
	free(lay->st);
	free(lay->scale);
	free(lay->unit);
	free(lay->order);
}

/*
 * "Metrics", then "Counters"; under each a heading per group and domain,
 * a chart box per chart.  Boxes are numbered in page order.
 */
static void
report_charts(const struct report *r, const size_t *order,
    struct strbuf *sb)
{
	const struct report_chart	*c, *prev = NULL;
	size_t				 i;

	for (i = 0; i < r->ncharts; i++) {
		c = &r->charts[order[i]];
		if (prev == NULL || prev->metric != c->metric ||
		    strcmp(prev->term, c->term) != 0 ||
		    strcmp(prev->group, c->group) != 0) {
			if (prev != NULL)
				strbuf_adds(sb, "</div>\n");
			if (prev == NULL || prev->metric != c->metric)
				strbuf_adds(sb, c->metric ?
				    "<h2 id=\"metrics\">Metrics</h2>\n" :
				    "<h2 id=\"counters\">Counters (events "
				    "per second)</h2>\n");
			strbuf_adds(sb, "<h3>");
			report_html_str(c->group, sb);
			strbuf_adds(sb, " by ");
			report_html_str(c->term, sb);
			strbuf_addf(sb, "</h3>\n<div class=\"charts %s\">\n",
			    c->metric ? "metrics" : "counters");
		}
		strbuf_adds(sb, "<div class=\"box\"><h4>");
		report_html_str(c->name, sb);
		if (c->unit[0] != '\0') {
			strbuf_adds(sb, " [");
			report_html_str(c->unit, sb);
			strbuf_adds(sb, "]");
		}
		strbuf_addf(sb, "</h4><div class=\"chart\" id=\"chart-%zu\" "
		    "data-kind=\"%s\" data-name=\"", i,
		    c->metric ? "metric" : "event");
		report_html_str(c->name, sb);
		strbuf_addf(sb, "\"></div><div class=\"legend\" "
		    "id=\"legend-%zu\"></div></div>\n", i);
		prev = c;
	}
	if (prev != NULL)
		strbuf_adds(sb, "</div>\n");
}

static void
report_summary(const struct report *r, const struct report_layout *lay,
    struct strbuf *sb)
{
	const struct report_chart	*c;
	const struct report_stats	*st;
	size_t				 i, j, k;

	strbuf_adds(sb, "<h2 id=\"summary\">Summary</h2>\n<p>Values as the "
	    "screens show them; point at one for all its digits.</p>\n"
	    "<table class=\"summary\">\n"
	    "<tr><th>group</th><th>name</th><th>unit</th><th>row</th>"
	    "<th class=\"n\">min</th><th class=\"n\">mean</th>"
	    "<th class=\"n\">p95</th><th class=\"n\">max</th>"
	    "<th class=\"n\">missing</th></tr>\n");
	for (i = 0; i < r->ncharts; i++) {
		k = lay->order[i];
		c = &r->charts[k];
		for (j = 0; j < c->nlines; j++) {
			st = &lay->st[k][j];
			strbuf_adds(sb, "<tr><td>");
			report_html_str(c->group, sb);
			strbuf_adds(sb, "</td><td>");
			report_html_str(c->name, sb);
			strbuf_adds(sb, "</td><td data-unit=\"");
			report_html_str(c->unit, sb);
			strbuf_adds(sb, "\">");
			report_html_str(lay->unit[k], sb);
			strbuf_adds(sb, "</td><td>");
			report_html_str(c->lines[j].label, sb);
			strbuf_adds(sb, "</td>");
			report_num(st->min, lay->scale[k], sb);
			report_num(st->mean, lay->scale[k], sb);
			report_num(st->p95, lay->scale[k], sb);
			report_num(st->max, lay->scale[k], sb);
			strbuf_addf(sb, "<td class=\"n\">%zu</td></tr>\n",
			    st->missing);
		}
	}
	strbuf_adds(sb, "</table>\n");
}

/* The series as JSON, in page order: times in ms since 1970, null for
 * no value. */
static void
report_data(const struct report *r, const struct report_layout *lay,
    struct strbuf *sb)
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
		c = &r->charts[lay->order[i]];
		strbuf_adds(sb, i > 0 ? ",\n{\"name\":" : "{\"name\":");
		report_js_str(c->name, sb);
		strbuf_adds(sb, ",\"unit\":");
		report_js_str(c->unit, sb);
		strbuf_addf(sb, ",\"scale\":%d,\"sunit\":",
		    lay->scale[lay->order[i]]);
		report_js_str(lay->unit[lay->order[i]], sb);
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
	struct report_layout	 lay;

	if (report_unsafe(js, jslen, "script") ||
	    report_unsafe(css, csslen, "style")) {
		*cause = xstrdup("the charting library holds \"</script\", "
		    "\"</style\" or a NUL byte: it cannot be inlined into "
		    "the page");
		return (-HV_EFORMAT);
	}
	jslen = report_unmapped(js, jslen);
	csslen = report_unmapped(css, csslen);
	report_layout_new(r, &lay);
	report_head(r, css, csslen, sb);
	report_partial(r, sb);
	report_gaps(r, sb);
	report_about(r, sb);
	report_charts(r, lay.order, sb);
	report_summary(r, &lay, sb);
	strbuf_adds(sb, "<script>\n");
	strbuf_add(sb, js, jslen);
	strbuf_adds(sb, "\n</script>\n<script type=\"application/json\" "
	    "id=\"hvtop-data\">");
	report_data(r, &lay, sb);
	strbuf_adds(sb, "</script>\n<script>\n");
	strbuf_adds(sb, report_draw);
	strbuf_adds(sb, "</script>\n</body>\n</html>\n");
	report_layout_free(r, &lay);
	return (0);
}
