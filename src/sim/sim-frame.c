/*
 * The simulated frame's shape: sockets, chips, cores, SMT threads,
 * partitions and clocks, from a config of key=value pairs.  Pure: parsing
 * and arithmetic only; numbers are read by hand, not through the C
 * library's locale-dependent parsers.
 */
#include "config.h"

#include "sim/sim.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/hvsim.h"
#include "util/hverr.h"
#include "util/xalloc.h"

void
sim_config_defaults(struct sim_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->sockets = 2;
	cfg->chips_per_socket = 2;
	cfg->cores_per_chip = 6;
	cfg->smt = 8;
	cfg->lpars = 4;
	cfg->lpar_id = 1;
	cfg->vcpus = 16;
	cfg->dpo = 1;
	cfg->dpo_lpar = 3;
	cfg->dpo_s = 30;
	cfg->seed = 1;
	cfg->tb_hz = 512000000;
	cfg->core_hz = 3800000000ULL;
	cfg->nest_hz = 2000000000ULL;
	cfg->update_us = 10000;
	cfg->uptime_ms = 60000;
	cfg->interface = 2;
	cfg->cec_cfg = 0x5eed0001;
	sim_ident_defaults(cfg);
}

/* A decimal unsigned integer that fits 64 bits, or 0x-prefixed hex. */
static int
sim_frame_u64(const char *s, uint64_t *out)
{
	uint64_t	 v = 0;
	unsigned	 base = 10, d;
	const char	*p = s;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	if (*p == '\0')
		return (-1);
	for (; *p != '\0'; p++) {
		if (*p >= '0' && *p <= '9')
			d = (unsigned)(*p - '0');
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			d = (unsigned)(*p - 'a' + 10);
		else if (base == 16 && *p >= 'A' && *p <= 'F')
			d = (unsigned)(*p - 'A' + 10);
		else
			return (-1);
		if (v > (UINT64_MAX - d) / base)
			return (-1);
		v = v * base + d;
	}
	*out = v;
	return (0);
}

static int
sim_frame_uint(const char *key, const char *val, uint64_t min, uint64_t max,
    uint64_t *out, char **cause)
{
	uint64_t	 v;

	if (sim_frame_u64(val, &v) != 0) {
		*cause = xasprintf("sim %s=%s: not a number", key, val);
		return (-HV_EFORMAT);
	}
	if (v < min || v > max) {
		*cause = xasprintf("sim %s=%s: must be %llu to %llu", key, val,
		    (unsigned long long)min, (unsigned long long)max);
		return (-HV_ERANGE);
	}
	*out = v;
	return (0);
}

/* dpo=LPAR@SECONDS, or dpo=none. */
static int
sim_frame_dpo(struct sim_config *cfg, const char *val, char **cause)
{
	const char	*at;
	char		*lpar;
	uint64_t	 l, s;
	int		 bad;

	cfg->dpo_set = 1;
	if (strcmp(val, "none") == 0) {
		cfg->dpo = 0;
		return (0);
	}
	if ((at = strchr(val, '@')) == NULL) {
		*cause = xasprintf("sim dpo=%s: expected LPAR@SECONDS or none",
		    val);
		return (-HV_EFORMAT);
	}
	lpar = xstrndup(val, (size_t)(at - val));
	bad = sim_frame_u64(lpar, &l) != 0 || sim_frame_u64(at + 1, &s) != 0;
	free(lpar);
	if (bad) {
		*cause = xasprintf("sim dpo=%s: expected LPAR@SECONDS or none",
		    val);
		return (-HV_EFORMAT);
	}
	if (l > 999 || s > 1000000000) {
		*cause = xasprintf("sim dpo=%s: LPAR must be 0 to 999, "
		    "SECONDS 0 to 1000000000", val);
		return (-HV_ERANGE);
	}
	cfg->dpo = 1;
	cfg->dpo_lpar = (unsigned)l;
	cfg->dpo_s = s;
	return (0);
}

