/*
 * The frame's and the partition's identity from lparcfg's text or the
 * device tree's root properties.  Every byte is looked at within the
 * length given; nothing relies on a NUL the caller may not have put.
 */
#include "config.h"

#include "model/frame-ident.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "model/raw.h"
#include "util/xalloc.h"

#define FRAME_LINE_MAX	1024

void
frame_ident_init(struct frame_ident *fi)
{
	memset(fi, 0, sizeof *fi);
	fi->lpar_id = -1;
	fi->mode = FRAME_MODE_UNKNOWN;
	fi->entitled = -1;
}

/* Whether c may be in a model (dash allowed) or a serial. */
static int
frame_ident_char(char c, int model)
{
	return ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9') || (model && c == '-'));
}

/* Whether v[0..n) is 1 to max - 1 characters a model or serial takes. */
static int
frame_ident_word(const char *v, size_t n, size_t max, int model)
{
	size_t	 i;

	if (n == 0 || n >= max)
		return (0);
	for (i = 0; i < n; i++) {
		if (!frame_ident_char(v[i], model))
			return (0);
	}
	return (1);
}

int
frame_ident_check(const char *what, const char *value, int model,
    char **cause)
{
	if (frame_ident_word(value, strlen(value), model ?
	    FRAME_IDENT_MODEL_MAX : FRAME_IDENT_SERIAL_MAX, model))
		return (0);
	*cause = xasprintf("%s=%s: must be 1 to 31 of A-Z, a-z, 0-9%s", what,
	    value, model ? " and -" : "");
	return (-1);
}

/* A decimal number of v[0..n), at most max; -1 when it is not one. */
static long
frame_ident_num(const char *v, size_t n, long max)
{
	long	 x = 0;
	size_t	 i;

	if (n == 0 || n > 10)
		return (-1);
	for (i = 0; i < n; i++) {
		if (v[i] < '0' || v[i] > '9')
			return (-1);
		x = x * 10 + (v[i] - '0');
	}
	return (x <= max ? x : -1);
}

/* The keys kept, in the order of the bits of "seen". */
static const char *const frame_keys[] = {
	"system_type", "serial_number", "partition_id",
	"shared_processor_mode", "partition_entitled_capacity",
};
#define FRAME_NKEYS	(sizeof frame_keys / sizeof frame_keys[0])

/* Copy v[0..n) to dst of size bytes; the caller checked n < size. */
static void
frame_ident_copy(char *dst, const char *v, size_t n)
{
	memcpy(dst, v, n);
	dst[n] = '\0';
}

/* Key k's value v[0..n): 0, or -1 when it is not what k takes. */
static int
frame_ident_value(struct frame_ident *fi, size_t k, const char *v, size_t n)
{
	long	 x;

	/* The firmware's "IBM," before a model and a serial. */
	if (k <= 1 && n >= 4 && memcmp(v, "IBM,", 4) == 0) {
		v += 4;
		n -= 4;
	}
	switch (k) {
	case 0:
		if (!frame_ident_word(v, n, sizeof fi->model, 1))
			return (-1);
		frame_ident_copy(fi->model, v, n);
		return (0);
	case 1:
		/* Nine characters are the plant's two digits and the
		 * seven the HMC shows. */
		if (n == 9 && v[0] >= '0' && v[0] <= '9' && v[1] >= '0' &&
		    v[1] <= '9') {
			v += 2;
			n -= 2;
		}
		if (!frame_ident_word(v, n, sizeof fi->serial, 0))
			return (-1);
		frame_ident_copy(fi->serial, v, n);
		return (0);
	case 2:
		if ((x = frame_ident_num(v, n, 65534)) < 0)
			return (-1);
		fi->lpar_id = (int)x;
		return (0);
	case 3:
		if ((x = frame_ident_num(v, n, 1)) < 0)
			return (-1);
		fi->mode = x ? FRAME_MODE_SHARED : FRAME_MODE_DEDICATED;
		return (0);
	default:
		if ((x = frame_ident_num(v, n, 1000000000)) < 0)
			return (-1);
		fi->entitled = x;
		return (0);
	}
}

/* One line, p[0..n), number line; 0 or -1 with *cause. */
static int
frame_ident_line(struct frame_ident *fi, const char *p, size_t n,
    unsigned line, unsigned *seen, char **cause)
{
	const char	*eq;
	size_t		 k, klen;

	if (n > 0 && p[n - 1] == '\r')
		n--;
	if ((eq = memchr(p, '=', n)) == NULL)
		return (0);
	klen = (size_t)(eq - p);
	for (k = 0; k < FRAME_NKEYS; k++) {
		if (strlen(frame_keys[k]) == klen &&
		    memcmp(p, frame_keys[k], klen) == 0)
			break;
	}
	if (k == FRAME_NKEYS)
		return (0);
	if (*seen & (1u << k)) {
		*cause = xasprintf("lparcfg line %u: %s given twice", line,
		    frame_keys[k]);
		return (-1);
	}
	*seen |= 1u << k;
	if (frame_ident_value(fi, k, eq + 1, n - klen - 1) != 0) {
		*cause = xasprintf("lparcfg line %u: %s: not a value it takes "
		    "(%zu bytes)", line, frame_keys[k], n - klen - 1);
		return (-1);
	}
	return (0);
}

