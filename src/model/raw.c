/*
 * What a raw value's status byte means, decided once for every layer
 * that reads raw samples: the engine turns it into a cell's status, the
 * OpenMetrics endpoint into a failure count by reason.  And the one place
 * a raw sample's values are allocated.  Pure: no I/O.
 */
#include "config.h"

#include "model/raw.h"

#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

enum raw_status
raw_reason(uint8_t status)
{
	switch (status) {
	case RAW_OK:
	case RAW_SCALED:
		return (RAW_OK);
	case RAW_DENIED:
		return (RAW_DENIED);
	case RAW_MISSING:
		return (RAW_MISSING);
	case RAW_BUSY:
		return (RAW_BUSY);
	}
	return (RAW_FAILED);
}

void
raw_sample_size(struct raw_sample *rs, size_t n)
{
	size_t	 old = rs->values == NULL ? 0 : rs->cap;

	/* One spare entry, so that an empty selection allocates too. */
	if (rs->values == NULL || rs->cap < n + 1) {
		rs->values = xreallocarray(rs->values, n + 1,
		    sizeof *rs->values);
		memset(rs->values + old, 0, (n + 1 - old) *
		    sizeof *rs->values);
		rs->cap = n + 1;
	}
	rs->nvalues = n;
}

void
raw_sample_free(struct raw_sample *rs)
{
	if (rs == NULL)
		return;
	free(rs->values);
	rs->values = NULL;
	rs->nvalues = rs->cap = 0;
}