int
sim_config_set(struct sim_config *cfg, const char *key, const char *val,
    char **cause)
{
	uint64_t	 v;
	int		 error;

#define SIM_UINT(name, min, max, field) \
	if (strcmp(key, name) == 0) { \
		if ((error = sim_frame_uint(key, val, min, max, &v, \
		    cause)) != 0) \
			return (error); \
		field = v; \
		return (0); \
	}
	SIM_UINT("sockets", 1, 64, cfg->sockets)
	if (strcmp(key, "chips") == 0) {
		if ((error = sim_frame_uint(key, val, 1, 256, &v, cause)) != 0)
			return (error);
		cfg->sockets = (unsigned)v;
		cfg->chips_per_socket = 1;
		return (0);
	}
	SIM_UINT("chips_per_socket", 1, 8, cfg->chips_per_socket)
	SIM_UINT("nodes", 1, 64, cfg->nodes)
	SIM_UINT("cores", 1, 64, cfg->cores_per_chip)
	SIM_UINT("smt", 1, 8, cfg->smt)
	SIM_UINT("lpars", 1, 1000, cfg->lpars)
	SIM_UINT("lpar", 0, 999, cfg->lpar_id)
	SIM_UINT("vcpus", 1, 4096, cfg->vcpus)
	SIM_UINT("seed", 0, UINT64_MAX, cfg->seed)
	SIM_UINT("tb_hz", 1000, 10000000000ULL, cfg->tb_hz)
	SIM_UINT("core_hz", 1000000, 100000000000ULL, cfg->core_hz)
	SIM_UINT("nest_hz", 1000000, 100000000000ULL, cfg->nest_hz)
	SIM_UINT("update_us", 1, 60000000, cfg->update_us)
	SIM_UINT("uptime_ms", 0, 1000000000, cfg->uptime_ms)
	SIM_UINT("interface", 1, 2, cfg->interface)
	SIM_UINT("cec", 0, UINT64_MAX, cfg->cec_cfg)
	SIM_UINT("steady", 0, 1, cfg->steady)
#undef SIM_UINT
	if (strcmp(key, "update_ms") == 0) {
		if ((error = sim_frame_uint(key, val, 1, 60000, &v,
		    cause)) != 0)
			return (error);
		cfg->update_us = (uint32_t)(v * 1000);
		return (0);
	}
	if (strcmp(key, "start") == 0) {
		/* -N is 2^64 - N: a counter that far from wrapping. */
		if ((error = sim_frame_uint(key, val + (*val == '-'), 0,
		    UINT64_MAX, &v, cause)) != 0)
			return (error);
		cfg->start = *val == '-' ? 0 - v : v;
		cfg->start_set = 1;
		return (0);
	}
	if (strcmp(key, "dpo") == 0)
		return (sim_frame_dpo(cfg, val, cause));
	if (strcmp(key, "faults") == 0)
		return (sim_fault_parse(&cfg->faults, val, cause));
	if ((error = sim_ident_set(cfg, key, val, cause)) != -HV_ENOENT)
		return (error);
	*cause = xasprintf("sim %s: unknown key (%s)", key, HVSIM_SPEC_KEYS);
	return (-HV_ENOENT);
}

int
sim_config_parse(struct sim_config *cfg, const char *spec, char **cause)
{
	char	*copy, *p, *item, *eq;
	int	 error = 0;

	copy = xstrdup(spec);
	for (p = copy; p != NULL && error == 0; ) {
		item = p;
		if ((p = strchr(p, ',')) != NULL)
			*p++ = '\0';
		if (*item == '\0')
			continue;
		if ((eq = strchr(item, '=')) == NULL) {
			*cause = xasprintf("sim option \"%s\": expected "
			    "KEY=VALUE", item);
			error = -HV_EFORMAT;
			break;
		}
		*eq = '\0';
		error = sim_config_set(cfg, item, eq + 1, cause);
	}
	free(copy);
	return (error);
}

