/*
 * The "sim" source: a simulated PowerVM frame spoken to through the real
 * hcall buffers.  The catalog is fetched page by page with
 * H_GET_24X7_CATALOG_PAGE, and every sample is the planner's request
 * buffers sent to H_GET_24X7_DATA and the result buffers decoded, exactly
 * as a hypervisor transport would do it.  The simulated hypervisor is the
 * only thing here that is not real.
 *
 * Options: the simulator's keys (chips, cores, smt, seed, faults, ...;
 * see sim.h), catalog=power8|power9|power10|FILE, and clock=real|virtual
 * (the program's clock; ignored here).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "engine/selection.h"
#include "hcall/hcall.h"
#include "sim/sim.h"
#include "source/source-catalog.h"
#include "source/source.h"
#include "util/hverr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define SOURCE_SIM_DEFAULT_CATALOG	"power9"
#define SOURCE_SIM_XBUS_HZ	4.8e9	/* link clocks of the frame */
#define SOURCE_SIM_ABUS_HZ	6.4e9
#define SOURCE_SIM_PHB_HZ	250e6
#define SOURCE_SIM_TRIES	20	/* for a busy catalog page */
#define ENG_NONE_COUNTER	((size_t)-1)	/* plan value not selected */

struct source_sim {
	struct sim_config	 cfg;
	struct sim_hv		*hv;
	struct catalog		*hvcat;		/* the hypervisor's copy */
	char			*catname;
	uint8_t			*image;		/* as fetched by hcalls */
	size_t			 image_len;

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

/* Split the option string: catalog= and clock= are ours. */
static int
source_sim_args(struct source_sim *s, const char *args, char **cause)
{
	char	*copy, *tok, *save = NULL, *eq;
	int	 error = 0;

	if (args == NULL)
		return (0);
	copy = xstrdup(args);
	for (tok = strtok_r(copy, ",", &save); tok != NULL && error == 0;
	    tok = strtok_r(NULL, ",", &save)) {
		if ((eq = strchr(tok, '=')) == NULL) {
			*cause = xasprintf("--sim %s: expected KEY=VALUE", tok);
			error = -HV_EFORMAT;
			break;
		}
		*eq++ = '\0';
		if (strcmp(tok, "catalog") == 0) {
			free(s->catname);
			s->catname = xstrdup(eq);
		} else if (strcmp(tok, "clock") == 0) {
			if (strcmp(eq, "real") != 0 &&
			    strcmp(eq, "virtual") != 0) {
				*cause = xasprintf("--sim clock=%s: use real "
				    "or virtual", eq);
				error = -HV_EFORMAT;
			}
		} else if (strcmp(tok, "pmu") == 0 ||
		    strcmp(tok, "sysfs_root") == 0) {
			continue;
		} else
			error = sim_config_set(&s->cfg, tok, eq, cause);
	}
	free(copy);
	return (error);
}

/* One catalog page; a busy hypervisor is asked again a few times. */
static long
source_sim_page(struct source_sim *s, uint64_t version, uint64_t page,
    uint8_t *buf)
{
	long	 rc;
	int	 tries = 0;

	do
		rc = sim_hv_catalog_page(s->hv, version, page, buf,
		    HCALL_PAGE_SIZE);
	while ((rc == H_BUSY || (rc >= H_LONG_BUSY_ORDER_1_MSEC &&
	    rc <= H_LONG_BUSY_ORDER_100_SEC)) && ++tries < SOURCE_SIM_TRIES);
	return (rc);
}

/* Fetch the whole catalog through H_GET_24X7_CATALOG_PAGE. */
static int
source_sim_fetch(struct source_sim *s, char **cause)
{
	uint8_t		 page[HCALL_PAGE_SIZE];
	uint64_t	 version, npages, i;
	long		 rc;

	if ((rc = source_sim_page(s, 0, 0, page)) != 0) {
		*cause = xasprintf("H_GET_24X7_CATALOG_PAGE(page 0): %s (%ld)",
		    hcall_rc_name(rc), rc);
		return (-HV_EHCALL);
	}
	npages = (uint64_t)page[4] << 24 | (uint64_t)page[5] << 16 |
	    (uint64_t)page[6] << 8 | page[7];
	version = 0;
	for (i = 8; i < 16; i++)
		version = version << 8 | page[i];
	if (npages == 0 || npages > SOURCE_CATALOG_MAX / HCALL_PAGE_SIZE) {
		*cause = xasprintf("catalog page 0 claims %llu pages",
		    (unsigned long long)npages);
		return (-HV_EFORMAT);
	}
	free(s->image);
	s->image_len = (size_t)npages * HCALL_PAGE_SIZE;
	s->image = xmalloc(s->image_len);
	memcpy(s->image, page, sizeof page);
	for (i = 1; i < npages; i++) {
		rc = source_sim_page(s, version, i,
		    s->image + i * HCALL_PAGE_SIZE);
		if (rc != 0) {
			*cause = xasprintf("H_GET_24X7_CATALOG_PAGE(version "
			    "%llu, page %llu): %s (%ld)",
			    (unsigned long long)version,
			    (unsigned long long)i, hcall_rc_name(rc), rc);
			return (-HV_EHCALL);
		}
	}
	return (0);
}

static int
source_sim_open(struct source *src, const char *args, char **cause)
{
	const struct sim_frame	*fr;
	struct source_sim	*s;
	void			*img = NULL;
	size_t			 len;
	char			*err = NULL;
	int			 error;

	s = xcalloc(1, sizeof *s);
	src->data = s;
	sim_config_defaults(&s->cfg);
	s->catname = xstrdup(SOURCE_SIM_DEFAULT_CATALOG);
	if ((error = source_sim_args(s, args, cause)) != 0)
		return (error);
	if ((error = source_catalog_read(s->catname, &img, &len, cause)) != 0)
		return (error);
	/* Without interface=, the catalog decides, as hvcat info says. */
	error = catalog_parse(img, len, args == NULL ||
	    strstr(args, "interface=") == NULL ? 0 : s->cfg.interface,
	    &s->hvcat, &err);
	if (error == 0)
		s->cfg.interface = s->hvcat->interface;
	if (error != 0) {
		*cause = xasprintf("%s: %s", s->catname, err);
		free(err);
		free(img);
		return (error);
	}
	error = sim_hv_new(&s->cfg, s->hvcat, img, len, &s->hv, cause);
	free(img);
	if (error != 0)
		return (error);
	if ((error = source_sim_fetch(s, cause)) != 0)
		return (error);
	fr = sim_hv_frame(s->hv);
	src->label = xasprintf("SIMULATED frame: %u chip%s x %u cores, SMT%u, "
	    "%s catalog", fr->nchips, fr->nchips == 1 ? "" : "s",
	    fr->cores_per_chip, fr->smt, s->catname);
	return (0);
}

static int
source_sim_catalog(struct source *src, const void **buf, size_t *len,
    char **cause)
{
	struct source_sim	*s = src->data;
	int			 error;

	/* A new catalog version means the pages must be fetched again. */
	if (s->image != NULL && s->image_len >= 16) {
		uint64_t v = 0;
		size_t i;

		for (i = 8; i < 16; i++)
			v = v << 8 | s->image[i];
		if (v != sim_hv_catalog_version(s->hv) &&
		    (error = source_sim_fetch(s, cause)) != 0)
			return (error);
	}
	*buf = s->image;
	*len = s->image_len;
	return (0);
}

static int
source_sim_topology(struct source *src, struct topology *t, char **cause)
{
	struct source_sim	*s = src->data;
	const struct sim_frame	*fr = sim_hv_frame(s->hv);

	(void)cause;
	memset(t, 0, sizeof *t);
	t->sockets = fr->sockets;
	t->chips = fr->nchips;
	t->cores = fr->ncores;
	t->smt = fr->smt;
	t->vcpus = fr->vcpus;
	t->interface = s->cfg.interface;
	t->privileged = sim_hv_privileged(s->hv);
	t->timebase_hz = fr->tb_hz;
	return (0);
}

static void
source_sim_unselect(struct source_sim *s)
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
}

