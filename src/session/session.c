/*
 * A monitoring session: the source, the catalog it serves, the selection
 * and the engine, kept consistent across everything that changes one of
 * them: picks, a catalog version change (reload, new baselines), a
 * recording that changed its selection (follow), a jump in a replay.
 * Every change goes through session_apply(), all or nothing, and is
 * reported to the caller as SESSION_CHANGED_* bits.  Also the only owner
 * of the raw sample buffer, sized for the selection in one place.
 *
 * No printing, no terminal: callers print the notices and causes.
 */
#include "config.h"

#include "session/session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "model/raw.h"
#include "model/selection.h"
#include "session/session-int.h"
#include "session/session-record.h"
#include "record/record.h"
#include "serve/serve.h"
#include "util/hverr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* A fixed epoch keeps virtual-clock output byte-for-byte stable. */
#define SESSION_VIRTUAL_EPOCH	(1767225600ULL * 1000000000ULL)

void
session_notify(struct session *s, char *text)
{
	s->notices = xreallocarray(s->notices, s->nnotices + 1,
	    sizeof *s->notices);
	s->notices[s->nnotices++] = text;
}

/* The header's words for the catalog in use. */
static void
session_label_catalog(struct session *s)
{
	free(s->catalog_label);
	if (s->cat != NULL)
		s->catalog_label = xasprintf("catalog v%llu (%.8s)",
		    (unsigned long long)s->cat->version, s->cat->build_time);
	else
		s->catalog_label = xstrdup("events from sysfs");
}

/* ---- constants ----------------------------------------------------- */

/* --const NAME=VALUE, parsed once. */
static int
session_parse_consts(struct session *s, char **cause)
{
	const char	*arg, *eq;
	char		*end;
	size_t		 i;

	s->consts = xcalloc(s->opts.nconsts + 1, sizeof *s->consts);
	for (i = 0; i < s->opts.nconsts; i++) {
		arg = s->opts.consts[i];
		if ((eq = strchr(arg, '=')) == NULL || eq == arg) {
			*cause = xasprintf("--const %s: expected NAME=VALUE",
			    arg);
			return (-HV_EUSAGE);
		}
		s->consts[i].value = strtod(eq + 1, &end);
		if (*end != '\0' || end == eq + 1) {
			*cause = xasprintf("--const %s: not a number", arg);
			return (-HV_EUSAGE);
		}
		s->consts[i].name = xstrndup(arg, (size_t)(eq - arg));
		s->consts[i].text = eq + 1;
		s->nconsts++;
	}
	return (0);
}

enum session_const_origin
session_constant(const struct session *s, const char *name, double *value,
    const char **text)
{
	size_t	 i;

	if (text != NULL)
		*text = NULL;
	/* The last --const of a name wins, as for every repeated option. */
	for (i = s->nconsts; i > 0; i--) {
		if (strcmp(s->consts[i - 1].name, name) == 0) {
			*value = s->consts[i - 1].value;
			if (text != NULL)
				*text = s->consts[i - 1].text;
			return (SESSION_CONST_OPTION);
		}
	}
	if (s->src->ops->constant != NULL &&
	    s->src->ops->constant(s->src, name, value) == 0)
		return (SESSION_CONST_FRAME);
	return (SESSION_CONST_NONE);
}

const char *
session_constant_origin(const struct session *s, const char *name)
{
	const char	*origin;

	if (s->src->ops->constant_origin != NULL &&
	    (origin = s->src->ops->constant_origin(s->src, name)) != NULL)
		return (origin);
	return ("the frame");
}

/*
 * Named constants a source may know (the frame's clocks).  A replay
 * answers from what its recording holds, so this must name every
 * constant a source knows (hvsim_constant() in src/sim/hvsim.c,
 * source_perf_const_get() in src/source/source-perf-const.c).
 */
static const char *const session_frame_constants[] = {
	"PB_Freq", "PB_FREQ", "MEM_Freq", "CPU_Freq", "cpu_hz", "XBUS_Freq",
	"ABUS_Freq", "PHB_Freq", NULL
};

