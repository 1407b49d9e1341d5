#!/bin/sh
# A total of a formula that takes a remainder or an integer quotient
# (x % 2, x // 1000) over rows of different intervals has one rule: it
# is evaluated as over one interval of the total's seconds, every
# operand whole (the summed rates over those seconds, and the timebase
# ticks, rounded), whatever its unit.  An independent evaluator (Python,
# on the total row's rate and seconds) gets the same value, and every
# remainder is a whole number.
. "$(dirname "$0")/tap.sh"
export LC_ALL=C

if ! py=$(pandas_python); then
	echo "1..0 # SKIP no pandas"
	exit 0
fi
plan 4
# The POWER9 catalog with formulas of its own that take remainders and
# integer quotients (infix and RPN), built by hvcat.
"$py" - "$top_srcdir/catalogs/power9.json" "$tmpdir/whole.json" <<'PY'
import json
import sys
c = json.load(open(sys.argv[1]))
ev = "PM_MCS01_128B_RD_DISP_PORT01"
for name, text, unit in (
        ("RD_PARITY", ev + " % 2", ""), ("RD_MOD1000", ev + " % 1000", ""),
        ("RD_KILO", ev + " // 1000", ""), ("RD_RPN_PARITY", ev + " 2 mod", ""),
        ("RD_TICKS", "(" + ev + " + delta-timebase) % 1000", ""),
        ("RD_MOD_MHZ", ev + " % 1000", "MHz"),
        ("RD_KILO_PS", "(" + ev + " // 1000) / delta-seconds", "")):
    c["formulas"].append({"index": len(c["formulas"]), "name": name,
                          "description": "", "formula": text, "unit": unit,
                          "flags": 4, "group": 129})
json.dump(c, open(sys.argv[2], "w"))
PY
"$HVCAT" build "$tmpdir/whole.json" -o "$tmpdir/whole.bin"
# Chips updated at different times: rows cover different intervals.
SIM=clock=virtual,seed=4,update_ms=700,sockets=2,chips_per_socket=2
"$HVTOP" -b -n 40 -d 2 --sim "$SIM" --catalog "$tmpdir/whole.bin" \
    -g Memory_BW@chip --format csv >"$tmpdir/w.csv" 2>"$tmpdir/e"
check "the run exits 0" test $? = 0
"$py" - "$tmpdir/w.csv" >"$tmpdir/py" 2>&1 <<'PY'
import math
import sys
import pandas as pd
d = pd.read_csv(sys.argv[1], dtype={"index": str})
d = d[d["domain"] == "chip"]
# The simulated frame's timebase runs at 512 MHz; update_ms=700 makes
# every interval, and so the total's, a whole number of its ticks.
TB = 512e6
ops = {"RD_PARITY": lambda n, t: n % 2, "RD_MOD1000": lambda n, t: n % 1000,
       "RD_KILO": lambda n, t: n // 1000, "RD_RPN_PARITY": lambda n, t: n % 2,
       "RD_TICKS": lambda n, t: (n + round(t * TB)) % 1000,
       "RD_MOD_MHZ [MHz]": lambda n, t: n % 1000,
       "RD_KILO_PS": lambda n, t: (n // 1000) / t}
close = lambda x, y: abs(x - y) <= 1e-9 * max(abs(x), abs(y), 1)
mixed = checks = wrong = notwhole = ties = 0
for seq, g in d.groupby("seq"):
    rows = g[g["index"] != "total"]
    tot = g[g["index"] == "total"].iloc[0]
    rate = "PM_MCS01_128B_RD_DISP_PORT01 [/s]"
    if rows[rate].isna().any() or math.isnan(tot[rate]):
        continue
    if rows["interval_s"].nunique() > 1:
        mixed += 1
    # The total's count: the rows' rates over the total's seconds,
    # nearest whole.  Halfway between two (the rows' counts over 2.1 s
    # and 1.4 s scaled to 1.925 s can sum to x.5 exactly) either is
    # right, and the CSV's 12 digits cannot tell which hvtop had.
    x = rows[rate].sum() * tot["interval_s"]
    n = int(math.floor(x + 0.5))
    tie = abs(x - math.floor(x) - 0.5) < 1e-5
    ties += tie
    t = tot["interval_s"]
    for name, f in ops.items():
        v = tot[name]
        checks += 1
        if name != "RD_KILO_PS" and v != int(v):
            notwhole += 1
        if not tie and not close(v, f(n, t)):
            wrong += 1
            print("seq %d %s: hvtop %r, evaluator %r (count %d)" %
                  (seq, name, v, f(n, t), n))
print("mixed", mixed, "checks", checks, "ties", ties)
print("whole", "ok" if notwhole == 0 else "FAIL %d" % notwhole)
print("agree", "ok" if wrong == 0 else "FAIL %d" % wrong)
PY
check "intervals with rows of different seconds were checked" \
    sh -c "! grep -q '^mixed 0 ' '$tmpdir/py'"
check "every total of a mod or rem formula is a whole number" \
    grep -qx 'whole ok' "$tmpdir/py"
check "... and the independent evaluator's value" grep -qx 'agree ok' \
    "$tmpdir/py"
grep -q FAIL "$tmpdir/py" && diag "$(head -20 "$tmpdir/py")"
true
