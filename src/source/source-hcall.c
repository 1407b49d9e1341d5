/*
 * The hcall client: a source that reads the 24x7 counters the way the
 * Linux hv_24x7 driver does, through H_GET_24X7_CATALOG_PAGE and
 * H_GET_24X7_DATA, over a transport that only moves the buffers (see
 * transport.h).  The catalog is fetched page by page and parsed here;
 * every sample is the planner's request buffers encoded, sent, the result
 * buffers decoded and the values taken out into the raw sample.  Nothing
 * here knows what is at the other end of the transport.
 *
 * The sources made of it, one per transport, are at the end of the file:
 * "sim" is the client over the simulated PowerVM.  Finding the frame's
 * partitions is in source-hcall-lpar.c.
 */
#include "config.h"

#include "source/source-hcall.h"
#include "source/source-hcall-int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "model/selection.h"
#include "hcall/hcall.h"
#include "source/source.h"
#include "source/transport.h"
#include "sys/catalog-file.h"
#include "util/hverr.h"
#include "util/xalloc.h"

#define SOURCE_HCALL_PAUSE_MIN	1000000ULL	/* ns: the first wait */
#define SOURCE_HCALL_PAUSE_MAX	100000000ULL	/* ns: the longest */
#define SOURCE_HCALL_UNMAPPED	((size_t)-1)	/* plan value not selected */

/* The simulated hypervisor's detailed_rc for "no such partition". */
#define SOURCE_HCALL_DRC_LPAR	0x0402

#define SOURCE_HCALL_DENIED	"other partitions are not visible: allow " \
	"performance information collection for this partition on the HMC"

int
source_hcall_busy(long rc)
{
	return (rc == H_BUSY || (rc >= H_LONG_BUSY_ORDER_1_MSEC &&
	    rc <= H_LONG_BUSY_ORDER_100_SEC));
}

/*
 * How long to wait before asking a busy hypervisor again, the tries-th
 * time: what a long-busy answer asks for, else twice the last wait, from
 * 1 ms; never over 100 ms, so that SOURCE_HCALL_TRIES tries wait under
 * 2 s in all.
 */
uint64_t
source_hcall_backoff(long rc, unsigned tries)
{
	uint64_t	 ns = SOURCE_HCALL_PAUSE_MIN;
	long		 order;

	if (rc >= H_LONG_BUSY_ORDER_1_MSEC &&
	    rc <= H_LONG_BUSY_ORDER_100_SEC) {
		for (order = H_LONG_BUSY_ORDER_1_MSEC; order < rc &&
		    ns < SOURCE_HCALL_PAUSE_MAX; order++)
			ns *= 10;
	} else {
		while (tries-- > 0 && ns < SOURCE_HCALL_PAUSE_MAX)
			ns *= 2;
	}
	return (ns < SOURCE_HCALL_PAUSE_MAX ? ns : SOURCE_HCALL_PAUSE_MAX);
}

/* One catalog page; a busy hypervisor is asked again a few times. */
static long
source_hcall_page(struct source_hcall *s, uint64_t version, uint64_t page,
    uint8_t *buf)
{
	long	 rc;
	int	 tries = 0;

	do
		rc = s->tp->catalog_page(s->tc, version, page, buf,
		    HCALL_PAGE_SIZE);
	while (source_hcall_busy(rc) && ++tries < SOURCE_HCALL_TRIES);
	return (rc);
}

/*
 * Fetch the whole catalog through H_GET_24X7_CATALOG_PAGE, as the kernel
 * does: page 0 with version 0, then every page it counts with the version
 * it states.  Only a whole catalog replaces the one there was; it is
 * parsed for the planner, and the model it replaces stays until the plan
 * made with it is gone.
 */
