/*
 * A snapshot as text: OpenMetrics 1.0.0 or the Prometheus text format 0.0.4,
 * the families in a fixed order, each value as its layout labelled it.
 * Nothing in a snapshot is changed, so any thread may render one.
 */
#include "config.h"

#include "export/om-int.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "export/om.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* A finite double; an integer exactly. */
static void
om_double(double v, struct strbuf *sb)
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

static const char *const om_reason_names[OM_NREASONS] = {
	"failed", "denied", "missing", "busy", "backwards",
};

/* ---- rendering ----------------------------------------------------- */

enum om_type {
	OM_T_COUNTER,
	OM_T_GAUGE,
	OM_T_INFO,
};

/*
 * A family's metadata.  OpenMetrics names the family without the suffix
 * its samples carry ("_total", "_info") and has a UNIT line; the text
 * format names it as its samples and has neither, and lets HELP escape
 * only backslash and newline.
 */
static void
om_meta(struct strbuf *sb, int format, int type, const char *base,
    const char *unit, const char *help)
{
	static const char *const om_types[] = { "counter", "gauge", "info" };
	static const char *const suffix[] = { "_total", "", "_info" };

	if (format == OM_FMT_OPENMETRICS) {
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
		om_name_escape(help, 1, sb);
		strbuf_addc(sb, '\n');
		return;
	}
	strbuf_add(sb, "# HELP ", 7);
	strbuf_adds(sb, base);
	strbuf_adds(sb, suffix[type]);
	strbuf_addc(sb, ' ');
	om_name_escape(help, 0, sb);
	strbuf_add(sb, "\n# TYPE ", 8);
	strbuf_adds(sb, base);
	strbuf_adds(sb, suffix[type]);
	strbuf_adds(sb, type == OM_T_COUNTER ? " counter\n" : " gauge\n");
}

static void
om_line(struct strbuf *sb, const char *name, size_t nlen,
    const struct om_layout *l, const struct om_label *lb)
{
	strbuf_add(sb, name, nlen);
	if (lb != NULL)
		strbuf_add(sb, l->text.s + lb->off, lb->len);
	strbuf_addc(sb, ' ');
}

/* The frame's label set, "{frame=\"...\"}", after a name. */
static void
om_flabel(struct strbuf *sb, const struct om_layout *l)
{
	strbuf_addc(sb, '{');
	strbuf_add(sb, l->flabel.s, l->flabel.len);
	strbuf_addc(sb, '}');
}

static void
om_health_u64(struct strbuf *sb, const struct om_layout *l, int format,
    int type, const char *base, const char *help, uint64_t v)
{
	om_meta(sb, format, type, base, NULL, help);
	strbuf_adds(sb, base);
	if (type == OM_T_COUNTER)
		strbuf_adds(sb, "_total");
	om_flabel(sb, l);
	strbuf_addc(sb, ' ');
	strbuf_addu64(sb, v);
	strbuf_addc(sb, '\n');
}

static void
om_health_double(struct strbuf *sb, const struct om_layout *l, int format,
    const char *base, const char *unit, const char *help, double v)
{
	om_meta(sb, format, OM_T_GAUGE, base, unit, help);
	strbuf_adds(sb, base);
	if (l != NULL)
		om_flabel(sb, l);
	strbuf_addc(sb, ' ');
	om_double(v, sb);
	strbuf_addc(sb, '\n');
}

/* A label, ",name=\"value\"", its value escaped. */
static void
om_lbl(struct strbuf *sb, const char *name, const char *value)
{
	strbuf_addc(sb, ',');
	strbuf_adds(sb, name);
	strbuf_add(sb, "=\"", 2);
	om_name_escape(value, 1, sb);
	strbuf_addc(sb, '"');
}

