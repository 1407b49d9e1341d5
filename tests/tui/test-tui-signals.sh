#!/bin/sh
# Every signal whose default action ends the process leaves the terminal
# as hvtop found it: icanon and echo on, the primary screen back, the
# cursor shown; and hvtop still dies of that signal (exit status 128+N).
# Runs headless on a private tmux server; every wait polls the screen
# with a deadline instead of sleeping.
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
SIGS="QUIT ILL TRAP ABRT USR1 USR2 PIPE ALRM VTALRM PROF XCPU XFSZ SYS"
N=0
for s in $SIGS; do N=$((N + 4)); done
plan $N

command -v tmux >/dev/null 2>&1 || tui_skip_all $N "tmux is not installed"

# No core files from the signals that dump one: the tmux server, and so
# every pane, starts under this limit.
ulimit -c 0
pane() { T display-message -p -t main "$1"; }

tui_init 120 40

for s in $SIGS; do
	# The number: dash's kill -l names a number but not the reverse.
	n=1
	while [ "$(kill -l $n 2>/dev/null)" != "$s" ] && [ $n -lt 64 ]; do
		n=$((n + 1))
	done
	tui_start --sim seed=5 -d 0.2
	if ! wait_for '^ SIMULATED  hvtop' || [ ! -s "$tmpdir/pid" ]; then
		fail "SIG$s: hvtop started and got the signal"
		fail "SIG$s: ends hvtop"
		fail "SIG$s: icanon and echo"
		fail "SIG$s: primary screen, cursor shown"
		keys q
		continue
	fi
	kill -"$s" "$(cat "$tmpdir/pid")"
	check "SIG$s: hvtop started and got the signal" true
	check "SIG$s: ends hvtop with status $((128 + n))" \
	    wait_for "^EXIT=$((128 + n))\$"
	keys "clear; stty -a | tr ' ' '\n' | grep -Ex -- '-?(icanon|echo)' | tr '\n' ' '; echo" Enter
	check "SIG$s: icanon and echo" wait_for '^icanon echo *$'
	check "SIG$s: primary screen, cursor shown" \
	    test "$(pane '#{alternate_on} #{cursor_flag}')" = "0 1"
	keys "stty sane; clear" Enter
done
