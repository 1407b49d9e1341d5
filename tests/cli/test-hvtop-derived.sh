#!/bin/sh
# hvtop's own per-core metrics, hvtop_busy (the share of a core's
# constant-clock cycles it was not idle, never above 100 %) and hvtop_ipc (instructions per non-idle cycle): listed
# by --list formulas as hvtop's, read by the overview, and in every output
# as ordinary metrics, each equal to what its counters give (Python's csv
# module and json read them; promtool checks the endpoint when it is
# there).  A metric file's definition of the name is used instead.  The
# partitions' IPC is per non-idle cycle when those are read, and its text
# column says so.
. "$(dirname "$0")/tap.sh"
export LC_ALL=C
plan 15
SIM="--sim clock=virtual,seed=3"

"$HVTOP" --list formulas hvtop $SIM >"$tmpdir/list" 2>"$tmpdir/e"
check "--list formulas lists hvtop_busy as hvtop's, in %" \
    grep -Eq '^  hvtop_busy +\[%\] \(hvtop\)$' "$tmpdir/list"
check "--list formulas lists hvtop_ipc as hvtop's" \
    grep -Eq '^  hvtop_ipc +\[no unit\] \(hvtop\)$' "$tmpdir/list"
check "--list formulas shows busy's formula" \
    grep -qF '100 * (CPM_CCYC - CPM_0THRD_NON_IDLE_CCYC) / CPM_CCYC' \
    "$tmpdir/list"
"$HVTOP" --list formulas hvtop $SIM --sim catalog=power8 >"$tmpdir/list8" \
    2>&1
check "a POWER8 catalog gets them in its own events" \
    grep -qF '100 * (HPM_CCYC - HPM_0THRD_NON_IDLE_CCYC) / HPM_CCYC' \
    "$tmpdir/list8"

# The overview (no picks) in CSV: on every core row and the total, busy
# and IPC as their events give them.
cat >"$tmpdir/own.py" <<'PY'
import csv, math, sys
rows = [r for r in csv.DictReader(open(sys.argv[1], newline=""))
        if r["domain"] == "core"]
bad = []
if not rows:
    bad.append("no core rows")
for r in rows:
    c, p = float(r["CPM_CCYC [/s]"]), float(r["CPM_NON_IDLE_PCYC [/s]"])
    i = float(r["CPM_NON_IDLE_INST [/s]"])
    idle = float(r["CPM_0THRD_NON_IDLE_CCYC [/s]"])
    busy, ipc = float(r["hvtop_busy [%]"]), float(r["hvtop_ipc"])
    want = 100 * (c - idle) / c
    if not math.isclose(busy, want, rel_tol=1e-9, abs_tol=1e-9):
        bad.append("seq %s core %s: busy %g, not %g" %
                   (r["seq"], r["index"], busy, want))
    if not 0 <= busy <= 100:
        bad.append("seq %s core %s: busy %g" % (r["seq"], r["index"], busy))
    if not math.isclose(ipc, i / p, rel_tol=1e-9):
        bad.append("seq %s core %s: ipc %g, not %g" %
                   (r["seq"], r["index"], ipc, i / p))
print("\n".join(bad[:5]))
sys.exit(1 if bad else 0)
PY
"$HVTOP" -b -n 3 $SIM --format csv >"$tmpdir/o.csv" 2>"$tmpdir/e"
check "overview CSV: exit 0" test $? = 0
python3 "$tmpdir/own.py" "$tmpdir/o.csv" >"$tmpdir/own.out" 2>&1
check "overview CSV: busy and IPC on every core as their events give" \
    test $? = 0
diag "$(head -5 "$tmpdir/own.out")"

"$HVTOP" -b -n 2 $SIM --format json >"$tmpdir/o.json" 2>"$tmpdir/e"
check "JSON: hvtop_busy and hvtop_ipc are metrics of the cores" \
    python3 -c '
import json, sys
found = set()
def walk(o):
    if isinstance(o, dict):
        for k, v in o.items():
            if k in ("hvtop_busy", "hvtop_ipc"):
                found.add(k)
            walk(v)
    elif isinstance(o, list):
        for v in o:
            walk(v)
