/*
 * The address the metrics endpoint listens on (hvtop --serve ADDR:PORT),
 * parsed.  Pure: src/serve binds it.
 */
#ifndef HVTOP_SERVE_ADDR_H
#define HVTOP_SERVE_ADDR_H

#define SERVE_DEFAULT_HOST	"127.0.0.1"
#define SERVE_DEFAULT_PORT	9724

struct serve_addr {
	char		 host[256];	/* numeric or a name; no brackets */
	unsigned	 port;		/* 0: any free port */
};

/*
 * Parse "ADDR:PORT", "[IPV6]:PORT", ":PORT" or "PORT".  Without an
 * address the loopback address is used: listening elsewhere must be
 * asked for.  Returns 0, or -HV_EFORMAT / -HV_ERANGE with *cause set
 * (caller frees) naming the column at fault.
 */
int	 serve_addr_parse(const char *, struct serve_addr *, char **cause);

#endif /* HVTOP_SERVE_ADDR_H */