/* The partitions: their count, size and the DPO event's partition. */
static int
sim_frame_lpars(struct sim_frame *f, const struct sim_config *cfg,
    char **cause)
{
	if (cfg->lpars == 0 || cfg->lpar_id >= cfg->lpars) {
		/* Either key may be a default the user never typed. */
		*cause = xasprintf("sim lpars=%u leaves no partition lpar=%u "
		    "for hvtop to run in: give an lpar below %u (the defaults "
		    "are lpars=4, lpar=1)", cfg->lpars, cfg->lpar_id,
		    cfg->lpars);
		return (-HV_ERANGE);
	}
	if (cfg->lpars > 0xffff || cfg->vcpus == 0 || cfg->vcpus > 0xffff) {
		*cause = xasprintf("sim: %u partitions of %u vcpus: out of "
		    "range", cfg->lpars, cfg->vcpus);
		return (-HV_ERANGE);
	}
	if ((uint64_t)cfg->lpars * cfg->vcpus > SIM_MAX_VCPUS_TOTAL) {
		*cause = xasprintf("sim lpars=%u,vcpus=%u: %llu virtual "
		    "processors, more than the %u a simulated frame holds",
		    cfg->lpars, cfg->vcpus,
		    (unsigned long long)cfg->lpars * cfg->vcpus,
		    SIM_MAX_VCPUS_TOTAL);
		return (-HV_ERANGE);
	}
	f->lpars = cfg->lpars;
	f->lpar_id = cfg->lpar_id;
	f->vcpus = cfg->vcpus;
	/* The default event names partition 3, which a frame may lack. */
	if (cfg->dpo && cfg->dpo_set && cfg->dpo_lpar >= cfg->lpars) {
		*cause = xasprintf("sim dpo=%u@%llu: no partition %u (lpars=%u)",
		    cfg->dpo_lpar, (unsigned long long)cfg->dpo_s,
		    cfg->dpo_lpar, cfg->lpars);
		return (-HV_ERANGE);
	}
	/* A steady frame keeps its rates unless a DPO is asked for. */
	f->dpo = cfg->dpo && cfg->dpo_lpar < cfg->lpars &&
	    (!cfg->steady || cfg->dpo_set);
	f->dpo_lpar = cfg->dpo_lpar;
	return (0);
}

/* The interface version, and the clocks in timebase ticks. */
static int
sim_frame_clocks(struct sim_frame *f, const struct sim_config *cfg,
    char **cause)
{
	uint64_t	 upd;

	if (cfg->interface != 1 && cfg->interface != 2) {
		*cause = xasprintf("sim interface=%d: must be 1 or 2",
		    cfg->interface);
		return (-HV_ERANGE);
	}
	if (cfg->tb_hz == 0 || cfg->core_hz == 0 || cfg->nest_hz == 0 ||
	    cfg->update_us == 0) {
		*cause = xstrdup("sim: clocks and update period must not be "
		    "0");
		return (-HV_ERANGE);
	}
	f->tb_hz = cfg->tb_hz;
	f->core_hz = cfg->core_hz;
	f->nest_hz = cfg->nest_hz;
	upd = cfg->tb_hz / 1000000 * cfg->update_us +
	    cfg->tb_hz % 1000000 * cfg->update_us / 1000000;
	f->update_tb = upd == 0 ? 1 : upd;
	f->uptime_tb = cfg->tb_hz / 1000 * cfg->uptime_ms +
	    cfg->tb_hz % 1000 * cfg->uptime_ms / 1000;
	f->dpo_tb = f->uptime_tb + cfg->dpo_s * cfg->tb_hz;
	return (0);
}

int
sim_frame_init(struct sim_frame *f, const struct sim_config *cfg,
    char **cause)
{
	int	 error;

	memset(f, 0, sizeof *f);
	if (cfg->sockets == 0 || cfg->chips_per_socket == 0 ||
	    cfg->cores_per_chip == 0) {
		*cause = xstrdup("sim: a frame needs at least one socket, chip "
		    "and core");
		return (-HV_ERANGE);
	}
	if (cfg->smt != 1 && cfg->smt != 2 && cfg->smt != 4 && cfg->smt != 8) {
		*cause = xasprintf("sim smt=%u: must be 1, 2, 4 or 8",
		    cfg->smt);
		return (-HV_ERANGE);
	}
	f->sockets = cfg->sockets;
	f->chips_per_socket = cfg->chips_per_socket;
	f->cores_per_chip = cfg->cores_per_chip;
	f->nchips = cfg->sockets * cfg->chips_per_socket;
	f->ncores = f->nchips * cfg->cores_per_chip;
	if (f->nchips > 0x10000 || f->ncores > 0x10000) {
		*cause = xasprintf("sim: %u chips, %u cores: indexes are 16 "
		    "bits", f->nchips, f->ncores);
		return (-HV_ERANGE);
	}
	/* By default two drawers, so that partitions can be remote. */
	f->nodes = cfg->nodes != 0 ? cfg->nodes : cfg->sockets % 2 == 0 ? 2 :
	    1;
	if (f->nodes > cfg->sockets || cfg->sockets % f->nodes != 0) {
		*cause = xasprintf("sim nodes=%u: must divide sockets=%u",
		    f->nodes, cfg->sockets);
		return (-HV_ERANGE);
	}
	f->chips_per_node = f->nchips / f->nodes;
	f->smt = cfg->smt;
	/* An SMT8 core is two SMT4 thread groups (interface v2). */
	f->thread_groups = cfg->smt == 8 ? 2 : 1;
	if ((error = sim_frame_lpars(f, cfg, cause)) != 0)
		return (error);
	return (sim_frame_clocks(f, cfg, cause));
}

