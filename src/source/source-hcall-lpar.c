/*
 * Finding the frame's partitions for the hcall client: requests of
 * domain 3 (a virtual processor's home core) for this partition, then
 * for every other, and each one's virtual processors from the elements
 * that come back.  It is apart from source-hcall.c because it is a search
 * of its own, with its own limits and retries, that the sampling path
 * only starts (source_hcall_lpar_discover()) and never enters.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "hcall/hcall.h"
#include "model/selection.h"
#include "source/source-hcall-int.h"
#include "source/transport.h"
#include "util/hverr.h"
#include "util/xalloc.h"

/*
 * Finding the partitions: max_ix 0xffff asks for every virtual processor
 * from starting_ix, and the search stops at these many partitions,
 * elements or calls, whatever the hypervisor answers.
 */
#define SOURCE_HCALL_IX_ALL	0xffff
#define SOURCE_HCALL_MAX_LPARS	65535
#define SOURCE_HCALL_MAX_ELEMS	65536
#define SOURCE_HCALL_MAX_ASKS	4096

/* What the partitions search has found so far, by partition id. */
struct source_hcall_lpar_found {
	uint32_t	*vcpus;		/* highest index seen + 1; 0: none */
	uint32_t	*cfg;
	size_t		 nelems;
	uint16_t	 self;
};

/* A counter offset the VCPU domains hold: the first core event's. */
static int
source_hcall_lpar_probe_offset(const struct catalog *cat, uint32_t *off)
{
	const struct catalog_event	*ev;
	size_t				 i;

	for (i = 0; i < cat->nevents; i++) {
		ev = &cat->events[i];
		if (ev->skip == 0 && ev->domain >= CATALOG_DOMAIN_CORE &&
		    ev->domain <= CATALOG_DOMAIN_VCPU_REMOTE_NODE) {
			*off = ev->offset & ~7U;
			return (0);
		}
	}
	return (-HV_ENOENT);
}

/*
 * One request of domain 3 for max_lpars partitions from lpar, max_ix
 * virtual processors from index; the elements that come back are noted
 * in f.  Returns the hcall's return code; *complete and *last (the last
 * element's partition and index) on success.
 */
static long
source_hcall_lpar_ask(struct source_hcall *s, uint32_t off, uint16_t lpar,
    uint16_t max_lpars, uint16_t index, uint16_t max_ix,
    struct source_hcall_lpar_found *f, int *complete, uint16_t *last_lpar,
    uint16_t *last_ix, uint32_t *drc)
{
	struct hcall_reqbuf		 rq;
	const struct hcall_element	*e;
	char				*err = NULL;
	size_t				 i;
	long				 rc;
	unsigned			 tries;
	int				 error;

	memset(&rq, 0, sizeof rq);
	rq.version = s->topo.interface;
	rq.nrequests = 1;
	rq.req[0].domain = HCALL_DOMAIN_VCPU_HOME_CORE;
	rq.req[0].data_size = 8;
	rq.req[0].data_offset = off;
	rq.req[0].lpar = lpar;
	rq.req[0].max_lpars = max_lpars;
	rq.req[0].index = index;
	rq.req[0].max_ix = max_ix;
	rq.req[0].max_tg = 1;
	*drc = 0;
	if (hcall_encode_request(&rq, s->req, sizeof s->req, NULL,
	    &err) != 0) {
		free(err);
		return (H_PARAMETER);
	}
	/*
	 * A busy answer says nothing about the partitions: asked again,
	 * after a wait that grows, a bounded number of times.
	 */
	for (tries = 0; ; tries++) {
		rc = s->tp->data(s->tc, s->tb, s->req, sizeof s->req, s->res,
		    sizeof s->res);
		if (!source_hcall_busy(rc))
			break;
		s->busy++;
		if (tries + 1 >= SOURCE_HCALL_TRIES) {
			s->gave_up = 1;
			break;
		}
		if (s->tp->pause != NULL)
			s->tp->pause(s->tc, source_hcall_backoff(rc, tries));
	}
	error = hcall_decode_result(s->res, sizeof s->res, s->topo.interface,
	    &s->rb, &err);
	free(err);
	if (error == 0)
		*drc = s->rb.detailed_rc;
	if (rc != H_SUCCESS)
		return (rc);
	if (error != 0 || s->rb.nresults == 0)
		return (H_HARDWARE);
	*complete = s->rb.results[0].complete;
	*last_lpar = lpar;
	*last_ix = index;
	for (i = 0; i < s->rb.results[0].nelements &&
	    f->nelems < SOURCE_HCALL_MAX_ELEMS; i++, f->nelems++) {
		e = &s->rb.elements[s->rb.results[0].first + i];
		if (e->lpar == SEL_LPAR_SELF)
			continue;
		if ((uint32_t)e->index + 1 > f->vcpus[e->lpar])
			f->vcpus[e->lpar] = (uint32_t)e->index + 1;
		f->cfg[e->lpar] = e->lpar_cfg;
		*last_lpar = e->lpar;
		*last_ix = e->index;
		if (lpar == SEL_LPAR_SELF)
			f->self = e->lpar;
	}
	if (i == 0)
		*complete = 1;	/* nothing more to continue from */
	return (H_SUCCESS);
}

