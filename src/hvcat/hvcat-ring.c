/*
 * hvcat info DIR: a ring recording (hvtop -w DIR --ring-size SIZE) as a
 * table of its segments, oldest first: size, samples, the span of their
 * times, and how each ends (closed, cut short by a writer that was
 * killed, or damaged); a stretch with no samples between segments, as a
 * restart leaves, is listed as a gap.  Returns 0 when every segment is
 * whole up to where it ends, 1 otherwise.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hvcat/hvcat.h"
#include "record/record-ring.h"
#include "sys/ring-dir.h"
#include "record/record.h"
#include "sys/file.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* What one segment holds. */
struct hvcat_ring_seg {
	uint64_t	 samples;
	uint64_t	 first, last;	/* wall ns */
	uint64_t	 interval;
	int		 status;	/* 0 whole, 1 cut short, 2 damaged */
	char		 why[224];
};

/* Read one segment through; what could not be read is said in s->why. */
static void
hvcat_ring_read(const char *path, struct hvcat_ring_seg *s)
{
	struct record_reader		*rd;
	struct record_event		 ev;
	struct record_stats		 st;
	struct file_map			 map;
	const struct record_diag	*d;
	char				*cause = NULL;
	size_t				 i;

	memset(s, 0, sizeof *s);
	if (file_map(path, RECORD_MAGIC, RECORD_MAGIC_LEN, HVCAT_RECORD_MAX,
	    "an hvtop recording", &map, &cause) != 0 ||
	    record_read_open(map.p, map.len, &rd, &cause) != 0) {
		s->status = 2;
		snprintf(s->why, sizeof s->why, "unreadable: %s", cause);
		free(cause);
		if (map.p != NULL)
			file_unmap(&map);
		return;
	}
	while (record_read_next(rd, &ev) != RECORD_EV_EOF) {
		if (ev.kind != RECORD_EV_SAMPLE)
			continue;
		if (s->samples++ == 0)
			s->first = ev.time;
		s->last = ev.time;
	}
	s->first += record_read_meta(rd)->epoch_ns;
	s->last += record_read_meta(rd)->epoch_ns;
	s->interval = record_read_meta(rd)->interval_ns;
	record_read_stats(rd, &st);
	snprintf(s->why, sizeof s->why, "closed");
	for (i = 0; i < st.ndiags && i < RECORD_DIAG_MAX; i++) {
		d = record_read_diag(rd, i);
		if (d->kind == RECORD_DIAG_UNCLOSED && s->status == 0) {
			s->status = 1;
			snprintf(s->why, sizeof s->why, "not closed");
		} else if (d->kind == RECORD_DIAG_TORN && s->status < 2) {
			s->status = 1;
			snprintf(s->why, sizeof s->why, "cut short at byte "
			    "%llu (%llu bytes of a record)",
			    (unsigned long long)d->offset,
			    (unsigned long long)d->length);
		} else if (d->kind != RECORD_DIAG_UNCLOSED &&
		    d->kind != RECORD_DIAG_TORN) {
			s->status = 2;
			snprintf(s->why, sizeof s->why, "damaged: %s",
			    d->text);
		}
	}
	record_read_free(rd);
	file_unmap(&map);
}

static void
hvcat_ring_time(struct strbuf *sb, uint64_t t)
{
	strbuf_reset(sb);
	strbuf_addtime(sb, t, 0);
}

/* One line for a segment, and one before it for a gap since the last. */
static void
hvcat_ring_line(const struct record_ring_seg *rs,
    const struct hvcat_ring_seg *s, const struct hvcat_ring_seg *prev)
{
	struct strbuf	 a = { 0 }, b = { 0 };

	if (prev != NULL && prev->samples > 0 && s->samples > 0 &&
	    s->first > prev->last + 2 * (prev->interval > 0 ?
	    prev->interval : 1000000000ULL)) {
		hvcat_ring_time(&a, prev->last);
		hvcat_ring_time(&b, s->first);
		printf("  gap: no samples from %s to %s (%.0f s)\n", a.s, b.s,
		    (double)(s->first - prev->last) / 1e9);
	}
	if (s->samples > 0) {
		hvcat_ring_time(&a, s->first);
		hvcat_ring_time(&b, s->last);
	} else {
		strbuf_reset(&a);
		strbuf_adds(&a, "-");
		strbuf_reset(&b);
		strbuf_adds(&b, "-");
	}
	printf("  %s %10llu %8llu  %s  %s  %s\n", rs->name,
	    (unsigned long long)rs->bytes, (unsigned long long)s->samples,
	    a.s, b.s, s->why);
	strbuf_free(&a);
	strbuf_free(&b);
}

int
hvcat_ring_info(const char *dir)
{
	struct record_ring_seg	*v = NULL;
	struct hvcat_ring_seg	 s, prev;
	uint64_t		 bytes = 0, samples = 0;
	size_t			 n, i, cut = 0, bad = 0;
	char			*path, *cause;

	if ((n = ring_dir_list(dir, &v, &cause)) == 0) {
		if (cause != NULL)
			fprintf(stderr, "hvcat: %s\n", cause);
		else
			fprintf(stderr, "hvcat: %s: a directory with no "
			    "segments of a ring (%s*%s)\n", dir,
			    RECORD_RING_PREFIX, RECORD_RING_SUFFIX);
		free(cause);
		free(v);
		return (1);
	}
	printf("ring         %s: %zu segment%s\n", dir, n, n == 1 ? "" : "s");
	printf("  %-35s %10s %8s  %-20s  %-20s  %s\n", "segment", "bytes",
	    "samples", "first", "last", "end");
	for (i = 0; i < n; i++) {
		path = xasprintf("%s/%s", dir, v[i].name);
		hvcat_ring_read(path, &s);
		free(path);
		hvcat_ring_line(&v[i], &s, i > 0 ? &prev : NULL);
		bytes += v[i].bytes;
		samples += s.samples;
		cut += s.status == 1;
		bad += s.status == 2;
		prev = s;
	}
	printf("total        %llu bytes, %llu samples; %zu cut short, %zu "
	    "damaged\n", (unsigned long long)bytes,
	    (unsigned long long)samples, cut, bad);
	free(v);
	return (bad > 0 ? 1 : 0);
}
