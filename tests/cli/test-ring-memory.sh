#!/bin/sh
# A ring's window is replayed a segment at a time: the memory a replay
# takes stays about a segment's whatever the window's length.  The peak
# resident memory (ru_maxrss, from wait4) of a replay of the whole ring
# is set against a replay of a window within its last segment: what the
# whole ring adds must stay under a quarter of the ring's bytes, where a
# window assembled whole in memory adds about half of them.
. "$(dirname "$0")/tap.sh"
plan 3
r=$tmpdir/ring
rusage=$top_srcdir/tests/bench/rusage.py
why=""
command -v python3 >/dev/null 2>&1 || why="python3 is not installed"
# AddressSanitizer keeps freed memory in quarantine and adds shadow
# memory, so resident size says nothing of hvtop's own; the streaming
# itself is exercised under it by test-ring-window.sh.
! ldd "$HVTOP" 2>/dev/null | grep -q libasan ||
    why="an AddressSanitizer build's resident memory is not hvtop's"
if [ -n "$why" ]; then
	for t in 1 2 3; do
		skip "replay memory" "$why"
	done
	exit 0
fi

# A day of the overview at 1 s into a ring of 16M (a segment an hour).
"$HVTOP" -b -d 1 -n 86400 --sim clock=virtual,seed=1 -w "$r" \
    --ring-size 16M -o /dev/null
bytes=$(find "$r" -type f -exec cat {} + | wc -c)
nseg=$(ls "$r" | wc -l)
check "a ring of $nseg segments, $bytes bytes" test "$nseg" -ge 16

python3 "$rusage" "$tmpdir/whole" "$HVTOP" -b -r "$r" --format csv \
    -o /dev/null
st=$?
python3 "$rusage" "$tmpdir/one" "$HVTOP" -b -r "$r" \
    --from 2026-01-01T23:10:00Z --format csv -o /dev/null
st2=$?
check "the whole ring and a window of its last segment replay" \
    test "$st" = 0 -a "$st2" = 0
whole=$(awk '{ print $3 }' "$tmpdir/whole")
one=$(awk '{ print $3 }' "$tmpdir/one")
diag "peak resident memory: $whole KiB for the whole ring, $one KiB for" \
    "a window of its last segment"
check "the whole ring adds $((whole - one)) KiB, under a quarter of its \
$((bytes / 1024)) KiB" test $(((whole - one) * 1024 * 4)) -lt "$bytes"
