/*
 * The second pass of reading a PAPI file: every name of the file at once.
 * Each name gets the identifier its expressions use (the name itself when
 * it is plain, a mangled one that collides with nothing otherwise), every
 * event its name id, and the model its index by name.  Pure: no I/O.
 *
 * Nothing costs more than a constant per name: an identifier that is its
 * name is the same string, and names are found through hash indexes
 * (util/htab.h), each name once: a base keeps its place.
 */
#include "config.h"

#include "metrics/papi.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/papi-int.h"
#include "util/arena.h"
#include "util/htab.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/*
 * What the table of every name knows of a name, by its position there.
 * id is a name_id + 1 or 0, below the number of lines of a file, which
 * PAPI_VAL_MAX far exceeds.  4 bytes a name, as a file of 200,000 events
 * has as many.
 */
#define PAPI_VAL_MAX	((1U << 29) - 1)

struct papi_name {
	uint32_t	 id : 29;
	uint32_t	 taken : 1;	/* an identifier in use */
	uint32_t	 plain : 2;	/* 1 plain, 2 not, 0 not known yet:
					   names alike but for case are
					   alike in this */
};

/*
 * Words an expression cannot use as operand names: the formula language's
 * operators, the constant '#' becomes, and what a strtod()-based number
 * reader would take for a number.
 */
static const char *const papi_names_reserved[] = {
	"mod", "rem", "sqr", "swp", "rot", "dup", "sqrt", PAPI_CPU_HZ_OPERAND,
	"inf", "infinity", "nan",
};

/*
 * The value of key (no case) in t, or HTAB_NONE with p ready for
 * htab_put().  h is papi_hash_nocase(key).
 */
static inline uint32_t
papi_names_find(const struct htab *t, struct htab_probe *p, uint32_t h,
    const char *key)
{
	const struct htab_slot	*s;

	htab_probe(t, h, HTAB_ALL, p);
	while ((s = htab_next(p)) != NULL)
		if (papi_casecmp(s->key, key) == 0)
			return (s->val);
	return (HTAB_NONE);
}

static int
papi_names_plain(const char *s)
{
	size_t	 i;

	if (!papi_isidstart((unsigned char)s[0]))
		return (0);
	for (i = 1; s[i] != '\0'; i++) {
		if (!papi_isident((unsigned char)s[i]))
			return (0);
	}
	if (i > 8)		/* longer than any reserved word */
		return (1);
	for (i = 0; i < sizeof papi_names_reserved /
	    sizeof papi_names_reserved[0]; i++) {
		if (papi_casecmp(s, papi_names_reserved[i]) == 0)
			return (0);
	}
	return (1);
}

struct papi_idents {
	struct htab	 names;		/* every name (no case) -> its place
					   in name */
	struct papi_name *name;		/* what is known of each: name_id + 1
					   of an event name, taken for every
					   identifier in use, and whether it
					   is plain */
	size_t		 namecap;
	struct htab	 map;		/* mapped name -> identifier */
	struct htab	 next;		/* mangled name (no case) -> its place
					   in suffix */
	size_t		*suffix;	/* the next suffix to try */
	size_t		 suffixcap;
	struct strbuf	 sb;
	struct papi_model *m;
	size_t		 cap;
};

/*
 * Add key to names, where probe p for it ended, knowing nothing of it yet
 * (key must outlive the table).  Returns its place.
 */
static uint32_t
papi_names_put(struct papi_idents *id, struct htab_probe *p, const char *key)
{
	uint32_t	 v = (uint32_t)id->names.n;

	if (v == id->namecap) {
		id->namecap = id->namecap ? id->namecap * 2 : 16;
		id->name = xreallocarray(id->name, id->namecap,
		    sizeof *id->name);
	}
	memset(&id->name[v], 0, sizeof id->name[v]);
	htab_put(&id->names, p, key, v);
	return (v);
}

/* The place of key in names, added when it is not there. */
static uint32_t
papi_names_get(struct papi_idents *id, const char *key)
{
	struct htab_probe	 p;
	uint32_t		 v;

	v = papi_names_find(&id->names, &p, papi_hash_nocase(key), key);
	if (v == HTAB_NONE)
		v = papi_names_put(id, &p, key);
	return (v);
}

