#!/bin/sh
# A filter that glibc's regex would take minutes over must not hang the
# screens: on the Events screen, a regex with back-references, and one
# whose nested counts repeat a loop of what can match nothing (glibc
# spins minutes in regcomp() over it), are refused as they are typed,
# with the reason, and hvtop still answers a key and SIGTERM at once,
# leaving the terminal as it was.  Memory and CPU time are bounded, so that an hvtop
# that does hang cannot take the machine with it.
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
N=9
plan $N
command -v tmux >/dev/null 2>&1 || tui_skip_all $N "tmux is not installed"
# 2 GB and 120 s of CPU for each process of the private tmux server; an
# AddressSanitizer build reserves terabytes at start: no memory limit.
ldd "$HVTOP" 2>/dev/null | grep -q libasan || ulimit -v 2097152
ulimit -t 120

tui_init 100 30
tui_start --sim seed=5 -d 0.5
wait_for '^total ' >/dev/null
keys Tab Tab
check "Events screen" wait_for 'NAME +DOMAIN +FLAGS +OFFSET'
keys /
wait_for '^filter:' >/dev/null
text 're:(.*)(.*)(.*)(.*)(.*)\5\4\3\2\1z'
check "the back-references are refused with the reason" \
    wait_for 'back-reference' 5
keys Escape
check "a key is answered: the filter bar closes" wait_gone '^filter:' 5
check "hvtop still runs" tui_alive
keys /
wait_for '^filter:' >/dev/null
text 're:((((a*)*){1,4}){1,4}){1,4}'
check "a loop of what can match nothing is refused with the reason" \
    wait_for 'regex refused: a loop \(' 10
keys Escape
check "... and a key is answered: the filter bar closes" \
    wait_gone '^filter:' 10
kill -TERM "$(cat "$tmpdir/pid")"
check "SIGTERM is answered: hvtop ends" wait_for '^EXIT=' 10
keys "clear; stty -a | tr ' ' '\\n' | grep -Ex -- '-?(icanon|echo)' | \
tr '\\n' ' '; echo" Enter
check "the terminal is restored: icanon and echo" \
    wait_for '^icanon echo *$' 10
check "no sanitizer report" tui_clean
exit $tap_failed
