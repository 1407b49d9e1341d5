/*
 * The simulated hypervisor: H_GET_24X7_CATALOG_PAGE and H_GET_24X7_DATA
 * over a simulated frame, as strict as a real hypervisor.  Every request
 * is checked before any result is written, and every refusal carries a
 * PAPR return code, a detailed_rc from the table in sim.h and the failing
 * request's index.
 *
 * The counter space of each domain and index is the catalog's: every
 * group record (and every record an event names) exists at its offset for
 * every chip, core and vcpu, laid out by the record's schema.  Counter
 * words hold 64-bit accumulators that change only at update ticks, like
 * the In-Memory Accumulators they model; each chip updates at its own
 * phase, with its cores.  The timing words of a record (timebase of the
 * last update, update count, measurement period, ...) are written where
 * the schema puts them.  The space, and what each counter counts, is laid
 * out once by sim-hv-space.c.
 *
 * Pure: time is the tb argument of each call; randomness comes from the
 * seed.  Nothing here is shared between hypervisors.
 */
#include "config.h"

#include "sim/sim.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "sim/sim-hv-int.h"
#include "util/be.h"
#include "util/hverr.h"
#include "util/xalloc.h"

/* One request, checked, with what it will return. */
#define SIM_HV_IX_ALL	0xffff	/* max_ix: every vcpu from starting_ix */

struct sim_hv_req {
	struct hcall_request r;
	unsigned	 lpar0;		/* first partition */
	unsigned	 nlpars;
	unsigned	 nix;		/* indexes per partition */
	unsigned	 ntg;		/* thread groups per index */
	size_t		 nelements;
};

/*
 * Create a hypervisor.  See sim.h.
 */
int
sim_hv_new(const struct sim_config *cfg, const struct catalog *cat,
    const void *image, size_t image_len, struct sim_hv **out, char **cause)
{
	struct sim_hv	*hv;
	uint32_t	 npages;
	unsigned	 i;
	int		 error;

	*out = NULL;
	hv = xcalloc(1, sizeof *hv);
	hv->cfg = *cfg;
	if ((error = sim_frame_init(&hv->frame, cfg, cause)) != 0) {
		free(hv);
		return (error);
	}
	if (image != NULL && image_len > 0) {
		hv->image = xmalloc(image_len);
		memcpy(hv->image, image, image_len);
		hv->image_len = image_len;
		hv->pages = (image_len + HCALL_PAGE_SIZE - 1) / HCALL_PAGE_SIZE;
		/* Page 0 says how long the catalog is, and its version. */
		if (catalog_peek_pages(image, image_len, &npages) == 0 &&
		    npages != 0)
			hv->pages = npages;
		(void)catalog_peek_version(image, image_len, &hv->version);
	} else if (cat != NULL)
		hv->version = cat->version;
	if (cat != NULL)
		sim_hv_space_build(hv, cat);
	hv->wl = sim_workload_new(&hv->frame, cfg->seed, cfg->steady);
	hv->lpars = sim_lpar_new(&hv->frame, hv->wl);
	hv->rng = sim_workload_hash(cfg->seed, 12, 0, 0);
	hv->phase = xcalloc(hv->frame.nchips, sizeof *hv->phase);
	for (i = 0; i < hv->frame.nchips; i++)
		hv->phase[i] = sim_workload_hash(cfg->seed, 13, i, 0) %
		    hv->frame.update_tb;
	hv->split = xcalloc(hv->frame.ncores, sizeof *hv->split);
	for (i = 0; i < hv->frame.ncores; i++)
		hv->split[i] = 22938 + (uint32_t)(sim_workload_hash(cfg->seed,
		    14, i, 0) % 19661);	/* 35% to 65% */
	hv->chipc = xcalloc(hv->frame.nchips, sizeof *hv->chipc);
	hv->corec = xcalloc(hv->frame.ncores, sizeof *hv->corec);
	hv->chipb = xcalloc(hv->frame.nchips, sizeof *hv->chipb);
	hv->coreb = xcalloc(hv->frame.ncores, sizeof *hv->coreb);
	*out = hv;
	return (0);
}

