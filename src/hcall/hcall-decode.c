/*
 * Reading H_GET_24X7_DATA buffers.  The result buffer comes from a
 * hypervisor (or a simulation of one) and is trusted in nothing: every
 * count, size and stride is proven to fit before a byte is read, and a
 * failure names the result, the element and the byte offset.  Request
 * buffers are decoded with the same care (the simulated hypervisor and
 * the fuzzer feed arbitrary ones).  Pure: no I/O; no allocation except
 * the cause message.
 */
#include "config.h"

#include "hcall/hcall.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "util/be.h"
#include "util/hverr.h"
#include "util/xalloc.h"

/* The first non-zero byte of [p, p + len), or -1. */
static long
hcall_decode_nonzero(const uint8_t *p, size_t len)
{
	size_t	 i;

	for (i = 0; i < len; i++)
		if (p[i] != 0)
			return ((long)i);
	return (-1);
}

/*
 * Decode a request buffer's header.  See hcall.h.  The order is the one
 * a hypervisor checks in: what the header says, then whether the buffer
 * holds what it says.
 */
int
hcall_decode_request_header(const uint8_t *buf, size_t len, int *version,
    unsigned *nrequests, char **cause)
{
	size_t		 size, off;
	unsigned	 n;
	long		 nz;

	*version = 0;
	*nrequests = 0;
	if (len < HCALL_REQ_HDR_SIZE) {
		*cause = xasprintf("request buffer of %zu bytes ends before "
		    "the %d-byte header (byte 0x%zx)", len, HCALL_REQ_HDR_SIZE,
		    len);
		return (-HV_ETRUNC);
	}
	if (len > HCALL_BUF_SIZE) {
		*cause = xasprintf("request buffer of %zu bytes is larger than "
		    "%d", len, HCALL_BUF_SIZE);
		return (-HV_ELIMIT);
	}
	*version = (int)HCALL_GET(REQ_HDR, interface_version, buf);
	size = hcall_request_size(*version);
	if (size == 0) {
		*cause = xasprintf("byte 0x00: interface_version %d is neither "
		    "1 nor 2", *version);
		return (-HV_EVERSION);
	}
	nz = hcall_decode_nonzero(buf + HCALL_OFF(REQ_HDR, reserved),
	    HCALL_LEN(REQ_HDR, reserved));
	if (nz >= 0) {
		*cause = xasprintf("byte 0x%lx: reserved header byte is not 0",
		    (long)HCALL_OFF(REQ_HDR, reserved) + nz);
		return (-HV_EFORMAT);
	}
	n = (unsigned)HCALL_GET(REQ_HDR, num_requests, buf);
	if (n > hcall_max_requests(*version)) {
		*cause = xasprintf("byte 0x01: num_requests %u is more than "
		    "interface v%d allows (%u)", n, *version,
		    hcall_max_requests(*version));
		return (-HV_ELIMIT);
	}
	if (!be_fits(len, HCALL_REQ_HDR_SIZE, n * size)) {
		/* Name the first request that does not fit. */
		off = HCALL_REQ_HDR_SIZE + (len - HCALL_REQ_HDR_SIZE) / size *
		    size;
		*cause = xasprintf("request %zu at byte 0x%zx: needs %zu "
		    "bytes, the buffer ends at 0x%zx", (off -
		    HCALL_REQ_HDR_SIZE) / size, off, size, len);
		return (-HV_ETRUNC);
	}
	*nrequests = n;
	return (0);
}

/*
 * Decode one request.  See hcall.h.
 */
