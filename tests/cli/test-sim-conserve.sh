#!/bin/sh
# One simulated frame in two views: hvtop reads the partitions (@lpar)
# and the physical cores (@core) of the same run, and pandas checks that
# in every interval the partitions count no more of any event than the
# cores do, use no more cores than the frame has, and that their
# placements add up (tests/cli/sim-conserve.py).  Over several frames of
# 4, 8, 32 and 1000 partitions, seeds, and hvtop in partition 0 (which
# sees every partition) or 1.  On the default frame a partition also runs
# off its home chip but on its home node, so that the share off the home
# chip and the remote share differ, in the CSV and in the two charts of
# hvtop report.  pandas missing is a visible SKIP.
. "$(dirname "$0")/tap.sh"
CHECK="$top_srcdir/tests/cli/sim-conserve.py"
PICKS="-g CPM_32MHZ_CYC@lpar -g CPM_32MHZ_CYC@core"
plan 8

if ! pd=$(pandas_python); then
	for n in 1 2 3 4 5 6 7 8; do
		skip "conservation $n" \
		    "pandas is not installed (apt-get install python3-pandas)"
	done
	exit 0
fi

# run NAME N SIM [--homenode]: hvtop's CSV of N intervals, then pandas.
run() {
	case_=$1 n=$2 sim=$3 opt=${4:-}
	# shellcheck disable=SC2086
	"$HVTOP" -b -n "$n" --sim "clock=virtual,$sim" $PICKS --format csv \
	    >"$tmpdir/$case_.csv" 2>"$tmpdir/$case_.err" ||
	    { diag "$(head -3 "$tmpdir/$case_.err")"; return 1; }
	# shellcheck disable=SC2086
	"$pd" "$CHECK" $opt "$tmpdir/$case_.csv" >"$tmpdir/$case_.out" 2>&1
	rc=$?
	diag "$(head -8 "$tmpdir/$case_.out")"
	return $rc
}

check "the default frame, through its DPO: conserved, home node used" \
    run d 60 seed=1 --homenode
check "4 partitions, seed 3, hvtop in partition 0" run s3 40 seed=3,lpar=0
check "4 partitions, seed 7, hvtop in partition 0" run s7 40 seed=7,lpar=0
check "8 partitions, seed 1" run e1 30 lpars=8,seed=1
check "8 partitions, seed 5, hvtop in partition 0" run e5 30 \
    lpars=8,seed=5,lpar=0
check "32 partitions, seed 2, hvtop in partition 0" run t2 15 \
    lpars=32,seed=2,lpar=0
check "1000 partitions, seed 4, hvtop in partition 0" run k4 3 \
    lpars=1000,seed=4,lpar=0

# hvtop report of the default frame: its charts of the cycles off the
# home chip and on a remote node are not the same lines.
"$HVTOP" -b -n 60 --sim clock=virtual -g CPM_32MHZ_CYC@lpar \
    -w "$tmpdir/r.hvr" -o /dev/null 2>"$tmpdir/r.err" &&
    "$HVTOP" report "$tmpdir/r.hvr" -o "$tmpdir/r.html" 2>>"$tmpdir/r.err"
rc=$?
diag "$(head -3 "$tmpdir/r.err")"
"$pd" "$CHECK" --report "$tmpdir/r.html" >"$tmpdir/r.out" 2>&1
pr=$?
check "report: off the home chip and remote are two lines" \
    test $rc = 0 -a $pr = 0
diag "$(head -3 "$tmpdir/r.out")"
