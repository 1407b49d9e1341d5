#!/bin/sh
# A group not picked on a chip, on the Live screen under tmux: its cells
# are blank (never "-", which means a read failed), the table's title
# says that totals are of the chips a column is picked on, the status
# line and the detail pane say "not picked on chip 0" for such a cell and
# which chips a total covers.  On the Frame screen a core or a chip bar
# whose group is not picked is blank, never "-" (the heat is hvtop_ipc,
# which every core group reads).
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
N=9
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
    wait_for '^ +0 PowerBus +[0-9.]+ +[0-9.]+ +[0-9.]+ *>?$'
check "status line: the cursor cell is not picked on chip 0" \
    wait_for '^chip 0 \(PowerBus\): Memory_RD_BW_Chip = not picked on chip 0'
keys Enter Down Down
check "detail pane: the total of a column says which chips it covers" \
    wait_for '^ Memory_WR_BW_Chip +[0-9.]+ [MG]B/s .* total of chip 1 only, not picked on chip 0'
check "status line: so does the total's value" \
    wait_for '^total of chips: Memory_RD_BW_Chip = [0-9.]+ [MG]B/s \(total of chip 1 only, not picked on chip 0\)'
keys q
wait_for 'EXIT=' >/dev/null

# The Frame screen: cores 0-3 and chip 0 picked, the rest blank.
tui_start --sim seed=1 -d 0.2 -g Memory_BW@chip:0 -g CPM_0THRD_NON_IDLE_CCYC:0-3
wait_for '^total ' >/dev/null
keys Tab
check "Frame: the picked cores have values, the others are blank" \
    wait_for '^\| *[0-9.]+[kMG]? +[0-9.]+[kMG]? +[0-9.]+[kMG]? +[0-9.]+[kMG]? +\|( |$)'
# A "-" cell or bar value inside a chip's box.
dash() { screen | grep -E '^\|' | grep -v '^|hist' | grep -Eq '[| ]-( |\|)'; }
check_not "Frame: no '-' where a group was not picked" dash
keys Right Right Right Right Right
check "Frame: the status line says a core is not picked" \
    wait_for '^core 4 \(chip 0\): hvtop_ipc = not picked here$'
keys q
wait_for 'EXIT=' >/dev/null
check "hvtop ended clean (no sanitizer report)" tui_clean
