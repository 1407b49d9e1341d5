# src/export: batch output of engine snapshots (text, CSV, JSON lines).
libhvcore_a_SOURCES += \
	src/export/export.c src/export/export.h
