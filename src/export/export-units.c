/*
 * Human units: a number in a column's width, and the prefix (k, M, G ...)
 * a column's largest value calls for, parsed once per unit.  Pure.
 */
#include "config.h"

#include "export/export.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "export/export-int.h"
#include "util/numfmt-si.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const char export_prefix[] = "\0kMGTPE";
#define EXPORT_NPREFIX	((int)sizeof export_prefix - 1)

/* A unit that takes a decimal prefix: "", "/s", "B/s", "Hz" ... */
static int
export_base_unit(const char *u)
{
	static const char	*const base[] = { "", "B", "B/s", "b", "b/s",
	    "Hz", "W", "J", "bytes", "bytes/s", "bytes/sec" };
	size_t			 i;

	if (u[0] == '/')
		return (1);
	for (i = 0; i < sizeof base / sizeof base[0]; i++)
		if (strcmp(u, base[i]) == 0)
			return (1);
	return (0);
}

/*
 * A unit that takes a prefix: its power of 1000 ("MB/s": 2) in *e and
 * the unit without it in *base; -1 for a unit that takes none.
 */
static int
export_unit_parse(const char *unit, int *e, const char **base)
{
	const char	*p;

	if (unit[0] != '\0' && unit[1] != '\0' &&
	    (p = strchr(export_prefix + 1, unit[0])) != NULL &&
	    export_base_unit(unit + 1)) {
		*e = (int)(p - export_prefix);
		*base = unit + 1;
		return (0);
	}
	if (!export_base_unit(unit))
		return (-1);
	*e = 0;
	*base = unit;
	return (0);
}

/* Thousands to divide v by, from prefix e on, until it is below limit. */
static int
export_steps(double v, int e, double limit)
{
	return (numfmt_si_scale(v, limit, EXPORT_NPREFIX - 1 - e));
}

/* base with the prefix of 1000^p. */
static void
export_unit_name(int p, const char *base, char *out, size_t outlen)
{
	if (p == 0)
		snprintf(out, outlen, "%s", base);
	else if (base[0] == '\0')
		snprintf(out, outlen, "%c", export_prefix[p]);
	else
		snprintf(out, outlen, "%c%s", export_prefix[p], base);
}

int
export_unit_scale(double max, const char *unit, char *out, size_t outlen)
{
	const char	*base;
	int		 e, s;

	if (export_unit_parse(unit, &e, &base) != 0) {
		snprintf(out, outlen, "%s", unit);
		return (-1);
	}
	s = export_steps(max, e, NUMFMT_SI_LIMIT);
	export_unit_name(e + s, base, out, outlen);
	return (s);
}

/* A column's unit as export_units_new() parses it. */
struct export_unit {
	const char	*unit;		/* in export_units' own copy */
	const char	*base;		/* without its prefix */
	int		 pre;		/* its prefix's power of 1000, or -1:
					   it takes none */
	size_t		 next;		/* the next of its family, or NONE */
	int		 first;		/* the first of its family */
};

struct export_units {
	size_t			 n;
	struct export_unit	*col;
	char			**copy;		/* the units, owned */
	double			*max;		/* export_view_scales() */
};

struct export_units *
export_units_new(size_t n, const char *const *unit)
{
	struct export_units	*u;
	struct export_unit	*c;
	size_t			 i, f, *last;

	u = xcalloc(1, sizeof *u);
	u->n = n;
	u->col = xcalloc(n + 1, sizeof *u->col);
	u->copy = xcalloc(n + 1, sizeof *u->copy);
	u->max = xcalloc(n + 1, sizeof *u->max);
	last = xcalloc(n + 1, sizeof *last);
	for (i = 0; i < n; i++) {
		c = &u->col[i];
		c->unit = u->copy[i] = xstrdup(unit[i]);
		c->next = EXPORT_NONE;
		if (export_unit_parse(c->unit, &c->pre, &c->base) != 0) {
			c->pre = -1;
			continue;
		}
		/* Its family: the columns before it of the same base. */
		for (f = 0; f < i; f++)
			if (u->col[f].first && u->col[f].pre >= 0 &&
			    strcmp(u->col[f].base, c->base) == 0)
				break;
		if (f == i) {
			c->first = 1;
			last[i] = i;
			continue;
		}
		u->col[last[f]].next = i;
		last[f] = i;
	}
	free(last);
	return (u);
}

void
export_units_free(struct export_units *u)
{
	size_t	 i;

	if (u == NULL)
		return;
	for (i = 0; i < u->n; i++)
		free(u->copy[i]);
	free(u->copy);
	free(u->col);
	free(u->max);
	free(u);
}

/* Does max read from 0.1 to 9999 in prefix held of a unit of prefix e? */
static int
export_holds(double max, int e, int held)
{
	int	 j;

	if (held < 0 || e + held >= EXPORT_NPREFIX || !isfinite(max))
		return (0);
	for (j = 0; j < held; j++)
		max /= 1000;
	max = fabs(max);
	return (max < NUMFMT_SI_LIMIT && (max >= 0.1 || (held == 0 && max >= 0)));
}