void
sim_hv_free(struct sim_hv *hv)
{
	unsigned	 c;

	if (hv == NULL)
		return;
	for (c = 0; c < SIM_NCLASSES; c++)
		free(hv->space[c].w);
	sim_lpar_free(hv->lpars);
	sim_workload_free(hv->wl);
	free(hv->image);
	free(hv->phase);
	free(hv->split);
	free(hv->chipc);
	free(hv->corec);
	free(hv->chipb);
	free(hv->coreb);
	free(hv);
}

const struct sim_frame *
sim_hv_frame(const struct sim_hv *hv)
{
	return (&hv->frame);
}

uint64_t
sim_hv_catalog_version(const struct sim_hv *hv)
{
	return (hv->version);
}

int
sim_hv_privileged(const struct sim_hv *hv)
{
	return (!hv->cfg.faults.denied);
}

int
sim_hv_interface(const struct sim_hv *hv)
{
	return (hv->cfg.interface);
}

uint64_t
sim_hv_calls(const struct sim_hv *hv)
{
	return (hv->ncalls);
}

uint64_t
sim_hv_data_calls(const struct sim_hv *hv)
{
	return (hv->ndata);
}

int
sim_hv_dpo(struct sim_hv *hv, uint64_t tb)
{
	if (!hv->frame.dpo)
		return (-HV_ENOENT);
	tb = tb > UINT64_MAX - hv->frame.uptime_tb ? UINT64_MAX :
	    tb + hv->frame.uptime_tb;
	sim_lpar_dpo(hv->lpars, tb);
	return (0);
}

/*
 * H_GET_24X7_CATALOG_PAGE.  See sim.h.
 */
long
sim_hv_catalog_page(struct sim_hv *hv, uint64_t version, uint64_t page,
    uint8_t *buf, size_t len)
{
	size_t	 off, n;

	hv->ncalls++;
	if (sim_fault_roll(&hv->rng, hv->cfg.faults.busy) &&
	    hv->ndata + 1 >= hv->cfg.faults.from)
		return (H_BUSY);
	if (len != HCALL_PAGE_SIZE)
		return (H_PARAMETER);
	if (hv->image == NULL)
		return (H_NOT_AVAILABLE);
	/* Page 0 tells the version; every later page must quote it. */
	if (page == 0 ? version != 0 : version != hv->version)
		return (H_P2);
	if (page >= hv->pages)
		return (H_P3);
	memset(buf, 0, len);
	off = (size_t)page * HCALL_PAGE_SIZE;
	if (off < hv->image_len) {
		n = hv->image_len - off;
		memcpy(buf, hv->image + off, n < len ? n : len);
	}
	if (page == 0)
		be64_put(buf + 8, hv->version);
	return (H_SUCCESS);
}

/* The last update tick of a chip at tb, and its timebase. */
static uint64_t
sim_hv_tick(const struct sim_hv *hv, unsigned chip, uint64_t tb,
    uint64_t *at)
{
	uint64_t	 u = hv->frame.update_tb, ph = hv->phase[chip], k;

	/* The frame ran for its uptime before hvtop's time 0. */
	tb = tb > UINT64_MAX - hv->frame.uptime_tb ? UINT64_MAX :
	    tb + hv->frame.uptime_tb;
	/* tb + ph cannot wrap for any tb a frame will see (2^64 ticks). */
	k = tb > UINT64_MAX - ph ? (UINT64_MAX - ph) / u : (tb + ph) / u;
	*at = k == 0 ? 0 : k * u - ph;
	return (k);
}

/* Components of a chip or core at its latest update. */
static const double *
sim_hv_components(struct sim_hv *hv, int chip_level, unsigned ix,
    uint64_t k, uint64_t at)
{
	struct sim_hv_cache	*c;

	c = chip_level ? &hv->chipc[ix] : &hv->corec[ix];
	if (!c->valid || c->tick != k) {
		if (chip_level)
			sim_lpar_chip(hv->lpars, ix, at, c->c);
		else
			sim_lpar_core(hv->lpars, ix, at, c->c);
		c->tick = k;
		c->valid = 1;
	}
	return (c->c);
}

/*
 * With start=, the components of a chip or core at its last update
 * before the first data call: what its counters count from.
 */
