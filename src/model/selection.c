/*
 * Resolving picks (-g, -e) against the catalog and the topology; @lpar
 * picks are resolved in selection-lpar.c.  No I/O: every problem comes
 * back as a cause the caller prints.
 */
#include "config.h"

#include "model/selection.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "catalog/catalog.h"
#include "model/raw.h"
#include "model/selection-int.h"
#include "util/hverr.h"
#include "util/xalloc.h"

unsigned
selection_domain_size(const struct topology *topo, int domain)
{
	switch (domain) {
	case CATALOG_DOMAIN_CHIP:
		return (topo->chips);
	case CATALOG_DOMAIN_CORE:
		return (topo->cores);
	case CATALOG_DOMAIN_VCPU_HOME_CORE:
	case CATALOG_DOMAIN_VCPU_HOME_CHIP:
	case CATALOG_DOMAIN_VCPU_HOME_NODE:
	case CATALOG_DOMAIN_VCPU_REMOTE_NODE:
	case CATALOG_DOMAIN_CPU:
		return (topo->vcpus);
	case SEL_DOMAIN_LPAR:
		/* This partition alone when the others are not listed. */
		return (topo->nlpars > 0 && !topo->lpars_denied ?
		    (unsigned)topo->nlpars : 1);
	}
	return (0);
}

const char *
selection_domain_term(int domain)
{
	switch (domain) {
	case CATALOG_DOMAIN_CHIP:
		return ("chip");
	case CATALOG_DOMAIN_CORE:
		return ("core");
	case CATALOG_DOMAIN_CPU:
		return ("cpu");
	case SEL_DOMAIN_LPAR:
		return ("lpar");
	}
	return ("vcpu");
}

int
selection_pick_domain(int cd)
{
	if (cd == CATALOG_DOMAIN_CHIP || cd == CATALOG_DOMAIN_CPU)
		return (cd);
	return (CATALOG_DOMAIN_CORE);
}

/* The decimal number at *p (moved past it), or max when it is max or
 * more, however many digits it has. */
static unsigned long
selection_number(const char **p, unsigned max)
{
	unsigned long long v = 0;

	for (; isdigit((unsigned char)**p); (*p)++) {
		if (v < max)
			v = v * 10 + (unsigned long long)(**p - '0');
	}
	return (v < max ? (unsigned long)v : max);
}

int
selection_parse_indices(const char *s, unsigned max, unsigned **out,
    size_t *n, char **cause)
{
	const char	*p = s, *first, *last;
	unsigned	*v = NULL;
	unsigned long	 lo, hi, i;
	size_t		 nv = 0, cap = 0;

	*out = NULL;
	*n = 0;
	for (;;) {
		if (!isdigit((unsigned char)*p)) {
			*cause = xasprintf("index list '%s', column %zu: "
			    "expected a number", s, (size_t)(p - s) + 1);
			goto fail;
		}
		first = last = p;
		lo = hi = selection_number(&p, max);
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p)) {
				*cause = xasprintf("index list '%s', column "
				    "%zu: expected the end of a range", s,
				    (size_t)(p - s) + 1);
				goto fail;
			}
			last = p;
			hi = selection_number(&p, max);
			if (hi < lo) {
				*cause = xasprintf("index list '%s': range "
				    "%.*s runs backwards", s,
				    (int)(p - first), first);
				goto fail;
			}
		}
		if (hi >= max) {
			/* The number as typed: a huge one is not wrapped. */
			*cause = xasprintf("index %.*s is out of range: this "
			    "frame has %u (0-%u)", (int)(p - last), last, max,
			    max - 1);
			free(v);
			return (-HV_ERANGE);
		}
		for (i = lo; i <= hi; i++) {
			if (nv == cap) {
				cap = cap == 0 ? 16 : cap * 2;
				v = xreallocarray(v, cap, sizeof *v);
			}
			v[nv++] = (unsigned)i;
		}
		if (*p == '\0')
			break;
		if (*p != ',') {
			*cause = xasprintf("index list '%s', column %zu: "
			    "unexpected '%c'", s, (size_t)(p - s) + 1, *p);
			goto fail;
		}
		p++;
	}
	*out = v;
	*n = nv;
	return (0);
