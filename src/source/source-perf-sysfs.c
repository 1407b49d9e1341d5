/*
 * Reading a PMU's sysfs directory (bus/event_source/devices/NAME under a
 * root that tests point at a fake tree) and the hv_24x7 live catalog.
 * The strings go to the pure parsers in src/pmu; this file only finds,
 * reads and checks files.  It opens no perf events.
 *
 * Layouts: Linux,
 * Documentation/ABI/testing/sysfs-bus-event_source-devices-hv_24x7.
 */
#include "config.h"

#include "source/source-perf.h"

#include <sys/types.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/be.h"
#include "sys/file.h"
#include "sys/iowait.h"
#include "util/hverr.h"
#include "util/xalloc.h"

#define SYSFS_TEXT_MAX		(64 * 1024)	/* a sysfs attribute page */
#define SYSFS_CATALOG_MAX	(64U * 1024 * 1024)
#define SYSFS_CATALOG_PAGE	4096
#define SYSFS_CATALOG_TRIES	3

/*
 * The software PMU has no events/ directory: its events are the fixed
 * PERF_COUNT_SW_* numbers of the kernel's ABI (linux/perf_event.h), named
 * as perf names them.  Those that count nothing (dummy, bpf-output) are
 * left out.
 */
static const struct {
	const char	*name;
	unsigned	 config;
} sysfs_software[] = {
	{ "alignment-faults",	PERF_COUNT_SW_ALIGNMENT_FAULTS },
	{ "context-switches",	PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-clock",		PERF_COUNT_SW_CPU_CLOCK },
	{ "cpu-migrations",	PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "emulation-faults",	PERF_COUNT_SW_EMULATION_FAULTS },
	{ "major-faults",	PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "minor-faults",	PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "page-faults",	PERF_COUNT_SW_PAGE_FAULTS },
	{ "task-clock",		PERF_COUNT_SW_TASK_CLOCK },
};

/* Read a small text file; *out is NUL-terminated (caller frees). */
static int
source_perf_sysfs_text(const char *path, char **out, size_t *len,
    char **cause)
{
	void	*buf;
	size_t	 n;
	int	 error;

	if ((error = file_read(path, SYSFS_TEXT_MAX, &buf, &n, cause)) != 0)
		return (error);
	*out = buf;
	if (len != NULL)
		*len = n;
	return (0);
}

int
source_perf_sysfs_uint(const char *path, uint64_t *out, char **cause)
{
	char			*text, *end, *p;
	unsigned long long	 v;
	int			 error;

	if ((error = source_perf_sysfs_text(path, &text, NULL, cause)) != 0)
		return (error);
	for (p = text; *p == ' ' || *p == '\t'; p++)
		;
	errno = 0;
	v = strtoull(p, &end, 0);
	while (*end == '\n' || *end == ' ' || *end == '\t')
		end++;
	if (p[0] == '-' || end == p || *end != '\0' || errno != 0) {
		*cause = xasprintf("%s: expected a number, found '%.32s'",
		    path, p);
		free(text);
		return (-HV_EFORMAT);
	}
	free(text);
	*out = v;
	return (0);
}

int
source_perf_sysfs_cpus(const char *path, int **cpus, size_t *n, char **cause)
{
	char	*text, *c = NULL;
	size_t	 len;
	int	 error;

	if ((error = source_perf_sysfs_text(path, &text, &len, cause)) != 0)
		return (error);
	if ((error = pmu_cpulist_parse(text, len, cpus, n, &c)) != 0) {
		*cause = xasprintf("%s: %s", path, c);
		free(c);
	}
	free(text);
	return (error);
}

static int
source_perf_sysfs_cmp(const void *a, const void *b)
{
	return (strcmp(*(char *const *)a, *(char *const *)b));
}

/*
 * The sorted names in a directory, without "." entries.  Returns the
 * count (0 when the directory is absent) and *out (caller frees each name
 * and the array).
 */
static size_t
source_perf_sysfs_list(const char *dir, char ***out)
{
	DIR		*d;
	struct dirent	*de;
	char		**v = NULL;
	size_t		 n = 0, cap = 0;

	*out = NULL;
	if ((d = opendir(dir)) == NULL)
		return (0);
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (n == cap) {
			cap = cap == 0 ? 64 : cap * 2;
			v = xreallocarray(v, cap, sizeof *v);
		}
		v[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (n > 1)
		qsort(v, n, sizeof *v, source_perf_sysfs_cmp);
	*out = v;
	return (n);
}

static void
source_perf_sysfs_warn(struct source_perf_pmu *pmu, char *msg)
{
	pmu->warnings = xreallocarray(pmu->warnings, pmu->nwarnings + 1,
	    sizeof *pmu->warnings);
	pmu->warnings[pmu->nwarnings++] = msg;
}

/* A text file's first line, or NULL when it cannot be read. */
static char *
source_perf_sysfs_line(const char *dir, const char *name)
{
	char	*path, *text, *cause = NULL;
	size_t	 len;

	path = xasprintf("%s/%s", dir, name);
	if (source_perf_sysfs_text(path, &text, &len, &cause) != 0) {
		free(cause);
		free(path);
		return (NULL);
	}
	free(path);
	while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == ' '))
		text[--len] = '\0';
	return (text);
}