static const double *
sim_hv_base(struct sim_hv *hv, int chip_level, unsigned ix, unsigned chip)
{
	struct sim_hv_cache	*c;
	uint64_t		 at;

	c = chip_level ? &hv->chipb[ix] : &hv->coreb[ix];
	if (!c->valid) {
		c->tick = sim_hv_tick(hv, chip, hv->tb0, &at);
		if (chip_level)
			sim_lpar_chip(hv->lpars, ix, at, c->c);
		else
			sim_lpar_core(hv->lpars, ix, at, c->c);
		c->valid = 1;
	}
	return (c->c);
}

/* A non-negative double as a counter, wrapping at 2^64 like one. */
static uint64_t
sim_hv_u64(double x)
{
	const double	 two64 = 18446744073709551616.0;
	uint64_t	 q;

	if (!(x > 0))
		return (0);
	if (x >= two64) {
		q = (uint64_t)(x / two64);
		x -= (double)q * two64;
		if (x < 0 || x >= two64)
			return (0);
	}
	return ((uint64_t)x);
}

/* floor(v * num / 2^shift), exactly, without 128 bits. */
static uint64_t
sim_hv_share(uint64_t v, uint64_t num, unsigned shift)
{
	uint64_t	 mask = ((uint64_t)1 << shift) - 1;

	return ((v >> shift) * num + (((v & mask) * num) >> shift));
}

static uint64_t
sim_hv_field_value(const struct sim_hv *hv, unsigned field, uint64_t k,
    uint64_t at)
{
	uint64_t	 u = hv->frame.update_tb;

	switch (field) {
	case CATALOG_FIELD_TIMEBASE_UPDATE:
	case CATALOG_FIELD_TIMEBASE_FENCE:
	case 56:			/* Time-Of-Day as the update ended */
		return (at);
	case 55:			/* Time-Of-Day as the update began */
		return (at > u / 64 ? at - u / 64 : 0);
	case CATALOG_FIELD_UPDATE_COUNT:
		return (k);
	case CATALOG_FIELD_MEASUREMENT_PERIOD:
	case CATALOG_FIELD_LAST_UPDATE_PERIOD:
		return (k == 0 ? 0 : u);
	case CATALOG_FIELD_ACCUM_MEASUREMENT_PERIOD:
		return (at);
	case CATALOG_FIELD_STATUS_FLAGS:
		return (0);
	}
	return (0);
}

/*
 * A vcpu's components in its domain's place, at the latest update of the
 * chip that place runs on, and (start=) at that chip's update before the
 * first data call.
 */
static void
sim_hv_vcpu(struct sim_hv *hv, unsigned d, unsigned lpar, unsigned vcpu,
    unsigned chip, uint64_t at, const double **comp, const double **base)
{
	unsigned	 place = d - HCALL_DOMAIN_VCPU_HOME_CORE;
	uint64_t	 at0;

	if (hv->cfg.start_set) {
		(void)sim_hv_tick(hv, chip, hv->tb0, &at0);
		*base = sim_lpar_vcpu_base(hv->lpars, lpar, vcpu, place, at0);
	}
	sim_lpar_vcpu_place(hv->lpars, lpar, vcpu, place, at, hv->vcomp);
	*comp = hv->vcomp;
}

