#!/bin/sh
# Every operand of a metric covers the same seconds.  Two picks of every
# core take two hcalls; the hypervisor is busy for one of them now and
# then, so a row's counters of the other call read well and their next
# deltas cover one interval while the busy ones' cover two.  A formula
# over delta-seconds is its operand's rate (never its count over another
# counter's seconds), a ratio of two operands over different intervals
# has no value and says why, and the totals follow.  Checked on the CSV
# with pandas, as a user would.
. "$(dirname "$0")/tap.sh"
export LC_ALL=C

if ! py=$(pandas_python); then
	echo "1..0 # SKIP no pandas"
	exit 0
fi
plan 6
# The POWER9 catalog with core formulas of its own: the core frequency
# of non-idle cycles, and a ratio of counters the two calls read.
"$py" - "$top_srcdir/catalogs/power9.json" "$tmpdir/spans.json" <<'PY'
import json
import sys
c = json.load(open(sys.argv[1]))
for name, text, unit in (
        ("CORE_MHZ", "CPM_NON_IDLE_PCYC / delta-seconds / 1e6", "MHz"),
        ("CCYC_PER_CS", "CPM_CCYC / CPM_CS_CORE_PCYC", "")):
    c["formulas"].append({"index": len(c["formulas"]), "name": name,
                          "description": "", "formula": text, "unit": unit,
                          "flags": 4, "group": 21})
json.dump(c, open(sys.argv[2], "w"))
PY
"$HVCAT" build "$tmpdir/spans.json" -o "$tmpdir/spans.bin"
"$HVTOP" -b -n 60 --sim clock=virtual,seed=3,faults=busy:0.3 \
    --catalog "$tmpdir/spans.bin" -g CPM_32MHZ_CYC@core \
    -g CPM_CS_32MHZ_CYC@core --format csv >"$tmpdir/s.csv" 2>"$tmpdir/e"
check "the run exits 0" test $? = 0
"$py" - "$tmpdir/s.csv" >"$tmpdir/py" 2>&1 <<'PY'
import sys
import pandas as pd
d = pd.read_csv(sys.argv[1], dtype={"index": str})
d["reason"] = d["reason"].fillna("")
pcyc, mhz = "CPM_NON_IDLE_PCYC [/s]", "CORE_MHZ [MHz]"
a, b, ratio = "CPM_CCYC [/s]", "CPM_CS_CORE_PCYC [/s]", "CCYC_PER_CS"
close = lambda x, y: abs(x - y) <= 1e-9 * max(abs(x), abs(y), 1e-300)
rows, tot = d[d["index"] != "total"], d[d["index"] == "total"]
bad = {"mhz": 0, "ratio": 0, "mhz_total": 0, "ratio_total": 0}
# A row's frequency is its operand's rate, in MHz.
for _, r in rows[rows[mhz].notna()].iterrows():
    bad["mhz"] += not close(r[mhz], r[pcyc] / 1e6)
# A row's ratio, where it has one, is that of its operands' rates (the
# same as of their counts only when both cover the same seconds).
for _, r in rows[rows[ratio].notna()].iterrows():
    bad["ratio"] += not close(r[ratio], r[a] / r[b])
split = rows[rows[ratio].isna() & rows[a].notna() & rows[b].notna()]
said = split["reason"].str.contains(
    "CCYC_PER_CS: CPM_CCYC covers [0-9]+ intervals, CPM_CS_CORE_PCYC "
    "[0-9]+ \\(a read failed in between\\): no value over one span").sum()
# The totals: the mean of the rows' frequencies (their operands' rates),
# the ratio of the summed rates.
for seq, g in d.groupby("seq"):
    t = g[g["index"] == "total"].iloc[0]
    g = g[g["index"] != "total"]
    if pd.notna(t[mhz]):
        bad["mhz_total"] += not close(t[mhz], g[pcyc].mean() / 1e6)
    if pd.notna(t[ratio]):
        bad["ratio_total"] += not close(t[ratio], g[a].sum() / g[b].sum())
print("split", len(split), "said", said)
for k, v in bad.items():
    print(k, "ok" if v == 0 else "FAIL %d" % v)
PY
check "a row's delta-seconds are its operand's (CORE_MHZ = rate / 1e6)" \
    grep -qx 'mhz ok' "$tmpdir/py"
check "a ratio, where it has a value, is that of its operands' rates" \
    grep -qx 'ratio ok' "$tmpdir/py"
check "operands over different intervals: no value, and the reason" \
    awk '$1 == "split" && $2 > 0 && $4 == $2 { ok = 1 } END { exit !ok }' \
    "$tmpdir/py"
check "the frequency's total is the mean of its rows" \
    grep -qx 'mhz_total ok' "$tmpdir/py"
check "the ratio's total is that of the summed rates" \
    grep -qx 'ratio_total ok' "$tmpdir/py"
grep -q FAIL "$tmpdir/py" && diag "$(cat "$tmpdir/py")"
tap_csvs
true
