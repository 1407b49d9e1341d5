/*
 * Wiring for the hvtop program: the source, the catalog, the selection
 * (given with -g/-e or the overview), metric files and the engine.  Every
 * problem is printed here with what to do about it; the libraries only
 * return causes.
 */
#include "config.h"

#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalog/catalog.h"
#include "export/export.h"
#include "formula/formula.h"
#include "hvtop.h"
#include "metrics/papi.h"
#include "record/record-file.h"
#include "serve/serve.h"
#include "source/source-replay.h"
#include "util/file.h"
#include "util/hverr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define HVTOP_OVERVIEW_GROUPS	16	/* chip groups the overview takes */
#define HVTOP_METRIC_FILE_MAX	(16 << 20)

/* ---- metric files -------------------------------------------------- */

static void
hvtop_add_papi(struct hvtop *h, const char *path, struct papi_model *m)
{
	const struct papi_event		*ev;
	const struct papi_section	*sec;
	struct engine_metric_def	*d;
	const char			*pmu, *cpu;
	size_t				 i;
	int				 rate;

	cpu = h->topo.interface == 1 ? "POWER8" : "POWER9";

	h->papi = xreallocarray(h->papi, h->npapi + 1, sizeof *h->papi);
	h->papi[h->npapi++] = m;
	/* Room for every event at once: growing by one is quadratic. */
	if (m->nevents > 0) {
		h->defs = xreallocarray(h->defs, h->ndefs + m->nevents,
		    sizeof *h->defs);
		h->defpos = xreallocarray(h->defpos, h->ndefs + m->nevents,
		    sizeof *h->defpos);
	}
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
		if (papi_model_find(m, pmu, ev->name) != ev)
			continue;
		if (ev->expr == NULL)
			continue;
		rate = ev->type == PAPI_TYPE_PS || ev->type == PAPI_TYPE_ADD_PS;
		h->defpos[h->ndefs].line = ev->line;
		h->defpos[h->ndefs].column = ev->column;
		d = &h->defs[h->ndefs++];
		d->name = ev->ident != NULL ? ev->ident : ev->name;
		d->text = ev->expr;
		d->unit = rate ? "/s" : "";
		d->desc = ev->sdesc != NULL ? ev->sdesc : ev->ldesc;
		d->origin = path;
	}
}

/* Load one PAPI event-definition file; problems are reported, not fatal
 * unless the file cannot be read at all. */
static int
hvtop_load_metrics(struct hvtop *h, const char *path, int quiet_missing)
{
	struct papi_model	*m;
	void			*buf;
	size_t			 len, i;
	char			*cause;
	int			 error;

	error = file_read(path, HVTOP_METRIC_FILE_MAX, &buf, &len, &cause);
	if (error != 0) {
		if (!(quiet_missing && error == -ENOENT))
			fprintf(stderr, "hvtop: %s\n", cause);
		free(cause);
		return (-1);
	}
	/* A model comes back even with errors: its good lines are used. */
	cause = NULL;
	m = NULL;
	(void)papi_parse(buf, len, &m, &cause);
	free(buf);
	free(cause);
	if (m == NULL)
		return (-1);
	for (i = 0; i < m->ndiags; i++)
		fprintf(stderr, "hvtop: %s: %s\n", path, m->diags[i].text);
	if (m->nerrors + m->nwarnings > m->ndiags)
		fprintf(stderr, "hvtop: %s: %zu more problems\n", path,
		    m->nerrors + m->nwarnings - m->ndiags);
	hvtop_add_papi(h, path, m);
	return (0);
}

