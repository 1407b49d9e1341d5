#!/bin/sh
# Column names cut to fit 80 columns stay distinct: the power10 memory
# bandwidth metrics differ only in their middle (TOTAL_MCS_READ_BW_MC0_
# CHAN01 ... MC3), and the cut keeps that part and marks what it drops
# with '~'.
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
N=7
plan $N
command -v tmux >/dev/null 2>&1 || tui_skip_all $N "tmux is not installed"

# names: the chip table's column names as shown, the two header lines of
# a column joined (names are right-aligned: the parts end in the same
# column), one a line.
names() {
	screen | sed -n '/^chip[ <]/{p;n;p;q;}' | sed 's/^chip/    /' |
	    tr '<>' '  ' | awk '
	{
		n = length($0)
		for (i = 1; i <= n; i++) {
			c = substr($0, i, 1)
			if (c == " " || (i < n && substr($0, i + 1, 1) != " "))
				continue
			for (j = i; j > 0 && substr($0, j, 1) != " "; j--) ;
			w[i] = w[i] substr($0, j + 1, i - j)
			if (!(i in seen)) { seen[i] = 1; ord[++m] = i }
		}
	}
	END { for (k = 1; k <= m; k++) print w[ord[k]] }' >"$tmpdir/names"
}

# distinct: four names or more, none shown twice.
distinct() {
	until_ok 5 distinct_now && return 0
	diag "names: $(tr '\n' ' ' <"$tmpdir/names")"
	return 1
}
distinct_now() {
	names
	[ "$(wc -l <"$tmpdir/names")" -ge 4 ] &&
	    [ -z "$(sort "$tmpdir/names" | uniq -d)" ]
}

tui_init 80 24
tui_start --sim catalog=power10,clock=virtual,seed=3
wait_for '^total ' >/dev/null
keys /
text "memory bandwidth"
keys Enter
check "the filter keeps the memory bandwidth metrics" \
    wait_for 'TOTAL_MCS_ +TOTAL_MCS_ +TOTAL_MCS_'
check "80x24: the four read bandwidth names read differently" distinct
check "80x24: ... and each keeps its controller's number" \
    wait_for 'MC0_CHAN01 .*MC1_CHAN01 .*MC2_CHAN01 .*MC3_CHAN01'
check "80x24: a cut name says so with ~" wait_for '~MC0_CHAN01'
keys Right Right Right Right Right Right
check "80x24, scrolled to the write bandwidth: still distinct" distinct
check "80x24, scrolled: ... the write names keep their numbers" \
    wait_for 'MC0_CHAN01 .*MC1_CHAN01 .*MC2_CHAN01'
keys q
check "q quits with status 0" wait_for '^EXIT=0$'
exit $tap_failed
