/*
 * The recording reader's SELECT records: the picks of a selection and,
 * with an @lpar pick, the partitions it was made from.  Pure, like the
 * rest of the reader (record-read.c): every field through the
 * bounds-checked cursor, every count checked against the bytes left
 * before anything is allocated for it.
 */
#include "config.h"

#include "record/record.h"

#include <stdlib.h>
#include <string.h>

#include "model/selection.h"
#include "record/record-int.h"
#include "util/hverr.h"
#include "util/xalloc.h"

/*
 * An @lpar pick's records: the placements, then (partition, vcpu) units
 * each standing for a record per placement, domains ascending.
 */
static int
record_read_select_units(struct record_cur *c, struct record_pick *pk)
{
	uint64_t	 places, nu, np, q, u, bit;
	int64_t		 lp = 0, idx = -1;
	size_t		 r;

	places = record_cur_varint(c);
	nu = record_cur_varint(c);
	if (c->error != 0)
		return (c->error);
	if (places == 0 || places > 0xf)
		return (-HV_EFORMAT);
	np = record_places((unsigned)places);
	/* Two bytes at least a unit: no huge allocation from a small
	 * payload. */
	if (nu > RECORD_COUNTERS_MAX / np || nu > (c->len - c->off) / 2)
		return (-HV_EFORMAT);
	pk->places = (unsigned)places;
	pk->indices = xcalloc((size_t)(nu * np) + 1, sizeof *pk->indices);
	pk->lpars = xcalloc((size_t)(nu * np) + 1, sizeof *pk->lpars);
	pk->domains = xcalloc((size_t)(nu * np) + 1, sizeof *pk->domains);
	for (u = 0, r = 0; u < nu; u++) {
		lp += record_unzigzag(record_cur_varint(c));
		if (c->error != 0)
			return (c->error);
		if (lp < 0 || lp > 0xffff)
			return (-HV_EFORMAT);
		if (u > 0 && (uint16_t)lp != pk->lpars[r - 1])
			idx = -1;
		idx += 1 + record_unzigzag(record_cur_varint(c));
		if (c->error != 0)
			return (c->error);
		if (idx < 0 || idx > (int64_t)UINT32_MAX)
			return (-HV_EFORMAT);
		for (q = 0, bit = 0; q < np; q++, bit++, r++) {
			while (!(places & 1U << bit))
				bit++;
			pk->indices[r] = (unsigned)idx;
			pk->lpars[r] = (uint16_t)lp;
			pk->domains[r] = (uint8_t)(3 + bit);
		}
		pk->nindices = r;
	}
	return (0);
}

/* The partitions of a selection with an @lpar pick. */
static int
record_read_select_lpars(struct record_cur *c, struct record_selection *sel)
{
	uint64_t	 self, denied, n, vcpus, cfg;
	int64_t		 id = -1;
	size_t		 i;

	self = record_cur_varint(c);
	denied = record_cur_varint(c);
	n = record_cur_varint(c);
	if (c->error != 0)
		return (c->error);
	if (self > 0xffff || denied > 1 || n > RECORD_LPARS_MAX ||
	    n > (c->len - c->off) / 3)
		return (-HV_EFORMAT);
	sel->lpar_self = (uint16_t)self;
	sel->lpars_denied = (int)denied;
	sel->lpars = xcalloc((size_t)n + 1, sizeof *sel->lpars);
	for (i = 0; i < n; i++) {
		id += 1 + record_unzigzag(record_cur_varint(c));
		vcpus = record_cur_varint(c);
		cfg = record_cur_varint(c);
		if (c->error != 0)
			return (c->error);
		if (id < 0 || id > 0xffff || vcpus > 0xffff ||
		    cfg > UINT32_MAX)
			return (-HV_EFORMAT);
		sel->lpars[i].id = (uint16_t)id;
		sel->lpars[i].vcpus = (uint16_t)vcpus;
		sel->lpars[i].cfg = (uint32_t)cfg;
		sel->nlpars = i + 1;
	}
	return (0);
}

