/*
 * The simulated PowerVM as a transport: the hcall buffers go to the
 * hypervisor library of sim/hvsim.h, which answers them as PowerVM
 * would.  This file only reads the catalog file the hypervisor serves,
 * passes the frame keys on, and asks the frame what a partition would ask
 * its platform; it decodes no buffer and knows nothing of the frame's
 * insides.
 *
 * Options: the frame keys of hvsim_new() (sockets, cores, smt, seed,
 * faults, ...), catalog=power8|power9|power10|FILE, clock=real|virtual
 * (the program's clock: checked, then left to it), and dpo_file=PATH:
 * the frame's DPO event at the first read after PATH exists, so that a
 * run on the real clock can have it when it is ready for it, not at a
 * second it must guess.
 */
#include "config.h"

#include "source/transport.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/raw.h"
#include "sim/hvsim.h"
#include "sys/catalog-file.h"
#include "util/be.h"
#include "util/hverr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

#define TRANSPORT_SIM_DEFAULT_CATALOG	"power9"

struct transport_sim {
	struct hvsim	*hv;
	char		*dpo_file;	/* dpo_file=: NULL when not given */
	int		 dpo_done;	/* dpo_file was seen */
};

/*
 * Split the options: catalog= and clock= are ours, pmu= and sysfs_root=
 * belong to other sources, the rest are the frame's, checked one by one
 * so the first bad one is the one reported, and joined into *spec.  A
 * key or value that cannot be used is the user's to fix: -HV_EUSAGE.
 */
static int
transport_sim_args(const char *args, struct strbuf *spec, char **catname,
    char **dpo_file, char **cause)
{
	char	*copy, *tok, *save = NULL, *eq;
	int	 error = 0;

	if (args == NULL)
		return (0);
	copy = xstrdup(args);
	for (tok = strtok_r(copy, ",", &save); tok != NULL && error == 0;
	    tok = strtok_r(NULL, ",", &save)) {
		if ((eq = strchr(tok, '=')) == NULL) {
			*cause = xasprintf("--sim %s: expected KEY=VALUE", tok);
			error = -HV_EUSAGE;
		} else if (strncmp(tok, "catalog=", 8) == 0) {
			free(*catname);
			*catname = xstrdup(eq + 1);
		} else if (strncmp(tok, "dpo_file=", 9) == 0) {
			free(*dpo_file);
			*dpo_file = xstrdup(eq + 1);
			if (**dpo_file == '\0') {
				*cause = xstrdup("--sim dpo_file=: expected a "
				    "path");
				error = -HV_EUSAGE;
			}
		} else if (strncmp(tok, "clock=", 6) == 0) {
			if (strcmp(eq + 1, "real") != 0 &&
			    strcmp(eq + 1, "virtual") != 0) {
				*cause = xasprintf("--sim clock=%s: use real "
				    "or virtual", eq + 1);
				error = -HV_EUSAGE;
			}
		} else if (strncmp(tok, "pmu=", 4) == 0 ||
		    strncmp(tok, "sysfs_root=", 11) == 0)
			continue;
		else if ((error = hvsim_spec_check(tok, cause)) == 0)
			strbuf_addf(spec, "%s%s", spec->len ? "," : "", tok);
		else if (error == -HV_ENOENT) {
			/* The frame's keys, and the two that are ours. */
			free(*cause);
			*eq = '\0';
			*cause = xasprintf("--sim %s: unknown key (%s, catalog, "
			    "clock, dpo_file)", tok, HVSIM_SPEC_KEYS);
		}
	}
	free(copy);
	/* Keys that are each fine but make no frame together. */
	if (error == 0)
		error = hvsim_spec_frame_check(spec->s, cause);
	return (error != 0 ? -HV_EUSAGE : 0);
}