static void
source_perf_sysfs_formats(struct source_perf_pmu *pmu)
{
	char	**names, *dir, *path, *text, *cause;
	size_t	 n, i, len;

	dir = xasprintf("%s/format", pmu->dir);
	n = source_perf_sysfs_list(dir, &names);
	pmu->formats = n == 0 ? NULL : xcalloc(n, sizeof *pmu->formats);
	for (i = 0; i < n; i++) {
		cause = NULL;
		path = xasprintf("%s/%s", dir, names[i]);
		if (source_perf_sysfs_text(path, &text, &len, &cause) == 0) {
			free(cause);
			cause = NULL;
			if (pmu_format_parse(names[i], text, len,
			    &pmu->formats[pmu->nformats], &cause) == 0)
				pmu->nformats++;
			free(text);
		}
		if (cause != NULL)
			source_perf_sysfs_warn(pmu, xasprintf("%s: %s", path,
			    cause));
		free(cause);
		free(path);
		free(names[i]);
	}
	free(names);
	free(dir);
}

static void
source_perf_sysfs_events(struct source_perf_pmu *pmu)
{
	struct pmu_event	*ev;
	char			**names, *dir, *path, *text, *cause, *aux;
	size_t			 n, i, len;

	dir = xasprintf("%s/events", pmu->dir);
	n = source_perf_sysfs_list(dir, &names);
	if (n > 0) {
		pmu->events = xcalloc(n, sizeof *pmu->events);
		pmu->descs = xcalloc(n, sizeof *pmu->descs);
		pmu->units = xcalloc(n, sizeof *pmu->units);
		pmu->scales = xcalloc(n, sizeof *pmu->scales);
	}
	for (i = 0; i < n; i++) {
		/* NAME.unit, NAME.scale, NAME.per-pkg, NAME.snapshot
		 * describe NAME; they are not events. */
		if (strchr(names[i], '.') != NULL) {
			free(names[i]);
			continue;
		}
		cause = NULL;
		path = xasprintf("%s/%s", dir, names[i]);
		ev = &pmu->events[pmu->nevents];
		if (source_perf_sysfs_text(path, &text, &len, &cause) == 0) {
			free(cause);
			cause = NULL;
			if (pmu_event_parse(names[i], text, len, ev,
			    &cause) == 0) {
				aux = xasprintf("%s.unit", names[i]);
				pmu->units[pmu->nevents] =
				    source_perf_sysfs_line(dir, aux);
				free(aux);
				aux = xasprintf("%s.scale", names[i]);
				pmu->scales[pmu->nevents] =
				    source_perf_sysfs_line(dir, aux);
				free(aux);
				aux = xasprintf("%s/event_descs", pmu->dir);
				pmu->descs[pmu->nevents] =
				    source_perf_sysfs_line(aux, names[i]);
				free(aux);
				pmu->nevents++;
			}
			free(text);
		}
		if (cause != NULL)
			source_perf_sysfs_warn(pmu, xasprintf("%s: %s", path,
			    cause));
		free(cause);
		free(path);
		free(names[i]);
	}
	free(names);
	free(dir);
}

