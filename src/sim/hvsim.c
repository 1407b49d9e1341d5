/*
 * The simulated hypervisor behind one small API (see hvsim.h): the frame
 * from a --sim style spec, the catalog from its image, and the two calls
 * the Linux drivers make before they read any counter (the capability
 * query and the RTAS processor module information).  Pure: no I/O.
 */
#include "config.h"

#include "sim/hvsim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "hcall/hcall.h"
#include "model/frame-ident.h"
#include "sim/sim.h"
#include "util/be.h"
#include "util/hverr.h"
#include "util/xalloc.h"

/* GPCI capability mask bits (the kernel's CV_CM_*). */
#define HVSIM_CM_GA		0x80
#define HVSIM_CM_EXPANDED	0x40
/* detail_rc for a GPCI request this frame does not answer. */
#define HVSIM_GPCI_DRC_REQUEST	0x0c

struct hvsim {
	struct sim_hv	*hv;
	unsigned	 sockets;
	unsigned	 chips_per_socket;
	unsigned	 cores_per_chip;
	char		 model[32];	/* who the frame is, from the spec */
	char		 serial[32];
	char		 name[64];
};

int
hvsim_new(const char *spec, const void *catalog, size_t catalog_len,
    struct hvsim **out, char **cause)
{
	return (hvsim_new_flags(spec, catalog, catalog_len, NULL, 0, out,
	    cause));
}

int
hvsim_new_flags(const char *spec, const void *catalog, size_t catalog_len,
    const char *name, unsigned flags, struct hvsim **out, char **cause)
{
	struct sim_config	 cfg;
	struct catalog		*cat = NULL;
	const struct sim_frame	*fr;
	struct hvsim		*s;
	char			*err = NULL;
	size_t			 i;
	int			 error, iface;

	*out = NULL;
	if (name == NULL)
		name = "catalog";
	sim_config_defaults(&cfg);
	if (spec != NULL && *spec != '\0' &&
	    (error = sim_config_parse(&cfg, spec, cause)) != 0)
		return (error);
	/* Without interface=, the catalog decides, as for hvtop --sim. */
	iface = spec != NULL && strstr(spec, "interface=") != NULL ?
	    cfg.interface : 0;
	if ((error = catalog_parse(catalog, catalog_len, iface, &cat,
	    &err)) != 0) {
		*cause = xasprintf("%s: %s", name, err);
		free(err);
		return (error);
	}
	/* A hypervisor serves what it can trust, or nothing. */
	if (cat->nerrors > 0 && (flags & HVSIM_ANY_CATALOG) == 0) {
		for (i = 0; cat->diags[i].severity != CATALOG_ERROR; i++)
			continue;
		*cause = xasprintf("%s: offset 0x%zx: %s", name,
		    cat->diags[i].offset, cat->diags[i].msg);
		catalog_free(cat);
		return (-HV_EFORMAT);
	}
	cfg.interface = cat->interface;
	s = xcalloc(1, sizeof *s);
	error = sim_hv_new(&cfg, cat, catalog, catalog_len, &s->hv, cause);
	catalog_free(cat);
	if (error != 0) {
		free(s);
		return (error);
	}
	fr = sim_hv_frame(s->hv);
	s->sockets = fr->sockets;
	s->chips_per_socket = fr->chips_per_socket;
	s->cores_per_chip = fr->cores_per_chip;
	memcpy(s->model, cfg.model, sizeof s->model);
	memcpy(s->serial, cfg.serial, sizeof s->serial);
	memcpy(s->name, cfg.name, sizeof s->name);
	*out = s;
	return (0);
}

int
hvsim_spec_check(const char *spec, char **cause)
{
	struct sim_config	 cfg;

	sim_config_defaults(&cfg);
	if (spec == NULL || *spec == '\0')
		return (0);
	return (sim_config_parse(&cfg, spec, cause));
}

int
hvsim_spec_frame_check(const char *spec, char **cause)
{
	struct sim_config	 cfg;
	struct sim_frame	 fr;
	int			 error;

	sim_config_defaults(&cfg);
	if (spec != NULL && *spec != '\0' &&
	    (error = sim_config_parse(&cfg, spec, cause)) != 0)
		return (error);
	return (sim_frame_init(&fr, &cfg, cause));
}

void
hvsim_free(struct hvsim *s)
{
	if (s == NULL)
		return;
	sim_hv_free(s->hv);
	free(s);
}

long
hvsim_catalog_page(struct hvsim *s, uint64_t version, uint64_t page,
    uint8_t *buf, size_t len)
{
	return (sim_hv_catalog_page(s->hv, version, page, buf, len));
}

long
hvsim_data(struct hvsim *s, uint64_t tb, const uint8_t *req, size_t reqlen,
    uint8_t *res, size_t reslen)
{
	return (sim_hv_data(s->hv, tb, req, reqlen, res, reslen));
}

