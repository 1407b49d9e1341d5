/*
 * hvcat info on a recording (hvtop -w): what it holds without replaying
 * it.  The run (writer, source, frame, constants, interval), the time
 * span and sample count, the selections and catalogs in the order they
 * apply, the size per counter and sample, and every problem the reader
 * meets, with its byte offset.  The reader decides what is valid; this
 * file only walks the events and prints.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "catalog/catalog.h"
#include "hvcat/hvcat.h"
#include "model/frame-ident.h"
#include "record/record.h"
#include "util/be.h"
#include "util/strbuf.h"

static void
hvcat_record_selection(const struct record_selection *sel, uint64_t at)
{
	size_t	 i;
	char	*p;

	printf("selection    from sample %llu: %zu counter%s\n",
	    (unsigned long long)at, sel->ncounters,
	    sel->ncounters == 1 ? "" : "s");
	for (i = 0; i < sel->npicks; i++) {
		p = catalog_printable(sel->picks[i].spec);
		printf("               %s %s (%zu index%s x %zu event%s)\n",
		    sel->picks[i].kind == 0 ? "-g" : "-e", p,
		    sel->picks[i].nindices,
		    sel->picks[i].nindices == 1 ? "" : "es",
		    sel->picks[i].nevents,
		    sel->picks[i].nevents == 1 ? "" : "s");
		free(p);
	}
}

static void
hvcat_record_str(const char *label, const char *s)
{
	char	*p = catalog_printable(s != NULL ? s : "");

	printf("%s%s\n", label, p);
	free(p);
}

static void
hvcat_record_catalog(const struct record_reader *rd, int iface, uint64_t at)
{
	struct catalog	*cat;
	const void	*img;
	size_t		 len;
	char		*cause = NULL;

	img = record_read_catalog(rd, &len);
	printf("catalog      from sample %llu: ", (unsigned long long)at);
	if (catalog_parse(img, len, iface, &cat, &cause) != 0) {
		printf("%zu bytes that do not parse: %s\n", len, cause);
		free(cause);
		return;
	}
	printf("version %llu, built %s, %zu bytes, %zu events, %zu groups\n",
	    (unsigned long long)cat->version, cat->build_time, len,
	    cat->nevents, cat->ngroups);
	catalog_free(cat);
}

/*
 * Who the frame was, when the recording has a FRAME record: its
 * MODEL*SERIAL, its name, the partition, where the source learnt it.
 */
static void
hvcat_record_ident(const struct frame_ident *fi)
{
	struct strbuf	 sb = { 0 };
	char		 mtms[80];

	if (fi->from == FRAME_FROM_NONE)
		return;
	strbuf_adds(&sb, frame_ident_mtms(fi, mtms, sizeof mtms));
	if (fi->name[0] != '\0')
		strbuf_addf(&sb, " \"%s\"", fi->name);
	strbuf_adds(&sb, ", partition ");
	if (fi->lpar_id >= 0)
		strbuf_addf(&sb, "%d", fi->lpar_id);
	else
		strbuf_adds(&sb, "unknown");
	if (fi->lpar_name[0] != '\0')
		strbuf_addf(&sb, " \"%s\"", fi->lpar_name);
	strbuf_addf(&sb, " (from %s)", frame_ident_from(fi));
	hvcat_record_str("identity     ", sb.s);
	strbuf_free(&sb);
}

/*
 * The run as the header records it: the format version (the file
 * header's, which the reader has checked), writer, source, frame,
 * constants.
 */
static void
hvcat_record_head(const char *path, const uint8_t *buf, size_t len,
    const struct record_meta *m)
{
	const struct record_topology	*t = &m->topo;
	size_t				 i;
	char				*p;

	printf("recording    %s (%zu bytes)\n", path, len);
	printf("format       version %u\n",
	    (unsigned)be16_get(buf + RECORD_MAGIC_LEN));
	/* Every string of someone else's file is printed escaped. */
	hvcat_record_str("written by   ", m->writer);
	hvcat_record_str("source       ", m->label);
	printf("frame        %u socket%s, %u chip%s, %u core%s, SMT%u, %u "
	    "vCPU%s; hcall interface %d; timebase %llu Hz; physical "
	    "domains %s\n", t->sockets, t->sockets == 1 ? "" : "s",
	    t->chips, t->chips == 1 ? "" : "s", t->cores,
	    t->cores == 1 ? "" : "s", t->smt, t->vcpus,
	    t->vcpus == 1 ? "" : "s", t->interface,
	    (unsigned long long)t->timebase_hz,
	    t->privileged ? "allowed" : "denied");
	hvcat_record_ident(&m->frame);
	for (i = 0; i < m->nconsts; i++) {
		p = catalog_printable(m->consts[i].name);
		printf("%s %s = %g\n", i == 0 ? "constants   " : "            ",
		    p, m->consts[i].value);
		free(p);
	}
	printf("interval     %.3f s asked\n", (double)m->interval_ns / 1e9);
}