/* Fill one element's data: size bytes of the space from off. */
static void
sim_hv_fill(struct sim_hv *hv, uint8_t *data, const struct sim_hv_req *q,
    unsigned lpar, unsigned index, unsigned tg, uint64_t tb)
{
	const struct hcall_request *r = &q->r;
	const struct sim_hv_space *sp;
	const struct sim_hv_word *w;
	const double		*comp, *base = NULL;
	struct hvsim_obs	 o;
	uint64_t		 k, at, v;
	unsigned		 chip, core = 0, i, j, nw, d = r->domain;
	int			 chip_level = d == HCALL_DOMAIN_CHIP;
	int			 vcpu = d >= HCALL_DOMAIN_VCPU_HOME_CORE;

	sp = &hv->space[chip_level ? SIM_CLASS_CHIP : SIM_CLASS_CORE];
	if (chip_level)
		chip = index;
	else if (!vcpu) {
		core = index;
		chip = sim_frame_core_chip(&hv->frame, core);
	} else {
		/* The record steps with the chip its place's work ran on. */
		core = sim_lpar_home_core(hv->lpars, lpar, index);
		chip = sim_lpar_place_chip(hv->lpars, lpar, index,
		    d - HCALL_DOMAIN_VCPU_HOME_CORE);
	}
	k = sim_hv_tick(hv, chip, tb, &at);
	if (vcpu)
		sim_hv_vcpu(hv, d, lpar, index, chip, at, &comp, &base);
	else {
		if (hv->cfg.start_set)
			base = sim_hv_base(hv, chip_level, chip_level ? chip :
			    core, chip);
		comp = sim_hv_components(hv, chip_level, chip_level ? chip :
		    core, k, at);
	}
	nw = r->data_size / 8;
	w = &sp->w[r->data_offset / 8];
	for (i = 0; i < nw; i++, w++, data += 8) {
		if (w->role == SIM_WORD_FIELDS) {
			memset(data, 0, 8);
			for (j = 0; j < w->nfields; j++)
				hcall_store(data + w->f[j].off, w->f[j].len,
				    sim_hv_field_value(hv, w->f[j].field, k,
				    at));
			continue;
		}
		v = sim_hv_u64(w->scale * comp[w->comp]);
		if (base != NULL)
			v -= sim_hv_u64(w->scale * base[w->comp]);
		if (hv->cfg.interface == 2 && !chip_level &&
		    hv->frame.thread_groups > 1) {
			/* Thread groups split the core's count exactly. */
			uint64_t t0 = sim_hv_share(v, hv->split[core], 16);

			v = tg == 0 ? t0 : v - t0;
		}
		if (base != NULL)
			v += hv->cfg.start;	/* modulo 2^64, as a counter */
		be64_put(data, v);
		if (hv->obs == NULL)
			continue;
		memset(&o, 0, sizeof o);
		o.kind = HVSIM_OBS_VALUE;
		o.call = hv->ndata;
		o.tb = tb;
		o.domain = d;
		o.lpar = lpar;
		o.index = index;
		o.tg = tg;
		o.offset = r->data_offset + 8 * i;
		o.value = v;
		o.update_tb = at;
		o.updates = k;
		hv->nobs++;
		hv->obs(hv->obsarg, &o);
	}
}

/* Write the header of a refused call, if there is room for one. */
static long
sim_hv_refuse(struct sim_hv *hv, uint8_t *res, size_t reslen, int version,
    long rc, uint32_t drc, unsigned failing)
{
	struct hcall_rwriter	 w;

	if (reslen >= HCALL_RES_HDR_SIZE && reslen <= HCALL_BUF_SIZE) {
		hcall_encode_result_begin(&w, res, reslen, version);
		hcall_encode_result_status(&w, (uint8_t)failing, drc,
		    hv->cfg.cec_cfg, hv->version);
		hcall_encode_result_end(&w);
	}
	return (rc);
}

/* Whether a request names another partition than the caller's. */
static int
sim_hv_explicit_lpar(const struct hcall_request *r)
{
	return (r->domain >= HCALL_DOMAIN_VCPU_HOME_CORE &&
	    r->lpar != HCALL_LPAR_SELF);
}

/* The domain, the permission, and where the data lies in the domain. */
static long
sim_hv_check_data(const struct sim_hv *hv, const struct hcall_request *r,
    uint32_t *drc)
{
	const struct sim_hv_space *sp;
	uint32_t		 i, first, nw;

	if (r->domain < 1 || r->domain >= HCALL_DOMAIN_MAX) {
		*drc = SIM_DRC_DOMAIN;
		return (H_PARAMETER);
	}
	if (hv->cfg.faults.denied &&
	    (r->domain <= HCALL_DOMAIN_CORE || sim_hv_explicit_lpar(r))) {
		*drc = SIM_DRC_NOT_PRIVILEGED;
		return (H_AUTHORITY);
	}
	sp = &hv->space[r->domain == HCALL_DOMAIN_CHIP ? SIM_CLASS_CHIP :
	    SIM_CLASS_CORE];
	if (sp->nwords == 0) {
		*drc = SIM_DRC_DOMAIN_EMPTY;
		return (H_NOT_AVAILABLE);
	}
	if (r->data_offset % 8 != 0) {
		*drc = SIM_DRC_OFFSET_ALIGN;
		return (H_PARAMETER);
	}
	if (r->data_size == 0 || r->data_size % 8 != 0) {
		*drc = SIM_DRC_DATA_SIZE;
		return (H_PARAMETER);
	}
	first = r->data_offset / 8;
	nw = r->data_size / 8;
	if (first >= sp->nwords || sp->w[first].role == SIM_WORD_HOLE) {
		*drc = SIM_DRC_OFFSET_RANGE;
		return (H_PARAMETER);
	}
	for (i = 1; i < nw; i++) {
		if (first + i >= sp->nwords ||
		    sp->w[first + i].role == SIM_WORD_HOLE) {
			*drc = SIM_DRC_DATA_RANGE;
			return (H_PARAMETER);
		}
	}
	return (H_SUCCESS);
}

