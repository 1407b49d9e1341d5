/*
 * Unit tests for the session (src/session/session.h), driven only through
 * its API on the simulated frame with a virtual clock: starting, sampling
 * and the baseline, picking anew (and a pick that fails, leaving the
 * session as it was), the overview, constants, a catalog version change
 * reported by what session_sample() returns, a replay jumped about
 * across a catalog reload, and a replay's times found, its pace and its
 * end, all through the session.
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
#include "source/source.h"
#include "util/hverr.h"
#include "util/xalloc.h"

#define P8	TOP_SRCDIR "/tests/data/catalog/p8-catalog-v3.bin"
#define SIM	"clock=virtual,interface=1,seed=5,catalog=" P8
#define GROUP	"HPM_0THRD_NON_IDLE_CCYC:0-1"
#define SEC	1000000000ULL

/* -g, -e and --const texts as the command line holds them. */
static char group[] = GROUP;
static char *groups[] = { group };

/* A session on the simulated frame; so (may be NULL) says the rest. */
static struct session *
start(const char *spec, const char *args, struct session_opts *so)
{
	struct session_opts	 none;
	struct session		*ses;
	char			*cause = NULL;

	if (so == NULL) {
		memset(&none, 0, sizeof none);
		so = &none;
	}
	so->virtual_clock = strstr(args != NULL ? args : "",
	    "clock=virtual") != NULL;
	if (so->interval == 0)
		so->interval = 1;
	if (source_open(spec, args, "/nonexistent", &so->src, &cause) != 0 ||
	    session_open(&ses, so, &cause) != 0 ||
	    session_start(ses, &cause) != 0)
		fail_msg("%s", cause);
	return (ses);
}

static void
stop(struct session *ses)
{
	char	*cause = NULL;

	if (session_close(ses, &cause) != 0)
		fail_msg("%s", cause);
}

/* What the last sample said. */
static struct session_result last;

/* The next sample, one interval on; returns what changed. */
static unsigned
next(struct session *ses, struct engine_snapshot **snap)
{
	char		*cause = NULL;

	if (session_sample(ses, &last, &cause) != 0)
		fail_msg("%s", cause);
	*snap = last.snap;
	session_sleep_until(ses, session_now(ses) + SEC, -1);
	return (last.changed);
}

static void
test_setup_sample(void **state)
{
	struct session_opts	 so;
	struct session		*ses;
	struct engine_snapshot	*snap;
	const struct selection	*sel;

	(void)state;
	memset(&so, 0, sizeof so);
	so.groups = groups;
	so.ngroups = 1;
	ses = start("sim", SIM, &so);
	assert_true(session_clock_virtual(ses));
	assert_false(session_replay(ses, NULL));
	assert_string_equal(session_kind(ses), "sim");
	assert_string_equal(session_calls_word(ses), "hcalls");
	assert_true(session_catalog(ses)->version == 3);
	assert_string_equal(session_catalog_label(ses),
	    "catalog v3 (20140120)");
	assert_int_equal(session_topology(ses)->interface, 1);
	assert_false(session_recording(ses));
	sel = session_selection(ses);
	assert_int_equal(sel->npicks, 1);
	assert_string_equal(sel->picks[0].spec, GROUP);
	/* The raw sample is the session's, sized for the selection. */
	assert_int_equal(session_raw(ses)->nvalues, sel->ncounters);
	assert_int_equal(engine_nviews(session_engine(ses)), 1);

	/* The first sample only sets the baselines. */
	assert_int_equal(next(ses, &snap), 0);
	assert_int_equal(snap->seq, 0);
	session_recycle(ses, snap);
	assert_int_equal(next(ses, &snap), 0);
	assert_int_equal(snap->seq, 1);
	assert_true(snap->now == SEC);
	assert_string_equal(snap->error, "");
	assert_true(session_raw(ses)->calls >= 1);
	session_recycle(ses, snap);
	assert_true(session_wall(ses, 0) == 1767225600ULL * SEC);

	session_set_interval(ses, 0.5);
	assert_true(session_interval(ses) == 0.5);
	stop(ses);
}