for line in open(sys.argv[1]):
    if line.strip():
        walk(json.loads(line))
sys.exit(0 if found == {"hvtop_busy", "hvtop_ipc"} else 1)' "$tmpdir/o.json"
"$HVTOP" -b -n 2 $SIM >"$tmpdir/o.txt" 2>"$tmpdir/e"
check "text: the core table has both columns" \
    grep -Eq '^core .* hvtop_busy +hvtop_ipc$' "$tmpdir/o.txt"

# The report of a recording charts them.
"$HVTOP" -b -n 3 $SIM -w "$tmpdir/r.hvr" >/dev/null 2>&1 &&
    "$HVTOP" report "$tmpdir/r.hvr" -o "$tmpdir/r.html" >/dev/null 2>&1
check "the report names hvtop_busy" grep -q hvtop_busy "$tmpdir/r.html"

# The endpoint serves them.
# both_served: one scrape of $url into om.txt shows both.
both_served() {
	curl -s -m 5 -o "$tmpdir/om.txt" "$url" &&
	    grep -q 'hvtop_busy' "$tmpdir/om.txt" &&
	    grep -q 'hvtop_ipc' "$tmpdir/om.txt"
}
if have curl; then
	serve_start om -b --sim seed=3 -d 0.2 --serve 127.0.0.1:0
	got=no
	[ -n "$url" ] && until_ok 30 both_served && got=yes
	check "OpenMetrics: both are served" test "$got" = yes
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
else
	skip "OpenMetrics: both are served" "no curl"
fi

# A metric file's hvtop_busy is the one used, once.
printf 'CPU,hv_24x7\nEVENT,hvtop_busy,DERIVED_POSTFIX,N0|2|/|,%s\n' \
    CPM_NON_IDLE_PCYC >"$tmpdir/mine.txt"
"$HVTOP" --list formulas hvtop_busy $SIM -m "$tmpdir/mine.txt" \
    >"$tmpdir/mine" 2>&1
check "a file's hvtop_busy replaces hvtop's" \
    test "$(grep -c '^  hvtop_busy ' "$tmpdir/mine")" = 1 -a \
    -n "$(grep -F "($tmpdir/mine.txt)" "$tmpdir/mine")"

# Partitions: IPC per non-idle cycle when those are read.
"$HVTOP" -b -n 2 $SIM -g CPM_32MHZ_CYC@lpar --format csv \
    >"$tmpdir/l.csv" 2>"$tmpdir/e"
check "partitions CSV: exit 0" test $? = 0
check "partitions CSV: ipc is instructions per non-idle cycle" \
    python3 -c '
import csv, math, sys
n = 0
for r in csv.DictReader(open(sys.argv[1], newline="")):
    if r["domain"] != "lpar" or r["placement"] != "all" or not r["ipc"]:
        continue
    i = float(r["CPM_NON_IDLE_INST [/s]"])
    p = float(r["CPM_NON_IDLE_PCYC [/s]"])
    if not math.isclose(float(r["ipc"]), i / p, rel_tol=1e-9):
        print(r["index"], r["ipc"], i / p)
        sys.exit(1)
    n += 1
sys.exit(0 if n > 0 else 1)' "$tmpdir/l.csv"
"$HVTOP" -b -n 2 $SIM -g CPM_32MHZ_CYC@lpar >"$tmpdir/l.txt" 2>"$tmpdir/e"
check "partitions text: the column is headed IPC-NI" \
    grep -Eq '^lpar .* IPC-NI( |$)' "$tmpdir/l.txt"
# A group without non-idle cycles (a user's metric file can't help that):
# perf's spelling of core cycles and instructions alone keeps IPC.
"$HVTOP" -b -n 2 $SIM -e 'hv_24x7/CPM_CCYC,domain=3,lpar=2,core=0/' \
    -e 'hv_24x7/CPM_INST,domain=3,lpar=2,core=0/' >"$tmpdir/l2.txt" \
    2>"$tmpdir/e2"
check "partitions text: over core cycles the column is headed IPC" \
    sh -c 'grep -Eq "^lpar .* IPC( |\$)" "$1" || { cat "$2" >&2; false; }' \
    sh "$tmpdir/l2.txt" "$tmpdir/e2"