/* The indexes and partitions asked for; sets q->lpar0 and q->nlpars. */
static long
sim_hv_check_lpars(const struct sim_hv *hv, struct sim_hv_req *q,
    uint32_t *drc)
{
	const struct sim_frame	*f = &hv->frame;
	const struct hcall_request *r = &q->r;
	uint32_t		 count;

	count = r->domain == HCALL_DOMAIN_CHIP ? f->nchips :
	    r->domain == HCALL_DOMAIN_CORE ? f->ncores : f->vcpus;
	if (r->index >= count) {
		*drc = SIM_DRC_INDEX;
		return (H_PARAMETER);
	}
	/* A partition's every virtual processor from starting_ix: how
	 * its count is found without knowing it. */
	if (r->domain >= HCALL_DOMAIN_VCPU_HOME_CORE &&
	    r->max_ix == SIM_HV_IX_ALL)
		q->nix = count - r->index;
	else if (r->max_ix == 0 || (uint32_t)r->index + r->max_ix > count) {
		*drc = SIM_DRC_INDEX_COUNT;
		return (H_PARAMETER);
	} else
		q->nix = r->max_ix;
	q->lpar0 = f->lpar_id;
	q->nlpars = 1;
	if (!sim_hv_explicit_lpar(r))
		return (H_SUCCESS);
	if (r->lpar >= f->lpars) {
		*drc = SIM_DRC_LPAR;
		return (H_PARAMETER);
	}
	if (r->lpar == 0 && f->lpar_id != 0) {
		*drc = SIM_DRC_LPAR_ZERO;
		return (H_PERMISSION);
	}
	q->lpar0 = r->lpar;
	if (r->max_lpars == HCALL_LPARS_ALL)
		q->nlpars = f->lpars - r->lpar;
	else if (r->max_lpars == 0 ||
	    (uint32_t)r->lpar + r->max_lpars > f->lpars) {
		*drc = SIM_DRC_LPAR_COUNT;
		return (H_PARAMETER);
	} else
		q->nlpars = r->max_lpars;
	return (H_SUCCESS);
}

/* The thread groups asked for (v2 core and vcpu domains); sets q->ntg. */
static long
sim_hv_check_tg(const struct sim_hv *hv, int version, struct sim_hv_req *q,
    uint32_t *drc)
{
	const struct sim_frame	*f = &hv->frame;
	const struct hcall_request *r = &q->r;

	q->ntg = 1;
	if (version != 2 || r->domain < HCALL_DOMAIN_CORE)
		return (H_SUCCESS);
	if (r->tg >= f->thread_groups) {
		*drc = SIM_DRC_TG;
		return (H_PARAMETER);
	}
	if (r->max_tg == HCALL_TG_ALL)
		q->ntg = f->thread_groups - r->tg;
	else if (r->max_tg == 0 ||
	    (unsigned)r->tg + r->max_tg > f->thread_groups) {
		*drc = SIM_DRC_TG_COUNT;
		return (H_PARAMETER);
	} else
		q->ntg = r->max_tg;
	return (H_SUCCESS);
}

/*
 * Judge a decoded request, in the order of the table in sim.h, and work
 * out what it returns.  Returns H_SUCCESS or the return code, with *drc
 * set.
 */
static long
sim_hv_check(struct sim_hv *hv, int version, struct sim_hv_req *q,
    uint32_t *drc)
{
	long	 rc;

	if ((rc = sim_hv_check_data(hv, &q->r, drc)) != H_SUCCESS ||
	    (rc = sim_hv_check_lpars(hv, q, drc)) != H_SUCCESS ||
	    (rc = sim_hv_check_tg(hv, version, q, drc)) != H_SUCCESS)
		return (rc);
	q->nelements = (size_t)q->nlpars * q->nix * q->ntg;
	*drc = SIM_DRC_OK;
	return (H_SUCCESS);
}

