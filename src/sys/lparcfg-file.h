/*
 * The frame's and the partition's identity as the running kernel
 * publishes them: PROC/powerpc/lparcfg and
 * PROC/device-tree/ibm,partition-name, under a /proc that tests point
 * elsewhere (-O proc_root=DIR).
 */
#ifndef HVTOP_LPARCFG_FILE_H
#define HVTOP_LPARCFG_FILE_H

struct frame_ident;

/*
 * Fill fi (frame_ident_init() first) from the files under proc_root.
 * Returns 0, or -1 with *cause set (caller frees; cause may be NULL to
 * not be told) when lparcfg is missing or does not parse; a missing
 * partition name leaves fi->lpar_name empty and is no error.
 */
int	 lparcfg_file_read(const char *proc_root, struct frame_ident *fi,
	    char **cause);

#endif /* HVTOP_LPARCFG_FILE_H */