/* What the walk over the events counts for the summary. */
struct hvcat_record_tally {
	uint64_t	 first, last, samples;
	uint64_t	 body, counters, reloads;
	unsigned	 sels, cats;
};

/*
 * Walk every event, printing each new selection and catalog where it
 * starts to apply and counting the rest into *ty.
 */
static void
hvcat_record_walk(struct record_reader *rd, int iface,
    struct hvcat_record_tally *ty)
{
	struct record_event		 ev;
	struct record_selection		 prev;
	size_t				 catlen;

	hvcat_record_catalog(rd, iface, 0);
	record_selection_copy(&prev, record_read_selection(rd));
	hvcat_record_selection(&prev, 0);
	while (record_read_next(rd, &ev) != RECORD_EV_EOF) {
		switch (ev.kind) {
		case RECORD_EV_SAMPLE:
			if (ty->samples == 0) {
				ty->first = ev.time;
				ty->body = ev.offset;
			}
			ty->last = ev.time;
			ty->counters += ev.sample->nvalues;
			ty->samples++;
			break;
		case RECORD_EV_SELECT:
			/* A reload writes the same selection again. */
			if (record_selection_compare(&prev,
			    record_read_selection(rd)) == 0)
				break;
			record_selection_free(&prev);
			record_selection_copy(&prev, record_read_selection(rd));
			ty->sels++;
			hvcat_record_selection(&prev, ty->samples);
			break;
		case RECORD_EV_CATALOG:
			ty->cats++;
			if (ty->samples > 0)
				(void)record_read_catalog(rd, &catlen);
			else
				catlen = 0;
			ty->reloads += catlen;
			hvcat_record_catalog(rd, iface, ty->samples);
			break;
		}
	}
	record_selection_free(&prev);
}

/*
 * The time span, the changes and the size per counter and sample.  The
 * size line is left open: what follows it starts with the newline.
 */
static void
hvcat_record_span(const struct record_meta *m, size_t len,
    const struct hvcat_record_tally *ty)
{
	struct strbuf	sb = { 0 };

	printf("samples      %llu", (unsigned long long)ty->samples);
	if (ty->samples > 0) {
		strbuf_addtime(&sb, m->epoch_ns + ty->first, 1);
		strbuf_adds(&sb, " to ");
		strbuf_addtime(&sb, m->epoch_ns + ty->last, 1);
		printf(", %s (%.3f s)", sb.s,
		    (double)(ty->last - ty->first) / 1e9);
		strbuf_free(&sb);
	}
	printf("\nchanges      %u selection%s, %u catalog reload%s\n",
	    ty->sels, ty->sels == 1 ? "" : "s", ty->cats,
	    ty->cats == 1 ? "" : "s");
	printf("size         %llu bytes before the first sample",
	    (unsigned long long)(ty->samples > 0 ? ty->body : len));
	if (ty->reloads > 0)
		printf("; %llu in reloaded catalogs",
		    (unsigned long long)ty->reloads);
	if (ty->counters > 0 && len - ty->body > ty->reloads)
		printf("; %.2f bytes per counter per sample for the rest",
		    (double)(len - ty->body - ty->reloads) /
		    (double)ty->counters);
}

/*
 * How the file ends and every problem the reader met.  Returns 1 when
 * one of them is more than a cut, 0 otherwise.
 */
static int
hvcat_record_problems(const struct record_reader *rd)
{
	struct record_stats		 st;
	const struct record_diag	*d;
	size_t				 i;
	int				 status = 0;

	record_read_stats(rd, &st);
	printf("\nheartbeats   %llu\n", (unsigned long long)st.heartbeats);
	printf("closed       %s\n", st.clean_end ? "yes" : "no: the writer "
	    "did not finish the file (killed, or still writing)");
	printf("problems     %zu", st.ndiags);
	if (st.dropped_records > 0 || st.skipped_bytes > 0)
		printf(" (%llu records, %llu samples and %llu bytes lost)",
		    (unsigned long long)st.dropped_records,
		    (unsigned long long)st.dropped_samples,
		    (unsigned long long)st.skipped_bytes);
	printf("\n");
	for (i = 0; i < st.ndiags && i < RECORD_DIAG_MAX; i++) {
		d = record_read_diag(rd, i);
		printf("  %s\n", d->text);
		/* A recording cut short is still whole up to the cut. */
		if (d->kind != RECORD_DIAG_UNCLOSED &&
		    d->kind != RECORD_DIAG_TORN)
			status = 1;
	}
	return (status);
}

