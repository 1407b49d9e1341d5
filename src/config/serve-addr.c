/*
 * The --serve argument: where the metrics endpoint listens.  Only text is
 * read here; resolving and binding are the server's.  Without an address
 * the endpoint stays on the loopback interface, so that exposing it to a
 * network is always something written on the command line.
 */
#include "config.h"

#include "config/serve-addr.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/hverr.h"
#include "util/xalloc.h"

/* The port at s (column col of the argument), digits only. */
static int
serve_addr_port(const char *arg, const char *s, unsigned *port, char **cause)
{
	unsigned long	 v = 0;
	const char	*p;

	if (*s == '\0') {
		*cause = xasprintf("'%s', column %zu: a port number is "
		    "missing", arg, (size_t)(s - arg) + 1);
		return (-HV_EFORMAT);
	}
	for (p = s; *p != '\0'; p++) {
		if (!isdigit((unsigned char)*p)) {
			*cause = xasprintf("'%s', column %zu: the port must "
			    "be a number", arg, (size_t)(p - arg) + 1);
			return (-HV_EFORMAT);
		}
		v = v * 10 + (unsigned long)(*p - '0');
		if (v > 65535) {
			*cause = xasprintf("'%s', column %zu: port %s is "
			    "above 65535", arg, (size_t)(s - arg) + 1, s);
			return (-HV_ERANGE);
		}
	}
	*port = (unsigned)v;
	return (0);
}

int
serve_addr_parse(const char *arg, struct serve_addr *a, char **cause)
{
	const char	*colon, *close, *host, *p;
	size_t		 hlen;

	memset(a, 0, sizeof *a);
	snprintf(a->host, sizeof a->host, "%s", SERVE_DEFAULT_HOST);
	a->port = SERVE_DEFAULT_PORT;
	if (arg[0] == '[') {
		/* [IPV6]:PORT: the brackets keep the colons apart. */
		if ((close = strchr(arg, ']')) == NULL) {
			*cause = xasprintf("'%s', column 1: '[' without ']'",
			    arg);
			return (-HV_EFORMAT);
		}
		if (close[1] != ':') {
			*cause = xasprintf("'%s', column %zu: expected ':PORT' "
			    "after ']'", arg, (size_t)(close - arg) + 2);
			return (-HV_EFORMAT);
		}
		host = arg + 1;
		hlen = (size_t)(close - host);
		colon = close + 1;
	} else if ((colon = strrchr(arg, ':')) == NULL) {
		/* PORT alone: the loopback address. */
		return (serve_addr_port(arg, arg, &a->port, cause));
	} else {
		host = arg;
		hlen = (size_t)(colon - arg);
		if (memchr(arg, ':', hlen) != NULL) {
			*cause = xasprintf("'%s': write an IPv6 address in "
			    "brackets, as [::1]:PORT", arg);
			return (-HV_EFORMAT);
		}
	}
	if (hlen >= sizeof a->host) {
		*cause = xasprintf("'%s', column 1: the address is longer "
		    "than %zu characters", arg, sizeof a->host - 1);
		return (-HV_ERANGE);
	}
	for (p = host; p < host + hlen; p++) {
		if (!isalnum((unsigned char)*p) && strchr(".-_:%*", *p) ==
		    NULL) {
			*cause = xasprintf("'%s', column %zu: '%c' cannot be "
			    "part of an address", arg,
			    (size_t)(p - arg) + 1, *p);
			return (-HV_EFORMAT);
		}
	}
	if (hlen > 0) {
		memcpy(a->host, host, hlen);
		a->host[hlen] = '\0';
	}
	return (serve_addr_port(arg, colon + 1, &a->port, cause));
}