/*
 * Open the recording with what the source serves: its label, catalog
 * and frame's constants.  What --const set is what the formulas used,
 * so that is what the recording keeps over the frame's values.
 */
static int
session_start_recording(struct session *s, char **cause)
{
	struct session_record_params	 p;
	struct record_constant		*rc;
	const char *const		*name;
	size_t				 n = 0, i;
	char				*why = NULL;
	int				 error;

	memset(&p, 0, sizeof p);
	if ((error = s->src->ops->catalog(s->src, &p.catalog, &p.catalog_len,
	    &why)) != 0) {
		/* A recording holds the catalog; the source's reason why
		 * there is none, with what it stops. */
		*cause = xasprintf("%s: cannot record: %s", s->opts.record,
		    why);
		free(why);
		return (error);
	}
	rc = xcalloc(sizeof session_frame_constants /
	    sizeof session_frame_constants[0] + s->nconsts, sizeof *rc);
	for (name = session_frame_constants; *name != NULL; name++) {
		if (s->src->ops->constant != NULL &&
		    s->src->ops->constant(s->src, *name, &rc[n].value) == 0)
			rc[n++].name = xstrdup(*name);
	}
	for (i = 0; i < s->nconsts; i++) {
		rc[n].name = xstrdup(s->consts[i].name);
		session_constant(s, rc[n].name, &rc[n].value, NULL);
		n++;
	}
	p.path = s->opts.record;
	p.label = session_label(s);
	p.topo = &s->topo;
	p.sel = s->sel;
	p.consts = rc;
	p.nconsts = n;
	p.epoch_ns = clock_wall(&s->clock, 0);
	p.interval_ns = (uint64_t)(s->interval * 1e9 + 0.5);
	p.now = clock_now(&s->clock);
	p.ring = s->opts.ring;
	error = session_record_open(&p, &s->rec, cause);
	for (i = 0; i < n; i++)
		free(rc[i].name);
	free(rc);
	return (error);
}

/* An engine over cat and sel with the session's metrics and every
 * constant: --const, then the frame's. */
static struct engine *
session_engine_make(const struct session *s, const struct catalog *cat,
    const struct selection *sel)
{
	struct engine	*e;
	const char	*name;
	double		 v;
	size_t		 i;

	e = engine_new(cat, sel, s->topo.timebase_hz, s->defs, s->ndefs,
	    NULL, NULL);
	/* Also those no formula names yet: the outputs list them. */
	for (i = 0; i < s->nconsts; i++)
		engine_set_constant(e, s->consts[i].name, s->consts[i].value);
	for (i = 0; (name = engine_constant_name(e, i)) != NULL; i++) {
		if (session_constant(s, name, &v, NULL) == SESSION_CONST_FRAME)
			engine_set_constant(e, name, v);
	}
	return (e);
}

struct engine *
session_engine_new(const struct session *s)
{
	return (session_engine_make(s, s->catp, s->sel));
}

/* ---- changing the model -------------------------------------------- */

/* A new selection starts from no values, not the old selection's. */
static void
session_raw_resize(struct session *s)
{
	raw_sample_free(&s->rs);
	raw_sample_size(&s->rs, s->sel->ncounters);
}

/*
 * Make sel (against cat, or the current catalog when cat is NULL) the
 * selection: a new engine, the source and the recording told.  All or
 * nothing: on failure the source reads the old selection again and the
 * session is as it was.  Takes sel and cat either way.
 */
static int
session_apply(struct session *s, struct catalog *cat, struct selection *sel,
    char **cause)
{
	struct engine	*e;
	char		*c2 = NULL;
	int		 error;

	e = session_engine_make(s, cat != NULL ? cat : s->catp, sel);
	error = s->src->ops->select(s->src, sel, cause);
	if (error == 0 && s->rec != NULL) {
		session_record_topology(s->rec, &s->topo);
		error = session_record_select(s->rec, sel, cause);
	}
	if (error != 0) {
		if (s->engine != NULL &&
		    s->src->ops->select(s->src, s->sel, &c2) != 0)
			free(c2);
		engine_free(e);
		selection_clear(sel);
		free(sel);
		catalog_free(cat);
		return (error);
	}
	engine_free(s->engine);
	s->engine = e;
	selection_clear(s->sel);
	free(s->sel);
	s->sel = sel;
	if (cat != NULL) {
		catalog_free(s->cat);
		s->cat = cat;
		s->catp = cat;
		session_label_catalog(s);
	}
	session_raw_resize(s);
	s->generation++;
	/* Whether the recording has yet another selection next. */
	session_state(s, NULL);
	return (0);
}