int
frame_ident_lparcfg(struct frame_ident *fi, const char *buf, size_t len,
    char **cause)
{
	const char	*p = buf, *end = buf + len, *nl;
	unsigned	 line = 1, seen = 0;
	size_t		 n;

	if (memchr(buf, '\0', len) != NULL) {
		nl = memchr(buf, '\0', len);
		*cause = xasprintf("lparcfg: a NUL byte at offset %zu",
		    (size_t)(nl - buf));
		return (-1);
	}
	for (; p < end; line++) {
		nl = memchr(p, '\n', (size_t)(end - p));
		n = (size_t)((nl != NULL ? nl : end) - p);
		if (n > FRAME_LINE_MAX) {
			*cause = xasprintf("lparcfg line %u: over %d bytes",
			    line, FRAME_LINE_MAX);
			return (-1);
		}
		if (frame_ident_line(fi, p, n, line, &seen, cause) != 0)
			return (-1);
		p += n + (nl != NULL);
	}
	return (0);
}

int
frame_ident_partition_name(struct frame_ident *fi, const char *buf,
    size_t len, char **cause)
{
	size_t	 i;

	if (len < 2 || buf[len - 1] != '\0') {
		*cause = xasprintf("ibm,partition-name: %s", len < 2 ?
		    "empty" : "no NUL at its end");
		return (-1);
	}
	if (len > sizeof fi->lpar_name) {
		*cause = xasprintf("ibm,partition-name: %zu bytes, over %zu",
		    len, sizeof fi->lpar_name);
		return (-1);
	}
	for (i = 0; i + 1 < len; i++) {
		if ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f) {
			*cause = xasprintf("ibm,partition-name: a control "
			    "character at byte %zu", i);
			return (-1);
		}
	}
	memcpy(fi->lpar_name, buf, len);
	return (0);
}

/* A string property buf[0..len): its text's length, or -1 when it is
 * empty, has no NUL at its end or one inside. */
static long
frame_ident_dt_string(const char *buf, size_t len)
{
	if (len < 2 || buf[len - 1] != '\0' ||
	    memchr(buf, '\0', len - 1) != NULL)
		return (-1);
	return ((long)(len - 1));
}

int
frame_ident_dt(struct frame_ident *fi, const char *prop, const char *buf,
    size_t len, char **cause)
{
	const unsigned char	*u = (const unsigned char *)buf;
	uint32_t		 cell;
	long			 n;
	size_t			 k;

	if (strcmp(prop, "ibm,partition-name") == 0)
		return (frame_ident_partition_name(fi, buf, len, cause));
	if (strcmp(prop, "ibm,partition-no") == 0) {
		if (len != 4) {
			*cause = xasprintf("ibm,partition-no: %zu bytes, not "
			    "one 4-byte cell", len);
			return (-1);
		}
		cell = (uint32_t)u[0] << 24 | (uint32_t)u[1] << 16 |
		    (uint32_t)u[2] << 8 | u[3];
		if (cell > 65534) {
			*cause = xasprintf("ibm,partition-no: %u, over 65534",
			    (unsigned)cell);
			return (-1);
		}
		fi->lpar_id = (int)cell;
		return (0);
	}
	if (strcmp(prop, "model") == 0)
		k = 0;
	else if (strcmp(prop, "system-id") == 0)
		k = 1;
	else {
		*cause = xasprintf("%s: not a property of the identity", prop);
		return (-1);
	}
	if ((n = frame_ident_dt_string(buf, len)) < 0) {
		*cause = xasprintf("%s: not a string ending in its only NUL "
		    "(%zu bytes)", prop, len);
		return (-1);
	}
	if (frame_ident_value(fi, k, buf, (size_t)n) != 0) {
		*cause = xasprintf("%s: not a %s (%ld bytes)", prop, k == 0 ?
		    "machine type-model" : "serial number", n);
		return (-1);
	}
	return (0);
}

const char *
frame_ident_from(const struct frame_ident *fi)
{
	switch (fi->from) {
	case FRAME_FROM_LPARCFG:
		return ("lparcfg");
	case FRAME_FROM_DTREE:
		return ("device tree");
	case FRAME_FROM_SIM:
		return ("simulator");
	default:
		return ("nowhere");
	}
}

int
frame_ident_known(const struct frame_ident *fi)
{
	return (fi->model[0] != '\0' && fi->serial[0] != '\0');
}

char *
frame_ident_mtms(const struct frame_ident *fi, char *buf, size_t size)
{
	if (frame_ident_known(fi))
		snprintf(buf, size, "%s*%s", fi->model, fi->serial);
	else
		snprintf(buf, size, "unknown");
	return (buf);
}

void
frame_ident_caps(const struct topology *t, int catalog,
    struct frame_caps *c)
{
	/* An interface is what the hv_24x7 PMU (or the simulated frame)
	 * said it speaks; the physical domains and the other partitions
	 * are the HMC's permission, which the hypervisor reports, and a
	 * probe of the partitions may have found refused. */
	c->pmu = t->interface != 0;
	c->frame = c->pmu && t->privileged;
	c->partitions = c->frame && !t->lpars_denied;
	c->catalog = catalog != 0;
}

const char *
frame_ident_cap(const struct frame_caps *c, size_t i, int *on)
{
	static const char *const names[FRAME_NCAPS] = {
		"pmu", "frame", "partitions", "catalog",
	};
	const int	 v[FRAME_NCAPS] = {
		c->pmu, c->frame, c->partitions, c->catalog,
	};

	if (i >= FRAME_NCAPS)
		return (NULL);
	*on = v[i] != 0;
	return (names[i]);
}
