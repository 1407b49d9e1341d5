/*
 * Unit tests for the hcall buffers: layouts against the ABI reference
 * field by field, golden request and result bytes for interface v1 and v2
 * (including the reference's worked example), and a decoder that refuses
 * every malformed shape and says where.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hcall/hcall.h"
#include "util/be.h"
#include "util/hverr.h"
#include "harness.h"
#include "test-hcall-fixture.h"


/* Every field as the ABI reference (section 3) lists it. */
static const struct {
	int		 line;
	enum hcall_layout_id layout;
	const char	*name;
	unsigned	 offset;
	unsigned	 length;
} layout_rows[] = {
	{ SRC_LINE, HCALL_L_REQ_HDR, "interface_version", 0x00, 1 },
	{ SRC_LINE, HCALL_L_REQ_HDR, "num_requests", 0x01, 1 },
	{ SRC_LINE, HCALL_L_REQ_HDR, "reserved", 0x02, 14 },
	{ SRC_LINE, HCALL_L_REQ_V2, "performance_domain", 0x00, 1 },
	{ SRC_LINE, HCALL_L_REQ_V2, "data_size", 0x02, 2 },
	{ SRC_LINE, HCALL_L_REQ_V2, "data_offset", 0x04, 4 },
	{ SRC_LINE, HCALL_L_REQ_V2, "starting_lpar_ix", 0x08, 2 },
	{ SRC_LINE, HCALL_L_REQ_V2, "max_num_lpars", 0x0a, 2 },
	{ SRC_LINE, HCALL_L_REQ_V2, "starting_ix", 0x0c, 2 },
	{ SRC_LINE, HCALL_L_REQ_V2, "max_ix", 0x0e, 2 },
	{ SRC_LINE, HCALL_L_REQ_V2, "starting_thread_group_ix", 0x10, 1 },
	{ SRC_LINE, HCALL_L_REQ_V2, "max_num_thread_groups", 0x11, 1 },
	{ SRC_LINE, HCALL_L_REQ_V2, "reserved2", 0x12, 14 },
	{ SRC_LINE, HCALL_L_REQ_V1, "max_ix", 0x0e, 2 },
	{ SRC_LINE, HCALL_L_RES_HDR, "interface_version", 0x00, 1 },
	{ SRC_LINE, HCALL_L_RES_HDR, "num_results", 0x01, 1 },
	{ SRC_LINE, HCALL_L_RES_HDR, "failing_request_ix", 0x03, 1 },
	{ SRC_LINE, HCALL_L_RES_HDR, "detailed_rc", 0x04, 4 },
	{ SRC_LINE, HCALL_L_RES_HDR, "cec_cfg_instance_id", 0x08, 8 },
	{ SRC_LINE, HCALL_L_RES_HDR, "catalog_version_num", 0x10, 8 },
	{ SRC_LINE, HCALL_L_RES_HDR, "reserved2", 0x18, 8 },
	{ SRC_LINE, HCALL_L_RESULT, "result_ix", 0x00, 1 },
	{ SRC_LINE, HCALL_L_RESULT, "results_complete", 0x01, 1 },
	{ SRC_LINE, HCALL_L_RESULT, "num_elements_returned", 0x02, 2 },
	{ SRC_LINE, HCALL_L_RESULT, "result_element_data_size", 0x04, 2 },
	{ SRC_LINE, HCALL_L_ELEM_V1, "lpar_ix", 0x00, 2 },
	{ SRC_LINE, HCALL_L_ELEM_V1, "domain_ix", 0x02, 2 },
	{ SRC_LINE, HCALL_L_ELEM_V1, "lpar_cfg_instance_id", 0x04, 4 },
	{ SRC_LINE, HCALL_L_ELEM_V2, "thread_group_ix", 0x08, 1 },
	{ SRC_LINE, HCALL_L_ELEM_V2, "reserved", 0x09, 7 },
};

static const unsigned layout_sizes[HCALL_NLAYOUTS] = {
	[HCALL_L_REQ_HDR] = 16, [HCALL_L_REQ_V1] = 16, [HCALL_L_REQ_V2] = 32,
	[HCALL_L_RES_HDR] = 32, [HCALL_L_RESULT] = 8, [HCALL_L_ELEM_V1] = 8,
	[HCALL_L_ELEM_V2] = 16,
};

