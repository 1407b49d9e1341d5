/*
 * What a raw value's status byte means, decided once for every layer
 * that reads raw samples: the engine turns it into a cell's status, the
 * OpenMetrics endpoint into a failure count by reason.  Pure: no I/O.
 */
#include "config.h"

#include "model/raw.h"

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
