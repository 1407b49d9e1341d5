# src/source: where counters come from, behind one ops table (source.h).
# Core layer: these files make syscalls and read files.
libhvcore_a_SOURCES += \
	src/source/source.c src/source/source.h \
	src/source/source-catalog.c src/source/source-catalog.h

# The simulated frame, spoken to through the hcall buffers.
libhvcore_a_SOURCES += \
	src/source/source-sim.c
