#!/bin/sh
# hvtop's batch loop waits once per interval: one system call that sleeps
# until the interval's end (or a signal), not a poll, a second poll and a
# sleep until a time already past.  Each of those is a context switch,
# and in a partition, where every one goes through the hypervisor, they
# were a large part of hvtop's CPU per interval.  Counted with strace.
. "$(dirname "$0")/tap.sh"
plan 2

if ! command -v strace >/dev/null 2>&1 ||
    ! strace -o /dev/null true >/dev/null 2>&1; then
	skip "one wait per interval" "strace is not installed or may not trace"
	skip "the output is whole" "strace is not installed or may not trace"
	exit 0
fi
n=20
# hvtop's own thread only; LeakSanitizer cannot work under ptrace (and
# its exit-time thread sleeps as well).
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
    strace -c -o "$tmpdir/st" \
    -e trace=ppoll,poll,select,pselect6,nanosleep,clock_nanosleep \
    "$HVTOP" -b --sim seed=1 -n $n -d 0.01 --format csv \
    -o "$tmpdir/out.csv" 2>"$tmpdir/err"
# strace -c: "% time, seconds, usecs/call, calls, [errors,] syscall".
waits=$(awk '$NF ~ /^(ppoll|poll|select|pselect6|nanosleep|clock_nanosleep)$/ {
	s += $4 } END { print s + 0 }' "$tmpdir/st")
diag "$(cat "$tmpdir/st")"
# The first interval is read at once; a signal may add one.
check "one wait per interval ($waits for $n)" \
    test "$waits" -ge $((n - 1)) -a "$waits" -le $((n + 1))
check "the output is whole" \
    test "$(grep -c ',total,' "$tmpdir/out.csv")" -ge $n
exit "$tap_failed"