/* The software PMU's fixed events, as terms config=N. */
static void
source_perf_sysfs_builtin(struct source_perf_pmu *pmu)
{
	struct pmu_event	*ev;
	size_t			 i, n = sizeof sysfs_software /
				    sizeof sysfs_software[0];

	pmu->events = xcalloc(n, sizeof *pmu->events);
	pmu->descs = xcalloc(n, sizeof *pmu->descs);
	pmu->units = xcalloc(n, sizeof *pmu->units);
	pmu->scales = xcalloc(n, sizeof *pmu->scales);
	for (i = 0; i < n; i++) {
		ev = &pmu->events[i];
		ev->name = xstrdup(sysfs_software[i].name);
		ev->terms = xcalloc(1, sizeof *ev->terms);
		ev->terms[0].name = xstrdup("config");
		ev->terms[0].kind = PMU_TERM_VALUE;
		ev->terms[0].value = sysfs_software[i].config;
		ev->nterms = 1;
	}
	pmu->nevents = n;
	pmu->builtin = 1;
}

/* interface/ of hv_24x7 and the permission hv_gpci reports. */
static void
source_perf_sysfs_interface(const char *root, struct source_perf_pmu *pmu)
{
	static const char *const names[] = {
		"sockets", "chipspersocket", "coresperchip"
	};
	unsigned	*dst[] = {
		&pmu->sockets, &pmu->chipspersocket, &pmu->coresperchip
	};
	char		*path, *cause;
	uint64_t	 v;
	size_t		 i;

	path = xasprintf("%s/interface/catalog", pmu->dir);
	pmu->hv24x7 = access(path, F_OK) == 0;
	free(path);
	pmu->collect_privileged = -1;
	if (!pmu->hv24x7)
		return;

	path = xasprintf("%s/interface/catalog_len", pmu->dir);
	cause = NULL;
	if (source_perf_sysfs_uint(path, &pmu->catalog_len, &cause) != 0)
		pmu->catalog_len = 0;
	free(cause);
	free(path);
	path = xasprintf("%s/interface/catalog_version", pmu->dir);
	cause = NULL;
	if (source_perf_sysfs_uint(path, &pmu->catalog_version, &cause) != 0)
		pmu->catalog_version = 0;
	free(cause);
	free(path);
	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		path = xasprintf("%s/interface/%s", pmu->dir, names[i]);
		cause = NULL;
		if (source_perf_sysfs_uint(path, &v, &cause) == 0 &&
		    v <= 0xffff)
			*dst[i] = (unsigned)v;
		free(cause);
		free(path);
	}
	path = xasprintf("%s/interface", pmu->dir);
	pmu->domains = source_perf_sysfs_line(path, "domains");
	free(path);

	path = xasprintf("%s/bus/event_source/devices/hv_gpci/interface/"
	    "collect_privileged", root);
	cause = NULL;
	if (source_perf_sysfs_uint(path, &v, &cause) == 0)
		pmu->collect_privileged = v != 0;
	free(cause);
	free(path);
}

int
source_perf_sysfs_load(const char *root, const char *name,
    struct source_perf_pmu *pmu, char **cause)
{
	char		*path, *c = NULL;
	uint64_t	 type;
	int		 error;

