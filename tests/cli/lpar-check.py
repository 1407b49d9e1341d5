#!/usr/bin/env python3
# Load the partition rows of hvtop's CSV and JSON lines the way their
# readers do, and check what they carry: the partition and virtual
# processor as their own columns or fields, one row per placement that
# adds up to the row of their sum ("all"), and shares that are those
# placements' fractions.  With --pandas the CSV is also read, filtered
# and pivoted with pandas.  Prints one line per problem; exits 1 if any.
#   lpar-check.py [--pandas] FILE.csv FILE.json
import csv
import json
import sys

PLACES = ["home_core", "home_chip", "home_node", "remote_node"]
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
sys.exit(bad)
