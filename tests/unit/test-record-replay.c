/*
 * Unit tests for recording to a file and the replay source: a session of
 * the simulated frame recorded with session_record and played back through
 * source_open("replay:FILE") gives the same samples, the recorded
 * selection and only that one, pacing that follows the recorded times and
 * the speed, pause and step, seek, the end, and a damaged file reported,
 * all through the source's control table.  Through a session, a replay
 * follows a selection that changed during the recording.
 */
#include "config.h"

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
#include "model/selection.h"
#include "session/session.h"
#include "session/session-record.h"
#include "record/record.h"
#include "source/source.h"
#include "sys/file.h"
#include "util/hverr.h"
#include "util/xalloc.h"

#define P8		TOP_SRCDIR "/tests/data/catalog/p8-catalog-v3.bin"
#define NSAMPLES	40
#define STEP		500000000ULL	/* 0.5 s */

struct fixture {
	char		 path[64];
	struct raw_sample rs[NSAMPLES];
	size_t		 ncounters;
};

/*
 * Record src into path as the session does: the source's label, catalog
 * and frame constants, handed to the writer as plain data.
 */
static int
record_open(const char *path, struct source *src,
    const struct topology *topo, const struct selection *sel,
    uint64_t epoch, struct session_record **rec, char **cause)
{
	static const char *const names[] = { "PB_Freq", "CPU_Freq", "cpu_hz" };
	struct session_record_params	 p;
	struct record_constant		 rc[3];
	size_t				 i, n = 0;
	int				 error;

	memset(&p, 0, sizeof p);
	if ((error = src->ops->catalog(src, &p.catalog, &p.catalog_len,
	    cause)) != 0)
		return (error);
	for (i = 0; i < 3; i++) {
		if (src->ops->constant(src, names[i], &rc[n].value) == 0)
			rc[n++].name = xstrdup(names[i]);
	}
	p.path = path;
	p.label = src->label;
	p.topo = topo;
	p.sel = sel;
	p.consts = rc;
	p.nconsts = n;
	p.epoch_ns = epoch;
	p.interval_ns = STEP;
	error = session_record_open(&p, rec, cause);
	for (i = 0; i < n; i++)
		free(rc[i].name);
	return (error);
}

static int
setup(void **state)
{
	struct fixture		*f;
	struct source		*src;
	struct topology		 topo;
	struct selection	 sel;
	struct catalog		*cat;
	struct session_record	*rec;
	const void		*img;
	size_t			 len, i;
	char			*cause = NULL;
	int			 fd;

	f = xcalloc(1, sizeof *f);
	snprintf(f->path, sizeof f->path, "/tmp/hvtop-test-replay-XXXXXX");
	if ((fd = mkstemp(f->path)) == -1)
		return (-1);
	close(fd);
	if (source_open("sim", "catalog=" P8 ",interface=1,seed=5", "/sys",
	    &src, &cause) != 0 || src->ops->topology(src, &topo, &cause) != 0 ||
	    src->ops->catalog(src, &img, &len, &cause) != 0 ||
	    catalog_parse(img, len, topo.interface, &cat, &cause) != 0) {
		print_error("%s\n", cause);
		return (-1);
	}
	memset(&sel, 0, sizeof sel);
	if (selection_add(&sel, cat, &topo, "HPM_0THRD_NON_IDLE_CCYC:0-5", 0,
	    &cause) != 0 || selection_add(&sel, cat, &topo,
	    "HPM_NON_IDLE_INST:2", 1, &cause) != 0 ||
	    src->ops->select(src, &sel, &cause) != 0 ||
	    record_open(f->path, src, &topo, &sel, 1000, &rec, &cause) != 0) {
		print_error("%s\n", cause);
		return (-1);
	}
	f->ncounters = sel.ncounters;
	for (i = 0; i < NSAMPLES; i++) {
		f->rs[i].values = xcalloc(sel.ncounters,
		    sizeof *f->rs[i].values);
		f->rs[i].nvalues = sel.ncounters;
		if (src->ops->sample(src, i * STEP + (i % 3) * 1000, &f->rs[i],
		    &cause) != 0 || session_record_sample(rec, &f->rs[i],
		    &cause) != 0) {
			print_error("%s\n", cause);
			return (-1);
		}
	}
	if (session_record_close(rec, &cause) != 0) {
		print_error("%s\n", cause);
		return (-1);
	}
	selection_clear(&sel);
	catalog_free(cat);
	source_close(src);
	*state = f;
	return (0);
}

