/*
 * Linux perf's metric JSON (tools/perf/pmu-events/arch/.../metrics.json,
 * nest_metrics.json) read as hvtop user metrics (hvtop -m FILE.json).
 * Pure: perfjson_parse() takes bytes and returns a model; nothing here
 * opens files or evaluates anything.  Every metric gets an expression text
 * in hvtop's infix formula notation, or the reason it has none.
 *
 * The file is a JSON array of objects.  Of each object hvtop reads:
 *
 *   MetricName       the metric's name (required)
 *   MetricExpr       perf's expression (required), translated below
 *   ScaleUnit        "<number><unit>" ("1.6e-2MB", "100%", "4", "1MHz"):
 *                    the value is multiplied by the number and shown in
 *                    the unit
 *   MetricGroup      shown as the metric's group ("A;B" as written)
 *   BriefDescription (else PublicDescription) the description
 *   AggregationMode  "PerChip" or "PerCore": what '?' stands for
 *
 * Other keys are ignored.  Objects without MetricName (perf's event files)
 * are skipped with the reason.
 *
 * Expressions.  perf's grammar: numbers (12, 1.5, .5, 1e-3), names, + - *
 * / and unary minus, parentheses; '#' constants (#smt_on ...) become
 * hvtop named constants without the '#' (--const smt_on=1 sets one);
 * duration_time (seconds) becomes delta-seconds.  A name
 * "pmu@EVENT\,k\=v...@" is perf's "pmu/EVENT,k=v/": for pmu hv_24x7 it
 * is the catalog event EVENT, read in each row hvtop shows, which is what
 * perf's '?' (every chip or core in turn) means; chip=?, core=?, vcpu=?
 * and domain=N are accepted, a fixed index (chip=0) is not, since hvtop
 * evaluates a metric on every row.  Another PMU's event (nest_mcs01_imc,
 * cpu) is refused.  A name that is another metric of the file is that
 * metric's expression, in parentheses, before its scale, as perf uses it.
 * Any other name is passed on as it is (a catalog event or formula).
 * Since the text is put in, what a metric names is bounded, in whatever
 * order the file has them: metrics name metrics at most PERFJSON_REF_MAX
 * deep, one formula holds at most PERFJSON_FORMULA_MAX bytes of the
 * metrics it names, and the file's formulas together PERFJSON_TEXT_MAX
 * bytes (a metric naming the one before it twice doubles at each level).
 * A metric past a bound is skipped with the reason, and the file's
 * translation costs time and memory in proportion to its size.
 *
 * Refused, with the byte column in MetricExpr (from 1): if/else,
 * comparisons, & | ^ !, %, d_ratio, min, max, source_count, has_event,
 * strcmp_cpuid_str (hvtop formulas have no conditionals), and anything
 * that does not parse.
 *
 * Per second.  perf prints a metric over its interval (perf stat -I 1000:
 * per second).  hvtop's interval is any length, so an expression that is
 * linear in the counts (degree 1: a count, a sum of counts, a count times
 * a constant) and does not use duration_time is divided by delta-seconds:
 * the value is per second, and the unit gets "/s" unless it is a
 * frequency (Hz, kHz, MHz, GHz).  Ratios (degree 0) are left as they are.
 * So hvtop's value equals perf stat -I 1000's for the same interval.
 *
 * Errors say where: "line L, column C: ..." for JSON, and for a metric
 * "line L, column C: metric NAME: MetricExpr column N: why", L:C being
 * the metric's object.  Input is never trusted: strings, expressions,
 * nesting and the number of metrics are bounded (PERFJSON_*_MAX).
 */
#ifndef HVTOP_PERFJSON_H
#define HVTOP_PERFJSON_H

#include <stddef.h>

#define PERFJSON_METRICS_MAX	100000	/* objects in one file */
#define PERFJSON_STRING_MAX	16384	/* bytes of one string used */
#define PERFJSON_DEPTH_MAX	64	/* nesting of one expression */
#define PERFJSON_REF_MAX	8	/* metrics naming metrics */
#define PERFJSON_FORMULA_MAX	65536	/* bytes of the metrics one names */
#define PERFJSON_TEXT_MAX	(32 << 20) /* bytes of a file's formulas */

/* The operand a rate divides by (formula/formula.h's special name). */
#define PERFJSON_SECONDS	"delta-seconds"

enum perfjson_aggr {
	PERFJSON_AGGR_NONE,
	PERFJSON_AGGR_CHIP,		/* PerChip */
	PERFJSON_AGGR_CORE,		/* PerCore */
};

struct perfjson_metric {
	size_t		 index;		/* of the object in the array */
	unsigned long	 line;		/* of the object's '{', from 1 */
	unsigned long	 column;
	char		*name;		/* MetricName, or NULL */
	char		*expr;		/* MetricExpr as written, or NULL */
	char		*formula;	/* hvtop infix text; NULL: skipped */
	char		*unit;		/* hvtop's unit ("MB/s", "%", "") */
	char		*perf_unit;	/* ScaleUnit's unit as written */
	double		 scale;		/* ScaleUnit's number (1 if none) */
	int		 per_second;	/* divided by delta-seconds */
	char		*group;		/* MetricGroup, or NULL */
	char		*desc;		/* BriefDescription ..., or NULL */
	enum perfjson_aggr aggr;
	int		 domain;	/* hv_24x7 domain=N, 0 if none */
	char		*why;		/* why skipped ("metric X: ..."), or
					   NULL when loaded */
};

struct perfjson_model {
	struct perfjson_metric *metrics;
	size_t		 nmetrics;	/* every object, loaded or not */
	size_t		 nloaded;
	size_t		 nskipped;
};

/*
 * Whether buf looks like perf JSON rather than a PAPI file: its first
 * byte other than white space (after a UTF-8 byte-order mark) is '[' or
 * '{'.  Decides by content, whatever the file is called.
 */
int		 perfjson_detect(const void *buf, size_t len);

/*
 * Parse a perf metric file.  Does no I/O.  Returns 0 with *out set
 * (caller frees with perfjson_model_free()): every object is in the
 * model, each loaded or with its reason.  Returns -HV_EFORMAT with
 * *cause set (caller frees) and *out NULL when the bytes are not a JSON
 * array.  buf need not be NUL-terminated.
 */
int		 perfjson_parse(const void *buf, size_t len,
		    struct perfjson_model **out, char **cause);

void		 perfjson_model_free(struct perfjson_model *);

/*
 * Translate one MetricExpr into hvtop infix text, alone (no other metrics
 * to refer to).  Returns 0 with *out (caller frees) and *degree (the
 * degree in the counts, or -100 when not known), or -HV_EFORMAT with
 * *cause ("column N: why", caller frees).  For tests and tools.
 */
int		 perfjson_expr(const char *expr, char **out, int *degree,
		    char **cause);

/*
 * ScaleUnit "1.6e-2MB" as 0.016 and "MB"; "" or NULL as 1 and "".
 * Returns 0, or -HV_EFORMAT when the number is not finite or the unit
 * is not printable; *unit is allocated either way (caller frees).
 */
int		 perfjson_scale_unit(const char *s, double *scale,
		    char **unit);

#endif /* HVTOP_PERFJSON_H */
