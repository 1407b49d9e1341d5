/*
 * The H_GET_24X7_DATA path: request and result buffers of hcall interface
 * v1 (POWER8) and v2 (POWER9 and later), byte for byte as PAPR and Linux
 * lay them out, and the planner that turns a counter selection into as few
 * request buffers as the interface limits allow.
 *
 * Pure: bytes and models in, bytes and models out.  No I/O, no clock, no
 * printing.  Whatever carries the buffers to a hypervisor (the simulator
 * today) lives elsewhere; this code never trusts what comes back.
 *
 * Layouts: PAPR's H_GET_24X7_DATA, as Linux declares it in
 * arch/powerpc/perf/hv-24x7.h; each one is written once, in
 * hcall-layout.def.
 */
#ifndef HVTOP_HCALL_H
#define HVTOP_HCALL_H

#include <stddef.h>
#include <stdint.h>

#include "model/hv-abi.h"
#include "util/be.h"

struct catalog;
struct catalog_event;
struct catalog_group;

#define HCALL_OPCODE_CATALOG_PAGE 0xf078	/* H_GET_24X7_CATALOG_PAGE */
#define HCALL_OPCODE_DATA	0xf07c	/* H_GET_24X7_DATA */

/* The ABI's sizes and limits (model/hv-abi.h), by the codec's names. */
#define HCALL_BUF_SIZE		HV_BUF_SIZE
#define HCALL_PAGE_SIZE		HV_PAGE_SIZE
#define HCALL_MAX_REQUESTS_V1	HV_MAX_REQUESTS_V1
#define HCALL_MAX_REQUESTS_V2	HV_MAX_REQUESTS_V2
#define HCALL_MAX_ELEMENTS	HV_MAX_ELEMENTS
#define HCALL_MAX_RESULTS	HV_MAX_RESULTS

#define HCALL_LPAR_SELF		HV_LPAR_SELF
#define HCALL_LPARS_ALL		0xffff	/* max_num_lpars: all from start */
#define HCALL_TG_ALL		0xff	/* max_num_thread_groups: all */
#define HCALL_NONE		0xffffffffU

/* hcall performance domains (the catalog uses the same numbers). */
#define HCALL_DOMAIN_CHIP	HV_DOMAIN_CHIP
#define HCALL_DOMAIN_CORE	HV_DOMAIN_CORE
#define HCALL_DOMAIN_VCPU_HOME_CORE HV_DOMAIN_VCPU_HOME_CORE
#define HCALL_DOMAIN_VCPU_HOME_CHIP HV_DOMAIN_VCPU_HOME_CHIP
#define HCALL_DOMAIN_VCPU_HOME_NODE HV_DOMAIN_VCPU_HOME_NODE
#define HCALL_DOMAIN_VCPU_REMOTE_NODE HV_DOMAIN_VCPU_REMOTE_NODE
#define HCALL_DOMAIN_MAX	HV_DOMAIN_MAX

/* PAPR hcall return codes (r3), from Linux asm/hvcall.h. */
enum hcall_rc {
	H_SUCCESS = 0,
	H_BUSY = 1,
	H_CLOSED = 2,
	H_NOT_AVAILABLE = 3,
	H_CONSTRAINED = 4,
	H_PARTIAL = 5,
	H_HARDWARE = -1,
	H_FUNCTION = -2,
	H_PRIVILEGE = -3,
	H_PARAMETER = -4,
	H_NO_MEM = -9,
	H_AUTHORITY = -10,
	H_PERMISSION = -11,
	H_RESOURCE = -16,
	H_ABORTED = -54,
	H_P2 = -55,
	H_P3 = -56,
	H_P4 = -57,
	H_P5 = -58,
	H_P6 = -59,
	H_P7 = -60,
	H_P8 = -61,
	H_P9 = -62,
	H_TOO_BIG = -64,
	H_UNSUPPORTED = -67,
	H_BAD_DATA = -70,
	H_STATE = -75,
	H_OUTPUT_BUFFER_TOO_SMALL = -85,
	H_LONG_BUSY_ORDER_1_MSEC = 9900,
	H_LONG_BUSY_ORDER_10_MSEC = 9901,
	H_LONG_BUSY_ORDER_100_MSEC = 9902,
	H_LONG_BUSY_ORDER_1_SEC = 9903,
	H_LONG_BUSY_ORDER_10_SEC = 9904,
	H_LONG_BUSY_ORDER_100_SEC = 9905,
};

