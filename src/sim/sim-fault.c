/*
 * Faults the simulated hypervisor can be told to show, so every error path
 * of hvtop can be driven on purpose: a busy hypervisor, a partition
 * without the "collect privileged" permission, a catalog version that
 * changes under a running session, and results cut short.  Pure: this
 * file only parses the fault list; the hypervisor rolls its own seeded
 * dice.  Probabilities are read by hand, not through the C library's
 * locale-dependent strtod().
 */
#include "config.h"

#include "sim/sim.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/hverr.h"
#include "util/xalloc.h"

/*
 * A probability: "0.25", ".5", "1", or a percentage "25%".  Returns 0
 * with *out in [0, 1], or -1.
 */
static int
sim_fault_prob(const char *s, size_t len, double *out)
{
	double		 v = 0, scale = 1;
	size_t		 i;
	int		 digits = 0, dot = 0;

	for (i = 0; i < len; i++) {
		if (s[i] >= '0' && s[i] <= '9') {
			if (dot) {
				scale /= 10;
				v += (s[i] - '0') * scale;
			} else if (v < 1e6)
				v = v * 10 + (s[i] - '0');
			digits++;
		} else if (s[i] == '.' && !dot)
			dot = 1;
		else
			break;
	}
	if (digits == 0)
		return (-1);
	if (i < len && s[i] == '%') {
		v /= 100;
		i++;
	}
	if (i != len || v > 1)
		return (-1);
	*out = v;
	return (0);
}

static int
sim_fault_count(const char *s, size_t len, uint64_t *out)
{
	uint64_t	 v = 0;
	size_t		 i;

	if (len == 0)
		return (-1);
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return (-1);
		if (v > (UINT64_MAX - 9) / 10)
			return (-1);
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = v;
	return (0);
}

/* Does [s, s + len) start with word followed by end or by sep? */
static int
sim_fault_word(const char *s, size_t len, const char *word, char sep)
{
	size_t	 n = strlen(word);

	return (len >= n && memcmp(s, word, n) == 0 &&
	    (len == n || s[n] == sep));
}

/*
 * Parse a fault list.  See sim.h.
 */
int
sim_fault_parse(struct sim_faults *f, const char *spec, char **cause)
{
	const char	*p = spec, *end, *arg;
	size_t		 len, alen;
	uint64_t	 n;
	double		 prob;

	for (;;) {
		end = strchr(p, '+');
		len = end != NULL ? (size_t)(end - p) : strlen(p);
		if (len == 0)
			goto bad;
		if (sim_fault_word(p, len, "busy", ':')) {
			if (len == 4)
				goto bad;
			arg = p + 5;
			alen = len - 5;
			if (sim_fault_prob(arg, alen, &prob) != 0)
				goto bad;
			f->busy = prob;
		} else if (len == 6 && memcmp(p, "denied", 6) == 0) {
			f->denied = 1;
		} else if (sim_fault_word(p, len, "version-change", '@')) {
			if (len == 14)
				goto bad;
			arg = p + 15;
			alen = len - 15;
			if (sim_fault_count(arg, alen, &n) != 0 || n == 0)
				goto bad;
			f->version_change_at = n;
		} else if (sim_fault_word(p, len, "from", '@')) {
			if (len == 4)
				goto bad;
			if (sim_fault_count(p + 5, len - 5, &n) != 0 || n == 0)
				goto bad;
			f->from = n;
		} else if (sim_fault_word(p, len, "short-results", ':')) {
			prob = 1;
			if (len > 13 && sim_fault_prob(p + 14, len - 14,
			    &prob) != 0)
				goto bad;
			f->short_results = prob;
		} else
			goto bad;
		if (end == NULL)
			break;
		p = end + 1;
	}
	return (0);

bad:
	*cause = xasprintf("sim fault \"%.*s\" at column %zu of \"%s\": "
	    "expected busy:P, denied, version-change@N (N >= 1), "
	    "short-results or short-results:P (P a probability such as 0.1 "
	    "or 10%%), from@N (N >= 1), joined with '+'", (int)len, p, (size_t)(p - spec) + 1,
	    spec);
	return (-HV_EFORMAT);
}

/*
 * Roll the hypervisor's fault dice: advance the splitmix64 stream in
 * *state and say whether an event of probability p happens.  p 0 never
 * happens and p 1 always does, without consuming the stream differently,
 * so a run's other faults do not shift when one is switched off.
 */
int
sim_fault_roll(uint64_t *state, double p)
{
	uint64_t	 z;
	double		 u;

	*state += 0x9e3779b97f4a7c15ULL;
	z = *state;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	u = (double)(z >> 11) * (1.0 / 9007199254740992.0);
	return (u < p);
}
