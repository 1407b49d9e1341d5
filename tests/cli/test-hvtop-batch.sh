#!/bin/sh
# hvtop's batch mode on the simulated frame, driven as a user would:
# reproducible output, CSV columns and units, metrics recomputed from the
# raw columns of the same row with hvcat eval, totals equal to the sum of
# their rows, every injected fault reported without a wrong value, and
# usage errors.
. "$(dirname "$0")/tap.sh"
P8="$DATA/catalog/p8-catalog-v3.bin"
METRICS="$DATA/metrics/p8-core.csv"
SIM="--sim clock=virtual,interface=1,seed=7 --catalog $P8"
GROUP="-g HPM_0THRD_NON_IDLE_CCYC:0-3"
plan 23

# Two runs with the same seed print the same bytes.
"$HVTOP" -b -n 5 $SIM $GROUP -m "$METRICS" >"$tmpdir/a.txt" 2>&1
"$HVTOP" -b -n 5 $SIM $GROUP -m "$METRICS" >"$tmpdir/b.txt" 2>&1
check "same seed, same bytes" cmp -s "$tmpdir/a.txt" "$tmpdir/b.txt"
check "text output names the simulated frame" \
    grep -q 'SIMULATED frame' "$tmpdir/a.txt"
check "text output has 5 intervals" \
    test "$(grep -c '^hvtop ' "$tmpdir/a.txt")" = 5
"$HVTOP" -b -n 5 --sim clock=virtual,interface=1,seed=8 --catalog "$P8" \
    $GROUP >"$tmpdir/c.txt" 2>&1
check_not "another seed, other numbers" cmp -s "$tmpdir/a.txt" "$tmpdir/c.txt"

# CSV: a header with units, 4 cores + total per interval.
"$HVTOP" -b -n 3 $SIM $GROUP -m "$METRICS" -o "$tmpdir/a.csv"
check "-o FILE.csv writes CSV" \
    grep -q '^time,seq,interval_s,domain,index,' "$tmpdir/a.csv"
check "CSV header gives units" grep -q 'HPM_NON_IDLE_INST \[/s\]' \
    "$tmpdir/a.csv"
check "CSV has 3 x 5 rows" test "$(($(wc -l <"$tmpdir/a.csv") - 1))" = 15

# Every metric column equals the metric recomputed from the raw event
# columns of the same row: rate x interval gives the delta.
"$HVTOP" $SIM -m "$METRICS" --list formulas >"$tmpdir/formulas"
awk -F, -v list="$tmpdir/formulas" '
BEGIN {
	while ((getline l < list) > 0) {
		if (l ~ /^  [^ ]/) { split(l, w, " "); name = w[1] }
		else if (l ~ /^       / && name != "") {
			sub(/^ +/, "", l); expr[name] = l; name = ""
		}
	}
}
NR == 1 {
	for (i = 1; i <= NF; i++) {
		h = $i; sub(/ \[.*\]$/, "", h); col[i] = h
		if (h ~ /^HPM_/) ev[i] = 1
		if (h in expr) met[i] = 1
	}
	next
}
NR <= 6 {
	args = ""
	for (i in ev) args = args " " col[i] "=" sprintf("%.17g", $i * $3)
	for (i in met)
		printf "%s\t%s\t%s\t%s delta-seconds=%s\n", NR, col[i], $i, \
		    expr[col[i]], $3 args
}' "$tmpdir/a.csv" >"$tmpdir/checks"
bad=0
n=0
while IFS='	' read -r row name shown rest; do
	expr=${rest%% delta-seconds=*}
	vals=${rest#"$expr" }
	# shellcheck disable=SC2086
	got=$("$HVCAT" eval "$expr" $vals 2>"$tmpdir/eval.err") || {
		diag "row $row $name: $(cat "$tmpdir/eval.err")"; bad=1; }
	if ! awk -v a="$shown" -v b="$got" 'BEGIN {
	    d = a - b; if (d < 0) d = -d; m = b < 0 ? -b : b
	    exit !(d <= 1e-9 * m + 1e-12) }'; then
		diag "row $row $name: CSV $shown, recomputed $got"
		bad=1
	fi
	n=$((n + 1))