	memset(pmu, 0, sizeof *pmu);
	pmu->collect_privileged = -1;
	if (name[0] == '\0' || strchr(name, '/') != NULL ||
	    strcmp(name, "..") == 0) {
		*cause = xasprintf("'%s' is not a PMU name", name);
		return (-HV_EUSAGE);
	}
	pmu->name = xstrdup(name);
	pmu->dir = xasprintf("%s/bus/event_source/devices/%s", root, name);
	if (access(pmu->dir, F_OK) != 0) {
		error = errno;
		*cause = xasprintf("no PMU '%s': %s: %s", name, pmu->dir,
		    strerror(error));
		source_perf_sysfs_free(pmu);
		return (-error);
	}
	path = xasprintf("%s/type", pmu->dir);
	if ((error = source_perf_sysfs_uint(path, &type, &c)) != 0 ||
	    type > INT32_MAX) {
		*cause = xasprintf("PMU '%s' has no usable type: %s", name,
		    c != NULL ? c : "out of range");
		free(c);
		free(path);
		source_perf_sysfs_free(pmu);
		return (error != 0 ? error : -HV_ERANGE);
	}
	free(path);
	pmu->type = (int)type;

	path = xasprintf("%s/cpumask", pmu->dir);
	if (access(path, F_OK) == 0 && source_perf_sysfs_cpus(path,
	    &pmu->cpumask, &pmu->ncpumask, &c) != 0) {
		source_perf_sysfs_warn(pmu, c);
		c = NULL;
	}
	free(path);

	source_perf_sysfs_formats(pmu);
	source_perf_sysfs_events(pmu);
	if (pmu->nevents == 0 && pmu->type == PERF_TYPE_SOFTWARE &&
	    strcmp(name, "software") == 0) {
		free(pmu->events);
		free(pmu->descs);
		free(pmu->units);
		free(pmu->scales);
		source_perf_sysfs_builtin(pmu);
	}
	source_perf_sysfs_interface(root, pmu);
	return (0);
}

void
source_perf_sysfs_free(struct source_perf_pmu *pmu)
{
	size_t	 i;

	if (pmu == NULL)
		return;
	for (i = 0; i < pmu->nformats; i++)
		pmu_format_clear(&pmu->formats[i]);
	free(pmu->formats);
	for (i = 0; i < pmu->nevents; i++) {
		pmu_event_clear(&pmu->events[i]);
		free(pmu->descs[i]);
		free(pmu->units[i]);
		free(pmu->scales[i]);
	}
	free(pmu->events);
	free(pmu->descs);
	free(pmu->units);
	free(pmu->scales);
	for (i = 0; i < pmu->nwarnings; i++)
		free(pmu->warnings[i]);
	free(pmu->warnings);
	free(pmu->cpumask);
	free(pmu->domains);
	free(pmu->dir);
	free(pmu->name);
	memset(pmu, 0, sizeof *pmu);
}

/* catalog_len and catalog_version as they are now; 0 when absent. */
static void
source_perf_sysfs_catalog_state(const struct source_perf_pmu *pmu,
    uint64_t *len, uint64_t *version)
{
	char	*path, *c = NULL;

	path = xasprintf("%s/interface/catalog_len", pmu->dir);
	if (source_perf_sysfs_uint(path, len, &c) != 0)
		*len = 0;
	free(c);
	free(path);
	c = NULL;
	path = xasprintf("%s/interface/catalog_version", pmu->dir);
	if (source_perf_sysfs_uint(path, version, &c) != 0)
		*version = 0;
	free(c);
	free(path);
}

/*
 * One pass over interface/catalog.  Every read() of it makes the kernel
 * fetch page 0 and at most one more page, so ask for one page at a time
 * and accept fewer bytes.
 */