/* Add spec to sel; a cause says "FLAGSPEC: why". */
static int
session_pick(const struct session *s, const struct catalog *cat,
    struct selection *sel, const char *flag, const char *spec, int event,
    char **cause)
{
	char	*why = NULL;
	int	 error;

	if ((error = selection_add(sel, cat, &s->topo, spec, event,
	    &why)) != 0) {
		*cause = xasprintf("%s%s: %s", flag, spec, why);
		free(why);
	}
	return (error);
}

/* Whether sel reads partitions (an @lpar pick). */
static int
session_has_lpar(const struct selection *sel)
{
	size_t	 i;

	for (i = 0; i < sel->npicks; i++) {
		if (sel->picks[i].domain == SEL_DOMAIN_LPAR)
			return (1);
	}
	return (0);
}

/*
 * Ask the source for the frame's partitions, once: only a selection
 * that reads them pays for finding them.  Returns whether the topology
 * now lists what the source found.
 */
static int
session_lpars(struct session *s)
{
	char	*why = NULL;

	if (s->lpars_asked || s->src->ops->partitions == NULL)
		return (0);
	s->lpars_asked = 1;
	if (s->src->ops->partitions(s->src, &why) != 0 ||
	    s->src->ops->topology(s->src, &s->topo, &why) != 0) {
		session_notify(s, xasprintf("the frame's partitions: %s",
		    why));
		return (0);
	}
	return (1);
}

/* The picks as a selection against cat and the topology. */
static int
session_picks(struct session *s, const struct catalog *cat,
    const struct session_pick *picks, size_t n, struct selection **selp,
    char **cause)
{
	struct selection	*sel;
	size_t			 i;
	int			 error = 0;

	sel = xcalloc(1, sizeof *sel);
	for (i = 0; i < n && error == 0; i++)
		error = session_pick(s, cat, sel, "", picks[i].spec,
		    picks[i].event, cause);
	if (error != 0) {
		selection_clear(sel);
		free(sel);
		return (error);
	}
	*selp = sel;
	return (0);
}

int
session_select(struct session *s, const struct session_pick *picks,
    size_t n, char **cause)
{
	struct selection	*sel = NULL;
	int			 error;

	error = session_picks(s, s->catp, picks, n, &sel, cause);
	/* Partitions are found when a pick reads them, or may name one
	 * that was not looked for yet. */
	if ((error != 0 || session_has_lpar(sel)) && session_lpars(s)) {
		if (error == 0) {
			selection_clear(sel);
			free(sel);
		} else {
			free(*cause);
			*cause = NULL;
		}
		error = session_picks(s, s->catp, picks, n, &sel, cause);
	}
	if (error != 0)
		return (error);
	return (session_apply(s, NULL, sel, cause));
}

/*
 * The picks of the selection resolved again against cat (NULL: the
 * current catalog) and the topology, and made the selection.
 */
static int
session_reresolve(struct session *s, struct catalog *cat, char **cause)
{
	struct selection	*sel;
	const struct sel_pick	*pk;
	size_t			 i;
	int			 error = 0;

	sel = xcalloc(1, sizeof *sel);
	for (i = 0; i < s->sel->npicks && error == 0; i++) {
		pk = &s->sel->picks[i];
		error = selection_add(sel, cat != NULL ? cat : s->catp,
		    &s->topo, pk->spec, pk->kind == SEL_EVENT, cause);
	}
	if (error != 0) {
		selection_clear(sel);
		free(sel);
		catalog_free(cat);
		return (error);
	}
	return (session_apply(s, cat, sel, cause));
}

