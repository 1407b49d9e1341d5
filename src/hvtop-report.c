/*
 * hvtop report FILE.hvr -o PAGE.html: a recording replayed through the
 * session as the batch loop replays it (the same values as -r FILE
 * --format csv, at full speed on a virtual clock), kept by the report
 * module (src/export/report.h) and written as one HTML page, atomically.
 * The charting library is Debian's libjs-dygraphs, read from its
 * installed files here and inlined into the page.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "session/session.h"
#include "export/report.h"
#include "hvtop.h"
#include "model/raw.h"
#include "sys/file.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define HVTOP_DYGRAPHS_DIR	"/usr/share/javascript/dygraphs"
#define HVTOP_DYGRAPHS_MAX	(16 * 1024 * 1024)

/* The library's script and style, from $HVTOP_DYGRAPHS_DIR or Debian's
 * place; a missing file names the package that has it. */
static int
hvtop_report_library(void **js, size_t *jslen, void **css, size_t *csslen)
{
	const char	*dir = getenv("HVTOP_DYGRAPHS_DIR");
	char		*path, *cause = NULL;
	int		 error;

	if (dir == NULL || *dir == '\0')
		dir = HVTOP_DYGRAPHS_DIR;
	path = xasprintf("%s/dygraph.min.js", dir);
	if ((error = file_read(path, HVTOP_DYGRAPHS_MAX, js, jslen,
	    &cause)) == 0) {
		free(path);
		path = xasprintf("%s/dygraph.min.css", dir);
		error = file_read(path, HVTOP_DYGRAPHS_MAX, css, csslen,
		    &cause);
		if (error != 0)
			free(*js);
	}
	if (error != 0) {
		fprintf(stderr, "hvtop: report: %s\n", cause);
		if (error == -ENOENT)
			fprintf(stderr, "hvtop: report: the charts need the "
			    "dygraphs library: install the Debian package "
			    "libjs-dygraphs (apt-get install libjs-dygraphs)"
			    "\n");
	}
	free(cause);
	free(path);
	return (error);
}

/* "2 sockets, 4 chips, 48 cores, SMT 8, 16 virtual processors" */
static char *
hvtop_report_frame(const struct topology *t)
{
	return (xasprintf("%u socket%s, %u chip%s, %u core%s, SMT %u, %u "
	    "virtual processor%s", t->sockets, t->sockets == 1 ? "" : "s",
	    t->chips, t->chips == 1 ? "" : "s", t->cores,
	    t->cores == 1 ? "" : "s", t->smt, t->vcpus,
	    t->vcpus == 1 ? "" : "s"));
}

/*
 * What the reader found wrong with the recording, for the top of the
 * page: its summary ("N samples; ... dropped"), then each of its lines,
 * each with its byte offset.
 */
static void
hvtop_report_problems(struct session *s, struct report *r)
{
	struct session_replay	 rp;
	size_t			 i;
	char			*sum;

	if (!session_replay(s, &rp) || rp.ndiags == 0)
		return;
	sum = session_replay_summary(s);
	report_incomplete(r, rp.damaged, sum);
	free(sum);
	for (i = 0; i < rp.ndiags; i++)
		report_incomplete(r, rp.damaged, session_replay_diag(s, i));
}

/* Play the recording into r as the batch loop would; the exit status. */
static int
hvtop_report_play(struct session *s, const struct hvtop_opts *o,
    struct report *r)
{
	struct session_replay	 rp;
	struct session_result	 res;
	uint64_t		 next, step;
	long			 added = 0;
	char			*cause = NULL;

	step = (uint64_t)llround(session_interval(s) * 1e9);
	next = session_now(s);
	for (;;) {
		if (session_sample(s, &res, &cause) != 0) {
			if (res.done) {
				free(cause);
				break;
			}
			fprintf(stderr, "hvtop: %s\n", cause);
			/* The replay stopped here: the page says why. */
			hvtop_report_problems(s, r);
			report_incomplete(r, 1, cause);
			free(cause);
			return (1);
		}
		if (res.changed & SESSION_CHANGED_ENGINE)
			report_bind(r, session_engine(s),
			    session_selection(s));
		if (res.snap->seq > 0)
			added++;
		report_add(r, res.snap, session_wall(s, res.snap->now));
		session_recycle(s, res.snap);
		if (o->count > 0 && added >= o->count)
			break;
		next += step;
		session_sleep_until(s, next, -1);
	}
	hvtop_report_problems(s, r);
	if (session_replay(s, &rp) && rp.damaged) {
		fprintf(stderr, "hvtop: the recording is damaged (see above); "
		    "the report holds the intervals that could be read\n");
		return (1);
	}
	return (0);
}

int
hvtop_report(struct session *s, const struct hvtop_opts *o)
{
	struct report_info	 info;
	struct report		*r;
	struct strbuf		 page = { 0 };
	void			*js = NULL, *css = NULL;
	size_t			 jslen, csslen;
	char			*frame, *cause = NULL;
	int			 status, error;

	if (hvtop_report_library(&js, &jslen, &css, &csslen) != 0)
		return (1);
	frame = hvtop_report_frame(session_topology(s));
	memset(&info, 0, sizeof info);
	info.recording = o->report;
	info.source = session_label(s);
	info.frame = frame;
	info.catalog = session_catalog_label(s);
	info.version = PACKAGE_VERSION;
	r = report_new(&info);
	free(frame);
	report_bind(r, session_engine(s), session_selection(s));
	status = hvtop_report_play(s, o, r);
	if ((error = report_html(r, js, jslen, css, csslen, &page,
	    &cause)) != 0) {
		fprintf(stderr, "hvtop: report: %s\n", cause);
		free(cause);
		status = 1;
		goto out;
	}
	if (file_write(o->output, page.s, page.len, FILE_OUT_DASH,
	    &cause) != 0) {
		fprintf(stderr, "hvtop: %s\n", cause);
		free(cause);
		status = 1;
	}
out:
	strbuf_free(&page);
	report_free(r);
	free(js);
	free(css);
	return (status);
}