static void
test_layouts(void **state)
{
	size_t		 i, j;
	unsigned	 end[HCALL_NLAYOUTS] = { 0 };
	int		 found;

	(void)state;
	for (i = 0; i < sizeof layout_rows / sizeof layout_rows[0]; i++) {
		found = 0;
		for (j = 0; j < hcall_nfields; j++) {
			if (hcall_fields[j].layout != layout_rows[i].layout ||
			    strcmp(hcall_fields[j].name,
			    layout_rows[i].name) != 0)
				continue;
			found = 1;
			if (hcall_fields[j].offset != layout_rows[i].offset ||
			    hcall_fields[j].length != layout_rows[i].length)
				fail_msg("line %d: %s at %u+%u, expected %u+%u",
				    layout_rows[i].line, layout_rows[i].name,
				    hcall_fields[j].offset,
				    hcall_fields[j].length,
				    layout_rows[i].offset,
				    layout_rows[i].length);
		}
		if (!found)
			fail_msg("line %d: no field %s", layout_rows[i].line,
			    layout_rows[i].name);
	}
	/* Fields follow each other without gaps up to the layout size. */
	for (j = 0; j < hcall_nfields; j++) {
		assert_int_equal(hcall_fields[j].offset,
		    end[hcall_fields[j].layout]);
		end[hcall_fields[j].layout] += hcall_fields[j].length;
	}
	for (i = 0; i < HCALL_NLAYOUTS; i++)
		assert_int_equal(end[i], layout_sizes[i]);
	assert_int_equal(hcall_request_size(1), 16);
	assert_int_equal(hcall_request_size(2), 32);
	assert_int_equal(hcall_request_size(3), 0);
	assert_int_equal(hcall_element_header_size(1), 8);
	assert_int_equal(hcall_element_header_size(2), 16);
	assert_int_equal(hcall_max_requests(1), 255);
	assert_int_equal(hcall_max_requests(2), 127);
}

/* One request buffer and its exact bytes. */
struct req_row {
	int		 line;
	const char	*what;
	int		 version;
	unsigned	 n;
	struct hcall_request req[2];
	const char	*hex;
};

static const struct req_row req_rows[] = {
	{ SRC_LINE, "abi 3.2 worked example: v2 physical core 1, offset 0x98",
	  2, 1, { { .domain = 2, .data_size = 8, .data_offset = 0x98,
	  .lpar = 0, .max_lpars = 1, .index = 1, .max_ix = 1, .tg = 1,
	  .max_tg = 1 } },
	  "02 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00"
	  "02 00 00 08 00 00 00 98 00 00 00 01 00 01 00 01"
	  "01 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00" },
	{ SRC_LINE, "abi 3.2: the same with SMT8 aggregation (20=00 21=ff)",
	  2, 1, { { .domain = 2, .data_size = 8, .data_offset = 0x98,
	  .lpar = 0, .max_lpars = 1, .index = 1, .max_ix = 1, .tg = 0,
	  .max_tg = 0xff } },
	  "02 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00"
	  "02 00 00 08 00 00 00 98 00 00 00 01 00 01 00 01"
	  "00 ff 00 00 00 00 00 00 00 00 00 00 00 00 00 00" },
	{ SRC_LINE, "v1 (POWER8): HPM_CCYC core 1, 16-byte request",
	  1, 1, { { .domain = 2, .data_size = 8, .data_offset = 0x98,
	  .lpar = 0, .max_lpars = 1, .index = 1, .max_ix = 1 } },
	  "01 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00"
	  "02 00 00 08 00 00 00 98 00 00 00 01 00 01 00 01" },
	{ SRC_LINE, "abi 5: VCPU home core, vcpu 0, own partition (0xffff)",
	  2, 1, { { .domain = 3, .data_size = 8, .data_offset = 0x98,
	  .lpar = 0xffff, .max_lpars = 1, .index = 0, .max_ix = 1, .tg = 0,
	  .max_tg = 1 } },
	  "02 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00"
	  "03 00 00 08 00 00 00 98 ff ff 00 01 00 00 00 01"
	  "00 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00" },
	{ SRC_LINE, "v1, two requests: PM_PB_CYC (abi K8 offset 0x80) chip 0 "
	  "and a 64-byte record of chips 2..5",
	  1, 2, { { .domain = 1, .data_size = 8, .data_offset = 0x80,
	  .lpar = 0, .max_lpars = 1, .index = 0, .max_ix = 1 },
	  { .domain = 1, .data_size = 64, .data_offset = 0x1000,
	  .lpar = 0xffff, .max_lpars = 1, .index = 2, .max_ix = 4 } },
	  "01 02 00 00 00 00 00 00 00 00 00 00 00 00 00 00"
	  "01 00 00 08 00 00 00 80 00 00 00 01 00 00 00 01"
	  "01 00 00 40 00 00 10 00 ff ff 00 01 00 02 00 04" },
};

