#!/bin/sh
# The Live detail pane's chart of the cursor cell, at 80x24 and 200x60:
# its axis labels, time ticks and min/max/last line; a sample that failed
# (a busy hypervisor) leaves a gap in it; S turns the sparkline column on
# and off; resizing with the pane open, down to sizes where the chart
# gives way to the sparklines, never ends hvtop.  The locale is C, so the
# chart is drawn in ASCII ('*' per sample).
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
N=16
plan $N
command -v tmux >/dev/null 2>&1 || tui_skip_all $N "tmux is not installed"

# wait_until FUNCTION [SECONDS]: poll until FUNCTION succeeds on the
# screen's text.
wait_until() {
	tui_until "${2:-30}" "timed out waiting for: $1" screen_does "$1"
}
# screen_does FUNCTION: FUNCTION succeeds on the screen's text, once.
screen_does() { screen | "$1"; }

# The chart's plot lines: from the pane's title to the time axis.
plot() {
	awk '/chart: / { on = 1; next } on && /^ +\+-+/ { exit }
	    on { print }'
}

# gap: some column between the chart's first and last '*' has none.
gap() {
	plot | awk '{
		for (i = 1; i <= length($0); i++)
			if (substr($0, i, 1) == "*") star[i] = 1
		if (length($0) > w) w = length($0)
	}
	END {
		lo = 0; hi = 0
		for (i = 1; i <= w; i++) if (star[i]) { if (!lo) lo = i; hi = i }
		for (i = lo; lo && i <= hi; i++) if (!star[i]) exit 0
		exit 1
	}'
}

# samples: the chart holds at least 12 samples (columns with a '*').
samples() {
	plot | awk '{
		for (i = 1; i <= length($0); i++)
			if (substr($0, i, 1) == "*") star[i] = 1
	}
	END { for (i in star) n++; exit n < 12 }'
}

tui_init 80 24
tui_start --sim seed=5,faults=busy:0.3 -d 0.1
wait_for '^total ' >/dev/null
keys Enter
check "80x24: Enter opens the pane with a chart of the cursor cell" \
    wait_for 'chart: Memory_RD_BW_Chip'
check "80x24: the value axis is labelled, the samples plotted" \
    wait_for '^ +[0-9.]+[kMG]? \|.*[*]'
check "80x24: the time axis, its last tick at now" \
    wait_for '^ +\+[-+]+\+$'
check "80x24: min, max and last in the column's unit" \
    wait_for '^ min [0-9.]+[kMG]?  max [0-9.]+[kMG]?  last ([0-9.]+[kMG]?|-) [MG]B/s'
check "80x24: the chart says how far back it reaches" \
    wait_for '\(last [0-9.]+s\)'
check "80x24: the column lines stay below the chart" \
    wait_for '^ Memory_RD_BW_Chip +[0-9.]+ [MG]B/s'
check "a failed sample leaves a gap in the chart" wait_until gap

keys S
check "S: the sparkline column beside the sort column" \
    wait_for '^chip +Memory_ history +Memory_ '
keys S
check "S again: it is gone" wait_gone ' history'

T resize-window -t main -x 200 -y 60
check "200x60: the chart grows" wait_until samples
check "200x60: ticks at round ages, then now" \
    wait_for '^ +-[0-9]+s +-[0-9]+s .* now$'
check "200x60: min, max, last" \
    wait_for '^ min [0-9.]+[kMG]?  max [0-9.]+[kMG]?  last .*\(last'
keys S
check "200x60: S with the pane open" wait_for ' history'

# Down to where there is no room for a chart, and back.
for s in 60x20 40x10 30x8 1x1 59x23 200x60 80x24 100x30 61x24; do
	T resize-window -t main -x "${s%x*}" -y "${s#*x}"
done
check "resizes with the pane and the sparkline column: still running" \
    tui_alive
T resize-window -t main -x 80 -y 24
check "80x24 again: the chart is back" wait_for 'chart: '
quit_clean() { wait_for '^EXIT=0$' && tui_clean; }
keys q
check "q quits with status 0, no sanitizer report" quit_clean
exit $tap_failed
