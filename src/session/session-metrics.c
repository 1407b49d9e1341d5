/*
 * The session's metric definitions: PAPI event-definition files and perf's
 * metric JSON (-m, then every file of the configuration's metrics.d, the
 * format told by content), hvtop's own per-core metrics after them, and
 * the metrics of those
 * files and of the catalog that no selection can ever compute, each said
 * once with its place.  Also the one resolver of formula names used
 * outside the engine (here and by the overview).  Prints nothing: what a
 * file's parser says becomes a notice.
 */
#include "config.h"

#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "engine/engine.h"
#include "session/session-int.h"
#include "formula/formula.h"
#include "metrics/papi.h"
#include "metrics/perfjson.h"
#include "sys/file.h"
#include "util/hverr.h"
#include "sys/settings-file.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define SESSION_METRIC_FILE_MAX	(16 << 20)

/* ---- loading ------------------------------------------------------- */

static void
session_metrics_add_def(struct session *s, const struct papi_event *ev,
    const char *path)
{
	struct engine_metric_def	*d;
	int				 rate;

	rate = ev->type == PAPI_TYPE_PS || ev->type == PAPI_TYPE_ADD_PS;
	/* session_metrics_add() made room for the whole file. */
	s->defpos[s->ndefs].line = ev->line;
	s->defpos[s->ndefs].column = ev->column;
	d = &s->defs[s->ndefs++];
	d->name = ev->ident != NULL ? ev->ident : ev->name;
	d->text = ev->expr;
	d->unit = rate ? "/s" : "";
	d->desc = ev->sdesc != NULL ? ev->sdesc : ev->ldesc;
	d->origin = path;
	d->group = NULL;
	d->replaces = 0;
}

/* The definitions of model m that apply to this frame's PMUs. */
static void
session_metrics_add(struct session *s, char *path, struct papi_model *m)
{
	const struct papi_event		*ev;
	const struct papi_section	*sec;
	const char			*pmu, *cpu;
	size_t				 i;

	cpu = s->topo.interface == 1 ? "POWER8" : "POWER9";
	s->papi = xreallocarray(s->papi, s->npapi + 1, sizeof *s->papi);
	s->papi[s->npapi++] = m;
	s->paths = xreallocarray(s->paths, s->npaths + 1, sizeof *s->paths);
	s->paths[s->npaths++] = path;
	/* Room for every event at once: growing by one is quadratic. */
	s->defs = xreallocarray(s->defs, s->ndefs + m->nevents + 1,
	    sizeof *s->defs);
	s->defpos = xreallocarray(s->defpos, s->ndefs + m->nevents + 1,
	    sizeof *s->defpos);
	for (i = 0; i < m->nevents; i++) {
		ev = &m->events[i];
		sec = &m->sections[ev->section];
		/* Sections for other PMUs do not apply here. */
		if (papi_model_matches(sec, "hv_24x7"))
			pmu = "hv_24x7";
		else if (papi_model_matches(sec, cpu))
			pmu = cpu;
		else
			continue;
		/* A later definition of the same name wins, as in PAPI. */
		if (papi_model_find(m, pmu, ev->name) != ev || ev->expr == NULL)
			continue;
		session_metrics_add_def(s, ev, path);
	}
}

/*
 * The metrics of a perf metric JSON file: each that hvtop can compute
 * becomes a definition; each other one is a notice with its reason.
 */
static int
session_metrics_perfjson(struct session *s, const char *path,
    const void *buf, size_t len, char **cause)
{
	const struct perfjson_metric	*pm;
	struct perfjson_model		*m = NULL;
	struct engine_metric_def	*d;
	char				*why = NULL, *origin;
	size_t				 i;
	int				 error;

	if ((error = perfjson_parse(buf, len, &m, &why)) != 0) {
		*cause = xasprintf("%s: %s", path, why);
		free(why);
		return (error);
	}
	origin = xstrdup(path);
	s->perfjson = xreallocarray(s->perfjson, s->nperfjson + 1,
	    sizeof *s->perfjson);
	s->perfjson[s->nperfjson++] = m;
	s->paths = xreallocarray(s->paths, s->npaths + 1, sizeof *s->paths);
	s->paths[s->npaths++] = origin;
	s->defs = xreallocarray(s->defs, s->ndefs + m->nloaded + 1,
	    sizeof *s->defs);
	s->defpos = xreallocarray(s->defpos, s->ndefs + m->nloaded + 1,
	    sizeof *s->defpos);
	for (i = 0; i < m->nmetrics; i++) {
		pm = &m->metrics[i];
		if (pm->formula == NULL) {
			session_notify(s, xasprintf("%s: %s (skipped)", path,
			    pm->why));
			continue;
		}
		s->defpos[s->ndefs].line = pm->line;
		s->defpos[s->ndefs].column = pm->column;
		d = &s->defs[s->ndefs++];
		memset(d, 0, sizeof *d);
		d->name = pm->name;
		d->text = pm->formula;
		d->unit = pm->unit;
		d->desc = pm->desc;
		d->origin = origin;
		d->group = pm->group;
		/* hvtop's POWER9 and POWER10 catalogs hold perf's metrics as
		 * formulas: perf's own definition is the one asked for. */
		d->replaces = 1;
	}
	return (0);
}