static int
hvtop_cmp_str(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

/* $XDG_CONFIG_HOME/hvtop/metrics.d/, every file in name order. */
static void
hvtop_load_metrics_dir(struct hvtop *h)
{
	struct dirent	*de;
	const char	*base, *home;
	char		*dir, **names = NULL, *path;
	size_t		 n = 0, i;
	DIR		*d;

	if ((base = getenv("XDG_CONFIG_HOME")) != NULL && *base != '\0')
		dir = xasprintf("%s/hvtop/metrics.d", base);
	else if ((home = getenv("HOME")) != NULL && *home != '\0')
		dir = xasprintf("%s/.config/hvtop/metrics.d", home);
	else
		return;
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
		qsort(names, n, sizeof *names, hvtop_cmp_str);
	for (i = 0; i < n; i++) {
		path = xasprintf("%s/%s", dir, names[i]);
		hvtop_load_metrics(h, path, 1);
		free(path);
		free(names[i]);
	}
	free(names);
	free(dir);
}

/* ---- metrics no selection can compute ------------------------------ */

struct hvtop_check {
	const struct catalog		 *cat;
	const struct engine_metric_def	**byname;	/* sorted by name */
	size_t				  n;
};

static int
hvtop_cmp_def(const void *a, const void *b)
{
	const struct engine_metric_def *const *x = a, *const *y = b;

	return (strcmp((*x)->name, (*y)->name));
}

static const struct engine_metric_def *
hvtop_check_def(const struct hvtop_check *c, const char *name)
{
	struct engine_metric_def		 key;
	const struct engine_metric_def		*kp = &key;
	const struct engine_metric_def *const	*p;

	key.name = name;
	p = c->n == 0 ? NULL : bsearch(&kp, c->byname, c->n,
	    sizeof *c->byname, hvtop_cmp_def);
	if (p == NULL)
		return (NULL);
	/* The first of equal names, as the engine's resolver finds it. */
	while (p > c->byname && strcmp(p[-1]->name, name) == 0)
		p--;
	return (*p);
}

/* The engine's resolver as if every catalog event were selected. */
static int
hvtop_check_resolve(void *arg, const char *name, struct formula_ref *ref)
{
	const struct hvtop_check	*c = arg;
	const struct catalog_formula	*cf;
	const struct engine_metric_def	*d;

	if (catalog_find_event(c->cat, name, 0) != NULL ||
	    catalog_find_sysfs(c->cat, name) != NULL) {
		ref->kind = FORMULA_EVENT;
		ref->slot = 0;
		return (0);
	}
	if ((cf = catalog_find_formula(c->cat, name)) != NULL &&
	    cf->formula != NULL) {
		ref->kind = FORMULA_FORMULA;
		ref->text = cf->formula;
		ref->notation = FORMULA_AUTO;
		return (0);
	}
	if ((d = hvtop_check_def(c, name)) != NULL) {
		ref->kind = FORMULA_FORMULA;
		ref->text = d->text;
		ref->notation = FORMULA_AUTO;
		return (0);
	}
	if (formula_compile_special(name) >= 0)
		return (-HV_ENOENT);
	ref->kind = FORMULA_CONST;
	ref->slot = 0;
	return (0);
}

/* Why no selection can compute name = text, or NULL when one can. */
static char *
hvtop_check_one(struct hvtop_check *c, const char *name,
    const char *text)
{
	const struct formula_operand	*op;
	struct formula			*f;
	struct strbuf			 sb = { 0 };
	char				*why = NULL;
	size_t				 i, nev = 0, nconst = 0;

	if (formula_compile(text, FORMULA_AUTO, name, hvtop_check_resolve,
	    c, &f, &why) != 0)
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
hvtop_problem(struct hvtop *h, char *line)
{
	h->problems = xreallocarray(h->problems, h->nproblems + 1,
	    sizeof *h->problems);
	h->problems[h->nproblems++] = line;
}

size_t
hvtop_check_metrics(struct hvtop *h)
{
	const struct catalog		*cat = h->catp;
	const struct catalog_formula	*cf;
	const struct catalog_event	*ev;
	const struct engine_metric_def	*d;
	struct hvtop_check		 c;
	char				*why;
	size_t				 i;

	for (i = 0; i < h->nproblems; i++)
		free(h->problems[i]);
	free(h->problems);
	h->problems = NULL;
	h->nproblems = 0;
	c.cat = cat;
	c.n = h->ndefs;
	c.byname = xcalloc(h->ndefs + 1, sizeof *c.byname);
	for (i = 0; i < h->ndefs; i++)
		c.byname[i] = &h->defs[i];
	/* Stable enough: equal names keep file order by address. */
	if (c.n > 1)
		qsort(c.byname, c.n, sizeof *c.byname, hvtop_cmp_def);
	for (i = 0; i < cat->nformulas; i++) {
		cf = &cat->formulas[i];
		if (cf->name == NULL || cf->formula == NULL)
			continue;
		if ((why = hvtop_check_one(&c, cf->name, cf->formula)) != NULL)
			hvtop_problem(h, xasprintf("%s: formula %s: %s",
			    h->catalog_label, cf->name, why));
		free(why);
	}
	for (i = 0; i < h->ndefs; i++) {
		d = &h->defs[i];
		if ((ev = catalog_find_event(cat, d->name, 0)) != NULL ||
		    (ev = catalog_find_sysfs(cat, d->name)) != NULL)
			why = xasprintf("the catalog has an event of that "
			    "name, so formulas naming it read the event: "
			    "rename the metric");
		else if (catalog_find_formula(cat, d->name) != NULL)
			why = xasprintf("the catalog has a formula of that "
			    "name, so formulas naming it use the catalog's: "
			    "rename the metric");
		else
			why = hvtop_check_one(&c, d->name, d->text);
		if (why != NULL)
			hvtop_problem(h, xasprintf("%s:%lu:%lu: metric %s: %s",
			    d->origin, h->defpos[i].line, h->defpos[i].column,
			    d->name, why));
		free(why);
	}
	free(c.byname);
	return (h->nproblems);
}

/* ---- the overview selection ---------------------------------------- */

struct hvtop_names {
	const struct catalog	*cat;
	const char		**names;
	size_t			 n;
};

/* A resolver that only collects the catalog events a formula reads. */
static int
hvtop_collect(void *arg, const char *name, struct formula_ref *ref)
{
	struct hvtop_names		*c = arg;
	const struct catalog_formula	*f;
	const struct catalog_event	*ev;

	if ((ev = catalog_find_event(c->cat, name, 0)) != NULL) {
		c->names = xreallocarray(c->names, c->n + 1,
		    sizeof *c->names);
		/* The catalog's copy: name dies with the formula's tree. */
		c->names[c->n] = ev->name;
		ref->kind = FORMULA_EVENT;
		ref->slot = (unsigned)c->n++;
		return (0);
	}
	if ((f = catalog_find_formula(c->cat, name)) != NULL) {
		ref->kind = FORMULA_FORMULA;
		ref->text = f->formula;
		ref->notation = FORMULA_AUTO;
		return (0);
	}
	if (formula_compile_special(name) >= 0)
		return (-HV_ENOENT);
	ref->kind = FORMULA_CONST;
	ref->slot = 0;
	return (0);
}

static int
hvtop_group_has(const struct catalog *cat, const struct catalog_group *g,
    const struct catalog_event *ev)
{
	size_t	 i;

	for (i = 0; i < CATALOG_GROUP_SLOTS; i++) {
		if (catalog_group_event(cat, g, i) == ev)
			return (1);
	}
	return (0);
}

static void
hvtop_take_group(const struct catalog_group ***taken, size_t *n,
    const struct catalog_group *g)
{
	size_t	 i;

	for (i = 0; i < *n; i++) {
		if ((*taken)[i] == g)
			return;
	}
	*taken = xreallocarray(*taken, *n + 1, sizeof **taken);
	(*taken)[(*n)++] = g;
}

/* A core group with cycles and instructions, or the first usable one. */
static const struct catalog_group *
hvtop_core_group(const struct catalog *cat)
{
	const struct catalog_group	*g, *first = NULL;
	const struct catalog_event	*ev;
	const char			*name;
	size_t				 i, j;
	int				 cyc, inst;

	for (i = 0; i < cat->ngroups; i++) {
		g = &cat->groups[i];
		if (g->domain == CATALOG_DOMAIN_CHIP || g->record_length == 0)
			continue;
		if (first == NULL)
			first = g;
		cyc = inst = 0;
		for (j = 0; j < CATALOG_GROUP_SLOTS; j++) {
			if ((ev = catalog_group_event(cat, g, j)) == NULL)
				continue;
			name = ev->name;
			if (strstr(name, "CYC") != NULL)
				cyc = 1;
			if (strstr(name, "INST") != NULL)
				inst = 1;
		}
		if (cyc && inst)
			return (g);
	}
	return (first);
}

const char *
hvtop_calls_word(const struct hvtop *h)
{
	return (h->src->calls != NULL ? h->src->calls : "hcalls");
}

/*
 * The overview: the chip groups that hold the operands of the catalog's
 * formulas (the formula's own group when it holds them all), on every
 * chip; and a core group with cycles and instructions on every core.
 */
int
hvtop_overview(struct hvtop *h, char **cause)
{
	const struct catalog		*cat = h->catp;
	const struct catalog_formula	*f;
	const struct catalog_event	*ev;
	const struct catalog_group	**taken = NULL, *g;
	struct hvtop_names		 c;
	struct formula			*fc;
	char				*err, *spec;
	size_t				 i, j, n = 0, nchip;
	int				 all, error = 0;

	for (i = 0; i < cat->nformulas && n < HVTOP_OVERVIEW_GROUPS; i++) {
		f = &cat->formulas[i];
		memset(&c, 0, sizeof c);
		c.cat = cat;
		if (f->formula == NULL || formula_compile(f->formula,
		    FORMULA_AUTO, f->name, hvtop_collect, &c, &fc, &err) != 0) {
			free(err);
			free(c.names);
			continue;
		}
		g = f->group < cat->ngroups ? &cat->groups[f->group] : NULL;
		all = g != NULL && g->domain == CATALOG_DOMAIN_CHIP;
		for (j = 0; all && j < c.n; j++) {
			ev = catalog_find_event(cat, c.names[j], 0);
			all = ev != NULL && hvtop_group_has(cat, g, ev);
		}
		if (all && c.n > 0)
			hvtop_take_group(&taken, &n, g);
		else {
			for (j = 0; j < c.n; j++) {
				ev = catalog_find_event(cat, c.names[j], 0);
				if (ev == NULL || ev->ngroups == 0 ||
				    ev->domain != CATALOG_DOMAIN_CHIP)
					continue;
				hvtop_take_group(&taken, &n,
				    &cat->groups[ev->groups[0]]);
			}
		}
		formula_free(fc);
		free(c.names);
	}
	nchip = n;
	if ((g = hvtop_core_group(cat)) != NULL)
		hvtop_take_group(&taken, &n, g);
	if (n == 0) {
		/* A catalog without formulas: its first chip group. */
		for (i = 0; i < cat->ngroups; i++) {
			if (cat->groups[i].domain == CATALOG_DOMAIN_CHIP &&
			    cat->groups[i].record_length != 0) {
				hvtop_take_group(&taken, &n, &cat->groups[i]);
				break;
			}
		}
	}
	for (i = 0; i < n && error == 0; i++) {
		spec = xstrdup(taken[i]->name);
		error = selection_add(&h->sel, cat, &h->topo, spec, 0, cause);
		free(spec);
		/* Core domains need permission a partition may lack. */
		if (error != 0 && i >= nchip) {
			free(*cause);
			*cause = NULL;
			error = 0;
		}
	}
	free(taken);
	if (error == 0 && h->sel.ncounters == 0) {
		*cause = xstrdup("the catalog has no group to show: pick "
		    "events with -e");
		error = -HV_ENOENT;
	}
	return (error);
}

/* ---- setup --------------------------------------------------------- */

static int
hvtop_build_engine(struct hvtop *h, char **cause)
{
	const char	*eq;
	double		 v;
	size_t		 i;
	char		*name, *end;

	engine_free(h->engine);
	for (i = 0; i < h->nskipped; i++)
		free(h->skipped[i]);
	free(h->skipped);
	h->engine = engine_new(h->catp, &h->sel, h->topo.timebase_hz,
	    h->defs, h->ndefs, &h->skipped, &h->nskipped);
	for (i = 0; i < h->opts.nconsts; i++) {
		eq = strchr(h->opts.consts[i], '=');
		name = xstrndup(h->opts.consts[i],
		    (size_t)(eq - h->opts.consts[i]));
		v = strtod(eq + 1, &end);
		if (*end != '\0' || end == eq + 1) {
			*cause = xasprintf("--const %s: not a number",
			    h->opts.consts[i]);
			free(name);
			return (-HV_EFORMAT);
		}
		engine_set_constant(h->engine, name, v);
		free(name);
	}
	return (h->src->ops->select(h->src, &h->sel, cause));
}

/* Constants the frame knows (PB_Freq ...) unless --const set them. */
static void
hvtop_source_constants(struct hvtop *h)
{
	const char	*name;
	double		 v;
	size_t		 i, j, len;

	if (h->src->ops->constant == NULL)
		return;
	for (i = 0; (name = engine_constant_name(h->engine, i)) != NULL;
	    i++) {
		len = strlen(name);
		for (j = 0; j < h->opts.nconsts; j++) {
			if (strncmp(h->opts.consts[j], name, len) == 0 &&
			    h->opts.consts[j][len] == '=')
				break;
		}
		if (j == h->opts.nconsts &&
		    h->src->ops->constant(h->src, name, &v) == 0)
			engine_set_constant(h->engine, name, v);
	}
}

int
hvtop_reselect(struct hvtop *h, char **cause)
{
	int	 error;

	if ((error = hvtop_build_engine(h, cause)) != 0)
		return (error);
	hvtop_source_constants(h);
	if (h->rec != NULL)
		return (record_file_select(h->rec, &h->sel, cause));
	return (0);
}

/*
 * A replay drives the clock: the recording's epoch for timestamps and its
 * stamps for every sample.  A batch replay runs as fast as it can (a
 * virtual clock); otherwise at the recorded interval over --replay-speed.
 * What is wrong with the file is said once, here.
 */
static void
hvtop_replay_start(struct hvtop *h)
{
	uint64_t	 epoch = source_replay_epoch(h->src);
	uint64_t	 interval = source_replay_interval(h->src);
	size_t		 i;

	clock_init(&h->clock, h->opts.batch && h->opts.replay_speed == 0,
	    epoch);
	h->clock.epoch_ns = epoch;
	if (h->opts.replay_speed > 0)
		source_replay_set_speed(h->src, h->opts.replay_speed);
	else if (h->opts.delay_set && !h->opts.batch && interval > 0)
		/* -d on screen: the recorded gaps scaled to that interval. */
		source_replay_set_speed(h->src, (double)interval / 1e9 /
		    h->opts.delay);
	h->opts.delay = (interval > 0 ? (double)interval / 1e9 : 1.0) /
	    source_replay_speed(h->src);
	for (i = 0; i < source_replay_ndiags(h->src); i++)
		fprintf(stderr, "hvtop: %s\n", source_replay_diag(h->src, i));
}

/* --serve: the endpoint starts before the first sample. */
static int
hvtop_serve(struct hvtop *h, char **cause)
{
	struct serve_addr	 sa;
	struct serve_info	 si;
	int			 error;

	if ((error = serve_addr_parse(h->opts.serve, &sa, cause)) != 0)
		return (error);
	si.source = h->src->ops->name;
	si.source_label = h->src->label;
	si.timebase_hz = h->topo.timebase_hz;
	if ((error = serve_start(&sa, &si, &h->serve, cause)) != 0)
		return (error);
	fprintf(stderr, "hvtop: serving metrics at %s\n", serve_url(h->serve));
	return (0);
}

/* The header's words for the catalog in use. */
static void
hvtop_label_catalog(struct hvtop *h)
{
	free(h->catalog_label);
	if (h->cat != NULL)
		h->catalog_label = xasprintf("catalog v%llu (%.8s)",
		    (unsigned long long)h->cat->version, h->cat->build_time);
	else
		h->catalog_label = xstrdup("events from sysfs");
}

/* clock=virtual in the -O/--sim list, the last clock= winning as every
 * other key does. */
static int
hvtop_virtual_clock(const char *args)
{
	const char	*p = args;
	int		 virt = 0;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, "clock=", 6) == 0)
			virt = strncmp(p + 6, "virtual", 7) == 0 &&
			    (p[13] == ',' || p[13] == '\0');
		if ((p = strchr(p, ',')) != NULL)
			p++;
	}
	return (virt);
}