static int
teardown(void **state)
{
	struct fixture	*f = *state;
	size_t		 i;

	unlink(f->path);
	for (i = 0; i < NSAMPLES; i++)
		free(f->rs[i].values);
	free(f);
	return (0);
}

/* The playback controls of a source that must have them. */
static const struct source_control *
ctl_of(struct source *src)
{
	const struct source_control	*c = source_control(src);

	assert_non_null(c);
	return (c);
}

/* Where the playback stands (sel: whether it differs from the next). */
static struct source_state
state_of(struct source *src, const struct selection *sel)
{
	struct source_state	 st;

	ctl_of(src)->state(src, sel, &st);
	return (st);
}

/* Open the replay and resolve its selection, as a session does. */
static struct source *
open_replay(const char *path, struct catalog **cat, struct selection *sel)
{
	struct source	*src;
	struct topology	 topo;
	const void	*img;
	size_t		 len;
	char		*spec, *cause = NULL;

	spec = xasprintf("replay:%s", path);
	if (source_open(spec, NULL, "/sys", &src, &cause) != 0)
		fail_msg("%s", cause);
	free(spec);
	assert_int_equal(src->ops->topology(src, &topo, &cause), 0);
	assert_int_equal(src->ops->catalog(src, &img, &len, &cause), 0);
	assert_int_equal(catalog_parse(img, len, topo.interface, cat, &cause),
	    0);
	memset(sel, 0, sizeof *sel);
	if (ctl_of(src)->selection(src, *cat, &topo, sel, &cause) != 0)
		fail_msg("%s", cause);
	assert_int_equal(src->ops->select(src, sel, &cause), 0);
	return (src);
}

static void
assert_same(const struct raw_sample *a, const struct raw_sample *b)
{
	size_t	 k;

	assert_true(a->now == b->now);
	assert_int_equal(a->nvalues, b->nvalues);
	assert_int_equal(a->calls, b->calls);
	assert_true(a->catalog_version == b->catalog_version);
	for (k = 0; k < a->nvalues; k++) {
		assert_true(a->values[k].value == b->values[k].value);
		assert_true(a->values[k].timebase == b->values[k].timebase);
		assert_int_equal(a->values[k].status, b->values[k].status);
	}
}

static void
test_replay_samples(void **state)
{
	struct fixture		*f = *state;
	struct source		*src;
	struct catalog		*cat;
	struct selection	 sel;
	struct raw_sample	 rs;
	double			 v;
	size_t			 i;
	char			*cause = NULL;

	src = open_replay(f->path, &cat, &sel);
	assert_non_null(source_control(src));
	assert_string_equal(src->ops->name, "replay");
	assert_non_null(strstr(src->label, "SIMULATED"));
	assert_string_equal(src->calls, "hcalls");
	assert_true(ctl_of(src)->epoch(src) == 1000);
	assert_true(ctl_of(src)->interval(src) == STEP);
	assert_int_equal(ctl_of(src)->ndiags(src), 0);
	assert_int_equal(sel.npicks, 2);
	assert_string_equal(sel.picks[1].spec, "HPM_NON_IDLE_INST:2");
	assert_int_equal(sel.ncounters, f->ncounters);
	assert_int_equal(src->ops->constant(src, "CPU_Freq", &v), 0);
	assert_true(v > 0);
	assert_int_equal(src->ops->constant(src, "NO_SUCH", &v), -HV_ENOENT);
	assert_int_equal(state_of(src, NULL).position, 0);
	assert_int_equal(state_of(src, NULL).total, NSAMPLES);
	memset(&rs, 0, sizeof rs);
	rs.values = xcalloc(sel.ncounters, sizeof *rs.values);
	rs.nvalues = sel.ncounters;
	for (i = 0; i < NSAMPLES; i++) {
		assert_false(state_of(src, NULL).done);
		assert_int_equal(src->ops->sample(src, 0, &rs, &cause), 0);
		assert_same(&rs, &f->rs[i]);
	}
	assert_true(state_of(src, NULL).done);
	assert_int_not_equal(src->ops->sample(src, 0, &rs, &cause), 0);
	assert_non_null(strstr(cause, "ends after 40 samples"));
	free(cause);
	free(rs.values);
	selection_clear(&sel);
	catalog_free(cat);
	source_close(src);
}

