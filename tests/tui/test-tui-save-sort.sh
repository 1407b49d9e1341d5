#!/bin/sh
# W saves every screen's sort: the Partitions screen's (and its reverse)
# and the Live screen's partition tables', which a new hvtop reads back.
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
N=8
plan $N
command -v tmux >/dev/null 2>&1 || tui_skip_all $N "tmux is not installed"

tui_init 100 30
tui_start --sim clock=virtual,seed=3 -d 1
wait_for '^total ' >/dev/null
keys P
wait_for '^3 partitions' >/dev/null
keys '<'
wait_for '^3 partitions, by %REMOTE' >/dev/null
keys R
wait_for '^3 partitions, by %REMOTE reversed' >/dev/null
keys W
wait_for 'settings written to' >/dev/null
keys q
wait_for '^EXIT=0$' >/dev/null
check "W writes the Partitions screen's sort" \
    grep -qx 'sort.partitions=%REMOTE' "$HVTOP_CONFIG"
check "... and its reverse" grep -qx 'reverse.partitions=1' "$HVTOP_CONFIG"

tui_start --sim clock=virtual,seed=3 -d 1
wait_for '^total ' >/dev/null
keys P
check "a new hvtop sorts the partitions as saved" \
    wait_for '^3 partitions, by %REMOTE'
check "... in the saved direction" \
    sh -c "tmux -L $sock capture-pane -p -t main |
	grep -q '^3 partitions, by %REMOTE reversed'"
keys q
wait_for '^EXIT=0$' >/dev/null

# The Live screen's table of partitions, sorted by a column.
tui_start --sim clock=virtual,seed=3,lpars=4 -d 1 -g CPM_32MHZ_CYC@lpar
wait_for '^lpars: ' >/dev/null
wait_for '^total ' >/dev/null
keys '>'
check "> sorts the partitions' table" \
    wait_for '^lpars: .*sorted by [A-Za-z]'
col=$(screen | sed -n 's/^lpars: .*sorted by \([A-Za-z0-9_]*\).*/\1/p' |
    head -n 1)
keys W
wait_for 'settings written to' >/dev/null
keys q
wait_for '^EXIT=0$' >/dev/null
check "W writes the Live partition table's sort" \
    grep -qx "sort.lpar=$col" "$HVTOP_CONFIG"
tui_start --sim clock=virtual,seed=3,lpars=4 -d 1
wait_for '^total ' >/dev/null
check "a new hvtop sorts that table as saved" \
    wait_for "^lpars: .*sorted by $col"
keys q
wait_for '^EXIT=0$' >/dev/null
check "no sanitizer report" tui_clean
