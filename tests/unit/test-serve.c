/*
 * Unit tests for src/serve: the --serve address, unit and name rules, the
 * rendering of frames in both formats (values, omissions, escaping), the
 * guard that keeps counters from going backwards, catalog changes, and
 * the HTTP answers of a server on a loopback port.  Raw samples are made
 * by hand on the fixture catalog, so every expected number is known.
 */
#include "config.h"

#include <sys/types.h>
#include <sys/socket.h>

#include <netinet/in.h>

#include <arpa/inet.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "engine/engine-int.h"
#include "export/om.h"
#include "model/selection.h"
#include "serve/serve.h"
#include "source/source.h"
#include "fixture.h"
#include "test-hcall-fixture.h"
#include "util/hverr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define TB_HZ	FIXTURE_TB_HZ

struct fixture {
	struct tfix		 fx;
	struct topology		 topo;
	struct selection	 sel;
	struct engine		*e;
	struct engine_snapshot	*snap;
	struct raw_sample	 rs;
	struct om		*om;
	unsigned		 gen;
	uint64_t		 now;
};

/* ---- addresses ----------------------------------------------------- */

static void
addr_ok(const char *arg, const char *host, unsigned port)
{
	struct serve_addr	 a;
	char			*cause = NULL;

	if (serve_addr_parse(arg, &a, &cause) != 0)
		fail_msg("%s: %s", arg, cause);
	assert_string_equal(a.host, host);
	assert_int_equal(a.port, port);
}

static void
addr_bad(const char *arg, const char *in_cause)
{
	struct serve_addr	 a;
	char			*cause = NULL;

	assert_true(serve_addr_parse(arg, &a, &cause) < 0);
	assert_non_null(cause);
	if (strstr(cause, in_cause) == NULL)
		fail_msg("%s: '%s' lacks '%s'", arg, cause, in_cause);
	free(cause);
}

static void
test_addr(void **state)
{
	(void)state;
	addr_ok("9724", "127.0.0.1", 9724);
	addr_ok(":9000", "127.0.0.1", 9000);
	addr_ok("127.0.0.1:9724", "127.0.0.1", 9724);
	addr_ok("0.0.0.0:80", "0.0.0.0", 80);
	addr_ok("*:80", "*", 80);
	addr_ok("[::1]:9724", "::1", 9724);
	addr_ok("localhost:0", "localhost", 0);
	addr_bad("", "port number is missing");
	addr_bad("abc", "column 1: the port must be a number");
	addr_bad("1.2.3.4:", "column 9: a port number is missing");
	addr_bad("1.2.3.4:99999", "above 65535");
	addr_bad("::1:80", "brackets");
	addr_bad("[::1]9724", "column 6: expected ':PORT'");
	addr_bad("[::1:80", "'[' without ']'");
	addr_bad("a b:1", "column 2: ' ' cannot be part");
}

/* ---- units and names ----------------------------------------------- */

static void
unit_is(const char *text, const char *base, double scale)
{
	double	 s;
	char	*u;

	u = om_name_unit(text, &s);
	assert_string_equal(u, base);
	assert_true(s == scale);
	free(u);
}

static void
test_units(void **state)
{
	(void)state;
	unit_is("%", "ratio", 0.01);
	unit_is("MB/s", "bytes_per_second", 1e6);
	unit_is("bytes/sec", "bytes_per_second", 1);
	unit_is("GHz", "hertz", 1e9);
	unit_is(" ns ", "seconds", 1e-9);
	unit_is("/s", "per_second", 1);
	unit_is("", "", 1);
	unit_is(NULL, "", 1);
	unit_is("cycles", "cycles", 1);
	unit_is("instr/cycle", "instr_per_cycle", 1);
	unit_is("B/cyc", "bper_cyc", 1);
	unit_is("cyc/B", "cyc_perb", 1);
	unit_is("m", "", 1);
	unit_is("%%", "percent_percent", 1);
	unit_is("count", "", 1);
	unit_is("instr/total", "instr_pertotal", 1);
	unit_is("k/b", "k_perb", 1);
}

static void
name_is(const char *name, const char *unit, const char *want)
{
	char	*n;

	n = om_name_metric(name, unit);
	assert_string_equal(n, want);
	assert_true(om_name_valid(n));
	free(n);
}

