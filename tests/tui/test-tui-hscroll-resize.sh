#!/bin/sh
# Live scrolled sideways on a narrow terminal, then the terminal grows:
# the columns hidden on the left come back as soon as there is room for
# them, instead of blanks after the last column.
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
N=8
plan $N
command -v tmux >/dev/null 2>&1 || tui_skip_all $N "tmux is not installed"

tui_init 80 24
tui_start --sim clock=virtual,seed=3
wait_for '^total ' >/dev/null
keys Right Right Right Right Right Right
check "80x24, six columns right: the chip table is scrolled" \
    wait_for '^chip +<'
T resize-window -t main -x 200 -y 24
check "200x24: the chip table is no longer scrolled" \
    wait_for '^chip +Memory_ +Memory_ '
check "200x24: ... and has no < marker" wait_gone '^chip +<'
check "200x24: the cursor column is still the one moved to" \
    wait_for '^chip 0: PM_MCS23_128B_RD_DISP_PORT01 = '

# The core table at 40x24 with its history column (S), scrolled to its
# last column: down past the 4 chips and their total to core 0.
T resize-window -t main -x 40 -y 24
wait_for '^chip +<' >/dev/null
keys Down Down Down Down Down Right Right Right Right Right Right S
wait_for '^core 0: CPM_0THRD_NON_IDLE_CCYC = ' >/dev/null
check "40x24, the core table's last column: the table is scrolled" \
    wait_for '^core +<'
T resize-window -t main -x 300 -y 100
check "300x100: every column of the core table is back" \
    wait_for '^core +hvtop_busy +hvtop_ipc +CPM_CCYC +CPM_32MHZ_CYC +CPM_NON_IDLE_INST +CPM_NON_IDLE_PCYC +CPM_0THRD_NON_IDLE_CCYC'
check "300x100: ... and so is every column of the chip table" \
    wait_for '^chip +Memory_RD_BW_Chip +Memory_WR_BW_Chip'
keys q
check "q quits with status 0" wait_for '^EXIT=0$'
exit $tap_failed