/* Result elements of 8 bytes a buffer holds. */
static uint32_t
source_hcall_lpar_fit(const struct source_hcall *s)
{
	return ((HCALL_BUF_SIZE - HV_RES_HDR_SIZE) /
	    ((uint32_t)hcall_element_header_size(s->topo.interface) + 8));
}

/*
 * Every virtual processor of one partition: at once, or as many as fit
 * at a time when they do not fit one buffer.  Returns the hcall's
 * return code.
 */
static long
source_hcall_lpar_one(struct source_hcall *s, uint32_t off, uint16_t lpar,
    struct source_hcall_lpar_found *f)
{
	uint32_t	 drc, ix = 0;
	uint16_t	 mx = SOURCE_HCALL_IX_ALL, ll, lx;
	unsigned	 asks;
	long		 rc = H_SUCCESS;
	int		 complete;

	for (asks = 0; asks < SOURCE_HCALL_MAX_ASKS && ix < 0xffff &&
	    f->nelems < SOURCE_HCALL_MAX_ELEMS; asks++) {
		rc = source_hcall_lpar_ask(s, off, lpar, 1, (uint16_t)ix, mx, f,
		    &complete, &ll, &lx, &drc);
		if (rc == H_P4 && mx == SOURCE_HCALL_IX_ALL) {
			mx = (uint16_t)source_hcall_lpar_fit(s);
			continue;
		}
		if (rc == H_PARAMETER && ix > 0) {
			/* Past its last: the rest fits at once, or there
			 * is none. */
			if (mx == SOURCE_HCALL_IX_ALL)
				return (H_SUCCESS);
			mx = SOURCE_HCALL_IX_ALL;
			continue;
		}
		if (rc != H_SUCCESS)
			return (rc);
		if (!complete) {
			ix = (uint32_t)lx + 1;
			continue;
		}
		if (mx == SOURCE_HCALL_IX_ALL)
			return (H_SUCCESS);
		ix += mx;
	}
	return (rc);
}

/*
 * Every partition after this one's: starting_lpar_ix 1 (partition 0 is
 * the hypervisor's own) and max_num_lpars all, continued where the
 * results were not complete; when they do not fit the result buffer,
 * fewer partitions per request.  Returns 1 when others are refused.
 */
static int
source_hcall_lpar_others(struct source_hcall *s, uint32_t off,
    struct source_hcall_lpar_found *f)
{
	uint32_t	 L = 1, drc, fit, per;
	uint16_t	 k = HCALL_LPARS_ALL, ll = 0, lx = 0, ix = 0, max;
	unsigned	 asks;
	long		 rc;
	int		 complete = 1, tried_all = 0;

