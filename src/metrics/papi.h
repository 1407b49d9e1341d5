/*
 * PAPI event-definition files (PAPI_derived_event_files(1)), the format of
 * PAPI's own papi_events.csv and of $PAPI_USER_EVENTS_FILE, read as hvtop
 * user metrics (hvtop -m FILE).  Pure: papi_parse() takes bytes and returns
 * a model; nothing here opens files, evaluates formulas or knows which PMU
 * the machine has.  It does not depend on the formula engine either: every
 * event gets an expression *text* that the formula engine compiles.
 *
 * The file, line by line (commands and keywords are case-insensitive,
 * fields are separated by commas, spaces and tabs around a field are
 * ignored, a field may be quoted with "..." or '...' to hold commas, a
 * doubled quote inside stands for one; blank lines, lines whose first
 * non-blank character is '#', CR LF line ends, trailing commas and, as
 * PAPI's strtok() does, empty fields between base events are accepted):
 *
 *   CPU,<pmu>[,<type>]     Starts a section.  Several CPU lines in a row
 *                          (comments and blank lines between them allowed)
 *                          make one section that applies to each PMU named;
 *                          a CPU line after an event line starts a new one.
 *                          <type> is PAPI's optional numeric PMU type; it is
 *                          kept but not used for matching.
 *   <component>,<name>     The same for a PAPI component (papi_events.csv
 *                          has "cuda,GH100"): a lowercase word other than
 *                          cpu/preset/event followed by exactly one field.
 *   PRESET,<name>,<type>,<args>[,LDESC,<text>][,SDESC,<text>][,NOTE,<text>]
 *   EVENT,...              The same as PRESET (PAPI treats them alike).
 *
 * Events before the first CPU line go into a section that names no PMU and
 * applies to every PMU (PAPI would ignore them; hvtop's own files need not
 * name hv_24x7).  An event name defined twice in one section is a warning:
 * the later definition is the one used, as in PAPI.
 *
 * Derived types and the expression text generated for them.  The text is
 * RPN in the catalog formula notation (whitespace-separated tokens,
 * "A B -" is A - B) except for DERIVED_INFIX, whose text stays infix:
 *
 *   NOT_DERIVED,A              A
 *   DERIVED_ADD,A,B,C          A B + C +
 *   DERIVED_SUB,A,B,C          A B - C -     (the first minus all others)
 *   DERIVED_PS,CYC,A           A delta-seconds /
 *   DERIVED_ADD_PS,CYC,A,B     A B + delta-seconds /
 *   DERIVED_CMPD,A,B           A
 *   DERIVED_POSTFIX,N0|N1|-|N2|/|,A,B,C     A B - C /
 *   DERIVED_INFIX,N0-(N1*2),A,B             A-(B*2)
 *
 * DERIVED_PS and DERIVED_ADD_PS are rates per second.  PAPI computes them
 * as count * cpu_max_mhz * 10^6 / PAPI_TOT_CYC, so its syntax puts the
 * cycle counter first.  hvtop divides by the elapsed time of the interval
 * instead: the expression uses the delta-seconds operand, and the leading
 * cycle counter (marked by the event's "clock" flag) is kept in the model
 * but used neither by the expression nor by the availability check.  The
 * cycle counter is taken to be present when the list is longer than the
 * type needs: DERIVED_PS,A is accepted as a rate of A, DERIVED_PS,CYC,A as
 * PAPI writes it; DERIVED_ADD_PS,A,B sums A and B, three or more events
 * start with the cycle counter.
 *
 * DERIVED_CMPD is what PAPI computes for it: the value of the first event.
 * The other events only configure the counter on the processor that needs
 * them, so they are still required by the availability check.
 *
 * POSTFIX formulas are PAPI's '|'-separated tokens: N<i> (the i-th base
 * event, from 0), decimal numbers, '#' (PAPI's CPU frequency in Hz, written
 * as the named constant cpu_hz) and + - * /.  Empty tokens are ignored,
 * so a missing trailing '|' and a leading '|' (both in papi_events.csv) are
 * fine.  INFIX formulas use the same operands with + - * / and parentheses.
 * A placeholder beyond the event list, an operator without operands or a
 * formula that leaves more than one value is an error with its column.
 *
 * Names in expressions.  A name that is a plain identifier
 * ([A-Za-z_][A-Za-z0-9_]*, e.g. PM_RUN_INST_CMPL) is used as it is.  Any
 * other name (PAPI native names such as DATA_CACHE_REFILLS:SYSTEM or
 * cuda:::x:stat=sum, or "hv_24x7/PM_PB_CYC,chip=0/" written in quotes) and
 * the words an expression cannot use as names (mod rem sqr swp rot dup
 * sqrt cpu_hz inf infinity nan) are mapped: every byte outside
 * [A-Za-z0-9_] becomes '_', a leading digit gets a '_' in front, and
 * "__2", "__3", ... is appended while the result would equal (ignoring
 * case) another name or identifier of the file.  So A:B becomes A_B, or
 * A_B__2 when the file also names A_B.  The mapping is one-to-one within
 * a model: papi_model_ident_name() turns an identifier back into the
 * original name; every base and event keeps both.  The identifiers are
 * valid names in both notations of the formula engine.
 *
 * Errors are collected like a compiler's: "line N, column M: message"
 * (columns count bytes from 1); a line with an error is skipped and the
 * rest of the file loads.  Input is never trusted: lines, base lists,
 * expressions and the number of stored messages are bounded (PAPI_*_MAX).
 */
