/*
 * The JSON form of a 24x7 catalog: what `hvcat dump --json` prints and
 * `hvcat build` reads, and the form the shipped catalogs are kept in
 * (catalogs/README.md describes it key by key).  Pure: uses jansson,
 * does no I/O.
 */
#ifndef HVTOP_CATALOG_JSON_H
#define HVTOP_CATALOG_JSON_H

#include <jansson.h>

struct catalog;

/*
 * The JSON form of a model, complete enough that catalog_from_json() and
 * catalog_write() give back the image it was parsed from.  Returns a new
 * reference (caller json_decref()s).
 */
json_t	*catalog_to_json(const struct catalog *);

/*
 * Build a model from the JSON form, checking every value's type and range
 * and every cross-reference (group slots, schemas, formula groups).
 * Entry lengths, section pages and counts, group record offsets and
 * lengths, event locations, group counts and primary groups, and schema
 * field offsets may be left out and are then computed.  Returns 0 with
 * *out set (caller frees with catalog_free()), or -HV_EFORMAT /
 * -HV_ERANGE / -HV_ENOENT with *cause (caller frees) naming the JSON path,
 * e.g. "events[12].name: expected a string".
 */
int	 catalog_from_json(const json_t *, struct catalog **out,
	    char **cause);

#endif /* HVTOP_CATALOG_JSON_H */
