# src/config: configuration text parsed into models.  Pure: the settings
# file's text (settings.c; src/sys reads and writes the file), the
# endpoint's --serve address (serve-addr.c) and --web-config's YAML
# subset (serve-webcfg.c; src/serve reads the files).
libhvpure_a_SOURCES += \
	src/config/settings.c src/config/settings.h \
	src/config/serve-addr.c src/config/serve-addr.h \
	src/config/serve-webcfg.c src/config/serve-webcfg.h \
	src/config/serve-tlscfg.c src/config/serve-tlscfg.h