int
hvtop_setup(struct hvtop *h)
{
	struct strbuf	 args = { 0 };
	const void	*img;
	size_t		 len, i;
	char		*cause = NULL;
	int		 error, virt;

	if (h->opts.source_args != NULL)
		strbuf_adds(&args, h->opts.source_args);
	if (h->opts.catalog != NULL)
		strbuf_addf(&args, "%scatalog=%s", args.len ? "," : "",
		    h->opts.catalog);
	if (h->opts.pmu != NULL)
		strbuf_addf(&args, "%spmu=%s", args.len ? "," : "",
		    h->opts.pmu);
	virt = hvtop_virtual_clock(h->opts.source_args);
	/* A fixed epoch keeps virtual-clock output byte-for-byte stable. */
	clock_init(&h->clock, virt, 1767225600ULL * 1000000000ULL);

	error = source_open(h->opts.source, args.s, h->opts.sysfs_root,
	    &h->src, &cause);
	strbuf_free(&args);
	if (error != 0)
		goto fail;
	if (source_replay_is(h->src))
		hvtop_replay_start(h);
	if ((error = h->src->ops->topology(h->src, &h->topo, &cause)) != 0)
		goto fail;
	error = h->src->ops->catalog(h->src, &img, &len, &cause);
	if (error == 0)
		error = catalog_parse(img, len, h->topo.interface, &h->cat,
		    &cause);
	if (error != 0 && h->src->ops->model != NULL &&
	    h->src->ops->model(h->src, &h->catp) == 0) {
		/* No catalog image (a PMU other than hv_24x7, or one that
		 * cannot be read): the events sysfs lists serve instead. */
		if (error != -HV_ENOENT)
			fprintf(stderr, "hvtop: %s; using the events sysfs "
			    "lists\n", cause);
		free(cause);
		cause = NULL;
	} else if (error != 0)
		goto fail;
	else
		h->catp = h->cat;
	hvtop_label_catalog(h);
	if (h->catp->nerrors > 0)
		fprintf(stderr, "hvtop: the catalog has %zu problems (hvcat "
		    "check shows them); using what can be trusted\n",
		    h->catp->nerrors);
	for (i = 0; i < h->opts.nmetric_files; i++) {
		if (hvtop_load_metrics(h, h->opts.metric_files[i], 0) != 0)
			return (2);
	}
	hvtop_load_metrics_dir(h);
	/* The screens show these themselves; elsewhere they go to stderr. */
	if (hvtop_check_metrics(h) > 0 && (h->opts.batch ||
	    h->opts.list != NULL)) {
		for (i = 0; i < h->nproblems; i++)
			fprintf(stderr, "hvtop: %s\n", h->problems[i]);
	}
	if (h->opts.list != NULL)
		return (0);

	for (i = 0; i < h->opts.ngroups; i++) {
		error = selection_add(&h->sel, h->catp, &h->topo,
		    h->opts.groups[i], 0, &cause);
		if (error != 0) {
			fprintf(stderr, "hvtop: -g %s: %s\n",
			    h->opts.groups[i], cause);
			free(cause);
			return (2);
		}
	}
	for (i = 0; i < h->opts.nevents; i++) {
		error = selection_add(&h->sel, h->catp, &h->topo,
		    h->opts.events[i], 1, &cause);
		if (error != 0) {
			fprintf(stderr, "hvtop: -e %s: %s\n",
			    h->opts.events[i], cause);
			free(cause);
			return (2);
		}
	}
	/* A replay shows what was recorded unless told otherwise. */
	if (h->sel.npicks == 0 && source_replay_is(h->src) &&
	    (error = source_replay_selection(h->src, h->catp, &h->topo,
	    &h->sel, &cause)) != 0)
		goto fail;
	if (h->sel.npicks == 0 && (error = hvtop_overview(h, &cause)) != 0)
		goto fail;
	if ((error = hvtop_reselect(h, &cause)) != 0)
		goto fail;
	if (h->opts.record != NULL && (error = record_file_open(
	    h->opts.record, h->src, &h->topo, &h->sel, h->opts.consts,
	    h->opts.nconsts, clock_wall(&h->clock, 0),
	    (uint64_t)(h->opts.delay * 1e9 + 0.5), clock_now(&h->clock),
	    NULL, &h->rec, &cause)) != 0)
		goto fail;
	if (h->opts.serve != NULL && (error = hvtop_serve(h, &cause)) != 0)
		goto fail;
	return (0);
fail:
	fprintf(stderr, "hvtop: %s\n", cause != NULL ? cause :
	    "cannot start");
	free(cause);
	/* A replay refuses options that make no sense for it: usage. */
	return (error == -HV_EUSAGE &&
	    strncmp(h->opts.source, "replay:", 7) == 0 ? 2 : 1);
}

