/*
 * libFuzzer harness for the names -g and -e take (selection_add()),
 * against the POWER9 catalog hvtop ships and a frame of partitions.
 * The first byte picks -g or -e (bit 0) and the frame (the rest); the
 * rest of the input is one spec a line, added in turn to one selection.
 * A refusal must give a cause and leave the selection as it was; an
 * accepted pick must have counters the frame can read: indices within
 * its domain, @lpar counters in the placements asked, partitions that
 * exist in ascending order, virtual processors each one has.  Any
 * violation aborts; the selection is cleared each run (leaks show).
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "catalog/catalog.h"
#include "catalog/catalog-json.h"
#include "model/raw.h"
#include "model/selection.h"
#include "util/xalloc.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define NFRAMES	6

static struct catalog *cat;
static struct topology frames[NFRAMES];

/* Partitions of different sizes, with gaps; 7 shows no vcpus. */
static const struct topo_lpar lpars[] = {
	{ 1, 8, 0x101 }, { 2, 4, 0x102 }, { 3, 16, 0x103 }, { 5, 2, 0x105 },
	{ 7, 0, 0x107 }, { 9, 1, 0x109 }, { 300, 3, 0x12c },
};

/* The catalog beside this file's tree: catalogs/power9.json. */
static void
fuzz_init(void)
{
	json_t		*j;
	json_error_t	 je;
	const char	*slash;
	char		*path, *cause = NULL;
	struct topology	*t;
	size_t		 i;

	slash = strrchr(__FILE__, '/');
	path = xasprintf("%.*s/../../catalogs/power9.json", slash != NULL ?
	    (int)(slash - __FILE__) : 1, slash != NULL ? __FILE__ : ".");
	if ((j = json_load_file(path, 0, &je)) == NULL ||
	    catalog_from_json(j, &cat, &cause) != 0)
		abort();
	json_decref(j);
	free(path);

	for (i = 0; i < NFRAMES; i++) {
		t = &frames[i];
		t->sockets = 2;
		t->chips = 2;
		t->cores = 8;
		t->smt = 4;
		t->vcpus = 4;
		t->interface = 2;
		t->timebase_hz = 512000000;
		t->lpars = lpars;
		t->nlpars = sizeof lpars / sizeof lpars[0];
		t->lpar_self = 2;
	}
	/* Other partitions not visible (the HMC setting off). */
	frames[1].lpars_denied = 1;
	/* None looked for, and this one's id not known. */
	frames[2].lpars = NULL;
	frames[2].nlpars = 0;
	frames[2].lpar_self = SEL_LPAR_SELF;
	/* Interface 1: no VCPU domains at all. */
	frames[3].interface = 1;
	/* Partitions listed, this one's id not known. */
	frames[4].lpar_self = SEL_LPAR_SELF;
	/* Denied and this partition's id not among those listed. */
	frames[5].lpars_denied = 1;
	frames[5].lpar_self = 4;
	frames[5].vcpus = 0;
}

static const struct topo_lpar *
fuzz_lpar(const struct topology *t, uint16_t id)
{
	size_t	 i;

	for (i = 0; i < t->nlpars; i++)
		if (t->lpars[i].id == id)
			return (&t->lpars[i]);
	return (NULL);
}

/* The counters of the last pick, as the frame can read them. */
static void
fuzz_check(const struct selection *sel, const struct topology *t)
{
	const struct sel_pick		*pk = &sel->picks[sel->npicks - 1];
	const struct sel_counter	*c;
	const struct topo_lpar		*l;
	unsigned			 vcpus;
	size_t				 i, k;
	int				 prev = -1;

	if (pk->nevents == 0 || pk->events == NULL || pk->spec == NULL ||
	    pk->name == NULL || pk->first > sel->ncounters)
		abort();
	if (pk->kind == SEL_GROUP && pk->group == NULL)
		abort();
	for (i = pk->first; i < sel->ncounters; i++) {
		c = &sel->counters[i];
		if (c->pick != sel->npicks - 1 || c->column >= pk->nevents ||
		    c->event != pk->events[c->column])
			abort();
		if (pk->domain != SEL_DOMAIN_LPAR) {
			if (c->domain != pk->domain || c->lpar != SEL_LPAR_SELF ||
			    c->index >= selection_domain_size(t, c->domain))
				abort();
			continue;
		}
		if (t->interface < 2 || c->domain < 3 || c->domain > 6 ||
		    !(pk->places & 1U << (c->domain - 3)))
			abort();
		if (c->lpar == SEL_LPAR_SELF) {
			vcpus = t->vcpus;
		} else {
			/* Another partition only where the frame lists it. */
			if (t->lpars_denied || (l = fuzz_lpar(t, c->lpar)) ==
			    NULL)
				abort();
			vcpus = l->vcpus;
			if (c->lpar < prev)
				abort();
			prev = c->lpar;
		}
		if (c->index >= vcpus)
			abort();
		if (pk->lpars != NULL) {
			for (k = 0; k < pk->nlpars; k++)
				if (pk->lpars[k] == c->lpar)
					break;
			if (k == pk->nlpars)
				abort();
		}
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct selection	 sel;
	const struct topology	*t;
	char			*s, *line, *next, *cause;
	size_t			 npicks, ncounters;
	int			 event;

	if (cat == NULL)
		fuzz_init();
	if (size < 1)
		return (0);
	event = data[0] & 1;
	t = &frames[(data[0] >> 1) % NFRAMES];
	s = xstrndup((const char *)data + 1, size - 1);
	memset(&sel, 0, sizeof sel);
	for (line = s; line != NULL; line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		npicks = sel.npicks;
		ncounters = sel.ncounters;
		cause = NULL;
		if (selection_add(&sel, cat, t, line, event, &cause) != 0) {
			if (cause == NULL || sel.npicks != npicks ||
			    sel.ncounters != ncounters)
				abort();
			free(cause);
			continue;
		}
		if (cause != NULL || sel.npicks != npicks + 1 ||
		    sel.picks[npicks].first != ncounters)
			abort();
		fuzz_check(&sel, t);
	}
	selection_clear(&sel);
	free(s);
	return (0);
}