/*
 * The source said its partitions changed with the sample it read (one
 * stopped answering, or was found again): take its new list and resolve
 * the picks again so that @lpar picks read the partitions there are.
 * Returns 1 when the selection was rebuilt; a pick that can no longer be
 * resolved leaves the selection as it was and says why.
 */
static int
session_lpars_changed(struct session *s)
{
	char	*why = NULL;

	if (s->src->ops->topology(s->src, &s->topo, &why) != 0) {
		free(why);
		return (0);
	}
	if (!session_has_lpar(s->sel))
		return (0);
	if (session_reresolve(s, NULL, &why) != 0) {
		snprintf(s->note, sizeof s->note, "the partitions changed: "
		    "%s", why);
		free(why);
		return (0);
	}
	snprintf(s->note, sizeof s->note, "the partitions changed: now %zu; "
	    "baselines restarted", s->topo.nlpars);
	return (1);
}

/*
 * The catalog changed under us (a new version in a result buffer, or a
 * jump across a reload in a replay): fetch and parse it again, resolve
 * the picks anew by name and start a new engine, so that no delta spans
 * the change.
 */
static int
session_reload_catalog(struct session *s, uint64_t version, char **cause)
{
	struct catalog		*cat;
	const void		*img;
	size_t			 len;
	uint64_t		 old = s->catp->version;
	int			 error;

	if ((error = s->src->ops->catalog(s->src, &img, &len, cause)) != 0 ||
	    (error = catalog_parse(img, len, s->topo.interface, &cat,
	    cause)) != 0)
		return (error);
	if (s->rec != NULL && (error = session_record_catalog(s->rec, img, len,
	    cause)) != 0) {
		catalog_free(cat);
		return (error);
	}
	/* The source looked for the partitions again with the catalog. */
	if (s->lpars_asked && (error = s->src->ops->topology(s->src,
	    &s->topo, cause)) != 0) {
		catalog_free(cat);
		return (error);
	}
	if ((error = session_reresolve(s, cat, cause)) != 0)
		return (error);
	snprintf(s->note, sizeof s->note, "catalog version changed from "
	    "%llu to %llu: catalog reloaded, baselines restarted",
	    (unsigned long long)old, (unsigned long long)version);
	return (0);
}

/* The same, saying what set it off when it fails (a source reopened
 * after --user may no longer be allowed what the first open was). */
int
session_reload(struct session *s, uint64_t version, char **cause)
{
	uint64_t	 old = s->catp->version;
	char		*why;
	int		 error;

	if ((error = session_reload_catalog(s, version, cause)) != 0 &&
	    cause != NULL && *cause != NULL) {
		why = *cause;
		*cause = xasprintf("after the catalog version changed from "
		    "%llu to %llu: %s",
		    (unsigned long long)old, (unsigned long long)version, why);
		free(why);
	}
	return (error);
}

/* The recording changed the selection here: follow it. */
static int
session_follow(struct session *s, char **cause)
{
	struct selection	*sel;
	int			 error;

	sel = xcalloc(1, sizeof *sel);
	if ((error = s->ctl->selection(s->src, s->catp, &s->topo, sel,
	    cause)) != 0) {
		selection_clear(sel);
		free(sel);
		return (error);
	}
	return (session_apply(s, NULL, sel, cause));
}

/* ---- sampling ------------------------------------------------------ */

/* Read every selected counter now into the raw sample; record it. */
static int
session_read(struct session *s, char **cause)
{
	int	 error;

	if ((error = s->src->ops->sample(s->src, clock_now(&s->clock),
	    &s->rs, cause)) != 0)
		return (error);
	if (s->rec == NULL ||
	    (error = session_record_sample(s->rec, &s->rs, cause)) == 0)
		return (0);
	if (!session_record_ring(s->rec))
		return (error);
	/* A ring that cannot go on stops alone, said once with the next
	 * snapshot: the samples are still served and shown. */
	snprintf(s->note, sizeof s->note, "%s; the recording stops, "
	    "sampling goes on", *cause);
	free(*cause);
	*cause = NULL;
	return (0);
}

/* Hand a new snapshot to the endpoint, and a waiting note to the first
 * snapshot that will be shown. */
