#!/bin/sh
# The screens replay a ring's window a segment at a time: a jump to a
# sample number (a rewind and a pass to it) and to a time (a pass of its
# own) land where they do in one recording, across the segments, and a
# step back from a segment's first sample goes to the one before it.
. "$(dirname "$0")/../cli/tap.sh"
. "$(dirname "$0")/tui-lib.sh"
N=5
plan $N
command -v tmux >/dev/null 2>&1 || tui_skip_all $N "tmux is not installed"

r=$tmpdir/ring
# 20001 samples a second apart from 2026-01-01T00:00:00Z (sample k is at
# k - 1 seconds), a segment an hour: six segments.
"$HVTOP" -b -n 20000 -d 1 --sim seed=4,clock=virtual -w "$r" \
    --ring-size 8M >/dev/null 2>&1
tui_init 120 30
tui_start "-r $r"
wait_for 'sample [0-9]+/20001' 30 >/dev/null
keys p
keys G
wait_for 'o to' 5 >/dev/null
text "8000"
keys Enter
check "G 8000 shows sample 8000 at 02:13:19" \
    wait_for 'sample 8000/20001 .*02:13:19' 30
keys G
wait_for 'o to' 5 >/dev/null
text "04:00:00"
keys Enter
check "G 04:00:00 shows sample 14401, near the fourth segment's end" \
    wait_for 'sample 14401/20001 .*04:00:00' 30
# The segments begin a few seconds after the hour: back across one.
keys G
wait_for 'o to' 5 >/dev/null
text "+7206"
keys Enter
wait_for 'sample 7207/20001 .*02:00:06' 30 >/dev/null
keys '['
keys '['
check "[ steps back across a segment's start (7205 at 02:00:04)" \
    wait_for 'sample 7205/20001 .*02:00:04' 30
keys q
check "q exits with status 0" wait_for '^EXIT=0$' 10
check "no sanitizer report on standard error" tui_clean
exit $tap_failed
