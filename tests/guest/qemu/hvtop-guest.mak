# QEMU's devices for hvtop's virtual LPAR, with configure
# --without-default-devices: the pseries machine and what it selects
# (the VIO bus and its console, spapr-vlan and VSCSI, PCI, XICS and XIVE,
# the NVRAM, VOF), and the partition's random number generator.  No
# other board and no device the partition does not use.
CONFIG_PSERIES=y
CONFIG_SPAPR_RNG=y
# Without these QEMU does not link (spapr.c calls the USB core when a
# display asks for a keyboard; no controller is built) or does not
# start (spapr-nvdimm's parent type is nvdimm).
CONFIG_USB=y
CONFIG_NVDIMM=y