/* Who the frame and this partition are, and what it can see. */
static void
om_render_ident(const struct om_snapshot *f, int format, struct strbuf *sb)
{
	const struct om_layout		*l = f->layout;
	const struct frame_ident	*fi = &l->ident;
	const char			*cap;
	char				 id[16], mtms[80];
	size_t				 i;
	int				 on;

	if (l->lpar_self != 0xffff)
		snprintf(id, sizeof id, "%u", l->lpar_self);
	else
		snprintf(id, sizeof id, "self");
	om_meta(sb, format, OM_T_INFO, "hvtop_frame", NULL, "The frame "
	    "this partition runs in: frame is MODEL*SERIAL, as the HMC "
	    "names it");
	strbuf_adds(sb, "hvtop_frame_info{");
	strbuf_add(sb, l->flabel.s, l->flabel.len);
	om_lbl(sb, "model", fi->model[0] != '\0' ? fi->model : "unknown");
	om_lbl(sb, "serial", fi->serial[0] != '\0' ? fi->serial : "unknown");
	om_lbl(sb, "name", fi->name[0] != '\0' ? fi->name :
	    frame_ident_mtms(fi, mtms, sizeof mtms));
	strbuf_add(sb, "} 1\n", 4);
	om_meta(sb, format, OM_T_INFO, "hvtop_lpar", NULL, "The partition "
	    "hvtop runs in: its id, name and processor mode");
	strbuf_adds(sb, "hvtop_lpar_info{");
	strbuf_add(sb, l->flabel.s, l->flabel.len);
	om_lbl(sb, "lpar", id);
	om_lbl(sb, "name", fi->lpar_name[0] != '\0' ? fi->lpar_name : id);
	om_lbl(sb, "mode", fi->mode == FRAME_MODE_SHARED ? "shared" :
	    fi->mode == FRAME_MODE_DEDICATED ? "dedicated" : "unknown");
	strbuf_add(sb, "} 1\n", 4);
	om_meta(sb, format, OM_T_GAUGE, "hvtop_capability", NULL, "What "
	    "this partition can see (1) or not (0): pmu (counters at all), "
	    "frame (physical chips and cores: the HMC's permission), "
	    "partitions (other partitions), catalog");
	for (i = 0; (cap = frame_ident_cap(&f->health.caps, i, &on)) != NULL;
	    i++) {
		strbuf_adds(sb, "hvtop_capability{");
		strbuf_add(sb, l->flabel.s, l->flabel.len);
		om_lbl(sb, "lpar", id);
		om_lbl(sb, "capability", cap);
		strbuf_adds(sb, on ? "} 1\n" : "} 0\n");
	}
}

/* The process serving, as every exporter shows it (no frame label). */
static void
om_render_process(const struct om_snapshot *f, int format,
    struct strbuf *sb)
{
	const struct om_process	*p = &f->health.process;

	if (!p->has)
		return;
	om_meta(sb, format, OM_T_COUNTER, "process_cpu_seconds", "seconds",
	    "User and system CPU time spent in seconds");
	strbuf_adds(sb, "process_cpu_seconds_total ");
	om_double(p->cpu_seconds, sb);
	strbuf_addc(sb, '\n');
	om_health_double(sb, NULL, format, "process_resident_memory_bytes",
	    "bytes", "Resident memory size in bytes", p->resident_bytes);
	om_health_double(sb, NULL, format, "process_start_time_seconds",
	    "seconds", "Start time of the process since unix epoch in "
	    "seconds", p->start_time);
	om_health_double(sb, NULL, format, "process_open_fds", NULL,
	    "Number of open file descriptors", p->open_fds);
	om_health_double(sb, NULL, format, "process_max_fds", NULL,
	    "Maximum number of open file descriptors", p->max_fds);
}

static void
om_render_health(const struct om_snapshot *f, int format,
    struct strbuf *sb)
{
	const struct om_health	*h = &f->health;
	const struct om_layout	*l = f->layout;
	size_t			 i;