fail:
	free(v);
	return (-HV_EFORMAT);
}

/* Parse "@chip" / "@core" / "@vcpu" / "@cpu" into a domain for catalog
 * domain cd. */
static int
selection_domain(const char *at, size_t len, int cd, int *domain,
    char **cause)
{
	if (len == 0) {
		*domain = cd;
		return (0);
	}
	if (len == 4 && strncmp(at, "chip", 4) == 0)
		*domain = CATALOG_DOMAIN_CHIP;
	else if (len == 4 && strncmp(at, "core", 4) == 0)
		*domain = CATALOG_DOMAIN_CORE;
	else if (len == 4 && strncmp(at, "vcpu", 4) == 0)
		*domain = CATALOG_DOMAIN_VCPU_HOME_CORE;
	else if (len == 3 && strncmp(at, "cpu", 3) == 0)
		*domain = CATALOG_DOMAIN_CPU;
	else {
		*cause = xasprintf("unknown domain '@%.*s': use @chip, @core, "
		    "@vcpu or (for PMUs other than hv_24x7) @cpu", (int)len,
		    at);
		return (-HV_EFORMAT);
	}
	/* Chip events are only counted per chip, other PMUs' per CPU; core
	 * events per core or as seen from a virtual processor. */
	if ((cd == CATALOG_DOMAIN_CHIP) != (*domain == CATALOG_DOMAIN_CHIP) ||
	    (cd == CATALOG_DOMAIN_CPU) != (*domain == CATALOG_DOMAIN_CPU)) {
		*cause = xasprintf("'@%.*s' does not fit: the catalog counts "
		    "this per %s", (int)len, at, selection_domain_term(cd));
		return (-HV_ERANGE);
	}
	return (0);
}

/* ---- names as users type them -------------------------------------- */

#define SELECTION_NEAR	3	/* names a "did you mean" offers */

/* Names close to what was typed, and one equal to it ignoring case. */
struct selection_near {
	const char	*want;
	size_t		 limit;		/* the largest edit distance kept */
	const char	*name[SELECTION_NEAR];
	size_t		 dist[SELECTION_NEAR];
	size_t		 n;
	const char	*nocase;	/* equal ignoring case */
	int		 ambiguous;	/* two spellings equal ignoring case */
};

/* Edits (insert, delete, replace) from a to b ignoring case; more than
 * limit is limit + 1. */
static size_t
selection_distance(const char *a, const char *b, size_t limit)
{
	size_t	 la = strlen(a), lb = strlen(b), i, j, best, d, *row;
	size_t	 diag, up;

	if ((la > lb ? la - lb : lb - la) > limit)
		return (limit + 1);
	row = xcalloc(lb + 1, sizeof *row);
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		diag = row[0];
		row[0] = i;
		best = row[0];
		for (j = 1; j <= lb; j++) {
			up = row[j];
			d = diag + (tolower((unsigned char)a[i - 1]) !=
			    tolower((unsigned char)b[j - 1]));
			if (up + 1 < d)
				d = up + 1;
			if (row[j - 1] + 1 < d)
				d = row[j - 1] + 1;
			diag = up;
			row[j] = d;
			if (d < best)
				best = d;
		}
		if (best > limit) {
			free(row);
			return (limit + 1);
		}
	}
	d = row[lb];
	free(row);
	return (d > limit ? limit + 1 : d);
}

static void
selection_near_init(struct selection_near *nr, const char *want)
{
	size_t	 len = strlen(want);

	memset(nr, 0, sizeof *nr);
	nr->want = want;
	nr->limit = len / 4 > 2 ? len / 4 : 2;
}