static int
source_hcall_fetch(struct source_hcall *s, char **cause)
{
	uint8_t		*image;
	uint64_t	 version = 0, i;
	uint32_t	 npages = 0;
	long		 rc;
	struct catalog	*cat;

	image = xmalloc(HCALL_PAGE_SIZE);
	if ((rc = source_hcall_page(s, 0, 0, image)) != 0) {
		*cause = xasprintf("H_GET_24X7_CATALOG_PAGE(page 0): %s (%ld)",
		    hcall_rc_name(rc), rc);
		goto fail;
	}
	if (catalog_peek_pages(image, HCALL_PAGE_SIZE, &npages) != 0 ||
	    catalog_peek_version(image, HCALL_PAGE_SIZE, &version) != 0 ||
	    npages == 0 || npages > CATALOG_FILE_MAX / HCALL_PAGE_SIZE) {
		*cause = xasprintf("catalog page 0 claims %llu pages",
		    (unsigned long long)npages);
		free(image);
		return (-HV_EFORMAT);
	}
	image = xreallocarray(image, npages, HCALL_PAGE_SIZE);
	for (i = 1; i < npages; i++) {
		rc = source_hcall_page(s, version, i,
		    image + i * HCALL_PAGE_SIZE);
		if (rc != 0) {
			*cause = xasprintf("H_GET_24X7_CATALOG_PAGE(version "
			    "%llu, page %llu): %s (%ld)",
			    (unsigned long long)version,
			    (unsigned long long)i, hcall_rc_name(rc), rc);
			goto fail;
		}
	}
	/* Page 0 was read, so there is a model; its problems are the
	 * caller's to show (it parses the same image). */
	if (catalog_parse(image, (size_t)npages * HCALL_PAGE_SIZE,
	    s->topo.interface, &cat, cause) != 0) {
		free(image);
		return (-HV_EFORMAT);
	}
	free(s->image);
	s->image = image;
	s->image_len = (size_t)npages * HCALL_PAGE_SIZE;
	s->version = version;
	if (s->cat != s->planned)
		catalog_free(s->cat);
	s->cat = cat;
	return (0);
fail:
	free(image);
	return (-HV_EHCALL);
}

/* The planner's view of the frame: index counts and thread groups. */
static void
source_hcall_htopo(const struct topology *t, struct hcall_topology *ht)
{
	unsigned	 d;
	size_t		 i;

	memset(ht, 0, sizeof *ht);
	ht->count[HCALL_DOMAIN_CHIP] = t->chips;
	ht->count[HCALL_DOMAIN_CORE] = t->cores;
	for (d = HCALL_DOMAIN_VCPU_HOME_CORE; d < HCALL_DOMAIN_MAX; d++)
		ht->count[d] = t->vcpus;
	for (i = 0; i < t->nlpars; i++) {
		for (d = HCALL_DOMAIN_VCPU_HOME_CORE; d < HCALL_DOMAIN_MAX;
		    d++) {
			if (t->lpars[i].vcpus > ht->count[d])
				ht->count[d] = t->lpars[i].vcpus;
		}
	}
	/* An SMT8 core is two SMT4 thread groups. */
	ht->thread_groups = t->smt == 8 ? 2 : 1;
}

/*
 * The frame's partitions, asked for once by the session (they cost
 * hcalls no other reading makes); from then on the source looks again
 * after a catalog version change and when a listed partition stops
 * answering.  The next topology call lists them.
 */
static int
source_hcall_partitions(struct source *src, char **cause)
{
	struct source_hcall	*s = src->data;

	s->lpars_on = 1;
	source_hcall_lpar_discover(s);
	if (s->gave_up) {
		*cause = xasprintf("the hypervisor was still busy after %u "
		    "tries (H_BUSY), so only this partition is known for now; "
		    "hvtop looks again at every sample until it answers",
		    SOURCE_HCALL_TRIES);
		return (-EBUSY);
	}
	return (0);
}

/* Whether partition id is in the list the source holds now. */
static int
source_hcall_listed(const struct source_hcall *s, uint16_t id)
{
	if (s->fresh_set)
		return (topo_lpar_find(s->fresh, s->nfresh, id) != NULL);
	return (topo_lpar_find(s->lpars, s->topo.nlpars, id) != NULL);
}

