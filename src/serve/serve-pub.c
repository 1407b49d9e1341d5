/*
 * A published snapshot and the answers made from it (serve-int.h): the
 * plain text rendered a part at a time as a reader's connection takes it,
 * and the gzip text made once per snapshot and format.  Used on the
 * server's thread, but for the reference count, which the sampler drops
 * too when it publishes the next one.
 */
#include "config.h"

#include "serve/serve-int.h"

#include <sys/types.h>

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <microhttpd.h>
#include <zlib.h>

#include "export/om.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

struct serve_pub *
serve_pub_ref(struct serve_pub *p)
{
	atomic_fetch_add(&p->refs, 1);
	return (p);
}

void
serve_pub_unref(struct serve_pub *p)
{
	size_t	 i;

	if (p == NULL || atomic_fetch_sub(&p->refs, 1) != 1)
		return;
	for (i = 0; i < OM_NFORMATS; i++)
		free(p->gz[i]);
	om_snapshot_free(p->snap);
	free(p);
}

/*
 * A snapshot's text as a gzip member (RFC 1952), rendered a part at a time
 * into zlib, so that the whole plain text is never in memory: *out
 * (caller frees), 0, or -1 when zlib fails.  The fastest level: a scrape
 * is answered on the server's only thread, and the text repeats so much
 * that the fastest level already gives a tenth of its size.
 */
static int
serve_pub_gzip(void **zs, const struct om_page *snap, int fmt,
    char **out, size_t *outlen)
{
	struct om_cursor	 cur;
	struct strbuf		 sb = { 0 };
	z_stream		*zp = *zs;
	size_t			 cap = SERVE_PART;
	char			*buf;
	int			 more = 1, rc = Z_OK;

	/* One stream for the server's thread, reset for each text: its
	 * state is allocated once, not for every snapshot. */
	if (zp == NULL) {
		zp = xcalloc(1, sizeof *zp);
		if (deflateInit2(zp, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8,
		    Z_DEFAULT_STRATEGY) != Z_OK) {
			free(zp);
			return (-1);
		}
		*zs = zp;
	} else if (deflateReset(zp) != Z_OK)
		return (-1);
	/* The buffers are this text's: none from the last one. */
	zp->next_in = zp->next_out = NULL;
	zp->avail_in = zp->avail_out = 0;
	memset(&cur, 0, sizeof cur);
	buf = xmalloc(cap);
	while (rc != Z_STREAM_END) {
		if (zp->avail_in == 0 && more) {
			strbuf_reset(&sb);
			more = om_render_part(snap, fmt, &cur, &sb,
			    SERVE_PART);
			zp->next_in = (Bytef *)sb.s;
			zp->avail_in = (uInt)sb.len;
		}
		if (zp->avail_out == 0) {
			if (zp->total_out == cap)
				buf = xreallocarray(buf, cap *= 2, 1);
			/* zlib counts in uInt: at most 1 GiB at a time. */
			zp->next_out = (Bytef *)buf + zp->total_out;
			zp->avail_out = (uInt)(cap - zp->total_out <
			    (1U << 30) ? cap - zp->total_out : (1U << 30));
		}
		rc = deflate(zp, more ? Z_NO_FLUSH : Z_FINISH);
		if (rc == Z_STREAM_ERROR) {
			strbuf_free(&sb);
			free(buf);
			return (-1);
		}
	}
	*outlen = zp->total_out;
	*out = xreallocarray(buf, zp->total_out, 1);
	strbuf_free(&sb);
	return (0);
}

void
serve_pub_zfree(void *zs)
{
	if (zs == NULL)
		return;
	deflateEnd(zs);
	free(zs);
}

/*
 * One reader's place in a snapshot's plain text: the part rendered last
 * and how much of it the library has taken.  A reader holds the snapshot
 * (its values, shared with every reader of it) and one part, never a copy
 * of the text: a client that asks and never reads costs that much.
 */
struct serve_pub_stream {
	struct serve_pub	*p;
	int			 fmt;
	int			 more;
	struct om_cursor	 cur;
	struct strbuf		 sb;
	size_t			 off;
};

static ssize_t
serve_pub_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct serve_pub_stream	*st = cls;
	size_t			 n;

	(void)pos;
	while (st->off == st->sb.len) {
		if (!st->more)
			return (MHD_CONTENT_READER_END_OF_STREAM);
		strbuf_reset(&st->sb);
		st->off = 0;
		st->more = om_render_part(st->p->snap, st->fmt, &st->cur,
		    &st->sb, SERVE_PART);
	}
	n = st->sb.len - st->off < max ? st->sb.len - st->off : max;
	memcpy(buf, st->sb.s + st->off, n);
	st->off += n;
	return ((ssize_t)n);
}

/* The library is done with the answer: the snapshot is let go. */
static void
serve_pub_done(void *cls)
{
	struct serve_pub_stream	*st = cls;

	serve_pub_unref(st->p);
	strbuf_free(&st->sb);
	free(st);
}

/*
 * The answer for a snapshot: gzip from the text compressed once per
 * snapshot and format (it lives until the request ends: *req holds it,
 * serve_completed() lets it go), else the plain text a part at a time.
 */
struct MHD_Response *
serve_pub_body(struct serve_pub *p, int fmt, void **zs, void **req)
{
	struct MHD_Response	*r;
	struct serve_pub_stream	*st;

	if (zs != NULL && (p->gz[fmt] != NULL || serve_pub_gzip(zs, p->snap,
	    fmt, &p->gz[fmt], &p->gzlen[fmt]) == 0)) {
		r = MHD_create_response_from_buffer(p->gzlen[fmt], p->gz[fmt],
		    MHD_RESPMEM_PERSISTENT);
		if (r == NULL)
			serve_pub_unref(p);
		else {
			*req = p;
			MHD_add_response_header(r,
			    MHD_HTTP_HEADER_CONTENT_ENCODING, "gzip");
		}
		return (r);
	}
	st = xcalloc(1, sizeof *st);
	st->p = p;
	st->fmt = fmt;
	st->more = 1;
	r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, SERVE_PART,
	    serve_pub_read, st, serve_pub_done);
	if (r == NULL)
		serve_pub_done(st);
	return (r);
}
