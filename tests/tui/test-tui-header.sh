#!/bin/sh
# The header at 80x24 keeps the state that changes what the numbers mean
# on its first line, whole: SIMULATED or REPLAY, PAUSED or END, REC while
# -w records, "(no hv_24x7 PMU here)" when the simulation stands in for a
# missing PMU; the second line keeps the hcall interface number.
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
N=16
plan $N
command -v tmux >/dev/null 2>&1 || tui_skip_all $N "tmux is not installed"

# wait_line N PATTERN: poll until line N of the screen matches.
wait_line() {
	tui_until 30 "timed out waiting for line $1 to match: $2" \
	    line_is "$1" "$2"
}
# line_is N PATTERN: line N of the screen matches, now.
line_is() { screen | sed -n "$1p" | grep -Eq -- "$2"; }

tui_init 80 24
# An empty sysfs: the automatic source is the simulation, as on a machine
# without the PMU, whatever this one has.
mkdir -p "$tmpdir/sys"
SIM="--sysfs-root $tmpdir/sys --sim sockets=2,chips_per_socket=2,seed=5"

tui_start "$SIM -d 0.2"
check "80x24: the first line starts with SIMULATED" \
    wait_line 1 '^ SIMULATED '
check "80x24: ... and ends with (no hv_24x7 PMU here), whole" \
    wait_line 1 '\(no hv_24x7 PMU here\)$'
check "80x24: the second line ends with the hcall interface number" \
    wait_line 2 'interface 2$'
check "80x24: nothing says PAUSED or REC while live and not recording" \
    wait_line 1 '^ SIMULATED +[^ PR]'
keys p
check "80x24: p puts PAUSED on the first line" \
    wait_line 1 '^ SIMULATED +PAUSED '
keys p
check "80x24: p again takes it away" wait_line 1 '^ SIMULATED +[^ P]'
keys q
check "q quits with status 0" wait_for '^EXIT=0$'

tui_start "$SIM -d 0.2 -w $tmpdir/r.hvr"
check "80x24: -w puts REC on the first line" wait_line 1 '^ SIMULATED +REC '
keys p
check "80x24: paused while recording shows both" \
    wait_line 1 '^ SIMULATED +PAUSED +REC '
check "... and still the missing PMU" \
    wait_line 1 '\(no hv_24x7 PMU here\)$'
keys q
check "a recording run quits with status 0" wait_for '^EXIT=0$'

"$HVTOP" -b -n 10 --sim clock=virtual,seed=7 -w "$tmpdir/t.hvr" \
    -o /dev/null 2>/dev/null
tui_start "-r $tmpdir/t.hvr -d 0.05"
check "80x24: a replay's end is on the first line" \
    wait_line 1 '^ REPLAY +END '
keys '['
check "80x24: a paused replay says REPLAY PAUSED on the first line" \
    wait_line 1 '^ REPLAY +PAUSED '
check "80x24: a replay does not say REC" sh -c \
    "tmux -L $sock capture-pane -p -t main | head -n 1 | grep -vq ' REC '"
keys q
check "the replay quits with status 0" wait_for '^EXIT=0$'
check "no sanitizer report on standard error" tui_clean
exit $tap_failed