static void
selection_near_add(struct selection_near *nr, const char *name)
{
	size_t	 d, i, k;

	if (strcasecmp(name, nr->want) == 0) {
		if (nr->nocase == NULL)
			nr->nocase = name;
		else if (strcmp(nr->nocase, name) != 0)
			nr->ambiguous = 1;
		return;
	}
	if ((d = selection_distance(nr->want, name, nr->limit)) > nr->limit) {
		/* A name that holds what was typed comes after close ones. */
		if (strlen(nr->want) < 3 || strcasestr(name, nr->want) == NULL)
			return;
		d = nr->limit + 1 + strlen(name) - strlen(nr->want);
	}
	for (i = 0; i < nr->n; i++) {
		if (strcmp(nr->name[i], name) == 0)
			return;
	}
	for (i = 0; i < nr->n && nr->dist[i] <= d; i++)
		continue;
	if (i == SELECTION_NEAR)
		return;
	k = nr->n < SELECTION_NEAR ? nr->n++ : SELECTION_NEAR - 1;
	for (; k > i; k--) {
		nr->name[k] = nr->name[k - 1];
		nr->dist[k] = nr->dist[k - 1];
	}
	nr->name[i] = name;
	nr->dist[i] = d;
}

/* The cause for a name nothing matched: "unknown event 'x': did you mean
 * A, B or C? (hvtop --list events shows them)". */
static char *
selection_near_cause(const struct selection_near *nr, const char *what)
{
	char	*s, *t;
	size_t	 i;

	if (nr->n == 0)
		return (xasprintf("unknown %s '%s' (hvtop --list %ss shows "
		    "them)", what, nr->want, what));
	s = xstrdup(nr->name[0]);
	for (i = 1; i < nr->n; i++) {
		t = xasprintf("%s%s%s", s, i + 1 == nr->n ? " or " : ", ",
		    nr->name[i]);
		free(s);
		s = t;
	}
	t = xasprintf("unknown %s '%s': did you mean %s? (hvtop --list %ss "
	    "shows them)", what, nr->want, s, what);
	free(s);
	return (t);
}

/*
 * An event by its catalog or sysfs name, exactly, else ignoring case when
 * only one spelling matches.  NULL with *cause set otherwise.
 */
static const struct catalog_event *
selection_find_event(const struct catalog *cat, const char *name,
    char **cause)
{
	const struct catalog_event	*ev;
	struct selection_near		 nr;
	size_t				 i;

	if ((ev = catalog_find_event(cat, name, 0)) != NULL ||
	    (ev = catalog_find_sysfs(cat, name)) != NULL)
		return (ev);
	selection_near_init(&nr, name);
	for (i = 0; i < cat->nevents; i++) {
		ev = &cat->events[i];
		if (ev->skip != 0 || ev->name == NULL)
			continue;
		selection_near_add(&nr, ev->name);
		if (ev->sysfs_name != NULL &&
		    strcmp(ev->sysfs_name, ev->name) != 0)
			selection_near_add(&nr, ev->sysfs_name);
	}
	if (nr.nocase != NULL && !nr.ambiguous) {
		if ((ev = catalog_find_event(cat, nr.nocase, 0)) != NULL ||
		    (ev = catalog_find_sysfs(cat, nr.nocase)) != NULL)
			return (ev);
	}
	if (nr.ambiguous)
		*cause = xasprintf("event '%s': names differ only in case "
		    "here; give the exact one (hvtop --list events '%s')",
		    name, name);
	else
		*cause = selection_near_cause(&nr, "event");
	return (NULL);
}

/* The same for a group. */
static const struct catalog_group *
selection_find_group(const struct catalog *cat, const char *name,
    char **cause)
{
	const struct catalog_group	*gr;
	struct selection_near		 nr;
	size_t				 i;

	if ((gr = catalog_find_group(cat, name)) != NULL)
		return (gr);
	selection_near_init(&nr, name);
	for (i = 0; i < cat->ngroups; i++) {
		if (cat->groups[i].name != NULL)
			selection_near_add(&nr, cat->groups[i].name);
	}
	if (nr.nocase != NULL && !nr.ambiguous &&
	    (gr = catalog_find_group(cat, nr.nocase)) != NULL)
		return (gr);
	if (nr.ambiguous)
		*cause = xasprintf("group '%s': names differ only in case "
		    "here; give the exact one (hvtop --list groups '%s')",
		    name, name);
	else
		*cause = selection_near_cause(&nr, "group");
	return (NULL);
}

/* ---- perf's spelling ----------------------------------------------- */