/*
 * Load one metric file: perf's metric JSON when its content (or its
 * name) says so, else PAPI event definitions.  Its parser's complaints
 * become notices and its good lines are used; 0, or a negative code with
 * *cause set when the file cannot be read or parsed at all.
 */
static int
session_metrics_file(struct session *s, const char *path, char **cause)
{
	struct papi_model	*m = NULL;
	void			*buf;
	size_t			 len, i, n;
	char			*why = NULL;
	int			 error;

	error = file_read(path, SESSION_METRIC_FILE_MAX, &buf, &len, cause);
	if (error != 0)
		return (error);
	n = strlen(path);
	if (perfjson_detect(buf, len) || (n >= 5 &&
	    strcmp(path + n - 5, ".json") == 0)) {
		error = session_metrics_perfjson(s, path, buf, len, cause);
		free(buf);
		return (error);
	}
	/* A model comes back even with errors: its good lines are used. */
	error = papi_parse(buf, len, &m, &why);
	free(buf);
	if (m == NULL) {
		*cause = xasprintf("%s: %s", path, why != NULL ? why :
		    "cannot be read as PAPI event definitions");
		free(why);
		return (error != 0 ? error : -HV_EFORMAT);
	}
	free(why);
	for (i = 0; i < m->ndiags; i++)
		session_notify(s, xasprintf("%s: %s", path,
		    m->diags[i].text));
	if (m->nerrors + m->nwarnings > m->ndiags)
		session_notify(s, xasprintf("%s: %zu more problems", path,
		    m->nerrors + m->nwarnings - m->ndiags));
	session_metrics_add(s, xstrdup(path), m);
	return (0);
}

