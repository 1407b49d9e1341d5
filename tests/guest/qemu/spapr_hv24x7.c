/*
 * hvtop's simulated PowerVM 24x7 counters for the pseries machine.
 *
 * Answers the hypervisor calls the Linux hv_24x7 and hv_gpci drivers make
 * (H_GET_PERF_COUNTER_INFO, H_GET_24X7_CATALOG_PAGE, H_GET_24X7_DATA) and
 * the RTAS system parameter PROCESSOR_MODULE_INFO, from the simulated
 * hypervisor in hvtop's libhvpure (hvsim.h).  This file only moves bytes
 * between guest memory and that library.
 *
 * The frame comes from the environment, in the KEY=VAL form of hvtop's
 * --sim, plus catalog=FILE or a shipped catalog's name:
 *
 *   HVTOP_HV24X7="catalog=power9,sockets=2,chips_per_socket=2,cores=6"
 *   HVTOP_CATALOG_DIR=DIR   where catalog=NAME finds NAME.bin
 *
 * truth=FILE among the keys writes the hypervisor's account of every
 * H_GET_24X7_DATA call to FILE (the truth log; the format is in hvtop's
 * docs/PERFORMANCE.md): a line per counter word returned, then a line
 * per call.
 *
 * The device tree's root names the simulated frame and partition the
 * way PowerVM does, for the kernel's /proc/powerpc/lparcfg: "model" is
 * "IBM," and the frame's model= (system_type), "system-id" is "IBM,",
 * a plant code "02" before a 7-character serial=, and the serial
 * (serial_number), "ibm,partition-no" the partition's lpar= number
 * (partition_id).  QEMU's -name stays "ibm,partition-name".
 *
 * Without HVTOP_HV24X7 the machine behaves as before: the calls return
 * H_FUNCTION, the system parameter is not supported and the root has
 * QEMU's own model and system-id.
 *
 * Copyright (C) 2026 the hvtop authors.  GPL-2.0-or-later, as QEMU.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qemu/error-report.h"
#include "exec/address-spaces.h"
#include "exec/memory.h"
#include "cpu.h"
#include "hw/ppc/fdt.h"
#include "hw/ppc/spapr.h"
#include "spapr_hv24x7.h"

#include <libfdt.h>

#include "hvsim.h"
#include "frame-ident.h"

#define HV24X7_BUF_MAX  4096            /* every buffer is at most a page */

static struct hvsim *hv24x7;
static uint64_t hv24x7_data_calls_before;
static bool hv24x7_trace;
static FILE *hv24x7_truth;

static bool guest_read(hwaddr addr, void *buf, hwaddr len)
{
    return address_space_read(&address_space_memory, addr,
                              MEMTXATTRS_UNSPECIFIED, buf, len) == MEMTX_OK;
}

static bool guest_write(hwaddr addr, const void *buf, hwaddr len)
{
    return address_space_write(&address_space_memory, addr,
                               MEMTXATTRS_UNSPECIFIED, buf, len) == MEMTX_OK;
}

/* r4 = a 4 KiB aligned page, r5 = catalog version, r6 = page number. */
static target_ulong hv24x7_catalog_page(target_ulong *args)
{
    uint8_t page[HV24X7_BUF_MAX];
    hwaddr addr = args[0];
    long rc;

    if (addr & (HV24X7_BUF_MAX - 1)) {
        return H_PARAMETER;
    }
    memset(page, 0, sizeof(page));
    rc = hvsim_catalog_page(hv24x7, args[1], args[2], page, sizeof(page));
    if (rc == H_SUCCESS && !guest_write(addr, page, sizeof(page))) {
        return H_PARAMETER;
    }
    return rc;
}

