#!/bin/sh
# The partition views in CSV and JSON as their readers load them: the
# engine's unit test writes both (two partitions, three virtual
# processors, four placements, a failed placement); Python's csv module
# and json read them, the placements add up to their sum, the shares
# are their fractions, the CSV's IPC, cores and shares columns are what
# the sums and placements give, and pandas filters and pivots the
# placements.
# Then the same of hvtop's own output for -g GROUP@lpar on the
# simulator.  pandas missing is a visible SKIP.
. "$(dirname "$0")/tap.sh"
CHECKS="$top_srcdir/tests/cli"
UNIT="$top_builddir/tests/unit/test-engine-lpar"
plan 6

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

# hvtop itself: partitions beside a core group, three intervals.
SIM="--sim clock=virtual,seed=3"
"$HVTOP" -b -n 3 $SIM -g CPM_32MHZ_CYC@lpar -g CPM_32MHZ_CYC@core:0-1 \
    --format csv >"$tmpdir/run.csv" 2>"$tmpdir/run.err" &&
    "$HVTOP" -b -n 3 $SIM -g CPM_32MHZ_CYC@lpar --format json \
    >"$tmpdir/run.json" 2>>"$tmpdir/run.err"
rc=$?
if [ $rc != 0 ] && grep -q "unknown domain '@lpar'" "$tmpdir/run.err"; then
	skip "hvtop -g GROUP@lpar writes CSV and JSON" \
	    "this build does not parse @lpar picks"
	skip "hvtop's partitions: ids, placements that add up, shares" \
	    "this build does not parse @lpar picks"
	rm -f "$tmpdir/run.csv"
	tap_end "$tap_failed"
fi
check "hvtop -g GROUP@lpar writes CSV and JSON" test $rc = 0
diag "$(head -3 "$tmpdir/run.err")"
py=python3
pd=""
if pandas_py=$(pandas_python); then
	py=$pandas_py
	pd=--pandas
fi
"$py" "$CHECKS/lpar-check.py" $pd "$tmpdir/run.csv" "$tmpdir/run.json" \
    >"$tmpdir/run.out" 2>&1
check "hvtop's partitions: ids, placements that add up, shares" test $? = 0
diag "$(head -5 "$tmpdir/run.out")"
tap_end "$tap_failed"