static int
source_perf_sysfs_catalog_read(const char *path, uint64_t want,
    uint8_t **out, size_t *len, char **cause)
{
	uint8_t	*buf = NULL;
	size_t	 cap, off = 0, chunk;
	ssize_t	 r;
	int	 fd, error;

	/* A file that blocks (a FIFO in a fake tree) waits in a way a
	 * signal ends, in open and in every read. */
	if ((fd = iowait_open(path, O_RDONLY, 0)) < 0) {
		*cause = xasprintf("%s: %s", path, strerror(-fd));
		return (fd);
	}
	cap = want != 0 ? (size_t)want : 16 * SYSFS_CATALOG_PAGE;
	buf = xmalloc(cap);
	for (;;) {
		if (want != 0 && off == (size_t)want)
			break;
		if (off == cap) {
			if (cap >= SYSFS_CATALOG_MAX) {
				*cause = xasprintf("%s: larger than %u bytes",
				    path, SYSFS_CATALOG_MAX);
				error = HV_ELIMIT;
				goto fail;
			}
			cap *= 2;
			buf = xreallocarray(buf, cap, 1);
		}
		chunk = SYSFS_CATALOG_PAGE - off % SYSFS_CATALOG_PAGE;
		if (chunk > cap - off)
			chunk = cap - off;
		if ((r = iowait_pread(fd, buf + off, chunk, (off_t)off)) < 0) {
			error = (int)-r;
			*cause = xasprintf("%s: reading page %zu: %s%s", path,
			    off / SYSFS_CATALOG_PAGE, strerror(error),
			    error == EIO ? " (the hypervisor refused "
			    "H_GET_24X7_CATALOG_PAGE)" : "");
			goto fail;
		}
		if (r == 0)
			break;
		off += (size_t)r;
	}
	close(fd);
	*out = buf;
	*len = off;
	return (0);
fail:
	close(fd);
	free(buf);
	return (-error);
}

int
source_perf_sysfs_catalog(const struct source_perf_pmu *pmu, void **out,
    size_t *len, uint64_t *version, char **cause)
{
	uint8_t		*buf = NULL;
	uint64_t	 len0, ver0, len1, ver1, pver, plen;
	size_t		 n = 0;
	char		*path;
	int		 try, error;

	*out = NULL;
	*len = 0;
	path = xasprintf("%s/interface/catalog", pmu->dir);
	for (try = 0; try < SYSFS_CATALOG_TRIES; try++) {
		source_perf_sysfs_catalog_state(pmu, &len0, &ver0);
		if (len0 > SYSFS_CATALOG_MAX) {
			*cause = xasprintf("%s: catalog_len %llu is larger "
			    "than %u bytes", path, (unsigned long long)len0,
			    SYSFS_CATALOG_MAX);
			free(path);
			return (-HV_ELIMIT);
		}
		error = source_perf_sysfs_catalog_read(path, len0, &buf, &n,
		    cause);
		if (error != 0) {
			free(path);
			return (error);
		}
		source_perf_sysfs_catalog_state(pmu, &len1, &ver1);
		if (len1 != len0 || ver1 != ver0) {
			/* The hypervisor changed the catalog under us. */
			free(buf);
			continue;
		}
		if (len0 != 0 && n < len0) {
			*cause = xasprintf("%s: ends after %zu bytes, but "
			    "catalog_len says %llu", path, n,
			    (unsigned long long)len0);
			free(buf);
			free(path);
			return (-HV_ETRUNC);
		}
		if (!be_fits(n, 0, 16)) {
			*cause = xasprintf("%s: %zu bytes is too short for "
			    "page 0", path, n);
			free(buf);
			free(path);
			return (-HV_ETRUNC);
		}
		plen = (uint64_t)be32_get(buf + 4) * SYSFS_CATALOG_PAGE;
		pver = be64_get(buf + 8);
		if ((ver0 != 0 && pver != ver0) || (len0 != 0 &&
		    plen != len0)) {
			/* Page 0 came from another catalog: try again. */
			if (try + 1 < SYSFS_CATALOG_TRIES) {
				free(buf);
				continue;
			}
			*cause = xasprintf("%s: page 0 says version %llu and "
			    "%llu bytes, but catalog_version says %llu and "
			    "catalog_len %llu", path,
			    (unsigned long long)pver,
			    (unsigned long long)plen,
			    (unsigned long long)ver0,
			    (unsigned long long)len0);
			free(buf);
			free(path);
			return (-HV_EVERSION);
		}
		free(path);
		*out = buf;
		*len = n;
		*version = pver;
		return (0);
	}
	*cause = xasprintf("%s: the catalog changed while it was read, %d "
	    "times running", path, SYSFS_CATALOG_TRIES);
	free(path);
	return (-HV_EVERSION);
}
