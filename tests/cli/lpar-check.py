#!/usr/bin/env python3
# Load the partition rows of hvtop's CSV and JSON lines the way their
# readers do, and check what they carry: the partition and virtual
# processor as their own columns or fields, one row per placement that
# adds up to the row of their sum ("all"), and shares that are those
# placements' fractions.  The CSV's sum rows carry what they derive
# (ipc, cores, off_home_chip, remote_node): IPC is instructions over
# non-idle cycles where they are read, else over cycles, the shares are the core cycles' placements' fractions, cores
# are cycles over one frequency; empty with a reason, and empty on every
# other row.  With --pandas the CSV is also read, filtered and pivoted
# with pandas.  Prints one line per problem; exits 1 if any.
#   lpar-check.py [--pandas] FILE.csv FILE.json
import csv
import json
import sys

PLACES = ["home_core", "home_chip", "home_node", "remote_node"]
DERIVED = ["ipc", "cores", "off_home_chip", "remote_node"]
# The event names hvtop takes for core cycles and for instructions.
CYCLES = ["CPM_CCYC", "PM_CYC", "PM_RUN_CYC", "HPM_CCYC", "CPM_RUN_CYC",
          "HPM_RUN_CYC", "PM_CCYC"]
INSTS = ["CPM_NON_IDLE_INST", "PM_INST_CMPL", "PM_RUN_INST_CMPL",
         "HPM_INST", "HPM_INST_CMPL", "HPM_RUN_INST_CMPL", "CPM_INST",
         "CPM_INST_CMPL", "HPM_NON_IDLE_INST"]
# Non-idle cycles: the IPC's divisor where they are read.
NONIDLE = ["CPM_NON_IDLE_PCYC", "HPM_NON_IDLE_PCYC"]
bad = 0
use_pandas = "--pandas" in sys.argv
args = [a for a in sys.argv[1:] if a != "--pandas"]
csv_path, json_path = args


def problem(what):
    global bad
    print(what)
    bad = 1


def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(a), abs(b))


with open(csv_path, newline="") as fp:
    rows = list(csv.DictReader(fp))
events = [k for k in rows[0] if k.endswith(" [/s]")]
groups = {}
for r in rows:
    if r["domain"] not in ("lpar", "lpar_vcpu"):
        if r["lpar"] or r["vcpu"] or r["placement"]:
            problem("a %s row has partition fields" % r["domain"])
        continue
    for k in ("lpar", "vcpu", "vcpus"):
        if r[k] and not r[k].isdigit():
            problem("%s is not a number: %r" % (k, r[k]))
    if r["placement"] not in ["all"] + PLACES:
        problem("unknown placement %r" % r["placement"])
    key = (r["seq"], r["domain"], r["index"], r["lpar"], r["vcpu"])
    groups.setdefault(key, {})[r["placement"]] = r
nsums = 0
for key, g in groups.items():
    if sorted(g) != sorted(["all"] + PLACES):
        problem("%s: placements %s" % (key, sorted(g)))
        continue
    for ev in events:
        parts = [g[p][ev] for p in PLACES]
        if g["all"][ev] == "" or "" in parts:
            continue
        nsums += 1
        if not close(sum(float(x) for x in parts), float(g["all"][ev])):
            problem("%s %s: placements do not add up" % (key, ev))
if nsums == 0:
    problem("no partition row with all its placements")


def first_read(names):
    """The first column of names a partition row has a value for."""
    for ev in events:
        if ev[:-len(" [/s]")] not in names:
            continue
        for r in rows:
            if r["domain"] in ("lpar", "lpar_vcpu") and r[ev] != "":
                return ev
    return None


fields = list(rows[0])
if groups and fields[fields.index("placement") + 1:][:4] != DERIVED:
    problem("the columns after placement are not %s" % DERIVED)
cyc, ins = first_read(CYCLES), first_read(INSTS)
icyc = first_read(NONIDLE) or cyc
nderived = {k: 0 for k in DERIVED}
freqs = []
for r in rows:
    lp = r["domain"] in ("lpar", "lpar_vcpu")
    for k in DERIVED:
        if k not in r:
            continue
        if not lp or r["placement"] != "all":
            if r[k] != "":
                problem("%s on a %s %s row" % (k, r["domain"],
                        r["placement"] or "core"))
            continue
        if r[k] == "":
            if (k + ": ") not in r["reason"]:
                problem("%s: empty without a reason: %r" % (k,
                        r["reason"]))
            continue
        nderived[k] += 1
        val = float(r[k])
        if k != "cores" and k != "ipc" and not 0 <= val <= 1:
            problem("%s %r is not a fraction" % (k, r[k]))
