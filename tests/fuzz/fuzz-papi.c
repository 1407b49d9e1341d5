/*
 * libFuzzer harness for the PAPI event-definition reader: parse arbitrary
 * bytes, then ask the model every question the library answers and check
 * what must hold whatever the input: every event has an expression within
 * the bound, identifiers map back to their names, messages are printable,
 * availability is consistent.  Any violation aborts.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/papi.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* A predicate that depends on the name only, so results are repeatable. */
static int
known_even(const char *name, void *arg)
{
	(void)arg;
	return (strlen(name) % 2 == 0);
}

static void
check_printable(const char *s)
{
	for (; *s != '\0'; s++) {
		if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct papi_model	*m;
	struct papi_avail	*av;
	const struct papi_event	*ev, *r;
	const char		*name;
	char			*cause = NULL;
	size_t			 i, j, idx[4];
	int			 rc;

	rc = papi_parse(data, size, &m, &cause);
	if (m == NULL || (rc == 0) != (m->nerrors == 0) ||
	    (rc == 0) != (cause == NULL))
		abort();
	free(cause);
	if (m->ndiags > PAPI_DIAGS_MAX ||
	    m->ndiags > m->nerrors + m->nwarnings)
		abort();
	for (i = 0; i < m->ndiags; i++) {
		check_printable(m->diags[i].text);
		if (i > 0 && m->diags[i].line < m->diags[i - 1].line)
			abort();
	}
	for (i = 0; i < m->nevents; i++) {
		ev = &m->events[i];
		if (ev->index != i || ev->nbases == 0 ||
		    ev->nbases > PAPI_BASES_MAX || ev->expr == NULL ||
		    strlen(ev->expr) > PAPI_EXPR_MAX ||
		    ev->section >= m->nsections || ev->name_id >= m->nnames)
			abort();
		for (j = 0; j < ev->nbases; j++) {
			name = papi_model_ident_name(m, ev->bases[j].ident);
			if (name == NULL)
				name = ev->bases[j].ident;
			if (strcmp(name, ev->bases[j].name) != 0)
				abort();
			r = papi_model_resolve(m, NULL, ev, j);
			if (r != NULL && r->index >= ev->index)
				abort();
		}
		if (papi_model_find(m, NULL, ev->name) == NULL)
			abort();
	}
	if (m->nsections > 0 && m->sections[0].npmus > 0)
		(void)papi_model_match(m, m->sections[0].pmus[0].name, idx, 4);
	papi_check(m, m->nsections > 0 && m->sections[m->nsections - 1].npmus >
	    0 ? m->sections[m->nsections - 1].pmus[0].name : NULL, known_even,
	    NULL, &av);
	for (i = 0; i < m->nevents; i++) {
		if ((av[i].status == PAPI_MISSING) != (av[i].missing != NULL) ||
		    (av[i].status == PAPI_MISSING &&
		    av[i].base >= m->events[i].nbases))
			abort();
	}
	free(av);
	papi_model_free(m);
	return (0);
}