/*
 * Open the client over a transport.  See source-hcall.h.
 */
int
source_hcall_open(struct source *src, const struct transport_ops *tp,
    const char *args, char **cause)
{
	struct source_hcall	*s;
	int			 error;

	s = xcalloc(1, sizeof *s);
	s->tp = tp;
	if ((error = tp->open(args, &s->tc, &src->label, cause)) != 0) {
		free(s);
		return (error);
	}
	src->data = s;
	s->tb = 1;
	if ((error = tp->topology(s->tc, &s->topo, cause)) != 0 ||
	    (error = source_hcall_fetch(s, cause)) != 0)
		return (error);
	source_hcall_htopo(&s->topo, &s->htopo);
	return (0);
}

static int
source_hcall_catalog(struct source *src, const void **buf, size_t *len,
    char **cause)
{
	struct source_hcall	*s = src->data;
	uint64_t		 v;
	int			 error;

	/* A new catalog version means the pages must be fetched again,
	 * and the partitions looked for again. */
	if (catalog_peek_version(s->image, s->image_len, &v) == 0 &&
	    v != s->version) {
		if ((error = source_hcall_fetch(s, cause)) != 0)
			return (error);
		if (s->lpars_on)
			source_hcall_lpar_discover(s);
	}
	*buf = s->image;
	*len = s->image_len;
	return (0);
}

static int
source_hcall_topology(struct source *src, struct topology *t, char **cause)
{
	struct source_hcall	*s = src->data;

	(void)cause;
	if (s->fresh_set) {
		free(s->lpars);
		s->lpars = s->fresh;
		s->topo.lpars = s->fresh;
		s->topo.nlpars = s->nfresh;
		s->topo.lpars_denied = s->fresh_denied;
		s->fresh = NULL;
		s->fresh_set = 0;
		/* The planner checks indices against the most any has. */
		source_hcall_htopo(&s->topo, &s->htopo);
	}
	*t = s->topo;
	return (0);
}

static void
source_hcall_unselect(struct source_hcall *s)
{
	hcall_plan_free(s->plan);
	s->plan = NULL;
	free(s->map);
	free(s->dest);
	s->dest = NULL;
	s->covered = 0;
	free(s->vals);
	free(s->valid);
	free(s->recs);
	free(s->item_pick);
	s->item_pick = NULL;
	s->nitems = 0;
	s->map = NULL;
	s->vals = NULL;
	s->valid = NULL;
	s->recs = NULL;
	/* No plan points into an older model any more. */
	if (s->planned != s->cat)
		catalog_free(s->planned);
	s->planned = NULL;
}

/* pk's event or group in this source's parse of the catalog. */
static int
source_hcall_item_what(struct source_hcall *s, const struct sel_pick *pk,
    struct hcall_item *it, char **cause)
{
	it->kind = pk->kind == SEL_GROUP ? HCALL_ITEM_GROUP :
	    HCALL_ITEM_EVENT;
	if (pk->kind == SEL_GROUP)
		it->group = catalog_find_group(s->cat, pk->group->name);
	else
		it->event = catalog_find_sysfs(s->cat,
		    pk->events[0]->sysfs_name);
	if (it->group == NULL && it->event == NULL) {
		*cause = xasprintf("%s is not in the frame's catalog",
		    pk->name);
		return (-HV_ENOENT);
	}
	return (0);
}

/* Index x appended to the ranges of it (ranges[*nr] is free). */
static void
source_hcall_range_add(struct hcall_item *it, struct hcall_range *ranges,
    size_t *nr, unsigned x)
{
	if (it->nranges > 0 && ranges[*nr - 1].first +
	    ranges[*nr - 1].count == x) {
		ranges[*nr - 1].count++;
		return;
	}
	ranges[*nr].first = (uint16_t)x;
	ranges[*nr].count = 1;
	(*nr)++;
	it->nranges++;
}