/* A perf spec for the VCPU domains 3 to 6: one partition, one place. */
struct sel_perf_lpar {
	const struct catalog_event *event;	/* NULL: not such a spec */
	uint16_t	 lpar;		/* SEL_LPAR_SELF: this partition */
	unsigned	 place;		/* domain - 3 */
	int		 has_vcpu;
	unsigned	 vcpu;
	char		*said;		/* "lpar=N" as a cause names it */
};

#define SELECTION_PERF_PMU	"hv_24x7/"

/* A perf term's number: decimal or 0x hex, up to 0xffff. */
static int
selection_perf_number(const char *term, const char *val, unsigned long *out,
    char **cause)
{
	char	*end;

	if (strcmp(val, "?") == 0) {
		*cause = xasprintf("%s=?: give a number (perf needs one "
		    "too); leave %s out to take every index", term, term);
		return (-HV_EFORMAT);
	}
	if (!isdigit((unsigned char)*val)) {
		*cause = xasprintf("%s=%s: expected a number", term, val);
		return (-HV_EFORMAT);
	}
	errno = 0;
	*out = strtoul(val, &end, 0);
	if (*end != '\0') {
		*cause = xasprintf("%s=%s: expected a number", term, val);
		return (-HV_EFORMAT);
	}
	if (errno == ERANGE || *out > 0xffff) {
		*cause = xasprintf("%s=%s: out of range (perf's field holds "
		    "0 to 65535)", term, val);
		return (-HV_ERANGE);
	}
	return (0);
}

/* What the terms of a perf spec said, gathered before they are checked. */
struct sel_perf {
	char		*name;		/* points into the spec's copy */
	char		*index;
	char		*said;		/* the term that set the domain */
	const char	*at;
	unsigned long	 domain, lpar, offset;
	int		 has_offset, has_lpar;
};

/* chip=, core= or vcpu=: the index, and the domain unless one is set. */
static int
selection_perf_index(struct sel_perf *sp, const char *tok, const char *eq,
    char **why)
{
	unsigned long	v;
	int		error;

	if ((error = selection_perf_number(tok, eq, &v, why)) != 0)
		return (error);
	free(sp->index);
	sp->index = xasprintf("%lu", v);
	if (sp->domain == 0) {
		free(sp->said);
		sp->said = xasprintf("%s=%s", tok, eq);
	}
	if (sp->at == NULL)
		sp->at = strcmp(tok, "chip") == 0 ? "chip" :
		    strcmp(tok, "core") == 0 ? "core" : "vcpu";
	return (0);
}

/* domain=: perf's 1 to 6; 3 to 6 are the placements of an @lpar pick. */
static int
selection_perf_domain(struct sel_perf *sp, const char *eq, char **why)
{
	int	error;

	if ((error = selection_perf_number("domain", eq, &sp->domain,
	    why)) == 0 && (sp->domain < 1 || sp->domain > 6)) {
		*why = xasprintf("domain=%s: perf's domains are 1 to 6", eq);
		error = -HV_ERANGE;
	}
	free(sp->said);
	sp->said = xasprintf("domain=%s", eq);
	return (error);
}

/* One comma-separated term: the event's name or a key=value. */
static int
selection_perf_term(struct sel_perf *sp, char *tok, char **cause)
{
	char	*eq, *why;
	int	 error = 0;

	if ((eq = strchr(tok, '=')) == NULL) {
		if (sp->name != NULL) {
			*cause = xasprintf("two event names, %s and %s",
			    sp->name, tok);
			error = -HV_EFORMAT;
		}
		sp->name = tok;
		return (error);
	}
	*eq++ = '\0';
	if (strcmp(tok, "chip") == 0 || strcmp(tok, "core") == 0 ||
	    strcmp(tok, "vcpu") == 0)
		error = selection_perf_index(sp, tok, eq, &why);
	else if (strcmp(tok, "domain") == 0)
		error = selection_perf_domain(sp, eq, &why);
	else if (strcmp(tok, "lpar") == 0) {
		error = selection_perf_number(tok, eq, &sp->lpar, &why);
		sp->has_lpar = 1;
	} else if (strcmp(tok, "offset") == 0) {
		error = selection_perf_number(tok, eq, &sp->offset, &why);
		sp->has_offset = 1;
	} else {
		why = xasprintf("unknown term '%s' (the event name, chip, "
		    "core, vcpu, domain, lpar or offset)", tok);
		error = -HV_EFORMAT;
	}
	if (error != 0)
		*cause = why;
	return (error);
}

