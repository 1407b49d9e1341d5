#!/bin/sh
# Partitions found while the hypervisor is busy: with four calls in ten
# answered H_BUSY, every seed's run finds all five partitions the
# simulated frame shows (python's csv reads the batch CSV, as a user
# would), a pick of partition 2 is taken, and one of partition 9, which
# the frame lacks, is refused naming it.  A hypervisor busy for good
# after this partition answers is said to be busy, and a pick is never
# refused with a claim that the frame lacks the partition.
. "$(dirname "$0")/tap.sh"
export LC_ALL=C
plan 8

if ! have python3; then
	for i in $(seq 8); do
		skip "busy discovery" "python3 is needed"
	done
	exit 0
fi

SIM="lpars=6,faults=busy:0.4,clock=virtual"
found=""
picked=""
for seed in 1 2 3 4 5 6 7 8; do
	"$HVTOP" -b -n 2 --sim "$SIM,seed=$seed" -g CPM_32MHZ_CYC@lpar \
	    --format csv >"$tmpdir/all.$seed.csv" 2>"$tmpdir/all.$seed.err"
	n=$(python3 - "$tmpdir/all.$seed.csv" <<'PY'
import csv, sys
with open(sys.argv[1], newline="") as f:
    ids = {r["lpar"] for r in csv.DictReader(f) if r["domain"] == "lpar"}
print(" ".join(sorted(i for i in ids if i)))
PY
)
	[ "$n" = "1 2 3 4 5" ] || found="$found $seed:[$n]"
	"$HVTOP" -b -n 1 --sim "$SIM,seed=$seed" -g CPM_32MHZ_CYC@lpar:2 \
	    --format csv >/dev/null 2>"$tmpdir/pick.$seed.err" ||
	    picked="$picked $seed"
done
[ -z "$found" ] || diag "partitions found, by seed:$found"
[ -z "$picked" ] || diag "@lpar:2 refused with seeds:$picked: $(cat \
    "$tmpdir/pick.${picked##* }.err")"
check "every seed finds partitions 1-5" test -z "$found"
check "every seed takes a pick of partition 2" test -z "$picked"
check "nothing about partitions on stderr" sh -c \
    "! cat '$tmpdir'/all.*.err | grep -q 'partition'"

"$HVTOP" -b -n 1 --sim "$SIM,seed=3" -g CPM_32MHZ_CYC@lpar:9 \
    --format csv >/dev/null 2>"$tmpdir/nine.err"
check "a pick of partition 9, which the frame lacks: exit 2" test $? = 2
check "... naming it" grep -q 'the frame has no partition 9' \
    "$tmpdir/nine.err"

# Busy for good once this partition has answered.
"$HVTOP" -b -n 1 --sim lpars=6,faults=busy:1+from@2,clock=virtual \
    -g CPM_32MHZ_CYC@lpar:2 --format csv >/dev/null 2>"$tmpdir/gone.err"
diag "$(cat "$tmpdir/gone.err")"
check "busy for good: says so" grep -q 'still busy' "$tmpdir/gone.err"
check_not "busy for good: no claim that the frame lacks partition 2" \
    grep -q 'has no partition 2' "$tmpdir/gone.err"
"$HVTOP" -b -n 2 --sim lpars=6,faults=busy:1+from@2,clock=virtual \
    -g CPM_32MHZ_CYC@lpar --format csv >/dev/null 2>"$tmpdir/all.err"
check "busy for good, all partitions picked: says so" \
    grep -q 'still busy' "$tmpdir/all.err"
exit $tap_failed
