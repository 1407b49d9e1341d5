/*
 * Finding the frame's partitions through perf.  The kernel makes a test
 * H_GET_24X7_DATA whenever an hv_24x7 event is opened, so an open of
 * "domain=3,lpar=N,core=V" succeeds only when partition N exists, has a
 * virtual processor V and may be read.  The scan opens one event per
 * question and closes it again, reading nothing: a bounded range of
 * partition ids, then each partition's vcpu count by doubling and
 * halving (vcpus are numbered 0 .. n-1, so the first that fails is n).
 * The opens are the caller's (a callback), so the rules here are tested
 * without a kernel.
 */
#include "config.h"

#include "source/source-perf-int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/selection.h"
#include "sys/file.h"
#include "util/xalloc.h"

#define LPARCFG_MAX	(256 * 1024)
#define PERF_LPAR_TRIES	20		/* for a probe answered busy */
#define PERF_LPAR_PAUSE_MIN	1000000ULL	/* ns */
#define PERF_LPAR_PAUSE_MAX	100000000ULL	/* ns */

/*
 * One probe, made again while the kernel says the hypervisor was busy:
 * a busy answer says nothing about the partition.  Returns the last
 * answer's errno (0: it opened).
 */
static int
source_perf_lpar_ask(const struct perf_lpar_scan *sc,
    struct perf_lpar_found *out, uint16_t lpar, unsigned vcpu)
{
	uint64_t	 ns = PERF_LPAR_PAUSE_MIN;
	unsigned	 tries;
	int		 err;

	for (tries = 0; ; tries++) {
		out->probes++;
		err = sc->probe(sc->arg, lpar, vcpu);
		if (err != EBUSY && err != EAGAIN)
			return (err);
		out->busy++;
		if (tries + 1 >= PERF_LPAR_TRIES) {
			out->gave_up = 1;
			return (err);
		}
		if (sc->pause != NULL)
			sc->pause(sc->arg, ns);
		if ((ns *= 2) > PERF_LPAR_PAUSE_MAX)
			ns = PERF_LPAR_PAUSE_MAX;
	}
}

/*
 * The number of vcpus of lpar, given that vcpu 0 answers.  Partitions
 * of a frame often have as many vcpus as another, so guess (the count
 * of the partition before, 0: none) costs two opens when right.
 */
static unsigned
source_perf_lpar_vcpus(const struct perf_lpar_scan *sc, uint16_t lpar,
    unsigned guess, struct perf_lpar_found *out)
{
	unsigned	 ok = 0, bad = 0, mid;

	if (guess > 1) {
		if (source_perf_lpar_ask(sc, out, lpar, guess - 1) != 0)
			bad = guess - 1;
		else {
			ok = guess - 1;
			if (guess >= sc->maxvcpus)
				return (sc->maxvcpus);
			if (source_perf_lpar_ask(sc, out, lpar, guess) != 0)
				return (guess);
			ok = guess;
		}
	}
	/* Double until one fails or the bound is reached ... */
	if (bad == 0) {
		for (bad = ok > 0 ? ok * 2 : 1; bad < sc->maxvcpus; bad *= 2) {
			if (source_perf_lpar_ask(sc, out, lpar, bad) != 0)
				break;
			ok = bad;
		}
		if (bad > sc->maxvcpus)
			bad = sc->maxvcpus;
	}
	/* ... then halve the gap between the last that answered and the
	 * first that did not. */
	while (bad - ok > 1) {
		mid = ok + (bad - ok) / 2;
		if (source_perf_lpar_ask(sc, out, lpar, mid) == 0)
			ok = mid;
		else
			bad = mid;
	}
	return (ok + 1);
}

void
source_perf_lpar_scan(const struct perf_lpar_scan *sc,
    struct perf_lpar_found *out)
{
	struct topo_lpar	*l;
	unsigned		 id, missing = 0;
	int			 err;

	memset(out, 0, sizeof *out);
	if (sc->lo == 0 || sc->lo > sc->hi)
		return;
	/* Without the permission the kernel refuses every other id before
	 * asking the hypervisor: nothing to probe. */
	if (sc->privileged == 0) {
		out->denied = 1;
		return;
	}
	/* This partition must answer, or there are no VCPU domains here. */
	if (source_perf_lpar_ask(sc, out, SEL_LPAR_SELF, 0) != 0)
		return;
	/*
	 * Every open costs the kernel's test call; ids are handed out in
	 * turn, so past a long enough run of missing ones there are
	 * likely no more.
	 */
	for (id = sc->lo; id <= sc->hi && (sc->gap == 0 ||
	    missing < sc->gap); id++) {
		if ((err = source_perf_lpar_ask(sc, out, (uint16_t)id,
		    0)) != 0) {
			if (err == EACCES || err == EPERM)
				out->refused++;
			missing++;
			continue;
		}
		missing = 0;
		out->lpars = xreallocarray(out->lpars, out->nlpars + 1,
		    sizeof *out->lpars);
		l = &out->lpars[out->nlpars++];
		memset(l, 0, sizeof *l);
		l->id = (uint16_t)id;
		l->vcpus = (uint16_t)source_perf_lpar_vcpus(sc, l->id,
		    out->nlpars > 1 ? l[-1].vcpus : 0, out);
		/* perf shows no lpar_cfg_instance_id: a result element
		 * carries it, an open does not. */
		l->cfg = 0;
	}
	/*
	 * This partition answers as 0xffff and no id answers, not even its
	 * own: the hypervisor lets it read itself only (unless the ids
	 * that did not answer were busy).
	 */
	if (out->nlpars == 0 && !out->gave_up)
		out->denied = 1;
}

void
source_perf_lpar_found_free(struct perf_lpar_found *f)
{
	free(f->lpars);
	memset(f, 0, sizeof *f);
}

uint16_t
source_perf_lpar_self(const struct source_perf *st)
{
	const char	*p, *key = "partition_id=";
	char		*path, *c = NULL, *text, *end;
	void		*buf;
	size_t		 len;
	unsigned long	 v;
	uint16_t	 id = SEL_LPAR_SELF;

	path = xasprintf("%s/powerpc/lparcfg", st->proc_root);
	if (file_read(path, LPARCFG_MAX, &buf, &len, &c) != 0) {
		free(c);
		free(path);
		return (id);
	}
	free(path);
	text = buf;
	for (p = text; p != NULL && *p != '\0'; p = strchr(p, '\n'),
	    p = p != NULL ? p + 1 : NULL) {
		if (strncmp(p, key, strlen(key)) != 0)
			continue;
		v = strtoul(p + strlen(key), &end, 10);
		if (end != p + strlen(key) && (*end == '\n' ||
		    *end == '\0') && v < SEL_LPAR_SELF)
			id = (uint16_t)v;
		break;
	}
	free(text);
	return (id);
}
