/*
 * Writing H_GET_24X7_DATA buffers: request buffers (what hvtop sends) and
 * result buffers (what the simulated hypervisor answers).  Pure: bytes go
 * into caller buffers only, and nothing is written past their length.
 *
 * The static assertions below check hcall-layout.def against itself (a
 * struct of byte arrays built from it must land every field at its stated
 * offset and end at the stated size) and against the sizes the ABI fixes.
 */
#include "config.h"

#include "hcall/hcall.h"

#include <stddef.h>
#include <string.h>

#include "util/be.h"
#include "util/hverr.h"
#include "util/xalloc.h"

/* Mirrors of the wire layouts, made only to be measured. */
#define HCALL_LAYOUT(id, size, what) struct hcall_wire_##id {
#define HCALL_FIELD(id, name, off, len) uint8_t name[len];
#define HCALL_END(id) };
#include "hcall/hcall-layout.def"
#undef HCALL_LAYOUT
#undef HCALL_FIELD
#undef HCALL_END

#define HCALL_LAYOUT(id, size, what) \
	_Static_assert(sizeof(struct hcall_wire_##id) == (size), \
	    #id " size");
#define HCALL_FIELD(id, name, off, len) \
	_Static_assert(offsetof(struct hcall_wire_##id, name) == (off), \
	    #id "." #name " offset"); \
	_Static_assert(sizeof(((struct hcall_wire_##id *)0)->name) == (len), \
	    #id "." #name " length");
#define HCALL_END(id)
#include "hcall/hcall-layout.def"
#undef HCALL_LAYOUT
#undef HCALL_FIELD
#undef HCALL_END

/* The sizes the ABI fixes, and the v1 fields v2 keeps in place. */
_Static_assert(HCALL_REQ_HDR_SIZE == 16, "request header");
_Static_assert(HCALL_REQ_V1_SIZE == 16 && HCALL_REQ_V2_SIZE == 32,
    "request strides");
_Static_assert(HCALL_RES_HDR_SIZE == 32, "result header");
_Static_assert(HCALL_RESULT_SIZE == 8, "result header");
_Static_assert(HCALL_ELEM_V1_SIZE == 8 && HCALL_ELEM_V2_SIZE == 16,
    "element headers");
_Static_assert(HCALL_OFF(REQ_V1, max_ix) == HCALL_OFF(REQ_V2, max_ix) &&
    HCALL_OFF(REQ_V1, data_offset) == HCALL_OFF(REQ_V2, data_offset) &&
    HCALL_OFF(REQ_V1, starting_ix) == HCALL_OFF(REQ_V2, starting_ix),
    "v2 extends v1");
_Static_assert(HCALL_OFF(ELEM_V1, domain_ix) == HCALL_OFF(ELEM_V2, domain_ix),
    "v2 element extends v1");
_Static_assert(HCALL_MAX_REQUESTS_V1 ==
    (HCALL_BUF_SIZE - HCALL_REQ_HDR_SIZE) / HCALL_REQ_V1_SIZE, "v1 limit");
_Static_assert(HCALL_MAX_REQUESTS_V2 ==
    (HCALL_BUF_SIZE - HCALL_REQ_HDR_SIZE) / HCALL_REQ_V2_SIZE, "v2 limit");
_Static_assert(HCALL_MAX_ELEMENTS == (HCALL_BUF_SIZE - HCALL_RES_HDR_SIZE) /
    (HCALL_ELEM_V1_SIZE + 8), "element bound");

/*
 * Write a request buffer.  See hcall.h.
 */
int
hcall_encode_request(const struct hcall_reqbuf *rb, uint8_t *buf, size_t len,
    size_t *used, char **cause)
{
	const struct hcall_request	*r;
	size_t				 size, need, off;
	unsigned			 i;

	size = hcall_request_size(rb->version);
	if (size == 0) {
		*cause = xasprintf("interface version %d is neither 1 nor 2",
		    rb->version);
		return (-HV_EUSAGE);
	}
	if (rb->nrequests > hcall_max_requests(rb->version)) {
		*cause = xasprintf("%u requests: interface v%d allows %u",
		    rb->nrequests, rb->version,
		    hcall_max_requests(rb->version));
		return (-HV_ELIMIT);
	}
	need = HCALL_REQ_HDR_SIZE + rb->nrequests * size;
	if (need > len) {
		*cause = xasprintf("%u requests need %zu bytes, the buffer "
		    "has %zu", rb->nrequests, need, len);
		return (-HV_ELIMIT);
	}
	for (i = 0; i < rb->nrequests; i++) {
		r = &rb->req[i];
		if (rb->version == 1 && (r->tg != 0 || r->max_tg != 0)) {
			*cause = xasprintf("request %u: thread groups need "
			    "interface v2", i);
			return (-HV_EUSAGE);
		}
	}

	memset(buf, 0, len);
	HCALL_SET(REQ_HDR, interface_version, buf, rb->version);
	HCALL_SET(REQ_HDR, num_requests, buf, rb->nrequests);
	off = HCALL_REQ_HDR_SIZE;
	for (i = 0; i < rb->nrequests; i++, off += size) {
		r = &rb->req[i];
		HCALL_SET(REQ_V1, performance_domain, buf + off, r->domain);
		HCALL_SET(REQ_V1, data_size, buf + off, r->data_size);
		HCALL_SET(REQ_V1, data_offset, buf + off, r->data_offset);
		HCALL_SET(REQ_V1, starting_lpar_ix, buf + off, r->lpar);
		HCALL_SET(REQ_V1, max_num_lpars, buf + off, r->max_lpars);
		HCALL_SET(REQ_V1, starting_ix, buf + off, r->index);
		HCALL_SET(REQ_V1, max_ix, buf + off, r->max_ix);
		if (rb->version == 2) {
			HCALL_SET(REQ_V2, starting_thread_group_ix, buf + off,
			    r->tg);
			HCALL_SET(REQ_V2, max_num_thread_groups, buf + off,
			    r->max_tg);
		}
	}
	if (used != NULL)
		*used = need;
	return (0);
}

size_t
hcall_result_bytes(int version, size_t n, size_t data_size)
{
	return (HCALL_RESULT_SIZE +
	    n * (hcall_element_header_size(version) + data_size));
}

/*
 * Start a result buffer: zero it and write the version.  len must be at
 * least the 32-byte header; the caller (a hypervisor) checks that first.
 */
void
hcall_encode_result_begin(struct hcall_rwriter *w, uint8_t *buf, size_t len,
    int version)
{
	memset(w, 0, sizeof *w);
	w->buf = buf;
	w->len = len;
	w->version = version;
	w->off = HCALL_RES_HDR_SIZE;
	memset(buf, 0, len);
	if (len >= HCALL_RES_HDR_SIZE)
		HCALL_SET(RES_HDR, interface_version, buf, (uint8_t)version);
}

void
hcall_encode_result_status(struct hcall_rwriter *w, uint8_t failing,
    uint32_t detailed_rc, uint64_t cec_cfg, uint64_t catalog_version)
{
	if (w->len < HCALL_RES_HDR_SIZE)
		return;
	HCALL_SET(RES_HDR, failing_request_ix, w->buf, failing);
	HCALL_SET(RES_HDR, detailed_rc, w->buf, detailed_rc);
	HCALL_SET(RES_HDR, cec_cfg_instance_id, w->buf, cec_cfg);
	HCALL_SET(RES_HDR, catalog_version_num, w->buf, catalog_version);
}

/*
 * Open a result for request number request.  Returns 0, or -HV_ELIMIT
 * when its 8-byte header does not fit or 255 results are already there.
 */
int
hcall_encode_result_open(struct hcall_rwriter *w, uint8_t request,
    uint16_t data_size)
{
	if (w->result != 0)
		hcall_encode_result_close(w, 1);
	if (w->nresults >= HCALL_MAX_RESULTS ||
	    !be_fits(w->len, w->off, HCALL_RESULT_SIZE))
		return (-HV_ELIMIT);
	w->result = w->off;
	w->nelements = 0;
	w->data_size = data_size;
	HCALL_SET(RESULT, result_ix, w->buf + w->off, request);
	HCALL_SET(RESULT, result_element_data_size, w->buf + w->off,
	    data_size);
	w->off += HCALL_RESULT_SIZE;
	w->nresults++;
	return (0);
}

uint8_t *
hcall_encode_result_element(struct hcall_rwriter *w, uint16_t lpar,
    uint16_t index, uint32_t lpar_cfg, uint8_t tg)
{
	size_t	 hsize;
	uint8_t	*e;

	hsize = hcall_element_header_size(w->version);
	if (w->result == 0 || w->nelements == UINT16_MAX ||
	    !be_fits(w->len, w->off, hsize + w->data_size))
		return (NULL);
	e = w->buf + w->off;
	HCALL_SET(ELEM_V1, lpar_ix, e, lpar);
	HCALL_SET(ELEM_V1, domain_ix, e, index);
	HCALL_SET(ELEM_V1, lpar_cfg_instance_id, e, lpar_cfg);
	if (w->version == 2)
		HCALL_SET(ELEM_V2, thread_group_ix, e, tg);
	w->off += hsize + w->data_size;
	w->nelements++;
	return (e + hsize);
}

void
hcall_encode_result_close(struct hcall_rwriter *w, int complete)
{
	if (w->result == 0)
		return;
	HCALL_SET(RESULT, results_complete, w->buf + w->result,
	    complete ? 1 : 0);
	HCALL_SET(RESULT, num_elements_returned, w->buf + w->result,
	    w->nelements);
	w->result = 0;
}

size_t
hcall_encode_result_end(struct hcall_rwriter *w)
{
	if (w->result != 0)
		hcall_encode_result_close(w, 1);
	if (w->len >= HCALL_RES_HDR_SIZE)
		HCALL_SET(RES_HDR, num_results, w->buf, w->nresults);
	return (w->off);
}
