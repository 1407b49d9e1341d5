#!/bin/sh
# At 80x24: the catalog's detail pane scrolls (J, K) to every line it has,
# a list cell cut to its column says so with '~', so do Live's detail
# pane and status line when a formula is longer than the screen, and the
# help is wrapped
# once, to the width of the screen (no line left short by a wrap made for
# a wider one).
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
N=13
plan $N
command -v tmux >/dev/null 2>&1 || tui_skip_all $N "tmux is not installed"

tui_init 80 24
tui_start --sim seed=5 -d 0.5
wait_for '^total ' >/dev/null

# Help from Live: a line continued on the next would have taken the next
# line's first word had it fitted, so no line ends early.
keys h
wait_for 'Live columns' >/dev/null
filled() {
	screen | awk -v w=80 '
	prev != "" && /^                    [^ ]/ {
		word = $1
		if (length(prev) + 1 + length(word) <= w) {
			print "short: " prev; bad = 1
		}
	}
	{ prev = $0 }
	END { exit bad }'
}
check "80x24 help: the Live columns are wrapped to the width, once" filled
check "80x24 help: the minus entry reads as one sentence" \
    wait_for 'stale, or a'
keys Escape
wait_gone 'Live columns' >/dev/null
keys BTab BTab
wait_for 'NAME +UNIT +GROUP' >/dev/null
keys /
wait_for '^filter:' >/dev/null
keys C-u
text 'name:Memory_BW_Chip'
keys Enter
keys v
check "the detail pane opens" wait_for '^details \(v hides\)'
check "its title says which of its lines are shown" \
    wait_for '^details \(v hides\) +lines 1-[0-9]+ of [0-9]+ \(J K scroll\)'
check "the last operand is below the pane at first" \
    wait_gone 'PM_MCS23_128B_WR_DISP_PORT23 +event'
keys J J J J J J J J J J J J J J J J J J J J J J J J J J J J J J
check "J scrolls to the last operand" \
    wait_for 'PM_MCS23_128B_WR_DISP_PORT23 +event'
check "... and no further than the last line" \
    wait_for '^ +PM_MCS23_128B_WR_DISP_PORT23 +event.*$'
keys K K K K K K K K K K K K K K K K K K K K K K K K K K K K K K
check "K scrolls back to the top" wait_for '^ infix: '

# The Events list at 80 columns: a description cut to its column ends in
# '~'.
keys = Tab Tab Tab Tab
check "Events at 80 columns: a cut description ends with ~" \
    wait_for '^. CPM_[A-Z0-9_]+ +core .*~$'

# Live's detail pane at 80 columns: a metric's formula longer than the
# line ends in '~', and so does the status line that shows it.
keys v
wait_gone '^details \(v hides\)' >/dev/null
keys Tab Tab Tab Tab
wait_for '^chips: ' >/dev/null
keys Enter
# Below the chart the pane lists the columns up to the cursor's.
keys Right Right Right
check "Live detail at 80 columns: a cut formula ends with ~" \
    wait_for '^ Memory_BW_Chip +[0-9.]+ [MG]B/s .*~$'
keys Left Left Left
wait_for 'chart: Memory_RD_BW_Chip' >/dev/null
marked() {
	screen | awk '/^ Memory_(RD|WR)_BW_Chip / { n++ }
	    /^ Memory_(RD|WR)_BW_Chip / && length($0) >= 80 && !/~$/ { bad = 1 }
	    END { exit bad || n != 2 }'
}
check "... and no formula line of the pane is cut without it" marked
check "Live status line at 80 columns: a cut formula ends with ~" \
    wait_for '^chip 0: Memory_RD_BW_Chip = .*~$'
keys q
check "q quits with status 0" wait_for '^EXIT=0$'
exit $tap_failed