void
sim_frame_topology(const struct sim_frame *f, struct hcall_topology *t)
{
	unsigned	 d;

	memset(t, 0, sizeof *t);
	t->count[HCALL_DOMAIN_CHIP] = f->nchips;
	t->count[HCALL_DOMAIN_CORE] = f->ncores;
	for (d = HCALL_DOMAIN_VCPU_HOME_CORE; d < HCALL_DOMAIN_MAX; d++)
		t->count[d] = f->vcpus;
	t->thread_groups = f->thread_groups;
}

unsigned
sim_frame_core_chip(const struct sim_frame *f, unsigned core)
{
	return (core / f->cores_per_chip);
}

unsigned
sim_frame_core_node(const struct sim_frame *f, unsigned core)
{
	return (sim_frame_core_chip(f, core) / f->chips_per_node);
}

/*
 * A partition's entitled capacity: a share of its vcpus that depends on
 * its number, in sixteenths (a small, a middle-sized, a large and a small
 * partition in turn).  The default frame's 24 cores hold its four
 * partitions' 22 units with two cores' worth left in the pool.
 */
static double
sim_frame_entitled(const struct sim_frame *f, unsigned lpar)
{
	static const unsigned	 sixteenths[] = { 2, 4, 13, 3 };

	return ((double)f->vcpus * sixteenths[lpar % 4] / 16);
}

static unsigned
sim_frame_span(const struct sim_frame *f, unsigned first, unsigned n)
{
	unsigned	 last = (first + n - 1) % f->ncores;

	first %= f->ncores;
	if (n > f->ncores - first) {
		/* Round the end of the frame: through every chip between. */
		return (f->nchips == 1 ? SIM_SPAN_CHIP : f->nodes == 1 ?
		    SIM_SPAN_NODE : SIM_SPAN_FRAME);
	}
	if (sim_frame_core_chip(f, first) == sim_frame_core_chip(f, last))
		return (SIM_SPAN_CHIP);
	if (sim_frame_core_node(f, first) == sim_frame_core_node(f, last))
		return (SIM_SPAN_NODE);
	return (SIM_SPAN_FRAME);
}

void
sim_frame_place(const struct sim_frame *f, unsigned lpar,
    struct sim_place *p)
{
	uint64_t	 at = 0, n = 1, off, chip_left, node_left;
	unsigned	 cpc = f->cores_per_chip;
	unsigned	 cpn = cpc * f->chips_per_node;
	unsigned	 q;
	double		 e = 0;

	for (q = 0; q <= lpar; q++) {
		if (q > 0)
			at += n;
		e = sim_frame_entitled(f, q);
		n = (uint64_t)e + ((double)(uint64_t)e < e);
		if (n == 0)
			n = 1;
		if (n > f->ncores)
			n = f->ncores;
		off = at % f->ncores;
		chip_left = cpc - off % cpc;
		node_left = cpn - off % cpn;
		if (n > chip_left && n <= cpc)
			at += chip_left;
		else if (n > node_left && n <= cpn)
			at += node_left;
	}
	p->entitled = e;
	p->first = (unsigned)(at % f->ncores);
	p->ncores = (unsigned)n;
	p->span = sim_frame_span(f, p->first, p->ncores);
	p->crowded = at + n > f->ncores;
}

/* A partition's vcpus take its home cores in turn. */
unsigned
sim_frame_vcpu_core(const struct sim_frame *f, unsigned lpar, unsigned vcpu)
{
	struct sim_place	 p;

	sim_frame_place(f, lpar, &p);
	return ((p.first + vcpu % p.ncores) % f->ncores);
}