/*
 * Whether a planned value is a selected counter.  The selection points
 * into the caller's parse of the catalog, the plan into this source's:
 * events match by name and offset.
 */
static int
source_sim_same(const struct hcall_value *v, const struct sel_counter *c)
{
	return (v->event != NULL && v->index == c->index &&
	    v->domain == c->domain && v->offset == c->event->offset &&
	    strcmp(v->event->name, c->event->name) == 0);
}

/*
 * Plan the selection: one item per pick, its indices as ranges.  The
 * planner lists values item by item, index by index, event by event, as
 * the selection lists counters; the map is checked, not assumed.
 */
static int
source_sim_select(struct source *src, const struct selection *sel,
    char **cause)
{
	struct source_sim	*s = src->data;
	struct hcall_selection	 hs;
	struct hcall_item	*items;
	struct hcall_range	*ranges;
	struct hcall_caps	 caps;
	struct hcall_topology	 topo;
	const struct sel_pick	*pk;
	const struct hcall_value *v;
	size_t			 i, j, k, nr, total = 0;
	int			 error;

	source_sim_unselect(s);
	s->sel = sel;
	if (sel->ncounters == 0)
		return (0);
	for (i = 0; i < sel->npicks; i++)
		total += sel->picks[i].nindices;
	items = xcalloc(sel->npicks, sizeof *items);
	ranges = xcalloc(total, sizeof *ranges);
	for (i = nr = 0; i < sel->npicks; i++) {
		pk = &sel->picks[i];
		items[i].kind = pk->kind == SEL_GROUP ? HCALL_ITEM_GROUP :
		    HCALL_ITEM_EVENT;
		/* The selection points into the caller's parse of the
		 * catalog; the planner wants this copy's entries. */
		if (pk->kind == SEL_GROUP)
			items[i].group = catalog_find_group(s->hvcat,
			    pk->group->name);
		else
			items[i].event = catalog_find_sysfs(s->hvcat,
			    pk->events[0]->sysfs_name);
		if (items[i].group == NULL && items[i].event == NULL) {
			*cause = xasprintf("%s is not in the frame's catalog",
			    pk->name);
			free(items);
			free(ranges);
			return (-HV_ENOENT);
		}
		items[i].domain = (uint8_t)pk->domain;
		items[i].lpar = pk->lpar;
		items[i].ranges = &ranges[nr];
		for (j = 0; j < pk->nindices; j++) {
			if (items[i].nranges > 0 &&
			    ranges[nr - 1].first + ranges[nr - 1].count ==
			    pk->indices[j]) {
				ranges[nr - 1].count++;
				continue;
			}
			ranges[nr].first = (uint16_t)pk->indices[j];
			ranges[nr].count = 1;
			nr++;
			items[i].nranges++;
		}
	}
	memset(&hs, 0, sizeof hs);
	hs.cat = s->hvcat;
	hs.items = items;
	hs.nitems = sel->npicks;
	memset(&caps, 0, sizeof caps);
	caps.version = s->cfg.interface;
	caps.multi_index = 1;
	caps.whole_records = 1;
	caps.fields = HCALL_REC_TIMEBASE;
	sim_frame_topology(sim_hv_frame(s->hv), &topo);
	error = hcall_plan(&hs, &caps, &topo, &s->plan, cause);
	free(items);
	free(ranges);
	if (error != 0)
		return (error);

	s->map = xcalloc(s->plan->nvalues + 1, sizeof *s->map);
	s->vals = xcalloc(s->plan->nvalues + 1, sizeof *s->vals);
	s->valid = xcalloc(s->plan->nvalues + 1, 1);
	s->recs = xcalloc(s->plan->nrecords + 1, sizeof *s->recs);
	/* Values come in selection order; search only where they do not. */
	for (k = 0; k < s->plan->nvalues; k++) {
		v = &s->plan->values[k];
		s->map[k] = ENG_NONE_COUNTER;
		if (k < sel->ncounters &&
		    source_sim_same(v, &sel->counters[k])) {
			s->map[k] = k;
			continue;
		}
		for (j = 0; j < sel->ncounters; j++) {
			if (source_sim_same(v, &sel->counters[j])) {
				s->map[k] = j;
				break;
			}
		}
	}
	return (0);
}