static void
test_request_golden(void **state)
{
	struct hcall_reqbuf	 rb, back;
	uint8_t			 want[HCALL_BUF_SIZE], buf[HCALL_BUF_SIZE];
	size_t			 i, n, used;
	char			*cause = NULL;
	int			 error;

	(void)state;
	for (i = 0; i < sizeof req_rows / sizeof req_rows[0]; i++) {
		memset(&rb, 0, sizeof rb);
		rb.version = req_rows[i].version;
		rb.nrequests = req_rows[i].n;
		memcpy(rb.req, req_rows[i].req, sizeof req_rows[i].req);
		n = tfix_hex(req_rows[i].hex, want, sizeof want);
		error = hcall_encode_request(&rb, buf, sizeof buf, &used,
		    &cause);
		if (error != 0)
			fail_msg("line %d (%s): %s", req_rows[i].line,
			    req_rows[i].what, cause);
		if (used != n || memcmp(buf, want, n) != 0)
			fail_msg("line %d (%s): bytes differ",
			    req_rows[i].line, req_rows[i].what);
		for (; n < sizeof buf; n++)
			assert_int_equal(buf[n], 0);
		/* And back: the decoder reads what the encoder wrote. */
		error = hcall_decode_request(buf, used, &back, &cause);
		if (error != 0)
			fail_msg("line %d: decode: %s", req_rows[i].line,
			    cause);
		assert_int_equal(back.version, rb.version);
		assert_int_equal(back.nrequests, rb.nrequests);
		assert_memory_equal(back.req, rb.req,
		    rb.nrequests * sizeof rb.req[0]);
	}
}

/* Results written by the encoder, byte for byte (abi 3.3 byte map). */
static void
test_result_golden(void **state)
{
	static const struct {
		int		 line;
		int		 version;
		const char	*hex;
		unsigned	 counter_at;
	} rows[] = {
		{ SRC_LINE, 1,
		  "01 01 00 00 00 00 00 00 00 00 00 00 00 00 0a 0b"
		  "00 00 00 00 00 00 00 03 00 00 00 00 00 00 00 00"
		  /* @0x20 result, @0x28 element, @0x30 counter */
		  "00 01 00 01 00 08 00 00"
		  "00 00 00 01 ff ff ff ff"
		  "00 00 00 00 12 34 56 78", 0x30 },
		{ SRC_LINE, 2,
		  "02 01 00 00 00 00 00 00 00 00 00 00 00 00 0a 0b"
		  "00 00 00 00 00 00 00 03 00 00 00 00 00 00 00 00"
		  /* @0x28 element, tg @0x30, counter @0x38, next @0x40 */
		  "00 01 00 01 00 08 00 00"
		  "00 00 00 01 ff ff ff ff 01 00 00 00 00 00 00 00"
		  "00 00 00 00 12 34 56 78", 0x38 },
	};
	struct hcall_rwriter	 w;
	struct hcall_resbuf	 rb;
	uint8_t			 buf[256], want[256], *d;
	size_t			 i, n, used;
	char			*cause = NULL;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		n = tfix_hex(rows[i].hex, want, sizeof want);
		hcall_encode_result_begin(&w, buf, sizeof buf,
		    rows[i].version);
		hcall_encode_result_status(&w, 0, 0, 0xa0b, 3);
		assert_int_equal(hcall_encode_result_open(&w, 0, 8), 0);
		d = hcall_encode_result_element(&w, 0, 1, 0xffffffff, 1);
		assert_non_null(d);
		be64_put(d, 0x12345678);
		hcall_encode_result_close(&w, 1);
		used = hcall_encode_result_end(&w);
		if (used != n || memcmp(buf, want, n) != 0)
			fail_msg("line %d: result bytes differ", rows[i].line);
		assert_int_equal(hcall_result_bytes(rows[i].version, 1, 8),
		    n - 32);
		if (hcall_decode_result(buf, used, rows[i].version, &rb,
		    &cause) != 0)
			fail_msg("line %d: %s", rows[i].line, cause);
		assert_int_equal(rb.nresults, 1);
		assert_int_equal(rb.cec_cfg, 0xa0b);
		assert_int_equal(rb.catalog_version, 3);
		assert_int_equal(rb.results[0].complete, 1);
		assert_int_equal(rb.elements[0].index, 1);
		assert_int_equal(rb.elements[0].lpar_cfg, 0xffffffff);
		assert_int_equal(rb.elements[0].tg,
		    rows[i].version == 2 ? 1 : 0);
		assert_int_equal(rb.elements[0].data, rows[i].counter_at);
		assert_int_equal(hcall_element_word(&rb, &rb.elements[0], 0),
		    0x12345678);
	}
}