/* Only the recorded selection is served. */
static void
test_replay_selection(void **state)
{
	struct fixture		*f = *state;
	struct source		*src;
	struct catalog		*cat;
	struct selection	 sel, other;
	struct topology		 topo;
	char			*cause = NULL;

	src = open_replay(f->path, &cat, &sel);
	assert_false(state_of(src, &sel).follow);
	assert_int_equal(src->ops->topology(src, &topo, &cause), 0);
	memset(&other, 0, sizeof other);
	assert_int_equal(selection_add(&other, cat, &topo,
	    "HPM_0THRD_NON_IDLE_CCYC:0-4", 0, &cause), 0);
	assert_int_equal(src->ops->select(src, &other, &cause), -HV_EUSAGE);
	assert_non_null(strstr(cause, "recording was made with -g "
	    "HPM_0THRD_NON_IDLE_CCYC:0-5, -e HPM_NON_IDLE_INST:2"));
	free(cause);
	assert_true(state_of(src, &other).follow);
	selection_clear(&other);
	selection_clear(&sel);
	catalog_free(cat);
	source_close(src);
}

/* Waits follow the recorded gaps over the speed; pause, step, seek. */
static void
test_replay_pacing(void **state)
{
	struct fixture		*f = *state;
	struct source		*src;
	struct catalog		*cat;
	struct selection	 sel;
	struct raw_sample	 rs;
	char			*cause = NULL;

	src = open_replay(f->path, &cat, &sel);
	memset(&rs, 0, sizeof rs);
	rs.values = xcalloc(sel.ncounters, sizeof *rs.values);
	rs.nvalues = sel.ncounters;
	assert_true(state_of(src, NULL).wait == 0);
	assert_int_equal(src->ops->sample(src, 0, &rs, &cause), 0);
	/* Sample 1 was taken 0.5 s + 1 us after sample 0. */
	assert_true(state_of(src, NULL).wait == STEP + 1000);
	ctl_of(src)->set_speed(src, 2);
	assert_true(ctl_of(src)->speed(src) == 2);
	assert_true(state_of(src, NULL).wait == (STEP + 1000) / 2);
	ctl_of(src)->pause(src, 1);
	assert_true(ctl_of(src)->paused(src));
	assert_true(state_of(src, NULL).wait == UINT64_MAX);
	ctl_of(src)->step(src, 1);
	assert_true(state_of(src, NULL).wait == 0);
	assert_int_equal(src->ops->sample(src, 0, &rs, &cause), 0);
	assert_same(&rs, &f->rs[1]);
	assert_true(state_of(src, NULL).wait == UINT64_MAX);
	ctl_of(src)->pause(src, 0);
	assert_false(ctl_of(src)->paused(src));

	assert_int_equal(ctl_of(src)->seek(src, 30, &cause), 0);
	assert_int_equal(state_of(src, NULL).position, 30);
	assert_true(state_of(src, NULL).wait == 0);
	assert_int_equal(src->ops->sample(src, 0, &rs, &cause), 0);
	assert_same(&rs, &f->rs[30]);
	assert_int_equal(ctl_of(src)->seek(src, 5, &cause), 0);
	assert_int_equal(src->ops->sample(src, 0, &rs, &cause), 0);
	assert_same(&rs, &f->rs[5]);
	assert_int_equal(ctl_of(src)->seek(src, 1000, &cause), 0);
	assert_true(state_of(src, NULL).done);
	assert_true(state_of(src, NULL).wait == UINT64_MAX);
	free(rs.values);
	selection_clear(&sel);
	catalog_free(cat);
	source_close(src);
}

