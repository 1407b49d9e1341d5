#!/usr/bin/env python3
# The simulated frame seen two ways, as pandas reads hvtop's CSV: the
# partitions' rows (domain lpar) and the physical cores' (domain core) of
# one run.  In every interval the partitions together count no more of
# any event both read than the cores do, use no more cores than the frame
# has, and each partition's placements add up to its row; the partitions'
# total row is their sum.  With --homenode, some partition also ran off
# its home chip but on its home node, so that the shares off the home
# chip and on a remote node differ.  With --report, the files are pages
# of hvtop report instead, whose charts of the cycles off the home chip
# and on a remote node must not be the same lines.  Prints one line per
# problem and exits 1 if any.
#   sim-conserve.py [--homenode] FILE.csv...
#   sim-conserve.py --report PAGE.html...
import importlib.util
import json
import os
import sys

import pandas

PLACES = ["home_core", "home_chip", "home_node", "remote_node"]
# Rates are counts over the interval's seconds, each rounded on its own.
REL = 1e-9

bad = 0


def problem(what):
    global bad
    print(what)
    bad = 1


def check(path, homenode):
    df = pandas.read_csv(path, dtype={"index": str, "placement": str})
    events = [c for c in df.columns if c.endswith(" [/s]")]
    core = df[df.domain == "core"]
    lp = df[df.domain == "lpar"]
    if core.empty or lp.empty:
        problem("%s: no core or no partition rows" % path)
        return
    ncores = core[core["index"] != "total"]["index"].nunique()
    cores = core[core["index"] != "total"].groupby("seq")[events].sum()
    rows = lp[(lp.placement == "all") & (lp["index"] != "total")]
    parts = rows.groupby("seq")[events].sum(min_count=1)
    total = lp[(lp.placement == "all") & (lp["index"] == "total")] \
        .set_index("seq")
    seqs = sorted(set(cores.index) | set(parts.index))
    if len(seqs) < 2:
        problem("%s: fewer than two intervals" % path)
    checked = 0
    for ev in events:
        if core[ev].isna().all() or rows[ev].isna().all():
            continue
        for s in seqs:
            if s not in parts.index or s not in cores.index:
                problem("%s seq %s: one view has no rows" % (path, s))
                continue
            p, c = parts.at[s, ev], cores.at[s, ev]
            if pandas.isna(p) or pandas.isna(c):
                continue
            checked += 1
            if p > c * (1 + REL):
                problem("%s seq %s %s: partitions %.6g > cores %.6g" %
                        (path, s, ev, p, c))
            t = total.at[s, ev] if s in total.index else None
            if t is not None and abs(t - p) > REL * max(1, abs(p)):
                problem("%s seq %s %s: total %.6g, partitions sum %.6g" %
                        (path, s, ev, t, p))
    if checked == 0:
        problem("%s: no event read in both views" % path)
    used = rows.groupby("seq")["cores"].sum()
    for s, n in used.items():
        if n > ncores * (1 + REL):
            problem("%s seq %s: partitions use %.4f cores of %d" %
                    (path, s, n, ncores))
    # Each partition's placements add up to its row.
    key = ["seq", "index"]
    wide = lp[lp["index"] != "total"].pivot_table(
        index=key, columns="placement", values=events[0], aggfunc="sum")
    missing = [p for p in PLACES + ["all"] if p not in wide.columns]
    if missing:
        problem("%s: no placement %s" % (path, missing))
        return
    gap = (wide[PLACES].sum(axis=1) - wide["all"]).abs()
    far = gap > REL * wide["all"].abs().clip(lower=1)
    for k in wide[far].index[:5]:
        problem("%s %s: placements do not add up" % (path, k))
    if homenode:
        a = rows.dropna(subset=["off_home_chip", "remote_node"])
        if not ((a.off_home_chip - a.remote_node).abs() > 1e-3).any():
            problem("%s: %%off home chip is %%remote in every row" % path)
        if not (wide["home_node"] > 0).any():
            problem("%s: nothing ran on another chip of a home node" %
                    path)
    print("%s: %d intervals, %d partitions, %d cores, %d sums checked" %
          (path, len(seqs), rows["index"].nunique(), ncores, checked))


def report(path):
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location(
        "report_check", os.path.join(here, "report-check.py"))
    rc = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rc)
    page = rc.parse(path)
    if page.data is None:
        problem("%s: no data script" % path)
        return
    charts = {c["name"]: c for c in json.loads(page.data)["charts"]}
    off = charts.get("cycles off the home chip")
    rem = charts.get("cycles on a remote node")
    if off is None or rem is None:
        problem("%s: charts %s" % (path, sorted(charts)))
        return
    apart = 0
    for label, a in zip(off["lines"], off["values"]):
        if label not in rem["lines"]:
            problem("%s: %s has no remote line" % (path, label))
            continue
        b = rem["values"][rem["lines"].index(label)]
        apart += sum(1 for x, y in zip(a, b) if x is not None and
                     y is not None and abs(x - y) > 1e-6)
    if apart == 0:
        problem("%s: the charts off the home chip and remote are the "
                "same lines" % path)
    print("%s: %d points where the two charts part" % (path, apart))


def main():
    args = sys.argv[1:]
    if "--report" in args:
        for path in [a for a in args if a != "--report"]:
            report(path)
        sys.exit(bad)
    homenode = "--homenode" in args
    for path in [a for a in args if a != "--homenode"]:
        check(path, homenode)
    sys.exit(bad)


main()
