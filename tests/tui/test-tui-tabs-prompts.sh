#!/bin/sh
# Tab goes through every tab of the header, Help last, as the manual says;
# the Frame screen's metric prompt marks a cut list of matches with '~'
# and answers a name that is no metric with the names it may have meant;
# a replay of intervals under a second shows when each sample was taken
# to the millisecond.
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
N=15
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
check "Tab from Help: Live" wait_for '^chips: Memory_BW on 0-3'
keys BTab
check "Shift-Tab from Live: Help, on the Live columns" \
    wait_for '^Live columns'
keys BTab
check "Shift-Tab from Help: Formulas" wait_for 'NAME +UNIT +GROUP +ORIGIN'
keys h
wait_for '^Formulas columns' >/dev/null
keys Tab
check "h, then Tab: the screen after the one help was opened on" \
    wait_for '^chips: Memory_BW on 0-3'

# The Frame screen's metric prompt.
keys Tab
wait_for 'per core, interval' >/dev/null
keys m
wait_for '^metric \(Tab completes' >/dev/null
keys Tab Tab
check "m Tab Tab at 80 columns: the cut list of matches ends in ~" \
    wait_for '^[0-9]+ matches: CPM_.*~$'
keys C-u
text Memory_BW_
keys Enter
check "m Memory_BW_: did you mean the one name it starts" \
    wait_for 'no metric Memory_BW_: did you mean Memory_BW_Chip\?'
keys m
text cpm_non
keys Enter
check "m cpm_non: the names that start with it, whatever the case" \
    wait_for 'no metric cpm_non; 2 start with it: CPM_NON_IDLE_INST CPM_NON_IDLE_PCYC'
keys m
text CPM_1THRD_NON_IDLE_CCYC
keys Enter
check "m with an event of the catalog not read: pick it first" \
    wait_for 'CPM_1THRD_NON_IDLE_CCYC is not read on chips or cores: pick it first'
keys m
text no_such_name
keys Enter
check "m with a name nobody knows: says so" \
    wait_for 'no metric, event or group no_such_name'
keys m
text Memory_BW_Chip
keys Enter
check "m with a metric's whole name: the legend names it" \
    wait_for '^Memory_BW_Chip MB/s per chip'
keys q
check "q quits with status 0" wait_for '^EXIT=0$'

# A replay of a recording made every 0.2 s.
"$HVTOP" -b -n 12 -d 0.2 --sim clock=virtual,seed=7 -w "$tmpdir/t.hvr" \
    -o /dev/null 2>/dev/null
T resize-window -t main -x 120 -y 30
keys "clear; sh $tmpdir/run.sh -r $tmpdir/t.hvr -d 0.2; echo EXIT=\$?" Enter
check "a replay at 0.2 s: the end is reached" \
    wait_for '^ REPLAY +END '
check "a replay at 0.2 s: the sample's time has its milliseconds" \
    wait_for 'sample 13/13 at 1x  2026-01-01T00:00:02\.400Z'
keys q
check "the replay quits with status 0" wait_for '^EXIT=0$'
exit $tap_failed