/*
 * The terms against the catalog: the event exists, sits at the offset
 * given, and the domain and lpar asked can be counted.  Sets *evp.
 */
static int
selection_perf_check(const struct catalog *cat, struct sel_perf *sp,
    const struct catalog_event **evp, char **cause)
{
	const struct catalog_event	*ev;
	char				*why;
	int				 dom;

	if (sp->name == NULL) {
		*cause = xasprintf("no event name between the slashes");
		return (-HV_EFORMAT);
	}
	if ((ev = selection_find_event(cat, sp->name, &why)) == NULL) {
		*cause = why;
		return (-HV_ENOENT);
	}
	*evp = ev;
	if (sp->has_offset && sp->offset != ev->offset) {
		*cause = xasprintf("offset=0x%lx is not where %s is (0x%x): "
		    "leave offset out", sp->offset, ev->name,
		    (unsigned)ev->offset);
		return (-HV_ERANGE);
	}
	if (sp->domain != 0)
		sp->at = sp->domain == 1 ? "chip" : sp->domain == 2 ? "core" :
		    "vcpu";
	dom = selection_pick_domain(ev->domain);
	if (sp->domain > 3 && dom != CATALOG_DOMAIN_CORE) {
		*cause = xasprintf("%s (%s) cannot be mapped: the catalog "
		    "counts %s per %s", sp->said,
		    catalog_domain_name((int)sp->domain), ev->name,
		    selection_domain_term(dom));
		return (-HV_ERANGE);
	}
	if (sp->at != NULL && (dom == CATALOG_DOMAIN_CHIP) !=
	    (strcmp(sp->at, "chip") == 0)) {
		*cause = xasprintf("%s does not fit: the catalog counts %s per "
		    "%s (%s)", sp->said, ev->name, selection_domain_term(dom),
		    dom == CATALOG_DOMAIN_CHIP ? "chip=N" :
		    "domain=2,core=N or domain=3,vcpu=N");
		return (-HV_ERANGE);
	}
	return (0);
}

/*
 * Whether the terms name a partition's virtual processors: a VCPU domain
 * given (3 to 6), or another partition with vcpu=.  vcpu= alone stays
 * the "@vcpu" pick it always was.
 */
static int
selection_perf_is_lpar(const struct sel_perf *sp)
{
	if (sp->domain >= CATALOG_DOMAIN_VCPU_HOME_CORE)
		return (1);
	return (sp->domain == 0 && sp->has_lpar && sp->lpar != SEL_LPAR_SELF &&
	    sp->at != NULL && strcmp(sp->at, "vcpu") == 0);
}

/*
 * perf's "hv_24x7/EVENT,chip=N/" (also core=, vcpu=, domain=, lpar=,
 * offset=, and the trailing '/' left out) in hvtop's words:
 * "EVENT@chip:N".  Returns 0 with *out set (caller frees), or a negative
 * code with *cause set.
 */
static int
selection_perf_spec(const struct catalog *cat, const char *spec, char **out,
    struct sel_perf_lpar *lp, char **cause)
{
	struct sel_perf			 sp = { .lpar = SEL_LPAR_SELF };
	const struct catalog_event	*ev = NULL;
	char				*copy, *tok, *save = NULL;
	int				 error = 0;