/* A file cut in its last sample: the rest replays, the cut is said. */
static void
test_replay_torn(void **state)
{
	struct fixture		*f = *state;
	struct source		*src;
	struct catalog		*cat;
	struct selection	 sel;
	char			 path[64], *summary, *cause = NULL;
	void			*buf;
	size_t			 len;
	int			 fd;

	assert_int_equal(file_read(f->path, 1 << 26, &buf, &len, &cause), 0);
	snprintf(path, sizeof path, "/tmp/hvtop-test-torn-XXXXXX");
	assert_int_not_equal(fd = mkstemp(path), -1);
	/* Past the END record (a few bytes) and into the last sample. */
	assert_true(write(fd, buf, len - 30) == (ssize_t)(len - 30));
	close(fd);
	free(buf);
	src = open_replay(path, &cat, &sel);
	assert_int_equal(state_of(src, NULL).total, NSAMPLES - 1);
	assert_int_equal(ctl_of(src)->ndiags(src), 2);
	assert_non_null(strstr(ctl_of(src)->diag(src, 0),
	    "dropped 1 incomplete record"));
	assert_non_null(strstr(ctl_of(src)->diag(src, 1), "no end record"));
	assert_string_equal(ctl_of(src)->diag(src, 2), "");
	summary = ctl_of(src)->summary(src);
	assert_non_null(strstr(summary, "39 samples"));
	assert_non_null(strstr(summary, "not closed"));
	free(summary);
	selection_clear(&sel);
	catalog_free(cat);
	source_close(src);
	unlink(path);

	/* Arguments make no sense for a replay; nor does a missing file. */
	assert_int_equal(source_open("replay:/nonexistent/x.hvr", NULL, "/sys",
	    &src, &cause) < 0, 1);
	free(cause);
	cause = NULL;
	summary = xasprintf("replay:%s", f->path);
	assert_int_equal(source_open(summary, "seed=1", "/sys", &src, &cause),
	    -HV_EUSAGE);
	free(summary);
	free(cause);
}

/*
 * Start recording the simulated frame into a new temporary file (path):
 * the P8 catalog on hcall interface 1, group spec picked, the source's
 * label replaced by label when given.
 */
static void
start_sim_recording(char *path, size_t size, const char *label,
    const char *spec, struct source **src, struct topology *topo,
    struct catalog **cat, struct selection *sel, struct session_record **rec)
{
	const void	*img;
	size_t		 len;
	char		*cause = NULL;
	int		 fd;

	snprintf(path, size, "/tmp/hvtop-test-rec-XXXXXX");
	assert_int_not_equal(fd = mkstemp(path), -1);
	close(fd);
	assert_int_equal(source_open("sim", "catalog=" P8 ",interface=1",
	    "/sys", src, &cause), 0);
	if (label != NULL) {
		free((*src)->label);
		(*src)->label = xstrdup(label);
	}
	assert_int_equal((*src)->ops->topology(*src, topo, &cause), 0);
	assert_int_equal((*src)->ops->catalog(*src, &img, &len, &cause), 0);
	assert_int_equal(catalog_parse(img, len, topo->interface, cat,
	    &cause), 0);
	memset(sel, 0, sizeof *sel);
	assert_int_equal(selection_add(sel, *cat, topo, spec, 0, &cause), 0);
	assert_int_equal((*src)->ops->select(*src, sel, &cause), 0);
	assert_int_equal(record_open(path, *src, topo, sel, 0, rec, &cause),
	    0);
}

/*
 * A recording keeps the recorded source's label; one made through the
 * perf source replays with its reads called group reads, as the recorded
 * run's text output called them.
 */
static void
test_replay_perf_calls(void **state)
{
	struct source		*src;
	struct topology		 topo;
	struct selection	 sel;
	struct catalog		*cat;
	struct session_record	*rec;
	struct raw_sample	 rs;
	char			 path[64], *spec, *cause = NULL;

	(void)state;
	start_sim_recording(path, sizeof path,
	    "perf hv_24x7, cpu 0, catalog v1", "HPM_0THRD_NON_IDLE_CCYC:0",
	    &src, &topo, &cat, &sel, &rec);
	/* A live frame has no playback controls. */
	assert_null(source_control(src));
	memset(&rs, 0, sizeof rs);
	rs.values = xcalloc(sel.ncounters, sizeof *rs.values);
	rs.nvalues = sel.ncounters;
	assert_int_equal(src->ops->sample(src, STEP, &rs, &cause), 0);
	assert_int_equal(session_record_sample(rec, &rs, &cause), 0);
	assert_int_equal(session_record_close(rec, &cause), 0);
	free(rs.values);
	selection_clear(&sel);
	catalog_free(cat);
	source_close(src);

	spec = xasprintf("replay:%s", path);
	assert_int_equal(source_open(spec, NULL, "/sys", &src, &cause), 0);
	assert_string_equal(src->label, "perf hv_24x7, cpu 0, catalog v1");
	assert_string_equal(src->calls, "group reads");
	source_close(src);
	free(spec);
	unlink(path);
}

