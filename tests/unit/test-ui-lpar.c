/*
 * The Partitions screen from a hand-made frame of three partitions of
 * two virtual processors, read by partition (HPM_32MHZ_CYC@lpar on the P8
 * catalog): the rows and their values, the sort by % remote, the filter,
 * a partition opened and closed with the cursor kept, the tab, and the
 * HMC's line when other partitions may not be read.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "model/raw.h"
#include "model/selection.h"
#include "session/session.h"
#include "source/source.h"
#include "ui/ui-model.h"
#include "ui/view.h"
#include "filter/filter.h"
#include "util/xalloc.h"

#include "fixture.h"
#include "fixture-ui.h"

#define NLPARS	3

/* Per partition 1..3: cycles/s of a vcpu and its placements' shares. */
static const double lpar_hz[NLPARS] = { 1e9, 2e9, 3e9 };
static const double lpar_share[NLPARS][SEL_NPLACES] = {
	{ 0.90, 0.06, 0.03, 0.01 },
	{ 0.20, 0.10, 0.10, 0.60 },
	{ 0.70, 0.20, 0.05, 0.05 },
};
static const struct topo_lpar lpars[NLPARS] = {
	{ 1, 2, 7 }, { 2, 2, 7 }, { 3, 2, 7 },
};

struct lsrc {
	void			*img;
	size_t			 len;
	unsigned		 n;
	int			 denied;
	const struct selection	*sel;
};

static int
lsrc_catalog(struct source *src, const void **img, size_t *len, char **cause)
{
	struct lsrc	*f = src->data;

	(void)cause;
	*img = f->img;
	*len = f->len;
	return (0);
}

static int
lsrc_topology(struct source *src, struct topology *t, char **cause)
{
	struct lsrc	*f = src->data;

	(void)cause;
	memset(t, 0, sizeof *t);
	t->sockets = 1;
	t->chips = 1;
	t->cores = 4;
	t->smt = 8;
	t->vcpus = 2;
	t->interface = 2;
	t->privileged = 1;
	t->lpar_self = 1;
	if (f->denied)
		t->lpars_denied = 1;
	else {
		t->lpars = lpars;
		t->nlpars = NLPARS;
	}
	return (0);
}

static int
lsrc_select(struct source *src, const struct selection *sel, char **cause)
{
	struct lsrc	*f = src->data;

	(void)cause;
	f->sel = sel;
	return (0);
}

/* Counter k after n seconds: cycles, non-idle cycles at 5/8 of them,
 * instructions at half, the rest 1/s. */
static int
lsrc_sample(struct source *src, uint64_t now, struct raw_sample *rs,
    char **cause)
{
	struct lsrc			*f = src->data;
	const struct sel_counter	*c;
	const char			*name;
	double				 rate;
	size_t				 k, l;

	(void)now;
	(void)cause;
	rs->now = f->n * 1000000000ULL;
	raw_sample_size(rs, f->sel->ncounters);
	for (k = 0; k < f->sel->ncounters; k++) {
		c = &f->sel->counters[k];
		name = c->event->name;
		l = c->lpar >= 1 && c->lpar <= NLPARS ? c->lpar - 1U : 0;
		rate = lpar_hz[l] * lpar_share[l][c->domain - 3];
		if (strcmp(name, "HPM_NON_IDLE_INST") == 0)
			rate /= 2;
		else if (strcmp(name, "HPM_NON_IDLE_PCYC") == 0)
			rate *= 0.625;
		else if (strcmp(name, "HPM_CCYC") != 0)
			rate = 1;
		rs->values[k].value = (uint64_t)(rate * f->n);
		rs->values[k].status = RAW_OK;
	}
	rs->calls = 1;
	rs->naive_calls = (unsigned)f->sel->ncounters;
	f->n++;
	return (0);
}

static void
lsrc_close(struct source *src)
{
	struct lsrc	*f = src->data;

	free(f->img);
	free(f);
}

static const struct source_ops lsrc_ops = {
	.name = "test",
	.catalog = lsrc_catalog,
	.topology = lsrc_topology,
	.select = lsrc_select,
	.sample = lsrc_sample,
	.close = lsrc_close,
};

struct fixture {
	struct session	*ses;
	struct ui	 ui;
};