/* A failed hcall: every value planned in buffer b gets status st. */
static void
source_sim_fail(struct source_sim *s, size_t b, struct raw_sample *rs,
    uint8_t st)
{
	size_t	 i, k;

	for (i = s->plan->byval_first[b]; i < s->plan->byval_first[b + 1];
	    i++) {
		k = s->map[s->plan->byval[i]];
		if (k != ENG_NONE_COUNTER && k < rs->nvalues)
			rs->values[k].status = st;
	}
}

static int
source_sim_sample(struct source *src, uint64_t now, struct raw_sample *rs,
    char **cause)
{
	struct source_sim		*s = src->data;
	const struct sim_frame		*fr = sim_hv_frame(s->hv);
	const struct hcall_value	*v;
	size_t				 b, i, k;
	uint64_t			 tb;
	long				 rc;
	char				*err = NULL;
	int				 error;

	(void)cause;
	rs->now = now;
	rs->calls = 0;
	rs->naive_calls = 0;
	rs->catalog_version = sim_hv_catalog_version(s->hv);
	for (k = 0; k < rs->nvalues; k++) {
		rs->values[k].status = RAW_MISSING;
		rs->values[k].timebase = 0;
	}
	if (s->plan == NULL)
		return (0);
	rs->naive_calls = (unsigned)rs->nvalues;	/* one per counter */
	/* The frame's timebase: ns since start in timebase ticks. */
	tb = (uint64_t)((double)now * ((double)fr->tb_hz / 1e9)) + 1;
	memset(s->recs, 0, s->plan->nrecords * sizeof *s->recs);
	for (b = 0; b < s->plan->nbufs; b++) {
		error = hcall_encode_request(&s->plan->bufs[b], s->req,
		    sizeof s->req, NULL, &err);
		if (error != 0) {
			snprintf(rs->error, sizeof rs->error, "encoding hcall "
			    "%zu: %s", b, err);
			free(err);
			source_sim_fail(s, b, rs, RAW_FAILED);
			continue;
		}
		rc = sim_hv_data(s->hv, tb, s->req, sizeof s->req, s->res,
		    sizeof s->res);
		rs->calls++;
		error = hcall_decode_result(s->res, sizeof s->res,
		    s->cfg.interface, &s->rb, &err);
		if (rc != H_SUCCESS) {
			snprintf(rs->error, sizeof rs->error,
			    "H_GET_24X7_DATA: %s (%ld), detailed_rc 0x%x, "
			    "failing request %u%s", hcall_rc_name(rc), rc,
			    error == 0 ? s->rb.detailed_rc : 0,
			    error == 0 ? s->rb.failing : 0,
			    rc == H_AUTHORITY || rc == H_PERMISSION ?
			    ": this partition may not collect these counters;"
			    " enable \"Allow performance information "
			    "collection\" for it on the HMC" : "");
			free(err);
			err = NULL;
			source_sim_fail(s, b, rs, rc == H_BUSY ||
			    (rc >= H_LONG_BUSY_ORDER_1_MSEC &&
			    rc <= H_LONG_BUSY_ORDER_100_SEC) ? RAW_BUSY :
			    rc == H_AUTHORITY || rc == H_PERMISSION ?
			    RAW_DENIED : RAW_FAILED);
			continue;
		}
		if (error != 0) {
			snprintf(rs->error, sizeof rs->error, "result of "
			    "hcall %zu: %s", b, err);
			free(err);
			source_sim_fail(s, b, rs, RAW_FAILED);
			continue;
		}
		rs->catalog_version = s->rb.catalog_version;
		error = hcall_plan_extract(s->plan, b, &s->rb, s->vals,
		    s->valid, s->recs, &err);
		if (error != 0) {
			snprintf(rs->error, sizeof rs->error, "result of "
			    "hcall %zu: %s", b, err);
			free(err);
			err = NULL;
		}
		for (i = s->plan->byval_first[b];
		    i < s->plan->byval_first[b + 1]; i++) {
			k = s->plan->byval[i];
			if (s->map[k] == ENG_NONE_COUNTER ||
			    s->map[k] >= rs->nvalues)
				continue;
			v = &s->plan->values[k];
			rs->values[s->map[k]].value = s->vals[k];
			rs->values[s->map[k]].status = s->valid[k] ?
			    RAW_OK : RAW_MISSING;
			if (v->record != HCALL_NONE &&
			    (s->recs[v->record].have & HCALL_REC_TIMEBASE))
				rs->values[s->map[k]].timebase =
				    s->recs[v->record].timebase;
		}
	}
	return (0);
}