/*
 * Layout constants generated from hcall-layout.def:
 *	HCALL_REQ_HDR_SIZE		16
 *	HCALL_OFF(REQ_V1, data_size)	2
 *	HCALL_LEN(REQ_V1, data_size)	2
 * and HCALL_GET()/HCALL_SET() to load and store a field of a layout that
 * starts at a given pointer (the caller has bounds-checked the layout).
 */
enum hcall_layout_id {
#define HCALL_LAYOUT(id, size, what) HCALL_L_##id,
#define HCALL_FIELD(id, name, off, len)
#define HCALL_END(id)
#include "hcall/hcall-layout.def"
#undef HCALL_LAYOUT
#undef HCALL_FIELD
#undef HCALL_END
	HCALL_NLAYOUTS
};

enum {
#define HCALL_LAYOUT(id, size, what) HCALL_##id##_SIZE = (size),
#define HCALL_FIELD(id, name, off, len) \
	HCALL_##id##__##name = (off), HCALL_##id##__##name##__LEN = (len),
#define HCALL_END(id)
#include "hcall/hcall-layout.def"
#undef HCALL_LAYOUT
#undef HCALL_FIELD
#undef HCALL_END
};

#define HCALL_OFF(id, name)	HCALL_##id##__##name
#define HCALL_LEN(id, name)	HCALL_##id##__##name##__LEN

/* Big-endian field of len bytes (1 to 8); sizes 2, 4, 8 go fast. */
static inline uint64_t
hcall_load(const uint8_t *p, size_t len)
{
	uint64_t	 v = 0;
	size_t		 i;

	switch (len) {
	case 2:
		return (be16_get(p));
	case 4:
		return (be32_get(p));
	case 8:
		return (be64_get(p));
	}
	for (i = 0; i < len; i++)
		v = v << 8 | p[i];
	return (v);
}

static inline void
hcall_store(uint8_t *p, size_t len, uint64_t v)
{
	size_t	 i;

	for (i = len; i > 0; i--) {
		p[i - 1] = (uint8_t)v;
		v >>= 8;
	}
}

#define HCALL_GET(id, name, base) \
	hcall_load((base) + HCALL_OFF(id, name), HCALL_LEN(id, name))
#define HCALL_SET(id, name, base, v) \
	hcall_store((base) + HCALL_OFF(id, name), HCALL_LEN(id, name), (v))

/* One field of one layout, for messages and table-driven tests. */
struct hcall_field {
	enum hcall_layout_id layout;
	const char	*name;
	uint16_t	 offset;
	uint16_t	 length;
};
extern const struct hcall_field hcall_fields[];
extern const size_t hcall_nfields;

/* Sizes by interface version; 0 for a version that does not exist. */
size_t	 hcall_request_size(int version);	/* 16 or 32 */
size_t	 hcall_element_header_size(int version);	/* 8 or 16 */
unsigned hcall_max_requests(int version);	/* 255 or 127 */

/* Constant names; "?" when unknown.  Never NULL. */
const char	*hcall_rc_name(long rc);		/* "H_PARAMETER" */
const char	*hcall_domain_name(int domain);	/* "Physical Chip" */
const char	*hcall_domain_term(int domain);	/* "chip" "core" "vcpu" */
const char	*hcall_layout_name(enum hcall_layout_id);
/* The field of a layout covering byte off, or "?". */
const char	*hcall_field_name(enum hcall_layout_id, size_t off);

/*
 * Requests, as the model the encoder writes and the request decoder fills.
 * Field by field the wire request (names shortened).
 */
struct hcall_request {
	uint8_t		 domain;	/* performance_domain, 1-6 */
	uint16_t	 data_size;	/* bytes, multiple of 8 */
	uint32_t	 data_offset;	/* byte offset in the domain */
	uint16_t	 lpar;		/* starting_lpar_ix; HCALL_LPAR_SELF */
	uint16_t	 max_lpars;	/* max_num_lpars */
	uint16_t	 index;		/* starting_ix: chip, core or vcpu */
	uint16_t	 max_ix;	/* number of indexes from index */
	uint8_t		 tg;		/* v2: starting_thread_group_ix */
	uint8_t		 max_tg;	/* v2: max_num_thread_groups */
};

struct hcall_reqbuf {
	int		 version;	/* interface_version: 1 or 2 */
	unsigned	 nrequests;
	struct hcall_request req[HCALL_MAX_REQUESTS_V1];
};

