/* The tests' hand-made source (test-fake-source.h). */
#include "config.h"

#include "test-fake-source.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "source/source.h"
#include "sys/file.h"
#include "util/xalloc.h"

struct fake {
	void		*img;
	size_t		 len;
	unsigned	 n;
	fake_fill_fn	 fill;
};

static int
fake_catalog(struct source *src, const void **img, size_t *len,
    char **cause)
{
	struct fake	*f = src->data;

	(void)cause;
	*img = f->img;
	*len = f->len;
	return (0);
}

static int
fake_topology(struct source *src, struct topology *t, char **cause)
{
	(void)src;
	(void)cause;
	memset(t, 0, sizeof *t);
	t->sockets = 1;
	t->chips = 1;
	t->cores = 4;
	t->smt = 8;
	t->interface = 1;
	t->privileged = 1;
	return (0);
}

static int
fake_select(struct source *src, const struct selection *sel, char **cause)
{
	(void)src;
	(void)sel;
	(void)cause;
	return (0);
}

static int
fake_sample(struct source *src, uint64_t now, struct raw_sample *rs,
    char **cause)
{
	struct fake	*f = src->data;

	(void)now;
	(void)cause;
	rs->now = f->n * 1000000000ULL;
	f->fill(rs, f->n++);
	return (0);
}

static void
fake_close(struct source *src)
{
	struct fake	*f = src->data;

	free(f->img);
	free(f);
}

static const struct source_ops fake_ops = {
	.name = "test",
	.catalog = fake_catalog,
	.topology = fake_topology,
	.select = fake_select,
	.sample = fake_sample,
	.close = fake_close,
};

struct source *
fake_source_new(const char *path, const char *label, fake_fill_fn fill)
{
	struct source	*src;
	struct fake	*f;
	char		*cause = NULL;

	f = xcalloc(1, sizeof *f);
	f->fill = fill;
	if (file_read(path, 1 << 24, &f->img, &f->len, &cause) != 0)
		fail_msg("%s", cause);
	src = xcalloc(1, sizeof *src);
	src->ops = &fake_ops;
	src->data = f;
	src->label = xstrdup(label);
	return (src);
}
