# src/catalog: the 24x7 catalog model.  Parsing, indexing and writing are
# pure; the JSON form (jansson) lives in the core library.
libhvpure_a_SOURCES += \
	src/catalog/catalog.h

# Parsing, names, sysfs strings and the lookup tables.
libhvpure_a_SOURCES += \
	src/catalog/catalog-parse.c \
	src/catalog/catalog-index.c src/catalog/catalog-index.h \
	src/catalog/catalog-names.c \
	src/catalog/catalog-sysfs.c

# Writing catalogs (pure) and their JSON form (core: jansson).
libhvpure_a_SOURCES += \
	src/catalog/catalog-write.c
libhvcore_a_SOURCES += \
	src/catalog/catalog-json.c src/catalog/catalog-json.h