int
hvcat_record_info(const char *path, const void *buf, size_t len)
{
	const struct record_meta	*m;
	struct record_reader		*rd;
	struct hvcat_record_tally	 ty = { 0 };
	char				*cause = NULL;
	int				 status;

	if (record_read_open(buf, len, &rd, &cause) != 0) {
		fprintf(stderr, "hvcat: %s: %s\n", path, cause);
		free(cause);
		return (1);
	}
	m = record_read_meta(rd);
	hvcat_record_head(path, buf, len, m);
	hvcat_record_walk(rd, m->topo.interface, &ty);
	hvcat_record_span(m, len, &ty);
	status = hvcat_record_problems(rd);
	record_read_free(rd);
	return (status);
}

/*
 * hvcat check on a recording: read every record as a replay would, and
 * parse every catalog it carries.  Problems go to stderr with their byte
 * offsets; a file cut short (torn, or not closed) is still whole up to
 * the cut, as for hvcat info.  Returns 0 valid, 1 damaged.
 */
int
hvcat_record_check(const char *path, const void *buf, size_t len)
{
	struct record_reader		*rd;
	struct record_event		 ev;
	struct record_stats		 st;
	const struct record_diag	*d;
	struct catalog			*cat;
	const void			*img;
	size_t				 i, imglen;
	char				*cause = NULL;
	uint64_t			 samples = 0;
	unsigned			 cats = 0, badcats = 0;
	int				 iface, status = 0;

	if (record_read_open(buf, len, &rd, &cause) != 0) {
		fprintf(stderr, "hvcat: %s: a recording that cannot be read: "
		    "%s\n", path, cause);
		free(cause);
		return (1);
	}
	iface = record_read_meta(rd)->topo.interface;
	for (;;) {
		img = record_read_catalog(rd, &imglen);
		cats++;
		if (catalog_parse(img, imglen, iface, &cat, &cause) != 0) {
			fprintf(stderr, "hvcat: %s: catalog %u: %s\n", path,
			    cats, cause);
			free(cause);
			cause = NULL;
			badcats++;
		} else {
			if (cat->nerrors > 0) {
				fprintf(stderr, "hvcat: %s: catalog %u has %zu "
				    "error%s (hvcat info shows it)\n", path,
				    cats, cat->nerrors,
				    cat->nerrors == 1 ? "" : "s");
				badcats++;
			}
			catalog_free(cat);
		}
		do {
			ev.kind = RECORD_EV_EOF;
			if (record_read_next(rd, &ev) == RECORD_EV_EOF)
				break;
			if (ev.kind == RECORD_EV_SAMPLE)
				samples++;
		} while (ev.kind != RECORD_EV_CATALOG);
		if (ev.kind != RECORD_EV_CATALOG)
			break;
	}
	record_read_stats(rd, &st);
	for (i = 0; i < st.ndiags && i < RECORD_DIAG_MAX; i++) {
		d = record_read_diag(rd, i);
		fprintf(stderr, "hvcat: %s: %s\n", path, d->text);
		if (d->kind != RECORD_DIAG_UNCLOSED &&
		    d->kind != RECORD_DIAG_TORN)
			status = 1;
	}
	if (badcats > 0)
		status = 1;
	if (status == 0)
		printf("%s: valid recording: %llu sample%s, %u catalog%s, "
		    "%s\n", path, (unsigned long long)samples,
		    samples == 1 ? "" : "s", cats, cats == 1 ? "" : "s",
		    st.clean_end ? "closed" : "not closed (the writer did not "
		    "finish it)");
	else
		fprintf(stderr, "hvcat: %s: damaged recording: %zu problem%s, "
		    "%u bad catalog%s\n", path, st.ndiags,
		    st.ndiags == 1 ? "" : "s", badcats,
		    badcats == 1 ? "" : "s");
	record_read_free(rd);
	return (status);
}