/* Picks anew: a new engine; a pick that fails changes nothing. */
static void
test_select(void **state)
{
	static const struct session_pick two[] = {
		{ GROUP, 0 }, { "HPM_NON_IDLE_INST:3", 1 } };
	static const struct session_pick bad[] = {
		{ GROUP, 0 }, { "NO_SUCH_GROUP", 0 } };
	struct session		*ses;
	struct engine_snapshot	*snap;
	const struct engine	*e;
	char			*cause = NULL;

	(void)state;
	ses = start("sim", SIM, NULL);
	/* Without -g or -e: the overview. */
	assert_true(session_selection(ses)->npicks > 0);
	assert_int_equal(next(ses, &snap), 0);
	session_recycle(ses, snap);

	assert_int_equal(session_select(ses, two, 2, &cause), 0);
	assert_int_equal(session_selection(ses)->npicks, 2);
	assert_int_equal(session_selection(ses)->picks[1].kind, SEL_EVENT);
	assert_int_equal(session_raw(ses)->nvalues,
	    session_selection(ses)->ncounters);
	/* A new engine starts from a baseline. */
	assert_int_equal(next(ses, &snap), 0);
	assert_int_equal(snap->seq, 0);
	session_recycle(ses, snap);
	assert_int_equal(next(ses, &snap), 0);
	assert_int_equal(snap->seq, 1);
	session_recycle(ses, snap);

	e = session_engine(ses);
	assert_int_not_equal(session_select(ses, bad, 2, &cause), 0);
	assert_non_null(strstr(cause, "NO_SUCH_GROUP: "));
	free(cause);
	assert_ptr_equal(session_engine(ses), e);
	assert_int_equal(session_selection(ses)->npicks, 2);
	assert_int_equal(next(ses, &snap), 0);
	assert_int_equal(snap->seq, 2);
	session_recycle(ses, snap);
	stop(ses);
}

/* The overview is offered whatever is selected, and -g/-e that name
 * nothing are usage errors. */
static void
test_overview(void **state)
{
	static char		 nosuch[] = "NO_SUCH_GROUP";
	static char		*bad[] = { nosuch };
	struct session_opts	 so;
	struct session		*ses;
	struct selection	 sel;
	char			*cause = NULL;

	(void)state;
	ses = start("sim", SIM, NULL);
	memset(&sel, 0, sizeof sel);
	assert_int_equal(session_overview(ses, &sel, &cause), 0);
	assert_int_equal(sel.npicks, session_selection(ses)->npicks);
	assert_int_equal(sel.ncounters, session_selection(ses)->ncounters);
	selection_clear(&sel);
	stop(ses);

	memset(&so, 0, sizeof so);
	so.groups = bad;
	so.ngroups = 1;
	so.interval = 1;
	assert_int_equal(source_open("sim", SIM, "/nonexistent", &so.src,
	    &cause), 0);
	assert_int_equal(session_open(&ses, &so, &cause), 0);
	assert_int_equal(session_start(ses, &cause), -HV_EUSAGE);
	assert_non_null(strstr(cause, "-g NO_SUCH_GROUP: "));
	free(cause);
	stop(ses);
}

/* --const wins over the frame; a name neither knows has no value. */
static void
test_constants(void **state)
{
	static char		 pb[] = "PB_Freq=2.0e9";
	static char		*consts[] = { pb };
	struct session_opts	 so;
	struct session		*ses;
	const char		*text;
	double			 v = 0;

	(void)state;
	memset(&so, 0, sizeof so);
	so.consts = consts;
	so.nconsts = 1;
	ses = start("sim", SIM, &so);
	assert_int_equal(session_constant(ses, "PB_Freq", &v, &text),
	    SESSION_CONST_OPTION);
	assert_true(v == 2e9);
	assert_string_equal(text, "2.0e9");
	assert_int_equal(session_constant(ses, "CPU_Freq", &v, &text),
	    SESSION_CONST_FRAME);
	assert_true(v > 0);
	assert_null(text);
	assert_int_equal(session_constant(ses, "NO_SUCH", &v, NULL),
	    SESSION_CONST_NONE);
	stop(ses);
}