/* Write the elements of one request, at most max of them. */
static void
sim_hv_elements(struct sim_hv *hv, struct hcall_rwriter *w,
    const struct sim_hv_req *q, size_t max, uint64_t tb)
{
	const struct hcall_request *r = &q->r;
	uint8_t			*data;
	unsigned		 l, x, t, lpar;
	size_t			 n = 0;
	int			 vcpu;

	vcpu = r->domain >= HCALL_DOMAIN_VCPU_HOME_CORE;
	for (l = 0; l < q->nlpars; l++) {
		lpar = q->lpar0 + l;
		for (x = 0; x < q->nix; x++) {
			for (t = 0; t < q->ntg; t++) {
				if (n++ == max)
					return;
				data = hcall_encode_result_element(w,
				    vcpu ? (uint16_t)lpar : 0,
				    (uint16_t)(r->index + x),
				    vcpu ? 0x10000U + lpar : 0xffffffffU,
				    (uint8_t)(r->tg + t));
				if (data == NULL)
					return;	/* checked before: cannot be */
				sim_hv_fill(hv, data, q, lpar, r->index + x,
				    r->tg + t, tb);
			}
		}
	}
}

/*
 * Decode the request buffer with the hcall module's decoder and judge
 * each request in turn, in the order of the table in sim.h: the header,
 * then each request's reserved bytes and fields.  Returns H_SUCCESS with
 * *n requests in q[], or the return code with *drc and *failing set.
 */
static long
sim_hv_requests(struct sim_hv *hv, const uint8_t *req, size_t reqlen,
    struct sim_hv_req *q, unsigned *n, uint32_t *drc, unsigned *failing)
{
	unsigned	 i;
	char		*cause = NULL;
	int		 version, error;
	long		 rc;

	*failing = 0xff;
	error = hcall_decode_request_header(req, reqlen, &version, n, &cause);
	free(cause);
	cause = NULL;
	if (version != hv->cfg.interface) {
		*drc = SIM_DRC_VERSION;
		return (H_PARAMETER);
	}
	switch (error) {
	case 0:
		break;
	case -HV_EFORMAT:
		*drc = SIM_DRC_RESERVED;
		return (H_PARAMETER);
	case -HV_ELIMIT:
		*drc = SIM_DRC_TOO_MANY;
		return (H_PARAMETER);
	default:
		*drc = SIM_DRC_REQ_BUF_SHORT;
		return (H_P2);
	}
	if (*n == 0) {
		*drc = SIM_DRC_NO_REQUESTS;
		return (H_PARAMETER);
	}
	for (i = 0; i < *n; i++) {
		*failing = i;
		memset(&q[i], 0, sizeof q[i]);
		if (hcall_decode_request_at(req, reqlen, version, i, &q[i].r,
		    &cause) != 0) {
			free(cause);
			*drc = SIM_DRC_RESERVED;
			return (H_PARAMETER);
		}
		if ((rc = sim_hv_check(hv, version, &q[i], drc)) != H_SUCCESS)
			return (rc);
	}
	*drc = SIM_DRC_OK;
	return (H_SUCCESS);
}

/*
 * Write the results of n good requests; cut short (half the results, the
 * next one partly) when cut.  Returns H_SUCCESS, or H_P4 when they do not
 * fit (those that fit are written).
 */
