/*
 * What a controller says: a message for the status line and its colour
 * role, kept in a struct ui_note until the loop shows it (ui_say()), so
 * the controllers that change the model need not reach the loop.
 */
#include "config.h"

#include "ui/ui-run.h"

#include <stdarg.h>
#include <stdio.h>

void
ui_note_set(struct ui_note *n, int role, const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	vsnprintf(n->text, sizeof n->text, fmt, ap);
	va_end(ap);
	n->role = role;
}