	*out = NULL;
	copy = xstrdup(spec + strlen(SELECTION_PERF_PMU));
	if (copy[0] != '\0' && copy[strlen(copy) - 1] == '/')
		copy[strlen(copy) - 1] = '\0';
	for (tok = strtok_r(copy, ",", &save); tok != NULL && error == 0;
	    tok = strtok_r(NULL, ",", &save))
		error = selection_perf_term(&sp, tok, cause);
	if (error == 0)
		error = selection_perf_check(cat, &sp, &ev, cause);
	memset(lp, 0, sizeof *lp);
	if (error == 0 && selection_perf_is_lpar(&sp)) {
		lp->event = ev;
		lp->lpar = (uint16_t)sp.lpar;
		lp->place = sp.domain == 0 ? 0 : (unsigned)sp.domain -
		    CATALOG_DOMAIN_VCPU_HOME_CORE;
		lp->has_vcpu = sp.index != NULL;
		lp->vcpu = sp.index != NULL ?
		    (unsigned)strtoul(sp.index, NULL, 10) : 0;
		lp->said = sp.has_lpar ? xasprintf("lpar=%lu", sp.lpar) :
		    NULL;
	} else if (error == 0)
		*out = xasprintf("%s%s%s%s%s", ev->sysfs_name,
		    sp.at != NULL ? "@" : "", sp.at != NULL ? sp.at : "",
		    sp.index != NULL ? ":" : "",
		    sp.index != NULL ? sp.index : "");
	free(sp.index);
	free(sp.said);
	free(copy);
	return (error);
}

void
selection_pick_free(struct sel_pick *p)
{
	free(p->spec);
	free(p->name);
	free(p->lpars);
	free(p->indices);
	free(p->events);
}

/* A perf-style spec (hv_24x7/...) added as the event it names. */
static int
selection_add_perf(struct selection *sel, const struct catalog *cat,
    const struct topology *topo, const char *spec, char **cause)
{
	struct sel_perf_lpar	 lp;
	struct sel_lpar_ask	 ask;
	char			*perf = NULL;
	int			 error;

	if ((error = selection_perf_spec(cat, spec, &perf, &lp, cause)) != 0)
		return (error);
	if (lp.event != NULL) {
		memset(&ask, 0, sizeof ask);
		ask.event = lp.event;
		ask.name = lp.event->sysfs_name;
		ask.ids = &lp.lpar;
		ask.nids = 1;
		ask.vcpu = lp.has_vcpu ? &lp.vcpu : NULL;
		ask.places = 1U << lp.place;
		ask.said = lp.said;
		error = selection_lpar_add(sel, cat, topo, spec, &ask, cause);
		free(lp.said);
		return (error);
	}
	error = selection_add(sel, cat, topo, perf, 1, cause);
	free(perf);
	if (error == 0) {
		/* Kept as written: a reload resolves it again. */
		free(sel->picks[sel->npicks - 1].spec);
		sel->picks[sel->npicks - 1].spec = xstrdup(spec);
	}
	return (error);
}

/*
 * The domain of pk (its catalog domain, or the one after '@' in the n
 * bytes at at) and its indices (the list after ':' at colon, or every
 * one the frame has).  Returns 0, or a negative code with *cause set.
 */
static int
selection_add_where(struct sel_pick *pk, const struct topology *topo,
    int cd, const char *at, size_t n, const char *colon, char **cause)
{
	unsigned	 size, i;
	int		 error;

	error = selection_domain(at != NULL ? at + 1 : "", n,
	    selection_pick_domain(cd), &pk->domain, cause);
	if (error != 0)
		return (error);
	if (topo->interface < 2 && pk->domain > CATALOG_DOMAIN_CORE &&
	    pk->domain != CATALOG_DOMAIN_CPU) {
		*cause = xasprintf("%s: virtual-processor domains need hcall "
		    "interface 2 (POWER9 or later)", pk->spec);
		return (-HV_ERANGE);
	}
	size = selection_domain_size(topo, pk->domain);
	if (size == 0) {
		*cause = xasprintf("%s: the frame has no %s", pk->spec,
		    selection_domain_term(pk->domain));
		return (-HV_ERANGE);
	}
	if (colon != NULL)
		return (selection_parse_indices(colon + 1, size, &pk->indices,
		    &pk->nindices, cause));
	pk->indices = xreallocarray(NULL, size, sizeof *pk->indices);
	for (i = 0; i < size; i++)
		pk->indices[i] = i;
	pk->nindices = size;
	return (0);
}

