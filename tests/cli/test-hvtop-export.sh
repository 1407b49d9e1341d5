#!/bin/sh
# hvtop's batch output as other programs load it: every CSV has one
# header and one schema (also across a catalog version change and its
# replay) and loads with Python's csv module and pandas; seq counts up
# over the whole run; JSON has units, shortest numbers and an index that
# is a number or null; a value that is absent says why in every format;
# text columns share one prefix; an unknown -o suffix is refused; and
# very many metrics are loaded and exported.  pandas and jq missing are a
# visible SKIP.
. "$(dirname "$0")/tap.sh"
P8="$DATA/catalog/p8-catalog-v3.bin"
SIM="--sim clock=virtual,interface=1,seed=7 --catalog $P8"
GROUP="-g HPM_0THRD_NON_IDLE_CCYC:0-3"
CHECKS="$top_srcdir/tests/cli"
plan 23

# The header survives a catalog change before the first printed interval.
for at in 1 2 3 4; do
	"$HVTOP" -b -n 3 --sim clock=virtual,faults=version-change@$at \
	    --format csv >"$tmpdir/early$at.csv" 2>/dev/null
done
check "CSV: the header is first when the catalog changes @1-@4" sh -c "
	for at in 1 2 3 4; do
		head -n 1 '$tmpdir'/early\$at.csv | grep -q '^time,seq,' ||
		    exit 1
	done"

# The CSV files the runs below write, all loaded the same way.
"$HVTOP" -b -n 3 --sim clock=virtual --format csv >"$tmpdir/default.csv"
"$HVTOP" -b -n 3 $SIM $GROUP -o "$tmpdir/group.csv"
"$HVTOP" -b -n 6 --sim clock=virtual,faults=version-change@3 \
    --format csv -w "$tmpdir/v.hvr" >"$tmpdir/version.csv" 2>/dev/null
"$HVTOP" -b -r "$tmpdir/v.hvr" -o "$tmpdir/replay.csv" 2>/dev/null
"$HVTOP" -b -n 4 --sim clock=virtual,faults=busy:0.5 --format csv \
    >"$tmpdir/busy.csv" 2>/dev/null
printf 'CPU,hv_24x7\nEVENT,ZD,DERIVED_INFIX,N0 / (N0 - N0),HPM_NON_IDLE_INST\n' \
    >"$tmpdir/zd.csv"
"$HVTOP" -b -n 2 $SIM $GROUP -m "$tmpdir/zd.csv" --format csv \
    >"$tmpdir/reason.csv" 2>/dev/null
csvs="$tmpdir/early1.csv $tmpdir/early2.csv $tmpdir/default.csv
    $tmpdir/group.csv $tmpdir/version.csv $tmpdir/replay.csv
    $tmpdir/busy.csv $tmpdir/reason.csv"
python3 "$CHECKS/csv-check.py" $csvs >"$tmpdir/csv.out" 2>&1
check "CSV: one header and one field count per file (csv module)" \
    test $? = 0
diag "$(head -5 "$tmpdir/csv.out")"
check "CSV: seq counts 1 to 6 across a catalog version change" \
    test "$(awk -F, 'NR > 1 { print $2 }' "$tmpdir/version.csv" |
    uniq | tr '\n' ' ')" = "1 2 3 4 5 6 "
check "CSV: a replay of the version change writes the same bytes" \
    cmp -s "$tmpdir/version.csv" "$tmpdir/replay.csv"
if pandas_py=$(pandas_python); then
	"$pandas_py" "$CHECKS/csv-check.py" --pandas $csvs >"$tmpdir/pd.out" \
	    2>&1
	check "CSV: every file loads with pandas.read_csv as it is" test $? = 0
	diag "$(head -5 "$tmpdir/pd.out")"
else
	skip "CSV: every file loads with pandas.read_csv as it is" \
	    "pandas is not installed (apt-get install python3-pandas)"
fi

# Why a value is absent, in every format.
check "CSV: a reason column" \
    grep -q '^time,seq,.*,reason,error,frame$' "$tmpdir/reason.csv"
check "CSV: the reason of an empty cell is given" test "$(awk -F, '
    NR > 1 && $(NF - 2) == "ZD: division by zero"' "$tmpdir/reason.csv" |
    wc -l)" = 10
check "CSV: a failed read says why" \
    grep -q ',[^,]*: the hypervisor was busy' "$tmpdir/busy.csv"
"$HVTOP" -b -n 3 $SIM $GROUP -m "$tmpdir/zd.csv" -o "$tmpdir/zd.out.csv" \
    2>"$tmpdir/zd.err"
check "stderr: a metric without a value is named once, with the reason" \
    test "$(grep -c '^hvtop: interval 1: ZD has no value: division by zero$' \
    "$tmpdir/zd.err")" = 1 -a "$(grep -c ZD "$tmpdir/zd.err")" = 1
"$HVTOP" -b -n 2 $SIM $GROUP -m "$tmpdir/zd.csv" --format json \
    >"$tmpdir/reason.json" 2>/dev/null
check "JSON: the reason of a null value is given" python3 -c '
import json, sys
for line in open(sys.argv[1]):
    for r in json.loads(line)["rows"]:
        if r["values"].get("ZD", 0) is not None or \
           r["reasons"].get("ZD") != "division by zero":
            sys.exit(1)' "$tmpdir/reason.json"
"$HVTOP" -b -n 1 $SIM $GROUP -m "$tmpdir/zd.csv" >"$tmpdir/reason.txt" \
    2>/dev/null
