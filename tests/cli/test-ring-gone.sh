#!/bin/sh
# A ring's segments removed while a window of it is replayed (what the
# writer's budget does): the replay ends with a message naming the
# segment that went, exit status 1, and what it printed before is what
# a replay of an intact copy prints, not a number more.  The replay is
# held at a known point by its output, a FIFO the test stops reading
# from: it has printed its first line and cannot go on past the pipe's
# few kilobytes, far inside the first segment.
. "$(dirname "$0")/tap.sh"
plan 7
r=$tmpdir/ring
from=2026-01-01T00:00:00Z
to=2026-01-01T04:30:00Z

# Five segments of a virtual hour each (a segment ends after an hour);
# the window takes them all.
"$HVTOP" -b --sim clock=virtual,seed=1 -d 1 -n 16500 -w "$r" \
    --ring-size 8M -o /dev/null </dev/null
ls "$r" >"$tmpdir/segs"
check "the ring has five segments" test "$(wc -l <"$tmpdir/segs")" = 5
cp -R "$r" "$tmpdir/copy"

mkfifo "$tmpdir/out"
"$HVTOP" -b -r "$r" --from "$from" --to "$to" --format csv -o "$tmpdir/out" \
    2>"$tmpdir/err" <&- &
pid=$!
pids="$pids $pid"
exec 3<"$tmpdir/out"
IFS= read -r head <&3
# The budget's way: the oldest first, the one being read among them.
for s in $(head -4 "$tmpdir/segs"); do
	rm -f "$r/$s"
done
{ printf '%s\n' "$head"; cat <&3; } >"$tmpdir/got.csv"
exec 3<&-
reap "$pid"
st=$?
diag "$(cat "$tmpdir/err")"
check "the replay ends with exit status 1 ($st)" test "$st" = 1

# It names one of the removed segments, said missing.
named=""
for s in $(head -4 "$tmpdir/segs"); do
	grep -q "$s: .*No such file" "$tmpdir/err" && named=$s
done
check "the message names the segment that went (${named:-none})" \
    test -n "$named"
check "... and says where the window ends" \
    grep -q 'the window ends after sample [0-9]*, of [0-9]* when opened' \
    "$tmpdir/err"

"$HVTOP" -b -r "$tmpdir/copy" --from "$from" --to "$to" --format csv \
    -o "$tmpdir/all.csv" 2>"$tmpdir/all.err" <&-
check "the intact copy's window replays ($?)" test $? = 0
# Everything the cut replay printed is the intact one's, in order.
n=$(wc -c <"$tmpdir/got.csv")
check "what it printed is the intact replay's first $n bytes" \
    sh -c "test $n -gt 0 && test $n -lt $(wc -c <"$tmpdir/all.csv") &&
    head -c $n '$tmpdir/all.csv' | cmp -s - '$tmpdir/got.csv'"
check "no core dump" test ! -e core -a ! -e "core.$pid"
