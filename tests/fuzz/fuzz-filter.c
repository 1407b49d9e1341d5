/*
 * libFuzzer harness for the filter bar's language: the input up to the
 * first NUL is a filter text, the rest names an item (name, description,
 * domain, group).  Parsing must either succeed or give a cause that names
 * a column; a parsed filter must match the same item the same way twice
 * and must match everything when it has no term; read as a regex, the
 * text must give the same answer from the fast matcher and from regexec()
 * on the item's name; the texts' signatures must not change any answer.
 * Any violation aborts.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "filter/filter.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static char *
lower_copy(const uint8_t *p, size_t n)
{
	char	*s;
	size_t	 i;

	s = malloc(n + 1);
	if (s == NULL)
		abort();
	for (i = 0; i < n; i++) {
		s[i] = (char)p[i];
		if (s[i] >= 'A' && s[i] <= 'Z')
			s[i] = (char)(s[i] + 32);
		if (s[i] == '\0')
			s[i] = ' ';
	}
	s[n] = '\0';
	return (s);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const domains[] = { "chip", "core",
	    "vcpu_home_core", NULL };
	struct filter		*f;
	struct filter_item	 it;
	const uint8_t		*nul;
	const char		*groups[1];
	uint64_t		 nsig[FILTER_SIG_WORDS];
	uint64_t		 dsig[FILTER_SIG_WORDS];
	char			*text, *rest, *cause = NULL;
	size_t			 tlen, rlen;
	int			 a, b;

	nul = memchr(data, 0, size);
	tlen = nul != NULL ? (size_t)(nul - data) : size;
	text = malloc(tlen + 1);
	if (text == NULL)
		abort();
	memcpy(text, data, tlen);
	text[tlen] = '\0';
	rlen = nul != NULL ? size - tlen - 1 : 0;
	rest = lower_copy(nul != NULL ? nul + 1 : data, rlen);

	/* The fast regex path must agree with regexec(). */
	if (filter_regex_agrees(text, rest) == 0)
		abort();
	if (filter_parse(text, &f, &cause) != 0) {
		if (cause == NULL || strlen(cause) == 0)
			abort();
		free(cause);
		free(text);
		free(rest);
		return (0);
	}
	memset(&it, 0, sizeof it);
	it.name = rest;
	it.desc = rlen > 4 ? rest + rlen / 2 : NULL;
	it.domain = domains[rlen % 4];
	it.flags = rlen > 0 ? rest[0] & 0x3f : 0;
	groups[0] = rest;
	it.groups = groups;
	it.ngroups = rlen % 2;
	a = filter_match(f, &it);
	b = filter_match(f, &it);
	if (a != b)
		abort();
	/* Signatures only skip work: the answer stays the same. */
	memset(nsig, 0, sizeof nsig);
	memset(dsig, 0, sizeof dsig);
	filter_sig_add(nsig, it.name);
	filter_sig_add(dsig, it.desc);
	it.name_sig = nsig;
	it.desc_sig = dsig;
	if (filter_match(f, &it) != a)
		abort();
	if (filter_empty(f) && !a)
		abort();
	(void)filter_flags_wanted(f);
	filter_free(f);
	free(text);
	free(rest);
	return (0);
}
