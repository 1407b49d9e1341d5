/*
 * Who may scrape the metrics endpoint: hvtop --web-config FILE, the
 * subset of exporter-toolkit's web-config.yml hvtop understands.  Pure:
 * the server (src/serve) reads the file and hands its bytes here.
 */
#ifndef HVTOP_SERVE_WEBCFG_H
#define HVTOP_SERVE_WEBCFG_H

#include <stddef.h>

#define SERVE_WEBCFG_MAXLEN	65536	/* bytes in a web configuration */
#define SERVE_WEBCFG_MAXUSERS	1024
#define SERVE_WEBCFG_MINCOST	4	/* the bcrypt costs crypt(3) takes */
#define SERVE_WEBCFG_MAXCOST	31

struct serve_webuser {
	char		*name;
	char		*hash;		/* bcrypt, as crypt(3) checks it */
};

/* A header every answer carries (http_server_config.headers). */
struct serve_webheader {
	char		*name;
	char		*value;
};

/* --web-config FILE: TLS when cert_file is set, Basic auth when there
 * are users. */
struct serve_webcfg {
	char			*cert_file;	/* as written: relative to */
	char			*key_file;	/* the file's directory */
	char			*client_ca_file;
	int			 client_auth;	/* SERVE_TLS_*CLIENTCERT */
	unsigned		 min_version;	/* 0x0301 (TLS10) to 0x0304 */
	unsigned		 max_version;	/* (TLS13); 0: the default */
	int			 prefer_server;	/* -1: unset (true) */
	unsigned char		 ciphers[13];	/* serve-tlscfg.c's table */
	size_t			 nciphers;	/* 0: the default suites */
	unsigned		 seen;		/* keys given, bit per key */
	struct serve_webheader	*headers;
	size_t			 nheaders;
	struct serve_webuser	*users;
	size_t			 nusers;
};

/*
 * Parse exporter-toolkit's web-config.yml, the subset hvtop uses:
 * tls_server_config (cert_file, key_file, client_ca_file,
 * client_auth_type, min_version, max_version, cipher_suites,
 * prefer_server_cipher_suites), http_server_config (headers) and
 * basic_auth_users (user: bcrypt hash).  Anything else is refused.
 * Returns 0, or -HV_EFORMAT / -HV_ELIMIT with *cause naming the line and
 * column.
 */
int	 serve_webcfg_parse(const char *, size_t, struct serve_webcfg **,
	    char **cause);
void	 serve_webcfg_free(struct serve_webcfg *);

#endif /* HVTOP_SERVE_WEBCFG_H */
