/*
 * Where hvtoprc and the filter history live, and reading and writing the
 * settings file.  Core layer: looks at the environment and the file
 * system; the text itself is parsed by the pure settings.c.
 */
#include "config.h"

#include "sys/settings-file.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sys/file.h"
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
settings_file_config_dir(void)
{
	const char	*v;

	if ((v = settings_file_env("XDG_CONFIG_HOME")) != NULL)
		return (xasprintf("%s/hvtop", v));
	if ((v = settings_file_env("HOME")) != NULL)
		return (xasprintf("%s/.config/hvtop", v));
	return (NULL);
}

char *
settings_file_path(void)
{
	const char	*v;
	char		*dir, *path;

	if ((v = settings_file_env("HVTOP_CONFIG")) != NULL)
		return (xstrdup(v));
	if ((dir = settings_file_config_dir()) == NULL)
		return (NULL);
	path = xasprintf("%s/hvtoprc", dir);
	free(dir);
	return (path);
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

/*
 * Read all of a settings file, which must be a regular file: opened
 * without waiting (a FIFO would block start-up until a writer came) and
 * checked before a byte is read.  -ENOENT without a cause when missing.
 */
static int
settings_file_read(const char *path, char **buf, size_t *len, char **cause)
{
	struct stat	 sb;
	ssize_t		 r;
	size_t		 n = 0;
	char		*b;
	int		 fd, error;

	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) == -1) {
		error = errno;
		if (error != ENOENT)
			*cause = xasprintf("%s: %s", path, strerror(error));
		return (-error);
	}
	if (fstat(fd, &sb) == -1) {
		error = errno;
		*cause = xasprintf("%s: %s", path, strerror(error));
		close(fd);
		return (-error);
	}
	if (!S_ISREG(sb.st_mode)) {
		*cause = xasprintf("%s: not a regular file (%s)", path,
		    S_ISDIR(sb.st_mode) ? "a directory" :
		    S_ISFIFO(sb.st_mode) ? "a pipe" :
		    S_ISCHR(sb.st_mode) ? "a character device" :
		    "a special file");
		close(fd);
		return (-HV_EFORMAT);
	}
	b = xmalloc(SETTINGS_MAX_SIZE + 2);
	for (;;) {
		r = read(fd, b + n, SETTINGS_MAX_SIZE + 1 - n);
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1) {
			error = errno;
			*cause = xasprintf("%s: %s", path, strerror(error));
			free(b);
			close(fd);
			return (-error);
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > SETTINGS_MAX_SIZE) {
			*cause = xasprintf("%s: larger than %d bytes", path,
			    SETTINGS_MAX_SIZE);
			free(b);
			close(fd);
			return (-HV_ELIMIT);
		}
	}
	close(fd);
	b[n] = '\0';
	*buf = b;
	*len = n;
	return (0);
}

int
settings_file_load(const char *path, struct settings **out, char **cause)
{
	char	*buf = NULL, *why = NULL;
	size_t	 len = 0;
	int	 error;

	*out = NULL;
	error = settings_file_read(path, &buf, &len, &why);
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
	} else
		(*out)->path = xstrdup(path);
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
	error = file_write(path, sb.s, sb.len, FILE_OUT_REGULAR, cause);
	strbuf_free(&sb);
	return (error);
}