int
hcall_decode_request_at(const uint8_t *buf, size_t len, int version,
    unsigned i, struct hcall_request *r, char **cause)
{
	const uint8_t	*p;
	size_t		 size, off;
	long		 nz = -1;

	size = hcall_request_size(version);
	off = HCALL_REQ_HDR_SIZE + (size_t)i * size;
	if (size == 0 || !be_fits(len, off, size)) {
		*cause = xasprintf("request %u at byte 0x%zx: needs %zu bytes, "
		    "the buffer ends at 0x%zx", i, off, size, len);
		return (-HV_ETRUNC);
	}
	p = buf + off;
	memset(r, 0, sizeof *r);
	r->domain = (uint8_t)HCALL_GET(REQ_V1, performance_domain, p);
	r->data_size = (uint16_t)HCALL_GET(REQ_V1, data_size, p);
	r->data_offset = (uint32_t)HCALL_GET(REQ_V1, data_offset, p);
	r->lpar = (uint16_t)HCALL_GET(REQ_V1, starting_lpar_ix, p);
	r->max_lpars = (uint16_t)HCALL_GET(REQ_V1, max_num_lpars, p);
	r->index = (uint16_t)HCALL_GET(REQ_V1, starting_ix, p);
	r->max_ix = (uint16_t)HCALL_GET(REQ_V1, max_ix, p);
	if (p[HCALL_OFF(REQ_V1, reserved1)] != 0)
		nz = HCALL_OFF(REQ_V1, reserved1);
	if (version == 2) {
		r->tg = (uint8_t)HCALL_GET(REQ_V2, starting_thread_group_ix,
		    p);
		r->max_tg = (uint8_t)HCALL_GET(REQ_V2, max_num_thread_groups,
		    p);
		if (nz < 0) {
			nz = hcall_decode_nonzero(p +
			    HCALL_OFF(REQ_V2, reserved2),
			    HCALL_LEN(REQ_V2, reserved2));
			if (nz >= 0)
				nz += HCALL_OFF(REQ_V2, reserved2);
		}
	}
	if (nz >= 0) {
		*cause = xasprintf("request %u at byte 0x%zx: reserved byte "
		    "0x%zx is not 0", i, off, off + (size_t)nz);
		return (-HV_EFORMAT);
	}
	return (0);
}

/*
 * Decode a request buffer.  See hcall.h.
 */
int
hcall_decode_request(const uint8_t *buf, size_t len, struct hcall_reqbuf *out,
    char **cause)
{
	unsigned	 i, n;
	int		 error;

	out->nrequests = 0;
	if ((error = hcall_decode_request_header(buf, len, &out->version, &n,
	    cause)) != 0)
		return (error);
	for (i = 0; i < n; i++) {
		if ((error = hcall_decode_request_at(buf, len, out->version, i,
		    &out->req[i], cause)) != 0)
			return (error);
	}
	out->nrequests = n;
	return (0);
}

/*
 * The result buffer's header: its size, its interface version (version
 * when not 0) and the fields it states.  Returns 0 with num_results in
 * *n, or a negative code with *cause set.
 */
static int
hcall_decode_result_header(const uint8_t *buf, size_t len, int version,
    struct hcall_resbuf *out, unsigned *n, char **cause)
{
	int	 v;

	if (len < HCALL_RES_HDR_SIZE) {
		*cause = xasprintf("result buffer of %zu bytes ends before the "
		    "%d-byte header (byte 0x%zx)", len, HCALL_RES_HDR_SIZE,
		    len);
		return (-HV_ETRUNC);
	}
	if (len > HCALL_BUF_SIZE) {
		*cause = xasprintf("result buffer of %zu bytes is larger than "
		    "%d", len, HCALL_BUF_SIZE);
		return (-HV_ERANGE);
	}
	v = (int)HCALL_GET(RES_HDR, interface_version, buf);
	if (hcall_element_header_size(v) == 0) {
		*cause = xasprintf("byte 0x00: interface_version %d is neither "
		    "1 nor 2", v);
		return (-HV_EVERSION);
	}
	if (version != 0 && v != version) {
		*cause = xasprintf("byte 0x00: interface_version %d, the "
		    "request used %d", v, version);
		return (-HV_EVERSION);
	}
	out->version = v;
	out->failing = (uint8_t)HCALL_GET(RES_HDR, failing_request_ix, buf);
	out->detailed_rc = (uint32_t)HCALL_GET(RES_HDR, detailed_rc, buf);
	out->cec_cfg = HCALL_GET(RES_HDR, cec_cfg_instance_id, buf);
	out->catalog_version = HCALL_GET(RES_HDR, catalog_version_num, buf);
	*n = (unsigned)HCALL_GET(RES_HDR, num_results, buf);
	return (0);
}

/*
 * Result i of n, at *off: its header, checked, then its elements, each
 * checked to fit.  Returns 0 with *off past it, or a negative code with
 * *cause set.
 */