/*
 * Write a request buffer into buf (len bytes; the whole of it is written,
 * zero after the last request).  Checks the wire shape only: version 1 or
 * 2, at most 255/127 requests, v1 requests without thread-group fields,
 * and that it fits.  Domains, offsets and sizes are written as given, so
 * tests can build requests a hypervisor must refuse.  Returns 0 with
 * *used (may be NULL) set to the bytes that matter, or -HV_EUSAGE /
 * -HV_ELIMIT with *cause set (caller frees).
 */
int	 hcall_encode_request(const struct hcall_reqbuf *, uint8_t *buf,
	    size_t len, size_t *used, char **cause);

/*
 * Read a request buffer of len bytes, trusting nothing, in the order a
 * hypervisor checks one: the header (the version, its reserved bytes,
 * num_requests against the interface's limit and against len), then each
 * request's reserved bytes.  Field values (domains, alignment) are not
 * judged; that is the hypervisor's job.  Returns 0 with *out filled, or
 * -HV_ETRUNC / -HV_EVERSION / -HV_ELIMIT / -HV_EFORMAT with *cause naming
 * the request and byte offset (caller frees).
 */
int	 hcall_decode_request(const uint8_t *buf, size_t len,
	    struct hcall_reqbuf *out, char **cause);

/*
 * The same in two steps, for a hypervisor that judges each request before
 * it reads the next.  The header: *version is the header's
 * interface_version whenever len holds a header (also on failure, so a
 * hypervisor can refuse a version before anything else), *nrequests its
 * num_requests once every check passed (else 0).  Returns 0, or
 * -HV_ETRUNC (len shorter than the header, or than num_requests
 * requests), -HV_ELIMIT (len over 4096, too many requests), -HV_EVERSION
 * (neither 1 nor 2) or -HV_EFORMAT (a reserved byte), with *cause set
 * (caller frees).
 */
int	 hcall_decode_request_header(const uint8_t *buf, size_t len,
	    int *version, unsigned *nrequests, char **cause);
/*
 * Request i of a buffer of len bytes and that version into *out.  Returns
 * 0, or -HV_EFORMAT (a reserved byte is set) / -HV_ETRUNC (it does not
 * fit) with *cause naming the request and byte (caller frees).
 */
int	 hcall_decode_request_at(const uint8_t *buf, size_t len, int version,
	    unsigned i, struct hcall_request *out, char **cause);

/*
 * Results.  The decoder fills this caller-owned model (fixed size: no
 * allocation per call); element data stays in the buffer, which must
 * outlive the model.
 */
struct hcall_element {
	uint16_t	 lpar;		/* lpar_ix */
	uint16_t	 index;		/* domain_ix: chip, core or vcpu */
	uint32_t	 lpar_cfg;	/* lpar_cfg_instance_id */
	uint8_t		 tg;		/* v2 thread_group_ix; 0 on v1 */
	uint16_t	 data;		/* byte offset of its data */
};

struct hcall_result {
	uint8_t		 request;	/* result_ix */
	uint8_t		 complete;	/* results_complete: 0 or 1 */
	uint16_t	 nelements;	/* num_elements_returned */
	uint16_t	 data_size;	/* result_element_data_size */
	uint16_t	 offset;	/* byte offset of the result header */
	uint16_t	 first;		/* its first element in elements[] */
};

struct hcall_resbuf {
	const uint8_t	*buf;
	size_t		 len;
	int		 version;
	unsigned	 nresults;
	uint8_t		 failing;	/* failing_request_ix */
	uint32_t	 detailed_rc;
	uint64_t	 cec_cfg;	/* cec_cfg_instance_id */
	uint64_t	 catalog_version; /* catalog_version_num */
	size_t		 nelements;
	struct hcall_result results[HCALL_MAX_RESULTS];
	struct hcall_element elements[HCALL_MAX_ELEMENTS];
};

/*
 * Decode a result buffer of len bytes (at most 4096).  version is the
 * interface version the request used, or 0 to accept 1 or 2.  Every count,
 * size and stride is checked against the buffer before it is used; the
 * first failure names the result and element and its byte offset.  A
 * header alone (num_results 0, as after a failed call) decodes fine, so
 * detailed_rc can be read.  Returns 0, or -HV_ETRUNC / -HV_EVERSION /
 * -HV_EFORMAT / -HV_ERANGE with *cause set (caller frees).
 */
int	 hcall_decode_result(const uint8_t *buf, size_t len, int version,
	    struct hcall_resbuf *out, char **cause);

/* The k-th big-endian 64-bit word of an element's data; no checks. */
static inline uint64_t
hcall_element_word(const struct hcall_resbuf *res,
    const struct hcall_element *e, size_t k)
{
	return (hcall_load(res->buf + e->data + 8 * k, 8));
}