/*
 * A recording whose selection changes after 10 samples (as when a pick is
 * added in the interface), replayed by a session: the replay starts with
 * the first selection, and the sample that follows the change says so.
 */
static void
test_replay_follows(void **state)
{
	struct source		*src;
	struct topology		 topo;
	struct selection	 sel;
	struct catalog		*cat;
	struct session_record	*rec;
	struct raw_sample	 want[20];
	const struct raw_sample	*rs;
	struct engine_snapshot	*snap;
	struct session_opts	 so;
	struct session		*ses;
	size_t			 i, k;
	char			 path[64], *spec, *cause = NULL;
	struct session_result	 res;

	(void)state;
	start_sim_recording(path, sizeof path, NULL,
	    "HPM_0THRD_NON_IDLE_CCYC:0-1", &src, &topo, &cat, &sel, &rec);
	for (i = 0; i < 20; i++) {
		if (i == 10) {
			assert_int_equal(selection_add(&sel, cat, &topo,
			    "HPM_NON_IDLE_INST:3", 1, &cause), 0);
			assert_int_equal(src->ops->select(src, &sel, &cause),
			    0);
			assert_int_equal(session_record_select(rec, &sel,
			    &cause), 0);
		}
		want[i].values = xcalloc(sel.ncounters, sizeof
		    *want[i].values);
		want[i].nvalues = sel.ncounters;
		assert_int_equal(src->ops->sample(src, (i + 1) * STEP,
		    &want[i], &cause), 0);
		assert_int_equal(session_record_sample(rec, &want[i], &cause),
		    0);
	}
	assert_int_equal(session_record_close(rec, &cause), 0);
	selection_clear(&sel);
	catalog_free(cat);
	source_close(src);

	spec = xasprintf("replay:%s", path);
	memset(&so, 0, sizeof so);
	assert_int_equal(source_open(spec, NULL, "/sys", &so.src, &cause), 0);
	so.batch = 1;
	so.interval = 1;
	setenv("XDG_CONFIG_HOME", "/nonexistent", 1);
	assert_int_equal(session_open(&ses, &so, &cause), 0);
	assert_int_equal(session_start(ses, &cause), 0);
	assert_int_equal(session_selection(ses)->npicks, 1);
	assert_true(session_clock_virtual(ses));
	for (i = 0; i < 20; i++) {
		assert_int_equal(session_sample(ses, &res, &cause), 0);
		snap = res.snap;
		/* The recording changed its selection before sample 10. */
		assert_int_equal(res.changed, i == 10 ?
		    SESSION_CHANGED_SELECTION : 0);
		assert_int_equal(session_selection(ses)->npicks,
		    i < 10 ? 1 : 2);
		rs = session_raw(ses);
		assert_int_equal(rs->nvalues, want[i].nvalues);
		for (k = 0; k < rs->nvalues; k++)
			assert_true(rs->values[k].value ==
			    want[i].values[k].value);
		assert_true(snap->now == want[i].now);
		session_recycle(ses, snap);
		free(want[i].values);
	}
	assert_true(session_done(ses));
	assert_true(res.done);
	assert_int_not_equal(session_sample(ses, &res, &cause), 0);
	assert_true(res.done && res.snap == NULL);
	free(cause);
	assert_int_equal(session_close(ses, &cause), 0);
	free(spec);
	unlink(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_replay_samples),
		cmocka_unit_test(test_replay_selection),
		cmocka_unit_test(test_replay_pacing),
		cmocka_unit_test(test_replay_torn),
		cmocka_unit_test(test_replay_perf_calls),
		cmocka_unit_test(test_replay_follows),
	};

	return (cmocka_run_group_tests_name("record-replay", tests, setup,
	    teardown));
}
