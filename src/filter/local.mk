# src/filter: the filter bar's language (filter.c) and the regex engine
# behind its re: terms (filter-regex.c).  Pure; the terminal interface is
# its one user.
libhvpure_a_SOURCES += \
	src/filter/filter.c src/filter/filter.h src/filter/filter-int.h \
	src/filter/filter-regex.c
