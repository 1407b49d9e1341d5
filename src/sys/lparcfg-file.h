/*
 * The frame's and the partition's identity as the running kernel
 * publishes them: PROC/powerpc/lparcfg or, when the kernel has none
 * (built without CONFIG_LPARCFG, as Debian's is), the device tree's
 * root properties lparcfg is made of (PROC/device-tree/model,
 * system-id, ibm,partition-no), and PROC/device-tree/ibm,partition-name,
 * under a /proc that tests point elsewhere (-O proc_root=DIR).
 */
#ifndef HVTOP_LPARCFG_FILE_H
#define HVTOP_LPARCFG_FILE_H

struct frame_ident;

/*
 * Fill fi (frame_ident_init() first) from the files under proc_root.
 * Sets fi->from to where it came from.  Returns 0, or -1 with *cause
 * set (caller frees; cause may be NULL to not be told) when lparcfg
 * does not parse, or neither it nor any of those properties is there.
 * A property that is there but refused, or a missing partition name,
 * leaves its field unknown and is no error.
 */
int	 lparcfg_file_read(const char *proc_root, struct frame_ident *fi,
	    char **cause);

#endif /* HVTOP_LPARCFG_FILE_H */