static struct fixture *
fixture_new(int denied)
{
	static char		 g[] = "HPM_32MHZ_CYC@lpar";
	static char		*groups[] = { g };
	static char		 hz[] = "CPU_Freq=4e9";
	static char		*consts[] = { hz };
	struct session_opts	 so;
	struct session_result	 res;
	struct fixture		*fx;
	struct source		*src;
	struct lsrc		*f;
	char			*cause = NULL;
	unsigned		 i;

	setenv("XDG_CONFIG_HOME", "/nonexistent", 1);
	fx = xcalloc(1, sizeof *fx);
	f = xcalloc(1, sizeof *f);
	f->denied = denied;
	f->img = fixture_read(FIXTURE_P8, &f->len);
	src = xcalloc(1, sizeof *src);
	src->ops = &lsrc_ops;
	src->data = f;
	src->label = xstrdup("test frame: 3 partitions");
	memset(&so, 0, sizeof so);
	so.src = src;
	so.interval = 1;
	so.groups = groups;
	so.ngroups = 1;
	so.consts = consts;
	so.nconsts = 1;
	if (session_open(&fx->ses, &so, &cause) != 0 ||
	    session_start(fx->ses, &cause) != 0)
		fail_msg("%s", cause);
	fx->ui.ses = fx->ses;
	fx->ui.interval = 1;
	snprintf(fx->ui.host, sizeof fx->ui.host, "testhost");
	for (i = 0; i < UI_NSCREENS; i++)
		fx->ui.list[i].sort = -1;
	fx->ui.screen = UI_LPAR;
	live_reset(&fx->ui);
	for (i = 0; i < 3; i++) {
		assert_int_equal(session_sample(fx->ses, &res, &cause), 0);
		engine_snapshot_free(fx->ui.snap);
		fx->ui.snap = res.snap;
	}
	return (fx);
}

static void
fixture_free(struct fixture *fx)
{
	char	*cause = NULL;

	engine_snapshot_free(fx->ui.snap);
	live_free(&fx->ui.live);
	lpar_free(&fx->ui.lp);
	frame_free(&fx->ui.fr);
	filter_free(fx->ui.filter);
	assert_int_equal(session_close(fx->ses, &cause), 0);
	free(fx);
}

/* The line of text that starts with start (after blanks), or NULL. */
static const char *
line_of(const char *text, const char *start)
{
	const char	*l = text, *p;

	while (*l != '\0') {
		for (p = l; *p == ' '; p++)
			;
		if (strncmp(p, start, strlen(start)) == 0)
			return (l);
		if ((l = strchr(l, '\n')) == NULL)
			break;
		l++;
	}
	return (NULL);
}

static void
test_rows(void **state)
{
	struct fixture	*fx = fixture_new(0);
	char		*text;
	const char	*l;
	double		 v;
	const char	*mark;
	size_t		 row;

	(void)state;
	text = fixture_ui_render(&fx->ui, 100, 30);
	if (getenv("UI_LPAR_DUMP") != NULL)
		fputs(text, stderr);
	assert_non_null(strstr(text, " Partitions "));
	assert_non_null(strstr(text, "3 partitions, by LPAR"));
	assert_non_null(strstr(text, "  LPAR VCPUS  CYCLES/S  CORES   INSTR/S"
	    " IPC-NI %OFFCHIP  %REMOTE  =core +chip onode #remote"));
	/* This partition is starred; 2 vcpus of 2 G cycles/s: 1 core at
	 * CPU_Freq 4 GHz; the bar's parts as its placements'. */
	assert_non_null(l = line_of(text, "*1 "));
	assert_non_null(l = line_of(text, "2 "));
	assert_non_null(strstr(l, "4.00G   1.00     2.00G"));
	/* IPC-NI: instructions per non-idle cycle, 0.5 / 0.625. */
	assert_non_null(strstr(l, " 0.80     70.0     60.0  =======++++ooo###"
	    "#################\n"));
	free(text);
	/* The other screens draw beside the partition views. */
	fx->ui.screen = UI_LIVE;
	live_layout(&fx->ui);
	free(fixture_ui_render(&fx->ui, 100, 30));
	fx->ui.screen = UI_FRAME;
	free(fixture_ui_render(&fx->ui, 100, 30));
	fx->ui.screen = UI_LPAR;
	free(fixture_ui_render(&fx->ui, 100, 30));
	/* The values behind them. */
	assert_int_equal(lpar_cursor(&fx->ui, &row), 0);
	assert_int_equal(lpar_value(&fx->ui, 1, LPAR_C_REMOTE, &v, &mark), 0);
	assert_true(v > 59.99 && v < 60.01);
	assert_int_equal(lpar_value(&fx->ui, 2, LPAR_C_OFFCHIP, &v, &mark),
	    0);
	assert_true(v > 9.99 && v < 10.01);
	assert_int_equal(lpar_value(&fx->ui, 2, LPAR_C_VCPUS, &v, &mark), 0);
	assert_true(v == 2);
	fixture_free(fx);
}