/* The identifier for name: name itself when it is plain. */
static char *
papi_names_ident(struct papi_idents *id, char *name)
{
	struct papi_model	*m = id->m;
	struct strbuf		*sb = &id->sb;
	struct htab_probe	 mp, np, xp;
	const struct htab_slot	*s;
	char			*ident;
	size_t			 i, base, k;
	uint32_t		 v, nx;

	if (papi_names_plain(name))
		return (name);
	htab_probe(&id->map, htab_hash_str(name), HTAB_ALL, &mp);
	while ((s = htab_next(&mp)) != NULL)
		if (strcmp(s->key, name) == 0)
			return (m->idents[s->val].ident);
	strbuf_reset(sb);
	if (papi_isdigit((unsigned char)name[0]) || name[0] == '\0')
		strbuf_addc(sb, '_');
	for (i = 0; name[i] != '\0'; i++)
		strbuf_addc(sb, papi_isident((unsigned char)name[i]) ?
		    name[i] : '_');

	/*
	 * k is the suffix to try, 1 meaning none.  It resumes where the last
	 * name that mangled alike stopped, so that many such names cost
	 * linear time, not quadratic.
	 */
	base = sb->len;
	nx = papi_names_find(&id->next, &xp, papi_hash_nocase(sb->s), sb->s);
	if (nx == HTAB_NONE) {
		nx = (uint32_t)id->next.n;
		if (nx == id->suffixcap) {
			id->suffixcap = id->suffixcap ? id->suffixcap * 2 : 16;
			id->suffix = xreallocarray(id->suffix, id->suffixcap,
			    sizeof *id->suffix);
		}
		id->suffix[nx] = 1;
		htab_put(&id->next, &xp, arena_strdup(&m->mem, sb->s), nx);
	}
	for (k = id->suffix[nx];; k = k == 1 ? 2 : k + 1) {
		sb->len = base;
		sb->s[base] = '\0';
		if (k > 1)
			strbuf_addf(sb, "__%zu", k);
		v = papi_names_find(&id->names, &np, papi_hash_nocase(sb->s),
		    sb->s);
		if (v == HTAB_NONE || !id->name[v].taken)
			break;
	}
	id->suffix[nx] = k == 1 ? 2 : k + 1;

	if (m->nidents == id->cap) {
		id->cap = id->cap ? id->cap * 2 : 16;
		m->idents = xreallocarray(m->idents, id->cap,
		    sizeof *m->idents);
	}
	ident = arena_strndup(&m->mem, sb->s, sb->len);
	m->idents[m->nidents].ident = ident;
	m->idents[m->nidents].name = name;
	m->nidents++;
	/* Neither table has changed since its probe ended. */
	if (v == HTAB_NONE)
		v = papi_names_put(id, &np, ident);
	id->name[v].taken = 1;
	htab_put(&id->map, &mp, name, (uint32_t)(m->nidents - 1));
	return (ident);
}

static int
papi_names_cmpident(const void *a, const void *b)
{
	const struct papi_ident	*x = a, *y = b;

	return (strcmp(x->ident, y->ident));
}

/*
 * The model's name lookup (papi_model_find() and the like): name_id + 1
 * by the name of its first event in byname, which papi-model.c hashes
 * alike.
 */
static void
papi_names_nametab(struct papi_model *m)
{
	const char	*name;
	size_t		 id, i, cap;

	for (cap = 64; cap / 2 < m->nnames + 1; cap *= 2)
		continue;
	m->nametab = xcalloc(cap, sizeof *m->nametab);
	m->nametabcap = cap;
	for (id = 0; id < m->nnames; id++) {
		name = m->events[m->byname[m->namerange[2 * id]]].name;
		for (i = papi_hash_nocase(name) & (cap - 1);
		    m->nametab[i] != 0; i = (i + 1) & (cap - 1))
			continue;
		m->nametab[i] = (uint32_t)id + 1;
	}
}

/*
 * Every name into the identifier table once, events' and bases': whether
 * it is plain is decided once per distinct name, and an event's name_id
 * is the n-th distinct name (no case).  A base keeps its name's place in
 * the table in name_id until papi_names_assign() reads it.  Returns
 * whether each event's name is plain (caller frees).
 */
static uint8_t *
papi_names_collect(struct papi_ctx *c, struct papi_idents *id)
{
	struct papi_model	*m = c->m;
	struct papi_event	*ev;
	struct papi_base	*b;
	struct papi_name	*e;
	size_t			 i, j, n;
	uint32_t		 v;
	uint8_t			*plain = NULL;

	/* Event names; the bases' mostly repeat (the table grows if not). */
	n = sizeof papi_names_reserved / sizeof papi_names_reserved[0] +
	    m->nevents;
	htab_init(&id->names, n);
	id->name = xreallocarray(NULL, n, sizeof *id->name);
	id->namecap = n;
	/* v apart: adding may move id->name. */
	for (i = 0; i < sizeof papi_names_reserved /
	    sizeof papi_names_reserved[0]; i++) {
		v = papi_names_get(id, papi_names_reserved[i]);
		id->name[v].taken = 1;
	}
	if (m->nevents > 0)
		plain = xcalloc(m->nevents, 1);
	for (i = 0; i < m->nevents; i++) {
		ev = &m->events[i];
		v = papi_names_get(id, ev->name);
		e = &id->name[v];
		if (e->plain == 0)
			e->plain = papi_names_plain(ev->name) ? 1 : 2;
		if (e->plain == 1)
			e->taken = 1;
		if (e->id == 0)
			e->id = (uint32_t)++m->nnames & PAPI_VAL_MAX;
		ev->name_id = (size_t)e->id - 1;
		plain[i] = e->plain == 1;
		for (j = 0; j < ev->nbases; j++) {
			b = &ev->bases[j];
			v = papi_names_get(id, b->name);
			e = &id->name[v];
			if (e->plain == 0)
				e->plain = papi_names_plain(b->name) ? 1 : 2;
			if (e->plain == 1)
				e->taken = 1;
			b->name_id = v;
		}
	}
	return (plain);
}