	/* Others are guessed to have as many virtual processors as this
	 * one, until the hypervisor says otherwise. */
	per = f->self != SEL_LPAR_SELF ? f->vcpus[f->self] : s->topo.vcpus;
	fit = source_hcall_lpar_fit(s);
	for (asks = 0; asks < SOURCE_HCALL_MAX_ASKS && L < SEL_LPAR_SELF &&
	    f->nelems < SOURCE_HCALL_MAX_ELEMS; asks++) {
		max = ix != 0 ? 1 : k;
		rc = source_hcall_lpar_ask(s, off, (uint16_t)L, max, ix,
		    SOURCE_HCALL_IX_ALL, f, &complete, &ll, &lx, &drc);
		if (rc == H_AUTHORITY || rc == H_PERMISSION)
			return (1);
		if (rc == H_P4 && max == 1) {
			/* One partition too many for a buffer. */
			if (source_hcall_lpar_one(s, off, (uint16_t)L, f) !=
			    H_SUCCESS)
				break;
			L++;
			ix = 0;
			continue;
		}
		if (rc == H_P4) {
			/* Too many for one buffer: as many as fit. */
			k = k == HCALL_LPARS_ALL ? (uint16_t)(fit /
			    (per > 0 ? per : 1)) : k / 2;
			if (k == 0)
				k = 1;
			continue;
		}
		if (rc == H_PARAMETER && max != HCALL_LPARS_ALL && ix == 0) {
			/* Past the last partition: the rest at once, or
			 * fewer at a time. */
			if (!tried_all) {
				k = HCALL_LPARS_ALL;
				tried_all = 1;
			} else if ((k /= 2) == 0)
				break;
			continue;
		}
		if (rc != H_SUCCESS)
			break;
		tried_all = 0;
		if (!complete) {
			L = ll;
			ix = (uint16_t)(lx + 1);
			if (ix == SOURCE_HCALL_IX_ALL)
				break;
			continue;
		}
		if (ix != 0 || max != HCALL_LPARS_ALL) {
			L += ix != 0 ? 1 : max;
			ix = 0;
			continue;
		}
		break;
	}
	(void)drc;
	return (0);
}

/* Whether two partition lists are the same. */
static int
source_hcall_lpar_same(const struct topo_lpar *a, size_t na,
    const struct topo_lpar *b, size_t nb)
{
	return (na == nb && (na == 0 || memcmp(a, b, na * sizeof *a) == 0));
}

/*
 * Find the frame's partitions and each one's virtual processors from
 * the elements domain 3 returns: this partition's (lpar 0xffff) gives
 * its id, the others' one request for all of them.  The result waits in
 * fresh for the next topology call, which hands it out when it differs.
 */
void
source_hcall_lpar_discover(struct source_hcall *s)
{
	struct source_hcall_lpar_found	 f;
	struct topo_lpar		*l;
	uint32_t			 off;
	size_t				 n, i;
	long				 rc;
	int				 denied = 0;

	s->lost = 0;
	s->busy = 0;
	s->gave_up = 0;
	if (s->topo.interface < 2 || s->cat == NULL ||
	    source_hcall_lpar_probe_offset(s->cat, &off) != 0)
		return;
	memset(&f, 0, sizeof f);
	f.vcpus = xcalloc(SEL_LPAR_SELF + 1, sizeof *f.vcpus);
	f.cfg = xcalloc(SEL_LPAR_SELF + 1, sizeof *f.cfg);
	f.self = SEL_LPAR_SELF;
	rc = source_hcall_lpar_one(s, off, SEL_LPAR_SELF, &f);
	if (rc == H_SUCCESS)
		denied = source_hcall_lpar_others(s, off, &f);
	if (s->gave_up) {
		/*
		 * Still busy: what was found may lack any partition, so
		 * the list stays as it was, and the next sample looks
		 * again.
		 */
		free(f.vcpus);
		free(f.cfg);
		s->lost = 1;
		return;
	}
	for (i = n = 0; i < SEL_LPAR_SELF; i++)
		n += f.vcpus[i] > 0 && (!denied || i == f.self);
	if (n > SOURCE_HCALL_MAX_LPARS)
		n = SOURCE_HCALL_MAX_LPARS;
	l = xcalloc(n + 1, sizeof *l);
	for (i = n = 0; i < SEL_LPAR_SELF && n < SOURCE_HCALL_MAX_LPARS;
	    i++) {
		if (f.vcpus[i] == 0 || (denied && i != f.self))
			continue;
		l[n].id = (uint16_t)i;
		l[n].vcpus = f.vcpus[i] > 0xffff ? 0xffff :
		    (uint16_t)f.vcpus[i];
		l[n].cfg = f.cfg[i];
		n++;
	}
	free(f.vcpus);
	free(f.cfg);
	s->topo.lpar_self = f.self;
	if (s->fresh_set)
		free(s->fresh);
	if (source_hcall_lpar_same(l, n, s->lpars, s->topo.nlpars) &&
	    denied == s->topo.lpars_denied && s->lpars != NULL) {
		/* Nothing changed: the list handed out stays. */
		free(l);
		s->fresh = NULL;
		s->fresh_set = 0;
		return;
	}
	s->fresh = l;
	s->nfresh = n;
	s->fresh_denied = denied;
	s->fresh_set = 1;
}
