/*
 * Reading the identity files of a PowerVM partition, lparcfg or, on a
 * kernel built without it, the device tree's root properties lparcfg is
 * made of; the parsing is src/model/frame-ident.c's.
 */
#include "config.h"

#include "sys/lparcfg-file.h"

#include <stdlib.h>

#include "model/frame-ident.h"
#include "sys/file.h"
#include "util/xalloc.h"

/* lparcfg is a few kilobytes; the name at most a few hundred bytes. */
#define LPARCFG_FILE_MAX	(256 * 1024)
#define LPARCFG_NAME_MAX	4096

static void
lparcfg_file_cause(char **cause, char *why)
{
	if (cause != NULL)
		*cause = why;
	else
		free(why);
}

/*
 * Device-tree property prop under proc_root into fi: 1 read, 0 absent,
 * -1 there but refused (the first refusal's cause into *why).
 */
static int
lparcfg_file_prop(const char *proc_root, const char *prop,
    struct frame_ident *fi, char **why)
{
	char	*path, *c = NULL;
	void	*buf;
	size_t	 len;
	int	 error;

	path = xasprintf("%s/device-tree/%s", proc_root, prop);
	if (file_read(path, LPARCFG_NAME_MAX, &buf, &len, &c) != 0) {
		free(c);
		free(path);
		return (0);
	}
	error = frame_ident_dt(fi, prop, buf, len, &c);
	free(buf);
	if (error != 0) {
		if (*why == NULL)
			*why = xasprintf("%s: %s", path, c);
		free(c);
		free(path);
		return (-1);
	}
	free(path);
	return (1);
}

/* The root node's properties lparcfg is made of; 0, or -1 with *cause
 * when none is there. */
static int
lparcfg_file_dtree(const char *proc_root, struct frame_ident *fi,
    char **cause)
{
	static const char *const props[] = {
		"model", "system-id", "ibm,partition-no",
	};
	char	*why = NULL;
	size_t	 i;
	int	 found = 0;

	for (i = 0; i < sizeof props / sizeof props[0]; i++) {
		if (lparcfg_file_prop(proc_root, props[i], fi, &why) != 0)
			found = 1;
	}
	if (!found) {
		lparcfg_file_cause(cause, xasprintf("%s/powerpc/lparcfg and "
		    "%s/device-tree/model: neither is there", proc_root,
		    proc_root));
		return (-1);
	}
	fi->from = FRAME_FROM_DTREE;
	/* A property that does not parse leaves its field unknown, as
	 * QEMU's model ("IBM pSeries (emulated by qemu)") does. */
	free(why);
	return (0);
}

int
lparcfg_file_read(const char *proc_root, struct frame_ident *fi,
    char **cause)
{
	char	*path, *why = NULL;
	void	*buf;
	size_t	 len;
	int	 error;

	path = xasprintf("%s/powerpc/lparcfg", proc_root);
	if (file_read(path, LPARCFG_FILE_MAX, &buf, &len, &why) != 0) {
		free(why);
		free(path);
		why = NULL;
		if (lparcfg_file_dtree(proc_root, fi, cause) != 0)
			return (-1);
	} else {
		error = frame_ident_lparcfg(fi, buf, len, &why);
		free(buf);
		if (error != 0) {
			lparcfg_file_cause(cause, xasprintf("%s: %s", path,
			    why));
			free(why);
			free(path);
			return (-1);
		}
		free(path);
		fi->from = FRAME_FROM_LPARCFG;
	}
	/* A name that does not parse is left out, not fatal. */
	(void)lparcfg_file_prop(proc_root, "ibm,partition-name", fi, &why);
	free(why);
	return (0);
}
