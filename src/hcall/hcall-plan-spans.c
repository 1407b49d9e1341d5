/*
 * The planner's reads of one group record at one index: the whole record
 * where allowed and no costlier, else spans of the words wanted, a gap
 * bridged where reading it costs fewer result bytes than a separate
 * request; and which read holds each of the record's timing fields.
 * Pure: no I/O.
 */
#include "config.h"

#include "hcall/hcall.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hcall/hcall-plan-int.h"
#include "util/xalloc.h"

static struct hcall_plan_read *
hcall_plan_new_read(struct hcall_plan_ctx *c)
{
	if (c->nreads == c->reads_cap) {
		c->reads_cap = c->reads_cap == 0 ? 256 : c->reads_cap * 2;
		c->reads = xreallocarray(c->reads, c->reads_cap,
		    sizeof *c->reads);
	}
	memset(&c->reads[c->nreads], 0, sizeof *c->reads);
	return (&c->reads[c->nreads++]);
}

/* The timing fields of a record, in the order recread[] keeps them. */
static const unsigned hcall_plan_roles[3] = {
	HCALL_REC_TIMEBASE, HCALL_REC_UPDATES, HCALL_REC_PERIOD
};

/*
 * The record entry of w0's record in plan, with the offset of each of its
 * timing fields in fo[] (-1 when it has none).  Returns its number, or
 * HCALL_NONE when w0 reads no record.
 */
static uint32_t
hcall_plan_spans_record(const struct hcall_plan_ctx *c,
    const struct hcall_plan_want *w0, struct hcall_plan *plan, long fo[3])
{
	struct hcall_record	*rec;
	size_t			 k;

	for (k = 0; k < 3; k++)
		fo[k] = -1;
	if (w0->rec_offset == HCALL_PLAN_NOREC)
		return (HCALL_NONE);
	for (k = 0; k < 3; k++)
		fo[k] = hcall_plan_field(c->cat, w0->schema,
		    hcall_plan_roles[k], w0->rec_length);
	rec = &plan->records[plan->nrecords];
	memset(rec, 0, sizeof *rec);
	rec->domain = w0->domain;
	rec->lpar = w0->lpar;
	rec->index = w0->index;
	rec->offset = w0->rec_offset;
	rec->length = w0->rec_length;
	rec->schema = w0->schema;
	rec->timebase.buffer = HCALL_NONE;
	rec->updates.buffer = HCALL_NONE;
	rec->period.buffer = HCALL_NONE;
	return ((uint32_t)plan->nrecords++);
}

/*
 * The words to read into wv (room for n + 3): the wanted timing fields
 * and the n wants, sorted and unique.  Returns how many.
 */
static size_t
hcall_plan_spans_words(const struct hcall_plan_ctx *c,
    const struct hcall_plan_want *w0, const uint32_t *ix, size_t n,
    const long fo[3], uint32_t *wv)
{
	size_t	 nw = 0, k, i;

	for (k = 0; k < 3; k++) {
		if (fo[k] >= 0 && (c->fields & hcall_plan_roles[k]))
			wv[nw++] = w0->rec_offset + (uint32_t)fo[k];
	}
	/* Wants are sorted: an insertion sort moves only the field words,
	 * which are few and come first. */
	for (i = 0; i < n; i++)
		wv[nw++] = c->wants[ix[i]].offset;
	for (i = 1; i < nw; i++) {
		uint32_t x = wv[i];

		for (k = i; k > 0 && wv[k - 1] > x; k--)
			wv[k] = wv[k - 1];
		wv[k] = x;
	}
	for (i = 0, k = 0; i < nw; i++)
		if (k == 0 || wv[k - 1] != wv[i])
			wv[k++] = wv[i];
	return (k);
}

/*
 * The reads of the nw sorted words wv for w0's record and index: spans
 * of words, or the whole record when that costs no more result bytes
 * (its timing fields then come for free).  Spans go first: bridging
 * unknown space could read a hole.
 */
