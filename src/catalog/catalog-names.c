/*
 * Names of the catalog's constants: domains as the kernel prints them, the
 * index term perf uses per domain, schema field enums, section names and
 * the early kernel's event-name suffixes.  Pure: const tables only.  Values
 * without a name give "?", never a guess (schema enums 55 and 56 appear in
 * real catalogs but no public source names them).
 */
#include "config.h"

#include "catalog/catalog.h"

#include <stddef.h>

#include "util/strbuf.h"

/* Indexed by domain, the last entry for perf's CPU (catalog_domain_slot);
 * [0] is the answer for every unknown value. */
static const char *const catalog_domain_names[CATALOG_DOMAIN_MAX + 1] = {
	"?",
	"Physical Chip",
	"Physical Core",
	"VCPU Home Core",
	"VCPU Home Chip",
	"VCPU Home Node",
	"VCPU Remote Node",
	"CPU",
};

static const char *const catalog_domain_terms[CATALOG_DOMAIN_MAX + 1] = {
	"?", "chip", "core", "vcpu", "vcpu", "vcpu", "vcpu", "cpu",
};

static const char *const catalog_domain_suffixes[CATALOG_DOMAIN_MAX + 1] = {
	"?",
	"phys_chip",
	"phys_core",
	"vcpu_home_core",
	"vcpu_home_chip",
	"vcpu_home_node",
	"vcpu_remote_node",
	"cpu",
};

static const char *const catalog_counter_names[CATALOG_FIELD_COUNTER_MAX] = {
	"COUNTER1", "COUNTER2", "COUNTER3", "COUNTER4", "COUNTER5",
	"COUNTER6", "COUNTER7", "COUNTER8", "COUNTER9", "COUNTER10",
	"COUNTER11", "COUNTER12", "COUNTER13", "COUNTER14", "COUNTER15",
	"COUNTER16", "COUNTER17", "COUNTER18", "COUNTER19", "COUNTER20",
	"COUNTER21", "COUNTER22", "COUNTER23", "COUNTER24", "COUNTER25",
	"COUNTER26", "COUNTER27", "COUNTER28", "COUNTER29", "COUNTER30",
	"COUNTER31",
};

static const char *const catalog_section_names[CATALOG_NSECTIONS] = {
	"schemas", "events", "groups", "formulas",
};

/* A domain's entry in the tables above: 0 for an unknown one. */
static int
catalog_domain_slot(int domain)
{
	if (domain == CATALOG_DOMAIN_CPU)
		return (CATALOG_DOMAIN_MAX);
	return (domain > 0 && domain < CATALOG_DOMAIN_MAX ? domain : 0);
}

/* "Physical Chip" ... "VCPU Remote Node", as interface/domains prints;
 * "CPU" for perf's. */
const char *
catalog_domain_name(int domain)
{
	return (catalog_domain_names[catalog_domain_slot(domain)]);
}

/* The perf format term that carries the index: chip, core or vcpu (and
 * cpu, which perf passes apart from the config, for its CPUs). */
const char *
catalog_domain_index_term(int domain)
{
	return (catalog_domain_terms[catalog_domain_slot(domain)]);
}

/* The lower-case suffix the 2014 kernel appended to event names ("cpu"
 * for perf's CPU, which it never used). */
const char *
catalog_domain_suffix_2014(int domain)
{
	return (catalog_domain_suffixes[catalog_domain_slot(domain)]);
}

/* GRS_* schema field enums, without the prefix. */
const char *
catalog_field_name(unsigned field)
{
	if (field >= 1 && field <= CATALOG_FIELD_COUNTER_MAX)
		return (catalog_counter_names[field - 1]);
	switch (field) {
	case CATALOG_FIELD_TIMEBASE_UPDATE:
		return ("TIMEBASE_UPDATE");
	case CATALOG_FIELD_TIMEBASE_FENCE:
		return ("TIMEBASE_FENCE");
	case CATALOG_FIELD_UPDATE_COUNT:
		return ("UPDATE_COUNT");
	case CATALOG_FIELD_MEASUREMENT_PERIOD:
		return ("MEASUREMENT_PERIOD");
	case CATALOG_FIELD_ACCUM_MEASUREMENT_PERIOD:
		return ("ACCUMULATED_MEASUREMENT_PERIOD");
	case CATALOG_FIELD_LAST_UPDATE_PERIOD:
		return ("LAST_UPDATE_PERIOD");
	case CATALOG_FIELD_STATUS_FLAGS:
		return ("STATUS_FLAGS");
	}
	return ("?");
}

const char *
catalog_section_name(int id)
{
	if (id < 0 || id >= CATALOG_NSECTIONS)
		return ("?");
	return (catalog_section_names[id]);
}

/*
 * Escape what would break a line-oriented listing: catalog strings come
 * from firmware and may hold any byte but NUL.
 */
char *
catalog_printable(const char *s)
{
	struct strbuf		 sb = { 0 };
	const unsigned char	*p;

	strbuf_adds(&sb, "");
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		if (*p == '\\')
			strbuf_adds(&sb, "\\\\");
		else if (*p < 0x20 || *p >= 0x7f)
			strbuf_addf(&sb, "\\x%02x", *p);
		else
			strbuf_addc(&sb, (char)*p);
	}
	return (strbuf_detach(&sb));
}
