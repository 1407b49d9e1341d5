# src/model: what the sources hand up and the layers above read — the
# frame's shape, raw samples and what their statuses mean (raw.h), the
# selection of counters to read (selection.h), and the frame laid out as
# a map of chips and cores with its heat scale (frame-map.h).  Pure, and
# below the sources: a source fills these types, it does not define them.
libhvpure_a_SOURCES += \
	src/model/frame-map.c src/model/frame-map.h \
	src/model/hv-abi.h \
	src/model/raw.c src/model/raw.h \
	src/model/selection.c src/model/selection.h \
	src/model/selection-int.h src/model/selection-lpar.c \
	src/model/topo.c

check_PROGRAMS += tests/unit/test-selection
tests_unit_test_selection_SOURCES = tests/unit/test-selection.c \
	tests/unit/fixture.c tests/unit/fixture.h
tests_unit_test_selection_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_selection_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)

check_PROGRAMS += tests/unit/test-frame-map
tests_unit_test_frame_map_SOURCES = tests/unit/test-frame-map.c
tests_unit_test_frame_map_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_frame_map_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)

libhvpure_a_SOURCES += src/model/frame-ident.c src/model/frame-ident.h
check_PROGRAMS += tests/unit/test-frame-ident
tests_unit_test_frame_ident_SOURCES = tests/unit/test-frame-ident.c
tests_unit_test_frame_ident_CFLAGS = $(UNIT_CFLAGS)
tests_unit_test_frame_ident_LDADD = $(PURE_LIBS) $(CMOCKA_LIBS)
