# src/sim: a simulated PowerVM frame (topology, seeded workload, faults)
# and its hypervisor's 24x7 hcalls, fed real request buffers.  Pure: time
# and the seed come in from the caller.
libhvpure_a_SOURCES += \
	src/sim/sim.h \
	src/sim/hvsim.h \
	src/sim/hvsim.c \
	src/sim/sim-config.c \
	src/sim/sim-fault.c \
	src/sim/sim-frame.c \
	src/sim/sim-hv.c src/sim/sim-hv-int.h \
	src/sim/sim-hv-space.c \
	src/sim/sim-ident.c \
	src/sim/sim-part.c \
	src/sim/sim-workload.c

check_PROGRAMS += tests/unit/test-sim
tests_unit_test_sim_SOURCES = tests/unit/test-sim.c \
	tests/unit/test-hcall-fixture.c tests/unit/test-hcall-fixture.h \
	tests/unit/harness.h
tests_unit_test_sim_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_sim_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)

# The library API a hypervisor emulator links, against golden buffers.
check_PROGRAMS += tests/unit/test-hvsim
tests_unit_test_hvsim_SOURCES = tests/unit/test-hvsim.c \
	tests/unit/fixture.c tests/unit/fixture.h
tests_unit_test_hvsim_CPPFLAGS = $(AM_CPPFLAGS) \
	-DTOP_SRCDIR='"$(abs_top_srcdir)"' \
	-DTOP_BUILDDIR='"$(abs_top_builddir)"'
tests_unit_test_hvsim_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_hvsim_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)

# The partitions: placement, the four VCPU places, DPO.
check_PROGRAMS += tests/unit/test-sim-part
tests_unit_test_sim_part_SOURCES = tests/unit/test-sim-part.c \
	tests/unit/test-hcall-fixture.c tests/unit/test-hcall-fixture.h
tests_unit_test_sim_part_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_sim_part_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)
