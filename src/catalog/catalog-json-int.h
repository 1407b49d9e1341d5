/*
 * What the JSON form's reader (catalog-json-read.c) shares with its
 * checked reads of JSON values (catalog-json-value.c): the reader's state
 * and the reads, each of which fails with *cause set to the JSON path of
 * what is wrong, "PATH.KEY: message" ("groups[3].events[5]: ..."), so a
 * mistake in a 1000-event source can be found without a debugger.  Pure.
 */
#ifndef HVTOP_CATALOG_JSON_INT_H
#define HVTOP_CATALOG_JSON_INT_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

struct catalog;

#define CJ_BUILD_TIME_LEN	16
#define CJ_NSUB_OFFSETS		6
#define CJ_U8			0xffU
#define CJ_U16			0xffffU
#define CJ_U32			0xffffffffU
/* Computed record lengths round up to this (POWER8 uses 64 and 128). */
#define CJ_RECORD_ALIGN		64
#define CJ_COUNTER_SIZE		8

/* The JSON keys of the catalog's sections, in CATALOG_* section order. */
extern const char *const catalog_json_section_keys[];

/* A name and where it sits, sorted for lookups by name. */
struct cj_name {
	const char	*name;
	uint32_t	 index;
};

/* What an event entry gave, so the rest can be computed. */
#define CJ_EV_RECORD_OFFSET	0x01
#define CJ_EV_RECORD_LENGTH	0x02
#define CJ_EV_COUNTER_OFFSET	0x04
#define CJ_EV_OFFSET		0x08
#define CJ_EV_PRIMARY_GROUP	0x10
#define CJ_EV_GROUP_COUNT	0x20

struct cj {
	struct catalog	*cat;
	char		**cause;
	char		 where[64];	/* path of the object read */

	struct cj_name	*evnames;
	struct cj_name	*grnames;
	struct cj_name	*fonames;
	unsigned	*evgiven;	/* CJ_EV_* per event */
	uint32_t	*evoffset;	/* "offset" when given */
	const json_t	**evpgroup;	/* primary_group, by name */
	const json_t	**evformula;	/* formula_index, by name */
};

/* Set *cause to "PATH.KEY: message" (key may be NULL); returns -code. */
int	 catalog_json_value_fail(struct cj *, int code, const char *key,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The path the messages name ("events[12]"). */
void	 catalog_json_value_where(struct cj *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* Every key of obj must be one of keys (a NULL-ended list) or "comment". */
int	 catalog_json_value_keys(struct cj *, const json_t *obj,
	    const char *const *keys);
/* An unsigned integer member up to max: 1 when there (*out set), 0 when
 * absent or null, or a negative error; need_uint() also fails on absent. */
int	 catalog_json_value_uint(struct cj *, const json_t *obj,
	    const char *key, uint64_t max, uint64_t *out);
int	 catalog_json_value_need_uint(struct cj *, const json_t *obj,
	    const char *key, uint64_t max, uint64_t *out);
/* A string member, copied to *out (caller frees); "" when absent and not
 * required. */
int	 catalog_json_value_string(struct cj *, const json_t *obj,
	    const char *key, int required, char **out);
/* The names of n entries sorted for lookups (caller frees), and the first
 * position of name in them, or n. */
struct cj_name *catalog_json_value_names_sort(size_t n,
	    const char *(*get)(const struct catalog *, size_t),
	    const struct catalog *);
size_t	 catalog_json_value_names_find(const struct cj_name *, size_t n,
	    const char *name);
/* The index member, when given, must be i. */
int	 catalog_json_value_check_index(struct cj *, const json_t *o,
	    size_t i);
/* The array member key, or NULL with *error set when it is not one (0
 * when it is absent). */
json_t	*catalog_json_value_array(struct cj *, const json_t *obj,
	    const char *key, int *error);
/* v must be an object. */
int	 catalog_json_value_object(struct cj *, const json_t *v);

#endif /* HVTOP_CATALOG_JSON_INT_H */