/* A chip or core pick's indices, ascending, each a delta from the last. */
static int
record_read_select_indices(struct record_cur *c, struct record_pick *pk)
{
	uint64_t	 ni;
	int64_t		 idx = -1;
	size_t		 j;

	ni = record_cur_varint(c);
	if (c->error != 0)
		return (c->error);
	if (ni > RECORD_COUNTERS_MAX || ni > c->len - c->off)
		return (-HV_EFORMAT);
	pk->indices = xcalloc((size_t)ni + 1, sizeof *pk->indices);
	for (j = 0; j < ni; j++) {
		idx += 1 + record_unzigzag(record_cur_varint(c));
		if (c->error != 0)
			return (c->error);
		if (idx < 0 || idx > (int64_t)UINT32_MAX)
			return (-HV_EFORMAT);
		pk->indices[j] = (unsigned)idx;
	}
	pk->nindices = (size_t)ni;
	return (0);
}

/* A pick's event names, at least one. */
static int
record_read_select_events(struct record_cur *c, struct record_pick *pk)
{
	uint64_t	 ne;
	size_t		 j;

	ne = record_cur_varint(c);
	if (c->error != 0)
		return (c->error);
	if (ne == 0 || ne > RECORD_EVENTS_MAX || ne > c->len - c->off)
		return (-HV_EFORMAT);
	pk->events = xcalloc((size_t)ne + 1, sizeof *pk->events);
	for (j = 0; j < ne; j++) {
		pk->events[j] = record_cur_string(c, RECORD_STRING_MAX);
		if (pk->events[j] == NULL)
			return (c->error != 0 ? c->error : -HV_EFORMAT);
		pk->nevents = j + 1;
	}
	return (0);
}

/* A selection payload: generation, then the picks. */
int
record_read_select_payload(struct record_cur *c, uint32_t *gen,
    struct record_selection *sel)
{
	struct record_pick	*pk;
	uint64_t		 g, n, v;
	size_t			 i, total = 0;
	int			 lpar, error;

	memset(sel, 0, sizeof *sel);
	g = record_cur_varint(c);
	n = record_cur_varint(c);
	if (c->error != 0)
		return (c->error);
	/* Every pick takes at least six bytes: no huge allocation from a
	 * small payload. */
	if (g > UINT32_MAX || n > RECORD_PICKS_MAX || n > (c->len - c->off) / 6)
		return (-HV_EFORMAT);
	*gen = (uint32_t)g;
	sel->picks = xcalloc((size_t)n + 1, sizeof *sel->picks);
	for (i = 0; i < n; i++) {
		pk = &sel->picks[i];
		sel->npicks = i + 1;
		v = record_cur_u8(c);
		if (v > (1 | RECORD_PICK_LPAR))
			return (-HV_EFORMAT);
		pk->kind = (int)(v & 1);
		lpar = (v & RECORD_PICK_LPAR) != 0;
		pk->spec = record_cur_string(c, RECORD_STRING_MAX);
		v = record_cur_varint(c);
		if (v > 255)
			return (-HV_EFORMAT);
		pk->domain = (int)v;
		v = record_cur_varint(c);
		if (v > 0xffff)
			return (-HV_EFORMAT);
		pk->lpar = (uint16_t)v;
		if (lpar) {
			if ((error = record_read_select_units(c, pk)) != 0)
				return (error);
		} else if ((error = record_read_select_indices(c, pk)) != 0)
			return (error);
		if ((error = record_read_select_events(c, pk)) != 0)
			return (error);
		if (pk->spec == NULL)
			return (c->error != 0 ? c->error : -HV_EFORMAT);
		total += pk->nindices * pk->nevents;
		if (total > RECORD_COUNTERS_MAX)
			return (-HV_EFORMAT);
	}
	sel->ncounters = total;
	sel->lpar_self = SEL_LPAR_SELF;
	/* The partitions follow the picks when one of them is @lpar. */
	if (c->error == 0 && record_selection_has_lpar(sel))
		return (record_read_select_lpars(c, sel));
	return (c->error);
}
