/*
 * libFuzzer harness for catalog_parse(): any bytes must give a model or a
 * clean error, never a crash, a leak or an overread; and whatever model
 * comes back must hold together: every string terminated, every link in
 * range, every diagnostic inside the input, every event found again by
 * its name and its sysfs name, a sysfs string for every event, and no
 * string the model hands out holding a byte a terminal would act on: no
 * C0 control, DEL or C1 control (a lone byte 0x80-0x9f, or U+0080-U+009F
 * in UTF-8), whatever the input's strings held.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define FUZZ_CHECK(c)	do { if (!(c)) __builtin_trap(); } while (0)

static volatile size_t fuzz_sink;

static void
fuzz_str(const char *s)
{
	FUZZ_CHECK(s != NULL);
	fuzz_sink += strlen(s);
}

/* A string safe to print: no control byte, no C1 control in any form. */
static void
fuzz_safe(const char *s)
{
	const unsigned char	*p;
	int			 cont = 0;

	fuzz_str(s);
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		FUZZ_CHECK(*p >= 0x20 && *p != 0x7f);
		if (cont > 0) {
			FUZZ_CHECK((*p & 0xc0) == 0x80);
			cont--;
			continue;
		}
		/* A byte 0x80-0xbf only continues a UTF-8 sequence. */
		FUZZ_CHECK(*p < 0x80 || *p >= 0xc2);
		FUZZ_CHECK(!(*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f));
		if (*p >= 0xf0)
			cont = 3;
		else if (*p >= 0xe0)
			cont = 2;
		else if (*p >= 0xc2)
			cont = 1;
	}
	FUZZ_CHECK(cont == 0);
}

static void
fuzz_walk(const struct catalog *cat, size_t size)
{
	const struct catalog_event	*ev, *f;
	struct catalog_sysfs_entry	*v;
	size_t				 i, j, n;
	char				*s;
	int				 style;

	FUZZ_CHECK(cat->size <= size);
	FUZZ_CHECK(cat->interface == 1 || cat->interface == 2);
	for (i = 0; i < cat->ndiags; i++) {
		FUZZ_CHECK(cat->diags[i].offset <= size);
		fuzz_str(cat->diags[i].msg);
		if (i > 0)
			FUZZ_CHECK(cat->diags[i - 1].offset <=
			    cat->diags[i].offset);
	}
	for (i = 0; i < cat->nschemas; i++) {
		FUZZ_CHECK(cat->schemas[i].file_offset +
		    cat->schemas[i].entry_length <= size);
		for (j = 0; j < cat->schemas[i].nfields; j++)
			fuzz_sink += cat->schemas[i].fields[j].length;
	}
	for (i = 0; i < cat->nevents; i++) {
		ev = &cat->events[i];
		FUZZ_CHECK(ev->file_offset + ev->entry_length <= cat->size);
		fuzz_safe(ev->name);
		fuzz_safe(ev->sysfs_name);
		fuzz_safe(ev->desc);
		fuzz_safe(ev->long_desc);
		FUZZ_CHECK(ev->name[0] != '\0');
		FUZZ_CHECK(ev->offset == (uint32_t)ev->record_offset +
		    ev->counter_offset);
		for (j = 0; j < ev->ngroups; j++)
			FUZZ_CHECK(ev->groups[j] < cat->ngroups);
		FUZZ_CHECK(catalog_event_at(cat, ev->index) != NULL);
		/* Domain 0 is "any" to the lookup. */
		f = catalog_find_event(cat, ev->name, ev->domain);
		FUZZ_CHECK(f != NULL && strcmp(f->name, ev->name) == 0 &&
		    (ev->domain == 0 || f->domain == ev->domain));
		f = catalog_find_event(cat, ev->name, 0);
		FUZZ_CHECK(f != NULL && strcmp(f->name, ev->name) == 0);
		f = catalog_find_sysfs(cat, ev->sysfs_name);
		FUZZ_CHECK(f != NULL &&
		    strcmp(f->sysfs_name, ev->sysfs_name) == 0);
		for (style = 0; style < 2; style++) {
			s = catalog_sysfs_string(ev, style);
			fuzz_str(s);
			free(s);
		}
		s = catalog_printable(ev->name);
		fuzz_str(s);
		free(s);
	}
	for (i = 0; i < cat->ngroups; i++) {
		FUZZ_CHECK(cat->groups[i].file_offset +
		    cat->groups[i].entry_length <= cat->size);
		fuzz_safe(cat->groups[i].name);
		fuzz_safe(cat->groups[i].desc);
		FUZZ_CHECK(catalog_find_group(cat, cat->groups[i].name) !=
		    NULL);
		FUZZ_CHECK(catalog_group_at(cat, cat->groups[i].index) != NULL);
	}
	for (i = 0; i < cat->nformulas; i++) {
		fuzz_safe(cat->formulas[i].name);
		fuzz_safe(cat->formulas[i].desc);
		fuzz_safe(cat->formulas[i].formula);
		fuzz_safe(cat->formulas[i].unit);
		FUZZ_CHECK(catalog_find_formula(cat, cat->formulas[i].name) !=
		    NULL);
	}
	for (style = 0; style < 2; style++) {
		n = catalog_sysfs_list(cat, style, &v);
		for (i = 0; i < n; i++) {
			fuzz_safe(v[i].name);
			fuzz_str(v[i].value);
		}
		catalog_sysfs_list_free(v, n);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct catalog	*cat = NULL;
	char		*cause = NULL;
	uint8_t		*copy;
	int		 iface;

	/* An exact-size copy: reading one byte too far must be caught. */
	copy = malloc(size > 0 ? size : 1);
	if (copy == NULL)
		return (0);
	if (size > 0)
		memcpy(copy, data, size);
	/* The interface changes the skip rules, so vary it too. */
	iface = (int)(size % 3);
	if (catalog_parse(copy, size, iface, &cat, &cause) != 0) {
		FUZZ_CHECK(cat == NULL && cause != NULL);
		free(cause);
	} else {
		FUZZ_CHECK(cat != NULL);
		fuzz_walk(cat, size);
		catalog_reindex(cat);
		fuzz_walk(cat, size);
		catalog_free(cat);
	}
	free(copy);
	return (0);
}