#ifndef HVTOP_PAPI_H
#define HVTOP_PAPI_H

#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"

#define PAPI_LINE_MAX	16384	/* bytes in one line */
#define PAPI_BASES_MAX	64	/* base events of one event */
#define PAPI_EXPR_MAX	16384	/* bytes of one generated expression */
#define PAPI_DIAGS_MAX	1000	/* messages kept; the rest are counted */
#define PAPI_NONE	((size_t)-1)

/* The operand DERIVED_PS and DERIVED_ADD_PS divide by. */
#define PAPI_RATE_OPERAND	"delta-seconds"
/* The named constant PAPI's '#' (CPU frequency in Hz) becomes. */
#define PAPI_CPU_HZ_OPERAND	"cpu_hz"

enum papi_kind {
	PAPI_KIND_PRESET,
	PAPI_KIND_EVENT,
};

/* Derived types, in PAPI's order. */
enum papi_type {
	PAPI_TYPE_NOT_DERIVED,
	PAPI_TYPE_ADD,
	PAPI_TYPE_PS,
	PAPI_TYPE_ADD_PS,
	PAPI_TYPE_CMPD,
	PAPI_TYPE_SUB,
	PAPI_TYPE_POSTFIX,
	PAPI_TYPE_INFIX,
};
#define PAPI_NTYPES	8

enum papi_severity {
	PAPI_ERROR,
	PAPI_WARNING,
};

struct papi_diag {
	enum papi_severity severity;
	unsigned long	 line;		/* from 1 */
	unsigned long	 column;	/* byte in the line, from 1 */
	char		*message;	/* the text alone */
	char		*text;		/* "line N, column M: [warning: ]..." */
};

/* One PMU a section applies to. */
struct papi_pmu {
	char		*name;		/* "POWER8", "hv_24x7", "GH100" */
	char		*component;	/* NULL for CPU, "cuda" for cuda,X */
	long		 type;		/* CPU,name,type qualifier or -1 */
	unsigned long	 line;
};

struct papi_section {
	size_t		 index;
	struct papi_pmu	*pmus;		/* none: applies to every PMU */
	size_t		 npmus;
	unsigned long	 line;		/* of the first header (or event) */
	size_t		 first_event;	/* events are contiguous */
	size_t		 nevents;
};

struct papi_base {
	char		*name;		/* as written */
	char		*ident;		/* as used in the expression */
	unsigned long	 column;
	size_t		 name_id;	/* name_id of the file's events of this
					   name, or PAPI_NONE if none */
};

struct papi_event {
	size_t		 index;		/* in papi_model.events */
	size_t		 section;
	enum papi_kind	 kind;
	enum papi_type	 type;
	char		*name;		/* as written */
	char		*ident;		/* name as an expression operand */
	size_t		 name_id;	/* same for events whose names differ
					   only in case; 0..nnames-1 */
	struct papi_base *bases;
	size_t		 nbases;	/* 1..PAPI_BASES_MAX */
	int		 clock;		/* bases[0] is PAPI's cycle counter */
	int		 expr_infix;	/* expr is infix (DERIVED_INFIX) */
	char		*formula;	/* POSTFIX/INFIX text or NULL */
	char		*expr;		/* generated expression text */
	char		*ldesc;		/* LDESC, SDESC, NOTE or NULL */
	char		*sdesc;
	char		*note;
	unsigned long	 line;
	unsigned long	 column;	/* of the name */
	size_t		 shadows;	/* earlier same-name event in the
					   section, or PAPI_NONE */
};

/* A mapped operand and the name it stands for. */
struct papi_ident {
	char		*ident;
	char		*name;
};

