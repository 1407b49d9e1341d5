#!/bin/sh
# A partition's "all" row in CSV is the sum of the placements read: one
# that holds fewer than the four says which in its reason column, as
# Python's csv module reads it; one that holds all four says nothing of
# placements.
. "$(dirname "$0")/tap.sh"
export LC_ALL=C
plan 4

# places.py CSV: for each "all" row, its placement reason or "-".
cat >"$tmpdir/places.py" <<'PY'
import csv, sys
with open(sys.argv[1], newline="") as f:
    for row in csv.DictReader(f):
        if row["placement"] != "all":
            continue
        why = [w for w in row["reason"].split("; ")
               if w.startswith("placement: ")]
        print(row["domain"], row["index"], why[0] if why else "-")
PY
"$HVTOP" -b -n 2 --sim clock=virtual --format csv \
    -e 'hv_24x7/CPM_CCYC,domain=4,lpar=2,core=0/' >"$tmpdir/one.csv" \
    2>"$tmpdir/e"
check "one placement: hvtop exits 0" test $? = 0
python3 "$tmpdir/places.py" "$tmpdir/one.csv" >"$tmpdir/one.out" 2>&1
diag "$(head -3 "$tmpdir/one.out")"
check "one placement: every all row says it holds home_chip only" \
    sh -c 'test -s "$1" && ! grep -vq "placement: holds home_chip only, not all four$" "$1"' \
    sh "$tmpdir/one.out"
"$HVTOP" -b -n 2 --sim clock=virtual --format csv \
    -g CPM_32MHZ_CYC@lpar >"$tmpdir/four.csv" 2>"$tmpdir/e"
check "four placements: hvtop exits 0" test $? = 0
python3 "$tmpdir/places.py" "$tmpdir/four.csv" >"$tmpdir/four.out" 2>&1
check "four placements: no all row speaks of placements" \
    sh -c 'test -s "$1" && ! grep -vq " -$" "$1"' sh "$tmpdir/four.out"