done <"$tmpdir/checks"
check "every metric column recomputes from its row ($n checked)" \
    test "$bad" = 0 -a "$n" -ge 15

# Per-index rates of additive events sum to the total row.
awk -F, 'NR == 1 { next }
$5 == "total" { for (i = 6; i <= 8; i++) { d = sum[i] - $i; if (d < 0) d = -d
	if (d > 1e-6 * $i + 1) bad = 1; sum[i] = 0 }; next }
{ for (i = 6; i <= 8; i++) sum[i] += $i }
END { exit bad }' "$tmpdir/a.csv"
check "rows sum to the total for additive events" test $? = 0

# JSON lines: one object per interval, nulls not NaN.
"$HVTOP" -b -n 2 $SIM $GROUP --format json >"$tmpdir/a.json"
check "JSON: one line per interval" test "$(wc -l <"$tmpdir/a.json")" = 2
check "JSON carries rows" grep -q '"rows":\[{"domain":"core","index":0' \
    "$tmpdir/a.json"
check_not "no NaN or inf anywhere" grep -qiE 'nan|inf[^o]' \
    "$tmpdir/a.json" "$tmpdir/a.csv"

# Faults: each says what happened and shows no number for it.
"$HVTOP" -b -n 2 --sim clock=virtual,interface=1,faults=denied \
    --catalog "$P8" $GROUP -o "$tmpdir/denied.csv" 2>"$tmpdir/denied.err"
check "denied: the HMC setting is named" \
    grep -q 'Allow performance information collection' "$tmpdir/denied.err"
check "denied: no values" test "$(awk -F, 'NR > 1 && $6 != ""' \
    "$tmpdir/denied.csv" | wc -l)" = 0
"$HVTOP" -b -n 6 --sim clock=virtual,interface=1,seed=3,faults=busy:0.4 \
    --catalog "$P8" $GROUP -o "$tmpdir/busy.csv" 2>"$tmpdir/busy.err"
check "busy: reported" grep -q 'H_BUSY' "$tmpdir/busy.err"
check "busy: failed intervals have no values" test "$(awk -F, \
    'NR > 1 && /H_BUSY/ && $6 != ""' "$tmpdir/busy.csv" |
    wc -l)" = 0
"$HVTOP" -b -n 4 --sim clock=virtual,interface=1,faults=version-change@3 \
    --catalog "$P8" $GROUP >"$tmpdir/vc.txt" 2>&1
check "version change: reloaded and said so" \
    grep -q 'catalog version changed from 3 to 4' "$tmpdir/vc.txt"
"$HVTOP" -b -n 4 --sim clock=virtual,interface=1,faults=short-results \
    --catalog "$P8" $GROUP -o "$tmpdir/short.csv" 2>"$tmpdir/short.err"
check "short results: reported" test -s "$tmpdir/short.err"

# Usage errors: exit 2 with a one-line reason and the usage.
"$HVTOP" -b -d abc >/dev/null 2>"$tmpdir/e1"; rc=$?
check "-d abc exits 2" test "$rc" = 2
check "-d abc says why" grep -q 'interval must be' "$tmpdir/e1"
"$HVTOP" -b $SIM -g NO_SUCH_GROUP >/dev/null 2>"$tmpdir/e2"; rc=$?
check "an unknown group exits 2 naming it" \
    test "$rc" = 2 -a -n "$(grep 'NO_SUCH_GROUP' "$tmpdir/e2")"

# A metric file with a bad line: the line is named, the rest is used.
printf 'CPU,hv_24x7\nEVENT,BAD,DERIVED_BOGUS,N0,X\nEVENT,IPC2,DERIVED_POSTFIX,N0|N1|/|,HPM_NON_IDLE_INST,HPM_NON_IDLE_PCYC\n' \
    >"$tmpdir/m.csv"
"$HVTOP" -b -n 1 $SIM $GROUP -m "$tmpdir/m.csv" --format csv \
    >"$tmpdir/m.out" 2>"$tmpdir/m.err"
check "a bad metric line is reported with line and column" \
    grep -q 'm.csv: line 2, column 11: unknown derived type' "$tmpdir/m.err"
check "the good metric of that file is computed" \
    grep -q '^time,.*,IPC2,.*reason,error,frame$' "$tmpdir/m.out"
