/*
 * Inside src/metrics: how PAPI names compare and hash, and what the three
 * files that read a PAPI file share (papi-parse.c reads the lines,
 * papi-formula.c the formulas, papi-names.c resolves the names).  Names
 * compare without case, in ASCII only, so that the locale never changes
 * what a file means; the model's name lookup hashes alike where it is
 * built and where it is read.
 */
#ifndef HVTOP_PAPI_INT_H
#define HVTOP_PAPI_INT_H

#include <stddef.h>
#include <stdint.h>

#include "metrics/papi.h"
#include "util/htab.h"
#include "util/strbuf.h"

static inline int
papi_lower(int c)
{
	return ((c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c);
}

static inline int
papi_casecmp(const char *a, const char *b)
{
	int	 ca, cb;

	for (;; a++, b++) {
		ca = papi_lower((unsigned char)*a);
		cb = papi_lower((unsigned char)*b);
		if (ca != cb || ca == '\0')
			return (ca - cb);
	}
}

/*
 * A name's hash without case: htab_hash_str() of it in lower case, for
 * the reader's tables and the model's index alike.
 */
static inline uint32_t
papi_hash_nocase(const char *s)
{
	uint32_t	 h = HTAB_HASH_INIT;

	for (; *s != '\0'; s++)
		h = htab_hash_add_byte(h,
		    (unsigned char)papi_lower((unsigned char)*s));
	return (htab_hash_end(h));
}

/* ---- reading a file (papi-parse.c, papi-formula.c, papi-names.c) ---- */

static inline int
papi_isdigit(int c)
{
	return (c >= '0' && c <= '9');
}

static inline int
papi_isidstart(int c)
{
	return ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_');
}

static inline int
papi_isident(int c)
{
	return (papi_isidstart(c) || papi_isdigit(c));
}

static inline int
papi_isblank(int c)
{
	return (c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f');
}

/* One field of a line. */
struct papi_field {
	const char	*p;		/* content (inside quotes if quoted) */
	size_t		 len;
	unsigned long	 col;		/* column of the content, from 1 */
	char		 quote;		/* '"', '\'' or 0 */
	int		 doubled;	/* contains a doubled quote */
};

/* Base names remembered by position (papi_parse_base()). */
#define PAPI_BASE_CACHE	8

/* A file being read: the model it fills, and the line at hand. */
struct papi_ctx {
	struct papi_model *m;
	size_t		 capsections;
	size_t		 capevents;
	size_t		 capdiags;
	size_t		*diagseq;	/* order of creation, for sorting */
	unsigned long	 line;
	struct papi_field *f;		/* fields of the current line */
	size_t		 nf;
	size_t		 capf;
	int		 header_run;	/* last command was a section header */
	size_t		 cursec;	/* PAPI_NONE before the first */
	struct strbuf	 expr;		/* scratch for expression texts */
	char		*lastbase[PAPI_BASE_CACHE]; /* papi_parse_base() */
};

/*
 * A diagnostic at line, col; PAPI_ERR and PAPI_WARN give the current
 * line.  Input quoted into a message goes through papi_parse_quote():
 * at most 40 bytes of it, unprintable ones as '?', into buf.
 */
void	 papi_parse_diag(struct papi_ctx *, enum papi_severity,
	    unsigned long line, unsigned long col, const char *, ...)
	    __attribute__((format(printf, 5, 6)));
#define PAPI_ERR(c, col, ...) \
	papi_parse_diag((c), PAPI_ERROR, (c)->line, (col), __VA_ARGS__)
#define PAPI_WARN(c, col, ...) \
	papi_parse_diag((c), PAPI_WARNING, (c)->line, (col), __VA_ARGS__)

const char *papi_parse_quote(char *buf, size_t, const char *, size_t);

/*
 * Check a POSTFIX (infix 0) or INFIX formula against its event's base
 * list; see papi-formula.c.  Returns 0, or -1 after reporting.
 */
int	 papi_formula_check(struct papi_ctx *, const struct papi_field *,
	    int infix, size_t nbases, uint64_t *used, size_t *placecount,
	    size_t *bound);
/*
 * The expression text of an event whose identifiers are set, in the
 * model's arena.
 */
char	*papi_formula_expr(struct papi_ctx *, const struct papi_event *);
/* The second pass (papi-names.c). */
void	 papi_names_resolve(struct papi_ctx *);

#endif /* HVTOP_PAPI_INT_H */