static void
test_sort_filter_open(void **state)
{
	struct fixture	*fx = fixture_new(0);
	struct ui	*ui = &fx->ui;
	char		*text, *cause = NULL;
	size_t		 row;

	(void)state;
	lpar_sort_step(ui, -1);
	assert_int_equal(ui->lp.sort, LPAR_C_REMOTE);
	text = fixture_ui_render(ui, 80, 24);
	assert_non_null(strstr(text, "3 partitions, by %REMOTE"));
	free(text);
	/* Largest first: 2, 3, then this one. */
	assert_int_equal(ui->lp.nrows, 3);
	assert_int_equal(ui->snap != NULL, 1);
	assert_int_equal(engine_view(session_engine(ui->ses),
	    (size_t)ui->lp.view)->indices[ui->lp.order[0]], 2);
	assert_int_equal(engine_view(session_engine(ui->ses),
	    (size_t)ui->lp.view)->indices[ui->lp.order[2]], 1);
	lpar_reverse(ui);
	free(fixture_ui_render(ui, 80, 24));
	assert_int_equal(engine_view(session_engine(ui->ses),
	    (size_t)ui->lp.view)->indices[ui->lp.order[0]], 1);
	lpar_reverse(ui);

	/* The filter keeps partition 3; the cursor goes with it. */
	assert_int_equal(filter_parse("lpar=3", &ui->filter, &cause), 0);
	text = fixture_ui_render(ui, 80, 24);
	assert_non_null(strstr(text, "1 partition of 3"));
	free(text);
	filter_free(ui->filter);
	ui->filter = NULL;
	free(fixture_ui_render(ui, 80, 24));
	assert_int_equal(ui->lp.cursor, 1);

	/* Open it: its vcpus, home core "-", then back on it. */
	assert_int_equal(lpar_open(ui), 0);
	text = fixture_ui_render(ui, 80, 24);
	assert_non_null(strstr(text, "partition 3: 2 virtual processors"));
	assert_non_null(strstr(text, "VCPU  HOME"));
	assert_non_null(line_of(text, "0     - "));
	assert_non_null(line_of(text, "1     - "));
	free(text);
	assert_int_equal(lpar_close(ui), 0);
	free(fixture_ui_render(ui, 80, 24));
	assert_int_equal(lpar_cursor(ui, &row), 0);
	assert_int_equal(engine_view(session_engine(ui->ses),
	    (size_t)ui->lp.view)->indices[row], 3);
	/* The header stays whatever the rows scroll to. */
	lpar_move(ui, 1000000);
	text = fixture_ui_render(ui, 80, 12);
	assert_non_null(strstr(text, "LPAR VCPUS"));
	free(text);
	fixture_free(fx);
}

static void
test_denied(void **state)
{
	struct fixture	*fx = fixture_new(1);
	char		*text;

	(void)state;
	text = fixture_ui_render(&fx->ui, 120, 30);
	assert_non_null(strstr(text, "other partitions are not visible: "
	    "allow performance information collection for this partition "
	    "on the HMC"));
	assert_non_null(strstr(text, "1 partition,"));
	free(text);
	fixture_free(fx);
}

/* The word of line l that ends in column end (into buf), "" if none. */
static const char *
word_at(const char *l, size_t end, char *buf, size_t len)
{
	size_t	 b = end, n = strcspn(l, "\n");

	buf[0] = '\0';
	if (end > n || end == 0 || l[end - 1] == ' ')
		return (buf);
	while (b > 0 && l[b - 1] != ' ')
		b--;
	snprintf(buf, len, "%.*s", (int)(end - b), l + b);
	return (buf);
}

/* Where the column named name ends in the header line h, or 0. */
static size_t
col_end(const char *h, const char *name)
{
	const char	*p;
	size_t		 n = strlen(name);

	for (p = h; (p = strstr(p, name)) != NULL; p += n)
		if ((p == h || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\n'))
			return ((size_t)(p - h) + n);
	return (0);
}

/*
 * The same value spelled the same on both screens: partition 1's
 * cycles/s (two vcpus at 1 GHz) as Partitions shows them, its CYCLES/S
 * with the prefix's letter, and as Live shows its HPM_CCYC, the digits
 * under the prefix in the unit line.
 */
static void
test_same_spelling(void **state)
{
	struct fixture	*fx = fixture_new(0);
	char		*text, lp[32], lv[32], unit[32], want[64];
	const char	*h, *l;
	size_t		 end;

	(void)state;
	text = fixture_ui_render(&fx->ui, 200, 30);
	assert_non_null(h = line_of(text, "LPAR VCPUS"));
	assert_true((end = col_end(h, "CYCLES/S")) > 0);
	assert_non_null(l = line_of(text, "*1 "));
	word_at(l, end, lp, sizeof lp);
	free(text);
	fx->ui.screen = UI_LIVE;
	live_reset(&fx->ui);
	text = fixture_ui_render(&fx->ui, 200, 30);
	if (getenv("UI_LPAR_DUMP") != NULL)
		fputs(text, stderr);
	assert_non_null(h = line_of(text, "lpar  hvtop_ipc"));
	assert_true((end = col_end(h, "HPM_CCYC")) > 0);
	word_at(strchr(h, '\n') + 1, end, unit, sizeof unit);
	assert_non_null(l = line_of(text, "1 "));
	word_at(l, end, lv, sizeof lv);
	free(text);
	/* "2.00" under "G/s" reads as "2.00G" does. */
	assert_string_equal(lp, "2.00G");
	assert_true(strlen(unit) == 3 && strcmp(unit + 1, "/s") == 0);
	snprintf(want, sizeof want, "%s%c", lv, unit[0]);
	assert_string_equal(lp, want);
	fixture_free(fx);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_sort_filter_open),
		cmocka_unit_test(test_denied),
		cmocka_unit_test(test_same_spelling),
	};

	return (cmocka_run_group_tests_name("ui-lpar", tests, NULL, NULL));
}
