#!/bin/sh
# Units on the Live screen under tmux: every column has one prefix, in
# its unit line, chosen from its largest value, so that no cell carries
# its own suffix (not 9063 beside 13.5k in one MB/s column), and the
# bandwidth columns of a table share it; the status line and the detail
# pane give a value in the unit of its column.  On the Frame screen every
# chip bar's value carries its unit, and the status line's value too.
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
N=8
plan $N
command -v tmux >/dev/null 2>&1 || tui_skip_all $N "tmux is not installed"

# Chip 0 reads 9 GB/s, the total 13 GB/s: MB/s alone would need 5 digits.
tui_init 200 30
tui_start --sim seed=1 -d 0.2 -g PowerBus@chip:0 -g Memory_BW@chip:1 \
    -g Memory_BW@chip:0
wait_for '^total ' >/dev/null

# A value with a prefix of its own in a row of the chip table.
suffixed() {
	screen | awk '/^ +[0-9]+ [A-Za-z]/ || /^total / { print }' |
	    sed -E 's/^ +[0-9]+ [A-Za-z_+]+//; s/^total//' |
	    grep -Eq '[0-9][kMGTPE]( |>|$)'
}
check "Live: the bandwidth columns are in GB/s, the unit line says so" \
    wait_for '^ +GB/s +GB/s +GHz +GB/s +M/s'
check_not "Live: no cell carries a prefix of its own" suffixed
check "status line: the cursor cell in its column's unit" \
    wait_for '^chip 0 .*: Memory_RD_BW_Chip = [0-9]\.[0-9]{2} GB/s'
keys Enter
check "detail pane: every value in its column's unit" \
    wait_for '^ Memory_WR_BW_Chip +[0-9]\.[0-9]{2} GB/s'
keys q
wait_for 'EXIT=' >/dev/null

# The Frame screen: a chip's RD and WR bars, each value with its unit.
tui_start --sim seed=1 -d 0.2 -g Memory_BW@chip -g CPM_0THRD_NON_IDLE_CCYC
wait_for '^total ' >/dev/null
keys Tab
wait_for '^\|RD ' >/dev/null
# Bar lines whose value does not end in a unit.
bare() {
	screen | grep -oE '\|(RD|WR|PB|LK) [^|]*\|' |
	    grep -Evq '[0-9] ?[kMGTPE]?(B/s|%)\|$'
}
check "Frame: the WR bars of both chips in GB/s" \
    wait_for '\|WR #* +[0-9.]+GB/s\| \|WR #* +[0-9.]+GB/s\|$'
check_not "Frame: no bar value without its unit" bare
# An event rate as the heat (the default is a metric without a prefix).
keys m
text CPM_0THRD_NON_IDLE_CCYC
keys Enter
wait_for '^CPM_0THRD_NON_IDLE_CCYC [kMG]?/s per core' >/dev/null
keys Right
check "Frame: the status line gives a core's value in one unit" \
    wait_for '^core 0 \(chip 0\): CPM_0THRD_NON_IDLE_CCYC = [0-9.]+ [kMG]/s$'
keys q
wait_for 'EXIT=' >/dev/null
check "hvtop ended clean (no sanitizer report)" tui_clean