/* Capacity of one 4096-byte result buffer (abi 3.3 table). */
static void
test_result_capacity(void **state)
{
	struct hcall_rwriter	 w;
	static uint8_t		 buf[HCALL_BUF_SIZE];
	unsigned		 n, t;
	int			 v;

	(void)state;
	for (v = 1; v <= 2; v++) {
		for (t = 1; t <= 2; t++) {
			hcall_encode_result_begin(&w, buf, sizeof buf, v);
			for (n = 0; ; n++) {
				if (hcall_encode_result_open(&w, (uint8_t)n,
				    8) != 0)
					break;
				if (hcall_encode_result_element(&w, 0, 0, 0,
				    0) == NULL)
					break;
				if (t == 2 && hcall_encode_result_element(&w,
				    0, 0, 0, 1) == NULL)
					break;
				hcall_encode_result_close(&w, 1);
			}
			if (v == 1 && t == 1)
				assert_int_equal(n, 169);
			if (v == 2 && t == 1)
				assert_int_equal(n, 127);
			if (v == 2 && t == 2)
				assert_int_equal(n, 72);
		}
	}
}

/* A malformed result buffer and what the decoder must say. */
struct bad_row {
	int		 line;
	int		 version;	/* expected by the caller */
	size_t		 len;		/* 0: the hex length */
	const char	*hex;
	int		 error;
	const char	*says;
};

#define HDR1	"01 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00" \
		"00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"
#define HDR1_2	"01 02 00 00 00 00 00 00 00 00 00 00 00 00 00 00" \
		"00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"
#define ELEM1	"00 00 00 00 ff ff ff ff 00 00 00 00 00 00 00 2a"

static const struct bad_row bad_rows[] = {
	{ SRC_LINE, 0, 0, "01 00 00 00", -HV_ETRUNC,
	  "ends before the 32-byte header" },
	{ SRC_LINE, 0, 4097, HDR1, -HV_ERANGE, "larger than 4096" },
	{ SRC_LINE, 0, 0, "03 00" "00 00 00 00 00 00 00 00 00 00 00 00 00 00"
	  "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00", -HV_EVERSION,
	  "interface_version 3" },
	{ SRC_LINE, 2, 0, HDR1 "00 01 00 01 00 08 00 00" ELEM1, -HV_EVERSION,
	  "the request used 2" },
	{ SRC_LINE, 1, 0, HDR1, -HV_ETRUNC,
	  "result 0 at byte 0x20: its 8-byte header runs past" },
	{ SRC_LINE, 1, 0, HDR1_2 "00 01 00 01 00 08 00 00" ELEM1 "01 01 00",
	  -HV_ETRUNC, "result 1 at byte 0x38" },
	{ SRC_LINE, 1, 0, HDR1 "00 02 00 01 00 08 00 00" ELEM1, -HV_EFORMAT,
	  "results_complete is 2" },
	{ SRC_LINE, 1, 0, HDR1 "00 01 00 01 00 0c 00 00" ELEM1, -HV_EFORMAT,
	  "element data size 12 is not a positive multiple of 8" },
	{ SRC_LINE, 1, 0, HDR1 "00 01 00 01 00 00 00 00" ELEM1, -HV_EFORMAT,
	  "element data size 0" },
	/* num_elements lies: 5 said, room for 1. */
	{ SRC_LINE, 1, 0, HDR1 "00 01 00 05 00 08 00 00" ELEM1, -HV_ETRUNC,
	  "result 0 element 1 at byte 0x38: needs 16 bytes, 0 left" },
	/* A stride that would overflow a 16-bit offset. */
	{ SRC_LINE, 1, 0, HDR1 "00 01 00 01 ff f8 00 00" ELEM1, -HV_ETRUNC,
	  "result 0 element 0 at byte 0x28: needs 65536 bytes" },
	{ SRC_LINE, 1, 0, HDR1 "00 01 ff ff 00 08 00 00" ELEM1, -HV_ETRUNC,
	  "num_elements_returned says 65535" },
	/* v2 elements are 16 + data bytes: a v1-sized one is cut short. */
	{ SRC_LINE, 2, 0, "02 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00"
	  "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"
	  "00 01 00 01 00 08 00 00" ELEM1, -HV_ETRUNC,
	  "result 0 element 0 at byte 0x28: needs 24 bytes, 16 left" },
};