int
hvsim_dpo(struct hvsim *s, uint64_t tb)
{
	return (sim_hv_dpo(s->hv, tb));
}

long
hvsim_perf_counter_info(struct hvsim *s, uint8_t *buf, size_t len)
{
	uint8_t	*caps;

	if (len < HVSIM_GPCI_PARAMS_SIZE)
		return (H_PARAMETER);
	if (be32_get(buf) != HVSIM_GPCI_SYSTEM_CAPABILITIES) {
		be32_put(buf + 0x0c, HVSIM_GPCI_DRC_REQUEST);
		return (H_PARAMETER);
	}
	if (len < HVSIM_GPCI_PARAMS_SIZE + HVSIM_GPCI_CAPS_SIZE)
		return (H_PARAMETER);
	be16_put(buf + 0x0a, 1);			/* returned_values */
	be32_put(buf + 0x0c, 0);			/* detail_rc */
	be16_put(buf + 0x10, HVSIM_GPCI_CAPS_SIZE);	/* cv_element_size */
	buf[0x13] = 1;					/* version_out */
	caps = buf + HVSIM_GPCI_PARAMS_SIZE;
	memset(caps, 0, HVSIM_GPCI_CAPS_SIZE);
	caps[0] = sim_hv_privileged(s->hv) ? 1 : 0;
	caps[1] = HVSIM_CM_GA | HVSIM_CM_EXPANDED;
	return (H_SUCCESS);
}

int
hvsim_module_info(const struct hvsim *s, uint8_t *buf, size_t len)
{
	/* be16 length of what follows, then four be16 values. */
	if (len < 10)
		return (-1);
	be16_put(buf, 8);
	be16_put(buf + 2, 1);		/* one module type */
	be16_put(buf + 4, (uint16_t)s->sockets);
	be16_put(buf + 6, (uint16_t)s->chips_per_socket);
	be16_put(buf + 8, (uint16_t)s->cores_per_chip);
	return (10);
}

uint64_t
hvsim_tb_hz(const struct hvsim *s)
{
	return (sim_hv_frame(s->hv)->tb_hz);
}

unsigned
hvsim_chips(const struct hvsim *s)
{
	return (sim_hv_frame(s->hv)->nchips);
}

unsigned
hvsim_cores(const struct hvsim *s)
{
	return (sim_hv_frame(s->hv)->ncores);
}

uint64_t
hvsim_catalog_version(const struct hvsim *s)
{
	return (sim_hv_catalog_version(s->hv));
}

unsigned
hvsim_smt(const struct hvsim *s)
{
	return (sim_hv_frame(s->hv)->smt);
}

unsigned
hvsim_vcpus(const struct hvsim *s)
{
	return (sim_hv_frame(s->hv)->vcpus);
}

void
hvsim_ident(const struct hvsim *s, struct frame_ident *fi)
{
	const struct sim_frame	*fr = sim_hv_frame(s->hv);

	frame_ident_init(fi);
	snprintf(fi->model, sizeof fi->model, "%s", s->model);
	snprintf(fi->serial, sizeof fi->serial, "%s", s->serial);
	snprintf(fi->name, sizeof fi->name, "%s", s->name);
	snprintf(fi->lpar_name, sizeof fi->lpar_name, "lpar%u", fr->lpar_id);
	fi->lpar_id = (int)fr->lpar_id;
	fi->mode = FRAME_MODE_SHARED;
	fi->entitled = (long)fr->vcpus * 100;
	fi->from = FRAME_FROM_SIM;
}

int
hvsim_interface(const struct hvsim *s)
{
	return (sim_hv_interface(s->hv));
}

int
hvsim_constant(const struct hvsim *s, const char *name, double *value)
{
	const struct sim_frame	*fr = sim_hv_frame(s->hv);

	if (strcmp(name, "PB_Freq") == 0 || strcmp(name, "PB_FREQ") == 0)
		*value = (double)fr->nest_hz;
	else if (strcmp(name, "CPU_Freq") == 0 || strcmp(name, "cpu_hz") == 0)
		*value = (double)fr->core_hz;
	else if (strcmp(name, "XBUS_Freq") == 0)
		*value = SIM_XBUS_HZ;
	else if (strcmp(name, "ABUS_Freq") == 0)
		*value = SIM_ABUS_HZ;
	else if (strcmp(name, "PHB_Freq") == 0)
		*value = SIM_PHB_HZ;
	else
		return (-1);
	return (0);
}

void
hvsim_observe(struct hvsim *s, hvsim_observer *fn, void *arg)
{
	sim_hv_observe(s->hv, fn, arg);
}

uint64_t
hvsim_calls(const struct hvsim *s)
{
	return (sim_hv_calls(s->hv));
}

uint64_t
hvsim_data_calls(const struct hvsim *s)
{
	return (sim_hv_data_calls(s->hv));
}
