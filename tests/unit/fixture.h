/*
 * The unit tests' shared fixtures: files of the source and build trees,
 * found from $top_srcdir and $top_builddir as make check sets them; the
 * catalogs parsed from them; and the frame the engine's tests stand on.
 * Each reads with stdio, which is test code, so a pure module's tests
 * link libhvpure.a alone.  None returns an error: each fails the running
 * test and says why.
 */
#ifndef HVTOP_FIXTURE_H
#define HVTOP_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

struct catalog;
struct topology;

/* The real POWER8 catalog (interface 1), as the source tree ships it. */
#define FIXTURE_P8	"tests/data/catalog/p8-catalog-v3.bin"
/* The POWER9 catalog the build makes (interface 2). */
#define FIXTURE_P9	"catalogs/power9.bin"
/* The timebase of fixture_topology(): 512 MHz. */
#define FIXTURE_TB_HZ	512000000ULL

/* $top_srcdir/rel and $top_builddir/rel; the caller frees them. */
char		*fixture_path(const char *rel);
char		*fixture_build_path(const char *rel);

/*
 * The whole file at path (fixture_load) or at $top_srcdir/rel
 * (fixture_read), with a NUL after its *lenp bytes; a file that is
 * missing or empty fails the test.  The caller frees it.
 */
void		*fixture_load(const char *path, size_t *lenp);
void		*fixture_read(const char *rel, size_t *lenp);
/* The same of tests/data/DIR/NAME. */
void		*fixture_data(const char *dir, const char *name, size_t *lenp);

/*
 * The catalog at $top_srcdir/rel (fixture_catalog), at $top_builddir/rel
 * (fixture_catalog_built), parsed for hcall interface iface.  The caller
 * frees it with catalog_free().
 */
struct catalog	*fixture_catalog(const char *rel, int iface);
struct catalog	*fixture_catalog_built(const char *rel, int iface);

/*
 * The frame most engine tests stand on: 2 chips, 4 cores, 8 virtual
 * processors, hcall interface iface, a timebase of FIXTURE_TB_HZ; every
 * other field zero.
 */
void		 fixture_topology(struct topology *t, int iface);

#endif /* HVTOP_FIXTURE_H */
