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
 * "sim" is the client over the simulated PowerVM.
 */
#include "config.h"

#include "source/source-hcall.h"

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

#define SOURCE_HCALL_TRIES	20	/* for a busy catalog page */
#define SOURCE_HCALL_UNMAPPED	((size_t)-1)	/* plan value not selected */

struct source_hcall {
	const struct transport_ops *tp;
	void			*tc;		/* the transport's */
	struct topology		 topo;
	struct hcall_topology	 htopo;

	uint8_t			*image;		/* as fetched by hcalls */
	size_t			 image_len;
	struct catalog		*cat;		/* parsed from the image */
	struct catalog		*planned;	/* the one the plan points
						   into (cat, or an older) */
	uint64_t		 version;	/* as the hypervisor last
						   said it */

	const struct selection	*sel;
	struct hcall_plan	*plan;
	size_t			*map;		/* plan value -> counter */
	uint64_t		*vals;
	uint8_t			*valid;
	struct hcall_record_sample *recs;
	uint8_t			 req[HCALL_BUF_SIZE];
	uint8_t			 res[HCALL_BUF_SIZE];
	struct hcall_resbuf	 rb;
};

static int
source_hcall_busy(long rc)
{
	return (rc == H_BUSY || (rc >= H_LONG_BUSY_ORDER_1_MSEC &&
	    rc <= H_LONG_BUSY_ORDER_100_SEC));
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

	memset(ht, 0, sizeof *ht);
	ht->count[HCALL_DOMAIN_CHIP] = t->chips;
	ht->count[HCALL_DOMAIN_CORE] = t->cores;
	for (d = HCALL_DOMAIN_VCPU_HOME_CORE; d < HCALL_DOMAIN_MAX; d++)
		ht->count[d] = t->vcpus;
	/* An SMT8 core is two SMT4 thread groups. */
	ht->thread_groups = t->smt == 8 ? 2 : 1;
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

	/* A new catalog version means the pages must be fetched again. */
	if (catalog_peek_version(s->image, s->image_len, &v) == 0 &&
	    v != s->version && (error = source_hcall_fetch(s, cause)) != 0)
		return (error);
	*buf = s->image;
	*len = s->image_len;
	return (0);
}

static int
source_hcall_topology(struct source *src, struct topology *t, char **cause)
{
	struct source_hcall	*s = src->data;

	(void)cause;
	*t = s->topo;
	return (0);
}

static void
source_hcall_unselect(struct source_hcall *s)
{
	hcall_plan_free(s->plan);
	s->plan = NULL;
	free(s->map);
	free(s->vals);
	free(s->valid);
	free(s->recs);
	s->map = NULL;
	s->vals = NULL;
	s->valid = NULL;
	s->recs = NULL;
	/* No plan points into an older model any more. */
	if (s->planned != s->cat)
		catalog_free(s->planned);
	s->planned = NULL;
}

/*
 * The selection as planner items, one per pick, its indices as ranges.
 * The selection points into the caller's parse of the catalog; the
 * planner wants this source's, so entries are found again by name.
 * Returns 0 with *itemsp and *rangesp (caller frees both).
 */
static int
source_hcall_items(struct source_hcall *s, const struct selection *sel,
    struct hcall_item **itemsp, struct hcall_range **rangesp, char **cause)
{
	const struct sel_pick	*pk;
	struct hcall_item	*items, *it;
	struct hcall_range	*ranges;
	size_t			 i, j, nr, total = 0;