static void
test_names(void **state)
{
	(void)state;
	name_is("TOTAL_INT_PB_BW", "bytes_per_second",
	    "hvtop_metric_total_int_pbbw_bytes_per_second");
	name_is("TOTAL_XLINK0_UTILISATION%", "ratio",
	    "hvtop_metric_total_xlink0_utilisation_ratio");
	name_is("CS_32MHZ_Frequency", "hertz",
	    "hvtop_metric_cs_32mhz_frequency_hertz");
	name_is("Memory_RD_BW_Chip", "bytes_per_second",
	    "hvtop_metric_memory_rd_bw_chip_bytes_per_second");
	name_is("PUMPS_COUNT", "", "hvtop_metric_pumpscount");
	name_is("X_TOTAL", "per_second", "hvtop_metric_x_total_per_second");
	name_is("MB", "", "hvtop_metricmb");
	name_is("%", "", "hvtop_metric_unnamed");
	name_is("a.b-c d", "", "hvtop_metric_a_bcd");
	name_is("PB_CYC", "", "hvtop_metric_pbcyc");
	name_is("X_S", "per_second", "hvtop_metric_xs_per_second");
	name_is("rate_per_second", "per_second",
	    "hvtop_metric_rate_per_second");
	name_is("GAUGE_OF_S", "", "hvtop_metric_gaugeofs");
	/* A joined word is looked at again. */
	name_is("us_untyped_m_b", "", "hvtop_metric_usuntypedmb");
	name_is("k_b", "", "hvtop_metrickb");
	name_is("x_total_count", "", "hvtop_metric_x_totalcount");
	assert_false(om_name_valid("9x"));
	assert_false(om_name_valid("a-b"));
	assert_false(om_name_valid(""));
	assert_true(om_name_valid("a:b_9"));
}

static void
test_accept(void **state)
{
	(void)state;
	assert_int_equal(om_accept(NULL), OM_FMT_PROMETHEUS);
	assert_int_equal(om_accept("*/*"), OM_FMT_PROMETHEUS);
	assert_int_equal(om_accept("application/openmetrics-text;"
	    "version=1.0.0,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"),
	    OM_FMT_OPENMETRICS);
	assert_string_equal(om_content_type(OM_FMT_OPENMETRICS),
	    "application/openmetrics-text; version=1.0.0; charset=utf-8");
	assert_string_equal(om_content_type(OM_FMT_PROMETHEUS),
	    "text/plain; version=0.0.4; charset=utf-8");
}

/* ---- frames -------------------------------------------------------- */

static const struct engine_metric_def defs[] = {
	/* Per second: the fixture's first chip event. */
	{ "PB_CYC_RATE", "PM_PB_CYC / delta-seconds", "/s",
	  "PowerBus cycles per second", "test", NULL, 0 },
	/* A quote, a backslash and a newline in the help. */
	{ "XFER_SHARE%", "PM_PB_INT_DATA_XFER * 100 / PM_PB_CYC", "%",
	  "Share \"of\" \\ cycles\nsecond line", "test", NULL, 0 },
	/* Division by zero when PM_PB_RTY is 0. */
	{ "RTY_INV", "1 / PM_PB_RTY", "", "", "test", NULL, 0 },
};

static int
setup(void **state)
{
	struct fixture		*f;
	struct om_info info;
	char			*cause = NULL;

	f = xcalloc(1, sizeof *f);
	tfix_build(&f->fx, 1, 1, 0);
	fixture_topology(&f->topo, 2);
	f->topo.privileged = 1;
	if (selection_add(&f->sel, f->fx.cat, &f->topo, "CHIP_GROUP_0", 0,
	    &cause) != 0 || selection_add(&f->sel, f->fx.cat, &f->topo,
	    "CORE_GROUP_0:1", 0, &cause) != 0)
		fail_msg("%s", cause);
	f->e = engine_new(f->fx.cat, &f->sel, TB_HZ, defs,
	    sizeof defs / sizeof defs[0], NULL, NULL);
	f->rs.values = xcalloc(f->sel.ncounters, sizeof *f->rs.values);
	f->rs.nvalues = f->sel.ncounters;
	memset(&info, 0, sizeof info);
	info.lpar_self = 0xffff;
	info.source = "sim";
	info.source_label = "SIMULATED \"frame\" \\ 2 chips\n\xff";
	info.timebase_hz = TB_HZ;
	f->om = om_new(&info);
	*state = f;
	return (0);
}

static int
teardown(void **state)
{
	struct fixture	*f = *state;

	om_free(f->om);
	engine_snapshot_free(f->snap);
	engine_free(f->e);
	selection_clear(&f->sel);
	free(f->rs.values);
	tfix_free(&f->fx);
	free(f);
	return (0);
}

/* Fill every counter: base + 1000 * k, one second later each time. */
static void
fill(struct fixture *f, uint64_t base)
{
	size_t	 k;

	f->now += 1000000000ULL;
	f->rs.now = f->now;
	f->rs.calls = 2;
	f->rs.naive_calls = 24;
	f->rs.catalog_version = f->fx.cat->version;
	for (k = 0; k < f->rs.nvalues; k++) {
		f->rs.values[k].value = base + 1000 * k;
		f->rs.values[k].timebase = f->now / 1000 * 512;
		f->rs.values[k].status = RAW_OK;
	}
}

/* Counter k of the selection for an event name on an index. */
static size_t
counter_of(const struct fixture *f, const char *event, unsigned index)
{
	size_t	 k;

	for (k = 0; k < f->sel.ncounters; k++) {
		if (strcmp(f->sel.counters[k].event->name, event) == 0 &&
		    f->sel.counters[k].index == index)
			return (k);
	}
	fail_msg("no counter %s on %u", event, index);
	return (0);
}

