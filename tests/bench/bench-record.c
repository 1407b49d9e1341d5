/*
 * What recording costs on the default simulated workload (the sim
 * source's defaults: power9 catalog, 2 chips x 12 SMT8 cores, and the
 * overview selection hvtop takes without -g/-e), one sample a second for
 * an hour of virtual time:
 *   bytes per counter per sample (records after the preamble, and with
 *   the preamble's catalog counted in), bytes per sample, the preamble
 *   (bench-ring.sh gives the bytes a day, beside PowerVP's);
 *   CPU per refresh as hvtop -b -o FILE.csv spends it (sample, engine,
 *   CSV rendering, writing the lines out) against CPU per recorded
 *   sample (encoding, and write(2) in batches), and the ratio of the
 *   totals: what -w adds to the CPU of a refresh;
 *   CPU per sample to decode the recording again.
 * Times are thread CPU time less the cost of reading that clock (a
 * system call, over a microsecond under some hypervisors): medians over
 * the hour's samples less the median cost of a reading, and the overhead
 * from the sums less the mean cost (so batched writes count in full and
 * slow readings are not counted as work).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/engine.h"
#include "model/selection.h"
#include "session/session.h"
#include "session/session-record.h"
#include "export/export.h"
#include "record/record.h"
#include "source/source.h"
#include "tests/bench/bench.h"
#include "sys/file.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define SAMPLES		3600

/* The frame's constants the session records. */
static const char *const bench_consts[] = { "PB_Freq", "CPU_Freq", "cpu_hz" };

/* Thread CPU time of one step, less what reading the clock costs. */
static double
bench_step(uint64_t t0, uint64_t t1, double clock_cost)
{
	double	 d = (double)(t1 - t0) - clock_cost;

	return (d > 0 ? d : 0);
}

/* One sample into both recordings, in turn first; each one's time. */
static void
bench_append(struct session_record *a, struct session_record *b, size_t i,
    const struct raw_sample *rs, double *ta, double *tb)
{
	struct session_record	*first = i % 2 == 0 ? a : b;
	struct session_record	*second = i % 2 == 0 ? b : a;
	uint64_t		 t1, t2, t3;
	char			*cause = NULL;

	t1 = bench_ns(CLOCK_THREAD_CPUTIME_ID);
	if (session_record_sample(first, rs, &cause) != 0)
		goto fail;
	t2 = bench_ns(CLOCK_THREAD_CPUTIME_ID);
	if (session_record_sample(second, rs, &cause) != 0)
		goto fail;
	t3 = bench_ns(CLOCK_THREAD_CPUTIME_ID);
	*ta = (double)(i % 2 == 0 ? t2 - t1 : t3 - t2);
	*tb = (double)(i % 2 == 0 ? t3 - t2 : t2 - t1);
	return;
fail:
	fprintf(stderr, "bench-record: %s\n", cause);
	exit(1);
}