	for (i = 0; i < sel->npicks; i++)
		total += sel->picks[i].nindices;
	items = xcalloc(sel->npicks, sizeof *items);
	ranges = xcalloc(total, sizeof *ranges);
	*itemsp = items;
	*rangesp = ranges;
	for (i = nr = 0; i < sel->npicks; i++) {
		pk = &sel->picks[i];
		it = &items[i];
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
		it->domain = (uint8_t)pk->domain;
		it->lpar = pk->lpar;
		it->ranges = &ranges[nr];
		for (j = 0; j < pk->nindices; j++) {
			if (it->nranges > 0 && ranges[nr - 1].first +
			    ranges[nr - 1].count == pk->indices[j]) {
				ranges[nr - 1].count++;
				continue;
			}
			ranges[nr].first = (uint16_t)pk->indices[j];
			ranges[nr].count = 1;
			nr++;
			it->nranges++;
		}
	}
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
	    v->domain == c->domain && v->offset == c->event->offset &&
	    strcmp(v->event->name, c->event->name) == 0);
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
	size_t			 j, k;

	for (k = 0; k < s->plan->nvalues; k++) {
		v = &s->plan->values[k];
		s->map[k] = SOURCE_HCALL_UNMAPPED;
		if (k < sel->ncounters &&
		    source_hcall_same(v, &sel->counters[k])) {
			s->map[k] = k;
			continue;
		}
		for (j = 0; j < sel->ncounters; j++) {
			if (source_hcall_same(v, &sel->counters[j])) {
				s->map[k] = j;
				break;
			}
		}
	}
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
	int			 error;

	source_hcall_unselect(s);
	s->sel = sel;
	if (sel->ncounters == 0)
		return (0);
	error = source_hcall_items(s, sel, &items, &ranges, cause);
	if (error == 0) {
		memset(&hs, 0, sizeof hs);
		hs.cat = s->cat;
		hs.items = items;
		hs.nitems = sel->npicks;
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
		k = s->map[s->plan->byval[i]];
		if (k != SOURCE_HCALL_UNMAPPED && k < rs->nvalues)
			rs->values[k].status = st;
	}
}

/* The values of buffer b, extracted, into the raw sample. */
static void
source_hcall_fill(struct source_hcall *s, size_t b, struct raw_sample *rs)
{
	const struct hcall_value *v;
	struct raw_value	*rv;
	size_t			 i, k;

	for (i = s->plan->byval_first[b]; i < s->plan->byval_first[b + 1];
	    i++) {
		k = s->plan->byval[i];
		if (s->map[k] == SOURCE_HCALL_UNMAPPED ||
		    s->map[k] >= rs->nvalues)
			continue;
		v = &s->plan->values[k];
		rv = &rs->values[s->map[k]];
		rv->value = s->vals[k];
		rv->status = s->valid[k] ? RAW_OK : RAW_MISSING;
		if (v->record != HCALL_NONE &&
		    (s->recs[v->record].have & HCALL_REC_TIMEBASE))
			rv->timebase = s->recs[v->record].timebase;
	}
}

/* A refused H_GET_24X7_DATA: say why, mark its values. */
static void
source_hcall_refused(struct source_hcall *s, size_t b, long rc, int decoded,
    struct raw_sample *rs)
{
	int	 denied = rc == H_AUTHORITY || rc == H_PERMISSION;

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
	for (k = 0; k < rs->nvalues; k++) {
		rs->values[k].status = RAW_MISSING;
		rs->values[k].timebase = 0;
	}
	if (s->plan == NULL)
		return (0);
	rs->naive_calls = (unsigned)rs->nvalues;	/* one per counter */
	/* The partition's timebase: ns since start in timebase ticks. */
	tb = (uint64_t)((double)now * ((double)s->topo.timebase_hz / 1e9)) +
	    1;
	memset(s->recs, 0, s->plan->nrecords * sizeof *s->recs);
	for (b = 0; b < s->plan->nbufs; b++)
		source_hcall_call(s, b, tb, rs);
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
	free(s);
}

/* The client for a transport of the caller's (source_hcall_open()). */
const struct source_ops source_hcall_ops = {
	.name = "hcall",
	.catalog = source_hcall_catalog,
	.topology = source_hcall_topology,
	.select = source_hcall_select,
	.sample = source_hcall_sample,
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
	.constant = source_hcall_constant,
	.close = source_hcall_close,
};