/* Sample and publish into a snapshot (the caller frees it). */
static struct om_snapshot *
snapshot_of(struct fixture *f)
{
	struct om_sample	 s;

	memset(&s, 0, sizeof s);
	f->snap = engine_update_reuse(f->e, &f->rs, f->snap);
	s.engine = f->e;
	s.sel = &f->sel;
	s.snap = f->snap;
	s.rs = &f->rs;
	s.generation = f->gen;
	s.catalog_version = f->fx.cat->version;
	s.wall_ns = 1767225600ULL * 1000000000ULL + f->now;
	s.duration_ns = 1500000;
	return (om_snapshot(f->om, &s));
}

/* Sample, publish into a frame, render; the text is allocated. */
static char *
frame(struct fixture *f, int format)
{
	struct om_snapshot	*fr;
	struct strbuf		 sb = { 0 };

	fr = snapshot_of(f);
	om_render(fr, format, &sb);
	om_snapshot_free(fr);
	return (strbuf_detach(&sb));
}

static void
has(const char *text, const char *line)
{
	if (strstr(text, line) == NULL) {
		fprintf(stderr, "# missing: %s\n--- in ---\n%s", line, text);
		fail();
	}
}

static void
lacks(const char *text, const char *line)
{
	if (strstr(text, line) != NULL) {
		fprintf(stderr, "# unexpected: %s\n--- in ---\n%s", line,
		    text);
		fail();
	}
}

#define CYC0	"hvtop_events_total{frame=\"unknown\",event=\"PM_PB_CYC\",domain=\"phys_chip\"," \
		"chip=\"0\",catalog_version=\"7\"} "

/*
 * The text in parts, as a slow reader takes it, is the whole text: for
 * every part size, from a byte (a line at a time) up, in both formats,
 * with counters, ticks, gauge families and the health lines.
 */
static void
test_render_parts(void **state)
{
	static const size_t	 rooms[] = { 1, 7, 100, 333, 4096 };
	struct fixture		*f = *state;
	struct om_snapshot	*fr;
	struct om_cursor	 c;
	struct strbuf		 whole = { 0 }, parts = { 0 };
	size_t			 r, calls;
	int			 fmt;

	fill(f, 100);
	om_snapshot_free(snapshot_of(f));
	fill(f, 5000);
	fr = snapshot_of(f);
	for (fmt = 0; fmt < OM_NFORMATS; fmt++) {
		strbuf_reset(&whole);
		om_render(fr, fmt, &whole);
		assert_non_null(strstr(whole.s, "\nhvtop_metric_"));
		for (r = 0; r < sizeof rooms / sizeof rooms[0]; r++) {
			memset(&c, 0, sizeof c);
			strbuf_reset(&parts);
			calls = 1;
			while (om_render_part(fr, fmt, &c, &parts, rooms[r]))
				calls++;
			assert_int_equal(parts.len, whole.len);
			assert_memory_equal(parts.s, whole.s, whole.len);
			/* A byte at a time is a line at a time. */
			if (rooms[r] == 1)
				assert_true(calls > 20);
			/* Complete: nothing more. */
			assert_int_equal(om_render_part(fr, fmt, &c, &parts,
			    rooms[r]), 0);
			assert_int_equal(parts.len, whole.len);
		}
	}
	strbuf_free(&whole);
	strbuf_free(&parts);
	om_snapshot_free(fr);
}

