# src/config: configuration text parsed into models.  Pure: the settings
# file's text (settings.c); src/sys reads and writes the file.
libhvpure_a_SOURCES += \
	src/config/settings.c src/config/settings.h
