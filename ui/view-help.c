/*
 * The Help screen: what the columns of the screen the user came from
 * mean, every key (from the key table, keys.c, which the manual page is
 * checked against) and the filter syntax.  No curses.
 */
#include "config.h"

#include "ui/view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/keys.h"
#include "util/xalloc.h"

#define VIEW_HELP_KEYS	96	/* lines of keys at most */
#define VIEW_HELP_LINES	160

/* After the keys, which come from the key table. */
static const char *const view_help_filter[] = {
	"Filter: words are case-insensitive substrings of the name or the "
	    "description, all must match;",
	"  \"two words\"  name:WORD  re:REGEX (POSIX, case-insensitive)  "
	    "!TERM negates",
	"  domain:chip|core|vcpu  flag:verified|unverified|caveat|broken|"
	    "hidden|picked  group:NAME",
	"  e.g. on Live, / memory bandwidth Enter keeps the memory bandwidth "
	    "columns of every chip",
	"",
	NULL
};

static const char *const view_help_live[] = {
	"Live columns",
	"  chip, core, vcpu  the index the row shows; total: all rows of the "
	    "table",
	"  group             the groups read on that index (when several run "
	    "on one table)",
	"  event columns     rate per second over the interval",
	"  metric columns    catalog formulas and -m metrics in their own "
	    "units; totals are computed from the summed operands, so a "
	    "ratio's total is the ratio of the sums",
	"  unit line         one prefix per column (k/s, M/s, GB/s: "
	    "thousands, millions, billions), shared by a table's columns "
	    "of one unit family",
	"  -                 no value: the read failed, was denied, was busy, "
	    "went backwards or was stale, or a division by zero",
	"  ?                 a metric that cannot be computed (the status line "
	    "and Enter say why)",
	"  blank             that column's group is not picked on this "
	    "index (not a failure); a total is then only of the indices "
	    "picked, which the status line and Enter say",
	NULL
};

static const char *const view_help_frame[] = {
	"Frame screen",
	"  boxes             one per chip (s: its socket); the cells inside "
	    "are its cores, in order",
	"  cell colour       the metric named on the first line, cold to hot "
	    "on the scale below it (from 0 to the largest value shown); "
	    "without colours the first character shades it: . , : - = + * "
	    "# % @",
	"  cell number       the value, where the cell is wide enough; - no "
	    "value, or the core is not read",
	"  RD WR PB LK       chip bars: memory read and write bandwidth, "
	    "PowerBus and link utilisation (where a chip metric computes "
	    "them), against the largest value seen",
	"  hist              the chip's mean of the metric over the last "
	    "intervals",
	NULL
};

static const char *const view_help_lpar[] = {
	"Partitions columns",
	"  LPAR              the partition's id (* this one); open, VCPU: "
	    "the virtual processor",
	"  VCPUS             virtual processors seen; open, HOME: its home "
	    "core, - where no source says",
	"  CYCLES/S, INSTR/S the cycles and instructions events of the group "
	    "read by partition, summed over the four placements (domains 3 "
	    "to 6)",
	"  CORES             cycles / the cores' frequency (CPU_Freq): how "
	    "many cores' worth it ran",
	"  IPC-NI, IPC       instructions per non-idle cycle, or per core "
	    "cycle where non-idle cycles are not read",
	"  %OFFCHIP          share of the cycles run off the home chip "
	    "(home node and remote node)",
	"  %REMOTE           share of the cycles run on another node",
	"  = + o #           the bar: home core, home chip, home node, "
	    "remote node",
	"  - ?               no value, as on Live (the status line says why)",
	NULL
};

static const char *const view_help_events[] = {
	"Events columns",
	"  NAME              the sysfs name (__N marks a duplicate name in "
	    "one domain)",
	"  DOMAIN            chip, core, vhcore/vhchip/vhnode/vrnode (virtual "
	    "processor home core, chip, node, remote node)",
	"  FLAGS             V verified, U unverified, C caveat, B broken, "
	    "H hidden (the kernel would not list it)",
	"  OFFSET            byte offset of the counter in the domain's "
	    "records",
	"  GROUPS            how many groups hold the event",
	"  *                 picked: read on the Live screen",
	NULL
};

static const char *const view_help_groups[] = {
	"Groups columns",
	"  NAME, DOMAIN      the group and where it is counted",
	"  EVENTS            how many events share its counter record",
	"  RECORD            record offset+length in bytes",
	"  PICKED            where it is read now (chip 0-1 ...)",
	NULL
};

static const char *const view_help_formulas[] = {
	"Formulas columns",
	"  NAME, UNIT        the metric and its unit",
	"  GROUP             the catalog group the formula belongs to",
	"  ORIGIN            catalog, or the metric file it came from",
	"  LIVE              yes when the Live screen computes it",
	"  FORMULA           the expression in infix (the detail pane adds RPN "
	    "and each operand's source)",
	NULL
};

/*
 * Lay the help out for the width: long lines wrap at spaces, key lines
 * with their text aligned after the key column.  The table holds each
 * entry on one line, whatever its length: it is wrapped here only, to
 * the width of the screen.  Returns the number of
 * lines; with f NULL nothing is drawn (counting only).
 */