/*
 * The prefixes of columns whose largest values are max: the largest
 * that leaves them under limit, or held[i] (NULL: none) while a column
 * still reads in it (export_holds()), then one per family.
 */
static void
export_units_scale_at(const struct export_units *u, const double *max,
    double limit, const int *held, int *scale, char (*out)[EXPORT_UNIT_MAX])
{
	const struct export_unit	*c;
	size_t				 i, k;
	int				 top, j;
	double				 m;

	/* Each column's own prefix. */
	for (i = 0; i < u->n; i++) {
		c = &u->col[i];
		if (c->pre < 0) {
			snprintf(out[i], EXPORT_UNIT_MAX, "%s", c->unit);
			scale[i] = -1;
			continue;
		}
		if (held != NULL && export_holds(max[i], c->pre, held[i]))
			scale[i] = held[i];
		else
			scale[i] = export_steps(max[i], c->pre, limit);
		export_unit_name(c->pre + scale[i], c->base, out[i],
		    EXPORT_UNIT_MAX);
	}
	/* Then the largest of each family, where it reads 1 or more. */
	for (i = 0; i < u->n; i++) {
		if (!u->col[i].first)
			continue;
		top = 0;
		for (k = i; k != EXPORT_NONE; k = u->col[k].next)
			if (u->col[k].pre + scale[k] > top)
				top = u->col[k].pre + scale[k];
		for (k = i; k != EXPORT_NONE; k = u->col[k].next) {
			c = &u->col[k];
			if (top == c->pre + scale[k] || !isfinite(max[k]))
				continue;
			m = fabs(max[k]);
			for (j = c->pre; j < top; j++)
				m /= 1000;
			if (max[k] != 0 && m < 1)
				continue;
			scale[k] = top - c->pre;
			export_unit_name(top, c->base, out[k],
			    EXPORT_UNIT_MAX);
		}
	}
}

void
export_units_scale(const struct export_units *u, const double *max,
    int *scale, char (*out)[EXPORT_UNIT_MAX])
{
	export_units_scale_at(u, max, NUMFMT_SI_LIMIT, NULL, scale, out);
}

void
export_unit_scales(size_t n, const char *const *unit, const double *max,
    int *scale, char (*out)[EXPORT_UNIT_MAX])
{
	struct export_units	*u;

	u = export_units_new(n, unit);
	export_units_scale(u, max, scale, out);
	export_units_free(u);
}

void
export_value_unit(double v, const char *unit, const char *sep,
    struct strbuf *sb)
{
	const char	*base;
	char		 name[EXPORT_UNIT_MAX];
	int		 e, s;

	if (!isfinite(v) || export_unit_parse(unit, &e, &base) != 0) {
		export_scaled(v, -1, 0, sb);
		if (unit[0] != '\0')
			strbuf_addf(sb, "%s%s", sep, unit);
		return;
	}
	s = export_steps(v, e, NUMFMT_SI_ROOM);
	export_unit_name(e + s, base, name, sizeof name);
	export_scaled(v, s, 0, sb);
	if (name[0] != '\0')
		strbuf_addf(sb, "%s%s", sep, name);
}

void
export_scaled(double v, int scale, int width, struct strbuf *sb)
{
	char	 buf[NUMFMT_SI_MAX];

	numfmt_si(buf, v, scale, NUMFMT_SI_BARE, 0);
	strbuf_addf(sb, "%*s", width, buf);
}

void
export_cell_scaled(const struct engine_cell *c, int scale, int width,
    struct strbuf *sb)
{
	struct strbuf	 v = { 0 };

	if (!c->estimated) {
		export_scaled(c->value, scale, width, sb);
		return;
	}
	strbuf_addc(&v, '~');
	export_scaled(c->value, scale, 0, &v);
	strbuf_addf(sb, "%*s", width, v.s);
	strbuf_free(&v);
}

void
export_view_scales(const struct engine *e, const struct engine_snapshot *s,
    size_t view, struct export_units *u, int *scale,
    char (*out)[EXPORT_UNIT_MAX])
{
	export_view_scales_held(e, s, view, u, NULL, scale, out);
}

void
export_view_scales_held(const struct engine *e,
    const struct engine_snapshot *s, size_t view, struct export_units *u,
    const int *held, int *scale, char (*out)[EXPORT_UNIT_MAX])
{
	const struct engine_view	*v = engine_view(e, view);
	const struct engine_cell	*c;
	size_t				 r, j;
	double				*max = u->max;

	for (j = 0; j < u->n; j++) {
		max[j] = 0;
		for (r = 0; s != NULL && r <= v->nrows; r++) {
			c = engine_cell(e, s, view, r, j);
			if (c != NULL && c->status == ENG_OK &&
			    isfinite(c->value) && fabs(c->value) > max[j])
				max[j] = fabs(c->value);
		}
	}
	if (held == NULL)
		export_units_scale(u, max, scale, out);
	else
		export_units_scale_at(u, max, NUMFMT_SI_ROOM, held, scale, out);
}