/*
 * Building a result buffer (the simulated hypervisor does this).  begin
 * zeroes buf and writes the header; open/element/close add one result and
 * its elements; end writes num_results and returns the bytes used.
 * Functions that add bytes refuse (return NULL or -HV_ELIMIT) rather than
 * write past len.
 */
struct hcall_rwriter {
	uint8_t		*buf;
	size_t		 len;
	size_t		 off;		/* next free byte */
	int		 version;
	size_t		 result;	/* offset of the open result, or 0 */
	unsigned	 nresults;
	uint16_t	 nelements;	/* of the open result */
	uint16_t	 data_size;	/* of the open result */
};

void	 hcall_encode_result_begin(struct hcall_rwriter *, uint8_t *buf,
	    size_t len, int version);
void	 hcall_encode_result_status(struct hcall_rwriter *, uint8_t failing,
	    uint32_t detailed_rc, uint64_t cec_cfg, uint64_t catalog_version);
/* Bytes one result of n elements of data_size bytes needs. */
size_t	 hcall_result_bytes(int version, size_t n, size_t data_size);
int	 hcall_encode_result_open(struct hcall_rwriter *, uint8_t request,
	    uint16_t data_size);
/* Returns where the element's data_size data bytes go, or NULL if full. */
uint8_t	*hcall_encode_result_element(struct hcall_rwriter *, uint16_t lpar,
	    uint16_t index, uint32_t lpar_cfg, uint8_t tg);
void	 hcall_encode_result_close(struct hcall_rwriter *, int complete);
size_t	 hcall_encode_result_end(struct hcall_rwriter *);

/*
 * The planner.  Like libpfm's pfm_dispatch_events(), it never talks to
 * the hypervisor: it turns a selection into request buffers and says where
 * every counter will be found in the results, or fails with a precise code
 * and a cause naming the item.
 */
enum hcall_item_kind {
	HCALL_ITEM_EVENT,		/* one catalog event */
	HCALL_ITEM_GROUP,		/* every event of a catalog group */
	HCALL_ITEM_RAW,			/* one 8-byte counter by offset */
};

struct hcall_range {
	uint16_t	 first;
	uint16_t	 count;
};

struct hcall_item {
	enum hcall_item_kind kind;
	const struct catalog_event *event;	/* HCALL_ITEM_EVENT */
	const struct catalog_group *group;	/* HCALL_ITEM_GROUP */
	uint32_t	 offset;	/* HCALL_ITEM_RAW: byte offset */
	uint8_t		 domain;	/* hcall domain 1-6; 0: the catalog's */
	uint16_t	 lpar;		/* HCALL_LPAR_SELF: own partition */
	const struct hcall_range *ranges; /* chips, cores or vcpus */
	size_t		 nranges;
};

struct hcall_selection {
	const struct catalog *cat;	/* items' events and groups; schemas */
	const struct hcall_item *items;
	size_t		 nitems;
};

/* Record fields the planner may make readable (hcall_caps.fields). */
#define HCALL_REC_TIMEBASE	0x1	/* timebase of the last update */
#define HCALL_REC_UPDATES	0x2	/* update count */
#define HCALL_REC_PERIOD	0x4	/* measurement period */

/* What the transport allows; zero fields take the interface's limits. */
struct hcall_caps {
	int		 version;	/* 1 or 2 */
	uint16_t	 max_data_size;	/* per request, multiple of 8; 0: any */
	int		 multi_index;	/* max_ix > 1 allowed, and
					   max_num_lpars > 1 */
	unsigned	 max_requests;	/* per buffer; 0: 255 (v1) / 127 (v2) */
	size_t		 result_size;	/* result buffer bytes; 0: 4096 */
	unsigned	 fields;	/* HCALL_REC_* wanted with counters */
	int		 whole_records;	/* whole group records where they
					   cost no more than spans */
};

/* The machine: index counts per domain and thread groups per core. */
struct hcall_topology {
	uint32_t	 count[HCALL_DOMAIN_MAX]; /* 0: unknown, not checked */
	unsigned	 thread_groups;	/* per core on v2; 0 counts as 1 */
};

/* Where one value is found: sum nelements elements from element. */
struct hcall_loc {
	uint32_t	 buffer;	/* hcall number; HCALL_NONE: absent */
	uint8_t		 request;	/* request = result_ix */
	uint16_t	 element;	/* first element in that result */
	uint16_t	 nelements;	/* thread groups to sum (fields: 1) */
	uint16_t	 offset;	/* byte offset in the element data */
};

