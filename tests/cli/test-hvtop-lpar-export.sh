#!/bin/sh
# The partition views in CSV and JSON as their readers load them: the
# engine's unit test writes both (two partitions, three virtual
# processors, four placements, a failed placement); Python's csv module
# and json read them, the placements add up to their sum, the shares
# are their fractions, and pandas filters and pivots the placements.
# pandas missing is a visible SKIP.
. "$(dirname "$0")/tap.sh"
CHECKS="$top_srcdir/tests/cli"
UNIT="$top_builddir/tests/unit/test-engine-lpar"
plan 4

HVTOP_LPAR_OUT="$tmpdir/lpar" top_srcdir="$top_srcdir" "$UNIT" \
    >"$tmpdir/unit.out" 2>&1
check "the unit test writes the partition outputs" \
    test -s "$tmpdir/lpar.csv" -a -s "$tmpdir/lpar.json"
python3 "$CHECKS/csv-check.py" "$tmpdir/lpar.csv" >"$tmpdir/csv.out" 2>&1
check "CSV: one header and one field count (csv module)" test $? = 0
diag "$(head -5 "$tmpdir/csv.out")"
python3 "$CHECKS/lpar-check.py" "$tmpdir/lpar.csv" "$tmpdir/lpar.json" \
    >"$tmpdir/lpar.out" 2>&1
check "CSV and JSON: ids, placements that add up, shares" test $? = 0
diag "$(head -5 "$tmpdir/lpar.out")"
if pandas_py=$(pandas_python); then
	"$pandas_py" "$CHECKS/lpar-check.py" --pandas "$tmpdir/lpar.csv" \
	    "$tmpdir/lpar.json" >"$tmpdir/pd.out" 2>&1 &&
	    "$pandas_py" "$CHECKS/csv-check.py" --pandas "$tmpdir/lpar.csv" \
	    >>"$tmpdir/pd.out" 2>&1
	check "CSV: pandas loads it, filters and pivots the placements" \
	    test $? = 0
	diag "$(head -5 "$tmpdir/pd.out")"
else
	skip "CSV: pandas loads it, filters and pivots the placements" \
	    "pandas is not installed (apt-get install python3-pandas)"
fi
tap_end "$tap_failed"