/* r4, r5 = request buffer and its size; r6, r7 = result buffer, size. */
static target_ulong hv24x7_data(PowerPCCPU *cpu, target_ulong *args)
{
    uint8_t req[HV24X7_BUF_MAX], res[HV24X7_BUF_MAX];
    hwaddr reqaddr = args[0], resaddr = args[2];
    target_ulong reqlen = args[1], reslen = args[3];
    uint64_t tb;
    long rc;

    if (reqlen > HV24X7_BUF_MAX || reslen > HV24X7_BUF_MAX) {
        return H_PARAMETER;
    }
    if (!guest_read(reqaddr, req, reqlen) ||
        !guest_read(resaddr, res, reslen)) {
        return H_PARAMETER;
    }
    tb = cpu_ppc_load_tbl(&cpu->env);
    rc = hvsim_data(hv24x7, tb, req, reqlen, res, reslen);
    if (!guest_write(resaddr, res, reslen)) {
        return H_PARAMETER;
    }
    if (hv24x7_trace) {
        fprintf(stderr, "hv24x7: H_GET_24X7_DATA %" PRIu64 " rc=%ld\n",
                hvsim_data_calls(hv24x7), rc);
    }
    return rc;
}

/* r4 = the parameter block (header and data area), r5 = its size. */
static target_ulong hv24x7_perf_counter_info(target_ulong *args)
{
    uint8_t buf[HV24X7_BUF_MAX];
    hwaddr addr = args[0];
    target_ulong len = args[1];
    long rc;

    if (len > HV24X7_BUF_MAX || !guest_read(addr, buf, len)) {
        return H_PARAMETER;
    }
    rc = hvsim_perf_counter_info(hv24x7, buf, len);
    if (!guest_write(addr, buf, len)) {
        return H_PARAMETER;
    }
    return rc;
}

bool spapr_hv24x7_hcall(PowerPCCPU *cpu, target_ulong opcode,
                        target_ulong *args, target_ulong *ret)
{
    if (hv24x7 == NULL) {
        return false;
    }
    switch (opcode) {
    case HVSIM_OPCODE_CATALOG_PAGE:
        *ret = hv24x7_catalog_page(args);
        return true;
    case HVSIM_OPCODE_DATA:
        *ret = hv24x7_data(cpu, args);
        return true;
    case HVSIM_OPCODE_PERF_COUNTER_INFO:
        *ret = hv24x7_perf_counter_info(args);
        return true;
    }
    return false;
}

target_ulong spapr_hv24x7_module_info(target_ulong buffer,
                                      target_ulong length)
{
    uint8_t buf[64];
    int n;

    if (hv24x7 == NULL) {
        return RTAS_OUT_NOT_SUPPORTED;
    }
    n = hvsim_module_info(hv24x7, buf, MIN(length, sizeof(buf)));
    if (n < 0) {
        return RTAS_OUT_SYSPARM_PARAM_ERROR;
    }
    cpu_physical_memory_write(ppc64_phys_to_real(buffer), buf, n);
    return RTAS_OUT_SUCCESS;
}

/* One line of the truth log per value returned, then one per call. */
static void hv24x7_observe(void *arg, const struct hvsim_obs *o)
{
    FILE *f = arg;

    if (o->kind == HVSIM_OBS_VALUE) {
        fprintf(f, "V %" PRIu64 " %" PRIu64 " %u %u %u %u 0x%" PRIx32
                " %" PRIu64 " %" PRIu64 " %" PRIu64 "\n", o->call, o->tb,
                o->domain, o->lpar, o->index, o->tg, o->offset, o->value,
                o->update_tb, o->updates);
        return;
    }
    fprintf(f, "C %" PRIu64 " %" PRIu64 " %ld 0x%04" PRIx32 " %" PRIu64
            " %" PRIu64 "\n", o->call, o->tb, o->rc, o->drc, o->version,
            o->nvalues);
    fflush(f);
}

static void hv24x7_report(void)
{
    if (hv24x7 != NULL) {
        fprintf(stderr, "hv24x7: served %" PRIu64 " H_GET_24X7_DATA calls, "
                "%" PRIu64 " calls in all\n",
                hvsim_data_calls(hv24x7) - hv24x7_data_calls_before,
                hvsim_calls(hv24x7));
    }
}