/*
 * The items of an @lpar pick, whose counters are [first, end): one per
 * partition and place, its virtual processors as ranges.  With items
 * NULL, only counts them (*ni, *nr grow either way).
 */
static int
source_hcall_lpar_items(struct source_hcall *s, const struct sel_pick *pk,
    const struct selection *sel, size_t end, struct hcall_item *items,
    struct hcall_range *ranges, size_t *ni, size_t *nr, char **cause)
{
	const struct sel_counter *c;
	struct hcall_item	*it;
	size_t			 k, run, x;
	unsigned		 p;
	int			 error;

	for (k = pk->first; k < end; k = run) {
		for (run = k; run < end &&
		    sel->counters[run].lpar == sel->counters[k].lpar; run++)
			continue;
		for (p = 0; p < SEL_NPLACES; p++) {
			if (!(pk->places & (1U << p)))
				continue;
			if (items == NULL) {
				for (x = k; x < run; x++)
					*nr += sel->counters[x].column == 0;
				(*ni)++;
				continue;
			}
			it = &items[(*ni)++];
			if ((error = source_hcall_item_what(s, pk, it,
			    cause)) != 0)
				return (error);
			it->domain = (uint8_t)(CATALOG_DOMAIN_VCPU_HOME_CORE +
			    p);
			it->lpar = sel->counters[k].lpar;
			it->ranges = &ranges[*nr];
			for (x = k; x < run; x++) {
				c = &sel->counters[x];
				if (c->column == 0 && c->domain == it->domain)
					source_hcall_range_add(it, ranges, nr,
					    c->index);
			}
		}
	}
	return (0);
}

/*
 * The selection as planner items, one per pick, its indices as ranges;
 * an @lpar pick one per partition and place.  The selection points into
 * the caller's parse of the catalog; the planner wants this source's,
 * so entries are found again by name.  Returns 0 with *itemsp, *nitemsp
 * and *rangesp (caller frees both arrays).
 */
static int
source_hcall_items(struct source_hcall *s, const struct selection *sel,
    struct hcall_item **itemsp, size_t *nitemsp, struct hcall_range **rangesp,
    char **cause)
{
	const struct sel_pick	*pk;
	struct hcall_item	*items = NULL;
	struct hcall_range	*ranges = NULL;
	size_t			 i, j, ni, nr, end;
	int			 pass, error;

	*itemsp = NULL;
	*rangesp = NULL;
	for (pass = 0; pass < 2; pass++) {
		for (i = ni = nr = 0; i < sel->npicks; i++) {
			pk = &sel->picks[i];
			end = i + 1 < sel->npicks ? sel->picks[i + 1].first :
			    sel->ncounters;
			if (pk->domain == SEL_DOMAIN_LPAR) {
				j = ni;
				if ((error = source_hcall_lpar_items(s, pk,
				    sel, end, items, ranges, &ni, &nr,
				    cause)) != 0)
					return (error);
				for (; items != NULL && j < ni; j++)
					s->item_pick[j] = i;
				continue;
			}
			if (items == NULL) {
				ni++;
				nr += pk->nindices;
				continue;
			}
			s->item_pick[ni] = i;
			if ((error = source_hcall_item_what(s, pk, &items[ni],
			    cause)) != 0)
				return (error);
			items[ni].domain = (uint8_t)pk->domain;
			items[ni].lpar = pk->lpar;
			items[ni].ranges = &ranges[nr];
			for (j = 0; j < pk->nindices; j++)
				source_hcall_range_add(&items[ni], ranges, &nr,
				    pk->indices[j]);
			ni++;
		}
		if (pass == 0) {
			*itemsp = items = xcalloc(ni + 1, sizeof *items);
			*rangesp = ranges = xcalloc(nr + 1, sizeof *ranges);
			free(s->item_pick);
			s->item_pick = xcalloc(ni + 1, sizeof *s->item_pick);
			s->nitems = ni;
		}
	}
	*nitemsp = ni;
	return (0);
}

