# src/sys: the system, the one folder of helpers that do I/O: whole-file
# reads, maps and atomic writes (file.c), the guard of mapped files
# against SIGBUS (mapguard.c), the clock (clock.c), where the settings
# file lives (settings-file.c) and where catalog files are found
# (catalog-file.c).
libhvcore_a_SOURCES += \
	src/sys/catalog-file.c src/sys/catalog-file.h \
	src/sys/clock.c src/sys/clock.h \
	src/sys/file.c src/sys/file.h \
	src/sys/mapguard.c src/sys/mapguard.h \
	src/sys/settings-file.c src/sys/settings-file.h