static int
session_cmp_str(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

/* Every file of the configuration's metrics.d, in name order; a file
 * that cannot be read is a notice, a missing directory nothing. */
static void
session_metrics_dir(struct session *s)
{
	struct dirent	*de;
	char		*conf, *dir, **names = NULL, *path, *cause = NULL;
	size_t		 n = 0, i;
	int		 error;
	DIR		*d;

	if ((conf = settings_file_config_dir()) == NULL)
		return;
	dir = xasprintf("%s/metrics.d", conf);
	free(conf);
	if ((d = opendir(dir)) == NULL) {
		free(dir);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		names = xreallocarray(names, n + 1, sizeof *names);
		names[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (n > 0)
		qsort(names, n, sizeof *names, session_cmp_str);
	for (i = 0; i < n; i++) {
		path = xasprintf("%s/%s", dir, names[i]);
		/* A file that went away meanwhile is not worth a word. */
		if ((error = session_metrics_file(s, path, &cause)) != 0 &&
		    error != -ENOENT)
			session_notify(s, cause);
		else
			free(cause);
		cause = NULL;
		free(path);
		free(names[i]);
	}
	free(names);
	free(dir);
}

/*
 * hvtop's own metrics, one text per spelling of the core's events
 * (POWER9 and POWER10 CPM_, POWER8 HPM_).  The busy share is of the
 * constant clock, both of whose counts are on it: the processor's cycles
 * (CPM_NON_IDLE_PCYC) follow a clock that may run faster than CPM_CCYC,
 * and over it would pass 100 %.  Every core group holds the non-idle
 * cycles and instructions.
 */
static const struct session_own {
	const char	*name, *text, *unit, *desc;
} session_own[] = {
	{ SESSION_METRIC_BUSY,
	  "100 * (CPM_CCYC - CPM_0THRD_NON_IDLE_CCYC) / CPM_CCYC", "%",
	  "Share of the core's cycles in which a thread ran (not idle)" },
	{ SESSION_METRIC_BUSY,
	  "100 * (HPM_CCYC - HPM_0THRD_NON_IDLE_CCYC) / HPM_CCYC", "%",
	  "Share of the core's cycles in which a thread ran (not idle)" },
	{ SESSION_METRIC_IPC, "CPM_NON_IDLE_INST / CPM_NON_IDLE_PCYC", "",
	  "Instructions per non-idle cycle of the core" },
	{ SESSION_METRIC_IPC, "HPM_NON_IDLE_INST / HPM_NON_IDLE_PCYC", "",
	  "Instructions per non-idle cycle of the core" },
};

/* Whether every name text reads is an event of cat. */
static int
session_own_fits(const struct catalog *cat, const char *text)
{
	struct session_resolver	 r;
	struct formula		*f;
	char			*why = NULL;
	size_t			 i;
	int			 ok;

	memset(&r, 0, sizeof r);
	r.cat = cat;
	if (formula_compile(text, FORMULA_AUTO, NULL, session_resolve, &r, &f,
	    &why) != 0) {
		free(why);
		free(r.events);
		return (0);
	}
	for (i = 0, ok = 1; ok && i < formula_noperands(f); i++)
		ok = formula_operand(f, i)->kind == FORMULA_EVENT;
	formula_free(f);
	free(r.events);
	return (ok);
}

/* Whether a metric file or the catalog already defines name. */
static int
session_own_taken(const struct session *s, const char *name)
{
	size_t	 i;

	if (catalog_find_formula(s->catp, name) != NULL ||
	    catalog_find_event(s->catp, name, 0) != NULL)
		return (1);
	for (i = 0; i < s->ndefs; i++) {
		if (strcmp(s->defs[i].name, name) == 0)
			return (1);
	}
	return (0);
}

/* After the files': each of hvtop's metrics in its first spelling this
 * catalog has, unless a file or the catalog has one of that name. */
static void
session_metrics_own(struct session *s)
{
	const struct session_own	*o;
	struct engine_metric_def	*d;
	size_t				 i, n;

	n = sizeof session_own / sizeof session_own[0];
	s->defs = xreallocarray(s->defs, s->ndefs + n + 1, sizeof *s->defs);
	s->defpos = xreallocarray(s->defpos, s->ndefs + n + 1,
	    sizeof *s->defpos);
	for (i = 0; i < n; i++) {
		o = &session_own[i];
		if (session_own_taken(s, o->name) ||
		    !session_own_fits(s->catp, o->text))
			continue;
		memset(&s->defpos[s->ndefs], 0, sizeof *s->defpos);
		d = &s->defs[s->ndefs++];
		memset(d, 0, sizeof *d);
		d->name = o->name;
		d->text = o->text;
		d->unit = o->unit;
		d->desc = o->desc;
		d->origin = SESSION_METRIC_ORIGIN;
	}
}

int
session_metrics_load(struct session *s, char **cause)
{
	size_t	 i;

	for (i = 0; i < s->opts.nmetric_files; i++) {
		if (session_metrics_file(s, s->opts.metric_files[i],
		    cause) != 0)
			return (-HV_EUSAGE);
	}
	session_metrics_dir(s);
	session_metrics_own(s);
	return (0);
}

void
session_metrics_free(struct session *s)
{
	size_t	 i;

	for (i = 0; i < s->npapi; i++)
		papi_model_free(s->papi[i]);
	free(s->papi);
	for (i = 0; i < s->nperfjson; i++)
		perfjson_model_free(s->perfjson[i]);
	free(s->perfjson);
	for (i = 0; i < s->npaths; i++)
		free(s->paths[i]);
	free(s->paths);
	free(s->defs);
	free(s->defpos);
	for (i = 0; i < s->nproblems; i++)
		free(s->problems[i]);
	free(s->problems);
}

/* ---- resolving names ----------------------------------------------- */

static int
session_cmp_def(const void *a, const void *b)
{
	const struct engine_metric_def *const *x = a, *const *y = b;

	return (strcmp((*x)->name, (*y)->name));
}

static const struct engine_metric_def *
session_resolve_def(const struct session_resolver *r, const char *name)
{
	struct engine_metric_def		 key;
	const struct engine_metric_def		*kp = &key;
	const struct engine_metric_def *const	*p;

	if (r->nbyname == 0)
		return (NULL);
	key.name = name;
	p = bsearch(&kp, r->byname, r->nbyname, sizeof *r->byname,
	    session_cmp_def);
	if (p == NULL)
		return (NULL);
	/* The first of equal names, as the engine's resolver finds it. */
	while (p > r->byname && strcmp(p[-1]->name, name) == 0)
		p--;
	return (*p);
}

int
session_resolve(void *arg, const char *name, struct formula_ref *ref)
{
	struct session_resolver		*r = arg;
	const struct catalog_event	*ev;
	const struct catalog_formula	*cf;
	const struct engine_metric_def	*d;

	if ((ev = catalog_find_event(r->cat, name, 0)) != NULL ||
	    (ev = catalog_find_sysfs(r->cat, name)) != NULL) {
		if (r->nevents == r->cap) {
			r->cap = r->cap * 2 + 8;
			r->events = xreallocarray(r->events, r->cap,
			    sizeof *r->events);
		}
		r->events[r->nevents] = ev;
		ref->kind = FORMULA_EVENT;
		ref->slot = (unsigned)r->nevents++;
		return (0);
	}
	ref->kind = FORMULA_FORMULA;
	ref->notation = FORMULA_AUTO;
	if ((cf = catalog_find_formula(r->cat, name)) != NULL &&
	    cf->formula != NULL) {
		ref->text = cf->formula;
		return (0);
	}
	if ((d = session_resolve_def(r, name)) != NULL) {
		ref->text = d->text;
		return (0);
	}
	if (formula_compile_special(name) >= 0)
		return (-HV_ENOENT);
	ref->kind = FORMULA_CONST;
	ref->slot = 0;
	return (0);
}

/* ---- what no selection can compute --------------------------------- */

/* Why no selection can compute name = text, or NULL when one can. */
static char *
session_metrics_why(struct session_resolver *r, const char *name,
    const char *text)
{
	const struct formula_operand	*op;
	struct formula			*f;
	struct strbuf			 sb = { 0 };
	char				*why = NULL;
	size_t				 i, nev = 0, nconst = 0;

	r->nevents = 0;
	if (formula_compile(text, FORMULA_AUTO, name, session_resolve, r, &f,
	    &why) != 0)
		return (why != NULL ? why : xstrdup("it does not compile"));
	for (i = 0; i < formula_noperands(f); i++) {
		op = formula_operand(f, i);
		if (op->kind == FORMULA_EVENT)
			nev++;
		else if (op->kind == FORMULA_CONST && nconst++ < 3)
			strbuf_addf(&sb, "%s%s", nconst > 1 ? ", " : "",
			    op->name);
	}
	if (nev == 0 && nconst > 0)
		why = xasprintf("it reads no counter: %s%s %s no event or "
		    "formula of this catalog", sb.s, nconst > 3 ? "..." : "",
		    nconst > 1 ? "are" : "is");
	else if (nev == 0)
		why = xstrdup("it reads no counter");
	strbuf_free(&sb);
	formula_free(f);
	return (why);
}

static void
session_problem_add(struct session *s, char *line)
{
	s->problems = xreallocarray(s->problems, s->nproblems + 1,
	    sizeof *s->problems);
	s->problems[s->nproblems++] = line;
}

/* Why a metric of the files cannot be computed, or NULL. */
static char *
session_metrics_def_why(struct session_resolver *r,
    const struct engine_metric_def *d)
{
	/* perf's metric names are apart from its events' (the POWER9
	 * CPM_CS_32MHZ_CYC is both); the file's own references are
	 * inlined. */
	if (!d->replaces && (catalog_find_event(r->cat, d->name, 0) !=
	    NULL || catalog_find_sysfs(r->cat, d->name) != NULL))
		return (xstrdup("the catalog has an event of that name, so "
		    "formulas naming it read the event: rename the metric"));
	if (catalog_find_formula(r->cat, d->name) != NULL && !d->replaces)
		return (xstrdup("the catalog has a formula of that name, so "
		    "formulas naming it use the catalog's: rename the "
		    "metric"));
	return (session_metrics_why(r, d->replaces ? NULL : d->name,
	    d->text));
}

/*
 * Compile every metric (the catalog's and the metric files') against the
 * whole catalog, whatever is selected, and keep one line for each that
 * can never be computed: a cycle, nesting too deep, a name that a catalog
 * event or formula already has, no counter read.
 */
void
session_metrics_check(struct session *s)
{
	const struct catalog_formula	*cf;
	struct session_resolver		 r;
	char				*why;
	size_t				 i;

	memset(&r, 0, sizeof r);
	r.cat = s->catp;
	r.nbyname = s->ndefs;
	r.byname = xcalloc(s->ndefs + 1, sizeof *r.byname);
	for (i = 0; i < s->ndefs; i++)
		r.byname[i] = &s->defs[i];
	/* Stable enough: equal names keep file order by address. */
	if (r.nbyname > 1)
		qsort(r.byname, r.nbyname, sizeof *r.byname,
		    session_cmp_def);
	for (i = 0; i < s->catp->nformulas; i++) {
		cf = &s->catp->formulas[i];
		if (cf->name == NULL || cf->formula == NULL)
			continue;
		if ((why = session_metrics_why(&r, cf->name,
		    cf->formula)) != NULL)
			session_problem_add(s, xasprintf("%s: formula %s: %s",
			    s->catalog_label, cf->name, why));
		free(why);
	}
	for (i = 0; i < s->ndefs; i++) {
		if ((why = session_metrics_def_why(&r, &s->defs[i])) != NULL)
			session_problem_add(s, xasprintf("%s:%lu:%lu: metric "
			    "%s: %s", s->defs[i].origin, s->defpos[i].line,
			    s->defpos[i].column, s->defs[i].name, why));
		free(why);
	}
	free(r.byname);
	free(r.events);
}