static size_t
view_help_lay(struct view_canvas *f, const char *const *lines, size_t n,
    int width, size_t top, int y0, int y1)
{
	const char	*p, *brk;
	size_t		 i, out = 0;
	int		 indent, avail, len, role, first;

	for (i = 0; i < n; i++) {
		p = lines[i];
		role = p[0] != ' ' && p[0] != '\0' ? UI_R_TITLE : UI_R_NORMAL;
		indent = p[0] == ' ' && strlen(p) > 21 && p[19] == ' ' &&
		    p[20] != ' ' ? 20 : 4;
		first = 1;
		do {
			avail = width - (first ? 0 : indent);
			if (avail < 10)
				avail = 10;
			len = (int)strlen(p);
			if (len > avail) {
				for (brk = p + avail; brk > p && *brk != ' ';
				    brk--)
					;
				len = brk > p ? (int)(brk - p) : avail;
			}
			if (f != NULL && out >= top &&
			    y0 + (int)(out - top) < y1)
				view_put(f, y0 + (int)(out - top), first ? 0 :
				    indent, p, len, role);
			out++;
			p += len;
			while (*p == ' ')
				p++;
			first = 0;
		} while (*p != '\0');
	}
	return (out);
}

/*
 * The key lines, section by section: "  KEYS              what they do",
 * the text after the key column at 20 so that it wraps aligned.  Returns
 * the number of lines added to lines (allocated, caller frees them).
 */
static size_t
view_help_keys(char **lines, size_t max)
{
	const struct keys_entry	*e;
	size_t			 n = 0, i;
	int			 s;

	for (s = 0; s < KEYS_NSECTIONS && n < max; s++) {
		lines[n++] = xstrdup(keys_section_title(s));
		for (i = 0; i < keys_count && n + 1 < max; i++) {
			e = &keys_table[i];
			if ((int)e->section != s || e->names == NULL)
				continue;
			if (strlen(e->names) <= 17)
				lines[n++] = xasprintf("  %-17s %s", e->names,
				    e->help);
			else
				lines[n++] = xasprintf("  %s  %s", e->names,
				    e->help);
		}
		if (n < max)
			lines[n++] = xstrdup("");
	}
	return (n);
}

/*
 * The help's lines for the screen it was asked from: that screen's
 * columns first (that is why help was asked), the keys, the filter.
 * Returns how many; *keys holds what to free (view_help_free()).
 */
static size_t
view_help_lines(const struct ui *ui, const char **lines, size_t max,
    char **keys, size_t *nkeys)
{
	const char *const	*cols;
	size_t			 n = 0, i;

	switch (ui->back) {
	case UI_EVENTS:
		cols = view_help_events;
		break;
	case UI_GROUPS:
		cols = view_help_groups;
		break;
	case UI_FORMULAS:
		cols = view_help_formulas;
		break;
	case UI_FRAME:
		cols = view_help_frame;
		break;
	case UI_LPAR:
		cols = view_help_lpar;
		break;
	default:
		cols = view_help_live;
		break;
	}
	for (i = 0; cols[i] != NULL && n < max; i++)
		lines[n++] = cols[i];
	if (n < max)
		lines[n++] = "";
	*nkeys = view_help_keys(keys, VIEW_HELP_KEYS);
	for (i = 0; i < *nkeys && n < max; i++)
		lines[n++] = keys[i];
	for (i = 0; view_help_filter[i] != NULL && n < max; i++)
		lines[n++] = view_help_filter[i];
	return (n);
}

static void
view_help_free(char **keys, size_t nkeys)
{
	size_t	 i;

	for (i = 0; i < nkeys; i++)
		free(keys[i]);
}

/* The first line shown: where the user scrolled, short of blank rows. */
static size_t
view_help_top(const struct ui *ui, int width, int y0, int y1)
{
	const char	*lines[VIEW_HELP_LINES];
	char		*keys[VIEW_HELP_KEYS];
	size_t		 n, nkeys, total, max;

	n = view_help_lines(ui, lines, VIEW_HELP_LINES, keys, &nkeys);
	total = view_help_lay(NULL, lines, n, width, 0, 0, 0);
	view_help_free(keys, nkeys);
	max = total > (size_t)(y1 - y0) ? total - (size_t)(y1 - y0) : 0;
	return (ui->list[UI_HELP].top > max ? max : ui->list[UI_HELP].top);
}

static void
view_help_fit(struct ui *ui, int width, int y0, int y1)
{
	ui->list[UI_HELP].top = view_help_top(ui, width, y0, y1);
}

static void
view_help(const struct ui *ui, struct view_canvas *f, int y0, int y1)
{
	const char	*lines[VIEW_HELP_LINES];
	char		*keys[VIEW_HELP_KEYS];
	size_t		 n, nkeys;

	n = view_help_lines(ui, lines, VIEW_HELP_LINES, keys, &nkeys);
	view_help_lay(f, lines, n, f->width, view_help_top(ui, f->width, y0,
	    y1), y0, y1);
	view_help_free(keys, nkeys);
}

const struct view_screen view_help_screen = {
	.name = "Help",
	.fit = view_help_fit,
	.render = view_help,
};