void
hvtop_teardown(struct hvtop *h)
{
	size_t	 i;
	char	*cause = NULL;

	/* Closing writes the END record: the recording is whole. */
	if (record_file_close(h->rec, &cause) != 0) {
		fprintf(stderr, "hvtop: %s\n", cause);
		free(cause);
	}
	h->rec = NULL;
	serve_stop(h->serve);
	h->serve = NULL;
	engine_snapshot_free(h->spare);
	engine_free(h->engine);
	for (i = 0; i < h->nskipped; i++)
		free(h->skipped[i]);
	free(h->skipped);
	selection_clear(&h->sel);
	for (i = 0; i < h->npapi; i++)
		papi_model_free(h->papi[i]);
	free(h->papi);
	free(h->defs);
	free(h->defpos);
	for (i = 0; i < h->nproblems; i++)
		free(h->problems[i]);
	free(h->problems);
	catalog_free(h->cat);
	free(h->catalog_label);
	if (h->src != NULL)
		source_close(h->src);
}

/*
 * The catalog changed under us (a new version in a result buffer): fetch
 * and parse it again, resolve the picks anew by name and start a new
 * engine, so no delta spans the change.
 */
static int
hvtop_reload(struct hvtop *h, uint64_t version, char **cause)
{
	struct selection	 sel;
	struct catalog		*cat;
	const void		*img;
	size_t			 len, i;
	uint64_t		 old = h->catp->version;
	int			 error;

	if ((error = h->src->ops->catalog(h->src, &img, &len, cause)) != 0)
		return (error);
	if ((error = catalog_parse(img, len, h->topo.interface, &cat,
	    cause)) != 0)
		return (error);
	if (h->rec != NULL && (error = record_file_catalog(h->rec, img, len,
	    cause)) != 0) {
		catalog_free(cat);
		return (error);
	}
	memset(&sel, 0, sizeof sel);
	for (i = 0; i < h->sel.npicks && error == 0; i++)
		error = selection_add(&sel, cat, &h->topo,
		    h->sel.picks[i].spec, h->sel.picks[i].kind == SEL_EVENT,
		    cause);
	if (error != 0) {
		selection_clear(&sel);
		catalog_free(cat);
		return (error);
	}
	engine_free(h->engine);
	h->engine = NULL;
	selection_clear(&h->sel);
	h->sel = sel;
	catalog_free(h->cat);
	h->cat = cat;
	h->catp = cat;
	hvtop_label_catalog(h);
	if ((error = hvtop_reselect(h, cause)) != 0)
		return (error);
	h->generation++;
	snprintf(h->note, sizeof h->note, "catalog version changed from "
	    "%llu to %llu: catalog reloaded, baselines restarted",
	    (unsigned long long)old, (unsigned long long)version);
	return (0);
}