/* A new engine like the session's: its views and its constants. */
static void
test_engine_new(void **state)
{
	static char		 pb[] = "PB_Freq=2.0e9";
	static char		*consts[] = { pb };
	struct session_opts	 so;
	struct session		*ses;
	struct engine		*e;
	const char		*name;
	size_t			 i;
	int			 pbf = 0;

	(void)state;
	memset(&so, 0, sizeof so);
	so.groups = groups;
	so.ngroups = 1;
	so.consts = consts;
	so.nconsts = 1;
	ses = start("sim", SIM, &so);
	e = session_engine_new(ses);
	assert_non_null(e);
	assert_ptr_not_equal(e, session_engine(ses));
	assert_int_equal(engine_nviews(e), engine_nviews(session_engine(ses)));
	for (i = 0; (name = engine_constant_name(e, i)) != NULL; i++) {
		assert_non_null(engine_constant_name(session_engine(ses), i));
		assert_string_equal(name,
		    engine_constant_name(session_engine(ses), i));
		pbf |= strcmp(name, "PB_Freq") == 0;
	}
	assert_null(engine_constant_name(session_engine(ses), i));
	assert_true(pbf);
	engine_free(e);
	stop(ses);
}

/* The catalog changes version at the third hcall: the sample says so. */
static void
test_version_change(void **state)
{
	struct session_opts	 so;
	struct session		*ses;
	struct engine_snapshot	*snap;

	(void)state;
	memset(&so, 0, sizeof so);
	so.groups = groups;
	so.ngroups = 1;
	ses = start("sim", SIM ",faults=version-change@3", &so);
	assert_int_equal(next(ses, &snap), 0);
	session_recycle(ses, snap);
	assert_int_equal(next(ses, &snap), 0);
	session_recycle(ses, snap);
	assert_int_equal(next(ses, &snap), SESSION_CHANGED_CATALOG |
	    SESSION_CHANGED_SELECTION);
	/* The new catalog, the picks resolved in it, new baselines. */
	assert_true(session_catalog(ses)->version == 4);
	assert_string_equal(session_catalog_label(ses),
	    "catalog v4 (20140120)");
	assert_int_equal(session_selection(ses)->npicks, 1);
	assert_int_equal(snap->seq, 0);
	session_recycle(ses, snap);
	/* The first interval shown says why the numbers restarted. */
	assert_int_equal(next(ses, &snap), 0);
	assert_int_equal(snap->seq, 1);
	assert_non_null(strstr(snap->error,
	    "catalog version changed from 3 to 4"));
	session_recycle(ses, snap);
	stop(ses);
}

/*
 * A recording made by a session (-w) with a catalog reload at sample 6,
 * replayed: session_replay() says where the replay is, and jumps across
 * the reload bring the catalog of where they land.
 */
static void
test_replay_seek(void **state)
{
	struct session_opts	 so;
	struct session		*ses;
	struct engine_snapshot	*snap;
	struct session_replay	 rp;
	char			 path[] = "/tmp/hvtop-test-session-XXXXXX";
	char			*spec, *cause = NULL;
	struct session_result	 res;
	int			 fd, i;

	(void)state;
	assert_int_not_equal(fd = mkstemp(path), -1);
	close(fd);
	memset(&so, 0, sizeof so);
	so.groups = groups;
	so.ngroups = 1;
	so.record = path;
	ses = start("sim", SIM ",faults=version-change@6", &so);
	assert_true(session_recording(ses));
	for (i = 0; i < 12; i++) {
		next(ses, &snap);
		session_recycle(ses, snap);
	}
	/* A live frame cannot jump. */
	assert_int_equal(session_seek(ses, 2, &res, &cause), -HV_EUSAGE);
	assert_int_equal(res.changed, 0);
	free(cause);
	stop(ses);

	memset(&so, 0, sizeof so);
	so.batch = 1;
	spec = xasprintf("replay:%s", path);
	ses = start(spec, NULL, &so);
	assert_true(session_clock_virtual(ses));
	assert_true(session_replay(ses, &rp));
	assert_true(rp.position == 0);
	assert_true(rp.total == 13);
	assert_true(session_catalog(ses)->version == 3);

	/* Past the reload: the newer catalog. */
	assert_int_equal(session_seek(ses, 9, &res, &cause), 0);
	assert_int_equal(res.changed, SESSION_CHANGED_SEEK |
	    SESSION_CHANGED_ENGINE);
	assert_true(res.position == 9 && res.total == 13 && !res.done);
	assert_true(session_catalog(ses)->version == 4);
	assert_true(session_replay(ses, &rp) && rp.position == 9);
	assert_int_equal(next(ses, &snap), 0);
	session_recycle(ses, snap);
	/* Within one catalog: only the baselines restart. */
	assert_int_equal(session_seek(ses, 11, &res, &cause), 0);
	assert_int_equal(res.changed, SESSION_CHANGED_SEEK);
	/* Back before it: the older one again. */
	assert_int_equal(session_seek(ses, 1, &res, &cause), 0);
	assert_int_equal(res.changed, SESSION_CHANGED_SEEK |
	    SESSION_CHANGED_ENGINE);
	assert_true(session_catalog(ses)->version == 3);
	assert_int_equal(next(ses, &snap), 0);
	session_recycle(ses, snap);
	assert_true(session_replay(ses, &rp) && rp.position == 2);
	assert_true(last.position == 2 && last.total == 13);
	assert_false(session_done(ses));
	assert_false(last.done);
	stop(ses);
	free(spec);
	unlink(path);
}