/*
 * Whether a planned value is a selected counter.  The selection points
 * into the caller's parse of the catalog, the plan into this source's:
 * events match by name and offset.
 */
static int
source_hcall_same(const struct hcall_value *v, const struct sel_counter *c)
{
	return (v->event != NULL && v->index == c->index &&
	    v->domain == c->domain && v->lpar == c->lpar &&
	    v->offset == c->event->offset &&
	    strcmp(v->event->name, c->event->name) == 0);
}

/* A counter's place in the map's search: where it is read, and which. */
struct source_hcall_key {
	uint16_t	 lpar;
	int		 domain;
	unsigned	 index;
	uint32_t	 offset;
	size_t		 pick;
	size_t		 counter;
};

static int
source_hcall_key_cmp(const void *a, const void *b)
{
	const struct source_hcall_key *x = a, *y = b;

	if (x->lpar != y->lpar)
		return (x->lpar < y->lpar ? -1 : 1);
	if (x->domain != y->domain)
		return (x->domain < y->domain ? -1 : 1);
	if (x->index != y->index)
		return (x->index < y->index ? -1 : 1);
	if (x->offset != y->offset)
		return (x->offset < y->offset ? -1 : 1);
	if (x->pick != y->pick)
		return (x->pick < y->pick ? -1 : 1);
	return (0);
}

/* The counters sorted by key (caller frees). */
static struct source_hcall_key *
source_hcall_keys(const struct selection *sel)
{
	struct source_hcall_key	*keys;
	const struct sel_counter *c;
	size_t			 j;

	keys = xreallocarray(NULL, sel->ncounters + 1, sizeof *keys);
	for (j = 0; j < sel->ncounters; j++) {
		c = &sel->counters[j];
		keys[j].lpar = c->lpar;
		keys[j].domain = c->domain;
		keys[j].index = c->index;
		keys[j].offset = (uint32_t)c->event->offset;
		keys[j].pick = c->pick;
		keys[j].counter = j;
	}
	qsort(keys, sel->ncounters, sizeof *keys, source_hcall_key_cmp);
	return (keys);
}