static long
sim_hv_results(struct sim_hv *hv, uint64_t tb, const struct sim_hv_req *q,
    unsigned n, int cut, uint8_t *res, size_t reslen)
{
	struct hcall_rwriter	 w;
	size_t			 need, keep = n, half = 0;
	int			 version = hv->cfg.interface;
	unsigned		 i;

	if (cut) {
		keep = n / 2;
		half = q[keep].nelements > 1 ? q[keep].nelements / 2 : 0;
	}
	hcall_encode_result_begin(&w, res, reslen, version);
	for (i = 0; i < n; i++) {
		if (i > keep || (i == keep && half == 0))
			break;
		need = hcall_result_bytes(version, i == keep ? half :
		    q[i].nelements, q[i].r.data_size);
		if (!be_fits(reslen, w.off, need)) {
			hcall_encode_result_end(&w);
			hcall_encode_result_status(&w, (uint8_t)i,
			    SIM_DRC_RESULT_FULL, hv->cfg.cec_cfg, hv->version);
			return (H_P4);
		}
		hcall_encode_result_open(&w, (uint8_t)i, q[i].r.data_size);
		sim_hv_elements(hv, &w, &q[i], i == keep ? half :
		    q[i].nelements, tb);
		hcall_encode_result_close(&w, i != keep);
	}
	hcall_encode_result_end(&w);
	if (cut)
		hcall_encode_result_status(&w, (uint8_t)keep, SIM_DRC_SHORT,
		    hv->cfg.cec_cfg, hv->version);
	else
		hcall_encode_result_status(&w, 0, SIM_DRC_OK, hv->cfg.cec_cfg,
		    hv->version);
	return (H_SUCCESS);
}

void
sim_hv_observe(struct sim_hv *hv, hvsim_observer *fn, void *arg)
{
	hv->obs = fn;
	hv->obsarg = arg;
}

static long
sim_hv_data_call(struct sim_hv *hv, uint64_t tb, const uint8_t *req,
    size_t reqlen, uint8_t *res, size_t reslen)
{
	struct sim_hv_req	 q[HCALL_MAX_REQUESTS_V1];
	unsigned		 n, failing;
	uint32_t		 drc;
	long			 rc;
	int			 version = hv->cfg.interface, busy, cut;

	hv->ncalls++;
	hv->ndata++;
	if (hv->cfg.start_set && !hv->anchored) {
		hv->anchored = 1;
		hv->tb0 = tb;
	}
	if (hv->cfg.faults.version_change_at != 0 &&
	    hv->ndata == hv->cfg.faults.version_change_at)
		hv->version++;
	/* Both dice roll on every call so one fault never shifts another. */
	busy = sim_fault_roll(&hv->rng, hv->cfg.faults.busy);
	cut = sim_fault_roll(&hv->rng, hv->cfg.faults.short_results);
	if (hv->ndata < hv->cfg.faults.from)
		busy = cut = 0;

	/* The hcall's arguments first: where the buffers are, how long. */
	if (reslen < HCALL_RES_HDR_SIZE || reslen > HCALL_BUF_SIZE)
		return (sim_hv_refuse(hv, res, reslen, version, H_P4,
		    SIM_DRC_RES_BUF_LEN, 0xff));
	if (reqlen < HCALL_REQ_HDR_SIZE || reqlen > HCALL_BUF_SIZE)
		return (sim_hv_refuse(hv, res, reslen, version, H_P2,
		    SIM_DRC_REQ_BUF_LEN, 0xff));
	if (busy)
		return (sim_hv_refuse(hv, res, reslen, version, H_BUSY,
		    SIM_DRC_BUSY, 0xff));
	rc = sim_hv_requests(hv, req, reqlen, q, &n, &drc, &failing);
	if (rc != H_SUCCESS)
		return (sim_hv_refuse(hv, res, reslen, version, rc, drc,
		    failing));
	return (sim_hv_results(hv, tb, q, n, cut, res, reslen));
}

/*
 * H_GET_24X7_DATA.  See sim.h.
 */
long
sim_hv_data(struct sim_hv *hv, uint64_t tb, const uint8_t *req, size_t reqlen,
    uint8_t *res, size_t reslen)
{
	struct hvsim_obs	 o;
	long			 rc;

	hv->nobs = 0;
	rc = sim_hv_data_call(hv, tb, req, reqlen, res, reslen);
	if (hv->obs != NULL) {
		memset(&o, 0, sizeof o);
		o.kind = HVSIM_OBS_CALL;
		o.call = hv->ndata;
		o.tb = tb;
		o.rc = rc;
		o.drc = reslen >= HCALL_RES_HDR_SIZE ?
		    (uint32_t)HCALL_GET(RES_HDR, detailed_rc, res) : 0;
		o.version = hv->version;
		o.nvalues = hv->nobs;
		hv->obs(hv->obsarg, &o);
	}
	return (rc);
}