void
hvtop_recycle(struct hvtop *h, struct engine_snapshot *snap)
{
	engine_snapshot_free(h->spare);
	h->spare = snap;
}

/* The recording changed the selection here: follow it. */
static int
hvtop_replay_follow(struct hvtop *h, struct raw_sample *rs, char **cause)
{
	struct selection	 sel;
	int			 error;

	memset(&sel, 0, sizeof sel);
	if ((error = source_replay_selection(h->src, h->catp, &h->topo, &sel,
	    cause)) != 0) {
		selection_clear(&sel);
		return (error);
	}
	engine_free(h->engine);
	h->engine = NULL;
	selection_clear(&h->sel);
	h->sel = sel;
	if ((error = hvtop_reselect(h, cause)) != 0)
		return (error);
	h->generation++;
	free(rs->values);
	rs->values = xcalloc(h->sel.ncounters + 1, sizeof *rs->values);
	rs->nvalues = h->sel.ncounters;
	return (0);
}

int
hvtop_replay_seek(struct hvtop *h, uint64_t index, char **cause)
{
	const void	*img;
	size_t		 len;
	uint64_t	 version;
	int		 error;

	if ((error = source_replay_seek(h->src, index, cause)) != 0 ||
	    (error = h->src->ops->catalog(h->src, &img, &len, cause)) != 0)
		return (error);
	if (catalog_peek_version(img, len, &version) != 0) {
		*cause = xasprintf("the recorded catalog is %zu bytes", len);
		return (-HV_ETRUNC);
	}
	/* Samples before a reload were planned with the older catalog. */
	if (version != h->catp->version)
		return (hvtop_reload(h, version, cause));
	engine_rebase(h->engine);
	return (0);
}