/*
 * A replay's sample found by its time leaves the replay where it was;
 * the deadline follows the recorded gaps and there is none at the end,
 * which is the end of the run.  A live source has an interval and no
 * recorded times.
 */
static void
test_replay_find(void **state)
{
	struct session_opts	 so;
	struct session		*ses;
	struct engine_snapshot	*snap;
	struct session_replay	 rp;
	char			 path[] = "/tmp/hvtop-test-session-XXXXXX";
	char			*spec, *cause = NULL;
	uint64_t		 i;
	struct session_result	 res;
	int			 fd, k;

	(void)state;
	assert_int_not_equal(fd = mkstemp(path), -1);
	close(fd);
	memset(&so, 0, sizeof so);
	so.groups = groups;
	so.ngroups = 1;
	so.record = path;
	ses = start("sim", SIM, &so);
	assert_false(session_done(ses));
	assert_true(session_deadline(ses, 5) == 5 + SEC);
	assert_int_equal(session_find(ses, 0, &i, &cause), -HV_EUSAGE);
	free(cause);
	cause = NULL;
	for (k = 0; k < 5; k++) {
		next(ses, &snap);
		session_recycle(ses, snap);
	}
	/* A live source: the interval, and never an end. */
	assert_true(last.wait == SEC && !last.done && last.total == 0);
	stop(ses);

	memset(&so, 0, sizeof so);
	so.batch = 1;
	spec = xasprintf("replay:%s", path);
	ses = start(spec, NULL, &so);
	assert_true(session_replay(ses, &rp));
	assert_true(rp.total == 5);
	assert_false(rp.damaged);
	assert_int_equal(rp.ndiags, 0);
	/* Nothing played yet: the first sample is due now. */
	assert_true(session_deadline(ses, 7) == 7);
	assert_int_equal(session_find(ses, rp.first, &i, &cause), 0);
	assert_true(i == 0);
	assert_int_equal(session_find(ses, rp.first + 1, &i, &cause), 0);
	assert_true(i == 1);
	assert_int_equal(session_find(ses, rp.first + 2 * SEC, &i, &cause),
	    0);
	assert_true(i == 2);
	assert_int_equal(session_find(ses, rp.first + 60 * SEC, &i, &cause),
	    0);
	assert_true(i == 5);
	assert_true(session_replay(ses, &rp) && rp.position == 0);
	next(ses, &snap);
	session_recycle(ses, snap);
	next(ses, &snap);
	session_recycle(ses, snap);
	assert_int_equal(session_find(ses, rp.first, &i, &cause), 0);
	assert_true(i == 0);
	assert_true(session_replay(ses, &rp) && rp.position == 2);
	/* The recorded gap, a second, at the recorded speed. */
	assert_true(session_deadline(ses, 7) == 7 + SEC);
	assert_true(last.wait == SEC);
	for (k = 2; k < 5; k++) {
		assert_false(session_done(ses));
		next(ses, &snap);
		session_recycle(ses, snap);
	}
	assert_true(session_done(ses));
	assert_true(last.done);
	assert_true(session_deadline(ses, 7) == UINT64_MAX);
	assert_true(last.wait == UINT64_MAX);
	assert_int_not_equal(session_sample(ses, &res, &cause), 0);
	assert_true(res.done);
	free(cause);
	stop(ses);
	free(spec);
	unlink(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_setup_sample),
		cmocka_unit_test(test_select),
		cmocka_unit_test(test_overview),
		cmocka_unit_test(test_constants),
		cmocka_unit_test(test_engine_new),
		cmocka_unit_test(test_version_change),
		cmocka_unit_test(test_replay_seek),
		cmocka_unit_test(test_replay_find),
	};

	/* No metric file of the user's. */
	setenv("XDG_CONFIG_HOME", "/nonexistent", 1);
	return (cmocka_run_group_tests_name("session", tests, NULL, NULL));
}
