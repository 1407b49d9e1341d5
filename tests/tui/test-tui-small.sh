#!/bin/sh
# Small and dumb terminals.  At 40x10, the smallest size hvtop draws on,
# Live still shows a table row under its names and Frame a chip box;
# below it the screen is cleared and says it is too small, nothing of the
# larger screen left behind; a terminal that cannot place the cursor
# (TERM=dumb) or that terminfo does not know gets batch output, as with
# -b, and a line on standard error saying why.
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
N=15
plan $N
command -v tmux >/dev/null 2>&1 || tui_skip_all $N "tmux is not installed"

# only_lines N: the screen's first N lines are not blank, the rest are.
only_lines() {
	until_ok 10 only_lines_now "$1" && return 0
	tui_show
	return 1
}
only_lines_now() {
	[ "$(screen | grep -c .)" -eq "$1" ] &&
	    [ "$(screen | sed -n "1,$1p" | grep -c .)" -eq "$1" ]
}

tui_init 40 10
tui_start --sim clock=virtual,seed=3
check "40x10 Live: the chip table's title is drawn" \
    wait_for '^chips: Memory_BW on 0-3'
check "40x10 Live: ... and its names" wait_for '^chip +Memory_'
check "40x10 Live: ... with a row of values under them" \
    wait_for '^ +0 +[0-9]'
check "40x10 Live: the key bar stays" wait_for '^F1Help'
keys Tab
check "40x10 Frame: a chip box is drawn" wait_for '^chip 0 '
check "40x10 Frame: ... with its cores" wait_for '^[^a-z ]{2} [^a-z ]{2} '
keys q
wait_for '^EXIT=0$' >/dev/null
T resize-window -t main -x 80 -y 24
tui_start --sim clock=virtual,seed=3
wait_for '^chip +Memory_ +Memory_ +PowerBUS_ +Memory_BW_Chip' >/dev/null
T resize-window -t main -x 20 -y 5
check "20x5: the terminal is too small, it says" \
    wait_for '^terminal too small$'
check "20x5: ... and what it needs" wait_for '^20x5, needs 40x10$'
check "20x5: nothing of the 80x24 screen is left" only_lines 4
T resize-window -t main -x 80 -y 24
check "back to 80x24: the table again" \
    wait_for '^chip +Memory_ +Memory_ +PowerBUS_ +Memory_BW_Chip'
keys q
wait_for '^EXIT=0$' >/dev/null

# run_term TERM ARGS...: hvtop on the pane with another TERM.
run_term() {
	t=$1
	shift
	rm -f "$tmpdir/stderr"
	# The last run's EXIT= line must be gone before this run starts,
	# or a check could read it and look at a stderr not written yet.
	keys clear Enter
	wait_gone '^EXIT=' >/dev/null
	keys "clear; TERM=$t sh $tmpdir/run.sh $*; echo EXIT=\$?" Enter
}

run_term dumb --sim clock=virtual,seed=3 -n 2
check "TERM=dumb: batch output ends after -n 2 with status 0" \
    wait_for '^EXIT=0$'
check "TERM=dumb: ... and it is the batch text, totals and all" \
    wait_for '^total '
check "TERM=dumb: standard error says why, and that it is -b's output" \
    grep -q "the terminal 'dumb' cannot place the cursor: batch output" \
    "$tmpdir/stderr"
run_term hvtop-no-such-terminal --sim clock=virtual,seed=3 -n 1
check "an unknown TERM: batch output with status 0" wait_for '^EXIT=0$'
check "an unknown TERM: standard error says so" \
    grep -q "'hvtop-no-such-terminal' is not known here" "$tmpdir/stderr"
exit $tap_failed
