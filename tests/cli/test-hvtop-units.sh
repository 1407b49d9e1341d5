#!/bin/sh
# Units in hvtop's text output: the columns of one unit family in a table
# share one prefix (Memory_RD_BW_Chip reads in GB/s beside
# Memory_BW_Chip, not 6020 MB/s beside 9.29 GB/s), and every cell is its
# CSV value over the prefix its unit line names, to three digits.  The
# CSV and JSON keep their raw numbers.
. "$(dirname "$0")/tap.sh"
SIM="--sim clock=virtual,seed=1"
plan 3

"$HVTOP" -b -n 3 $SIM -g Memory_BW@chip >"$tmpdir/a.txt"
"$HVTOP" -b -n 3 $SIM -g Memory_BW@chip --format csv >"$tmpdir/a.csv"
"$HVTOP" -b -n 3 $SIM -g Memory_BW@chip --format json >"$tmpdir/a.json"

check "text: the bandwidth columns of a table share one prefix" \
    python3 - "$tmpdir/a.txt" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
tables = [n for n, l in enumerate(lines) if l.startswith("chip ")]
assert tables, "no chip table"
for i in tables:
    units = [u for u in lines[i + 1].split() if u.endswith("B/s")]
    assert len(units) == 3 and len(set(units)) == 1, units
PY

check "text: each cell is its CSV value over the column's prefix" \
    python3 - "$tmpdir/a.txt" "$tmpdir/a.csv" <<'PY'
import csv, sys
lines = open(sys.argv[1]).read().split("\n")
i = [n for n, l in enumerate(lines) if l.startswith("chip ")][-1]
names, units = lines[i].split()[1:], lines[i + 1].split()
# The table's rows, every chip and the total, down to its blank line.
body = lines[i + 2:lines.index("", i + 2)]
rows = {l.split()[0]: l.split()[1:] for l in body}
scale = {"": 1, "k": 1e3, "M": 1e6, "G": 1e9}
csvrows = [r for r in csv.DictReader(open(sys.argv[2]))
           if r["seq"] == "3" and r["domain"] == "chip"]
assert len(csvrows) == len(rows) and len(rows) > 2, (csvrows, rows)
for r in csvrows:
    for head, v in r.items():
        if "[" not in head or not v:
            continue
        name, unit = head.split(" [")
        unit = unit[:-1]
        k = names.index(name)
        base = v and float(v) * scale[unit[0] if unit[0] in "kMG" and
                                      len(unit) > 2 else ""]
        shown = units[k]
        div = scale[shown[0] if shown[0] in "kMG" and len(shown) > 2
                    else ""]
        cell = rows[r["index"]][k]
        want = base / div
        assert abs(float(cell) - want) <= 0.006 * abs(want) + 0.005, \
            (r["index"], name, cell, shown, v, unit)
PY

check "CSV and JSON keep the raw numbers in MB/s" sh -c "
	head -n 1 '$tmpdir/a.csv' | grep -q 'Memory_RD_BW_Chip \[MB/s\]' &&
	grep -q '\"Memory_RD_BW_Chip\":\"MB/s\"' '$tmpdir/a.json' &&
	grep -Eq ',[0-9]{4}\.[0-9]+,' '$tmpdir/a.csv'"