int
hvtop_sample(struct hvtop *h, struct raw_sample *rs,
    struct engine_snapshot **snap, char **cause)
{
	int	 error;

	if (h->serve != NULL)
		serve_sample_begin(h->serve);
	if (source_replay_selection_changed(h->src, &h->sel) &&
	    (error = hvtop_replay_follow(h, rs, cause)) != 0)
		return (error);
	rs->error[0] = '\0';
	rs->calls = rs->naive_calls = 0;
	error = h->src->ops->sample(h->src, clock_now(&h->clock), rs, cause);
	if (error != 0)
		return (error);
	if (h->rec != NULL && (error = record_file_sample(h->rec, rs,
	    cause)) != 0)
		return (error);
	if (rs->catalog_version != 0 && rs->catalog_version !=
	    h->catp->version) {
		if ((error = hvtop_reload(h, rs->catalog_version, cause)) != 0)
			return (error);
		free(rs->values);
		rs->values = xcalloc(h->sel.ncounters + 1,
		    sizeof *rs->values);
		rs->nvalues = h->sel.ncounters;
		/* This sample was planned for the old catalog: read anew. */
		error = h->src->ops->sample(h->src, clock_now(&h->clock), rs,
		    cause);
		if (error != 0)
			return (error);
		if (h->rec != NULL && (error = record_file_sample(h->rec, rs,
		    cause)) != 0)
			return (error);
	}
	*snap = engine_update_reuse(h->engine, rs, h->spare);
	h->spare = NULL;
	if (h->serve != NULL)
		serve_publish(h->serve, h->engine, &h->sel, h->generation,
		    h->catp->version, rs, *snap, clock_wall(&h->clock, rs->now));
	/* A note waits for the first snapshot that will be shown. */
	if (h->note[0] != '\0' && (*snap)->seq > 0) {
		if ((*snap)->error[0] == '\0')
			snprintf((*snap)->error, sizeof (*snap)->error, "%s",
			    h->note);
		h->note[0] = '\0';
	}
	return (0);
}