/* catalog=NAME is DIR/NAME.bin; a value with a slash is a file. */
static char *hv24x7_catalog_path(const char *value)
{
    const char *dir = getenv("HVTOP_CATALOG_DIR");

    if (strchr(value, '/') != NULL || dir == NULL) {
        return g_strdup(value);
    }
    return g_strdup_printf("%s/%s.bin", dir, value);
}

void spapr_hv24x7_init(Error **errp)
{
    const char *env = getenv("HVTOP_HV24X7");
    g_auto(GStrv) keys = NULL;
    g_autoptr(GString) spec = g_string_new("");
    g_autofree char *catalog = NULL, *path = NULL, *cause = NULL;
    g_autofree char *truth = NULL;
    g_autoptr(GError) gerr = NULL;
    gsize len;
    int i;

    if (env == NULL || hv24x7 != NULL) {
        return;
    }
    hv24x7_trace = getenv("HVTOP_HV24X7_TRACE") != NULL;
    keys = g_strsplit(env, ",", -1);
    for (i = 0; keys[i] != NULL; i++) {
        if (g_str_has_prefix(keys[i], "catalog=")) {
            g_free(path);
            path = hv24x7_catalog_path(keys[i] + strlen("catalog="));
        } else if (g_str_has_prefix(keys[i], "truth=")) {
            g_free(truth);
            truth = g_strdup(keys[i] + strlen("truth="));
        } else if (keys[i][0] != '\0') {
            g_string_append_printf(spec, "%s%s", spec->len ? "," : "",
                                   keys[i]);
        }
    }
    if (path == NULL) {
        path = hv24x7_catalog_path("power9");
    }
    if (!g_file_get_contents(path, &catalog, &len, &gerr)) {
        error_setg(errp, "HVTOP_HV24X7: catalog: %s", gerr->message);
        return;
    }
    if (hvsim_new(spec->str, catalog, len, &hv24x7, &cause) != 0) {
        error_setg(errp, "HVTOP_HV24X7: %s", cause);
        free(cause);
        cause = NULL;
        return;
    }
    if (truth != NULL) {
        hv24x7_truth = fopen(truth, "w");
        if (hv24x7_truth == NULL) {
            error_setg_errno(errp, errno, "HVTOP_HV24X7: truth=%s", truth);
            hvsim_free(hv24x7);
            hv24x7 = NULL;
            return;
        }
        fprintf(hv24x7_truth, "# hv24x7 truth 1 tb_hz %" PRIu64
                " chips %u cores %u catalog_version %" PRIu64 "\n",
                hvsim_tb_hz(hv24x7), hvsim_chips(hv24x7),
                hvsim_cores(hv24x7), hvsim_catalog_version(hv24x7));
        fflush(hv24x7_truth);
        hvsim_observe(hv24x7, hv24x7_observe, hv24x7_truth);
    }
    hv24x7_data_calls_before = hvsim_data_calls(hv24x7);
    atexit(hv24x7_report);
}

uint32_t spapr_hv24x7_clockfreq(uint32_t fallback)
{
    double hz;

    if (hv24x7 == NULL || hvsim_constant(hv24x7, "CPU_Freq", &hz) != 0 ||
        hz < 1 || hz > UINT32_MAX) {
        return fallback;
    }
    return (uint32_t)hz;
}

void spapr_hv24x7_dt_root(void *fdt)
{
    struct frame_ident fi;
    g_autofree char *model = NULL;
    g_autofree char *system_id = NULL;

    if (hv24x7 == NULL) {
        return;
    }
    hvsim_ident(hv24x7, &fi);
    model = g_strdup_printf("IBM,%s", fi.model);
    /* PowerVM's serial number is a plant code and 7 characters. */
    system_id = g_strdup_printf("IBM,%s%s", strlen(fi.serial) == 7 ?
                                "02" : "", fi.serial);
    _FDT(fdt_setprop_string(fdt, 0, "model", model));
    _FDT(fdt_setprop_string(fdt, 0, "system-id", system_id));
    if (fi.lpar_id >= 0) {
        _FDT(fdt_setprop_cell(fdt, 0, "ibm,partition-no", fi.lpar_id));
    }
}
