#!/bin/sh
# A group not picked on an index is not a failure: with PowerBus picked
# on chip 0 and Memory_BW on chip 1, the cells of the other group are
# blank in text (a line under the table says so and what each total
# covers), empty in CSV with the reason "not picked" (never a failure's),
# left out of a JSON row; each total says which chips it is of; the CSV
# keeps the columns of a run that picks both groups everywhere; a failed
# read is still "-".  pandas missing is a visible SKIP.
. "$(dirname "$0")/tap.sh"
SIM="--sim clock=virtual,seed=1"
PICKS="-g PowerBus@chip:0 -g Memory_BW@chip:1"
plan 9

"$HVTOP" -b -n 3 $SIM $PICKS >"$tmpdir/a.txt"
"$HVTOP" -b -n 3 $SIM $PICKS --format csv >"$tmpdir/a.csv"
"$HVTOP" -b -n 3 $SIM $PICKS --format json >"$tmpdir/a.json"
"$HVTOP" -b -n 3 $SIM -g PowerBus@chip -g Memory_BW@chip --format csv \
    >"$tmpdir/all.csv"

# The rows of the last chip table: no cell is "-".
check_not "text: no '-' where a group was not picked" sh -c "
	awk '/^chip /{ n = NR } { l[NR] = \$0 } END {
	    for (i = n + 2; i <= n + 4; i++) print l[i] }' '$tmpdir/a.txt' |
	    grep -Eq '(^| )-( |$)'"
check "text: the blank cells and chip 0's total are said" \
    grep -q '^blank  not picked on chip 1, the total is of chip 0 only: PM_PB_CYC, PM_MBA0_CLK_CYC, PowerBUS_Frequency$' \
    "$tmpdir/a.txt"
check "text: ... and chip 1's" \
    grep -Eq '^blank  not picked on chip 0, the total is of chip 1 only: PM_MCS01_128B_RD_DISP_PORT01, .*Memory_BW_Chip$' \
    "$tmpdir/a.txt"
check "text: a cell is a blank, not a mark" python3 - "$tmpdir/a.txt" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
i = [n for n, l in enumerate(lines) if l.startswith("chip ")][-1]
head = lines[i]
col = head.index("PowerBUS_Frequency")
end = col + len("PowerBUS_Frequency")
row1 = lines[i + 3]
assert row1.startswith("1 "), row1
assert row1[col:end].strip() == "", row1[col:end]
assert lines[i + 2][col:end].strip() == "2", lines[i + 2][col:end]
PY

check "JSON: an unpicked cell is left out of its row, a total says what it covers" \
    python3 - "$tmpdir/a.json" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    rows = {r["index"]: r for r in json.loads(line)["rows"]}
    assert "PM_PB_CYC" not in rows[1]["values"], rows[1]
    assert "PM_PB_CYC" not in rows[1]["reasons"], rows[1]
    assert rows[0]["values"]["PM_PB_CYC"] is not None
    why = rows[None]["reasons"]
    assert why["PM_PB_CYC"] == "total of chip 0 only, not picked on chip 1", why
    assert why["Memory_BW_Chip"] == \
        "total of chip 1 only, not picked on chip 0", why
PY

if pandas_py=$(pandas_python); then
	check "CSV (pandas): an empty cell whose reason is 'not picked'" \
	    "$pandas_py" - "$tmpdir/a.csv" "$tmpdir/all.csv" <<'PY'
import sys
import pandas as pd
d = pd.read_csv(sys.argv[1], dtype={"index": str})
chip1 = d[d["index"] == "1"]
assert len(chip1) == 3 and chip1["PM_PB_CYC [/s]"].isna().all()
for why in chip1["reason"]:
    assert "PM_PB_CYC: not picked on chip 1" in why, why
    assert "failed" not in why and "no value" not in why, why
chip0 = d[d["index"] == "0"]
assert chip0["Memory_BW_Chip [MB/s]"].isna().all()
assert chip0["PM_PB_CYC [/s]"].notna().all()
tot = d[d["index"] == "total"]
assert tot["PM_PB_CYC [/s]"].notna().all()
for why in tot["reason"]:
    assert "PM_PB_CYC: total of chip 0 only, not picked on chip 1" in why
    assert "Memory_BW_Chip: total of chip 1 only, not picked on chip 0" \
        in why
# The same columns as a run that picks both groups on both chips.
full = pd.read_csv(sys.argv[2])
assert list(d.columns) == list(full.columns), (d.columns, full.columns)
assert full["reason"].isna().all(), full["reason"]
PY
else
	skip "CSV (pandas): an empty cell whose reason is 'not picked'" \
	    "pandas is not installed"
fi
check "CSV: the same number of fields on every line" \
    python3 -c 'import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
assert len(set(map(len, rows))) == 1' "$tmpdir/a.csv"

# A failed read is still "-", with its reason; the unpicked stay blank.
"$HVTOP" -b -n 4 --sim clock=virtual,seed=1,faults=busy:0.5 $PICKS \
    >"$tmpdir/busy.txt" 2>/dev/null
check "text: a failed read is '-' with its reason" \
    grep -Eq '^-  +PM_PB_CYC: ' "$tmpdir/busy.txt"
check "text: ... and the unpicked are still said apart" \
    grep -q '^blank  not picked on chip 1' "$tmpdir/busy.txt"
