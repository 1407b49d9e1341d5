#!/usr/bin/env python3
"""The simulated frame counts its clocks at the rates it declares.

Usage: sim-clocks.py HVTOP

For each shipped catalog, every formula that pairs a clock counter with
a frame constant (EVENT ... * XBUS_Freq / PM_XLINK_CYCLES, ... /
PM_PHB_CYC_CNT_PHB0 * PHB_Freq) needs that counter to count at the
constant's rate, and every formula whose unit is a frequency (Hz, MHz,
GHz over delta-seconds) must read the clock it measures.  The simulator
declares PB_Freq as its nest_hz (2 GHz by default), XBUS_Freq 4.8 GHz,
ABUS_Freq 6.4 GHz and PHB_Freq 250 MHz; a second frame with nest_hz=1.8
GHz checks that the PowerBus counts follow the key.  Prints TAP.
"""

import json
import re
import subprocess
import sys

HVTOP = sys.argv[1]
CONSTS = {"PB_Freq": 2e9, "XBUS_Freq": 4.8e9, "ABUS_Freq": 6.4e9,
          "PHB_Freq": 250e6}
# What each frequency formula measures: a constant or a fixed clock.
MEASURES = {"PowerBUS_Frequency": "PB_Freq", "CS_32MHZ_Frequency": 32e6}
HZ = {"Hz": 1, "kHz": 1e3, "MHz": 1e6, "GHz": 1e9}
TOL = 1e-6

n = 0
failed = 0


def tap(ok, name, why=""):
    global n, failed
    n += 1
    if not ok:
        failed += 1
    print("%s %d - %s" % ("ok" if ok else "not ok", n, name))
    if not ok and why:
        print("# " + why)


def formulas(cat):
    out = subprocess.run([HVTOP, "--list", "formulas", "--sim",
                          "clock=virtual,catalog=" + cat],
                         stdout=subprocess.PIPE, check=True).stdout.decode()
    fs = []
    lines = out.splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"^  (\S+)\s+\[(.*)\] \(catalog\)$", line)
        if m and i + 1 < len(lines):
            fs.append((m.group(1), m.group(2), lines[i + 1].strip()))
    return fs


def run(cat, picks, metrics=False, extra=""):
    """The last interval's rows: {(domain, index): {name: value}}."""
    args = [HVTOP, "-b", "-n", "2", "--format", "json", "--sim",
            "clock=virtual,seed=1,catalog=" + cat + extra]
    for p in picks:
        args += ["-e", p]
    out = subprocess.run(args, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, check=True).stdout
    rows = {}
    for r in json.loads(out.decode().splitlines()[-1])["rows"]:
        rows[(r["domain"], r["index"])] = r["values"]
    return rows


for cat in ("power8", "power9", "power10"):
    fs = formulas(cat)
    pairs = set()
    freqs = []
    for name, unit, text in fs:
        for m in re.finditer(r"(\w+_Freq) / (PM_\w+)|/ (PM_\w+) \* (\w+_Freq)",
                             text):
            const = m.group(1) or m.group(4)
            ev = m.group(2) or m.group(3)
            pairs.add((ev, const))
        if unit in HZ:
            m = re.match(r"^(\w+) \* ([0-9.e+-]+) / delta-seconds$", text)
            freqs.append((name, unit, text, m))
    events = sorted({ev for ev, _ in pairs})
    if events:
        rows = run(cat, [ev + "@chip" for ev in events])
    for ev, const in sorted(pairs):
        got = [v[ev] for (dom, ix), v in rows.items()
               if dom == "chip" and ix is not None and ev in v]
        ok = bool(got) and all(abs(x / CONSTS[const] - 1) < TOL for x in got)
        tap(ok, "%s: %s counts at %s (%g/s)" % (cat, ev, const,
                                                 CONSTS[const]),
            "rates %s" % got[:4])
    for name, unit, text, m in freqs:
        if name not in MEASURES or m is None:
            tap(False, "%s: %s [%s] = %s: a frequency this test does not "
                "know" % (cat, name, unit, text))
            continue
        want = MEASURES[name]
        want = CONSTS[want] if isinstance(want, str) else want
        dom = "core" if m.group(1).startswith("CPM") else "chip"
        for extra, scale in (("", 1.0), (",nest_hz=1800000000", 0.9)):
            if extra and MEASURES[name] != "PB_Freq":
                continue
            rows = run(cat, [m.group(1) + "@" + dom], extra=extra)
            got = [v[name] * HZ[unit] for (d, ix), v in rows.items()
                   if d == dom and name in v]
            ok = bool(got) and all(abs(x / (want * scale) - 1) < TOL
                                   for x in got)
            tap(ok, "%s%s: %s reads %g Hz" % (cat, extra, name,
                                              want * scale),
                "values %s" % got[:4])
print("1..%d" % n)
sys.exit(1 if failed else 0)