/* One requested counter at one index, in selection order. */
struct hcall_value {
	uint32_t	 item;		/* selection item */
	const struct catalog_event *event; /* NULL for raw items */
	uint8_t		 domain;
	uint16_t	 lpar;
	uint16_t	 index;
	uint32_t	 offset;	/* counter byte offset in the domain */
	uint32_t	 record;	/* into plan->records, or HCALL_NONE */
	struct hcall_loc loc;
};

/* One group record at one index, and where its timing fields are. */
struct hcall_record {
	uint8_t		 domain;
	uint16_t	 lpar;
	uint16_t	 index;
	uint32_t	 offset;	/* record byte offset in the domain */
	uint32_t	 length;
	int		 schema;	/* catalog schema, or -1 if unknown */
	unsigned	 have;		/* HCALL_REC_* found in the reads */
	struct hcall_loc timebase;
	struct hcall_loc updates;
	struct hcall_loc period;
};

struct hcall_plan {
	int		 version;
	unsigned	 thread_groups;	/* elements per core index (v2) */
	struct hcall_reqbuf *bufs;	/* one per hcall */
	size_t		*result_bytes;	/* per buffer: result bytes expected */
	size_t		 nbufs;
	struct hcall_value *values;
	size_t		 nvalues;
	struct hcall_record *records;
	size_t		 nrecords;
	size_t		 nrequests;	/* over all buffers */
	size_t		 naive_requests; /* one 8-byte request per value */
	size_t		 naive_hcalls;	/* those, packed to the limits */
	/* One request per partition, placement and span: what the plan
	   would be with max_num_lpars 1 (as planned without partitions). */
	size_t		 perlpar_requests;
	size_t		 perlpar_hcalls;
	/* Per buffer, the values found in it: byval[byval_first[b] ...]. */
	uint32_t	*byval;
	size_t		*byval_first;	/* nbufs + 1 entries */
	size_t		*byrec_first;	/* same for records */
	uint32_t	*byrec;
};

/*
 * Plan the hcalls for a selection.  topo may be NULL (indexes are then
 * only checked against 16 bits; one thread group).  Values come out item
 * by item, then index by index, then counter by counter.  Items that
 * name consecutive partitions (lpar other than HCALL_LPAR_SELF, a VCPU
 * domain) and read the same words over the same indexes share requests
 * (max_num_lpars > 1) when caps allow several indexes: a request takes
 * as many whole partitions as the result buffer holds.  Returns 0 with
 * *out (caller frees with hcall_plan_free()), or:
 *	-HV_ENOENT	an event or group is not in the catalog
 *	-HV_ERANGE	an index is outside the topology
 *	-HV_EUSAGE	a domain the item or interface does not allow; bad caps
 *	-HV_EFORMAT	a raw offset that is not 8-byte aligned
 *	-HV_ELIMIT	one request would not fit the result buffer
 * with *cause naming the item (caller frees).
 */
int	 hcall_plan(const struct hcall_selection *, const struct hcall_caps *,
	    const struct hcall_topology *, struct hcall_plan **out,
	    char **cause);
void	 hcall_plan_free(struct hcall_plan *);

/* Timing fields of one record as read. */
struct hcall_record_sample {
	uint64_t	 timebase;
	uint64_t	 updates;
	uint64_t	 period;
	unsigned	 have;		/* HCALL_REC_* present this time */
};

/*
 * Take the values planned in buffer buf out of its decoded results:
 * values[v] and valid[v] for each value v in that buffer; for each record
 * r with a timing field in that buffer, recs[r] gets the field and its
 * bit in recs[r].have set, or the bit cleared if the result lacks it
 * (recs may be NULL; zero recs before a refresh).  Every result is
 * checked against its request (data size, element count, and each
 * element's lpar_ix where the request names partitions, domain_ix and
 * thread group, elements partition by partition, then index by index,
 * then thread group by thread group).  Values whose result
 * is missing (results_complete 0, fewer results) are marked invalid;
 * after a contradiction, all of the buffer's are.
 * Returns 0 when all were found, -HV_ENOVALUE when some are missing, or
 * -HV_EFORMAT when a result contradicts its request; *cause set on error
 * (caller frees).
 */
int	 hcall_plan_extract(const struct hcall_plan *, size_t buf,
	    const struct hcall_resbuf *, uint64_t *values, uint8_t *valid,
	    struct hcall_record_sample *recs, char **cause);

#endif /* HVTOP_HCALL_H */
