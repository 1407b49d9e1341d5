/*
 * The one writer of hvtop's output files (-o, report -o, hvcat build -o,
 * the settings, -w).  What a name is decides how it is written, so that
 * no output can destroy what the name stood for:
 *   - a regular file is replaced whole: a temporary file beside it,
 *     flushed, renamed over it; it keeps its mode and owner where it can;
 *   - a symbolic link is followed, link after link, and the file it names
 *     is replaced beside itself (a link to nothing creates that file);
 *   - a character device or a FIFO is written where it is, opened without
 *     creating or truncating anything (a FIFO's open waits for a reader);
 *   - a socket, a block device or a directory is refused;
 *   - a new file gets 0666 less the umask, as any new file does;
 *   - "-" is standard output when the caller says so;
 *   - a descriptor named as one (/dev/stdout, /dev/fd/N) is written as
 *     it is, as a shell's redirection would be.
 */
#ifndef HVTOP_FILE_OUT_H
#define HVTOP_FILE_OUT_H

#include <stddef.h>
#include <stdio.h>

#define FILE_OUT_DASH		0x1	/* "-" is standard output */
#define FILE_OUT_REGULAR	0x2	/* refuse what is not a regular file */

/* How the file is reached (file_out_kind). */
enum {
	FILE_OUT_NONE,		/* nothing open */
	FILE_OUT_NEW,		/* a temporary file, renamed over the name */
	FILE_OUT_INPLACE,	/* a device or a FIFO, written where it is */
	FILE_OUT_STDOUT		/* standard output, left open */
};

/* An output being written; opened by file_out_open(). */
struct file_out {
	char	*path;		/* the name given, for messages */
	char	*target;	/* path with its links followed */
	char	*tmp;		/* the temporary file until it is renamed */
	FILE	*fp;		/* file_out_fp()'s stream, if any */
	int	 fd;
	int	 kind;
};

int	 file_out_open(const char *, int, struct file_out *, char **);
int	 file_out_write(struct file_out *, const void *, size_t, char **);
FILE	*file_out_fp(struct file_out *, char **);
int	 file_out_place(struct file_out *, char **);
int	 file_out_commit(struct file_out *, char **);
void	 file_out_abort(struct file_out *);

#endif /* HVTOP_FILE_OUT_H */
