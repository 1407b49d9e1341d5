#!/bin/sh
# Long recordings in format 3 replay byte for byte as the live run
# printed them: past the first reviews, the zero group, heartbeats every
# 512 samples, faults that set statuses, a larger catalog and the
# partitions.  Compared with the live output, not against fixed numbers.
# A ring that a format 2 hvtop began and this one goes on with replays
# across both.
. "$(dirname "$0")/tap.sh"
plan 17

# same NAME SIM N ARGS...: record N samples, replay, compare the CSVs.
same() {
	what=$1
	sim=$2
	n=$3
	shift 3
	rm -f "$tmpdir/r.hvr"
	"$HVTOP" -b -n "$n" --sim "clock=virtual,$sim" "$@" --format csv \
	    -w "$tmpdir/r.hvr" -o "$tmpdir/live.csv"
	check "$what: the live run records" test $? = 0
	"$HVTOP" -b -r "$tmpdir/r.hvr" --format csv -o "$tmpdir/replay.csv" \
	    2>"$tmpdir/err"
	check "$what: the replay prints what the live run printed" \
	    cmp "$tmpdir/live.csv" "$tmpdir/replay.csv"
	"$HVCAT" info "$tmpdir/r.hvr" >"$tmpdir/info" 2>&1
	check "$what: format 3, no problems" sh -c \
	    "grep -q '^format       version 3\$' '$tmpdir/info' &&
	    grep -q '^problems     0' '$tmpdir/info'"
}
same "the default frame, three heartbeats" seed=7 1100
same "faults" seed=3,faults=busy:0.2 600
same "POWER10" seed=5,catalog=power10 600
same "every partition" seed=2 300 -g CPM_32MHZ_CYC@lpar

# The record of the longest run is smaller than its CSV by far: the
# zero group and the plain bits are doing their work.
rm -f "$tmpdir/r.hvr"
"$HVTOP" -b -n 1100 --sim clock=virtual,seed=7 -w "$tmpdir/r.hvr" \
    -o /dev/null
check "the default frame records" test $? = 0
size=$(wc -c <"$tmpdir/r.hvr")
# 208 counters, 1100 samples, at most a byte each, and the preamble.
check "under a byte a counter a sample, with the preamble" \
    test "$size" -lt $((208 * 1100 + 60000))

# An upgrade: a format 2 segment of an earlier hvtop, then this one's.
r=$tmpdir/ring
mkdir "$r"
cp "$DATA/record/default.hvr" "$r/hvtop-20260101T000000Z-000001.hvrec"
"$HVTOP" -b --sim seed=1 -d 0.05 -n 10 -w "$r" --ring-size 2M -o /dev/null
"$HVCAT" info "$r" >"$tmpdir/info" 2>&1
check "the ring holds both segments and the gap between them" sh -c \
    "test \$(grep -c '^  hvtop-' '$tmpdir/info') = 2 &&
    grep -q '^  gap: ' '$tmpdir/info'"
"$HVTOP" -b -r "$r" --format csv -o "$tmpdir/ring.csv" 2>"$tmpdir/err"
check "the ring of both formats replays" test $? = 0
"$HVTOP" -b -r "$DATA/record/default.hvr" --format csv -o "$tmpdir/v2.csv"
n=$(wc -l <"$tmpdir/v2.csv")
head -n "$n" "$tmpdir/ring.csv" >"$tmpdir/first.csv"
check "its format 2 part replays as the file alone does" \
    cmp "$tmpdir/first.csv" "$tmpdir/v2.csv"