static void
session_publish(struct session *s, struct engine_snapshot *snap)
{
	struct frame_caps	 caps;

	if (s->serve != NULL) {
		frame_ident_caps(&s->topo, s->catp->nerrors == 0, &caps);
		serve_publish(s->serve, s->engine, s->sel, s->generation,
		    s->catp->version, &s->rs, snap,
		    clock_wall(&s->clock, s->rs.now), &caps);
	}
	if (s->note[0] != '\0' && snap->seq > 0) {
		if (snap->error[0] == '\0')
			snprintf(snap->error, sizeof snap->error, "%s",
			    s->note);
		s->note[0] = '\0';
	}
}

/*
 * The sample read said that the model changed under it: a new catalog
 * version (reload, a new engine) or new partitions (the picks resolved
 * again).  The values read were for the old selection: read the new
 * one's.
 */
static int
session_sample_changed(struct session *s, unsigned *changed, char **cause)
{
	struct raw_sample	*rs = &s->rs;
	int			 error;

	if (rs->catalog_version != 0 &&
	    rs->catalog_version != s->catp->version) {
		if ((error = session_reload(s, rs->catalog_version,
		    cause)) != 0)
			return (error);
		*changed |= SESSION_CHANGED_ENGINE;
	} else if (rs->lpars_changed && s->lpars_asked &&
	    session_lpars_changed(s))
		*changed |= SESSION_CHANGED_SELECTION;
	else
		return (0);
	return (session_read(s, cause));
}

static int
session_sample_one(struct session *s, struct session_result *res,
    char **cause)
{
	struct raw_sample	*rs = &s->rs;
	int			 error;

	if (s->serve != NULL) {
		/* The server's thread starts with the first sample, after
		 * any change of user (--user): it never runs as root. */
		if ((error = serve_run(s->serve, cause)) != 0)
			return (error);
		serve_sample_begin(s->serve);
	}
	if (s->follow) {
		if ((error = session_follow(s, cause)) != 0)
			return (error);
		res->changed |= SESSION_CHANGED_SELECTION;
	}
	rs->error[0] = '\0';
	rs->calls = rs->naive_calls = 0;
	rs->lpars_changed = 0;
	if ((error = session_read(s, cause)) != 0 ||
	    (error = session_sample_changed(s, &res->changed, cause)) != 0)
		return (error);
	res->snap = engine_update_reuse(s->engine, rs, s->spare);
	s->spare = NULL;
	session_publish(s, res->snap);
	return (0);
}

int
session_sample(struct session *s, struct session_result *res, char **cause)
{
	int	 error;

	memset(res, 0, sizeof *res);
	error = session_sample_one(s, res, cause);
	session_state(s, res);
	return (error);
}

void
session_recycle(struct session *s, struct engine_snapshot *snap)
{
	engine_snapshot_free(s->spare);
	s->spare = snap;
}

/* ---- the interval -------------------------------------------------- */

void
session_set_interval(struct session *s, double seconds)
{
	s->interval = seconds;
	/* A replay: the recorded gaps, scaled to the interval asked for. */
	if (s->ctl != NULL)
		s->ctl->set_speed(s->src, session_replay_interval(s) /
		    seconds);
}

double
session_interval(const struct session *s)
{
	return (s->interval);
}

/* ---- opening and closing ------------------------------------------- */

/* The topology, and the catalog: parsed from the source's image, else
 * the model the source built from sysfs. */
static int
session_load_catalog(struct session *s, char **cause)
{
	const void	*img;
	size_t		 len;
	int		 error;

	if ((error = s->src->ops->topology(s->src, &s->topo, cause)) != 0)
		return (error);
	error = s->src->ops->catalog(s->src, &img, &len, cause);
	if (error == 0)
		error = catalog_parse(img, len, s->topo.interface, &s->cat,
		    cause);
	if (error == 0)
		s->catp = s->cat;
	else if (s->src->ops->model != NULL &&
	    s->src->ops->model(s->src, &s->catp) == 0) {
		/* No catalog image (a PMU other than hv_24x7, or one that
		 * cannot be read): the events sysfs lists serve instead. */
		if (error != -HV_ENOENT)
			session_notify(s, xasprintf("%s; using the events "
			    "sysfs lists", *cause));
		free(*cause);
		*cause = NULL;
	} else
		return (error);
	session_label_catalog(s);
	if (s->catp->nerrors > 0)
		session_notify(s, xasprintf("the catalog has %zu problems "
		    "(hvcat check shows them); using what can be trusted",
		    s->catp->nerrors));
	return (0);
}