	om_health_u64(sb, l, format, OM_T_COUNTER, "hvtop_samples",
	    "Samples hvtop has taken, the first (which only sets the "
	    "baselines) included", h->samples);
	om_health_u64(sb, l, format, OM_T_COUNTER, "hvtop_sample_failures",
	    "Samples that failed as a whole (counted once the next one "
	    "succeeds)", h->failures);
	om_meta(sb, format, OM_T_COUNTER, "hvtop_read_failures", NULL,
	    "Counter readings without a value, by reason: failed, denied "
	    "(no permission), missing (not in the result), busy (the "
	    "hypervisor was busy), backwards (below the value shown before)");
	for (i = 0; i < OM_NREASONS; i++) {
		strbuf_adds(sb, "hvtop_read_failures_total{");
		strbuf_add(sb, l->flabel.s, l->flabel.len);
		strbuf_adds(sb, ",reason=\"");
		strbuf_adds(sb, om_reason_names[i]);
		strbuf_add(sb, "\"} ", 3);
		strbuf_addu64(sb, h->reads[i]);
		strbuf_addc(sb, '\n');
	}
	om_health_u64(sb, l, format, OM_T_COUNTER, "hvtop_calls",
	    "Hypervisor calls (perf: group reads) made by every refresh",
	    h->calls_total);
	if (h->have_sample) {
		om_health_u64(sb, l, format, OM_T_GAUGE,
		    "hvtop_refresh_calls", "Hypervisor calls (perf: group "
		    "reads) the last refresh made", h->calls);
		om_health_u64(sb, l, format, OM_T_GAUGE,
		    "hvtop_refresh_naive_calls", "Calls the last refresh "
		    "would have made reading one counter per call",
		    h->naive_calls);
		om_health_u64(sb, l, format, OM_T_GAUGE,
		    "hvtop_selected_counters", "Counters read by every "
		    "refresh", h->ncounters);
		om_health_double(sb, l, format,
		    "hvtop_refresh_duration_seconds", "seconds",
		    "How long the last refresh took: the reads and the "
		    "engine's update", h->duration);
		if (h->interval > 0)
			om_health_double(sb, l, format,
			    "hvtop_interval_seconds", "seconds",
			    "The interval the metric values cover",
			    h->interval);
		om_health_double(sb, l, format,
		    "hvtop_last_sample_timestamp_seconds", "seconds",
		    "When the last sample was taken, in seconds since 1970 "
		    "(the recording's time in a replay)", h->wall);
		om_health_u64(sb, l, format, OM_T_GAUGE,
		    "hvtop_catalog_version", "Version of the 24x7 catalog "
		    "in use", h->catalog_version);
	}
	if (l->timebase_hz != 0)
		om_health_double(sb, l, format,
		    "hvtop_timebase_frequency_hertz", "hertz", "Frequency of "
		    "the hypervisor's timebase", (double)l->timebase_hz);
	om_meta(sb, format, OM_T_INFO, "hvtop_source", NULL,
	    "Where the counters come from: perf (the hv_24x7 PMU), sim (the "
	    "simulated frame) or replay (a recording)");
	strbuf_adds(sb, "hvtop_source_info{");
	strbuf_add(sb, l->flabel.s, l->flabel.len);
	strbuf_adds(sb, ",source=\"");
	om_name_escape(l->source, 1, sb);
	strbuf_adds(sb, "\",description=\"");
	om_name_escape(l->source_label, 1, sb);
	strbuf_add(sb, "\"} 1\n", 5);
	om_meta(sb, format, OM_T_INFO, "hvtop_build", NULL,
	    "The hvtop program serving these metrics");
	strbuf_adds(sb, "hvtop_build_info{");
	strbuf_add(sb, l->flabel.s, l->flabel.len);
	strbuf_adds(sb, ",version=\"" PACKAGE_VERSION "\"} 1\n");
	om_render_ident(f, format, sb);
	om_render_process(f, format, sb);
}

static int
om_any(const uint8_t *has, size_t n)
{
	return (n > 0 && memchr(has, 1, n) != NULL);
}

/* The parts of the text, in order. */
enum {
	OM_P_EVENTS,
	OM_P_TICKS,
	OM_P_GAUGES,
	OM_P_HEALTH,
	OM_P_DONE
};

static void
om_part_next(struct om_cursor *c)
{
	c->part++;
	c->i = c->j = 0;
	c->meta = 0;
}

/* The counters' lines from the cursor on, until sb reaches stop. */
static void
om_part_events(const struct om_snapshot *f, int format, struct om_cursor *c,
    struct strbuf *sb, size_t stop)
{
	static const char	 ev[] = "hvtop_events_total";
	const struct om_layout	*l = f->layout;

	if (!c->meta) {
		c->meta = 1;
		if (!om_any(f->chas, l->ncounters)) {
			om_part_next(c);
			return;
		}
		om_meta(sb, format, OM_T_COUNTER, "hvtop_events", NULL,
		    "The raw 64-bit accumulator of a 24x7 event, as the "
		    "hypervisor keeps it; rate() gives events per second");
	}
	for (; c->i < l->ncounters && sb->len < stop; c->i++) {
		if (!f->chas[c->i])
			continue;
		om_line(sb, ev, sizeof ev - 1, l, &l->counters[c->i].label);
		strbuf_addu64(sb, f->cval[c->i]);
		strbuf_addc(sb, '\n');
	}
	if (c->i == l->ncounters)
		om_part_next(c);
}

