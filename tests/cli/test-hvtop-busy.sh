#!/bin/sh
# An interval after a failed read (the hypervisor busy) is measured from
# the last good read, as the accumulators went on counting; a counter
# with no good read before says so, never "first sample" in the middle
# of a run.  Checked on the CSV with pandas, as a user would.
. "$(dirname "$0")/tap.sh"
export LC_ALL=C

if ! py=$(pandas_python); then
	echo "1..0 # SKIP no pandas"
	exit 0
fi
plan 5
"$HVTOP" -b -n 20 --sim faults=busy:0.3,seed=3,clock=virtual --format csv \
    >"$tmpdir/busy.csv" 2>"$tmpdir/e"
check "a run with busy reads exits 0" test $? = 0
"$py" - "$tmpdir/busy.csv" >"$tmpdir/py" 2>&1 <<'PY'
import sys
import pandas as pd
d = pd.read_csv(sys.argv[1], dtype={"index": str})
d["reason"] = d["reason"].fillna("")
ok = {}
# No "first sample" past the first interval.
late = d[(d["seq"] > 1) & d["reason"].str.contains("first sample")]
ok["nofirst"] = late.empty
# Rows right after a busy one: longer intervals, with values, at the
# same rate as the run's other intervals.
gaps = 0
same = True
for (dom, idx), g in d.groupby(["domain", "index"]):
    g = g.sort_values("seq")
    busy = g["reason"].str.contains("was busy").tolist()
    for i in range(1, len(g)):
        row = g.iloc[i]
        if busy[i - 1] and not busy[i] and row["interval_s"] > 1.5:
            gaps += 1
            if dom == "chip":
                col = "PowerBUS_Frequency [GHz]"
                if abs(row[col] / g[col].median() - 1) > 1e-9:
                    same = False
ok["gaps"] = gaps > 0
ok["same"] = same
# Where no good read came before, the reason says so.
restart = d[d["reason"].str.contains(
    "no good read before this one: its interval starts here")]
ok["restart"] = not restart.empty
for k, v in ok.items():
    print(k, "ok" if v else "FAIL")
print("gaps", gaps)
PY
check "no 'first sample' reason after the first interval" \
    grep -qx 'nofirst ok' "$tmpdir/py"
check "an interval after a busy read covers it, with values" \
    grep -qx 'gaps ok' "$tmpdir/py"
check "... at the rate of the other intervals (PowerBUS_Frequency)" \
    grep -qx 'same ok' "$tmpdir/py"
check "a counter with no good read before says so" \
    grep -qx 'restart ok' "$tmpdir/py"
grep -q FAIL "$tmpdir/py" && diag "$(cat "$tmpdir/py")"
true