/* ---- --list -------------------------------------------------------- */

static int
hvtop_list_match(const char *pattern, const char *name)
{
	if (pattern == NULL)
		return (1);
	if (strpbrk(pattern, "*?[") != NULL)
		return (fnmatch(pattern, name, FNM_CASEFOLD) == 0);
	return (strcasestr(name, pattern) != NULL);
}

static void
hvtop_list_formula(FILE *fp, const char *name, const char *text,
    const char *unit, const char *desc, const char *origin)
{
	char	*infix, *cause;

	if (formula_print_convert(text, FORMULA_AUTO, FORMULA_INFIX, &infix,
	    &cause) != 0) {
		free(cause);
		infix = xstrdup(text);
	}
	fprintf(fp, "  %-40s [%s] (%s)\n", name, unit != NULL &&
	    unit[0] != '\0' ? unit : "no unit", origin);
	fprintf(fp, "       %s\n", infix);
	if (desc != NULL && desc[0] != '\0')
		fprintf(fp, "       %s\n", desc);
	free(infix);
}

/* --list with no kind: all three, each under its heading. */
static int
hvtop_list_all(struct hvtop *h, FILE *fp)
{
	static const char *const kinds[] = { "events", "groups", "formulas" };
	static const char *const heads[] = { "Events (-e)", "Groups (-g)",
	    "Formulas (metrics)" };
	size_t	 i;
	int	 status = 0;

	for (i = 0; i < 3 && status == 0; i++) {
		fprintf(fp, "%s%s:\n", i > 0 ? "\n" : "", heads[i]);
		h->opts.list = kinds[i];
		status = hvtop_list(h, fp);
	}
	h->opts.list = "all";
	return (status);
}

