#!/bin/sh
# Counting over a command sums what was counted: the whole-run count of
# a counter is its delta from start to end, the same in the partitions'
# total as in the virtual processors' (never a rate over a mean of
# seconds), and in CSV and JSON the whole-run row says it is the
# summary, so that a pandas user who averages the intervals leaves it
# out.  Checked with pandas and Python's csv and json modules.
. "$(dirname "$0")/tap.sh"
export LC_ALL=C
plan 9
PICK="-g CPM_32MHZ_CYC@lpar -g CPM_32MHZ_CYC@core:0-3"

# ---- text: perf stat's counts ------------------------------------------
"$HVTOP" -b -d 0.5 $PICK -- sleep 1.5 >"$tmpdir/t" 2>"$tmpdir/e"
check "text: exit 0" test $? = 0
# "   COUNT      EVENT (lpar total)" against "(lpar_vcpu total)".
awk '$3 == "(lpar" && $4 == "total)" { l[$2] = $1 }
    $3 == "(lpar_vcpu" && $4 == "total)" { v[$2] = $1 }
    END { for (e in l) { n++; if (l[e] != v[e]) { bad++;
	print e ": lpar " l[e] ", vcpus " v[e] } }
	print ((n > 0 && !bad) ? "same" : "differ") }' \
    "$tmpdir/t" >"$tmpdir/cmp"
check "text: every event's count is the same for partitions and vcpus" \
    grep -qx same "$tmpdir/cmp"
grep -qx same "$tmpdir/cmp" || diag "$(cat "$tmpdir/cmp")"

# ---- CSV -----------------------------------------------------------------
"$HVTOP" -b -d 0.5 $PICK -o "$tmpdir/run.csv" -- sleep 1.5 2>"$tmpdir/e"
check "CSV: exit 0" test $? = 0
python3 - "$tmpdir/run.csv" >"$tmpdir/csv" 2>&1 <<'PY'
import csv
import sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
marks = {r["summary"] for r in rows}
last = max(int(r["seq"]) for r in rows)
summ = {int(r["seq"]) for r in rows if r["summary"] == "true"}
print("ok" if marks == {"true", "false"} and summ == {last} else
      "FAIL marks %r, summary seqs %r, last %d" % (marks, summ, last))
PY
check "CSV (csv module): a summary column, true on the last seq alone" \
    grep -qx ok "$tmpdir/csv"
grep -qx ok "$tmpdir/csv" || diag "$(cat "$tmpdir/csv")"
if py=$(pandas_python); then
	"$py" - "$tmpdir/run.csv" >"$tmpdir/py" 2>&1 <<'PY'
import sys
import pandas as pd
d = pd.read_csv(sys.argv[1], dtype={"index": str})
ok = {}
ok["bool"] = d["summary"].dtype == bool
ivs, run = d[~d["summary"]], d[d["summary"]]
# Averaging the intervals: only intervals, every one of them.
ok["filter"] = (run["seq"].nunique() == 1 and
                ivs["seq"].max() < run["seq"].min() and
                (ivs["interval_s"] < 1.2).all() and
                (run["interval_s"] > 1.2).all())
run = run[run["placement"].isin(["all"]) | run["placement"].isna()]
cols = [c for c in d.columns if c.endswith(" [/s]")]
count = lambda r, c: r[c] * r["interval_s"]
# interval_s has 9 significant digits, so a count read back from a rate
# is good to a few parts in 10^9; the rates over a mean of seconds this
# replaced were off by parts in 10^4.
close = lambda x, y: abs(x - y) <= 1e-8 * max(abs(x), abs(y))
same = rows = True
for c in cols:
    tot = {}
    for dom, g in run.groupby("domain"):
        t = g[g["index"] == "total"].iloc[0]
        if pd.isna(t[c]):
            continue
        tot[dom] = count(t, c)
        # The total counts what its rows counted.
        rows &= close(tot[dom], count(g[g["index"] != "total"], c).sum())
    if "lpar" in tot:
        same &= close(tot["lpar"], tot["lpar_vcpu"])
        print(c, "%.0f %.0f" % (tot["lpar"], tot["lpar_vcpu"]))
ok["same"] = same
ok["rows"] = rows
for k, v in ok.items():
    print(k, "ok" if v else "FAIL")
PY
	check "CSV (pandas): the summary column reads as booleans" \
	    grep -qx 'bool ok' "$tmpdir/py"
	check "CSV (pandas): filtering on it leaves the intervals alone" \
	    grep -qx 'filter ok' "$tmpdir/py"
	check "CSV (pandas): whole-run counts equal for partitions and vcpus" \
	    grep -qx 'same ok' "$tmpdir/py"
	check "CSV (pandas): each total counts what its rows counted" \
	    grep -qx 'rows ok' "$tmpdir/py"
	grep -q FAIL "$tmpdir/py" && diag "$(cat "$tmpdir/py")"
else
	skip "CSV (pandas): the summary column reads as booleans" "no pandas"
	skip "CSV (pandas): filtering on it leaves the intervals alone" \
	    "no pandas"
	skip "CSV (pandas): whole-run counts equal for partitions and vcpus" \
	    "no pandas"
	skip "CSV (pandas): each total counts what its rows counted" \
	    "no pandas"
fi

# ---- JSON ----------------------------------------------------------------
"$HVTOP" -b -d 0.3 -g CPM_32MHZ_CYC@core:0 --format json -- sleep 1 \
    >"$tmpdir/j" 2>"$tmpdir/e"
python3 - "$tmpdir/j" >"$tmpdir/json" 2>&1 <<'PY'
import json
import sys
objs = [json.loads(l) for l in open(sys.argv[1])]
marks = [o["summary"] for o in objs]
print("ok" if len(marks) >= 2 and marks[-1] is True and
      not any(marks[:-1]) else "FAIL %r" % marks)
PY
check "JSON: summary false for each interval, true for the last line" \
    grep -qx ok "$tmpdir/json"
grep -qx ok "$tmpdir/json" || diag "$(cat "$tmpdir/json")"
tap_csvs
true
