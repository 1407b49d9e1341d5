#!/bin/sh
# perf's own metric JSON loaded with -m on the simulated frame, as a user
# would: every hv_24x7 metric of perf's POWER9 and POWER10 files is
# computed, its value equals perf's definition worked out again from the
# raw columns of the same row (perfjson-check.py), units and groups show
# in text, CSV and JSON, and what cannot be computed is said with why.
. "$(dirname "$0")/tap.sh"
P9=$top_builddir/catalogs/power9.bin
P10=$top_builddir/catalogs/power10.bin
M9=$DATA/perfjson/power9/nest_metrics.json
M10=$DATA/perfjson/power10/nest_metrics.json
SIM="--sim clock=virtual,seed=7"
CHECK="$top_srcdir/tests/cli/perfjson-check.py"
plan 14

# Every chip group of the POWER10 catalog: what the 70 metrics read.
G10=""
for g in PowerBus PowerBus_Pumps_P01 PowerBus_Pumps_P23 Memory_BW XLINK01 \
    XLINK23 XLINK45 XLINK67 ALINK01 ALINK23 ALINK45 ALINK67; do
	G10="$G10 -g $g"
done
# shellcheck disable=SC2086
"$HVTOP" -b -n 3 $SIM --catalog "$P10" $G10 -m "$M10" --format json \
    -o "$tmpdir/p10.json" 2>"$tmpdir/p10.err"
check "POWER10: no complaint about the file" test ! -s "$tmpdir/p10.err"
if command -v python3 >/dev/null 2>&1; then
	check "POWER10: all 70 metrics equal perf's definitions" \
	    python3 "$CHECK" "$M10" "$tmpdir/p10.json" $(python3 -c '
import json, sys
print(" ".join(m["MetricName"] for m in json.load(open(sys.argv[1]))))
' "$M10")
else
	skip "POWER10: all 70 metrics equal perf's definitions" "no python3"
fi
check "POWER10: JSON has the groups" \
    grep -q '"groups":{"Memory_RD_BW_Chip":"Memory_BW"' "$tmpdir/p10.json"
check "POWER10: JSON has perf's units" \
    grep -q '"TOTAL_INT_PB_BW":"MB/s"' "$tmpdir/p10.json"

# POWER9: the four hv_24x7 metrics, the six IMC ones skipped with why.
"$HVTOP" -b -n 3 $SIM --catalog "$P9" -g Memory_BW -g PowerBus \
    -g CPM_CS_32MHZ_CYC:0-1 -m "$M9" --format json -o "$tmpdir/p9.json" \
    2>"$tmpdir/p9.err"
check "POWER9: six metrics skipped" test "$(grep -c 'skipped' \
    "$tmpdir/p9.err")" = 6
check "POWER9: the reason names the PMU and the place" grep -q \
    "nest_metrics.json: line 28, column 5: metric mcs01-read: MetricExpr column 1: event 'nest_mcs01_imc@PM_MCS01_128B_RD_DISP_PORT01@' is on PMU 'nest_mcs01_imc', not hv_24x7 (skipped)" \
    "$tmpdir/p9.err"
check_not "POWER9: nothing else said" grep -v skipped "$tmpdir/p9.err"
if command -v python3 >/dev/null 2>&1; then
	check "POWER9: the chip metrics equal perf's definitions" \
	    python3 "$CHECK" "$M9" "$tmpdir/p9.json" Memory_RD_BW_Chip \
	    Memory_WR_BW_Chip PowerBUS_Frequency
else
	skip "POWER9: the chip metrics equal perf's definitions" "no python3"
fi
check "POWER9: the per-core metric is shown in MHz" \
    grep -q '"CPM_CS_32MHZ_CYC":"MHz"' "$tmpdir/p9.json"

# Text and CSV: the unit under the name, the group under the unit.
"$HVTOP" -b -n 2 $SIM --catalog "$P9" -g Memory_BW -m "$M9" \
    >"$tmpdir/p9.txt" 2>/dev/null
check "text: a group row under the units" \
    grep -q '^group .* Memory_BW  *Memory_BW' "$tmpdir/p9.txt"
"$HVTOP" -b -n 2 $SIM --catalog "$P9" -g Memory_BW -m "$M9" \
    -o "$tmpdir/p9.csv" 2>/dev/null
check "CSV: unit and group in the header" \
    grep -q 'Memory_RD_BW_Chip \[MB/s\] {Memory_BW}' "$tmpdir/p9.csv"

# The format is told by content: the same file under another name.
cp "$M9" "$tmpdir/perf-metrics.txt"
"$HVTOP" -b -n 2 $SIM --catalog "$P9" -g Memory_BW \
    -m "$tmpdir/perf-metrics.txt" --format json -o "$tmpdir/c.json" \
    2>/dev/null
check "read as perf JSON whatever its name" \
    grep -q '"Memory_RD_BW_Chip":"MB/s"' "$tmpdir/c.json"

# A file that is not JSON says where.
printf '[{"MetricName": "x",\n "MetricExpr": }]\n' >"$tmpdir/bad.json"
"$HVTOP" -b -n 1 $SIM --catalog "$P9" -m "$tmpdir/bad.json" \
    >/dev/null 2>"$tmpdir/bad.err"
check "broken JSON: line and column" grep -q \
    'bad.json: line 2, column 16: ' "$tmpdir/bad.err"
printf '[{"MetricName": "x", "MetricExpr": "hv_24x7@PM_PB_CYC\\\\,chip\\\\=1@ if 1 else 2"}]\n' \
    >"$tmpdir/if.json"
"$HVTOP" -b -n 1 $SIM --catalog "$P9" -m "$tmpdir/if.json" \
    >/dev/null 2>"$tmpdir/if.err"
check "a fixed chip is refused with its column" grep -q \
    "metric x: MetricExpr column 1: event 'hv_24x7@PM_PB_CYC,chip=1@' reads chip 1 alone" \
    "$tmpdir/if.err"
tap_csvs
rm -rf "$tmpdir"
exit $tap_failed
