# Helpers for the terminal tests that drive hvtop through tmux; source it
# after tests/cli/tap.sh.  A private tmux server, a pane of a given size,
# polling waits with a deadline, and hvtop started through a script that
# records its pid and sends its standard error to a file, so that a
# sanitizer report (AddressSanitizer, LeakSanitizer, UBSan) fails the test
# even when the run otherwise looks right.
#
#   tui_skip_all N REASON     tui_init WIDTH HEIGHT     tui_start ARGS...
#   screen  wait_for RE [S]  wait_gone RE [S]  keys KEY...  text STRING
#   tui_until S WHAT CMD...   tui_show (the screen as diagnostics)
#   tui_alive                 tui_clean (no sanitizer report on stderr)

tui_skip_all() {
	i=0
	while [ $i -lt "$1" ]; do
		skip "terminal test $i" "$2"
		i=$((i + 1))
	done
	exit 0
}

sock=hvtop-test-$$
T() { tmux -L "$sock" "$@"; }
trap 'tmux_stop "$sock"; rm -rf "$tmpdir"' EXIT

mkdir -p "$tmpdir/home" "$tmpdir/cfg"
export HOME="$tmpdir/home"
export HVTOP_CONFIG="$tmpdir/cfg/hvtoprc"
export INPUTRC=/dev/null
export LC_ALL=C
unset NO_COLOR
# Leaks are errors in a sanitizer build: LeakSanitizer reports at exit.
# Reports go to files of their own: while curses is up hvtop keeps its
# standard error in a temporary file that a sanitizer's exit never shows.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=1:\
log_path=$tmpdir/san"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:+$UBSAN_OPTIONS:}print_stacktrace=1:\
log_path=$tmpdir/san"

screen() { T capture-pane -p -t main; }
# tui_show: the screen, as diagnostics.
tui_show() { screen | sed 's/^/| /' | while IFS= read -r l; do diag "$l"; done; }

# tui_until SECONDS WHAT CMD...: poll until CMD succeeds; after SECONDS,
# say that WHAT did not happen, show the screen and fail.
tui_until() {
	_secs=$1
	what=$2
	shift 2
	until_ok "$_secs" "$@" && return 0
	diag "$what"
	tui_show
	return 1
}

on_screen() { screen | grep -Eq -- "$1"; }
off_screen() { ! on_screen "$1"; }
# wait_for PATTERN [SECONDS]: poll the screen until grep -E finds it.
wait_for() {
	tui_until "${2:-30}" "timed out waiting for: $1" on_screen "$1"
}
# wait_gone PATTERN [SECONDS]: poll until the pattern is not on screen.
wait_gone() {
	tui_until "${2:-30}" "still on screen: $1" off_screen "$1"
}

keys() { T send-keys -t main "$@"; }
text() { T send-keys -t main -l "$1"; }

# tui_init WIDTH HEIGHT: the tmux server with one pane running sh.
tui_init() {
	T -f /dev/null new-session -d -s main -x "$1" -y "$2" \
	    "env PS1='$ ' HOME=$HOME HVTOP_CONFIG=$HVTOP_CONFIG \
INPUTRC=/dev/null LC_ALL=C ASAN_OPTIONS=$ASAN_OPTIONS \
UBSAN_OPTIONS=$UBSAN_OPTIONS sh"
	wait_for '\$' || true
	cat >"$tmpdir/run.sh" <<EOF
echo \$\$ >"$tmpdir/pid"
exec "$HVTOP" "\$@" 2>"$tmpdir/stderr"
EOF
}

# tui_start ARGS...: clear the pane and run hvtop with ARGS; the pane's
# shell prints EXIT=status when it ends.
tui_start() {
	rm -f "$tmpdir/pid" "$tmpdir/stderr" "$tmpdir"/san.*
	keys "clear; sh $tmpdir/run.sh $*; echo EXIT=\$?" Enter
	until_ok 30 test -s "$tmpdir/pid"
}

# tui_alive: the hvtop started last still runs.
tui_alive() { kill -0 "$(cat "$tmpdir/pid")" 2>/dev/null; }

# tui_clean: no sanitizer report, neither in the sanitizers' log files nor
# on hvtop's standard error.
tui_clean() {
	bad=0
	for f in "$tmpdir"/san.* "$tmpdir/stderr"; do
		[ -f "$f" ] || continue
		grep -Eq 'ERROR: (Address|Leak)Sanitizer|runtime error:' \
		    "$f" || continue
		bad=1
		sed 's/^/sanitizer| /' "$f" | head -n 40 |
		    while IFS= read -r l; do diag "$l"; done
	done
	return $bad
}
