#!/bin/sh
# The Frame screen under tmux, for the two frames it must fit: 2 chips x
# 12 cores and 16 chips x 12 cores (4 sockets), each at 80x24 and 200x60.
# Every chip's box and every core's cell is on the screen with the legend,
# whose metric is by default the cores' busy share (hvtop_busy);
# without colours the cells are shaded so that the hottest differs from
# the rest; m chooses the metric (Tab completes, a chip metric too, a name
# not read is refused); Enter lands on the cursor's row in Live; with only
# chip groups picked the screen says what to pick; a resize storm down to
# 20x5 and 1x1 leaves hvtop running, drawing, and (in a sanitizer build)
# clean.
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
N=45
plan $N
command -v tmux >/dev/null 2>&1 || tui_skip_all $N "tmux is not installed"

SMALL="sockets=2,chips_per_socket=1,cores=12,seed=5"
BIG="sockets=4,chips_per_socket=4,cores=12,seed=5"

# cells H: the cells of the map on a screen H lines high, without colours:
# each starts with a shading character (or is "-"), one token per cell;
# titles, frame lines, bars and the history strip are left out.
cells() {
	screen | sed -n "8,$(($1 - 2))p" | grep -v 'chip' |
	    grep -vE '(^| )c[0-9]+( |$)' | grep -vE '^\+-' |
	    grep -vE '(RD|WR|PB|LK|hist) ' | tr -s ' |' '\n\n' |
	    grep -cE '^[-.,:=+*#%@]+$'
}

# chips N: every title "chip K" or "cK" for K < N is on the screen
# (polled until a deadline, as wait_for does).
chips_now() {
	k=0
	while [ $k -lt "$1" ]; do
		screen | grep -Eq "(chip $k|(^| )c$k)( |-|$)" || return 1
		k=$((k + 1))
	done
}
chips() {
	tui_until 30 "not every one of $1 chips is on the screen" \
	    chips_now "$1"
}

# hot_cold: the hottest shade and a colder one are both in the cells.
hot_cold() {
	body=$(screen | sed -n '8,$p' | grep -vE '(RD|WR|PB|LK|hist) ')
	printf '%s\n' "$body" | grep -q '@' &&
	    printf '%s\n' "$body" | grep -Eq '(^|[ |])[.,:=+-]'
}