/* The counter of pick a value fills, found in the sorted keys. */
static size_t
source_hcall_search(const struct selection *sel,
    const struct source_hcall_key *keys, const struct hcall_value *v,
    size_t pick)
{
	struct source_hcall_key	 want;
	size_t			 lo = 0, hi = sel->ncounters, mid;

	want.lpar = v->lpar;
	want.domain = v->domain;
	want.index = v->index;
	want.offset = v->offset;
	want.pick = pick;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (source_hcall_key_cmp(&want, &keys[mid]) > 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* Several events may share an offset: the name decides. */
	for (; lo < sel->ncounters &&
	    source_hcall_key_cmp(&want, &keys[lo]) == 0; lo++) {
		if (source_hcall_same(v, &sel->counters[keys[lo].counter]))
			return (keys[lo].counter);
	}
	return (SOURCE_HCALL_UNMAPPED);
}

/*
 * Which counter each planned value fills.  Values come in selection
 * order; the map is checked, not assumed, and searched only where they
 * do not.
 */
static void
source_hcall_map(struct source_hcall *s, const struct selection *sel)
{
	const struct hcall_value *v;
	struct source_hcall_key	*keys = NULL;
	size_t			 k;

	for (k = 0; k < s->plan->nvalues; k++) {
		v = &s->plan->values[k];
		s->map[k] = SOURCE_HCALL_UNMAPPED;
		if (k < sel->ncounters &&
		    source_hcall_same(v, &sel->counters[k]) &&
		    (v->item >= s->nitems ||
		    s->item_pick[v->item] == sel->counters[k].pick)) {
			s->map[k] = k;
			continue;
		}
		/* Out of order (the partitions' values come by place, not
		 * by virtual processor): searched in a sorted copy. */
		if (keys == NULL)
			keys = source_hcall_keys(sel);
		s->map[k] = source_hcall_search(sel, keys, v,
		    v->item < s->nitems ? s->item_pick[v->item] : 0);
	}
	free(keys);
}

/*
 * The fill order, and whether every counter is filled exactly once by
 * some buffer: then each sample writes every counter (a value or a
 * failure) and need not clear them first.
 */
static void
source_hcall_dests(struct source_hcall *s, const struct selection *sel)
{
	const struct hcall_plan	*p = s->plan;
	struct source_hcall_dest *d;
	uint8_t			*seen;
	size_t			 i, n = p->byval_first[p->nbufs], once = 0;
	int			 twice = 0;

	s->dest = xcalloc(n + 1, sizeof *s->dest);
	seen = xcalloc(sel->ncounters + 1, 1);
	for (i = 0; i < n; i++) {
		d = &s->dest[i];
		d->value = p->byval[i];
		d->counter = s->map[d->value];
		d->record = p->values[d->value].record;
		if (d->counter != SOURCE_HCALL_UNMAPPED &&
		    d->counter < sel->ncounters && seen[d->counter]++ == 0)
			once++;
		else if (d->counter != SOURCE_HCALL_UNMAPPED)
			twice = 1;
	}
	s->covered = !twice && once == sel->ncounters;
	free(seen);
}

static int
source_hcall_select(struct source *src, const struct selection *sel,
    char **cause)
{
	struct source_hcall	*s = src->data;
	struct hcall_selection	 hs;
	struct hcall_item	*items;
	struct hcall_range	*ranges;
	struct hcall_caps	 caps;
	size_t			 nitems = 0;
	int			 error;

	source_hcall_unselect(s);
	s->sel = sel;
	if (sel->ncounters == 0)
		return (0);
	error = source_hcall_items(s, sel, &items, &nitems, &ranges, cause);
	if (error == 0) {
		memset(&hs, 0, sizeof hs);
		hs.cat = s->cat;
		hs.items = items;
		hs.nitems = nitems;
		/* Several indexes per request, whole group records where
		 * they cost no more, and each record's timebase. */
		memset(&caps, 0, sizeof caps);
		caps.version = s->topo.interface;
		caps.multi_index = 1;
		caps.whole_records = 1;
		caps.fields = HCALL_REC_TIMEBASE;
		error = hcall_plan(&hs, &caps, &s->htopo, &s->plan, cause);
		s->planned = s->cat;
	}
	free(items);
	free(ranges);
	if (error != 0)
		return (error);
	s->map = xcalloc(s->plan->nvalues + 1, sizeof *s->map);
	s->vals = xcalloc(s->plan->nvalues + 1, sizeof *s->vals);
	s->valid = xcalloc(s->plan->nvalues + 1, 1);
	s->recs = xcalloc(s->plan->nrecords + 1, sizeof *s->recs);
	source_hcall_map(s, sel);
	source_hcall_dests(s, sel);
	return (0);
}

/* A failed hcall: every value planned in buffer b gets status st. */
static void
source_hcall_fail(struct source_hcall *s, size_t b, struct raw_sample *rs,
    uint8_t st)
{
	size_t	 i, k;

	for (i = s->plan->byval_first[b]; i < s->plan->byval_first[b + 1];
	    i++) {
		k = s->dest[i].counter;
		if (k != SOURCE_HCALL_UNMAPPED && k < rs->nvalues) {
			rs->values[k].status = st;
			rs->values[k].timebase = 0;
		}
	}
}

/* The values of buffer b, extracted, into the raw sample. */
static void
source_hcall_fill(struct source_hcall *s, size_t b, struct raw_sample *rs)
{
	const struct source_hcall_dest *d;
	const struct hcall_value *v;
	struct raw_value	*rv;
	size_t			 i, k;

	for (i = s->plan->byval_first[b]; i < s->plan->byval_first[b + 1];
	    i++) {
		d = &s->dest[i];
		if (d->counter == SOURCE_HCALL_UNMAPPED ||
		    d->counter >= rs->nvalues)
			continue;
		k = d->value;
		rv = &rs->values[d->counter];
		rv->value = s->vals[k];
		rv->status = s->valid[k] ? RAW_OK : RAW_MISSING;
		/* A listed partition without its elements may be gone. */
		v = &s->plan->values[k];
		if (!s->valid[k] && v->lpar != SEL_LPAR_SELF && s->lpars_on &&
		    source_hcall_listed(s, v->lpar))
			s->lost = 1;
		rv->timebase = d->record != HCALL_NONE &&
		    (s->recs[d->record].have & HCALL_REC_TIMEBASE) ?
		    s->recs[d->record].timebase : 0;
	}
}

/* A refused H_GET_24X7_DATA: say why, mark its values. */
static void
source_hcall_refused(struct source_hcall *s, size_t b, long rc, int decoded,
    struct raw_sample *rs)
{
	const struct hcall_reqbuf *rq = &s->plan->bufs[b];
	int	 denied = rc == H_AUTHORITY || rc == H_PERMISSION;

	/* A listed partition the hypervisor no longer knows. */
	if (rc == H_PARAMETER && decoded && s->lpars_on &&
	    s->rb.detailed_rc == SOURCE_HCALL_DRC_LPAR &&
	    s->rb.failing < rq->nrequests &&
	    source_hcall_listed(s, rq->req[s->rb.failing].lpar))
		s->lost = 1;

	snprintf(rs->error, sizeof rs->error, "H_GET_24X7_DATA: %s (%ld), "
	    "detailed_rc 0x%x, failing request %u%s", hcall_rc_name(rc), rc,
	    decoded ? s->rb.detailed_rc : 0, decoded ? s->rb.failing : 0,
	    denied ? ": this partition may not collect these counters; "
	    "enable \"Allow performance information collection\" for it on "
	    "the HMC" : "");
	source_hcall_fail(s, b, rs, source_hcall_busy(rc) ? RAW_BUSY :
	    denied ? RAW_DENIED : RAW_FAILED);
}

/*
 * One H_GET_24X7_DATA: buffer b of the plan encoded, sent at timebase tb,
 * its result decoded and its values taken out.  Every result header that
 * decodes tells the catalog version the hypervisor serves.
 */
static void
source_hcall_call(struct source_hcall *s, size_t b, uint64_t tb,
    struct raw_sample *rs)
{
	char	*err = NULL;
	long	 rc;
	int	 error;

	if ((error = hcall_encode_request(&s->plan->bufs[b], s->req,
	    sizeof s->req, NULL, &err)) != 0) {
		snprintf(rs->error, sizeof rs->error, "encoding hcall %zu: %s",
		    b, err);
		free(err);
		source_hcall_fail(s, b, rs, RAW_FAILED);
		return;
	}
	rc = s->tp->data(s->tc, tb, s->req, sizeof s->req, s->res,
	    sizeof s->res);
	rs->calls++;
	error = hcall_decode_result(s->res, sizeof s->res, s->topo.interface,
	    &s->rb, &err);
	if (error == 0 && s->rb.catalog_version != 0)
		s->version = s->rb.catalog_version;
	if (rc != H_SUCCESS || error != 0) {
		if (rc != H_SUCCESS)
			source_hcall_refused(s, b, rc, error == 0, rs);
		else {
			snprintf(rs->error, sizeof rs->error, "result of "
			    "hcall %zu: %s", b, err);
			source_hcall_fail(s, b, rs, RAW_FAILED);
		}
		free(err);
		return;
	}
	/* The values read now were read under this version. */
	rs->catalog_version = s->rb.catalog_version;
	if (hcall_plan_extract(s->plan, b, &s->rb, s->vals, s->valid,
	    s->recs, &err) != 0) {
		snprintf(rs->error, sizeof rs->error, "result of hcall %zu: %s",
		    b, err);
		free(err);
	}
	source_hcall_fill(s, b, rs);
}

/* Once: why only this partition is there to read. */
static void
source_hcall_say_denied(struct source_hcall *s, struct raw_sample *rs)
{
	int	 denied = s->fresh_set ? s->fresh_denied :
		    s->topo.lpars_denied;

	/* The first sample has no interval and is not shown: say it in
	 * the second, the first interval a user sees. */
	if (!s->sampled) {
		s->sampled = 1;
		return;
	}
	if (denied && !s->denied_said && rs->error[0] == '\0') {
		snprintf(rs->error, sizeof rs->error, "%s",
		    SOURCE_HCALL_DENIED);
		s->denied_said = 1;
	}
}

static int
source_hcall_sample(struct source *src, uint64_t now, struct raw_sample *rs,
    char **cause)
{
	struct source_hcall	*s = src->data;
	size_t			 b, k;
	uint64_t		 tb;

	(void)cause;
	rs->now = now;
	rs->calls = 0;
	rs->naive_calls = 0;
	rs->catalog_version = s->version;
	/* Counters no buffer fills are missing. */
	for (k = 0; (s->plan == NULL || !s->covered ||
	    rs->nvalues != s->sel->ncounters) && k < rs->nvalues; k++) {
		rs->values[k].status = RAW_MISSING;
		rs->values[k].timebase = 0;
	}
	rs->lpars_changed = s->fresh_set;
	if (s->plan == NULL) {
		source_hcall_say_denied(s, rs);
		return (0);
	}
	rs->naive_calls = (unsigned)rs->nvalues;	/* one per counter */
	/* The partition's timebase: ns since start in timebase ticks. */
	tb = (uint64_t)((double)now * ((double)s->topo.timebase_hz / 1e9)) +
	    1;
	memset(s->recs, 0, s->plan->nrecords * sizeof *s->recs);
	s->tb = tb;
	for (b = 0; b < s->plan->nbufs; b++)
		source_hcall_call(s, b, tb, rs);
	/* Found again now, listed at the next topology call. */
	if (s->lost && s->lpars_on) {
		source_hcall_lpar_discover(s);
		if (s->gave_up && rs->error[0] == '\0')
			snprintf(rs->error, sizeof rs->error, "looking for "
			    "the frame's partitions: the hypervisor was still "
			    "busy after %u tries; the partitions listed stay, "
			    "and hvtop looks again at the next sample",
			    SOURCE_HCALL_TRIES);
	}
	rs->lpars_changed = s->fresh_set;
	source_hcall_say_denied(s, rs);
	return (0);
}

static int
source_hcall_constant(struct source *src, const char *name, double *v)
{
	struct source_hcall	*s = src->data;

	return (s->tp->constant(s->tc, name, v));
}

static void
source_hcall_close(struct source *src)
{
	struct source_hcall	*s = src->data;

	if (s == NULL)
		return;
	source_hcall_unselect(s);
	s->tp->close(s->tc);
	catalog_free(s->cat);
	free(s->image);
	free(s->lpars);
	if (s->fresh_set)
		free(s->fresh);
	free(s);
}

/* The client for a transport of the caller's (source_hcall_open()). */
const struct source_ops source_hcall_ops = {
	.name = "hcall",
	.catalog = source_hcall_catalog,
	.topology = source_hcall_topology,
	.select = source_hcall_select,
	.sample = source_hcall_sample,
	.partitions = source_hcall_partitions,
	.constant = source_hcall_constant,
	.close = source_hcall_close,
};

/* The simulated PowerVM frame, spoken to through the hcall buffers. */
static int
source_hcall_open_sim(struct source *src, const char *args, char **cause)
{
	return (source_hcall_open(src, &transport_sim_ops, args, cause));
}

const struct source_ops source_sim_ops = {
	.name = "sim",
	.open = source_hcall_open_sim,
	.catalog = source_hcall_catalog,
	.topology = source_hcall_topology,
	.select = source_hcall_select,
	.sample = source_hcall_sample,
	.partitions = source_hcall_partitions,
	.constant = source_hcall_constant,
	.close = source_hcall_close,
};