/* Each event's and base's identifier and name id, and its expression. */
static void
papi_names_assign(struct papi_ctx *c, struct papi_idents *id,
    const uint8_t *plain)
{
	struct papi_model	*m = c->m;
	struct papi_event	*ev;
	struct papi_base	*b;
	struct papi_name	 e;
	size_t			 i, j;
	struct {
		const char	*name;
		size_t		 name_id;
		char		*ident;
	}			 cache[PAPI_BASE_CACHE];

	memset(cache, 0, sizeof cache);
	for (i = 0; i < m->nevents; i++) {
		ev = &m->events[i];
		ev->ident = plain[i] ? ev->name : papi_names_ident(id,
		    ev->name);
		for (j = 0; j < ev->nbases; j++) {
			b = &ev->bases[j];
			/* The same string as the last base here (see
			 * papi_parse_base()): the same answers. */
			if (j < PAPI_BASE_CACHE && cache[j].name == b->name) {
				b->name_id = cache[j].name_id;
				b->ident = cache[j].ident;
				continue;
			}
			/* Its place since the first loop; a copy, as adding
			 * an identifier may move the array. */
			e = id->name[b->name_id];
			b->name_id = e.id != 0 ? (size_t)e.id - 1 : PAPI_NONE;
			b->ident = e.plain == 1 ? b->name :
			    papi_names_ident(id, b->name);
			if (j < PAPI_BASE_CACHE) {
				cache[j].name = b->name;
				cache[j].name_id = b->name_id;
				cache[j].ident = b->ident;
			}
		}
		ev->expr = papi_formula_expr(c, ev);
		ev->expr_infix = ev->type == PAPI_TYPE_INFIX;
	}
}

/*
 * By name, then by position: redefinitions sit side by side.  Names come
 * in the order of their name_ids (no sorting: a name is found through the
 * table), and events are counted into place in file order, which keeps
 * them by position within a name.  A redefinition in the same section
 * shadows the one before, with a warning.
 */
static void
papi_names_byname(struct papi_ctx *c)
{
	struct papi_model	*m = c->m;
	struct papi_event	*ev, *prev;
	char			 q[64];
	size_t			 i, j, n;

	if (m->nevents == 0)
		return;
	/* namerange[2 id + 1] counts, then is where the next goes. */
	m->namerange = xcalloc(2 * m->nnames, sizeof *m->namerange);
	for (i = 0; i < m->nevents; i++)
		m->namerange[2 * m->events[i].name_id + 1]++;
	for (i = j = 0; i < m->nnames; i++) {
		n = m->namerange[2 * i + 1];
		m->namerange[2 * i] = m->namerange[2 * i + 1] = j;
		j += n;
	}
	m->byname = xcalloc(m->nevents, sizeof *m->byname);
	for (i = 0; i < m->nevents; i++)
		m->byname[m->namerange[2 * m->events[i].name_id + 1]++] = i;
	papi_names_nametab(m);
	for (i = 1; i < m->nevents; i++) {
		ev = &m->events[m->byname[i]];
		prev = &m->events[m->byname[i - 1]];
		if (prev->name_id != ev->name_id ||
		    prev->section != ev->section)
			continue;
		ev->shadows = prev->index;
		c->line = ev->line;
		PAPI_WARN(c, ev->column, "%s is defined again (first on line "
		    "%lu); this definition is the one used",
		    papi_parse_quote(q, sizeof q, ev->name, strlen(ev->name)),
		    prev->line);
	}
}

/*
 * The second pass: identifiers, expressions, the name index, and the
 * warnings about redefined names.
 */
void
papi_names_resolve(struct papi_ctx *c)
{
	struct papi_model	*m = c->m;
	struct papi_idents	 id;
	uint8_t			*plain;

	memset(&id, 0, sizeof id);
	id.m = m;
	plain = papi_names_collect(c, &id);
	papi_names_assign(c, &id, plain);
	free(plain);
	htab_free(&id.names);
	htab_free(&id.map);
	htab_free(&id.next);
	free(id.name);
	free(id.suffix);
	strbuf_free(&id.sb);
	if (m->nidents > 1)
		qsort(m->idents, m->nidents, sizeof *m->idents,
		    papi_names_cmpident);
	papi_names_byname(c);
}