/*
 * Every string of a model (names, identifiers, expressions, descriptions)
 * and every base list lives in its arena and goes with the model: a model
 * of 200,000 events costs a few dozen allocations.  An identifier that is
 * its name as written is the same string.
 */
struct papi_model {
	struct papi_section *sections;
	size_t		 nsections;
	struct papi_event *events;
	size_t		 nevents;
	size_t		 nnames;	/* distinct event names (no case) */
	struct papi_ident *idents;	/* sorted by ident */
	size_t		 nidents;
	size_t		*byname;	/* event indexes grouped by name (no
					   case), by index within a name */
	size_t		*namerange;	/* per name_id: [start, end) of its
					   events in byname, 2 entries */
	uint32_t	*nametab;	/* name_id + 1 by name (no case),
					   open addressing; 0 is empty.
					   4 bytes a slot where htab
					   takes 16: a model may hold
					   hundreds of thousands */
	size_t		 nametabcap;	/* a power of two, or 0 */
	struct papi_diag *diags;	/* sorted by line and column */
	size_t		 ndiags;	/* stored, <= PAPI_DIAGS_MAX */
	size_t		 nerrors;	/* counted, stored or not */
	size_t		 nwarnings;
	unsigned long	 nlines;
	struct arena	 mem;		/* the strings and base lists */
};

/*
 * Parse an event-definition file.  Does no I/O.  *out is always set to a
 * new model (caller frees with papi_model_free()) holding every line that
 * parsed and every diagnostic.  Returns 0 when there was no error, or
 * -HV_EFORMAT with *cause set to the first error and how many followed
 * (caller frees); warnings alone return 0.  buf need not be NUL-terminated.
 */
int		 papi_parse(const void *buf, size_t len,
		    struct papi_model **out, char **cause);

void		 papi_model_free(struct papi_model *);

/* "NOT_DERIVED", "DERIVED_ADD", ...; "PRESET" or "EVENT".  Static. */
const char	*papi_model_type_name(enum papi_type);
const char	*papi_model_kind_name(enum papi_kind);

/*
 * Does the section apply to the PMU?  Names compare without case; a
 * section naming no PMU applies to all, and so does pmu == NULL.
 */
int		 papi_model_matches(const struct papi_section *,
		    const char *pmu);

/*
 * Indexes of the sections that apply to pmu (see papi_model_matches()),
 * in file order.  Stores at most max of them and returns how many there
 * are.
 */
size_t		 papi_model_match(const struct papi_model *, const char *pmu,
		    size_t *sections, size_t max);

/*
 * The event called name (no case) in the sections that apply to pmu; the
 * last definition wins, as in PAPI.  NULL when there is none.  Points into
 * the model.
 */
const struct papi_event *papi_model_find(const struct papi_model *,
		    const char *pmu, const char *name);

/*
 * What base event i of ev refers to: the last event of that name (no case)
 * defined before ev in a section that applies to pmu, which PAPI expands in
 * place, or NULL when the name is a native event.  Points into the model.
 */
const struct papi_event *papi_model_resolve(const struct papi_model *,
		    const char *pmu, const struct papi_event *ev, size_t i);

/* The original name behind an identifier, or NULL if ident is not mapped. */
const char	*papi_model_ident_name(const struct papi_model *,
		    const char *ident);

/* Answers "is this base event name known on the current catalog/PMU". */
typedef int	(*papi_known_fn)(const char *name, void *arg);

enum papi_status {
	PAPI_AVAILABLE,		/* every base event needed is known */
	PAPI_MISSING,		/* missing names the first unknown one */
	PAPI_NOT_HERE,		/* the section does not apply to the PMU */
};

struct papi_avail {
	enum papi_status status;
	const char	*missing;	/* unknown native name (in the model) */
	size_t		 base;		/* index of the base that failed, or
					   PAPI_NONE */
};

/*
 * Availability of every event for pmu (NULL: every section applies).  A
 * base event names either an earlier event of the file (papi_model_
 * resolve()), which is available when that event is, or a native event,
 * which known() decides.  The cycle counter of DERIVED_PS/ADD_PS is not
 * needed.  Bases are checked in order and the first failure is reported:
 * missing is the native name that is unknown, possibly several events
 * down, and base the index of the base event through which it is needed.
 * Pure as long as known() is.  *out (caller frees) gets one entry per
 * event, by event index; with no events it is NULL.  Returns 0.
 */
int		 papi_check(const struct papi_model *, const char *pmu,
		    papi_known_fn known, void *arg, struct papi_avail **out);

#endif /* HVTOP_PAPI_H */
