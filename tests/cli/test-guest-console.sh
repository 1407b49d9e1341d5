#!/bin/sh
# tests/guest/console-mend.awk, which scripts/guest runs on a partition's
# console before reading the command's output from it: QEMU's trace lines land
# inside the partition's lines, which arrive in pieces of 16 bytes, and
# the partition's lines come out whole with the trace lines after them.
# Output is TAP.
. "$(dirname "$0")/tap.sh"

AWKF="$top_srcdir/tests/guest/console-mend.awk"
if [ ! -f "$AWKF" ]; then
	plan 1
	skip "the LPAR console's mending" \
	    "tests/guest/ is not in this tree (a tarball)"
	exit 0
fi
plan 5
mend() { LC_ALL=C awk -f "$AWKF"; }
T1="hv24x7: H_GET_24X7_DATA 33 rc=0"
T2="hv24x7: H_GET_24X7_DATA 34 rc=-2"

out=$(printf '%s\n' "@@ user-scrape-1" "$T1" \
    "hvtop_events_total{chip=\"0\"} 1256$T1" "0000" | mend)
check "a trace line inside a line: the line whole, the trace after it" \
    test "$out" = "$(printf '%s\n' "@@ user-scrape-1" "$T1" \
    "hvtop_events_total{chip=\"0\"} 12560000" "$T1")"

out=$(printf '%s\n' "abc$T1" "$T2" "def" "ghi" | mend)
check "two trace lines inside one line, the second at a line's start" \
    test "$out" = "$(printf '%s\n' "abcdef" "$T1" "$T2" "ghi")"

out=$(printf '%s\n' "@@ cal$T1" "ls-4" "$T2" | mend)
check "a marker torn by a call is whole, the call counted after it" \
    test "$(printf '%s\n' "$out" | awk '/^@@ calls-4$/ { s = 1; next }
    s && /^hv24x7: H_GET_24X7_DATA / { n++ } END { print n + 0 }')" = 2

out=$(printf '%s\n' "last words$T1" | mend)
check "a line torn at the end of the console is kept, then the trace" \
    test "$out" = "$(printf '%s\n' "last words" "$T1")"

in=$(printf '%s\n' "x hv24x7: H_GET_24X7_DATA said" "hv24x7: served 3 calls" \
    "@@ end" "")
check "lines that only look like a trace are left as they are" \
    test "$(printf '%s\n' "$in" | mend)" = "$in"
