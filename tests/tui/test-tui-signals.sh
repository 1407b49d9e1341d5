#!/bin/sh
# Every signal whose default action ends the process leaves the terminal
# as hvtop found it: icanon and echo on, the primary screen back, the
# cursor shown; and hvtop still dies of that signal (exit status 128+N).
# Runs headless on a private tmux server; every wait polls the screen
# with a deadline instead of sleeping.
. "$(dirname "$0")/../cli/tap.sh"
SIGS="QUIT ILL TRAP ABRT USR1 USR2 PIPE ALRM VTALRM PROF XCPU XFSZ SYS"
N=0
for s in $SIGS; do N=$((N + 4)); done
plan $N

if ! command -v tmux >/dev/null 2>&1; then
	i=0
	while [ $i -lt $N ]; do
		skip "terminal signal test $i" "tmux is not installed"
		i=$((i + 1))
	done
	exit 0
fi

sock=hvtop-sig-$$
T() { tmux -L "$sock" "$@"; }
trap 'tmux_stop "$sock"; rm -rf "$tmpdir"' EXIT
export HVTOP_CONFIG="$tmpdir/hvtoprc"
export INPUTRC=/dev/null
export LC_ALL=C

# The script records hvtop's pid; no core files from the signals that
# dump one.
cat >"$tmpdir/run.sh" <<EOF
ulimit -c 0
echo \$\$ >"$tmpdir/pid"
exec "$HVTOP" --sim seed=5 -d 0.2
EOF

screen() { T capture-pane -p -t main; }
wait_for() {
	deadline=$(($(date +%s) + ${2:-30}))
	while [ "$(date +%s)" -le "$deadline" ]; do
		screen | grep -Eq -- "$1" && return 0
		sleep 0.1
	done
	diag "timed out waiting for: $1"
	screen | sed 's/^/| /' | while IFS= read -r l; do diag "$l"; done
	return 1
}
keys() { T send-keys -t main "$@"; }
pane() { T display-message -p -t main "$1"; }

T -f /dev/null new-session -d -s main -x 120 -y 40 \
    "env PS1='$ ' HVTOP_CONFIG=$HVTOP_CONFIG INPUTRC=/dev/null LC_ALL=C sh"
wait_for '\$' || true

for s in $SIGS; do
	# The number: dash's kill -l names a number but not the reverse.
	n=1
	while [ "$(kill -l $n 2>/dev/null)" != "$s" ] && [ $n -lt 64 ]; do
		n=$((n + 1))
	done
	rm -f "$tmpdir/pid"
	keys "clear; sh $tmpdir/run.sh; echo EXIT=\$?" Enter
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
