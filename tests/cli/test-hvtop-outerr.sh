#!/bin/sh
# What hvtop cannot write or cannot draw on is said, with a failing exit
# status: --help, -V and --list into a full disk exit 1 with a message on
# standard error, as coreutils do; -o names the file it could not write;
# a TERM that is not set or not known is said as such, and batch output
# is printed instead of the screens.  The terminal
# cases run on a pseudo-terminal (script(1)).
. "$(dirname "$0")/tap.sh"
plan 13
SIM="--sim seed=1"

# full NAME ARGS...: hvtop ARGS >/dev/full exits 1 saying why.
full() {
	what=$1
	shift
	"$HVTOP" "$@" >/dev/full 2>"$tmpdir/err"
	rc=$?
	check "$what >/dev/full: exit status 1 (got $rc)" test "$rc" -eq 1
	check "$what >/dev/full: says the disk is full" \
	    grep -q "^hvtop: .*No space left on device" "$tmpdir/err"
}
full --help --help
full -V -V
full "--list groups" $SIM --list groups

"$HVTOP" $SIM -b -n 1 -o /dev/full 2>"$tmpdir/err"
rc=$?
check "-o /dev/full: exit status 1 (got $rc)" test "$rc" -eq 1
check "-o /dev/full: the message names the file" \
    grep -q "^hvtop: /dev/full: No space left on device" "$tmpdir/err"
"$HVTOP" $SIM -b -n 1 >/dev/full 2>"$tmpdir/err"
check "-b >/dev/full: says standard output" \
    grep -q "^hvtop: writing standard output: No space" "$tmpdir/err"

# on_tty TERM-ARGS: hvtop on a pseudo-terminal with env TERM-ARGS.
on_tty() {
	script -qec "env $1 $HVTOP $SIM -n 1 2>$tmpdir/err; echo EXIT=\$?" \
	    /dev/null </dev/null >"$tmpdir/tty" 2>&1
}
if ! command -v script >/dev/null 2>&1; then
	for t in 1 2 3 4; do
		skip "terminal message $t" "script(1) is not installed"
	done
	exit $tap_failed
fi
on_tty "-u TERM"
check "TERM unset: batch output instead, exit status 0" \
    grep -q "EXIT=0" "$tmpdir/tty"
check "TERM unset: says TERM is not set" \
    grep -q "^hvtop: TERM is not set" "$tmpdir/err"
on_tty "TERM=unknown-term"
check "TERM=unknown-term: batch output instead, no sanitizer report" \
    grep -q "EXIT=0" "$tmpdir/tty"
check "TERM=unknown-term: names the terminal, and only that" \
    test "$(cat "$tmpdir/err")" = "hvtop: the terminal 'unknown-term' \
is not known here: batch output instead of the screens (-b); Ctrl-C ends it"
exit $tap_failed
