# ui: the terminal interface, the only code that includes curses or
# readline (libhvui.a).
libhvui_a_SOURCES += \
	ui/ui.c
