#!/bin/sh
# A resize storm on every screen: the terminal grows and shrinks between
# 1x1 and 300x100 as fast as tmux can resize it (the sizes users met first:
# 80x24 to 200x60, 80x60, 200x24, 160x24, 120x40), on Live, Frame, Events,
# Groups, Formulas, help and the detail panes.  hvtop must still run, still draw,
# quit with status 0 on q, and (in a sanitizer build) report no error and
# no leak on its standard error.
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
N=24
plan $N
command -v tmux >/dev/null 2>&1 || tui_skip_all $N "tmux is not installed"

tui_init 80 24
SIZES="200x60 80x24 80x60 200x24 160x24 120x40 80x24 1x1 300x100 2x50
300x1 40x10 39x9 300x100 1x1 100x3 41x11 80x24 250x80 60x20"

# storm ROUNDS: resize through SIZES ROUNDS times without pausing.
storm() {
	r=0
	while [ $r -lt "$1" ]; do
		for s in $SIZES; do
			T resize-window -t main -x "${s%x*}" -y "${s#*x}" \
			    2>/dev/null
		done
		r=$((r + 1))
	done
}

# settle PATTERN: back to 120x40, where PATTERN must be drawn.
settle() {
	tui_alive || return 1
	T resize-window -t main -x 120 -y 40
	wait_for "$1"
}

tui_start --sim sockets=2,chips_per_socket=2,cores=4,seed=5 -d 0.1
check "hvtop starts at 80x24" wait_for '^total '
storm 5
check "Live: still running after the storm" tui_alive
check "Live: still drawing after the storm" settle '^total '
keys Enter
wait_for '^chip 0  groups:' >/dev/null
storm 5
check "Live detail: still running after the storm" tui_alive
check "Live detail: still drawing after the storm" \
    settle '^chip 0  groups:'
keys Enter
keys Tab
storm 5
check "Frame: still running after the storm" tui_alive
check "Frame: still drawing after the storm" settle 'chip 3'
keys Tab
storm 5
check "Events: still running after the storm" tui_alive
check "Events: still drawing after the storm" \
    settle 'NAME +DOMAIN +FLAGS +OFFSET'
keys v
storm 5
check "Events detail: still running after the storm" tui_alive
check "Events detail: still drawing after the storm" \
    settle 'NAME +DOMAIN +FLAGS +OFFSET'
keys v
keys Tab
storm 5
check "Groups: still running after the storm" tui_alive
check "Groups: still drawing after the storm" \
    settle 'NAME +DOMAIN +EVENTS +RECORD'
keys Tab
storm 5
check "Formulas: still running after the storm" tui_alive
check "Formulas: still drawing after the storm" \
    settle 'NAME +UNIT +GROUP +ORIGIN'
keys h
storm 5
check "help: still running after the storm" tui_alive
keys Home
check "help: still drawing after the storm" settle 'Keys on every screen'
keys Escape
wait_gone 'Keys on every screen' >/dev/null
keys /
text "mem"
storm 5
check "filter prompt: still running after the storm" tui_alive
check "filter prompt: still drawing after the storm" \
    settle '^filter: mem'
keys Enter = Tab Tab
storm 5
T resize-window -t main -x 30 -y 8
check "30x8 says the terminal is too small" \
    wait_for '^30x8, needs 40x10'
T resize-window -t main -x 80 -y 24
check "back to 80x24 it draws the table again" wait_for '^total '
check "... with its header" wait_for '^ SIMULATED '
keys q
check "q quits with status 0 after the storms" wait_for '^EXIT=0$'
check "no sanitizer report on standard error" tui_clean
exit $tap_failed
