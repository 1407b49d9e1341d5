/*
 * Error codes shared by every layer.  Functions return 0 on success or a
 * negative code: -errno for operating-system failures, -HV_E* for the
 * domain failures below.  Details travel separately in a "cause" string.
 */
#ifndef HVTOP_HVERR_H
#define HVTOP_HVERR_H

#define HV_EBASE	4000	/* above every errno value */
#define HV_EFORMAT	4001	/* input is malformed */
#define HV_ETRUNC	4002	/* input ends before a record does */
#define HV_ERANGE	4003	/* a value is outside what is allowed */
#define HV_ENOENT	4004	/* a name is not known */
#define HV_ELIMIT	4005	/* a limit of the interface would be exceeded */
#define HV_EHCALL	4006	/* the hypervisor returned an error */
#define HV_ENOVALUE	4007	/* a value cannot be computed */
#define HV_ECYCLE	4008	/* definitions refer to each other in a loop */
#define HV_EVERSION	4009	/* a version is not the one expected */
#define HV_EUSAGE	4010	/* a request makes no sense */
#define HV_ELAST	4010

const char	*hv_strerror(int);
/*
 * Make s, a cause quoting input (a library's error text that shows the
 * bytes it stopped at), safe for a terminal: control and non-ASCII bytes
 * become '?'.  Returns s.
 */
char		*hv_printable(char *s);

#endif /* HVTOP_HVERR_H */
