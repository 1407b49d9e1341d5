/*
 * Small helpers the unit tests share, beside cmocka's asserts.  Include
 * after <cmocka.h> and <string.h>.
 */
#ifndef HVTOP_HARNESS_H
#define HVTOP_HARNESS_H

/* A table row's own line, so a failure names the row, not the loop. */
#define SRC_LINE	__LINE__

/* Fail the test unless s holds want; says both. */
static inline void
must_contain(const char *s, const char *want)
{
	if (s == NULL || strstr(s, want) == NULL)
		fail_msg("got '%s', want '%s'", s != NULL ? s : "(null)",
		    want);
}

#endif /* HVTOP_HARNESS_H */
