/*
 * What the user asked to watch.  A pick is one -g GROUP or -e EVENT with a
 * domain and a list of indices; resolving picks against the catalog and the
 * topology gives the flat list of counters a source reads each interval.
 * Counters of a pick are stored index-major: for each index, one counter
 * per event column of the pick.
 */
#ifndef HVTOP_SELECTION_H
#define HVTOP_SELECTION_H

#include <stddef.h>
#include <stdint.h>

/*
 * A pick's partition when it names none: the caller's own.  The value is
 * the one the 24x7 hcalls give "own partition", so sources pass it on.
 */
#define SEL_LPAR_SELF	0xffff

/*
 * A pick "@lpar": a core group or event read per virtual processor of
 * partitions, in the four VCPU domains 3 to 6 (the placements: home
 * core, home chip, home node, remote node).  Its counters carry their
 * real domain 3..6; the pick's domain is this value.
 */
#define SEL_DOMAIN_LPAR	7
#define SEL_NPLACES	4	/* domains 3..6, place = domain - 3 */

struct catalog;
struct catalog_event;
struct catalog_group;
struct topology;

enum sel_kind {
	SEL_GROUP,
	SEL_EVENT,
};

struct sel_pick {
	enum sel_kind	 kind;
	char		*spec;		/* as written, for messages */
	char		*name;		/* group or event name */
	const struct catalog_group *group;	/* SEL_GROUP only */
	int		 domain;	/* hcall domain 1..6 */
	uint16_t	 lpar;		/* SEL_LPAR_SELF: this partition */
	/*
	 * SEL_DOMAIN_LPAR only: the partitions (ids ascending; NULL: every
	 * one the topology lists, or this one alone when it lists none)
	 * and the placements read (bit p: domain 3 + p).  indices are then
	 * virtual processors (NULL: every one of each partition).
	 */
	uint16_t	*lpars;
	size_t		 nlpars;
	unsigned	 places;
	unsigned	*indices;
	size_t		 nindices;
	const struct catalog_event **events;	/* the pick's columns */
	size_t		 nevents;
	size_t		 first;		/* its first counter */
};

struct sel_counter {
	const struct catalog_event *event;
	int		 domain;
	unsigned	 index;
	uint16_t	 lpar;
	size_t		 pick;
	size_t		 column;	/* in the pick's events */
};

struct selection {
	struct sel_pick	*picks;
	size_t		 npicks;
	struct sel_counter *counters;
	size_t		 ncounters;
};

/*
 * Add a pick written as GROUP[@chip|@core|@vcpu][:INDEXLIST] (event is
 * zero) or EVENT[@...][:INDEXLIST] (event nonzero).  INDEXLIST is like
 * "0,3,8-11"; without it every index of the domain is taken.  Returns 0 or
 * -HV_ENOENT / -HV_ERANGE / -HV_EFORMAT with *cause set (caller frees).
 */
int	 selection_add(struct selection *, const struct catalog *,
	    const struct topology *, const char *spec, int event, char **cause);
void	 selection_clear(struct selection *);

/*
 * Parse an index list ("0,3,8-11") whose values must be < max.  Returns 0
 * with *out (caller frees) and *n set, or -HV_EFORMAT / -HV_ERANGE with a
 * cause naming the column.
 */
int	 selection_parse_indices(const char *, unsigned max, unsigned **out,
	    size_t *n, char **cause);

/* How many indices a domain has in a topology. */
unsigned selection_domain_size(const struct topology *, int domain);
/* "chip", "core", "vcpu" or "cpu" */
const char *selection_domain_term(int domain);
/* The domain a pick of an event or group of catalog domain cd is counted
 * in when no @domain is given: chip, perf's cpu, else core. */
int	 selection_pick_domain(int cd);

#endif /* HVTOP_SELECTION_H */
