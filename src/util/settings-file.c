/*
 * Where hvtoprc and the filter history live, and reading and writing the
 * settings file.  Core layer: looks at the environment and the file
 * system; the text itself is parsed by the pure settings.c.
 */
#include "config.h"

#include "util/settings.h"

#include <sys/stat.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/file.h"
#include "util/hverr.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

static const char *
settings_file_env(const char *name)
{
	const char	*v;

	v = getenv(name);
	return (v != NULL && *v != '\0' ? v : NULL);
}

char *
settings_file_path(void)
{
	const char	*v;

	if ((v = settings_file_env("HVTOP_CONFIG")) != NULL)
		return (xstrdup(v));
	if ((v = settings_file_env("XDG_CONFIG_HOME")) != NULL)
		return (xasprintf("%s/hvtop/hvtoprc", v));
	if ((v = settings_file_env("HOME")) != NULL)
		return (xasprintf("%s/.config/hvtop/hvtoprc", v));
	return (NULL);
}

char *
settings_file_history_path(void)
{
	const char	*v, *slash;

	if ((v = settings_file_env("HVTOP_CONFIG")) != NULL) {
		if ((slash = strrchr(v, '/')) == NULL)
			return (xstrdup("history"));
		return (xasprintf("%.*s/history", (int)(slash - v), v));
	}
	if ((v = settings_file_env("XDG_STATE_HOME")) != NULL)
		return (xasprintf("%s/hvtop/history", v));
	if ((v = settings_file_env("HOME")) != NULL)
		return (xasprintf("%s/.local/state/hvtop/history", v));
	return (NULL);
}

int
settings_file_load(const char *path, struct settings **out, char **cause)
{
	void	*buf;
	size_t	 len;
	char	*why;
	int	 error;

	*out = NULL;
	error = file_read(path, SETTINGS_MAX_SIZE, &buf, &len, &why);
	if (error == -ENOENT) {
		free(why);
		return (0);
	}
	if (error != 0) {
		*cause = why;
		return (error);
	}
	error = settings_parse(buf, len, out, &why);
	free(buf);
	if (error != 0) {
		*cause = xasprintf("%s: %s", path, why);
		free(why);
	}
	return (error);
}

int
settings_file_mkdirs(const char *path, char **cause)
{
	char	*dir, *p;
	int	 error, end;

	dir = xstrdup(path);
	if ((p = strrchr(dir, '/')) == NULL || p == dir) {
		free(dir);
		return (0);
	}
	*p = '\0';
	for (p = dir + 1; ; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		end = *p == '\0';
		*p = '\0';
		if (mkdir(dir, 0700) == -1 && errno != EEXIST) {
			error = errno;
			*cause = xasprintf("%s: %s", dir, strerror(error));
			free(dir);
			return (-error);
		}
		if (end)
			break;
		*p = '/';
	}
	free(dir);
	return (0);
}

int
settings_file_save(const char *path, const struct settings *s, char **cause)
{
	struct strbuf	 sb = { 0 };
	int		 error;

	if ((error = settings_file_mkdirs(path, cause)) != 0)
		return (error);
	settings_format(s, &sb);
	error = file_write_atomic(path, sb.s, sb.len, cause);
	strbuf_free(&sb);
	return (error);
}