check "text: a ? cell has its reason under the table" \
    grep -q '^? *ZD: division by zero$' "$tmpdir/reason.txt"

# JSON as consumers read it.
"$HVTOP" -b -n 3 --sim clock=virtual --format json >"$tmpdir/a.json"
"$HVTOP" -b -n 3 --sim clock=virtual,faults=busy:0.5 --format json \
    >"$tmpdir/busy.json" 2>/dev/null
python3 "$CHECKS/json-check.py" "$tmpdir/a.json" "$tmpdir/busy.json" \
    "$tmpdir/reason.json" >"$tmpdir/json.out" 2>&1
check "JSON: parses, shortest numbers, units, index number or null" \
    test $? = 0
diag "$(head -5 "$tmpdir/json.out")"
# (Python's repr() gives the shortest digits that read back: a value
# may need all 17 of them, so json-check.py compares with it.)
check "JSON: the total row has index null" \
    grep -q '"index":null,"total":true' "$tmpdir/a.json"
if have jq; then
	check "jq: every value has a unit" jq -e '
	    .units as $u | all(.rows[].values | keys[]; $u[.] != null)' \
	    "$tmpdir/a.json"
else
	skip "jq: every value has a unit" "jq is not installed"
fi

# Text: a column of one metric has one prefix, in its unit line.
"$HVTOP" -b -n 1 --sim clock=virtual >"$tmpdir/a.txt"
check "text: 10.5k MB/s reads 10.5 GB/s" sh -c "
	awk '/^chip/ { getline; print; exit }' '$tmpdir/a.txt' |
	    grep -q ' GB/s'"
check_not "text: no value carries its own prefix" \
    grep -Eq '^[0-9a-z]+ .* [0-9.]+[kMGTPE]( |$)' "$tmpdir/a.txt"
# The same run as CSV gives the exact values: each cell of the column
# is its value over the prefix the unit line names, to three digits.
"$HVTOP" -b -n 1 --sim clock=virtual --format csv >"$tmpdir/a1.csv"
check "text: a column shares its prefix, and its values are the CSV's" \
    python3 - "$tmpdir/a.txt" "$tmpdir/a1.csv" <<'PY'
import csv, sys
lines = open(sys.argv[1]).read().split("\n")
i = next(n for n, l in enumerate(lines) if l.startswith("chip "))
names, units = lines[i].split(), lines[i + 1].split()
col = names.index("Memory_BW_Chip") - 1
assert units[col] == "GB/s", units[col]
# The table's rows, every chip and the total, down to its blank line.
body = lines[i + 2:lines.index("", i + 2)]
rows = {l.split()[0]: l.split()[col + 1] for l in body}
scale = {"B/s": 1e-9, "kB/s": 1e-6, "MB/s": 1e-3, "GB/s": 1.0}
want = {}
for r in csv.DictReader(open(sys.argv[2])):
    if r["domain"] != "chip":
        continue
    for name, v in r.items():
        if name.startswith("Memory_BW_Chip ["):
            want[r["index"]] = float(v) * scale[name[16:-1]]
assert len(rows) > 2 and rows.keys() == want.keys(), (rows, want)
for key, cell in rows.items():
    assert float(cell) == float("%.3g" % want[key]), (key, cell, want[key])
PY
# -o with a suffix hvtop does not know.
"$HVTOP" -b -n 1 --sim clock=virtual -o "$tmpdir/out.xlsx" \
    2>"$tmpdir/sfx.err"
check "-o FILE.xlsx is a usage error (exit 2)" test $? = 2
check "... naming the suffix and the known ones" \
    grep -q "'.xlsx'.*\.csv" "$tmpdir/sfx.err"
check "... and writes no file" test ! -e "$tmpdir/out.xlsx"
"$HVTOP" -b -n 1 --sim clock=virtual -o "$tmpdir/out.xlsx" --format csv
check "-o FILE.xlsx --format csv writes CSV" \
    grep -q '^time,seq,' "$tmpdir/out.xlsx"
"$HVTOP" -b -n 1 --sim clock=virtual -o "$tmpdir/plain"
check "-o FILE without a suffix is text" grep -q '^hvtop ' "$tmpdir/plain"

# Very many metrics: all loaded, all with a column, the last computed.
# 200000 of them; 20000 in a sanitizer build, whose allocator makes the
# large run take many minutes (how start-up grows is the benchmark's
# business, not this test's).
many=200000
if ldd "$HVTOP" 2>/dev/null | grep -q 'lib[at]san'; then
	many=20000
	diag "a sanitizer build: $many metrics instead of 200000"
fi
awk -v n="$many" 'BEGIN {
	print "CPU,hv_24x7"
	for (i = 0; i < n; i++)
		printf "EVENT,M%d,DERIVED_POSTFIX,N0|N1|/|," \
		    "HPM_NON_IDLE_INST,HPM_NON_IDLE_PCYC\n", i
}' >"$tmpdir/many.csv"
"$HVTOP" -b -n 1 $SIM -g HPM_0THRD_NON_IDLE_CCYC:0-1 -m "$tmpdir/many.csv" \
    -o "$tmpdir/many.out.csv" 2>"$tmpdir/many.err"
check "$many metrics: one column each, the last one computed" \
    awk -F, -v n="$many" '
NR == 1 { for (i = 1; i <= NF; i++) {
		if ($i ~ /^M[0-9]+$/) m++
		if ($i == "M" (n - 1)) last = i
	}
	next }
last && $last != "" { ok++ }
END { exit !(m == n && last && ok == 3) }' "$tmpdir/many.out.csv"
