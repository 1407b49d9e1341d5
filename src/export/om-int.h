/*
 * What the OpenMetrics files share: a layout (the text of a snapshot that
 * does not change between samples) and a snapshot (one sample's values and
 * a reference to its layout).  om.c makes them, and
 * om-render.c turns a snapshot into text.  Not for use outside
 * src/export.
 */
#ifndef HVTOP_OM_INT_H
#define HVTOP_OM_INT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "export/om.h"
#include "util/strbuf.h"

struct om_label {
	size_t		 off;		/* "{...}" in the layout's text */
	size_t		 len;
};

struct om_counter {
	struct om_label label;
	size_t		 k;		/* selection counter */
	size_t		 first;		/* with n > 1: a sum of the counters
					   sum_ks[first .. first + n) */
	size_t		 n;
	int		 lazy;		/* shown from its first nonzero
					   reading on (a partition's
					   placement not used before) */
};

struct om_tick {
	struct om_label label;
	size_t		 first;		/* its counters in tick_ks */
	size_t		 n;
};

struct om_family {
	char		*name;
	char		*unit;		/* "" for none */
	char		*help;
	size_t		 first;		/* its series in gauges */
	size_t		 n;
};

struct om_gauge {
	struct om_label label;
	size_t		 view;
	size_t		 cell;
	double		 scale;
};

struct om_layout {
	atomic_uint		 refs;
	const struct engine	*engine;	/* identity only */
	unsigned		 generation;
	uint64_t		 catalog_version;
	char			*source;
	char			*source_label;
	uint64_t		 timebase_hz;
	struct frame_ident	 ident;
	unsigned		 lpar_self;
	int			 per_vcpu;
	struct strbuf		 flabel;	/* frame="...", escaped */
	size_t			*sum_ks;	/* the counters of sums */
	size_t			 nsum_ks;
	struct strbuf		 text;
	struct om_counter	*counters;
	size_t			 ncounters;
	size_t			 counters_cap;
	struct om_tick		*ticks;
	size_t			 nticks;
	size_t			 ticks_cap;
	size_t			*tick_ks;
	struct om_family	*families;
	size_t			 nfamilies;
	struct om_gauge		*gauges;
	size_t			 ngauges;
};

/* What was last shown for a counter (see om_guard()). */
struct om_guard {
	uint64_t	 last;
	uint64_t	 prev;
	uint8_t		 has_last;
	uint8_t		 has_prev;
};

struct om {
	struct om_info		 info;		/* its strings are these: */
	char			*source;
	char			*source_label;
	struct om_layout	*layout;
	struct om_guard		*cguard;	/* per layout counter */
	struct om_guard		*tguard;	/* per layout tick */
	uint64_t		 samples;
	uint64_t		 failures;
	uint64_t		 calls;
	uint64_t		 reads[OM_NREASONS];
	struct frame_caps	 caps;
	struct om_process	 process;
};

struct om_health {
	uint64_t	 samples;
	uint64_t	 failures;
	uint64_t	 calls_total;
	uint64_t	 reads[OM_NREASONS];
	int		 have_sample;	/* the fields below are set */
	unsigned	 calls;
	unsigned	 naive_calls;
	size_t		 ncounters;
	double		 interval;
	double		 duration;
	double		 wall;
	uint64_t	 catalog_version;
	struct frame_caps caps;
	struct om_process process;
};

struct om_snapshot {
	struct om_layout	*layout;
	uint64_t		*cval;
	uint8_t			*chas;
	uint64_t		*tval;
	uint8_t			*thas;
	double			*gval;
	uint8_t			*ghas;
	struct om_health	 health;
};

/* The layout's parts (om.c): a series, a label set, a label. */
struct om_tick		*om_layout_tick(struct om_layout *);
struct om_counter	*om_layout_counter(struct om_layout *);
size_t			 om_label_begin(struct om_layout *);
void			 om_label_add(struct om_layout *, const char *name,
			    const char *value);
struct om_label		 om_label_end(struct om_layout *, size_t off);
void			 om_label_lpar(struct om_layout *, unsigned lpar);

/* The partitions (om-lpar.c): the counters of partition view view, and
 * the gauges of the engine's ENG_VIEW_LPAR view. */
void			 om_lpar_layout(struct om_layout *,
			    const struct om_sample *, size_t view,
			    const char *version);
void			 om_lpar_gauges(struct om_layout *,
			    const struct om_sample *);

#endif /* HVTOP_OM_INT_H */