static void
test_render_openmetrics(void **state)
{
	struct fixture	*f = *state;
	char		*t, line[256];
	size_t		 k;

	fill(f, 100);
	t = frame(f, OM_FMT_OPENMETRICS);
	k = counter_of(f, "PM_PB_CYC", 0);
	snprintf(line, sizeof line, "\n" CYC0 "%llu\n",
	    (unsigned long long)(100 + 1000 * k));
	has(t, "# TYPE hvtop_events counter\n# HELP hvtop_events ");
	has(t, line);
	has(t, "hvtop_events_total{frame=\"unknown\",event=\"HPM_CCYC\",domain=\"phys_core\","
	    "core=\"1\",catalog_version=\"7\"} ");
	has(t, "# TYPE hvtop_timebase_ticks counter\n");
	has(t, "\nhvtop_timebase_ticks_total{frame=\"unknown\",domain=\"phys_chip\",chip=\"1\"} "
	    "512000000\n");
	/* The first sample only sets baselines: no metric yet. */
	lacks(t, "hvtop_metric_");
	has(t, "\nhvtop_samples_total{frame=\"unknown\"} 1\n");
	has(t, "\nhvtop_read_failures_total{frame=\"unknown\",reason=\"busy\"} 0\n");
	has(t, "\nhvtop_refresh_calls{frame=\"unknown\"} 2\n");
	has(t, "\nhvtop_calls_total{frame=\"unknown\"} 2\n");
	has(t, "# TYPE hvtop_refresh_duration_seconds gauge\n"
	    "# UNIT hvtop_refresh_duration_seconds seconds\n");
	has(t, "\nhvtop_refresh_duration_seconds{frame=\"unknown\"} 0.0015");
	has(t, "\nhvtop_catalog_version{frame=\"unknown\"} 7\n");
	has(t, "\nhvtop_selected_counters{frame=\"unknown\"} 20\n");
	has(t, "\nhvtop_timebase_frequency_hertz{frame=\"unknown\"} 512000000\n");
	/* Quote and backslash escaped, newline and a bad byte replaced. */
	has(t, "# TYPE hvtop_source info\n");
	has(t, "\nhvtop_source_info{frame=\"unknown\",source=\"sim\",description=\"SIMULATED "
	    "\\\"frame\\\" \\\\ 2 chips ?\"} 1\n");
	lacks(t, "_created");
	assert_true(strlen(t) > 6 &&
	    strcmp(t + strlen(t) - 6, "# EOF\n") == 0);
	free(t);

	/* A second sample: metrics, in base units, with UNIT and HELP. */
	fill(f, 200);
	t = frame(f, OM_FMT_OPENMETRICS);
	k = counter_of(f, "PM_PB_CYC", 0);
	snprintf(line, sizeof line, "\n" CYC0 "%llu\n",
	    (unsigned long long)(200 + 1000 * k));
	has(t, line);
	has(t, "# TYPE hvtop_metric_pbcyc_rate_per_second gauge\n"
	    "# UNIT hvtop_metric_pbcyc_rate_per_second per_second\n"
	    "# HELP hvtop_metric_pbcyc_rate_per_second PowerBus cycles "
	    "per second\n");
	has(t, "\nhvtop_metric_pbcyc_rate_per_second{frame=\"unknown\",metric=\"PB_CYC_RATE\","
	    "domain=\"phys_chip\",chip=\"0\"} 100\n");
	/* No total row: summing the family must not count it twice. */
	lacks(t, "chip=\"total\"");
	/* 100 events of each over 100 cycles: 100 % is 1 as a ratio. */
	has(t, "# HELP hvtop_metric_xfer_share_ratio Share \\\"of\\\" \\\\ "
	    "cycles second line\n");
	has(t, "\nhvtop_metric_xfer_share_ratio{frame=\"unknown\",metric=\"XFER_SHARE%\","
	    "domain=\"phys_chip\",chip=\"1\"} 1\n");
	/* 1 / 100 is a value; no family for what has none. */
	has(t, "\nhvtop_metric_rty_inv{frame=\"unknown\",metric=\"RTY_INV\",domain=\"phys_chip\","
	    "chip=\"0\"} 0.01\n");
	has(t, "\nhvtop_interval_seconds{frame=\"unknown\"} 1\n");
	has(t, "\nhvtop_samples_total{frame=\"unknown\"} 2\n");
	free(t);
}

static void
test_render_prometheus(void **state)
{
	struct fixture	*f = *state;
	char		*t;

	fill(f, 100);
	free(frame(f, OM_FMT_PROMETHEUS));
	fill(f, 200);
	t = frame(f, OM_FMT_PROMETHEUS);
	has(t, "# HELP hvtop_events_total ");
	has(t, "\n# TYPE hvtop_events_total counter\n");
	has(t, "# TYPE hvtop_metric_pbcyc_rate_per_second gauge\n");
	/* Only backslash and newline are escaped in this format's HELP. */
	has(t, "# HELP hvtop_metric_xfer_share_ratio Share \"of\" \\\\ "
	    "cycles second line\n");
	has(t, "# HELP hvtop_source_info ");
	has(t, "\n# TYPE hvtop_source_info gauge\n");
	has(t, "# TYPE hvtop_samples_total counter\n");
	lacks(t, "# UNIT");
	lacks(t, "# EOF");
	lacks(t, " info\n");
	free(t);
}

static void
test_omitted(void **state)
{
	struct fixture	*f = *state;
	char		*t, line[256];
	size_t		 k, rty;

	fill(f, 100);
	free(frame(f, OM_FMT_OPENMETRICS));
	fill(f, 200);
	k = counter_of(f, "PM_PB_CYC", 0);
	f->rs.values[k].status = RAW_BUSY;
	/* No retries on chip 1: 1 / 0 has no value. */
	rty = counter_of(f, "PM_PB_RTY", 1);
	f->rs.values[rty].value -= 100;
	t = frame(f, OM_FMT_OPENMETRICS);
	lacks(t, CYC0);
	has(t, "\nhvtop_read_failures_total{frame=\"unknown\",reason=\"busy\"} 1\n");
	lacks(t, "chip=\"0\"} 100\n");
	lacks(t, "metric=\"PB_CYC_RATE\",domain=\"phys_chip\",chip=\"total\"");
	has(t, "metric=\"PB_CYC_RATE\",domain=\"phys_chip\",chip=\"1\"} 100\n");
	lacks(t, "metric=\"RTY_INV\",domain=\"phys_chip\",chip=\"1\"");
	has(t, "metric=\"RTY_INV\",domain=\"phys_chip\",chip=\"0\"} 0.01\n");
	lacks(t, "NaN");
	lacks(t, "Inf");
	free(t);
	/* Back: the value shows again. */
	fill(f, 300);
	t = frame(f, OM_FMT_OPENMETRICS);
	snprintf(line, sizeof line, "\n" CYC0 "%llu\n",
	    (unsigned long long)(300 + 1000 * k));
	has(t, line);
	free(t);
}

