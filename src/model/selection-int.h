/*
 * What the resolving of picks (selection.c) and of @lpar picks
 * (selection-lpar.c) share.  Not for use outside src/model.
 */
#ifndef HVTOP_SELECTION_INT_H
#define HVTOP_SELECTION_INT_H

#include <stddef.h>
#include <stdint.h>

#include "model/selection.h"

/* What an @lpar pick asks for, before it is checked against the frame. */
struct sel_lpar_ask {
	const struct catalog_event *event;	/* or */
	const struct catalog_group *group;
	const char	*name;
	const uint16_t	*ids;		/* partitions; NULL: every one */
	size_t		 nids;
	const unsigned	*vcpu;		/* one virtual processor, or NULL */
	unsigned	 places;
	const char	*said;		/* the term naming the partitions
					   in causes ("lpar=2"), or NULL */
};

/* Free what a pick holds (not the pick itself). */
void	 selection_pick_free(struct sel_pick *);
/* Set the columns of a pick: ev, or the events of group gr. */
int	 selection_add_events(struct sel_pick *, const struct catalog *,
	    const struct catalog_event *ev, const struct catalog_group *gr,
	    char **cause);

/*
 * Add an @lpar pick asked by ask (spec kept as written), or "NAME@lpar"
 * with the list after ':' at colon (NULL: every partition).  Return 0, or
 * a negative code with *cause set.
 */
int	 selection_lpar_add(struct selection *, const struct catalog *,
	    const struct topology *, const char *spec,
	    const struct sel_lpar_ask *, char **cause);
int	 selection_lpar_add_at(struct selection *, const struct catalog *,
	    const struct topology *, const char *spec, const char *name,
	    const struct catalog_event *ev, const struct catalog_group *gr,
	    const char *colon, char **cause);

#endif /* HVTOP_SELECTION_INT_H */