static void
test_result_bad(void **state)
{
	static struct hcall_resbuf rb;
	static uint8_t		 buf[8192];
	size_t			 i, n;
	char			*cause;
	int			 error;

	(void)state;
	for (i = 0; i < sizeof bad_rows / sizeof bad_rows[0]; i++) {
		memset(buf, 0, sizeof buf);
		n = tfix_hex(bad_rows[i].hex, buf, sizeof buf);
		if (bad_rows[i].len != 0)
			n = bad_rows[i].len;
		cause = NULL;
		error = hcall_decode_result(buf, n, bad_rows[i].version, &rb,
		    &cause);
		if (error != bad_rows[i].error)
			fail_msg("line %d: error %d, expected %d (%s)",
			    bad_rows[i].line, error, bad_rows[i].error,
			    cause != NULL ? cause : "no cause");
		if (cause == NULL || strstr(cause, bad_rows[i].says) == NULL)
			fail_msg("line %d: cause \"%s\" lacks \"%s\"",
			    bad_rows[i].line, cause != NULL ? cause : "",
			    bad_rows[i].says);
		free(cause);
	}
}

/* The header of a failed call decodes, so detailed_rc can be read. */
static void
test_result_header_only(void **state)
{
	struct hcall_rwriter	 w;
	static struct hcall_resbuf rb;
	uint8_t			 buf[64];
	char			*cause = NULL;

	(void)state;
	hcall_encode_result_begin(&w, buf, sizeof buf, 2);
	hcall_encode_result_status(&w, 7, 0x302, 1, 9);
	assert_int_equal(hcall_encode_result_end(&w), 32);
	assert_int_equal(hcall_decode_result(buf, sizeof buf, 2, &rb, &cause),
	    0);
	assert_int_equal(rb.nresults, 0);
	assert_int_equal(rb.failing, 7);
	assert_int_equal(rb.detailed_rc, 0x302);
	assert_int_equal(rb.catalog_version, 9);
	/* The writer refuses what does not fit rather than overrun. */
	hcall_encode_result_begin(&w, buf, 40, 2);
	assert_int_equal(hcall_encode_result_open(&w, 0, 8), 0);
	assert_null(hcall_encode_result_element(&w, 0, 0, 0, 0));
	assert_int_equal(hcall_encode_result_open(&w, 1, 8), -HV_ELIMIT);
}

