/*
 * Where hvtoprc and the filter history live, and reading and writing the
 * settings file: the environment and the file system around the pure
 * settings text of config/settings.h.
 */
#ifndef HVTOP_SETTINGS_FILE_H
#define HVTOP_SETTINGS_FILE_H

#include "config/settings.h"

/*
 * hvtop's configuration directory: $XDG_CONFIG_HOME/hvtop, else
 * ~/.config/hvtop (hvtoprc and metrics.d live there).  Allocated (caller
 * frees) or NULL when no location is known.
 */
char		*settings_file_config_dir(void);

/*
 * Where hvtoprc is: $HVTOP_CONFIG, else $XDG_CONFIG_HOME/hvtop/hvtoprc,
 * else ~/.config/hvtop/hvtoprc.  Returns an allocated path (caller frees)
 * or NULL when no location is known.
 */
char		*settings_file_path(void);
/*
 * Where the filter history is: beside $HVTOP_CONFIG when that is set (a
 * file named history in the same directory), else
 * $XDG_STATE_HOME/hvtop/history, else ~/.local/state/hvtop/history.
 * Allocated (caller frees) or NULL.
 */
char		*settings_file_history_path(void);
/*
 * Read and parse path.  A missing file is not an error: 0 with *out NULL.
 * Otherwise 0 with *out set (caller frees), or a negative code with *cause
 * naming the file (caller frees).
 */
int		 settings_file_load(const char *path, struct settings **out,
		    char **cause);
/*
 * Write the model to path atomically (file_write(): through symbolic
 * links, keeping the mode, 0666 less the umask for a new file; what is
 * not a regular file is refused), creating the missing directories of
 * its parent (mode 0700).  0 or -errno with *cause set.
 */
int		 settings_file_save(const char *path, const struct settings *,
		    char **cause);
/* Create the directories leading to path's last component; 0 or -errno. */
int		 settings_file_mkdirs(const char *path, char **cause);

#endif /* HVTOP_SETTINGS_FILE_H */
