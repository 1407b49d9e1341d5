/*
 * The simulated frame's config: its defaults and the key=value pairs of
 * --sim that change them.  Pure: parsing only; numbers are read by hand,
 * not through the C library's locale-dependent parsers.  Whether the
 * values make one frame together is sim_frame_init()'s to say.
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
sim_config_u64(const char *s, uint64_t *out)
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
sim_config_uint(const char *key, const char *val, uint64_t min, uint64_t max,
    uint64_t *out, char **cause)
{
	uint64_t	 v;

	if (sim_config_u64(val, &v) != 0) {
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
sim_config_dpo(struct sim_config *cfg, const char *val, char **cause)
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
	bad = sim_config_u64(lpar, &l) != 0 || sim_config_u64(at + 1, &s) != 0;
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
		if ((error = sim_config_uint(key, val, min, max, &v, \
		    cause)) != 0) \
			return (error); \
		field = v; \
		return (0); \
	}
	SIM_UINT("sockets", 1, 64, cfg->sockets)
	if (strcmp(key, "chips") == 0) {
		if ((error = sim_config_uint(key, val, 1, 256, &v, cause)) != 0)
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
		if ((error = sim_config_uint(key, val, 1, 60000, &v,
		    cause)) != 0)
			return (error);
		cfg->update_us = (uint32_t)(v * 1000);
		return (0);
	}
	if (strcmp(key, "start") == 0) {
		/* -N is 2^64 - N: a counter that far from wrapping. */
		if ((error = sim_config_uint(key, val + (*val == '-'), 0,
		    UINT64_MAX, &v, cause)) != 0)
			return (error);
		cfg->start = *val == '-' ? 0 - v : v;
		cfg->start_set = 1;
		return (0);
	}
	if (strcmp(key, "dpo") == 0)
		return (sim_config_dpo(cfg, val, cause));
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