int
hvtop_list(struct hvtop *h, FILE *fp)
{
	const struct catalog		*cat = h->catp;
	const struct catalog_event	*ev;
	const struct catalog_group	*g;
	const struct catalog_formula	*f;
	char				*s;
	size_t				 i, j;

	if (strcmp(h->opts.list, "all") == 0)
		return (hvtop_list_all(h, fp));
	if (strcmp(h->opts.list, "events") == 0) {
		for (i = 0; i < cat->nevents; i++) {
			ev = &cat->events[i];
			if (ev->skip != 0 ||
			    !hvtop_list_match(h->opts.pattern, ev->sysfs_name))
				continue;
			if (ev->domain == CATALOG_DOMAIN_CPU) {
				/* Another PMU's: its own terms, as perf
				 * writes the event (the description). */
				fprintf(fp, "  %-48s [%s]\n", ev->sysfs_name,
				    catalog_domain_name(ev->domain));
				fprintf(fp, "       %s\n", ev->desc);
				if (ev->long_desc != NULL)
					fprintf(fp, "       %s\n",
					    ev->long_desc);
				continue;
			}
			s = catalog_sysfs_string(ev, CATALOG_SYSFS_CURRENT);
			fprintf(fp, "  hv_24x7/%-40s [%s]\n", ev->sysfs_name,
			    catalog_domain_name(ev->domain));
			fprintf(fp, "       %s\n", s);
			if (ev->desc != NULL && ev->desc[0] != '\0')
				fprintf(fp, "       %s\n", ev->desc);
			free(s);
		}
	} else if (strcmp(h->opts.list, "groups") == 0) {
		for (i = 0; i < cat->ngroups; i++) {
			g = &cat->groups[i];
			if (!hvtop_list_match(h->opts.pattern, g->name))
				continue;
			fprintf(fp, "  %-40s [%s, %zu events, record 0x%x+%u]\n",
			    g->name, catalog_domain_name(g->domain),
			    catalog_group_nevents(cat, g), g->record_offset,
			    g->record_length);
			for (j = 0; j < CATALOG_GROUP_SLOTS; j++) {
				if ((ev = catalog_group_event(cat, g, j)) !=
				    NULL)
					fprintf(fp, "       %s\n",
					    ev->sysfs_name);
			}
		}
	} else {
		for (i = 0; i < h->ndefs; i++) {
			if (!hvtop_list_match(h->opts.pattern,
			    h->defs[i].name))
				continue;
			hvtop_list_formula(fp, h->defs[i].name,
			    h->defs[i].text, h->defs[i].unit,
			    h->defs[i].desc, h->defs[i].origin);
		}
		for (i = 0; i < cat->nformulas; i++) {
			f = &cat->formulas[i];
			if (f->name == NULL || f->formula == NULL ||
			    !hvtop_list_match(h->opts.pattern, f->name))
				continue;
			hvtop_list_formula(fp, f->name, f->formula, f->unit,
			    f->desc, "catalog");
		}
	}
	if (ferror(fp) || fflush(fp) != 0)
		return (1);
	return (0);
}