int
session_open(struct session **out, const struct session_opts *o,
    char **cause)
{
	struct session	*s;
	int		 error;

	*out = s = xcalloc(1, sizeof *s);
	s->opts = *o;
	s->src = o->src;
	s->ctl = source_control(s->src);
	s->interval = o->interval;
	s->sel = xcalloc(1, sizeof *s->sel);
	clock_init(&s->clock, o->virtual_clock, SESSION_VIRTUAL_EPOCH);
	if (s->ctl != NULL)
		session_replay_start(s);
	if ((error = session_parse_consts(s, cause)) != 0 ||
	    (error = session_load_catalog(s, cause)) != 0 ||
	    (error = session_metrics_load(s, cause)) != 0)
		return (error);
	session_metrics_check(s);
	return (0);
}

/* --serve: the endpoint listens before the first sample, which starts
 * its thread. */
static int
session_serve(struct session *s, char **cause)
{
	struct serve_addr	 sa;
	struct serve_info	 si;
	struct serve_web	*web = NULL;
	int			 error;

	if ((error = serve_addr_parse(s->opts.serve, &sa, cause)) != 0)
		return (error);
	si.source = s->src->ops->name;
	si.source_label = s->src->label;
	si.timebase_hz = s->topo.timebase_hz;
	si.ident = s->topo.ident;
	/* The frame's own partition id where known, else the source's. */
	si.lpar_self = frame_ident_known(&s->topo.ident) &&
	    s->topo.ident.lpar_id >= 0 ? (unsigned)s->topo.ident.lpar_id :
	    s->topo.lpar_self;
	si.per_vcpu = s->opts.serve_vcpus;
	frame_ident_caps(&s->topo, s->catp != NULL && s->catp->nerrors == 0,
	    &si.caps);
	if (s->opts.web_config != NULL &&
	    (error = serve_web_load(s->opts.web_config, &web, cause)) != 0)
		return (error);
	if ((error = serve_open_web(&sa, &si, web, &s->serve, cause)) != 0)
		return (error);
	session_notify(s, xasprintf("serving metrics at %s%s",
	    serve_url(s->serve), web == NULL || web->cfg->nusers == 0 ? "" :
	    " (Basic auth)"));
	return (0);
}

int
session_web_reload(struct session *s, char **cause)
{
	struct serve_web	*web;
	int			 error;

	if (s->serve == NULL || s->opts.web_config == NULL) {
		*cause = xasprintf("%s", "no --web-config to read again");
		return (-HV_EUSAGE);
	}
	if ((error = serve_web_load(s->opts.web_config, &web, cause)) != 0)
		return (error);
	return (serve_web_reload(s->serve, web, cause));
}

/* -g and -e, in that order; a wrong one is a usage error. */
static int
session_given(struct session *s, struct selection *sel, char **cause)
{
	size_t	 i;

	for (i = 0; i < s->opts.ngroups; i++) {
		if (session_pick(s, s->catp, sel, "-g ", s->opts.groups[i], 0,
		    cause) != 0)
			return (-HV_EUSAGE);
	}
	for (i = 0; i < s->opts.nevents; i++) {
		if (session_pick(s, s->catp, sel, "-e ", s->opts.events[i], 1,
		    cause) != 0)
			return (-HV_EUSAGE);
	}
	return (0);
}

