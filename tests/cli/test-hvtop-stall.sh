#!/bin/sh
# A batch run that stalls (SIGSTOP for 3 s, then SIGCONT) takes its next
# sample a tick after it wakes, as the screens do: one long interval, then
# intervals of -d again, never a burst of back-to-back samples of empty
# intervals (each one as many hypervisor calls on PowerVM) using up -n.
# The CSV is read with Python's csv module and pandas where installed.
. "$(dirname "$0")/tap.sh"
plan 4

csv=$tmpdir/stall.csv

# rows_past N SECONDS: until the CSV has more than N lines.
rows_past() { until_ok "$2" at_least_lines $(($1 + 1)) "$csv"; }

"$HVTOP" -b -n 40 -d 0.2 --format csv -g PowerBus@chip >"$csv" \
    2>"$tmpdir/err" &
pid=$!
pids=$pid
# Three rows an interval (chip 0, chip 1, total): four intervals out.
check "four intervals before the stall" rows_past 12 30
kill -STOP "$pid"
sleep 3
kill -CONT "$pid"
reap "$pid" 60
rc=$?
pids=""
check "the run ends with status 0 (got $rc)" test "$rc" -eq 0

py=$(pandas_python) || py=python3
cat >"$tmpdir/check.py" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
iv = {}
for r in rows:
    iv.setdefault(int(r["seq"]), []).append(float(r["interval_s"]))
try:
    import pandas
    d = pandas.read_csv(sys.argv[1])
    zero = d[(d["seq"] > 1) & (d["interval_s"] == 0)]
    if len(zero):
        print("pandas: %d rows after the first with interval_s 0" %
              len(zero))
except ImportError:
    pass
bad = [s for s in sorted(iv) if s > 1 and min(iv[s]) == 0]
if bad:
    print("intervals with interval_s 0: %s" % bad)
if not [s for s in iv if max(iv[s]) >= 2.5]:
    print("no interval of the 3 s stall")
if sorted(iv) != list(range(1, 41)):
    print("intervals printed: %s" % sorted(iv))
PY
out=$("$py" "$tmpdir/check.py" "$csv" 2>&1)
check "no interval of 0 s after the first; one of the stall" \
    test -z "$out"
[ -z "$out" ] || diag "$out"
check "nothing on standard error" test ! -s "$tmpdir/err"