static int
transport_sim_open(const char *args, void **ctx, char **label, char **cause)
{
	struct transport_sim	*t;
	struct strbuf		 spec = { 0 };
	char			*catname;
	void			*img = NULL;
	uint8_t			 mod[10];
	size_t			 len;
	unsigned		 chips;
	int			 error;

	catname = xstrdup(TRANSPORT_SIM_DEFAULT_CATALOG);
	t = xcalloc(1, sizeof *t);
	if ((error = transport_sim_args(args, &spec, &catname, &t->dpo_file,
	    cause)) != 0 ||
	    (error = catalog_file_read(catname, &img, &len, cause)) != 0)
		goto fail;
	/* hvtop shows a catalog's problems itself: serve it as it is. */
	error = hvsim_new_flags(spec.s, img, len, catname, HVSIM_ANY_CATALOG,
	    &t->hv, cause);
	free(img);
	if (error != 0)
		goto fail;
	if (t->dpo_file != NULL && hvsim_dpo(t->hv, UINT64_MAX) != 0) {
		*cause = xstrdup("--sim dpo_file=: this frame has no DPO event "
		    "(dpo=none, no such partition, or steady=1 without dpo=)");
		error = -HV_EUSAGE;
		goto fail;
	}
	/* Cores per chip, as RTAS tells a partition. */
	if (hvsim_module_info(t->hv, mod, sizeof mod) != (int)sizeof mod) {
		*cause = xstrdup("sim: no processor module information");
		error = -HV_EFORMAT;
		goto fail;
	}
	chips = hvsim_chips(t->hv);
	*label = xasprintf("SIMULATED frame: %u chip%s x %u cores, SMT%u, "
	    "%s catalog", chips, chips == 1 ? "" : "s",
	    be16_get(mod + 8), hvsim_smt(t->hv), catname);
	*ctx = t;
	strbuf_free(&spec);
	free(catname);
	return (0);
fail:
	hvsim_free(t->hv);
	free(t->dpo_file);
	free(t);
	strbuf_free(&spec);
	free(catname);
	return (error);
}

static long
transport_sim_catalog_page(void *ctx, uint64_t version, uint64_t page,
    uint8_t *buf, size_t len)
{
	struct transport_sim	*t = ctx;

	return (hvsim_catalog_page(t->hv, version, page, buf, len));
}

static long
transport_sim_data(void *ctx, uint64_t tb, const uint8_t *req, size_t reqlen,
    uint8_t *res, size_t reslen)
{
	struct transport_sim	*t = ctx;

	/* The DPO event when its file appears, once (hvtop(1), --sim). */
	if (t->dpo_file != NULL && !t->dpo_done &&
	    access(t->dpo_file, F_OK) == 0) {
		t->dpo_done = 1;
		(void)hvsim_dpo(t->hv, tb);
	}
	return (hvsim_data(t->hv, tb, req, reqlen, res, reslen));
}

/*
 * What a partition learns at boot: sockets from the RTAS processor module
 * information, "collect privileged" from the GPCI system capabilities,
 * the rest as the device tree would tell it.
 */
static int
transport_sim_topology(void *ctx, struct topology *topo, char **cause)
{
	struct transport_sim	*t = ctx;
	uint8_t			 mod[10];
	uint8_t			 gpci[HVSIM_GPCI_PARAMS_SIZE +
				    HVSIM_GPCI_CAPS_SIZE];

	memset(gpci, 0, sizeof gpci);
	be32_put(gpci, HVSIM_GPCI_SYSTEM_CAPABILITIES);
	if (hvsim_module_info(t->hv, mod, sizeof mod) != (int)sizeof mod ||
	    hvsim_perf_counter_info(t->hv, gpci, sizeof gpci) != 0) {
		*cause = xstrdup("sim: the frame does not describe itself");
		return (-HV_EFORMAT);
	}
	memset(topo, 0, sizeof *topo);
	topo->sockets = be16_get(mod + 4);
	topo->chips = hvsim_chips(t->hv);
	topo->cores = hvsim_cores(t->hv);
	topo->smt = hvsim_smt(t->hv);
	topo->vcpus = hvsim_vcpus(t->hv);
	topo->interface = hvsim_interface(t->hv);
	topo->privileged = gpci[HVSIM_GPCI_PARAMS_SIZE] != 0;
	topo->timebase_hz = hvsim_tb_hz(t->hv);
	hvsim_ident(t->hv, &topo->ident);
	return (0);
}

static int
transport_sim_constant(void *ctx, const char *name, double *v)
{
	struct transport_sim	*t = ctx;

	return (hvsim_constant(t->hv, name, v) == 0 ? 0 : -HV_ENOENT);
}

static void
transport_sim_close(void *ctx)
{
	struct transport_sim	*t = ctx;

	if (t == NULL)
		return;
	hvsim_free(t->hv);
	free(t->dpo_file);
	free(t);
}

/*
 * The simulated hypervisor's busy answers are rolls of its seed, not a
 * queue that drains with time: asking again at once is as good as later,
 * and a run on the virtual clock stays as fast as it is.
 */
static void
transport_sim_pause(void *ctx, uint64_t ns)
{
	(void)ctx;
	(void)ns;
}

const struct transport_ops transport_sim_ops = {
	.name = "sim",
	.open = transport_sim_open,
	.catalog_page = transport_sim_catalog_page,
	.data = transport_sim_data,
	.topology = transport_sim_topology,
	.constant = transport_sim_constant,
	.pause = transport_sim_pause,
	.close = transport_sim_close,
};