static int
source_sim_constant(struct source *src, const char *name, double *v)
{
	struct source_sim	*s = src->data;
	const struct sim_frame	*fr = sim_hv_frame(s->hv);

	if (strcmp(name, "PB_Freq") == 0 || strcmp(name, "PB_FREQ") == 0) {
		*v = (double)fr->nest_hz;
		return (0);
	}
	if (strcmp(name, "CPU_Freq") == 0 || strcmp(name, "cpu_hz") == 0) {
		*v = (double)fr->core_hz;
		return (0);
	}
	/* The frame's link clocks: X-bus, A-bus and PCIe host bridges. */
	if (strcmp(name, "XBUS_Freq") == 0) {
		*v = SOURCE_SIM_XBUS_HZ;
		return (0);
	}
	if (strcmp(name, "ABUS_Freq") == 0) {
		*v = SOURCE_SIM_ABUS_HZ;
		return (0);
	}
	if (strcmp(name, "PHB_Freq") == 0) {
		*v = SOURCE_SIM_PHB_HZ;
		return (0);
	}
	return (-HV_ENOENT);
}

static void
source_sim_close(struct source *src)
{
	struct source_sim	*s = src->data;

	if (s == NULL)
		return;
	source_sim_unselect(s);
	sim_hv_free(s->hv);
	catalog_free(s->hvcat);
	free(s->catname);
	free(s->image);
	free(s);
}

const struct source_ops source_sim_ops = {
	.name = "sim",
	.open = source_sim_open,
	.catalog = source_sim_catalog,
	.topology = source_sim_topology,
	.select = source_sim_select,
	.sample = source_sim_sample,
	.constant = source_sim_constant,
	.close = source_sim_close,
};
