#!/bin/sh
# Tab goes through every tab of the header, Help last, as the manual says;
# the Frame screen's metric prompt marks a cut list of matches with '~'.
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
N=7
plan $N
command -v tmux >/dev/null 2>&1 || tui_skip_all $N "tmux is not installed"

tui_init 80 24
tui_start --sim clock=virtual,seed=3
wait_for '^total ' >/dev/null
keys Tab Tab Tab Tab
wait_for 'NAME +UNIT +GROUP +ORIGIN' >/dev/null
keys Tab
check "Tab from Formulas: Help, on the Formulas columns" \
    wait_for '^Formulas columns'
keys Tab
check "Tab from Help: Live" wait_for '^chips: Memory_BW on 0-1'
keys BTab
check "Shift-Tab from Live: Help, on the Live columns" \
    wait_for '^Live columns'
keys BTab
check "Shift-Tab from Help: Formulas" wait_for 'NAME +UNIT +GROUP +ORIGIN'
keys h
wait_for '^Formulas columns' >/dev/null
keys Tab
check "h, then Tab: the screen after the one help was opened on" \
    wait_for '^chips: Memory_BW on 0-1'

# The Frame screen's metric prompt.
keys Tab
wait_for 'per core, interval' >/dev/null
keys m
wait_for '^metric \(Tab completes' >/dev/null
keys Tab Tab
check "m Tab Tab at 80 columns: the cut list of matches ends in ~" \
    wait_for '^[0-9]+ matches: CPM_.*~$'
keys Escape
wait_gone '^metric \(Tab completes' >/dev/null
keys q
check "q quits with status 0" wait_for '^EXIT=0$'
exit $tap_failed