/* The columns of pk: ev, or the events of group gr. */
int
selection_add_events(struct sel_pick *pk, const struct catalog *cat,
    const struct catalog_event *ev, const struct catalog_group *gr,
    char **cause)
{
	size_t	 i;

	if (ev != NULL) {
		pk->events = xmalloc(sizeof *pk->events);
		pk->events[0] = ev;
		pk->nevents = 1;
		return (0);
	}
	pk->events = xreallocarray(NULL, CATALOG_GROUP_SLOTS,
	    sizeof *pk->events);
	for (i = 0; i < CATALOG_GROUP_SLOTS; i++) {
		if ((ev = catalog_group_event(cat, gr, i)) != NULL)
			pk->events[pk->nevents++] = ev;
	}
	if (pk->nevents == 0) {
		*cause = xasprintf("group '%s' has no events", gr->name);
		return (-HV_ENOENT);
	}
	pk->group = gr;
	return (0);
}

/* Append pk and its counters, index-major, to sel; sel takes pk. */
static void
selection_add_pick(struct selection *sel, const struct sel_pick *pk)
{
	size_t	 i, j, k, n;

	n = sel->ncounters + pk->nindices * pk->nevents;
	sel->counters = xreallocarray(sel->counters, n,
	    sizeof *sel->counters);
	k = sel->ncounters;
	for (i = 0; i < pk->nindices; i++) {
		for (j = 0; j < pk->nevents; j++, k++) {
			sel->counters[k].event = pk->events[j];
			sel->counters[k].domain = pk->domain;
			sel->counters[k].index = pk->indices[i];
			sel->counters[k].lpar = pk->lpar;
			sel->counters[k].pick = sel->npicks;
			sel->counters[k].column = j;
		}
	}
	sel->ncounters = n;
	sel->picks = xreallocarray(sel->picks, sel->npicks + 1,
	    sizeof *sel->picks);
	sel->picks[sel->npicks++] = *pk;
}

int
selection_add(struct selection *sel, const struct catalog *cat,
    const struct topology *topo, const char *spec, int event, char **cause)
{
	struct sel_pick			 pk;
	const struct catalog_event	*ev = NULL;
	const struct catalog_group	*gr = NULL;
	const char			*at, *colon, *end;
	int				 error;

	if (event && strncmp(spec, SELECTION_PERF_PMU,
	    strlen(SELECTION_PERF_PMU)) == 0)
		return (selection_add_perf(sel, cat, topo, spec, cause));
	memset(&pk, 0, sizeof pk);
	colon = strchr(spec, ':');
	end = colon != NULL ? colon : spec + strlen(spec);
	at = memchr(spec, '@', (size_t)(end - spec));
	pk.name = xstrndup(spec, (size_t)((at != NULL ? at : end) - spec));
	pk.spec = xstrdup(spec);
	pk.lpar = SEL_LPAR_SELF;
	pk.kind = event ? SEL_EVENT : SEL_GROUP;
	if (event)
		ev = selection_find_event(cat, pk.name, cause);
	else
		gr = selection_find_group(cat, pk.name, cause);
	if ((ev != NULL || gr != NULL) && at != NULL &&
	    (size_t)(end - at - 1) == 4 && strncmp(at + 1, "lpar", 4) == 0) {
		error = selection_lpar_add_at(sel, cat, topo, spec, pk.name,
		    ev, gr, colon, cause);
		selection_pick_free(&pk);
		return (error);
	}
	if (ev == NULL && gr == NULL)
		error = -HV_ENOENT;
	else if ((error = selection_add_where(&pk, topo, ev != NULL ?
	    ev->domain : gr->domain, at, at != NULL ?
	    (size_t)(end - at - 1) : 0, colon, cause)) == 0)
		error = selection_add_events(&pk, cat, ev, gr, cause);
	if (error != 0) {
		selection_pick_free(&pk);
		return (error);
	}
	pk.first = sel->ncounters;
	selection_add_pick(sel, &pk);
	return (0);
}

void
selection_clear(struct selection *sel)
{
	size_t	 i;

	for (i = 0; i < sel->npicks; i++)
		selection_pick_free(&sel->picks[i]);
	free(sel->picks);
	free(sel->counters);
	memset(sel, 0, sizeof *sel);
}
