#!/bin/sh
# Home and End on the Live screen, a chip table above a core table, as
# terminals send them: tmux's own entry, and TERM=xterm-256color, whose
# entry has other sequences than the VT220 ones tmux, screen and PuTTY
# send (there they are Find and Select).  End goes to the core table's
# total; Home brings back the top of the screen, the chip table's title.
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
N=7
plan $N
command -v tmux >/dev/null 2>&1 || tui_skip_all $N "tmux is not installed"

home_end() {
	tui_start --sim clock=virtual,seed=3 -g PowerBus@chip \
	    -g CPM_32MHZ_CYC@core
	wait_for '^total ' >/dev/null
	keys Down Down Down
	# The cursor on the last of the 4 chips: the keys were read.
	wait_for '^chip 3: ' >/dev/null
	keys End
	check "$1: End goes to the core table's total" \
	    wait_for '^total of cores: '
	keys Home
	check "$1: Home shows the chip table's title again" \
	    wait_for '^chips: PowerBus on 0-[0-9]+$'
	check "$1: ... with the cursor on chip 0" wait_for '^chip 0: '
	keys q
	wait_for '^EXIT=0$' >/dev/null
}

tui_init 80 24
home_end "TERM=$(T show-options -gv default-terminal)"
keys "export TERM=xterm-256color" Enter
home_end "TERM=xterm-256color"
check "no sanitizer report" tui_clean