static void
test_guard(void **state)
{
	struct fixture	*f = *state;
	char		*t, line[256];
	size_t		 k;

	k = counter_of(f, "PM_PB_CYC", 0);
	fill(f, 5000);
	free(frame(f, OM_FMT_OPENMETRICS));
	/* A reading below the last shown is not shown ... */
	fill(f, 5000);
	f->rs.values[k].value = 0;
	t = frame(f, OM_FMT_OPENMETRICS);
	lacks(t, CYC0);
	has(t, "hvtop_read_failures_total{frame=\"unknown\",reason=\"backwards\"} 1\n");
	free(t);
	/* ... and one that is back above it is. */
	fill(f, 5100);
	t = frame(f, OM_FMT_OPENMETRICS);
	snprintf(line, sizeof line, "\n" CYC0 "%llu\n",
	    (unsigned long long)(5100 + 1000 * k));
	has(t, line);
	free(t);
	/* A counter that restarted: the second low reading confirms it. */
	fill(f, 5200);
	f->rs.values[k].value = 10;
	t = frame(f, OM_FMT_OPENMETRICS);
	lacks(t, CYC0);
	free(t);
	fill(f, 5300);
	f->rs.values[k].value = 20;
	t = frame(f, OM_FMT_OPENMETRICS);
	has(t, "\n" CYC0 "20\n");
	has(t, "hvtop_read_failures_total{frame=\"unknown\",reason=\"backwards\"} 2\n");
	free(t);
}

static void
test_catalog_change(void **state)
{
	struct fixture	*f = *state;
	struct catalog	*cat = f->fx.cat;
	char		*t;
	size_t		 k;

	k = counter_of(f, "PM_PB_CYC", 0);
	fill(f, 9000);
	free(frame(f, OM_FMT_OPENMETRICS));
	/* A new catalog: new series, shown from any value. */
	cat->version = 8;
	f->gen++;
	fill(f, 10);
	f->rs.values[k].value = 10;
	t = frame(f, OM_FMT_OPENMETRICS);
	lacks(t, "catalog_version=\"7\"");
	has(t, "\nhvtop_events_total{frame=\"unknown\",event=\"PM_PB_CYC\",domain=\"phys_chip\","
	    "chip=\"0\",catalog_version=\"8\"} 10\n");
	has(t, "\nhvtop_catalog_version{frame=\"unknown\"} 8\n");
	has(t, "hvtop_read_failures_total{frame=\"unknown\",reason=\"backwards\"} 0\n");
	free(t);
	cat->version = 7;
}

static void
test_frame_outlives_engine(void **state)
{
	struct fixture		*f = *state;
	struct om_sample	 s;
	struct om_snapshot		*fr, *empty;
	struct strbuf		 sb = { 0 };

	fill(f, 100);
	f->snap = engine_update_reuse(f->e, &f->rs, f->snap);
	memset(&s, 0, sizeof s);
	s.engine = f->e;
	s.sel = &f->sel;
	s.snap = f->snap;
	s.rs = &f->rs;
	s.catalog_version = 7;
	empty = om_snapshot(f->om, NULL);
	fr = om_snapshot(f->om, &s);
	/* The engine and its snapshot go; the frame still renders. */
	engine_snapshot_free(f->snap);
	f->snap = NULL;
	engine_free(f->e);
	f->e = NULL;
	om_failed(f->om);
	om_render(fr, OM_FMT_OPENMETRICS, &sb);
	has(sb.s, CYC0);
	has(sb.s, "\nhvtop_sample_failures_total{frame=\"unknown\"} 0\n");
	strbuf_reset(&sb);
	om_render(empty, OM_FMT_PROMETHEUS, &sb);
	has(sb.s, "\nhvtop_samples_total{frame=\"unknown\"} 0\n");
	lacks(sb.s, "hvtop_events");
	lacks(sb.s, "hvtop_refresh_calls");
	om_snapshot_free(fr);
	om_snapshot_free(empty);
	strbuf_free(&sb);
}

/* ---- the server ---------------------------------------------------- */

