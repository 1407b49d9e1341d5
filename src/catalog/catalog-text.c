/*
 * Catalog text made safe to print.  A catalog's strings are bytes from
 * firmware, or from a file someone else wrote (a catalog, a recording):
 * an event named "ESC ] 0 ; ... BEL" must not reach a terminal as it is.
 * catalog_reindex() runs every string of the model through
 * catalog_text_escape(), so that every consumer (listings, batch text,
 * CSV and JSON headers, the screens, OpenMetrics labels) prints names
 * and descriptions that hold no control character; the bytes as stored
 * stay beside them for the writer and the JSON form.  Pure: no I/O.
 */
#include "config.h"

#include "catalog/catalog.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"
#include "util/xalloc.h"

/*
 * The length of the character at p that may be printed as it is: 1 for
 * printable ASCII, 2-4 for a well-formed UTF-8 sequence that encodes
 * neither a C1 control (U+0080-U+009F), a surrogate nor more than
 * U+10FFFF; 0 for a byte that must be escaped.
 */
static size_t
catalog_text_char(const unsigned char *p)
{
	uint32_t	 cp, min;
	size_t		 n, i;

	if (*p < 0x20 || *p == 0x7f)
		return (0);
	if (*p < 0x80)
		return (1);
	if (*p >= 0xc2 && *p <= 0xdf) {
		n = 2;
		cp = *p & 0x1f;
		min = 0x80;
	} else if (*p >= 0xe0 && *p <= 0xef) {
		n = 3;
		cp = *p & 0x0f;
		min = 0x800;
	} else if (*p >= 0xf0 && *p <= 0xf4) {
		n = 4;
		cp = *p & 0x07;
		min = 0x10000;
	} else
		return (0);
	for (i = 1; i < n; i++) {
		/* A NUL ends the string and is no continuation byte. */
		if ((p[i] & 0xc0) != 0x80)
			return (0);
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ||
	    (cp >= 0x80 && cp <= 0x9f))
		return (0);
	return (n);
}

/*
 * Nearly every string of a catalog is printable ASCII, and every one is
 * checked at each parse: 8 bytes at a time, a short one's bytes padded
 * with letters.  In a word's mask a top bit is set for a byte below 0x20
 * (0x21 for a name; borrowing), 0x7f (carrying), 0x80 and above, or in a
 * name a '/' (zero once XORed); a borrow or a carry crosses only into
 * bytes of more weight, so the least bit set is the first such byte
 * where the least weight comes first in memory.
 */
static inline __attribute__((always_inline)) uint64_t
catalog_text_mask(uint64_t w, int name)
{
	const uint64_t	 ones = 0x0101010101010101ULL;
	uint64_t	 m, v;

	m = ((w - ones * (name ? 0x21 : 0x20)) & ~w) | (w + ones) | w;
	if (name) {
		v = w ^ (ones * '/');
		m |= (v - ones) & ~v;
	}
	return (m & ones * 0x80);
}

static size_t
catalog_text_first(const char *s, size_t i, size_t len, uint64_t m, int name)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	(void)s;
	(void)len;
	(void)name;
	return (i + (size_t)__builtin_ctzll(m) / 8);
#else
	unsigned char	 c;

	(void)m;
	for (; i < len; i++) {
		c = (unsigned char)s[i];
		if (c < 0x20 || c >= 0x7f || (name && (c == ' ' || c == '/')))
			break;
	}
	return (i);
#endif
}

/* Inlined twice, so that each loop is compiled for its own kind. */
static inline __attribute__((always_inline)) size_t
catalog_text_scan(const char *s, size_t len, int name)
{
	uint64_t	 w, m;
	size_t		 i;

	for (i = 0; i + 8 <= len; i += 8) {
		memcpy(&w, s + i, 8);
		if ((m = catalog_text_mask(w, name)) != 0)
			return (catalog_text_first(s, i, len, m, name));
	}
	if (i == len)
		return (len);
	/* The last bytes: the 8 that end the string, else padded. */
	if (len >= 8) {
		i = len - 8;
		memcpy(&w, s + i, 8);
	} else {
		w = 0x4141414141414141ULL;
		memcpy(&w, s, len);
	}
	if ((m = catalog_text_mask(w, name)) != 0)
		return (catalog_text_first(s, i, len, m, name));
	return (len);
}

size_t
catalog_text_ascii(const char *s, size_t len, int name)
{
	return (name ? catalog_text_scan(s, len, 1) :
	    catalog_text_scan(s, len, 0));
}

/*
 * Where the part of s that may be printed as it is ends: at the NUL, or
 * at the first byte to escape.
 */
static const unsigned char *
catalog_text_safe_end(const unsigned char *p)
{
	size_t		 n;

	p += catalog_text_ascii((const char *)p, strlen((const char *)p), 0);
	while (*p != '\0' && (n = catalog_text_char(p)) != 0)
		p += n;
	return (p);
}

char *
catalog_text_escape(const char *s)
{
	struct strbuf		 sb = { 0 };
	const unsigned char	*p;
	size_t			 n;

	if (s == NULL)
		return (NULL);
	p = catalog_text_safe_end((const unsigned char *)s);
	if (*p == '\0')
		return (NULL);
	strbuf_add(&sb, s, (size_t)(p - (const unsigned char *)s));
	while (*p != '\0') {
		if ((n = catalog_text_char(p)) == 0) {
			/* A C1 control is escaped byte by byte, too. */
			n = *p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f ? 2 : 1;
			strbuf_addf(&sb, "\\x%02x", *p);
			if (n == 2)
				strbuf_addf(&sb, "\\x%02x", p[1]);
		} else
			strbuf_add(&sb, (const char *)p, n);
		p += n;
	}
	return (strbuf_detach(&sb));
}

int
catalog_text_is_safe(const char *s)
{
	if (s == NULL)
		return (1);
	return (*catalog_text_safe_end((const unsigned char *)s) == '\0');
}

void
catalog_text_sanitize(char **text, char **stored)
{
	char	*safe;

	if ((safe = catalog_text_escape(*text)) == NULL)
		return;
	free(*stored);
	*stored = *text;
	*text = safe;
}

const char *
catalog_text_stored(const char *text, const char *stored)
{
	char	*again;
	int	 same;

	if (stored == NULL)
		return (text);
	/* Only while the safe text is still the escaped stored text. */
	again = catalog_text_escape(stored);
	same = again != NULL && text != NULL && strcmp(again, text) == 0;
	free(again);
	return (same ? stored : text);
}
