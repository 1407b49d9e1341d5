/*
 * The strings and names the kernel's hv_24x7 PMU puts under events/ for a
 * catalog, in the current form and in the 2014 development kernel's form
 * (see the shared ABI reference, section 2).  Pure: builds strings, no I/O.
 * It must not decide which events exist: that is the parser's skip flags
 * and the index's sysfs_name.
 */
#include "config.h"

#include "catalog/catalog.h"

#include <stdlib.h>

#include "util/xalloc.h"

/*
 * As the kernel's event_fmt(): the chip domain is fixed, a core event may
 * be read in domain 2 or any VCPU domain so its domain is left to the
 * user, and every other value falls through to the VCPU form.
 */
static char *
catalog_sysfs_current(unsigned offset, int domain)
{
	switch (domain) {
	case CATALOG_DOMAIN_CHIP:
		return (xasprintf("domain=%d,offset=0x%x,chip=?,lpar=0x0",
		    domain, offset));
	case CATALOG_DOMAIN_CORE:
		return (xasprintf("domain=?,offset=0x%x,core=?,lpar=0x0",
		    offset));
	default:
		return (xasprintf("domain=?,offset=0x%x,vcpu=?,lpar=?",
		    offset));
	}
}

/* The 2014 form names the domain in hex and the index by its kind. */
static char *
catalog_sysfs_early(unsigned offset, int domain)
{
	const char	*term;

	switch (domain) {
	case CATALOG_DOMAIN_CHIP:
		term = "chip";
		break;
	case CATALOG_DOMAIN_CORE:
		term = "core";
		break;
	default:
		term = "vcpu";
		break;
	}
	return (xasprintf("domain=0x%x,offset=0x%x,starting_index=%s,"
	    "lpar=sibling_guest_id", (unsigned)domain, offset, term));
}

/*
 * The string for ev read in hcall domain domain.  Returns an allocated
 * string (caller frees).
 */
char *
catalog_sysfs_string_domain(const struct catalog_event *ev, int style,
    int domain)
{
	if (style == CATALOG_SYSFS_2014)
		return (catalog_sysfs_early(ev->offset, domain));
	return (catalog_sysfs_current(ev->offset, domain));
}

/* The string for ev in its own catalog domain; caller frees. */
char *
catalog_sysfs_string(const struct catalog_event *ev, int style)
{
	return (catalog_sysfs_string_domain(ev, style, ev->domain));
}

static void
catalog_sysfs_add(struct catalog_sysfs_entry **v, size_t *n, size_t *cap,
    const struct catalog_event *ev, int style, int domain, const char *suffix)
{
	struct catalog_sysfs_entry	*e;
	const char			*name;

	if (*n == *cap) {
		*cap = *cap == 0 ? 256 : *cap * 2;
		*v = xreallocarray(*v, *cap, sizeof **v);
	}
	e = &(*v)[(*n)++];
	name = ev->sysfs_name != NULL ? ev->sysfs_name : ev->name;
	if (suffix == NULL)
		e->name = xstrdup(name);
	else
		e->name = xasprintf("%s__%s", name, suffix);
	e->value = catalog_sysfs_string_domain(ev, style, domain);
	e->event = ev;
	e->domain = domain;
}

/*
 * The events/ listing; see catalog.h.  Returns the number of entries with
 * *out set (caller frees with catalog_sysfs_list_free()).
 */
size_t
catalog_sysfs_list(const struct catalog *cat, int style,
    struct catalog_sysfs_entry **out)
{
	struct catalog_sysfs_entry	*v = NULL;
	const struct catalog_event	*ev;
	size_t				 i, n = 0, cap = 0;
	int				 d;

	for (i = 0; i < cat->nevents; i++) {
		ev = &cat->events[i];
		if (style != CATALOG_SYSFS_2014) {
			if (ev->skip == 0)
				catalog_sysfs_add(&v, &n, &cap, ev, style,
				    ev->domain, NULL);
			continue;
		}
		if (ev->skip & CATALOG_SKIP_RESERVED)
			continue;
		switch (ev->domain) {
		case CATALOG_DOMAIN_CHIP:
			catalog_sysfs_add(&v, &n, &cap, ev, style, ev->domain,
			    catalog_domain_suffix_2014(ev->domain));
			break;
		case CATALOG_DOMAIN_CORE:
			/* A core event can be read from every core view. */
			catalog_sysfs_add(&v, &n, &cap, ev, style, ev->domain,
			    NULL);
			for (d = CATALOG_DOMAIN_VCPU_HOME_CORE;
			    d < CATALOG_DOMAIN_MAX; d++)
				catalog_sysfs_add(&v, &n, &cap, ev, style, d,
				    catalog_domain_suffix_2014(d));
			break;
		case CATALOG_DOMAIN_VCPU_HOME_CORE:
		case CATALOG_DOMAIN_VCPU_HOME_CHIP:
		case CATALOG_DOMAIN_VCPU_HOME_NODE:
		case CATALOG_DOMAIN_VCPU_REMOTE_NODE:
			catalog_sysfs_add(&v, &n, &cap, ev, style, ev->domain,
			    catalog_domain_suffix_2014(ev->domain));
			break;
		default:
			/* Not a domain any kernel could read. */
			break;
		}
	}
	*out = v;
	return (n);
}

void
catalog_sysfs_list_free(struct catalog_sysfs_entry *v, size_t n)
{
	size_t	 i;

	if (v == NULL)
		return;
	for (i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].value);
	}
	free(v);
}