/* Send req to the port; the whole answer (allocated). */
static char *
http(unsigned port, const char *req)
{
	struct sockaddr_in	 sin;
	struct strbuf		 sb = { 0 };
	char			 buf[4096];
	ssize_t			 n;
	int			 fd;

	fd = socket(AF_INET, SOCK_STREAM, 0);
	assert_true(fd >= 0);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons((uint16_t)port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	assert_int_equal(connect(fd, (struct sockaddr *)&sin, sizeof sin), 0);
	assert_int_equal(write(fd, req, strlen(req)), (ssize_t)strlen(req));
	while ((n = read(fd, buf, sizeof buf)) > 0)
		strbuf_add(&sb, buf, (size_t)n);
	close(fd);
	strbuf_adds(&sb, "");
	return (strbuf_detach(&sb));
}

/*
 * The partition views, as the engine shapes them: the per-vcpu view's
 * counters are exported once each with their partition, vcpu and
 * placement; nothing of the per-partition view, no sum of either.  The
 * views are made here over the fixture's counters, after the engine's
 * update, so only om's reading of the shapes is tested.
 */
static void
test_lpar_series(void **state)
{
	struct fixture		*f = *state;
	struct engine_view	 pv[2];
	struct om_sample	 s;
	struct om_snapshot	*fr;
	struct om_info		 info;
	struct om		*om;
	struct strbuf		 sb = { 0 }, sum = { 0 };
	const struct catalog_event *ev[1];
	unsigned		 rows[3] = { 1U << 16 | 0, 1U << 16 | 1,
				    0xffffU << 16 | 0 }, lrows[2] = { 1,
				    0xffff }, lvcpus[2] = { 2, 1 };
	size_t			 pc[3 * 4], lpc[2 * 4], none[3] = {
				    ENG_NONE, ENG_NONE, ENG_NONE }, p, nv;
	struct engine_view	*saved;
	char			 line[256];
	const char		*name;

	fill(f, 100);
	f->snap = engine_update_reuse(f->e, &f->rs, f->snap);
	ev[0] = f->sel.counters[0].event;
	name = ev[0]->sysfs_name != NULL ? ev[0]->sysfs_name : ev[0]->name;
	for (p = 0; p < 12; p++)
		pc[p] = p;
	pc[4 + 2] = ENG_NONE;		/* lpar 1 vcpu 1: no home_node */
	for (p = 1; p < 4; p++)
		pc[8 + p] = ENG_NONE;	/* this one: home core only */
	for (p = 0; p < 8; p++)
		lpc[p] = p;
	memset(pv, 0, sizeof pv);
	pv[0].domain = ENG_VIEW_LPAR;
	pv[0].term = "lpar";
	pv[0].indices = lrows;
	pv[0].nrows = 2;
	pv[0].events = ev;
	pv[0].nevents = 1;
	pv[0].counter = none;
	pv[0].nplaces = SEL_NPLACES;
	pv[0].places = 0xf;
	pv[0].place_counter = lpc;
	pv[0].vcpus = lvcpus;
	pv[1] = pv[0];
	pv[1].domain = ENG_VIEW_LPAR_VCPU;
	pv[1].term = "vcpu";
	pv[1].indices = rows;
	pv[1].nrows = 3;
	pv[1].place_counter = pc;
	pv[1].vcpus = NULL;
	/* Appended for this snapshot only. */
	saved = f->e->views;
	nv = f->e->nviews;
	f->e->views = xcalloc(nv + 2, sizeof *f->e->views);
	memcpy(f->e->views, saved, nv * sizeof *saved);
	memcpy(f->e->views + nv, pv, sizeof pv);
	f->e->nviews = nv + 2;
	memset(&s, 0, sizeof s);
	s.engine = f->e;
	s.sel = &f->sel;
	s.snap = f->snap;
	s.rs = &f->rs;
	s.generation = f->gen + 1;
	s.catalog_version = f->fx.cat->version;
	s.wall_ns = 1767225600ULL * 1000000000ULL + f->now;
	/* Summed over the vcpus by default; per vcpu (--serve-vcpus) in
	 * f->om. */
	memset(&info, 0, sizeof info);
	info.source = "sim";
	info.lpar_self = 0xffff;
	om = om_new(&info);
	fr = om_snapshot(om, &s);
	om_render(fr, OM_FMT_OPENMETRICS, &sum);
	om_snapshot_free(fr);
	om_free(om);
	om_free(f->om);
	info.per_vcpu = 1;
	f->om = om_new(&info);
	fr = om_snapshot(f->om, &s);
	free(f->e->views);
	f->e->views = saved;
	f->e->nviews = nv;
	om_render(fr, OM_FMT_OPENMETRICS, &sb);
	om_snapshot_free(fr);
	/* Partition 1's home core: vcpu 0's counter 0 and vcpu 1's 4. */
	snprintf(line, sizeof line, "\nhvtop_events_total{frame=\"unknown\","
	    "event=\"%s\",domain=\"vcpu_home_core\",lpar=\"1\","
	    "placement=\"home_core\",catalog_version=\"7\"} %d\n", name,
	    100 + 100 + 1000 * 4);
	has(sum.s, line);
	lacks(sum.s, "vcpu=");
	lacks(sum.s, "hvtop_timebase_ticks_total{frame=\"unknown\",lpar");
	strbuf_free(&sum);

	snprintf(line, sizeof line, "\nhvtop_events_total{frame=\"unknown\",event=\"%s\","
	    "domain=\"vcpu_remote_node\",lpar=\"1\",vcpu=\"0\","
	    "placement=\"remote_node\",catalog_version=\"7\"} %d\n",
	    name, 100 + 1000 * 3);
	has(sb.s, line);
	snprintf(line, sizeof line, "\nhvtop_events_total{frame=\"unknown\",event=\"%s\","
	    "domain=\"vcpu_home_chip\",lpar=\"1\",vcpu=\"1\","
	    "placement=\"home_chip\",catalog_version=\"7\"} %d\n",
	    name, 100 + 1000 * 5);
	has(sb.s, line);
	snprintf(line, sizeof line, "\nhvtop_events_total{frame=\"unknown\",event=\"%s\","
	    "domain=\"vcpu_home_core\",lpar=\"self\",vcpu=\"0\","
	    "placement=\"home_core\",catalog_version=\"7\"} %d\n",
	    name, 100 + 1000 * 8);
	has(sb.s, line);
	lacks(sb.s, "lpar=\"1\",vcpu=\"1\",placement=\"home_node\"");
	lacks(sb.s, "lpar=\"self\",vcpu=\"0\",placement=\"home_chip\"");
	has(sb.s, "\nhvtop_timebase_ticks_total{frame=\"unknown\",lpar=\"1\","
	    "vcpu=\"1\"} "
	    "512000000\n");
	/* No row of the per-partition view, no total of either. */
	lacks(sb.s, "lpar=\"1\",catalog_version");
	lacks(sb.s, ",lpar=\"1\"}");
	lacks(sb.s, "\"total\"");
	strbuf_free(&sb);
}

/*
 * Another PMU, modelled as the perf source models one: its counters are
 * per CPU, and the labels say cpu, not chip.
 */
static void
test_cpu_domain(void **state)
{
	struct catalog		*cat;
	struct catalog_event	*ev;
	struct topology		 topo;
	struct selection	 sel;
	struct engine		*e;
	struct engine_snapshot	*snap = NULL;
	struct raw_sample	 rs;
	struct om_info info;
	struct om_sample	 ss;
	struct om		*om;
	struct om_snapshot		*fr;
	struct strbuf		 sb = { 0 };
	char			*cause = NULL;
	size_t			 k, i;

	(void)state;
	cat = xcalloc(1, sizeof *cat);
	cat->magic = CATALOG_MAGIC;
	cat->interface = 2;
	cat->events = ev = xcalloc(1, sizeof *ev);
	cat->nevents = 1;
	ev->name = xstrdup("tsc");
	ev->desc = xstrdup("msr/event=0x0/");
	ev->domain = CATALOG_DOMAIN_CPU;
	ev->record_length = 8;
	ev->formula = CATALOG_NONE;
	catalog_reindex(cat);
	assert_int_equal(ev->skip, 0);
	memset(&topo, 0, sizeof topo);
	topo.chips = topo.cores = topo.vcpus = 2;
	topo.privileged = 1;
	memset(&sel, 0, sizeof sel);
	if (selection_add(&sel, cat, &topo, "tsc", 1, &cause) != 0)
		fail_msg("%s", cause);
	e = engine_new(cat, &sel, TB_HZ, NULL, 0, NULL, NULL);
	assert_string_equal(engine_view(e, 0)->term, "cpu");
	memset(&rs, 0, sizeof rs);
	rs.values = xcalloc(sel.ncounters, sizeof *rs.values);
	rs.nvalues = sel.ncounters;
	memset(&info, 0, sizeof info);
	info.lpar_self = 0xffff;
	info.source = "perf";
	info.source_label = "perf msr, cpus 0-1";
	info.timebase_hz = TB_HZ;
	om = om_new(&info);
	for (i = 1; i <= 2; i++) {
		rs.now = i * 1000000000ULL;
		for (k = 0; k < rs.nvalues; k++)
			rs.values[k].value = i * 1000 * (k + 1);
		snap = engine_update_reuse(e, &rs, snap);
	}
	memset(&ss, 0, sizeof ss);
	ss.engine = e;
	ss.sel = &sel;
	ss.snap = snap;
	ss.rs = &rs;
	ss.wall_ns = 1767225600ULL * 1000000000ULL + rs.now;
	fr = om_snapshot(om, &ss);
	om_render(fr, OM_FMT_OPENMETRICS, &sb);
	om_snapshot_free(fr);
	/* A CPU is no partition's. */
	has(sb.s, "hvtop_events_total{frame=\"unknown\",event=\"tsc\","
	    "domain=\"cpu\",cpu=\"1\",catalog_version=");
	lacks(sb.s, "chip=");
	strbuf_free(&sb);
	om_free(om);
	engine_snapshot_free(snap);
	engine_free(e);
	selection_clear(&sel);
	free(rs.values);
	catalog_free(cat);
}

static void
test_http(void **state)
{
	struct fixture		*f = *state;
	struct serve_addr	 a;
	struct serve_info	 info;
	struct serve		*s;
	const char		*url;
	unsigned		 port;
	char			*cause = NULL, *r;

	assert_int_equal(serve_addr_parse("127.0.0.1:0", &a, &cause), 0);
	memset(&info, 0, sizeof info);
	info.lpar_self = 0xffff;
	info.source = "sim";
	info.source_label = "test";
	info.timebase_hz = TB_HZ;
	if (serve_start(&a, &info, &s, &cause) != 0)
		fail_msg("%s", cause);
	url = serve_url(s);
	assert_int_equal(sscanf(url, "http://127.0.0.1:%u/metrics", &port), 1);
	assert_true(port > 0);

	/* Before a sample: health only. */
	r = http(port, "GET /metrics HTTP/1.0\r\n\r\n");
	has(r, " 200 ");
	has(r, "Content-Type: text/plain; version=0.0.4; charset=utf-8\r\n");
	has(r, "\nhvtop_samples_total{frame=\"unknown\"} 0\n");
	free(r);

	fill(f, 100);
	serve_sample_begin(s);
	f->snap = engine_update_reuse(f->e, &f->rs, f->snap);
	serve_publish(s, f->e, &f->sel, 0, 7, &f->rs, f->snap, 0, NULL);
	r = http(port, "GET /metrics HTTP/1.1\r\nHost: x\r\nAccept: "
	    "application/openmetrics-text;version=1.0.0,*/*;q=0.1\r\n"
	    "Connection: close\r\n\r\n");
	has(r, " 200 ");
	has(r, "Content-Type: application/openmetrics-text; version=1.0.0; "
	    "charset=utf-8\r\n");
	has(r, CYC0);
	has(r, "\nhvtop_samples_total{frame=\"unknown\"} 1\n");
	/* Rendered as it is sent: HTTP/1.1 chunks, the text whole. */
	has(r, "Transfer-Encoding: chunked\r\n");
	assert_true(strcmp(r + strlen(r) - 13, "# EOF\n\r\n0\r\n\r\n") == 0);
	free(r);

	/* A failed sample (a begin without a publish) is counted. */
	serve_sample_begin(s);
	serve_sample_begin(s);
	fill(f, 200);
	f->snap = engine_update_reuse(f->e, &f->rs, f->snap);
	serve_publish(s, f->e, &f->sel, 0, 7, &f->rs, f->snap, 0, NULL);
	r = http(port, "GET /metrics?x=1 HTTP/1.0\r\n\r\n");
	has(r, "\nhvtop_sample_failures_total{frame=\"unknown\"} 1\n");
	has(r, "hvtop_metric_pbcyc_rate_per_second");
	free(r);

	r = http(port, "HEAD /metrics HTTP/1.0\r\n\r\n");
	has(r, " 200 ");
	lacks(r, "hvtop_samples_total");
	free(r);
	r = http(port, "GET / HTTP/1.0\r\n\r\n");
	has(r, " 200 ");
	has(r, "<a href=\"metrics\">");
	free(r);
	r = http(port, "GET /metrics/x HTTP/1.0\r\n\r\n");
	has(r, " 404 ");
	free(r);
	r = http(port, "GET /favicon.ico HTTP/1.0\r\n\r\n");
	has(r, " 404 ");
	free(r);
	r = http(port, "POST /metrics HTTP/1.0\r\nContent-Length: 3\r\n\r\n"
	    "a=b");
	has(r, " 405 ");
	has(r, "Allow: GET, HEAD\r\n");
	free(r);
	r = http(port, "DELETE /metrics HTTP/1.0\r\n\r\n");
	has(r, " 405 ");
	free(r);
	r = http(port, "GET /metrics HTTP/1.0\r\nContent-Length: 5\r\n\r\n"
	    "hello");
	has(r, " 413 ");
	free(r);
	serve_stop(s);
}

static void
test_listen_fails(void **state)
{
	struct serve_addr	 a;
	struct serve_info	 info;
	struct serve		*s, *t;
	unsigned		 port;
	char			*cause = NULL;

	(void)state;
	memset(&info, 0, sizeof info);
	assert_int_equal(serve_addr_parse("127.0.0.1:0", &a, &cause), 0);
	assert_int_equal(serve_start(&a, &info, &s, &cause), 0);
	assert_int_equal(sscanf(serve_url(s), "http://127.0.0.1:%u", &port),
	    1);
	/* The same port again is taken: the cause says so and where. */
	a.port = port;
	assert_true(serve_start(&a, &info, &t, &cause) < 0);
	assert_null(t);
	has(cause, "cannot listen");
	has(cause, "127.0.0.1:");
	free(cause);
	serve_stop(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_addr),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_accept),
		cmocka_unit_test_setup_teardown(test_render_parts, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_render_openmetrics, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_render_prometheus, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_omitted, setup, teardown),
		cmocka_unit_test_setup_teardown(test_guard, setup, teardown),
		cmocka_unit_test_setup_teardown(test_catalog_change, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_frame_outlives_engine,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_http, setup, teardown),
		cmocka_unit_test(test_listen_fails),
		cmocka_unit_test(test_cpu_domain),
		cmocka_unit_test_setup_teardown(test_lpar_series, setup,
		    teardown),
	};

	return (cmocka_run_group_tests_name("serve", tests, NULL, NULL));
}
