/*
 * hvcat build: turn the JSON form of a catalog (what `hvcat dump --json`
 * prints, or a hand-written source such as catalogs/power9.json) into the
 * binary image.  The image is parsed again before it is written, so a
 * source that would give a catalog with errors never leaves a file behind,
 * and an existing output is replaced whole or not at all, keeping its
 * mode (a new one gets the mode the umask gives); a device or a FIFO is
 * written where it is, and "-" is standard output.
 * Exit status: 0 written, 1 invalid source or failure, 2 usage.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "catalog/catalog-json.h"
#include "catalog/catalog.h"
#include "hvcat/hvcat.h"
#include "sys/file.h"
#include "util/hverr.h"

/* The largest source read: POWER8's full catalog is under 1 MiB. */
#define HVCAT_BUILD_MAX_JSON	((size_t)64 << 20)

/* --output, -o: the file to write. */
static int
hvcat_build_opt(void *arg, int ch, const char *val)
{
	(void)ch;
	*(const char **)arg = val;
	return (0);
}

/* Read and decode the JSON source; 0, or 1 after a message. */
static int
hvcat_build_read(const char *src, json_t **out)
{
	json_error_t	 jerr;
	void		*buf;
	char		*cause;
	size_t		 len;

	if (file_read(src, HVCAT_BUILD_MAX_JSON, &buf, &len, &cause) != 0) {
		fprintf(stderr, "hvcat: %s\n", cause);
		free(cause);
		return (1);
	}
	*out = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	free(buf);
	if (*out == NULL) {
		/* jansson quotes the bytes it stopped at. */
		fprintf(stderr, "hvcat: %s: line %d, column %d: %s\n", src,
		    jerr.line, jerr.column, hv_printable(jerr.text));
		return (1);
	}
	return (0);
}

/*
 * Parse the image as hvtop will; print what the parser says about it.
 * Returns 0 when it has no errors, else 1.
 */
static int
hvcat_build_verify(const char *src, const void *image, size_t len, int iface)
{
	struct catalog	*cat;
	char		*cause;
	size_t		 i, nerr;
	int		 bad;

	if (catalog_parse(image, len, iface, &cat, &cause) != 0) {
		fprintf(stderr, "hvcat: %s: the image built does not parse: "
		    "%s\n", src, cause);
		free(cause);
		return (1);
	}
	for (i = 0; i < cat->ndiags; i++)
		fprintf(stderr, "hvcat: %s: built image offset 0x%zx: %s: %s\n",
		    src, cat->diags[i].offset,
		    cat->diags[i].severity == CATALOG_ERROR ? "error" :
		    "warning", cat->diags[i].msg);
	/* What hvcat check would refuse is not built either. */
	nerr = cat->nerrors + hvcat_check_model(src, cat, NULL);
	bad = nerr != 0;
	if (bad)
		fprintf(stderr, "hvcat: %s: the image built would have %zu "
		    "error%s; nothing written\n", src, nerr,
		    nerr == 1 ? "" : "s");
	catalog_free(cat);
	return (bad);
}

int
hvcat_build(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	struct hvcat_opts	 o = {
		.usage = "usage: hvcat build [-i 0|1|2] SRC.json -o FILE\n",
		.shortopts = "o:",
		.longopts = longopts,
		.nargs = 1,
		.opt = hvcat_build_opt,
	};
	struct catalog		*cat = NULL;
	json_t			*root = NULL;
	const char		*src, *dst = NULL;
	void			*image = NULL;
	char			*cause, **av;
	size_t			 len;
	int			 iface, rc;

	o.arg = &dst;
	if ((rc = hvcat_opts(&o, argc, argv, &iface, &av)) >= 0)
		return (rc);
	if (dst == NULL)
		return (hvcat_opts_usage(&o));
	src = av[0];
	rc = 1;

	if (hvcat_build_read(src, &root) != 0)
		goto out;
	if (catalog_from_json(root, &cat, &cause) != 0 ||
	    catalog_write(cat, &image, &len, &cause) != 0) {
		fprintf(stderr, "hvcat: %s: %s\n", src, cause);
		free(cause);
		goto out;
	}
	if (hvcat_build_verify(src, image, len, iface) != 0)
		goto out;
	/* A catalog is no secret: a new file gets the mode any new file
	 * would (0666 less the umask). */
	if (file_write(dst, image, len, FILE_OUT_DASH, &cause) != 0) {
		fprintf(stderr, "hvcat: %s\n", cause);
		free(cause);
		goto out;
	}
	rc = 0;
out:
	free(image);
	catalog_free(cat);
	json_decref(root);
	return (rc);
}