static int
hcall_decode_result_at(const uint8_t *buf, size_t len, unsigned i,
    unsigned n, size_t *off, struct hcall_resbuf *out, char **cause)
{
	struct hcall_result	*res = &out->results[i];
	struct hcall_element	*e;
	const uint8_t		*p;
	size_t			 at = *off, hsize, stride, left, k;
	unsigned		 complete;

	if (!be_fits(len, at, HCALL_RESULT_SIZE)) {
		*cause = xasprintf("result %u at byte 0x%zx: its %d-byte "
		    "header runs past the end of the buffer (0x%zx); "
		    "num_results says %u", i, at, HCALL_RESULT_SIZE, len, n);
		return (-HV_ETRUNC);
	}
	p = buf + at;
	res->offset = (uint16_t)at;
	res->request = (uint8_t)HCALL_GET(RESULT, result_ix, p);
	complete = (unsigned)HCALL_GET(RESULT, results_complete, p);
	res->nelements = (uint16_t)HCALL_GET(RESULT, num_elements_returned, p);
	res->data_size = (uint16_t)HCALL_GET(RESULT, result_element_data_size,
	    p);
	res->first = (uint16_t)out->nelements;
	if (complete > 1) {
		*cause = xasprintf("result %u at byte 0x%zx: results_complete "
		    "is %u, not 0 or 1", i,
		    at + HCALL_OFF(RESULT, results_complete), complete);
		return (-HV_EFORMAT);
	}
	res->complete = (uint8_t)complete;
	if (res->nelements > 0 &&
	    (res->data_size == 0 || res->data_size % 8 != 0)) {
		*cause = xasprintf("result %u at byte 0x%zx: element data size "
		    "%u is not a positive multiple of 8", i,
		    at + HCALL_OFF(RESULT, result_element_data_size),
		    res->data_size);
		return (-HV_EFORMAT);
	}
	at += HCALL_RESULT_SIZE;
	hsize = hcall_element_header_size(out->version);
	stride = hsize + res->data_size;
	left = len - at;
	if (res->nelements > left / stride) {
		/* Name the first element that does not fit. */
		k = left / stride;
		*cause = xasprintf("result %u element %zu at byte 0x%zx: needs "
		    "%zu bytes, %zu left; num_elements_returned says %u", i,
		    k, at + k * stride, stride, left - k * stride,
		    res->nelements);
		return (-HV_ETRUNC);
	}
	if (out->nelements + res->nelements > HCALL_MAX_ELEMENTS) {
		/* Unreachable while len <= 4096; kept as a guard. */
		*cause = xasprintf("result %u at byte 0x%zx: more than %d "
		    "elements in one buffer", i, at - HCALL_RESULT_SIZE,
		    HCALL_MAX_ELEMENTS);
		return (-HV_ERANGE);
	}
	for (k = 0; k < res->nelements; k++, at += stride) {
		p = buf + at;
		e = &out->elements[out->nelements++];
		e->lpar = (uint16_t)HCALL_GET(ELEM_V1, lpar_ix, p);
		e->index = (uint16_t)HCALL_GET(ELEM_V1, domain_ix, p);
		e->lpar_cfg = (uint32_t)HCALL_GET(ELEM_V1, lpar_cfg_instance_id,
		    p);
		e->tg = out->version == 2 ? (uint8_t)HCALL_GET(ELEM_V2,
		    thread_group_ix, p) : 0;
		e->data = (uint16_t)(at + hsize);
	}
	*off = at;
	return (0);
}

/*
 * Decode a result buffer.  See hcall.h.
 */
int
hcall_decode_result(const uint8_t *buf, size_t len, int version,
    struct hcall_resbuf *out, char **cause)
{
	size_t		 off = HCALL_RES_HDR_SIZE;
	unsigned	 i, n;
	int		 error;

	out->buf = buf;
	out->len = len;
	out->nresults = 0;
	out->nelements = 0;
	if ((error = hcall_decode_result_header(buf, len, version, out, &n,
	    cause)) != 0)
		return (error);
	for (i = 0; i < n; i++) {
		if ((error = hcall_decode_result_at(buf, len, i, n, &off, out,
		    cause)) != 0)
			return (error);
		out->nresults = i + 1;
	}
	return (0);
}