int
main(void)
{
	static char		 sim_args[] = "clock=virtual";
	static double		 refresh[SAMPLES], append[SAMPLES];
	static double		 append2[SAMPLES];
	static double		 decode[SAMPLES];
	struct session_opts	 so;
	struct session		*ses;
	struct engine_snapshot	*snap;
	struct session_record	*rec, *rec2;
	struct session_record_params rp, rp2;
	struct record_writer_opts wo2;
	struct record_constant	 rc[3];
	struct record_reader	*rd;
	struct record_event	 ev;
	struct export		*x;
	struct export_info	 info;
	struct strbuf		 sb = { 0 };
	char			 path[] = "/tmp/hvtop-bench-record-XXXXXX";
	char			 path2[] = "/tmp/hvtop-bench-record2-XXXXXX";
	char			 out[] = "/tmp/hvtop-bench-csv-XXXXXX";
	FILE			*fp;
	char			*cause = NULL;
	void			*buf;
	size_t			 len, i, n;
	size_t			 samples = bench_iters(SAMPLES);
	uint64_t		 pre, pre2, t0, t1, step = 1000000000ULL;
	double			 sum_refresh = 0, sum_append = 0, cost, mean;
	double			 sum_append2 = 0;
	size_t			 len2;
	struct session_result	 res;
	int			 fd;

	setenv("XDG_CONFIG_HOME", "/nonexistent", 1);
	/* The shipped catalogs are built beside hvtop, not beside us. */
	setenv("HVTOP_CATALOG_DIR", BENCH_CATALOG_DIR, 0);
	memset(&so, 0, sizeof so);
	so.virtual_clock = 1;
	so.batch = 1;
	so.interval = 1.0;
	memset(&rp, 0, sizeof rp);
	/* The catalog image is the source's, and lives as long as it. */
	if (source_open("sim", sim_args, "/sys", &so.src, &cause) != 0 ||
	    so.src->ops->catalog(so.src, &rp.catalog, &rp.catalog_len,
	    &cause) != 0 ||
	    session_open(&ses, &so, &cause) != 0 ||
	    session_start(ses, &cause) != 0) {
		fprintf(stderr, "bench-record: %s\n", cause);
		return (1);
	}
	if ((fd = mkstemp(path)) == -1 || close(fd) != 0 ||
	    (fd = mkstemp(path2)) == -1 || close(fd) != 0) {
		perror("bench-record");
		return (1);
	}
	if ((fd = mkstemp(out)) == -1 || (fp = fdopen(fd, "w")) == NULL) {
		perror("bench-record");
		return (1);
	}
	/* What the session records: the label, the frame's constants. */
	for (i = 0; i < 3; i++) {
		if (session_constant(ses, bench_consts[i],
		    &rc[rp.nconsts].value, NULL) == SESSION_CONST_FRAME)
			rc[rp.nconsts++].name = xstrdup(bench_consts[i]);
	}
	rp.path = path;
	rp.label = session_label(ses);
	rp.topo = session_topology(ses);
	rp.sel = session_selection(ses);
	rp.consts = rc;
	rp.epoch_ns = session_wall(ses, 0);
	rp.interval_ns = step;
	rp2 = rp;
	rp2.path = path2;
	record_write_defaults(&wo2);
	wo2.format = RECORD_VERSION_2;
	rp2.opts = &wo2;
	if (session_record_open(&rp, &rec, &cause) != 0 ||
	    session_record_open(&rp2, &rec2, &cause) != 0) {
		fprintf(stderr, "bench-record: %s\n", cause);
		return (1);
	}
	for (i = 0; i < rp.nconsts; i++)
		free(rc[i].name);
	pre = session_record_bytes(rec);
	pre2 = session_record_bytes(rec2);
	info.source = session_label(ses);
	info.catalog = session_catalog_label(ses);
	info.calls = "hcalls";
	info.frame = NULL;	/* the CSV as a run that names no frame */
	x = export_new(EXPORT_CSV, session_engine(ses), &info);
	cost = bench_clock_cost(CLOCK_THREAD_CPUTIME_ID, &mean);
	for (i = 0; i < samples; i++) {
		t0 = bench_ns(CLOCK_THREAD_CPUTIME_ID);
		if (session_sample(ses, &res, &cause) != 0) {
			fprintf(stderr, "bench-record: %s\n", cause);
			return (1);
		}
		snap = res.snap;
		strbuf_reset(&sb);
		export_snapshot(x, snap, session_wall(ses, snap->now), &sb);
		session_recycle(ses, snap);
		if (fwrite(sb.s, 1, sb.len, fp) != sb.len || fflush(fp) != 0) {
			perror("bench-record: output");
			return (1);
		}
		t1 = bench_ns(CLOCK_THREAD_CPUTIME_ID);
		bench_append(rec, rec2, i, session_raw(ses), &append[i],
		    &append2[i]);
		refresh[i] = bench_step(t0, t1, cost);
		sum_refresh += (double)(t1 - t0) - mean;
		sum_append += append[i] - mean;
		sum_append2 += append2[i] - mean;
		append[i] = append[i] > cost ? append[i] - cost : 0;
		append2[i] = append2[i] > cost ? append2[i] - cost : 0;
		session_sleep_until(ses, session_now(ses) + step, -1);
	}
	len = (size_t)session_record_bytes(rec);
	len2 = (size_t)session_record_bytes(rec2);
	if (session_record_close(rec2, &cause) != 0 ||
	    session_record_close(rec, &cause) != 0) {
		fprintf(stderr, "bench-record: %s\n", cause);
		return (1);
	}
	n = session_selection(ses)->ncounters;
	printf("record.default.counters %zu count\n", n);
	printf("record.default.bytes_per_counter %.3f B\n",
	    (double)(len - pre) / (double)samples / (double)n);
	printf("record.default.bytes_per_counter_with_preamble %.3f B\n",
	    (double)len / (double)samples / (double)n);
	printf("record.default.bytes_per_sample %.1f B\n",
	    (double)(len - pre) / (double)samples);
	printf("record.default.preamble %.1f KB\n", (double)pre / 1024);
	printf("record.default.clock_read %.2f us\n", cost / 1e3);
	printf("record.default.clock_read_mean %.2f us\n", mean / 1e3);
	printf("record.default.refresh %.1f us\n",
	    bench_median(refresh, samples) / 1e3);
	printf("record.default.append %.2f us\n",
	    bench_median(append, samples) / 1e3);
	/* The mean counts the batched writes. */
	printf("record.default.append_mean %.2f us\n",
	    sum_append / (double)samples / 1e3);
	printf("record.default.overhead %.2f %%\n",
	    100 * sum_append / sum_refresh);
	/* The baseline: the same samples in format 2. */
	printf("record.default.v2.bytes_per_counter %.3f B\n",
	    (double)(len2 - pre2) / (double)samples / (double)n);
	printf("record.default.v2.append %.2f us\n",
	    bench_median(append2, samples) / 1e3);
	printf("record.default.v2.overhead %.2f %%\n",
	    100 * sum_append2 / sum_refresh);
	printf("record.default.append_vs_v2 %.3f x\n",
	    sum_append / sum_append2);
	unlink(path2);

	if (file_read(path, (size_t)1 << 30, &buf, &len, &cause) != 0 ||
	    record_read_open(buf, len, &rd, &cause) != 0) {
		fprintf(stderr, "bench-record: %s\n", cause);
		return (1);
	}
	for (i = 0; i < samples; ) {
		t0 = bench_ns(CLOCK_THREAD_CPUTIME_ID);
		if (record_read_next(rd, &ev) == RECORD_EV_EOF)
			break;
		if (ev.kind == RECORD_EV_SAMPLE)
			decode[i++] = bench_step(t0,
			    bench_ns(CLOCK_THREAD_CPUTIME_ID), cost);
	}
	printf("record.default.decode %.2f us\n",
	    bench_median(decode, i) / 1e3);
	record_read_free(rd);
	free(buf);
	unlink(path);
	fclose(fp);
	unlink(out);
	strbuf_free(&sb);
	export_free(x);
	session_close(ses, &cause);
	return (0);
}
