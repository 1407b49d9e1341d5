/*
 * Reading the identity files of a PowerVM partition; the parsing is
 * src/model/frame-ident.c's.
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
		free(path);
		lparcfg_file_cause(cause, why);
		return (-1);
	}
	error = frame_ident_lparcfg(fi, buf, len, &why);
	free(buf);
	if (error != 0) {
		lparcfg_file_cause(cause, xasprintf("%s: %s", path, why));
		free(why);
		free(path);
		return (-1);
	}
	free(path);
	path = xasprintf("%s/device-tree/ibm,partition-name", proc_root);
	if (file_read(path, LPARCFG_NAME_MAX, &buf, &len, &why) == 0) {
		/* A name that does not parse is left out, not fatal. */
		(void)frame_ident_partition_name(fi, buf, len, &why);
		free(buf);
	}
	free(why);
	free(path);
	return (0);
}
