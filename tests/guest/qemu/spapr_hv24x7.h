/*
 * hvtop's simulated PowerVM 24x7 counters for the pseries machine.
 * GPL-2.0-or-later.
 */
#ifndef HW_PPC_SPAPR_HV24X7_H
#define HW_PPC_SPAPR_HV24X7_H

/* Reads HVTOP_HV24X7; does nothing when it is not set. */
void spapr_hv24x7_init(Error **errp);

/* True when opcode is one of the 24x7 calls; r3 is then in *ret. */
bool spapr_hv24x7_hcall(PowerPCCPU *cpu, target_ulong opcode,
                        target_ulong *args, target_ulong *ret);

/* The frame's core clock in Hz for the device tree's clock-frequency,
 * or fallback when no frame is configured (or it does not fit). */
uint32_t spapr_hv24x7_clockfreq(uint32_t fallback);

/* RTAS ibm,get-system-parameter PROCESSOR_MODULE_INFO; returns status. */
target_ulong spapr_hv24x7_module_info(target_ulong buffer,
                                      target_ulong length);

/* The simulated frame's model, serial and partition number in the device
 * tree's root (fdt), replacing QEMU's; nothing when no frame is
 * configured. */
void spapr_hv24x7_dt_root(void *fdt);

#endif