static void
hcall_plan_spans_reads(struct hcall_plan_ctx *c,
    const struct hcall_plan_want *w0, const uint32_t *wv, size_t nw)
{
	struct hcall_plan_read	*rd;
	uint32_t		 start, end, gapmax, maxspan;
	size_t			 cost = 0, i, first_read = c->nreads;
	unsigned		 nel;

	nel = hcall_plan_nel(c, w0->domain);
	maxspan = c->max_span[w0->domain];
	gapmax = w0->rec_offset == HCALL_PLAN_NOREC ? 0 :
	    (uint32_t)((nel * c->ehdr + HCALL_RESULT_SIZE) / nel);
	start = wv[0];
	end = wv[0] + 8;
	for (i = 1; i <= nw; i++) {
		if (i < nw && wv[i] - end <= gapmax &&
		    wv[i] + 8 - start <= maxspan) {
			end = wv[i] + 8;
			continue;
		}
		rd = hcall_plan_new_read(c);
		rd->offset = start;
		rd->size = end - start;
		cost += HCALL_RESULT_SIZE + nel * (c->ehdr + rd->size);
		if (i < nw) {
			start = wv[i];
			end = wv[i] + 8;
		}
	}
	if (w0->rec_offset != HCALL_PLAN_NOREC && c->whole &&
	    w0->rec_length % 8 == 0 && w0->rec_length <= maxspan &&
	    HCALL_RESULT_SIZE + nel * (c->ehdr + w0->rec_length) <= cost) {
		c->nreads = first_read;
		rd = hcall_plan_new_read(c);
		rd->offset = w0->rec_offset;
		rd->size = w0->rec_length;
	}
	for (i = first_read; i < c->nreads; i++) {
		rd = &c->reads[i];
		rd->domain = w0->domain;
		rd->lpar = w0->lpar;
		rd->index = w0->index;
		rd->buffer = HCALL_NONE;
	}
}

/* The read (from first_read on) holding each timing field, if any does. */
static void
hcall_plan_spans_fields(struct hcall_plan_ctx *c,
    const struct hcall_plan_want *w0, const long fo[3], uint32_t recno,
    size_t first_read)
{
	const struct hcall_plan_read	*rd;
	uint32_t			 fw;
	size_t				 k, i;

	for (k = 0; k < 3; k++) {
		c->recread[recno][k] = HCALL_NONE;
		if (fo[k] < 0)
			continue;
		fw = w0->rec_offset + (uint32_t)fo[k];
		for (i = first_read; i < c->nreads; i++) {
			rd = &c->reads[i];
			if (rd->offset <= fw &&
			    fw + 8 <= rd->offset + rd->size) {
				c->recread[recno][k] = (uint32_t)i;
				break;
			}
		}
	}
}

/*
 * Turn the wants of one (domain, lpar, record, index) into reads: the
 * whole record (if allowed and no costlier), or spans of needed words.
 * A gap is bridged when reading it costs fewer result bytes than the
 * element headers and result header of a separate request.  Notes which
 * read holds each timing field, and returns the record's entry number in
 * plan->records through *recno (HCALL_NONE if none).
 */
void
hcall_plan_spans(struct hcall_plan_ctx *c, const uint32_t *ix, size_t n,
    struct hcall_plan *plan, uint32_t *recno)
{
	const struct hcall_plan_want	*w0 = &c->wants[ix[0]];
	struct hcall_plan_want		*w;
	uint32_t			 words[64 + 3], *wv;
	size_t				 nw, k, i, first_read = c->nreads;
	long				 fo[3];

	*recno = hcall_plan_spans_record(c, w0, plan, fo);
	wv = n + 3 <= sizeof words / sizeof words[0] ? words :
	    xreallocarray(NULL, n + 3, sizeof *wv);
	nw = hcall_plan_spans_words(c, w0, ix, n, fo, wv);
	hcall_plan_spans_reads(c, w0, wv, nw);
	if (*recno != HCALL_NONE)
		hcall_plan_spans_fields(c, w0, fo, *recno, first_read);
	/* Each want to the read that holds it (reads are sorted too). */
	for (i = 0, k = first_read; i < n; i++) {
		w = &c->wants[ix[i]];
		while (w->offset >= c->reads[k].offset + c->reads[k].size)
			k++;
		w->read = (uint32_t)k;
	}
	if (wv != words)
		free(wv);
}
