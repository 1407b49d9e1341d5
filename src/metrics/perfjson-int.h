/*
 * Inside src/metrics: the perf MetricExpr translator, shared by the file
 * reader (which lets a metric name another) and perfjson_expr().
 */
#ifndef HVTOP_PERFJSON_INT_H
#define HVTOP_PERFJSON_INT_H

#include <stddef.h>

/* The degree of an expression whose degree in the counts is not known. */
#define PERFJSON_DEG_UNKNOWN	(-100)

/*
 * Another metric of the file by name: 0 with *text (its expression
 * before scaling, valid until the translation returns) and *degree; 1
 * when name is not a metric of the file; -1 with *why (allocated) when it
 * is one that cannot be used (skipped, or a loop).
 */
typedef int	(*perfjson_ref_fn)(void *arg, const char *name,
		    const char **text, int *degree, int *time, char **why);

struct perfjson_expr_out {
	char	*text;		/* hvtop infix, allocated */
	int	 degree;	/* in the counts, or PERFJSON_DEG_UNKNOWN */
	int	 time;		/* uses duration_time */
	int	 domain;	/* hv_24x7 domain=N, 0 if none */
	int	 aggr;		/* enum perfjson_aggr of the first '?' */
};

/*
 * Translate expr (NUL-terminated).  0 with *out filled, or -HV_EFORMAT
 * with *cause "column N: why" (caller frees).
 */
int	 perfjson_translate(const char *expr, perfjson_ref_fn ref, void *arg,
	    struct perfjson_expr_out *out, char **cause);

#endif /* HVTOP_PERFJSON_INT_H */
