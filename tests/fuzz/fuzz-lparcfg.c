/*
 * libFuzzer harness for the frame's identity: arbitrary bytes as
 * lparcfg's text, as the device tree's partition name and as each of
 * the root properties lparcfg is made of.  A refusal
 * must say why; what is accepted must be a model and serial of the
 * characters they take, NUL-terminated within their fields.  Any
 * violation aborts.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/frame-ident.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
fuzz_lparcfg_word(const char *s, size_t max, int model)
{
	const char	*end;
	char		*cause = NULL;

	if ((end = memchr(s, '\0', max)) == NULL)
		abort();
	if (end != s && frame_ident_check("x", s, model, &cause) != 0)
		abort();
}

/* The bytes as each device-tree property of the identity. */
static void
fuzz_lparcfg_dt(const uint8_t *data, size_t size)
{
	static const char *const props[] = {
		"model", "system-id", "ibm,partition-no", "ibm,partition-name",
	};
	struct frame_ident	 fi;
	char			*cause;
	size_t			 i;

	for (i = 0; i < sizeof props / sizeof props[0]; i++) {
		frame_ident_init(&fi);
		cause = NULL;
		if (frame_ident_dt(&fi, props[i], (const char *)data, size,
		    &cause) != 0) {
			if (cause == NULL || cause[0] == '\0')
				abort();
			free(cause);
			continue;
		}
		fuzz_lparcfg_word(fi.model, sizeof fi.model, 1);
		fuzz_lparcfg_word(fi.serial, sizeof fi.serial, 0);
		if (fi.lpar_id < -1 || fi.lpar_id > 65534)
			abort();
		if (memchr(fi.lpar_name, '\0', sizeof fi.lpar_name) == NULL)
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct frame_ident	 fi;
	char			*cause = NULL, buf[80];

	frame_ident_init(&fi);
	if (frame_ident_lparcfg(&fi, (const char *)data, size, &cause) != 0) {
		if (cause == NULL || cause[0] == '\0')
			abort();
		free(cause);
		cause = NULL;
	}
	fuzz_lparcfg_word(fi.model, sizeof fi.model, 1);
	fuzz_lparcfg_word(fi.serial, sizeof fi.serial, 0);
	if (fi.lpar_id < -1 || fi.lpar_id > 65534)
		abort();
	frame_ident_mtms(&fi, buf, sizeof buf);
	if (memchr(buf, '\0', sizeof buf) == NULL)
		abort();
	if (frame_ident_partition_name(&fi, (const char *)data, size,
	    &cause) != 0) {
		if (cause == NULL || cause[0] == '\0')
			abort();
		free(cause);
	} else if (strlen(fi.lpar_name) + 1 != size)
		abort();
	fuzz_lparcfg_dt(data, size);
	return (0);
}
