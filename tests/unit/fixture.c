/*
 * The unit tests' shared fixtures (fixture.h).  Files are read with
 * stdio here, not through src/sys, so that a pure module's tests need
 * no I/O library to load their data.
 */
#include "config.h"

#include "fixture.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "catalog/catalog.h"
#include "model/raw.h"
#include "util/xalloc.h"

/* Where make check does not say (a test run by hand): here. */
#ifndef TOP_SRCDIR
#define TOP_SRCDIR	"."
#endif
#ifndef TOP_BUILDDIR
#define TOP_BUILDDIR	"."
#endif

static char *
fixture_under(const char *var, const char *dflt, const char *rel)
{
	const char	*top;

	if ((top = getenv(var)) == NULL)
		top = dflt;
	return (xasprintf("%s/%s", top, rel));
}

char *
fixture_path(const char *rel)
{
	return (fixture_under("top_srcdir", TOP_SRCDIR, rel));
}

char *
fixture_build_path(const char *rel)
{
	return (fixture_under("top_builddir", TOP_BUILDDIR, rel));
}

void *
fixture_load(const char *path, size_t *lenp)
{
	FILE	*fp;
	char	*buf;
	long	 n = -1;

	if ((fp = fopen(path, "rb")) == NULL)
		fail_msg("%s: %s", path, strerror(errno));
	if (fseek(fp, 0, SEEK_END) == 0)
		n = ftell(fp);
	if (n < 0)
		fail_msg("%s: %s", path, strerror(errno));
	if (n == 0)
		fail_msg("%s: empty", path);
	rewind(fp);
	buf = xmalloc((size_t)n + 1);
	if (fread(buf, 1, (size_t)n, fp) != (size_t)n)
		fail_msg("%s: short read", path);
	buf[n] = '\0';
	fclose(fp);
	*lenp = (size_t)n;
	return (buf);
}

void *
fixture_read(const char *rel, size_t *lenp)
{
	char	*path;
	void	*buf;

	path = fixture_path(rel);
	buf = fixture_load(path, lenp);
	free(path);
	return (buf);
}

void *
fixture_data(const char *dir, const char *name, size_t *lenp)
{
	char	*rel;
	void	*buf;

	rel = xasprintf("tests/data/%s/%s", dir, name);
	buf = fixture_read(rel, lenp);
	free(rel);
	return (buf);
}

/* The catalog at path, which this frees. */
static struct catalog *
fixture_catalog_at(char *path, int iface)
{
	struct catalog	*cat = NULL;
	void		*buf;
	size_t		 len;
	char		*cause = NULL;

	buf = fixture_load(path, &len);
	if (catalog_parse(buf, len, iface, &cat, &cause) != 0)
		fail_msg("%s: %s", path, cause);
	free(buf);
	free(path);
	return (cat);
}

struct catalog *
fixture_catalog(const char *rel, int iface)
{
	return (fixture_catalog_at(fixture_path(rel), iface));
}

struct catalog *
fixture_catalog_built(const char *rel, int iface)
{
	return (fixture_catalog_at(fixture_build_path(rel), iface));
}

void
fixture_topology(struct topology *t, int iface)
{
	memset(t, 0, sizeof *t);
	t->chips = 2;
	t->cores = 4;
	t->vcpus = 8;
	t->interface = iface;
	t->timebase_hz = FIXTURE_TB_HZ;
}