/* Request buffers: the encoder's refusals and the decoder's. */
static void
test_request_bad(void **state)
{
	static struct hcall_reqbuf rb;
	uint8_t			 buf[HCALL_BUF_SIZE];
	size_t			 used;
	char			*cause;

	(void)state;
	memset(&rb, 0, sizeof rb);
	rb.version = 3;
	cause = NULL;
	assert_int_equal(hcall_encode_request(&rb, buf, sizeof buf, &used,
	    &cause), -HV_EUSAGE);
	free(cause);
	rb.version = 2;
	rb.nrequests = 128;
	cause = NULL;
	assert_int_equal(hcall_encode_request(&rb, buf, sizeof buf, &used,
	    &cause), -HV_ELIMIT);
	assert_non_null(strstr(cause, "allows 127"));
	free(cause);
	rb.nrequests = 127;
	assert_int_equal(hcall_encode_request(&rb, buf, sizeof buf, &used,
	    &cause), 0);
	assert_int_equal(used, 16 + 127 * 32);
	cause = NULL;
	assert_int_equal(hcall_encode_request(&rb, buf, 100, &used, &cause),
	    -HV_ELIMIT);
	free(cause);
	rb.version = 1;
	rb.nrequests = 1;
	rb.req[0].max_tg = 1;
	cause = NULL;
	assert_int_equal(hcall_encode_request(&rb, buf, sizeof buf, &used,
	    &cause), -HV_EUSAGE);
	assert_non_null(strstr(cause, "request 0"));
	free(cause);

	/* The decoder. */
	memset(buf, 0, sizeof buf);
	cause = NULL;
	assert_int_equal(hcall_decode_request(buf, 8, &rb, &cause),
	    -HV_ETRUNC);
	free(cause);
	cause = NULL;
	assert_int_equal(hcall_decode_request(buf, 16, &rb, &cause),
	    -HV_EVERSION);
	free(cause);
	buf[0] = 2;
	buf[1] = 128;
	cause = NULL;
	assert_int_equal(hcall_decode_request(buf, sizeof buf, &rb, &cause),
	    -HV_ELIMIT);
	free(cause);
	buf[1] = 2;
	cause = NULL;
	assert_int_equal(hcall_decode_request(buf, 16 + 32 + 8, &rb, &cause),
	    -HV_ETRUNC);
	assert_non_null(strstr(cause, "request 1 at byte 0x30"));
	free(cause);
	buf[5] = 1;
	cause = NULL;
	assert_int_equal(hcall_decode_request(buf, sizeof buf, &rb, &cause),
	    -HV_EFORMAT);
	assert_non_null(strstr(cause, "byte 0x5"));
	free(cause);
	buf[5] = 0;
	buf[16 + 32 + 0x1f] = 1;	/* request 1, reserved2 */
	cause = NULL;
	assert_int_equal(hcall_decode_request(buf, sizeof buf, &rb, &cause),
	    -HV_EFORMAT);
	assert_non_null(strstr(cause, "request 1 at byte 0x30: reserved "
	    "byte 0x4f"));
	free(cause);
	buf[16 + 32 + 0x1f] = 0;
	assert_int_equal(hcall_decode_request(buf, sizeof buf, &rb, &cause),
	    0);
	assert_int_equal(rb.nrequests, 2);
}

/*
 * The header is judged whole before any request, in the order a
 * hypervisor checks it (version, reserved bytes, the request limit, the
 * length), and the version is told even when the header is refused.
 */