tui_init 80 24
for frame in "small 2 24" "big 16 192"; do
	set -- $frame
	fname=$1 nchips=$2 ncores=$3
	[ "$fname" = small ] && sim=$SMALL || sim=$BIG
	for size in 80x24 200x60; do
		w=${size%x*} h=${size#*x}
		T resize-window -t main -x "$w" -y "$h"
		tui_start --sim "$sim" -d 0.3 --no-color
		# Live is up (its total row is below the screen on 16 chips).
		wait_for '^chips: ' >/dev/null
		keys Tab
		check "$fname $size: the legend names the metric and interval" \
		    wait_for '^hvtop_busy % per core, interval 0\.[0-9]+s'
		check "$fname $size: the scale, shaded, cold to hot" \
		    wait_for '^cold 0 \.,:-=\+\*#%@ [0-9.]+[kMG]? hot'
		check "$fname $size: all $nchips chips" chips "$nchips"
		wait_for '^cold 0 \.,:-=\+\*#%@ [0-9.]+[kMG]? hot' >/dev/null
		n=$(cells "$h")
		check "$fname $size: all $ncores cores ($n cells)" \
		    test "$n" = "$ncores"
		check "$fname $size: hot and cold differ without colours" \
		    hot_cold
		keys q
		wait_for '^EXIT=0$' >/dev/null
	done
done

# m and Enter, in colour, on the big frame at 200x60.
T resize-window -t main -x 200 -y 60
tui_start --sim "$BIG" -d 0.3
wait_for '^chips: ' >/dev/null
keys Tab
wait_for 'per core, interval' >/dev/null
keys m
check "m opens the metric prompt" wait_for '^metric \(Tab completes'
text "cpm_non_idle_i"
keys Tab
check "Tab completes the metric's name" \
    wait_for '^metric .*: CPM_NON_IDLE_INST'
keys Enter
check "the legend shows the metric chosen" \
    wait_for '^CPM_NON_IDLE_INST /s per core'
keys m
text "Memory_RD_BW_Chip"
keys Enter
check "a chip metric colours its chips' cores" \
    wait_for '^Memory_RD_BW_Chip MB/s per chip'
keys m
text "PM_NOT_READ"
keys Enter
check "a name not read is refused and said so" \
    wait_for 'no metric, event or group PM_NOT_READ'
check "... and the metric stays" wait_for '^Memory_RD_BW_Chip MB/s'
keys m Enter
check "an empty answer goes back to the default" \
    wait_for '^hvtop_busy % per core'
keys Down Down Down Right Right Right
check "the cursor walks to core 38" wait_for '^core 38 \(chip 3\): '
keys Enter
check "Enter: Live, the cursor on core 38's row" wait_for '^core 38: '
check "... on the Live screen" wait_for '^core +hvtop_busy '
keys Tab Up Left Left Left Enter
check "Enter on a chip: its row of the chip table" wait_for '^chip 2: '
keys q
check "quits with status 0" wait_for '^EXIT=0$'

# The small frame at 80x24 in colour: Enter on a core of chip 1.
T resize-window -t main -x 80 -y 24
tui_start --sim "$SMALL" -d 0.3
wait_for '^total ' >/dev/null
keys Tab
check "small 80x24 colour: both chips" chips 2
keys Down Right Right
check "the cursor walks to core 13" wait_for '^core 13 \(chip 1\): '
keys Enter
check "Enter: Live on core 13's row" wait_for '^core 13: '
keys q
wait_for '^EXIT=0$' >/dev/null

# Only chip groups: no core metric; the screen says what to pick.
tui_start --sim "$SMALL" -d 0.3 -g Memory_BW
wait_for '^total ' >/dev/null
keys Tab
check "no core metric: the screen says so" \
    wait_for 'No core metric is read'
check "... and what to pick" wait_for 'Pick a core group'
keys m
text "Memory_BW_Chip"
keys Enter
check "... m with a chip metric draws the chips" \
    wait_for '^Memory_BW_Chip [kMG]?B/s per chip'
keys W
wait_for 'settings written to' >/dev/null
check "W saves the Frame screen's metric" \
    grep -qx 'frame.metric=Memory_BW_Chip' "$HVTOP_CONFIG"
keys q
wait_for '^EXIT=0$' >/dev/null
tui_start --sim "$SMALL" -d 0.3 -g Memory_BW
wait_for '^total ' >/dev/null
keys Tab
check "... and a restart shows it again" \
    wait_for '^Memory_BW_Chip [kMG]?B/s per chip'
keys q
wait_for '^EXIT=0$' >/dev/null
rm -f "$HVTOP_CONFIG"

# A resize storm on the Frame screen, to tiny sizes and back.
SIZES="200x60 80x24 20x5 1x1 300x100 2x50 300x1 40x10 39x9 41x11 80x24
250x80 60x20 20x5 120x40"
tui_start --sim "$BIG" -d 0.1
wait_for '^chips: ' >/dev/null
keys Tab
wait_for 'per core, interval' >/dev/null
r=0
while [ $r -lt 5 ]; do
	for s in $SIZES; do
		T resize-window -t main -x "${s%x*}" -y "${s#*x}" 2>/dev/null
	done
	r=$((r + 1))
done
check "storm: still running" tui_alive
T resize-window -t main -x 20 -y 5
check "20x5: says the terminal is too small" \
    wait_for 'terminal too small'
T resize-window -t main -x 200 -y 60
check "storm: back at 200x60 it draws every chip" chips 16
keys q
check "storm: quits with status 0" wait_for '^EXIT=0$'
check "no sanitizer report on standard error" tui_clean
exit $tap_failed
