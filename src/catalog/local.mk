# src/catalog: the 24x7 catalog model.  Parsing, indexing and writing are
# pure; the JSON form (jansson) lives in the core library.
libhvpure_a_SOURCES += \
	src/catalog/catalog.h