static void
test_request_order(void **state)
{
	static const struct {
		int		 line;
		const char	*what;
		uint8_t		 version, n;
		size_t		 poke;		/* byte set to 1; 0: none */
		size_t		 len;
		int		 error;
		const char	*where;		/* in the cause */
	} rows[] = {
		{ SRC_LINE, "good", 2, 2, 0, 4096, 0, NULL },
		{ SRC_LINE, "version 3, reserved byte", 3, 2, 5, 4096,
		  -HV_EVERSION, "byte 0x00" },
		{ SRC_LINE, "reserved header byte and 128 requests", 2, 128, 5,
		  4096, -HV_EFORMAT, "byte 0x5" },
		{ SRC_LINE, "128 requests, buffer too short", 2, 128, 0, 100,
		  -HV_ELIMIT, "num_requests 128" },
		{ SRC_LINE, "request 0 reserved, buffer too short", 2, 2,
		  16 + 1, 16 + 32 + 8, -HV_ETRUNC, "request 1 at byte 0x30" },
		{ SRC_LINE, "v1, 255 requests, 4096 bytes", 1, 255, 0, 4096, 0,
		  NULL },
		{ SRC_LINE, "v1, 255 requests, one short", 1, 255, 0, 4095,
		  -HV_ETRUNC, "request 254 at byte 0xff0" },
	};
	static uint8_t		 buf[HCALL_BUF_SIZE];
	struct hcall_request	 r;
	unsigned		 n;
	size_t			 i;
	char			*cause;
	int			 version, error;

	(void)state;
	for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		memset(buf, 0, sizeof buf);
		buf[0] = rows[i].version;
		buf[1] = rows[i].n;
		if (rows[i].poke != 0)
			buf[rows[i].poke] = 1;
		cause = NULL;
		error = hcall_decode_request_header(buf, rows[i].len, &version,
		    &n, &cause);
		if (error != rows[i].error)
			fail_msg("line %d (%s): error %d, expected %d: %s",
			    rows[i].line, rows[i].what, error, rows[i].error,
			    cause != NULL ? cause : "");
		assert_int_equal(version, rows[i].version);
		assert_int_equal(n, error == 0 ? rows[i].n : 0);
		if (rows[i].where != NULL && strstr(cause, rows[i].where) ==
		    NULL)
			fail_msg("line %d (%s): \"%s\" lacks \"%s\"",
			    rows[i].line, rows[i].what, cause, rows[i].where);
		free(cause);
	}

	/* One request at a time: its fields, or its reserved byte. */
	memset(buf, 0, sizeof buf);
	buf[0] = 2;
	buf[1] = 2;
	buf[16 + 32 + 0x0d] = 5;		/* request 1: starting_ix 5 */
	buf[16 + 32 + 0x11] = 0xff;		/* max_num_thread_groups */
	assert_int_equal(hcall_decode_request_at(buf, sizeof buf, 2, 1, &r,
	    &cause), 0);
	assert_int_equal(r.index, 5);
	assert_int_equal(r.max_tg, 0xff);
	buf[16 + 32 + 0x12] = 1;		/* request 1: reserved2 */
	cause = NULL;
	assert_int_equal(hcall_decode_request_at(buf, sizeof buf, 2, 1, &r,
	    &cause), -HV_EFORMAT);
	assert_non_null(strstr(cause, "request 1 at byte 0x30: reserved byte "
	    "0x42"));
	free(cause);
	cause = NULL;
	assert_int_equal(hcall_decode_request_at(buf, 16 + 32 + 31, 2, 1, &r,
	    &cause), -HV_ETRUNC);
	free(cause);
}

static void
test_names(void **state)
{
	(void)state;
	assert_string_equal(hcall_rc_name(H_SUCCESS), "H_SUCCESS");
	assert_string_equal(hcall_rc_name(-55), "H_P2");
	assert_string_equal(hcall_rc_name(H_AUTHORITY), "H_AUTHORITY");
	assert_string_equal(hcall_rc_name(9905), "H_LONG_BUSY_ORDER_100_SEC");
	assert_string_equal(hcall_rc_name(12345), "?");
	assert_string_equal(hcall_domain_name(1), "Physical Chip");
	assert_string_equal(hcall_domain_name(6), "VCPU Remote Node");
	assert_string_equal(hcall_domain_name(7), "?");
	assert_string_equal(hcall_domain_name(0), "?");
	assert_string_equal(hcall_domain_term(2), "core");
	assert_string_equal(hcall_domain_term(5), "vcpu");
	assert_string_equal(hcall_field_name(HCALL_L_RES_HDR, 0x05),
	    "detailed_rc");
	assert_string_equal(hcall_field_name(HCALL_L_REQ_V2, 0x11),
	    "max_num_thread_groups");
	assert_string_equal(hcall_field_name(HCALL_L_ELEM_V1, 8), "?");
	assert_string_equal(hcall_layout_name(HCALL_L_RESULT),
	    "result header");
	assert_int_equal(HCALL_OFF(RES_HDR, catalog_version_num), 0x10);
	assert_int_equal(HCALL_LEN(RES_HDR, cec_cfg_instance_id), 8);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layouts),
		cmocka_unit_test(test_request_golden),
		cmocka_unit_test(test_result_golden),
		cmocka_unit_test(test_result_capacity),
		cmocka_unit_test(test_result_bad),
		cmocka_unit_test(test_result_header_only),
		cmocka_unit_test(test_request_bad),
		cmocka_unit_test(test_request_order),
		cmocka_unit_test(test_names),
	};

	return (cmocka_run_group_tests_name("hcall", tests, NULL, NULL));
}