for key, g in groups.items():
    a = g.get("all")
    if a is None or cyc is None or "ipc" not in a:
        continue
    if a["ipc"] != "" and ins is not None:
        if a[icyc] == "" or a[ins] == "" or not close(
                float(a["ipc"]), float(a[ins]) / float(a[icyc])):
            problem("%s: ipc %s is not %s / %s" % (key, a["ipc"], ins,
                    icyc))
    if a["cores"] != "" and a[cyc] != "" and float(a["cores"]) > 0:
        freqs.append(float(a[cyc]) / float(a["cores"]))
    if sorted(g) != sorted(["all"] + PLACES) or a[cyc] == "":
        continue
    parts = {p: g[p][cyc] for p in PLACES}
    if "" in parts.values() or float(a[cyc]) <= 0:
        continue
    want = {"off_home_chip": (float(parts["home_node"]) +
                              float(parts["remote_node"])) / float(a[cyc]),
            "remote_node": float(parts["remote_node"]) / float(a[cyc])}
    for k, w in want.items():
        if a[k] == "" or not close(float(a[k]), w):
            problem("%s: %s %r is not the placements' %.12g" % (key, k,
                    a[k], w))
if groups and cyc is not None:
    for k in DERIVED:
        if k == "ipc" and ins is None:
            continue
        if nderived[k] == 0:
            problem("no partition row with its %s" % k)
if freqs and not all(close(f, freqs[0]) for f in freqs):
    problem("cores are not cycles over one frequency: %s .. %s" %
            (min(freqs), max(freqs)))

nshares = 0
with open(json_path) as fp:
    for line in fp:
        obj = json.loads(line)
        for r in obj["rows"]:
            if r["domain"] not in ("lpar", "lpar_vcpu"):
                continue
            if "lpar" not in r or ("vcpus" not in r and "vcpu" not in r):
                problem("a JSON partition row without its ids")
            for ev, places in r["places"].items():
                v = r["values"].get(ev)
                if v is None or None in places.values():
                    continue
                if not close(sum(places.values()), v):
                    problem("JSON %s: placements do not add up" % ev)
                sh = r["shares"][ev]
                nshares += 1
                if not close(sh["remote_node"],
                             places["remote_node"] / v):
                    problem("JSON %s: remote share" % ev)
                if not close(sh["off_home_chip"], (places["home_node"] +
                             places["remote_node"]) / v):
                    problem("JSON %s: off home chip share" % ev)
if nshares == 0:
    problem("no JSON partition row with shares")

if use_pandas:
    import pandas
    df = pandas.read_csv(csv_path)
    lp = df[df["domain"] == "lpar"].dropna(subset=["lpar"])
    if lp["lpar"].dtype.kind not in "if":
        problem("pandas: lpar is not numeric")
    read = [ev for ev in events if lp[ev].notna().any()]
    wide = lp.pivot_table(index=["seq", "lpar"], columns="placement",
                          values=read[0])
    if list(wide.columns) != sorted(["all"] + PLACES):
        problem("pandas: the pivot has columns %s" % list(wide.columns))
    off = (wide["home_node"] + wide["remote_node"]) / wide["all"]
    if off.dropna().empty:
        problem("pandas: no share off the home chip")
    # The derived columns load as numbers, and IPC is the row's ratio.
    sums = df[df["domain"].isin(["lpar", "lpar_vcpu"]) &
              (df["placement"] == "all")]
    for k in DERIVED:
        if sums[k].dtype.kind not in "if":
            problem("pandas: %s is not numeric" % k)
    if cyc is not None and ins is not None:
        both = sums.dropna(subset=["ipc"])
        ratio = both[ins] / both[icyc]
        if both.empty or ((both["ipc"] - ratio).abs() >
                          1e-9 * ratio.abs().clip(lower=1)).any():
            problem("pandas: ipc is not %s / %s" % (ins, icyc))
sys.exit(bad)
