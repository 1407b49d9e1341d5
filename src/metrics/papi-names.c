/*
 * The second pass of reading a PAPI file: every name of the file at once.
 * Each name gets the identifier its expressions use (the name itself when
 * it is plain, a mangled one that collides with nothing otherwise), every
 * event its name id, and the model its index by name.  Pure: no I/O.
 *
 * Nothing costs more than a constant per name: an identifier that is its
 * name is the same string, and names are found through one hash table
 * that keeps each name's hash.
 */
#include "config.h"

#include "metrics/papi.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "metrics/papi-int.h"
#include "util/arena.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/*
 * An open-addressing table of names; keys point elsewhere.  What val
 * holds depends on the table: a name_id + 1, an index in the model's
 * identifiers, a suffix; all are below the number of lines of a file,
 * which PAPI_VAL_MAX far exceeds.  16 bytes an entry: the table of a file
 * of 200,000 events is looked up a million times.
 */
#define PAPI_VAL_MAX	((1U << 29) - 1)

struct papi_hent {
	const char	*key;		/* NULL: empty */
	uint32_t	 hash;
	uint32_t	 val : 29;
	uint32_t	 taken : 1;	/* an identifier in use */
	uint32_t	 plain : 2;	/* 1 plain, 2 not, 0 not known yet:
					   names alike but for case are
					   alike in this */
};

struct papi_htab {
	struct papi_hent *e;
	size_t		 cap;		/* a power of two, or 0 */
	size_t		 n;
	int		 nocase;
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

/* Hash tables for the second pass. */

static uint32_t
papi_htab_hash(const struct papi_htab *h, const char *key)
{
	return ((uint32_t)(h->nocase ? papi_hash_nocase(key) : papi_hash(key)));
}

/* Room for n keys without growing. */
static void
papi_htab_init(struct papi_htab *h, size_t n, int nocase)
{
	memset(h, 0, sizeof *h);
	h->nocase = nocase;
	for (h->cap = 64; h->cap / 4 * 3 < n + 1; h->cap *= 2)
		continue;
	h->e = xmalloc_huge(h->cap, sizeof *h->e);
	memset(h->e, 0, h->cap * sizeof *h->e);
}

static struct papi_hent *
papi_htab_find(const struct papi_htab *h, const char *key, uint32_t hv)
{
	struct papi_hent	*e;
	size_t			 i;

	for (i = hv & (h->cap - 1);; i = (i + 1) & (h->cap - 1)) {
		e = &h->e[i];
		if (e->key == NULL)
			return (NULL);
		if (e->hash == hv && (h->nocase ? papi_casecmp(e->key,
		    key) : strcmp(e->key, key)) == 0)
			return (e);
	}
}

/*
 * The entry of key, added with val 0 and not taken when it is not there
 * (key must then outlive the table).  A pointer to an entry is good until
 * the next key is added.
 */
static struct papi_hent *
papi_htab_add(struct papi_htab *h, const char *key, uint32_t hv)
{
	struct papi_hent	*e, *old;
	size_t			 i, j, oc;

	/* At most three quarters full. */
	if ((h->n + 1) * 4 > h->cap * 3) {
		old = h->e;
		oc = h->cap;
		h->cap = oc * 2;
		h->e = xcalloc(h->cap, sizeof *h->e);
		for (i = 0; i < oc; i++) {
			if (old[i].key == NULL)
				continue;
			for (j = old[i].hash & (h->cap - 1);
			    h->e[j].key != NULL; j = (j + 1) & (h->cap - 1))
				continue;
			h->e[j] = old[i];
		}
		free(old);
	}
	for (i = hv & (h->cap - 1);; i = (i + 1) & (h->cap - 1)) {
		e = &h->e[i];
		if (e->key == NULL)
			break;
		if (e->hash == hv && (h->nocase ? papi_casecmp(e->key,
		    key) : strcmp(e->key, key)) == 0)
			return (e);
	}
	e->key = key;
	e->hash = hv;
	h->n++;
	return (e);
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
	struct papi_htab names;		/* every name (no case): name_id + 1
					   of an event name in val, taken set
					   for every identifier in use, and
					   whether it is plain */
	struct papi_htab map;		/* mapped name -> identifier */
	struct papi_htab next;		/* mangled name (no case) -> next
					   suffix */
	struct strbuf	 sb;
	struct papi_model *m;
	size_t		 cap;
};

/* The identifier for name: name itself when it is plain. */
static char *
papi_names_ident(struct papi_idents *id, char *name)
{
	struct papi_model	*m = id->m;
	struct strbuf		*sb = &id->sb;
	struct papi_hent	*e, *nx;
	char			*ident;
	size_t			 i, base, k;
	uint32_t		 hv;

	if (papi_names_plain(name))
		return (name);
	hv = papi_htab_hash(&id->map, name);
	if ((e = papi_htab_find(&id->map, name, hv)) != NULL)
		return (m->idents[e->val].ident);
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
	hv = papi_htab_hash(&id->next, sb->s);
	if ((nx = papi_htab_find(&id->next, sb->s, hv)) == NULL) {
		nx = papi_htab_add(&id->next, arena_strdup(&m->mem, sb->s),
		    hv);
		nx->val = 1;
	}
	for (k = nx->val;; k = k == 1 ? 2 : k + 1) {
		sb->len = base;
		sb->s[base] = '\0';
		if (k > 1)
			strbuf_addf(sb, "__%zu", k);
		e = papi_htab_find(&id->names, sb->s,
		    papi_htab_hash(&id->names, sb->s));
		if (e == NULL || !e->taken)
			break;
	}
	nx->val = (uint32_t)(k == 1 ? 2 : k + 1) & PAPI_VAL_MAX;

	if (m->nidents == id->cap) {
		id->cap = id->cap ? id->cap * 2 : 16;
		m->idents = xreallocarray(m->idents, id->cap,
		    sizeof *m->idents);
	}
	ident = arena_strndup(&m->mem, sb->s, sb->len);
	m->idents[m->nidents].ident = ident;
	m->idents[m->nidents].name = name;
	m->nidents++;
	papi_htab_add(&id->names, ident, papi_htab_hash(&id->names,
	    ident))->taken = 1;
	papi_htab_add(&id->map, name, papi_htab_hash(&id->map,
	    name))->val = (uint32_t)(m->nidents - 1);
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
		for (i = (uint32_t)papi_hash_nocase(name) & (cap - 1);
		    m->nametab[i] != 0; i = (i + 1) & (cap - 1))
			continue;
		m->nametab[i] = (uint32_t)id + 1;
	}
}