int
session_start(struct session *s, char **cause)
{
	struct selection	*sel;
	int			 error;

	sel = xcalloc(1, sizeof *sel);
	error = session_given(s, sel, cause);
	/* Partitions are found when a pick reads them, or may name one
	 * that was not looked for yet. */
	if ((error != 0 || session_has_lpar(sel)) && session_lpars(s)) {
		if (error != 0) {
			free(*cause);
			*cause = NULL;
		}
		selection_clear(sel);
		error = session_given(s, sel, cause);
	}
	/* A replay shows what was recorded unless told otherwise. */
	if (error == 0 && sel->npicks == 0 && s->ctl != NULL)
		error = s->ctl->selection(s->src, s->catp, &s->topo, sel,
		    cause);
	if (error == 0 && sel->npicks == 0)
		error = session_overview(s, sel, cause);
	if (error != 0) {
		selection_clear(sel);
		free(sel);
		return (error);
	}
	if ((error = session_apply(s, NULL, sel, cause)) != 0)
		return (error);
	if (s->opts.record != NULL &&
	    (error = session_start_recording(s, cause)) != 0) {
		if (s->opts.ring == 0)
			return (error);
		/* A service's ring is not what it serves: said with the
		 * first snapshot, and the run goes on. */
		snprintf(s->note, sizeof s->note, "%s; nothing is recorded, "
		    "sampling goes on", *cause);
		s->rec_lost = 1;
		free(*cause);
		*cause = NULL;
	}
	if (s->opts.serve != NULL && (error = session_serve(s, cause)) != 0)
		return (error);
	return (0);
}

int
session_close(struct session *s, char **cause)
{
	size_t	 i;
	int	 error;

	if (s == NULL)
		return (0);
	/* Closing writes the END record: the recording is whole. */
	error = session_record_close(s->rec, cause);
	serve_stop(s->serve);
	engine_snapshot_free(s->spare);
	engine_free(s->engine);
	selection_clear(s->sel);
	free(s->sel);
	raw_sample_free(&s->rs);
	session_metrics_free(s);
	for (i = 0; i < s->nconsts; i++)
		free(s->consts[i].name);
	free(s->consts);
	catalog_free(s->cat);
	free(s->catalog_label);
	for (i = 0; i < s->nnotices; i++)
		free(s->notices[i]);
	free(s->notices);
	source_close(s->src);
	free(s);
	return (error);
}

/* ---- the model ----------------------------------------------------- */

const struct catalog *
session_catalog(const struct session *s)
{
	return (s->catp);
}

const char *
session_catalog_label(const struct session *s)
{
	return (s->catalog_label);
}

const struct topology *
session_topology(const struct session *s)
{
	return (&s->topo);
}

const struct selection *
session_selection(const struct session *s)
{
	return (s->sel);
}

const struct engine *
session_engine(const struct session *s)
{
	return (s->engine);
}

const struct engine_metric_def *
session_metrics(const struct session *s)
{
	return (s->defs);
}

size_t
session_nmetrics(const struct session *s)
{
	return (s->ndefs);
}

const char *
session_problem(const struct session *s, size_t i)
{
	return (i < s->nproblems ? s->problems[i] : "");
}

size_t
session_nproblems(const struct session *s)
{
	return (s->nproblems);
}

const char *
session_notice(const struct session *s, size_t i)
{
	return (i < s->nnotices ? s->notices[i] : "");
}

size_t
session_nnotices(const struct session *s)
{
	return (s->nnotices);
}

const struct raw_sample *
session_raw(const struct session *s)
{
	return (&s->rs);
}

const char *
session_kind(const struct session *s)
{
	return (s->src->ops->name);
}

const char *
session_label(const struct session *s)
{
	return (s->src->label != NULL ? s->src->label : s->src->ops->name);
}

const char *
session_calls_word(const struct session *s)
{
	return (s->src->calls != NULL ? s->src->calls : "hcalls");
}

int
session_recording(const struct session *s)
{
	return (s->rec != NULL);
}

/* ---- time ---------------------------------------------------------- */

int
session_clock_virtual(const struct session *s)
{
	return (s->clock.virtual_);
}

uint64_t
session_now(struct session *s)
{
	return (clock_now(&s->clock));
}

uint64_t
session_wall(struct session *s, uint64_t t)
{
	return (clock_wall(&s->clock, t));
}

int
session_sleep_until(struct session *s, uint64_t t, int fd)
{
	int	 r;

	r = clock_sleep_until_fd(&s->clock, t, fd);
	return (fd < 0 ? 0 : r);
}
