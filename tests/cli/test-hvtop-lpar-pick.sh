#!/bin/sh
# -g GROUP@lpar on the simulated frame: the partitions are found (1 to 3
# seen from partition 1), a partition the frame does not have is refused
# with the ids it has (one past the last id too), perf's spelling as well, and without the HMC's
# permission only this partition may be named.  The batch run of an
# @lpar group needs the engine's partition views: until hvtop has them
# (no partition rows in its JSON), that check is skipped and says why.
. "$(dirname "$0")/tap.sh"
export LC_ALL=C

plan 7
"$HVTOP" -b -n 2 --sim clock=virtual -g CPM_32MHZ_CYC@lpar:7 \
    >"$tmpdir/o" 2>"$tmpdir/e"
rc=$?
check "a partition the frame lacks is refused with the ids it has" \
    test "$rc" = 2 -a -n "$(grep -F 'no partition 7 (it has 1-3)' \
    "$tmpdir/e")"
# 65535 is past the last partition id: refused with the ids it has too,
# never with a count of "indices" the frame does not have.
for ids in 65535 1-70000; do
	"$HVTOP" -b -n 2 --sim clock=virtual -g "CPM_32MHZ_CYC@lpar:$ids" \
	    >"$tmpdir/o" 2>"$tmpdir/e"
	rc=$?
	check "lpar:$ids is refused with the ids the frame has" \
	    test "$rc" = 2 -a -n "$(grep -F 'partition ids run 0-65534, and the frame has 1-3' \
	    "$tmpdir/e")"
done
"$HVTOP" -b -n 2 --sim clock=virtual \
    -e 'hv_24x7/CPM_CCYC,domain=4,lpar=9,core=0/' >"$tmpdir/o" 2>"$tmpdir/e"
rc=$?
check "perf's spelling names the partition it lacks" \
    test "$rc" = 2 -a -n "$(grep -F 'lpar=9 cannot be mapped' "$tmpdir/e")"
"$HVTOP" -b -n 2 --sim clock=virtual,faults=denied \
    -g CPM_32MHZ_CYC@lpar:2 >"$tmpdir/o" 2>"$tmpdir/e"
rc=$?
check "without permission another partition names the HMC setting" \
    test "$rc" = 2 -a -n "$(grep -F 'allow performance information collection for this partition on the HMC' \
    "$tmpdir/e")"
"$HVTOP" -b -n 2 --sim clock=virtual -g CPM_32MHZ_CYC@vcpu:0 \
    -o "$tmpdir/v.json" 2>"$tmpdir/e"
check "@vcpu reads as it always did" test $? = 0 -a -s "$tmpdir/v.json"
"$HVTOP" -b -n 2 --sim clock=virtual -g CPM_32MHZ_CYC@lpar \
    -o "$tmpdir/x.json" >"$tmpdir/o" 2>"$tmpdir/e"
rc=$?
if grep -q '"lpar"' "$tmpdir/x.json" 2>/dev/null; then
	check "-g CPM_32MHZ_CYC@lpar -o x.json exits 0" test "$rc" = 0
else
	diag "exit $rc: $(head -c 300 "$tmpdir/e")"
	skip "-g CPM_32MHZ_CYC@lpar -o x.json exits 0" \
	    "the engine has no partition views yet (no lpar rows)"
fi
true
