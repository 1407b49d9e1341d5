/*
 * hvcat info: a summary of a catalog: page 0, the sections (claimed,
 * parsed and dropped entries), events per domain with what the kernel
 * would skip, the size of the sysfs listing and the diagnostics count.
 * It only reads the model; the parser decides what is valid.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "catalog/catalog.h"
#include "hvcat/hvcat.h"
#include "record/record.h"
#include "sys/file.h"

static const struct hvcat_opts hvcat_info_opts = {
	.usage = "usage: hvcat info [-i 0|1|2] FILE\n"
	    "FILE: a catalog, or a recording made with hvtop -w\n",
	.nargs = 1,
};

/* "20140120160033" -> "2014-01-20 16:00:33"; other stamps as they are. */
static void
hvcat_info_built(const char *s)
{
	size_t	 i;

	for (i = 0; i < 14; i++) {
		if (s[i] < '0' || s[i] > '9')
			break;
	}
	if (i == 14 && s[14] == '\0')
		printf("%.4s-%.2s-%.2s %.2s:%.2s:%.2s (%s)\n", s, s + 4, s + 6,
		    s + 8, s + 10, s + 12, s);
	else
		printf("\"%s\"\n", s);
}

/* Page 0: magic, version, build time, length, interface, v0.16 offsets. */
static void
hvcat_info_page0(const char *path, const struct catalog *cat)
{
	static const char *const sub[6] = {
		"core events", "thread events", "chip events",
		"core groups", "thread groups", "chip groups",
	};
	size_t			 i, nsub = 0;

	printf("catalog      %s\n", path);
	printf("magic        0x%08x%s\n", cat->magic,
	    cat->magic == CATALOG_MAGIC ? " (\"24x7\")" : " (not \"24x7\")");
	printf("version      %llu\n", (unsigned long long)cat->version);
	printf("built        ");
	hvcat_info_built(cat->build_time);
	printf("length       %u pages (%llu bytes); %zu bytes parsed\n",
	    cat->length_pages,
	    (unsigned long long)cat->length_pages * CATALOG_PAGE_SIZE,
	    cat->size);
	printf("interface    %d (%s)\n", cat->interface,
	    cat->interface_guessed ? "guessed from the events, as hvtop does" :
	    "given");
	printf("v0.16 offsets");
	for (i = 0; i < 6; i++) {
		if (cat->sub_offsets[i] == 0 ||
		    cat->sub_offsets[i] == CATALOG_NONE)
			continue;
		printf("%s %s 0x%x", nsub++ == 0 ? "" : ",", sub[i],
		    cat->sub_offsets[i]);
	}
	printf("%s\n", nsub == 0 ? " none" : "");
}

/* Each section: where it is, what it claims, what parsed and dropped. */
static void
hvcat_info_sections(const struct catalog *cat)
{
	size_t	 parsed[4];
	int	 id;

	parsed[CATALOG_SCHEMAS] = cat->nschemas;
	parsed[CATALOG_EVENTS] = cat->nevents;
	parsed[CATALOG_GROUPS] = cat->ngroups;
	parsed[CATALOG_FORMULAS] = cat->nformulas;
	printf("\n%-10s %6s %6s %8s %8s %8s\n", "section", "page", "pages",
	    "claimed", "parsed", "dropped");
	for (id = 0; id < CATALOG_NSECTIONS; id++)
		printf("%-10s %#6x %6u %8u %8zu %8zu\n",
		    catalog_section_name(id), cat->sections[id].page,
		    cat->sections[id].pages, cat->sections[id].count,
		    parsed[id], cat->dropped[id]);
}

/*
 * Events per domain, listed and skipped, and why the kernel would skip
 * them.  Returns how many it lists.
 */
static size_t
hvcat_info_domains(const struct catalog *cat)
{
	const struct catalog_event *ev;
	size_t			 total[256], listed[256], i;
	size_t			 reclen0 = 0, reserved = 0, domain = 0;
	size_t			 skipped = 0, nlisted = 0;

	memset(total, 0, sizeof total);
	memset(listed, 0, sizeof listed);
	for (i = 0; i < cat->nevents; i++) {
		ev = &cat->events[i];
		/* A parsed catalog's domains are bytes. */
		if (ev->domain >= sizeof total / sizeof total[0])
			continue;
		total[ev->domain]++;
		if (ev->skip == 0) {
			listed[ev->domain]++;
			nlisted++;
			continue;
		}
		skipped++;
		if (ev->skip & CATALOG_SKIP_RECLEN0)
			reclen0++;
		if (ev->skip & CATALOG_SKIP_RESERVED)
			reserved++;
		if (ev->skip & CATALOG_SKIP_DOMAIN)
			domain++;
	}
	printf("\n%-22s %8s %8s %8s\n", "events by domain", "total", "listed",
	    "skipped");
	for (i = 0; i < 256; i++) {
		if (total[i] == 0)
			continue;
		printf("  %3zu %-16s %8zu %8zu %8zu\n", i,
		    catalog_domain_name((int)i), total[i], listed[i],
		    total[i] - listed[i]);
	}
	if (cat->nevents == 0)
		printf("  (none)\n");
	printf("\nskipped      %zu (group record length 0: %zu, RESERVED "
	    "name: %zu, domain not valid for interface %d: %zu)\n", skipped,
	    reclen0, reserved, cat->interface, domain);
	return (nlisted);
}

static void
hvcat_info_print(const char *path, const struct catalog *cat)
{
	struct catalog_sysfs_entry *v;
	size_t			 n2014, nlisted, warnings;

	hvcat_info_page0(path, cat);
	hvcat_info_sections(cat);
	nlisted = hvcat_info_domains(cat);
	n2014 = catalog_sysfs_list(cat, CATALOG_SYSFS_2014, &v);
	catalog_sysfs_list_free(v, n2014);
	printf("sysfs        %zu events (current kernels), %zu (2014 "
	    "kernels)\n", nlisted, n2014);
	warnings = cat->ndiags - cat->nerrors;
	printf("diagnostics  %zu (%zu error%s, %zu warning%s)\n", cat->ndiags,
	    cat->nerrors, cat->nerrors == 1 ? "" : "s", warnings,
	    warnings == 1 ? "" : "s");
}

int
hvcat_info(int argc, char **argv)
{
	struct catalog	*cat;
	struct file_map	 map;
	struct stat	 st;
	char		*cause = NULL, **av;
	int		 ch, iface;

	if ((ch = hvcat_opts(&hvcat_info_opts, argc, argv, &iface, &av)) >= 0)
		return (ch);
	/* A ring (hvtop -w DIR --ring-size) is listed segment by segment. */
	if (stat(av[0], &st) == 0 && S_ISDIR(st.st_mode))
		return (hvcat_ring_info(av[0]));
	/* A recording made with hvtop -w is summed up instead: mapped,
	 * once its first bytes say it is one. */
	if (file_map(av[0], RECORD_MAGIC, RECORD_MAGIC_LEN,
	    HVCAT_RECORD_MAX, "an hvtop recording", &map, &cause) == 0) {
		ch = hvcat_record_info(av[0], map.p, map.len);
		file_unmap(&map);
		return (ch);
	}
	free(cause);
	if (hvcat_load(av[0], iface, &cat) != 0)
		return (1);
	hvcat_info_print(av[0], cat);
	ch = cat->nerrors == 0 ? 0 : 1;
	catalog_free(cat);
	return (ch);
}