/*
 * Every name into the identifier table once, events' and bases': whether
 * it is plain is decided once per distinct name, and an event's name_id
 * is the n-th distinct name (no case).  A base keeps its name's hash in
 * name_id until papi_names_assign() looks it up again.  Returns
 * whether each event's name is plain (caller frees).
 */
static uint8_t *
papi_names_collect(struct papi_ctx *c, struct papi_idents *id)
{
	struct papi_model	*m = c->m;
	struct papi_event	*ev;
	struct papi_base	*b;
	struct papi_hent	*e;
	size_t			 i, j, n;
	uint32_t		 hv;
	uint8_t			*plain = NULL;

	/* Event names; the bases' mostly repeat (the table grows if not). */
	n = sizeof papi_names_reserved / sizeof papi_names_reserved[0] +
	    m->nevents;
	papi_htab_init(&id->names, n, 1);
	papi_htab_init(&id->map, 0, 0);
	papi_htab_init(&id->next, 0, 1);
	for (i = 0; i < sizeof papi_names_reserved /
	    sizeof papi_names_reserved[0]; i++)
		papi_htab_add(&id->names, papi_names_reserved[i],
		    papi_htab_hash(&id->names, papi_names_reserved[i]))->taken =
		    1;
	if (m->nevents > 0)
		plain = xcalloc(m->nevents, 1);
	for (i = 0; i < m->nevents; i++) {
		ev = &m->events[i];
		e = papi_htab_add(&id->names, ev->name,
		    papi_htab_hash(&id->names, ev->name));
		if (e->plain == 0)
			e->plain = papi_names_plain(ev->name) ? 1 : 2;
		if (e->plain == 1)
			e->taken = 1;
		if (e->val == 0)
			e->val = (uint32_t)++m->nnames & PAPI_VAL_MAX;
		ev->name_id = (size_t)e->val - 1;
		plain[i] = e->plain == 1;
		for (j = 0; j < ev->nbases; j++) {
			b = &ev->bases[j];
			hv = papi_htab_hash(&id->names, b->name);
			e = papi_htab_add(&id->names, b->name, hv);
			if (e->plain == 0)
				e->plain = papi_names_plain(b->name) ? 1 : 2;
			if (e->plain == 1)
				e->taken = 1;
			b->name_id = hv;
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
	struct papi_hent	*e;
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
			/* There since the first loop; read before an
			 * identifier is added. */
			e = papi_htab_find(&id->names, b->name,
			    (uint32_t)b->name_id);
			b->name_id = e->val != 0 ? (size_t)e->val - 1 :
			    PAPI_NONE;
			b->ident = e->plain == 1 ? b->name :
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
	free(id.names.e);
	free(id.map.e);
	free(id.next.e);
	strbuf_free(&id.sb);
	if (m->nidents > 1)
		qsort(m->idents, m->nidents, sizeof *m->idents,
		    papi_names_cmpident);
	papi_names_byname(c);
}

