#!/bin/sh
# A group not picked on a chip, on the Live screen under tmux: its cells
# are blank (never "-", which means a read failed), the table's title
# says that totals are of the chips a column is picked on, the status
# line and the detail pane say "not picked on chip 0" for such a cell and
# which chips a total covers.
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
N=5
plan $N
command -v tmux >/dev/null 2>&1 || tui_skip_all $N "tmux is not installed"

tui_init 160 30
tui_start --sim seed=1 -d 0.2 -g PowerBus@chip:0 -g Memory_BW@chip:1
wait_for '^total ' >/dev/null

check "Live: the title says what the totals cover" \
    wait_for '^chips: PowerBus on 0; Memory_BW on 1 \(totals: only the chips a column is picked on\)'
# Chip 0's line: its Memory_BW columns are blank, PowerBUS_Frequency is
# read.
check "Live: an unpicked cell is blank" \
    wait_for '^ +0 PowerBus +[0-9.]+ +[0-9]+ +[0-9]+ *>?$'
check "status line: the cursor cell is not picked on chip 0" \
    wait_for '^chip 0 \(PowerBus\): Memory_RD_BW_Chip = not picked on chip 0'
keys Enter Down Down
check "detail pane: the total of a column says which chips it covers" \
    wait_for '^ Memory_WR_BW_Chip +[0-9.]+ [MG]B/s .* total of chip 1 only, not picked on chip 0'
check "status line: so does the total's value" \
    wait_for '^total of chips: Memory_RD_BW_Chip = [0-9.]+ [MG]B/s \(total of chip 1 only, not picked on chip 0\)'
keys q
wait_for 'EXIT=' >/dev/null
