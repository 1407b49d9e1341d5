/*
 * Checked reads of the JSON values of a catalog's JSON form, for its
 * reader (catalog-json-read.c): each checks the value's type and range
 * and, when it is wrong, sets *cause to the JSON path and what is wrong.
 * Pure: jansson, no I/O.
 */
#include "config.h"

#include "catalog/catalog-json-int.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "util/hverr.h"
#include "util/xalloc.h"

/* Set *cause to "PATH.KEY: message"; returns -code. */
int
catalog_json_value_fail(struct cj *cj, int code, const char *key,
    const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	if (key == NULL)
		*cj->cause = xasprintf("%s: %s",
		    cj->where[0] != '\0' ? cj->where : "top level", msg);
	else if (cj->where[0] == '\0')
		*cj->cause = xasprintf("%s: %s", key, msg);
	else
		*cj->cause = xasprintf("%s.%s: %s", cj->where, key, msg);
	free(msg);
	return (-code);
}

void
catalog_json_value_where(struct cj *cj, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	vsnprintf(cj->where, sizeof cj->where, fmt, ap);
	va_end(ap);
}

/* Every key of obj must be one of keys (or "comment"). */
int
catalog_json_value_keys(struct cj *cj, const json_t *obj,
    const char *const *keys)
{
	const char	*key;
	json_t		*v;
	size_t		 i;

	json_object_foreach((json_t *)(uintptr_t)obj, key, v) {
		if (strcmp(key, "comment") == 0)
			continue;
		for (i = 0; keys[i] != NULL; i++) {
			if (strcmp(key, keys[i]) == 0)
				break;
		}
		if (keys[i] == NULL)
			return (catalog_json_value_fail(cj, HV_EFORMAT, NULL,
			    "unknown key \"%s\"", key));
	}
	return (0);
}

/*
 * An unsigned integer member no larger than max.  Returns 1 when present
 * (*out set), 0 when absent or null, or a negative error.
 */
int
catalog_json_value_uint(struct cj *cj, const json_t *obj, const char *key,
    uint64_t max, uint64_t *out)
{
	json_t		*v = json_object_get(obj, key);
	json_int_t	 n;

	*out = 0;
	if (v == NULL || json_is_null(v))
		return (0);
	if (!json_is_integer(v))
		return (catalog_json_value_fail(cj, HV_EFORMAT, key,
		    "expected an integer"));
	n = json_integer_value(v);
	if (n < 0 || (uint64_t)n > max)
		return (catalog_json_value_fail(cj, HV_ERANGE, key,
		    "%lld is out of range (0-%" PRIu64 ")", (long
		    long)n, max));
	*out = (uint64_t)n;
	return (1);
}

/* As catalog_json_value_uint(), but the member must be there. */
int
catalog_json_value_need_uint(struct cj *cj, const json_t *obj,
    const char *key, uint64_t max, uint64_t *out)
{
	int	 r;

	if ((r = catalog_json_value_uint(cj, obj, key, max, out)) == 0)
		return (catalog_json_value_fail(cj, HV_EFORMAT, key,
		    "missing"));
	return (r < 0 ? r : 0);
}

/*
 * The first C0 or C1 control character or DEL in UTF-8 text s, as its code
 * point << 16 | its byte position (capped), or -1 when there is none.
 */
static int
cj_control(const char *s)
{
	const unsigned char	*p;
	size_t			 at;

	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		at = (size_t)(p - (const unsigned char *)s);
		if (at > 0xffff)
			at = 0xffff;
		if (*p < 0x20 || *p == 0x7f)
			return ((int)(*p << 16 | at));
		if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
			return ((int)(p[1] << 16 | at));
	}
	return (-1);
}

/*
 * A string member, copied to *out (caller frees); "" when absent and not
 * required.  Catalog strings are NUL-terminated, so a NUL is refused.
 */
int
catalog_json_value_string(struct cj *cj, const json_t *obj, const char *key,
    int required, char **out)
{
	json_t	*v = json_object_get(obj, key);
	int	 bad;

	if (v == NULL) {
		if (required)
			return (catalog_json_value_fail(cj, HV_EFORMAT, key,
			    "missing"));
		*out = xstrdup("");
		return (0);
	}
	if (!json_is_string(v))
		return (catalog_json_value_fail(cj, HV_EFORMAT, key,
		    "expected a string"));
	if (strlen(json_string_value(v)) != json_string_length(v))
		return (catalog_json_value_fail(cj, HV_EFORMAT, key,
		    "contains a NUL"));
	if (required && json_string_length(v) == 0)
		return (catalog_json_value_fail(cj, HV_EFORMAT, key, "empty"));
	/* Names are printed everywhere; a control character is an attack. */
	if (strcmp(key, "name") == 0 &&
	    (bad = cj_control(json_string_value(v))) >= 0)
		return (catalog_json_value_fail(cj, HV_EFORMAT, key,
		    "holds the control character U+%04X at byte %d",
		    (unsigned)bad >> 16, bad & 0xffff));
	*out = xstrdup(json_string_value(v));
	return (0);
}

static int
cj_name_cmp(const void *a, const void *b)
{
	const struct cj_name	*x = a, *y = b;
	int			 c;

	if ((c = strcmp(x->name, y->name)) != 0)
		return (c);
	return (x->index < y->index ? -1 : x->index > y->index);
}

struct cj_name *
catalog_json_value_names_sort(size_t n,
    const char *(*get)(const struct catalog *, size_t),
    const struct catalog *cat)
{
	struct cj_name	*v;
	size_t		 i;

	v = xcalloc(n == 0 ? 1 : n, sizeof *v);
	for (i = 0; i < n; i++) {
		v[i].name = get(cat, i);
		v[i].index = (uint32_t)i;
	}
	qsort(v, n, sizeof *v, cj_name_cmp);
	return (v);
}

/* The first position in the sorted v whose name is name, or n. */
size_t
catalog_json_value_names_find(const struct cj_name *v, size_t n,
    const char *name)
{
	size_t	 lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (strcmp(v[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (lo < n && strcmp(v[lo].name, name) == 0 ? lo : n);
}

/* The index member, when given, must say where the entry is. */
int
catalog_json_value_check_index(struct cj *cj, const json_t *o, size_t i)
{
	uint64_t	 v;
	int		 r;

	if ((r = catalog_json_value_uint(cj, o, "index", CJ_U32, &v)) < 0)
		return (r);
	if (r == 1 && v != i)
		return (catalog_json_value_fail(cj, HV_ERANGE, "index",
		    "%" PRIu64 ", but the entry is number %zu of its list", v,
		    i));
	return (0);
}

/* The array member key, or NULL with *error set when it is not one. */
json_t *
catalog_json_value_array(struct cj *cj, const json_t *obj, const char *key,
    int *error)
{
	json_t	*v = json_object_get(obj, key);

	*error = 0;
	if (v == NULL)
		return (NULL);
	if (!json_is_array(v)) {
		*error = catalog_json_value_fail(cj, HV_EFORMAT, key,
		    "expected an array");
		return (NULL);
	}
	return (v);
}

int
catalog_json_value_object(struct cj *cj, const json_t *v)
{
	if (!json_is_object(v))
		return (catalog_json_value_fail(cj, HV_EFORMAT, NULL,
		    "expected an object"));
	return (0);
}