static void
om_part_ticks(const struct om_snapshot *f, int format, struct om_cursor *c,
    struct strbuf *sb, size_t stop)
{
	static const char	 tb[] = "hvtop_timebase_ticks_total";
	const struct om_layout	*l = f->layout;

	if (!c->meta) {
		c->meta = 1;
		if (!om_any(f->thas, l->nticks)) {
			om_part_next(c);
			return;
		}
		om_meta(sb, format, OM_T_COUNTER, "hvtop_timebase_ticks",
		    NULL, "The hypervisor's timebase in the counter records "
		    "of a chip or core; divide by "
		    "hvtop_timebase_frequency_hertz for seconds");
	}
	for (; c->i < l->nticks && sb->len < stop; c->i++) {
		if (!f->thas[c->i])
			continue;
		om_line(sb, tb, sizeof tb - 1, l, &l->ticks[c->i].label);
		strbuf_addu64(sb, f->tval[c->i]);
		strbuf_addc(sb, '\n');
	}
	if (c->i == l->nticks)
		om_part_next(c);
}

/* The gauge families: c->i the family, c->j its next gauge. */
static void
om_part_gauges(const struct om_snapshot *f, int format, struct om_cursor *c,
    struct strbuf *sb, size_t stop)
{
	const struct om_layout	*l = f->layout;
	const struct om_family	*fam;
	size_t			 nlen;

	while (c->i < l->nfamilies && sb->len < stop) {
		fam = &l->families[c->i];
		if (!c->meta) {
			if (!om_any(f->ghas + fam->first, fam->n)) {
				c->i++;
				continue;
			}
			om_meta(sb, format, OM_T_GAUGE, fam->name, fam->unit,
			    fam->help);
			c->meta = 1;
			c->j = fam->first;
		}
		nlen = strlen(fam->name);
		for (; c->j < fam->first + fam->n && sb->len < stop; c->j++) {
			if (!f->ghas[c->j])
				continue;
			om_line(sb, fam->name, nlen, l, &l->gauges[c->j].label);
			om_double(f->gval[c->j], sb);
			strbuf_addc(sb, '\n');
		}
		if (c->j == fam->first + fam->n) {
			c->i++;
			c->meta = 0;
		}
	}
	if (c->i == l->nfamilies)
		om_part_next(c);
}

int
om_render_part(const struct om_snapshot *f, int format, struct om_cursor *c,
    struct strbuf *sb, size_t room)
{
	size_t	 stop;

	stop = room > SIZE_MAX - sb->len ? SIZE_MAX : sb->len + room;
	while (c->part != OM_P_DONE && sb->len < stop) {
		switch (c->part) {
		case OM_P_EVENTS:
			om_part_events(f, format, c, sb, stop);
			break;
		case OM_P_TICKS:
			om_part_ticks(f, format, c, sb, stop);
			break;
		case OM_P_GAUGES:
			om_part_gauges(f, format, c, sb, stop);
			break;
		default:
			om_render_health(f, format, sb);
			if (format == OM_FMT_OPENMETRICS)
				strbuf_add(sb, "# EOF\n", 6);
			om_part_next(c);
			break;
		}
	}
	return (c->part != OM_P_DONE);
}

void
om_render(const struct om_snapshot *f, int format,
    struct strbuf *sb)
{
	const struct om_layout	*l = f->layout;
	struct om_cursor	 c = { 0, 0, 0, 0 };
	size_t			 need;

	/* Room for all of it at once: growing by doubling would copy the
	 * text over and over. */
	need = sb->len + l->text.len + 4096 + 40 * (l->ncounters +
	    l->nticks) + 64 * l->ngauges + 1024 * l->nfamilies;
	if (need > sb->cap) {
		sb->s = xreallocarray(sb->s, need, 1);
		sb->cap = need;
	}
	while (om_render_part(f, format, &c, sb, SIZE_MAX))
		continue;
}
